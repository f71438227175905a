package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gobwas/ws"
	"github.com/prometheus/client_golang/prometheus"

	"sortie/engine"
	"sortie/internal/bus"
	"sortie/internal/match"
)

// Close codes of match sockets beyond the standard ones.
const (
	// CloseReplaced: the seat connected again elsewhere.
	CloseReplaced ws.StatusCode = 4001
	// CloseSlow: the client fell too far behind; it should reconnect, and
	// gets a fresh snapshot.
	CloseSlow ws.StatusCode = 4002
	// CloseOversized (the standard "message too big"): the client sent a
	// message over the limit.
	CloseOversized = ws.StatusMessageTooBig
)

// pingMessage is the keep-alive message: idle sockets get one every
// Config.PingEvery so that proxies keep them open. A peer that vanished is
// found by TCP keep-alive and by failing writes, which end the socket.
var pingMessage = []byte(`{"type":"` + match.TypePing + `"}`)

// socket serves GET /api/matches/{id}/ws: one seat's (or a spectator's)
// connection to a match.
//
// An idle socket holds no goroutine on Linux: the handler returns once the
// connection is set up, a readiness watch (see poller) starts a reader only
// when the client has sent something, and a writer runs only while messages
// wait. Elsewhere, or when the connection cannot be watched, a reader
// goroutine stays for the socket's life.
func (s *Server) socket(w http.ResponseWriter, r *http.Request) {
	if !s.enter() {
		writeError(w, &match.Error{Code: match.CodeUnavailable, Message: "The server is stopping."})
		return
	}
	who, id := s.clientOf(r), r.PathValue("id")
	// Without a token (or an account's session asking for its seat), a
	// spectator (audience says so, or refuses).
	var me string
	if r.URL.Query().Has("seat") {
		me = s.who(r)
	}
	spectator := tokenOf(r) == "" && r.Header.Get("Authorization") == "" && me == ""
	err := s.reserveSocket(who, id, spectator, time.Now())
	if err == nil {
		var h match.Handle
		if h, err = s.mgr.Open(r.Context(), id); err == nil {
			var seat engine.Seat
			if seat, err = audience(r, h, me); err == nil && seat == engine.Spectator {
				err = s.dailyGate(r, id)
			}
			if err == nil {
				s.openSocket(w, r, h, seat, who)
				return
			}
		}
		s.clients.releaseSocket(who, id, spectator, nil)
	}
	s.sockets.Done()
	writeError(w, err)
}

// openSocket upgrades the connection, connects it to the match and sends the
// snapshot. From then on the socket lives on by itself until
// [sockConn.end].
func (s *Server) openSocket(w http.ResponseWriter, r *http.Request, h match.Handle, seat engine.Seat, who client) {
	conn, err := upgrade(w, r, s.cfg.OriginPatterns)
	if err != nil {
		s.clients.releaseSocket(who, h.ID(), isSpectator(seat), nil)
		s.sockets.Done()
		return // upgrade has answered
	}
	conn.timeout, conn.maxMessage = s.cfg.WriteTimeout, s.cfg.MaxMessage
	aud := "seat"
	if seat == engine.Spectator {
		aud = "spectator"
	}
	c := &sockConn{s: s, id: h.ID(), seat: seat, who: who, ws: conn, gauge: s.metrics.sockets.WithLabelValues(aud),
		lim: newLimiter(s.cfg.MessageRate, s.cfg.MessageBurst)}
	c.gauge.Inc()
	err = c.attach(h)
	switch {
	case err == nil:
		// The snapshot goes first; then a writer runs whenever messages wait.
		if err := c.send(c.w.State); err != nil {
			c.end()
			return
		}
		c.w.State = nil // sent: an idle socket keeps as little as it can
		c.seen = c.w.Seq
		c.w.Sub.OnReady(c.kick)
	case c.waitFirst(h, err):
		// The match is between nodes: the socket waits for it (follow.go).
	default:
		b, _ := errorMessage(nil, match.AsError(err))
		_ = conn.writeText(b)
		conn.close(closeTryAgain, "the match is not available")
		c.end()
		return
	}
	c.pingMu.Lock()
	c.pinger = time.AfterFunc(s.cfg.PingEvery, c.ping)
	c.pingMu.Unlock()
	if isSpectator(seat) {
		s.clients.watching(who, c)
	}
	c.startReading()
}

