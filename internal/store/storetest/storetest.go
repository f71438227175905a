// Package storetest is the behaviour every [store.Store] must have, as one
// suite that each store's tests run in one line (as engine/enginetest is for
// games): writes and reads of every method, the order of logs, conflicts,
// leases and fencing between two nodes, group commit under concurrency, and
// durability across a close. [RunAccounts] is the same for [store.Accounts]:
// every method, the cascade of an account's deletion, and what two nodes
// do at once (a sign-in token taken once, an address given once, writes
// racing a deletion).
//
// A scenario that fails says what it saw. [Check] returns the failures
// instead of reporting them, so that the suite's own tests can plant a flaw
// in a store and see it caught.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"sortie/engine"
	"sortie/internal/store"
)

// Harness opens the store under test.
type Harness struct {
	// Open makes a new, empty database and returns a function that opens a
	// store on it; each call is another handle on the same data, as another
	// node (or the same node after a restart) would open it. Every handle
	// calls onCommit (if not nil) after each transaction of its writer. The
	// suite closes the handles it opens; Open cleans the database up with
	// t.Cleanup.
	Open func(t testing.TB, onCommit func(writes int, d time.Duration)) func() (store.Store, error)
}

// Run runs every scenario as a subtest of t.
func Run(t *testing.T, h Harness) { h.runAll(t, scenarios) }

// Check runs the scenarios named in only (all, if none is) and returns their
// failures, or nil.
func Check(t testing.TB, h Harness, only ...string) error { return h.check(t, scenarios, only) }

