// When the store cannot write: every write of a match goes through save,
// which carries out what the write changes in memory, and tells anyone,
// only once the write is stored. A write the store refuses for a passing
// reason (unavailable: a full or read-only disk, PostgreSQL down) is kept
// and tried again, with growing pauses, until it lands; meanwhile the match
// stalls: it shows what is stored and nothing more, takes nothing new, its
// bots wait and its clock waits. When the write lands, the match goes on
// by itself from there. The server logs one line when its store stops
// saving and one when it saves again, whatever the number of matches and
// tries in between.

package match

import (
	"context"
	"errors"
	"math/rand/v2"
	"sync"
	"time"

	"sortie/engine"
	"sortie/internal/store"
)

// CodePending answers an action or a line of talk that the server could not
// save yet: it is kept, and played (or said) as soon as the server can
// save; the match waits until then.
const CodePending = "pending"

// stall is a write of the match that did not land yet, and what waits for it.
type stall struct {
	what   string                          // what waits, for the logs
	write  func(ctx context.Context) error // tried again until it lands; safe to repeat
	landed func()                          // what follows once it landed, in the match's run
	since  time.Time
	clock  engine.Millis // the match clock waits here meanwhile
	tries  int
	due    time.Time // when to try again
	trying bool      // a try is under way, off the match's run
	store  bool      // the store failed (a fault the manager counts), not the match
}

// errPending is what save returns for a write that did not land yet: the
// caller tells its client in its own words (see pending).
var errPending = errors.New("match: the write waits for the store")

// Backoff of the tries of a stalled write: the first after 100 ms, each pause
// twice the one before, at most 5 s, each a little shorter or longer at
// random so that matches stalled together do not try together.
const (
	firstRetry = 100 * time.Millisecond
	maxRetry   = 5 * time.Second
)

func retryAfter(tries int) time.Duration {
	d := maxRetry
	if tries < 10 {
		d = min(maxRetry, firstRetry<<tries)
	}
	return time.Duration(float64(d) * (0.8 + 0.4*rand.Float64()))
}

// transient reports whether a write that failed with err may land if tried
// again: anything but the store's own refusals of the write.
func transient(err error) bool {
	var u *unreplayable
	if errors.As(err, &u) {
		return false
	}
	for _, r := range []error{store.ErrConflict, store.ErrFenced, store.ErrNotFound, store.ErrLeased, store.ErrClosed} {
		if errors.Is(err, r) {
			return false
		}
	}
	return err != nil
}

// save writes to the store, then runs landed (what the write changes in
// memory, and what everyone is told). A write that fails for a passing
// reason stalls the match and returns errPending: landed runs when it lands.
// A refusal of the write itself (see refusedWrite) is returned as it is,
// with nothing done. While the match is stalled, save writes nothing and
// returns stalledErr.
func (x *Match) save(what string, write func(ctx context.Context) error, landed func()) error {
	if x.stall != nil {
		return stalledErr
	}
	err := write(context.Background())
	switch {
	case err == nil:
		landed()
		return nil
	case transient(err):
		x.stallOn(&stall{what: what, write: write, landed: landed, store: true}, err, time.Now())
		return errPending
	}
	return err
}

// stallOn makes the match wait for s, tried again after a pause.
func (x *Match) stallOn(s *stall, err error, now time.Time) {
	s.since, s.clock, s.due = now, x.clock(now), now.Add(retryAfter(0))
	x.stall = s
	if s.store {
		x.mgr.faults.began(x, s.what, err)
	}
}

// stalledErr refuses what a stalled match cannot take.
var stalledErr = refuse(CodeUnavailable, "The server cannot save anything right now: the match waits, and goes on by itself as soon as it can. Nothing was changed.")

// pending turns errPending into what the client is told, about what (its
// "action", its "line"…); other errors pass.
func pending(err error, what string) error {
	if err != errPending {
		return err
	}
	return refuse(CodePending, "The server cannot save your %s right now. It is kept, and goes through as soon as the server can save again; the match waits until then.", what)
}

// retry tries the stalled write again, off the match's run, if it is
// due; the answer comes back through the inbox (see tried).
func (x *Match) retry(now time.Time) {
	s := x.stall
	if s == nil || s.trying || now.Before(s.due) {
		return
	}
	s.trying = true
	go func() {
		err := s.write(context.Background())
		x.post(func() { x.tried(s, err) })
	}()
}

// tried takes the answer of a try of stalled write s.
func (x *Match) tried(s *stall, err error) {
	if x.stall != s {
		return
	}
	s.trying = false
	now := time.Now()
	switch {
	case err == nil:
		x.stall = nil
		// The clock goes on from where it waited.
		x.clockBase, x.clockWall = s.clock, now
		if s.store {
			x.mgr.faults.ended(x, s, true)
		}
		x.log.Debug("a write that waited landed", "what", s.what, "tries", s.tries+1, "waited", now.Sub(s.since))
		s.landed()
	case transient(err):
		s.tries++
		s.due = now.Add(retryAfter(s.tries))
	default:
		x.stall = nil
		x.clockBase, x.clockWall = s.clock, now
		if s.store {
			x.mgr.faults.ended(x, s, false)
		}
		_ = x.refusedWrite(s.what, err)
	}
}

