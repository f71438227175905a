package match_test

import (
	"context"
	"io"
	"log/slog"
	"slices"
	"sync"
	"testing"
	"time"

	"sortie/engine"
	"sortie/internal/match"
	"sortie/internal/match/matchtest"
	"sortie/internal/store"
)

// notices collects what a manager tells Config.Notice.
type notices struct {
	mu  sync.Mutex
	got []match.Notice
}

func (n *notices) add(x match.Notice) { n.mu.Lock(); n.got = append(n.got, x); n.mu.Unlock() }

// take returns what was told since the last take.
func (n *notices) take() []match.Notice {
	time.Sleep(50 * time.Millisecond)
	n.mu.Lock()
	defer n.mu.Unlock()
	out := n.got
	n.got = nil
	return out
}

func noticeManager(t *testing.T, st store.Store, n *notices) *match.Manager {
	m := match.NewManager(match.Config{Store: st, Games: matchtest.Games(), ClockSpeed: 50, Notice: n.add,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	t.Cleanup(func() { m.Shutdown(context.Background()) })
	return m
}

// The match tells the notifier of a seat held by an account whose turn
// comes while nobody's socket is open on it, or whose player leaves on
// their turn — the same notice (same turn number) however often, after a
// restart too — never of a seat whose player is at the table, nor of a
// guest's; and of the end, to each account.
func TestNotices(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	n := &notices{}
	m := noticeManager(t, st, n)
	limit := int64(0)
	c, err := m.Create(ctx, match.CreateRequest{Game: "testcards", Options: map[string]string{"hand": "1"}, MoveLimitMs: &limit, TakeoverAfterMs: &limit,
		Seats: []match.SeatRequest{{Account: "ana", Name: "Ana"}, {Account: "bob", Name: "Bob"}, {Name: "Guest"}}})
	if err != nil {
		t.Fatal(err)
	}
	x, err := m.Get(ctx, c.Match.ID)
	if err != nil {
		t.Fatal(err)
	}
	turn := func(seat int, k int) match.Notice {
		return match.Notice{Kind: match.NoticeTurn, Match: c.Match.ID, Seat: engine.Seat(seat), Account: []string{"ana", "bob"}[seat], Turn: k}
	}
	// Bob is at the table; the match starts on Ana's turn.
	wb, err := x.Watch(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := x.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if got := n.take(); !slices.Equal(got, []match.Notice{turn(0, 0)}) {
		t.Fatalf("at the start: %+v, want Ana's turn", got)
	}
	play := func() {
		t.Helper()
		seq, s, legal, _ := x.Turn(ctx, func(int) int { return 0 })
		b, _ := engine.MarshalTyped(legal[0])
		if err := x.Act(ctx, s, seq, b); err != nil {
			t.Fatal(err)
		}
	}
	play() // Ana plays: Bob's turn, at the table.
	if got := n.take(); len(got) != 0 {
		t.Fatalf("Bob at the table was told: %+v", got)
	}
	x.Unwatch(wb) // He leaves on his turn.
	if got := n.take(); !slices.Equal(got, []match.Notice{turn(1, 1)}) {
		t.Fatalf("Bob leaving on his turn: %+v", got)
	}
	// Back and away again: the same notice.
	wb, _ = x.Watch(ctx, 1)
	x.Unwatch(wb)
	if got := n.take(); !slices.Equal(got, []match.Notice{turn(1, 1)}) {
		t.Fatalf("Bob leaving again within his turn: %+v", got)
	}
	// After a restart, the match tells Bob's turn again, as the same one.
	m.Shutdown(ctx)
	m = noticeManager(t, st, n)
	if _, err := m.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	if got := n.take(); !slices.Equal(got, []match.Notice{turn(1, 1)}) {
		t.Fatalf("after a restart: %+v", got)
	}
	x, _ = m.Get(ctx, c.Match.ID)
	// The guest's turns are nobody's to tell; play to the end.
	for {
		if _, _, _, over := x.Turn(ctx, func(int) int { return 0 }); over {
			break
		}
		play()
	}
	var ends []match.Notice
	for _, k := range n.take() {
		if k.Kind == match.NoticeEnd {
			ends = append(ends, k)
		} else if k.Account == "" || k.Kind != match.NoticeTurn {
			t.Fatalf("a notice of no account: %+v", k)
		}
	}
	rec, _ := st.Get(ctx, c.Match.ID)
	want := []match.Notice{{Kind: match.NoticeEnd, Match: c.Match.ID, Seat: 0, Account: "ana", Turn: rec.Records},
		{Kind: match.NoticeEnd, Match: c.Match.ID, Seat: 1, Account: "bob", Turn: rec.Records}}
	if !slices.Equal(ends, want) {
		t.Fatalf("the end: %+v, want %+v", ends, want)
	}
}

// A correspondence table read back after a restart plays its log again to
// find each seat's turn and days off: the turns it goes through were told
// when they came, and only the turn of now is told again, as the same
// notice.
func TestNoticesAfterACorrespondenceReplay(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	n := &notices{}
	m := noticeManager(t, st, n)
	c, err := m.Create(ctx, match.CreateRequest{Game: "testcards", Options: map[string]string{"hand": "3"}, Clock: match.ClockCorrespondence,
		Seats: []match.SeatRequest{{Account: "ana", Name: "Ana"}, {Account: "bob", Name: "Bob"}}})
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
	for range 3 { // nobody at the table: each turn is told as it comes
		seq, s, legal, _ := x.Turn(ctx, func(int) int { return 0 })
		b, _ := engine.MarshalTyped(legal[0])
		if err := x.Act(ctx, s, seq, b); err != nil {
			t.Fatal(err)
		}
	}
	told := n.take()
	if len(told) != 4 {
		t.Fatalf("four turns came, %d were told: %+v", len(told), told)
	}
	now := told[len(told)-1]
	m.Shutdown(ctx)
	m = noticeManager(t, st, n)
	if _, err := m.Resume(ctx); err != nil {
		t.Fatal(err)
	}
	if got := n.take(); !slices.Equal(got, []match.Notice{now}) {
		t.Fatalf("after a restart: %+v, want only the turn of now, %+v", got, now)
	}
}
