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

// BenchmarkHint times a hint's analysis (the server's: HintRollouts, cut at
// HintWall) at the decisions of seat 0 in the first
// twenty records of a two-player match between medium bots of every game,
// and reports the wall time and CPU time per hint, and the rollouts the
// cut allowed (1200 when it was not cut). The target: 1 s of one core, the
// worst included.
//
//	go test ./coach -run '^$' -bench Hint -cpu 1 -benchtime 1x
func BenchmarkHint(b *testing.B) {
	for _, g := range all.Games() {
		b.Run(g.Info().ID, func(b *testing.B) {
			setup, log := recorded(b, g, 1)
			opts, _ := g.Info().Check(setup)
			var positions []coach.Position
			s, _ := g.New(setup)
			var past []engine.Event
			for _, rec := range log[:min(20, len(log))] {
				if pos, ok := coach.At(g, s.Clone(), 0, setup.Players, opts, rec.At); ok && len(pos.Legal) > 1 {
					pos.Past = append([]engine.Event(nil), past...)
					positions = append(positions, pos)
				}
				evs, err := engine.Play(s, rec)
				if err != nil {
					b.Fatal(err)
				}
				past = engine.Visible(past, evs, 0)
			}
			if len(positions) == 0 {
				b.Skip("no decision of seat 0 early in the match")
			}
			hints, rollouts, cut := 0, 0, 0
			var worst time.Duration
			cpu := cputime.Process()
			start := time.Now()
			for b.Loop() {
				for i, pos := range positions {
					a := coach.Analyze(pos, coach.Options{Rollouts: coach.HintRollouts, Wall: coach.HintWall, Seed: uint64(i)})
					hints++
					rollouts += a.Rollouts
					worst = max(worst, a.Elapsed)
					if a.Cut {
						cut++
					}
				}
			}
			used := cputime.Process() - cpu
			b.ReportMetric(float64(time.Since(start).Milliseconds())/float64(hints), "wall-ms/hint")
			b.ReportMetric(float64(used.Milliseconds())/float64(hints), "cpu-ms/hint")
			b.ReportMetric(float64(worst.Milliseconds()), "worst-wall-ms")
			b.ReportMetric(float64(rollouts)/float64(hints), "rollouts/hint")
			b.ReportMetric(float64(cut)/float64(hints), "cut")
		})
	}
}
