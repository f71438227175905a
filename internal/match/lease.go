// Leases: on several nodes sharing one store, each match is run by the one
// node that holds its lease. A node takes a match's lease when it creates
// the match, or when it is asked for a match nobody runs; it keeps all its
// leases alive at once, takes over the matches of nodes that died, hands
// its matches to the others when it stops (drain), and stops a match at
// once when the store refuses a write to it as fenced: another node has
// taken it over, and nothing this one does to it may count.

package match

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"hash/fnv"
	"log/slog"
	"math/rand/v2"
	"regexp"
	"sync"
	"sync/atomic"
	"time"

	"sortie/internal/bus"
	"sortie/internal/store"
)

// Cluster makes a [Manager] one node of several sharing one store
// (PostgreSQL).
type Cluster struct {
	// Node names this node: letters, digits, '-' and '_', the same across
	// restarts (a node that restarts takes its matches back at once) and
	// different for each node.
	Node string
	// Exchange carries requests between nodes (bus.NATS). Without one, the
	// node runs alone on the shared store: it takes leases all the same, and
	// refuses what concerns a match another node runs.
	Exchange bus.Exchange
	// Lease is how long a node's leases last after its last renewal: 6 s if
	// zero. A dead node's matches are taken over within a lease and about
	// a second of its death, however many it ran.
	Lease time.Duration
}

// Defaults and paces of a node.
const (
	defaultLease  = 6 * time.Second
	orphanEvery   = 500 * time.Millisecond // how often a node looks for matches nobody runs
	orphanBatch   = 1024                   // the most one look lists
	orphanLoads   = 8                      // matches a node loads at once when it takes them over
	announceEvery = 2 * time.Second        // how often a node tells the others its load
	skipFailed    = time.Minute            // a match that failed to load is not tried again before
)

var nodeName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// node is what a manager does as one node of several.
type node struct {
	m    *Manager
	name string
	ex   bus.Exchange
	ttl  time.Duration
	log  *slog.Logger

	stopServe func()
	stopHear  func()
	quit      chan struct{}
	done      chan struct{}
	started   bool

	mu        sync.Mutex
	renewed   time.Time            // when the last successful renewal was sent
	failed    time.Time            // when a renewal last failed
	failing   bool                 // since then, none succeeded (for one log line per incident)
	skip      map[string]time.Time // matches that failed to load, until when they are not tried
	looks     map[string]int       // the matches nobody ran at the last look, and at how many looks in a row
	peers     map[string]peer
	draining  bool
	orphaning bool // an orphan round is under way

	w watches // the sockets that follow a match across nodes (remote.go)
}

// peer is what another node last announced.
type peer struct {
	Node     string `json:"node"`
	Live     int    `json:"live"`
	Draining bool   `json:"draining,omitempty"`
	heard    time.Time
}

// elsewhere says that another node holds match rec's lease.
type elsewhere struct{ rec *store.Match }

func (e *elsewhere) Error() string {
	return fmt.Sprintf("match %s runs on node %q", e.rec.ID, e.rec.Lease.Node)
}

func newNode(m *Manager, c Cluster) (*node, error) {
	if !nodeName.MatchString(c.Node) {
		return nil, fmt.Errorf("match: the node name %q must be 1 to 64 letters, digits, '-' and '_'", c.Node)
	}
	if c.Lease <= 0 {
		c.Lease = defaultLease
	}
	n := &node{m: m, name: c.Node, ex: c.Exchange, ttl: c.Lease, log: m.log.With("node", c.Node),
		quit: make(chan struct{}), done: make(chan struct{}),
		skip: make(map[string]time.Time), peers: make(map[string]peer)}
	n.w.init(n)
	return n, nil
}

