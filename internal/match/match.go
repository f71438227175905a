// Package match runs live matches. A match owns its state, its seats and its
// clock, and everything that touches the match — an action of a client, a
// connection, a join, the start, a timer — reaches it through its inbox and
// is run by one goroutine at a time, so the rules need no locks. A match has
// no goroutine of its own: whoever brings it work while nobody runs it runs
// it (a socket's reader runs the action it read, a timer's goroutine what is
// due), until it has nothing left to do (see drive).
//
// An action is decoded, checked against the sequence number it was chosen on,
// applied (a refused action leaves the state untouched), appended to the
// store, and only then acknowledged and broadcast: each audience — every
// seat, and the spectators — gets its own view and the events it may see,
// encoded from [engine.State.View] and [engine.Visible] and nothing else.
// Bots in seats see exactly what their seat sees. In real time they decide
// here, at once; in other games a bot thinks on a goroutine of its own, on a
// clone of the state that nothing else touches (it sees the clone only
// through bot.Ask: its seat's view and samples of what the seat cannot
// know), and its answer comes back through the inbox, so that a bot that
// searches for a while never holds up the humans of its match. The match
// clock runs while the match runs on this server; [engine.State.Advance] is
// called at each deadline and what it fires is logged as a time-only record,
// so that replaying the log from the seed rebuilds the match exactly, which is
// how a match comes back after a restart.
//
// Around the game, a match keeps its table: lines of talk (stored, like
// actions, before anyone is told them), seats handed to their bots and
// taken back, the history each audience was told (rebuilt from the store
// for a socket that connects), and views at any step of the log.
//
// This package must never know a concrete game, and must never let anything
// of a state but its views, and the clones its thinking bots own, leave the
// match's run (see drive).
package match

import (
	"container/list"
	"context"
	"errors"
	"log/slog"
	"slices"
	"strconv"
	"sync/atomic"
	"time"

	"sortie/bot"
	"sortie/engine"
	"sortie/internal/bus"
	"sortie/internal/store"
)

// Match is one live match. Its methods may be called from any goroutine: they
// queue a request in the match's inbox and wait for the answer.
type Match struct {
	id    string
	game  engine.Game
	info  engine.Info
	mgr   *Manager
	log   *slog.Logger
	inbox chan func()
	quit  chan struct{} // closed when the match has ended

	// Who runs the match (see drive). running is set while a goroutine
	// runs it, and stays set once it has ended; wake runs it when tick has
	// something to do next (see alarm), and woken says it rang since the
	// running goroutine last looked at the time; stopping is the manager's
	// request to stop.
	running  atomic.Bool
	woken    atomic.Bool
	stopping atomic.Bool
	wake     *time.Timer

	// Fixed when the match is loaded; read from any goroutine.
	hostHash       []byte
	tokenHashes    [][]byte
	setup          engine.Setup // a copy of rec.Setup, which the history reads
	creatorAccount string
	// holders is each seat's account, published by noteHolders.
	holders atomic.Pointer[[]string]

	// Owned by whoever runs the match (see drive).
	rec        *store.Match
	opts       engine.Options
	set        settings
	state      engine.State
	seq        uint64
	tickets    uint64        // questions put to thinking bots so far
	lastAt     engine.Millis // time of the last record
	replaying  bool          // the log is being played again through turnsOf: its turns are not told
	clockBase  engine.Millis // match clock at clockWall
	clockWall  time.Time
	savedClock time.Time     // when the clock was last saved ahead (real time; zero: not since it ran)
	credit     engine.Millis // the clock saved ahead, past which it does not run (real time)
	seats      []*seat
	spectators map[*bus.Subscription]bool // true: a socket on another node
	specMemo   *viewMemo                  // what spectators were last sent of their view
	chatN      int                        // lines of table talk so far
	idleSince  time.Time                  // over with nobody watching since
	lastPlayer time.Time                  // when a seat's player was last connected (or the match loaded)
	absence    absence                    // what the store knows of it (see noteAbsence)
	realTime   bool
	stall      *stall // a write that did not land yet: the match waits for it (see faults.go)
	owner      string // CreateRequest.Owner until Hooks.Ended is told

	// On several nodes (see lease.go). lease and leased are fixed before
	// the match first runs; over is read by the lease keeper.
	lease  store.Lease // the lease the match runs under
	leased time.Time   // when it was taken
	over   atomic.Bool // the match is finished
	fenced bool        // a write was refused as fenced: the match stops
	parked bool        // the match is being handed to another node: it stops

	// Room for new matches (see noteLonely and Manager.makeRoom): lonely
	// is read by the manager; lonelyAt is the match's place in the
	// manager's queue of those it may end (guarded by the manager's mu);
	// evicted is set once it ended to make room, and it leaves memory.
	lonely   atomic.Bool
	lonelyAt *list.Element
	evicted  bool
	// making is set while the request that creates the match runs (it may
	// start it at once): the match is not given up for room meanwhile.
	making atomic.Bool
}

