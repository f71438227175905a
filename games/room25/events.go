package room25

import "sortie/engine"

// The event bodies of Room 25. Their JSON form is {"type": Kind(), fields...}.
// An event with a secret goes to its seat alone (engine.Only), with a
// redacted copy to the others (engine.AllBut) when they learn that something
// happened. README.md lists them.

// StartLookChosen says a seat has made its starting-look choice, without
// saying which (D5).
type StartLookChosen struct {
	Seat int `json:"seat"`
}

// Seen tells a seat alone the identity of a face-down room it viewed.
type Seen struct {
	Tile TileID `json:"tile"`
	Room Room   `json:"room"`
}

// StartHintChosen says a seat has chosen its starting hint, without saying
// which (D5).
type StartHintChosen struct {
	Seat int `json:"seat"`
}

// StartLookEntry is one seat's starting look and hint, once published.
type StartLookEntry struct {
	Seat   int    `json:"seat"`
	Tile   TileID `json:"tile,omitempty"` // absent: the seat skipped
	Colour Colour `json:"colour,omitempty"`
}

// StartLooks publishes every starting look and hint at once (D5).
type StartLooks struct {
	Looks []StartLookEntry `json:"looks"`
}

// TurnStarted opens a turn: its number, the turns left (counting this one)
// and the marker line.
type TurnStarted struct {
	Turn      int         `json:"turn"`
	TurnsLeft int         `json:"turns_left"`
	Line      []Character `json:"line"`
}

// Programmed says a character is programmed: to its owner with the tokens,
// to the others with their count only (D6).
type Programmed struct {
	Character Character `json:"character"`
	Tokens    int       `json:"tokens"`
	First     Token     `json:"first,omitempty"`
	Second    Token     `json:"second,omitempty"`
}

// RoundStarted opens action round 1 or 2.
type RoundStarted struct {
	Round int `json:"round"`
}

// TokenRevealed shows a character's token at its slot (or the action it
// chose in immediate play).
type TokenRevealed struct {
	Character Character `json:"character"`
	Round     int       `json:"round"`
	Token     Token     `json:"token"`
}

// Waited says a character lets round 1 go by (D7, D8); its token, if any,
// stays hidden.
type Waited struct {
	Character Character `json:"character"`
}

// Passed says an immediate-play character takes no second action (D8).
type Passed struct {
	Character Character `json:"character"`
}

// ActionLost says a revealed action could not be performed (D10). Reason is
// a rule-error code such as "no_one_to_push".
type ActionLost struct {
	Character Character `json:"character"`
	Token     Token     `json:"token"`
	Reason    string    `json:"reason"`
}

// Looked says publicly which seat viewed which face-down tile (D23); the
// identity goes to that seat alone in a Seen event. Via is "look" or
// "vision".
type Looked struct {
	Seat      int       `json:"seat"`
	Character Character `json:"character"`
	Tile      TileID    `json:"tile"`
	Via       string    `json:"via"`
}

// Hinted is a seat's public claim about a tile it viewed (§4.12).
type Hinted struct {
	Seat   int    `json:"seat"`
	Tile   TileID `json:"tile"`
	Colour Colour `json:"colour"`
}

// Entered says a character arrived on a tile (§4.7). How is "move", "push"
// (By is the pusher), "vortex", "twin" or "illusion". Revealed is set when
// the entry turned the tile face up.
type Entered struct {
	Character Character `json:"character"`
	Tile      TileID    `json:"tile"`
	Cell      int       `json:"cell"`
	Room      Room      `json:"room"`
	Revealed  bool      `json:"revealed,omitempty"`
	How       string    `json:"how"`
	By        Character `json:"by,omitempty"`
}

// Slid says a line slid one step (§4.9), by a Control action of Character
// or by the Control Room. A Room 25 that wrapped is an ordinary slide.
type Slid struct {
	Line        Line      `json:"line"`
	Dir         Dir       `json:"dir"`
	Character   Character `json:"character"`
	ControlRoom bool      `json:"control_room,omitempty"`
}

// Swapped says two tiles exchanged cells: by the Mobile Room (with its
// occupants) or the Illusion Room.
type Swapped struct {
	By    Room   `json:"by"`
	Tile  TileID `json:"tile"`
	With  TileID `json:"with"`
	Cell  int    `json:"cell"`
	Other int    `json:"other_cell"`
}

// Trapped says a character must leave a Trapped Room with its next action.
type Trapped struct {
	Character Character `json:"character"`
	Tile      TileID    `json:"tile"`
}

