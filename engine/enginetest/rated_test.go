package enginetest

import (
	"strings"
	"testing"

	"sortie/engine"
)

func side(role string, rank int, seats ...engine.Seat) engine.Side {
	return engine.Side{Role: role, Seats: seats, Rank: rank}
}

// checkRated accepts the results of each family that agree with their
// outcome, and names what is wrong in those that do not.
func TestCheckRated(t *testing.T) {
	// Four seats: seats 1 and 3 (the Guards) won, 0 and 2 lost.
	traitors := engine.Outcome{Winners: []engine.Seat{1, 3}, Ranks: []int{2, 1, 2, 1}, Scores: []int{0, 1, 0, 1}}
	coopWon := engine.Outcome{Winners: []engine.Seat{0, 1, 2}, Ranks: []int{1, 1, 1}, Scores: []int{1, 1, 1}}
	coopLost := engine.Outcome{Ranks: []int{1, 1, 1}, Scores: []int{0, 0, 0}}
	race := engine.OutcomeFromScores([]int{3, 5, 5}, "")
	for _, c := range []struct {
		name string
		r    engine.Result
		out  engine.Outcome
		want string // "" for a sound result
	}{
		{"team", engine.Result{Family: engine.Team, Sides: []engine.Side{side("prisoners", 2, 0, 2), side("guards", 1, 1, 3)}}, traitors, ""},
		{"team, a side split in the outcome", engine.Result{Family: engine.Team, Sides: []engine.Side{side("prisoners", 2, 0, 1), side("guards", 1, 2, 3)}}, traitors, "ranks 2 and 1 in the outcome"},
		{"team, ranks upside down", engine.Result{Family: engine.Team, Sides: []engine.Side{side("prisoners", 1, 0, 2), side("guards", 2, 1, 3)}}, traitors, "have ranks"},
		{"team, one role twice", engine.Result{Family: engine.Team, Sides: []engine.Side{side("team", 2, 0, 2), side("team", 1, 1, 3)}}, traitors, "repeated"},
		{"team, a seat left out", engine.Result{Family: engine.Team, Sides: []engine.Side{side("prisoners", 2, 0, 2), side("guards", 1, 1)}}, traitors, "seat 3 is in no side"},
		{"team, a seat twice", engine.Result{Family: engine.Team, Sides: []engine.Side{side("prisoners", 2, 0, 2), side("guards", 1, 1, 2, 3)}}, traitors, "in sides 0 and 1"},
		{"team, seats out of order", engine.Result{Family: engine.Team, Sides: []engine.Side{side("prisoners", 2, 2, 0), side("guards", 1, 1, 3)}}, traitors, "not in seat order"},
		{"team, a lone side that lost", engine.Result{Family: engine.Team, Sides: []engine.Side{side("prisoners", 2, 0, 1, 2)}}, coopLost, ""},
		{"co-op won", engine.CoopResult(coopWon, 3, "difficulty=normal"), coopWon, ""},
		{"co-op lost", engine.CoopResult(coopLost, 3, ""), coopLost, ""},
		{"co-op lost, said won", engine.Result{Family: engine.Coop, Sides: []engine.Side{side("team", 1, 0, 1, 2)}}, coopLost, "won: false"},
		{"co-op in two sides", engine.Result{Family: engine.Coop, Sides: []engine.Side{side("a", 1, 0, 1), side("b", 1, 2)}}, coopWon, "2 sides"},
		{"co-op, rank 3", engine.Result{Family: engine.Coop, Sides: []engine.Side{side("team", 3, 0, 1, 2)}}, coopWon, "rank 3"},
		{"free for all", engine.FreeForAllResult(race, ""), race, ""},
		{"free for all, two seats a side", engine.Result{Family: engine.FreeForAll, Sides: []engine.Side{side("", 1, 1, 2), side("", 2, 0)}}, race, "not one seat"},
		{"free for all, a wrong rank", engine.Result{Family: engine.FreeForAll, Sides: []engine.Side{side("", 3, 0), side("", 1, 1), side("", 2, 2)}}, race, "not one seat of its outcome rank"},
		{"free for all, one side", engine.Result{Family: engine.FreeForAll, Sides: []engine.Side{side("", 1, 0, 1, 2)}}, engine.Outcome{Ranks: []int{1, 1, 1}, Winners: []engine.Seat{0, 1, 2}}, "1 side"},
		{"no side", engine.Result{Family: engine.FreeForAll}, race, "no side"},
		{"a seat that is not one", engine.Result{Family: engine.FreeForAll, Sides: []engine.Side{side("", 3, 0), side("", 1, 1), side("", 1, 7)}}, race, "not a seat"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := checkRated(c.r, c.out, len(c.out.Ranks))
			switch {
			case c.want == "" && err != nil:
				t.Fatalf("a sound result refused: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("got %v, want an error about %q", err, c.want)
			}
		})
	}
}
