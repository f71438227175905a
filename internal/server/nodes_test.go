package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"sortie/engine"
	"sortie/games/evades"
	"sortie/internal/bus/natstest"
	"sortie/internal/match"
	"sortie/internal/match/matchtest"
	"sortie/internal/server"
	"sortie/internal/store"
	"sortie/internal/store/pgtest"
)

// nodes are servers of one PostgreSQL database and one NATS server, all in
// this process, each behind its own HTTP listener.
type nodes struct {
	t    *testing.T
	pg   *pgtest.Server
	db   string
	nats *natstest.Server
	all  []*env
}

// testLease is the nodes' lease in these tests: short, so that takeovers
// come quickly.
const testLease = 2 * time.Second

// newNodes starts n nodes serving games.
func newNodes(t *testing.T, n int, games []engine.Game, tune func(i int, c *server.Config)) *nodes {
	t.Helper()
	pg := pgtest.Own(t)
	db, err := pg.Database(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	ns := &nodes{t: t, pg: pg, db: db, nats: natstest.Start(t)}
	for i := range n {
		ns.all = append(ns.all, newEnv(t, games, func(c *server.Config) {
			c.StoreURL, c.DataPath, c.BusURL = db, "", ns.nats.URL()
			c.Node, c.Lease, c.ClockSpeed = fmt.Sprint("n", i), testLease, 10
			c.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
			if testing.Verbose() {
				c.Logger = slog.New(slog.NewTextHandler(&testWriter{t}, &slog.HandlerOptions{Level: slog.LevelInfo}))
			}
			if tune != nil {
				tune(i, c)
			}
		}))
	}
	return ns
}

// acrossNodes plays one whole match of g created on node 0: each human seat
// connects to another node, a spectator to the last, and every socket gets
// what an independent replay of the log gives its audience, patches
// included.
func acrossNodes(t *testing.T, ns *nodes, g engine.Game, players int, seed uint64) {
	t.Helper()
	e := ns.all[0]
	// A short move limit has a seat's bot play where the game offers no
	// list a random client could pick from.
	cm := e.newMatch(match.CreateRequest{Game: g.Info().ID, Players: players, MoveLimitMs: new(int64(1000))}, false)
	id := cm.Match.ID
	var ps []*player
	for i, s := range cm.Seats {
		if s.Token != "" {
			p, err := dialWith(ns.all[i%len(ns.all)].c, id, s.Token, s.Seat)
			if err != nil {
				t.Fatal(err)
			}
			ps = append(ps, p)
		}
	}
	spec, err := dialWith(ns.all[len(ns.all)-1].c, id, "", engine.Spectator)
	if err != nil {
		t.Fatal(err)
	}
	// Every seat shows as connected, wherever its socket is.
	waitFor(t, "every seat connected", func() bool {
		sum, err := ns.all[1].c.Match(context.Background(), id)
		if err != nil {
			return false
		}
		for _, s := range sum.Seats {
			if !s.Connected {
				return false
			}
		}
		return true
	})
	if _, err := ns.all[2%len(ns.all)].c.Start(context.Background(), id, cm.HostToken); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	errs := make([]error, len(ps))
	for i, p := range ps {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = p.play(ctx, rand.New(rand.NewPCG(seed, uint64(p.seat))), playOptions{})
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			for _, p := range ps {
				msgs := p.messages()
				n := 0
				for k := len(msgs) - 1; k >= 0 && n < 4; k-- {
					if !bytes.Contains(msgs[k], []byte(`"ping"`)) {
						t.Logf("seat %d got %.400s", p.seat, msgs[k])
						n++
					}
				}
			}
			t.Fatalf("seat %d: %v", ps[i].seat, err)
		}
	}
	spec.expect(t, "the end", func(m *match.Message) bool { return m.Status == store.Finished && m.Type != match.TypeSeats })
	rp, err := ns.all[1].c.Replay(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	patches := 0
	for _, p := range append(ps, spec) {
		patches += checkNoLeak(t, g, rp, p.seat, p.messages())
		p.close()
	}
	if len(rp.Log) > 10 && patches == 0 {
		t.Errorf("%s: no update of %d records carried a patch of the view", g.Info().ID, len(rp.Log))
	}
}

// A match created on one node is played from sockets on every node: each
// action reaches the node that runs the match and is acknowledged on the
// socket that sent it, every socket gets every update in order, with view
// patches and nothing its seat may not see.
func TestMatchAcrossNodes(t *testing.T) {
	// The test games, and a real one where each seat hides its hand.
	games := append(matchtest.Games(), evades.Game{})
	ns := newNodes(t, 3, games, nil)
	for i, g := range games {
		acrossNodes(t, ns, g, 3, uint64(i+1))
	}
}

// The node that runs a match stops without handing it over (as a crash
// would, but in this process: its leases are kept until they expire). A
// socket on another node stays open, gets a fresh state once a surviving
// node has taken the match over, and the match plays on to its end.
func TestMatchOutlivesItsNode(t *testing.T) {
	ns := newNodes(t, 2, matchtest.Games(), nil)
	a, b := ns.all[0], ns.all[1]
	p0, p1 := startTestCards(t, a, b, b)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for _, p := range []*player{p0, p1} {
		p.expect(t, "the start", func(m *match.Message) bool { return m.Status == store.Running })
	}
	// A few moves, then the node that runs the match goes away.
	r := newRand(1)
	if _, err := p0.play(ctx, r, playOptions{stopAfter: 1}); err != nil {
		t.Fatal(err)
	}
	before := p0.last.Seq
	a.stop()
	for _, p := range []*player{p0, p1} {
		p.expect(t, "a fresh state from the node that took over", func(m *match.Message) bool {
			return m.Type == match.TypeState && m.Seq >= before
		})
	}
	var wg sync.WaitGroup
	for _, p := range []*player{p0, p1} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if last, err := p.play(ctx, newRand(uint64(p.seat)+7), playOptions{}); err != nil || last.Status != store.Finished {
				t.Errorf("seat %d after the takeover: %v", p.seat, err)
			}
		}()
	}
	wg.Wait()
}

