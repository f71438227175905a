// Package room25 is the base game of Room 25 (Matagot, 2012) for Sortie:
// prisoners of a televised complex of 25 sliding rooms program their actions
// in secret, explore, and try to slide Room 25 out of the complex before the
// countdown ends. It implements every mode of the base game (Cooperation,
// Solo, Suspicion with hidden Guards, Competition and Team) as
// engine.Game, with views that keep every secret, a Determinize for search
// bots, and a bot per level: a heuristic (medium), the heuristic played like
// a beginner (easy), and a hard bot that improves on the heuristic by playing
// it out on samples of what its seat cannot see.
//
// The rules it follows are /work/shared/rules/room25.md; README.md documents
// the JSON of actions, events and views, and every rule decision. This
// package must never import another game, the server or anything outside the
// engine and bot contracts, and its views must never carry what a seat may
// not know.
package room25
