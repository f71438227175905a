package store

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"sortie/engine"
)

func open(t *testing.T, path string) *SQLite {
	t.Helper()
	s, err := OpenSQLite(path, SQLiteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func newMatch(id string, created time.Time) *Match {
	return &Match{
		ID: id, Game: "testcards", Setup: engine.Setup{Players: 2, Options: map[string]string{"hand": "3"}, Seed: 42},
		Seats:    []Seat{{Kind: "human", Bot: "random", TokenHash: []byte{1, 2, 3}}, {Kind: "bot", Bot: "random", Joined: true}},
		HostHash: []byte{9, 9}, Settings: []byte(`{"x":1}`), Status: Open, Created: created,
	}
}

// A match and its log survive closing and reopening the file.
func TestRoundTrip(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "a", "sortie.db")
	s := open(t, path)
	now := time.UnixMilli(time.Now().UnixMilli())
	if err := s.Create(ctx, newMatch("m1", now)); err != nil {
		t.Fatal(err)
	}
	if err := s.Start(ctx, "m1", now); err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= 3; n++ {
		if err := s.Append(ctx, "m1", n, []byte(fmt.Sprintf(`{"at":%d}`, n*10)), engine.Millis(n*10)); err != nil {
			t.Fatal(err)
		}
	}
	seat := Seat{Kind: "human", Bot: "random", Name: "Ana", Joined: true, TokenHash: []byte{1, 2, 3}}
	if err := s.SetSeat(ctx, "m1", 0, seat); err != nil {
		t.Fatal(err)
	}
	s.Close()
	s = open(t, path)
	m, err := s.Get(ctx, "m1")
	if err != nil {
		t.Fatal(err)
	}
	if m.Status != Running || m.Records != 3 || m.Clock != 0 || m.Seats[0].Name != "Ana" || string(m.Seats[0].TokenHash) != "\x01\x02\x03" ||
		m.Setup.Seed != 42 || m.Setup.Options["hand"] != "3" || !m.Created.Equal(now) || !m.Started.Equal(now) || string(m.Settings) != `{"x":1}` {
		t.Fatalf("read back: %+v", m)
	}
	log, err := s.Log(ctx, "m1")
	if err != nil || len(log) != 3 || string(log[2]) != `{"at":30}` {
		t.Fatalf("log: %q %v", log, err)
	}
	out := engine.Outcome{Winners: []engine.Seat{1}, Ranks: []int{2, 1}, Scores: []int{0, 1}}
	if err := s.Finish(ctx, "m1", out, 55, now); err != nil {
		t.Fatal(err)
	}
	m, _ = s.Get(ctx, "m1")
	if m.Status != Finished || m.Outcome == nil || m.Outcome.Winners[0] != 1 || m.Clock != 55 {
		t.Fatalf("finished: %+v", m)
	}
	// A finished log takes no more records.
	if err := s.Append(ctx, "m1", 4, []byte(`{"at":60}`), 60); !errors.Is(err, ErrConflict) {
		t.Fatalf("append after finish: %v", err)
	}
}

// Records must come in order, once: a gap, a repeat or an unknown match is a
// conflict that writes nothing.
func TestAppendOrder(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "sortie.db"))
	s.Create(ctx, newMatch("m1", time.Now()))
	s.Start(ctx, "m1", time.Now())
	if err := s.Append(ctx, "m1", 1, []byte(`{"at":1}`), 1); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		id string
		n  int
	}{{"m1", 1}, {"m1", 3}, {"m1", 0}, {"nope", 1}} {
		if err := s.Append(ctx, c.id, c.n, []byte(`{"at":9}`), 9); !errors.Is(err, ErrConflict) {
			t.Fatalf("append %s #%d: %v, want a conflict", c.id, c.n, err)
		}
	}
	if log, _ := s.Log(ctx, "m1"); len(log) != 1 {
		t.Fatalf("log has %d records", len(log))
	}
	if err := s.Create(ctx, newMatch("m1", time.Now())); !errors.Is(err, ErrConflict) {
		t.Fatalf("second create: %v", err)
	}
	if err := s.Start(ctx, "m1", time.Now()); !errors.Is(err, ErrConflict) {
		t.Fatalf("second start: %v", err)
	}
	if _, err := s.Get(ctx, "nope"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("get unknown: %v", err)
	}
}

