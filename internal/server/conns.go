package server

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"sync/atomic"
	"time"
)

// HTTPServer returns the http.Server that serves [Server.Handler] with the
// server's timeouts: a request's header and body must arrive within
// ReadHeaderTimeout and ReadTimeout, an answer must be taken within
// WriteTimeout, and an idle keep-alive connection is closed after
// IdleTimeout. Match sockets are exempt once open: net/http clears the
// deadlines of the connections it hands over, and sockets keep their own
// (see socket.go). Serve it on [Server.Guard] of the listener.
func (s *Server) HTTPServer() *http.Server {
	return &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: s.cfg.ReadHeaderTimeout,
		ReadTimeout:       s.cfg.ReadTimeout,
		WriteTimeout:      s.cfg.HTTPWriteTimeout,
		IdleTimeout:       s.cfg.IdleTimeout,
		MaxHeaderBytes:    32 << 10,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
		ConnState:         s.clients.connState,
		ConnContext: func(ctx context.Context, c net.Conn) context.Context {
			if gc, ok := c.(*guardedConn); ok && gc.over != nil {
				return context.WithValue(ctx, overCapKey{}, gc.over)
			}
			return ctx
		},
	}
}

// Guard wraps ln with the caps on connections: MaxConns in all, and
// ConnsPerClient from one address (trusted proxies excepted: they carry many
// clients). At the cap in all, a spectator's socket is told to go to make
// room, if there is one (see clients.shedSpectator). A connection over a cap
// otherwise is let in among a few dozen (and at most overPerAddr from one
// address) for /healthz and /metrics alone: its other requests are refused
// (503 server_busy or 429 too_many_connections, with Retry-After) and it is
// closed after the answer, or within overCapHeader if it sends nothing.
// Past those few, it is refused at once, before any request of it is read.
func (s *Server) Guard(ln net.Listener) net.Listener { return &guardedListener{Listener: ln, s: s} }

// A connection let in over a cap has overCapHeader to send its request, and
// an address may have overPerAddr such connections at once.
const (
	overCapHeader = 2 * time.Second
	overPerAddr   = 4
)

// overCapKey is the request context's key of the refusal a request on a
// connection let in over a cap gets, unless it is for /healthz or /metrics.
type overCapKey struct{}

type guardedListener struct {
	net.Listener
	s *Server
}

func (l *guardedListener) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		if gc := l.s.admit(c); gc != nil {
			return gc, nil
		}
	}
}

// guardedConn is an admitted connection; closing it gives its place back.
type guardedConn struct {
	net.Conn
	s      *Server
	key    client // "" when not counted for a client
	closed atomic.Bool
	shed   bool // closed to make room (guarded by clients.mu)
	// over is set on a connection let in over a cap: the refusal of its
	// requests but for /healthz and /metrics, which it must send before
	// until.
	over  *limitError
	until time.Time
}

func (c *guardedConn) Close() error {
	if c.closed.CompareAndSwap(false, true) {
		c.s.clients.connClosed(c)
	}
	return c.Conn.Close()
}

// SetReadDeadline keeps a connection let in over a cap to its short time.
func (c *guardedConn) SetReadDeadline(t time.Time) error {
	if c.over != nil && (t.IsZero() || t.After(c.until)) {
		t = c.until
	}
	return c.Conn.SetReadDeadline(t)
}

// SetDeadline: see SetReadDeadline.
func (c *guardedConn) SetDeadline(t time.Time) error {
	if err := c.SetReadDeadline(t); err != nil {
		return err
	}
	return c.Conn.SetWriteDeadline(t)
}

