package main

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"sortie/games/all"
	"sortie/internal/match"
	"sortie/internal/server"
)

// Against several nodes, half the seats of a match (rounded down) connect
// to other nodes than the one that runs it, spread over them; with one
// node, or without spreading, every seat connects to it.
func TestSocketNode(t *testing.T) {
	for _, c := range []struct {
		owner, players, nodes int
		spread                bool
		want                  []int
	}{
		{0, 4, 3, true, []int{0, 0, 1, 2}},
		{2, 4, 3, true, []int{2, 2, 0, 1}},
		{1, 5, 3, true, []int{1, 1, 1, 0, 2}},
		{0, 4, 2, true, []int{0, 0, 1, 1}},
		{0, 4, 3, false, []int{0, 0, 0, 0}},
		{0, 4, 1, true, []int{0, 0, 0, 0}},
	} {
		for j, want := range c.want {
			if got := socketNode(j, c.owner, c.players, c.nodes, c.spread); got != want {
				t.Errorf("%+v: seat %d on node %d, want %d", c, j, got, want)
			}
		}
	}
}

// The source addresses are loopback addresses other than 127.0.0.1, all
// different, none ending in 0 or 255.
func TestSourceAddr(t *testing.T) {
	seen := map[string]bool{}
	for _, n := range []uint32{0, 1, 253, 254, 255, 254 * 256, 254*256*3 + 7, 1 << 23} {
		a := sourceAddr(n)
		b := a.As4()
		if !a.IsLoopback() || a.String() == "127.0.0.1" || b[3] == 0 || b[3] == 255 || seen[a.String()] {
			t.Errorf("address %d is %s", n, a)
		}
		seen[a.String()] = true
	}
	if got := sourceAddr(0).String(); got != "127.1.0.1" {
		t.Errorf("the first address is %s", got)
	}
}

// serveDefault serves every game from a real server on a SQLite file, with
// its default limits, on 127.0.0.1; it returns the server's URL.
func serveDefault(t *testing.T) string {
	t.Helper()
	return newServed(t).url
}

// served is a server on a SQLite file that can be stopped and started
// again on its address.
type served struct {
	t         *testing.T
	path, url string
	addr      string
	stop      func()
}

func newServed(t *testing.T) *served {
	t.Helper()
	s := &served{t: t, path: filepath.Join(t.TempDir(), "s.db"), addr: "127.0.0.1:0"}
	s.start()
	t.Cleanup(func() { s.stop() })
	return s
}

// start serves on the server's address (a free one the first time).
func (s *served) start() {
	s.t.Helper()
	srv, err := server.New(server.Config{Games: all.Games(), DataPath: s.path,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		s.t.Fatal(err)
	}
	if _, err := srv.Resume(context.Background()); err != nil {
		s.t.Fatal(err)
	}
	ln, err := net.Listen("tcp", s.addr)
	if err != nil {
		s.t.Fatal(err)
	}
	s.addr, s.url = ln.Addr().String(), "http://"+ln.Addr().String()
	hs := srv.HTTPServer()
	go hs.Serve(srv.Guard(ln))
	s.stop = func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		hs.Shutdown(ctx)
		srv.Shutdown(ctx)
	}
}

