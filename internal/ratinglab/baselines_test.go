package ratinglab

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"sortie/engine"
	"sortie/games/all"
	"sortie/internal/rating"
	"sortie/sim"
)

func game(t *testing.T, id string) engine.Game {
	t.Helper()
	g, err := all.Find(id)
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func configs(t *testing.T, g engine.Game, games int, lineup string, axes ...string) []sim.Config {
	t.Helper()
	var as []sim.Axis
	for _, spec := range axes {
		a, err := sim.ParseAxis(g.Info(), spec)
		if err != nil {
			t.Fatal(err)
		}
		as = append(as, a)
	}
	cfgs, _, err := sim.Sweep(sim.Config{Game: g, Players: 2, Seed: 1, Games: games, Workers: 2}, lineup, as)
	if err != nil {
		t.Fatal(err)
	}
	return cfgs
}

// Hard Temple teams of one and two, at normal difficulty: a co-op cell for
// each count, with the team's successes; the free for all of Outran is
// left out; the data written reads back the same.
func TestBaselinesOfACoopGame(t *testing.T) {
	temple := game(t, "temple")
	cfgs := append(configs(t, temple, 40, "hard", "players=1..2"), configs(t, game(t, "outran"), 5, "hard")...)
	cells, skipped, err := Baselines(context.Background(), cfgs, "sortie lab baselines temple", "2026-11-28", nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(skipped) != 1 || !strings.Contains(skipped[0], "free_for_all") {
		t.Fatalf("skipped %v", skipped)
	}
	if len(cells) != 2 {
		t.Fatalf("%d cells: %+v", len(cells), cells)
	}
	for i, c := range cells {
		s := c.Sides[0]
		if c.Game != "temple" || c.Key != "difficulty=normal" || c.Family != rating.Coop || c.Players != i+1 || c.Games != 40 ||
			s.Role != "team" || s.Size != i+1 || s.Points != float64(s.Wins) || s.Wins < 20 || s.Rate.P != float64(s.Wins)/40 ||
			c.Bots != "hard" || c.Date != "2026-11-28" {
			t.Errorf("cell %d: %+v", i, c)
		}
	}
	b, err := Encode(Merge(nil, cells))
	if err != nil {
		t.Fatal(err)
	}
	back, err := rating.ReadData(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
	if len(back.Cells) != 2 || back.Cells[1].Sides[0].Wins != cells[1].Sides[0].Wins {
		t.Fatalf("read back %+v", back.Cells)
	}
	if _, _, err := Baselines(context.Background(), configs(t, temple, 1, "medium"), "", "", nil); err == nil {
		t.Fatal("baselines measured with medium bots")
	}
}

// A team result gives its sides their share of the win by role; a lone
// side its success; compositions name roles and sizes in role order.
func TestPointsAndCompositions(t *testing.T) {
	side := func(role string, rank int, seats ...engine.Seat) engine.Side {
		return engine.Side{Role: role, Rank: rank, Seats: seats}
	}
	guards := engine.Result{Sides: []engine.Side{side("prisoners", 2, 0, 2, 3), side("guards", 1, 1)}}
	draw := engine.Result{Sides: []engine.Side{side("team_a", 1, 0, 2), side("team_b", 1, 1, 3)}}
	lost := engine.Result{Sides: []engine.Side{side("team", 2, 0, 1)}}
	for _, c := range []struct {
		r    engine.Result
		want map[string]float64
		comp string
	}{
		{guards, map[string]float64{"guards": 1}, "guards:1,prisoners:3"},
		{draw, map[string]float64{"team_a": 0.5, "team_b": 0.5}, "team_a:2,team_b:2"},
		{lost, map[string]float64{}, "team:2"},
	} {
		got := points(c.r)
		if len(got) != len(c.want) {
			t.Errorf("%+v: points %v, want %v", c.r, got, c.want)
		}
		for k, v := range c.want {
			if got[k] != v {
				t.Errorf("%+v: points %v, want %v", c.r, got, c.want)
			}
		}
		if comp := composition(c.r); comp != c.comp {
			t.Errorf("composition %q, want %q", comp, c.comp)
		}
	}
}

// Measuring a variant again replaces every composition of it, keeps the
// others, and orders the cells.
func TestMerge(t *testing.T) {
	cell := func(key string, players int, roles ...string) rating.Cell {
		c := rating.Cell{Game: "g", Key: key, Family: rating.Team, Players: players, Games: 10, Bots: "hard", Command: "x", Date: "2026-11-28"}
		for _, r := range roles {
			c.Sides = append(c.Sides, rating.CellSide{Role: r, Size: players / len(roles)})
		}
		return c
	}
	old := &rating.Data{Cells: []rating.Cell{cell("mode=b", 4, "x", "y"), cell("mode=a", 4, "p", "q"), cell("mode=a", 4, "p")}}
	fresh := cell("mode=a", 4, "p", "q")
	fresh.Games = 99
	got := Merge(old, []rating.Cell{fresh}).Cells
	if len(got) != 2 || got[0].Key != "mode=a" || got[0].Games != 99 || got[1].Key != "mode=b" {
		t.Fatalf("merged %+v", got)
	}
}