func (h Harness) runAll(t *testing.T, list []scenario) {
	for _, sc := range list {
		t.Run(sc.name, func(t *testing.T) {
			if err := h.run(t, sc); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func (h Harness) check(t testing.TB, list []scenario, only []string) error {
	var errs []error
	for _, sc := range list {
		if len(only) > 0 && !slices.Contains(only, sc.name) {
			continue
		}
		if err := h.run(t, sc); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", sc.name, err))
		}
	}
	return errors.Join(errs...)
}

type scenario struct {
	name string
	run  func(r *run)
}

var scenarios = []scenario{
	{"RoundTrip", roundTrip},
	{"AppendOrder", appendOrder},
	{"Chat", chat},
	{"Ends", ends},
	{"Prune", prune},
	{"Conflicts", conflicts},
	{"List", list},
	{"Leases", leases},
	{"Takeover", takeover},
	{"FencingRace", fencingRace},
	{"GroupCommit", groupCommit},
	{"CloseKeepsAcknowledged", closeKeepsAcknowledged},
	{"Check", check},
	{"Absence", absence},
	{"Creations", creations},
	{"Jobs", jobs},
	{"JobRace", jobRace},
	{"FinishedWithout", finishedWithout},
	{"Hints", hints},
	{"Daily", daily},
}

// run is one scenario's world: a database and the handles open on it.
type run struct {
	ctx     context.Context
	open    func() (store.Store, error)
	mu      sync.Mutex
	handles []store.Store
	commits struct{ writes, transactions int }
}

// failure ends a scenario (as a panic caught by h.run).
type failure struct{ err error }

func (h Harness) run(t testing.TB, sc scenario) (err error) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	r := &run{ctx: ctx}
	r.open = h.Open(t, func(n int, _ time.Duration) {
		r.mu.Lock()
		r.commits.writes += n
		r.commits.transactions++
		r.mu.Unlock()
	})
	defer func() {
		for _, s := range r.handles {
			s.Close()
		}
		if p := recover(); p != nil {
			f, ok := p.(failure)
			if !ok {
				err = fmt.Errorf("panic: %v\n%s", p, debug.Stack())
				return
			}
			err = f.err
		}
	}()
	sc.run(r)
	return nil
}

func (r *run) fail(format string, args ...any) {
	panic(failure{fmt.Errorf(format, args...)})
}

// store opens one more handle.
func (r *run) store() store.Store {
	s, err := r.open()
	if err != nil {
		r.fail("open: %v", err)
	}
	r.mu.Lock()
	r.handles = append(r.handles, s)
	r.mu.Unlock()
	return s
}

// ok fails the scenario if err is not nil.
func (r *run) ok(err error, what string, args ...any) {
	if err != nil {
		r.fail("%s: %v", fmt.Sprintf(what, args...), err)
	}
}

// is fails the scenario unless err is target.
func (r *run) is(err, target error, what string, args ...any) {
	if !errors.Is(err, target) {
		r.fail("%s: got %v, want %v", fmt.Sprintf(what, args...), err, target)
	}
}

var t0 = time.UnixMilli(time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC).UnixMilli())

func newMatch(id string, created time.Time) *store.Match {
	return &store.Match{
		ID: id, Game: "testcards", Setup: engine.Setup{Players: 2, Options: map[string]string{"hand": "3"}, Seed: 42},
		Seats:    []store.Seat{{Kind: "human", Bot: "random", TokenHash: []byte{1, 2, 3}}, {Kind: "bot", Bot: "random", Joined: true}},
		HostHash: []byte{9, 9}, Settings: []byte(`{"x":1}`), Status: store.Open, Created: created,
	}
}

// running creates match id and starts it.
func (r *run) running(s store.Store, id string, created time.Time) {
	r.ok(s.Create(r.ctx, newMatch(id, created)), "create %s", id)
	r.ok(s.Start(r.ctx, id, 0, created), "start %s", id)
}

func rec(i int) []byte { return fmt.Appendf(nil, `{"at":%d}`, i*10) }

func (r *run) log(s store.Store, id string) [][]byte {
	log, err := s.Log(r.ctx, id)
	r.ok(err, "log of %s", id)
	return log
}

func (r *run) get(s store.Store, id string) *store.Match {
	m, err := s.Get(r.ctx, id)
	r.ok(err, "get %s", id)
	return m
}

// A match and its log survive closing and reopening the store, field for
// field.
func roundTrip(r *run) {
	s := r.store()
	r.ok(s.Create(r.ctx, newMatch("m1", t0)), "create")
	if m := r.get(s, "m1"); m.Status != store.Open || m.Records != 0 || m.Lease != (store.Lease{Match: "m1"}) || !m.Started.IsZero() {
		r.fail("a new match reads back as %+v", m)
	}
	r.ok(s.Start(r.ctx, "m1", 0, t0.Add(time.Second)), "start")
	for n := 1; n <= 3; n++ {
		r.ok(s.Append(r.ctx, "m1", 0, n, rec(n), engine.Millis(n*10)), "append %d", n)
	}
	seat := store.Seat{Kind: "human", Bot: "random", Name: "Ana", Joined: true, TokenHash: []byte{1, 2, 3}}
	r.ok(s.SetSeat(r.ctx, "m1", 0, 0, seat), "set seat")
	r.ok(s.SaveClock(r.ctx, "m1", 0, 30), "save clock")
	r.ok(s.SaveClock(r.ctx, "m1", 0, 25), "save an earlier clock (a server stopping saves its exact clock over one saved ahead)")
	s.Close()
	s = r.store()
	m := r.get(s, "m1")
	if m.ID != "m1" || m.Game != "testcards" || m.Status != store.Running || m.Records != 3 || m.Clock != 25 ||
		m.Seats[0].Name != "Ana" || string(m.Seats[0].TokenHash) != "\x01\x02\x03" || m.Seats[1].Kind != "bot" || m.Seats[1].TokenHash != nil ||
		m.Setup.Seed != 42 || m.Setup.Players != 2 || m.Setup.Options["hand"] != "3" || string(m.HostHash) != "\x09\x09" ||
		!m.Created.Equal(t0) || !m.Started.Equal(t0.Add(time.Second)) || !m.Finished.IsZero() || string(m.Settings) != `{"x":1}` || m.Outcome != nil {
		r.fail("read back: %+v", m)
	}
	if log := r.log(s, "m1"); len(log) != 3 || string(log[0]) != `{"at":10}` || string(log[2]) != `{"at":30}` {
		r.fail("log: %q", log)
	}
	out := engine.Outcome{Winners: []engine.Seat{1}, Ranks: []int{2, 1}, Scores: []int{0, 1}}
	r.ok(s.SaveClock(r.ctx, "m1", 0, 70), "save a clock ahead")
	r.ok(s.Finish(r.ctx, "m1", 0, out, 55, t0.Add(time.Hour)), "finish")
	m = r.get(s, "m1")
	if m.Status != store.Finished || m.Outcome == nil || len(m.Outcome.Winners) != 1 || m.Outcome.Winners[0] != 1 ||
		m.Outcome.Ranks[0] != 2 || m.Clock != 55 || !m.Finished.Equal(t0.Add(time.Hour)) || m.Reason != "" {
		r.fail("finished (at its final clock, below the one saved ahead): %+v", m)
	}
	r.is(s.Append(r.ctx, "m1", 0, 4, rec(4), 60), store.ErrConflict, "append after finish")
	r.ok(s.SaveClock(r.ctx, "m1", 0, 99), "save the clock of a finished match")
	if m := r.get(s, "m1"); m.Clock != 55 {
		r.fail("saving the clock of a finished match moved it to %d", m.Clock)
	}
	// A match with nothing optional reads back empty, not broken.
	bare := &store.Match{ID: "bare", Game: "g", Seats: []store.Seat{}, Created: t0}
	r.ok(s.Create(r.ctx, bare), "create a bare match")
	if m := r.get(s, "bare"); m.Status != store.Open || m.HostHash != nil || len(m.Settings) != 0 || len(m.Seats) != 0 {
		r.fail("bare match: %+v", m)
	}
}

// Who created a match, and whether a seat was joined from elsewhere, read
// back; the creations since a time are listed oldest first, those of
// unknown creators left out, whatever became of the matches.
func creations(r *run) {
	s := r.store()
	for i, c := range []struct {
		id, creator string
		at          time.Duration
	}{{"old", "10.0.0.1", 0}, {"anon", "", 2 * time.Minute}, {"b", "2001:db8::/64", 3 * time.Minute}, {"a", "10.0.0.1", 2 * time.Minute}, {"c", "10.0.0.1", 4 * time.Minute}} {
		m := newMatch(c.id, t0.Add(c.at))
		m.Creator = c.creator
		if i == 0 {
			m.Seats[0].Joined, m.Seats[0].JoinedElsewhere = true, true
		}
		r.ok(s.Create(r.ctx, m), "create %s", c.id)
	}
	r.ok(s.End(r.ctx, "c", 0, store.Expired, "", 0, t0.Add(5*time.Minute)), "end c")
	s.Close()
	s = r.store()
	if m := r.get(s, "old"); m.Creator != "10.0.0.1" || !m.Seats[0].JoinedElsewhere || m.Seats[1].JoinedElsewhere {
		r.fail("creator and seats read back as %q %+v", m.Creator, m.Seats)
	}
	if m := r.get(s, "anon"); m.Creator != "" {
		r.fail("a match of no known creator reads back as created by %q", m.Creator)
	}
	got, err := s.Creations(r.ctx, t0.Add(time.Minute))
	r.ok(err, "creations")
	want := []store.Creation{{Creator: "10.0.0.1", Created: t0.Add(2 * time.Minute)},
		{Creator: "2001:db8::/64", Created: t0.Add(3 * time.Minute)}, {Creator: "10.0.0.1", Created: t0.Add(4 * time.Minute)}}
	if len(got) != len(want) {
		r.fail("creations since a minute in: %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i].Creator != want[i].Creator || !got[i].Created.Equal(want[i].Created) {
			r.fail("creations since a minute in: %+v, want %+v", got, want)
		}
	}
	if ms, _ := s.List(r.ctx, store.Filter{}); len(ms) == 0 || ms[0].Creator == "" {
		r.fail("List does not read the creator back: %+v", ms)
	}
}

// Since when a running match has had no player is kept across handles,
// cleared with zero, fenced like any write, and left alone once the match
// is not running.
func absence(r *run) {
	s := r.store()
	r.ok(s.Create(r.ctx, newMatch("m1", t0)), "create")
	r.ok(s.SaveAbsence(r.ctx, "m1", 0, t0), "save the absence of an open match")
	if m := r.get(s, "m1"); !m.AbsentSince.IsZero() {
		r.fail("an open match took an absence: %v", m.AbsentSince)
	}
	r.ok(s.Start(r.ctx, "m1", 0, t0), "start")
	if m := r.get(s, "m1"); !m.AbsentSince.IsZero() {
		r.fail("a match just started reads absent since %v", m.AbsentSince)
	}
	left := t0.Add(90 * time.Minute)
	r.ok(s.SaveAbsence(r.ctx, "m1", 0, left), "save an absence")
	s.Close()
	s = r.store()
	if m := r.get(s, "m1"); !m.AbsentSince.Equal(left) {
		r.fail("absent since %v after reopening, want %v", m.AbsentSince, left)
	}
	r.is(s.SaveAbsence(r.ctx, "m1", 3, t0), store.ErrFenced, "save an absence under an epoch the match never had")
	r.is(s.SaveAbsence(r.ctx, "nope", 0, t0), store.ErrNotFound, "save the absence of an unknown match")
	r.ok(s.SaveAbsence(r.ctx, "m1", 0, time.Time{}), "clear the absence")
	if m := r.get(s, "m1"); !m.AbsentSince.IsZero() {
		r.fail("a cleared absence reads %v", m.AbsentSince)
	}
	r.ok(s.SaveAbsence(r.ctx, "m1", 0, left), "save an absence again")
	r.ok(s.Finish(r.ctx, "m1", 0, engine.Outcome{Winners: []engine.Seat{0}}, 5, left), "finish")
	r.ok(s.SaveAbsence(r.ctx, "m1", 0, left.Add(time.Hour)), "save the absence of a finished match")
	if m := r.get(s, "m1"); !m.AbsentSince.Equal(left) {
		r.fail("saving the absence of a finished match moved it to %v", m.AbsentSince)
	}
}

// Records come in order, once: a gap, a repeat with other bytes, a record
// of a match that is not running or does not exist writes nothing. The
// repeat of the last record, byte for byte, is taken as done.
func appendOrder(r *run) {
	s := r.store()
	r.ok(s.Create(r.ctx, newMatch("m1", t0)), "create")
	r.is(s.Append(r.ctx, "m1", 0, 1, rec(1), 10), store.ErrConflict, "append to an open match")
	r.ok(s.Start(r.ctx, "m1", 0, t0), "start")
	r.ok(s.Append(r.ctx, "m1", 0, 1, rec(1), 10), "append #1")
	r.ok(s.Append(r.ctx, "m1", 0, 2, rec(2), 20), "append #2")
	for _, c := range []struct {
		n    int
		rec  []byte
		want error
	}{{2, rec(9), store.ErrConflict}, {1, rec(1), store.ErrConflict}, {4, rec(4), store.ErrConflict}, {0, rec(0), store.ErrConflict}, {-1, rec(0), store.ErrConflict}} {
		r.is(s.Append(r.ctx, "m1", 0, c.n, c.rec, 90), c.want, "append #%d %s", c.n, c.rec)
	}
	r.ok(s.Append(r.ctx, "m1", 0, 2, rec(2), 20), "repeat the last append byte for byte")
	r.is(s.Append(r.ctx, "nope", 0, 1, rec(1), 10), store.ErrNotFound, "append to an unknown match")
	log := r.log(s, "m1")
	if len(log) != 2 || string(log[1]) != string(rec(2)) {
		r.fail("log after refused appends: %q", log)
	}
	if m := r.get(s, "m1"); m.Records != 2 {
		r.fail("%d records counted, want 2", m.Records)
	}
	if log := r.log(s, "nope"); len(log) != 0 {
		r.fail("an unknown match has a log: %q", log)
	}
	// Records are bytes: what goes in comes out.
	r.running(s, "bin", t0)
	odd := []byte("{\"x\":\"\x00\xff\"}")
	r.ok(s.Append(r.ctx, "bin", 0, 1, odd, 0), "append odd bytes")
	if log := r.log(s, "bin"); len(log) != 1 || string(log[0]) != string(odd) {
		r.fail("odd bytes came back as %q", log)
	}
}

// Table talk is kept line by line with its match, in any status, and
// survives closing the store: a line out of order, or of no match, writes
// nothing; the repeat of the last line, byte for byte, is taken as done; a
// passed epoch is fenced off. A seat left to its bot reads back so. The
// talk is not the log.
func chat(r *run) {
	s := r.store()
	r.ok(s.Create(r.ctx, newMatch("m1", t0)), "create")
	if lines, err := s.Chat(r.ctx, "m1"); err != nil || len(lines) != 0 {
		r.fail("a new match's talk: %q, %v", lines, err)
	}
	line := func(n int) []byte {
		return fmt.Appendf(nil, `{"type":"chat","n":%d,"text":"<b>hi</b> \u00e9 %d"}`, n, n)
	}
	for n := 1; n <= 3; n++ { // an open match: players talk while they wait
		r.ok(s.AppendChat(r.ctx, "m1", 0, n, line(n)), "line %d", n)
	}
	r.ok(s.AppendChat(r.ctx, "m1", 0, 3, line(3)), "repeat the last line byte for byte")
	for _, c := range []struct {
		n    int
		line []byte
	}{{3, line(9)}, {2, line(2)}, {5, line(5)}, {0, line(0)}} {
		r.is(s.AppendChat(r.ctx, "m1", 0, c.n, c.line), store.ErrConflict, "line %d %s", c.n, c.line)
	}
	r.is(s.AppendChat(r.ctx, "nope", 0, 1, line(1)), store.ErrNotFound, "a line of an unknown match")
	r.ok(s.SetSeat(r.ctx, "m1", 0, 0, store.Seat{Kind: "human", Bot: "random", Name: "Ana", Joined: true, Left: true, TokenHash: []byte{1}}), "leave seat 0")
	r.ok(s.Start(r.ctx, "m1", 0, t0), "start")
	l, err := s.Acquire(r.ctx, "m1", "a", time.Minute)
	r.ok(err, "acquire")
	r.is(s.AppendChat(r.ctx, "m1", 0, 4, line(4)), store.ErrFenced, "a line under a passed epoch")
	r.ok(s.AppendChat(r.ctx, "m1", l.Epoch, 4, line(4)), "line 4 under the lease")
	s.Close()
	s = r.store()
	lines, err := s.Chat(r.ctx, "m1")
	r.ok(err, "talk after reopening")
	if len(lines) != 4 || string(lines[0]) != string(line(1)) || string(lines[3]) != string(line(4)) {
		r.fail("talk after reopening: %q", lines)
	}
	if m := r.get(s, "m1"); !m.Seats[0].Left || m.Seats[1].Left || m.Records != 0 {
		r.fail("after reopening: seats %+v, %d records", m.Seats, m.Records)
	}
	if lines, err := s.Chat(r.ctx, "nope"); err != nil || len(lines) != 0 {
		r.fail("an unknown match talks: %q, %v", lines, err)
	}
}

// Every write that does not fit the match is refused with the right error
// and changes nothing.
func conflicts(r *run) {
	s := r.store()
	r.ok(s.Create(r.ctx, newMatch("m1", t0)), "create")
	other := newMatch("m1", t0.Add(time.Hour))
	other.Game = "other"
	r.is(s.Create(r.ctx, other), store.ErrConflict, "a second create of m1")
	if m := r.get(s, "m1"); m.Game != "testcards" || !m.Created.Equal(t0) {
		r.fail("a refused create changed the match: %+v", m)
	}
	r.is(s.SetSeat(r.ctx, "m1", 0, 2, store.Seat{Kind: "human"}), store.ErrConflict, "set seat 2 of 2")
	r.is(s.SetSeat(r.ctx, "m1", 0, -1, store.Seat{Kind: "human"}), store.ErrConflict, "set seat -1")
	r.is(s.SetSeat(r.ctx, "nope", 0, 0, store.Seat{Kind: "human"}), store.ErrNotFound, "set a seat of an unknown match")
	r.ok(s.Start(r.ctx, "m1", 0, t0), "start")
	r.is(s.Start(r.ctx, "m1", 0, t0.Add(time.Hour)), store.ErrConflict, "a second start")
	if m := r.get(s, "m1"); !m.Started.Equal(t0) {
		r.fail("a refused start moved the start to %v", m.Started)
	}
	r.is(s.Start(r.ctx, "nope", 0, t0), store.ErrNotFound, "start an unknown match")
	r.is(s.Finish(r.ctx, "nope", 0, engine.Outcome{}, 0, t0), store.ErrNotFound, "finish an unknown match")
	r.is(s.SaveClock(r.ctx, "nope", 0, 1), store.ErrNotFound, "save the clock of an unknown match")
	_, err := s.Get(r.ctx, "nope")
	r.is(err, store.ErrNotFound, "get an unknown match")
	_, err = s.Acquire(r.ctx, "nope", "a", time.Minute)
	r.is(err, store.ErrNotFound, "acquire an unknown match")
}

// Listing by status and game, newest first; unfinished matches oldest first.
func list(r *run) {
	s := r.store()
	for i, st := range []store.Status{store.Open, store.Running, store.Finished, store.Running, store.Expired} {
		m := newMatch(fmt.Sprint("m", i), t0.Add(time.Duration(i)*time.Second))
		if i == 1 {
			m.Game = "other"
		}
		r.ok(s.Create(r.ctx, m), "create")
		if st != store.Open && st != store.Expired {
			r.ok(s.Start(r.ctx, m.ID, 0, t0), "start")
		}
		if st == store.Finished {
			r.ok(s.Finish(r.ctx, m.ID, 0, engine.Outcome{}, 0, t0), "finish")
		}
		if st == store.Expired {
			r.ok(s.End(r.ctx, m.ID, 0, store.Expired, "late", 0, t0), "expire")
		}
	}
	r.ok(s.Append(r.ctx, "m3", 0, 1, rec(1), 10), "append")
	got := func(f store.Filter) string {
		ms, err := s.List(r.ctx, f)
		r.ok(err, "list %+v", f)
		var ids []string
		for _, m := range ms {
			ids = append(ids, m.ID)
		}
		return strings.Join(ids, " ")
	}
	for _, c := range []struct {
		f    store.Filter
		want string
	}{
		{store.Filter{Statuses: []store.Status{store.Running}}, "m3 m1"},
		{store.Filter{Limit: 3}, "m4 m3 m2"},
		{store.Filter{}, "m4 m3 m2 m1 m0"},
		{store.Filter{Game: "other"}, "m1"},
		{store.Filter{Game: "testcards", Statuses: []store.Status{store.Running}}, "m3"},
		{store.Filter{Statuses: []store.Status{store.Finished, store.Expired, store.Failed}}, "m4 m2"},
		{store.Filter{Game: "chess"}, ""},
	} {
		if g := got(c.f); g != c.want {
			r.fail("list %+v: %q, want %q", c.f, g, c.want)
		}
	}
	ms, err := s.List(r.ctx, store.Filter{Statuses: []store.Status{store.Running}})
	r.ok(err, "list")
	if ms[0].Records != 1 || ms[0].Setup.Seed != 42 || ms[1].Game != "other" {
		r.fail("listed matches lack their fields: %+v", ms[0])
	}
	un, err := s.Unfinished(r.ctx)
	r.ok(err, "unfinished")
	if fmt.Sprint(un) != "[m0 m1 m3]" {
		r.fail("unfinished: %v", un)
	}
	or, err := s.Orphans(r.ctx, 2)
	r.ok(err, "orphans")
	if fmt.Sprint(or) != "[m0 m1]" {
		r.fail("orphans (at most 2): %v, want the two oldest unfinished", or)
	}
}

// Matches end without an outcome from the statuses each end allows, with
// their reason and final clock, and are then over: no record, no start, not
// among the unfinished matches, the orphans or a node's leases. A refused
// end changes nothing.
func ends(r *run) {
	s := r.store()
	r.ok(s.Create(r.ctx, newMatch("open", t0)), "create")
	r.running(s, "run", t0.Add(time.Second))
	r.running(s, "done", t0.Add(2*time.Second))
	r.ok(s.Finish(r.ctx, "done", 0, engine.Outcome{Winners: []engine.Seat{0}}, 40, t0), "finish")
	for _, c := range []struct {
		id   string
		to   store.Status
		want error
	}{
		{"open", store.Abandoned, store.ErrConflict},
		{"run", store.Expired, store.ErrConflict},
		{"run", store.Closed, store.ErrConflict},
		{"done", store.Abandoned, store.ErrConflict},
		{"run", store.Finished, store.ErrConflict},
		{"run", store.Running, store.ErrConflict},
		{"nope", store.Failed, store.ErrNotFound},
	} {
		r.is(s.End(r.ctx, c.id, 0, c.to, "why", 1, t0), c.want, "%s becomes %s", c.id, c.to)
	}
	if m := r.get(s, "run"); m.Status != store.Running || m.Reason != "" || !m.Finished.IsZero() {
		r.fail("refused ends changed the match: %+v", m)
	}
	a, err := s.Acquire(r.ctx, "run", "A", time.Minute)
	r.ok(err, "acquire")
	r.is(s.End(r.ctx, "run", 0, store.Abandoned, "why", 1, t0), store.ErrFenced, "abandon under a passed epoch")
	r.ok(s.Append(r.ctx, "run", a.Epoch, 1, rec(1), 10), "append")
	r.ok(s.End(r.ctx, "run", a.Epoch, store.Abandoned, `{"code":"no_humans"}`, 77, t0.Add(time.Hour)), "abandon")
	r.ok(s.End(r.ctx, "open", 0, store.Expired, "never started", 0, t0.Add(2*time.Hour)), "expire")
	r.ok(s.End(r.ctx, "done", 0, store.Failed, "record 1", 40, t0.Add(3*time.Hour)), "fail a finished match")
	r.is(s.End(r.ctx, "open", 0, store.Closed, "again", 0, t0), store.ErrConflict, "close an expired match")
	r.ok(s.End(r.ctx, "done", 0, store.Closed, "by its host", 40, t0.Add(4*time.Hour)), "close a failed match")
	s.Close()
	s = r.store()
	m := r.get(s, "run")
	if m.Status != store.Abandoned || m.Reason != `{"code":"no_humans"}` || m.Clock != 77 || !m.Finished.Equal(t0.Add(time.Hour)) || m.Records != 1 {
		r.fail("abandoned reads back as %+v", m)
	}
	if m := r.get(s, "open"); m.Status != store.Expired || m.Reason != "never started" || !m.Finished.Equal(t0.Add(2*time.Hour)) {
		r.fail("expired reads back as %+v", m)
	}
	if m := r.get(s, "done"); m.Status != store.Closed || m.Reason != "by its host" || m.Outcome == nil {
		r.fail("closed reads back as %+v", m)
	}
	r.is(s.Append(r.ctx, "run", a.Epoch, 2, rec(2), 20), store.ErrConflict, "append to an abandoned match")
	r.is(s.Start(r.ctx, "open", 0, t0), store.ErrConflict, "start an expired match")
	r.ok(s.SaveClock(r.ctx, "run", a.Epoch, 99), "save the clock of an abandoned match")
	if m := r.get(s, "run"); m.Clock != 77 {
		r.fail("saving the clock of an abandoned match moved it to %d", m.Clock)
	}
	for _, st := range store.Statuses {
		if st.Over() == (st == store.Open || st == store.Running) || !st.Valid() {
			r.fail("status %s: over %v, valid %v", st, st.Over(), st.Valid())
		}
	}
	if un, err := s.Unfinished(r.ctx); err != nil || len(un) != 0 {
		r.fail("unfinished after every match ended: %v %v", un, err)
	}
	if or, err := s.Orphans(r.ctx, 10); err != nil || len(or) != 0 {
		r.fail("orphans after every match ended: %v %v", or, err)
	}
	if ls, err := s.Renew(r.ctx, "A", time.Minute); err != nil || len(ls) != 0 {
		r.fail("A's leases after its match was abandoned: %+v %v", ls, err)
	}
}

// Matches over since before a time are deleted with their logs and talk,
// the oldest first, as many as asked; matches under way and those over
// since later stay.
func prune(r *run) {
	s := r.store()
	line := []byte(`{"type":"chat"}`)
	for i := range 4 {
		id := fmt.Sprint("f", i)
		r.running(s, id, t0)
		r.ok(s.Append(r.ctx, id, 0, 1, rec(1), 10), "append")
		r.ok(s.AppendChat(r.ctx, id, 0, 1, line), "talk")
		r.ok(s.Finish(r.ctx, id, 0, engine.Outcome{}, 10, t0.Add(time.Duration(i)*time.Hour)), "finish")
	}
	r.ok(s.Create(r.ctx, newMatch("old-open", t0.Add(-time.Hour))), "create")
	r.ok(s.Create(r.ctx, newMatch("expired", t0)), "create")
	r.ok(s.End(r.ctx, "expired", 0, store.Expired, "", 0, t0.Add(30*time.Minute)), "expire")
	r.running(s, "run", t0.Add(-time.Hour))
	cut := t0.Add(150 * time.Minute) // after f0, expired, f1 and f2; before f3
	n, err := s.Prune(r.ctx, cut, 2)
	r.ok(err, "prune 2")
	if n != 2 {
		r.fail("pruned %d, want 2", n)
	}
	for _, id := range []string{"f0", "expired"} {
		if _, err := s.Get(r.ctx, id); !errors.Is(err, store.ErrNotFound) {
			r.fail("%s was over first but is still there: %v", id, err)
		}
	}
	n, err = s.Prune(r.ctx, cut, 100)
	r.ok(err, "prune the rest")
	if n != 2 {
		r.fail("pruned %d more, want 2 (f1, f2)", n)
	}
	if n, err := s.Prune(r.ctx, cut, 100); err != nil || n != 0 {
		r.fail("a third prune: %d, %v", n, err)
	}
	for _, id := range []string{"f1", "f2"} {
		if log := r.log(s, id); len(log) != 0 {
			r.fail("%s's log outlived it: %q", id, log)
		}
		if lines, err := s.Chat(r.ctx, id); err != nil || len(lines) != 0 {
			r.fail("%s's talk outlived it: %q %v", id, lines, err)
		}
	}
	for _, id := range []string{"f3", "old-open", "run"} {
		r.get(s, id)
	}
	if log := r.log(s, "f3"); len(log) != 1 {
		r.fail("f3 lost its log: %q", log)
	}
	// A pruned id may be taken again, from nothing.
	r.ok(s.Create(r.ctx, newMatch("f0", t0)), "create f0 again")
	if log := r.log(s, "f0"); len(log) != 0 {
		r.fail("a new f0 has an old log: %q", log)
	}
}

// A node takes a lease, keeps it, gives it up; another node cannot take a
// live lease, and writes under a passed epoch are fenced.
func leases(r *run) {
	s := r.store()
	r.ok(s.Create(r.ctx, newMatch("m1", t0)), "create")
	r.ok(s.Create(r.ctx, newMatch("m2", t0.Add(time.Second))), "create")
	a, err := s.Acquire(r.ctx, "m1", "A", time.Minute)
	r.ok(err, "A acquires m1")
	if a.Match != "m1" || a.Node != "A" || a.Epoch != 1 || time.Until(a.Expires) < 30*time.Second || time.Until(a.Expires) > 2*time.Minute {
		r.fail("A's first lease: %+v", a)
	}
	if m := r.get(s, "m1"); m.Lease.Node != "A" || m.Lease.Epoch != 1 || m.Lease.Expires.IsZero() {
		r.fail("m1's lease reads as %+v", m.Lease)
	}
	_, err = s.Acquire(r.ctx, "m1", "B", time.Minute)
	r.is(err, store.ErrLeased, "B acquires m1 while A holds it")
	r.is(s.Start(r.ctx, "m1", 0, t0), store.ErrFenced, "start m1 at epoch 0 once leased")
	r.ok(s.Start(r.ctx, "m1", 1, t0), "start m1 under A's lease")
	// A node that restarted takes its own matches back under a new epoch.
	a2, err := s.Acquire(r.ctx, "m1", "A", time.Minute)
	r.ok(err, "A acquires m1 again")
	if a2.Epoch != 2 {
		r.fail("A's second lease has epoch %d, want 2", a2.Epoch)
	}
	r.is(s.Append(r.ctx, "m1", a.Epoch, 1, rec(1), 10), store.ErrFenced, "append under A's first epoch")
	r.ok(s.Append(r.ctx, "m1", a2.Epoch, 1, rec(1), 10), "append under A's second epoch")
	b, err := s.Acquire(r.ctx, "m2", "B", time.Minute)
	r.ok(err, "B acquires m2")
	ls, err := s.Renew(r.ctx, "A", time.Minute)
	r.ok(err, "A renews")
	if len(ls) != 1 || ls[0].Match != "m1" || ls[0].Epoch != 2 || ls[0].Node != "A" || ls[0].Expires.Before(a2.Expires) {
		r.fail("A's leases after renewal: %+v", ls)
	}
	// Released, a match takes no more writes under that epoch, and another
	// node takes it at once.
	r.ok(s.Release(r.ctx, a2), "A releases m1")
	r.is(s.Append(r.ctx, "m1", a2.Epoch, 2, rec(2), 20), store.ErrFenced, "append after release")
	r.is(s.Release(r.ctx, a2), store.ErrFenced, "release twice")
	if or, _ := s.Orphans(r.ctx, 10); fmt.Sprint(or) != "[m1]" {
		r.fail("orphans after release: %v, want [m1]", or)
	}
	b1, err := s.Acquire(r.ctx, "m1", "B", time.Minute)
	r.ok(err, "B acquires the released m1")
	if b1.Epoch != 3 {
		r.fail("B's lease on m1 has epoch %d, want 3", b1.Epoch)
	}
	r.is(s.Release(r.ctx, store.Lease{Match: "m1", Node: "A", Epoch: 3}), store.ErrFenced, "A releases B's lease")
	r.is(s.SetSeat(r.ctx, "m1", a2.Epoch, 0, store.Seat{Kind: "human"}), store.ErrFenced, "set a seat under a passed epoch")
	r.is(s.SaveClock(r.ctx, "m1", a2.Epoch, 5), store.ErrFenced, "save the clock under a passed epoch")
	r.is(s.Finish(r.ctx, "m1", a2.Epoch, engine.Outcome{}, 5, t0), store.ErrFenced, "finish under a passed epoch")
	// A passed epoch is refused even when the write is wrong in another way.
	r.is(s.Append(r.ctx, "m1", a2.Epoch, 9, rec(9), 90), store.ErrFenced, "append out of order under a passed epoch")
	r.ok(s.Append(r.ctx, "m1", b1.Epoch, 2, rec(2), 20), "append under B's lease")
	if ls, _ := s.Renew(r.ctx, "A", time.Minute); len(ls) != 0 {
		r.fail("A still holds %+v", ls)
	}
	r.ok(s.Finish(r.ctx, "m2", b.Epoch, engine.Outcome{}, 0, t0), "finish m2")
	ls, err = s.Renew(r.ctx, "B", time.Minute)
	r.ok(err, "B renews")
	if len(ls) != 1 || ls[0].Match != "m1" {
		r.fail("B's leases (a finished match is no longer one): %+v", ls)
	}
	if log := r.log(s, "m1"); len(log) != 2 {
		r.fail("m1's log has %d records, want 2", len(log))
	}
	if or, _ := s.Orphans(r.ctx, 10); len(or) != 0 {
		r.fail("orphans while every match is held: %v", or)
	}
}

// eventually retries f until it returns true, for up to 30 s.
func (r *run) eventually(what string, f func() bool) {
	deadline := time.Now().Add(30 * time.Second)
	for !f() {
		if time.Now().After(deadline) {
			r.fail("%s: still not after 30 s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// When a node stops renewing, its leases expire and another node (another
// handle on the same data) takes its matches over; the old holder is fenced
// on every write.
func takeover(r *run) {
	nodeA, nodeB := r.store(), r.store()
	r.running(nodeA, "m1", t0)
	a, err := nodeA.Acquire(r.ctx, "m1", "A", 2*time.Second)
	r.ok(err, "A acquires")
	r.ok(nodeA.Append(r.ctx, "m1", a.Epoch, 1, rec(1), 10), "A appends")
	_, err = nodeB.Acquire(r.ctx, "m1", "B", time.Minute)
	r.is(err, store.ErrLeased, "B acquires before A's lease expires")
	r.eventually("m1 among the orphans once A's lease expired", func() bool {
		or, err := nodeB.Orphans(r.ctx, 10)
		r.ok(err, "orphans")
		return slices.Contains(or, "m1")
	})
	var b store.Lease
	r.eventually("B takes m1 over", func() bool {
		b, err = nodeB.Acquire(r.ctx, "m1", "B", time.Minute)
		return err == nil
	})
	if b.Epoch != a.Epoch+1 || b.Node != "B" {
		r.fail("B's lease: %+v after A's %+v", b, a)
	}
	r.is(nodeA.Append(r.ctx, "m1", a.Epoch, 2, rec(2), 20), store.ErrFenced, "A appends after the takeover")
	r.is(nodeA.SaveClock(r.ctx, "m1", a.Epoch, 99), store.ErrFenced, "A saves the clock after the takeover")
	r.is(nodeA.Finish(r.ctx, "m1", a.Epoch, engine.Outcome{}, 99, t0), store.ErrFenced, "A finishes after the takeover")
	_, err = nodeA.Acquire(r.ctx, "m1", "A", time.Minute)
	r.is(err, store.ErrLeased, "A takes m1 back while B holds it")
	if ls, err := nodeA.Renew(r.ctx, "A", time.Minute); err != nil || len(ls) != 0 {
		r.fail("A renews after losing m1: %+v, %v", ls, err)
	}
	log := r.log(nodeB, "m1")
	r.ok(nodeB.Append(r.ctx, "m1", b.Epoch, len(log)+1, rec(2), 20), "B appends")
	if m := r.get(nodeA, "m1"); m.Records != 2 || m.Clock != 0 || m.Status != store.Running || m.Lease.Node != "B" {
		r.fail("after the takeover m1 reads as %+v", m)
	}
}

// Two nodes fight over matches whose leases last a moment, each taking a
// match over whenever it can and appending until it is fenced. Every
// acknowledged record is in the log, in order; no record was acknowledged to
// a node under an epoch that had passed; each epoch's records come from one
// node.
func fencingRace(r *run) {
	const matches, ttl = 2, 40 * time.Millisecond
	nodes := []store.Store{r.store(), r.store()}
	for i := range matches {
		r.running(nodes[0], fmt.Sprint("m", i), t0)
	}
	type ack struct {
		node  string
		epoch store.Epoch
		n     int
	}
	var (
		mu      sync.Mutex
		acked   = map[string][]ack{}
		quit    = map[string]int{} // nodes done fighting for a match
		fenced  int
		wg      sync.WaitGroup
		errc    = make(chan error, 2*matches)
		perNode = 3 // leases each node must win on each match
	)
	for ni, s := range nodes {
		for i := range matches {
			id := fmt.Sprint("m", i)
			// A node renews all its leases at once, so a node that keeps
			// winning one match would keep the others: each match is
			// fought over by a pair of nodes of its own.
			node := fmt.Sprintf("%c%d", 'A'+ni, i)
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer func() {
					mu.Lock()
					quit[id]++
					mu.Unlock()
				}()
				won := 0
				deadline := time.Now().Add(60 * time.Second)
				for won < perNode && time.Now().Before(deadline) {
					l, err := s.Acquire(r.ctx, id, node, ttl)
					if errors.Is(err, store.ErrLeased) {
						time.Sleep(time.Millisecond)
						continue
					}
					if err != nil {
						errc <- fmt.Errorf("%s acquires %s: %v", node, id, err)
						return
					}
					won++
					log, err := s.Log(r.ctx, id)
					if err != nil {
						errc <- err
						return
					}
					// A node pauses between appends, as a match does: a
					// store whose writers take turns (SQLite) lets the
					// other node in.
					for n := len(log) + 1; time.Now().Before(deadline); n++ {
						time.Sleep(time.Millisecond)
						mu.Lock()
						alone := quit[id] > 0
						mu.Unlock()
						if alone {
							break // nobody will take the match over
						}
						body := fmt.Appendf(nil, `{"node":%q,"epoch":%d,"n":%d}`, node, l.Epoch, n)
						err := s.Append(r.ctx, id, l.Epoch, n, body, 0)
						if errors.Is(err, store.ErrFenced) {
							mu.Lock()
							fenced++
							mu.Unlock()
							break
						}
						if err != nil {
							errc <- fmt.Errorf("%s appends %s #%d: %v", node, id, n, err)
							return
						}
						mu.Lock()
						acked[id] = append(acked[id], ack{node, l.Epoch, n})
						mu.Unlock()
					}
				}
				if won < perNode {
					errc <- fmt.Errorf("%s won %d leases on %s in 60 s, want %d", node, won, id, perNode)
				}
			}()
		}
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		r.fail("%v", err)
	}
	for i := range matches {
		id := fmt.Sprint("m", i)
		log := r.log(nodes[1], id)
		stored := make([]ack, len(log))
		for n, b := range log {
			var a ack
			var nd string
			if _, err := fmt.Sscanf(string(b), `{"node":%q,"epoch":%d,"n":%d}`, &nd, &a.epoch, &a.n); err != nil {
				r.fail("%s #%d: %q: %v", id, n+1, b, err)
			}
			a.node = nd
			stored[n] = a
			if a.n != n+1 {
				r.fail("%s: record %d says it is #%d", id, n+1, a.n)
			}
			if n > 0 {
				prev := stored[n-1]
				if a.epoch < prev.epoch {
					r.fail("%s: record %d is under epoch %d, after one under %d", id, n+1, a.epoch, prev.epoch)
				}
				if a.epoch == prev.epoch && a.node != prev.node {
					r.fail("%s: nodes %s and %s both appended under epoch %d", id, prev.node, a.node, a.epoch)
				}
			}
		}
		for _, a := range acked[id] {
			if a.n > len(stored) || stored[a.n-1] != a {
				r.fail("%s: record %d acknowledged to %s under epoch %d is not in the log", id, a.n, a.node, a.epoch)
			}
		}
		if len(acked[id]) != len(stored) {
			r.fail("%s: %d records acknowledged, %d stored", id, len(acked[id]), len(stored))
		}
	}
	if fenced == 0 {
		r.fail("no append was fenced: the nodes never competed")
	}
}

// Many matches appending at once share transactions, and every write lands.
func groupCommit(r *run) {
	s := r.store()
	const matches, records = 40, 25
	for i := range matches {
		r.running(s, fmt.Sprint("m", i), t0)
	}
	r.mu.Lock()
	r.commits.writes, r.commits.transactions = 0, 0
	r.mu.Unlock()
	var wg sync.WaitGroup
	errc := make(chan error, matches)
	for i := range matches {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for n := 1; n <= records; n++ {
				if err := s.Append(r.ctx, fmt.Sprint("m", i), 0, n, rec(n), 0); err != nil {
					errc <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		r.fail("append: %v", err)
	}
	for i := range matches {
		if log := r.log(s, fmt.Sprint("m", i)); len(log) != records {
			r.fail("match %d has %d records", i, len(log))
		}
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.commits.writes != matches*records {
		r.fail("%d writes counted, want %d", r.commits.writes, matches*records)
	}
	if r.commits.transactions >= r.commits.writes {
		r.fail("no write shared a transaction (%d writes, %d transactions)", r.commits.writes, r.commits.transactions)
	}
}

// Close waits for the writes under way; every write acknowledged before is
// there when the store opens again, and later writes are refused.
func closeKeepsAcknowledged(r *run) {
	s := r.store()
	r.running(s, "m", t0)
	acked := make(chan int, 1)
	var failed error
	var closed atomic.Bool
	go func() {
		n := 0
		defer func() { acked <- n }()
		for !closed.Load() { // a store that never says it is closed stops too
			if err := s.Append(r.ctx, "m", 0, n+1, rec(n+1), 0); err != nil {
				if !errors.Is(err, store.ErrClosed) {
					failed = err
				}
				return
			}
			n++
		}
	}()
	r.eventually("a few appends", func() bool {
		m, err := s.Get(r.ctx, "m")
		return err == nil && m.Records >= 5
	})
	r.ok(s.Close(), "close")
	closed.Store(true)
	n := <-acked
	r.ok(failed, "append while closing")
	r.is(s.Append(r.ctx, "m", 0, n+1, rec(n+1), 0), store.ErrClosed, "append after close")
	r.ok(s.Close(), "close twice")
	if log := r.log(r.store(), "m"); len(log) != n {
		r.fail("%d appends acknowledged, %d stored", n, len(log))
	}
}

// A store that writes says so; a closed one does not.
func check(r *run) {
	s := r.store()
	r.ok(s.Check(r.ctx), "check a new store")
	r.running(s, "m", t0)
	r.ok(s.Check(r.ctx), "check after a write")
	s.Close()
	if err := s.Check(r.ctx); err == nil {
		r.fail("a closed store passed its check")
	}
}
