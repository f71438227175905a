package coach_test

import (
	"math/rand/v2"
	"strings"
	"testing"

	"sortie/coach"
	"sortie/coach/coachtest"
	"sortie/engine"
	"sortie/engine/enginetest"
	tg "sortie/engine/enginetest/testgames"
)

// hintHarness runs the conformance suite's hint checks on the Draw test
// game: its secrets (the deck, the other hands) are changed by PerturbDraw,
// which deals them anew from where they are.
func hintHarness(g tg.SampledDraw, hint func(enginetest.HintInput) ([]byte, error)) enginetest.Harness {
	return enginetest.Harness{
		Game: g, Playouts: 40, Perturb: tg.PerturbDraw, HintPerturb: tg.PerturbDraw,
		Hint: hint, HintChecks: 12, CheckEvery: 0.5,
	}
}

// Given a game whose sampler deals what a seat cannot see from its view
// alone, when hints are computed on states that differ only in what the
// seat cannot see, then they are the same.
func TestHintsDependOnTheViewAlone(t *testing.T) {
	hint, asked := coachtest.Hint(tg.SampledDraw{}), 0
	counted := func(in enginetest.HintInput) ([]byte, error) {
		asked++
		return hint(in)
	}
	if err := enginetest.Check(hintHarness(tg.SampledDraw{}, counted)); err != nil {
		t.Fatal(err)
	}
	if asked < 20 {
		t.Fatalf("the suite compared %d hints, not the 12 pairs of each setup", asked)
	}
}

// Given a game whose Determinize peeks (it keeps the deck and the other
// hands as they are), the suite's hint check says the hint leaks.
func TestHintCheckCatchesAPeekingSampler(t *testing.T) {
	g := tg.SampledDraw{Draw: tg.Draw{Flaw: tg.PeekingSampler}}
	err := enginetest.Check(hintHarness(g, coachtest.Hint(g)))
	if err == nil || !strings.Contains(err.Error(), "leak: the hint") {
		t.Fatalf("the suite passed hints drawn from a sampler that peeks: %v", err)
	}
	t.Logf("caught: %v", err)
}

// Given a sound game but hints that search the state itself instead of the
// seat's samples, the suite's hint check says the hint leaks.
func TestHintCheckCatchesAHintThatReadsTheState(t *testing.T) {
	g := tg.SampledDraw{}
	peek := coachtest.HintFrom(g, func(in enginetest.HintInput) (coach.Position, bool) {
		pos, ok := coach.At(g, in.State, in.Seat, in.Setup.Players, nil, 0)
		pos.Sample = func(*rand.Rand) engine.State { return in.State.Clone() }
		return pos, ok
	})
	err := enginetest.Check(hintHarness(g, peek))
	if err == nil || !strings.Contains(err.Error(), "leak: the hint") {
		t.Fatalf("the suite passed hints that read the state: %v", err)
	}
	t.Logf("caught: %v", err)
}
