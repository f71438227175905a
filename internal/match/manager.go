package match

import (
	"container/list"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"sortie/engine"
	"sortie/internal/bus"
	"sortie/internal/store"
)

// DefaultBuffer is how many messages a connection may fall behind by
// default.
const DefaultBuffer = 256

// Config sets up a [Manager].
type Config struct {
	// Store keeps the matches; required.
	Store store.Store
	// Bus carries the matches' messages; nil means a new in-process bus.
	Bus bus.Bus
	// Games are the games that may be played.
	Games []engine.Game
	// Logger receives the matches' logs; nil means slog.Default().
	Logger *slog.Logger
	// ClockSpeed is how fast match time runs against the wall clock: 1 (the
	// default) is real time. Tests speed matches up with it.
	ClockSpeed float64
	// MaxLive bounds the matches in memory at once: 100,000 if zero. From
	// nine tenths of it on, each creation first ends the oldest open match
	// that nobody but its creator joined, if there is one (see makeRoom).
	MaxLive int
	// Linger is how long a finished match nobody watches stays in memory: a
	// minute if zero.
	Linger time.Duration
	// Buffer is how many messages a connection may fall behind before it is
	// dropped (it then reconnects and gets a fresh snapshot):
	// [DefaultBuffer] if zero.
	Buffer int
	// Hooks are told what happens, for metrics.
	Hooks Hooks
	// Cluster, if set, makes the manager one node of several sharing the
	// store (see lease.go): nil runs every match of the store here, as a
	// single node does.
	Cluster *Cluster

	// ExpireOpen: an open match nobody started this long after its
	// creation expires. A day if zero; negative: never.
	ExpireOpen time.Duration
	// ExpireLonely: an open match that nobody but its creator joined
	// expires this long after its creation. An hour if zero; negative:
	// only at ExpireOpen.
	ExpireLonely time.Duration
	// ExpireCorrespondence: an open correspondence table (see
	// correspondence.go) nobody started this long after its creation
	// expires, whoever joined it. A week if zero; negative: never.
	ExpireCorrespondence time.Duration
	// AbandonAfter: a running match with no seat's player connected for
	// this long (since it started, or since this server loaded it) is
	// abandoned, and its bots stop. Three days if zero; negative: never. A
	// correspondence table waits at least three move limits and its days
	// off.
	AbandonAfter time.Duration
	// Retain: matches over (finished, expired, abandoned, failed, closed)
	// for longer than this are deleted from the store. Zero keeps them.
	Retain time.Duration
	// ClockSave is how often a running real-time match saves its clock
	// ahead (see clock.go): a second if zero.
	ClockSave time.Duration
	// BotSearches is how many bot decisions the node searches at once
	// (see budget.go): one fewer than the cores, at least one, if zero.
	BotSearches int
	// Reviews has the node review finished matches, as background jobs of
	// the store (see reviews.go); off, a review asked for is queued for the
	// nodes that do.
	Reviews bool
	// LogCache is how many bytes of stored logs the node keeps in memory
	// (see logcache.go): 32 MiB if zero; negative: none.
	LogCache int64
	// Notice, if set, is told when a seat held by an account waits for its
	// player who is away, and when a match ends (see notice.go). It is
	// called within the match's run: it must not block.
	Notice func(Notice)
}

// Hooks are called as matches run; any may be nil. They must not block.
type Hooks struct {
	// Recorded is called for every record appended to a log, with what made
	// it: "human", "bot" or "clock".
	Recorded func(source string)
	// Handled is called for every action a client sent, with the refusal
	// code ("" when accepted) and the time from its arrival to its
	// acknowledgement.
	Handled func(code string, d time.Duration)
	// Live is called with the number of matches in memory when it changes.
	Live func(n int)
	// Ended is called once when a match created with an Owner stops being
	// under way on this server: it finished or ended otherwise (expired,
	// abandoned, failed, closed), or left memory unfinished. The server
	// counts each client's unfinished matches with it.
	Ended func(id, owner string)
	// Loaded is called when an unfinished match whose creator is known
	// comes into memory otherwise than by its creation here (the server
	// started, or took it over from another node); Ended follows it.
	Loaded func(id, owner string)

	// On several nodes:
	// Fenced is called for each write the store refused because the
	// match's lease had passed to another node.
	Fenced func()
	// Acquired is called for each lease this node takes.
	Acquired func()
	// Forwarded is called for each request sent to another node, with its
	// result ("ok", "refused", "moved", "gone", "unreachable") and how long
	// it took.
	Forwarded func(op, result string, d time.Duration)
	// Busy is called for each decision a searching bot made without
	// searching, because every place of the node's budget was taken.
	Busy func()
}

