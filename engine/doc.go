// Package engine is the game-agnostic contract between Sortie's games and
// everything that runs them: the match server, the bots, the simulator and the
// command line.
//
// A game is a deterministic state machine. [Game.New] builds a [State] from a
// [Setup] (player count, options, seed); the state says who may act
// ([State.Actors]), what each of them may do ([State.Legal]), applies one action
// ([State.Apply]), lets match time pass ([State.Advance], [State.Deadline]),
// and tells each seat exactly what it may know ([State.View]). Everything random
// comes from the [RNG] held inside the state, so the same seed and the same
// action log give the same state, bit for bit, on every machine.
//
// The same contract serves four kinds of play: turn-based games (one actor),
// simultaneous decisions (several actors, each unaware of the others' hidden
// choices), real time (every action carries the match clock, and the state says
// when it next needs time to pass) and hidden information (a seat's [View]
// never holds what that seat may not know).
//
// This package must never know a concrete game, and a game must never reach
// around it: [State.View] is the only thing of a state that leaves the server.
// A view is sent after every action to every audience, so a game's view may
// write its own JSON ([JSONAppender], with package jsonw) instead of going
// through encoding/json's reflection, byte for byte the same, and a state may
// write a seat's view without keeping it ([ViewAppender]): the same bytes
// again, from room it reuses.
//
// A finished match is also a result for rating: a state that implements
// [Rated] says its mode family (free for all, team, co-op), the variant's
// key, and which seats won or lost together, with their roles; the rating
// model itself (internal/rating) knows no game.
package engine
