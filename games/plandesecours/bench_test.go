package plandesecours

import (
	"math/rand/v2"
	"testing"
	"time"

	"sortie/engine"
)

// playRandom plays one whole game with uniformly random legal actions and
// returns the number of actions applied.
func playRandom(tb testing.TB, n int, danger bool, seed uint64, r *rand.Rand) int {
	s := newState(n, danger, seed)
	actions := 0
	for s.phase != phaseOver {
		p := s.Actors()[0]
		legal := s.Legal(p)
		if _, err := s.Apply(p, legal[r.IntN(len(legal))], 0); err != nil {
			tb.Fatal(err)
		}
		actions++
	}
	return actions
}

// BenchmarkRandomPlayout plays whole games (4 players, DANGER off) with
// random legal actions: Legal, a random choice and Apply at every step.
func BenchmarkRandomPlayout(b *testing.B) {
	for _, bc := range []struct {
		name   string
		n      int
		danger bool
	}{{"players=4", 4, false}, {"players=4,danger", 4, true}, {"players=2", 2, false}, {"players=5", 5, false}} {
		b.Run(bc.name, func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, 2))
			actions := 0
			b.ReportAllocs()
			cpu := cpuTime()
			for i := 0; b.Loop(); i++ {
				actions += playRandom(b, bc.n, bc.danger, uint64(i), r)
			}
			cpu = cpuTime() - cpu
			b.ReportMetric(float64(actions)/b.Elapsed().Seconds(), "actions/s")
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
			b.ReportMetric(float64(actions)/float64(b.N), "actions/game")
			reportCPU(b, cpu, actions)
			if cpu > 0 {
				b.ReportMetric(float64(b.N)/cpu.Seconds(), "games/cpu-s")
			}
		})
	}
}

// BenchmarkRandomAction measures one step of a random playout (Legal, a
// random choice, Apply), games restarting as they end (4 players).
func BenchmarkRandomAction(b *testing.B) {
	r := rand.New(rand.NewPCG(3, 4))
	seed := uint64(0)
	s := newState(4, false, seed)
	b.ReportAllocs()
	cpu := cpuTime()
	defer func() { reportCPU(b, cpuTime()-cpu, b.N) }()
	for b.Loop() {
		if s.phase == phaseOver {
			seed++
			s = newState(4, false, seed)
		}
		p := s.Actors()[0]
		legal := s.Legal(p)
		if _, err := s.Apply(p, legal[r.IntN(len(legal))], 0); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "actions/s")
}

// BenchmarkView measures one seat's view.
func BenchmarkView(b *testing.B) {
	s := newState(4, true, 7)
	b.ReportAllocs()
	for b.Loop() {
		_ = s.View(engine.Seat(1))
	}
}

// reportCPU reports actions per CPU second of the process: on a shared
// machine the wall-clock rate says more about the neighbours than the code.
// With -cpu 1 the garbage collector's work is included.
func reportCPU(b *testing.B, cpu time.Duration, actions int) {
	if cpu > 0 {
		b.ReportMetric(float64(actions)/cpu.Seconds(), "actions/cpu-s")
	}
}
