package coach_test

import (
	"fmt"
	"math"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"sortie/bot"
	"sortie/coach"
	"sortie/engine"
	"sortie/games/all"
	"sortie/sim"
)

// TestCalibration is the lab's check of the reviews (docs/bots.md,
// "Reviews"): for each game, SORTIE_CALIBRATE matches of each level's bot
// at seat 0 against medium bots at the other seats, seat 0 reviewed; it
// prints, by level, the mean accuracy with its 95% interval and the
// blunders per match. A review that judges well gives hard > medium > easy.
// It runs only when asked:
//
//	SORTIE_CALIBRATE=200 go test ./coach -run TestCalibration -v -timeout 0
//	SORTIE_CALIBRATE=20 SORTIE_CALIBRATE_GAMES=plandesecours,evades go test ./coach -run TestCalibration -v -timeout 0
func TestCalibration(t *testing.T) {
	n, _ := strconv.Atoi(os.Getenv("SORTIE_CALIBRATE"))
	if n <= 0 {
		t.Skip("set SORTIE_CALIBRATE to the number of matches per game and level")
	}
	only := map[string]bool{}
	for _, id := range strings.Split(os.Getenv("SORTIE_CALIBRATE_GAMES"), ",") {
		if id != "" {
			only[id] = true
		}
	}
	var out strings.Builder
	fmt.Fprintf(&out, "| game | level | matches | decisions per match | accuracy (95%% interval) | blunders per match (95%% interval) |\n| --- | --- | --- | --- | --- | --- |\n")
	for _, g := range all.Games() {
		info := g.Info()
		if len(only) > 0 && !only[info.ID] {
			continue
		}
		for _, level := range []string{"easy", "medium", "hard"} {
			acc, blunders, decisions := calibrate(t, g, level, n)
			m, ci := meanCI(acc)
			b, bci := meanCI(blunders)
			d, _ := meanCI(decisions)
			fmt.Fprintf(&out, "| %s | %s | %d | %.0f | %.1f ± %.1f | %.2f ± %.2f |\n", info.ID, level, len(acc), d, m, ci, b, bci)
		}
	}
	t.Logf("\n%s", out.String())
}

// calibrate plays n matches of level at seat 0 and reviews seat 0.
func calibrate(t *testing.T, g engine.Game, level string, n int) (acc, blunders, decisions []float64) {
	info := g.Info()
	players := max(2, info.MinPlayers)
	me, err := bot.Level(g, level)
	if err != nil {
		t.Fatal(err)
	}
	med, err := bot.Level(g, "medium")
	if err != nil {
		t.Fatal(err)
	}
	pols := []bot.Policy{me}
	for len(pols) < players {
		pols = append(pols, med)
	}
	var mu sync.Mutex
	next := 0
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				mu.Lock()
				i := next
				next++
				mu.Unlock()
				if i >= n {
					return
				}
				setup := engine.Setup{Players: players, Seed: uint64(1000 + i)}
				res, err := sim.Play(g, setup, pols, true)
				if err != nil {
					t.Error(err)
					return
				}
				start := time.Now()
				rvs, err := coach.ReviewMatch(g, setup, res.Log, []engine.Seat{0}, coach.ReviewOptions{Seed: uint64(i)})
				if err != nil {
					t.Error(err)
					return
				}
				rv := rvs[0]
				if len(rv.Decisions) == 0 {
					continue
				}
				mu.Lock()
				acc = append(acc, rv.Accuracy)
				blunders = append(blunders, float64(rv.Counts[coach.BandBlunder]))
				decisions = append(decisions, float64(len(rv.Decisions)))
				mu.Unlock()
				if testing.Verbose() {
					t.Logf("%s %s match %d: %d decisions, accuracy %.1f, %d blunders, reviewed in %v", info.ID, level, i, len(rv.Decisions), rv.Accuracy, rv.Counts[coach.BandBlunder], time.Since(start).Round(time.Millisecond))
				}
			}
		}()
	}
	wg.Wait()
	return acc, blunders, decisions
}

// meanCI is the mean of xs and the half-width of its 95% interval.
func meanCI(xs []float64) (mean, half float64) {
	if len(xs) == 0 {
		return math.NaN(), math.NaN()
	}
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	if len(xs) < 2 {
		return mean, math.NaN()
	}
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return mean, 1.96 * math.Sqrt(ss/float64(len(xs)-1)/float64(len(xs)))
}

// TestHintStrength seats the hints' analysis (coach.Policy with a hint's
// options) against the hard bot in two-player matches of the games named
// by SORTIE_HINT_STRENGTH, seats swapped every match, and prints each
// side's wins with their 95% interval: a hint should be no weaker than
// the hard bot (docs/bots.md, "Hints and reviews").
//
//	SORTIE_HINT_STRENGTH=plandesecours,evades SORTIE_HINT_MATCHES=40 go test ./coach -run TestHintStrength -v -timeout 0
func TestHintStrength(t *testing.T) {
	ids := os.Getenv("SORTIE_HINT_STRENGTH")
	if ids == "" {
		t.Skip("set SORTIE_HINT_STRENGTH to the games to measure")
	}
	n, _ := strconv.Atoi(os.Getenv("SORTIE_HINT_MATCHES"))
	if n <= 0 {
		n = 40
	}
	for _, id := range strings.Split(ids, ",") {
		g, err := all.Find(id)
		if err != nil {
			t.Fatal(err)
		}
		hard, err := bot.Level(g, "hard")
		if err != nil {
			t.Fatal(err)
		}
		hint := coach.Policy{Label: "hint", Options: coach.Options{Rollouts: coach.HintRollouts, Wall: coach.HintWall}}
		st, err := sim.Run(t.Context(), sim.Config{Game: g, Players: 2, Policies: []bot.Policy{hint, hard}, Games: n, Seed: 3, Workers: runtime.GOMAXPROCS(0), Rotate: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range st.Policies {
			t.Logf("%s: %s won %d of %d seatings, %+v", id, p.Policy, p.Wins, p.Seatings, p.WinRate)
		}
	}
}