// enter counts a socket in, unless the server is stopping; the caller calls
// s.sockets.Done when it is over.
func (s *Server) enter() bool {
	s.closeMu.Lock()
	defer s.closeMu.Unlock()
	if s.stopping {
		return false
	}
	s.sockets.Add(1)
	return true
}

// sockConn is one open socket: its reading side (the client's actions), its
// writing side (the subscription's messages) and its end.
type sockConn struct {
	s     *Server
	id    string      // the match
	seat  engine.Seat // the audience
	who   client      // whose socket it is, for the per-client cap
	shed  bool        // a spectator's socket told to go (guarded by clients.mu)
	ws    *wsConn
	gauge prometheus.Gauge

	// Reading: one goroutine at a time (readiness re-arms only after a read
	// is over).
	lim         *limiter
	stopReading bool // the client is done with: the writer ends the socket
	// The readiness registration, which the reading side and end share.
	regMu  sync.Mutex
	pollID uint64 // 0: no readiness (a reader goroutine), or not yet
	ended  bool

	// Following the match (see follow.go): the writer changes h and w when
	// the match moves or the connection between nodes drops and returns.
	attMu sync.Mutex
	h     match.Handle
	w     *match.Watch
	held  [][]byte // answers that found the subscription ended, sent after the next snapshot
	wait  time.Duration
	// What the socket owes its client (see follow.go): under attMu, with
	// owing set while owed is not empty, and shown the seq of the newest
	// state or update sent.
	owed      []*owedAction
	owing     atomic.Bool
	shown     atomic.Uint64
	closing   bool      // the socket closes: it takes no more actions
	waitSince time.Time // when a socket that has had no state began to wait for its match

	// Writing.
	pingMu  sync.Mutex
	pinger  *time.Timer
	running atomic.Bool
	mu      sync.Mutex // one drain at a time owns buf and seen
	buf     []bus.Message
	seen    uint64 // the seq of the newest change sent

	endOnce sync.Once
}

// startReading reads what the client sends: on readiness where the system
// tells it, else on a goroutine of its own.
func (c *sockConn) startReading() {
	if c.ws.early == nil {
		if p := c.s.readiness(); p != nil {
			if rc, ok := rawConn(c.ws.conn); ok {
				c.regMu.Lock()
				defer c.regMu.Unlock()
				if c.ended {
					return
				}
				c.ws.rc = rc
				if id, err := p.add(rc, c.read); err == nil {
					// A read that readiness started before this line waits
					// for regMu to learn the id.
					c.pollID = id
					return
				}
				c.ws.rc = nil // read on a goroutine of its own after all
			}
		}
	}
	go c.read()
}

// read reads the client's messages: those that wait, after which the
// socket waits for readiness again, or, without readiness, every message
// until the connection ends.
func (c *sockConn) read() {
	for {
		if !c.readOne() {
			if !c.stopReading {
				c.end()
			}
			return
		}
		c.regMu.Lock()
		id, ended := c.pollID, c.ended
		c.regMu.Unlock()
		if ended {
			return
		}
		if id != 0 && c.ws.rest() {
			if err := c.s.poll.arm(c.ws.rc, id); err != nil {
				c.end()
			}
			return
		}
	}
}

// gone reports whether the socket has ended (or is ending).
func (c *sockConn) gone() bool {
	c.regMu.Lock()
	defer c.regMu.Unlock()
	return c.ended
}

// end closes the socket and lets go of everything it held. It may be called
// more than once, from the reading or the writing side.
func (c *sockConn) end() {
	c.endOnce.Do(func() {
		c.s.log.Debug("a socket ends", "match", c.id, "seat", c.seat)
		c.regMu.Lock()
		id := c.pollID
		c.ended = true
		c.regMu.Unlock()
		if id != 0 {
			c.s.poll.remove(c.ws.rc, id)
		}
		c.pingMu.Lock()
		if c.pinger != nil {
			c.pinger.Stop()
		}
		c.pingMu.Unlock()
		if h, w := c.attachment(); w != nil {
			h.Unwatch(w)
		}
		c.gauge.Dec()
		c.s.clients.releaseSocket(c.who, c.id, isSpectator(c.seat), c)
		c.ws.shut(c.s.sockets.Done)
	})
}

