// Package server is Sortie's HTTP face: the JSON lobby API under /api/, one
// WebSocket per seat (or spectator) per match, seat tokens, limits on what
// clients may send, /metrics, /healthz, and the web client's static files.
//
// It works for every game it is given without knowing any: it passes actions
// to the match package as JSON and sends back only what a match encoded from
// the views of its game. It must never import a concrete game, never send a
// state, and never log or keep a token in clear.
package server

import (
	"context"
	"crypto/subtle"
	"crypto/tls"
	"encoding/json"
	"errors"
	"io/fs"
	"log/slog"
	"math"
	"net"
	"net/http"
	"net/http/pprof"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"

	"sortie/engine"
	"sortie/internal/account"
	"sortie/internal/bus"
	"sortie/internal/match"
	"sortie/internal/notify"
	"sortie/internal/store"
)

// Config sets up a [Server]. Zero values take the documented defaults.
type Config struct {
	// Games are the games served (the command passes games/all).
	Games []engine.Game
	// DataPath is the SQLite file the server opens when Store and StoreURL
	// are not set.
	DataPath string
	// StoreURL is the PostgreSQL database (postgres://...) the server opens
	// when Store is nil.
	StoreURL string
	// Sync is the SQLite synchronous mode: "full" (default) or "normal".
	Sync string
	// Store, if set, is used instead of opening DataPath (and is not closed
	// by the server).
	Store store.Store
	// BusURL is the NATS server (nats://host:4222, or several separated by
	// commas) that the nodes sharing a PostgreSQL store talk through.
	BusURL string
	// Node names this node among those sharing a PostgreSQL store: the
	// same across restarts, different for each node (letters, digits, '-'
	// and '_'); the host's name by default.
	Node string
	// Lease is how long a node's hold on its matches lasts after its last
	// renewal, on a PostgreSQL store: 6 s by default. A node that dies has
	// its matches taken over within about a lease and a second.
	Lease time.Duration
	// Static serves the web client at /; nil serves a small placeholder.
	Static fs.FS
	// Logger receives the logs; nil means slog.Default().
	Logger *slog.Logger
	// ClockSpeed runs match time faster than the wall clock (tests); 1 by
	// default.
	ClockSpeed float64
	// MaxBody bounds a request body: 64 KiB by default.
	MaxBody int64
	// MaxMessage bounds a socket message: 16 KiB by default. A larger one
	// is answered with an error and the socket closed (1009), its frame's
	// header read and nothing more.
	MaxMessage int64
	// MessageRate and MessageBurst limit each socket's messages: 20 a second
	// with bursts of 40 by default.
	MessageRate float64
	// MessageBurst is the burst of MessageRate.
	MessageBurst int
	// PingEvery is the keep-alive period of sockets: 30 s by default.
	PingEvery time.Duration
	// WriteTimeout bounds a write to a socket: 10 s by default.
	WriteTimeout time.Duration
	// MaxLive bounds the matches in memory (match.Config.MaxLive).
	MaxLive int
	// Linger keeps finished matches in memory (match.Config.Linger).
	Linger time.Duration
	// SocketBuffer is how many messages a socket may fall behind before it
	// is dropped: match.DefaultBuffer by default. A socket waiting to
	// follow its match again holds as many answers to its client.
	SocketBuffer int
	// Pprof serves Go's profiles under /debug/pprof/ (for measuring): on
	// [Server.AdminHandler], and on the public handler too unless the
	// command serves an admin address.
	Pprof bool
	// PprofAdminOnly keeps Go's profiles off the public handler (the
	// command sets it when it serves an admin address).
	PprofAdminOnly bool
	// PublicURL is where players reach the server (https://sortie.example):
	// sign-in links lead there and passkeys belong to its host. Empty: the
	// server keeps no accounts (everyone plays as a guest).
	PublicURL string
	// SMTP is the mail server sign-in links go through
	// (smtp://user:pass@host:port, STARTTLS when offered; smtps:// for TLS
	// from the start); empty: no sign-in by e-mail. MailFrom is the
	// sender's address ("Sortie <sortie@example.org>").
	SMTP     string
	MailFrom string
	// MailTLS, if set, is the TLS configuration of the mail server's
	// connections (tests trust their own certificate with it).
	MailTLS *tls.Config
	// SignInRate is how many requests to sign in (links asked for, passkey
	// ceremonies) a client may make a minute: 10 by default, in bursts of
	// 10.
	SignInRate float64
	// MetricsToken, if set, lets a request bearing it ("Authorization:
	// Bearer <token>") read /metrics from any address. Without it, the
	// public handler shows /metrics only to loopback peers that are not
	// trusted proxies; [Server.AdminHandler] shows it to anyone who
	// reaches it.
	MetricsToken string
	// OriginPatterns lists the other origins (host patterns) whose pages may
	// open sockets; the server's own origin always may.
	OriginPatterns []string

	// Limits on what one client may hold (a client is an address, or an
	// IPv6 /64, whose /48 may hold four times as much in all; see
	// clientOf), and on everyone. For the counts below, zero takes the
	// default and a negative value turns the limit off.

	// TrustedProxies are reverse proxies whose forwarded header names the
	// client; the limits then count for the address it names. Nil trusts
	// none: the header is ignored.
	TrustedProxies []netip.Prefix
	// ClientIPHeader is the header the trusted proxies set:
	// "X-Forwarded-For" (default) or "Forwarded" (RFC 7239).
	ClientIPHeader string
	// CreateRate is how many matches a client may create a minute: 10 by
	// default, in bursts of CreateBurst (20 by default).
	CreateRate float64
	// CreateBurst is how many matches a client may create at once.
	CreateBurst int
	// OpenPerClient bounds the matches a client created that are not
	// finished (all-bot ones included): 50 by default.
	OpenPerClient int
	// SocketsPerClient bounds a client's open match sockets: 64 by default.
	SocketsPerClient int
	// SpectatorsPerClient bounds a client's open spectator sockets, which
	// count among its sockets too: 32 by default.
	SpectatorsPerClient int
	// SpectatorsPerMatch bounds the spectator sockets of one match on this
	// node: 200 by default.
	SpectatorsPerMatch int
	// MaxSpectators bounds the spectator sockets in all: three quarters of
	// MaxConns by default (the rest is kept for players and requests).
	// When the connections run short, the spectators of the client that
	// watches the most go first (1013, "try again later").
	MaxSpectators int
	// SocketRate is how many match sockets a client may open a minute: 60
	// by default, in bursts of SocketBurst (30 by default). Every socket
	// asked for counts, refused or not.
	SocketRate float64
	// SocketBurst is the burst of SocketRate.
	SocketBurst int
	// ReadRate is how many reads of matches (lists, summaries, states,
	// replays, views of a step) a client may ask for a second: 20 by
	// default, in bursts of ReadBurst (60 by default).
	ReadRate float64
	// ReadBurst is the burst of ReadRate.
	ReadBurst int
	// ConnsPerClient bounds the connections open from one address (trusted
	// proxies excepted): 256 by default.
	ConnsPerClient int
	// MaxConns bounds the connections open in all: 10,000 by default, and
	// never more than 90% of the files the process may open (the rest are
	// the store's and the logs'), which is the only bound when negative.
	// A connection over a cap (this one, or ConnsPerClient) is still let
	// in, among a few dozen, for /healthz and /metrics alone: a load
	// balancer's checks are answered whatever the crowd.
	MaxConns int
	// ReadHeaderTimeout (10 s), ReadTimeout (30 s: the whole request, its
	// body included), WriteTimeout (60 s) and IdleTimeout (60 s: a
	// keep-alive connection between requests) are the HTTP server's
	// (see [Server.HTTPServer]); match sockets are not bound by them, but
	// for ReadTimeout: a socket message, once begun, must come whole within
	// it (else 1008).
	ReadHeaderTimeout time.Duration
	// ReadTimeout bounds reading a whole request.
	ReadTimeout time.Duration
	// HTTPWriteTimeout bounds writing an answer (WriteTimeout is the
	// sockets').
	HTTPWriteTimeout time.Duration
	// IdleTimeout closes an idle keep-alive connection.
	IdleTimeout time.Duration

	// Ends and retention (match.Config): an open match expires ExpireOpen
	// after its creation (a day), a running one with no player connected
	// for AbandonAfter is abandoned (three days); negative: never. Matches
	// over for longer than Retain are deleted (zero keeps them).
	ExpireOpen time.Duration
	// AbandonAfter: see ExpireOpen.
	AbandonAfter time.Duration
	// Retain: see ExpireOpen.
	Retain time.Duration
	// ClockSave is how often real-time matches save their clock ahead (a
	// second).
	ClockSave time.Duration
	// BotSearches is how many bot decisions are searched at once (one fewer
	// than the cores, at least one); a hard bot of a busy node decides
	// without searching.
	BotSearches int
	// RateEvery is how often each node looks for finished matches to rate
	// (it also looks as soon as a match of its own ends): 2 s by default.
	RateEvery time.Duration
	// PlayWave is how often Play now's matchmaker pairs the players who
	// wait (it also pairs as soon as one asks): a second by default.
	PlayWave time.Duration
	// Reviews has this node review finished matches in the background
	// (see match.Config.Reviews).
	Reviews bool
	// DrainWait is how long a node told to stop ([Server.Run]) goes on as
	// it was while /healthz answers 503, before it hands its matches over
	// and closes its port, so that a load balancer sees it: 5 s on several
	// nodes and none on one if zero (negative: none), a third of the grace
	// at most.
	DrainWait time.Duration
	// NotifyDelay is how long after an event (a player's turn come while
	// they are away, an invitation, an end) its notification waits, to be
	// sent only if it still holds: a minute by default.
	NotifyDelay time.Duration
	// PushServices is the allow-list of the push services the server posts
	// to (hosts, "*.domain" for any host under it; comma-separated):
	// notify.DefaultPushServices, the major browsers', by default.
	PushServices string
	// NotifyClaim is how long a node holds a notification it sends before
	// another may send it: 30 s by default (tests shorten it).
	NotifyClaim time.Duration
	// notifyTune, if set, adjusts the notifier's configuration (tests).
	notifyTune func(*notify.Config)

	// ExpireLonely: an open match that nobody but its creator joined
	// expires this long after its creation (an hour by default; negative:
	// only at ExpireOpen). Such matches are also the first to end, oldest
	// first, when the matches in memory near MaxLive.
	ExpireLonely time.Duration
	// ExpireCorrespondence: an open correspondence table nobody started
	// expires this long after its creation (a week by default; negative:
	// never); those nobody but their creator joined are ended first near
	// MaxLive all the same.
	ExpireCorrespondence time.Duration

	// overflowConns is how many connections over a cap are let in for
	// /healthz and /metrics alone (set by withDefaults).
	overflowConns int
	// flaws are security flaws planted by the tests that show the checks
	// catch them (export_test.go); always zero outside those tests.
	flaws flaws
}

