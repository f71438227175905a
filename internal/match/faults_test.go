package match_test

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"sortie/engine"
	"sortie/internal/match"
	"sortie/internal/match/matchtest"
	"sortie/internal/store"
	"sortie/internal/store/pgtest"
	"sortie/internal/store/storetest"
)

// The scenarios here make the store fail for real — its SQLite files made
// immutable (chattr +i) as a sick disk would, or PostgreSQL stopped — at the
// moment a match writes, and check what every audience sees meanwhile and
// after: never a state that is not stored, and the match going on by itself
// once the store writes again.

// sick is a real SQLite store whose files become immutable the moment a
// named write (a method of store.Store) begins.
type sick struct {
	*store.SQLite
	t        *testing.T
	mu       sync.Mutex
	at       string         // the write that makes the files immutable, "" for none
	writable func()         // makes them writable again
	tries    map[string]int // writes tried while the files were immutable, by method
}

func newSick(t *testing.T) *sick {
	t.Helper()
	st, err := store.OpenSQLite(filepath.Join(t.TempDir(), "sortie.db"), store.SQLiteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	// Skip at once where files cannot be made immutable (not from the
	// match's run later).
	storetest.Immutable(t, st.Path())()
	return &sick{SQLite: st, t: t, tries: map[string]int{}}
}

// failAt makes the files immutable when write method begins next.
func (s *sick) failAt(method string) {
	s.mu.Lock()
	s.at = method
	s.mu.Unlock()
}

// heal makes the files writable again.
func (s *sick) heal() {
	s.mu.Lock()
	w := s.writable
	s.writable = nil
	s.mu.Unlock()
	if w != nil {
		w()
	}
}

func (s *sick) tried(method string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tries[method]
}

func (s *sick) before(method string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.at == method {
		s.writable, s.at = storetest.Immutable(s.t, s.Path()), ""
	}
	if s.writable != nil {
		s.tries[method]++
	}
}

func (s *sick) Append(ctx context.Context, id string, e store.Epoch, n int, rec []byte, at engine.Millis) error {
	s.before("Append")
	return s.SQLite.Append(ctx, id, e, n, rec, at)
}

func (s *sick) AppendChat(ctx context.Context, id string, e store.Epoch, n int, line []byte) error {
	s.before("AppendChat")
	return s.SQLite.AppendChat(ctx, id, e, n, line)
}

func (s *sick) SetSeat(ctx context.Context, id string, e store.Epoch, i int, st store.Seat) error {
	s.before("SetSeat")
	return s.SQLite.SetSeat(ctx, id, e, i, st)
}

func (s *sick) Start(ctx context.Context, id string, e store.Epoch, at time.Time) error {
	s.before("Start")
	return s.SQLite.Start(ctx, id, e, at)
}

func (s *sick) Finish(ctx context.Context, id string, e store.Epoch, o engine.Outcome, clock engine.Millis, at time.Time) error {
	s.before("Finish")
	return s.SQLite.Finish(ctx, id, e, o, clock, at)
}

func (s *sick) SaveClock(ctx context.Context, id string, e store.Epoch, clock engine.Millis) error {
	s.before("SaveClock")
	return s.SQLite.SaveClock(ctx, id, e, clock)
}

func (s *sick) End(ctx context.Context, id string, e store.Epoch, st store.Status, reason string, clock engine.Millis, at time.Time) error {
	s.before("End")
	return s.SQLite.End(ctx, id, e, st, reason, clock, at)
}

// faulty is a match on a store that fails, with its audiences connected.
type faulty struct {
	t      *testing.T
	m      *match.Manager
	st     store.Store
	x      *match.Match
	tokens []string
	logs   *matchtest.Logs
	watch  map[engine.Seat]*match.Watch // every seat's and the spectators'
}

func newFaulty(t *testing.T, st store.Store, cfg match.Config, req match.CreateRequest, start bool) *faulty {
	t.Helper()
	ctx := context.Background()
	f := &faulty{t: t, st: st, logs: &matchtest.Logs{}, watch: map[engine.Seat]*match.Watch{}}
	cfg.Store, cfg.Games, cfg.Logger = st, matchtest.Games(), f.logs.Logger()
	if cfg.ClockSpeed == 0 {
		cfg.ClockSpeed = 50
	}
	f.m = match.NewManager(cfg)
	t.Cleanup(func() { f.m.Shutdown(context.Background()) })
	c, err := f.m.Create(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	f.tokens = c.Tokens
	if f.x, err = f.m.Get(ctx, c.Match.ID); err != nil {
		t.Fatal(err)
	}
	for s := range f.x.Players() {
		if req.Seats == nil || req.Seats[s].Kind != match.Bot {
			f.watchAs(engine.Seat(s))
		}
	}
	f.watchAs(engine.Spectator)
	if start {
		if _, err := f.x.Start(ctx); err != nil {
			t.Fatal(err)
		}
	}
	return f
}

func (f *faulty) watchAs(s engine.Seat) {
	w, err := f.x.Watch(context.Background(), s)
	if err != nil {
		f.t.Fatal(err)
	}
	f.watch[s] = w
	f.t.Cleanup(func() { f.x.Unwatch(w) })
}

// received returns the messages audience s got since the last call.
func (f *faulty) received(s engine.Seat) []match.Message {
	var out []match.Message
	for _, b := range f.watch[s].Sub.Take(nil) {
		var m match.Message
		if err := json.Unmarshal(b.Data, &m); err != nil {
			f.t.Fatalf("%s got %s", s, b.Data)
		}
		out = append(out, m)
	}
	return out
}

// stored returns the match as the store holds it, with its log and talk.
func (f *faulty) stored() (*store.Match, [][]byte, [][]byte) {
	f.t.Helper()
	ctx := context.Background()
	rec, err := f.st.Get(ctx, f.x.ID())
	if err != nil {
		f.t.Fatal(err)
	}
	log, err := f.st.Log(ctx, f.x.ID())
	if err != nil {
		f.t.Fatal(err)
	}
	talk, err := f.st.Chat(ctx, f.x.ID())
	if err != nil {
		f.t.Fatal(err)
	}
	return rec, log, talk
}

// showsOnlyWhatIsStored checks every audience's snapshot against the store
// read after it: the state it shows is one the stored log replays to (asked
// of the manager's views at a step, which replay the store), its history
// holds no record and no line the store does not, its summary no seat or
// status either.
func (f *faulty) showsOnlyWhatIsStored(when string) {
	f.t.Helper()
	ctx := context.Background()
	snaps := map[engine.Seat]match.Message{}
	for s := range f.watch {
		snaps[s] = snapshot(f.t, f.x, s)
	}
	sum, err := f.x.Summary(ctx)
	if err != nil {
		f.t.Fatal(err)
	}
	rec, log, talk := f.stored()
	for s, snap := range snaps {
		if snap.Seq > uint64(len(log)) {
			f.t.Fatalf("%s: %s is shown state %d; the store holds %d records", when, s, snap.Seq, len(log))
		}
		token := ""
		if s >= 0 {
			token = f.tokens[s]
		}
		v, err := f.m.View(ctx, f.x.ID(), s, int(snap.Seq), token, "")
		if err != nil {
			f.t.Fatal(err)
		}
		if !bytes.Equal(snap.View, v.View) {
			f.t.Fatalf("%s: %s is shown a view the stored log does not replay to:\n shown %s\nstored %s", when, s, snap.View, v.View)
		}
		for _, h := range snap.History {
			var e struct {
				Type string `json:"type"`
				Seq  uint64 `json:"seq"`
				N    int    `json:"n"`
			}
			json.Unmarshal(h, &e)
			if e.Seq > uint64(len(log)) || e.N > len(talk) {
				f.t.Fatalf("%s: %s's history holds what is not stored: %s", when, s, h)
			}
		}
		if !statusFits(snap.Status, rec.Status) {
			f.t.Fatalf("%s: %s is shown status %s; the store holds %s", when, s, snap.Status, rec.Status)
		}
	}
	if sum.Seq > uint64(len(log)) || !statusFits(sum.Status, rec.Status) {
		f.t.Fatalf("%s: the summary says %d records, %s; the store holds %d, %s", when, sum.Seq, sum.Status, len(log), rec.Status)
	}
	for i, st := range sum.Seats {
		if st.Joined && !rec.Seats[i].Joined || st.Left != rec.Seats[i].Left {
			f.t.Fatalf("%s: seat %d is shown %+v; the store holds %+v", when, i, st, rec.Seats[i])
		}
	}
}

// statusFits reports whether a status shown may precede the one stored
// after it: the same, or an earlier one; finished is shown as soon as the
// stored log ends the game, before the store holds the outcome.
func statusFits(shown, stored store.Status) bool {
	rank := func(s store.Status) int {
		switch s {
		case store.Open:
			return 0
		case store.Running:
			return 1
		}
		return 2
	}
	return shown == stored || rank(shown) < rank(stored) || shown == store.Finished && stored == store.Running
}

// waitFor polls cond for up to 30 s.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// stalls waits until the match waits for its store and has tried its
// write again a few times, checking meanwhile that nobody sees anything
// unsaved.
func (f *faulty) stalls(s *sick, method string) {
	f.t.Helper()
	waitFor(f.t, "the match to wait for its store", func() bool { return f.m.Waiting() == 1 })
	f.showsOnlyWhatIsStored("while the store cannot write")
	waitFor(f.t, "a few tries of the write", func() bool { return s.tried(method) >= 4 })
	f.showsOnlyWhatIsStored("after a few tries")
}

// recovers heals the store and checks that the match goes on by itself,
// with one line in the logs for the whole incident.
func (f *faulty) recovers(s *sick) {
	f.t.Helper()
	s.heal()
	waitFor(f.t, "the match to go on", func() bool { return f.m.Waiting() == 0 })
	f.showsOnlyWhatIsStored("once the store writes again")
	if errs := f.logs.Lines("ERROR", ""); len(errs) != 1 || !strings.Contains(errs[0], "the store cannot save") {
		f.t.Fatalf("the incident logged %d errors, want one:\n%s", len(errs), strings.Join(errs, "\n"))
	}
	if ok := f.logs.Lines("INFO", ""); !strings.Contains(strings.Join(ok, "\n"), "no match waits for the store") {
		f.t.Fatal("the end of the incident was not logged")
	}
}

func code(err error) string {
	if err == nil {
		return ""
	}
	return match.AsError(err).Code
}

func twoHumans() match.CreateRequest {
	return match.CreateRequest{Game: "testcards", Players: 2, Options: map[string]string{"hand": "4"}}
}

// An action whose record the store cannot take is kept: its player is told
// so, nobody sees it, the match takes nothing else, and it is played (and
// acknowledged) by itself once the store writes again. (Issue 19, finding 6:
// the spectators were shown a move that was never saved.)
func TestAnUnsavedActionIsNeverShown(t *testing.T) {
	s := newSick(t)
	f := newFaulty(t, s, match.Config{}, twoHumans(), true)
	ctx := context.Background()
	before := snapshot(t, f.x, 0)
	for s := range f.watch {
		f.received(s)
	}
	s.failAt("Append")
	if err := f.x.Act(ctx, 0, before.Seq, before.Legal[0]); code(err) != match.CodePending {
		t.Fatalf("an action the store cannot take: %v", err)
	}
	f.stalls(s, "Append")
	if err := f.x.Act(ctx, 0, before.Seq, before.Legal[0]); code(err) != match.CodeUnavailable {
		t.Fatalf("an action while the match waits: %v", err)
	}
	if err := f.x.Chat(ctx, 1, "hello?", false); code(err) != match.CodeUnavailable {
		t.Fatalf("a line while the match waits: %v", err)
	}
	for s := range f.watch {
		for _, m := range f.received(s) {
			if m.Type == match.TypeUpdate || m.Type == match.TypeState {
				t.Fatalf("%s was told of a change while the store could not write: %+v", s, m)
			}
		}
	}
	f.recovers(s)
	if got := snapshot(t, f.x, 0); got.Seq != before.Seq+1 {
		t.Fatalf("the kept action was not played: seq %d", got.Seq)
	}
	acked := false
	for _, m := range f.received(0) {
		acked = acked || m.Type == match.TypeUpdate && m.Ack != nil && *m.Ack == before.Seq
	}
	if !acked {
		t.Fatal("the player of the kept action was never acknowledged")
	}
	if ms := f.received(engine.Spectator); len(ms) == 0 || ms[len(ms)-1].Seq != before.Seq+1 {
		t.Fatalf("the spectators were not told of the action once stored: %+v", ms)
	}
	// The match goes on.
	next := snapshot(t, f.x, 1)
	if len(next.Legal) > 0 {
		if err := f.x.Act(ctx, 1, next.Seq, next.Legal[0]); err != nil {
			t.Fatalf("the next action: %v", err)
		}
	}
}

// In real time, what the clock fires is a record too: when the store cannot
// take it, nobody sees what fired, the match clock waits, and once the
// store writes again the match goes on from where its clock waited.
func TestTimeWaitsForTheStore(t *testing.T) {
	for _, method := range []string{"Append", "SaveClock"} {
		t.Run(method, func(t *testing.T) {
			s := newSick(t)
			const speed = 5
			f := newFaulty(t, s, match.Config{ClockSpeed: speed}, match.CreateRequest{Game: "testrace", Players: 1,
				Options: map[string]string{"seconds": "600", "goal": "100"}, TakeoverAfterMs: new(int64(0))}, true)
			waitFor(t, "a first bell", func() bool { return snapshot(t, f.x, 0).Seq >= 1 })
			s.failAt(method)
			f.stalls(s, method)
			frozen := snapshot(t, f.x, engine.Spectator).Clock
			time.Sleep(300 * time.Millisecond)
			if c := snapshot(t, f.x, engine.Spectator).Clock; c != frozen {
				t.Fatalf("the clock ran from %d to %d while the match waited for its store", frozen, c)
			}
			healed := time.Now()
			f.recovers(s)
			seq := snapshot(t, f.x, 0).Seq
			waitFor(t, "the bells to ring again", func() bool { return snapshot(t, f.x, 0).Seq > seq+1 })
			ran := time.Since(healed)
			if c := snapshot(t, f.x, engine.Spectator).Clock; c > frozen+engine.Millis(ran.Milliseconds()*speed)+2000 {
				t.Fatalf("the clock jumped from %d to %d in %v: it ran while the match waited", frozen, c, ran)
			}
			f.showsOnlyWhatIsStored("after the bells rang again")
		})
	}
}

// A line of talk the store cannot take is kept and said once stored; so are
// a join, a start, an outcome and an end: nobody is told any before the
// store holds it.
func TestEveryWriteWaitsForTheStore(t *testing.T) {
	ctx := context.Background()
	t.Run("a line of talk", func(t *testing.T) {
		s := newSick(t)
		f := newFaulty(t, s, match.Config{}, twoHumans(), true)
		f.received(engine.Spectator)
		s.failAt("AppendChat")
		if err := f.x.Chat(ctx, 0, "anyone there?", false); code(err) != match.CodePending {
			t.Fatalf("a line the store cannot take: %v", err)
		}
		f.stalls(s, "AppendChat")
		for _, m := range f.received(engine.Spectator) {
			if m.Type == match.TypeChat {
				t.Fatalf("the spectators heard a line that was not stored: %+v", m)
			}
		}
		f.recovers(s)
		if ms := f.received(engine.Spectator); len(ms) != 1 || ms[0].Type != match.TypeChat || ms[0].Text != "anyone there?" {
			t.Fatalf("the spectators were told %+v once the line was stored", ms)
		}
	})
	t.Run("a join", func(t *testing.T) {
		s := newSick(t)
		f := newFaulty(t, s, match.Config{}, twoHumans(), false)
		s.failAt("SetSeat")
		if _, err := f.x.Join(ctx, 0, match.Joiner{Name: "Ana"}); code(err) != match.CodePending {
			t.Fatalf("a join the store cannot take: %v", err)
		}
		f.stalls(s, "SetSeat")
		f.recovers(s)
		if sum, _ := f.x.Summary(ctx); !sum.Seats[0].Joined || sum.Seats[0].Name != "Ana" {
			t.Fatalf("the kept join: %+v", sum.Seats[0])
		}
	})
	t.Run("the start", func(t *testing.T) {
		s := newSick(t)
		f := newFaulty(t, s, match.Config{}, twoHumans(), false)
		s.failAt("Start")
		if _, err := f.x.Start(ctx); code(err) != match.CodePending {
			t.Fatalf("a start the store cannot take: %v", err)
		}
		f.stalls(s, "Start")
		f.recovers(s)
		if sum, _ := f.x.Summary(ctx); sum.Status != store.Running {
			t.Fatalf("the kept start: %s", sum.Status)
		}
	})
	t.Run("an end", func(t *testing.T) {
		s := newSick(t)
		s.failAt("End")
		f := newFaulty(t, s, match.Config{ExpireOpen: 300 * time.Millisecond}, twoHumans(), false)
		f.stalls(s, "End")
		f.recovers(s)
		if sum, _ := f.x.Summary(ctx); sum.Status != store.Expired || sum.Reason == nil || sum.Reason.Code != match.ReasonNotStarted {
			t.Fatalf("the kept expiry: %s %+v", sum.Status, sum.Reason)
		}
	})
	t.Run("an outcome", func(t *testing.T) {
		// The last record is stored and shown; the outcome follows from
		// it, and the match keeps it until the store has it too.
		s := newSick(t)
		s.failAt("Finish")
		f := newFaulty(t, s, match.Config{Linger: time.Millisecond},
			match.CreateRequest{Game: "testcards", Seats: []match.SeatRequest{{Kind: match.Bot}, {Kind: match.Bot}}, AutoStart: true}, false)
		waitFor(t, "the match to wait for its store", func() bool { return f.m.Waiting() == 1 })
		waitFor(t, "a few tries of the write", func() bool { return s.tried("Finish") >= 4 })
		if f.m.Live() != 1 {
			t.Fatal("a match left memory before its outcome was stored")
		}
		if rec, _, _ := f.stored(); rec.Status != store.Running {
			t.Fatalf("the store holds %s", rec.Status)
		}
		f.recovers(s)
		if rec, _, _ := f.stored(); rec.Status != store.Finished || rec.Outcome == nil {
			t.Fatalf("once healed the store holds %s %+v", rec.Status, rec.Outcome)
		}
	})
}

// Bots play nothing while their match waits for its store, and play on to
// the end once it writes again: every record acknowledged is in the log.
func TestBotsWaitForTheStore(t *testing.T) {
	s := newSick(t)
	f := newFaulty(t, s, match.Config{},
		match.CreateRequest{Game: "testcards", Seats: []match.SeatRequest{{Kind: match.Bot}, {Kind: match.Bot}},
			Options: map[string]string{"hand": "4"}, BotDelayMs: 20}, false)
	s.failAt("Append")
	if _, err := f.x.Start(context.Background()); err != nil {
		t.Fatal(err)
	}
	f.stalls(s, "Append")
	f.recovers(s)
	waitFor(t, "the end of the match", func() bool { return snapshot(t, f.x, engine.Spectator).Status == store.Finished })
	f.showsOnlyWhatIsStored("at the end")
}

// PostgreSQL stops under a match and starts again: the action that could
// not be stored is kept, nobody sees it, and the match goes on by itself
// once PostgreSQL is back.
func TestPostgresStopsUnderAMatch(t *testing.T) {
	srv := pgtest.Own(t)
	if !srv.Throwaway() {
		t.Skip("SORTIE_TEST_POSTGRES names a server the tests may not stop")
	}
	ctx := context.Background()
	u, err := srv.Database(ctx)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.OpenPostgres(ctx, u, store.PostgresOptions{Timeout: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	f := newFaulty(t, st, match.Config{}, twoHumans(), true)
	before := snapshot(t, f.x, 0)
	f.received(engine.Spectator)
	srv.Kill()
	if err := f.x.Act(ctx, 0, before.Seq, before.Legal[0]); code(err) != match.CodePending {
		t.Fatalf("an action with PostgreSQL down: %v", err)
	}
	waitFor(t, "the match to wait for its store", func() bool { return f.m.Waiting() == 1 })
	time.Sleep(500 * time.Millisecond) // a few tries
	for s := range f.watch {
		if got := snapshot(t, f.x, s); got.Seq != before.Seq {
			t.Fatalf("%s is shown state %d while PostgreSQL is down, with %d stored", s, got.Seq, before.Seq)
		}
		for _, m := range f.received(s) {
			if m.Type == match.TypeUpdate {
				t.Fatalf("%s was told of an action PostgreSQL never stored: %+v", s, m)
			}
		}
	}
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the match to go on", func() bool { return f.m.Waiting() == 0 })
	f.showsOnlyWhatIsStored("once PostgreSQL is back")
	if got := snapshot(t, f.x, 0); got.Seq != before.Seq+1 {
		t.Fatalf("the kept action was not played: seq %d", got.Seq)
	}
	if errs := f.logs.Lines("ERROR", ""); len(errs) != 1 {
		t.Fatalf("PostgreSQL's stop logged %d errors, want one:\n%s", len(errs), strings.Join(errs, "\n"))
	}
}

// While the store cannot be read, a state message still carries the
// history this node holds of the match (the log it read or stored), and
// where it holds none, the loss is logged once for the whole incident, not
// once a message. (Issue 29, finding 7: every GET …/state logged a warning
// and lost its history.)
func TestHistoryWhileTheStoreCannotBeRead(t *testing.T) {
	srv := pgtest.Own(t)
	if !srv.Throwaway() {
		t.Skip("SORTIE_TEST_POSTGRES names a server the tests may not stop")
	}
	ctx := context.Background()
	u, err := srv.Database(ctx)
	if err != nil {
		t.Fatal(err)
	}
	st, err := store.OpenPostgres(ctx, u, store.PostgresOptions{Timeout: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	held := newFaulty(t, st, match.Config{}, twoHumans(), true)
	bare := newFaulty(t, st, match.Config{LogCache: -1}, twoHumans(), true)
	for _, f := range []*faulty{held, bare} {
		for range 3 {
			s := snapshot(t, f.x, 0)
			seat := engine.Seat(0)
			if len(s.Legal) == 0 {
				s, seat = snapshot(t, f.x, 1), 1
			}
			if err := f.x.Act(ctx, seat, s.Seq, s.Legal[0]); err != nil {
				t.Fatal(err)
			}
		}
	}
	want := len(snapshot(t, held.x, 0).History)
	if want < 3 {
		t.Fatalf("the history before the fault holds %d entries", want)
	}
	srv.Kill()
	for range 3 {
		if got := len(snapshot(t, held.x, 0).History); got != want {
			t.Fatalf("with the store down, the history holds %d entries, not the %d the node holds", got, want)
		}
		if got := snapshot(t, bare.x, 0).History; len(got) != 0 {
			t.Fatalf("a node that holds no log showed a history of %d entries", len(got))
		}
	}
	if lines := held.logs.Lines("WARN", "history"); len(lines) != 0 {
		t.Fatalf("a history the node held was said lost:\n%s", strings.Join(lines, "\n"))
	}
	if lines := bare.logs.Lines("WARN", "history"); len(lines) != 1 {
		t.Fatalf("three histories lost in one incident logged %d warnings:\n%s", len(lines), strings.Join(lines, "\n"))
	}
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the history to come back", func() bool { return len(snapshot(t, bare.x, 0).History) == want })
}