// Flooding says a character flooded a room: it drowns at the end of its
// round-2 slot of turn DrownsTurn if still there.
type Flooding struct {
	Character  Character `json:"character"`
	Tile       TileID    `json:"tile"`
	DrownsTurn int       `json:"drowns_turn"`
}

// Died says a character was eliminated; Cause is "deadly", "acid", "trap" or
// "drowned".
type Died struct {
	Character Character `json:"character"`
	Tile      TileID    `json:"tile"`
	Cause     string    `json:"cause"`
}

// BeaconPlaced says a memory beacon went onto a face-down tile.
type BeaconPlaced struct {
	Character Character `json:"character"`
	Tile      TileID    `json:"tile"`
}

// BeaconReturned says a beacon came off a tile turned face up: back to its
// owner, or out of the game if its owner is dead.
type BeaconReturned struct {
	Character Character `json:"character"`
	Tile      TileID    `json:"tile"`
	Removed   bool      `json:"removed,omitempty"`
}

// RoleRevealed makes a Suspicion role public. Cause is "reveal" (the Guard
// chose to), "masks_fall" (D33) or "death" (the cascade, D34).
type RoleRevealed struct {
	Seat      int       `json:"seat"`
	Character Character `json:"character"`
	Role      Role      `json:"role"`
	Cause     string    `json:"cause"`
}

// Alarm says the alarm sounded: the game now ends after TurnsLeft turns,
// this one included (§4.13).
type Alarm struct {
	TurnsLeft int `json:"turns_left"`
}

// Escaped says Room 25 left the complex (§4.15).
type Escaped struct {
	Character Character `json:"character"`
	Line      Line      `json:"line"`
	Dir       Dir       `json:"dir"`
}

// GameOver ends the game: the reason (D44), the winning seats, the scores
// and a sentence.
type GameOver struct {
	Reason  string `json:"reason"`
	Winners []int  `json:"winners"`
	Scores  []int  `json:"scores"`
	Summary string `json:"summary"`
}

// Kind returns "start_look_chosen".
func (StartLookChosen) Kind() string { return "start_look_chosen" }

// Kind returns "seen".
func (Seen) Kind() string { return "seen" }

// Kind returns "start_hint_chosen".
func (StartHintChosen) Kind() string { return "start_hint_chosen" }

// Kind returns "start_looks".
func (StartLooks) Kind() string { return "start_looks" }

// Kind returns "turn_started".
func (TurnStarted) Kind() string { return "turn_started" }

// Kind returns "programmed".
func (Programmed) Kind() string { return "programmed" }

// Kind returns "round_started".
func (RoundStarted) Kind() string { return "round_started" }

// Kind returns "token_revealed".
func (TokenRevealed) Kind() string { return "token_revealed" }

// Kind returns "waited".
func (Waited) Kind() string { return "waited" }

// Kind returns "passed".
func (Passed) Kind() string { return "passed" }

// Kind returns "action_lost".
func (ActionLost) Kind() string { return "action_lost" }

// Kind returns "looked".
func (Looked) Kind() string { return "looked" }

// Kind returns "hinted".
func (Hinted) Kind() string { return "hinted" }

// Kind returns "entered".
func (Entered) Kind() string { return "entered" }

// Kind returns "slid".
func (Slid) Kind() string { return "slid" }

// Kind returns "swapped".
func (Swapped) Kind() string { return "swapped" }

// Kind returns "trapped".
func (Trapped) Kind() string { return "trapped" }

// Kind returns "flooding".
func (Flooding) Kind() string { return "flooding" }

// Kind returns "died".
func (Died) Kind() string { return "died" }

// Kind returns "beacon_placed".
func (BeaconPlaced) Kind() string { return "beacon_placed" }

// Kind returns "beacon_returned".
func (BeaconReturned) Kind() string { return "beacon_returned" }

// Kind returns "role_revealed".
func (RoleRevealed) Kind() string { return "role_revealed" }

// Kind returns "alarm".
func (Alarm) Kind() string { return "alarm" }

// Kind returns "escaped".
func (Escaped) Kind() string { return "escaped" }

// Kind returns "game_over".
func (GameOver) Kind() string { return "game_over" }

