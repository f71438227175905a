// Ends without an outcome: a match nobody started in time expires, one
// that ran for long with nobody connected is abandoned (its bots stop), one
// whose stored log no longer replays fails (once, with one line in the
// logs), and a host may close a match that never started or that failed.
// Each is stored with its reason before anyone is told; the lobby and the
// API show both. Matches over are pruned after the retention a server is
// given, if any.

package match

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"sortie/engine"
	"sortie/internal/store"
)

// Reason says why a match ended without an outcome: a stable code, an
// English sentence, and what the sentence names, for clients that say it in
// their own words (as refusals do).
type Reason struct {
	Code    string         `json:"code"`
	Message string         `json:"message"`
	Params  map[string]any `json:"params,omitempty"`
}

// Codes of the reasons.
const (
	// ReasonNotStarted: an open match nobody started within after_ms.
	ReasonNotStarted = "not_started"
	// ReasonNobodyThere: a running match no player was connected to for
	// after_ms.
	ReasonNobodyThere = "nobody_connected"
	// ReasonBadLog: record (params.record) of the match's log no longer
	// replays (it was edited, or the game changed).
	ReasonBadLog = "log_unreadable"
	// ReasonBadSetup: the match's stored setup no longer fits its game.
	ReasonBadSetup = "setup_unreadable"
	// ReasonHostClosed: its host closed it (params.was: "open" or
	// "failed").
	ReasonHostClosed = "closed_by_host"
	// ReasonTutorialOver: a tutorial its learner was done with, left
	// (abandoned) at their page's request.
	ReasonTutorialOver = "tutorial_over"
	// ReasonNobodyJoined: an open match nobody but its creator joined
	// within after_ms.
	ReasonNobodyJoined = "nobody_joined"
	// ReasonNoRoom: an open match nobody but its creator joined, ended
	// to make room for new ones when the server was nearly full.
	ReasonNoRoom = "no_room"
)

// Refusal codes of what cannot be done with a match that ended without an
// outcome.
const (
	// CodeMatchFailed: the match cannot go on, nor be shown: its stored log
	// or setup no longer replays. Its host may close it.
	CodeMatchFailed = "match_failed"
	// CodeMatchClosed: its host closed the match.
	CodeMatchClosed = "match_closed"
)

// Defaults of the ends (see Config).
const (
	defaultExpireOpen   = 24 * time.Hour
	defaultExpireLonely = time.Hour
	defaultAbandonAfter = 72 * time.Hour
)

func decodeReason(s string) *Reason {
	if s == "" {
		return nil
	}
	var r Reason
	if json.Unmarshal([]byte(s), &r) != nil {
		r = Reason{Code: "unknown", Message: s}
	}
	return &r
}

func millisOf(d time.Duration) int64 { return d.Milliseconds() }

// end stores that the match is over with status and reason, then stops its
// bots and tells everyone.
func (x *Match) end(status store.Status, r Reason, now time.Time) error {
	b, _ := json.Marshal(r)
	clock, epoch, m, id := x.clock(now), x.rec.Lease.Epoch, x.mgr, x.id
	err := x.save("the end of the match", func(ctx context.Context) error {
		err := m.store.End(ctx, id, epoch, status, string(b), clock, now)
		if errors.Is(err, store.ErrConflict) {
			// A try again of an end that landed the first time.
			if rec, gerr := m.store.Get(ctx, id); gerr == nil && rec.Status == status && rec.Reason == string(b) {
				return nil
			}
		}
		return err
	}, func() {
		x.rec.Status, x.rec.Reason, x.rec.Finished, x.rec.Clock = status, string(b), now, clock
		x.over.Store(true)
		x.clockBase, x.clockWall = clock, now
		x.idleSince = now
		for _, st := range x.seats {
			st.pending = nil // bots stop; an answer being thought out is dropped
		}
		x.trackActors(engine.Spectator)
		x.log.Info("match ended", "status", status, "reason", r.Code)
		x.mgr.ended(x)
		x.noticeEnd()
		x.publishState(now)
	})
	if x.lost(err) {
		return errMoved
	}
	return err
}

// expiry is when an open match expires, or zero.
func (x *Match) expiry() time.Time {
	t, _ := x.expiryWhy()
	return t
}

