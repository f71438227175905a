package match_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"testing"
	"time"

	"sortie/engine"
	"sortie/internal/bus"
	"sortie/internal/bus/natstest"
	"sortie/internal/match"
	"sortie/internal/match/matchtest"
	"sortie/internal/store"
	"sortie/internal/store/pgtest"
)

// days returns n days of match time, as a create request gives them.
func days(n int64) *int64 { return new(n * int64(match.Day)) }

// corrTable is a correspondence table of Test cards: seat 0 a person, seat
// 1 a bot, one day a move unless limit says otherwise.
func corrTable(limit *int64, daysOff *int) match.CreateRequest {
	return match.CreateRequest{Game: "testcards", Clock: match.ClockCorrespondence, MoveLimitMs: limit, DaysOff: daysOff,
		Seats: []match.SeatRequest{{Kind: match.Human}, {Kind: match.Bot}}, AutoStart: true}
}

// A correspondence table takes a move limit of 1, 2, 3 or 7 days and days
// off from 0 to 21; its summary says so. Anything else, a real-time game, or
// days off at a live table, is refused with a clear code, and nothing is
// made.
func TestCorrespondenceTablesAreCheckedAtCreation(t *testing.T) {
	ctx := context.Background()
	st := openStore(t)
	m := newManager(t, st, time.Minute)
	c, err := m.Create(ctx, corrTable(days(3), nil))
	if err != nil {
		t.Fatal(err)
	}
	got := c.Match.Settings
	if got.Clock != match.ClockCorrespondence || got.MoveLimitMs != 3*int64(match.Day) || got.DaysOff != match.DefaultDaysOff || got.TakeoverAfterMs != 0 {
		t.Fatalf("the settings of a correspondence table of 3 days: %+v", got)
	}
	if d := c.Match.Seats[0].DaysOffLeft; d == nil || *d != match.DefaultDaysOff || c.Match.Seats[1].DaysOffLeft != nil {
		t.Fatalf("days off left of the person and of the bot: %v, %v", c.Match.Seats[0].DaysOffLeft, c.Match.Seats[1].DaysOffLeft)
	}
	c, err = m.Create(ctx, corrTable(nil, new(0)))
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Match.Settings; got.MoveLimitMs != int64(match.Day) || got.DaysOff != 0 {
		t.Fatalf("a table with no move limit named and no days off: %+v", got)
	}
	c, err = m.Create(ctx, match.CreateRequest{Game: "testcards", Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	if got := c.Match.Settings; got.Clock != match.ClockLive || got.DaysOff != 0 || c.Match.Seats[0].DaysOffLeft != nil {
		t.Fatalf("a live table: %+v, seat %+v", got, c.Match.Seats[0])
	}

	before := m.Live()
	recs, _ := st.List(ctx, store.Filter{Limit: 100})
	bad := []struct {
		what string
		req  match.CreateRequest
		code string
	}{
		{"no move limit", corrTable(new(int64(0)), nil), match.CodeBadParameters},
		{"a live move limit", corrTable(new(int64(90_000)), nil), match.CodeBadParameters},
		{"4 days a move", corrTable(days(4), nil), match.CodeBadParameters},
		{"a day and a second", corrTable(new(int64(match.Day)+1000), nil), match.CodeBadParameters},
		{"30 days", corrTable(days(30), nil), match.CodeBadParameters},
		{"22 days off", corrTable(nil, new(22)), match.CodeBadParameters},
		{"-1 day off", corrTable(nil, new(-1)), match.CodeBadParameters},
		{"a takeover", func() match.CreateRequest {
			r := corrTable(nil, nil)
			r.TakeoverAfterMs = new(int64(60_000))
			return r
		}(), match.CodeBadParameters},
		{"an unknown clock", func() match.CreateRequest { r := corrTable(nil, nil); r.Clock = "blitz"; return r }(), match.CodeBadParameters},
		{"days off at a live table", match.CreateRequest{Game: "testcards", Players: 2, DaysOff: new(2)}, match.CodeBadParameters},
		{"a real-time game", match.CreateRequest{Game: "testrace", Players: 1, Clock: match.ClockCorrespondence}, match.CodeNoCorrespondence},
	}
	for _, b := range bad {
		_, err := m.Create(ctx, b.req)
		if e := match.AsError(err); err == nil || e.Code != b.code || e.Message == "" {
			t.Errorf("%s: %v, want the code %s", b.what, err, b.code)
		}
	}
	after, _ := st.List(ctx, store.Filter{Limit: 100})
	if m.Live() != before || len(after) != len(recs) {
		t.Fatalf("refused creations made matches: %d live and %d stored, were %d and %d", m.Live(), len(after), before, len(recs))
	}
}

// summaryOf returns match id's summary.
func summaryOf(t *testing.T, m *match.Manager, id string) match.Summary {
	t.Helper()
	sum, err := m.Summary(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

// near fails unless a and b are within a few milliseconds of each other.
func near(t *testing.T, what string, a, b time.Time) {
	t.Helper()
	if d := a.Sub(b).Abs(); d > 20*time.Millisecond {
		t.Fatalf("%s: %v, want %v (%v apart)", what, a.Format(time.StampMilli), b.Format(time.StampMilli), d)
	}
}

// A deadline days away stays where it was through a restart, however long
// the server was down: a correspondence table's clock is the wall clock
// since its start, and its turns and days off come back from its log. At
// the deadline a day off begins (the deadline moves a day on, and is told
// to the page), and once none is left the seat's bot plays the move.
//
// The tests' clock runs 43,200 times faster than the wall: a day of match
// time passes in 2 s, and a restart of 0.5 s is twelve hours down.
func TestCorrespondenceDeadlinesSurviveRestarts(t *testing.T) {
	const speed = 43_200
	dayWall := time.Duration(float64(match.Day) * float64(time.Millisecond) / speed)
	ctx := context.Background()
	st := openStore(t)
	manager := func() *match.Manager {
		m := match.NewManager(match.Config{Store: st, Games: matchtest.Games(), ClockSpeed: speed, Linger: time.Minute,
			Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		t.Cleanup(func() { m.Shutdown(context.Background()) })
		if _, err := m.Resume(ctx); err != nil {
			t.Fatal(err)
		}
		return m
	}
	m := manager()
	c, err := m.Create(ctx, corrTable(nil, new(1)))
	if err != nil {
		t.Fatal(err)
	}
	id := c.Match.ID
	// The person joins and leaves: the table starts with no socket open.
	x, err := m.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := x.Join(ctx, 0, match.Joiner{Name: "Ana"}); err != nil {
		t.Fatal(err)
	}
	sum := summaryOf(t, m, id)
	if sum.Status != store.Running || sum.StartedAt == nil {
		t.Fatalf("a correspondence table whose seats are all joined is %s, want running", sum.Status)
	}
	started := *sum.StartedAt
	seat := sum.Seats[0]
	if seat.Deadline == nil || seat.DaysOffLeft == nil || *seat.DaysOffLeft != 1 {
		t.Fatalf("the person's seat at the start: %+v", seat)
	}
	first := started.Add(dayWall)
	near(t, "the first deadline", *seat.Deadline, first)

	// Down for twelve hours of match time: the deadline has not moved.
	time.Sleep(dayWall / 8)
	if err := m.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	time.Sleep(dayWall / 4)
	m = manager()
	sum = summaryOf(t, m, id)
	if sum.Seats[0].Deadline == nil || sum.Seq != 0 {
		t.Fatalf("after a restart: %+v (seq %d)", sum.Seats[0], sum.Seq)
	}
	near(t, "the deadline after a restart", *sum.Seats[0].Deadline, first)
	if *sum.Seats[0].DaysOffLeft != 1 {
		t.Fatalf("days off left after a restart: %d", *sum.Seats[0].DaysOffLeft)
	}
	// The page is told when a day off begins.
	x, err = m.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	w, err := x.Watch(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	x.Unwatch(w) // (closing the page changes nothing)
	w, err = x.Watch(ctx, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Unwatch(w)

	// Past the deadline: a day off, not a move of the bot.
	time.Sleep(time.Until(first) + dayWall/8)
	sum = summaryOf(t, m, id)
	if sum.Seq != 0 || sum.Seats[0].Deadline == nil || *sum.Seats[0].DaysOffLeft != 0 || sum.Seats[0].PlayedBy != match.Human {
		t.Fatalf("a day after the start, with a day off: seq %d, seat %+v", sum.Seq, sum.Seats[0])
	}
	second := first.Add(dayWall)
	near(t, "the deadline once the day off began", *sum.Seats[0].Deadline, second)
	told := false
	waitFor(t, "the page to be told the new deadline", func() bool {
		for _, msg := range w.Sub.Take(nil) {
			var m match.Message
			if err := json.Unmarshal(msg.Data, &m); err != nil {
				t.Fatal(err)
			}
			for _, d := range m.Deadlines {
				if d.Seat == 0 && d.By != nil && d.By.Equal(*sum.Seats[0].Deadline) && d.DaysOffLeft != nil && *d.DaysOffLeft == 0 {
					told = true
				}
			}
		}
		return told
	})
	// A restart keeps the day off spent (it follows from the log).
	if err := m.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	m = manager()
	sum = summaryOf(t, m, id)
	if sum.Seq != 0 || *sum.Seats[0].DaysOffLeft != 0 {
		t.Fatalf("after a restart in the day off: seq %d, seat %+v", sum.Seq, sum.Seats[0])
	}
	near(t, "the deadline in the day off after a restart", *sum.Seats[0].Deadline, second)

	// No day off left: the seat's bot plays the move at the deadline, and
	// the seat's next turn has the move limit alone.
	waitFor(t, "the bot to play the move out of time", func() bool { return summaryOf(t, m, id).Seq >= 2 })
	log, err := st.Log(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	r, err := engine.DecodeRecord(matchtest.Cards{}, log[0])
	if err != nil {
		t.Fatal(err)
	}
	if r.Seat != 0 || r.At < 2*match.Day {
		t.Fatalf("the first move: seat %d at %v, want seat 0's bot after two days", r.Seat, time.Duration(r.At)*time.Millisecond)
	}
	if played := started.Add(time.Duration(float64(r.At) * float64(time.Millisecond) / speed)); played.Before(second) {
		t.Fatalf("the bot played at %v, before the deadline %v", played, second)
	}
	sum = summaryOf(t, m, id)
	if sum.Seats[0].DaysOffLeft == nil || *sum.Seats[0].DaysOffLeft != 0 || sum.Seats[0].PlayedBy != match.Human {
		t.Fatalf("the seat after its bot's move: %+v", sum.Seats[0])
	}
	if err := m.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	m = manager()
	sum = summaryOf(t, m, id)
	if *sum.Seats[0].DaysOffLeft != 0 {
		t.Fatalf("days off left after a restart past the bot's move: %d", *sum.Seats[0].DaysOffLeft)
	}
}

// Closing the page never hands a correspondence table's seat to its bot:
// long past the takeover of a live table, the person still plays it, and
// no move was played for them.
func TestCorrespondenceHasNoDisconnectTakeover(t *testing.T) {
	ctx := context.Background()
	m := match.NewManager(match.Config{Store: openStore(t), Games: matchtest.Games(), ClockSpeed: 2000, Linger: time.Minute,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	t.Cleanup(func() { m.Shutdown(context.Background()) })
	live := match.CreateRequest{Game: "testcards", Seats: []match.SeatRequest{{Kind: match.Human}, {Kind: match.Bot}}, MoveLimitMs: new(int64(0))}
	for _, req := range []match.CreateRequest{corrTable(days(7), nil), live} {
		x := startMatch(t, m, req)
		w, err := x.Watch(ctx, 0)
		if err != nil {
			t.Fatal(err)
		}
		x.Unwatch(w)
	}
	// 180 s of match time, the live takeover, pass in 90 ms.
	time.Sleep(500 * time.Millisecond)
	list, err := m.List(ctx, store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range list {
		sum := summaryOf(t, m, s.ID)
		want := match.Human
		if sum.Settings.Clock == match.ClockLive {
			want = match.Bot // (the live table shows the takeover happens)
		}
		if sum.Seats[0].PlayedBy != want {
			t.Fatalf("a %s table's seat, its page closed long ago, is played by %s", sum.Settings.Clock, sum.Seats[0].PlayedBy)
		}
		if sum.Settings.Clock == match.ClockCorrespondence && sum.Seq != 0 {
			t.Fatalf("a move was played at the correspondence table: seq %d", sum.Seq)
		}
	}
}

// An open correspondence table waits for its players far longer than a
// live one (ExpireCorrespondence, not ExpireOpen nor ExpireLonely), then
// expires as nobody joined it; one somebody sat at expires as not started.
func TestOpenCorrespondenceTablesWaitLonger(t *testing.T) {
	ctx := context.Background()
	m := match.NewManager(match.Config{Store: openStore(t), Games: matchtest.Games(), Linger: time.Minute,
		ExpireOpen: 300 * time.Millisecond, ExpireLonely: 150 * time.Millisecond, ExpireCorrespondence: 1500 * time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	t.Cleanup(func() { m.Shutdown(context.Background()) })
	twoHumans := func(clock string) match.CreateRequest {
		return match.CreateRequest{Game: "testcards", Players: 2, Clock: clock, Owner: "creator"}
	}
	liveTable, err := m.Create(ctx, twoHumans(""))
	if err != nil {
		t.Fatal(err)
	}
	lonely, err := m.Create(ctx, twoHumans(match.ClockCorrespondence))
	if err != nil {
		t.Fatal(err)
	}
	sat, err := m.Create(ctx, twoHumans(match.ClockCorrespondence))
	if err != nil {
		t.Fatal(err)
	}
	x, err := m.Get(ctx, sat.Match.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := x.Join(ctx, 1, match.Joiner{Name: "Guest", Client: "guest"}); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the live table to expire", func() bool { return summaryOf(t, m, liveTable.Match.ID).Status == store.Expired })
	time.Sleep(400 * time.Millisecond)
	for _, c := range []*match.Created{lonely, sat} {
		if s := summaryOf(t, m, c.Match.ID).Status; s != store.Open {
			t.Fatalf("an open correspondence table, past the live ones' expiry: %s", s)
		}
	}
	for _, w := range []struct {
		c    *match.Created
		code string
	}{{lonely, match.ReasonNobodyJoined}, {sat, match.ReasonNotStarted}} {
		var sum match.Summary
		waitFor(t, "the correspondence table to expire", func() bool {
			sum = summaryOf(t, m, w.c.Match.ID)
			return sum.Status == store.Expired
		})
		if sum.Reason == nil || sum.Reason.Code != w.code || sum.Reason.Params["after_ms"] != float64(1500) && sum.Reason.Params["after_ms"] != int64(1500) {
			t.Fatalf("the correspondence table expired with %+v, want %s after 1500 ms", sum.Reason, w.code)
		}
		if age := sum.FinishedAt.Sub(sum.CreatedAt); age < 1500*time.Millisecond {
			t.Fatalf("it expired %v after its creation", age)
		}
	}
}

// A person who never comes back has each of their moves played by their
// seat's bot a move limit after their turn began, never sooner, move after
// move (the bot is made again for each), and keeps the seat.
func TestCorrespondenceBotPlaysEachMoveOutOfTime(t *testing.T) {
	const speed = 864_000 // a day in 0.1 s
	ctx := context.Background()
	st := openStore(t)
	m := match.NewManager(match.Config{Store: st, Games: matchtest.Games(), ClockSpeed: speed, Linger: time.Minute,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	t.Cleanup(func() { m.Shutdown(context.Background()) })
	req := corrTable(nil, new(0))
	req.Seats[0].Bot = "random"
	req.Options = map[string]string{"hand": "4"}
	x := startMatch(t, m, req)
	waitFor(t, "four moves of the person's seat", func() bool { return summaryOf(t, m, x.ID()).Seq >= 8 })
	log, err := st.Log(ctx, x.ID())
	if err != nil {
		t.Fatal(err)
	}
	var turnBegan engine.Millis // (seat 0 opens)
	moves := 0
	for _, raw := range log {
		r, err := engine.DecodeRecord(matchtest.Cards{}, raw)
		if err != nil {
			t.Fatal(err)
		}
		if r.Seat != 0 {
			turnBegan = r.At // (the bot of seat 1 passes the turn back)
			continue
		}
		if r.At-turnBegan < match.Day {
			t.Fatalf("move %d of the person's seat played %v after their turn began, before the day's limit", moves+1, time.Duration(r.At-turnBegan)*time.Millisecond)
		}
		moves++
	}
	if sum := summaryOf(t, m, x.ID()); moves < 4 || sum.Seats[0].PlayedBy != match.Human {
		t.Fatalf("%d moves of the person's seat; it is played by %s", moves, sum.Seats[0].PlayedBy)
	}
}

// A node that dies (here: it never renews its leases) has its
// correspondence tables taken over by another, which finds each deadline
// where it was: the clock is the wall clock since the start, not a clock
// that paused while nobody ran the match. (The clocks run 3,600 times
// faster than the wall: the takeover's seconds are hours.)
func TestCorrespondenceDeadlineSurvivesATakeover(t *testing.T) {
	pg := pgtest.Own(t)
	db, err := pg.Database(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ns := natstest.Start(t)
	node := func(name string, resume bool) *match.Manager {
		st, err := store.OpenPostgres(context.Background(), db, store.PostgresOptions{})
		if err != nil {
			t.Fatal(err)
		}
		nb, err := bus.ConnectNATS(ns.URL(), bus.NATSOptions{Node: name, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
		if err != nil {
			t.Fatal(err)
		}
		m := match.NewManager(match.Config{Store: st, Bus: nb, Games: matchtest.Games(), ClockSpeed: 3600,
			Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Cluster: &match.Cluster{Node: name, Exchange: nb, Lease: time.Second}})
		if resume {
			if _, err := m.Resume(context.Background()); err != nil {
				t.Fatal(err)
			}
		}
		t.Cleanup(func() {
			m.Shutdown(context.Background())
			nb.Close()
			st.Close()
		})
		return m
	}
	ctx := context.Background()
	a := node("a", false)
	c, err := a.Create(ctx, corrTable(nil, new(2)))
	if err != nil {
		t.Fatal(err)
	}
	x, err := a.Get(ctx, c.Match.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := x.Join(ctx, 0, match.Joiner{Name: "Ana"}); err != nil {
		t.Fatal(err)
	}
	before := summaryOf(t, a, c.Match.ID)
	if before.Status != store.Running || before.Seats[0].Deadline == nil {
		t.Fatalf("on the first node: %s, seat %+v", before.Status, before.Seats[0])
	}
	b := node("b", true)
	var after match.Summary
	waitFor(t, "the other node to take the table over", func() bool { return b.Live() == 1 })
	after = summaryOf(t, b, c.Match.ID)
	near(t, "the deadline on the node that took the table over", *after.Seats[0].Deadline, *before.Seats[0].Deadline)
	if *after.Seats[0].DaysOffLeft != 2 || after.Seq != 0 {
		t.Fatalf("after the takeover: seat %+v, seq %d", after.Seats[0], after.Seq)
	}
}

// Players of a correspondence table come by once a turn: with nobody
// connected it is abandoned only after three move limits and its days off
// (when that is longer than AbandonAfter), while a live table goes at
// AbandonAfter. (A day of match time is 0.1 s here: three move limits and
// three days off are 0.6 s.)
func TestCorrespondenceTablesAreAbandonedLater(t *testing.T) {
	const speed = 864_000
	m := match.NewManager(match.Config{Store: openStore(t), Games: matchtest.Games(), ClockSpeed: speed, Linger: time.Minute,
		AbandonAfter: 300 * time.Millisecond, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	t.Cleanup(func() { m.Shutdown(context.Background()) })
	live := startMatch(t, m, match.CreateRequest{Game: "testcards", Players: 2, TakeoverAfterMs: new(int64(0)), MoveLimitMs: new(int64(0))})
	corr := startMatch(t, m, match.CreateRequest{Game: "testcards", Players: 2, Clock: match.ClockCorrespondence})
	start := time.Now()
	waitFor(t, "the live table to be abandoned", func() bool { return summaryOf(t, m, live.ID()).Status == store.Abandoned })
	if s := summaryOf(t, m, corr.ID()).Status; s != store.Running && time.Since(start) < 600*time.Millisecond {
		t.Fatalf("the correspondence table is %s %v after the start", s, time.Since(start))
	}
	var sum match.Summary
	waitFor(t, "the correspondence table to be abandoned", func() bool {
		sum = summaryOf(t, m, corr.ID())
		return sum.Status == store.Abandoned
	})
	if age := sum.FinishedAt.Sub(*sum.StartedAt); age < 600*time.Millisecond || sum.Reason == nil || sum.Reason.Params["after_ms"] != float64(600) && sum.Reason.Params["after_ms"] != int64(600) {
		t.Fatalf("the correspondence table was abandoned %v after its start, for %+v", age, sum.Reason)
	}
}