// Every game is played by the load clients against a server with its
// default limits: matches are created from enough addresses that no setup
// is refused, the clients keep under the sockets' message rate, compose
// what the server does not offer (Outran's arrows) and pace themselves in
// real time (Temple's roll cooldown), so that actions are acknowledged and
// hardly any is refused.
func TestLoadPlaysEveryGame(t *testing.T) {
	if !loopbackBeyondOne() {
		t.Skip("this machine gives programs no loopback address but 127.0.0.1")
	}
	base := serveDefault(t)
	for _, c := range []struct {
		game    string
		players int
		long    bool              // skipped with -short
		options map[string]string // to come to the first actions sooner
		seconds float64
	}{
		{game: "plandesecours", players: 2, seconds: 1.5},
		{game: "evades", players: 2, seconds: 1.5},
		{game: "room25", players: 4, seconds: 2},
		{game: "temple", players: 4, seconds: 3},
		{game: "outran", players: 3, long: true, options: map[string]string{"countdown_ms": "2000"}, seconds: 6},
	} {
		t.Run(c.game, func(t *testing.T) {
			if c.long && testing.Short() {
				t.Skip("a round takes several seconds")
			}
			var out bytes.Buffer
			st, err := runLoad(t.Context(), &out, loadOptions{
				server: base, game: c.game, players: c.players, matches: 6, parallel: 6,
				duration: time.Duration(c.seconds * float64(time.Second)), moveLimit: 2 * time.Second,
				socketRate: 20, spread: true, options: c.options,
			})
			t.Log("\n" + out.String())
			if err != nil {
				t.Fatal(err)
			}
			st.mu.Lock()
			defer st.mu.Unlock()
			if st.acked.Load() == 0 {
				t.Errorf("no action acknowledged")
			}
			refused := 0
			for code, n := range st.refusals {
				if code == match.CodeStaleSeq && c.game == "temple" {
					// Four adventurers roll at once: a state moves on
					// between a client's look and its roll, the more so
					// on a busy machine. The game's own race, no fault.
					continue
				}
				refused += n
				if strings.HasPrefix(code, "setup") || code == server.CodeRateLimited {
					t.Errorf("%d refusals %s", n, code)
				}
			}
			if int64(refused) > 1+st.acked.Load()/5 {
				t.Errorf("%d refusals for %d actions acknowledged: %v", refused, st.acked.Load(), st.refusals)
			}
			if len(st.oddities) > 0 {
				t.Errorf("the clients' own troubles: %v", st.oddities)
			}
		})
	}
}

// The load clients live through a restart of the server: a socket that
// ends before its match connects again and plays on, and the run says how
// long its match took to come back.
func TestLoadReconnectsAcrossARestart(t *testing.T) {
	srv := newServed(t)
	restarted := make(chan struct{})
	var restart time.Duration
	go func() {
		defer close(restarted)
		time.Sleep(1500 * time.Millisecond)
		began := time.Now()
		srv.stop()
		srv.start()
		restart = time.Since(began)
	}()
	// The run lasts long after the restart: a loaded machine may take
	// seconds to stop and resume the server, and a socket tries again a
	// little later each time (up to 2 s apart); a 4 s run once ended
	// before the sockets came back.
	var out bytes.Buffer
	st, err := runLoad(t.Context(), &out, loadOptions{
		server: srv.url, game: "plandesecours", players: 2, matches: 4, parallel: 4,
		duration: 9 * time.Second, moveLimit: 2 * time.Second, socketRate: 20, spread: true,
	})
	t.Log("\n" + out.String())
	<-restarted
	t.Logf("the server stopped and served again in %v", restart.Round(time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	st.mu.Lock()
	defer st.mu.Unlock()
	if n := st.sockErrors.Load(); n > 0 {
		t.Errorf("%d sockets ended and never came back", n)
	}
	if st.reconnects.Load() == 0 || len(st.stateAfter) == 0 {
		t.Fatalf("%d sockets connected again, %d got a state after", st.reconnects.Load(), len(st.stateAfter))
	}
	if !strings.Contains(out.String(), "failover: ") {
		t.Error("the run does not say how its sockets came back")
	}
}

// A node's counters are added up over its processes: one that restarts
// counts from zero again, which the run neither subtracts nor loses.
func TestNodeMeterAcrossRestarts(t *testing.T) {
	at := func(cpu, start float64) []float64 {
		v := make([]float64, len(meteredNames))
		v[slices.Index(meteredNames, metricCPU)] = cpu
		v[slices.Index(meteredNames, metricStart)] = start
		return v
	}
	var m nodeMeter
	m.take(at(50, 100), 1000) // 50 s of CPU before the run
	m.take(at(52, 100), 1000)
	m.take(at(1.5, 1003), 1000) // restarted: 1.5 s since
	m.take(at(4, 1003), 1000)
	if got := m.delta(metricCPU); got != 6 || m.restarts != 1 {
		t.Fatalf("CPU over the run %v with %d restarts, want 6 with 1", got, m.restarts)
	}
	var late nodeMeter
	late.take(at(2, 1005), 1000) // a node that started during the run
	late.take(at(3, 1005), 1000)
	if got := late.delta(metricCPU); got != 3 {
		t.Fatalf("CPU of a node that started during the run: %v, want 3", got)
	}
}
