package term

import (
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"sortie/bot"
	"sortie/engine"
	"sortie/internal/match"
	"sortie/internal/store"
)

// Conn is the client's line to a match: the messages of a seat's socket
// (docs/api.md: state, update, seats, error), and the actions it sends. The
// match may run in this process (Local) or on a server (Dial).
type Conn interface {
	// Messages are the match's messages in order; the channel is closed
	// when the line is gone (Err then says why).
	Messages() <-chan *match.Message
	// Send sends an action chosen on state seq. The answer comes as a
	// message: the update that acknowledges it, or an error.
	Send(seq uint64, action json.RawMessage)
	// Err says why Messages was closed (nil: the match ended or Close).
	Err() error
	// Close hangs up.
	Close() error
}

// LocalConfig sets up a match played in this process against bots.
type LocalConfig struct {
	Game  engine.Game
	Setup engine.Setup
	// Seat is the person's seat; Name its name ("" for "Seat N").
	Seat engine.Seat
	Name string
	// Bots are the policies of every seat (the person's entry is unused).
	Bots []bot.Policy
	// BotNames are the names the policies were asked by (shown as on the web page).
	BotNames []string
	// Pace is the pause before each bot move in games without a clock.
	Pace time.Duration
	// ClockSpeed is how fast match time runs against the wall clock: 1 is
	// real time, 0 stops the clock (tests draw a real-time game at a fixed
	// moment with it).
	ClockSpeed float64
}

// local runs a match in this process as a server would run it for one
// human seat: it owns the state on one goroutine, lets the bots play at
// their pace, and speaks the socket's messages.
type local struct {
	cfg   LocalConfig
	out   chan *match.Message
	in    chan sent
	quit  chan struct{}
	done  chan struct{}
	err   error
	start time.Time
	seq   uint64
	s     engine.State
	bots  []bot.Bot
}

type sent struct {
	seq    uint64
	action json.RawMessage
}

// Local starts a match against bots; it runs until the game ends or Close.
func Local(cfg LocalConfig) (Conn, error) {
	s, err := cfg.Game.New(cfg.Setup)
	if err != nil {
		return nil, err
	}
	if cfg.ClockSpeed < 0 {
		cfg.ClockSpeed = 1
	}
	l := &local{cfg: cfg, out: make(chan *match.Message, 64), in: make(chan sent), quit: make(chan struct{}), done: make(chan struct{}), s: s}
	info := cfg.Game.Info()
	opts, _ := info.Check(cfg.Setup)
	n := cfg.Setup.Players
	l.bots = make([]bot.Bot, n)
	for p := range n {
		if engine.Seat(p) == cfg.Seat {
			continue
		}
		b := cfg.Bots[p].NewBot(cfg.Game, bot.Seating{Seat: engine.Seat(p), Players: n, Options: opts, Seed: engine.Mix(cfg.Setup.Seed, uint64(1000+p))})
		if o, ok := b.(bot.Observer); ok {
			o.Observe(s.View(engine.Seat(p)), nil)
		}
		l.bots[p] = b
	}
	l.start = time.Now()
	go l.run()
	return l, nil
}

func (l *local) Messages() <-chan *match.Message { return l.out }
func (l *local) Err() error                      { return l.err }

func (l *local) Send(seq uint64, action json.RawMessage) {
	select {
	case l.in <- sent{seq, action}:
	case <-l.done:
	}
}

func (l *local) Close() error {
	select {
	case <-l.quit:
	default:
		close(l.quit)
	}
	<-l.done
	return nil
}

// now is the match clock.
func (l *local) now() engine.Millis {
	return engine.Millis(float64(time.Since(l.start).Milliseconds()) * l.cfg.ClockSpeed)
}

// wait is the wall time until match time at.
func (l *local) wait(at engine.Millis) (time.Duration, bool) {
	if l.cfg.ClockSpeed == 0 {
		return 0, false
	}
	d := float64(at-l.now()) / l.cfg.ClockSpeed
	return time.Duration(max(d, 0) * float64(time.Millisecond)), true
}

func (l *local) seats() []match.SeatSummary {
	out := make([]match.SeatSummary, l.cfg.Setup.Players)
	for p := range out {
		out[p] = match.SeatSummary{Seat: engine.Seat(p), Kind: match.Bot, Bot: l.cfg.BotNames[p], Joined: true, PlayedBy: match.Bot}
		if engine.Seat(p) == l.cfg.Seat {
			out[p] = match.SeatSummary{Seat: engine.Seat(p), Kind: match.Human, Name: l.cfg.Name, Joined: true, Connected: true, PlayedBy: match.Human}
		}
	}
	return out
}

// message is the socket message of the state now, with the events the
// person's seat was told.
func (l *local) message(typ string, evs []engine.Event, ack *uint64) *match.Message {
	me := l.cfg.Seat
	m := &match.Message{Type: typ, Seq: l.seq, Ack: ack, Status: store.Running, Clock: l.now()}
	if typ == match.TypeState {
		m.Game = l.cfg.Game.Info().ID
		m.Seat = &me
		m.Seats = l.seats()
	}
	out, over := l.s.Outcome()
	if over {
		m.Status = store.Finished
		m.Outcome = &out
	} else {
		m.Actors = l.s.Actors()
	}
	m.View, _ = json.Marshal(l.s.View(me))
	for _, e := range engine.Visible(nil, evs, me) {
		b, err := e.MarshalJSON()
		if err == nil {
			m.Events = append(m.Events, b)
		}
	}
	if !over {
		for _, a := range m.Actors {
			if a != me {
				continue
			}
			for _, act := range engine.Offer(l.s, me) {
				if b, err := engine.MarshalTyped(act); err == nil {
					m.Legal = append(m.Legal, b)
				}
			}
		}
	}
	return m
}