// flaws are the server's plantable flaws (see Config.flaws).
type flaws struct {
	account       account.Flaws
	noOriginCheck bool // writes from other sites' pages are taken
	noSignInRate  bool // no allowance of requests to sign in
}

// Server serves the API. Make it with [New], serve [Server.Handler], and stop
// it with [Server.Shutdown].
type Server struct {
	cfg      Config
	log      *slog.Logger
	store    store.Store
	ownStore bool
	bus      *bus.NATS // nil on a single node
	node     string    // this node's name on a shared store, else ""
	draining atomic.Bool
	mgr      *match.Manager
	metrics  *metrics
	acc      *account.Service                // nil: no accounts
	accounts store.Accounts                  // the store's accounts, when acc is set
	smtp     *account.SMTP                   // nil: no e-mail
	notifier atomic.Pointer[notify.Notifier] // nil: no notifications (no accounts)
	rater    *rater                          // nil: no ratings (no accounts)
	play     *playNode                       // nil: no Play now (no accounts)
	handler  http.Handler
	admin    http.Handler
	clients  *clients
	refusing atomic.Int32 // refused connections being answered

	sockets   sync.WaitGroup
	pollOnce  sync.Once
	poll      *poller    // nil where sockets cannot wait for readiness
	work      *workers   // run the sockets' reads and writes
	closeMu   sync.Mutex // guards stopping against sockets.Add
	stopping  bool
	closeOnce sync.Once
}