// Event bodies made once, for the events of every action (see memory.go):
// the same values the rules would build, boxed by the first New so that
// telling them does not allocate. Nobody may change them.
var (
	programmedBodies   [maxChars + 1][numTokens][numTokens]engine.EventBody // [c][first][second]
	programmedCounts   [maxChars + 1][3]engine.EventBody                    // [c][tokens], redacted
	revealedBodies     [maxChars + 1][roundsPerTurn + 1][numTokens]engine.EventBody
	lostBodies         [maxChars + 1][numTokens][len(lostReasons)]engine.EventBody
	waitedBodies       [maxChars + 1]engine.EventBody
	passedBodies       [maxChars + 1]engine.EventBody
	hintedBodies       [maxSeats][numTiles][HintBlue + 1]engine.EventBody
	lookedBodies       [maxSeats][maxChars + 1][numTiles][len(lookVias)]engine.EventBody
	seenBodies         [numTiles][numRooms]engine.EventBody
	slidBodies         [numLines + 1][Right + 1][maxChars + 1][2]engine.EventBody // [line][dir][c][control room]
	trappedBodies      [maxChars + 1][numTiles]engine.EventBody
	beaconPlacedBodies [maxChars + 1][numTiles]engine.EventBody
)

// lostReasons are the reasons of ActionLost.
var lostReasons = [...]string{codeDarkRoom, codeNoLookTarget, codeNoDestination, codePrisonExit, codePushFromCentral, codeNoOneToPush, codeCentralRoomAction, codeNoAction}

// lookVias are the ways of Looked.
var lookVias = [...]string{"look", "vision"}

// buildEventBodies makes the event bodies above (see buildTables).
func buildEventBodies() {
	for c := Scientist; c <= LittleGirl; c++ {
		for f := TokenLook; f <= TokenControl; f++ {
			for sec := NoToken; sec <= TokenControl; sec++ {
				n := 1
				if sec != NoToken {
					n = 2
				}
				programmedBodies[c][f][sec] = Programmed{Character: c, Tokens: n, First: f, Second: sec}
			}
		}
		for n := 1; n <= 2; n++ {
			programmedCounts[c][n] = Programmed{Character: c, Tokens: n}
		}
		for t := NoToken; t <= TokenControl; t++ {
			for round := 1; round <= roundsPerTurn; round++ {
				revealedBodies[c][round][t] = TokenRevealed{Character: c, Round: round, Token: t}
			}
			for i, r := range lostReasons {
				lostBodies[c][t][i] = ActionLost{Character: c, Token: t, Reason: r}
			}
		}
		waitedBodies[c] = Waited{Character: c}
		passedBodies[c] = Passed{Character: c}
		for t := range int8(numTiles) {
			trappedBodies[c][t] = Trapped{Character: c, Tile: tileID(t)}
			beaconPlacedBodies[c][t] = BeaconPlaced{Character: c, Tile: tileID(t)}
			for p := range maxSeats {
				for i, via := range lookVias {
					lookedBodies[p][c][t][i] = Looked{Seat: p, Character: c, Tile: tileID(t), Via: via}
				}
			}
		}
		for l := Line(1); l <= numLines; l++ {
			for d := Up; d <= Right; d++ {
				slidBodies[l][d][c][0] = Slid{Line: l, Dir: d, Character: c}
				slidBodies[l][d][c][1] = Slid{Line: l, Dir: d, Character: c, ControlRoom: true}
			}
		}
	}
	for t := range int8(numTiles) {
		for p := range maxSeats {
			for h := HintNone; h <= HintBlue; h++ {
				hintedBodies[p][t][h] = Hinted{Seat: p, Tile: tileID(t), Colour: h}
			}
		}
		for r := range numRooms {
			seenBodies[t][r] = Seen{Tile: tileID(t), Room: r}
		}
	}
}

// actionLost returns ActionLost{Character: c, Token: t, Reason: reason}.
func actionLost(c Character, t Token, reason string) engine.EventBody {
	for i, r := range lostReasons {
		if r == reason {
			return lostBodies[c][t][i]
		}
	}
	return ActionLost{Character: c, Token: t, Reason: reason}
}

// looked returns Looked{Seat: p, Character: c, Tile: tileID(t), Via: via}.
func looked(p int8, c Character, t int8, via string) engine.EventBody {
	for i, v := range lookVias {
		if v == via {
			return lookedBodies[p][c][t][i]
		}
	}
	return Looked{Seat: int(p), Character: c, Tile: tileID(t), Via: via}
}

// slid returns Slid{Line: l, Dir: d, Character: c, ControlRoom: byRoom}.
func slid(l Line, d Dir, c Character, byRoom bool) engine.EventBody {
	return slidBodies[l][d][c][b2i(byRoom)]
}
