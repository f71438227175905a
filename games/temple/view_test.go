package temple

import (
	"encoding/json"
	"testing"

	"sortie/bot"
	"sortie/engine"
	"sortie/sim"
)

// TestSharedViewsStayCurrent checks the views' shared parts: after every
// action and every time step of random and bot games, the chamber views the
// state keeps for its views show the chambers as they are (a view built
// from scratch is the same), and a view taken earlier is left as it was.
func TestSharedViewsStayCurrent(t *testing.T) {
	setups, every := conformanceSetups(), 1
	if testing.Short() {
		every = 8
	}
	check := func(s *State, when string) {
		t.Helper()
		if !s.chamberViewsCurrent() {
			t.Fatalf("%s: the shared chamber views are stale", when)
		}
		fresh, err := json.Marshal(s.buildChamberViews())
		if err != nil {
			t.Fatal(err)
		}
		shared, _ := json.Marshal(s.view(0).Chambers)
		if string(fresh) != string(shared) {
			t.Fatalf("%s: the view's chambers differ from a fresh build:\n%s\n%s", when, shared, fresh)
		}
	}
	for k, setup := range setups {
		if k%every != 0 {
			continue
		}
		setup.Seed = uint64(k)
		// Random legal actions.
		s := newStateFrom(t, setup)
		r := newTestRand(setup.Seed)
		now := engine.Millis(0)
		var old *View
		var oldJSON []byte
		for !s.over {
			now += engine.Millis(r.IntN(2_001))
			if dl, ok := s.Deadline(); ok && dl <= now {
				now = dl
			}
			s.Advance(now)
			check(s, "after Advance")
			if s.over {
				break
			}
			p := engine.Seat(r.IntN(setup.Players))
			if l := s.Legal(p); len(l) > 0 {
				a := l[r.IntN(len(l))]
				if _, err := s.Apply(p, a, now); err != nil {
					t.Fatal(err)
				}
				check(s, "after "+a.Kind())
			}
			if r.IntN(50) == 0 {
				if old != nil {
					if again, _ := json.Marshal(old); string(again) != string(oldJSON) {
						t.Fatal("a view changed after it was taken")
					}
				}
				old = s.view(p)
				oldJSON, _ = json.Marshal(old)
			}
		}
		// Bots: every state a team of medium (or hard) bots saw.
		pol := []bot.Policy{Heuristic(), Hard()}[k%2]
		res, err := sim.Play(Game{}, setup, team(pol, setup.Players), true)
		if err != nil {
			t.Fatal(err)
		}
		s = newStateFrom(t, setup)
		for _, rec := range res.Log {
			if _, err := engine.Play(s, rec); err != nil {
				t.Fatal(err)
			}
			check(s, "in a bot game")
		}
	}
}

func newStateFrom(t *testing.T, setup engine.Setup) *State {
	t.Helper()
	st, err := Game{}.New(setup)
	if err != nil {
		t.Fatal(err)
	}
	return st.(*State)
}
