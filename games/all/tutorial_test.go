package all_test

import (
	"encoding/json"
	"testing"

	"sortie/coach"
	"sortie/games/all"
)

// Every game has a tutorial whose script its game plays: each step's moves
// (the script's own, and every other one it takes) are legal when the step
// comes, on the script's deal with its bots. A change of rules, deal or
// bots that breaks a tutorial fails here before it fails a learner.
func TestTutorialsPlayThrough(t *testing.T) {
	for _, g := range all.Games() {
		id := g.Info().ID
		t.Run(id, func(t *testing.T) {
			tu, ok := g.(coach.Tutor)
			if !ok {
				t.Fatalf("%s has no tutorial", id)
			}
			script, err := coach.ParseTutorial(g, tu.Tutorial())
			if err != nil {
				t.Fatal(err)
			}
			if _, err := coach.PlayTutorial(g, script, 4000); err != nil {
				t.Fatalf("the script: %v", err)
			}
			// Each other move a step takes, the rest of the script as written.
			for i, st := range script.Steps {
				for j := 1; j < len(st.Expect); j++ {
					alt := *script
					alt.Steps = append([]coach.Step(nil), script.Steps...)
					alt.Steps[i].Expect = []json.RawMessage{st.Expect[j]}
					if _, err := coach.PlayTutorial(g, &alt, 4000); err != nil {
						t.Errorf("step %q played as %s: %v", st.Key, st.Expect[j], err)
					}
				}
			}
		})
	}
}

// The daily challenge of every game is a table the game sets up.
func TestDailyTables(t *testing.T) {
	for _, g := range all.Games() {
		c, ok := g.(coach.Challenger)
		if !ok {
			continue
		}
		d := c.DailyTable()
		tut := coach.Tutorial{Table: d, Seed: 1}
		if _, err := tut.Setup(g); err != nil {
			t.Errorf("%s: %v", g.Info().ID, err)
		}
		if d.Seat < 0 || int(d.Seat) >= d.Players {
			t.Errorf("%s: the player's seat %d is not one of %d", g.Info().ID, d.Seat, d.Players)
		}
	}
}