// startTestCards starts a two-seat match of the test cards made on node
// owner, seat 0's socket on node at0 and seat 1's on at1; the sockets close
// when the test ends.
func startTestCards(t *testing.T, owner, at0, at1 *env) (p0, p1 *player) {
	t.Helper()
	cm := owner.newMatch(match.CreateRequest{Game: "testcards", Players: 2}, false)
	var ps [2]*player
	for i, at := range []*env{at0, at1} {
		p, err := dialWith(at.c, cm.Match.ID, cm.Seats[i].Token, engine.Seat(i))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(p.close)
		ps[i] = p
	}
	if _, err := at1.c.Start(context.Background(), cm.Match.ID, cm.HostToken); err != nil {
		t.Fatal(err)
	}
	return ps[0], ps[1]
}

// While NATS is down, a socket on a node that does not run its match
// answers every message of its client with "unavailable", however many come
// at once, and stays open; once NATS is back it gets a fresh state. (A
// socket waiting to follow its match once held a single answer, and was
// closed as "too far behind" by the second.)
func TestWaitingSocketAnswersEveryMessage(t *testing.T) {
	ns := newNodes(t, 2, matchtest.Games(), nil)
	_, p1 := startTestCards(t, ns.all[0], ns.all[0], ns.all[1])
	started := p1.expect(t, "the start", func(m *match.Message) bool { return m.Status == store.Running })

	ns.nats.Shutdown()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	action := json.RawMessage(`{"type":"pass"}`)
	refused := func() bool {
		m, err := p1.recv(ctx)
		if err != nil {
			t.Fatalf("waiting for an answer while NATS is down: %v", err)
		}
		return m.Type == match.TypeError && m.Error.Code == match.CodeUnavailable
	}
	// Until the node has noticed, an action may still be answered otherwise.
	waitFor(t, "an action refused as unavailable", func() bool {
		if err := p1.conn.Send(ctx, started.Seq, action); err != nil {
			t.Fatal(err)
		}
		return refused()
	})
	const burst = 20        // under the socket's message burst
	time.Sleep(time.Second) // a fresh burst allowance
	for range burst {
		if err := p1.conn.Send(ctx, started.Seq, action); err != nil {
			t.Fatal(err)
		}
	}
	for i := range burst {
		if !refused() {
			t.Fatalf("answer %d of %d while NATS is down is not \"unavailable\"", i+1, burst)
		}
	}
	if err := ns.nats.Restart(); err != nil {
		t.Fatal(err)
	}
	p1.expect(t, "a fresh state once NATS is back", func(m *match.Message) bool { return m.Type == match.TypeState })
}

// The node that runs a match stops while a seat on another node keeps
// sending its action until it is played: every message gets exactly one
// answer. The action played by the node that takes the match over, before
// the socket follows the match there, is acknowledged by the fresh state
// the socket gets.
func TestEveryActionAnsweredWhenItsNodeStops(t *testing.T) {
	ns := newNodes(t, 2, matchtest.Games(), nil)
	a, b := ns.all[0], ns.all[1]
	cm := a.newMatch(match.CreateRequest{Game: "testcards", Players: 2, MoveLimitMs: new(int64(0)), TakeoverAfterMs: new(int64(0))}, false)
	var ps [2]*player
	for i, at := range []*env{a, b} {
		p, err := dialWith(at.c, cm.Match.ID, cm.Seats[i].Token, engine.Seat(i))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(p.close)
		ps[i] = p
	}
	if _, err := a.c.Start(context.Background(), cm.Match.ID, cm.HostToken); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	// Seat 0 plays until seat 1, on node b, has its turn.
	for ps[1].last == nil || len(ps[1].last.Legal) == 0 {
		rctx, rcancel := context.WithTimeout(ctx, 100*time.Millisecond)
		for _, p := range ps {
			p.recv(rctx)
		}
		rcancel()
		if l := ps[0].last; l != nil && len(l.Legal) > 0 && l.Status == store.Running {
			if _, err := ps[0].play(ctx, newRand(1), playOptions{stopAfter: 1}); err != nil {
				t.Fatal(err)
			}
		}
	}
	a.stop()
	pctx, pcancel := context.WithTimeout(ctx, 20*time.Second)
	defer pcancel()
	_, err := ps[1].play(pctx, newRand(2), playOptions{stopAfter: 1})
	unanswered, twice, _ := ps[1].answers(5 * time.Second)
	if len(unanswered) > 0 || len(twice) > 0 {
		t.Fatalf("of the %d actions sent, those on states %v were never answered, those on %v answered twice", ps[1].sends, unanswered, twice)
	}
	if err != nil {
		t.Fatalf("seat 1 after the takeover: %v", err)
	}
	t.Logf("%d actions sent through the takeover, each answered once", ps[1].sends)
}
