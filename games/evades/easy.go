package evades

import (
	"math/rand/v2"

	"sortie/bot"
	"sortie/engine"
)

// Easy is the game's "easy" bot policy: the heuristic played the way a
// beginner plays, weaker but never careless on purpose. It sees only its
// seat's view and rates the legal actions with the heuristic's planner, the
// same route to its object and exit, but:
//   - it plans short: the cards it draws, keeps, discards and gives away are
//     rated for the next easyLookAhead doors of its route only, not for the
//     whole way out;
//   - it hesitates: one decision in easySlipEvery is another plausible one,
//     picked at random among the actions the heuristic rates within
//     easyMargin (in useful cards) of its best: another draw, another way
//     to pay a door, another discard, vent or flip. Crossing a door off its
//     route, ending its turn before a door it can pay, or leaving its
//     object behind are never within that margin (see planner.score).
type Easy struct{}

// The handicaps of the easy bot, measured in two-player games against the
// heuristic and random play (README.md).
const (
	// easyLookAhead is how many doors of its route the bot collects cards for.
	easyLookAhead = 1
	// easySlipEvery is the odds (one in easySlipEvery) that a decision is a
	// lesser one.
	easySlipEvery = 2
	// easyMargin is how far below the best score a lesser decision may be.
	easyMargin = 1.5
)

// Name returns "easy".
func (Easy) Name() string { return "easy" }

// NewBot returns an easy bot for one seat; its slips come from a generator
// seeded from the seating's seed.
func (Easy) NewBot(_ engine.Game, s bot.Seating) bot.Bot {
	return &easyBot{seat: int(s.Seat), rng: rand.New(rand.NewPCG(s.Seed, engine.Mix(s.Seed, 0xea5e)))}
}

// easyBot is one seat's easy bot.
type easyBot struct {
	seat int
	rng  *rand.Rand
}

// Decide rates the legal actions with a short-sighted planner and plays the
// best (ties go to the first listed), or now and then a plausible lesser one.
func (b *easyBot) Decide(v engine.View, legal []engine.Action, _ engine.Millis) bot.Decision {
	view := asView(v)
	if view == nil || len(legal) <= 1 || view.Seat != b.seat {
		return bot.Decision{Action: legal[0]}
	}
	pl := newPlanner(view, b.seat)
	pl.lookAhead(easyLookAhead)
	scores := make([]float64, len(legal))
	best := 0
	for i, a := range legal {
		scores[i] = pl.score(a)
		if scores[i] > scores[best] {
			best = i
		}
	}
	if b.rng.IntN(easySlipEvery) != 0 {
		return bot.Decision{Action: legal[best]}
	}
	var lesser []engine.Action
	for i, s := range scores {
		if i != best && s >= scores[best]-easyMargin {
			lesser = append(lesser, legal[i])
		}
	}
	if len(lesser) == 0 {
		return bot.Decision{Action: legal[best]}
	}
	return bot.Decision{Action: lesser[b.rng.IntN(len(lesser))]}
}