// seat is what the match knows of one seat beyond the store.
type seat struct {
	sub       *bus.Subscription // the socket of the seat's human, if connected
	elsewhere bool              // sub is a socket on another node (a watch this node owns)
	memo      *viewMemo         // what the socket was last sent of the seat's view
	byBot     bool              // played by its bot now
	bot       bot.Bot
	pending   *move         // the bot's next move, waiting for its time
	thinking  uint64        // the ticket of the bot's decision under way, 0 if none
	missed    []seen        // what the seat saw while its bot was thinking
	away      engine.Millis // match clock when the human left (or the clock resumed)
	isActor   bool
	turnStart engine.Millis // match clock when the seat's turn began
	daysOff   int           // days off left when it began (correspondence)
	told      int           // days off spent on it that the table was told of
	turnSeq   int           // the log's length when the seat's turn began
	refusals  int           // bot moves refused in a row
	talk      bucket        // the pace of the seat's table talk
}

// seen is a view and the events that came with it, kept for a bot that was
// thinking when they happened.
type seen struct {
	view engine.View
	evs  []engine.Event
}

// move is a bot's decision waiting for its time: nil Action means "ask me
// again then".
type move struct {
	action engine.Action
	due    engine.Millis
}

// How long a real-time bot with nothing to do waits before being asked again,
// in match time; how many refused moves in a row make a bot rest.
const (
	botPoll     engine.Millis = 250
	maxRefusals               = 20
)

// ID returns the match id.
func (x *Match) ID() string { return x.id }

// Game returns the match's game.
func (x *Match) Game() engine.Game { return x.game }

// Players returns the number of seats.
func (x *Match) Players() int { return len(x.tokenHashes) }

// SeatOf returns the seat whose token this is.
func (x *Match) SeatOf(token string) (engine.Seat, bool) {
	found := -1
	for i, h := range x.tokenHashes {
		if tokenMatches(token, h) {
			found = i
		}
	}
	return engine.Seat(found), found >= 0
}

// IsHost reports whether token is the match's host token.
func (x *Match) IsHost(token string) bool { return tokenMatches(token, x.hostHash) }

// do runs fn on the match and returns its answer: at once on the calling
// goroutine if nobody runs the match, else when its turn comes. ctx bounds
// the wait for a place in the inbox; once taken, fn runs to its end.
func (x *Match) do(ctx context.Context, fn func() error) error {
	done := make(chan error, 1)
	select {
	case x.inbox <- func() { done <- fn() }:
	case <-x.quit:
		return errGone
	case <-ctx.Done():
		return refuse(CodeUnavailable, "The match is too busy to answer now; try again.")
	}
	x.kick()
	select {
	case err := <-done:
		return err
	case <-x.quit:
		select {
		case err := <-done:
			return err
		default:
			return errGone
		}
	}
}

// post queues fn, the answer of work done off the match (a bot's decision,
// a try of a stalled write), and has the match run it; fn is dropped if the
// match has ended.
func (x *Match) post(fn func()) {
	select {
	case x.inbox <- fn:
		x.kick()
	case <-x.quit: // the match is gone: nobody waits for the answer
	}
}

// kick runs the match on the calling goroutine unless a goroutine runs it
// already (which then finds what was queued) or it has ended.
func (x *Match) kick() {
	if x.running.CompareAndSwap(false, true) {
		x.drive(nil)
	}
}

// run has the match run for the first time, on a goroutine of its own
// until it has nothing to do. Until then nobody else runs it (running is set
// when the match is made).
func (x *Match) run() {
	go x.drive(func() {
		if x.rec.Status == store.Running {
			x.finishIfOver(time.Now())
			x.noteAbsence()
		}
	})
}

// alarm is the wake timer's: it runs the match, or, if a goroutine runs it
// already, tells that goroutine (through woken) that something is due, for
// it to look again before it lets the match go. Otherwise a timer that rang
// between drive arming it and letting go would be lost, and a match of bots
// would wait for nothing (seen under load: the wake is often a bot's move
// due in a few milliseconds).
func (x *Match) alarm() {
	x.woken.Store(true)
	x.kick()
}

// stop asks the match to stop; it has stopped when quit is closed.
func (x *Match) stop() {
	x.stopping.Store(true)
	x.kick()
}

