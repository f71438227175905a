package server_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"os"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gobwas/ws"

	"sortie/engine"
	"sortie/internal/match"
	"sortie/internal/match/matchtest"
	"sortie/internal/server"
	"sortie/internal/server/client"
	"sortie/internal/store"
)

// The tests here play an anonymous stranger on the internet: one address
// floods the server while another, a loopback address of its own, plays.

// Two loopback addresses: every 127.x.y.z reaches the server on Linux, and
// each is a client of its own for the server.
const (
	addrA = "127.0.0.1"
	addrB = "127.0.0.2"
)

// dialerFrom dials from the local address ip.
func dialerFrom(ip string) *net.Dialer {
	return &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: 10 * time.Second}
}

// clientFrom is an API and socket client whose connections come from ip.
func (e *env) clientFrom(ip string) *client.Client {
	c := client.New(e.hs.URL)
	c.HTTP = &http.Client{Transport: &http.Transport{DialContext: dialerFrom(ip).DialContext, MaxIdleConnsPerHost: 64}}
	e.t.Cleanup(c.HTTP.CloseIdleConnections)
	return c
}

// botsOnly is an all-bot match of the test card game that starts at once.
func botsOnly(hand string) match.CreateRequest {
	return match.CreateRequest{Game: "testcards", Seats: []match.SeatRequest{{Kind: match.Bot}, {Kind: match.Bot}},
		Options: map[string]string{"hand": hand}, AutoStart: true}
}

// retryAfterOf checks that a refusal by a limit says when to try again.
func retryAfterOf(t *testing.T, h http.Header) int {
	t.Helper()
	n, err := strconv.Atoi(h.Get("Retry-After"))
	if err != nil || n < 1 {
		t.Fatalf("a refusal by a limit without a valid Retry-After: %q", h.Get("Retry-After"))
	}
	return n
}

// createRaw posts a creation with extra headers, and returns the status, the
// refusal code ("" for a creation) and the headers of the answer.
func createRaw(ctx context.Context, c *client.Client, req match.CreateRequest, header http.Header) (int, string, http.Header, error) {
	body, _ := json.Marshal(req)
	r, err := http.NewRequestWithContext(ctx, "POST", c.Base+"/api/matches", bytes.NewReader(body))
	if err != nil {
		return 0, "", nil, err
	}
	r.Header.Set("Content-Type", "application/json")
	for k, v := range header {
		r.Header[k] = v
	}
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(r)
	if err != nil {
		return 0, "", nil, err
	}
	defer resp.Body.Close()
	data, _ := io.ReadAll(resp.Body)
	var eb server.ErrorBody
	if resp.StatusCode >= 300 && json.Unmarshal(data, &eb) == nil && eb.Error != nil {
		return resp.StatusCode, eb.Error.Code, resp.Header, nil
	}
	return resp.StatusCode, "", resp.Header, nil
}

// healthzLatency returns the best of several timed /healthz requests from
// c: the server's answer time, without the noise of a loaded machine's
// scheduler on any single try.
func healthzLatency(t *testing.T, c *client.Client) time.Duration {
	t.Helper()
	best := time.Hour
	for range 7 {
		start := time.Now()
		if err := c.Do(context.Background(), "GET", "/healthz", "", nil, nil); err != nil {
			t.Fatalf("healthz: %v", err)
		}
		best = min(best, time.Since(start))
	}
	return best
}