// New opens the store (unless one is given) and prepares the server. Call
// [Server.Resume] to bring back the matches under way.
func New(cfg Config) (*Server, error) {
	cfg = withDefaults(cfg)
	s := &Server{cfg: cfg, log: cfg.Logger, metrics: newMetrics(), clients: newClients(cfg), work: newWorkers(2 * time.Second)}
	s.store = cfg.Store
	if s.store == nil && cfg.StoreURL != "" {
		st, err := store.OpenPostgres(context.Background(), cfg.StoreURL, store.PostgresOptions{OnCommit: s.metrics.onCommit})
		if err != nil {
			return nil, err
		}
		s.store, s.ownStore = st, true
	}
	if s.store == nil {
		if cfg.DataPath == "" {
			return nil, errors.New("server: no store and no data path")
		}
		st, err := store.OpenSQLite(cfg.DataPath, store.SQLiteOptions{Sync: cfg.Sync, OnCommit: s.metrics.onCommit})
		if err != nil {
			return nil, err
		}
		s.store, s.ownStore = st, true
	}
	mc := match.Config{
		Store: s.store, Bus: bus.NewLocal(), Games: cfg.Games, Logger: cfg.Logger, ClockSpeed: cfg.ClockSpeed,
		MaxLive: cfg.MaxLive, Linger: cfg.Linger, Buffer: cfg.SocketBuffer, Hooks: s.metrics.hooks(s.ended, s.matchLoaded),
		ExpireOpen: cfg.ExpireOpen, ExpireLonely: cfg.ExpireLonely, ExpireCorrespondence: cfg.ExpireCorrespondence, AbandonAfter: cfg.AbandonAfter, Retain: cfg.Retain, ClockSave: cfg.ClockSave,
		BotSearches: cfg.BotSearches, Reviews: cfg.Reviews, Notice: s.notice,
	}
	if err := s.joinCluster(&mc); err != nil {
		if s.ownStore {
			s.store.Close()
		}
		return nil, err
	}
	s.mgr = match.NewManager(mc)
	s.metrics.watch(s.mgr)
	if err := s.openAccounts(); err != nil {
		if s.ownStore {
			s.store.Close()
		}
		return nil, err
	}
	if err := s.openNotify(); err != nil {
		if s.ownStore {
			s.store.Close()
		}
		return nil, err
	}
	s.openRatings()
	s.openPlay()
	s.routes()
	return s, nil
}

