package server_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"sortie/engine"
	"sortie/internal/match"
	"sortie/internal/match/matchtest"
	"sortie/internal/server"
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