// One address floods match creation from eight connections at once: it is
// throttled (429 with Retry-After) within its allowance, while a second
// address creates a match, plays it to the end, and /healthz answers within
// 100 ms. (Issue 19, finding 1.)
func TestFloodingClientIsThrottledWhileAnotherPlays(t *testing.T) {
	const burst, perMinute = 5, 6
	e := newEnv(t, matchtest.Games(), func(c *server.Config) {
		c.CreateBurst, c.CreateRate, c.ClockSpeed = burst, perMinute, 20
	})
	a, b := e.clientFrom(addrA), e.clientFrom(addrB)
	ctx, stop := context.WithCancel(context.Background())
	var created, limited, other atomic.Int64
	var wg sync.WaitGroup
	start := time.Now()
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				status, code, h, err := createRaw(ctx, a, botsOnly("3"), nil)
				switch {
				case err != nil:
					if ctx.Err() == nil {
						t.Errorf("flooding client: %v", err)
					}
					return
				case status == http.StatusCreated:
					created.Add(1)
				case status == http.StatusTooManyRequests && (code == server.CodeRateLimited || code == server.CodeTooManyMatches):
					retryAfterOf(t, h)
					limited.Add(1)
				default:
					other.Add(1)
					t.Errorf("flooding client got %d %s", status, code)
				}
			}
		}()
	}
	// Meanwhile the other address plays a whole match against a bot.
	waitFor(t, "the flood to be throttled", func() bool { return limited.Load() > 0 })
	if _, err := playsAgainstABot(b, "3", 19); err != nil {
		t.Fatalf("the second address, while the first was throttled: %v", err)
	}
	lat := healthzLatency(t, b)
	stop()
	wg.Wait()
	elapsed := time.Since(start)
	t.Logf("flood: %d created, %d refused with 429 in %v; healthz %v", created.Load(), limited.Load(), elapsed.Round(time.Millisecond), lat)
	if allowed := burst + int64(elapsed.Minutes()*perMinute) + 1; created.Load() > allowed {
		t.Errorf("the flooding address created %d matches; its allowance was %d", created.Load(), allowed)
	}
	if lat > 100*time.Millisecond {
		t.Errorf("/healthz took %v at best during the flood, over 100 ms", lat)
	}
}

// waitFor polls cond until it holds, or fails after 20 seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// Concurrent creations cannot overfill the server: the cap on matches in
// memory is taken before a match is stored, not checked before and passed
// by all at once. (Issue 19, finding 1.)
func TestMatchCapHoldsUnderConcurrency(t *testing.T) {
	const limit, tries = 5, 40
	e := newEnv(t, matchtest.Games(), func(c *server.Config) {
		c.MaxLive, c.CreateRate, c.OpenPerClient = limit, -1, -1
	})
	// All-bot matches that take their time: running, they make no room for
	// others as open matches nobody joined would.
	slow := botsOnly("4")
	slow.BotDelayMs = 60_000
	codes := concurrently(t, tries, func() (int, string, http.Header, error) {
		return createRaw(context.Background(), e.c, slow, nil)
	})
	if n := codes[""]; n != limit {
		t.Errorf("%d of %d concurrent creations passed a cap of %d matches (refusals: %v)", n, tries, limit, codes)
	}
	if codes[match.CodeServerFull] != tries-limit {
		t.Errorf("refusals: %v, want %d server_full", codes, tries-limit)
	}
	if live := e.srv.Manager().Live(); live > limit {
		t.Errorf("%d matches in memory over a cap of %d", live, limit)
	}
}

// concurrently runs n calls of do at once and counts their codes ("" for a
// creation).
func concurrently(t *testing.T, n int, do func() (int, string, http.Header, error)) map[string]int {
	t.Helper()
	var mu sync.Mutex
	codes := map[string]int{}
	var ready, done sync.WaitGroup
	gate := make(chan struct{})
	for range n {
		ready.Add(1)
		done.Add(1)
		go func() {
			defer done.Done()
			ready.Done()
			<-gate
			status, code, h, err := do()
			if err != nil {
				t.Error(err)
				return
			}
			if status == http.StatusTooManyRequests || status == http.StatusServiceUnavailable {
				retryAfterOf(t, h)
			}
			mu.Lock()
			codes[code]++
			mu.Unlock()
		}()
	}
	ready.Wait()
	close(gate)
	done.Wait()
	return codes
}

