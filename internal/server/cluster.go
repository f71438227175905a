// Several nodes: a server on a PostgreSQL store is one node of those that
// share it. It holds leases on the matches it runs (even alone), and with a
// NATS bus it reaches the other nodes: any node answers every request and
// accepts every socket, forwarding to the node that runs the match.

package server

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"

	"sortie/internal/bus"
	"sortie/internal/match"
	"sortie/internal/store"
)

// joinCluster makes the manager a node when the store is PostgreSQL.
func (s *Server) joinCluster(mc *match.Config) error {
	_, shared := s.store.(*store.Postgres)
	if !shared {
		if s.cfg.BusURL != "" {
			return errors.New("server: a NATS bus links nodes that share a PostgreSQL store; this one keeps its matches in SQLite")
		}
		return nil
	}
	s.node = s.cfg.Node
	if s.node == "" {
		s.node = defaultNode()
	}
	if err := match.CheckNode(s.node); err != nil {
		return fmt.Errorf("server: %v", err)
	}
	mc.Cluster = &match.Cluster{Node: s.node, Lease: s.cfg.Lease}
	if s.cfg.BusURL == "" {
		return nil
	}
	n, err := bus.ConnectNATS(s.cfg.BusURL, bus.NATSOptions{Node: s.node, Logger: s.log})
	if err != nil {
		return err
	}
	s.bus = n
	mc.Bus, mc.Cluster.Exchange = n, n
	return nil
}

var notInName = regexp.MustCompile(`[^A-Za-z0-9_-]+`)

// defaultNode names a node after its host.
func defaultNode() string {
	h, err := os.Hostname()
	if err != nil || h == "" {
		return "sortie"
	}
	h = strings.Trim(notInName.ReplaceAllString(h, "-"), "-")
	if len(h) > 64 {
		h = h[:64]
	}
	if h == "" {
		return "sortie"
	}
	return h
}

// Node returns this node's name on a shared store, or "" on SQLite.
func (s *Server) Node() string { return s.node }

// Drain hands this node's matches to the other nodes (see
// match.Manager.Drain): /healthz says 503 from now on, so that a load
// balancer sends nothing more here. On a single node it does nothing.
func (s *Server) Drain(ctx context.Context) error {
	if s.bus == nil {
		return nil
	}
	s.draining.Store(true)
	s.log.Info("draining: handing the matches to the other nodes")
	return s.mgr.Drain(ctx)
}
