package ratinglab

import (
	"context"
	"math"
	"strings"
	"testing"

	"sortie/engine"
)

func setups(players []int, options ...map[string]string) []engine.Setup {
	if options == nil {
		options = []map[string]string{nil}
	}
	var out []engine.Setup
	for _, n := range players {
		for _, o := range options {
			out = append(out, engine.Setup{Players: n, Options: o})
		}
	}
	return out
}

// The quick version of docs/ratings.md's measures, on the two games whose
// bots are fast: a population of easy, medium and hard bots orders itself
// hard > medium > easy in a free for all (Outran, 2 to 6 runners) and in
// co-op (the Temple, 1 to 5 explorers at every difficulty, against the
// measured benchmarks), and the chances it predicts in the second half
// beat the no-skill baseline. The full measures are `sortie lab ratings`.
func TestPopulationOrdersItself(t *testing.T) {
	for _, c := range []struct {
		game    string
		family  engine.Family
		setups  []engine.Setup
		matches int
	}{
		{"outran", engine.FreeForAll, setups([]int{2, 3, 4, 5, 6}), 300},
		{"temple", engine.Coop, setups([]int{1, 2, 3, 4, 5}, map[string]string{"difficulty": "normal"},
			map[string]string{"difficulty": "advanced"}, map[string]string{"difficulty": "expert"}), 800},
	} {
		t.Run(c.game, func(t *testing.T) {
			rep, err := Population{Game: game(t, c.game), Setups: c.setups, Matches: c.matches, Seed: 1, Workers: 2}.Run(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			var b strings.Builder
			WriteMarkdown(&b, rep)
			t.Log("\n" + b.String())
			if rep.Family != c.family || rep.Unrated != 0 {
				t.Fatalf("family %s, %d matches not rated", rep.Family, rep.Unrated)
			}
			if rep.Ordered == 0 {
				t.Errorf("the levels are not ordered at the end: %+v", rep.Summary)
			}
			if cal := rep.Calibration; cal.Skill <= 0 {
				t.Errorf("the predictions (Brier %.4f) do not beat the no-skill baseline (%.4f)", cal.Brier, cal.Baseline)
			}
		})
	}
}

func TestPopulationRefusals(t *testing.T) {
	room25 := game(t, "room25")
	_, err := Population{Game: room25, Setups: []engine.Setup{{Players: 2}, {Players: 2, Options: map[string]string{"mode": "competition"}}}, Matches: 2}.Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "mix") {
		t.Fatalf("co-op and free-for-all setups mixed: %v", err)
	}
	_, err = Population{Game: room25, Setups: []engine.Setup{{Players: 6}}, Matches: 2, PerLevel: 1}.Run(context.Background())
	if err == nil || !strings.Contains(err.Error(), "members") {
		t.Fatalf("six seats for three members: %v", err)
	}
	_, err = Population{Game: room25, Matches: 2}.Run(context.Background())
	if err == nil {
		t.Fatal("a population without setups ran")
	}
}

// Rating the played matches again with the model's own β gives the run's
// own figures: the second pass rates exactly what the first did.
func TestPopulationRatedAgain(t *testing.T) {
	pop := Population{Game: game(t, "outran"), Setups: setups([]int{2, 3, 4}), Matches: 120, Seed: 3, Workers: 2}
	pop.Betas = []float64{25.0 / 6, 8}
	rep, err := pop.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.ByBeta) != 2 {
		t.Fatalf("%d scores for two β", len(rep.ByBeta))
	}
	same := rep.ByBeta[0]
	if same.Calibration.Brier != rep.Calibration.Brier || same.Calibration.Sides != rep.Calibration.Sides || same.Ordered != rep.Ordered {
		t.Errorf("the same β rated again: Brier %v over %d sides, ordered from %d; the run: %v over %d, from %d",
			same.Calibration.Brier, same.Calibration.Sides, same.Ordered, rep.Calibration.Brier, rep.Calibration.Sides, rep.Ordered)
	}
	for l, s := range rep.Summary {
		if same.MeanMu[l] != s.MeanMu {
			t.Errorf("%s: mean μ %v rated again, %v in the run", s.Level, same.MeanMu[l], s.MeanMu)
		}
	}
	if other := rep.ByBeta[1]; other.Calibration.Brier == rep.Calibration.Brier || other.MeanMu[2]-other.MeanMu[0] <= same.MeanMu[2]-same.MeanMu[0] {
		t.Errorf("β = 8 rated like β = 25/6: Brier %v, mean μ %v", other.Calibration.Brier, other.MeanMu)
	}
}

// The no-skill baseline knows how often each kind of side won among the
// other predictions, never the outcome it predicts.
func TestBaselineLeavesOneOut(t *testing.T) {
	c := calibrate([]prediction{
		{group: "a", even: 0.5, p: 0.5, won: 1},
		{group: "a", even: 0.5, p: 0.5, won: 0},
		{group: "b", even: 0.25, p: 0.5, won: 1},
	}, 1)
	// "a": each is predicted by the other's result, 0 and 1: both wrong by
	// 1. "b", alone of its kind: 1/4 for a side among four, wrong by 3/4.
	want := (1 + 1 + 0.75*0.75) / 3
	if math.Abs(c.Baseline-want) > 1e-12 {
		t.Errorf("baseline Brier %v, want %v", c.Baseline, want)
	}
	if math.Abs(c.Brier-0.25) > 1e-12 {
		t.Errorf("Brier %v, want 0.25", c.Brier)
	}
}
