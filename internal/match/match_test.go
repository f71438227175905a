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
	"sync/atomic"
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

// The time a running match has gone without players counts across a
// restart: a match its players left before the server stopped is abandoned
// when its time comes, not that long after the server came back; a match
// whose player was connected when the server stopped counts from the
// restart.
func TestAbandonmentCountsAcrossRestarts(t *testing.T) {
	const abandon = 1500 * time.Millisecond
	ctx := context.Background()
	st := openStore(t)
	manager := func() *match.Manager {
		m := match.NewManager(match.Config{
			Store: st, Games: matchtest.Games(), Linger: time.Minute, ClockSpeed: 50, AbandonAfter: abandon,
			Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		})
		t.Cleanup(func() { m.Shutdown(context.Background()) })
		return m
	}
	m := manager()
	req := match.CreateRequest{Game: "testcards", Players: 2, MoveLimitMs: new(int64(0)), TakeoverAfterMs: new(int64(0))}
	left, held := startMatch(t, m, req), startMatch(t, m, req)
	w, err := left.Watch(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	left.Unwatch(w)
	if _, err := held.Watch(ctx, 0); err != nil {
		t.Fatal(err)
	}
	gone := time.Now()
	deadline := gone.Add(5 * time.Second)
	for { // the absence is saved off the match's run
		rec, err := st.Get(ctx, left.ID())
		if err != nil {
			t.Fatal(err)
		}
		if !rec.AbsentSince.IsZero() {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("since when nobody plays was never saved")
		}
		time.Sleep(10 * time.Millisecond)
	}
	time.Sleep(abandon / 2)
	if err := m.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}

	m = manager()
	restart := time.Now()
	status := func(id string) store.Status {
		x, err := m.Get(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		sum, err := x.Summary(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return sum.Status
	}
	_ = status(held.ID()) // loaded now: its countdown starts now
	for status(left.ID()) != store.Abandoned {
		if time.Since(restart) > abandon-200*time.Millisecond {
			t.Fatalf("the match its players left %v before the restart is not abandoned %v after it (abandoned after %v without players)",
				restart.Sub(gone).Round(time.Millisecond), time.Since(restart).Round(time.Millisecond), abandon)
		}
		time.Sleep(20 * time.Millisecond)
	}
	if s := status(held.ID()); s != store.Running {
		t.Fatalf("the match whose player was connected until the stop is %s %v after the restart", s, time.Since(restart))
	}
	deadline = restart.Add(abandon + 5*time.Second)
	for status(held.ID()) != store.Abandoned {
		if time.Now().After(deadline) {
			t.Fatal("the match nobody came back to after the restart was never abandoned")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A server that stops saves the clocks of its running matches together:
// their saves share commits instead of waiting one after another.
func TestShutdownSavesClocksTogether(t *testing.T) {
	var commits atomic.Int64
	st, err := store.OpenSQLite(filepath.Join(t.TempDir(), "sortie.db"), store.SQLiteOptions{
		OnCommit: func(int, time.Duration) { commits.Add(1) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	m := newManager(t, st, time.Minute)
	const matches = 60
	for range matches {
		startMatch(t, m, match.CreateRequest{Game: "testcards", Players: 2, MoveLimitMs: new(int64(0)), TakeoverAfterMs: new(int64(0))})
	}
	before := commits.Load()
	if err := m.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	if n := commits.Load() - before; n > matches/2 {
		t.Fatalf("stopping %d running matches took %d commits", matches, n)
	}
}

// A wake timer that rings while the goroutine running the match is about to
// let it go is not lost: a match of bots, whose next move is always due in
// a moment (500 ms of match time, 10 ms at the tests' clock speed), plays to
// its end though every goroutine pauses past the ring.
func TestAWakeDuringLettingGoIsNotLost(t *testing.T) {
	restore := match.PauseAfterArming()
	t.Cleanup(restore) // after the manager's shutdown, registered next
	st := openStore(t)
	m := newManager(t, st, time.Hour)
	x := startMatch(t, m, match.CreateRequest{Game: "testcards", Seats: []match.SeatRequest{{Kind: match.Bot}, {Kind: match.Bot}},
		Options: map[string]string{"hand": "4"}, BotDelayMs: 500})
	// Watched in the store: a request to the match would run it.
	waitFor(t, "the bots to play to the end: a wake was lost", func() bool {
		rec, err := st.Get(context.Background(), x.ID())
		return err == nil && rec.Status == store.Finished
	})
}
