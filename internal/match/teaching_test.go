package match_test

import (
	"bytes"
	"context"
	"testing"

	"sortie/internal/match"
	"sortie/internal/store"
)

// teachingTable is a request for a table of the teaching side: one person
// and a bot on a deal chosen beforehand, asking for hints it does not get.
func teachingTable(purpose string, seed, botSeed uint64) match.CreateRequest {
	on := true
	return match.CreateRequest{Game: "testcards", Players: 2, Purpose: purpose, Day: "2026-11-28",
		Seats: []match.SeatRequest{{Kind: match.Human, Name: "Ada", Joined: true}, {Kind: match.Bot}},
		Seed:  &seed, BotSeed: &botSeed, Hints: &on}
}

// Given two tables of a tutorial on the same deal, each deals what the
// deal says: the same hand to the learner at both, its seed stored as
// given; the table says what it is for, and gives no hints even when asked
// to. A purpose the package does not know is refused.
func TestTeachingTablesKeepTheirDeal(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	m := newManager(t, st, 0)
	var views [][]byte
	for range 2 {
		x := startMatch(t, m, teachingTable(match.PurposeDaily, 42, 7))
		sum, err := x.Summary(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if s := sum.Settings; s.Purpose != match.PurposeDaily || s.Day != "2026-11-28" || s.Hints {
			t.Fatalf("settings %+v, want a daily table of 2026-11-28 without hints", s)
		}
		rec, err := st.Get(ctx, x.ID())
		if err != nil {
			t.Fatal(err)
		}
		if rec.Setup.Seed != 42 || !bytes.Contains(rec.Settings, []byte(`"bot_seed":7`)) {
			t.Fatalf("stored seed %d, settings %s: want the seed 42 and bot seed 7 given", rec.Setup.Seed, rec.Settings)
		}
		views = append(views, snapshot(t, x, 0).View)
	}
	if !bytes.Equal(views[0], views[1]) {
		t.Fatalf("two tables on one deal show the learner\n%s\nand\n%s", views[0], views[1])
	}
	// A random deal otherwise.
	req := teachingTable(match.PurposeDaily, 42, 7)
	req.Seed = nil
	if other := snapshot(t, startMatch(t, m, req), 0).View; bytes.Equal(other, views[0]) {
		t.Fatalf("a table without a seed dealt the seed's hand:\n%s", other)
	}
	if _, err := m.Create(ctx, teachingTable("exam", 1, 1)); match.AsError(err).Code != match.CodeBadSetup {
		t.Fatalf("an unknown purpose: got %v, want %s", err, match.CodeBadSetup)
	}
}

// A tutorial's host closes it while it runs (the learner is done with
// it): it ends, left, and says why; a match that is no tutorial cannot be closed
// once it runs.
func TestTutorialClosesWhileRunning(t *testing.T) {
	ctx := context.Background()
	m := newManager(t, openStore(t), 0)
	c, err := m.Create(ctx, teachingTable(match.PurposeTutorial, 1, 1))
	if err != nil {
		t.Fatal(err)
	}
	x, err := m.Get(ctx, c.Match.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := x.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Close(ctx, c.Match.ID, "not the host", ""); match.AsError(err).Code != match.CodeBadToken {
		t.Fatalf("closing with another token: got %v, want %s", err, match.CodeBadToken)
	}
	sum, err := m.Close(ctx, c.Match.ID, c.HostToken, "")
	if err != nil {
		t.Fatal(err)
	}
	if sum.Status != store.Abandoned || sum.Reason == nil || sum.Reason.Code != match.ReasonTutorialOver {
		t.Fatalf("closed tutorial: %s, reason %+v", sum.Status, sum.Reason)
	}
	other, err := m.Create(ctx, match.CreateRequest{Game: "testcards", Players: 2,
		Seats: []match.SeatRequest{{Kind: match.Human, Joined: true}, {Kind: match.Bot}}})
	if err != nil {
		t.Fatal(err)
	}
	y, err := m.Get(ctx, other.Match.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := y.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := m.Close(ctx, other.Match.ID, other.HostToken, ""); match.AsError(err).Code != match.CodeStarted {
		t.Fatalf("closing a running match: got %v, want %s", err, match.CodeStarted)
	}
}