// acquire takes match id's lease for this node, or says who holds it.
func (n *node) acquire(ctx context.Context, id string) (store.Lease, error) {
	n.mu.Lock()
	draining := n.draining
	n.mu.Unlock()
	if draining {
		// A node that is handing its matches over takes none.
		rec, err := n.m.store.Get(ctx, id)
		if err != nil {
			return store.Lease{}, n.m.readFailed(id, err)
		}
		return store.Lease{}, &elsewhere{rec}
	}
	l, err := n.m.store.Acquire(ctx, id, n.name, n.ttl)
	switch {
	case err == nil:
		if h := n.m.hooks.Acquired; h != nil {
			h()
		}
		if l.Epoch > 1 {
			n.log.Info("took a match's lease", "match", id, "epoch", l.Epoch)
		}
		return l, nil
	case errors.Is(err, store.ErrLeased):
		rec, err := n.m.store.Get(ctx, id)
		if err != nil {
			return store.Lease{}, n.m.readFailed(id, err)
		}
		return store.Lease{}, &elsewhere{rec}
	default:
		return store.Lease{}, n.m.readFailed(id, err)
	}
}

// readFailed turns a store error about match id into a refusal.
func (m *Manager) readFailed(id string, err error) error {
	if errors.Is(err, store.ErrNotFound) {
		return refuse(CodeUnknownMatch, "There is no match %q.", id)
	}
	m.readError("cannot read a match", id, err)
	return refuse(CodeUnavailable, "The server could not read the match; try again.")
}

// lost reports whether err says that the match's lease has passed: another
// node took the match over (or this one gave it up). The match then stops
// at once, without writing anything more (see run), and its sockets follow
// it to its new node.
func (x *Match) lost(err error) bool {
	if !errors.Is(err, store.ErrFenced) {
		return false
	}
	if h := x.mgr.hooks.Fenced; h != nil {
		h()
	}
	x.fence(err)
	return true
}

// fence stops the match here for the reason why: it runs elsewhere now.
func (x *Match) fence(why error) {
	if !x.fenced {
		x.fenced = true
		x.log.Warn("the match runs on another node now; it stops here", "epoch", x.rec.Lease.Epoch, "why", why)
	}
}

// start brings back this node's matches (a node that restarted holds its
// leases still), takes the matches nobody runs, and keeps doing so, with
// the leases renewed, until stop.
func (n *node) start(ctx context.Context) (int, error) {
	if n.ex != nil {
		if err := n.checkName(ctx); err != nil {
			return 0, err
		}
		stop, err := n.ex.Serve(n.name, n.serve)
		if err != nil {
			return 0, err
		}
		n.stopServe = stop
		if n.stopHear, err = n.ex.Hear(n.heard); err != nil {
			stop()
			return 0, err
		}
	}
	sent := time.Now()
	leases, err := n.m.store.Renew(ctx, n.name, n.ttl)
	if err != nil {
		n.stopExchange()
		return 0, err
	}
	n.mu.Lock()
	n.renewed = sent
	n.mu.Unlock()
	count := 0
	for _, l := range leases {
		if _, err := n.m.Get(ctx, l.Match); err != nil {
			n.log.Error("cannot resume a match of this node", "match", l.Match, "err", err)
			n.release(l)
			continue
		}
		count++
	}
	// Matches nobody runs: a node starting alone takes them all, as a
	// single node does.
	for {
		took := n.takeOrphans(ctx, true, false)
		count += took
		if took == 0 {
			break
		}
	}
	n.started = true
	go n.keep()
	return count, nil
}

// checkName refuses to start a second node of the same name: both would
// believe they hold the same leases.
func (n *node) checkName(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	b, _ := json.Marshal(wireReq{Op: opPing, From: n.name})
	if _, err := n.ex.Request(ctx, n.name, b); err == nil {
		return fmt.Errorf("match: another node named %q is running: give each node its own name", n.name)
	}
	return nil
}

func (n *node) stopExchange() {
	if n.stopHear != nil {
		n.stopHear()
	}
	if n.stopServe != nil {
		n.stopServe()
	}
}

