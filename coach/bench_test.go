package coach_test

import (
	"testing"
	"time"

	"sortie/bot"
	"sortie/coach"
	"sortie/engine"
	"sortie/games/all"
	"sortie/internal/cputime"
	"sortie/sim"
)

// recorded plays a two-player match of g between medium bots and returns
// its setup and log.
func recorded(b testing.TB, g engine.Game, seed uint64) (engine.Setup, []engine.Record) {
	b.Helper()
	info := g.Info()
	setup := engine.Setup{Players: max(2, info.MinPlayers), Seed: seed}
	med, err := bot.Level(g, "medium")
	if err != nil {
		b.Fatal(err)
	}
	pols := make([]bot.Policy, setup.Players)
	for i := range pols {
		pols[i] = med
	}
	res, err := sim.Play(g, setup, pols, true)
	if err != nil {
		b.Fatal(err)
	}
	return setup, res.Log
}

// BenchmarkReview reviews seat 0 of a two-player match between medium bots
// of every game with the review's default budget, and reports the CPU time
// a 150-decision match would take at that pace (the target: 60 s of one
// core). Run it with -cpu 1 -benchtime 1x: the CPU time is the process's,
// so nothing else of the process may run meanwhile.
//
//	go test ./coach -run '^$' -bench Review -cpu 1 -benchtime 1x
func BenchmarkReview(b *testing.B) {
	for _, g := range all.Games() {
		b.Run(g.Info().ID, func(b *testing.B) {
			setup, log := recorded(b, g, 1)
			decisions, rechecked := 0, 0
			cpu := cputime.Process()
			start := time.Now()
			for b.Loop() {
				rvs, err := coach.ReviewMatch(g, setup, log, []engine.Seat{0}, coach.ReviewOptions{Seed: 1})
				if err != nil {
					b.Fatal(err)
				}
				decisions += len(rvs[0].Decisions)
				for _, d := range rvs[0].Decisions {
					if d.Rechecked {
						rechecked++
					}
				}
			}
			if decisions == 0 {
				b.Skip("no decision")
			}
			used := cputime.Process() - cpu
			b.ReportMetric(float64(decisions)/float64(b.N), "decisions")
			b.ReportMetric(float64(rechecked)/float64(b.N), "rechecked")
			b.ReportMetric(150*used.Seconds()/float64(decisions), "cpu-s/150-decisions")
			b.ReportMetric(150*time.Since(start).Seconds()/float64(decisions), "wall-s/150-decisions")
		})
	}
}
