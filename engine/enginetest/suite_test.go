package enginetest_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"sortie/engine"
	"sortie/engine/enginetest"
	tg "sortie/engine/enginetest/testgames"
)

func harness(f tg.Flaw) enginetest.Harness {
	return enginetest.Harness{
		Game: tg.Draw{Flaw: f}, Playouts: 50, Perturb: tg.PerturbDraw,
		RandomAction: func(r *rand.Rand) engine.Action { return tg.DrawAction{Stop: r.IntN(2) == 0} },
	}
}

func TestRealTimeGamePasses(t *testing.T) {
	enginetest.Run(t, enginetest.Harness{Game: tg.Taps{}, Playouts: 50, MaxStep: 700})
}

func TestSoundGamePasses(t *testing.T) {
	enginetest.Run(t, harness(tg.Sound))
}

// TestSuiteCatchesFlaws plants one bug at a time and expects the suite to
// name it.
func TestSuiteCatchesFlaws(t *testing.T) {
	for _, c := range []struct {
		name string
		flaw tg.Flaw
		want string
	}{
		{"a view that leaks the deck", tg.LeakyView, "leak: the view"},
		{"an event that leaks a drawn card", tg.LeakyEvent, "leak: the events"},
		{"an action out of turn", tg.OutOfTurn, "may not act"},
		{"a refusal that changes the state", tg.DirtyRefusal, "changed the state"},
		{"a clone that shares memory", tg.SharedClone, "Clone"},
		{"a global random source", tg.Nondeterministic, "nondeterminism"},
		{"a game that never ends", tg.Endless, "MaxActions"},
		{"a rated result before the end", tg.RatedEarly, "not over but RatedResult"},
		{"a rated result that disagrees with the outcome", tg.RatedUpsideDown, "RatedResult"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := enginetest.Check(harness(c.flaw))
			if err == nil {
				t.Fatalf("the suite passed a game with %s", c.name)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("the suite failed, but not on %q: %v", c.want, err)
			}
			t.Logf("caught: %v", err)
		})
	}
}

// The fuzz oracle passes a sound game on its seeds, and catches a refusal
// that changes the state when a seat out of turn sends a legal action.
func TestFuzzOracleCatchesDirtyRefusal(t *testing.T) {
	seeds := enginetest.SeedInputs(tg.Draw{}, enginetest.AllSetups(tg.Draw{}.Info()))
	if len(seeds) == 0 {
		t.Fatal("no seed inputs")
	}
	for _, in := range seeds {
		if err := enginetest.CheckInput(tg.Draw{}, in); err != nil {
			t.Fatalf("a sound game failed the oracle on %s: %v", in.Raw, err)
		}
	}
	in := seeds[0]
	in.Seat = (in.Seat + 1) % engine.Seat(in.Setup.Players)
	err := enginetest.CheckInput(tg.Draw{Flaw: tg.DirtyRefusal}, in)
	if err == nil || !strings.Contains(err.Error(), "changed the state") {
		t.Fatalf("the oracle missed a refusal that changes the state: %v", err)
	}
	t.Logf("caught: %v", err)
}
