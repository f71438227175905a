package bot

import (
	"math/rand/v2"

	"sortie/engine"
)

// Random is the policy that picks uniformly among the legal actions. In
// real-time games it takes a human-like reaction time, uniform between
// [RandomMinDelay] and [RandomMaxDelay], before each action.
type Random struct{}

// The reaction time of random bots in real-time games.
const (
	RandomMinDelay engine.Millis = 400
	RandomMaxDelay engine.Millis = 1600
)

// Name returns "random".
func (Random) Name() string { return "random" }

// NewBot returns a random bot seeded from s.Seed.
func (Random) NewBot(g engine.Game, s Seating) Bot {
	return &randomBot{
		rng:      rand.New(rand.NewPCG(s.Seed, engine.Mix(s.Seed, 1))),
		realTime: g.Info().Timing == engine.RealTime,
	}
}

type randomBot struct {
	rng      *rand.Rand
	realTime bool
}

func (b *randomBot) Decide(_ engine.View, legal []engine.Action, _ engine.Millis) Decision {
	d := Decision{Action: legal[b.rng.IntN(len(legal))]}
	if b.realTime {
		d.Delay = RandomMinDelay + engine.Millis(b.rng.Int64N(int64(RandomMaxDelay-RandomMinDelay)+1))
	}
	return d
}