// A client may hold only so many unfinished matches, all-bot ones included,
// even when it asks for many at once; a match that ends gives its place
// back; another client is not affected. (Issue 19, findings 1 and 3.)
func TestOpenMatchesPerClient(t *testing.T) {
	const open = 3
	e := newEnv(t, matchtest.Games(), func(c *server.Config) {
		c.OpenPerClient, c.CreateRate, c.ClockSpeed = open, -1, 50
	})
	a, b := e.clientFrom(addrA), e.clientFrom(addrB)
	// Open matches that wait for their humans hold their places.
	codes := concurrently(t, 12, func() (int, string, http.Header, error) {
		return createRaw(context.Background(), a, match.CreateRequest{Game: "testcards"}, nil)
	})
	if codes[""] != open || codes[server.CodeTooManyMatches] != 12-open {
		t.Fatalf("12 creations at once with %d places: %v", open, codes)
	}
	if _, err := b.Create(context.Background(), match.CreateRequest{Game: "testcards"}); err != nil {
		t.Fatalf("another address was refused: %v", err)
	}
	// Bots-only matches count too, and give their place back at their end.
	e2 := newEnv(t, matchtest.Games(), func(c *server.Config) {
		c.OpenPerClient, c.CreateRate, c.ClockSpeed = 1, -1, 50
	})
	first, err := e2.c.Create(context.Background(), botsOnly("2"))
	if err != nil {
		t.Fatal(err)
	}
	if status, code, _, _ := createRaw(context.Background(), e2.c, botsOnly("2"), nil); status != http.StatusTooManyRequests && status != http.StatusCreated {
		t.Fatalf("second all-bot match: %d %s", status, code)
	} else if status == http.StatusCreated {
		// The first one may have ended in between: then it must have.
		if sum, _ := e2.c.Match(context.Background(), first.Match.ID); sum.Status != store.Finished {
			t.Fatalf("a second all-bot match was created while the first was %s", sum.Status)
		}
	}
	waitFor(t, "a new place once the all-bot match ended", func() bool {
		status, _, _, err := createRaw(context.Background(), e2.c, botsOnly("2"), nil)
		return err == nil && status == http.StatusCreated
	})
	if sum, _ := e2.c.Match(context.Background(), first.Match.ID); sum.Status != store.Finished {
		t.Fatalf("a place was given back while the match was %s", sum.Status)
	}
}

// Behind a trusted proxy each forwarded client has its own allowance, and
// what a client writes in the header itself changes nothing; from an address
// not trusted, the header is ignored.
func TestClientsBehindTrustedProxy(t *testing.T) {
	once := func(c *server.Config) { c.CreateBurst, c.CreateRate = 1, 0.001 }
	ctx := context.Background()
	create := func(e *env, name, value string) (int, string) {
		t.Helper()
		status, code, _, err := createRaw(ctx, e.c, match.CreateRequest{Game: "testcards"}, http.Header{name: {value}})
		if err != nil {
			t.Fatal(err)
		}
		return status, code
	}
	expect := func(e *env, name, value string, want int) {
		t.Helper()
		if status, code := create(e, name, value); status != want {
			t.Fatalf("%s: %s: got %d %s, want %d", name, value, status, code, want)
		}
	}
	xff := "X-Forwarded-For"
	proxied := newEnv(t, matchtest.Games(), func(c *server.Config) {
		once(c)
		c.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32"), netip.MustParsePrefix("10.0.0.0/8")}
	})
	expect(proxied, xff, "198.51.100.1", http.StatusCreated)
	expect(proxied, xff, "198.51.100.1", http.StatusTooManyRequests)
	expect(proxied, xff, "198.51.100.2", http.StatusCreated)
	// A client that writes its own header is named by the proxy after it.
	expect(proxied, xff, "198.51.100.77, 198.51.100.1", http.StatusTooManyRequests)
	// Through two trusted proxies.
	expect(proxied, xff, "198.51.100.3, 10.1.2.3", http.StatusCreated)
	expect(proxied, xff, "198.51.100.3", http.StatusTooManyRequests)

	ignored := newEnv(t, matchtest.Games(), once)
	expect(ignored, xff, "198.51.100.1", http.StatusCreated)
	expect(ignored, xff, "198.51.100.2", http.StatusTooManyRequests)

	std := newEnv(t, matchtest.Games(), func(c *server.Config) {
		once(c)
		c.TrustedProxies = []netip.Prefix{netip.MustParsePrefix("127.0.0.0/8")}
		c.ClientIPHeader = "Forwarded"
	})
	fwd := "Forwarded"
	expect(std, fwd, `for="[2001:db8::1]:4711";proto=https`, http.StatusCreated)
	// The same /64 is the same client.
	expect(std, fwd, `for="[2001:db8::2]"`, http.StatusTooManyRequests)
	expect(std, fwd, `for=192.0.2.60;by=127.0.0.1, for=127.0.0.5`, http.StatusCreated)
	expect(std, fwd, `for="[2001:db8:0:1::1]"`, http.StatusCreated)
}