// testAfterArming, set by a test only, runs between drive arming the wake
// timer to ring after d and letting the match go: a goroutine preempted
// there.
var testAfterArming func(d time.Duration)

// driveBudget is how many requests a goroutine that brought one runs before
// it hands what remains to a goroutine of the match's: a socket's reader
// that found the match free does not serve its table for long.
const driveBudget = 16

// drive runs the match: first (if any), then, before each request of the
// inbox and when the wake timer fires, what is due (tick). When nothing is
// left it arms the wake timer for what is due next and lets the match go.
// The caller has set running; drive clears it when it lets go, unless the
// match has ended, which closes quit: stopped by the manager, unloaded,
// fenced, handed over, or stopped by a panic.
func (x *Match) drive(first func()) {
	ended := false
	defer func() {
		if r := recover(); r != nil {
			x.log.Error("match stopped by a panic", "panic", r)
			x.closeSubs(bus.ErrClosed)
			x.mgr.forget(x)
			ended = true
		}
		if ended {
			x.wake.Stop()
			x.leaveStalled()
			close(x.quit) // requests still queued are never run: their callers see quit
		}
	}()
	if first != nil {
		first()
	}
	for ran := 0; ; {
		if x.fenced || x.parked {
			x.leave()
			ended = true
			return
		}
		x.woken.Store(false) // what rang before now is due by now: tick does it
		now := time.Now()
		x.tick(now)
		if x.unloadable(now) {
			x.mgr.forget(x)
			x.closeSubs(bus.ErrClosed)
			ended = true
			return
		}
		if x.stopping.Load() {
			x.saveClock(time.Now())
			x.closeSubs(bus.ErrClosed)
			ended = true
			return
		}
		if ran == driveBudget && len(x.inbox) > 0 {
			go x.drive(nil) // running stays set: the new goroutine runs on
			return
		}
		select {
		case fn := <-x.inbox:
			ran++
			fn()
			continue
		default:
		}
		due := x.nextDue(now).Sub(now)
		x.wake.Reset(due) // since Go 1.23, no stale tick survives a Reset
		if testAfterArming != nil {
			testAfterArming(due)
		}
		x.running.Store(false)
		// A request queued, or the timer rang, after the inbox was found
		// empty and before running dropped found the match running and did
		// not run it: run it now, unless its sender (or the timer) did.
		if len(x.inbox) == 0 && !x.stopping.Load() && !x.woken.Load() || !x.running.CompareAndSwap(false, true) {
			return
		}
	}
}

// tick does everything that is due at now: deadlines, takeovers, moves out of
// time, bot moves; then it asks bots for their next moves.
func (x *Match) tick(now time.Time) {
	if x.fenced {
		return
	}
	if x.stall != nil {
		x.retry(now)
		return
	}
	x.noteLonely()
	x.endIfDue(now)
	if x.creditDue(now) {
		x.saveCredit(now)
	}
	if x.rec.Status != store.Running || x.stall != nil || x.fenced {
		return
	}
	clock := x.clock(now)
	// Deadlines of real time.
	for range 64 {
		dl, ok := x.state.Deadline()
		if !ok || dl > clock || x.rec.Status != store.Running {
			break
		}
		if !x.advance(clock) || x.stall != nil {
			break
		}
	}
	seatsChanged := false
	for i, st := range x.seats {
		if x.rec.Status != store.Running || x.stall != nil || x.fenced {
			break
		}
		s := engine.Seat(i)
		human := x.rec.Seats[i].Kind == Human
		// A human away too long hands the seat to its bot.
		if human && !st.byBot && st.sub == nil && x.set.TakeoverAfter > 0 && clock-st.away >= x.set.TakeoverAfter {
			st.byBot = true
			seatsChanged = true
			x.log.Info("bot takes over a seat", "seat", i)
		}
		// A human out of time has the move played by the seat's bot (at a
		// correspondence table, once their days off are spent too).
		if x.bound(i) && x.outOfTime(st, clock) {
			x.forceMove(s, clock)
			continue
		}
		if st.pending != nil && st.pending.due <= clock {
			x.playPending(s, now)
		}
	}
	if seatsChanged {
		x.publishSeats()
	}
	if x.set.Correspondence && x.rec.Status == store.Running && x.stall == nil && x.spendDaysOff(clock) {
		x.publishState(now) // (every audience sees the new deadline)
	}
	x.plan(x.clock(now))
}

// outOfTime reports whether the move of seat st, bound by the move limit,
// is due at clock: past the limit, and at a correspondence table past its
// days off too.
func (x *Match) outOfTime(st *seat, clock engine.Millis) bool {
	if x.set.Correspondence {
		due, last := x.corrDue(st, clock)
		return last && clock >= due
	}
	return clock-st.turnStart >= x.set.MoveLimit
}