// openAccounts sets accounts up when the server has a public URL.
func (s *Server) openAccounts() error {
	if s.cfg.PublicURL == "" {
		return nil
	}
	u, err := publicURL(s.cfg.PublicURL)
	if err != nil {
		return err
	}
	st, ok := s.store.(store.Accounts)
	if !ok {
		return errors.New("server: this store keeps no accounts")
	}
	var mailer account.Mailer
	if s.cfg.SMTP != "" {
		from := s.cfg.MailFrom
		if from == "" {
			from = "Sortie <sortie@" + u.Hostname() + ">"
		}
		if s.smtp, err = account.NewSMTP(s.cfg.SMTP, from, s.cfg.MailTLS); err != nil {
			return err
		}
		mailer = s.smtp
	}
	s.acc, err = account.New(account.Config{Store: st, PublicURL: u, Mailer: mailer, Logger: s.log, Flaws: s.cfg.flaws.account})
	s.accounts = st
	return err
}

// withDefaults fills in what cfg leaves to the defaults (see Config).
func withDefaults(cfg Config) Config {
	if cfg.MaxBody <= 0 {
		cfg.MaxBody = 64 << 10
	}
	if cfg.MaxMessage <= 0 {
		cfg.MaxMessage = 16 << 10
	}
	if cfg.MessageRate <= 0 {
		cfg.MessageRate = 20
	}
	if cfg.MessageBurst <= 0 {
		cfg.MessageBurst = 40
	}
	if cfg.PingEvery <= 0 {
		cfg.PingEvery = 30 * time.Second
	}
	if cfg.WriteTimeout <= 0 {
		cfg.WriteTimeout = 10 * time.Second
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.ClientIPHeader == "" {
		cfg.ClientIPHeader = "X-Forwarded-For"
	}
	defaults := []struct {
		v   *int
		def int
	}{
		{&cfg.CreateBurst, 20}, {&cfg.OpenPerClient, 50}, {&cfg.SocketsPerClient, 64},
		{&cfg.ConnsPerClient, 256}, {&cfg.SocketBuffer, match.DefaultBuffer},
		{&cfg.SpectatorsPerClient, 32}, {&cfg.SpectatorsPerMatch, 200}, {&cfg.SocketBurst, 30}, {&cfg.ReadBurst, 60},
	}
	for _, d := range defaults {
		if *d.v == 0 {
			*d.v = d.def
		}
	}
	for _, r := range []struct {
		v   *float64
		def float64
	}{{&cfg.CreateRate, 10}, {&cfg.SocketRate, 60}, {&cfg.ReadRate, 20}, {&cfg.SignInRate, 10}} {
		if *r.v == 0 {
			*r.v = r.def
		}
	}
	switch asked := cfg.MaxConns; {
	case asked < 0:
		cfg.MaxConns = math.MaxInt
	case asked == 0:
		cfg.MaxConns = 10_000
	}
	// The files the process may open beyond these are the store's and the
	// logs'.
	if fds := fdLimit(); fds > 0 && cfg.MaxConns > fds*9/10 {
		if cfg.MaxConns != 10_000 && cfg.MaxConns != math.MaxInt {
			cfg.Logger.Warn("fewer connections than asked: the process may open few files",
				"max_conns", fds*9/10, "asked", cfg.MaxConns, "open_files", fds)
		}
		cfg.MaxConns = fds * 9 / 10
	}
	// The connections let in over a cap come from the files kept for the
	// store and the logs: a few dozen at most.
	cfg.overflowConns = 64
	if fds := fdLimit(); fds > 0 {
		cfg.overflowConns = min(64, max(4, fds/20))
	}
	switch {
	case cfg.MaxSpectators == 0:
		cfg.MaxSpectators = cfg.MaxConns / 4 * 3
	case cfg.MaxSpectators < 0 || cfg.MaxSpectators > cfg.MaxConns:
		cfg.MaxSpectators = cfg.MaxConns
	}
	for _, d := range []struct {
		v   *time.Duration
		def time.Duration
	}{
		{&cfg.ReadHeaderTimeout, 10 * time.Second}, {&cfg.ReadTimeout, 30 * time.Second},
		{&cfg.HTTPWriteTimeout, time.Minute}, {&cfg.IdleTimeout, time.Minute},
	} {
		if *d.v <= 0 {
			*d.v = d.def
		}
	}
	return cfg
}

// Manager returns the server's match manager.
func (s *Server) Manager() *match.Manager { return s.mgr }

// Resume brings back every match that was open or running when the server
// last stopped, and returns how many. What each client holds and has
// created lately counts again as before: a restart hands out no fresh
// allowance.
func (s *Server) Resume(ctx context.Context) (int, error) {
	n, err := s.mgr.Resume(ctx)
	if err != nil {
		return n, err
	}
	s.startRating()
	s.startPlay()
	if n := s.notifier.Load(); n != nil {
		n.Start()
	}
	if w := s.clients.creationWindow(); w > 0 {
		list, err := s.store.Creations(ctx, time.Now().Add(-w))
		if err != nil {
			s.log.Warn("the creations of the last minutes cannot be read: each client's allowance starts full", "err", err)
		} else {
			s.rebuildCreations(list)
		}
	}
	return n, nil
}

// Handler returns the server's HTTP handler. Serve it with
// [Server.HTTPServer] on [Server.Guard] of a listener, as [Server.Run] does,
// for the timeouts and the caps on connections.
func (s *Server) Handler() http.Handler { return s.handler }

func (s *Server) routes() {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /healthz", s.healthz)
	mux.Handle("GET /metrics", s.metricsGate(s.metrics.handler()))
	mux.HandleFunc("GET /api/games", s.listGames)
	mux.HandleFunc("GET /api/games/{game}", s.getGame)
	mux.HandleFunc("GET /api/matches", s.reads(s.listMatches))
	mux.HandleFunc("POST /api/matches", s.createMatch)
	mux.HandleFunc("GET /api/matches/{id}", s.reads(s.getMatch))
	mux.HandleFunc("POST /api/matches/{id}/join", s.joinMatch)
	mux.HandleFunc("POST /api/matches/{id}/start", s.startMatch)
	mux.HandleFunc("POST /api/matches/{id}/close", s.closeMatch)
	mux.HandleFunc("GET /api/matches/{id}/state", s.reads(s.matchState))
	mux.HandleFunc("GET /api/matches/{id}/replay", s.reads(s.matchReplay))
	mux.HandleFunc("GET /api/matches/{id}/view", s.reads(s.matchView))
	mux.HandleFunc("GET /api/matches/{id}/hint", s.reads(s.matchHint))
	mux.HandleFunc("GET /api/matches/{id}/hints", s.reads(s.matchHints))
	mux.HandleFunc("GET /api/matches/{id}/review", s.reads(s.matchReview))
	mux.HandleFunc("GET /api/matches/{id}/ws", s.socket)
	mux.HandleFunc("GET /api/leaderboard/{game}", s.reads(s.getLeaderboard))
	mux.HandleFunc("POST /api/play", s.needPlay(s.postPlay))
	mux.HandleFunc("GET /api/play/pools", s.needPlay(s.getPools))
	mux.HandleFunc("GET /api/play/{ticket}", s.needPlay(s.getTicket))
	mux.HandleFunc("DELETE /api/play/{ticket}", s.needPlay(s.deleteTicket))
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, &match.Error{Code: CodeNotFound, Message: "There is no such API endpoint (see docs/api.md)."})
	})
	if s.cfg.Pprof && !s.cfg.PprofAdminOnly {
		servePprof(mux)
	}
	s.accountRoutes(mux)
	s.learnRoutes(mux)
	if s.cfg.Static != nil {
		mux.Handle("/", http.FileServerFS(s.cfg.Static))
	} else {
		mux.HandleFunc("GET /{$}", placeholder)
	}
	// Writes are refused from other sites' pages (cookies make them the
	// player's); the API's and the sign-in's requests carry their session.
	var h http.Handler = http.NewCrossOriginProtection().Handler(mux)
	if s.cfg.flaws.noOriginCheck {
		h = mux
	}
	if s.acc != nil {
		h = s.withSessions(h)
	}
	s.handler = secureHeaders(s.overCapGate(h))

	admin := http.NewServeMux()
	admin.HandleFunc("GET /healthz", s.healthz)
	admin.Handle("GET /metrics", s.metrics.handler())
	if s.cfg.Pprof {
		servePprof(admin)
	}
	s.admin = admin
}

