package match_test

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/nats-io/nats.go"

	"sortie/engine"
	"sortie/internal/bus"
	"sortie/internal/bus/natstest"
	"sortie/internal/match"
	"sortie/internal/match/matchtest"
	"sortie/internal/store"
	"sortie/internal/store/pgtest"
)

// clusterNode is one node of a test cluster: its own connections to the
// shared PostgreSQL and NATS, and its manager.
type clusterNode struct {
	m      *match.Manager
	st     *store.Postgres
	fenced atomic.Int64
}

// services starts a PostgreSQL database and a NATS server of the test's
// own, for its nodes, and returns their addresses.
func services(t *testing.T) (db, natsURL string) {
	t.Helper()
	db, err := pgtest.Own(t).Database(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return db, natstest.Start(t).URL()
}

// twoNodes starts nodes a and b of a cluster on a PostgreSQL and a NATS
// server of their own, and returns them with NATS's URL.
func twoNodes(t *testing.T) (a, b *clusterNode, natsURL string) {
	t.Helper()
	db, url := services(t)
	return newClusterNode(t, "a", db, url, true), newClusterNode(t, "b", db, url, true), url
}

// newClusterNode starts node name on database db and NATS url; with resume,
// it starts renewing its leases and taking over matches nobody runs.
func newClusterNode(t *testing.T, name, db, url string, resume bool) *clusterNode {
	t.Helper()
	return newClusterNodeWith(t, name, db, url, resume, nodeOptions{})
}

// nodeOptions change a test node; any may be nil.
type nodeOptions struct {
	exchange  func(bus.Exchange) bus.Exchange // wraps its exchange with the other nodes
	store     func(store.Store) store.Store   // wraps its store
	forwarded func(op, result string, d time.Duration)
}

// newClusterNodeWith is newClusterNode changed by o.
func newClusterNodeWith(t *testing.T, name, db, url string, resume bool, o nodeOptions) *clusterNode {
	t.Helper()
	st, err := store.OpenPostgres(context.Background(), db, store.PostgresOptions{})
	if err != nil {
		t.Fatal(err)
	}
	nb, err := bus.ConnectNATS(url, bus.NATSOptions{Node: name, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	n := &clusterNode{st: st}
	var ex bus.Exchange = nb
	if o.exchange != nil {
		ex = o.exchange(nb)
	}
	var ms store.Store = st
	if o.store != nil {
		ms = o.store(st)
	}
	n.m = match.NewManager(match.Config{
		Store: ms, Bus: nb, Games: matchtest.Games(), Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Cluster: &match.Cluster{Node: name, Exchange: ex, Lease: time.Second},
		Hooks:   match.Hooks{Fenced: func() { n.fenced.Add(1) }, Forwarded: o.forwarded},
	})
	if resume {
		if _, err := n.m.Resume(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() {
		n.m.Shutdown(context.Background())
		nb.Close()
		st.Close()
	})
	return n
}

// startedMatch creates a two-seat match of test cards on node n, without
// move limit or takeover (an action stays legal however long the test
// takes), and starts it.
func startedMatch(t *testing.T, n *clusterNode) (id string, x *match.Match) {
	t.Helper()
	ctx := context.Background()
	c, err := n.m.Create(ctx, match.CreateRequest{Game: "testcards", Players: 2, MoveLimitMs: new(int64(0)), TakeoverAfterMs: new(int64(0))})
	if err != nil {
		t.Fatal(err)
	}
	x, err = n.m.Get(ctx, c.Match.ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := x.Start(ctx); err != nil {
		t.Fatal(err)
	}
	return c.Match.ID, x
}

// A node that stops renewing its leases (here: it never started to, as a
// node paused or cut off from the store) has its match taken over by
// another; its next write to the match is refused by the store, whatever it
// believes, and the match stops on it at once, while it runs on the other
// node from the log as it stands.
func TestFencedMatchStops(t *testing.T) {
	db, url := services(t)
	a := newClusterNode(t, "a", db, url, false)
	b := newClusterNode(t, "b", db, url, true)
	ctx := context.Background()
	id, x := startedMatch(t, a)
	actor := func(x *match.Match) (engine.Seat, uint64, json.RawMessage) {
		m := snapshot(t, x, 0)
		s := m.Actors[0]
		m = snapshot(t, x, s)
		return s, m.Seq, m.Legal[0]
	}
	s, seq, a0 := actor(x)
	if err := x.Act(ctx, s, seq, a0); err != nil {
		t.Fatalf("the first action on the node that holds the lease: %v", err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		rec, err := a.st.Get(ctx, id)
		if err == nil && rec.Lease.Node == "b" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("node b did not take the match over: %+v %v", rec, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	s, seq, a1 := actor(x)
	if err := x.Act(ctx, s, seq, a1); !match.Moved(err) {
		t.Fatalf("an action on the node whose lease passed: %v, want the refusal that says the match moved", err)
	}
	if a.fenced.Load() != 1 {
		t.Fatalf("%d fencing refusals, want 1", a.fenced.Load())
	}
	if a.m.Live() != 0 {
		t.Fatal("the fenced match is still in the old node's memory")
	}
	log, err := b.st.Log(ctx, id)
	if err != nil || len(log) != 1 {
		t.Fatalf("the log after the refused append: %d records, %v", len(log), err)
	}
	// On the node that runs it now, the same action plays.
	y, err := b.m.Get(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if err := y.Act(ctx, s, seq, a1); err != nil {
		t.Fatalf("the action on the node that took the match over: %v", err)
	}
}

// A node asked about a match another node runs answers through it, and a
// socket's watch from it counts as a connection of the seat there.
func TestRemoteHandle(t *testing.T) {
	a, b, _ := twoNodes(t)
	ctx := context.Background()
	c, err := a.m.Create(ctx, match.CreateRequest{Game: "testcards", Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	h, err := b.m.Open(ctx, c.Match.ID)
	if err != nil {
		t.Fatal(err)
	}
	r, ok := h.(*match.Remote)
	if !ok || r.Node() != "a" {
		t.Fatalf("node b opened %T, want a remote handle on node a", h)
	}
	if s, ok := h.SeatOf(c.Tokens[1]); !ok || s != 1 {
		t.Fatal("the remote handle does not know the seat of a token")
	}
	w, err := h.Watch(ctx, 1)
	if err != nil {
		t.Fatal(err)
	}
	sum, err := h.Summary(ctx)
	if err != nil || !sum.Seats[1].Connected || sum.Seats[0].Connected {
		t.Fatalf("the summary through node b: %+v %v", sum.Seats, err)
	}
	if _, err := h.Start(ctx); err != nil {
		t.Fatal(err)
	}
	// The start reaches the watch on node b, through the bus.
	select {
	case <-w.Sub.Ready():
	case <-time.After(10 * time.Second):
		t.Fatal("the watch on node b got nothing of the start")
	}
	h.Unwatch(w)
	deadline := time.Now().Add(10 * time.Second)
	for {
		sum, err := h.Summary(ctx)
		if err == nil && !sum.Seats[1].Connected {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the seat still shows connected after its watch ended")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if _, err := b.m.Open(ctx, "nosuchmatch"); match.AsError(err).Code != match.CodeUnknownMatch {
		t.Fatalf("an unknown match through a node: %v", err)
	}
}

// Only the audiences followed from another node cross between nodes: the
// node that runs a match tells a seat whose socket is its own on itself
// alone, and sends over NATS what a socket elsewhere follows.
func TestOnlyAudiencesFollowedElsewhereCrossNodes(t *testing.T) {
	a, b, natsURL := twoNodes(t)
	ctx := context.Background()
	c, err := a.m.Create(ctx, match.CreateRequest{Game: "testcards", Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	// What crosses, by subject, seen by a client of the NATS server.
	nc, err := nats.Connect(natsURL)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	var mu sync.Mutex
	crossed := map[string]int{}
	var seen1 uint64 // the newest state seat 1's messages carried (their first 8 bytes)
	if _, err := nc.Subscribe("sortie.m."+c.Match.ID+".*", func(m *nats.Msg) {
		mu.Lock()
		audience := m.Subject[strings.LastIndexByte(m.Subject, '.')+1:]
		crossed[audience]++
		if audience == "1" && len(m.Data) >= 8 {
			seen1 = max(seen1, binary.BigEndian.Uint64(m.Data))
		}
		mu.Unlock()
	}); err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	x, err := a.m.Get(ctx, c.Match.ID)
	if err != nil {
		t.Fatal(err)
	}
	here, err := x.Watch(ctx, 0) // seat 0's socket on node a, which runs the match
	if err != nil {
		t.Fatal(err)
	}
	defer x.Unwatch(here)
	hb, err := b.m.Open(ctx, c.Match.ID)
	if err != nil {
		t.Fatal(err)
	}
	there, err := hb.Watch(ctx, 1) // seat 1's on node b
	if err != nil {
		t.Fatal(err)
	}
	defer hb.Unwatch(there)
	if _, err := x.Start(ctx); err != nil {
		t.Fatal(err)
	}
	for range 4 {
		for s := engine.Seat(0); s < 2; s++ {
			if m := snapshot(t, x, s); len(m.Legal) > 0 {
				if err := x.Act(ctx, s, m.Seq, m.Legal[0]); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
	last := snapshot(t, x, engine.Spectator).Seq
	wctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if !there.Sub.WaitSeen(wctx, last) {
		t.Fatalf("node b's socket never saw state %d", last)
	}
	if here.Sub.Len() == 0 {
		t.Fatal("node a's own socket was told nothing")
	}
	// NATS keeps a publisher's order: once seat 1's last state has come,
	// so has whatever node a published before it.
	waitFor(t, "seat 1's last state over NATS", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return seen1 >= last
	})
	mu.Lock()
	defer mu.Unlock()
	if crossed["1"] == 0 || crossed["0"] != 0 || crossed["s"] != 0 {
		t.Fatalf("messages over NATS by audience: %v; want seat 1's alone", crossed)
	}
}

// lossy is an exchange that loses what its node asks of others while lose
// says so: the answer to a request the other node carried out (after), or
// the request itself (before).
type lossy struct {
	bus.Exchange
	mu            sync.Mutex
	before, after bool
}

func (l *lossy) set(before, after bool) {
	l.mu.Lock()
	l.before, l.after = before, after
	l.mu.Unlock()
}

func (l *lossy) Request(ctx context.Context, node string, req []byte) ([]byte, error) {
	l.mu.Lock()
	before, after := l.before, l.after
	l.mu.Unlock()
	if before {
		return nil, fmt.Errorf("%w: the request was lost on its way", bus.ErrUnavailable)
	}
	b, err := l.Exchange.Request(ctx, node, req)
	if after && err == nil {
		return nil, fmt.Errorf("%w: the answer was lost on its way", bus.ErrUnavailable)
	}
	return b, err
}

// An action whose request or answer was lost between nodes says so (Lost),
// never a refusal it may not have had; Settle then makes its fate certain
// wherever the match runs: played once, whether it was before or is now,
// and any other action on the same state refused.
func TestLostActionSettles(t *testing.T) {
	db, url := services(t)
	a := newClusterNode(t, "a", db, url, true)
	var ex *lossy
	b := newClusterNodeWith(t, "b", db, url, true, nodeOptions{exchange: func(e bus.Exchange) bus.Exchange {
		ex = &lossy{Exchange: e}
		return ex
	}})
	ctx := context.Background()
	id, x := startedMatch(t, a)
	h, err := b.m.Open(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	turn := func() (engine.Seat, uint64, []json.RawMessage) {
		s := snapshot(t, x, 0).Actors[0]
		m := snapshot(t, x, s)
		return s, m.Seq, m.Legal
	}
	played := func(n uint64) json.RawMessage {
		log, err := a.st.Log(ctx, id)
		if err != nil || uint64(len(log)) != n {
			t.Fatalf("the log holds %d records (%v), want %d", len(log), err, n)
		}
		var rec struct {
			Action json.RawMessage `json:"action"`
		}
		json.Unmarshal(log[n-1], &rec)
		return rec.Action
	}
	same := func(a, b json.RawMessage) bool {
		var x, y any
		json.Unmarshal(a, &x)
		json.Unmarshal(b, &y)
		return fmt.Sprint(x) == fmt.Sprint(y)
	}

	// The answer is lost: the action was played.
	s, seq, legal := turn()
	ex.set(false, true)
	if err := h.Act(ctx, s, seq, legal[0]); !match.Lost(err) {
		t.Fatalf("an action whose answer was lost: %v, want Lost", err)
	}
	ex.set(false, false)
	if err := h.Settle(ctx, s, seq, legal[0]); err != nil {
		t.Fatalf("settling an action played: %v", err)
	}
	if err := h.Settle(ctx, s, seq, legal[0]); err != nil {
		t.Fatalf("settling it again: %v", err)
	}
	if !same(played(seq+1), legal[0]) {
		t.Fatalf("record %d is %s, want %s", seq+1, played(seq+1), legal[0])
	}
	// (Another action: a hand may offer the same card twice.)
	for _, other := range legal[1:] {
		if same(other, legal[0]) {
			continue
		}
		if err := h.Settle(ctx, s, seq, other); match.AsError(err).Code != match.CodeStaleSeq {
			t.Fatalf("settling another action (%s) on the same state: %v, want stale_seq", other, err)
		}
		break
	}

	// The request is lost: the action is played when it is settled.
	s, seq, legal = turn()
	ex.set(true, false)
	if err := h.Act(ctx, s, seq, legal[0]); !match.Lost(err) {
		t.Fatalf("an action whose request was lost: %v, want Lost", err)
	}
	ex.set(false, false)
	played(seq) // not played
	if err := h.Settle(ctx, s, seq, legal[0]); err != nil {
		t.Fatalf("settling an action not played: %v", err)
	}
	if !same(played(seq+1), legal[0]) {
		t.Fatalf("record %d is %s, want %s", seq+1, played(seq+1), legal[0])
	}
	if err := h.Act(ctx, s, seq, legal[0]); match.AsError(err).Code != match.CodeStaleSeq {
		t.Fatalf("the same action again after it was settled: %v, want stale_seq", err)
	}
}

// swallowing is an exchange whose next action request is taken by a
// process that dies before it answers, while another process comes up
// under the node's name: the request never gets its answer, and the pings
// that ask after it reach the new process.
type swallowing struct {
	bus.Exchange
	next atomic.Bool
}

func (s *swallowing) Request(ctx context.Context, node string, req []byte) ([]byte, error) {
	var r struct {
		Op string `json:"op"`
	}
	json.Unmarshal(req, &r)
	if r.Op == "act" && s.next.CompareAndSwap(true, false) {
		<-ctx.Done()
		return nil, fmt.Errorf("%w: %w", bus.ErrUnavailable, ctx.Err())
	}
	return s.Exchange.Request(ctx, node, req)
}

// A request taken by a process that died, whose node answers pings again
// (it came back under the same name), is found lost at the next ping,
// which the new process answers as a request it is not on, rather than
// waited for until the longest a request may take; the action is then
// settled.
func TestRequestToANodeThatCameBack(t *testing.T) {
	db, url := services(t)
	a := newClusterNode(t, "a", db, url, true)
	var ex *swallowing
	b := newClusterNodeWith(t, "b", db, url, true, nodeOptions{exchange: func(e bus.Exchange) bus.Exchange {
		ex = &swallowing{Exchange: e}
		return ex
	}})
	ctx := context.Background()
	id, x := startedMatch(t, a)
	h, err := b.m.Open(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	s := snapshot(t, x, 0).Actors[0]
	m := snapshot(t, x, s)

	ex.next.Store(true)
	start := time.Now()
	err = h.Act(ctx, s, m.Seq, m.Legal[0])
	if !match.Lost(err) {
		t.Fatalf("an action taken by a process that died: %v, want Lost", err)
	}
	// The longest a request may take is 30 s; the first ping comes after 2.
	if took := time.Since(start); took > 15*time.Second {
		t.Fatalf("the lost action was found lost after %v, not at the first ping", took)
	}
	if err := h.Settle(ctx, s, m.Seq, m.Legal[0]); err != nil {
		t.Fatalf("settling it: %v", err)
	}
	if after := snapshot(t, x, s); after.Seq != m.Seq+1 {
		t.Fatalf("the match is at %d after the action was settled, want %d", after.Seq, m.Seq+1)
	}
}

// A node asked to take a match over that a draining node hands it runs it,
// even when a load of its own (a socket following the match) began while
// the draining node still held the lease and ends after it gave it up.
func TestAdoptWhileALoadIsUnderWay(t *testing.T) {
	db, url := services(t)
	var mu sync.Mutex
	var adopts []string
	a := newClusterNodeWith(t, "a", db, url, true, nodeOptions{forwarded: func(op, result string, _ time.Duration) {
		if op == "adopt" {
			mu.Lock()
			adopts = append(adopts, result)
			mu.Unlock()
		}
	}})
	ctx := context.Background()
	id, _ := startedMatch(t, a)
	gate := &gatedStore{id: id, entered: make(chan struct{}), release: make(chan struct{})}
	adopting := make(chan struct{}, 1)
	b := newClusterNodeWith(t, "b", db, url, true, nodeOptions{
		store: func(s store.Store) store.Store { gate.Store = s; return gate },
		exchange: func(e bus.Exchange) bus.Exchange {
			return &serveHook{Exchange: e, op: "adopt", seen: adopting}
		},
	})
	for start := time.Now(); !a.m.KnowsPeer("b"); time.Sleep(20 * time.Millisecond) {
		if time.Since(start) > 20*time.Second {
			t.Fatal("node a never heard of node b")
		}
	}

	// Node b looks at the match while a holds it; its look stops after
	// the store said the lease is taken, until b is asked to adopt it.
	gate.armed.Store(true)
	looked := make(chan error, 1)
	go func() { _, err := b.m.Get(ctx, id); looked <- err }()
	<-gate.entered
	drained := make(chan error, 1)
	go func() { drained <- a.m.Drain(ctx) }()
	<-adopting
	time.Sleep(100 * time.Millisecond) // (for the adoption to wait on the look)
	close(gate.release)
	if err := <-drained; err != nil {
		t.Fatal(err)
	}
	<-looked
	mu.Lock()
	defer mu.Unlock()
	if len(adopts) != 1 || adopts[0] != "ok" {
		t.Fatalf("node b answered the adoption %v, want ok", adopts)
	}
	rec, err := b.st.Get(ctx, id)
	if err != nil || rec.Lease.Node != "b" {
		t.Fatalf("after the drain the match is leased to %q (%v), want b", rec.Lease.Node, err)
	}
}

// gatedStore is a store whose first read of match id once armed stops
// until release is closed.
type gatedStore struct {
	store.Store
	id      string
	armed   atomic.Bool
	entered chan struct{}
	release chan struct{}
}

func (g *gatedStore) Get(ctx context.Context, id string) (*store.Match, error) {
	if id == g.id && g.armed.CompareAndSwap(true, false) {
		close(g.entered)
		<-g.release
	}
	return g.Store.Get(ctx, id)
}

// serveHook is an exchange that says on seen when a request of operation
// op comes in, before it is answered.
type serveHook struct {
	bus.Exchange
	op   string
	seen chan struct{}
}

func (s *serveHook) Serve(node string, h bus.Handler) (func(), error) {
	return s.Exchange.Serve(node, func(ctx context.Context, req []byte) []byte {
		var r struct {
			Op string `json:"op"`
		}
		if json.Unmarshal(req, &r) == nil && r.Op == s.op {
			select {
			case s.seen <- struct{}{}:
			default:
			}
		}
		return h(ctx, req)
	})
}
