// Package sim plays games between bots, one at a time or by the thousand on
// every core, and sums up what happened: win rates by seat and by policy with
// 95% intervals, distributions of game lengths and scores, speed. It is also
// a small lab: sweeps over player counts, options and bot lineups
// ([ParseAxis], [Sweep], [RunAll]) and a self-contained HTML report with
// charts ([Report]).
//
// Games run on a virtual clock: a bot's modelled reaction time moves match
// time forward, deadlines fire when they are due, and nothing waits for the
// wall clock, so a ten-minute real-time game plays in microseconds. Bots see
// only their seat's view, events and legal actions, exactly as in a live
// match, and search bots samples of the state drawn from their seat's point
// of view (see bot.Ask). This package must never import a concrete game.
package sim

import (
	"errors"
	"fmt"
	"math"

	"sortie/bot"
	"sortie/engine"
)

// Result is what one game gave.
type Result struct {
	Outcome engine.Outcome
	// Actions is the number of actions applied.
	Actions int
	// Clock is the match time at the end.
	Clock engine.Millis
	// Log is the game's action log, kept when asked for.
	Log []engine.Record
	// Rated is what the match is for rating, when the game says
	// (engine.Rated); nil otherwise.
	Rated *engine.Result
}

// PlayOne plays one game between bots of the given policies, one per seat.
func PlayOne(g engine.Game, setup engine.Setup, policies []bot.Policy) (Result, error) {
	return Play(g, setup, policies, false)
}

// pending is a bot's decision waiting for its time.
type pending struct {
	action engine.Action // nil: the bot only asked to be woken
	at     engine.Millis
}

// pollEvery is how often, in match time, a real-time seat with no legal
// action looks again whether it may act.
const pollEvery engine.Millis = 100

// maxRefusals bounds how many actions in a row bots may have refused before
// the game is declared stuck: a bot that keeps choosing illegal actions is a
// bug, not a strategy.
const maxRefusals = 10000

// Play plays one game between bots; keepLog keeps the action log in the
// result.
func Play(g engine.Game, setup engine.Setup, policies []bot.Policy, keepLog bool) (Result, error) {
	info := g.Info()
	if len(policies) != setup.Players {
		return Result{}, fmt.Errorf("%d policies for %d seats", len(policies), setup.Players)
	}
	opts, err := info.Check(setup)
	if err != nil {
		return Result{}, err
	}
	s, err := g.New(setup)
	if err != nil {
		return Result{}, err
	}
	n := setup.Players
	bots := make([]bot.Bot, n)
	observers := make([]bot.Observer, n)
	for p := range n {
		bots[p] = policies[p].NewBot(g, bot.Seating{
			Seat: engine.Seat(p), Players: n, Options: opts,
			Seed: engine.Mix(setup.Seed, uint64(1000+p)),
		})
		if o, ok := bots[p].(bot.Observer); ok {
			observers[p] = o
			o.Observe(s.View(engine.Seat(p)), nil)
		}
	}
	realTime := info.Timing == engine.RealTime
	// Real-time bots that decide from their view alone are asked without
	// listing their legal actions, except right after a refusal (see
	// bot.ViewOnly).
	viewOnly := make([]bool, n)
	for p := range n {
		_, ok := bots[p].(bot.ViewOnly)
		viewOnly[p] = realTime && ok
	}
	refused := make([]bool, n)
	waiting := make([]pending, n)
	has := make([]bool, n) // waiting[p] holds a decision
	isActor := make([]bool, n)
	var res Result
	var now engine.Millis
	refusals := 0
	tell := func(evs []engine.Event) {
		for p, o := range observers {
			if o != nil {
				o.Observe(s.View(engine.Seat(p)), engine.Visible(nil, evs, engine.Seat(p)))
			}
		}
	}
	for steps := 0; ; steps++ {
		if out, over := s.Outcome(); over {
			res.Outcome, res.Clock = out, now
			if rs, ok := s.(engine.Rated); ok {
				if r, ok := rs.RatedResult(); ok {
					res.Rated = &r
				}
			}
			return res, nil
		}
		if steps > 4*info.MaxActions+maxRefusals {
			return res, fmt.Errorf("the game did not end after %d steps", steps)
		}
		actors := s.Actors()
		clear(isActor)
		for _, p := range actors {
			isActor[p] = true
			if has[p] {
				continue
			}
			var legal []engine.Action
			if !viewOnly[p] || refused[p] {
				legal = s.Legal(p)
				if len(legal) == 0 {
					// Real time: this seat must wait (a cooldown, say);
					// look again a little later.
					waiting[p], has[p] = pending{at: now + pollEvery}, true
					continue
				}
			}
			refused[p] = false
			d := bot.Ask(bots[p], s, p, legal, now)
			if !realTime {
				d.Delay = 0
			}
			if d.Action == nil && d.Delay <= 0 {
				return res, fmt.Errorf("%s's %s bot did nothing and asked to be woken at once", p, policies[p].Name())
			}
			waiting[p], has[p] = pending{action: d.Action, at: now + max(d.Delay, 0)}, true
		}
		who := -1
		for p := range n {
			if !isActor[p] {
				has[p] = false
			} else if has[p] && (who < 0 || waiting[p].at < waiting[who].at) {
				who = p
			}
		}
		dl, hasDl := s.Deadline()
		if hasDl && (who < 0 || dl <= waiting[who].at) {
			// Time passes to the deadline; what bots had decided before it is
			// decided again in the light of what happened.
			evs := s.Advance(dl)
			now = max(now, dl)
			if keepLog {
				res.Log = append(res.Log, engine.Record{At: dl})
			}
			clear(has)
			tell(evs)
			continue
		}
		if who < 0 {
			return res, errors.New("the game is stuck: nobody acts and nothing is scheduled")
		}
		w := waiting[who]
		has[who] = false
		at := max(now, w.at)
		if w.action == nil {
			now = at
			tell(s.Advance(now))
			continue
		}
		rec := engine.Record{Seat: engine.Seat(who), Action: w.action, At: at}
		evs, err := engine.Play(s, rec)
		now = at
		if err != nil {
			var re *engine.RuleError
			if !errors.As(err, &re) {
				return res, fmt.Errorf("%s's action failed without a rule error: %v", rec.Seat, err)
			}
			refused[who] = true
			if refusals++; refusals > maxRefusals {
				return res, fmt.Errorf("bots had %d actions in a row refused; the last: %v", refusals, err)
			}
			tell(evs)
			continue
		}
		refusals = 0
		res.Actions++
		if keepLog {
			res.Log = append(res.Log, rec)
		}
		tell(evs)
	}
}

// Interval is a proportion with its 95% Wilson score interval.
type Interval struct {
	P  float64 `json:"p"`
	Lo float64 `json:"lo"`
	Hi float64 `json:"hi"`
}

// Wilson returns the proportion k/n with its 95% Wilson interval.
func Wilson(k, n float64) Interval {
	if n == 0 {
		return Interval{}
	}
	const z = 1.959964
	p := k / n
	den := 1 + z*z/n
	c := (p + z*z/(2*n)) / den
	h := z * math.Sqrt(p*(1-p)/n+z*z/(4*n*n)) / den
	return Interval{P: p, Lo: max(0, c-h), Hi: min(1, c+h)}
}

func (i Interval) String() string {
	return fmt.Sprintf("%5.1f%% [%5.1f, %5.1f]", 100*i.P, 100*i.Lo, 100*i.Hi)
}
