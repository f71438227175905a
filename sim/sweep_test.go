package sim_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"sortie/bot"
	"sortie/engine"
	tg "sortie/engine/enginetest/testgames"
	"sortie/sim"
)

func TestParseAxis(t *testing.T) {
	info := tg.Draw{}.Info()
	for _, tc := range []struct {
		spec string
		want []string
		bad  bool
	}{
		{spec: "players=2..3", want: []string{"2", "3"}},
		{spec: "players=*", want: []string{"2", "3"}},
		{spec: "players=2..5", bad: true},
		{spec: "deck=*", want: []string{"8", "9"}},
		{spec: "deck=9,8", want: []string{"9", "8"}},
		{spec: "deck=10", bad: true},
		{spec: "colour=red", bad: true},
		{spec: "bots=random/random,random", want: []string{"random", "random,random"}},
		{spec: "players", bad: true},
		{spec: "players=3..2", bad: true},
	} {
		a, err := sim.ParseAxis(info, tc.spec)
		if tc.bad {
			if err == nil {
				t.Errorf("%q was accepted: %+v", tc.spec, a)
			}
			continue
		}
		if err != nil || !slices.Equal(a.Values, tc.want) {
			t.Errorf("%q: %v, %v; want %v", tc.spec, a.Values, err, tc.want)
		}
	}
}

// Given a sweep over player counts and an option, when it is expanded,
// then every combination is a labelled batch with the base's seed and bots.
func TestSweepExpands(t *testing.T) {
	info := tg.Draw{}.Info()
	players, _ := sim.ParseAxis(info, "players=2..3")
	deck, _ := sim.ParseAxis(info, "deck=*")
	base := sim.Config{Game: tg.Draw{}, Players: 2, Games: 10, Seed: 5, Rotate: true}
	cfgs, skipped, err := sim.Sweep(base, "random", []sim.Axis{players, deck})
	if err != nil || len(skipped) > 0 {
		t.Fatal(err, skipped)
	}
	var labels []string
	for _, c := range cfgs {
		labels = append(labels, c.Label)
		if c.Seed != 5 || len(c.Policies) != c.Players || !c.Rotate {
			t.Errorf("%s: %+v", c.Label, c)
		}
	}
	want := []string{"players=2 deck=8", "players=2 deck=9", "players=3 deck=8", "players=3 deck=9"}
	if !slices.Equal(labels, want) {
		t.Fatalf("labels %v, want %v", labels, want)
	}
}

// The report is one HTML page with its charts inlined and nothing to fetch.
func TestReportIsSelfContained(t *testing.T) {
	info := tg.Draw{}.Info()
	players, _ := sim.ParseAxis(info, "players=2..3")
	deck, _ := sim.ParseAxis(info, "deck=*")
	base := sim.Config{Game: tg.Draw{}, Games: 300, Seed: 5, Rotate: true}
	cfgs, _, err := sim.Sweep(base, "random", []sim.Axis{players, deck})
	if err != nil {
		t.Fatal(err)
	}
	runs, err := sim.RunAll(context.Background(), cfgs, nil)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	rep := sim.Report{Game: info, Command: "sortie sim draw --sweep players=2..3 --sweep deck=*", Axes: []sim.Axis{players, deck}, Runs: runs}
	if err := rep.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	if n := strings.Count(page, "<svg"); n < 6 {
		t.Errorf("the report has %d charts", n)
	}
	for _, want := range []string{"Win rate by seat", "Game length", "Seat 0&#39;s win rate by deck", "Game length by players", "players=3 deck=9"} {
		if !strings.Contains(page, want) {
			t.Errorf("the report lacks %q", want)
		}
	}
	// Nothing to load: no script, no style sheet, no image, no font from
	// elsewhere (SVG namespaces are names, not addresses to fetch).
	fetch := regexp.MustCompile(`(?i)(<script|<link|@import|url\(\s*['"]?https?:|(src|href)\s*=\s*['"]?https?:)`)
	if m := fetch.FindString(page); m != "" {
		t.Errorf("the report fetches something: %q", m)
	}
	if dir := os.Getenv("SORTIE_REPORT_DIR"); dir != "" {
		os.WriteFile(filepath.Join(dir, "draw.html"), b.Bytes(), 0o644)
	}
}

// Given a co-operative batch (every seat wins or none), the report speaks
// of team success.
func TestReportOfATeamGame(t *testing.T) {
	st, err := sim.Run(context.Background(), sim.Config{
		Game: team{}, Players: 3, Policies: []bot.Policy{bot.Random{}, bot.Random{}, bot.Random{}}, Games: 200, Seed: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	if !st.CoOperative() {
		t.Fatalf("not co-operative: %+v", st)
	}
	var b bytes.Buffer
	if err := (sim.Report{Game: team{}.Info(), Runs: []sim.Stats{st}}).WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "Team success rate") {
		t.Fatal("the report of a team game does not show the team's success")
	}
}

// team is Draw played as a team: everyone wins when the hands add up to 20
// or more.
type team struct{ tg.Draw }

func (team) Info() engine.Info {
	i := tg.Draw{}.Info()
	i.ID = "team"
	return i
}

func (g team) New(s engine.Setup) (engine.State, error) {
	st, err := g.Draw.New(s)
	return teamState{st}, err
}

type teamState struct{ engine.State }

func (s teamState) Clone() engine.State { return teamState{s.State.Clone()} }

func (s teamState) Outcome() (engine.Outcome, bool) {
	out, over := s.State.Outcome()
	if !over {
		return out, false
	}
	sum := 0
	for _, v := range out.Scores {
		sum += v
	}
	res := engine.Outcome{Ranks: make([]int, len(out.Scores)), Scores: make([]int, len(out.Scores))}
	for p := range res.Ranks {
		res.Ranks[p], res.Scores[p] = 1, sum
		if sum >= 20 {
			res.Winners = append(res.Winners, engine.Seat(p))
		}
	}
	return res, true
}
