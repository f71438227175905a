package evades

import (
	"errors"
	"reflect"
	"slices"
	"testing"

	"sortie/engine"
)

// This file builds scenario states in a few lines: a seeded game, then the
// hands, pawns, doors and piles a scenario names.

// newGame sets up a match with seat 0 first (unless the options say
// otherwise). opts are key, value pairs.
func newGame(t testing.TB, players int, opts ...string) *State {
	t.Helper()
	o := map[string]string{optFirst: "0"}
	for i := 0; i+1 < len(opts); i += 2 {
		o[opts[i]] = opts[i+1]
	}
	st, err := Game{}.New(engine.Setup{Players: players, Options: o, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	return st.(*State)
}

func door(id string) Door     { return mustDoor(id) }
func area(id string) Area     { return mustArea(id) }
func object(id string) Object { return mustObject(id) }

// setHand gives seat p exactly these cards.
func setHand(s *State, p int, cs ...Card) {
	s.seats[p].hand = hand{}
	s.seats[p].hand.add(cs...)
}

// handOf returns seat p's hand as a sorted list.
func handOf(s *State, p int) []Card { return s.seats[p].hand.list() }

// cardsOf sorts a list of cards, for comparing multisets.
func cardsOf(cs ...Card) []Card { return slices.Sorted(slices.Values(cs)) }

// fill returns n copies of card c.
func fill(n int, c Card) []Card {
	out := make([]Card, n)
	for i := range out {
		out[i] = c
	}
	return out
}

// setPawn puts seat p's pawn in an area with a last door ("" for none).
func setPawn(s *State, p int, a string, last string) {
	s.seats[p].area, s.seats[p].lastDoor = area(a), -1
	if last != "" {
		s.seats[p].lastDoor = int8(door(last))
	}
}

// setDoor puts a tab in a door, showing the given face.
func setDoor(t *testing.T, s *State, d, tab string, shown Card) {
	t.Helper()
	id := door(d)
	table := innerTabs[:]
	if board.exitDoor[id] {
		table = exitTabs[:]
	}
	for i, tb := range table {
		if tb.ID == tab {
			if tb.A != shown && tb.B != shown {
				t.Fatalf("%s has no %s face", tab, cards[shown].ID)
			}
			s.doorTab[id], s.doorFaceB[id] = uint8(i), tb.A != shown
			return
		}
	}
	t.Fatalf("no tab %s for door %s", tab, d)
}

// topFirst turns a pile written top first into the state's order (top last).
func topFirst[T any](xs ...T) []T {
	out := slices.Clone(xs)
	slices.Reverse(out)
	return out
}

// setPile makes the Combines draw pile, top first.
func setPile(s *State, top ...Card) { s.pile = append(s.pile[:0], topFirst(top...)...) }

// setDiscard makes the Combines discard pile, oldest first.
func setDiscard(s *State, cs ...Card) { s.discard = append(s.discard[:0], cs...) }

// setRow sets the 5 face-up cards.
func setRow(s *State, cs ...Card) { copy(s.row[:], cs) }

// setPassPass makes the Pass-Pass pile, top first.
func setPassPass(s *State, top ...PassPass) { s.ppPile = append(s.ppPile[:0], topFirst(top...)...) }

// setWarnings makes the current Warning pile, top first.
func setWarnings(s *State, top ...Token) { s.warnPile = append(s.warnPile[:0], topFirst(top...)...) }

// toMove puts the active seat in step 2, as after its draw action.
func toMove(s *State, p int) {
	s.active, s.phase, s.pend = int8(p), phaseMove, pending{}
}

// play applies an action that must be legal, and checks that Legal listed it.
func play(t *testing.T, s *State, p int, a engine.Action) []engine.Event {
	t.Helper()
	want := canonical(t, a)
	listed := false
	for _, l := range s.Legal(engine.Seat(p)) {
		if got, _ := engine.MarshalTyped(l); string(got) == string(want) {
			listed = true
			break
		}
	}
	evs, err := s.Apply(engine.Seat(p), a, 0)
	if err != nil {
		t.Fatalf("seat %d %s: refused: %v", p, want, err)
	}
	if !listed {
		t.Fatalf("seat %d %s was accepted but Legal does not list it", p, want)
	}
	return evs
}

// canonical returns an action's JSON as DecodeAction reads it back (card
// lists sorted).
func canonical(t *testing.T, a engine.Action) []byte {
	t.Helper()
	b, err := engine.MarshalTyped(a)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Game{}.DecodeAction(b)
	if err != nil {
		return b
	}
	b, _ = engine.MarshalTyped(back)
	return b
}

// refuse checks that an action is refused with the given code, changes
// nothing, and is not listed by Legal.
func refuse(t *testing.T, s *State, p int, a engine.Action, code string) {
	t.Helper()
	before := s.clone()
	js := canonical(t, a)
	for _, l := range s.Legal(engine.Seat(p)) {
		if got, _ := engine.MarshalTyped(l); string(got) == string(js) {
			t.Fatalf("seat %d %s is listed by Legal but should be refused", p, js)
		}
	}
	_, err := s.Apply(engine.Seat(p), a, 0)
	var re *engine.RuleError
	if !errors.As(err, &re) {
		t.Fatalf("seat %d %s: got %v, want a rule error %q", p, js, err, code)
	}
	if re.Code != code {
		t.Fatalf("seat %d %s: refused with %q (%s), want %q", p, js, re.Code, re.Message, code)
	}
	if !reflect.DeepEqual(before, s) {
		t.Fatalf("seat %d %s: refused but the state changed", p, js)
	}
}

// kinds lists the event types of evs that seat p sees.
func kinds(evs []engine.Event, p engine.Seat) []string {
	var out []string
	for _, e := range engine.Visible(nil, evs, p) {
		out = append(out, e.Body.Kind())
	}
	return out
}

// find returns the first event body of type T that seat p sees.
func find[T engine.EventBody](evs []engine.Event, p engine.Seat) (T, bool) {
	for _, e := range engine.Visible(nil, evs, p) {
		if b, ok := e.Body.(T); ok {
			return b, true
		}
	}
	var zero T
	return zero, false
}

// legalOf lists seat p's legal actions of one type.
func legalOf[T any](s *State, p int) []T {
	var out []T
	for _, a := range s.Legal(engine.Seat(p)) {
		if x, ok := any(a).(T); ok {
			out = append(out, x)
		}
	}
	return out
}

// pay is a list of cards, in any order, for an action.
func pay(cs ...Card) Cards { return CardsOf(cs...) }

// doorList is a list of doors for choose_doors.
func doorList(ids ...string) Doors {
	var ds []Door
	for _, id := range ids {
		ds = append(ds, door(id))
	}
	return DoorsOf(ds...)
}
