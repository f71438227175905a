package outran

import "sortie/engine"

// ---- Actions (README: "Actions") ----

// Submit lays the seat's tokens in order and puts its Finish card down: the
// one submission of the run, final. An empty list gives up (wrong).
type Submit struct {
	Cards []Token `json:"cards"`
}

// VoteStop is a finished seat's vote to stop the run for a seat that takes
// far too long (D22).
type VoteStop struct{}

// ChoosePlace is the last correct seat's choice: move to the lowest free
// position (Leftmost) or stay (D24).
type ChoosePlace struct {
	Leftmost bool `json:"leftmost"`
}

// Infect names the neighbour an infected seat on a biohazard infects, when
// two are eligible (Zombie, D29).
type Infect struct {
	Target engine.Seat `json:"target"`
}

// Play plays one interference card from the hand during the seat's
// interference turn (Bear, Dragon).
type Play struct {
	Card   Card        `json:"card"`
	Target engine.Seat `json:"target"`
}

// EndTurn ends the seat's interference turn; unplayed cards stay in hand.
type EndTurn struct{}

// Kind returns "submit".

// Kind returns "submit".
func (Submit) Kind() string { return "submit" }

// Kind returns "vote_stop".

// Kind returns "vote_stop".
func (VoteStop) Kind() string { return "vote_stop" }

// Kind returns "choose_place".

// Kind returns "choose_place".
func (ChoosePlace) Kind() string { return "choose_place" }

// Kind returns "infect".

// Kind returns "infect".
func (Infect) Kind() string { return "infect" }

// Kind returns "play".

// Kind returns "play".
func (Play) Kind() string { return "play" }

// Kind returns "end_turn".

// Kind returns "end_turn".
func (EndTurn) Kind() string { return "end_turn" }

// decodeAction reads an action from its JSON form.
func decodeAction(b []byte) (engine.Action, error) {
	v, err := engine.DecodeTyped(b, func(kind string) (any, bool) {
		switch kind {
		case "submit":
			return &Submit{}, true
		case "vote_stop":
			return &VoteStop{}, true
		case "choose_place":
			return &ChoosePlace{}, true
		case "infect":
			return &Infect{}, true
		case "play":
			return &Play{}, true
		case "end_turn":
			return &EndTurn{}, true
		}
		return nil, false
	})
	if err != nil {
		return nil, err
	}
	switch a := v.(type) {
	case *Submit:
		return *a, nil
	case *VoteStop:
		return *a, nil
	case *ChoosePlace:
		return *a, nil
	case *Infect:
		return *a, nil
	case *Play:
		return *a, nil
	case *EndTurn:
		return *a, nil
	}
	return nil, engine.Refuse(engine.CodeMalformed, "Unknown action.")
}

// ---- Events (README: "Events") ----

// Countdown: a round starts; its path card is revealed at RevealAt.
type Countdown struct {
	Round    int           `json:"round"`
	RevealAt engine.Millis `json:"reveal_at"`
	Flipper  engine.Seat   `json:"flipper"`
}

// Revealed: the path card is shown to everyone; the run starts.
type Revealed struct {
	Round    int           `json:"round"`
	Card     string        `json:"card"`
	Symbols  []Token       `json:"symbols"`
	Antidote bool          `json:"antidote,omitempty"`
	Ends     engine.Millis `json:"ends"`
}

// Reshuffled: a discard pile became the new deck ("path" or "interference").
type Reshuffled struct {
	Pile  string `json:"pile"`
	Count int    `json:"count"`
}

// Submitted: a seat put its Finish card down. Everyone is told when; what
// it laid stays secret until the run ends (the seat's own view shows it).
type Submitted struct {
	Seat    engine.Seat   `json:"seat"`
	At      engine.Millis `json:"at"`
	Elapsed engine.Millis `json:"elapsed"`
	Rank    int           `json:"rank"`
}

// VoteOpen: a seat that has finished may now vote to stop the run.
type VoteOpen struct {
	Seat engine.Seat `json:"seat"`
}

// Voted: a seat voted to stop the run.
type Voted struct {
	Seat engine.Seat `json:"seat"`
}

// RunEnded: the run is over ("all_submitted", "vote" or "time_limit") and
// every submission has been checked: the results in finish order, then the
// stopped seats.
type RunEnded struct {
	Reason  string        `json:"reason"`
	At      engine.Millis `json:"at"`
	Results []SeatResult  `json:"results"`
}

// SeatResult is one seat's submission compared with what it had to lay.
// Result is "correct", "wrong" or "stopped".
type SeatResult struct {
	Seat      engine.Seat   `json:"seat"`
	Result    string        `json:"result"`
	Elapsed   engine.Millis `json:"elapsed,omitempty"`
	Cards     []Token       `json:"cards"`
	Canonical []Token       `json:"canonical"`
}

// Cured: a seat's correct submission ended with the antidote (Zombie).
type Cured struct {
	Seat engine.Seat `json:"seat"`
}

// Positions: the monster tokens after placement, by seat (0 = the +0 box).
type Positions struct {
	Positions []int `json:"positions"`
}

// PlaceOffered: the last correct seat may move to the lowest free position.
type PlaceOffered struct {
	Seat     engine.Seat   `json:"seat"`
	Position int           `json:"position"`
	Until    engine.Millis `json:"until"`
}

// ChosePlace: the last correct seat's answer (Timeout: it stayed by default).
type ChosePlace struct {
	Seat     engine.Seat `json:"seat"`
	Leftmost bool        `json:"leftmost"`
	Position int         `json:"position"`
	Timeout  bool        `json:"timeout,omitempty"`
}

