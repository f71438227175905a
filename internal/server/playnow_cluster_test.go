package server_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sortie/internal/mailtest"
	"sortie/internal/server"
	"sortie/internal/server/client"
)

// On several nodes, one matchmaker seats the players, and its node's death
// loses nobody who waits: Ana presses Play now through the node that holds
// the matchmaker's lock, that node is killed (SIGKILL) while she waits, and
// Bo, pressing Play now through another node, meets her at one table
// seated by the node that took the lock over. (Issue 32, item 9.)
func TestClusterPlayNowMatchmakerKilled(t *testing.T) {
	mail, err := mailtest.Start(false)
	if err != nil {
		t.Fatal(err)
	}
	defer mail.Close()
	certFile := filepath.Join(t.TempDir(), "mail.pem")
	if err := os.WriteFile(certFile, mail.CertPEM(), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SSL_CERT_FILE", certFile)
	c := newCluster(t, 3)
	public := fmt.Sprintf("http://localhost:%d", c.nodes[0].port)
	c.args = append(c.args, "--public-url", public, "--smtp", mail.URL())
	for i := range c.nodes {
		c.kill(i)
		c.start(i)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	// browser returns a client of node i with the cookies of jar.
	browser := func(jar http.CookieJar, i int) *client.Client {
		cl := client.New(strings.Replace(c.nodes[i].url, "127.0.0.1", "localhost", 1))
		cl.HTTP = &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		return cl
	}
	signIn := func(email string) http.CookieJar {
		jar, _ := cookiejar.New(nil)
		if err := browser(jar, 0).Do(ctx, "POST", "/api/auth/email", "", map[string]string{"email": email}, nil); err != nil {
			t.Fatal(err)
		}
		m, err := mail.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := browser(jar, 0).HTTP.Get(m.Link())
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return jar
	}
	ana, bo := signIn("ana@example.org"), signIn("bo@example.org")

	// Who holds the matchmaker's lock (a node takes it at its first wave).
	holder := -1
	for deadline := time.Now().Add(30 * time.Second); holder < 0; {
		var name string
		if err := c.dbQuery(`SELECT node FROM locks WHERE name = 'matchmaker' AND expires > now()`, nil, &name); err == nil {
			for i, nd := range c.nodes {
				if nd.name == name {
					holder = i
				}
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("no node took the matchmaker's lock")
		}
		time.Sleep(100 * time.Millisecond)
	}
	other := (holder + 1) % len(c.nodes)
	ask := map[string]any{"game": "plandesecours", "players": 2, "rated": true, "bot_fill_after_ms": 600000}
	var ta, tb server.TicketOut
	if err := browser(ana, holder).Do(ctx, "POST", "/api/play", "", ask, &ta); err != nil {
		t.Fatal(err)
	}
	time.Sleep(1500 * time.Millisecond) // a wave or two: Ana waits alone
	c.kill(holder)
	if err := browser(bo, other).Do(ctx, "POST", "/api/play", "", ask, &tb); err != nil {
		t.Fatal(err)
	}
	var a, b server.TicketOut
	for deadline := time.Now().Add(60 * time.Second); a.Status != "matched" || b.Status != "matched"; {
		if err := browser(ana, other).Do(ctx, "GET", "/api/play/"+ta.Ticket, "", nil, &a); err != nil {
			t.Fatal(err)
		}
		if err := browser(bo, other).Do(ctx, "GET", "/api/play/"+tb.Ticket, "", nil, &b); err != nil {
			t.Fatal(err)
		}
		if time.Now().After(deadline) {
			t.Fatalf("once the matchmaker's node died: ana %+v, bo %+v", a, b)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if a.Match == "" || a.Match != b.Match || *a.Seat == *b.Seat {
		t.Fatalf("ana %+v and bo %+v are not at one table", a, b)
	}
	var name string
	if err := c.dbQuery(`SELECT node FROM locks WHERE name = 'matchmaker'`, nil, &name); err != nil || name == c.nodes[holder].name {
		t.Fatalf("the lock is %q's (%v), the dead node was %s", name, err, c.nodes[holder].name)
	}
	// Each opens their seat with the ticket's token, through a node alive.
	for _, o := range []server.TicketOut{a, b} {
		conn, err := client.New(c.nodes[other].url).Dial(ctx, o.Match, o.Token)
		if err != nil {
			t.Fatalf("seat %d's socket with its token: %v", *o.Seat, err)
		}
		conn.Close()
	}
}
