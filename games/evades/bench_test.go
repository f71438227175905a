package evades

import (
	"math/rand/v2"
	"testing"

	"sortie/engine"
)

// BenchmarkRandomPlayout plays whole 4-player games with uniformly random
// legal actions; it reports actions per second besides ns/op per game.
func BenchmarkRandomPlayout(b *testing.B) {
	g := Game{}
	r := rand.New(rand.NewPCG(1, 2))
	actions := 0
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		st, err := g.New(engine.Setup{Players: 4, Seed: uint64(i)})
		if err != nil {
			b.Fatal(err)
		}
		for {
			if _, over := st.Outcome(); over {
				break
			}
			p := st.Actors()[0]
			l := st.Legal(p)
			if _, err := st.Apply(p, l[r.IntN(len(l))], 0); err != nil {
				b.Fatal(err)
			}
			actions++
		}
	}
	b.ReportMetric(float64(actions)/b.Elapsed().Seconds(), "actions/s")
	b.ReportMetric(float64(actions)/float64(b.N), "actions/game")
}

// BenchmarkLegalDiscardAt12 lists the discard a blind draw opens at 12
// cards of twelve types (66 pairs): the longest list random play meets
// often.
func BenchmarkLegalDiscardAt12(b *testing.B) {
	s := newGame(b, 4)
	setHand(s, 0, Spoon, Soap, Paperclip, Cigarettes, File, Screwdriver, Rope, WireCutters, Crowbar, Uniform, Keypad, Joker)
	if _, err := s.Apply(0, TakeBlind{}, 0); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		n += len(s.Legal(0))
	}
	b.ReportMetric(float64(n)/float64(b.N), "actions")
}

// BenchmarkDecodeAction decodes the actions random play offers, as the
// server decodes what a client sends.
func BenchmarkDecodeAction(b *testing.B) {
	g := Game{}
	r := rand.New(rand.NewPCG(3, 4))
	var raw [][]byte
	for i := 0; len(raw) < 512; i++ {
		st, err := g.New(engine.Setup{Players: 4, Seed: uint64(i)})
		if err != nil {
			b.Fatal(err)
		}
		for len(raw) < 512 {
			if _, over := st.Outcome(); over {
				break
			}
			p := st.Actors()[0]
			l := st.Legal(p)
			a := l[r.IntN(len(l))]
			j, err := engine.MarshalTyped(a.(engine.Kinded))
			if err != nil {
				b.Fatal(err)
			}
			raw = append(raw, j)
			if _, err := st.Apply(p, a, 0); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		if _, err := g.DecodeAction(raw[i%len(raw)]); err != nil {
			b.Fatal(err)
		}
		i++
	}
}
