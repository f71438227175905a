package room25

import (
	"math/rand/v2"
	"testing"

	"sortie/engine"
)

// randomPlayout plays uniformly random legal actions to the end and returns
// the number of actions.
func randomPlayout(tb testing.TB, setup engine.Setup, r *rand.Rand) (engine.State, int) {
	s, err := Game{}.New(setup)
	if err != nil {
		tb.Fatal(err)
	}
	n := 0
	for {
		if _, over := s.Outcome(); over {
			return s, n
		}
		actors := s.Actors()
		p := actors[r.IntN(len(actors))]
		legal := s.Legal(p)
		if _, err := s.Apply(p, legal[r.IntN(len(legal))], 0); err != nil {
			tb.Fatal(err)
		}
		n++
	}
}

// BenchmarkRandomPlayout plays random games of every mode.
func BenchmarkRandomPlayout(b *testing.B) {
	setups := []engine.Setup{
		{Players: 4, Options: map[string]string{optMode: "cooperation"}},
		{Players: 1, Options: map[string]string{optMode: "solo"}},
		{Players: 5, Options: map[string]string{optMode: "suspicion"}},
		{Players: 3, Options: map[string]string{optMode: "competition"}},
		{Players: 6, Options: map[string]string{optMode: "team"}},
	}
	r := rand.New(rand.NewPCG(1, 2))
	actions := 0
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		setup := setups[i%len(setups)]
		setup.Seed = uint64(i)
		_, n := randomPlayout(b, setup, r)
		actions += n
	}
	b.ReportMetric(float64(actions)/b.Elapsed().Seconds(), "actions/s")
	b.ReportMetric(float64(actions)/float64(b.N), "actions/game")
}
