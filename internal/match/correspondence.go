// Correspondence tables: a turn-based or simultaneous game played over days,
// a move at a time, as Board Game Arena's turn-based mode is.
//
// Such a table has a move limit of 1, 2, 3 or 7 days and a number of days
// off per player. A player who lets their move limit run out spends a day
// off, and has one more day (a day off started is spent, however little of
// it the move took); once they have none left, their seat's bot plays that
// move, as at a live table, and the seat stays theirs. Nobody declares days
// off beforehand: they are spent as the deadlines pass, and the match page,
// "My games" and the summary say how many each player has left.
//
// Nothing at such a table depends on a socket: the page may be closed for
// days. Its seats are never handed to their bots for a disconnection, a
// table that starts by itself starts once every human seat has joined, an
// open table waits for its players a week (Config.ExpireCorrespondence)
// and a running one is abandoned only after three move limits and its days
// off with nobody connected (Config.AbandonAfter, if longer).
//
// Its match clock is the wall clock since the start, which never pauses:
// each record's time says when it was played, so that every deadline and
// every day off spent follows from the log and the start (see
// trackActors), through restarts and takeovers by other nodes alike.

package match

import (
	"slices"
	"time"

	"sortie/engine"
	"sortie/internal/store"
)

// The clocks a table may have (CreateRequest.Clock, SettingsSummary.Clock).
const (
	// ClockLive: people play at the table together; the move limit is
	// minutes at most, and a seat whose player left is played by its bot
	// (the default).
	ClockLive = "live"
	// ClockCorrespondence: a move in days (see the top of this file).
	ClockCorrespondence = "correspondence"
)

// Day is a day of match time, the unit of a correspondence table's move
// limit and days off.
const Day engine.Millis = 24 * 60 * 60 * 1000

// Days off of a correspondence table, per player: what a player gets when
// the table's creator names none (a long weekend away from a game of a
// move a day), and at most.
const (
	DefaultDaysOff = 3
	MaxDaysOff     = 21
)

// defaultExpireCorrespondence is how long an open correspondence table
// waits for its players, unless Config.ExpireCorrespondence says otherwise.
const defaultExpireCorrespondence = 7 * 24 * time.Hour

// correspondenceLimits are the move limits a correspondence table may have.
var correspondenceLimits = []engine.Millis{Day, 2 * Day, 3 * Day, 7 * Day}

// CodeNoCorrespondence refuses a correspondence table of a real-time game,
// whose own clock cannot wait days.
const CodeNoCorrespondence = "correspondence_not_offered"

// Correspondence is what a game offers at correspondence tables.
type Correspondence struct {
	// MoveLimitsMs are the move limits a table may have, shortest (and
	// default) first.
	MoveLimitsMs []int64 `json:"move_limits_ms"`
	// DaysOff is each player's days off when the request names none;
	// MaxDaysOff the most a table may give.
	DaysOff    int `json:"days_off"`
	MaxDaysOff int `json:"max_days_off"`
}

// CorrespondenceFor returns what games of timing t offer at correspondence
// tables, or nil: real-time games are not played by correspondence.
func CorrespondenceFor(t engine.Timing) *Correspondence {
	if t == engine.RealTime {
		return nil
	}
	c := &Correspondence{DaysOff: DefaultDaysOff, MaxDaysOff: MaxDaysOff}
	for _, l := range correspondenceLimits {
		c.MoveLimitsMs = append(c.MoveLimitsMs, int64(l))
	}
	return c
}

// correspondence checks the correspondence part of a create request and
// fills st with it.
func correspondence(info engine.Info, req CreateRequest, st *settings) error {
	switch req.Clock {
	case "", ClockLive:
		if req.DaysOff != nil {
			return refuse(CodeBadParameters, "Days off are for correspondence tables (\"clock\": \"correspondence\").")
		}
		return nil
	case ClockCorrespondence:
	default:
		return refuse(CodeBadParameters, "The clock is %q or %q, not %q.", ClockLive, ClockCorrespondence, req.Clock)
	}
	if CorrespondenceFor(info.Timing) == nil {
		return refuse(CodeNoCorrespondence, "%s is played in real time: it has no correspondence tables.", info.Name["en"])
	}
	st.Correspondence, st.MoveLimit, st.DaysOff = true, Day, DefaultDaysOff
	if req.MoveLimitMs != nil {
		if !slices.Contains(correspondenceLimits, engine.Millis(*req.MoveLimitMs)) {
			return refuse(CodeBadParameters, "A correspondence table gives 1, 2, 3 or 7 days a move: move_limit_ms is 86400000, 172800000, 259200000 or 604800000.")
		}
		st.MoveLimit = engine.Millis(*req.MoveLimitMs)
	}
	if req.DaysOff != nil {
		if *req.DaysOff < 0 || *req.DaysOff > MaxDaysOff {
			return refuse(CodeBadParameters, "Days off are a whole number from 0 to %d.", MaxDaysOff)
		}
		st.DaysOff = *req.DaysOff
	}
	if req.TakeoverAfterMs != nil && *req.TakeoverAfterMs != 0 {
		return refuse(CodeBadParameters, "A correspondence table never hands a seat to its bot because its page is closed: takeover_after_ms is 0 or left out.")
	}
	st.TakeoverAfter = 0
	return nil
}