func servePprof(mux *http.ServeMux) {
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
}

// AdminHandler serves what an operator reads: /healthz, /metrics and, with
// Pprof, Go's profiles. It has none of the public handler's limits or caps:
// serve it on an address only operators reach (serve --admin-addr).
func (s *Server) AdminHandler() http.Handler { return s.admin }

// metricsGate lets through requests for the metrics that bear the metrics
// token, or that come straight from this machine's loopback (not through a
// trusted proxy, whose requests come from anywhere); others are refused,
// as the metrics tell a stranger much about the server.
func (s *Server) metricsGate(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if tok := s.cfg.MetricsToken; tok != "" {
			if t := tokenOf(r); t != "" && subtle.ConstantTimeCompare([]byte(t), []byte(tok)) == 1 {
				h.ServeHTTP(w, r)
				return
			}
		} else if peer, ok := addrOf(r.RemoteAddr); ok && peer.IsLoopback() && !s.trusted(peer) {
			h.ServeHTTP(w, r)
			return
		}
		writeError(w, &match.Error{Code: CodeForbidden,
			Message: "The metrics are served on the admin address, to this machine, or with the metrics token (docs/api.md, \"Metrics\")."})
	})
}

// contentPolicy lets pages run only the server's own scripts and styles (the
// client has no inline script), talk only to the server (its API and
// sockets), and never be framed by another site.
const contentPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; " +
	"img-src 'self' data: blob:; media-src 'self' data: blob:; connect-src 'self'; " +
	"object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

