// Package coach analyses a seat's decisions for the people who play: the
// hints given at the table and the review of a match once it is over. It is
// the teaching side of the bots: game-agnostic, it knows no game, and each
// game brings what only it can say (the sentences of its explainer, the
// steps of its tutorial: see [Explainer] and [Tutor]).
//
// The core is [Analyze]: for a seat at a decision, it plays every legal
// action (or the most promising ones, see [Options.MaxCandidates]) on states
// drawn from the seat's point of view (a bot.Sampler, as the search bots
// get: never the state itself), then plays each sample out to its end with
// every seat played by the game's heuristic, and says for each action how
// often the seat won (the team, in a co-operative game): its win chance,
// with the Monte-Carlo error of that figure. The actions are compared on the
// same samples with the same random draws (common random numbers), so that
// the difference between two actions is measured far more precisely than
// either chance alone, and the weaker half is dropped after each round
// (sequential halving), the actions one asked to keep (the move a player
// made, the one they want checked) staying to the end. This is the rollout
// analysis of backgammon programs, and one step of policy improvement over
// the heuristic: what the game's own hard bots do, with more playouts.
//
// An analysis depends on its seed, its budget of rollouts and what the
// sampler draws, nothing else: the same budget and seed give the same
// answer, and a sampler that draws only from what the seat may know (each
// game's Determinize gathers what the seat cannot see and deals it anew in
// an order that does not depend on where it really was) gives the same
// answer to two states that differ only in what the seat cannot see. The
// conformance suite (engine/enginetest, Harness.Hint) checks it for every
// game that gives hints. A wall-time budget may cut an analysis short; it
// then depends on the machine's speed too, and says so ([Analysis.Cut]).
//
// This package must never import a game, and never read a state but the
// samples its sampler hands it, which it may play on as it likes.
package coach