// CloseWrite lets net/http end a refused request's connection gently, so
// that the client reads the answer before the connection goes.
func (c *guardedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// admit counts c in and returns it wrapped, or refuses it and returns nil.
func (s *Server) admit(c net.Conn) net.Conn {
	var key client
	if a, ok := remoteAddr(c); ok && !s.trusted(a) {
		key = clientKey(a)
	}
	cs := s.clients
	cs.mu.Lock()
	var over *limitError
	var shedConn *guardedConn
	var shed *sockConn
	switch {
	case cs.total >= cs.maxTotal:
		// Room is made from what does least: a connection idle between
		// requests (or silent since it came), else a spectator's socket.
		if shedConn = cs.shedIdle(time.Now()); shedConn == nil {
			shed = cs.shedSpectator()
		}
		if shedConn == nil && shed == nil {
			over = s.refuseLimit(CodeServerBusy, 5*time.Second,
				"The server has as many connections as it can take; try again in a moment.")
		}
	case key != "" && !within(cs.holders(key), cs.maxConns, func(st *clientState) int { return st.conns }):
		over = s.refuseLimit(CodeTooManyConns, 10*time.Second,
			"Your address has %d connections open, as many as this server allows; close some first.", cs.maxConns)
	}
	if over != nil {
		// Let it in for the health checks, if a few places are left.
		if cs.overflow >= cs.maxOverflow || key != "" && cs.state(key).overflow >= overPerAddr {
			cs.mu.Unlock()
			status := http.StatusServiceUnavailable
			if over.err.Code == CodeTooManyConns {
				status = http.StatusTooManyRequests
			}
			s.refuseConn(c, status, over)
			return nil
		}
		cs.overflow++
		if key != "" {
			cs.state(key).overflow++
		}
		cs.mu.Unlock()
		gc := &guardedConn{Conn: c, s: s, key: key, over: over, until: time.Now().Add(overCapHeader)}
		_ = gc.SetReadDeadline(gc.until)
		return gc
	}
	cs.total++
	if key != "" {
		add(cs.holders(key), connCount, 1)
	}
	cs.mu.Unlock()
	if shedConn != nil {
		s.log.Debug("an idle connection makes room for another")
		shedConn.Close()
	}
	if shed != nil {
		s.log.Debug("a spectator makes room for a connection", "match", shed.id)
		shed.tellToGo()
	}
	return &guardedConn{Conn: c, s: s, key: key}
}

// connClosed gives back the place of a connection, over a cap or not.
func (cs *clients) connClosed(c *guardedConn) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	key := c.key
	delete(cs.idle, c)
	if c.shed {
		cs.shedding--
	}
	switch {
	case c.over != nil:
		cs.overflow--
		if st := cs.by[key]; key != "" && st != nil && st.overflow > 0 {
			st.overflow--
		}
	default:
		cs.total--
		if key != "" {
			add(cs.holders(key), connCount, -1)
		}
	}
}

// overCapGate answers the requests of a connection let in over a cap: those
// for /healthz and /metrics, and the refusal for any other, after which the
// connection is closed.
func (s *Server) overCapGate(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		le, _ := r.Context().Value(overCapKey{}).(*limitError)
		if le == nil {
			h.ServeHTTP(w, r)
			return
		}
		w.Header().Set("Connection", "close")
		if r.Method == http.MethodGet && (r.URL.Path == "/healthz" || r.URL.Path == "/metrics") {
			h.ServeHTTP(w, r)
			return
		}
		writeError(w, le)
	})
}

// maxRefusing bounds the refused connections being answered at once; past
// it, refused connections are closed without an answer, so that a flood
// holds no more descriptors than that.
const maxRefusing = 64

// refuseConn answers a refused connection with an HTTP refusal and closes
// it, without reading its request, within a second.
func (s *Server) refuseConn(c net.Conn, status int, le *limitError) {
	if s.refusing.Add(1) > maxRefusing {
		s.refusing.Add(-1)
		c.Close()
		return
	}
	go func() {
		defer s.refusing.Add(-1)
		defer c.Close()
		_ = c.SetDeadline(time.Now().Add(time.Second))
		body, _ := json.Marshal(ErrorBody{Error: le.err})
		fmt.Fprintf(c, "HTTP/1.1 %d %s\r\nContent-Type: application/json\r\nRetry-After: %d\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s",
			status, http.StatusText(status), retrySeconds(le.retry), len(body), body)
		// Close only our side, and take what the client was sending, so
		// that it reads the answer instead of a reset.
		if cw, ok := c.(interface{ CloseWrite() error }); ok {
			_ = cw.CloseWrite()
			_, _ = io.Copy(io.Discard, io.LimitReader(c, 64<<10))
		}
	}()
}

// retryAfter writes the Retry-After header of a refusal by a limit.
func retryAfter(w http.ResponseWriter, d time.Duration) {
	w.Header().Set("Retry-After", strconv.Itoa(retrySeconds(d)))
}
