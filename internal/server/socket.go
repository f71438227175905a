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

	"github.com/coder/websocket"

	"sortie/engine"
	"sortie/internal/bus"
	"sortie/internal/match"
)

// Close codes of match sockets beyond the standard ones.
const (
	// CloseReplaced: the seat connected again elsewhere.
	CloseReplaced websocket.StatusCode = 4001
	// CloseSlow: the client fell too far behind; it should reconnect, and
	// gets a fresh snapshot.
	CloseSlow websocket.StatusCode = 4002
)

// hardMessageLimit closes a socket whose message is absurdly large; smaller
// excesses over MaxMessage get an error and the socket lives on.
const hardMessageLimit = 1 << 20

// socket serves GET /api/matches/{id}/ws: one seat's (or a spectator's)
// connection to a match.
func (s *Server) socket(w http.ResponseWriter, r *http.Request) {
	if !s.enter() {
		writeError(w, &match.Error{Code: match.CodeUnavailable, Message: "The server is stopping."})
		return
	}
	defer s.sockets.Done()
	x, err := s.mgr.Get(r.Context(), r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	seat, err := audience(r, x)
	if err != nil {
		writeError(w, err)
		return
	}
	conn, err := websocket.Accept(w, r, &websocket.AcceptOptions{OriginPatterns: s.cfg.OriginPatterns})
	if err != nil {
		return // Accept has answered
	}
	conn.SetReadLimit(hardMessageLimit)
	aud := "seat"
	if seat == engine.Spectator {
		aud = "spectator"
	}
	gauge := s.metrics.sockets.WithLabelValues(aud)
	gauge.Inc()
	defer gauge.Dec()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var watch *match.Watch
	err = s.mgr.Do(ctx, x.ID(), func(y *match.Match) (err error) {
		x = y
		watch, err = y.Watch(ctx, seat)
		return err
	})
	if err != nil {
		b, _ := errorMessage(nil, match.AsError(err))
		_ = conn.Write(ctx, websocket.MessageText, b)
		conn.Close(websocket.StatusTryAgainLater, "the match is not available")
		return
	}
	defer x.Unwatch(watch)

	// The snapshot goes first; then a writer runs whenever messages wait,
	// so that an idle socket holds one goroutine: its reader.
	if err := s.write(ctx, conn, watch.State); err != nil {
		conn.CloseNow()
		return
	}
	watch.State = nil // sent: an idle socket keeps as little as it can
	sw := &socketWriter{s: s, ctx: ctx, conn: conn, w: watch}
	watch.Sub.OnReady(sw.kick)
	sw.pingMu.Lock()
	sw.pinger = time.AfterFunc(s.cfg.PingEvery, sw.ping)
	sw.pingMu.Unlock()
	defer sw.pinger.Stop()
	s.readLoop(ctx, conn, x, watch)
	cancel()
	conn.CloseNow()
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

// socketWriter sends a subscription's messages to a socket. It runs as a
// goroutine only while there is something to send.
type socketWriter struct {
	s       *Server
	ctx     context.Context
	conn    *websocket.Conn
	w       *match.Watch
	pingMu  sync.Mutex
	pinger  *time.Timer
	running atomic.Bool
	mu      sync.Mutex // one drain at a time owns buf
	buf     []bus.Message
}

// kick starts a drain unless one runs. It is called from the match's
// goroutine and never blocks.
func (sw *socketWriter) kick() {
	if sw.running.CompareAndSwap(false, true) {
		go sw.drain()
	}
}

// drain sends what waits, then ends; when the subscription has ended it
// closes the socket with the reason.
func (sw *socketWriter) drain() {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	for {
		sw.buf = sw.w.Sub.Take(sw.buf[:0])
		for i, m := range sw.buf {
			sw.buf[i] = bus.Message{}
			if m.Seq != 0 && m.Seq <= sw.w.Seq {
				continue // already in the snapshot
			}
			if err := sw.s.write(sw.ctx, sw.conn, m.Data); err != nil {
				sw.conn.CloseNow()
				return // running stays set: nothing more is sent
			}
		}
		if cap(sw.buf) > 16 {
			sw.buf = nil
		}
		if err := sw.w.Sub.Err(); err != nil && sw.w.Sub.Len() == 0 {
			switch {
			case errors.Is(err, bus.ErrReplaced):
				sw.conn.Close(CloseReplaced, "this seat connected again elsewhere")
			case errors.Is(err, bus.ErrSlow):
				sw.conn.Close(CloseSlow, "too far behind: reconnect for a fresh state")
			default:
				sw.conn.Close(websocket.StatusGoingAway, "the server is stopping or the match left memory")
			}
			return
		}
		sw.running.Store(false)
		// A message that came after Take but before the flag dropped found
		// the writer running and did not kick: look again.
		if sw.w.Sub.Len() == 0 && sw.w.Sub.Err() == nil || !sw.running.CompareAndSwap(false, true) {
			return
		}
	}
}

// ping keeps the connection alive, and closes it if the client does not
// answer.
func (sw *socketWriter) ping() {
	if sw.ctx.Err() != nil {
		return
	}
	ctx, cancel := context.WithTimeout(sw.ctx, sw.s.cfg.WriteTimeout)
	defer cancel()
	if err := sw.conn.Ping(ctx); err != nil {
		if sw.ctx.Err() == nil {
			sw.conn.Close(websocket.StatusPolicyViolation, "no answer to keep-alive pings")
		}
		return
	}
	sw.pingMu.Lock()
	sw.pinger.Reset(sw.s.cfg.PingEvery)
	sw.pingMu.Unlock()
}

func (s *Server) write(ctx context.Context, conn *websocket.Conn, b []byte) error {
	wctx, cancel := context.WithTimeout(ctx, s.cfg.WriteTimeout)
	defer cancel()
	return conn.Write(wctx, websocket.MessageText, b)
}

// readLoop reads the client's actions until the connection ends.
func (s *Server) readLoop(ctx context.Context, conn *websocket.Conn, x *match.Match, w *match.Watch) {
	// Every message gets one answer, in order: its acknowledgement (the
	// seat's update carrying "ack") or its refusal.
	lim := newLimiter(s.cfg.MessageRate, s.cfg.MessageBurst)
	buf := make([]byte, 0, 512)
	for {
		typ, rd, err := conn.Reader(ctx)
		if err != nil {
			return
		}
		buf, err = readAtMost(buf[:0], rd, s.cfg.MaxMessage)
		if errors.Is(err, errTooLarge) {
			// Drop the rest of the message (the hard limit closes the socket
			// if it is absurd) and say so.
			if _, err := io.Copy(io.Discard, rd); err != nil {
				return
			}
			s.refuseMsg(w, nil, &match.Error{Code: CodeTooLarge,
				Message: fmt.Sprintf("A message may hold at most %d bytes.", s.cfg.MaxMessage)})
			continue
		}
		if err != nil {
			return
		}
		if !lim.allow(time.Now()) {
			s.refuseMsg(w, nil, &match.Error{Code: CodeRateLimited,
				Message: fmt.Sprintf("Too many messages: at most %g a second. This one was not played.", s.cfg.MessageRate)})
			continue
		}
		if typ != websocket.MessageText {
			s.refuseMsg(w, nil, &match.Error{Code: CodeUnsupported, Message: "Messages are JSON text, not binary."})
			continue
		}
		var msg match.ClientMessage
		if err := decodeStrict(buf, &msg); err != nil {
			s.refuseMsg(w, nil, match.AsError(err))
			continue
		}
		if len(msg.Action) == 0 || string(msg.Action) == "null" {
			s.refuseMsg(w, &msg.Seq, &match.Error{Code: CodeMalformed, Message: `The message has no "action".`})
			continue
		}
		if w.Seat == engine.Spectator {
			s.refuseMsg(w, &msg.Seq, &match.Error{Code: CodeSpectator, Message: "Spectators cannot act."})
			continue
		}
		if err := x.Act(ctx, w.Seat, msg.Seq, msg.Action); err != nil {
			s.refuseMsg(w, &msg.Seq, match.AsError(err))
		}
	}
}

// refuseMsg answers a refused socket message. The answer joins the socket's
// queue, so that a client gets the answers to its messages in the order it
// sent them, acknowledgements and refusals alike.
func (s *Server) refuseMsg(w *match.Watch, re *uint64, e *match.Error) {
	s.metrics.refusedMsg.WithLabelValues(e.Code).Inc()
	b, _ := errorMessage(re, e)
	if !w.Sub.Offer(bus.Message{Data: b}) {
		w.Sub.Close(bus.ErrSlow)
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

var errTooLarge = errors.New("message too large")

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
	return &limiter{rate: rate, burst: float64(burst), tokens: float64(burst)}
}

func (l *limiter) allow(now time.Time) bool {
	if !l.last.IsZero() {
		l.tokens = min(l.burst, l.tokens+now.Sub(l.last).Seconds()*l.rate)
	}
	l.last = now
	if l.tokens < 1 {
		return false
	}
	l.tokens--
	return true
}