// expiryWhy is expiry, and the time a match of its kind is given: an open
// match nobody but its creator joined expires sooner than one somebody sat
// at.
func (x *Match) expiryWhy() (time.Time, time.Duration) {
	if x.rec.Status != store.Open {
		return time.Time{}, 0
	}
	if x.set.Correspondence {
		// Its players come by when they can: it waits for them all alike.
		if d := x.mgr.expireCorrespondence; d > 0 {
			return x.rec.Created.Add(d), d
		}
		return time.Time{}, 0
	}
	open, lonely := x.mgr.expireOpen, x.mgr.expireLonely
	switch {
	case lonely > 0 && x.lonely.Load() && (open <= 0 || lonely < open):
		return x.rec.Created.Add(lonely), lonely
	case open > 0:
		return x.rec.Created.Add(open), open
	}
	return time.Time{}, 0
}

// noteLonely notes whether the match is open and nobody but its creator
// joined it (every request and tick ends with it: see tick), for the manager
// to pick the first to end when it needs room (see Manager.makeRoom).
func (x *Match) noteLonely() {
	lonely := x.rec.Status == store.Open
	for _, s := range x.rec.Seats {
		if s.JoinedElsewhere {
			lonely = false
		}
	}
	x.lonely.Store(lonely)
}

// evict ends the match to make room for new ones, if it is still open and
// nobody but its creator joined it, and has it leave memory at once; it
// reports whether it did.
func (x *Match) evict() bool {
	x.noteLonely()
	if !x.lonely.Load() || x.stall != nil {
		return false
	}
	err := x.end(store.Expired, Reason{Code: ReasonNoRoom,
		Message: "The server needed room for new matches: nobody but its creator had joined this one."}, time.Now())
	if err != nil {
		return false
	}
	x.evicted = true
	x.mgr.mu.Lock()
	x.mgr.leaving++
	x.mgr.mu.Unlock()
	return true
}

// abandonment is when a running match is abandoned if nobody connects, or
// zero while a seat's player is connected.
func (x *Match) abandonment() time.Time {
	if x.rec.Status != store.Running || x.mgr.abandonAfter <= 0 || !x.nobodyThere() {
		return time.Time{}
	}
	return x.lastPlayer.Add(x.abandonAfter())
}

// absence is what the store knows of since when no player has been
// connected (see noteAbsence).
type absence struct {
	want    time.Time     // what it should hold: zero while a player is connected
	stored  time.Time     // what it holds, as far as the match knows
	writing bool          // a write is under way
	wait    time.Duration // before trying again a write the store refused
}

// noteAbsence has the store keep since when no seat's player has been
// connected, so that a restart, or another node taking the match over,
// does not start the countdown to abandonment again. It is saved off the
// match's run, one write at a time and the latest value last; a write the
// store could not take is tried again a second later, then less and less
// often (at most every minute) while it cannot. It is no record:
// if it never lands, the countdown starts again at the next load, as it
// did before it was kept.
func (x *Match) noteAbsence() {
	if x.mgr.abandonAfter <= 0 {
		return // nothing counts it
	}
	var want time.Time
	if x.nobodyThere() {
		want = x.lastPlayer
	}
	x.absence.want = want
	x.saveAbsence()
}

// nobodyThere reports whether no seat's player is connected.
func (x *Match) nobodyThere() bool {
	for _, st := range x.seats {
		if st.sub != nil {
			return false
		}
	}
	return true
}

func (x *Match) saveAbsence() {
	a := &x.absence
	if a.writing || a.want.Equal(a.stored) || x.rec.Status != store.Running {
		return
	}
	a.writing = true
	want, m, id, epoch := a.want, x.mgr, x.id, x.rec.Lease.Epoch
	wait := min(max(2*a.wait, time.Second), time.Minute)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		err := m.store.SaveAbsence(ctx, id, epoch, want)
		cancel()
		// Fenced, gone or closed: the match stops, or another node runs it.
		final := err == nil || errors.Is(err, store.ErrFenced) || errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrClosed)
		if !final {
			x.log.Debug("cannot save since when nobody plays; trying again", "err", err, "in", wait)
			time.Sleep(wait)
		}
		x.post(func() {
			a.writing = false
			if final {
				a.stored, a.wait = want, 0
			} else {
				a.wait = wait
			}
			x.saveAbsence()
		})
	}()
}

