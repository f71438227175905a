// Package match runs live matches: one goroutine per match owns its state,
// its seats and its clock, and everything that touches the match — an action
// of a client, a connection, a join, the start, a timer — reaches that goroutine
// through its inbox, so the rules need no locks.
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
// This package must never know a concrete game, and must never let anything
// of a state but its views, and the clones its thinking bots own, leave the
// goroutine that owns it.
package match

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strconv"
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
	stop  chan struct{} // closed by the manager to stop the match
	quit  chan struct{} // closed when the goroutine has ended

	// Fixed when the match is loaded; read from any goroutine.
	hostHash    []byte
	tokenHashes [][]byte

	// Owned by the match's goroutine.
	rec        *store.Match
	opts       engine.Options
	set        settings
	state      engine.State
	seq        uint64
	tickets    uint64        // questions put to thinking bots so far
	lastAt     engine.Millis // time of the last record
	clockBase  engine.Millis // match clock at clockWall
	clockWall  time.Time
	savedClock time.Time // when the clock was last saved (real time)
	seats      []*seat
	spectators map[*bus.Subscription]bool
	specMemo   *viewMemo // what spectators were last sent of their view
	idleSince  time.Time // finished with nobody watching since
	realTime   bool
	broken     bool   // the state could not be rebuilt after a store failure
	owner      string // CreateRequest.Owner until Hooks.Ended is told
}

