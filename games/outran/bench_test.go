package outran

import (
	"math/rand/v2"
	"testing"

	"sortie/engine"
)

// randomPlayout plays one game with uniformly random legal actions of random
// actors, a random pause of up to two seconds before each, and returns the
// number of actions applied and the number of records (actions and clock
// steps that fired events).
func randomPlayout(s engine.State, r *rand.Rand) (actions, records int) {
	var now engine.Millis
	for {
		if _, over := s.Outcome(); over {
			return actions, records
		}
		at := now + engine.Millis(r.IntN(2001))
		dl, hasDl := s.Deadline()
		actors := s.Actors()
		if hasDl && (dl <= at || len(actors) == 0) {
			s.Advance(dl)
			now = dl
			records++
			continue
		}
		if len(actors) == 0 {
			panic("nobody may act and nothing is due")
		}
		now = at
		p := actors[r.IntN(len(actors))]
		legal := s.Legal(p)
		if _, err := s.Apply(p, legal[r.IntN(len(legal))], now); err != nil {
			panic(err)
		}
		actions++
		records++
	}
}

func BenchmarkRandomPlayout(b *testing.B) {
	g := Game{}
	for _, m := range []string{"bear", "vampire", "zombie", "dragon"} {
		b.Run(m, func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 2))
			total := 0
			b.ReportAllocs()
			for i := 0; b.Loop(); i++ {
				s, err := g.New(engine.Setup{Players: 4, Seed: uint64(i), Options: map[string]string{optMonster: m}})
				if err != nil {
					b.Fatal(err)
				}
				a, _ := randomPlayout(s, r)
				total += a
			}
			b.ReportMetric(float64(total)/b.Elapsed().Seconds(), "actions/s")
			b.ReportMetric(float64(total)/float64(b.N), "actions/game")
		})
	}
}