// One address's idle spectator sockets are capped; another address still
// connects, and a closed socket frees its place. (Issue 19, finding 4.)
func TestSocketsPerClient(t *testing.T) {
	const most = 5
	e := newEnv(t, matchtest.Games(), func(c *server.Config) { c.SocketsPerClient = most })
	cm := e.newMatch(match.CreateRequest{Game: "testcards", Players: 2}, false)
	a, b := e.clientFrom(addrA), e.clientFrom(addrB)
	var socks []*player
	for i := range most {
		p, err := dialWith(a, cm.Match.ID, "", engine.Spectator)
		if err != nil {
			t.Fatalf("spectator socket %d: %v", i+1, err)
		}
		socks = append(socks, p)
	}
	_, err := dialWith(a, cm.Match.ID, "", engine.Spectator)
	var ae *client.APIError
	if !errors.As(err, &ae) || ae.Status != http.StatusTooManyRequests || ae.Code != server.CodeTooManySockets {
		t.Fatalf("socket %d from one address: %v, want 429 %s", most+1, err, server.CodeTooManySockets)
	}
	other, err := dialWith(b, cm.Match.ID, "", engine.Spectator)
	if err != nil {
		t.Fatalf("another address could not open a socket: %v", err)
	}
	other.close()
	// Even a seat's socket is refused: the cap is the client's.
	if _, err := dialWith(a, cm.Match.ID, cm.Seats[0].Token, 0); apiCode(err) != server.CodeTooManySockets {
		t.Fatalf("a seat socket over the cap: %v", err)
	}
	socks[0].close()
	waitFor(t, "the closed socket's place", func() bool {
		p, err := dialWith(a, cm.Match.ID, cm.Seats[0].Token, 0)
		if err == nil {
			p.close()
		}
		return err == nil
	})
	for _, p := range socks[1:] {
		p.close()
	}
}

// rawConn opens a TCP connection from ip to the server.
func (e *env) rawConn(ip string) net.Conn {
	e.t.Helper()
	c, err := dialerFrom(ip).Dial("tcp", e.hs.Listener.Addr().String())
	if err != nil {
		e.t.Fatalf("dial from %s: %v", ip, err)
	}
	e.t.Cleanup(func() { c.Close() })
	return c
}

// answerOf reads an HTTP answer on c (the request sent, if any, is req).
func answerOf(t *testing.T, c net.Conn, req *http.Request) (*http.Response, string) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(20 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), req)
	if err != nil {
		t.Fatalf("no answer: %v", err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

// ask sends a GET for path on the raw connection c and reads the answer.
func ask(t *testing.T, c net.Conn, path string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest("GET", "http://sortie"+path, nil)
	if err := req.Write(c); err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	return answerOf(t, c, req)
}

// closedWithin checks that the server closes c, which sends nothing, within
// d and without an answer.
func closedWithin(t *testing.T, c net.Conn, d time.Duration) {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(d))
	if n, err := c.Read(make([]byte, 64)); n != 0 || err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("a silent connection over a cap: read %d bytes, %v; want it closed within %v", n, err, d)
	}
}

