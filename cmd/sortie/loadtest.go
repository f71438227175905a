package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/spf13/cobra"

	"sortie/internal/cputime"
	"sortie/internal/match"
	"sortie/internal/server"
	"sortie/internal/server/client"
)

func init() {
	var o loadOptions
	cmd := &cobra.Command{
		Use:   "loadtest",
		Short: "Drive bot-against-bot matches over real WebSockets against a running server",
		Long: `loadtest keeps N matches running against a server for a while: every seat is a
real WebSocket client that plays as a person would, and a finished match is
replaced by a new one. In a game taken in turns a client plays a random action
among those the server offers as soon as it may (after a moment's thought when
other seats decide at the same time), but keeps under the server's rate of
messages a socket (--socket-rate, serve --message-rate) as a person does; where the server offers nothing to choose from (Outran's arrow
sequences, a list too long to show), it composes the action from its seat's
view. In real time (Temple, Outran) each seat is played by the game's own bot
on its seat's view, at a person's pace: it reacts in a fraction of a second,
waits for its roll's cooldown, takes the time to lay its arrows. --rate paces
all clients together.

It prints the actions per second the server accepted, the latency from sending
an action to its acknowledgement on the same socket (p50, p99, max), refusals
by code, the CPU of the server and of the load clients, and the server's
resident memory as its /metrics reports it.

With --idle, the clients connect and never act: the figure is the server's
memory per idle match, read at the end of --duration. An idle server gives the
set-up's garbage back only when Go forces a collection (every two minutes):
300s is when the figure has settled.

Against several nodes of one cluster (--server URL1,URL2,URL3), the matches are
created on each node in turn, and half the seats of each match connect to
another node than the one that created (and runs) it: their actions are
forwarded (--spread=false keeps every seat on its match's node, for a baseline).
It then prints the latency of local and forwarded actions apart, each node's
CPU and store commits; memory is the nodes' together.

A socket that ends before its match (its node stopped, drained or died)
connects again, to its node or, while that does not answer, to the others in
turn, and plays on from the state it gets: the run then prints how many did,
how many actions lost their answer with their socket, how long after their
socket ended a state came again, and how long each action waited from its
first try to its acknowledgement, tries again after "unavailable" included
(the failover as a player lives it). A node's CPU and commits are read every
five seconds and added up over its processes, so that one restarted during
the run counts what each of them did (a killed process's last seconds are
missing).

It only talks to loopback addresses unless --allow-remote is given. A server
limits what each client address may do (serve --create-rate,
--matches-per-client, --sockets-per-client, --conns-per-client): against a
server on 127.0.0.0/8 (or localhost), each match comes from a loopback address
of its own, and moves to a fresh one every 10 matches, so that a server with
its default limits refuses nothing (Linux routes all of 127.0.0.0/8 to the
loopback). Against another machine (or ::1, or where the loopback has
127.0.0.1 alone) every client comes from one address: start that server with
its per-client limits off (--create-rate 0 --matches-per-client 0
--sockets-per-client 0 --conns-per-client 0), else setups are refused with
rate_limited and the like.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
			defer stop()
			_, err := runLoad(ctx, cmd.OutOrStdout(), o)
			return err
		},
	}
	f := cmd.Flags()
	f.StringVar(&o.server, "server", "http://127.0.0.1:8080", "the server's URL, or the URLs of several nodes of one cluster, separated by commas")
	f.StringVar(&o.game, "game", "", "the game to play (default: the server's first game)")
	f.IntVar(&o.matches, "matches", 100, "matches kept running at once")
	f.IntVar(&o.players, "players", 4, "seats per match (clamped to the game's range)")
	f.DurationVar(&o.duration, "duration", 30*time.Second, "how long to measure, after every match is up (at most 10m)")
	f.Float64Var(&o.rate, "rate", 0, "actions per second for all clients together (0: as fast as they can)")
	f.BoolVar(&o.idle, "idle", false, "connect and never act: measure memory per idle match")
	f.BoolVar(&o.noSockets, "no-sockets", false, "with --idle: create and start the matches but open no socket")
	f.IntVar(&o.parallel, "parallel", 32, "matches set up at once")
	f.DurationVar(&o.moveLimit, "move-limit", 2*time.Second, "how long a client may take over a move (not in real time) before its seat's bot plays it (0: no limit; with --rate, at least twice matches/rate)")
	f.BoolVar(&o.allowRemote, "allow-remote", false, "allow a server that is not on a loopback address")
	f.BoolVar(&o.spread, "spread", true, "with several nodes: half the seats of each match on other nodes than the one that runs it")
	f.StringToStringVar(&o.options, "option", nil, "a game option of every match, as key=value (repeat it, or separate them with commas)")
	f.Float64Var(&o.socketRate, "socket-rate", 20, "the server's rate of messages a socket (serve --message-rate): each client keeps under it (0: no limit)")
	root.AddCommand(cmd)
}

type loadOptions struct {
	server, game                 string
	matches, players, parallel   int
	duration, moveLimit          time.Duration
	rate, socketRate             float64
	idle, noSockets, allowRemote bool
	spread                       bool
	options                      map[string]string
}

// loadStats are the figures of a run; counters are updated from every socket.
type loadStats struct {
	measuring  atomic.Bool
	acked      atomic.Int64 // acknowledged actions while measuring
	sent       atomic.Int64
	finished   atomic.Int64
	created    atomic.Int64
	live       atomic.Int64
	sockErrors atomic.Int64 // sockets that ended before their match and never came back

	mu        sync.Mutex
	latencies []time.Duration // of actions sent on the node that runs their match
	forwarded []time.Duration // of actions sent on another node
	refusals  map[string]int
	oddities  map[string]int // the clients' own troubles
	minLive   int64
	ackedBy   []atomic.Int64 // acknowledged actions while measuring, by the node that created the match

	// Failovers: sockets that ended before their match (their node
	// stopped or died) and connected again, actions whose answer went
	// with their socket, how long after the socket ended a state came
	// again, and how long each acknowledged action waited from its first
	// try (tries again after unavailable, or on a new socket, included).
	reconnects, cut   atomic.Int64
	stateAfter, waits []time.Duration
}

// noteFailover keeps a wait.
func (s *loadStats) noteFailover(into *[]time.Duration, d time.Duration) {
	s.mu.Lock()
	*into = append(*into, d)
	s.mu.Unlock()
}

func (s *loadStats) refuse(code string) {
	s.mu.Lock()
	s.refusals[code]++
	s.mu.Unlock()
}

// odd counts a trouble of the clients themselves (the server did nothing
// wrong).
func (s *loadStats) odd(what string) {
	s.mu.Lock()
	s.oddities[what]++
	s.mu.Unlock()
}

// loadPacer spaces actions out to a total rate.
type loadPacer struct {
	mu   sync.Mutex
	next time.Time
	gap  time.Duration
}

func (p *loadPacer) wait(ctx context.Context) error {
	if p == nil {
		return nil
	}
	p.mu.Lock()
	now := time.Now()
	slot := p.next
	if slot.Before(now) {
		slot = now
	}
	p.next = slot.Add(p.gap)
	p.mu.Unlock()
	if d := time.Until(slot); d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-t.C:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// runLoad runs a load test, prints its figures to out and returns them.
func runLoad(ctx context.Context, out io.Writer, o loadOptions) (*loadStats, error) {
	var cs []*client.Client // for what is not a player's: the games, the metrics
	var bases, hosts []string
	hc := &http.Client{Timeout: 30 * time.Second}
	for _, one := range strings.Split(o.server, ",") {
		one = strings.TrimSpace(one)
		u, err := url.Parse(one)
		if err != nil || u.Host == "" {
			return nil, fmt.Errorf("--server %q is not a URL", one)
		}
		if !o.allowRemote && !loopback(u.Hostname()) {
			return nil, fmt.Errorf("%s is not a loopback address; pass --allow-remote to load another machine", u.Hostname())
		}
		bases, hosts = append(bases, strings.TrimSuffix(one, "/")), append(hosts, u.Hostname())
		cs = append(cs, &client.Client{Base: bases[len(bases)-1], HTTP: hc})
	}
	if o.duration <= 0 || o.duration > 10*time.Minute {
		return nil, errors.New("--duration must be between 0 and 10 minutes")
	}
	if o.matches < 1 {
		return nil, errors.New("--matches must be at least 1")
	}
	c := cs[0]
	games, err := c.Games(ctx)
	if err != nil {
		return nil, fmt.Errorf("listing the server's games: %v", err)
	}
	if len(games) == 0 {
		return nil, errors.New("the server has no game")
	}
	gi := games[0]
	if o.game != "" {
		i := slices.IndexFunc(games, func(g server.GameInfo) bool { return g.ID == o.game })
		if i < 0 {
			return nil, fmt.Errorf("the server has no game %q", o.game)
		}
		gi = games[i]
	}
	players := min(max(o.players, gi.MinPlayers), gi.MaxPlayers)
	play, err := newLoadPlay(gi.ID, players, o.socketRate)
	if err != nil {
		return nil, err
	}
	rss0, heap0 := clusterMemory(ctx, cs)
	st := &loadStats{refusals: map[string]int{}, oddities: map[string]int{}, minLive: -1, ackedBy: make([]atomic.Int64, len(cs))}
	var pacer *loadPacer
	if o.rate > 0 {
		pacer = &loadPacer{gap: time.Duration(float64(time.Second) / o.rate)}
	}
	sources := newLoadSources(bases, hosts)
	from := "a loopback address of its own"
	if !sources.spread() {
		from = "one address (the server's per-client limits must be off)"
	}
	fmt.Fprintf(out, "loadtest: %d matches of %s, %d sockets each, against %s; each match from %s\n",
		o.matches, gi.ID, players, o.server, from)

	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	ready := make(chan struct{}, o.matches)
	lr := &loadRun{o: o, game: gi.ID, players: players, nodes: len(cs), sources: sources, play: play,
		st: st, pacer: pacer, sem: make(chan struct{}, o.parallel), ready: ready}
	setupStart := time.Now()
	for i := range o.matches {
		wg.Add(1)
		go func() {
			defer wg.Done()
			lr.runMatches(runCtx, i%len(cs), uint64(i))
		}()
	}
	for range o.matches {
		select {
		case <-ready:
		case <-ctx.Done():
			cancel()
			wg.Wait()
			return nil, ctx.Err()
		}
	}
	fmt.Fprintf(out, "setup: %d matches up in %.1f s\n", o.matches, time.Since(setupStart).Seconds())
	if o.idle {
		select { // let the server settle
		case <-time.After(o.duration):
		case <-ctx.Done():
		}
		rss1, heap1 := clusterMemory(ctx, cs)
		fmt.Fprintf(out, "idle: server RSS %.1f MiB → %.1f MiB, Go heap in use %.1f MiB → %.1f MiB\n",
			mib(rss0), mib(rss1), mib(heap0), mib(heap1))
		fmt.Fprintf(out, "idle: %.1f KiB of RSS and %.1f KiB of heap per idle match (%d sockets each)\n",
			(rss1-rss0)/1024/float64(o.matches), (heap1-heap0)/1024/float64(o.matches), socketsPer(o, players))
		cancel()
		wg.Wait()
		return st, nil
	}
	st.measuring.Store(true)
	start := time.Now()
	meters := make([]nodeMeter, len(cs))
	peakRSS := readMeters(ctx, cs, meters, start)
	cpuOwn0 := cputime.Process()
	tick := time.NewTicker(time.Second)
	end := time.After(o.duration)
loop:
	for ticks := 0; ; {
		select {
		case <-tick.C:
			live := st.live.Load()
			st.mu.Lock()
			if st.minLive < 0 || live < st.minLive {
				st.minLive = live
			}
			st.mu.Unlock()
			// Reading the nodes' /metrics costs a server about as much as
			// a few actions, counted against them: every fifth second.
			if ticks++; ticks%5 == 1 {
				peakRSS = max(peakRSS, readMeters(ctx, cs, meters, start))
			}
		case <-end:
			break loop
		case <-ctx.Done():
			break loop
		}
	}
	tick.Stop()
	st.measuring.Store(false)
	elapsed := time.Since(start)
	peakRSS = max(peakRSS, readMeters(context.Background(), cs, meters, start))
	cpuNodes := make([]float64, len(cs))
	cpuServer, txs, writes := 0.0, 0.0, 0.0
	var records [3]float64 // by clients, bots, clocks
	for i := range meters {
		cpuNodes[i] = meters[i].delta(metricCPU)
		cpuServer += cpuNodes[i]
		txs += meters[i].delta(metricCommits)
		writes += meters[i].delta(metricWrites)
		for j, name := range []string{metricHuman, metricBot, metricClock} {
			records[j] += meters[i].delta(name)
		}
	}
	cpuOwn := (cputime.Process() - cpuOwn0).Seconds()
	rss1, heap1 := clusterMemory(context.Background(), cs)
	cancel()
	wg.Wait()

	st.mu.Lock()
	defer st.mu.Unlock()
	acked := st.acked.Load()
	fmt.Fprintf(out, "measured %.1f s: %d actions acknowledged, %.0f actions/s (target rate %s)\n",
		elapsed.Seconds(), acked, float64(acked)/elapsed.Seconds(), rateText(o.rate))
	lat := append(slices.Clone(st.latencies), st.forwarded...)
	fmt.Fprintf(out, "latency send → own acknowledgement: %s\n", percentiles(lat))
	if len(cs) > 1 {
		fmt.Fprintf(out, "  on the node that runs the match: %s\n  forwarded from another node: %s\n",
			percentiles(st.latencies), percentiles(st.forwarded))
	}
	fmt.Fprintf(out, "matches: %d created, %d finished, at least %d running at every second (of %d)\n",
		st.created.Load(), st.finished.Load(), max(st.minLive, 0), o.matches)
	var codes []string
	for k, v := range st.refusals {
		codes = append(codes, fmt.Sprintf("%s %d", k, v))
	}
	slices.Sort(codes)
	fmt.Fprintf(out, "refusals: %s; socket failures %d\n", orNone(strings.Join(codes, ", ")), st.sockErrors.Load())
	if len(st.oddities) > 0 {
		codes = codes[:0]
		for k, v := range st.oddities {
			codes = append(codes, fmt.Sprintf("%s %d", k, v))
		}
		slices.Sort(codes)
		fmt.Fprintf(out, "load clients' own troubles: %s\n", strings.Join(codes, ", "))
	}
	if acked > 0 {
		fmt.Fprintf(out, "CPU: server %.2f s (%.0f µs an action, %.0f%% of a core), load clients %.2f s (%.0f µs an action)\n",
			cpuServer, 1e6*cpuServer/float64(acked), 100*cpuServer/elapsed.Seconds(), cpuOwn, 1e6*cpuOwn/float64(acked))
		for i := range cs {
			if len(cs) == 1 {
				break
			}
			own := st.ackedBy[i].Load()
			fmt.Fprintf(out, "  node %s: %.2f s (%.0f%% of a core), %d actions of its matches (%.0f µs an action)\n",
				cs[i].Base, cpuNodes[i], 100*cpuNodes[i]/elapsed.Seconds(), own, 1e6*cpuNodes[i]/float64(max(own, 1)))
		}
	}
	for i, m := range meters {
		if m.restarts > 0 {
			fmt.Fprintf(out, "  %s restarted %d times: its CPU is its processes' together, read every 5 s (a killed process's last seconds are missing)\n",
				cs[i].Base, m.restarts)
		}
	}
	if n := st.reconnects.Load(); n > 0 || st.refusals[match.CodeUnavailable] > 0 {
		fmt.Fprintf(out, "failover: %d sockets ended before their match and connected again (%d actions lost their answer with their socket)\n", n, st.cut.Load())
		if n > 0 {
			fmt.Fprintf(out, "  a state again after: %s\n", percentiles(st.stateAfter))
		}
		slow := 0
		for _, d := range st.waits {
			if d > time.Second {
				slow++
			}
		}
		fmt.Fprintf(out, "  an action's wait from its first try to its acknowledgement: %s; %d over a second\n", percentiles(st.waits), slow)
	}
	if txs > 0 {
		fmt.Fprintf(out, "store: %.0f commits/s holding %.0f writes/s (%.1f writes a commit), all nodes together\n",
			txs/elapsed.Seconds(), writes/elapsed.Seconds(), writes/txs)
	}
	if all := records[0] + records[1] + records[2]; all > 0 {
		// Bots play the moves of clients too slow for their move limit:
		// the server's work is by record, whoever made it.
		fmt.Fprintf(out, "records: %.0f/s (%.0f by the clients' actions, %.0f by bots, %.0f by clocks); the nodes' CPU a record %.0f µs\n",
			all/elapsed.Seconds(), records[0], records[1], records[2], 1e6*cpuServer/all)
	}
	fmt.Fprintf(out, "server memory: RSS %.1f MiB before, %.1f MiB peak, %.1f MiB at the end; Go heap in use %.1f → %.1f MiB\n",
		mib(rss0), mib(max(peakRSS, rss1)), mib(rss1), mib(heap0), mib(heap1))
	return st, nil
}

func socketsPer(o loadOptions, players int) int {
	if o.noSockets {
		return 0
	}
	return players
}

func rateText(r float64) string {
	if r <= 0 {
		return "none"
	}
	return strconv.FormatFloat(r, 'f', 0, 64) + "/s"
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f ms", float64(d)/float64(time.Millisecond)) }

func mib(b float64) float64 { return b / (1 << 20) }

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// clusterMemory reads the resident memory and Go heap of every node from
// /metrics, added up.
func clusterMemory(ctx context.Context, cs []*client.Client) (rss, heap float64) {
	for _, c := range cs {
		m := serverMetrics(ctx, c, "process_resident_memory_bytes", "go_memstats_heap_inuse_bytes")
		rss, heap = rss+m[0], heap+m[1]
	}
	return rss, heap
}

// What a run reads of each node's /metrics: counters, and the start of its
// process (a counter starts again from zero when it restarts), and memory.
const (
	metricCPU     = "process_cpu_seconds_total"
	metricCommits = "sortie_store_batch_writes_count"
	metricWrites  = "sortie_store_batch_writes_sum"
	metricStart   = "process_start_time_seconds"
	metricRSS     = "process_resident_memory_bytes"
	// The records the nodes wrote, by what made them: an action of a
	// client, a bot's move (a move limit ran out), time.
	metricHuman = `sortie_records_total{source="human"}`
	metricBot   = `sortie_records_total{source="bot"}`
	metricClock = `sortie_records_total{source="clock"}`
)

var meteredNames = []string{metricCPU, metricCommits, metricWrites, metricStart, metricRSS, metricHuman, metricBot, metricClock}

// nodeMeter adds up a node's counters over a run, across restarts of its
// process: what each process counted between its first and last reading
// (from zero for one that started during the run).
type nodeMeter struct {
	read        bool
	started     float64   // the start of the process read last
	first, last []float64 // its first and last readings
	before      []float64 // what the processes before it counted
	restarts    int
}

// take adds a reading of the node's metrics (meteredNames), taken in a
// run that began at since (Unix seconds).
func (m *nodeMeter) take(v []float64, since float64) {
	start := v[slices.Index(meteredNames, metricStart)]
	switch {
	case !m.read:
		m.read, m.started, m.first, m.before = true, start, v, make([]float64, len(v))
		if start > since {
			m.first = make([]float64, len(v)) // it started during the run
		}
	case start != m.started:
		for i := range v {
			m.before[i] += m.last[i] - m.first[i]
		}
		m.started, m.first = start, make([]float64, len(v))
		m.restarts++
	}
	m.last = v
}

// delta returns what the counter name counted over the run.
func (m *nodeMeter) delta(name string) float64 {
	if !m.read {
		return 0
	}
	i := slices.Index(meteredNames, name)
	return m.before[i] + m.last[i] - m.first[i]
}

// readMeters reads every node that answers into its meter, for a run that
// began at since, and returns the nodes' resident memory together.
func readMeters(ctx context.Context, cs []*client.Client, ms []nodeMeter, since time.Time) (rss float64) {
	for i, c := range cs {
		v, ok := readMetrics(ctx, c, meteredNames...)
		if !ok || v[slices.Index(meteredNames, metricStart)] == 0 {
			continue // down, or restarting
		}
		ms[i].take(v, float64(since.UnixNano())/1e9)
		rss += v[slices.Index(meteredNames, metricRSS)]
	}
	return rss
}

// percentiles says the p50, p99 and max of some latencies.
func percentiles(lat []time.Duration) string {
	slices.Sort(lat)
	pct := func(p float64) time.Duration {
		if len(lat) == 0 {
			return 0
		}
		return lat[min(len(lat)-1, int(p*float64(len(lat))))]
	}
	return fmt.Sprintf("p50 %s, p99 %s, max %s (%d samples)", ms(pct(0.50)), ms(pct(0.99)), ms(pct(1)), len(lat))
}

// serverMetrics reads unlabelled values from the server's /metrics (zero
// where it does not answer).
func serverMetrics(ctx context.Context, c *client.Client, names ...string) []float64 {
	out, _ := readMetrics(ctx, c, names...)
	return out
}

// readMetrics reads unlabelled values from the server's /metrics, and
// reports whether it answered.
func readMetrics(ctx context.Context, c *client.Client, names ...string) ([]float64, bool) {
	out := make([]float64, len(names))
	req, err := http.NewRequestWithContext(ctx, "GET", c.Base+"/metrics", nil)
	if err != nil {
		return out, false
	}
	// Uncompressed: the probe should cost the server as little as it can,
	// since its CPU is counted against the actions.
	req.Header.Set("Accept-Encoding", "identity")
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return out, false
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return out, false
	}
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		name, val, ok := strings.Cut(sc.Text(), " ")
		if !ok {
			continue
		}
		if i := slices.Index(names, name); i >= 0 {
			out[i], _ = strconv.ParseFloat(val, 64)
		}
	}
	return out, sc.Err() == nil
}

// loadRun is what the match slots of a run share.
type loadRun struct {
	o              loadOptions
	game           string
	players, nodes int
	sources        *loadSources
	play           *loadPlay
	st             *loadStats
	pacer          *loadPacer
	sem            chan struct{} // setups under way
	ready          chan<- struct{}
}

// runMatches keeps one match running: set up, played by its sockets to the
// end, replaced, until ctx ends. It signals ready once its first match is up.
func (lr *loadRun) runMatches(ctx context.Context, owner int, seed uint64) {
	o, st := lr.o, lr.st
	first := true
	signal := func() {
		if first {
			first = false
			lr.ready <- struct{}{}
		}
	}
	defer signal()
	r := rand.New(rand.NewPCG(seed, uint64(time.Now().UnixNano())))
	var src *loadSource
	fresh := false
	for ctx.Err() == nil {
		select {
		case lr.sem <- struct{}{}:
		case <-ctx.Done():
			return
		}
		src = lr.sources.get(src, fresh)
		conns, id, tokens, err := lr.setupMatch(ctx, src, owner)
		<-lr.sem
		if err != nil {
			if ctx.Err() == nil {
				code := errCode(err)
				st.refuse("setup: " + code)
				// A refusal by a per-client limit: the next setup comes from
				// another address (where there are several).
				fresh = code == server.CodeRateLimited || strings.HasPrefix(code, "too_many")
				select {
				case <-time.After(time.Second):
				case <-ctx.Done():
				}
			}
			continue
		}
		fresh = false
		st.created.Add(1)
		st.live.Add(1)
		signal()
		if o.idle {
			<-ctx.Done()
			for _, cn := range conns {
				cn.CloseNow()
			}
			st.live.Add(-1)
			return
		}
		var wg sync.WaitGroup
		for j, cn := range conns {
			node := socketNode(j, owner, lr.players, lr.nodes, o.spread)
			seat := lr.play.newSeat(cn, j, rand.New(rand.NewPCG(r.Uint64(), 1)), st, lr.pacer, node != owner, owner)
			// A socket that ends before its match connects again (the
			// latency of its actions is still counted as where it began).
			nodes, token := src.nodes, tokens[j]
			seat.node, seat.nodes = node, len(nodes)
			seat.redial = func(ctx context.Context, n int) (*client.Conn, error) { return nodes[n].Dial(ctx, id, token) }
			wg.Add(1)
			go func() {
				defer wg.Done()
				seat.play(ctx)
			}()
		}
		wg.Wait()
		st.live.Add(-1)
		if ctx.Err() == nil { // else the run ended, not the match
			st.finished.Add(1)
		}
	}
}

func errCode(err error) string {
	var ae *client.APIError
	if errors.As(err, &ae) {
		return ae.Code
	}
	return "network"
}

// socketNode is the node seat j of a match created on node owner connects
// to: the first half of the seats to owner, the others (if spread) to the
// other nodes in turn.
func socketNode(j, owner, players, nodes int, spread bool) int {
	if nodes == 1 || j < (players+1)/2 || !spread {
		return owner
	}
	return (owner + 1 + j%(nodes-1)) % nodes
}

// setupMatch creates a match on node owner from src, connects every seat
// (see socketNode) and starts it.
func (lr *loadRun) setupMatch(ctx context.Context, src *loadSource, owner int) (conns []*client.Conn, id string, tokens []string, err error) {
	o := lr.o
	c := src.nodes[owner]
	seats := make([]match.SeatRequest, lr.players)
	for i := range seats {
		seats[i].Name = "load " + strconv.Itoa(i)
	}
	// The move limit lets a seat's bot play where the game offers no choice
	// a client could click and the client knows of no way to compose one.
	// Idle matches have no move limit, else their seats' bots would play.
	// Paced clients wait their turn for about matches/rate seconds: the limit
	// must leave them twice that, or bots play their moves and theirs come
	// too late.
	limit := o.moveLimit
	if o.rate > 0 && limit > 0 {
		limit = max(limit, time.Duration(2*float64(o.matches)/o.rate*float64(time.Second)))
	}
	if o.idle {
		limit = 0
	}
	src.created.Add(1)
	cm, err := c.Create(ctx, match.CreateRequest{Game: lr.game, Options: o.options, Seats: seats, MoveLimitMs: new(limit.Milliseconds()),
		TakeoverAfterMs: new(int64(0))}) // clients that never connect keep their seats
	if err != nil {
		return nil, "", nil, err
	}
	for _, s := range cm.Seats {
		tokens = append(tokens, s.Token)
	}
	defer func() {
		if err != nil {
			for _, x := range conns {
				x.CloseNow()
			}
		}
	}()
	if !o.noSockets {
		for j, s := range cm.Seats {
			var cn *client.Conn
			if cn, err = src.nodes[socketNode(j, owner, lr.players, lr.nodes, o.spread)].Dial(ctx, cm.Match.ID, s.Token); err != nil {
				return nil, "", nil, err
			}
			conns = append(conns, cn)
		}
	}
	// Sockets first, then the start: every seat sees the whole match.
	if _, err = c.Start(ctx, cm.Match.ID, cm.HostToken); err != nil {
		return nil, "", nil, err
	}
	return conns, cm.Match.ID, tokens, nil
}
