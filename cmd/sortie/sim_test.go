package main

import (
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sortie/sim"
)

// Given a sweep over player counts and an option, when sim runs with
// --json, then it prints one batch per combination, labelled.
func TestSimSweeps(t *testing.T) {
	out, err := run(t, nil, "sim", "plandesecours", "--games", "20", "--sweep", "players=2..3", "--sweep", "danger=*", "--json")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var runs []sim.Stats
	if err := json.Unmarshal([]byte(out), &runs); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	var labels []string
	for _, r := range runs {
		labels = append(labels, r.Label)
	}
	if strings.Join(labels, "|") != "players=2 danger=false|players=2 danger=true|players=3 danger=false|players=3 danger=true" {
		t.Fatalf("batches: %v", labels)
	}
}

// Given --versus, sim plays each level as a team and every pair, and
// --markdown prints a row per batch.
func TestSimVersusMarkdown(t *testing.T) {
	out, err := run(t, nil, "sim", "plandesecours", "--games", "10", "--versus", "easy,medium", "--markdown")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{"| bots=easy |", "| bots=medium |", "| bots=medium,easy | 2 | 10 | medium ", "<br>easy "} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
}

// --csv prints a row per batch and bot and per batch and seat; --report
// writes an HTML page.
func TestSimCSVAndReport(t *testing.T) {
	report := filepath.Join(t.TempDir(), "r.html")
	out, err := run(t, nil, "sim", "plandesecours", "--games", "10", "--bots", "medium,easy", "--csv", "--report", report)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	// The command's output mixes standard output and error: keep the CSV.
	var lines []string
	for _, l := range strings.Split(out, "\n") {
		if l != "" && !strings.HasPrefix(l, "report written") {
			lines = append(lines, l)
		}
	}
	rows, err := csv.NewReader(strings.NewReader(strings.Join(lines, "\n"))).ReadAll()
	if err != nil || len(rows) != 1+2+2 {
		t.Fatalf("%d rows, %v:\n%s", len(rows), err, out)
	}
	page, err := os.ReadFile(report)
	if err != nil || !strings.Contains(string(page), "<svg") {
		t.Fatalf("no report with charts: %v", err)
	}
}

// Without --bots every seat plays the medium level, and the output says so;
// a run where every seat plays at random gets a one-line warning.
func TestSimDefaultsToMediumBots(t *testing.T) {
	out, err := run(t, nil, "sim", "plandesecours", "--games", "10")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if !strings.Contains(out, "plandesecours, 2 players, bots medium,medium") || strings.Contains(out, "warning") {
		t.Fatalf("not medium bots, or a warning:\n%s", out)
	}

	out, err = run(t, nil, "sim", "plandesecours", "--games", "10", "--bots", "random", "--sweep", "players=2..3")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var warnings []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "warning:") {
			warnings = append(warnings, l)
		}
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "random play says little about balance") {
		t.Fatalf("warnings %q in\n%s", warnings, out)
	}

	out, err = run(t, nil, "sim", "plandesecours", "--games", "10", "--bots", "medium,random")
	if err != nil || strings.Contains(out, "warning") {
		t.Fatalf("a lineup with a medium seat is warned about, or failed (%v):\n%s", err, out)
	}
}
