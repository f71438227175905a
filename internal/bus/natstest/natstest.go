// Package natstest runs a real NATS server inside the test process (the
// nats-server module), on a loopback port that stays the same across a
// restart, so that tests can take NATS down and bring it back. Only tests
// import this package.
package natstest

import (
	"fmt"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"

	"sortie/internal/testport"
)

// Server is an in-process NATS server.
type Server struct {
	mu   sync.Mutex
	port int
	srv  *server.Server
}

// Start starts a server on a free loopback port (one no outgoing
// connection takes while the server is down, see testport); it is shut
// down when the test ends.
func Start(t testing.TB) *Server {
	t.Helper()
	s := &Server{port: testport.Free(t)}
	if err := s.Restart(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Shutdown)
	return s
}

// URL is the server's nats:// address.
func (s *Server) URL() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return fmt.Sprintf("nats://127.0.0.1:%d", s.port)
}

// Restart starts the server again after Shutdown, on the same port.
func (s *Server) Restart() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.srv != nil {
		return nil
	}
	srv, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: s.port, NoLog: true, NoSigs: true})
	if err != nil {
		return err
	}
	go srv.Start()
	if !srv.ReadyForConnections(30 * time.Second) {
		srv.Shutdown()
		return fmt.Errorf("natstest: the NATS server is not ready after 30 s")
	}
	s.srv, s.port = srv, srv.Addr().(*net.TCPAddr).Port
	return nil
}

// Shutdown stops the server; its clients lose their connections.
func (s *Server) Shutdown() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.srv == nil {
		return
	}
	s.srv.Shutdown()
	s.srv.WaitForShutdown()
	s.srv = nil
}

// Published returns how many messages clients have published to the server
// since it (re)started.
func (s *Server) Published() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.srv == nil {
		return 0
	}
	v, err := s.srv.Varz(nil)
	if err != nil {
		return 0
	}
	return v.InMsgs
}