// refusedWrite handles a write the store refused for good — a conflict
// with what it holds, a match it no longer holds, a lease that passed to
// another epoch — and returns what the client is told. Nothing of the write
// was done; the match reads what the store holds again (see resync).
func (x *Match) refusedWrite(what string, err error) error {
	var u *unreplayable
	switch {
	case errors.As(err, &u):
		x.fail(u, time.Now())
		return refuse(CodeMatchFailed, "This match cannot go on: %s", u.reason().Message)
	case x.lost(err):
		// Another node runs the match now: it stops here (see lease.go).
		return errMoved
	case errors.Is(err, store.ErrClosed):
		return refuse(CodeUnavailable, "The server is stopping.")
	case errors.Is(err, store.ErrNotFound):
		x.log.Error("the match is gone from the store", "what", what, "err", err)
	default:
		x.log.Error("the store refused a write of the match; it reads the match again", "what", what, "err", err)
		x.resync()
	}
	return refuse(CodeUnavailable, "The server could not save this; nothing was changed. Try again.")
}

// resync reads the match again from the store — its seats, status, log and
// talk — and carries on from what the store holds, after the store refused
// a write that should have fitted (it holds another log than the match
// does). Meanwhile the match stalls; if the log read back no longer
// replays, the match fails.
func (x *Match) resync() {
	m, id, g, setup := x.mgr, x.id, x.game, x.setup
	var (
		rec     *store.Match
		state   engine.State
		lastAt  engine.Millis
		talk    [][]byte
		records [][]byte
	)
	read := func(ctx context.Context) error {
		r, err := m.store.Get(ctx, id)
		if err != nil {
			return err
		}
		if r.Damaged != "" {
			return &unreplayable{err: errors.New(r.Damaged)}
		}
		log, err := m.store.Log(ctx, id)
		if err == nil {
			talk, err = m.store.Chat(ctx, id)
		}
		if err != nil {
			return err
		}
		m.logs.putLog(id, log)
		m.logs.putChat(id, talk)
		s, at, n, err := replayAll(g, setup, log, nil)
		if err != nil {
			return &unreplayable{record: n + 1, err: err}
		}
		rec, state, lastAt, records = r, s, at, log
		rec.Records = len(log)
		return nil
	}
	adopt := func() {
		rec.Lease = x.rec.Lease
		x.rec, x.state, x.lastAt, x.seq, x.chatN = rec, state, lastAt, uint64(rec.Records), len(talk)
		for _, st := range x.seats {
			// Bots that remember catch up again; an answer still being
			// thought out is dropped when it arrives.
			st.pending, st.bot, st.thinking, st.missed, st.memo = nil, nil, 0, nil, nil
		}
		x.specMemo = nil
		if x.set.Correspondence && x.rec.Status == store.Running {
			// Its turns and days off are those of the log read back.
			_, _, _, _ = replayAll(g, setup, records, x.turnsOf())
			x.state, x.lastAt = state, lastAt
			x.replayed()
		}
		x.trackActors(engine.Spectator)
		x.publishState(time.Now())
	}
	x.stallOn(&stall{what: "the match read again", write: read, landed: adopt}, nil, time.Now())
}

// leave tells the manager that a match stops while it waits for a write
// (the server stops, or the match leaves memory).
func (x *Match) leaveStalled() {
	if s := x.stall; s != nil && s.store {
		x.mgr.faults.ended(x, s, false)
	}
	x.stall = nil
}

// faults counts the matches waiting for the store, so that the server logs
// one line when its store stops saving and one when it saves again.
type faults struct {
	mu      sync.Mutex
	waiting int       // matches waiting now
	since   time.Time // when the first of them began to wait
	matches int       // matches that waited since then
	resumed int       // and went on
}

func (f *faults) began(x *Match, what string, err error) {
	f.mu.Lock()
	first := f.waiting == 0
	if first {
		f.since, f.matches, f.resumed = time.Now(), 0, 0
	}
	f.waiting++
	f.matches++
	f.mu.Unlock()
	if first {
		x.mgr.log.Error("the store cannot save: matches wait, and try again until it can", "match", x.id, "what", what, "err", err)
	} else {
		x.log.Debug("the match waits for the store", "what", what, "err", err)
	}
}

func (f *faults) ended(x *Match, s *stall, resumed bool) {
	f.mu.Lock()
	f.waiting--
	if resumed {
		f.resumed++
	}
	last := f.waiting == 0
	since, matches, went := f.since, f.matches, f.resumed
	f.mu.Unlock()
	if last {
		x.mgr.log.Info("no match waits for the store any more", "waited", time.Since(since).Round(time.Millisecond),
			"matches", matches, "went_on", went)
	}
}

// Waiting returns how many matches wait for the store to save.
func (m *Manager) Waiting() int {
	m.faults.mu.Lock()
	defer m.faults.mu.Unlock()
	return m.faults.waiting
}