// endIfDue expires or abandons the match when its time has come.
func (x *Match) endIfDue(now time.Time) {
	after := func(d time.Duration) map[string]any { return map[string]any{"after_ms": millisOf(d)} }
	if t, d := x.expiryWhy(); !t.IsZero() && !now.Before(t) {
		if !x.lonely.Load() || d == x.mgr.expireOpen && !x.set.Correspondence {
			_ = x.end(store.Expired, Reason{Code: ReasonNotStarted, Params: after(d),
				Message: fmt.Sprintf("Nobody started the match within %v of its creation.", d)}, now)
		} else {
			_ = x.end(store.Expired, Reason{Code: ReasonNobodyJoined, Params: after(d),
				Message: fmt.Sprintf("Nobody but its creator joined the match within %v of its creation.", d)}, now)
		}
	}
	if t := x.abandonment(); !t.IsZero() && !now.Before(t) {
		d := x.abandonAfter()
		_ = x.end(store.Abandoned, Reason{Code: ReasonNobodyThere, Params: after(d),
			Message: fmt.Sprintf("No player was connected to the match for %v: it stopped where it was.", d)}, now)
	}
}

// unreplayable says that a match's stored setup (record 0) or record of its
// log no longer replays, and why.
type unreplayable struct {
	record int
	err    error
}

func (u *unreplayable) Error() string {
	if u.record == 0 {
		return "the stored setup no longer fits the game: " + u.err.Error()
	}
	return fmt.Sprintf("record %d of the log no longer replays: %v", u.record, u.err)
}

// reason is what everyone may be told: where the log stops replaying, not
// what the record held (an action another seat may not know of).
func (u *unreplayable) reason() Reason {
	if u.record == 0 {
		return Reason{Code: ReasonBadSetup, Message: "The match's stored setup no longer fits its game."}
	}
	return Reason{Code: ReasonBadLog, Params: map[string]any{"record": u.record},
		Message: fmt.Sprintf("Record %d of the match's log no longer replays.", u.record)}
}

// fail marks a live match failed (its log, read again, no longer replays).
func (x *Match) fail(u *unreplayable, now time.Time) {
	x.mgr.logFailure(x.id, u)
	_ = x.end(store.Failed, u.reason(), now)
}

// logFailure logs that match id no longer replays, once per match while
// this server runs, however often it is asked for.
func (m *Manager) logFailure(id string, u *unreplayable) {
	m.mu.Lock()
	seen := m.failed[id]
	m.failed[id] = true
	m.mu.Unlock()
	if !seen {
		m.log.Error("a match no longer replays from its log: it is marked failed", "match", id, "err", u)
	}
}

// failStored marks a stored match failed when it cannot be loaded, and
// returns the refusal of whoever asked for it.
func (m *Manager) failStored(ctx context.Context, rec *store.Match, u *unreplayable) error {
	m.logFailure(rec.ID, u)
	r := u.reason()
	b, _ := json.Marshal(r)
	if err := m.store.End(ctx, rec.ID, rec.Lease.Epoch, store.Failed, string(b), rec.Clock, time.Now()); err != nil && !errors.Is(err, store.ErrConflict) {
		return refuse(CodeUnavailable, "The server could not read the match; try again.")
	}
	return refuse(CodeMatchFailed, "This match cannot go on: %s", r.Message)
}

// failDamaged marks failed a stored match whose row does not read back in
// full (rec.Damaged), and says so in rec: such a match can neither run nor
// be shown, and one bad row must not hold anything else up. The write may
// be refused (another node holds the match: it fails it as it loads it);
// rec says failed all the same.
func (m *Manager) failDamaged(ctx context.Context, rec *store.Match) {
	if rec.Damaged == "" || rec.Status == store.Failed || rec.Status == store.Closed {
		return
	}
	u := &unreplayable{err: errors.New(rec.Damaged)}
	m.logFailure(rec.ID, u)
	b, _ := json.Marshal(u.reason())
	now := time.Now()
	err := m.store.End(ctx, rec.ID, rec.Lease.Epoch, store.Failed, string(b), rec.Clock, now)
	if err != nil && !errors.Is(err, store.ErrConflict) && !errors.Is(err, store.ErrFenced) {
		m.readError("cannot mark a damaged match failed", rec.ID, err)
	}
	rec.Status, rec.Reason, rec.Finished = store.Failed, string(b), now
}

// overRefusal refuses to load a match that failed or was closed.
func overRefusal(rec *store.Match) error {
	r := decodeReason(rec.Reason)
	msg := ""
	if r != nil {
		msg = " " + r.Message
	}
	if rec.Status == store.Closed {
		return refuse(CodeMatchClosed, "Its host closed this match.%s", msg)
	}
	return refuse(CodeMatchFailed, "This match cannot go on.%s", msg)
}