// keep renews the leases, takes over matches nobody runs, tells the others
// this node's load, and looks after the sockets that follow matches across
// nodes, until stop.
func (n *node) keep() {
	defer close(n.done)
	renew := time.NewTicker(n.ttl / 3)
	defer renew.Stop()
	orphans := time.NewTimer(jitter(orphanEvery))
	defer orphans.Stop()
	announce := time.NewTicker(announceEvery)
	defer announce.Stop()
	watches := time.NewTicker(checkEvery)
	defer watches.Stop()
	n.announce()
	for {
		select {
		case <-n.quit:
			return
		case <-renew.C:
			n.renew()
		case <-orphans.C:
			n.mu.Lock()
			busy := n.orphaning
			n.orphaning = true
			n.mu.Unlock()
			if !busy {
				go func() {
					n.orphanRound()
					n.mu.Lock()
					n.orphaning = false
					n.mu.Unlock()
				}()
			}
			orphans.Reset(jitter(orphanEvery))
		case <-announce.C:
			n.announce()
		case <-watches.C:
			if n.ex != nil {
				go n.checkWatches()
				n.sweepWatches()
			}
		}
	}
}

// jitter spreads d by ±25%, so that nodes do not look for orphans in step.
func jitter(d time.Duration) time.Duration {
	return d*3/4 + time.Duration(rand.Int64N(int64(d/2)))
}

// renew extends this node's leases, and stops the matches it runs whose
// lease has passed to another node meanwhile (it was paused or cut off).
func (n *node) renew() {
	ctx, cancel := context.WithTimeout(context.Background(), n.ttl)
	defer cancel()
	sent := time.Now()
	leases, err := n.m.store.Renew(ctx, n.name, n.ttl)
	n.mu.Lock()
	if err != nil {
		n.failed = sent
		first := !n.failing
		n.failing = true
		n.mu.Unlock()
		if first {
			n.log.Warn("cannot renew this node's leases; another node may take its matches over", "err", err)
		}
		return
	}
	if n.failing {
		n.log.Info("this node's leases are renewed again")
	}
	n.failing = false
	n.renewed = sent
	n.mu.Unlock()
	held := make(map[string]store.Epoch, len(leases))
	for _, l := range leases {
		held[l.Match] = l.Epoch
	}
	n.m.mu.Lock()
	var lost []*Match
	for id, x := range n.m.live {
		// A match leased after the renewal was sent is not in its answer;
		// a finished one never is, and nobody may take it.
		if x.lease.Epoch == 0 || !x.leased.Before(sent) || x.over.Load() {
			continue
		}
		if e, ok := held[id]; !ok || e != x.lease.Epoch {
			lost = append(lost, x)
		}
		delete(held, id)
	}
	for id := range n.m.loading {
		delete(held, id)
	}
	n.m.mu.Unlock()
	for _, x := range lost {
		go func() {
			_ = x.do(context.Background(), func() error {
				// A match that stops saves its clock: the store refuses it
				// (the lease has passed), which stops the match.
				x.saveClock(time.Now())
				x.fence(fmt.Errorf("the lease of match %s is no longer this node's", x.id))
				return nil
			})
		}()
	}
	// Leases this node holds but does not run (a load failed): run them.
	for id := range held {
		go func() {
			if _, err := n.m.Get(context.Background(), id); err != nil {
				n.log.Warn("cannot run a match this node holds", "match", id, "err", err)
			}
		}()
	}
}

// healthy reports whether this node may take other nodes' matches: its
// leases are renewed, and have been for a whole lease. After an outage of
// the store every node's leases look expired; the nodes that still run
// their matches renew them within a lease, and keep them.
func (n *node) healthy() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return !n.failing && !n.draining && time.Since(n.failed) > n.ttl && time.Since(n.renewed) < n.ttl
}

