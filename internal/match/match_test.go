package match_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"sortie/engine"
	"sortie/internal/match"
	"sortie/internal/match/matchtest"
	"sortie/internal/store"
)

func newManager(t *testing.T, st store.Store, linger time.Duration) *match.Manager {
	t.Helper()
	m := match.NewManager(match.Config{
		Store: st, Games: matchtest.Games(), Linger: linger, ClockSpeed: 50,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	t.Cleanup(func() { m.Shutdown(context.Background()) })
	return m
}

func openStore(t *testing.T) *store.SQLite {
	t.Helper()
	s, err := store.OpenSQLite(filepath.Join(t.TempDir(), "sortie.db"), store.SQLiteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// snapshot returns the state message of a seat.
func snapshot(t *testing.T, x *match.Match, s engine.Seat) match.Message {
	t.Helper()
	b, err := x.Snapshot(context.Background(), s)
	if err != nil {
		t.Fatal(err)
	}
	var m match.Message
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// A finished match nobody watches leaves memory, and comes back from its log
// when asked for.
func TestFinishedMatchesLeaveMemory(t *testing.T) {
	ctx := context.Background()
	m := newManager(t, openStore(t), 200*time.Millisecond)
	c, err := m.Create(ctx, match.CreateRequest{Game: "testcards", Seats: []match.SeatRequest{{Kind: match.Bot}, {Kind: match.Bot}}, AutoStart: true})
	if err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for m.Live() > 0 {
		if time.Now().After(deadline) {
			t.Fatal("the finished match stayed in memory")
		}
		time.Sleep(10 * time.Millisecond)
	}
	var sum match.Summary
	var state []byte
	err = m.Do(ctx, c.Match.ID, func(x *match.Match) (err error) {
		if sum, err = x.Summary(ctx); err == nil {
			state, err = x.Snapshot(ctx, engine.Spectator)
		}
		return err
	})
	if err != nil || sum.Status != store.Finished || sum.Outcome == nil || !sum.Live {
		t.Fatalf("loaded again: %+v %v", sum, err)
	}
	var s match.Message
	if err := json.Unmarshal(state, &s); err != nil || s.Outcome == nil || s.Status != store.Finished {
		t.Fatalf("the final state: %s", state)
	}
}

// Unknown ids never reach the store; a shut-down manager refuses politely.
func TestUnknownAndStopping(t *testing.T) {
	ctx := context.Background()
	m := newManager(t, openStore(t), 0)
	for _, id := range []string{"", "nope", "../../etc/passwd", "a b", string(make([]byte, 40))} {
		if _, err := m.Get(ctx, id); match.AsError(err).Code != match.CodeUnknownMatch {
			t.Fatalf("Get(%q): %v", id, err)
		}
	}
	m.Shutdown(ctx)
	if _, err := m.Create(ctx, match.CreateRequest{Game: "testcards"}); match.AsError(err).Code != match.CodeUnavailable {
		t.Fatalf("create while stopping: %v", err)
	}
}
