package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"time"

	"sortie/bot"
	"sortie/engine"
	"sortie/games/all"
	"sortie/games/evades"
	"sortie/internal/match"
	"sortie/internal/server"
	"sortie/internal/server/client"
	"sortie/internal/store"
)

// How a load client plays its seat: as a person would, as far as the server
// can tell. In a game taken in turns it plays a random action among those
// the server offers as soon as it may, but never faster than the server lets
// one socket send (a person does not hammer). Where the offer is not enough
// (the answer to a puzzle is not offered, the list would be too long to
// show), it composes the action from its seat's view. In real time it plays
// with the game's own bot on its seat's view: the bots model a person's pace
// (reading, reaction, a roll's cooldown) and a person's mistakes.

// loadBrains are the games a random offered action does not play as a
// person would, keyed by game id.
var loadBrains = map[string]loadBrain{
	// Reacts in 0.6–1 s and waits for its roll cooldown (the view says
	// when it ends).
	"temple": {policy: "hard"},
	// Composes the run's arrow sequence from the path card and the cards
	// in front of it, in a person's time, right most of the time; votes,
	// chooses and interferes as the bots do.
	"outran": {policy: "expert"},
	// Retournement's doors and the cards to discard or give are typed, not
	// offered, when the list would be too long.
	"evades": {compose: composeEvades},
}

// loadBrain says how the seats of one game read their view. Real-time games
// not in loadBrains are played by their "heuristic" bot.
type loadBrain struct {
	// policy is the game's bot that plays every decision of the seat.
	policy string
	// compose answers a decision the seat must take while the server
	// offers it nothing (nil: none it knows of).
	compose func(v engine.View, seat int, r *rand.Rand) engine.Action
}

// loadPlay is how the clients of one run play: the game, the bot policy or
// composer they use, the type of the game's view, and the per-socket rate
// they keep under.
type loadPlay struct {
	game    engine.Game // nil: a game this binary does not know
	players int
	policy  bot.Policy
	compose func(v engine.View, seat int, r *rand.Rand) engine.Action
	view    *viewKind // nil: the seats do not read their view
	rate    float64   // the server's per-socket message rate
}

// newLoadPlay finds how the seats of game id play.
func newLoadPlay(id string, players int, rate float64) (*loadPlay, error) {
	lp := &loadPlay{players: players, rate: rate}
	g, err := all.Find(id)
	if err != nil {
		return lp, nil // random offered actions only
	}
	lp.game = g
	b, known := loadBrains[id]
	if !known && g.Info().Timing == engine.RealTime {
		b.policy = "heuristic"
	}
	if b.policy != "" {
		if lp.policy, err = bot.Find(g, b.policy); err != nil {
			return nil, err
		}
	}
	lp.compose = b.compose
	if lp.policy != nil || lp.compose != nil {
		if lp.view, err = newViewKind(g, players); err != nil {
			return nil, fmt.Errorf("setting up %s to learn its view: %v", id, err)
		}
	}
	return lp, nil
}

// loadSeat is one seat of a load match, played over its socket.
type loadSeat struct {
	*loadPlay
	cn        *client.Conn
	seat      int
	r         *rand.Rand
	st        *loadStats
	pacer     *loadPacer
	forwarded bool
	owner     int
	bot       bot.Bot
	allow     allowance

	// The match as the seat last saw it.
	seq     uint64
	clock   engine.Millis // match time of the last state
	clockAt time.Time     // when it came
	actor   bool
	actors  int
	legal   []json.RawMessage
	view    *seatView // when read

	// How it connects again when its socket ends (nil: it does not), to
	// node or another, and when the last one ended, until a state comes.
	redial      func(ctx context.Context, node int) (*client.Conn, error)
	node, nodes int
	dropped     time.Time
	// When the seat first sent the action it is acknowledged for next:
	// an action refused as unavailable, or whose answer went with its
	// socket, is tried again, and its wait goes on.
	trying time.Time

	// The action sent and not answered yet: at most one at a time.
	pending bool
	sentAt  time.Time
	sentSeq uint64
	tries   int

	// The next action, due at due: act (nil: a random offered action,
	// chosen when it goes), or for a bot that chose to wait, a new
	// decision (rethink).
	planned bool
	act     json.RawMessage
	rethink bool
	due     time.Time
	planSeq uint64 // the state it was planned on
	looked  bool   // the bot looked again before this move
	timer   *time.Timer

	lats []time.Duration
}

// newSeat prepares seat j of a match to be played over cn.
func (lp *loadPlay) newSeat(cn *client.Conn, j int, r *rand.Rand, st *loadStats, pacer *loadPacer, forwarded bool, owner int) *loadSeat {
	s := &loadSeat{loadPlay: lp, cn: cn, seat: j, r: r, st: st, pacer: pacer, forwarded: forwarded, owner: owner,
		allow: newAllowance(lp.rate, time.Now())}
	if lp.policy != nil {
		s.bot = lp.policy.NewBot(lp.game, bot.Seating{Seat: engine.Seat(j), Players: lp.players, Seed: r.Uint64()})
	}
	if lp.view != nil {
		s.view = lp.view.newSeatView()
	}
	return s
}

