package bot_test

import (
	"math/rand/v2"
	"testing"

	"sortie/bot"
	"sortie/engine"
	"sortie/games/all"
)

// midGame returns a state of g a few random moves into a match of n
// players, with a seat that has a choice to make, or nil if none was found.
func midGame(g engine.Game, n int, seed uint64) (engine.State, engine.Seat) {
	r := rand.New(rand.NewPCG(seed, 1))
	for try := range 50 {
		s, err := g.New(engine.Setup{Players: n, Seed: seed + uint64(try)})
		if err != nil {
			return nil, 0
		}
		moves := 3 + r.IntN(6)
		for range moves {
			actors := s.Actors()
			if len(actors) == 0 {
				break
			}
			p := actors[r.IntN(len(actors))]
			legal := s.Legal(p)
			if len(legal) == 0 {
				break
			}
			s.Apply(p, legal[r.IntN(len(legal))], 0)
		}
		for _, p := range s.Actors() {
			if len(s.Legal(p)) > 1 {
				return s, p
			}
		}
	}
	return nil, 0
}

// BenchmarkISMCTSDecision times one decision of 1,000 iterations in every
// registered game that is not real-time, with the fewest players of at
// least two (run with -cpu 1 for one core): the target is 50 ms. The
// "hard" sub-benchmarks time the hard level (guided playouts) too.
func BenchmarkISMCTSDecision(b *testing.B) {
	for _, g := range all.Games() {
		info := g.Info()
		if info.Timing == engine.RealTime || !bot.Searchable(g) {
			continue
		}
		n := max(info.MinPlayers, min(2, info.MaxPlayers))
		hard, _ := bot.Level(g, "hard")
		for _, pol := range []bot.Policy{bot.ISMCTS{Iterations: 1000}, hard} {
			b.Run(info.ID+"/"+pol.Name(), func(b *testing.B) {
				s, p := midGame(g, n, 1)
				if s == nil {
					b.Skip("no decision found")
				}
				bt := pol.NewBot(g, bot.Seating{Seat: p, Players: n, Seed: 1})
				legal := s.Legal(p)
				b.ReportAllocs()
				for b.Loop() {
					bot.Ask(bt, s, p, legal, 0)
				}
			})
		}
	}
}
