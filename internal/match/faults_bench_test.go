package match_test

import (
	"math/rand/v2"
	"testing"

	"sortie/engine"
	"sortie/games/all"
)

// BenchmarkCopyBeforeARecord measures what a match pays for never showing
// an unsaved record: each record is played on a copy of the state (Clone),
// which becomes the match's state once stored. It clones each game's state
// halfway through a random match of the fewest players (two where allowed).
func BenchmarkCopyBeforeARecord(b *testing.B) {
	for _, g := range all.Games() {
		info := g.Info()
		b.Run(info.ID, func(b *testing.B) {
			s, err := g.New(engine.Setup{Players: max(info.MinPlayers, min(2, info.MaxPlayers)), Seed: 7})
			if err != nil {
				b.Fatal(err)
			}
			r := rand.New(rand.NewPCG(7, 7))
			var at engine.Millis
			for step := 0; step < 60; step++ {
				if _, over := s.Outcome(); over {
					break
				}
				actors := s.Actors()
				if len(actors) == 0 {
					dl, ok := s.Deadline()
					if !ok {
						break
					}
					at = dl
					s.Advance(at)
					continue
				}
				p := actors[r.IntN(len(actors))]
				if legal := s.Legal(p); len(legal) > 0 {
					s.Apply(p, legal[r.IntN(len(legal))], at)
				}
				at += 100
			}
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				_ = s.Clone()
			}
		})
	}
}