// loadRead is one read of a socket.
type loadRead struct {
	b   []byte
	err error
}

// play plays the seat until its match ends or ctx does. When its socket
// ends first (its node stopped or died), the seat connects again, to the
// same node or, while it does not answer, to the next, and plays on from
// the state it gets.
func (s *loadSeat) play(ctx context.Context) {
	s.timer = time.NewTimer(time.Hour)
	s.timer.Stop()
	defer s.timer.Stop()
	defer func() {
		s.cn.CloseNow()
		s.st.mu.Lock()
		if s.forwarded {
			s.st.forwarded = append(s.st.forwarded, s.lats...)
		} else {
			s.st.latencies = append(s.st.latencies, s.lats...)
		}
		s.st.mu.Unlock()
	}()
	for s.playConn(ctx) && s.reconnect(ctx) {
	}
}

// playConn plays over the seat's socket until the match ends or ctx does
// (false), or the socket ends (true).
func (s *loadSeat) playConn(ctx context.Context) (dropped bool) {
	reads := make(chan loadRead, 16)
	done := make(chan struct{})
	defer close(done)
	cn := s.cn
	go func() {
		for {
			b, err := cn.ReadRaw(ctx)
			select {
			case reads <- loadRead{b, err}:
			case <-done:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return false
		case <-s.timer.C:
			if !s.fire(ctx) {
				return false
			}
		case rd := <-reads:
			if rd.err != nil {
				if ctx.Err() != nil || s.redial == nil {
					if ctx.Err() == nil {
						s.st.sockErrors.Add(1)
					}
					return false
				}
				return true
			}
			if !s.handle(rd.b) {
				return false
			}
		}
	}
}

// reconnect connects the seat again after its socket ended, trying its
// node first, then the others in turn, a little longer between rounds;
// it reports false once ctx has ended.
func (s *loadSeat) reconnect(ctx context.Context) bool {
	s.cn.CloseNow()
	s.dropped = time.Now()
	s.st.reconnects.Add(1)
	if s.pending {
		// Its answer went with the socket: the state to come says where
		// the match stands, and the seat chooses again.
		s.st.cut.Add(1)
		s.pending = false
	}
	s.trying = time.Time{}
	s.unplan()
	wait := 100 * time.Millisecond
	for try := 0; ; try++ {
		node := (s.node + try) % s.nodes
		dctx, cancel := context.WithTimeout(ctx, 5*time.Second)
		cn, err := s.redial(dctx, node)
		cancel()
		if err == nil {
			s.cn, s.node = cn, node
			return true
		}
		if ctx.Err() != nil {
			s.st.sockErrors.Add(1) // it never came back
			return false
		}
		if (try+1)%s.nodes == 0 {
			select {
			case <-time.After(wait):
			case <-ctx.Done():
				s.st.sockErrors.Add(1)
				return false
			}
			wait = min(2*wait, 2*time.Second)
		}
	}
}

// handle takes one message; it reports false once the match is over.
func (s *loadSeat) handle(b []byte) bool {
	m, err := readLoadMsg(b)
	if err != nil {
		s.st.odd("undecodable message")
		return true
	}
	switch m.Type {
	case match.TypeState, match.TypeUpdate:
		if !s.dropped.IsZero() && m.Type == match.TypeState {
			s.st.noteFailover(&s.st.stateAfter, time.Since(s.dropped))
			s.dropped = time.Time{}
		}
		if m.Seq < s.seq {
			return true
		}
		if m.Ack != nil && s.pending {
			if s.st.measuring.Load() {
				s.st.noteFailover(&s.st.waits, time.Since(s.trying))
			}
			s.trying = time.Time{}
			if s.st.measuring.Load() {
				s.lats = append(s.lats, time.Since(s.sentAt))
				s.st.acked.Add(1)
				s.st.ackedBy[s.owner].Add(1)
			}
			s.pending = false
		}
		if m.Seq > s.seq {
			s.tries = 0
			if !s.pending {
				s.trying = time.Time{} // it chooses again on the new state
			}
		}
		s.seq, s.clock, s.clockAt, s.legal = m.Seq, m.Clock, time.Now(), m.Legal
		s.actors, s.actor = len(m.Actors), slices.Contains(m.Actors, s.seat)
		if s.view != nil {
			s.view.track(m)
		}
		if m.Status != "" && m.Status.Over() {
			return false
		}
		if m.Status == store.Running {
			s.schedule()
		}
	case match.TypeError:
		s.refused(m.Error)
	}
	return true
}

// now is the match time now, as far as the seat can tell.
func (s *loadSeat) now() engine.Millis {
	return s.clock + engine.Millis(time.Since(s.clockAt)/time.Millisecond)
}

// schedule decides what the seat does next on the state it now holds. A
// planned move stays planned while the seat may still act, as a bot's move
// does on the server; an answer is awaited before anything else is sent.
func (s *loadSeat) schedule() {
	if s.pending {
		return
	}
	if s.bot != nil {
		switch {
		case !s.actor:
			s.unplan()
		case !s.planned:
			s.decide()
		}
		return
	}
	if len(s.legal) > 0 {
		if !s.planned {
			s.plan(nil, s.think())
		}
		return
	}
	s.unplan()
	if s.actor && s.compose != nil {
		if v, err := s.view.value(); err != nil {
			s.st.odd("undecodable view")
		} else if a := s.compose(v, s.seat, s.r); a != nil {
			s.planAction(a, 0)
		}
	}
}

// think is how long the seat takes over a random offered action: nothing
// when it alone may act, else a moment, as people deciding together do
// (0.15–0.75 s). Every action of one of them moves the match on, and an
// action of another in flight meanwhile is refused (stale_seq): at 50 Room
// 25 matches of 4 seats, thinking 0.04–0.19 s had 17% of the actions
// refused so, 0.15–0.75 s about 2% (and about 40% fewer actions a second).
func (s *loadSeat) think() time.Duration {
	if s.actors <= 1 {
		return 0
	}
	return simultaneousThink/4 + time.Duration(s.r.Int64N(int64(simultaneousThink)))
}

// simultaneousThink is about how long a seat thinks while others decide too.
const simultaneousThink = 600 * time.Millisecond

// decide asks the seat's bot what to do, from the seat's view.
func (s *loadSeat) decide() {
	v, err := s.view.value()
	if err != nil {
		s.st.odd("undecodable view")
		return
	}
	var legal []engine.Action
	if _, viewOnly := s.bot.(bot.ViewOnly); !viewOnly {
		for _, raw := range s.legal {
			if a, err := s.game.DecodeAction(raw); err == nil {
				legal = append(legal, a)
			}
		}
	}
	var d bot.Decision
	ok := func() (ok bool) {
		defer func() {
			if recover() != nil {
				ok = false
			}
		}()
		d = s.bot.Decide(v, legal, s.now())
		return true
	}()
	if !ok {
		s.st.odd("the bot could not decide") // waits for the next state
		return
	}
	delay := time.Duration(d.Delay) * time.Millisecond
	if d.Action == nil {
		s.plan(nil, max(delay, 50*time.Millisecond))
		s.rethink = true
		return
	}
	s.planAction(d.Action, delay)
}

// planAction plans to send a after delay.
func (s *loadSeat) planAction(a engine.Action, delay time.Duration) {
	raw, err := engine.MarshalTyped(a)
	if err != nil {
		s.st.odd("unencodable action")
		return
	}
	s.plan(raw, delay)
}

// plan sets the next move (nil: a random offered action) after delay.
func (s *loadSeat) plan(act json.RawMessage, delay time.Duration) {
	s.planned, s.act, s.rethink, s.looked, s.due, s.planSeq = true, act, false, false, time.Now().Add(delay), s.seq
	s.arm(time.Now())
}

func (s *loadSeat) unplan() {
	s.planned, s.act, s.rethink = false, nil, false
	s.timer.Stop()
}

// arm sets the timer for the planned move, once the socket's allowance
// lets it go.
func (s *loadSeat) arm(now time.Time) {
	s.timer.Reset(max(s.due.Sub(now), s.allow.wait(now)))
}

// unanswered is how long an action may wait for its answer before the
// seat gives up on it (the server answers every message: this is a fault).
const unanswered = 10 * time.Second

// fire sends the planned move; it reports false when the run is over.
func (s *loadSeat) fire(ctx context.Context) bool {
	if s.pending && time.Since(s.sentAt) >= unanswered {
		s.st.odd("unanswered action")
		s.pending = false
		s.schedule()
		return true
	}
	if s.pending || !s.planned {
		return true
	}
	now := time.Now()
	if now.Before(s.due) || s.allow.wait(now) > 0 {
		s.arm(now)
		return true
	}
	if s.rethink {
		s.planned = false
		s.decide()
		return true
	}
	if s.bot != nil && s.seq != s.planSeq && !s.looked {
		// The match moved on while the seat thought: it looks again
		// (once) before it clicks. If it would do the same, it does it
		// now; else it takes the time its new decision takes.
		was := s.act
		s.planned = false
		s.decide()
		s.looked = true
		if !s.planned || s.rethink || !bytes.Equal(was, s.act) {
			return true
		}
	}
	act := s.act
	if act == nil {
		if len(s.legal) == 0 {
			s.unplan()
			return true
		}
		act = s.legal[s.r.IntN(len(s.legal))]
	}
	if err := s.pacer.wait(ctx); err != nil {
		return false
	}
	s.planned, s.act = false, nil
	s.allow.take(time.Now())
	s.sentAt, s.sentSeq = time.Now(), s.seq
	if s.trying.IsZero() {
		s.trying = s.sentAt
	}
	if err := s.cn.Send(ctx, s.seq, act); err != nil {
		return false
	}
	s.pending = true
	s.st.sent.Add(1)
	s.timer.Reset(unanswered)
	return true
}

// refused takes a refusal of the seat's action. After stale_seq the seat
// chooses again on the newer state (here already, or on its way); after a
// refusal that says how long to wait (a cooldown), it waits that long; after
// another, it tries again a few times on the same state.
func (s *loadSeat) refused(e *match.Error) {
	code := "unknown"
	if e != nil {
		code = e.Code
	}
	s.st.refuse(code)
	if !s.pending {
		return
	}
	s.pending = false
	if code != match.CodeUnavailable {
		s.trying = time.Time{} // not played: the seat chooses again
	}
	wait, hasWait := waitParam(e)
	switch {
	case code == match.CodeStaleSeq:
		if s.seq > s.sentSeq {
			s.schedule()
		}
	case hasWait || code == server.CodeRateLimited:
		if !hasWait {
			wait = time.Second
		}
		s.plan(nil, wait)
		s.rethink = s.bot != nil
	case s.tries < 3:
		s.tries++
		s.schedule()
	}
}

// waitParam returns the wait_ms a refusal names (a cooldown).
func waitParam(e *match.Error) (time.Duration, bool) {
	if e == nil {
		return 0, false
	}
	ms, ok := e.Params["wait_ms"].(float64)
	return time.Duration(ms) * time.Millisecond, ok && ms >= 0
}

// allowance keeps a socket's messages under the server's rate limit: a
// token bucket a little slower than the server's (20 a second, 40 in a
// burst, by default) and half as deep, so that messages bunched up on
// their way never find the server's bucket empty.
type allowance struct {
	rate, tokens float64 // rate 0: no limit
	last         time.Time
}

// allowanceBurst is the most messages a socket sends at once.
const allowanceBurst = 20

func newAllowance(serverRate float64, now time.Time) allowance {
	return allowance{rate: 0.95 * serverRate, tokens: allowanceBurst, last: now}
}

func (a *allowance) refill(now time.Time) {
	if now.After(a.last) {
		a.tokens = min(allowanceBurst, a.tokens+now.Sub(a.last).Seconds()*a.rate)
		a.last = now
	}
}

// wait returns how long until the socket may send.
func (a *allowance) wait(now time.Time) time.Duration {
	if a.rate <= 0 {
		return 0
	}
	a.refill(now)
	if a.tokens >= 1 {
		return 0
	}
	return time.Duration((1-a.tokens)/a.rate*float64(time.Second)) + time.Millisecond
}

// take counts one message sent.
func (a *allowance) take(now time.Time) {
	a.refill(now)
	a.tokens--
}

// composeEvades answers the decisions Les Évadés offers no list for (too
// many choices to show), as a person picking at random: which inner doors
// Retournement flips (none, one or two), and which cards of the hand to
// discard or give.
func composeEvades(v engine.View, seat int, r *rand.Rand) engine.Action {
	view, ok := v.(*evades.View)
	if !ok || view.Pending == nil || view.Pending.Seat != seat {
		return nil
	}
	switch view.Pending.Decision {
	case evades.ChooseDoors{}.Kind():
		var inner []evades.Door
		for _, d := range evades.BoardLayout().Doors {
			if !d.Exit {
				inner = append(inner, d.Door)
			}
		}
		r.Shuffle(len(inner), func(i, j int) { inner[i], inner[j] = inner[j], inner[i] })
		return evades.ChooseDoors{Doors: evades.DoorsOf(inner[:r.IntN(3)]...)}
	case evades.Discard{}.Kind(), evades.GiveCards{}.Kind():
		i := slices.IndexFunc(view.Seats, func(sv evades.SeatView) bool { return sv.Seat == seat })
		if i < 0 || len(view.Seats[i].Hand) < view.Pending.Count {
			return nil
		}
		hand := slices.Clone(view.Seats[i].Hand)
		r.Shuffle(len(hand), func(i, j int) { hand[i], hand[j] = hand[j], hand[i] })
		cards := evades.CardsOf(hand[:view.Pending.Count]...)
		if view.Pending.Decision == (evades.Discard{}).Kind() {
			return evades.Discard{Cards: cards}
		}
		return evades.GiveCards{Cards: cards}
	}
	return nil
}