// secureHeaders adds the headers a public site's answers carry: the content
// policy, no guessing of content types, no framing, no referrer (the page's
// address names its match).
func secureHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		hd.Set("Content-Security-Policy", contentPolicy)
		hd.Set("X-Content-Type-Options", "nosniff")
		hd.Set("X-Frame-Options", "DENY")
		hd.Set("Referrer-Policy", "no-referrer")
		h.ServeHTTP(w, r)
	})
}

// Run serves on ln until ctx ends, then shuts down gracefully within grace.
func (s *Server) Run(ctx context.Context, ln net.Listener, grace time.Duration) error {
	hs := s.HTTPServer()
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(s.Guard(ln)) }()
	select {
	case err := <-errc:
		s.Shutdown(context.Background())
		return err
	case <-ctx.Done():
	}
	s.log.Info("shutting down")
	sctx, cancel := context.WithTimeout(context.Background(), grace)
	defer cancel()
	// /healthz says 503 from now on; for DrainWait the node goes on as it
	// was, so that a load balancer checking it sees that and sends
	// nothing new here before anything moves.
	s.draining.Store(true)
	if w := s.drainWait(grace); w > 0 {
		s.log.Info("telling the load balancer: /healthz answers 503", "for", w)
		select {
		case <-time.After(w):
		case <-sctx.Done():
		}
	}
	// Stop taking requests and let the ones under way finish, then stop the
	// matches (each finishes the action it is storing) and their sockets.
	// On several nodes, the matches go to the others first, while this
	// one still answers (forwarding to where they now run).
	s.Drain(sctx)
	err := hs.Shutdown(sctx)
	if err2 := s.Shutdown(sctx); err == nil {
		err = err2
	}
	<-errc
	return err
}

