package evades

import (
	"encoding/json"
	"fmt"
	"slices"

	"sortie/engine"
)

// This file holds the JSON vocabulary of the game: the ids of cards, areas,
// doors, objects and the rest, the actions a seat may send, and the events it
// is told. The README lists them with examples.

// ---- Ids as JSON text ----

// The JSON text of the ids that views repeat most, made once (the encoder
// only reads them).
var (
	cardText = func() (t [numCards][]byte) {
		for i := range t {
			t[i] = []byte(cards[i].ID)
		}
		return t
	}()
	doorText = func() (t [numDoors][]byte) {
		for i := range t {
			t[i] = []byte(doors[i].ID)
		}
		return t
	}()
	areaText = func() (t [numAreas][]byte) {
		for i := range t {
			t[i] = []byte(areas[i].ID)
		}
		return t
	}()
)

// noCardID names an empty face-up slot in views. The shipped counts never
// leave a slot empty (§4.4, Supply), but the view must still encode if they
// are ever tuned that far.
const noCardID = "none"

// MarshalText writes the card's type id.
func (c Card) MarshalText() ([]byte, error) {
	if c == noCard {
		return []byte(noCardID), nil
	}
	if c >= numCards {
		return nil, fmt.Errorf("evades: no card type %d", c)
	}
	return cardText[c], nil
}

// UnmarshalText reads a card type id.
func (c *Card) UnmarshalText(b []byte) error {
	if string(b) == noCardID {
		*c = noCard // only ever seen in a view's empty face-up slot
		return nil
	}
	for i := range cards {
		if cards[i].ID == string(b) {
			*c = Card(i)
			return nil
		}
	}
	return fmt.Errorf("no Combines card type %q", b)
}

// MarshalText writes the area id.
func (a Area) MarshalText() ([]byte, error) {
	if int(a) >= numAreas {
		return nil, fmt.Errorf("evades: no area %d", a)
	}
	return areaText[a], nil
}

// UnmarshalText reads an area id.
func (a *Area) UnmarshalText(b []byte) error {
	for i := range areas {
		if areas[i].ID == string(b) {
			*a = Area(i)
			return nil
		}
	}
	return fmt.Errorf("no area %q", b)
}

// MarshalText writes the door id.
func (d Door) MarshalText() ([]byte, error) {
	if int(d) >= numDoors {
		return nil, fmt.Errorf("evades: no door %d", d)
	}
	return doorText[d], nil
}

// UnmarshalText reads a door id.
func (d *Door) UnmarshalText(b []byte) error {
	for i := range doors {
		if doors[i].ID == string(b) {
			*d = Door(i)
			return nil
		}
	}
	return fmt.Errorf("no door %q", b)
}

// MarshalText writes the Pass-Pass type id.
func (p PassPass) MarshalText() ([]byte, error) {
	if p >= numPassPass {
		return nil, fmt.Errorf("evades: no Pass-Pass type %d", p)
	}
	return []byte(passPassCards[p].ID), nil
}

// UnmarshalText reads a Pass-Pass type id.
func (p *PassPass) UnmarshalText(b []byte) error {
	for i := range passPassCards {
		if passPassCards[i].ID == string(b) {
			*p = PassPass(i)
			return nil
		}
	}
	return fmt.Errorf("no Pass-Pass type %q", b)
}

// MarshalText writes the Warning face id.
func (t Token) MarshalText() ([]byte, error) {
	if t >= numTokens {
		return nil, fmt.Errorf("evades: no Warning token %d", t)
	}
	return []byte(tokens[t].ID), nil
}

// UnmarshalText reads a Warning face id.
func (t *Token) UnmarshalText(b []byte) error {
	for i := range tokens {
		if tokens[i].ID == string(b) {
			*t = Token(i)
			return nil
		}
	}
	return fmt.Errorf("no Warning token %q", b)
}

// MarshalText writes the object token id.
func (o Object) MarshalText() ([]byte, error) {
	if int(o) >= numObjects {
		return nil, fmt.Errorf("evades: no object %d", o)
	}
	return []byte(objects[o].ID), nil
}

