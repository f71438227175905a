package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"sortie/internal/rating"
)

// Given a data file holding a cell of another game, when the lab measures
// the Temple's solo and duo teams, then the file holds both games' cells,
// the new ones stamped with the command and date, and the table says what
// the rating makes of them; the free for all of Outran is refused.
func TestLabBaselinesMergesIntoTheData(t *testing.T) {
	path := filepath.Join(t.TempDir(), "baselines.json")
	other := `{"cells": [{"game":"room25","key":"mode=solo","family":"coop","players":1,"games":10,"sides":[{"role":"team","size":1,"wins":4,"points":4,"rate":{"p":0.4,"lo":0.17,"hi":0.69}}],"bots":"hard","command":"sortie lab baselines room25","date":"2026-11-01"}]}`
	if err := os.WriteFile(path, []byte(other), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := run(t, nil, "lab", "baselines", "temple", "--games", "30", "--sweep", "players=1..2", "--out", path, "--date", "2026-11-28")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{"| temple | difficulty=normal | 1 | 30 | team×1 ", "benchmark 2 × μ", "2 cells written"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	d, err := rating.ReadData(f)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Cells) != 3 || d.Cells[0].Game != "room25" || d.Cells[1].Game != "temple" {
		t.Fatalf("cells %+v", d.Cells)
	}
	if c := d.Cells[2]; c.Players != 2 || c.Date != "2026-11-28" || !strings.Contains(c.Command, "lab baselines temple --games 30") {
		t.Fatalf("the new cell %+v", c)
	}
	if out, err := run(t, nil, "lab", "baselines", "outran", "--games", "2", "--out", path); err == nil || !strings.Contains(out, "needs no baseline") {
		t.Fatalf("a free for all measured: %v\n%s", err, out)
	}
	if out, err := run(t, nil, "lab", "baselines", "temple", "--games", "2", "--out", path, "--date", "28/11/2026"); err == nil {
		t.Fatalf("a bad date taken: %s", out)
	}
	if out, err := run(t, nil, "lab", "baselines", "temple", "--games", "2", "--sweep", "bots=easy"); err == nil || !strings.Contains(err.Error(), "chooses the bots") {
		t.Fatalf("a bots sweep taken: %v\n%s", err, out)
	}
}

// The population of bots rated over Outran's matches orders itself and
// says how well its chances were calibrated, and how with other β; setups
// of several families need --family.
func TestLabRatings(t *testing.T) {
	out, err := run(t, nil, "lab", "ratings", "outran", "--matches", "60", "--sweep", "players=2..3", "--betas", "3,8")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{"**outran, free_for_all**: 60 matches", "| hard |", "Calibration over matches 31–60", "| predicted | sides |",
		"The same matches rated with other β", "| 3.00 |", "| 8.00 |"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	out, err = run(t, nil, "lab", "ratings", "room25", "--matches", "4", "--sweep", "players=2", "--sweep", "mode=cooperation,competition")
	if err == nil || !strings.Contains(err.Error(), "--family") {
		t.Fatalf("mixed families: %v\n%s", err, out)
	}
}

// The matchmaking lab prints a row per arrival rate, the busier crowd
// waiting less and meeting fewer bots; a rate that is not one is refused.
func TestLabMatchmaking(t *testing.T) {
	out, err := run(t, nil, "lab", "matchmaking", "--players", "300", "--rates", "5,500")
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	var rows []string
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, "| 5 |") || strings.HasPrefix(l, "| 500 |") {
			rows = append(rows, l)
		}
	}
	if len(rows) != 2 || !strings.Contains(out, "| arrivals a minute | median wait |") {
		t.Fatalf("the table:\n%s", out)
	}
	if _, err := run(t, nil, "lab", "matchmaking", "--rates", "fast"); err == nil || !strings.Contains(err.Error(), "not a rate") {
		t.Fatalf("a rate that is not one: %v", err)
	}
}