// clockSpec returns the table's clock, as its summary says it.
func (st settings) clockSpec() string {
	if st.Correspondence {
		return ClockCorrespondence
	}
	return ClockLive
}

// corrClock returns the clock of a running correspondence table at now:
// the wall time since its start.
func (x *Match) corrClock(now time.Time) engine.Millis {
	return engine.Millis(float64(now.Sub(x.rec.Started)) * x.mgr.speed / float64(time.Millisecond))
}

// wallClocked reports whether the match's clock is the wall clock since its
// start (a running correspondence table).
func (x *Match) wallClocked() bool {
	return x.set.Correspondence && x.rec.Status == store.Running
}

// daysUsed returns how many days off seat st has spent on its turn under
// way at clock c: one for every day, started, past its move limit, up to
// those it had when the turn began.
func (x *Match) daysUsed(st *seat, c engine.Millis) int {
	over := c - st.turnStart - x.set.MoveLimit
	if over < 0 || st.daysOff <= 0 {
		return 0
	}
	return int(min(engine.Millis(st.daysOff), over/Day+1))
}

// corrDue returns, for a seat whose turn is under way at a correspondence
// table, when its move is due at clock c (the move limit, and the days off
// spent so far), and whether its bot plays it then: it has no day off left.
func (x *Match) corrDue(st *seat, c engine.Millis) (engine.Millis, bool) {
	used := x.daysUsed(st, c)
	return st.turnStart + x.set.MoveLimit + engine.Millis(used)*Day, used == st.daysOff
}

// bound reports whether seat i must move before a deadline now: a human
// seat whose human plays it and whose turn it is, at a table with a move
// limit, in a game that is not real-time.
func (x *Match) bound(i int) bool {
	st := x.seats[i]
	return x.set.MoveLimit > 0 && !x.realTime && st.isActor && !st.byBot && x.rec.Seats[i].Kind == Human
}

// seatDeadline returns when seat i's move is due, as a wall time, and the
// days off it has left, at a correspondence table; nil where there is none.
func (x *Match) seatDeadline(i int, now time.Time) (*time.Time, *int) {
	if !x.set.Correspondence || x.rec.Seats[i].Kind != Human {
		return nil, nil
	}
	st := x.seats[i]
	left := st.daysOff
	if x.rec.Status == store.Open {
		left = x.set.DaysOff
	}
	if x.rec.Status != store.Running || !x.bound(i) {
		return nil, &left
	}
	c := x.clock(now)
	due, _ := x.corrDue(st, c)
	left -= x.daysUsed(st, c)
	by := x.wall(due).UTC().Truncate(time.Millisecond)
	return &by, &left
}

// spendDaysOff notes the days off each bound seat has begun to spend by
// clock c, and reports whether any was spent since it was last told.
func (x *Match) spendDaysOff(c engine.Millis) bool {
	spent := false
	for i, st := range x.seats {
		if !x.bound(i) {
			continue
		}
		if u := x.daysUsed(st, c); u != st.told {
			if u > st.told {
				x.log.Info("a player out of time takes a day off", "seat", i, "days_off_left", st.daysOff-u)
			}
			st.told, spent = u, true
		}
	}
	return spent
}

// abandonAfter is how long the match runs with no player connected before
// it is abandoned: at a correspondence table, at least three move limits
// and its days off, which players who come by once a turn may well leave
// between their visits.
func (x *Match) abandonAfter() time.Duration {
	d := x.mgr.abandonAfter
	if d <= 0 || !x.set.Correspondence {
		return d
	}
	corr := float64(3*x.set.MoveLimit+engine.Millis(x.set.DaysOff)*Day) * float64(time.Millisecond) / x.mgr.speed
	return max(d, time.Duration(corr))
}

// turnsOf returns what rebuilds a correspondence table's turns and days
// off from its log: replayAll shows it each state of the replay, and it
// plays them through trackActors as they were played (each record's time
// is when it was played). It sets x.state and x.lastAt as it goes: the
// caller sets them once the replay is over, and then calls replayed. The
// turns the replay goes through were told when they were played: none is
// told again (see noticeTurn).
func (x *Match) turnsOf() func(engine.State, *engine.Record) {
	x.replaying = true
	for _, st := range x.seats {
		st.isActor, st.turnStart, st.daysOff, st.told = false, 0, x.set.DaysOff, 0
	}
	// (x.seq counts the records again, for each turn's number: the whole
	// log read, it is what it was.)
	x.lastAt, x.seq = 0, 0
	return func(s engine.State, r *engine.Record) {
		x.state = s
		actor := engine.Spectator
		if r != nil {
			x.lastAt = r.At
			x.seq++
			if r.Action != nil {
				actor = r.Seat
			}
		}
		x.trackActors(actor)
	}
}

// replayed ends a replay of the log through turnsOf: the seats whose turn
// it is now are told (again) to the notices, under the turn's own key, so
// that a notice lost in a crash is given, and one given already is the
// same notice.
func (x *Match) replayed() {
	x.replaying = false
	for i, st := range x.seats {
		if st.isActor {
			x.noticeTurn(i)
		}
	}
}