// Many matches appending at once share transactions, and every write lands.
func TestGroupCommit(t *testing.T) {
	ctx := context.Background()
	var mu sync.Mutex
	batches, writes := 0, 0
	s, err := OpenSQLite(filepath.Join(t.TempDir(), "sortie.db"), SQLiteOptions{OnCommit: func(n int, _ time.Duration) {
		mu.Lock()
		batches++
		writes += n
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	const matches, records = 50, 40
	for i := range matches {
		s.Create(ctx, newMatch(fmt.Sprint("m", i), time.Now()))
		s.Start(ctx, fmt.Sprint("m", i), time.Now())
	}
	var wg sync.WaitGroup
	for i := range matches {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 1; n <= records; n++ {
				if err := s.Append(ctx, fmt.Sprint("m", i), n, []byte(`{"at":0}`), 0); err != nil {
					t.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	for i := range matches {
		if log, _ := s.Log(ctx, fmt.Sprint("m", i)); len(log) != records {
			t.Fatalf("match %d has %d records", i, len(log))
		}
	}
	mu.Lock()
	defer mu.Unlock()
	t.Logf("%d writes in %d transactions", writes, batches)
	if batches >= writes {
		t.Fatalf("no write shared a transaction (%d writes, %d transactions)", writes, batches)
	}
}

// Listing by status and game, newest first; unfinished matches oldest first.
func TestList(t *testing.T) {
	ctx := context.Background()
	s := open(t, filepath.Join(t.TempDir(), "sortie.db"))
	t0 := time.Now()
	for i, st := range []Status{Open, Running, Finished, Running} {
		m := newMatch(fmt.Sprint("m", i), t0.Add(time.Duration(i)*time.Second))
		s.Create(ctx, m)
		if st != Open {
			s.Start(ctx, m.ID, t0)
		}
		if st == Finished {
			s.Finish(ctx, m.ID, engine.Outcome{}, 0, t0)
		}
	}
	running, err := s.List(ctx, Filter{Status: Running})
	if err != nil || len(running) != 2 || running[0].ID != "m3" || running[1].ID != "m1" {
		t.Fatalf("running: %v %v", ids(running), err)
	}
	all, _ := s.List(ctx, Filter{Limit: 3})
	if len(all) != 3 || all[0].ID != "m3" {
		t.Fatalf("all: %v", ids(all))
	}
	if none, _ := s.List(ctx, Filter{Game: "chess"}); len(none) != 0 {
		t.Fatalf("chess: %v", ids(none))
	}
	un, _ := s.Unfinished(ctx)
	if fmt.Sprint(un) != "[m0 m1 m3]" {
		t.Fatalf("unfinished: %v", un)
	}
	if err := s.Ping(ctx); err != nil {
		t.Fatal(err)
	}
}

// Writes after Close are refused; Close waits for the writes under way.
func TestClose(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sortie.db")
	s, err := OpenSQLite(path, SQLiteOptions{Sync: "normal"})
	if err != nil {
		t.Fatal(err)
	}
	s.Create(ctx, newMatch("m", time.Now()))
	s.Start(ctx, "m", time.Now())
	var wg sync.WaitGroup
	wg.Add(1)
	acked := 0
	go func() {
		defer wg.Done()
		for n := 1; ; n++ {
			if err := s.Append(ctx, "m", n, []byte(`{"at":0}`), 0); err != nil {
				if !errors.Is(err, ErrClosed) {
					t.Error(err)
				}
				return
			}
			acked = n
		}
	}()
	time.Sleep(50 * time.Millisecond)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	wg.Wait()
	s = open(t, path)
	if log, _ := s.Log(ctx, "m"); len(log) != acked {
		t.Fatalf("%d writes acknowledged, %d stored", acked, len(log))
	}
	if _, err := OpenSQLite(path, SQLiteOptions{Sync: "sometimes"}); err == nil {
		t.Fatal("a bad sync mode was accepted")
	}
}

func ids(ms []*Match) []string {
	var out []string
	for _, m := range ms {
		out = append(out, m.ID)
	}
	return out
}