// UnmarshalText reads an object token id.
func (o *Object) UnmarshalText(b []byte) error {
	for i := range objects {
		if objects[i].ID == string(b) {
			*o = Object(i)
			return nil
		}
	}
	return fmt.Errorf("no object token %q", b)
}

// MarshalText writes the plan id.
func (p Plan) MarshalText() ([]byte, error) {
	if int(p) >= numPlans {
		return nil, fmt.Errorf("evades: no plan %d", p)
	}
	return []byte(plans[p].ID), nil
}

// UnmarshalText reads a plan id.
func (p *Plan) UnmarshalText(b []byte) error {
	for i := range plans {
		if plans[i].ID == string(b) {
			*p = Plan(i)
			return nil
		}
	}
	return fmt.Errorf("no escape plan %q", b)
}

// ---- Actions ----

// Action kinds, as in the "type" field of their JSON form.
const (
	kindTakeFaceUp      = "take_face_up"
	kindTakeBlind       = "take_blind"
	kindDrawPassPass    = "draw_pass_pass"
	kindCrossDoor       = "cross_door"
	kindTakeObject      = "take_object"
	kindEndTurn         = "end_turn"
	kindChooseVent      = "choose_vent"
	kindChooseCodet     = "choose_codetainee"
	kindChooseTarget    = "choose_target"
	kindChooseDoors     = "choose_doors"
	kindGiveCards       = "give_cards"
	kindAnswerBlackmail = "answer_blackmail"
	kindDiscard         = "discard"
)

// Credit is a free crossing of this turn, used instead of a payment (§4.6).
// Its JSON form is "badge" or "corruption"; the zero value is no credit.
type Credit uint8

// The credits.
const (
	NoCredit Credit = iota
	BadgeCredit
	CorruptionCredit
	numCredits
)

var creditIDs = [numCredits]string{"", "badge", "corruption"}

// MarshalText writes "badge" or "corruption".
func (c Credit) MarshalText() ([]byte, error) {
	if c >= numCredits {
		return nil, fmt.Errorf("evades: no credit %d", c)
	}
	return []byte(creditIDs[c]), nil
}

// UnmarshalText reads "badge" or "corruption".
func (c *Credit) UnmarshalText(b []byte) error {
	for i, id := range creditIDs {
		if i > 0 && id == string(b) {
			*c = Credit(i)
			return nil
		}
	}
	return fmt.Errorf("no credit %q (badge or corruption)", b)
}

// SlotPair is two face-up slots. Its JSON form is an array of exactly two
// numbers.
type SlotPair [2]int8

// UnmarshalJSON reads exactly two slot numbers.
func (sp *SlotPair) UnmarshalJSON(b []byte) error {
	var xs []int8
	if err := json.Unmarshal(b, &xs); err != nil {
		return err
	}
	if len(xs) != 2 {
		return fmt.Errorf("slots must hold exactly two numbers, not %d", len(xs))
	}
	*sp = SlotPair{xs[0], xs[1]}
	return nil
}

// ---- Lists of ids ----

// maxListed is the most ids one list of an action or an event may hold: a
// full hand and the two cards of a draw (no list of a legal action or of an
// event comes near it). A longer list in JSON is malformed.
const maxListed = handLimit + takeCount

// idList is a short list of card or door ids held by value, so that actions
// and events holding one compare with == and copy without allocating (the
// search bots key their trees by action value). Its JSON form is an array of
// ids. Places past its length are always zero, so equal lists are ==.
type idList[T Card | Door] struct {
	n uint8
	a [maxListed]T
}

// Cards is a list of Combines cards in an action or event (a multiset,
// D40). Build one with CardsOf.
type Cards = idList[Card]

// Doors is a list of doors in an action. Build one with DoorsOf.
type Doors = idList[Door]

// CardsOf returns the list of the given cards, in the given order. It panics
// beyond 14 cards.
func CardsOf(cs ...Card) Cards { return listOf(cs) }