// Connections are capped per address and in all. A connection over a cap is
// let in, among a few, for the health checks and the metrics alone: its
// other requests get the refusal with its code, a silent one is closed
// within seconds, and past those few it is refused at once, before sending
// anything; the server serves the others. (Issue 19, finding 4; issue 29,
// finding 1: a crowd of connections made /healthz answer 503.)
func TestConnectionCaps(t *testing.T) {
	e := newEnv(t, matchtest.Games(), func(c *server.Config) { c.ConnsPerClient = 4 })
	for range 4 {
		e.rawConn(addrA) // idle: never sends a request
	}
	resp, body := ask(t, e.rawConn(addrA), "/api/games")
	if resp.StatusCode != http.StatusTooManyRequests || !strings.Contains(body, server.CodeTooManyConns) || !resp.Close {
		t.Fatalf("a request on a fifth connection from one address: %d %s (closed after: %v)", resp.StatusCode, body, resp.Close)
	}
	retryAfterOf(t, resp.Header)
	if resp, body := ask(t, e.rawConn(addrA), "/healthz"); resp.StatusCode != http.StatusOK {
		t.Fatalf("/healthz on a connection over the address's cap: %d %s", resp.StatusCode, body)
	}
	closedWithin(t, e.rawConn(addrA), 5*time.Second)
	if err := e.clientFrom(addrB).Do(context.Background(), "GET", "/healthz", "", nil, nil); err != nil {
		t.Fatalf("another address was refused: %v", err)
	}
	// An address has a few places over the cap, no more.
	for range 4 {
		e.rawConn(addrA)
	}
	resp, body = answerOf(t, e.rawConn(addrA), nil)
	if resp.StatusCode != http.StatusTooManyRequests || !strings.Contains(body, server.CodeTooManyConns) {
		t.Fatalf("a connection past the places over the cap: %d %s", resp.StatusCode, body)
	}

	all := newEnv(t, matchtest.Games(), func(c *server.Config) { c.MaxConns, c.ConnsPerClient = 6, -1 })
	var idle []net.Conn
	for range 6 {
		idle = append(idle, all.rawConn(addrA))
	}
	resp, body = ask(t, all.rawConn(addrB), "/api/games")
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(body, server.CodeServerBusy) {
		t.Fatalf("a connection over the cap in all: %d %s", resp.StatusCode, body)
	}
	retryAfterOf(t, resp.Header)
	for _, path := range []string{"/healthz", "/metrics"} {
		if resp, body := ask(t, all.rawConn(addrB), path); resp.StatusCode != http.StatusOK {
			t.Fatalf("%s at the cap in all: %d %.100s", path, resp.StatusCode, body)
		}
	}
	for _, c := range idle {
		c.Close()
	}
	b := all.clientFrom(addrB)
	waitFor(t, "the places of the closed connections", func() bool {
		return b.Do(context.Background(), "GET", "/api/games", "", nil, nil) == nil
	})
}

