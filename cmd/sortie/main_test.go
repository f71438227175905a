package main

import (
	"bytes"
	"encoding/json"
	"io"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"sortie/bot"
	"sortie/engine"
	"sortie/games/all"
	"sortie/games/plandesecours"
	"sortie/sim"
)

// run executes the sortie command with args and input, and returns its
// output.
func run(t *testing.T, in io.Reader, args ...string) (string, error) {
	t.Helper()
	var out bytes.Buffer
	root.SetArgs(args)
	root.SetIn(in)
	root.SetOut(&out)
	root.SetErr(&out)
	err := root.Execute()
	return out.String(), err
}

func TestSimPrintsStatistics(t *testing.T) {
	out, err := run(t, nil, "sim", "plandesecours", "--games", "200", "--players", "3", "--bots", "heuristic,random", "--json")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var st sim.Stats
	if err := json.Unmarshal([]byte(out), &st); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if st.Games != 200 || len(st.Seats) != 3 || len(st.Policies) != 2 {
		t.Fatalf("unexpected statistics: %+v", st)
	}
}

// Given a game played by bots and its log, when the log is replayed through
// the command, then it reaches the same outcome; and a bad line is reported
// with its number.
func TestReplayAppliesALog(t *testing.T) {
	setup := engine.Setup{Players: 2, Seed: 9}
	res, err := sim.Play(plandesecours.Game{}, setup, []bot.Policy{bot.Random{}, bot.Random{}}, true)
	if err != nil {
		t.Fatal(err)
	}
	var log strings.Builder
	for _, r := range res.Log {
		b, _ := json.Marshal(r)
		log.Write(b)
		log.WriteByte('\n')
	}
	out, err := run(t, strings.NewReader(log.String()), "replay", "plandesecours", "--players", "2", "--seed", "9")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var got struct {
		Outcome *engine.Outcome `json:"outcome"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil || got.Outcome == nil {
		t.Fatalf("no outcome in %s (%v)", out, err)
	}
	if got.Outcome.Summary != res.Outcome.Summary {
		t.Fatalf("replay ends %q, the game ended %q", got.Outcome.Summary, res.Outcome.Summary)
	}

	lines := strings.SplitN(log.String(), "\n", 3)
	bad := lines[0] + "\n{\"seat\":0,\"action\":{\"type\":\"fly\"}}\n"
	_, err = run(t, strings.NewReader(bad), "replay", "plandesecours", "--players", "2", "--seed", "9")
	if err == nil || !strings.Contains(err.Error(), "line 2") {
		t.Fatalf("a bad second line gave %v", err)
	}
}

// sortie games fits in a terminal of 80 columns, lists every option of
// every game as --option sets it (key=default) with its name, and names the
// bots as the lobby does: the levels first, then the game's other bots.
func TestGamesList(t *testing.T) {
	out, err := run(t, nil, "games")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, l := range strings.Split(out, "\n") {
		if n := utf8.RuneCountInString(l); n > 80 || strings.TrimRight(l, " ") != l {
			t.Errorf("a line of %d columns, or with trailing spaces: %q", n, l)
		}
	}
	for _, want := range []string{
		"outran — Outrun, 2–6 players, real-time\n",
		"    bots: easy, medium, hard; also expert, heuristic, ismcts, random\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if !regexp.MustCompile(`\n    monster=vampire +Monster: bear\|vampire\|zombie\|dragon\n`).MatchString(out) {
		t.Errorf("the monster option is not listed with its default, name and values:\n%s", out)
	}
	// A list too long for the line keeps whole values, then an ellipsis.
	if !regexp.MustCompile(`\n    mode=auto +Mode: auto\|cooperation\|[a-z|]*\|…\n`).MatchString(out) {
		t.Errorf("Room 25's modes are not cut after a whole value:\n%s", out)
	}
	for _, g := range all.Games() {
		for _, o := range g.Info().Options {
			def := o.Default
			if def == "" {
				def = `""`
			}
			if !regexp.MustCompile(`\n    ` + regexp.QuoteMeta(o.Key+"="+def) + ` +` + regexp.QuoteMeta(o.Name["en"]) + `: `).MatchString(out) {
				t.Errorf("%s's option %s is not listed as %s=%s with its name", g.Info().ID, o.Key, o.Key, def)
			}
		}
	}
	// scripts/bots-tables.sh takes the lines that start with a small letter
	// or a digit for the games' ids.
	var ids []string
	for _, l := range strings.Split(out, "\n") {
		if regexp.MustCompile(`^[a-z0-9]`).MatchString(l) {
			ids = append(ids, strings.Fields(l)[0])
		}
	}
	if got, want := strings.Join(ids, " "), "plandesecours evades room25 temple outran"; got != want {
		t.Errorf("the lines that start with a small letter name %q, want the games %q", got, want)
	}
	if strings.Count(out, "bots: easy, medium, hard") != 5 {
		t.Errorf("not every game lists its levels first:\n%s", out)
	}
}