// DoorsOf returns the list of the given doors, in the given order. It panics
// beyond 14 doors.
func DoorsOf(ds ...Door) Doors { return listOf(ds) }

func listOf[T Card | Door](xs []T) idList[T] {
	if len(xs) > maxListed {
		panic(fmt.Sprintf("evades: a list of %d ids (at most %d)", len(xs), maxListed))
	}
	var l idList[T]
	l.n = uint8(copy(l.a[:], xs))
	return l
}

// Len is the number of ids in the list.
func (l idList[T]) Len() int { return int(l.n) }

// List returns a copy of the ids as a slice.
func (l idList[T]) List() []T { return append([]T(nil), l.a[:l.n]...) }

// IsZero reports whether the list is empty (JSON omitzero).
func (l idList[T]) IsZero() bool { return l.n == 0 }

// items is the list as a slice of the list itself (no copy, no allocation
// while it does not outlive l).
func (l *idList[T]) items() []T { return l.a[:l.n] }

// sort puts the ids in canonical order.
func (l *idList[T]) sort() { slices.Sort(l.a[:l.n]) }

// MarshalJSON writes the ids as an array.
func (l idList[T]) MarshalJSON() ([]byte, error) { return json.Marshal(l.a[:l.n]) }

// UnmarshalJSON reads an array of ids; null reads as the empty list.
func (l *idList[T]) UnmarshalJSON(b []byte) error {
	var xs []T
	if err := json.Unmarshal(b, &xs); err != nil {
		return err
	}
	if len(xs) > maxListed {
		return fmt.Errorf("a list holds at most %d ids, not %d", maxListed, len(xs))
	}
	*l = listOf(xs)
	return nil
}

// OptSlot is an optional face-up slot (0–4), held by value. Its JSON form is
// a number, or nothing. Build one with SlotAt.
type OptSlot struct {
	set bool
	i   int
}

// SlotAt returns the slot i.
func SlotAt(i int) OptSlot { return OptSlot{true, i} }

// Get returns the slot, and whether there is one.
func (o OptSlot) Get() (int, bool) { return o.i, o.set }

// IsZero reports whether no slot is given (JSON omitzero).
func (o OptSlot) IsZero() bool { return !o.set }

// MarshalJSON writes the slot number.
func (o OptSlot) MarshalJSON() ([]byte, error) { return json.Marshal(o.i) }

// UnmarshalJSON reads a slot number; null reads as no slot.
func (o *OptSlot) UnmarshalJSON(b []byte) error {
	var i *int
	if err := json.Unmarshal(b, &i); err != nil {
		return err
	}
	*o = OptSlot{}
	if i != nil {
		*o = SlotAt(*i)
	}
	return nil
}

// Codetainee sources for ChooseCodetainee.Source.
const (
	sourceFaceUp   = "face_up"
	sourceBlind    = "blind"
	sourcePassPass = "pass_pass"
)

// ventNone declines a vent.
const ventNone = "none"

// Every action is a small struct compared by value (no pointers or slices
// inside): Legal hands out values, DecodeAction returns values, and Apply
// also accepts pointers to them.

// TakeFaceUp is step 1's first action: take the face-up cards in two slots
// (0–4). At 11 or 12 cards it first opens the discard the draw needs (I13).
type TakeFaceUp struct {
	Slots SlotPair `json:"slots"`
}

// TakeBlind is step 1's second action: draw the top two Combines cards,
// after the same discard as TakeFaceUp.
type TakeBlind struct{}

// DrawPassPass is step 1's third action: reveal the top Pass-Pass card, which
// acts at once.
type DrawPassPass struct{}

// CrossDoor crosses a door touching the pawn's area, paying the door's current
// face with exactly Level cards of its type or jokers, or with one credit
// ("badge" or "corruption") instead.
type CrossDoor struct {
	Door   Door   `json:"door"`
	Credit Credit `json:"credit,omitempty"`
	Pay    Cards  `json:"pay,omitzero"`
}

// TakeObject picks up an object token in the pawn's room.
type TakeObject struct {
	Token Object `json:"token"`
}

