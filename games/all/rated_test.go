package all_test

import (
	"testing"

	"sortie/bot"
	"sortie/engine"
	"sortie/games/all"
	"sortie/sim"
)

// Every game says what a finished match is for rating, in the family its
// README gives each mode: Plan de Secours, Les Évadés and Outran every
// player for themselves, the Temple co-op, Room 25 co-op in Cooperation
// and Solo, the team family in Suspicion and Team, free for all in
// Competition. (The conformance suite holds each result to its outcome.)
func TestEveryGameIsRated(t *testing.T) {
	for _, c := range []struct {
		game    string
		players int
		options map[string]string
		family  engine.Family
		key     string
		sides   int // sides of the result
	}{
		{"plandesecours", 3, nil, engine.FreeForAll, "", 3},
		{"evades", 2, nil, engine.FreeForAll, "", 2},
		{"outran", 4, nil, engine.FreeForAll, "", 4},
		{"temple", 2, nil, engine.Coop, "difficulty=normal", 1},
		{"temple", 3, map[string]string{"difficulty": "expert"}, engine.Coop, "difficulty=expert", 1},
		{"room25", 1, nil, engine.Coop, "mode=solo", 1},
		{"room25", 3, nil, engine.Coop, "mode=cooperation", 1},
		{"room25", 6, map[string]string{"mode": "suspicion"}, engine.Team, "mode=suspicion", 2},
		{"room25", 4, map[string]string{"mode": "team"}, engine.Team, "mode=team", 2},
		{"room25", 3, map[string]string{"mode": "competition"}, engine.FreeForAll, "mode=competition", 3},
	} {
		t.Run(c.game+"/"+c.key, func(t *testing.T) {
			g, err := all.Find(c.game)
			if err != nil {
				t.Fatal(err)
			}
			setup := engine.Setup{Players: c.players, Options: c.options, Seed: 3}
			s, err := g.New(setup)
			if err != nil {
				t.Fatal(err)
			}
			rs, ok := s.(engine.Rated)
			if !ok {
				t.Fatalf("%s's states do not say what a match is for rating", c.game)
			}
			if r, over := rs.RatedResult(); over || r.Family != c.family || r.Key != c.key || r.Sides != nil {
				t.Fatalf("before the start: %+v, %v", r, over)
			}
			pol, err := bot.Level(g, "medium")
			if err != nil {
				t.Fatal(err)
			}
			pols := make([]bot.Policy, c.players)
			for i := range pols {
				pols[i] = pol
			}
			res, err := sim.PlayOne(g, setup, pols)
			if err != nil {
				t.Fatal(err)
			}
			if r := res.Rated; r == nil || r.Family != c.family || r.Key != c.key || len(r.Sides) != c.sides {
				t.Fatalf("at the end: %+v", r)
			}
		})
	}
}