// kick starts a drain unless one runs. It is called from the match's
// goroutine and never blocks.
func (c *sockConn) kick() {
	if c.running.CompareAndSwap(false, true) {
		c.s.work.run(c.drain)
	}
}

// drain sends what waits, then ends; when the subscription has ended it
// closes the socket with the reason, or follows the match again (a fresh
// snapshot) when the reason is that messages may have been missed.
func (c *sockConn) drain() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		_, w := c.attachment()
		c.buf = w.Sub.Take(c.buf[:0])
		gap := false
		var answers [][]byte // the answers among what a gap skips
		// Messages that waited together go out in one system call.
		batched := len(c.buf) > 1
		if batched {
			c.ws.hold()
		}
		for i, m := range c.buf {
			c.buf[i] = bus.Message{}
			if gap {
				if m.Answer {
					answers = append(answers, m.Data)
				}
				continue
			}
			if m.Seq != 0 {
				if m.Seq <= c.seen {
					continue // already in the snapshot
				}
				if m.Seq != c.seen+1 {
					// A change is missing (it was published where this
					// socket could not hear it): what follows would patch
					// a view the client does not hold.
					gap = true
					continue
				}
				c.seen = m.Seq
				c.sending(m)
			}
			if err := c.send(m.Data); err != nil {
				if batched {
					c.ws.release()
				}
				c.end()
				return // running stays set: nothing more is sent
			}
		}
		if batched {
			if err := c.ws.release(); err != nil {
				c.end()
				return
			}
		}
		if cap(c.buf) > 16 {
			c.buf = nil
		}
		if gap {
			// The answers go out after the fresh state, before those
			// held meanwhile.
			c.attMu.Lock()
			c.held = append(answers, c.held...)
			c.attMu.Unlock()
			w.Sub.Close(bus.ErrResync)
		}
		if err := w.Sub.Err(); err != nil && w.Sub.Len() == 0 {
			c.s.log.Debug("a socket's subscription ended", "match", c.id, "seat", c.seat, "reason", err)
			switch {
			case errors.Is(err, bus.ErrReplaced):
				c.ws.close(CloseReplaced, "this seat connected again elsewhere")
			case errors.Is(err, bus.ErrSlow):
				c.ws.close(CloseSlow, "too far behind: reconnect for a fresh state")
			case errors.Is(err, errOversized):
				c.ws.close(CloseOversized, errOversized.Error())
			case errors.Is(err, errShed):
				c.ws.close(closeTryAgain, errShed.Error())
			case errors.Is(err, bus.ErrResync):
				if c.follow() {
					continue
				}
				// Not reachable now: the socket waits on, and tries again.
				if !c.idle() {
					continue
				}
				return
			default:
				c.answerAll()
				c.ws.close(ws.StatusGoingAway, "the server is stopping or the match left memory")
			}
			c.end()
			return
		}
		if !c.idle() {
			continue
		}
		return
	}
}

// idle lets the writer go, and reports false if it must go on after all: a
// message came after Take but before the flag dropped, found the writer
// running and did not kick.
func (c *sockConn) idle() bool {
	c.running.Store(false)
	_, w := c.attachment()
	return w.Sub.Len() == 0 && w.Sub.Err() == nil || !c.running.CompareAndSwap(false, true)
}

// ping sends the keep-alive message and schedules the next.
func (c *sockConn) ping() {
	if c.gone() {
		return
	}
	if err := c.send(pingMessage); err != nil {
		c.end()
		return
	}
	c.pingMu.Lock()
	c.pinger.Reset(c.s.cfg.PingEvery)
	c.pingMu.Unlock()
}

// send writes one message, in one system call (or with the batch being
// gathered).
func (c *sockConn) send(b []byte) error { return c.ws.writeText(b) }

// readBufs holds the buffers messages are read into, so that an idle socket
// holds none.
var readBufs = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