// drainWait is how long a stopping node answers /healthz 503 before it
// does anything else: DrainWait, or 5 s on several nodes and none on one,
// and a third of the grace at most.
func (s *Server) drainWait(grace time.Duration) time.Duration {
	w := s.cfg.DrainWait
	if w == 0 && s.bus != nil {
		w = 5 * time.Second
	}
	return max(0, min(w, grace/3))
}

// Shutdown stops every match after the write it is doing, closes every socket
// (telling clients the server is going away), and closes the store it opened.
func (s *Server) Shutdown(ctx context.Context) error {
	var err error
	s.closeOnce.Do(func() {
		s.closeMu.Lock()
		s.stopping = true
		s.closeMu.Unlock()
		s.stopPlay()
		s.stopRating()
		if n := s.notifier.Load(); n != nil {
			n.Stop()
		}
		err = s.mgr.Shutdown(ctx)
		done := make(chan struct{})
		go func() { s.sockets.Wait(); close(done) }()
		select {
		case <-done:
		case <-ctx.Done():
			err = errors.Join(err, ctx.Err())
		}
		s.pollOnce.Do(func() {}) // no poller may start after this
		if s.poll != nil {
			s.poll.close()
		}
		if s.bus != nil {
			s.bus.Close()
		}
		if s.ownStore {
			err = errors.Join(err, s.store.Close())
		}
	})
	return err
}

// readiness returns the poller idle sockets wait on, started by the first
// socket; nil where the system has none.
func (s *Server) readiness() *poller {
	s.pollOnce.Do(func() {
		p, err := newPoller(s.work.run)
		if err != nil {
			s.log.Info("sockets keep a reader goroutine each", "reason", err)
			return
		}
		s.poll = p
	})
	return s.poll
}

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if s.draining.Load() {
		writeError(w, &match.Error{Code: match.CodeUnavailable, Message: "This server is stopping (it hands its matches to the others first, if any)."})
		return
	}
	if err := s.store.Check(ctx); err != nil {
		writeError(w, &match.Error{Code: match.CodeUnavailable, Message: "The store cannot save anything now."})
		return
	}
	out := map[string]any{"status": "ok", "live_matches": s.mgr.Live()}
	if s.node != "" {
		out["node"] = s.node
	}
	if s.bus != nil {
		// A node cut off from NATS still runs its own matches: it stays in.
		out["bus"] = "connected"
		if s.bus.Check() != nil {
			out["bus"] = "unreachable"
		}
	}
	writeJSON(w, http.StatusOK, out)
}

func placeholder(w http.ResponseWriter, _ *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write([]byte(`<!doctype html><html lang="en"><meta charset="utf-8"><title>Sortie</title>
<h1>Sortie</h1><p>The Sortie server is running. The web client is not part of this build;
the API is at <a href="/api/games">/api/games</a> (see docs/api.md).</p></html>`))
}

// writeJSON answers with v as JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		status, b = http.StatusInternalServerError, []byte(`{"error":{"code":"unavailable","message":"The answer could not be encoded."}}`)
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(append(b, '\n'))
}