// seat is what the match knows of one seat beyond the store.
type seat struct {
	sub       *bus.Subscription // the socket of the seat's human, if connected
	memo      *viewMemo         // what the socket was last sent of the seat's view
	byBot     bool              // played by its bot now
	bot       bot.Bot
	pending   *move         // the bot's next move, waiting for its time
	thinking  uint64        // the ticket of the bot's decision under way, 0 if none
	missed    []seen        // what the seat saw while its bot was thinking
	away      engine.Millis // match clock when the human left (or the clock resumed)
	isActor   bool
	turnStart engine.Millis // match clock when the seat's turn began
	refusals  int           // bot moves refused in a row
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
// in match time; how often a real-time match saves its clock.
const (
	botPoll       engine.Millis = 250
	clockSaveWall               = 5 * time.Second
	maxRefusals                 = 20
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

// do runs fn on the match's goroutine and returns its answer. ctx bounds the
// wait for a place in the inbox; once taken, fn runs to its end.
func (x *Match) do(ctx context.Context, fn func() error) error {
	done := make(chan error, 1)
	select {
	case x.inbox <- func() { done <- fn() }:
	case <-x.quit:
		return errGone
	case <-ctx.Done():
		return refuse(CodeUnavailable, "The match is too busy to answer now; try again.")
	}
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

// run is the match's goroutine.
func (x *Match) run() {
	defer close(x.quit)
	defer func() {
		if r := recover(); r != nil {
			x.log.Error("match stopped by a panic", "panic", r)
			x.closeSubs(bus.ErrClosed)
			x.mgr.forget(x)
		}
	}()
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	if x.rec.Status == store.Running {
		x.finishIfOver(time.Now())
	}
	for {
		now := time.Now()
		x.tick(now)
		if x.unloadable(now) {
			x.mgr.forget(x)
			x.closeSubs(bus.ErrClosed)
			x.drain()
			return
		}
		timer.Reset(x.nextDue(now).Sub(now)) // since Go 1.23, no stale tick survives a Reset
		select {
		case fn := <-x.inbox:
			fn()
		case <-timer.C:
		case <-x.stop:
			x.saveClock(time.Now())
			x.closeSubs(bus.ErrClosed)
			x.drain()
			return
		}
	}
}

// drain answers the requests already queued, which arrived before the match
// stopped taking any, with errGone.
func (x *Match) drain() {
	for {
		select {
		case fn := <-x.inbox:
			_ = fn
			// The request's caller sees quit closed and answers errGone
			// itself; running fn now would act on a match that is gone.
		default:
			return
		}
	}
}

// clock returns the match clock at wall time now.
func (x *Match) clock(now time.Time) engine.Millis {
	if x.rec.Status != store.Running {
		return max(x.clockBase, x.lastAt)
	}
	c := x.clockBase + engine.Millis(float64(now.Sub(x.clockWall))*x.mgr.speed/float64(time.Millisecond))
	return max(c, x.lastAt)
}

// wall returns when the match clock reaches c.
func (x *Match) wall(c engine.Millis) time.Time {
	return x.clockWall.Add(time.Duration(float64(c-x.clockBase) * float64(time.Millisecond) / x.mgr.speed))
}

// tick does everything that is due at now: deadlines, takeovers, moves out of
// time, bot moves; then it asks bots for their next moves.
func (x *Match) tick(now time.Time) {
	if x.rec.Status != store.Running || x.broken {
		return
	}
	clock := x.clock(now)
	// Deadlines of real time.
	for range 64 {
		dl, ok := x.state.Deadline()
		if !ok || dl > clock || x.rec.Status != store.Running {
			break
		}
		if !x.advance(clock) {
			break
		}
	}
	seatsChanged := false
	for i, st := range x.seats {
		if x.rec.Status != store.Running {
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
		// A human out of time has the move played by the seat's bot.
		if human && !st.byBot && st.isActor && x.set.MoveLimit > 0 && clock-st.turnStart >= x.set.MoveLimit && !x.realTime {
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
	if x.rec.Status == store.Running && x.realTime && now.Sub(x.savedClock) >= clockSaveWall {
		x.saveClock(now)
	}
	x.plan(x.clock(now))
}

// nextDue returns when tick has something to do next.
func (x *Match) nextDue(now time.Time) time.Time {
	next := now.Add(time.Hour)
	at := func(t time.Time) {
		if t.Before(next) {
			next = t
		}
	}
	if x.rec.Status == store.Finished && x.idle() {
		at(x.idleSince.Add(x.mgr.linger))
	}
	if x.rec.Status != store.Running || x.broken {
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
		if human && !st.byBot && st.isActor && x.set.MoveLimit > 0 && !x.realTime && st.thinking == 0 {
			at(x.wall(st.turnStart + x.set.MoveLimit)) // (a thinking bot's answer wakes the match)
		}
	}
	if x.realTime {
		at(x.savedClock.Add(clockSaveWall))
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

func (x *Match) unloadable(now time.Time) bool {
	return x.rec.Status == store.Finished && x.idle() && now.Sub(x.idleSince) >= x.mgr.linger
}

// advance lets the match time pass up to at. If that fired events, it logs a
// time-only record, broadcasts, and reports true.
func (x *Match) advance(at engine.Millis) bool {
	at = max(at, x.lastAt)
	evs := x.state.Advance(at)
	if len(evs) == 0 {
		return false
	}
	// What bots had decided is decided again in the light of what happened.
	for _, st := range x.seats {
		st.pending = nil
	}
	x.commit(engine.Record{At: at}, evs, engine.Spectator, -1, "clock")
	return true
}

// commit appends a record whose effects are already applied to the state,
// then tells everyone. If the store refuses it, the state is rebuilt from the
// log so that it matches what is stored again.
func (x *Match) commit(r engine.Record, evs []engine.Event, actor engine.Seat, ack int64, source string) error {
	data, err := r.MarshalJSON()
	if err == nil {
		err = x.mgr.store.Append(context.Background(), x.id, int(x.seq)+1, data, r.At)
	}
	if err != nil {
		x.log.Error("cannot store a record; rebuilding the match", "err", err)
		x.rebuild()
		return refuse(CodeUnavailable, "The server could not save your action; it was not played. Try again.")
	}
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
	return nil
}

// rebuild replays the stored log after a failed write.
func (x *Match) rebuild() {
	log, err := x.mgr.store.Log(context.Background(), x.id)
	var s engine.State
	if err == nil {
		s, x.lastAt, err = replay(x.game, x.rec.Setup, log)
	}
	if err != nil {
		x.log.Error("cannot rebuild the match; it stops taking actions", "err", err)
		x.broken = true
		return
	}
	x.state, x.seq = s, uint64(len(log))
	x.rec.Records = len(log)
	for _, st := range x.seats {
		// Bots that remember catch up again; an answer still being thought
		// out is dropped when it arrives.
		st.pending, st.bot, st.thinking, st.missed = nil, nil, 0, nil
	}
	x.trackActors(engine.Spectator)
}

// replay builds a state from a setup and a stored log.
func replay(g engine.Game, setup engine.Setup, log [][]byte) (engine.State, engine.Millis, error) {
	s, err := g.New(setup)
	if err != nil {
		return nil, 0, err
	}
	var last engine.Millis
	for i, raw := range log {
		r, err := engine.DecodeRecord(g, raw)
		if err != nil {
			return nil, 0, errors.New("record " + strconv.Itoa(i+1) + ": " + err.Error())
		}
		if _, err := engine.Play(s, r); err != nil {
			return nil, 0, errors.New("record " + strconv.Itoa(i+1) + ": " + err.Error())
		}
		last = r.At
	}
	return s, last, nil
}

// finishIfOver ends the match if its game is over.
func (x *Match) finishIfOver(now time.Time) {
	out, over := x.state.Outcome()
	if !over || x.rec.Status == store.Finished {
		return
	}
	clock := x.clock(now)
	if err := x.mgr.store.Finish(context.Background(), x.id, out, clock, now); err != nil {
		// The log is complete; the next start finds the game over and
		// finishes it again.
		x.log.Error("cannot store the outcome", "err", err)
	}
	x.clockBase, x.clockWall = clock, now
	x.rec.Status, x.rec.Finished, x.rec.Outcome, x.rec.Clock = store.Finished, now, &out, clock
	x.idleSince = now
	for _, st := range x.seats {
		st.pending = nil
	}
	x.log.Info("match finished", "records", x.seq, "summary", out.Summary)
	x.mgr.ended(x)
}

// trackActors notes when each seat's turn began.
func (x *Match) trackActors(actor engine.Seat) {
	var actors []engine.Seat
	if x.rec.Status == store.Running {
		actors = x.state.Actors()
	}
	for i, st := range x.seats {
		is := false
		for _, a := range actors {
			if int(a) == i {
				is = true
				break
			}
		}
		if is && (!st.isActor || engine.Seat(i) == actor) {
			st.turnStart = x.lastAt
		}
		st.isActor = is
	}
}

// broadcast tells every audience with a listener its view and events, and
// every bot that remembers what its seat saw.
func (x *Match) broadcast(evs []engine.Event, actor engine.Seat, ack int64) {
	f := x.newFrame(TypeUpdate, x.lastAt, evs)
	for i, st := range x.seats {
		s := engine.Seat(i)
		if st.sub != nil {
			a := int64(-1)
			if s == actor {
				a = ack
			}
			if st.memo == nil {
				st.memo = &viewMemo{}
			}
			x.mgr.bus.Publish(bus.Topic{Match: x.id, Seat: s}, bus.Message{Seq: x.seq, Data: x.encodeFor(f, s, a, nil, st.memo)})
		} else {
			st.memo = nil // nobody saw this state's view: the next one goes whole
		}
		if o, ok := st.bot.(bot.Observer); ok {
			if st.thinking != 0 { // told when it has answered: one goroutine at a time
				st.missed = append(st.missed, seen{x.state.View(s), engine.Visible(nil, evs, s)})
			} else {
				o.Observe(x.state.View(s), engine.Visible(nil, evs, s))
			}
		}
	}
	if len(x.spectators) > 0 {
		if x.specMemo == nil {
			x.specMemo = &viewMemo{}
		}
		x.mgr.bus.Publish(bus.Topic{Match: x.id, Seat: engine.Spectator},
			bus.Message{Seq: x.seq, Data: x.encodeFor(f, engine.Spectator, -1, nil, x.specMemo)})
	} else {
		x.specMemo = nil
	}
}

// newFrame prepares a message of type typ about the current state.
func (x *Match) newFrame(typ string, clock engine.Millis, evs []engine.Event) *frame {
	f := &frame{typ: typ, seq: x.seq, status: x.rec.Status, clock: clock, events: evs}
	if x.rec.Status == store.Running {
		f.actors = x.state.Actors()
	}
	if len(evs) > 0 {
		f.evJSON = make([][]byte, len(evs))
		for i, e := range evs {
			b, err := e.MarshalJSON()
			if err != nil {
				x.log.Error("cannot encode an event", "type", e.Body.Kind(), "err", err)
				b = []byte(`{"type":"unencodable"}`)
			}
			f.evJSON[i] = b
		}
	}
	if x.rec.Outcome != nil {
		f.outcome, _ = json.Marshal(x.rec.Outcome)
	}
	return f
}

// encodeFor encodes f for audience s from s's view alone. With a memo of
// what the audience was sent of the state before, the message carries only
// what changed in the view (see viewMemo).
func (x *Match) encodeFor(f *frame, s engine.Seat, ack int64, head []byte, memo *viewMemo) []byte {
	view, err := json.Marshal(x.state.View(s))
	if err != nil {
		x.log.Error("cannot encode a view", "seat", s, "err", err)
		view = []byte(`null`)
	}
	var patch, drop []byte
	if memo != nil {
		var ok bool
		if patch, drop, ok = memo.patch(view, f.seq); !ok {
			patch, drop = nil, nil
		}
	}
	// People are shown what the game offers them (its legal actions, unless
	// listing those would give a puzzle away); bots choose from Legal.
	var legal []engine.Action
	if s >= 0 && x.rec.Status == store.Running && x.seats[s].isActor {
		legal = engine.Offer(x.state, s)
	}
	return f.encode(s, view, patch, drop, legal, ack, head)
}

// snapshot is the full state message for audience s.
func (x *Match) snapshot(s engine.Seat, now time.Time) []byte {
	f := x.newFrame(TypeState, x.clock(now), nil)
	head, _ := json.Marshal(struct {
		Match string        `json:"match"`
		Game  string        `json:"game"`
		Seat  engine.Seat   `json:"seat"`
		Seats []SeatSummary `json:"seats"`
	}{x.id, x.info.ID, s, x.seatSummaries()})
	// Splice the head's fields in front of the frame's own.
	head = append(head[1:len(head)-1], ',')
	return x.encodeFor(f, s, -1, head, nil)
}

func (x *Match) seatSummaries() []SeatSummary {
	out := make([]SeatSummary, len(x.seats))
	for i, st := range x.seats {
		r := x.rec.Seats[i]
		by := Human
		if r.Kind == Bot || st.byBot {
			by = Bot
		}
		out[i] = SeatSummary{
			Seat: engine.Seat(i), Kind: r.Kind, Bot: r.Bot, Name: r.Name, Joined: r.Joined,
			Connected: st.sub != nil, PlayedBy: by,
		}
	}
	return out
}

// publishSeats tells every audience who is connected and who plays.
func (x *Match) publishSeats() {
	b, _ := json.Marshal(struct {
		Type  string        `json:"type"`
		Seq   uint64        `json:"seq"`
		Seats []SeatSummary `json:"seats"`
	}{TypeSeats, x.seq, x.seatSummaries()})
	for i, st := range x.seats {
		if st.sub != nil {
			x.mgr.bus.Publish(bus.Topic{Match: x.id, Seat: engine.Seat(i)}, bus.Message{Data: b})
		}
	}
	if len(x.spectators) > 0 {
		x.mgr.bus.Publish(bus.Topic{Match: x.id, Seat: engine.Spectator}, bus.Message{Data: b})
	}
}

// publishState sends every audience a full snapshot (when the match starts).
func (x *Match) publishState(now time.Time) {
	for i, st := range x.seats {
		if st.sub != nil {
			x.mgr.bus.Publish(bus.Topic{Match: x.id, Seat: engine.Seat(i)}, bus.Message{Data: x.snapshot(engine.Seat(i), now)})
		}
	}
	if len(x.spectators) > 0 {
		x.mgr.bus.Publish(bus.Topic{Match: x.id, Seat: engine.Spectator}, bus.Message{Data: x.snapshot(engine.Spectator, now)})
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

func (x *Match) saveClock(now time.Time) {
	if x.rec.Status != store.Running {
		return
	}
	x.savedClock = now
	if err := x.mgr.store.SaveClock(context.Background(), x.id, x.clock(now)); err != nil {
		x.log.Warn("cannot save the match clock", "err", err)
	}
}

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
	log, err := x.mgr.store.Log(context.Background(), x.id)
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
	if x.rec.Status != store.Running || x.broken {
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
		d := bot.Ask(x.botFor(s), x.state, s, legal, clock)
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
	ticket, state, turnStart := x.tickets, x.state.Clone(), st.turnStart
	st.thinking = ticket
	go func() {
		var d bot.Decision // no action if the bot panics: decided plays legal[0]
		func() {
			defer func() {
				if r := recover(); r != nil {
					x.log.Error("a bot failed to decide; its seat plays its first legal move", "seat", int(s), "panic", r)
				}
			}()
			d = bot.Ask(b, state, s, legal, clock)
		}()
		select {
		case x.inbox <- func() { x.decided(s, ticket, d.Action, legal, clock, forced, turnStart) }:
		case <-x.quit: // the match is gone: nobody waits for the answer
		}
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
	if x.rec.Status != store.Running || x.broken || !st.isActor {
		return
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

// playBot applies a bot's move and records it.
func (x *Match) playBot(s engine.Seat, a engine.Action, at engine.Millis) {
	st := x.seats[s]
	evs, err := x.state.Apply(s, a, at)
	if err != nil {
		st.refusals++
		if st.refusals >= maxRefusals {
			x.log.Error("a bot keeps playing refused moves; it rests a while", "seat", int(s), "err", err)
			st.refusals = 0
			st.pending = &move{due: at + 10*botPoll}
		}
		return
	}
	x.commit(engine.Record{Seat: s, Action: a, At: at}, evs, s, -1, "bot")
}

// Act plays a client's action for seat s, chosen on the state numbered seq.
// It returns nil once the action is stored and broadcast (the seat's copy of
// the update carries the acknowledgement), or the refusal.
func (x *Match) Act(ctx context.Context, s engine.Seat, seq uint64, raw []byte) error {
	start := time.Now()
	err := x.do(ctx, func() error { return x.act(s, seq, raw) })
	if h := x.mgr.hooks.Handled; h != nil {
		code := ""
		if err != nil {
			code = AsError(err).Code
		}
		h(code, time.Since(start))
	}
	return err
}

func (x *Match) act(s engine.Seat, seq uint64, raw []byte) error {
	switch {
	case s < 0 || int(s) >= len(x.seats):
		return refuse(CodeUnknownSeat, "This match has no seat %d.", s)
	case x.rec.Seats[s].Kind != Human:
		return refuse(CodeNotHuman, "Seat %d is played by a bot.", s)
	case x.rec.Status == store.Open:
		return refuse(CodeNotStarted, "The match has not started yet.")
	case x.rec.Status == store.Finished:
		return engine.GameOver()
	case x.broken:
		return refuse(CodeUnavailable, "The match cannot take actions now: its log could not be read back.")
	}
	a, err := x.game.DecodeAction(raw)
	if err != nil {
		return err
	}
	if seq < x.seq {
		return refuse(CodeStaleSeq, "The match has moved on since state %d (it is at %d): look at the new state and choose again.", seq, x.seq)
	}
	if seq > x.seq {
		return refuse(CodeFutureSeq, "There is no state %d yet (the match is at %d).", seq, x.seq)
	}
	st := x.seats[s]
	if st.byBot {
		// The human is back: they play again.
		st.byBot, st.pending = false, nil
		x.publishSeats()
	}
	at := x.clock(time.Now())
	if x.advance(at) {
		return refuse(CodeStaleSeq, "Time ran on and the match changed before your action arrived: look at the new state and choose again.")
	}
	evs, err := x.state.Apply(s, a, at)
	if err != nil {
		return err
	}
	return x.commit(engine.Record{Seat: s, Action: a, At: at}, evs, s, int64(seq), "human")
}

// Watch is a connection to a match: the snapshot to send first, then the
// messages of the subscription.
type Watch struct {
	// Seat is the audience: a seat or engine.Spectator.
	Seat engine.Seat
	// State is the snapshot message; Seq is its sequence number: messages of
	// Sub about changes up to Seq are already in it.
	State []byte
	Seq   uint64
	// Sub brings the messages that follow the snapshot.
	Sub *bus.Subscription
}

// Watch connects an audience to the match: seat s (whose human is back, if a
// bot was playing for them; an older connection of the seat is replaced) or
// [engine.Spectator]. Call Unwatch when the connection ends.
func (x *Match) Watch(ctx context.Context, s engine.Seat) (*Watch, error) {
	var w *Watch
	err := x.do(ctx, func() error {
		if s != engine.Spectator && (s < 0 || int(s) >= len(x.seats)) {
			return refuse(CodeUnknownSeat, "This match has no seat %d.", s)
		}
		sub := x.mgr.bus.Subscribe(bus.Topic{Match: x.id, Seat: s}, x.mgr.buffer)
		if s == engine.Spectator {
			x.spectators[sub] = true
		} else {
			st := x.seats[s]
			if st.sub != nil {
				st.sub.Close(bus.ErrReplaced)
			}
			st.sub = sub
			if st.byBot && x.rec.Seats[s].Kind == Human {
				st.byBot, st.pending = false, nil
				x.log.Info("a human reclaims their seat", "seat", int(s))
			}
			x.publishSeats()
		}
		now := time.Now()
		w = &Watch{Seat: s, State: x.snapshot(s, now), Seq: x.seq, Sub: sub}
		return nil
	})
	return w, err
}

// Unwatch ends a connection made by Watch.
func (x *Match) Unwatch(w *Watch) {
	w.Sub.Close(nil)
	_ = x.do(context.Background(), func() error {
		now := time.Now()
		if w.Seat == engine.Spectator {
			delete(x.spectators, w.Sub)
		} else if st := x.seats[w.Seat]; st.sub == w.Sub {
			st.sub = nil
			st.away = x.clock(now)
			x.publishSeats()
		}
		if x.idle() {
			x.idleSince = now
		}
		return nil
	})
}

// Snapshot returns the state message of audience s, as sent on connecting.
func (x *Match) Snapshot(ctx context.Context, s engine.Seat) ([]byte, error) {
	var b []byte
	err := x.do(ctx, func() error {
		if s != engine.Spectator && (s < 0 || int(s) >= len(x.seats)) {
			return refuse(CodeUnknownSeat, "This match has no seat %d.", s)
		}
		b = x.snapshot(s, time.Now())
		return nil
	})
	return b, err
}

// Join records that the human of seat s has joined under a name (empty keeps
// the seat's name). A match that starts by itself starts when the last human
// joins.
func (x *Match) Join(ctx context.Context, s engine.Seat, name string) (Summary, error) {
	var sum Summary
	err := x.do(ctx, func() error {
		name, err := CheckName(name)
		if err != nil {
			return err
		}
		switch {
		case s < 0 || int(s) >= len(x.seats):
			return refuse(CodeUnknownSeat, "This match has no seat %d.", s)
		case x.rec.Seats[s].Kind != Human:
			return refuse(CodeNotHuman, "Seat %d is played by a bot; only human seats can be joined.", s)
		case x.rec.Status == store.Finished:
			return refuse(CodeFinished, "The match is over.")
		}
		seat := x.rec.Seats[s]
		seat.Joined = true
		if name != "" {
			seat.Name = name
		}
		if err := x.mgr.store.SetSeat(context.Background(), x.id, int(s), seat); err != nil {
			x.log.Error("cannot store a join", "err", err)
			return refuse(CodeUnavailable, "The server could not save your seat; try again.")
		}
		x.rec.Seats[s] = seat
		x.publishSeats()
		if x.set.AutoStart && x.rec.Status == store.Open && x.allJoined() {
			if err := x.start(time.Now()); err != nil {
				return err
			}
		}
		sum = x.summary()
		return nil
	})
	return sum, err
}

func (x *Match) allJoined() bool {
	for _, s := range x.rec.Seats {
		if s.Kind == Human && !s.Joined {
			return false
		}
	}
	return true
}

// Start starts an open match.
func (x *Match) Start(ctx context.Context) (Summary, error) {
	var sum Summary
	err := x.do(ctx, func() error {
		if err := x.start(time.Now()); err != nil {
			return err
		}
		sum = x.summary()
		return nil
	})
	return sum, err
}

func (x *Match) start(now time.Time) error {
	switch x.rec.Status {
	case store.Running:
		return refuse(CodeStarted, "The match has already started.")
	case store.Finished:
		return refuse(CodeFinished, "The match is over.")
	}
	if err := x.mgr.store.Start(context.Background(), x.id, now); err != nil {
		x.log.Error("cannot store the start", "err", err)
		return refuse(CodeUnavailable, "The server could not start the match; try again.")
	}
	x.rec.Status, x.rec.Started = store.Running, now
	x.clockBase, x.clockWall, x.savedClock = x.lastAt, now, now
	for _, st := range x.seats {
		st.away = x.clockBase
	}
	x.trackActors(engine.Spectator)
	x.log.Info("match started")
	x.finishIfOver(now)
	x.publishState(now)
	return nil
}

// Summary returns the match as the lobby sees it, with who is connected.
func (x *Match) Summary(ctx context.Context) (Summary, error) {
	var sum Summary
	err := x.do(ctx, func() error {
		sum = x.summary()
		return nil
	})
	return sum, err
}

func (x *Match) summary() Summary {
	s := summarize(x.rec, x.opts)
	s.Seats = x.seatSummaries()
	s.Seq, s.Clock, s.Live = x.seq, x.clock(time.Now()), true
	return s
}