func (l *local) emit(m *match.Message) bool {
	select {
	case l.out <- m:
		return true
	case <-l.quit:
		return false
	}
}

// advance lets match time pass to at and tells the person what it fired.
func (l *local) advance(at engine.Millis) {
	if evs := l.s.Advance(at); len(evs) > 0 {
		l.changed(evs, nil)
	}
}

// apply plays an action (time having passed to at first) and tells the
// person; a refused action changes nothing.
func (l *local) apply(p engine.Seat, a engine.Action, at engine.Millis, ack *uint64) error {
	l.advance(at)
	evs, err := l.s.Apply(p, a, at)
	if err != nil {
		return err
	}
	l.changed(evs, ack)
	return nil
}

// changed numbers the new state, shows it to the bots that remember, and
// sends the person its update.
func (l *local) changed(evs []engine.Event, ack *uint64) {
	l.seq++
	for p, b := range l.bots {
		if o, ok := b.(bot.Observer); ok {
			o.Observe(l.s.View(engine.Seat(p)), engine.Visible(nil, evs, engine.Seat(p)))
		}
	}
	l.emit(l.message(match.TypeUpdate, evs, ack))
}

type wakeup struct {
	action engine.Action
	at     engine.Millis
}

func (l *local) run() {
	defer close(l.done)
	defer close(l.out)
	g, me := l.cfg.Game, l.cfg.Seat
	realTime := g.Info().Timing == engine.RealTime
	n := l.cfg.Setup.Players
	if !l.emit(l.message(match.TypeState, nil, nil)) {
		return
	}
	waiting := make([]*wakeup, n)
	for {
		if _, over := l.s.Outcome(); over {
			// The person reads the end; the line stays open until Close.
			for {
				select {
				case <-l.quit:
					return
				case m := <-l.in:
					l.refuse(m.seq, &engine.RuleError{Code: engine.CodeGameOver, Message: "The game is over."})
				}
			}
		}
		now := l.now()
		isActor := make([]bool, n)
		for _, p := range l.s.Actors() {
			isActor[p] = true
			if p == me || waiting[p] != nil {
				continue
			}
			legal := l.s.Legal(p)
			if len(legal) == 0 {
				waiting[p] = &wakeup{at: now + 100}
				continue
			}
			d := bot.Ask(l.bots[p], l.s, p, legal, now)
			delay := d.Delay
			if !realTime {
				delay = engine.Millis(l.cfg.Pace.Milliseconds())
			}
			waiting[p] = &wakeup{action: d.Action, at: now + max(delay, 1)}
		}
		who := -1
		for p := range n {
			if !isActor[p] {
				waiting[p] = nil
			} else if waiting[p] != nil && (who < 0 || waiting[p].at < waiting[who].at) {
				who = p
			}
		}
		due := engine.Millis(-1)
		if who >= 0 {
			due = waiting[who].at
		}
		if dl, ok := l.s.Deadline(); ok && (due < 0 || dl <= due) {
			due, who = dl, -1
		}
		var timer <-chan time.Time
		if due >= 0 {
			if !realTime && who >= 0 {
				// Turn-based bots keep their pace on the wall clock.
				timer = time.After(time.Duration(due-now) * time.Millisecond)
			} else if d, ok := l.wait(due); ok {
				timer = time.After(d)
			}
		}
		select {
		case <-l.quit:
			return
		case m := <-l.in:
			l.act(m)
		case <-timer:
			if who < 0 {
				l.advance(max(due, l.now()))
				clear(waiting)
				continue
			}
			w := waiting[who]
			waiting[who] = nil
			at := max(l.now(), w.at)
			if !realTime {
				at = l.now()
			}
			if w.action == nil {
				l.advance(at)
				continue
			}
			_ = l.apply(engine.Seat(who), w.action, at, nil)
		}
	}
}

// act plays the person's action, chosen on state seq, as the server would.
func (l *local) act(m sent) {
	if m.seq != l.seq {
		code, msg := match.CodeStaleSeq, "The match moved on before your action arrived: look at the board and choose again."
		if m.seq > l.seq {
			code, msg = match.CodeFutureSeq, "This state does not exist yet."
		}
		l.refuse(m.seq, &engine.RuleError{Code: code, Message: msg})
		return
	}
	a, err := l.cfg.Game.DecodeAction(m.action)
	if err != nil {
		l.refuse(m.seq, err)
		return
	}
	ack := m.seq
	if err := l.apply(l.cfg.Seat, a, l.now(), &ack); err != nil {
		l.refuse(m.seq, err)
	}
}

func (l *local) refuse(seq uint64, err error) {
	var re *engine.RuleError
	if !errors.As(err, &re) {
		re = &engine.RuleError{Code: engine.CodeMalformed, Message: fmt.Sprint(err)}
	}
	l.emit(&match.Message{Type: match.TypeError, Re: &seq, Error: &match.Error{Code: re.Code, Message: re.Message, Params: re.Params}})
}
