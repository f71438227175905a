package evades

import (
	"encoding/json"
	"math/rand/v2"
	"testing"
)

// TestDeterminizeKeepsWhatIsProven: a card another seat took face up stays in
// its hand, a carried object keeps its plan among those naming it, and the
// seat's own view does not change.
func TestDeterminizeKeepsWhatIsProven(t *testing.T) {
	s := newGame(t, 4)
	setRow(s, Crowbar, Keypad, Spoon, Soap, File)
	setHand(s, 0, Rope)
	play(t, s, 0, TakeFaceUp{Slots: SlotPair{0, 1}})
	play(t, s, 0, EndTurn{})
	carry(s, 2, "money_1")
	s.seats[2].plan = 0 // plan_roof
	before, _ := json.Marshal(s.View(1))
	r := rand.New(rand.NewPCG(1, 2))
	movedCards, movedPlans := false, false
	for range 200 {
		d := s.Determinize(1, r).(*State)
		if after, _ := json.Marshal(d.View(1)); string(after) != string(before) {
			t.Fatal("Determinize changed seat 1's view")
		}
		h := d.seats[0].hand
		if h[Crowbar] < 1 || h[Keypad] < 1 {
			t.Fatalf("seat 0 lost a card it took face up: %v", h.list())
		}
		if h != s.seats[0].hand {
			movedCards = true
		}
		if pl := d.seats[2].plan; pl != 0 && pl != 1 {
			t.Fatalf("seat 2 carries money but got %s", plans[pl].ID)
		}
		if d.seats[2].plan != s.seats[2].plan {
			movedPlans = true
		}
		if d.seats[1].hand != s.seats[1].hand || d.seats[1].plan != s.seats[1].plan {
			t.Fatal("Determinize changed seat 1's own hand or plan")
		}
	}
	if !movedCards || !movedPlans {
		t.Fatal("Determinize never redrew the hands or the plans")
	}
	over := newGame(t, 2)
	over.phase = phaseOver
	if d := over.Determinize(0, r).(*State); d.seats[1].hand != over.seats[1].hand {
		t.Fatal("a finished game was redrawn")
	}
}