// EndTurn ends step 2 and the turn.
type EndTurn struct{}

// ChooseVent answers a vent token: another vent area, or "none".
type ChooseVent struct {
	Area string `json:"area"`
}

// ChooseCodetainee answers a co-detainee token: Source "face_up" with Slot,
// "blind", or "pass_pass".
type ChooseCodetainee struct {
	Source string  `json:"source"`
	Slot   OptSlot `json:"slot,omitzero"`
}

// ChooseTarget names the opponent of a targeted Pass-Pass card.
type ChooseTarget struct {
	Seat int `json:"seat"`
}

// ChooseDoors names 0 to 2 distinct inner doors to flip (Retournement).
type ChooseDoors struct {
	Doors Doors `json:"doors,omitzero"`
}

// GiveCards gives the Manigance target back exactly as many cards as were
// taken.
type GiveCards struct {
	Cards Cards `json:"cards"`
}

// AnswerBlackmail is the Chantage target's answer: give two cards, or skip
// the next turn.
type AnswerBlackmail struct {
	Give Cards `json:"give,omitzero"`
	Skip bool  `json:"skip,omitempty"`
}

// Discard answers the hand limit: the cards to discard before a draw at 11
// or 12 cards, or down to 12 after an effect made the hand larger.
type Discard struct {
	Cards Cards `json:"cards"`
}

// Kind returns "take_face_up".
func (TakeFaceUp) Kind() string { return kindTakeFaceUp }

// Kind returns "take_blind".
func (TakeBlind) Kind() string { return kindTakeBlind }

// Kind returns "draw_pass_pass".
func (DrawPassPass) Kind() string { return kindDrawPassPass }

// Kind returns "cross_door".
func (CrossDoor) Kind() string { return kindCrossDoor }

// Kind returns "take_object".
func (TakeObject) Kind() string { return kindTakeObject }

// Kind returns "end_turn".
func (EndTurn) Kind() string { return kindEndTurn }

// Kind returns "choose_vent".
func (ChooseVent) Kind() string { return kindChooseVent }

// Kind returns "choose_codetainee".
func (ChooseCodetainee) Kind() string { return kindChooseCodet }

// Kind returns "choose_target".
func (ChooseTarget) Kind() string { return kindChooseTarget }

// Kind returns "choose_doors".
func (ChooseDoors) Kind() string { return kindChooseDoors }

// Kind returns "give_cards".
func (GiveCards) Kind() string { return kindGiveCards }

// Kind returns "answer_blackmail".
func (AnswerBlackmail) Kind() string { return kindAnswerBlackmail }

// Kind returns "discard".
func (Discard) Kind() string { return kindDiscard }

// decodeAction reads an action and puts its card, slot and door lists in
// canonical order (they are multisets or sets: D40).
func decodeAction(b []byte) (engine.Action, error) {
	v, err := engine.DecodeTyped(b, func(kind string) (any, bool) {
		switch kind {
		case kindTakeFaceUp:
			return &TakeFaceUp{}, true
		case kindTakeBlind:
			return &TakeBlind{}, true
		case kindDrawPassPass:
			return &DrawPassPass{}, true
		case kindCrossDoor:
			return &CrossDoor{}, true
		case kindTakeObject:
			return &TakeObject{}, true
		case kindEndTurn:
			return &EndTurn{}, true
		case kindChooseVent:
			return &ChooseVent{}, true
		case kindChooseCodet:
			return &ChooseCodetainee{}, true
		case kindChooseTarget:
			return &ChooseTarget{}, true
		case kindChooseDoors:
			return &ChooseDoors{}, true
		case kindGiveCards:
			return &GiveCards{}, true
		case kindAnswerBlackmail:
			return &AnswerBlackmail{}, true
		case kindDiscard:
			return &Discard{}, true
		}
		return nil, false
	})
	if err != nil {
		return nil, err
	}
	// Lists are multisets or sets: sort them. The action is returned by
	// value, as Legal lists it.
	switch a := v.(type) {
	case *TakeFaceUp:
		if a.Slots[0] > a.Slots[1] {
			a.Slots[0], a.Slots[1] = a.Slots[1], a.Slots[0]
		}
		return *a, nil
	case *TakeBlind:
		return *a, nil
	case *DrawPassPass:
		return *a, nil
	case *CrossDoor:
		a.Pay.sort()
		return *a, nil
	case *TakeObject:
		return *a, nil
	case *EndTurn:
		return *a, nil
	case *ChooseVent:
		return *a, nil
	case *ChooseCodetainee:
		return *a, nil
	case *ChooseTarget:
		return *a, nil
	case *ChooseDoors:
		a.Doors.sort()
		return *a, nil
	case *GiveCards:
		a.Cards.sort()
		return *a, nil
	case *AnswerBlackmail:
		a.Give.sort()
		return *a, nil
	case *Discard:
		a.Cards.sort()
		return *a, nil
	}
	return v.(engine.Action), nil
}

