package temple

import (
	"testing"

	"sortie/bot"
	"sortie/engine"
	"sortie/sim"
)

// team returns n heuristic policies.
func team(p bot.Policy, n int) []bot.Policy {
	ps := make([]bot.Policy, n)
	for i := range ps {
		ps[i] = p
	}
	return ps
}

// winRate plays games of n heuristic bots and returns the share won.
func winRate(t testing.TB, n int, opts map[string]string, games int, seed0 uint64) (float64, map[string]int) {
	won := 0
	reasons := map[string]int{}
	for i := range games {
		setup := engine.Setup{Players: n, Options: opts, Seed: seed0 + uint64(i)}
		res, err := sim.PlayOne(Game{}, setup, team(Heuristic(), n))
		if err != nil {
			t.Fatalf("%v seed %d: %v", opts, setup.Seed, err)
		}
		if len(res.Outcome.Winners) > 0 {
			won++
		}
		reasons[res.Outcome.Summary]++
	}
	return float64(won) / float64(games), reasons
}

// BenchmarkHeuristicGame4 plays a whole 4-player game of heuristic bots
// per op through sim.PlayOne.
func BenchmarkHeuristicGame4(b *testing.B) {
	for i := 0; b.Loop(); i++ {
		setup := engine.Setup{Players: 4, Seed: uint64(i)}
		if _, err := sim.PlayOne(Game{}, setup, team(Heuristic(), 4)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkHardGame4 plays a whole 4-player game of hard bots per op.
func BenchmarkHardGame4(b *testing.B) {
	for i := 0; b.Loop(); i++ {
		setup := engine.Setup{Players: 4, Seed: uint64(i)}
		if _, err := sim.PlayOne(Game{}, setup, team(Hard(), 4)); err != nil {
			b.Fatal(err)
		}
	}
}
