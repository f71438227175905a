package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"sortie/games/all"
	"sortie/internal/notify"
	"sortie/internal/server"
	"sortie/web"
)

func init() {
	var (
		addr, data, sync, level string
		adminAddr, publicURL    string
		noAccounts              bool
		storeURL, busURL, node  string
		lease                   time.Duration
		speed                   float64
		rate                    float64
		profile                 bool
		grace                   time.Duration
		proxies                 []string
		lim                     server.Config
	)
	cmd := &cobra.Command{
		Use:   "serve",
		Short: "Serve matches online: the lobby API, match sockets and the web client",
		Long: `serve runs the match server. With no flags it listens on localhost:8080 and
keeps every match in one SQLite file, by default ` + defaultDataHelp + `.
On start it rebuilds every unfinished match from its log; on SIGINT or SIGTERM it
finishes the writes under way, saves the clocks of real-time matches and stops.

Several nodes (docs/scaling.md): --store postgres://user@host/db keeps the
matches in PostgreSQL instead (the server creates and migrates its tables), and
--bus nats://host:4222 names the NATS server the nodes talk through; run the
same command on each node behind a load balancer, each with its own --node
name (the host's name by default). Any node then answers every request and
accepts every socket; each match runs on one node at a time, which holds its
lease (--lease); a node that dies has its matches taken over by the others, and
on SIGTERM a node hands them over before it stops. SORTIE_STORE, SORTIE_BUS and
SORTIE_NODE may stand for --store, --bus and --node.

Limits for a server open to anyone (docs/api.md, "Limits"): each client (an
address, or an IPv6 /64; the /64s of one /48 together four times as much) may
create --create-rate matches a minute in bursts of --create-burst, hold
--matches-per-client unfinished matches (all-bot ones too), open
--socket-rate match sockets a minute, hold --sockets-per-client of them
(--spectators-per-client watching), --conns-per-client connections, and read
--read-rate matches a second; the server holds at most --max-matches matches,
--max-conns connections (--max-spectators of them spectators, and
--spectators-per-match for one match). A client over a limit gets 429 with
Retry-After; 0 turns a per-client limit off. What each client holds and has
created lately counts again after a restart. /healthz and /metrics are
answered whatever the caps; /metrics only to this machine, to
--metrics-token, or on --admin-addr. Behind a reverse proxy, name it with
--trusted-proxies so that each client counts for the address the proxy
forwards (--client-ip-header); without it the forwarded header is ignored and
the proxy counts as one client.

Matches that nobody plays end by themselves: an open match nobody but its
creator joined expires after --expire-lonely, and such matches are the first
to end (oldest first) when the server nears --max-matches; an open match
nobody started expires after --expire-open (an open correspondence table
after --expire-correspondence), a running match with no player connected for
--abandon-after is abandoned (its bots stop; a correspondence table waits at
least three move limits and its days off). Matches over (finished, expired,
abandoned, failed or closed) are kept, or deleted after --retain. Hard bots
search within a budget of --bot-searches decisions at once; when it is taken,
they play their cheaper level's move.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var lv slog.Level
			var err error
			if err = lv.UnmarshalText([]byte(level)); err != nil {
				return fmt.Errorf("--log-level: %v", err)
			}
			logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: lv}))
			slog.SetDefault(logger)
			// From the environment after parsing, not as the flags'
			// defaults: help would print a password.
			if storeURL == "" {
				storeURL = os.Getenv("SORTIE_STORE")
			}
			if busURL == "" {
				busURL = os.Getenv("SORTIE_BUS")
			}
			if node == "" {
				node = os.Getenv("SORTIE_NODE")
			}
			if lim.MetricsToken == "" {
				lim.MetricsToken = os.Getenv("SORTIE_METRICS_TOKEN")
			}
			if lim.SMTP == "" {
				lim.SMTP = os.Getenv("SORTIE_SMTP")
			}
			if !noAccounts {
				if lim.PublicURL, err = publicURLOf(publicURL, addr); err != nil {
					return err
				}
			}
			if err := checkEngines(cmd, storeURL, busURL); err != nil {
				return err
			}
			if lease < time.Second || lease > 10*time.Minute {
				return fmt.Errorf("--lease is between 1s and 10m, not %v: a node renews its leases three times a lease", lease)
			}
			if storeURL != "" {
				data = redactURL(storeURL)
			} else {
				if data == "" {
					data = defaultDataPath()
				}
				if data, err = dataFile(data); err != nil {
					return err
				}
			}
			cfg := lim
			cfg.Games, cfg.DataPath, cfg.StoreURL, cfg.Sync, cfg.Logger = all.Games(), data, storeURL, sync, logger
			cfg.BusURL, cfg.Node, cfg.Lease = busURL, node, lease
			cfg.ClockSpeed, cfg.MessageRate, cfg.Pprof, cfg.Static = speed, rate, profile, web.Files()
			cfg.PprofAdminOnly = adminAddr != ""
			if cfg.TrustedProxies, err = server.ParseTrustedProxies(proxies); err != nil {
				return fmt.Errorf("--trusted-proxies: %v", err)
			}
			if h := http.CanonicalHeaderKey(cfg.ClientIPHeader); h != "X-Forwarded-For" && h != "Forwarded" {
				return fmt.Errorf("--client-ip-header is X-Forwarded-For or Forwarded, not %q", cfg.ClientIPHeader)
			}
			// On the command line 0 turns a limit off; in server.Config it
			// takes the default.
			for _, v := range []*int{&cfg.OpenPerClient, &cfg.SocketsPerClient, &cfg.ConnsPerClient, &cfg.MaxConns,
				&cfg.SpectatorsPerClient, &cfg.SpectatorsPerMatch} {
				if *v == 0 {
					*v = -1
				}
			}
			for _, r := range []*float64{&cfg.CreateRate, &cfg.SocketRate, &cfg.ReadRate} {
				if *r == 0 {
					*r = -1
				}
			}
			for _, d := range []*time.Duration{&cfg.ExpireOpen, &cfg.ExpireLonely, &cfg.ExpireCorrespondence, &cfg.AbandonAfter} {
				if *d == 0 {
					*d = -1
				}
			}
			if cfg.Retain < 0 || cfg.BotSearches < 0 {
				return errors.New("--retain and --bot-searches take no negative value")
			}
			srv, err := server.New(cfg)
			if err != nil {
				return err
			}
			ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			n, err := srv.Resume(ctx)
			if err != nil {
				srv.Shutdown(context.Background())
				return fmt.Errorf("resuming matches: %v", err)
			}
			// TCP keep-alive finds clients that vanished without closing
			// their sockets (idle sockets wait in no read that could).
			lc := net.ListenConfig{KeepAliveConfig: net.KeepAliveConfig{
				Enable: true, Idle: 30 * time.Second, Interval: 10 * time.Second, Count: 3}}
			ln, err := lc.Listen(ctx, "tcp", addr)
			if err != nil {
				srv.Shutdown(context.Background())
				return err
			}
			if adminAddr != "" {
				aln, err := lc.Listen(ctx, "tcp", adminAddr)
				if err != nil {
					ln.Close()
					srv.Shutdown(context.Background())
					return fmt.Errorf("--admin-addr: %v", err)
				}
				admin := &http.Server{Handler: srv.AdminHandler(), ReadHeaderTimeout: 10 * time.Second,
					ErrorLog: slog.NewLogLogger(logger.Handler(), slog.LevelWarn)}
				go func() { _ = admin.Serve(aln) }()
				defer admin.Close()
				logger.Info("serving the admin pages", "addr", aln.Addr().String())
			}
			logger.Info("serving", "addr", ln.Addr().String(), "data", data, "node", srv.Node(), "resumed", n, "games", len(all.Games()))
			fmt.Fprintf(cmd.OutOrStdout(), "sortie: serving on http://%s (data: %s)\n", ln.Addr(), data)
			return srv.Run(ctx, ln, grace)
		},
	}
	f := cmd.Flags()
	f.StringVar(&addr, "addr", "localhost:8080", "address to listen on")
	f.StringVar(&publicURL, "public-url", "", "where players reach the server (https://sortie.example): sign-in links lead there and passkeys belong to its host (default http://localhost:<port> for a server on this machine, else http://<addr>)")
	f.BoolVar(&noAccounts, "no-accounts", false, "keep no accounts: everyone plays as a guest, nobody signs in")
	f.StringVar(&lim.SMTP, "smtp", "", "the mail server sign-in links go through: smtp://user:password@host:port (STARTTLS when the server offers it) or smtps://… (TLS from the start); env SORTIE_SMTP, which ps does not show; none: sign in with passkeys only")
	f.StringVar(&lim.MailFrom, "mail-from", "", "the sender of sign-in mails (default Sortie <sortie@host of --public-url>)")
	f.StringVar(&adminAddr, "admin-addr", "", "an address serving /healthz, /metrics (and with --pprof the profiles) to operators, without the public limits; keep it private")
	f.StringVar(&lim.MetricsToken, "metrics-token", "", "a token that lets a request bearing it read /metrics on the public address (env SORTIE_METRICS_TOKEN, which ps does not show); without it only this machine's loopback may")
	f.StringVar(&data, "data", "", "the SQLite file holding the matches, or a folder to keep "+dataFileName+" in (default "+defaultDataHelp+")")
	f.StringVar(&storeURL, "store", "", "a PostgreSQL database (postgres://...) to keep the matches in, instead of --data (env SORTIE_STORE)")
	f.StringVar(&busURL, "bus", "", "the NATS server (nats://host:4222) the nodes sharing --store talk through (env SORTIE_BUS)")
	f.StringVar(&node, "node", "", "this node's name among those sharing --store, the same across restarts (default the host's name; env SORTIE_NODE)")
	f.DurationVar(&lease, "lease", 6*time.Second, "how long a node's hold on its matches lasts without renewal: a dead node's matches are taken over within about this and a second")
	f.StringVar(&sync, "sync", "full", "SQLite synchronous mode: full (survives power loss) or normal (survives a crash of the process)")
	f.StringVar(&level, "log-level", "info", "log level: debug, info, warn or error")
	f.DurationVar(&grace, "grace", 15*time.Second, "how long a shutdown may wait for writes and sockets")
	f.DurationVar(&lim.DrainWait, "drain-wait", 0, "on SIGTERM, how long /healthz answers 503 before the node hands its matches over and closes its port (0: 5s with --bus, none without; at most a third of --grace)")
	f.Float64Var(&speed, "clock-speed", 1, "match time per wall time (tests only)")
	f.Float64Var(&rate, "message-rate", 20, "messages a second each socket may send")
	f.BoolVar(&profile, "pprof", false, "serve Go profiles under /debug/pprof/ (measuring only)")
	f.StringSliceVar(&proxies, "trusted-proxies", nil, "reverse proxies (addresses or CIDR prefixes, comma-separated) whose forwarded header names the client")
	f.StringVar(&lim.ClientIPHeader, "client-ip-header", "X-Forwarded-For", "the header the trusted proxies set: X-Forwarded-For or Forwarded")
	f.Float64Var(&lim.CreateRate, "create-rate", 10, "matches a client may create a minute (0: no limit)")
	f.IntVar(&lim.CreateBurst, "create-burst", 20, "matches a client may create at once")
	f.IntVar(&lim.OpenPerClient, "matches-per-client", 50, "unfinished matches a client may have created, all-bot ones included (0: no limit)")
	f.IntVar(&lim.SocketsPerClient, "sockets-per-client", 64, "match sockets a client may hold open (0: no limit)")
	f.IntVar(&lim.SpectatorsPerClient, "spectators-per-client", 32, "spectator sockets a client may hold open, among its sockets (0: no limit)")
	f.IntVar(&lim.SpectatorsPerMatch, "spectators-per-match", 200, "spectator sockets one match may have on this node (0: no limit)")
	f.IntVar(&lim.MaxSpectators, "max-spectators", 0, "spectator sockets in all (0: three quarters of --max-conns, the rest kept for players)")
	f.Float64Var(&lim.SocketRate, "socket-rate", 60, "match sockets a client may open a minute, refused ones included (0: no limit)")
	f.IntVar(&lim.SocketBurst, "socket-burst", 30, "match sockets a client may open at once")
	f.Float64Var(&lim.ReadRate, "read-rate", 20, "reads of matches (lists, summaries, states, replays, step views) a client may ask for a second (0: no limit)")
	f.IntVar(&lim.ReadBurst, "read-burst", 60, "reads of matches a client may ask for at once")
	f.IntVar(&lim.ConnsPerClient, "conns-per-client", 256, "connections an address may hold open, trusted proxies excepted (0: no limit)")
	f.IntVar(&lim.MaxLive, "max-matches", 100_000, "matches in memory at once")
	f.IntVar(&lim.MaxConns, "max-conns", 10_000, "connections open at once, at most 90% of the files the process may open (0: only that bound)")
	f.DurationVar(&lim.ReadHeaderTimeout, "read-header-timeout", 10*time.Second, "how long a request's header may take to arrive")
	f.DurationVar(&lim.ReadTimeout, "read-timeout", 30*time.Second, "how long a whole request, body included, or a socket message once begun, may take to arrive")
	f.DurationVar(&lim.HTTPWriteTimeout, "write-timeout", time.Minute, "how long an answer may take to be taken (match sockets have their own)")
	f.DurationVar(&lim.IdleTimeout, "idle-timeout", time.Minute, "how long a keep-alive connection may wait for its next request")
	f.DurationVar(&lim.ExpireOpen, "expire-open", 24*time.Hour, "an open match nobody started this long after its creation expires (0: never)")
	f.DurationVar(&lim.ExpireLonely, "expire-lonely", time.Hour, "an open match nobody but its creator joined expires this long after its creation (0: at --expire-open)")
	f.DurationVar(&lim.ExpireCorrespondence, "expire-correspondence", 7*24*time.Hour, "an open correspondence table nobody started this long after its creation expires (0: never)")
	f.DurationVar(&lim.AbandonAfter, "abandon-after", 72*time.Hour, "a running match with no player connected for this long is abandoned (0: never)")
	f.DurationVar(&lim.Retain, "retain", 0, "delete matches over for longer than this, e.g. 720h for 30 days (0: keep them)")
	f.BoolVar(&lim.Reviews, "reviews", true, "review every finished match in the background, within the budget of --bot-searches (the reviews are jobs of the store: one node of several does each)")
	f.DurationVar(&lim.NotifyDelay, "notify-delay", time.Minute, "how long after a player's turn comes while they are away (or an invitation, or an end) the notification waits, sent only if it still holds then")
	f.StringVar(&lim.PushServices, "push-services", strings.Join(notify.DefaultPushServices, ","), "the push services the server posts Web Push notifications to (hosts, *.domain for any host under it, comma-separated); https only, but for a loopback host named here")
	f.DurationVar(&lim.NotifyClaim, "notify-claim", 30*time.Second, "how long a node holds a notification it sends before another node may send it (tests only)")
	f.IntVar(&lim.BotSearches, "bot-searches", 0, "bot decisions searched at once; beyond, hard bots play their cheaper move (0: one fewer than the cores, at least one)")
	_ = f.MarkHidden("clock-speed")
	_ = f.MarkHidden("pprof")
	_ = f.MarkHidden("notify-claim")
	root.AddCommand(cmd)
}

const defaultDataHelp = "$XDG_DATA_HOME/sortie/sortie.db (~/.local/share/sortie/sortie.db)"

// publicURLOf is --public-url, or else where a browser on this machine (or
// the network, for an address of the network) reaches --addr.
func publicURLOf(given, addr string) (string, error) {
	if given != "" {
		u, err := url.Parse(given)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || (u.Path != "" && u.Path != "/") {
			return "", fmt.Errorf("--public-url is http(s)://host[:port], not %q", given)
		}
		return strings.TrimSuffix(given, "/"), nil
	}
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", fmt.Errorf("--addr %q: %v", addr, err)
	}
	switch ip := net.ParseIP(host); {
	case host == "" || host == "localhost" || ip != nil && (ip.IsLoopback() || ip.IsUnspecified()):
		// Passkeys belong to a host name, never to an address: a browser
		// reaches this machine as localhost.
		host = "localhost"
	case ip != nil && ip.To4() == nil:
		host = "[" + host + "]"
	}
	return "http://" + net.JoinHostPort(strings.Trim(host, "[]"), port), nil
}

// defaultDataPath is where serve keeps its data without --data:
// $XDG_DATA_HOME/sortie/sortie.db, else ~/.local/share/sortie/sortie.db (on
// macOS and Windows, the user's configuration folder), else ./sortie.db.
func defaultDataPath() string {
	if d := os.Getenv("XDG_DATA_HOME"); d != "" {
		return filepath.Join(d, "sortie", "sortie.db")
	}
	if runtime.GOOS == "darwin" || runtime.GOOS == "windows" {
		if d, err := os.UserConfigDir(); err == nil {
			return filepath.Join(d, "sortie", "sortie.db")
		}
	}
	if h, err := os.UserHomeDir(); err == nil {
		return filepath.Join(h, ".local", "share", "sortie", "sortie.db")
	}
	return "sortie.db"
}

// checkEngines checks --store and --bus before anything opens.
func checkEngines(cmd *cobra.Command, storeURL, busURL string) error {
	if storeURL != "" {
		u, err := url.Parse(storeURL)
		if err != nil || (u.Scheme != "postgres" && u.Scheme != "postgresql") {
			return fmt.Errorf("--store takes a PostgreSQL URL (postgres://user@host/database), not %q; an SQLite file goes in --data", redactURL(storeURL))
		}
		if cmd.Flags().Changed("data") {
			return errors.New("give --store (PostgreSQL) or --data (SQLite), not both")
		}
	}
	if busURL != "" {
		for _, one := range strings.Split(busURL, ",") {
			u, err := url.Parse(strings.TrimSpace(one))
			if err != nil || (u.Scheme != "nats" && u.Scheme != "tls") || u.Host == "" {
				return fmt.Errorf("--bus takes NATS URLs (nats://host:4222, several separated by commas), not %q", redactURL(one))
			}
		}
		if storeURL == "" {
			return errors.New("--bus links nodes that share a PostgreSQL store: give --store postgres://... too")
		}
	}
	return nil
}

// redactURL hides a URL's password, for messages and logs.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil {
		return "(a URL that does not parse)"
	}
	return u.Redacted()
}