// Manager holds the live matches of this server: it creates them, loads them
// from the store (replaying their logs) when they are asked for or when the
// server starts, and stops them.
type Manager struct {
	store  store.Store
	bus    bus.Bus
	games  []engine.Game
	infos  []engine.Info // games[i].Info(), built once: every match of a game shares it
	log    *slog.Logger
	speed  float64
	max    int
	linger time.Duration
	buffer int
	hooks  Hooks
	notice func(Notice)
	node   *node // nil on a single node

	expireOpen, expireLonely, expireCorrespondence, abandonAfter, retain, clockSave time.Duration

	budget *budget
	hints  hintDesk // the hints given and being computed (hints.go)
	// reviews says the node runs reviews; reviewKick wakes their worker
	// (reviews.go).
	reviews, reviewing bool
	reviewKick         chan struct{}
	// historyLost is set while histories cannot be read (one log line an
	// incident).
	historyLost atomic.Bool
	logs        *logCache     // nil when off
	rebuilds    chan struct{} // a place for each rebuild of a past step that may run at once
	sweeper     *time.Timer   // lets the log cache's idle entries go
	faults      faults
	done        chan struct{} // closed by Shutdown

	mu       sync.Mutex
	live     map[string]*Match
	creating int // creations past the check of max, not yet in live
	leaving  int // matches of live ended to make room, not yet gone
	// lonely holds the matches that may be ended to make room, oldest
	// first (those that since found company are skipped when reached).
	lonely  list.List
	loading map[string]*loadCall
	closing bool
	failed  map[string]bool // matches whose failure was logged
	pruning bool
}

type loadCall struct {
	done chan struct{}
	err  error
}

// NewManager returns a manager with no match loaded; call Resume to bring
// back the matches that were under way.
func NewManager(c Config) *Manager {
	m := &Manager{
		store: c.Store, bus: c.Bus, games: c.Games, log: c.Logger, speed: c.ClockSpeed,
		max: c.MaxLive, linger: c.Linger, buffer: c.Buffer, hooks: c.Hooks, notice: c.Notice,
		expireOpen: c.ExpireOpen, expireLonely: c.ExpireLonely, expireCorrespondence: c.ExpireCorrespondence, abandonAfter: c.AbandonAfter, retain: c.Retain, clockSave: c.ClockSave,
		budget: newBudget(c.BotSearches, c.Hooks.Busy), done: make(chan struct{}), reviews: c.Reviews, reviewKick: make(chan struct{}, 1),
		live: make(map[string]*Match), loading: make(map[string]*loadCall), failed: make(map[string]bool),
	}
	for _, d := range []struct {
		v   *time.Duration
		def time.Duration
	}{{&m.expireOpen, defaultExpireOpen}, {&m.expireLonely, defaultExpireLonely}, {&m.expireCorrespondence, defaultExpireCorrespondence},
		{&m.abandonAfter, defaultAbandonAfter}, {&m.clockSave, defaultClockSave}} {
		if *d.v == 0 {
			*d.v = d.def
		}
	}
	m.infos = make([]engine.Info, len(m.games))
	for i, g := range m.games {
		m.infos[i] = g.Info()
	}
	if m.bus == nil {
		m.bus = bus.NewLocal()
	}
	if m.log == nil {
		m.log = slog.Default()
	}
	if m.speed <= 0 {
		m.speed = 1
	}
	if m.max <= 0 {
		m.max = 100_000
	}
	if m.linger <= 0 {
		m.linger = time.Minute
	}
	if m.buffer <= 0 {
		m.buffer = DefaultBuffer
	}
	m.rebuilds = make(chan struct{}, max(1, runtime.GOMAXPROCS(0)/2))
	switch {
	case c.LogCache == 0:
		m.logs = newLogCache(defaultLogCache)
	case c.LogCache > 0:
		m.logs = newLogCache(c.LogCache)
	}
	if m.logs != nil {
		m.sweeper = time.AfterFunc(logCacheIdle/4, m.sweepLogs)
	}
	if c.Cluster != nil {
		n, err := newNode(m, *c.Cluster)
		if err != nil {
			panic(err) // the caller checks the name first (CheckNode)
		}
		m.node = n
	}
	return m
}

