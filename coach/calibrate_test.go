package coach_test

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"runtime"
	"slices"
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
// SORTIE_CALIBRATE_LEVELS names the levels to measure (all three by
// default), SORTIE_CALIBRATE_ROLLOUTS each decision's budget (the review's
// default when unset). It runs only when asked:
//
//	SORTIE_CALIBRATE=200 go test ./coach -run TestCalibration -v -timeout 0
//	SORTIE_CALIBRATE=20 SORTIE_CALIBRATE_GAMES=plandesecours,evades go test ./coach -run TestCalibration -v -timeout 0
//	SORTIE_CALIBRATE=40 SORTIE_CALIBRATE_GAMES=room25 SORTIE_CALIBRATE_LEVELS=easy go test ./coach -run TestCalibration -v -timeout 0
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
	levels := []string{"easy", "medium", "hard"}
	if l := os.Getenv("SORTIE_CALIBRATE_LEVELS"); l != "" {
		levels = strings.Split(l, ",")
	}
	var out, where, plain strings.Builder
	fmt.Fprintf(&out, "| game | level | matches | decisions per match | accuracy (95%% interval) | blunders per match (95%% interval) |\n| --- | --- | --- | --- | --- | --- |\n")
	fmt.Fprintf(&where, "| game | level | points lost per match, by the kind of move made |\n| --- | --- | --- |\n")
	for _, g := range all.Games() {
		info := g.Info()
		if len(only) > 0 && !only[info.ID] {
			continue
		}
		for _, level := range levels {
			c := calibrate(t, g, level, n)
			m, ci := meanCI(c.acc)
			b, bci := meanCI(c.blunders)
			d, _ := meanCI(c.decisions)
			fmt.Fprintf(&out, "| %s | %s | %d | %.0f | %.1f ± %.1f | %.2f ± %.2f |\n", info.ID, level, len(c.acc), d, m, ci, b, bci)
			fmt.Fprintf(&where, "| %s | %s | %s |\n", info.ID, level, c.where())
			pm, pci := meanCI(c.plain)
			fmt.Fprintf(&plain, "%s %s: the plain mean of the decisions' accuracies %.1f ± %.1f\n", info.ID, level, pm, pci)
		}
	}
	t.Logf("\n%s\n%s\n%s", out.String(), where.String(), plain.String())
}

// calibration is what the reviews of one level's matches found.
type calibration struct {
	acc, blunders, decisions []float64
	// plain is each match's plain mean of its decisions' accuracies, to
	// set beside the accuracy a review gives (coach.GameAccuracy).
	plain []float64
	// lost sums, by the type of the move made ("play_tile", or
	// "play_tile for play_lost" when the best was of another type), the
	// points of win chance the decisions lost (those beyond twice their
	// error), over matches matches.
	lost    map[string]float64
	matches int
}

// add counts one review.
func (c *calibration) add(rv *coach.Review) {
	c.acc = append(c.acc, rv.Accuracy)
	c.blunders = append(c.blunders, float64(rv.Counts[coach.BandBlunder]))
	c.decisions = append(c.decisions, float64(len(rv.Decisions)))
	c.matches++
	sum := 0.0
	for _, d := range rv.Decisions {
		sum += d.Accuracy()
	}
	c.plain = append(c.plain, sum/float64(len(rv.Decisions)))
	for _, d := range rv.Decisions {
		var played, best struct{ Type string }
		json.Unmarshal(d.Played, &played)
		json.Unmarshal(d.Best, &best)
		kind := played.Type
		if best.Type != played.Type {
			kind += " for " + best.Type
		}
		if d.Counted() {
			c.lost[kind] += d.Loss
		}
	}
}

// where lists the kinds of move by the points they lost per match, most
// first, those under one point left out.
func (c *calibration) where() string {
	type kind struct {
		name string
		lost float64
	}
	var ks []kind
	for name, lost := range c.lost {
		if per := lost / float64(max(1, c.matches)); per >= 1 {
			ks = append(ks, kind{name, per})
		}
	}
	slices.SortFunc(ks, func(x, y kind) int { return cmp.Compare(y.lost, x.lost) })
	var parts []string
	for _, k := range ks {
		parts = append(parts, fmt.Sprintf("%s %.1f", k.name, k.lost))
	}
	return strings.Join(parts, ", ")
}

// calibrate plays n matches of level at seat 0 and reviews seat 0.
func calibrate(t *testing.T, g engine.Game, level string, n int) *calibration {
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
	rollouts, _ := strconv.Atoi(os.Getenv("SORTIE_CALIBRATE_ROLLOUTS"))
	pols := []bot.Policy{me}
	for len(pols) < players {
		pols = append(pols, med)
	}
	c := &calibration{lost: map[string]float64{}}
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
				rvs, err := coach.ReviewMatch(g, setup, res.Log, []engine.Seat{0}, coach.ReviewOptions{Seed: uint64(i), Rollouts: rollouts})
				if err != nil {
					t.Error(err)
					return
				}
				rv := rvs[0]
				if len(rv.Decisions) == 0 {
					continue
				}
				mu.Lock()
				c.add(rv)
				mu.Unlock()
				if testing.Verbose() {
					t.Logf("%s %s match %d: %d decisions, accuracy %.1f, %d blunders, reviewed in %v", info.ID, level, i, len(rv.Decisions), rv.Accuracy, rv.Counts[coach.BandBlunder], time.Since(start).Round(time.Millisecond))
				}
			}
		}()
	}
	wg.Wait()
	return c
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
