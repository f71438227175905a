package server_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"sortie/engine"
	"sortie/internal/match"
	"sortie/internal/match/matchtest"
	"sortie/internal/server"
	"sortie/internal/server/client"
	"sortie/internal/store"
)

// The tests here play a crowd: many addresses, or one patient one, trying to
// take the server away from everyone else.

// getWith sends a GET with an optional bearer token and returns the status
// and body.
func getWith(t *testing.T, url, token string) (int, string) {
	t.Helper()
	r, _ := http.NewRequest("GET", url, nil)
	if token != "" {
		r.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(r)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// /metrics tells a stranger much about a server: the public address shows
// it to this machine's loopback alone, or to a request bearing the metrics
// token; the admin handler shows it to whoever reaches it. (Issue 29,
// finding 8.)
func TestMetricsAreNotPublic(t *testing.T) {
	// Through a trusted proxy on loopback, a request comes from anywhere.
	proxied := newEnv(t, matchtest.Games(), func(c *server.Config) {
		c.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
	})
	if code, body := getWith(t, proxied.hs.URL+"/metrics", ""); code != http.StatusForbidden || !strings.Contains(body, server.CodeForbidden) {
		t.Fatalf("/metrics through a proxy, without a token: %d %.80s", code, body)
	}
	admin := httptest.NewServer(proxied.srv.AdminHandler())
	defer admin.Close()
	if code, body := getWith(t, admin.URL+"/metrics", ""); code != http.StatusOK || !strings.Contains(body, "sortie_matches_live") {
		t.Fatalf("/metrics on the admin handler: %d %.80s", code, body)
	}
	if code, _ := getWith(t, admin.URL+"/healthz", ""); code != http.StatusOK {
		t.Fatalf("/healthz on the admin handler: %d", code)
	}
	if code, _ := getWith(t, admin.URL+"/api/games", ""); code != http.StatusNotFound {
		t.Fatalf("the admin handler serves the API: %d", code)
	}

	// Straight from loopback, the metrics are shown.
	local := newEnv(t, matchtest.Games(), nil)
	if code, _ := getWith(t, local.hs.URL+"/metrics", ""); code != http.StatusOK {
		t.Fatalf("/metrics from loopback: %d", code)
	}

	// With a token, only the token opens them.
	const token = "scrape-me-9f2c"
	tok := newEnv(t, matchtest.Games(), func(c *server.Config) { c.MetricsToken = token })
	for _, c := range []struct {
		token string
		want  int
	}{{"", http.StatusForbidden}, {"wrong", http.StatusForbidden}, {token, http.StatusOK}} {
		if code, _ := getWith(t, tok.hs.URL+"/metrics", c.token); code != c.want {
			t.Fatalf("/metrics with token %q: %d, want %d", c.token, code, c.want)
		}
	}
}

// A crowd of addresses holding idle spectator sockets cannot take the
// connections the players need: spectators are capped in all (three
// quarters of the connections), by match and by address, /healthz is
// answered all along, and a new player creates a match, joins it, connects
// and plays. (Issue 29, finding 1: 157 addresses × 64 idle spectators made
// every request answer 503, /healthz included.)
func TestSpectatorsLeaveRoomForPlayers(t *testing.T) {
	const maxConns, perMatch, perAddr = 48, 12, 6 // spectators: 36 at most
	e := newEnv(t, matchtest.Games(), func(c *server.Config) {
		c.MaxConns, c.SpectatorsPerMatch, c.SpectatorsPerClient = maxConns, perMatch, perAddr
	})
	ids := e.matchesToWatch(4)
	// The crowd: many addresses, each with as many spectators as it may,
	// first all at one match, then at the others.
	var crowd []*player
	refused := map[string]int{}
	for a := 10; a < 60; a++ {
		c := e.clientFrom(fmt.Sprintf("127.0.0.%d", a))
		for range perAddr + 1 {
			id := ids[0]
			if refused[server.CodeSpectatorsFull] > 0 {
				id = ids[1+len(crowd)%(len(ids)-1)]
			}
			p, err := dialWith(c, id, "", engine.Spectator)
			if err != nil {
				refused[apiCode(err)]++
				continue
			}
			crowd = append(crowd, p)
		}
	}
	defer closeAll(crowd)
	if n := watching(crowd); n > maxConns/4*3 {
		t.Fatalf("%d spectators hold %d connections of %d", n, n, maxConns)
	}
	for _, code := range []string{server.CodeTooManySockets, server.CodeSpectatorsFull, server.CodeServerBusy} {
		if refused[code] == 0 {
			t.Errorf("no spectator was refused with %s: %v", code, refused)
		}
	}
	if code, body := getWith(t, e.hs.URL+"/healthz", ""); code != http.StatusOK {
		t.Fatalf("/healthz with the crowd: %d %s", code, body)
	}
	e.newcomerPlays(addrB)
}

// When spectators hold every connection (no room kept for players), a new
// player's connections are let in all the same: the spectators of the
// addresses that watch the most are told to go (1013, try again later),
// never one that watches alone, and /healthz is answered all along.
// (Issue 29, finding 1.)
func TestSpectatorsYieldToPlayers(t *testing.T) {
	const maxConns, perAddr = 48, 6
	e := newEnv(t, matchtest.Games(), func(c *server.Config) {
		c.MaxConns, c.MaxSpectators, c.SpectatorsPerClient, c.SpectatorsPerMatch = maxConns, -1, perAddr, -1
	})
	ids := e.matchesToWatch(2)
	lone, err := dialWith(e.clientFrom("127.0.0.200"), ids[0], "", engine.Spectator)
	if err != nil {
		t.Fatal(err)
	}
	defer lone.close()
	var crowd []*player
	for a := 10; len(crowd)+1 < maxConns; a++ {
		c := e.clientFrom(fmt.Sprintf("127.0.0.%d", a))
		for range perAddr {
			p, err := dialWith(c, ids[len(crowd)%len(ids)], "", engine.Spectator)
			if err != nil {
				t.Fatalf("spectator %d: %v", len(crowd), err)
			}
			crowd = append(crowd, p)
			if len(crowd)+1 == maxConns {
				break
			}
		}
	}
	defer closeAll(crowd)
	if code, body := getWith(t, e.hs.URL+"/healthz", ""); code != http.StatusOK {
		t.Fatalf("/healthz with every connection a spectator's: %d %s", code, body)
	}
	e.newcomerPlays(addrB)
	shed := 0
	for _, c := range crowd {
		select {
		case <-c.done:
			if _, err := c.recvAll(); websocket.CloseStatus(err) != 1013 {
				t.Errorf("a spectator made room with %v, want 1013", err)
			}
			shed++
		default:
		}
	}
	if shed == 0 {
		t.Fatal("no spectator made room for the player's connections")
	}
	select {
	case <-lone.done:
		t.Fatal("the spectator of an address watching alone was told to go before the crowd's")
	default:
	}
}

// matchesToWatch makes n running matches of two humans.
func (e *env) matchesToWatch(n int) []string {
	var ids []string
	for range n {
		ids = append(ids, e.newMatch(match.CreateRequest{Game: "testcards", Players: 2}, true).Match.ID)
	}
	return ids
}

// newcomerPlays has a new player at address ip create a match against a
// bot, join it, connect and play an action, each request on a connection of
// its own.
func (e *env) newcomerPlays(ip string) {
	t := e.t
	t.Helper()
	ctx := context.Background()
	player := e.clientFrom(ip)
	player.HTTP.Transport.(*http.Transport).DisableKeepAlives = true
	cm, err := player.Create(ctx, match.CreateRequest{Game: "testcards", Players: 2,
		Seats: []match.SeatRequest{{}, {Kind: match.Bot}}, AutoStart: true})
	if err != nil {
		t.Fatalf("a new player could not create a match: %v", err)
	}
	if _, err := player.Join(ctx, cm.Match.ID, cm.Seats[0].Token, "Newcomer"); err != nil {
		t.Fatalf("a new player could not join: %v", err)
	}
	p, err := dialWith(player, cm.Match.ID, cm.Seats[0].Token, 0)
	if err != nil {
		t.Fatalf("a new player could not connect: %v", err)
	}
	defer p.close()
	if _, err := p.play(ctx, newRand(29), playOptions{stopAfter: 1}); err != nil {
		t.Fatalf("a new player could not play: %v", err)
	}
}

// closeAll closes the sockets of ps.
func closeAll(ps []*player) {
	for _, p := range ps {
		p.close()
	}
}

// watching counts the sockets of ps still open.
func watching(ps []*player) int {
	n := 0
	for _, p := range ps {
		select {
		case <-p.done:
		default:
			n++
		}
	}
	return n
}

// createFrom creates a match as the client a trusted proxy names with ip,
// and returns the status and refusal code.
func createFrom(t *testing.T, e *env, ip string, req match.CreateRequest) (int, string, http.Header) {
	t.Helper()
	status, code, h, err := createRaw(context.Background(), e.c, req, http.Header{"X-Forwarded-For": {ip}})
	if err != nil {
		t.Fatal(err)
	}
	return status, code, h
}

// behindProxy trusts the test's loopback as a proxy, so that a request's
// X-Forwarded-For names its client.
func behindProxy(c *server.Config) {
	c.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
}

// An IPv6 client is its /64, and the /64s of one /48 hold together four
// times what one may: a site that hands its machines many /64s cannot
// multiply its allowance, and another /48 is not held back. (Issue 29,
// finding 2.)
func TestIPv6NetworksHoldTogether(t *testing.T) {
	e := newEnv(t, matchtest.Games(), func(c *server.Config) {
		behindProxy(c)
		c.OpenPerClient, c.CreateRate = 2, -1
	})
	open := match.CreateRequest{Game: "testcards"}
	created := 0
	for sub := 1; sub <= 6; sub++ {
		for range 3 {
			status, code, _ := createFrom(t, e, fmt.Sprintf("2001:db8:7:%x::1", sub), open)
			switch {
			case status == http.StatusCreated:
				created++
			case code != server.CodeTooManyMatches:
				t.Fatalf("/64 number %d: %d %s", sub, status, code)
			}
		}
	}
	if created != 2*4 {
		t.Fatalf("the /64s of one /48 created %d open matches, want %d (four clients' allowance)", created, 2*4)
	}
	if status, code, _ := createFrom(t, e, "2001:db8:8:1::1", open); status != http.StatusCreated {
		t.Fatalf("another /48 was held back: %d %s", status, code)
	}
}

// What a client holds and has just created counts again after a restart:
// its unfinished matches still fill its places, and its allowance of new
// ones is not handed out afresh. (Issue 29, finding 3: an address with 50
// unfinished matches created 50 more after a restart.)
func TestLimitsSurviveARestart(t *testing.T) {
	e := newEnv(t, matchtest.Games(), func(c *server.Config) {
		behindProxy(c)
		c.OpenPerClient, c.CreateBurst, c.CreateRate = 3, 5, 0.5
	})
	ctx := context.Background()
	as := e.as("198.51.100.7")
	open := match.CreateRequest{Game: "testcards"}
	var made []*server.CreatedMatch
	for range 3 {
		cm, err := as.Create(ctx, open)
		if err != nil {
			t.Fatalf("a first creation: %v", err)
		}
		made = append(made, cm)
	}
	if _, err := as.Create(ctx, open); apiCode(err) != server.CodeTooManyMatches {
		t.Fatalf("a fourth unfinished match: %v, want %s", err, server.CodeTooManyMatches)
	}
	e.restart()
	as.Base = e.hs.URL
	if _, err := as.Create(ctx, open); apiCode(err) != server.CodeTooManyMatches {
		t.Fatalf("after a restart, a fourth unfinished match: %v, want %s", err, server.CodeTooManyMatches)
	}
	// Two of its matches end: two places again, and of its five creations
	// at once two are left, after a restart as before.
	for _, cm := range made[:2] {
		if _, err := as.CloseMatch(ctx, cm.Match.ID, cm.HostToken); err != nil {
			t.Fatal(err)
		}
	}
	e.restart()
	as.Base = e.hs.URL
	for i := range 2 {
		if _, err := as.Create(ctx, open); err != nil {
			t.Fatalf("creation %d after two ends: %v", i+1, err)
		}
	}
	if _, err := as.CloseMatch(ctx, made[2].Match.ID, made[2].HostToken); err != nil {
		t.Fatal(err)
	}
	e.restart()
	as.Base = e.hs.URL
	if _, err := as.Create(ctx, open); apiCode(err) != server.CodeRateLimited {
		t.Fatalf("a sixth creation within a minute, across restarts: %v, want %s", err, server.CodeRateLimited)
	}
}

// forwarded is a transport whose requests say, through the trusted proxy
// the test's loopback is, that they come from ip.
type forwarded struct{ ip string }

func (f *forwarded) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("X-Forwarded-For", f.ip)
	return http.DefaultTransport.RoundTrip(r)
}

// as is a client of e whose requests come, through the trusted proxy, from
// ip.
func (e *env) as(ip string) *client.Client {
	c := client.New(e.hs.URL)
	c.HTTP = &http.Client{Transport: &forwarded{ip: ip}}
	return c
}

// A crowd creating matches nobody joins cannot fill the server: from nine
// tenths of the cap on, each creation first ends the oldest of the matches
// nobody but their creator joined, telling its creator why; tables another
// player sat at stay, and a newcomer can still create and play. (Issue 29,
// finding 2: 5,000 addresses filled the match cap in 24 s and kept it full.)
func TestLonelyMatchesMakeRoomFirst(t *testing.T) {
	const maxLive = 20
	e := newEnv(t, matchtest.Games(), func(c *server.Config) {
		behindProxy(c)
		c.MaxLive, c.OpenPerClient, c.CreateRate = maxLive, -1, -1
	})
	ctx := context.Background()
	twoHumans := match.CreateRequest{Game: "testcards", Players: 2}
	// A table a friend sat at.
	host := e.as("198.51.100.1")
	friends, err := host.Create(ctx, twoHumans)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := host.Join(ctx, friends.Match.ID, friends.Seats[0].Token, "Host"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.as("198.51.100.2").Join(ctx, friends.Match.ID, friends.Seats[1].Token, "Friend"); err != nil {
		t.Fatal(err)
	}
	// The oldest lonely table, whose creator waits at it.
	waiter := e.as("198.51.100.3")
	lonely, err := waiter.Create(ctx, twoHumans)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := waiter.Join(ctx, lonely.Match.ID, lonely.Seats[0].Token, "Waiter"); err != nil {
		t.Fatal(err)
	}
	p := e.dial(lonely.Match.ID, lonely.Seats[0].Token, 0)
	defer p.close()
	// The crowd, each table from an address of its own.
	for i := range 3 * maxLive {
		if _, err := e.as(fmt.Sprintf("203.0.113.%d", i+1)).Create(ctx, twoHumans); err != nil {
			t.Fatalf("creation %d of the crowd: %v", i+1, err)
		}
	}
	if live := e.srv.Manager().Live(); live > maxLive {
		t.Fatalf("%d matches in memory, over the cap of %d", live, maxLive)
	}
	m := p.expect(t, "the end of the lonely table", func(m *match.Message) bool { return m.Status == store.Expired })
	if m.Reason == nil || m.Reason.Code != match.ReasonNoRoom {
		t.Fatalf("the lonely table's creator was told %+v, want the reason %s", m.Reason, match.ReasonNoRoom)
	}
	if sum, err := e.c.Match(ctx, friends.Match.ID); err != nil || sum.Status != store.Open {
		t.Fatalf("the table a friend sat at: %v %v", sum.Status, err)
	}
	e.newcomerPlays(addrB)
}

// An open match nobody but its creator joined expires much sooner than one
// another player sat at. (Issue 29, finding 2.)
func TestLonelyMatchesExpireSooner(t *testing.T) {
	e := newEnv(t, matchtest.Games(), func(c *server.Config) {
		behindProxy(c)
		c.ExpireLonely = 300 * time.Millisecond
	})
	ctx := context.Background()
	twoHumans := match.CreateRequest{Game: "testcards", Players: 2}
	alone := e.as("198.51.100.1")
	lonely, err := alone.Create(ctx, twoHumans)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := alone.Join(ctx, lonely.Match.ID, lonely.Seats[0].Token, "Alone"); err != nil {
		t.Fatal(err)
	}
	host := e.as("198.51.100.2")
	sat, err := host.Create(ctx, twoHumans)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.as("198.51.100.3").Join(ctx, sat.Match.ID, sat.Seats[1].Token, "Guest"); err != nil {
		t.Fatal(err)
	}
	var sum match.Summary
	waitFor(t, "the lonely match to expire", func() bool {
		sum, err = e.c.Match(ctx, lonely.Match.ID)
		return err == nil && sum.Status == store.Expired
	})
	if sum.Reason == nil || sum.Reason.Code != match.ReasonNobodyJoined {
		t.Fatalf("the lonely match expired with %+v, want %s", sum.Reason, match.ReasonNobodyJoined)
	}
	if sum, err := e.c.Match(ctx, sat.Match.ID); err != nil || sum.Status != store.Open {
		t.Fatalf("the match a guest sat at: %v %v", sum.Status, err)
	}
}

// Reads of matches and socket openings have a rate per client. Past its
// burst, a read waits for its client's allowance for a second at most, and
// past that it is refused (429 with Retry-After): a client reading without
// pause is slowed to its rate; another client is served all the same.
// (Issue 29, findings 4 and 5: reads had no rate, and one address opened
// 480 sockets in 5 s.)
func TestReadsAndSocketsHaveARate(t *testing.T) {
	e := newEnv(t, matchtest.Games(), func(c *server.Config) {
		c.ReadRate, c.ReadBurst, c.SocketRate, c.SocketBurst = 2, 10, 6, 4
	})
	ctx := context.Background()
	id := e.newMatch(match.CreateRequest{Game: "testcards", Players: 2}, true).Match.ID
	a, b := e.clientFrom(addrA), e.clientFrom(addrB)
	reads := []string{"/api/matches", "/api/matches/" + id, "/api/matches/" + id + "/state", "/api/matches/" + id + "/view?step=0"}
	for i := range 10 {
		if err := a.Do(ctx, "GET", reads[i%len(reads)], "", nil, nil); err != nil {
			t.Fatalf("read %d of a burst of 10: %v", i+1, err)
		}
	}
	// Six more at once: two come within a second (at two a second), the
	// other four are refused.
	start := time.Now()
	statuses := map[int]int{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 6 {
		wg.Go(func() {
			r, _ := http.NewRequest("GET", e.hs.URL+reads[3], nil)
			resp, err := a.HTTP.Do(r)
			if err != nil {
				t.Error(err)
				return
			}
			resp.Body.Close()
			if resp.StatusCode == http.StatusTooManyRequests {
				retryAfterOf(t, resp.Header)
			}
			mu.Lock()
			statuses[resp.StatusCode]++
			mu.Unlock()
		})
	}
	wg.Wait()
	if statuses[http.StatusOK] != 2 || statuses[http.StatusTooManyRequests] != 4 {
		t.Fatalf("six reads past the burst: %v, want two served and four refused", statuses)
	}
	if d := time.Since(start); d < 400*time.Millisecond || d > 3*time.Second {
		t.Fatalf("the two reads past the burst were served after %v, want about a second", d)
	}
	if err := b.Do(ctx, "GET", reads[2], "", nil, nil); err != nil {
		t.Fatalf("another client's read: %v", err)
	}
	if err := a.Do(ctx, "GET", "/api/games", "", nil, nil); err != nil {
		t.Fatalf("the games' list is no read of matches: %v", err)
	}

	for i := range 4 {
		p, err := dialWith(a, id, "", engine.Spectator)
		if err != nil {
			t.Fatalf("socket %d of a burst of 4: %v", i+1, err)
		}
		p.close()
	}
	if _, err := dialWith(a, id, "", engine.Spectator); apiCode(err) != server.CodeRateLimited {
		t.Fatalf("a fifth socket at once: %v, want %s", err, server.CodeRateLimited)
	}
	p, err := dialWith(b, id, "", engine.Spectator)
	if err != nil {
		t.Fatalf("another client's socket: %v", err)
	}
	p.close()
}

// A server told to stop answers /healthz 503 for DrainWait before it closes
// its port, so that a load balancer checking it every few seconds sees it
// go and sends nothing new there. (Issue 29, finding 11: /healthz never
// answered 503 before the port closed.)
func TestStoppingSays503BeforeThePortCloses(t *testing.T) {
	const wait = 800 * time.Millisecond
	srv, err := server.New(server.Config{Games: matchtest.Games(), DataPath: filepath.Join(t.TempDir(), "sortie.db"),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), DrainWait: wait})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Run(ctx, ln, 10*time.Second) }()
	url := "http://" + ln.Addr().String() + "/healthz"
	hc := &http.Client{Transport: &http.Transport{DisableKeepAlives: true}, Timeout: 5 * time.Second}
	status := func() int {
		resp, err := hc.Get(url)
		if err != nil {
			return 0 // the port is closed
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if s := status(); s != http.StatusOK {
		t.Fatalf("/healthz before the stop: %d", s)
	}
	stop()
	start := time.Now()
	var unhealthy time.Duration
	for {
		s := status()
		if s == 0 {
			break
		}
		if s != http.StatusServiceUnavailable {
			if time.Since(start) > 100*time.Millisecond {
				t.Fatalf("/healthz %v after the stop: %d, want 503", time.Since(start), s)
			}
			continue
		}
		unhealthy = time.Since(start)
		time.Sleep(20 * time.Millisecond)
	}
	if unhealthy < wait*3/4 {
		t.Fatalf("/healthz answered 503 for %v before the port closed, want about %v", unhealthy, wait)
	}
	if err := <-done; err != nil {
		t.Fatalf("Run: %v", err)
	}
}