// nextDue returns when tick has something to do next.
func (x *Match) nextDue(now time.Time) time.Time {
	next := now.Add(time.Hour)
	at := func(t time.Time) {
		if t.Before(next) {
			next = t
		}
	}
	if x.stall != nil {
		if !x.stall.trying {
			at(x.stall.due)
		}
		return next // (a try's answer wakes the match)
	}
	if x.rec.Status.Over() && x.idle() {
		at(x.idleSince.Add(x.mgr.linger))
	}
	if x.rec.Status.Over() && x.mgr.retain > 0 {
		at(x.rec.Finished.Add(x.mgr.retain))
	}
	for _, t := range []time.Time{x.expiry(), x.abandonment()} {
		if !t.IsZero() {
			at(t)
		}
	}
	if x.rec.Status != store.Running {
		return next
	}
	clock := x.clock(now)
	if dl, ok := x.state.Deadline(); ok && dl > clock {
		at(x.wall(dl))
	}
	for i, st := range x.seats {
		if st.pending != nil {
			at(x.wall(st.pending.due))
		}
		human := x.rec.Seats[i].Kind == Human
		if human && !st.byBot && st.sub == nil && x.set.TakeoverAfter > 0 {
			at(x.wall(st.away + x.set.TakeoverAfter))
		}
		if x.bound(i) && st.thinking == 0 { // (a thinking bot's answer wakes the match)
			due := st.turnStart + x.set.MoveLimit
			if x.set.Correspondence {
				due, _ = x.corrDue(st, clock) // (the next day off begins then, or the bot plays)
			}
			at(x.wall(due))
		}
	}
	if x.realTime {
		at(x.nextCredit())
	}
	return next
}

func (x *Match) idle() bool {
	if len(x.spectators) > 0 {
		return false
	}
	for _, st := range x.seats {
		if st.sub != nil {
			return false
		}
	}
	return true
}

// unloadable reports whether the match leaves memory now: it is over and
// nobody watched it for the linger, or it is past the retention (its
// watchers are then let go: a pruned match is gone at once).
func (x *Match) unloadable(now time.Time) bool {
	if !x.rec.Status.Over() || x.stall != nil {
		return false
	}
	return x.evicted || x.idle() && now.Sub(x.idleSince) >= x.mgr.linger || x.mgr.pastRetention(x.rec.Finished, now)
}

// advance lets the match time pass up to at. If that fires events, it logs a
// time-only record (see commit), and reports true: what fired is told once it
// is stored, and the match may be waiting for that.
func (x *Match) advance(at engine.Millis) bool {
	at = max(at, x.lastAt)
	if dl, ok := x.state.Deadline(); !ok || dl > at {
		return false // nothing is due: Advance would fire nothing
	}
	next := x.state.Clone()
	evs := next.Advance(at)
	if len(evs) == 0 {
		x.state = next
		return false
	}
	// What bots had decided is decided again in the light of what happened.
	for _, st := range x.seats {
		st.pending = nil
	}
	_ = x.commit(next, engine.Record{At: at}, evs, engine.Spectator, -1, "clock")
	return true
}

// play plays record r on a copy of the state and commits it: the match's
// state is untouched if the game refuses r, and until r is stored.
func (x *Match) play(r engine.Record, actor engine.Seat, ack int64, source string) error {
	next := x.state.Clone()
	evs, err := engine.Play(next, r)
	if err != nil {
		return err
	}
	return x.commit(next, r, evs, actor, ack, source)
}

// commit appends record r, whose effects next (a copy of the state with r
// played) and evs hold, and only once it is stored makes next the match's
// state and tells everyone (see recorded). A record the store could not
// take yet is kept and stored later (see save): commit then returns the
// CodePending refusal, and nobody sees r meanwhile.
func (x *Match) commit(next engine.State, r engine.Record, evs []engine.Event, actor engine.Seat, ack int64, source string) error {
	data, err := r.MarshalJSON()
	if err != nil {
		x.log.Error("cannot encode a record", "err", err)
		return refuse(CodeUnavailable, "The server could not save your action; it was not played. Try again.")
	}
	m, id, epoch, n := x.mgr, x.id, x.rec.Lease.Epoch, int(x.seq)+1
	err = x.save("a record", func(ctx context.Context) error {
		return m.store.Append(ctx, id, epoch, n, data, r.At)
	}, func() {
		m.logs.addRecord(id, n, data)
		x.recorded(next, r, evs, actor, ack, source)
	})
	if err != nil && err != errPending {
		return x.refusedWrite("a record", err)
	}
	return pending(err, "action")
}

