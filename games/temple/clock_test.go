package temple

import (
	"encoding/json"
	"reflect"
	"testing"

	"sortie/engine"
	"sortie/sim"
)

// TestAdvanceInSteps checks the real-time contract: Advance(a) then
// Advance(b) gives the same state and events as Advance(b) alone, from
// states met in bot games of every timer.
func TestAdvanceInSteps(t *testing.T) {
	for _, setup := range []engine.Setup{
		{Players: 3, Seed: 1},
		{Players: 2, Seed: 2, Options: map[string]string{OptTimer: "sand", OptSandMs: "60000"}},
		{Players: 1, Seed: 3, Options: map[string]string{OptTimer: "none"}},
	} {
		res, err := sim.Play(Game{}, setup, team(Heuristic(), setup.Players), true)
		if err != nil {
			t.Fatal(err)
		}
		s, _ := Game{}.New(setup)
		st := s.(*State)
		r := newTestRand(setup.Seed)
		for i, rec := range res.Log {
			if i%25 == 0 {
				b := st.now + engine.Millis(r.IntN(300_000))
				a := st.now + engine.Millis(r.IntN(int(b-st.now)+1))
				one, two := st.clone(), st.clone()
				evOne := one.Advance(b)
				evTwo := append(two.Advance(a), two.Advance(b)...)
				if !reflect.DeepEqual(one, two) {
					t.Fatalf("%v: Advance(%d);Advance(%d) differs from Advance(%d)", setup, a, b, b)
				}
				j1, _ := json.Marshal(evOne)
				j2, _ := json.Marshal(evTwo)
				if string(j1) != string(j2) {
					t.Fatalf("events differ:\n%s\n%s", j1, j2)
				}
				if dl, ok := st.Deadline(); ok && dl <= st.now {
					t.Fatalf("deadline %d is not after now %d", dl, st.now)
				}
			}
			if _, err := engine.Play(st, rec); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// TestDeadlines follows the soundtrack schedule of track_1 (§2.8) and a
// pending gift (§4.1: gifts first at one millisecond).
func TestDeadlines(t *testing.T) {
	s := newGame(t, 2, 1)
	var got []engine.Millis
	for {
		dl, ok := s.Deadline()
		if !ok {
			break
		}
		got = append(got, dl)
		s.Advance(dl)
	}
	want := []engine.Millis{170_000, 210_000, 370_000, 410_000, 540_000, 600_000}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("deadlines %v, want %v", got, want)
	}

	s = atExit(t)
	apply(t, s, frank, Escape{Dice: []int{5, 6, 7}}, 200_000)
	if dl, _ := s.Deadline(); dl != 210_000 {
		t.Fatalf("deadline %d", dl)
	}
	evs := s.Advance(210_000)
	if len(evs) < 2 || evs[0].Body.Kind() != "die_given" || evs[1].Body.Kind() != "door_slam" {
		t.Fatalf("at one millisecond, the gift must come before the slam: %v", evs)
	}
	if a := s.Actors(); len(a) != 2 {
		t.Fatalf("actors %v: every seat while the game runs", a)
	}
}