// ---- Events ----

// Causes of forced moves and flips, in events.
const (
	causeVent        = "vent"
	causeGuzman      = "guzman"
	causeSpeaker     = "speaker"
	causeEpreuve     = "epreuve_de_force"
	causeBarreaux    = "derriere_les_barreaux"
	causeRetournment = "retournement"
	causeHandLimit   = "hand_limit"
	causeVol         = "vol"
	causeManigance   = "manigance"
	causeGiveBack    = "manigance_give_back"
	causeChantage    = "chantage"
	causeMotion      = "motion_detector"
	causeCodetainee  = "codetainee"
)

// TurnBegan: a seat's turn begins (Turn counts turns begun, from 1).
type TurnBegan struct {
	Seat int `json:"seat"`
	Turn int `json:"turn"`
}

// TurnSkipped: a seat's turn was skipped (motion detector, Chantage).
type TurnSkipped struct {
	Seat int `json:"seat"`
}

// TurnEnded: a seat's turn ended.
type TurnEnded struct {
	Seat int `json:"seat"`
}

// DirectionChanged: a camera reversed the order of play at the end of a turn.
type DirectionChanged struct {
	Direction int `json:"direction"`
}

// CardsDiscarded: a seat put cards from its hand on the discard pile (before
// a draw, or down to 12 after a gain).
type CardsDiscarded struct {
	Seat  int    `json:"seat"`
	Cards Cards  `json:"cards"`
	Cause string `json:"cause"`
}

// TookFaceUp: a seat took face-up cards (two for take_face_up, one for a
// co-detainee).
type TookFaceUp struct {
	Seat  int   `json:"seat"`
	Slots []int `json:"slots"`
	Cards Cards `json:"cards"`
}

// DrewBlind: a seat drew Combines cards face down. The seat is told the
// cards; everyone else only their count.
type DrewBlind struct {
	Seat  int   `json:"seat"`
	Count int   `json:"count"`
	Cards Cards `json:"cards,omitzero"`
}

// RowRefilled: face-up slots were dealt from the draw pile.
type RowRefilled struct {
	Slots []int `json:"slots"`
	Cards Cards `json:"cards"`
}

// RowWiped: the face-up row held three identical cards and went to the
// discard pile.
type RowWiped struct {
	Cards Cards `json:"cards"`
}

// CombinesReshuffled: the discard pile became the new draw pile.
type CombinesReshuffled struct {
	Cards int `json:"cards"`
}

// PassPassReshuffled: the Pass-Pass discard became the new Pass-Pass pile.
type PassPassReshuffled struct {
	Cards int `json:"cards"`
}

// PassPassDrawn: a seat revealed a Pass-Pass card, which acts at once.
type PassPassDrawn struct {
	Seat int      `json:"seat"`
	Card PassPass `json:"card"`
}

// PassPassNoEffect: a targeted Pass-Pass card found no target (D26).
type PassPassNoEffect struct {
	Seat int      `json:"seat"`
	Card PassPass `json:"card"`
}