// Close closes match id for its host (token, or account: the one that
// created it): a match never started, or one that failed; a tutorial under
// way ends as abandoned (ReasonTutorialOver). It answers the match's
// summary.
func (m *Manager) Close(ctx context.Context, id, token, account string) (Summary, error) {
	rec, err := m.stored(ctx, id)
	if err != nil {
		return Summary{}, err
	}
	if !tokenMatches(token, rec.HostHash) && (account == "" || account != rec.Account) {
		return Summary{}, refuse(CodeBadToken, "This is not the host token of this match.")
	}
	switch rec.Status {
	case store.Running:
		var st settings
		if json.Unmarshal(rec.Settings, &st) != nil || st.Purpose != PurposeTutorial {
			break
		}
		fallthrough // a tutorial ends when its learner is done with it
	case store.Open:
		var sum Summary
		err := m.Use(ctx, id, func(h Handle) (err error) {
			sum, err = h.CloseOpen(ctx)
			return err
		})
		return sum, err
	case store.Failed:
		r := Reason{Code: ReasonHostClosed, Params: map[string]any{"was": "failed"}, Message: "Its host closed the match after it failed."}
		if old := decodeReason(rec.Reason); old != nil {
			r.Message += " " + old.Message
		}
		b, _ := json.Marshal(r)
		epoch := rec.Lease.Epoch
		if m.node != nil {
			// Nobody runs a failed match: this node holds it for the write.
			l, err := m.node.acquire(ctx, id)
			if err != nil {
				return Summary{}, refuse(CodeUnavailable, "The server could not close the match; try again.")
			}
			defer m.node.release(l)
			epoch = l.Epoch
		}
		if err := m.store.End(ctx, id, epoch, store.Closed, string(b), rec.Clock, time.Now()); err != nil {
			if errors.Is(err, store.ErrConflict) {
				return Summary{}, refuse(CodeFinished, "The match is over already.")
			}
			return Summary{}, refuse(CodeUnavailable, "The server could not close the match; try again.")
		}
		rec, err = m.stored(ctx, id)
		if err != nil {
			return Summary{}, err
		}
		return summarize(rec, nil), nil
	}
	return Summary{}, closeRefusal(rec.Status)
}

// CloseOpen ends an open match (closed), or a running tutorial (left:
// abandoned, its learner done with it), at its host's request
// (Manager.Close has checked the token).
func (x *Match) CloseOpen(ctx context.Context) (Summary, error) {
	var sum Summary
	err := x.do(ctx, func() error {
		status := store.Closed
		r := Reason{Code: ReasonHostClosed, Params: map[string]any{"was": "open"}, Message: "Its host closed the match before it started."}
		switch {
		case x.rec.Status == store.Running && x.set.Purpose == PurposeTutorial:
			// (A running match is never closed: it is left.)
			status, r = store.Abandoned, Reason{Code: ReasonTutorialOver, Message: "The tutorial is over."}
		case x.rec.Status != store.Open:
			return closeRefusal(x.rec.Status)
		}
		if x.stall != nil {
			return stalledErr
		}
		err := x.end(status, r, time.Now())
		sum = x.summary()
		return pending(err, "request")
	})
	return sum, err
}

func closeRefusal(st store.Status) error {
	if st == store.Running {
		return refuse(CodeStarted, "A match under way cannot be closed: it ends with its game (or when nobody plays it for long).")
	}
	return refuse(CodeFinished, "The match is over already.")
}

// Summary returns match id as the lobby sees it: from memory when it is
// live (loading it if needed), from the store when it failed or was closed.
func (m *Manager) Summary(ctx context.Context, id string) (Summary, error) {
	var sum Summary
	err := m.Use(ctx, id, func(h Handle) (err error) {
		sum, err = h.Summary(ctx)
		return err
	})
	if c := AsError(err).Code; err != nil && (c == CodeMatchFailed || c == CodeMatchClosed) {
		rec, serr := m.stored(ctx, id)
		if serr != nil {
			return Summary{}, serr
		}
		return summarize(rec, nil), nil
	}
	return sum, err
}

// prune deletes, every now and then until the manager shuts down, the
// matches over for longer than the retention.
func (m *Manager) prune(retain time.Duration) {
	every := min(max(retain/10, time.Second), time.Hour)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		total := 0
		for {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			n, err := m.store.Prune(ctx, time.Now().Add(-retain), 500)
			cancel()
			if err != nil {
				m.log.Warn("cannot prune the matches over", "err", err)
				break
			}
			total += n
			if n < 500 {
				break
			}
		}
		if total > 0 {
			m.log.Info("pruned the matches over", "matches", total, "retain", retain)
		}
		select {
		case <-t.C:
		case <-m.done:
			return
		}
	}
}
