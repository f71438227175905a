// Package bot holds what plays a seat without a human: the [Bot] and [Policy]
// interfaces, the game-agnostic policies (uniform random, and [ISMCTS], an
// information-set tree search over determinizations), the difficulty
// [Levels], and the lookup of a game's own heuristic policies.
//
// A bot sees exactly what its seat may see — the seat's [engine.View], the
// events its seat is told, and the seat's legal actions — and never the state.
// A search bot is also handed a [Sampler] of states drawn from its seat's
// point of view, which hold nothing its view does not (see [Ask]). That is
// what lets one bot serve in a simulation on a virtual clock and in a live
// match against people alike. This package must never import a game.
package bot

import (
	"fmt"
	"sort"
	"strings"

	"sortie/engine"
)

// Bot plays one seat of one match.
type Bot interface {
	// Decide picks what the seat does next, at match time now, given its
	// view and its legal actions (never empty).
	Decide(v engine.View, legal []engine.Action, now engine.Millis) Decision
}

// Observer is implemented by bots that remember what they saw: after every
// change of the match they are told the events their seat may see and the
// seat's view after them. Bots without memory need not implement it.
type Observer interface {
	Observe(v engine.View, events []engine.Event)
}

// ViewOnly is implemented by real-time bots that decide from their view
// alone and never read the legal actions they are given. A driver may then
// skip listing them and pass nil instead (the one exception to "never
// empty"): the bot's action is judged by the game like any other, and after
// a refusal the driver lists the legal actions again before asking, so that
// a seat that may do nothing waits instead of being refused over and over.
type ViewOnly interface {
	Bot
	ViewOnly()
}

// Decision is a bot's answer.
type Decision struct {
	// Action is what the seat plays, one of the legal actions it was given
	// (or, in games whose Legal is a representative set, any action the game
	// accepts). Nil means "nothing now": in real time, ask again after Delay.
	Action engine.Action
	// Delay is the modelled time the seat takes before the action reaches the
	// match (reading, thinking, clicking). Real-time games are decided by it;
	// in other games it only paces live play. It must be positive when Action
	// is nil.
	Delay engine.Millis
}

// Seating is what a bot knows when it sits down: the public setup of the match
// and a seed for its own randomness (never the match seed, which would let it
// foresee every draw).
type Seating struct {
	Seat    engine.Seat
	Players int
	Options engine.Options
	Seed    uint64
}

// Policy makes bots of one kind, for example "random" or a game's "heuristic".
type Policy interface {
	// Name is the policy's stable name, used on the command line and in
	// match setups.
	Name() string
	// NewBot returns a bot for one seat of a match of game g.
	NewBot(g engine.Game, s Seating) Bot
}

// Provider is implemented by games that bring their own policies (heuristic
// bots written with the game's knowledge).
type Provider interface {
	Policies() []Policy
}

// Policies returns every policy that can play g: the generic ones (random,
// and ismcts where g's states can be determinized) and g's own, sorted by
// name. The levels of [Level] are found by [Find] but not listed here.
func Policies(g engine.Game) []Policy {
	ps := []Policy{Random{}}
	if Searchable(g) {
		ps = append(ps, ISMCTS{})
	}
	if p, ok := g.(Provider); ok {
		ps = append(ps, p.Policies()...)
	}
	sort.Slice(ps, func(i, j int) bool { return ps[i].Name() < ps[j].Name() })
	return ps
}

// Find returns the policy of g with the given name, or the policy of the
// level with that name (see [Level]).
func Find(g engine.Game, name string) (Policy, error) {
	ps := Policies(g)
	names := make([]string, len(ps))
	for i, p := range ps {
		if p.Name() == name {
			return p, nil
		}
		names[i] = p.Name()
	}
	if isLevel(name) {
		return Level(g, name)
	}
	searchable := Searchable(g)
	if strings.HasPrefix(name, "ismcts:") && searchable {
		return parseISMCTS(g, name)
	}
	more := ""
	if searchable {
		more = "; a search with settings: ismcts:ITERATIONS[:guide=POLICY][:horizon=MOVES]"
	}
	return nil, fmt.Errorf("%s has no bot %q (its bots: %s; levels: %s%s)", g.Info().ID, name, strings.Join(names, ", "), strings.Join(Levels, ", "), more)
}