// TargetChosen: the active seat named the target of a Pass-Pass card.
type TargetChosen struct {
	Seat   int      `json:"seat"`
	Target int      `json:"target"`
	Card   PassPass `json:"card"`
}

// DoorCrossed: a pawn crossed a door, paying cards or a credit; Face is what
// the door shows afterwards.
type DoorCrossed struct {
	Seat   int    `json:"seat"`
	Door   Door   `json:"door"`
	From   Area   `json:"from"`
	To     Area   `json:"to"`
	Pay    Cards  `json:"pay,omitzero"`
	Credit Credit `json:"credit,omitempty"`
	Face   Card   `json:"face"`
}

// WarningPileChanged: the current Warning pile ran out; the other colour's 20
// tokens were shuffled into the new current pile.
type WarningPileChanged struct {
	Colour string `json:"colour"`
}

// WarningDrawn: crossing a door with a Warning spot revealed a token.
type WarningDrawn struct {
	Seat   int    `json:"seat"`
	Door   Door   `json:"door"`
	Colour string `json:"colour"`
	Token  Token  `json:"token"`
}

// PawnMoved: a pawn was moved without crossing a door by its own movement.
type PawnMoved struct {
	Seat  int    `json:"seat"`
	From  Area   `json:"from"`
	To    Area   `json:"to"`
	Cause string `json:"cause"`
}

// DoorFlipped: a door's tab was turned by an effect; Face is what it shows.
type DoorFlipped struct {
	Door  Door   `json:"door"`
	Face  Card   `json:"face"`
	Cause string `json:"cause"`
}

// CreditGained: a seat may cross one door for free this turn.
type CreditGained struct {
	Seat   int    `json:"seat"`
	Credit Credit `json:"credit"`
}

// SkipOwed: a seat will skip its next turn(s).
type SkipOwed struct {
	Seat  int    `json:"seat"`
	Skip  int    `json:"skip"`
	Cause string `json:"cause"`
}

// ExtraTurnOwed: a seat will play again after this turn.
type ExtraTurnOwed struct {
	Seat  int `json:"seat"`
	Extra int `json:"extra"`
}

// ReverseAtEnd: a camera toggled the reversal of play at the end of the turn.
type ReverseAtEnd struct {
	Seat    int  `json:"seat"`
	Reverse bool `json:"reverse"`
}

// CardsMoved: cards went from one hand to another. The two seats are told
// the cards; everyone else only their count.
type CardsMoved struct {
	From  int    `json:"from"`
	To    int    `json:"to"`
	Count int    `json:"count"`
	Cards Cards  `json:"cards,omitzero"`
	Cause string `json:"cause"`
}

// ObjectTaken: a seat picked up an object token in a room.
type ObjectTaken struct {
	Seat  int    `json:"seat"`
	Token Object `json:"token"`
	Room  Area   `json:"room"`
}

// SeatPlan is one seat's plan, revealed at the end.
type SeatPlan struct {
	Seat int  `json:"seat"`
	Plan Plan `json:"plan"`
}

// GameEnded: someone escaped (Winner), or the turn limit was reached (Winner
// is -1). Every plan is revealed.
type GameEnded struct {
	Winner int        `json:"winner"`
	Exit   *Area      `json:"exit,omitempty"`
	Plans  []SeatPlan `json:"plans"`
	Aside  []Plan     `json:"aside,omitempty"`
	Reason string     `json:"reason"`
}

// Kind returns "turn_began".
func (TurnBegan) Kind() string { return "turn_began" }

// Kind returns "turn_skipped".
func (TurnSkipped) Kind() string { return "turn_skipped" }

// Kind returns "turn_ended".
func (TurnEnded) Kind() string { return "turn_ended" }

// Kind returns "direction_changed".
func (DirectionChanged) Kind() string { return "direction_changed" }

// Kind returns "cards_discarded".
func (CardsDiscarded) Kind() string { return "cards_discarded" }

// Kind returns "took_face_up".
func (TookFaceUp) Kind() string { return "took_face_up" }

// Kind returns "drew_blind".
func (DrewBlind) Kind() string { return "drew_blind" }

