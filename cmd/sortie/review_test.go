package main

import (
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sortie/games/all"
	"sortie/internal/match"
	"sortie/internal/server"
	"sortie/internal/server/client"
	"sortie/internal/store"
)

// Given a finished match of a person (whose moves their seat's bot played,
// out of time) against a bot on a server that reviews, when "sortie review"
// asks for the person's seat, then it waits for the review and prints its
// summary: the accuracy over the decisions, the win chance from the first
// decision to the end, what the decisions lost; a bot's seat is refused in
// a sentence.
func TestReviewSummary(t *testing.T) {
	srv, err := server.New(server.Config{
		Games: all.Games(), DataPath: filepath.Join(t.TempDir(), "sortie.db"),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Reviews: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := srv.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
		hs.Close()
	})
	c := client.New(hs.URL)
	ctx := context.Background()
	limit := int64(1)
	cm, err := c.Create(ctx, match.CreateRequest{Game: "plandesecours", Seats: []match.SeatRequest{{Bot: "medium"}, {Kind: "bot", Bot: "medium"}}, MoveLimitMs: &limit})
	if err != nil {
		t.Fatal(err)
	}
	id := cm.Match.ID
	if _, err := c.Join(ctx, id, cm.Seats[0].Token, "Ana"); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Start(ctx, id, cm.HostToken); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(20 * time.Millisecond) {
		sum, err := c.Match(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if sum.Status == store.Finished {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the match did not end: %+v", sum)
		}
	}
	out, err := run(t, nil, "review", "--match", hs.URL+"/play/"+id, "--seat", "0")
	if err != nil {
		t.Fatalf("review: %v\n%s", err, out)
	}
	t.Logf("\n%s", out)
	for _, want := range []string{"Seat 1: accuracy ", " decisions", "at the first decision, ", "The decisions lost "} {
		if !strings.Contains(out, want) {
			t.Errorf("the summary has no %q:\n%s", want, out)
		}
	}
	_, err = run(t, nil, "review", "--match", hs.URL+"/play/"+id, "--seat", "1")
	if err == nil || !strings.Contains(err.Error(), "refused the review of seat 1") {
		t.Errorf("a bot's seat: %v", err)
	}
}
