// Package coachtest holds what the tests of games use to check their hints
// with the conformance suite (engine/enginetest).
package coachtest

import (
	"encoding/json"

	"sortie/coach"
	"sortie/engine"
	"sortie/engine/enginetest"
)

// HintRollouts is the budget of the suite's hints: small, since each check
// costs two analyses, and enough to compare several actions.
const HintRollouts = 48

// Hint returns how the conformance suite computes a hint of g
// (enginetest.Harness.Hint): the analysis a seat's hint shows, from the
// seat's sampler and what it was told, with a small budget and a fixed seed,
// as JSON.
func Hint(g engine.Game) func(enginetest.HintInput) ([]byte, error) {
	return HintFrom(g, func(in enginetest.HintInput) (coach.Position, bool) {
		opts, err := g.Info().Check(in.Setup)
		if err != nil {
			return coach.Position{}, false
		}
		return coach.At(g, in.State, in.Seat, in.Setup.Players, opts, 0)
	})
}

// HintFrom is Hint with the position made by at: a test's own sampler, say
// one that peeks, to show that the suite catches it.
func HintFrom(g engine.Game, at func(enginetest.HintInput) (coach.Position, bool)) func(enginetest.HintInput) ([]byte, error) {
	return func(in enginetest.HintInput) ([]byte, error) {
		pos, ok := at(in)
		if !ok {
			return nil, nil
		}
		pos.Past = in.Past
		a := coach.Analyze(pos, coach.Options{Rollouts: HintRollouts, Seed: 1})
		return json.Marshal(a.Values)
	}
}