// Kind returns "row_refilled".
func (RowRefilled) Kind() string { return "row_refilled" }

// Kind returns "row_wiped".
func (RowWiped) Kind() string { return "row_wiped" }

// Kind returns "combines_reshuffled".
func (CombinesReshuffled) Kind() string { return "combines_reshuffled" }

// Kind returns "pass_pass_reshuffled".
func (PassPassReshuffled) Kind() string { return "pass_pass_reshuffled" }

// Kind returns "pass_pass_drawn".
func (PassPassDrawn) Kind() string { return "pass_pass_drawn" }

// Kind returns "pass_pass_no_effect".
func (PassPassNoEffect) Kind() string { return "pass_pass_no_effect" }

// Kind returns "target_chosen".
func (TargetChosen) Kind() string { return "target_chosen" }

// Kind returns "door_crossed".
func (DoorCrossed) Kind() string { return "door_crossed" }

// Kind returns "warning_pile_changed".
func (WarningPileChanged) Kind() string { return "warning_pile_changed" }

// Kind returns "warning_drawn".
func (WarningDrawn) Kind() string { return "warning_drawn" }

// Kind returns "pawn_moved".
func (PawnMoved) Kind() string { return "pawn_moved" }

// Kind returns "door_flipped".
func (DoorFlipped) Kind() string { return "door_flipped" }

// Kind returns "credit_gained".
func (CreditGained) Kind() string { return "credit_gained" }

// Kind returns "skip_owed".
func (SkipOwed) Kind() string { return "skip_owed" }

// Kind returns "extra_turn_owed".
func (ExtraTurnOwed) Kind() string { return "extra_turn_owed" }

// Kind returns "reverse_at_end".
func (ReverseAtEnd) Kind() string { return "reverse_at_end" }

// Kind returns "cards_moved".
func (CardsMoved) Kind() string { return "cards_moved" }

// Kind returns "object_taken".
func (ObjectTaken) Kind() string { return "object_taken" }

// Kind returns "game_ended".
func (GameEnded) Kind() string { return "game_ended" }

// ---- Canonical action values ----

// Every action Legal can list is built once, here, as an interface value
// that Legal copies: listing the actions of a turn allocates one slice and
// nothing else, which keeps random playouts fast. Actions are plain values,
// so nobody can change the shared ones.

// numCanonSets counts the multisets of at most two Combines types: the empty
// set, 12 singles and 78 pairs. A choice of cards never names more: a draw
// discards at most takeCount cards, a gain (co-detainee 1, Vol or Chantage 2)
// comes to a hand of at most 12 and so leaves at most 2 to discard, and
// Manigance and Chantage move at most 2.
const numCanonSets = 1 + int(numCards) + int(numCards)*(int(numCards)+1)/2

// canonSetCards lists the multisets of canonSets, each in canonical order.
var canonSetCards = func() [numCanonSets]Cards {
	var out [numCanonSets]Cards
	i := 1
	for c := range numCards {
		out[i] = CardsOf(c)
		i++
	}
	for a := range numCards {
		for b := a; b < numCards; b++ {
			out[i] = CardsOf(a, b)
			i++
		}
	}
	return out
}()

// canonPair is the index of the pair {a, b}, a ≤ b, in canonSetCards.
func canonPair(a, b Card) int {
	n := int(numCards)
	return 1 + n + int(a)*n - int(a)*(int(a)-1)/2 + int(b-a)
}

// canonSets appends to dst the index of every distinct multiset of k ≤ 2
// cards of h, in canonical order.
func canonSets(dst []int16, h *hand, k int) []int16 {
	switch k {
	case 0:
		return append(dst, 0)
	case 1:
		for c := range numCards {
			if h[c] > 0 {
				dst = append(dst, int16(1+int(c)))
			}
		}
	case 2:
		for a := range numCards {
			if h[a] == 0 {
				continue
			}
			if h[a] >= 2 {
				dst = append(dst, int16(canonPair(a, a)))
			}
			for b := a + 1; b < numCards; b++ {
				if h[b] > 0 {
					dst = append(dst, int16(canonPair(a, b)))
				}
			}
		}
	}
	return dst
}

