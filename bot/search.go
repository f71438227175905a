package bot

import (
	"math/rand/v2"

	"sortie/engine"
)

// Sampler draws a state the deciding seat cannot tell apart from the real
// one: a determinization of the match from that seat's point of view. A
// driver builds it from [engine.Determinizer] (see [Ask]); a bot calls it as
// often as it likes during one decision, never after.
//
// Why no secret flows through it: Determinize(p, r) resamples everything p
// may not know (other hands, the order of face-down piles, face-down rooms)
// from r, consistently with p's view, and reseeds the copy's generator from r
// so that future draws are not foreseen either. What a sample holds beyond
// View(p) is therefore either noise drawn by the bot's own generator or what
// p has already seen in its events (Plan de Secours keeps the stack, every
// tile of which was laid face up in front of everyone: its rule D33 treats a
// perfect memory as fair), never the match's secrets; the conformance suite (engine/enginetest) checks that
// View(p) of every determinization equals View(p) of the state, and each
// game's Determinize is written to draw the hidden part without looking at
// it (its tests by perturbation show that p's view, the only input that
// matters, is all that is kept).
type Sampler func(r *rand.Rand) engine.State

// Searcher is implemented by bots that plan by sampling states consistent
// with what they see (information-set search). Drivers that hold the state
// ask such a bot through [Ask], which hands it a [Sampler]; a driver that
// calls [Bot.Decide] directly gets the bot's answer without search (its
// fallback policy), so Searcher is optional for drivers and bots alike.
type Searcher interface {
	Bot
	// Search is Decide with a sampler of the current state from the seat's
	// point of view, valid only until Search returns.
	Search(v engine.View, legal []engine.Action, now engine.Millis, sample Sampler) Decision
}

// Ask asks bot b, playing seat p, what to do now in state s, whose legal
// actions for p are legal (never empty). It is the one way drivers (the
// simulator, the terminal, the match server) consult a bot: b receives p's
// view and, if it is a [Searcher] and s an [engine.Determinizer], a sampler
// of determinizations of s for p — never s itself.
func Ask(b Bot, s engine.State, p engine.Seat, legal []engine.Action, now engine.Millis) Decision {
	v := s.View(p)
	if sr, ok := b.(Searcher); ok {
		if d, ok := s.(engine.Determinizer); ok {
			return sr.Search(v, legal, now, func(r *rand.Rand) engine.State { return d.Determinize(p, r) })
		}
	}
	return b.Decide(v, legal, now)
}
