package match_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"path/filepath"
	"runtime"
	"slices"
	"sync"
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

// startMatch creates a match as req asks and starts it.
func startMatch(t *testing.T, m *match.Manager, req match.CreateRequest) *match.Match {
	t.Helper()
	ctx := context.Background()
	c, err := m.Create(ctx, req)
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
	return x
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

// clockSaves is a store that notes when each real-time clock is saved.
type clockSaves struct {
	store.Store
	mu sync.Mutex
	at []time.Time
}

func (c *clockSaves) SaveClock(ctx context.Context, id string, e store.Epoch, clock engine.Millis) error {
	c.mu.Lock()
	c.at = append(c.at, time.Now())
	c.mu.Unlock()
	return c.Store.SaveClock(ctx, id, e, clock)
}

// The real-time matches of a node save their clocks at the same instants,
// whenever each started, so that the saves share their commits: a node
// commits once a ClockSave for all its clocks, not once per match.
func TestClockSavesShareCommits(t *testing.T) {
	st := &clockSaves{Store: openStore(t)}
	const every = 200 * time.Millisecond
	m := match.NewManager(match.Config{Store: st, Games: matchtest.Games(), ClockSpeed: 1, ClockSave: every,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	t.Cleanup(func() { m.Shutdown(context.Background()) })
	const matches = 8
	for range matches {
		startMatch(t, m, match.CreateRequest{Game: "testrace", Players: 1,
			Options: map[string]string{"seconds": "600"}, TakeoverAfterMs: new(int64(0))})
		time.Sleep(every / matches) // each starts at its own moment
	}
	st.mu.Lock()
	st.at = nil // the saves at each start come at once
	st.mu.Unlock()
	time.Sleep(6 * every)
	st.mu.Lock()
	at := slices.Clone(st.at)
	st.mu.Unlock()
	slices.SortFunc(at, func(a, b time.Time) int { return a.Compare(b) })
	// A round is the saves within a fifth of a ClockSave of its first.
	rounds := 0
	var first time.Time
	for _, t := range at {
		if rounds == 0 || t.Sub(first) > every/5 {
			rounds, first = rounds+1, t
		}
	}
	if len(at) < 2*matches || rounds > len(at)/3 {
		t.Fatalf("%d clock saves of %d matches came in %d rounds; want each round to hold the saves of most matches", len(at), matches, rounds)
	}
	t.Logf("%d clock saves of %d matches in %d rounds", len(at), matches, rounds)
}

// A match holds no goroutine while nothing happens (a thousand idle
// matches would hold a thousand stacks), and its timers still run it: a
// human out of time has their move played by their seat's bot, with no
// request to bring the match to life.
func TestAnIdleMatchHoldsNoGoroutine(t *testing.T) {
	ctx := context.Background()
	m := newManager(t, openStore(t), time.Minute)
	settled := func() int {
		n := runtime.NumGoroutine()
		for range 100 { // goroutines that just ran a match end soon after
			time.Sleep(20 * time.Millisecond)
			if k := runtime.NumGoroutine(); k >= n {
				return k
			}
			n = runtime.NumGoroutine()
		}
		return n
	}
	before := settled()
	const matches = 40
	for range matches {
		startMatch(t, m, match.CreateRequest{Game: "testcards", Players: 2})
	}
	if n := settled(); n-before >= matches/2 {
		t.Fatalf("%d idle matches hold %d goroutines more than none", matches, n-before)
	}

	// The move limit is match time (the manager's clock runs 50 times
	// faster than the wall): 5 s of it pass in 0.1 s.
	x := startMatch(t, m, match.CreateRequest{Game: "testcards", Players: 2, MoveLimitMs: new(int64(5000))})
	deadline := time.Now().Add(10 * time.Second)
	for {
		sum, err := x.Summary(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if sum.Seq > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no move was played for the human out of time")
		}
		time.Sleep(50 * time.Millisecond)
	}
}