// readOne reads one client message and answers it: its acknowledgement (the
// seat's update carrying "ack") or its refusal, in the order messages came.
// It reports false when the connection has ended.
func (c *sockConn) readOne() bool {
	s := c.s
	if c.ws.rc != nil {
		// Woken by readiness: a message has begun, and must come whole
		// within ReadTimeout, or a client sending half of one would hold a
		// worker. (A reader of its own waits for messages: no deadline.)
		c.ws.bind(time.Now().Add(s.cfg.ReadTimeout))
		defer c.ws.bind(time.Time{})
	}
	typ, rd, err := c.ws.next(c.ws.rc == nil)
	if err == errNoMessage {
		return true // control frames only
	}
	if errors.Is(err, errTooLarge) {
		c.tooLarge()
		return false
	}
	if err != nil {
		return false
	}
	bp := readBufs.Get().(*[]byte)
	defer func() {
		if cap(*bp) <= 4096 {
			readBufs.Put(bp)
		}
	}()
	// Every message counts towards the rate, whatever it holds: a refused
	// one costs reading it too.
	allowed := c.lim.allow(time.Now())
	buf, err := readAtMost((*bp)[:0], rd, s.cfg.MaxMessage)
	*bp = buf[:0]
	if errors.Is(err, errTooLarge) { // (the frames' headers said less)
		c.tooLarge()
		return false
	}
	if err != nil {
		return false
	}
	if !allowed {
		c.refuse(nil, &match.Error{Code: CodeRateLimited,
			Message: fmt.Sprintf("Too many messages: at most %g a second. This one was not played.", s.cfg.MessageRate)})
		return true
	}
	if typ != ws.OpText {
		c.refuse(nil, &match.Error{Code: CodeUnsupported, Message: "Messages are JSON text, not binary."})
		return true
	}
	msg, readable, err := decodeMessage(buf)
	if err != nil {
		var re *uint64
		if readable {
			re = &msg.Seq
		}
		c.refuse(re, match.AsError(err))
		return true
	}
	c.handle(&msg)
	return true
}

// tooLarge answers a message over MaxMessage, whose frame's header said so,
// and has the writer close the socket after the answers queued before it
// (1009): the rest of the message is never read, nor anything after it.
// No client that plays sends such a message.
func (c *sockConn) tooLarge() {
	c.refuse(nil, &match.Error{Code: CodeTooLarge, Message: fmt.Sprintf(
		"A message may hold at most %d bytes; the socket is closed, and the rest of that message was not read.", c.s.cfg.MaxMessage)})
	if _, w := c.attachment(); w != nil {
		w.Sub.Close(errOversized)
	}
	c.stopReading = true
}

// decodeMessage reads a client's message: strict JSON (see decodeStrict)
// holding an action, which the game decodes, or a message of another type
// (table talk, leaving a seat, taking it back). readable says whether
// msg.Seq could be read, for the refusal to name it.
func decodeMessage(b []byte) (msg match.ClientMessage, readable bool, err error) {
	if err := decodeStrict(b, &msg); err != nil {
		return msg, false, err
	}
	if msg.Type == "" && (len(msg.Action) == 0 || string(msg.Action) == "null") {
		return msg, true, &match.Error{Code: CodeMalformed, Message: `The message has no "action".`}
	}
	return msg, true, nil
}

// handle answers one client message: an action, a line of table talk, or
// a seat handed to its bot or taken back. A refusal joins the socket's
// queue; what is accepted comes back as what every socket of the match
// gets (the update with "ack", the line, the seats).
func (c *sockConn) handle(msg *match.ClientMessage) {
	seat := c.seat
	// A socket keeps no context of its own (an idle one should cost
	// little): what it asks of its match ends by itself, and a socket that
	// ends meanwhile drops the answer.
	bg := context.Background()
	var err error
	switch msg.Type {
	case "":
		if seat == engine.Spectator {
			c.refuse(&msg.Seq, &match.Error{Code: CodeSpectator, Message: "Spectators cannot act."})
		} else {
			c.act(msg.Seq, msg.Action)
		}
		return
	case match.ClientChat:
		if seat == engine.Spectator {
			err = &match.Error{Code: match.CodeChatSpectator, Message: "Spectators read the table talk; only the players write in it."}
		} else {
			err = c.use(func(h match.Handle) error { return h.Chat(bg, seat, msg.Text, msg.Team) })
		}
	case match.ClientLeave, match.ClientReturn:
		if seat == engine.Spectator {
			err = &match.Error{Code: CodeSpectator, Message: "Spectators hold no seat to leave or take back."}
		} else if msg.Type == match.ClientLeave {
			err = c.use(func(h match.Handle) error { return h.Leave(bg, seat) })
		} else {
			err = c.use(func(h match.Handle) error { return h.Return(bg, seat) })
		}
	default:
		err = &match.Error{Code: CodeMalformed, Message: fmt.Sprintf("There is no message of type %q: send an action, or chat, leave or return.", msg.Type)}
	}
	if err != nil {
		c.refuse(nil, match.AsError(err))
	}
}