// orphanRound takes over the matches nobody runs whose turn it is of this
// node.
func (n *node) orphanRound() {
	if !n.healthy() {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if n.takeOrphans(ctx, false, true) > 0 {
		n.announce() // the others learn this node's load at once
	}
}

// takeOrphans takes over matches nobody runs, several at once, and returns
// how many it took. The nodes share them without asking one another: each
// match ranks the live nodes in an order of its own (rendezvous hashing),
// the first takes it at the first look that finds it free, the second at
// the next look if it is still free (its first was the node that stopped,
// or is slow), and so on. Two nodes thus seldom ask for the same match at
// once, and the takings of two nodes, each a write of its node's commits,
// seldom wait for one another. A node loaded far above another (see
// overloaded) has its turn a look later. A match that nobody ever
// held (or that was handed over) is not taken before a second look finds
// it free, when patient: a match just created is free for the moment its
// node takes to lease it. With all, the node takes every match nobody runs
// (it starts alone).
func (n *node) takeOrphans(ctx context.Context, all, patient bool) int {
	ids, err := n.m.store.Orphans(ctx, orphanBatch)
	if err != nil || len(ids) == 0 {
		return 0
	}
	names := []string{n.name}
	for _, p := range n.livePeers() {
		names = append(names, p.Node)
	}
	// A node loaded far above another leaves orphans to the others: its
	// turn comes a look later.
	after := 0
	if !all && n.overloaded() {
		after = 1
	}
	now := time.Now()
	n.mu.Lock()
	looks := n.looks
	n.looks = make(map[string]int, len(ids))
	for _, id := range ids {
		n.looks[id] = looks[id] + 1
	}
	n.mu.Unlock()
	var took atomic.Int64
	var wg sync.WaitGroup
	loads := make(chan struct{}, orphanLoads)
	for _, id := range ids {
		if ctx.Err() != nil {
			break
		}
		n.mu.Lock()
		until, skipped := n.skip[id]
		n.mu.Unlock()
		if skipped && now.Before(until) {
			continue
		}
		if !all {
			// Not yet this node's turn? A look later for a match nobody
			// held.
			r := after + rank(id, n.name, names)
			if r > looks[id] || patient && r == looks[id] && !n.heldOnce(ctx, id) {
				continue
			}
		}
		loads <- struct{}{}
		wg.Add(1)
		go func() {
			defer func() { <-loads; wg.Done() }()
			_, err := n.m.Get(ctx, id)
			var e *elsewhere
			switch {
			case err == nil:
				took.Add(1)
				n.log.Info("took over a match nobody ran", "match", id)
			case errors.As(err, &e):
				// Another node was quicker.
			case AsError(err).Code == CodeUnavailable:
				// The store could not say now: at the next look.
			default:
				n.mu.Lock()
				n.skip[id] = now.Add(skipFailed)
				n.mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return int(took.Load())
}

// rank returns node's place among nodes in match id's order of them.
func rank(id, node string, nodes []string) int {
	score := func(name string) uint64 {
		h := fnv.New64a()
		h.Write([]byte(id))
		h.Write([]byte{0})
		h.Write([]byte(name))
		return h.Sum64()
	}
	mine, r := score(node), 0
	for _, other := range nodes {
		if s := score(other); other != node && (s > mine || s == mine && other < node) {
			r++
		}
	}
	return r
}

// heldOnce reports whether match id, which nobody holds now, was held by a
// node whose leases expired (rather than never leased, or handed over).
func (n *node) heldOnce(ctx context.Context, id string) bool {
	rec, err := n.m.store.Get(ctx, id)
	return err == nil && rec.Lease.Node != ""
}

// release gives lease l up, so that another node may take the match at
// once.
func (n *node) release(l store.Lease) {
	if l.Epoch == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), n.ttl)
	defer cancel()
	if err := n.m.store.Release(ctx, l); err != nil && !errors.Is(err, store.ErrFenced) {
		n.log.Warn("cannot give a match's lease up; it is taken over when it expires", "match", l.Match, "err", err)
	}
}

// announce tells the other nodes this node's load.
func (n *node) announce() {
	if n.ex == nil {
		return
	}
	n.mu.Lock()
	p := peer{Node: n.name, Draining: n.draining}
	n.mu.Unlock()
	p.Live = n.m.Live()
	b, _ := json.Marshal(p)
	_ = n.ex.Announce(b)
}

// heard keeps what another node announced.
func (n *node) heard(b []byte) {
	var p peer
	if json.Unmarshal(b, &p) != nil || !nodeName.MatchString(p.Node) || p.Node == n.name {
		return
	}
	p.heard = time.Now()
	n.mu.Lock()
	n.peers[p.Node] = p
	n.mu.Unlock()
}

// livePeers returns the other nodes heard of lately that are not draining.
func (n *node) livePeers() []peer {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []peer
	for name, p := range n.peers {
		switch {
		case time.Since(p.heard) > 3*announceEvery:
			delete(n.peers, name)
		case !p.Draining:
			out = append(out, p)
		}
	}
	return out
}

// freshPeers returns the live peers heard of at their last announcement:
// one that missed it is slow, paused or dead, and its load is not what it
// said (a paused node's matches are being taken over).
func (n *node) freshPeers() []peer {
	var out []peer
	for _, p := range n.livePeers() {
		if time.Since(p.heard) <= announceEvery*3/2 {
			out = append(out, p)
		}
	}
	return out
}

// Placement: a new match runs on the node that created it, unless that
// node runs far more matches than the least loaded other node: more than
// twice as many, and 50 more. It then runs there. A node that drains
// places every new match elsewhere.
const (
	farAboveFactor = 2
	farAboveMargin = 50
)

// placeFor returns the node a new match should run on: "" for this one.
func (n *node) placeFor() string {
	if n.ex == nil {
		return ""
	}
	n.mu.Lock()
	draining := n.draining
	n.mu.Unlock()
	least := peer{Live: -1}
	for _, p := range n.freshPeers() {
		if least.Live < 0 || p.Live < least.Live {
			least = p
		}
	}
	if least.Live < 0 {
		return ""
	}
	if draining || n.farAbove(n.m.Live(), least.Live) {
		return least.Node
	}
	return ""
}

func (n *node) farAbove(mine, theirs int) bool {
	return mine > farAboveFactor*theirs+farAboveMargin
}

// overloaded reports whether this node runs far more matches than the
// least loaded other one: it then leaves orphans to the others.
func (n *node) overloaded() bool {
	mine := n.m.Live()
	for _, p := range n.freshPeers() {
		if n.farAbove(mine, p.Live) {
			return true
		}
	}
	return false
}

// place runs a new stored match on node to, which takes its lease.
func (n *node) place(ctx context.Context, to, id string, autoStart bool) (Summary, error) {
	resp, err := n.call(ctx, to, wireReq{Op: opAdopt, Match: id, AutoStart: autoStart})
	if err != nil {
		return Summary{}, err
	}
	if resp.Summary == nil {
		return Summary{}, errMoved
	}
	return *resp.Summary, nil
}

// stop stops renewing, taking over and answering other nodes. The leases
// stay: a node that restarts under the same name takes its matches back.
func (n *node) stop() {
	if n.started {
		close(n.quit)
		<-n.done
		n.started = false
	}
	n.stopExchange()
}

// Drain hands every match of this node to the others, each paused for a
// moment: the match stops after what it is doing, saves its clock, gives
// its lease up, and another node takes it and runs it; then its sockets
// here are closed with 1001 (the clients connect again through any other
// node), and those elsewhere follow it to its new node. New matches are
// placed on other nodes meanwhile. Drain returns once every match has
// gone, or ctx has ended; Shutdown stops the rest.
func (m *Manager) Drain(ctx context.Context) error {
	n := m.node
	if n == nil {
		return nil
	}
	n.mu.Lock()
	n.draining = true
	n.mu.Unlock()
	n.announce()
	m.mu.Lock()
	xs := make([]*Match, 0, len(m.live))
	for _, x := range m.live {
		xs = append(xs, x)
	}
	m.mu.Unlock()
	targets := n.livePeers()
	sem := make(chan struct{}, 16)
	var wg sync.WaitGroup
	for i, x := range xs {
		to := ""
		if len(targets) > 0 {
			to = targets[i%len(targets)].Node
		}
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			wg.Wait()
			return ctx.Err()
		}
		wg.Add(1)
		go func() {
			defer func() { <-sem; wg.Done() }()
			n.handOver(ctx, x, to)
		}()
	}
	wg.Wait()
	n.log.Info("drained: every match runs on another node", "matches", len(xs))
	return ctx.Err()
}

// handOver stops match x here and has node to run it (any node, if to is
// empty or fails: the match is free for whoever looks first).
func (n *node) handOver(ctx context.Context, x *Match, to string) {
	start := time.Now()
	var running bool
	err := x.do(ctx, func() error {
		x.saveClock(time.Now())
		x.parked = true
		running = x.rec.Status != store.Finished
		return nil
	})
	if err != nil {
		return // it stopped by itself
	}
	<-x.quit
	n.m.mu.Lock()
	if n.m.live[x.id] == x {
		delete(n.m.live, x.id)
	}
	live := len(n.m.live)
	n.m.mu.Unlock()
	n.m.liveChanged(live)
	if !x.fenced {
		n.release(x.lease)
	}
	if running && to != "" {
		actx, cancel := context.WithTimeout(ctx, 5*time.Second)
		_, err := n.call(actx, to, wireReq{Op: opAdopt, Match: x.id})
		cancel()
		if err != nil {
			n.log.Warn("a node did not take a match over; the first node to look will", "match", x.id, "node", to, "err", err)
		}
	}
	// The match has ended: what it owned is ours now.
	n.m.ended(x)
	x.closeSubs(bus.ErrClosed)
	n.log.Info("match handed over", "match", x.id, "to", to, "paused", time.Since(start).Round(time.Millisecond))
}

// leave ends a match that stops here while it goes on elsewhere: fenced,
// its sockets follow it to the node that runs it now; parked, the manager
// hands it over and then closes them.
func (x *Match) leave() {
	if x.fenced {
		x.mgr.forget(x)
		x.closeSubs(bus.ErrResync)
	}
}

// created places a match just stored: on another node if this one is
// loaded far above the others or drains (done is then true, and c holds
// its summary), else under a lease of this node.
func (n *node) created(ctx context.Context, rec *store.Match, req CreateRequest, c *Created) (done bool, err error) {
	if to := n.placeFor(); to != "" {
		if err := n.runsOn(ctx, to, rec.ID, req, c); err == nil {
			n.log.Info("match created for another node", "match", rec.ID, "node", to)
			return true, nil
		}
		n.log.Warn("another node did not take a new match; it runs here", "node", to, "err", err)
	}
	l, err := n.acquire(ctx, rec.ID)
	if err != nil {
		var e *elsewhere
		if !errors.As(err, &e) {
			return true, err
		}
		if e.rec.Lease.Node == "" {
			// This node drains, and no other took the match: the first
			// to look will.
			return true, refuse(CodeUnavailable, "This server is stopping; try again.")
		}
		// Another node took it first, looking for matches nobody ran: it
		// runs there.
		return true, n.runsOn(ctx, e.rec.Lease.Node, rec.ID, req, c)
	}
	rec.Lease = l
	return false, nil
}

// runsOn has node to run the new match id (it takes its lease, or holds it
// already), and fills c in with its summary. The match does not count for
// its client here.
func (n *node) runsOn(ctx context.Context, to, id string, req CreateRequest, c *Created) error {
	sum, err := n.place(ctx, to, id, req.AutoStart)
	if err != nil {
		return err
	}
	c.Match = sum
	if h := n.m.hooks.Ended; h != nil && req.Owner != "" {
		h(id, req.Owner)
	}
	return nil
}

// CheckNode reports whether name may name a node.
func CheckNode(name string) error {
	if !nodeName.MatchString(name) {
		return fmt.Errorf("the node name %q must be 1 to 64 letters, digits, '-' and '_'", name)
	}
	return nil
}