// Moved: the round order (§4.9), fixed after placement, and the seats'
// movement on the exit path in that order: Steps and Progress are by seat.
// Escaped is the seat that reached the exit and wins, or -1; the seats
// after it in the order did not move.
type Moved struct {
	Order    []engine.Seat `json:"order"`
	Steps    []int         `json:"steps"`
	Progress []int         `json:"progress"`
	Escaped  engine.Seat   `json:"escaped"`
}

// Clawed: the Bear clawed the seat on pos1.
type Clawed struct {
	Seat engine.Seat `json:"seat"`
}

// Burned: the Dragon's fire reached a seat on a fire square.
type Burned struct {
	Seat engine.Seat `json:"seat"`
}

// Infected: a seat became infected, by a biohazard square or by a
// neighbour (Spreader).
type Infected struct {
	Seat     engine.Seat  `json:"seat"`
	By       string       `json:"by"`
	Spreader *engine.Seat `json:"spreader,omitempty"`
}

// InfectOffered: an infected seat on a biohazard must choose which neighbour
// to infect.
type InfectOffered struct {
	Seat       engine.Seat   `json:"seat"`
	Candidates []engine.Seat `json:"candidates"`
	Until      engine.Millis `json:"until"`
}

// Discarded: cards went to the interference discard pile. From is a seat, or
// -1 for the Vampire centre, or -2 for a card leaving play at once (an
// action card, a drawn Release).
type Discarded struct {
	From   int    `json:"from"`
	Cards  []Card `json:"cards"`
	Reason string `json:"reason"`
}

// Drew: a seat drew cards into its hand. The drawer is told which; the
// others only how many.
type Drew struct {
	Seat  engine.Seat `json:"seat"`
	Count int         `json:"count"`
	Cards []Card      `json:"cards,omitempty"`
}

// DrewFaceUp: a card was drawn face up, into the Vampire centre (Seat -1) or
// in front of an infected seat (Zombie).
type DrewFaceUp struct {
	Seat int  `json:"seat"`
	Card Card `json:"card"`
}

// Placed: a card arrived in front of a holder (seat, or -1 for the centre).
type Placed struct {
	Holder int  `json:"holder"`
	Card   Card `json:"card"`
}

// TurnStarted: a seat's interference turn begins.
type TurnStarted struct {
	Seat  engine.Seat   `json:"seat"`
	Until engine.Millis `json:"until"`
}

// TurnEnded: a seat's interference turn is over.
type TurnEnded struct {
	Seat    engine.Seat `json:"seat"`
	Timeout bool        `json:"timeout,omitempty"`
}

// Played: a seat played a card from its hand.
type Played struct {
	Seat   engine.Seat `json:"seat"`
	Card   Card        `json:"card"`
	Target engine.Seat `json:"target"`
}

// Swapped: the cards in front of two seats changed owners (D12).
type Swapped struct {
	Seat   engine.Seat `json:"seat"`
	Target engine.Seat `json:"target"`
	Gave   []Card      `json:"gave"`
	Took   []Card      `json:"took"`
}

// Stolen: a Thief took a whole hand. The two seats concerned see the cards.
type Stolen struct {
	From  engine.Seat `json:"from"`
	To    engine.Seat `json:"to"`
	Count int         `json:"count"`
	Cards []Card      `json:"cards,omitempty"`
}

// GameOver: the game ended ("escaped" or "round_cap").
type GameOver struct {
	Reason  string        `json:"reason"`
	Winners []engine.Seat `json:"winners"`
	Ranks   []int         `json:"ranks"`
}

// Kind returns "countdown".
func (Countdown) Kind() string { return "countdown" }

// Kind returns "revealed".
func (Revealed) Kind() string { return "revealed" }

// Kind returns "reshuffled".
func (Reshuffled) Kind() string { return "reshuffled" }

// Kind returns "submitted".
func (Submitted) Kind() string { return "submitted" }

// Kind returns "vote_open".
func (VoteOpen) Kind() string { return "vote_open" }

// Kind returns "voted".
func (Voted) Kind() string { return "voted" }

// Kind returns "run_ended".
func (RunEnded) Kind() string { return "run_ended" }

// Kind returns "cured".
func (Cured) Kind() string { return "cured" }

// Kind returns "positions".
func (Positions) Kind() string { return "positions" }

// Kind returns "place_offered".
func (PlaceOffered) Kind() string { return "place_offered" }

// Kind returns "chose_place".
func (ChosePlace) Kind() string { return "chose_place" }

// Kind returns "moved".
func (Moved) Kind() string { return "moved" }

// Kind returns "clawed".
func (Clawed) Kind() string { return "clawed" }

// Kind returns "burned".
func (Burned) Kind() string { return "burned" }

// Kind returns "infected".
func (Infected) Kind() string { return "infected" }

// Kind returns "infect_offered".
func (InfectOffered) Kind() string { return "infect_offered" }

// Kind returns "discarded".
func (Discarded) Kind() string { return "discarded" }

// Kind returns "drew".
func (Drew) Kind() string { return "drew" }

// Kind returns "drew_face_up".
func (DrewFaceUp) Kind() string { return "drew_face_up" }

// Kind returns "placed".
func (Placed) Kind() string { return "placed" }

// Kind returns "turn_started".
func (TurnStarted) Kind() string { return "turn_started" }

// Kind returns "turn_ended".
func (TurnEnded) Kind() string { return "turn_ended" }

// Kind returns "played".
func (Played) Kind() string { return "played" }

// Kind returns "swapped".
func (Swapped) Kind() string { return "swapped" }

// Kind returns "stolen".
func (Stolen) Kind() string { return "stolen" }

// Kind returns "game_over".
func (GameOver) Kind() string { return "game_over" }