// errorMessage is the socket message of a refusal; re is the sequence number
// the refused message named, if it could be read.
func errorMessage(re *uint64, e *match.Error) ([]byte, error) {
	return json.Marshal(struct {
		Type  string       `json:"type"`
		Re    *uint64      `json:"re,omitempty"`
		Error *match.Error `json:"error"`
	}{match.TypeError, re, e})
}

var (
	errTooLarge  = errors.New("message too large")
	errOversized = errors.New("a message over the size limit")
	// errShed ends a spectator's socket when the connections run short.
	errShed = errors.New("the server needs the room for players: watch again in a minute")
)

// tellToGo ends a spectator's socket to make room (see clients.shedSpectator).
func (c *sockConn) tellToGo() {
	if _, w := c.attachment(); w != nil {
		w.Sub.Close(errShed)
	}
}

// readAtMost appends r to buf up to limit bytes; more is errTooLarge.
func readAtMost(buf []byte, r io.Reader, limit int64) ([]byte, error) {
	for {
		if int64(len(buf)) > limit {
			return buf, errTooLarge
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			if int64(len(buf)) > limit {
				return buf, errTooLarge
			}
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// limiter is a token bucket: rate tokens a second, at most burst.
type limiter struct {
	rate, burst, tokens float64
	last                time.Time
}

func newLimiter(rate float64, burst int) *limiter {
	return &limiter{rate: rate, burst: float64(max(burst, 1)), tokens: float64(max(burst, 1))}
}

func (l *limiter) allow(now time.Time) bool {
	ok, _ := l.take(now)
	return ok
}

// take takes a token if there is one; if not, it says how long until there
// is.
func (l *limiter) take(now time.Time) (bool, time.Duration) {
	if ok, wait := l.ready(now); !ok {
		return false, wait
	}
	l.tokens--
	return true, 0
}

// ready reports whether there is a token, taking none; if not, it says how
// long until there is.
func (l *limiter) ready(now time.Time) (bool, time.Duration) {
	l.refill(now)
	if l.tokens < 1 {
		return false, time.Duration((1 - l.tokens) / l.rate * float64(time.Second))
	}
	return true, 0
}

// reserve takes a token now or, if there is none, one that comes within
// most, and says how long until it comes; a wait longer than most takes
// nothing and reports false, with the wait.
func (l *limiter) reserve(now time.Time, most time.Duration) (bool, time.Duration) {
	ok, wait := l.ready(now)
	if !ok && wait > most {
		return false, wait
	}
	l.tokens--
	return true, wait
}

// spend takes a token spent at a past time at, the bucket having been
// replayed up to then (see Server.rebuildCreations); an empty bucket stays
// empty.
func (l *limiter) spend(at time.Time) {
	l.refill(at)
	l.tokens = max(0, l.tokens-1)
}

// fullOrNil reports whether the bucket is full again, or was never used.
func (l *limiter) fullOrNil(now time.Time) bool {
	if l == nil {
		return true
	}
	l.refill(now)
	return l.tokens >= l.burst
}

func (l *limiter) refill(now time.Time) {
	switch {
	case l.last.IsZero():
		l.last = now
	case now.After(l.last):
		l.tokens = min(l.burst, l.tokens+now.Sub(l.last).Seconds()*l.rate)
		l.last = now
	}
}
