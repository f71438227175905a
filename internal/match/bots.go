// The bots of a match: who asks them, when their moves are played, and how a
// bot that searches thinks aside from the match.

package match

import (
	"context"
	"errors"
	"time"

	"sortie/bot"
	"sortie/engine"
	"sortie/internal/store"
)

// botFor returns the bot of seat s, making it if needed. A bot that remembers
// is shown the match so far, as its seat saw it.
func (x *Match) botFor(s engine.Seat) bot.Bot {
	st := x.seats[s]
	if st.bot != nil {
		return st.bot
	}
	p, err := bot.Find(x.game, x.rec.Seats[s].Bot)
	if err != nil {
		x.log.Warn("the seat's bot is gone; a random bot plays", "seat", int(s), "err", err)
		p = bot.Random{}
	}
	b := p.NewBot(x.game, bot.Seating{
		Seat: s, Players: len(x.seats), Options: x.opts, Seed: engine.Mix(x.set.BotSeed, uint64(s)),
	})
	if o, ok := b.(bot.Observer); ok {
		x.catchUp(s, o)
	}
	st.bot = b
	return b
}

// catchUp shows an observing bot the whole match so far, record by record.
func (x *Match) catchUp(s engine.Seat, o bot.Observer) {
	if x.seq == 0 {
		o.Observe(x.state.View(s), nil)
		return
	}
	log, err := x.mgr.logRecords(context.Background(), x.id, int(x.seq))
	var st engine.State
	if err == nil {
		st, err = x.game.New(x.rec.Setup)
	}
	if err != nil {
		x.log.Warn("a bot cannot catch up; it sees the present only", "err", err)
		o.Observe(x.state.View(s), nil)
		return
	}
	o.Observe(st.View(s), nil)
	for _, raw := range log {
		r, err := engine.DecodeRecord(x.game, raw)
		if err != nil {
			break
		}
		evs, _ := engine.Play(st, r)
		o.Observe(st.View(s), engine.Visible(nil, evs, s))
	}
}

// plan asks the bots that play an acting seat, and have no move waiting,
// for their next move.
func (x *Match) plan(clock engine.Millis) {
	if x.rec.Status != store.Running || x.stall != nil || x.fenced {
		return
	}
	for i, st := range x.seats {
		if !st.isActor || !(st.byBot || x.rec.Seats[i].Kind == Bot) {
			st.pending = nil
			continue
		}
		if st.pending != nil || st.thinking != 0 {
			continue
		}
		s := engine.Seat(i)
		legal := x.state.Legal(s)
		if len(legal) == 0 {
			if x.realTime {
				st.pending = &move{due: clock + botPoll}
			}
			continue
		}
		if !x.realTime {
			x.think(s, legal, clock, false)
			continue
		}
		d := x.mgr.budget.ask(x.botFor(s), x.state, s, legal, clock, false, x.quit)
		if d.Action == nil && d.Delay <= 0 {
			d.Delay = botPoll
		}
		st.pending = &move{action: d.Action, due: clock + max(d.Delay, 0)}
	}
}

// think has the bot of seat s decide on a goroutine of its own, on a clone
// of the state; its answer comes back through the inbox (see decided). The
// bot is not used by the match until then. forced: the bot plays for its
// human, who is out of time.
func (x *Match) think(s engine.Seat, legal []engine.Action, clock engine.Millis, forced bool) {
	st := x.seats[s]
	b := x.botFor(s)
	x.tickets++
	ticket, state, turnStart, people := x.tickets, x.state.Clone(), st.turnStart, x.people()
	st.thinking = ticket
	go func() {
		var d bot.Decision // no action if the bot panics: decided plays legal[0]
		func() {
			defer func() {
				if r := recover(); r != nil {
					x.log.Error("a bot failed to decide; its seat plays its first legal move", "seat", int(s), "panic", r)
				}
			}()
			d = x.mgr.budget.ask(b, state, s, legal, clock, people, x.quit)
		}()
		x.post(func() { x.decided(s, ticket, d.Action, legal, clock, forced, turnStart) })
	}()
}

// decided takes the answer of the bot of seat s to the decision of the given
// ticket, asked at clock: it is played BotDelay after it was asked, or at
// once for a human out of time (forced), once the bot is told what its seat
// saw meanwhile. An answer to a forgotten question (the match was rebuilt)
// is dropped, and so is one the seat no longer needs (the match ended, a
// human took the seat back, the human out of time moved after all: their
// turn began again since turnStart); a move the state no longer allows is
// refused when its time comes, and the bot asked again.
func (x *Match) decided(s engine.Seat, ticket uint64, a engine.Action, legal []engine.Action, clock engine.Millis, forced bool, turnStart engine.Millis) {
	st := x.seats[s]
	if st.thinking != ticket {
		return
	}
	st.thinking = 0
	if o, ok := st.bot.(bot.Observer); ok {
		for _, m := range st.missed {
			o.Observe(m.view, m.evs)
		}
	}
	st.missed = nil
	if a == nil {
		// Only real-time bots may wait; any other game's bot must move.
		a = legal[0]
	}
	if x.rec.Status != store.Running || x.stall != nil || !st.isActor {
		return // (asked again once the match goes on)
	}
	if forced {
		if st.byBot || x.rec.Seats[s].Kind != Human || st.turnStart != turnStart {
			return
		}
		at := x.clock(time.Now())
		if x.advance(at) {
			return
		}
		x.log.Info("move played by the seat's bot: out of time", "seat", int(s))
		x.playBot(s, a, at)
		if st.isActor && st.turnStart < at {
			st.turnStart = at
		}
		if x.set.Correspondence {
			// Its next move out of time is a day away at least: the bot
			// is made again then (one that remembers catches up from
			// the log) rather than held meanwhile.
			st.bot = nil
		}
		return
	}
	if st.byBot || x.rec.Seats[s].Kind == Bot {
		st.pending = &move{action: a, due: clock + x.set.BotDelay}
	}
}

// playPending plays the waiting move of seat s.
func (x *Match) playPending(s engine.Seat, now time.Time) {
	st := x.seats[s]
	m := st.pending
	st.pending = nil
	at := x.clock(now)
	if x.advance(at) || m.action == nil {
		return // plan decides again
	}
	x.playBot(s, m.action, at)
}

// forceMove has the bot of a human seat out of time (in a game that is not
// real-time: real-time games have no move limit) play one move, once it has
// thought it out (see think and decided).
func (x *Match) forceMove(s engine.Seat, clock engine.Millis) {
	if x.seats[s].thinking != 0 {
		return // its bot is busy with a question: asked again when it answers
	}
	legal := x.state.Legal(s)
	if len(legal) == 0 {
		x.seats[s].turnStart = clock // nothing to play: the limit starts again
		return
	}
	x.think(s, legal, clock, true)
}

// playBot plays a bot's move and records it.
func (x *Match) playBot(s engine.Seat, a engine.Action, at engine.Millis) {
	st := x.seats[s]
	err := x.play(engine.Record{Seat: s, Action: a, At: at}, s, -1, "bot")
	var re *engine.RuleError
	if !errors.As(err, &re) {
		return // played, or waiting for the store
	}
	st.refusals++
	if st.refusals >= maxRefusals {
		x.log.Error("a bot keeps playing refused moves; it rests a while", "seat", int(s), "err", err)
		st.refusals = 0
		st.pending = &move{due: at + 10*botPoll}
	}
}
