package ratinglab

import (
	"context"
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
