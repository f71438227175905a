package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
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
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"sortie/internal/match"
	"sortie/internal/server"
	"sortie/internal/server/client"
	"sortie/internal/store"
)

func init() {
	var o loadOptions
	cmd := &cobra.Command{
		Use:   "loadtest",
		Short: "Drive bot-against-bot matches over real WebSockets against a running server",
		Long: `loadtest keeps N matches running against a server for a while: every seat is a
real WebSocket client that plays a random legal action as soon as it may (or at
the pace --rate allows), and a finished match is replaced by a new one. It
prints the actions per second the server accepted, the latency from sending an
action to its acknowledgement on the same socket (p50, p99, max), refusals by
code, and the server's resident memory as its /metrics reports it.

With --idle, the clients connect and never act: the figure is the server's
memory per idle match.

Against several nodes of one cluster (--server URL1,URL2,URL3), the matches are
created on each node in turn, and half the seats of each match connect to
another node than the one that created (and runs) it: their actions are
forwarded (--spread=false keeps every seat on its match's node, for a baseline).
It then prints the latency of local and forwarded actions apart, each node's
CPU and store commits; memory is the nodes' together.

It only talks to loopback addresses unless --allow-remote is given. Every
client comes from one address: start the server (each node) with its
per-client limits off (serve --create-rate 0 --matches-per-client 0
--sockets-per-client 0 --conns-per-client 0), else setups are refused with
rate_limited and the like.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
			defer stop()
			return runLoad(ctx, cmd.OutOrStdout(), o)
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
	root.AddCommand(cmd)
}

type loadOptions struct {
	server, game                 string
	matches, players, parallel   int
	duration, moveLimit          time.Duration
	rate                         float64
	idle, noSockets, allowRemote bool
	spread                       bool
}

// loadStats are the figures of a run; counters are updated from every socket.
type loadStats struct {
	measuring  atomic.Bool
	acked      atomic.Int64 // acknowledged actions while measuring
	sent       atomic.Int64
	finished   atomic.Int64
	created    atomic.Int64
	live       atomic.Int64
	sockErrors atomic.Int64

	mu        sync.Mutex
	latencies []time.Duration // of actions sent on the node that runs their match
	forwarded []time.Duration // of actions sent on another node
	refusals  map[string]int
	minLive   int64
	ackedBy   []atomic.Int64 // acknowledged actions while measuring, by the node that created the match
}

func (s *loadStats) refuse(code string) {
	s.mu.Lock()
	s.refusals[code]++
	s.mu.Unlock()
}

// loadMsg is the part of a server message the load clients read.
type loadMsg struct {
	Type   string            `json:"type"`
	Seq    uint64            `json:"seq"`
	Ack    *uint64           `json:"ack"`
	Status store.Status      `json:"status"`
	Legal  []json.RawMessage `json:"legal"`
	Error  *match.Error      `json:"error"`
}

// readLoadMsg decodes what the load clients read of a message, cheaply, so
// that the clients leave the machine's cores to the server: the head of a
// state or update (type, seq, ack, status), which the server writes in that
// order before the view, is read without decoding the view, and the legal
// actions, when there are some, are decoded alone. Anything else (errors,
// unexpected shapes) is decoded in full.
func readLoadMsg(b []byte) (loadMsg, error) {
	var m loadMsg
	head := b
	if i := bytes.Index(b, []byte(`,"view":`)); i >= 0 {
		head = b[:i]
	}
	typ, ok := jsonString(head, `{"type":"`)
	if !ok || (typ != match.TypeState && typ != match.TypeUpdate) {
		err := json.Unmarshal(b, &m)
		return m, err
	}
	m.Type = typ
	seq, ok := jsonUint(head, `"seq":`)
	if !ok {
		err := json.Unmarshal(b, &m)
		return m, err
	}
	m.Seq = seq
	if ack, ok := jsonUint(head, `"ack":`); ok {
		m.Ack = &ack
	}
	status, _ := jsonString(head, `"status":"`)
	m.Status = store.Status(status)
	if bytes.Contains(b, []byte(`"legal":[`)) {
		// Probably the seat's offer (a view may hold such a key too):
		// decode the top level's legal actions alone.
		var offer struct {
			Legal []json.RawMessage `json:"legal"`
		}
		if err := json.Unmarshal(b, &offer); err != nil {
			return m, err
		}
		m.Legal = offer.Legal
	}
	return m, nil
}

// jsonString returns the string that follows key (which ends with its
// opening quote) in b; such strings hold no escapes.
func jsonString(b []byte, key string) (string, bool) {
	i := bytes.Index(b, []byte(key))
	if i < 0 {
		return "", false
	}
	rest := b[i+len(key):]
	j := bytes.IndexByte(rest, '"')
	if j < 0 {
		return "", false
	}
	return string(rest[:j]), true
}

// jsonUint returns the unsigned number that follows key in b.
func jsonUint(b []byte, key string) (uint64, bool) {
	i := bytes.Index(b, []byte(key))
	if i < 0 {
		return 0, false
	}
	var n uint64
	digits := 0
	for _, c := range b[i+len(key):] {
		if c < '0' || c > '9' {
			break
		}
		n = n*10 + uint64(c-'0')
		digits++
	}
	return n, digits > 0
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

func runLoad(ctx context.Context, out io.Writer, o loadOptions) error {
	var cs []*client.Client
	hc := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 256}, Timeout: 30 * time.Second}
	for _, one := range strings.Split(o.server, ",") {
		one = strings.TrimSpace(one)
		u, err := url.Parse(one)
		if err != nil || u.Host == "" {
			return fmt.Errorf("--server %q is not a URL", one)
		}
		if !o.allowRemote && !loopback(u.Hostname()) {
			return fmt.Errorf("%s is not a loopback address; pass --allow-remote to load another machine", u.Hostname())
		}
		cs = append(cs, &client.Client{Base: strings.TrimSuffix(one, "/"), HTTP: hc})
	}
	if o.duration <= 0 || o.duration > 10*time.Minute {
		return errors.New("--duration must be between 0 and 10 minutes")
	}
	if o.matches < 1 {
		return errors.New("--matches must be at least 1")
	}
	c := cs[0]
	games, err := c.Games(ctx)
	if err != nil {
		return fmt.Errorf("listing the server's games: %v", err)
	}
	if len(games) == 0 {
		return errors.New("the server has no game")
	}
	gi := games[0]
	if o.game != "" {
		i := slices.IndexFunc(games, func(g server.GameInfo) bool { return g.ID == o.game })
		if i < 0 {
			return fmt.Errorf("the server has no game %q", o.game)
		}
		gi = games[i]
	}
	players := min(max(o.players, gi.MinPlayers), gi.MaxPlayers)
	rss0, heap0 := clusterMemory(ctx, cs)
	st := &loadStats{refusals: map[string]int{}, minLive: -1, ackedBy: make([]atomic.Int64, len(cs))}
	var pacer *loadPacer
	if o.rate > 0 {
		pacer = &loadPacer{gap: time.Duration(float64(time.Second) / o.rate)}
	}
	fmt.Fprintf(out, "loadtest: %d matches of %s, %d sockets each, against %s\n", o.matches, gi.ID, players, o.server)

	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	ready := make(chan struct{}, o.matches)
	sem := make(chan struct{}, o.parallel)
	setupStart := time.Now()
	for i := range o.matches {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runMatches(runCtx, cs, i%len(cs), gi.ID, players, uint64(i), o, st, pacer, sem, ready)
		}()
	}
	for range o.matches {
		select {
		case <-ready:
		case <-ctx.Done():
			cancel()
			wg.Wait()
			return ctx.Err()
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
		return nil
	}
	st.measuring.Store(true)
	start := time.Now()
	cpuNodes0 := nodesCPU(ctx, cs)
	commits0 := nodesCommits(ctx, cs)
	cpuOwn0 := ownCPU()
	peakRSS := 0.0
	tick := time.NewTicker(time.Second)
	end := time.After(o.duration)
loop:
	for {
		select {
		case <-tick.C:
			live := st.live.Load()
			st.mu.Lock()
			if st.minLive < 0 || live < st.minLive {
				st.minLive = live
			}
			st.mu.Unlock()
			if rss, _ := clusterMemory(ctx, cs); rss > peakRSS {
				peakRSS = rss
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
	cpuNodes := nodesCPU(context.Background(), cs)
	commits := nodesCommits(context.Background(), cs)
	cpuServer := 0.0
	for i := range cpuNodes {
		cpuNodes[i] -= cpuNodes0[i]
		cpuServer += cpuNodes[i]
	}
	cpuOwn := (ownCPU() - cpuOwn0).Seconds()
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
	var txs, writes float64
	for i := range cs {
		txs += commits[i][0] - commits0[i][0]
		writes += commits[i][1] - commits0[i][1]
	}
	if txs > 0 {
		fmt.Fprintf(out, "store: %.0f commits/s holding %.0f writes/s (%.1f writes a commit), all nodes together\n",
			txs/elapsed.Seconds(), writes/elapsed.Seconds(), writes/txs)
	}
	fmt.Fprintf(out, "server memory: RSS %.1f MiB before, %.1f MiB peak, %.1f MiB at the end; Go heap in use %.1f → %.1f MiB\n",
		mib(rss0), mib(max(peakRSS, rss1)), mib(rss1), mib(heap0), mib(heap1))
	return nil
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

// nodesCPU reads the CPU time each node has used.
func nodesCPU(ctx context.Context, cs []*client.Client) []float64 {
	out := make([]float64, len(cs))
	for i, c := range cs {
		out[i] = serverMetrics(ctx, c, "process_cpu_seconds_total")[0]
	}
	return out
}

// nodesCommits reads each node's store transactions and the writes they
// held.
func nodesCommits(ctx context.Context, cs []*client.Client) [][2]float64 {
	out := make([][2]float64, len(cs))
	for i, c := range cs {
		m := serverMetrics(ctx, c, "sortie_store_batch_writes_count", "sortie_store_batch_writes_sum")
		out[i] = [2]float64{m[0], m[1]}
	}
	return out
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

// ownCPU returns the CPU time this process has used.
func ownCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// serverMetrics reads unlabelled values from the server's /metrics.
func serverMetrics(ctx context.Context, c *client.Client, names ...string) []float64 {
	out := make([]float64, len(names))
	req, err := http.NewRequestWithContext(ctx, "GET", c.Base+"/metrics", nil)
	if err != nil {
		return out
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return out
	}
	defer resp.Body.Close()
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
	return out
}

// runMatches keeps one match running: set up, played by its sockets to the
// end, replaced, until ctx ends. It signals ready once its first match is up.
func runMatches(ctx context.Context, cs []*client.Client, owner int, game string, players int, seed uint64, o loadOptions,
	st *loadStats, pacer *loadPacer, sem chan struct{}, ready chan<- struct{}) {
	first := true
	signal := func() {
		if first {
			first = false
			ready <- struct{}{}
		}
	}
	defer signal()
	r := rand.New(rand.NewPCG(seed, uint64(time.Now().UnixNano())))
	for ctx.Err() == nil {
		select {
		case sem <- struct{}{}:
		case <-ctx.Done():
			return
		}
		conns, err := setupMatch(ctx, cs, owner, game, players, o)
		<-sem
		if err != nil {
			if ctx.Err() == nil {
				st.sockErrors.Add(1)
				st.refuse("setup: " + errCode(err))
				time.Sleep(time.Second)
			}
			continue
		}
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
			wg.Add(1)
			go func() {
				defer wg.Done()
				defer cn.CloseNow()
				loadSocket(ctx, cn, rand.New(rand.NewPCG(r.Uint64(), 1)), st, pacer, socketNode(j, owner, players, len(cs), o.spread) != owner, owner)
			}()
		}
		wg.Wait()
		st.live.Add(-1)
		st.finished.Add(1)
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

// setupMatch creates a match on node owner, connects every seat (see
// socketNode) and starts it.
func setupMatch(ctx context.Context, cs []*client.Client, owner int, game string, players int, o loadOptions) (conns []*client.Conn, err error) {
	c := cs[owner]
	seats := make([]match.SeatRequest, players)
	for i := range seats {
		seats[i].Name = "load " + strconv.Itoa(i)
	}
	// The move limit lets a seat's bot play where the game offers no choice
	// a random client could click (a list too long to show, a puzzle).
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
	cm, err := c.Create(ctx, match.CreateRequest{Game: game, Seats: seats, MoveLimitMs: new(limit.Milliseconds()),
		TakeoverAfterMs: new(int64(0))}) // clients that never connect keep their seats
	if err != nil {
		return nil, err
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
			if cn, err = cs[socketNode(j, owner, players, len(cs), o.spread)].Dial(ctx, cm.Match.ID, s.Token); err != nil {
				return nil, err
			}
			conns = append(conns, cn)
		}
	}
	// Sockets first, then the start: every seat sees the whole match.
	if _, err = c.Start(ctx, cm.Match.ID, cm.HostToken); err != nil {
		return nil, err
	}
	return conns, nil
}

// loadSocket plays one seat: a random legal action on every state where the
// seat may act, until the match ends.
func loadSocket(ctx context.Context, cn *client.Conn, r *rand.Rand, st *loadStats, pacer *loadPacer, forwarded bool, owner int) {
	var (
		seq     uint64
		legal   []json.RawMessage
		sentAt  time.Time
		pending bool
		tries   int
		lats    []time.Duration
	)
	defer func() {
		st.mu.Lock()
		if forwarded {
			st.forwarded = append(st.forwarded, lats...)
		} else {
			st.latencies = append(st.latencies, lats...)
		}
		st.mu.Unlock()
	}()
	act := func() bool {
		if pending || len(legal) == 0 {
			return true
		}
		if err := pacer.wait(ctx); err != nil {
			return false
		}
		a := legal[r.IntN(len(legal))]
		sentAt = time.Now()
		if err := cn.Send(ctx, seq, a); err != nil {
			return false
		}
		pending = true
		st.sent.Add(1)
		return true
	}
	for {
		b, err := cn.ReadRaw(ctx)
		if err != nil {
			if ctx.Err() == nil {
				st.sockErrors.Add(1)
			}
			return
		}
		m, err := readLoadMsg(b)
		if err != nil {
			st.refuse("undecodable")
			continue
		}
		switch m.Type {
		case match.TypeState, match.TypeUpdate:
			if m.Seq < seq {
				continue
			}
			if m.Ack != nil && pending {
				if st.measuring.Load() {
					lats = append(lats, time.Since(sentAt))
					st.acked.Add(1)
					st.ackedBy[owner].Add(1)
				}
			}
			if m.Seq > seq || m.Ack != nil {
				pending, tries = false, 0
			}
			seq, legal = m.Seq, m.Legal
			if m.Status == store.Finished {
				return
			}
			if !act() {
				return
			}
		case match.TypeError:
			if m.Error != nil {
				st.refuse(m.Error.Code)
			}
			pending = false
			switch {
			case m.Error != nil && m.Error.Code == match.CodeStaleSeq:
				// A newer state is on its way.
			case tries < 3:
				tries++
				if m.Error != nil && m.Error.Code == "rate_limited" {
					time.Sleep(100 * time.Millisecond)
				}
				if !act() {
					return
				}
			}
		}
	}
}