// Games returns the games that may be played.
func (m *Manager) Games() []engine.Game { return m.games }

// Game returns the game with the given id.
func (m *Manager) Game(id string) (engine.Game, error) {
	for i, g := range m.games {
		if m.infos[i].ID == id {
			return g, nil
		}
	}
	return nil, refuse(CodeUnknownGame, "There is no game %q on this server.", id)
}

// info returns the shared Info of game g, whose id is id.
func (m *Manager) info(g engine.Game, id string) engine.Info {
	for i := range m.games {
		if m.infos[i].ID == id {
			return m.infos[i]
		}
	}
	return g.Info()
}

// Live returns the number of matches in memory.
func (m *Manager) Live() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.live)
}

// Create makes a new match, stores it and runs it. An error after the
// match was made (its start failed) comes with the Created: the match
// exists, and Hooks.Ended will be told of it.
func (m *Manager) Create(ctx context.Context, req CreateRequest) (*Created, error) {
	g, err := m.Game(req.Game)
	if err != nil {
		return nil, err
	}
	rec, c, err := prepare(g, req, time.Now())
	if err != nil {
		return nil, err
	}
	m.makeRoom(ctx)
	// The place is taken before the match is stored, so that concurrent
	// creations cannot all pass the check and overfill the server.
	m.mu.Lock()
	switch {
	case m.closing:
		m.mu.Unlock()
		return nil, refuse(CodeUnavailable, "The server is stopping.")
	case m.held() >= m.max:
		m.mu.Unlock()
		return nil, refuse(CodeServerFull, "This server runs as many matches as it can; try again later.")
	}
	m.creating++
	m.mu.Unlock()
	placed := false
	defer func() {
		if !placed {
			m.mu.Lock()
			m.creating--
			m.mu.Unlock()
		}
	}()
	if err := m.store.Create(ctx, rec); err != nil {
		m.log.Error("cannot store a new match", "err", err)
		return nil, refuse(CodeUnavailable, "The server could not save the match; try again.")
	}
	if m.node != nil {
		if done, err := m.node.created(ctx, rec, req, c); done {
			if err != nil {
				return nil, err // not made here: its place is free again
			}
			return c, nil
		}
	}
	x, err := m.newMatch(g, rec, nil)
	if err != nil {
		return nil, err
	}
	x.owner = req.Owner
	x.making.Store(true)
	defer x.making.Store(false)
	m.mu.Lock()
	m.creating--
	placed = true
	m.live[x.id] = x
	m.mayEnd(x)
	n := len(m.live)
	m.mu.Unlock()
	x.run()
	m.liveChanged(n)
	m.log.Info("match created", "match", x.id, "game", rec.Game, "players", rec.Setup.Players)
	if req.AutoStart && x.everyoneHereNow() {
		if _, err := x.Start(ctx); err != nil {
			return c, err
		}
	}
	c.Match, err = x.Summary(ctx)
	return c, err
}

// everyoneHereNow is everyoneHere for a match just made (true only when it
// has no human seat), asked through its inbox like any request.
func (x *Match) everyoneHereNow() bool {
	var all bool
	_ = x.do(context.Background(), func() error { all = x.everyoneHere(); return nil })
	return all
}

func (m *Manager) liveChanged(n int) {
	if h := m.hooks.Live; h != nil {
		h(n)
	}
}