// recorded makes the state after a stored record the match's, and tells
// everyone.
func (x *Match) recorded(next engine.State, r engine.Record, evs []engine.Event, actor engine.Seat, ack int64, source string) {
	x.state = next
	x.seq++
	x.lastAt = r.At
	x.rec.Records = int(x.seq)
	if h := x.mgr.hooks.Recorded; h != nil {
		h(source)
	}
	if actor >= 0 {
		x.seats[actor].refusals = 0
	}
	now := time.Now()
	x.finishIfOver(now)
	x.trackActors(actor)
	x.broadcast(evs, actor, ack)
}

// replay builds a state from a setup and a stored log.
func replay(g engine.Game, setup engine.Setup, log [][]byte) (engine.State, engine.Millis, error) {
	s, last, _, err := replayAll(g, setup, log, nil)
	return s, last, err
}

// replayAll builds a state from a setup and a stored log, and says how many
// records it replayed: all of them, or those before the one that failed.
// each, if not nil, is shown the state as it is set up (with no record),
// then after each record.
func replayAll(g engine.Game, setup engine.Setup, log [][]byte, each func(engine.State, *engine.Record)) (engine.State, engine.Millis, int, error) {
	s, err := g.New(setup)
	if err != nil {
		return nil, 0, 0, err
	}
	if each != nil {
		each(s, nil)
	}
	var last engine.Millis
	for i, raw := range log {
		r, err := engine.DecodeRecord(g, raw)
		if err != nil {
			return s, last, i, errors.New("record " + strconv.Itoa(i+1) + ": " + err.Error())
		}
		if _, err := engine.Play(s, r); err != nil {
			return s, last, i, errors.New("record " + strconv.Itoa(i+1) + ": " + err.Error())
		}
		last = r.At
		if each != nil {
			each(s, &r)
		}
	}
	return s, last, len(log), nil
}

// finishIfOver ends the match if its game is over. The outcome follows from
// the stored log, so everyone is told at once; if the store cannot take the
// outcome yet, the match waits until it has.
func (x *Match) finishIfOver(now time.Time) {
	out, over := x.state.Outcome()
	if !over || x.rec.Status == store.Finished {
		return
	}
	clock := x.clock(now)
	m, id, epoch := x.mgr, x.id, x.rec.Lease.Epoch
	err := x.save("the outcome", func(ctx context.Context) error {
		return m.store.Finish(ctx, id, epoch, out, clock, now)
	}, func() {})
	if x.lost(err) {
		return
	}
	if err != nil && err != errPending {
		// The log is complete; the next start finds the game over and
		// finishes it again.
		x.log.Error("cannot store the outcome", "err", err)
	}
	x.over.Store(true)
	x.clockBase, x.clockWall = clock, now
	x.rec.Status, x.rec.Finished, x.rec.Outcome, x.rec.Clock = store.Finished, now, &out, clock
	x.idleSince = now
	for _, st := range x.seats {
		st.pending = nil
	}
	x.log.Info("match finished", "records", x.seq, "summary", out.Summary)
	x.mgr.ended(x)
	x.noticeEnd()
}

// trackActors notes when each seat's turn began, after a record of actor
// (engine.Spectator: of nobody, or no record) at x.lastAt; at a
// correspondence table, a human seat whose turn ends, or begins again
// because it acted, has spent the days off its turn took. Replaying the
// log through it gives each seat's turn and days off again (see newMatch):
// it reads nothing but the state, the record and the table's settings.
func (x *Match) trackActors(actor engine.Seat) {
	var actors []engine.Seat
	if x.rec.Status == store.Running {
		actors = x.state.Actors()
	}
	for i, st := range x.seats {
		is := slices.Contains(actors, engine.Seat(i))
		ends := st.isActor && (!is || engine.Seat(i) == actor)
		if ends && x.set.Correspondence && x.rec.Seats[i].Kind == Human {
			st.daysOff -= x.daysUsed(st, x.lastAt)
		}
		if ends || !st.isActor {
			st.told = 0
		}
		began := is && (!st.isActor || engine.Seat(i) == actor)
		if began {
			st.turnStart, st.turnSeq = x.lastAt, int(x.seq)
		}
		st.isActor = is
		if began {
			x.noticeTurn(i)
		}
	}
}

func (x *Match) closeSubs(reason error) {
	for _, st := range x.seats {
		if st.sub != nil {
			st.sub.Close(reason)
			st.sub = nil
		}
	}
	for sub := range x.spectators {
		sub.Close(reason)
	}
	clear(x.spectators)
}
