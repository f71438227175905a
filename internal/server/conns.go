package server

import (
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
	}
}

// Guard wraps ln with the caps on connections: MaxConns in all, and
// ConnsPerClient from one address (trusted proxies excepted: they carry many
// clients). A connection over a cap is answered at once with a refusal
// (503 server_busy or 429 too_many_connections, with Retry-After) and
// closed, before any request of it is read.
func (s *Server) Guard(ln net.Listener) net.Listener { return &guardedListener{Listener: ln, s: s} }

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
}

func (c *guardedConn) Close() error {
	if c.closed.CompareAndSwap(false, true) {
		c.s.clients.connClosed(c.key)
	}
	return c.Conn.Close()
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
	switch {
	case cs.total >= cs.maxTotal:
		cs.mu.Unlock()
		s.refuseConn(c, http.StatusServiceUnavailable, s.refuseLimit(CodeServerBusy, 5*time.Second,
			"The server has as many connections as it can take; try again in a moment."))
		return nil
	case key != "" && cs.maxConns > 0 && cs.state(key).conns >= cs.maxConns:
		cs.mu.Unlock()
		s.refuseConn(c, http.StatusTooManyRequests, s.refuseLimit(CodeTooManyConns, 10*time.Second,
			"Your address has %d connections open, as many as this server allows; close some first.", cs.maxConns))
		return nil
	}
	cs.total++
	if key != "" {
		cs.state(key).conns++
	}
	cs.mu.Unlock()
	return &guardedConn{Conn: c, s: s, key: key}
}

// connClosed gives back the place of a connection of key ("" for one not
// counted for a client).
func (cs *clients) connClosed(key client) {
	cs.mu.Lock()
	cs.total--
	cs.mu.Unlock()
	if key != "" {
		cs.release(key, connCount)
	}
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