// A body trickled a byte at a time is cut off at ReadTimeout (408), a header
// trickled likewise at ReadHeaderTimeout, and an idle keep-alive connection
// is closed at IdleTimeout. (Issue 19, finding 4.)
func TestSlowClientsAreCutOff(t *testing.T) {
	e := newEnv(t, matchtest.Games(), func(c *server.Config) {
		c.ReadTimeout, c.ReadHeaderTimeout, c.IdleTimeout = 500*time.Millisecond, 500*time.Millisecond, 500*time.Millisecond
	})
	// trickle sends b a byte every 50 ms until the server ends the
	// connection, and says how long that took, or that it took it all.
	trickle := func(c net.Conn, b string) (time.Duration, bool) {
		start := time.Now()
		for i := range len(b) {
			c.SetWriteDeadline(time.Now().Add(5 * time.Second))
			if _, err := c.Write([]byte{b[i]}); err != nil {
				return time.Since(start), false
			}
			time.Sleep(50 * time.Millisecond)
		}
		return time.Since(start), true
	}
	t.Run("body", func(t *testing.T) {
		body := `{"game":"testcards","seats":[` + strings.Repeat(`{},`, 100) + `{}]}`
		c := e.rawConn(addrA)
		head := fmt.Sprintf("POST /api/matches HTTP/1.1\r\nHost: sortie\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n", len(body))
		if _, err := io.WriteString(c, head); err != nil {
			t.Fatal(err)
		}
		go trickle(c, body)
		resp, msg := answerOf(t, c, nil)
		if resp.StatusCode != http.StatusRequestTimeout || !strings.Contains(msg, server.CodeTimeout) {
			t.Fatalf("a trickled body: %d %s", resp.StatusCode, msg)
		}
	})
	t.Run("header", func(t *testing.T) {
		c := e.rawConn(addrA)
		if d, all := trickle(c, "GET /healthz HTTP/1.1\r\nHost: sortie\r\nX-Pad: "+strings.Repeat("x", 400)+"\r\n\r\n"); all || d > 10*time.Second {
			t.Fatalf("a trickled header was cut off only after %v (or not at all: %v)", d, all)
		}
	})
	t.Run("idle", func(t *testing.T) {
		c := e.rawConn(addrA)
		req, _ := http.NewRequest("GET", "/healthz", nil)
		if _, err := io.WriteString(c, "GET /healthz HTTP/1.1\r\nHost: sortie\r\n\r\n"); err != nil {
			t.Fatal(err)
		}
		br := bufio.NewReader(c)
		c.SetReadDeadline(time.Now().Add(20 * time.Second))
		resp, err := http.ReadResponse(br, req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if _, err := br.ReadByte(); err != io.EOF {
			t.Fatalf("an idle keep-alive connection was not closed: %v", err)
		}
	})
}

// A match socket lives on past every HTTP timeout: net/http hands it over
// without deadlines, and it keeps getting pings and playing.
func TestSocketOutlivesHTTPTimeouts(t *testing.T) {
	const d = 200 * time.Millisecond
	e := newEnv(t, matchtest.Games(), func(c *server.Config) {
		c.ReadTimeout, c.ReadHeaderTimeout, c.IdleTimeout, c.HTTPWriteTimeout, c.PingEvery = d, d, d, d, d/4
	})
	cm := e.newMatch(match.CreateRequest{Game: "testcards", Seats: []match.SeatRequest{{}, {Kind: match.Bot}},
		Options: map[string]string{"hand": "3"}}, true)
	p := e.dial(cm.Match.ID, cm.Seats[0].Token, 0)
	defer p.close()
	pings := 0
	start := time.Now()
	p.expect(t, "pings past every timeout", func(m *match.Message) bool {
		if m.Type == match.TypePing {
			pings++
		}
		return pings >= 5 && time.Since(start) > 3*d
	})
	last, err := p.play(context.Background(), newRand(4), playOptions{})
	if err != nil || last.Status != store.Finished {
		t.Fatalf("the socket could not play after the timeouts: %v", err)
	}
}

// A message over the limit is answered (too_large) and its socket closed
// (1009) as soon as its frame's header says so: its payload is never read,
// so a client sending huge messages costs the server a header each, and
// the match is untouched. (Issue 29, finding 5: oversized messages were
// read to their end, 1.5 GB from one address in 5 s.)
func TestOversizedMessages(t *testing.T) {
	big := []byte(`{"seq":0,"action":{"type":"pass","pad":"` + strings.Repeat("x", 20<<10) + `"}}`)
	ctx := context.Background()
	t.Run("at its header", func(t *testing.T) {
		e := newEnv(t, matchtest.Games(), nil)
		id := e.newMatch(match.CreateRequest{Game: "testcards", Players: 2}, true).Match.ID
		s := dialRaw(t, e, id)
		start := time.Now()
		s.sendHeader(ws.OpText, 100<<20) // and nothing of its 100 MB
		s.refusal(server.CodeTooLarge)
		if code := s.closed(); code != ws.StatusMessageTooBig {
			t.Fatalf("close %d, want %d", code, ws.StatusMessageTooBig)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Fatalf("the socket was closed %v after the header: the server waited for the payload", d)
		}
	})
	t.Run("a player's", func(t *testing.T) {
		e := newEnv(t, matchtest.Games(), nil)
		cm := e.newMatch(match.CreateRequest{Game: "testcards", Players: 2}, true)
		p := e.dial(cm.Match.ID, cm.Seats[0].Token, 0)
		defer p.close()
		before := e.stored(t, cm.Match.ID)
		if err := p.conn.SendRaw(ctx, big); err != nil {
			t.Fatal(err)
		}
		rctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		tooLarge := 0
		for {
			m, err := p.recv(rctx)
			if err != nil {
				if client.CloseStatus(err) != int(server.CloseOversized) {
					t.Fatalf("after an oversized message: %v, want close %d", err, server.CloseOversized)
				}
				break
			}
			if m.Type == match.TypeError && m.Error.Code == server.CodeTooLarge {
				tooLarge++
			}
		}
		if tooLarge != 1 {
			t.Errorf("%d too_large answers before the close, want one", tooLarge)
		}
		if after := e.stored(t, cm.Match.ID); after != before {
			t.Fatal("an oversized message changed the match")
		}
	})
}

// Every answer carries the headers a public site's pages need.
func TestSecurityHeaders(t *testing.T) {
	e := newEnv(t, matchtest.Games(), nil)
	for _, path := range []string{"/", "/api/games", "/api/teapot"} {
		resp, err := http.Get(e.hs.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		h := resp.Header
		csp := h.Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'self'", "script-src 'self'", "frame-ancestors 'none'", "object-src 'none'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("%s: the content policy %q lacks %s", path, csp, want)
			}
		}
		if strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") {
			t.Errorf("%s: the content policy allows inline or evaluated code: %q", path, csp)
		}
		for k, v := range map[string]string{"X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY", "Referrer-Policy": "no-referrer"} {
			if h.Get(k) != v {
				t.Errorf("%s: %s is %q, want %q", path, k, h.Get(k), v)
			}
		}
	}
}
