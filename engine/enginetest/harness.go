// Package enginetest is the conformance suite every game runs with one call:
//
//	func TestConformance(t *testing.T) {
//		enginetest.Run(t, enginetest.Harness{Game: Game{}, Perturb: perturb})
//	}
//
// Over many seeded random playouts per setup (player count × option values)
// it checks that a game is a deterministic state machine that keeps its
// secrets: replaying the log from the seed gives the same state and views;
// every legal action applies; malformed and illegal actions, and actions of
// seats that may not act, are refused with a rule error and leave the state
// unchanged to the last byte; Clone is independent; actions, events and views
// survive a JSON round trip; games end within the bound they declare; real-time
// games run on a virtual clock; no view or event tells a seat anything of
// what the game declares secret from it; and, in a game whose states say what
// a match is for rating ([engine.Rated]), the rated result's sides appear
// exactly when the game is over, agree with the outcome, and its family and
// key never change.
//
// Secrets are declared by perturbation: the game gives a function that changes
// everything a seat may not know (the order of a pile, the other hands) and
// nothing it may know. The suite proves the seat's view and the events it is
// told do not change when the secrets do.
package enginetest

import (
	"math/rand/v2"

	"sortie/engine"
)

// Harness tells the suite how to exercise one game.
type Harness struct {
	// Game is the game under test.
	Game engine.Game
	// Setups are the player counts and options to test (seeds are the
	// suite's). Nil means every player count with every combination of
	// option values (see [AllSetups]).
	Setups []engine.Setup
	// Playouts is the number of random games per setup: 1,000 by default,
	// 100 with -short.
	Playouts int
	// Perturb returns a copy of s in which everything seat p (or
	// engine.Spectator) may not know has been changed at random with r, and
	// nothing that p may know: View(p) must not change. It should keep what
	// the current actors hold in hand where it can, so that their actions
	// still apply and the suite can compare the events p is told. Nil for a
	// game with no hidden information (or one that leaves this to
	// Determinize, which is then used instead).
	Perturb func(s engine.State, p engine.Seat, r *rand.Rand) engine.State
	// RandomAction returns an arbitrary action of the game, legal or not, to
	// try against states. Nil: the suite only uses actions it finds in Legal
	// and mangles their JSON.
	RandomAction func(r *rand.Rand) engine.Action
	// LegalIsPartial is set by games whose Legal is a representative set
	// (Apply may accept actions Legal does not list).
	LegalIsPartial bool
	// MaxStep is the longest pause between two random actions in a real-time
	// game, in match milliseconds: 2,000 by default.
	MaxStep engine.Millis
	// WaitChance is the probability, in real time, that a random player waits
	// for the next deadline instead of acting: 0.05 by default.
	WaitChance float64
	// CheckEvery is the share of steps at which the expensive checks (clone,
	// secrets, refusals, JSON) run: 0.25 by default.
	CheckEvery float64
	// Hint, if set, gives the hint a seat would be shown (the game's
	// coach.HintCheck): the suite checks, at HintChecks states of each
	// setup, that two states that differ only in what the seat may not
	// know give the same hint, byte for byte. Hints draw their states from
	// the seat's sampler, so this holds when Determinize reads nothing but
	// what the seat may know (its unseen cards dealt in an order that does
	// not depend on where they are) and the hint reads nothing else.
	Hint func(HintInput) ([]byte, error)
	// HintPerturb changes what seat p may not know for the hint checks: by
	// default Determinize itself. A game whose seats remember what their
	// views no longer show (Plan de Secours's stack, D33) keeps to it;
	// others give Perturb, which may change more.
	HintPerturb func(s engine.State, p engine.Seat, r *rand.Rand) engine.State
	// HintChecks is how many states of each setup the hints are compared
	// at (each costs two searches): 4 by default.
	HintChecks int
}

// HintInput is what a hint is computed from: the match's setup, the state
// (which the hint may only sample from, never read), the seat that asks and
// the events that seat was told so far.
type HintInput struct {
	Setup engine.Setup
	State engine.State
	Seat  engine.Seat
	Past  []engine.Event
}