// validID reports whether id could be a match id, so that garbage never
// reaches the store.
func validID(id string) bool {
	if len(id) == 0 || len(id) > 32 {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// Get returns the match with the given id, loading it from the store if it
// is not in memory.
func (m *Manager) Get(ctx context.Context, id string) (*Match, error) {
	if !validID(id) {
		return nil, refuse(CodeUnknownMatch, "There is no match %q.", id)
	}
	for {
		m.mu.Lock()
		if m.closing {
			m.mu.Unlock()
			return nil, refuse(CodeUnavailable, "The server is stopping.")
		}
		if x := m.live[id]; x != nil {
			m.mu.Unlock()
			return x, nil
		}
		if c := m.loading[id]; c != nil {
			m.mu.Unlock()
			select {
			case <-c.done:
			case <-ctx.Done():
				return nil, refuse(CodeUnavailable, "The match is being loaded; try again.")
			}
			if c.err != nil {
				return nil, c.err
			}
			continue
		}
		c := &loadCall{done: make(chan struct{})}
		m.loading[id] = c
		m.mu.Unlock()
		x, err := m.load(ctx, id)
		m.mu.Lock()
		delete(m.loading, id)
		n := 0
		if err == nil {
			if m.closing {
				err = refuse(CodeUnavailable, "The server is stopping.")
			} else {
				m.live[id] = x
				m.mayEnd(x)
				n = len(m.live)
				x.run()
			}
		}
		c.err = err
		close(c.done)
		m.mu.Unlock()
		if err != nil {
			return nil, err
		}
		m.liveChanged(n)
		return x, nil
	}
}

// Do runs fn on the match with the given id, loading it again if it left
// memory meanwhile.
func (m *Manager) Do(ctx context.Context, id string, fn func(x *Match) error) error {
	for range 3 {
		x, err := m.Get(ctx, id)
		if err != nil {
			return err
		}
		if err = fn(x); err != errGone {
			return err
		}
	}
	return errGone
}

// load rebuilds a stored match by replaying its log. On several nodes it
// takes the match's lease first, or says which node holds it (elsewhere).
func (m *Manager) load(ctx context.Context, id string) (*Match, error) {
	var lease store.Lease
	if m.node != nil {
		var err error
		if lease, err = m.node.acquire(ctx, id); err != nil {
			return nil, err
		}
	}
	x, err := m.loadStored(ctx, id, lease)
	if err != nil && m.node != nil {
		m.node.release(lease) // for another node to try
	}
	return x, err
}

func (m *Manager) loadStored(ctx context.Context, id string, lease store.Lease) (*Match, error) {
	rec, err := m.store.Get(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, refuse(CodeUnknownMatch, "There is no match %q.", id)
	}
	if err != nil {
		m.readError("cannot read a match", id, err)
		return nil, refuse(CodeUnavailable, "The server could not read the match; try again.")
	}
	if m.node != nil {
		rec.Lease = lease
	}
	m.failDamaged(ctx, rec)
	if rec.Status.Over() && m.pastRetention(rec.Finished, time.Now()) {
		return nil, refuse(CodeUnknownMatch, "There is no match %q.", id) // pruned, or about to be
	}
	if rec.Status == store.Failed || rec.Status == store.Closed {
		return nil, overRefusal(rec) // nothing to run or show: the summary says why
	}
	g, err := m.Game(rec.Game)
	if err != nil {
		return nil, refuse(CodeUnavailable, "The game of this match (%s) is not on this server.", rec.Game)
	}
	log, err := m.store.Log(ctx, id)
	var talk [][]byte
	if err == nil {
		talk, err = m.store.Chat(ctx, id)
	}
	if err != nil {
		m.readError("cannot read a match's log", id, err)
		return nil, refuse(CodeUnavailable, "The server could not read the match; try again.")
	}
	x, err := m.newMatch(g, rec, log)
	var u *unreplayable
	if errors.As(err, &u) {
		m.logs.drop(id)
		return nil, m.failStored(ctx, rec, u)
	}
	if err == nil {
		m.logs.putLog(id, log)
		m.logs.putChat(id, talk)
		if !rec.Status.Over() && rec.Creator != "" {
			x.owner = rec.Creator
			if h := m.hooks.Loaded; h != nil {
				h(id, rec.Creator)
			}
		}
	}
	if err == nil {
		x.chatN = len(talk)
	}
	return x, err
}

// newMatch builds a match from what is stored, replaying its log. A setup
// or log that no longer replays is an *unreplayable.
func (m *Manager) newMatch(g engine.Game, rec *store.Match, log [][]byte) (*Match, error) {
	info := m.info(g, rec.Game)
	opts, err := info.Check(rec.Setup)
	if err != nil {
		return nil, &unreplayable{err: err}
	}
	var set settings
	if len(rec.Settings) > 0 {
		if err := json.Unmarshal(rec.Settings, &set); err != nil {
			return nil, &unreplayable{err: fmt.Errorf("the settings do not read: %v", err)}
		}
	}
	x := &Match{
		id: rec.ID, game: g, info: info, mgr: m,
		log:   m.log.With("match", rec.ID, "game", info.ID),
		inbox: make(chan func(), 16), quit: make(chan struct{}),
		hostHash: rec.HostHash, tokenHashes: make([][]byte, len(rec.Seats)), setup: rec.Setup, creatorAccount: rec.Account,
		rec: rec, opts: opts, set: set, seq: uint64(len(log)),
		seats: make([]*seat, len(rec.Seats)), spectators: make(map[*bus.Subscription]bool),
		realTime: info.Timing == engine.RealTime,
	}
	for i, s := range rec.Seats {
		x.tokenHashes[i] = s.TokenHash
		// A seat its human left stays with its bot until they take it back.
		x.seats[i] = &seat{byBot: s.Kind == Human && s.Left, daysOff: set.DaysOff}
	}
	var each func(engine.State, *engine.Record)
	if set.Correspondence && rec.Status == store.Running {
		each = x.turnsOf()
	}
	state, lastAt, n, err := replayAll(g, rec.Setup, log, each)
	if err != nil {
		if n == 0 && state == nil {
			return nil, &unreplayable{err: err}
		}
		return nil, &unreplayable{record: n + 1, err: err}
	}
	x.state, x.lastAt = state, lastAt
	x.clockBase, x.clockWall = max(rec.Clock, lastAt), time.Now()
	// A real-time clock runs no further than it was saved until it is saved
	// ahead again (see clock.go).
	x.credit = rec.Clock
	x.idleSince, x.lastPlayer = x.clockWall, x.clockWall
	if rec.Status == store.Running && !rec.AbsentSince.IsZero() && rec.AbsentSince.Before(x.lastPlayer) {
		// Nobody has played since before this load: the time without
		// players counts from then, not from now.
		x.lastPlayer = rec.AbsentSince
	}
	x.absence.stored = rec.AbsentSince
	x.lease, x.leased = rec.Lease, x.clockWall
	x.over.Store(rec.Status.Over())
	x.running.Store(true) // nobody runs the match before run
	x.wake = time.AfterFunc(time.Hour, x.alarm)
	x.wake.Stop()
	for _, st := range x.seats {
		st.away = x.clockBase
	}
	x.rec.Records = len(log)
	x.noteHolders()
	switch {
	case rec.Status == store.Running && set.Correspondence:
		c := x.clock(x.clockWall)
		for _, st := range x.seats {
			if st.isActor {
				st.told = x.daysUsed(st, c) // (days off begun meanwhile: nobody is here to be told)
			}
		}
		x.replayed()
	case rec.Status == store.Running:
		// A live table's move limits start again: its clock paused.
		x.trackActors(engine.Spectator)
		for _, st := range x.seats {
			st.turnStart = x.clockBase
		}
	}
	return x, nil
}

// sweepLogs lets the log cache's idle entries go, every while until the
// manager shuts down.
func (m *Manager) sweepLogs() {
	m.logs.sweep(time.Now())
	select {
	case <-m.done:
	default:
		m.sweeper.Reset(logCacheIdle / 4)
	}
}

// logRecords returns the first n records of match id's stored log: from the
// log cache, or else read from the store (and kept).
func (m *Manager) logRecords(ctx context.Context, id string, n int) ([][]byte, error) {
	if n == 0 {
		return nil, nil
	}
	if recs, ok := m.logs.records(id, n); ok {
		return recs, nil
	}
	log, err := m.store.Log(ctx, id)
	if err != nil {
		return nil, err
	}
	if len(log) < n {
		return nil, fmt.Errorf("the log holds %d records, not %d", len(log), n)
	}
	m.logs.putLog(id, log)
	return log[:n:n], nil
}

// chatLines returns the first n lines of match id's talk, as logRecords does
// its records.
func (m *Manager) chatLines(ctx context.Context, id string, n int) ([][]byte, error) {
	if n == 0 {
		return nil, nil
	}
	if lines, ok := m.logs.lines(id, n); ok {
		return lines, nil
	}
	all, err := m.store.Chat(ctx, id)
	if err != nil {
		return nil, err
	}
	m.logs.putChat(id, all)
	return all[:min(n, len(all)):min(n, len(all))], nil
}

// pastRetention reports whether a match over since finished is past the
// retention at now: it is deleted, or about to be, and is shown to nobody.
func (m *Manager) pastRetention(finished, now time.Time) bool {
	return m.retain > 0 && !finished.IsZero() && now.Sub(finished) > m.retain
}

// held is how many places of max the matches hold: those in memory but
// those leaving it, and the creations under way. The caller holds mu.
func (m *Manager) held() int { return len(m.live) - m.leaving + m.creating }

// mayEnd queues x, just in memory, among the matches that may be ended to
// make room if it is open. The caller holds mu.
func (m *Manager) mayEnd(x *Match) {
	if x.rec.Status == store.Open { // (nobody runs x yet: its record is readable)
		x.noteLonely()
		x.lonelyAt = m.lonely.PushBack(x)
	}
}

// makeRoom ends the oldest open match that nobody but its creator joined
// when the matches in memory hold nine tenths of max or more, so that a
// crowd creating matches nobody joins cannot keep new players out: their
// tables go first, and the server stays below its cap. It tries a few of
// the queue, and ends one at most.
func (m *Manager) makeRoom(ctx context.Context) {
	for range 16 {
		m.mu.Lock()
		el := m.lonely.Front()
		for el != nil && el.Value.(*Match).making.Load() {
			el = el.Next() // its creation is under way
		}
		if m.held() < m.max-m.max/10 || el == nil {
			m.mu.Unlock()
			return
		}
		x := el.Value.(*Match)
		m.lonely.Remove(el)
		x.lonelyAt = nil
		m.mu.Unlock()
		if !x.lonely.Load() {
			continue // it found company, or started: it may not be ended
		}
		var ended bool
		if err := x.do(ctx, func() error { ended = x.evict(); return nil }); err == nil && ended {
			x.log.Info("match ended to make room", "reason", ReasonNoRoom)
			return
		}
	}
}

// forget removes a match that is leaving memory.
func (m *Manager) forget(x *Match) {
	m.mu.Lock()
	if m.live[x.id] == x {
		delete(m.live, x.id)
	}
	if x.lonelyAt != nil {
		m.lonely.Remove(x.lonelyAt)
		x.lonelyAt = nil
	}
	if x.evicted {
		m.leaving--
		x.evicted = false // (counted once)
	}
	n := len(m.live)
	m.mu.Unlock()
	m.liveChanged(n)
	m.ended(x)
	if m.node != nil && !x.fenced {
		go m.node.release(x.lease)
	}
}

// ended tells Hooks.Ended, once, that x no longer counts for its owner. It
// runs within x's run.
func (m *Manager) ended(x *Match) {
	if x.owner == "" {
		return
	}
	owner := x.owner
	x.owner = ""
	if h := m.hooks.Ended; h != nil {
		h(x.id, owner)
	}
}

// Resume loads every open and running match of the store, so that their
// clocks and bots go on. It returns how many came back; matches that cannot
// be rebuilt are logged and left in the store.
//
// On several nodes it brings back the matches whose lease this node holds
// (it restarted), takes those nobody runs, and starts keeping the leases.
func (m *Manager) Resume(ctx context.Context) (int, error) {
	m.mu.Lock()
	if m.retain > 0 && !m.pruning && !m.closing {
		m.pruning = true
		go m.prune(m.retain)
	}
	m.mu.Unlock()
	if m.reviews {
		m.startReviews()
	}
	if m.node != nil {
		return m.node.start(ctx)
	}
	ids, err := m.store.Unfinished(ctx)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, id := range ids {
		if _, err := m.Get(ctx, id); err != nil {
			if c := AsError(err).Code; c != CodeMatchFailed && c != CodeMatchClosed { // (logged once as it failed)
				m.log.Error("cannot resume a match", "match", id, "err", err)
			}
			continue
		}
		n++
	}
	return n, nil
}

// List returns the stored matches the filter keeps, marking those in memory.
func (m *Manager) List(ctx context.Context, f store.Filter) ([]Summary, error) {
	recs, err := m.store.List(ctx, f)
	if err != nil {
		return nil, refuse(CodeUnavailable, "The server could not read the matches; try again.")
	}
	now := time.Now()
	recs = slices.DeleteFunc(recs, func(r *store.Match) bool { return r.Status.Over() && m.pastRetention(r.Finished, now) })
	for _, r := range recs {
		m.failDamaged(ctx, r)
	}
	out := make([]Summary, len(recs))
	m.mu.Lock()
	for i, r := range recs {
		out[i] = summarize(r, nil)
		// On several nodes: run by a node that is alive.
		out[i].Live = m.live[r.ID] != nil || m.node != nil && r.Lease.Node != "" && r.Lease.Expires.After(now)
	}
	m.mu.Unlock()
	return out, nil
}

// Replay is a finished match in full: its setup with the seed, its log, its
// outcome and every seat's final view.
type Replay struct {
	Match   Summary           `json:"match"`
	Setup   engine.Setup      `json:"setup"`
	Log     []json.RawMessage `json:"log"`
	Outcome *engine.Outcome   `json:"outcome"`
	Reveal  Reveal            `json:"reveal"`
}

// Reveal holds the views at the end of a match.
type Reveal struct {
	Spectator json.RawMessage   `json:"spectator"`
	Seats     []json.RawMessage `json:"seats"`
}

// stored reads match id from the store (not its log), with the refusals a
// client understands.
func (m *Manager) stored(ctx context.Context, id string) (*store.Match, error) {
	if !validID(id) {
		return nil, refuse(CodeUnknownMatch, "There is no match %q.", id)
	}
	rec, err := m.store.Get(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		return nil, refuse(CodeUnknownMatch, "There is no match %q.", id)
	}
	if err != nil {
		return nil, refuse(CodeUnavailable, "The server could not read the match; try again.")
	}
	if rec.Status.Over() && m.pastRetention(rec.Finished, time.Now()) {
		return nil, refuse(CodeUnknownMatch, "There is no match %q.", id) // pruned, or about to be
	}
	m.failDamaged(ctx, rec)
	return rec, nil
}

// Replay returns a finished match's log and final views.
func (m *Manager) Replay(ctx context.Context, id string) (*Replay, error) {
	rec, err := m.stored(ctx, id)
	if err != nil {
		return nil, err
	}
	switch {
	case rec.Status == store.Failed:
		return nil, overRefusal(rec)
	case !rec.Status.Over():
		return nil, refuse(CodeNotFinished, "The log and the full reveal are given once the match is over.")
	}
	g, err := m.Game(rec.Game)
	if err != nil {
		return nil, refuse(CodeUnavailable, "The game of this match (%s) is not on this server.", rec.Game)
	}
	if err := m.rebuilding(ctx); err != nil {
		return nil, err
	}
	defer m.rebuilt()
	log, err := m.logRecords(ctx, id, rec.Records)
	if err != nil {
		m.readError("cannot read a match's log", id, err)
		return nil, refuse(CodeUnavailable, "The server could not read the match; try again.")
	}
	state, _, err := replay(g, rec.Setup, log)
	if err != nil {
		return nil, refuse(CodeMatchFailed, "Match %s cannot be rebuilt from its log.", id)
	}
	r := &Replay{Match: summarize(rec, nil), Setup: rec.Setup, Outcome: rec.Outcome, Log: make([]json.RawMessage, len(log))}
	for i, b := range log {
		r.Log[i] = b
	}
	r.Reveal.Spectator, _ = json.Marshal(state.View(engine.Spectator))
	for s := range rec.Setup.Players {
		v, _ := json.Marshal(state.View(engine.Seat(s)))
		r.Reveal.Seats = append(r.Reveal.Seats, v)
	}
	return r, nil
}

// Shutdown stops every match after the request it is handling: what was
// acknowledged is stored, running clocks are saved, connections are told the
// server is going away. It waits for the matches until ctx ends.
func (m *Manager) Shutdown(ctx context.Context) error {
	m.mu.Lock()
	if m.closing {
		m.mu.Unlock()
		return nil
	}
	m.closing = true
	close(m.done)
	if m.sweeper != nil {
		m.sweeper.Stop()
	}
	if m.node != nil {
		m.mu.Unlock()
		m.node.stop()
		m.mu.Lock()
	}
	xs := make([]*Match, 0, len(m.live))
	for _, x := range m.live {
		xs = append(xs, x)
	}
	m.mu.Unlock()
	// Each match stops on a goroutine of its own: a match that stops saves
	// its clock, and those saves share commits only if they wait together.
	for _, x := range xs {
		go x.stop()
	}
	for _, x := range xs {
		select {
		case <-x.quit:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	m.mu.Lock()
	clear(m.live)
	m.mu.Unlock()
	m.liveChanged(0)
	if m.node != nil {
		m.node.w.closeHeld()
	}
	return nil
}

// readError logs a failed read of match id: an error of the store, or only
// the end of the request that asked (its client left, its time ran out),
// which is no fault of the server's.
func (m *Manager) readError(msg, id string, err error) {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		m.log.Info(msg+": the request ended first", "match", id, "err", err)
		return
	}
	m.log.Error(msg, "match", id, "err", err)
}
