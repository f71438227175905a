// The match clock: it runs while the match runs on this server, waits
// while the match waits for its store, and pauses when the server stops.
// A correspondence table's clock is the wall clock since its start instead
// (see correspondence.go): its deadlines are days away, and pass whether
// or not a server runs it.
//
// A real-time clock never goes back, not even after a crash: it runs on
// credit. Every ClockSave (a second by default) the match saves its clock
// two ClockSaves ahead of where it is, and the clock never runs past what
// was last saved. A server that crashes resumes the match from the clock
// saved ahead: later than where it stopped, by at most two ClockSaves,
// never earlier. A player sees the match jump on by a second or two after
// a crash (which paused it for longer anyway) rather than see time they
// already lived go round again, with its gongs and countdowns. A server
// that stops gracefully saves the exact clock, and the match resumes where
// it was.

package match

import (
	"context"
	"time"

	"sortie/engine"
	"sortie/internal/store"
)

// defaultClockSave is how often a running real-time match saves its clock,
// unless Config.ClockSave says otherwise.
const defaultClockSave = time.Second

// clock returns the match clock at wall time now.
func (x *Match) clock(now time.Time) engine.Millis {
	if x.stall != nil {
		return x.stall.clock
	}
	if x.rec.Status != store.Running {
		return max(x.clockBase, x.lastAt)
	}
	if x.set.Correspondence {
		return max(x.corrClock(now), x.lastAt)
	}
	c := x.clockBase + engine.Millis(float64(now.Sub(x.clockWall))*x.mgr.speed/float64(time.Millisecond))
	if x.realTime {
		c = min(c, max(x.credit, x.lastAt))
	}
	return max(c, x.lastAt)
}

// wall returns when the match clock reaches c.
func (x *Match) wall(c engine.Millis) time.Time {
	if x.wallClocked() {
		return x.rec.Started.Add(time.Duration(float64(c) * float64(time.Millisecond) / x.mgr.speed))
	}
	return x.clockWall.Add(time.Duration(float64(c-x.clockBase) * float64(time.Millisecond) / x.mgr.speed))
}

// creditDue reports whether a running real-time match should save its clock
// ahead now (see the top of this file); it has not since it started or
// resumed if savedClock is zero.
func (x *Match) creditDue(now time.Time) bool {
	return x.realTime && x.rec.Status == store.Running && !now.Before(x.nextCredit())
}

// The saves fall on whole ClockSaves of wall time (whole seconds by
// default), the same instants for every match of the node, so that their
// writes share one commit: a node of many real-time matches commits once a
// second for their clocks rather than once per match. The first save after
// a start comes at once, and the next ones at most one ClockSave apart, so
// that the clock always has at least a ClockSave of credit left.
func (x *Match) nextCredit() time.Time {
	if x.savedClock.IsZero() {
		return time.Time{}
	}
	d := x.mgr.clockSave
	// (The phase is read on the wall clock, the wait counted on the
	// monotonic one: a wall clock set back cannot hold a save back.)
	phase := x.savedClock.Sub(x.savedClock.Truncate(d))
	return x.savedClock.Add(d - phase)
}

// saveCredit saves the clock two ClockSaves ahead, after which the clock
// may run up to there.
func (x *Match) saveCredit(now time.Time) {
	ahead := engine.Millis(float64(2*x.mgr.clockSave) * x.mgr.speed / float64(time.Millisecond))
	credit := x.clock(now) + ahead
	x.savedClock = now
	m, id, epoch := x.mgr, x.id, x.rec.Lease.Epoch
	err := x.save("the match clock", func(ctx context.Context) error {
		return m.store.SaveClock(ctx, id, epoch, credit)
	}, func() { x.credit = credit })
	if err != nil && err != errPending && err != stalledErr {
		_ = x.refusedWrite("the match clock", err)
	}
}

// saveClock saves the exact clock of a running match that stops here (its
// server stops): it resumes from there.
func (x *Match) saveClock(now time.Time) {
	if x.rec.Status != store.Running || x.stall != nil {
		return
	}
	c := x.clock(now)
	if err := x.mgr.store.SaveClock(context.Background(), x.id, x.rec.Lease.Epoch, c); err != nil && !x.lost(err) {
		x.log.Warn("cannot save the match clock; the match resumes from the clock saved last", "err", err)
	}
}