// canon holds the canonical action values.
var canon = buildCanon()

type canonActions struct {
	takeFaceUp [numSlotPairs]engine.Action
	takeBlind  engine.Action
	// Whole lists that Legal hands out often, shared: their capacity is
	// their length, so that an append by a caller copies them.
	drawAll       []engine.Action // step 1 with a full row and enough cards to draw
	endOnly       []engine.Action // a move step with nothing to do but end_turn
	skipOnly      []engine.Action // Chantage against fewer than two cards
	drawPassPass  engine.Action
	cross         [numDoors][numCards][4]engine.Action // door, face, jokers in the payment
	crossCredit   [numDoors][numCredits]engine.Action
	takeObject    [numObjects]engine.Action
	endTurn       engine.Action
	vent          [numAreas]engine.Action
	ventNone      engine.Action
	codetFaceUp   [rowSize]engine.Action
	codetBlind    engine.Action
	codetPassPass engine.Action
	target        [maxPlayers]engine.Action
	doors         []engine.Action // every Retournement choice, in order (shared, like drawAll)
	give          [numCanonSets]engine.Action
	blackmail     [numCanonSets]engine.Action
	blackmailSkip engine.Action
	discard       [numCanonSets]engine.Action
}

func buildCanon() *canonActions {
	c := &canonActions{}
	for i, pr := range slotPairs {
		c.takeFaceUp[i] = TakeFaceUp{Slots: pr}
	}
	c.takeBlind = TakeBlind{}
	c.drawPassPass = DrawPassPass{}
	c.drawAll = slices.Clip(append(c.takeFaceUp[:], c.takeBlind, c.drawPassPass))
	for m, cs := range canonSetCards {
		c.give[m] = GiveCards{Cards: cs}
		c.blackmail[m] = AnswerBlackmail{Give: cs}
		c.discard[m] = Discard{Cards: cs}
	}
	for d := range numDoors {
		for t := range numCards {
			n := cards[t].Level
			for j := 0; j <= n && j < 4; j++ {
				var pay Cards
				for k := range n {
					pay.a[k] = t
					if k >= n-j {
						pay.a[k] = Joker
					}
				}
				pay.n = uint8(n)
				c.cross[d][t][j] = CrossDoor{Door: Door(d), Pay: pay}
			}
		}
		for cr := range numCredits {
			c.crossCredit[d][cr] = CrossDoor{Door: Door(d), Credit: cr}
		}
	}
	for o := range numObjects {
		c.takeObject[o] = TakeObject{Token: Object(o)}
	}
	c.endTurn = EndTurn{}
	for a := range numAreas {
		c.vent[a] = ChooseVent{Area: areas[a].ID}
	}
	c.ventNone = ChooseVent{Area: ventNone}
	for i := range rowSize {
		c.codetFaceUp[i] = ChooseCodetainee{Source: sourceFaceUp, Slot: SlotAt(i)}
	}
	c.codetBlind = ChooseCodetainee{Source: sourceBlind}
	c.codetPassPass = ChooseCodetainee{Source: sourcePassPass}
	for q := range maxPlayers {
		c.target[q] = ChooseTarget{Seat: q}
	}
	c.blackmailSkip = AnswerBlackmail{Skip: true}
	c.endOnly = []engine.Action{c.endTurn}
	c.skipOnly = []engine.Action{c.blackmailSkip}
	// Retournement: none, then each inner door alone followed by its pairs
	// with the later doors (D37: never an exit).
	inner := board.innerDoors
	c.doors = append(c.doors, ChooseDoors{})
	for i, a := range inner {
		c.doors = append(c.doors, ChooseDoors{Doors: DoorsOf(a)})
		for _, b := range inner[i+1:] {
			c.doors = append(c.doors, ChooseDoors{Doors: DoorsOf(a, b)})
		}
	}
	c.doors = slices.Clip(c.doors)
	return c
}
