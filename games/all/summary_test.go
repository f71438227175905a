package all_test

import (
	"regexp"
	"strconv"
	"testing"

	"sortie/bot"
	"sortie/engine"
	"sortie/games/all"
	"sortie/sim"
)

// Every game's outcome summary names seats as every screen does, from 1:
// each "seat N" it says is a winner, seat N-1 in the outcome's (0-based)
// fields, and no summary says "seat 0".
func TestSummariesNameSeatsFromOne(t *testing.T) {
	named := regexp.MustCompile(`(?i)\bseat (\d+)`)
	for _, g := range all.Games() {
		info := g.Info()
		t.Run(info.ID, func(t *testing.T) {
			players := max(info.MinPlayers, 3)
			players = min(players, info.MaxPlayers)
			pol, err := bot.Find(g, "heuristic")
			if err != nil {
				t.Fatal(err)
			}
			policies := make([]bot.Policy, players)
			for i := range policies {
				policies[i] = pol
			}
			seen := 0
			for seed := uint64(1); seed <= 12 && seen < 3; seed++ {
				res, err := sim.Play(g, engine.Setup{Players: players, Seed: seed}, policies, false)
				if err != nil {
					t.Fatal(err)
				}
				sum := res.Outcome.Summary
				for _, m := range named.FindAllStringSubmatch(sum, -1) {
					seen++
					n, _ := strconv.Atoi(m[1])
					winner := false
					for _, w := range res.Outcome.Winners {
						winner = winner || int(w) == n-1
					}
					if n < 1 || n > players || !winner {
						t.Errorf("seed %d: %q names seat %d; the winners are %v (counted from 0)", seed, sum, n, res.Outcome.Winners)
					}
				}
			}
			t.Logf("%d seats named in the summaries", seen)
		})
	}
}
