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

	"sortie/engine"
	"sortie/internal/mailtest"
	"sortie/internal/match"
	"sortie/internal/server/client"
)

// On several nodes, a sign-in holds on every node: a player signs in by a
// link through one node, creates a match and plays their seat, signed in
// and without its token, through another; signing out on one signs them
// out of all. The mail goes through a real SMTP server, over STARTTLS,
// from node processes that trust its certificate as a system one
// (SSL_CERT_FILE). (Issue 31, "a cluster test".)
func TestClusterAccounts(t *testing.T) {
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
	// Behind a load balancer every node has the same public address: here
	// the first node's, on localhost (cookies belong to a host, whatever
	// its port); the nodes start again with it.
	c := newCluster(t, 2)
	public := fmt.Sprintf("http://localhost:%d", c.nodes[0].port)
	c.args = append(c.args, "--public-url", public, "--smtp", mail.URL())
	for i := range c.nodes {
		c.kill(i)
		c.start(i)
	}
	jar, _ := cookiejar.New(nil)
	at := func(i int) *client.Client {
		cl := client.New(strings.Replace(c.nodes[i].url, "127.0.0.1", "localhost", 1))
		cl.HTTP = &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
		return cl
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := at(0).Do(ctx, "POST", "/api/auth/email", "", map[string]string{"email": "ana@example.org"}, nil); err != nil {
		t.Fatal(err)
	}
	m, err := mail.Next(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !m.TLS {
		t.Error("the node sent its mail in clear")
	}
	resp, err := at(0).HTTP.Get(m.Link())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("the link through node 0: %d", resp.StatusCode)
	}
	var me struct{ ID string }
	if err := at(1).Do(ctx, "GET", "/api/me", "", nil, &me); err != nil || me.ID == "" {
		t.Fatalf("node 1 does not know the sign-in made through node 0: %+v %v", me, err)
	}
	// Through node 1: a match against a bot, joined signed in, played
	// without the seat's token.
	cm, err := at(1).Create(ctx, match.CreateRequest{Game: "plandesecours", Players: 2, Seats: []match.SeatRequest{{}, {Kind: match.Bot}}, AutoStart: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := at(1).Join(ctx, cm.Match.ID, cm.Seats[0].Token, "Ana"); err != nil {
		t.Fatal(err)
	}
	conn, err := at(1).DialSeat(ctx, cm.Match.ID, 0)
	if err != nil {
		t.Fatalf("the seat's socket through node 1, signed in: %v", err)
	}
	p := newPlayer(0, conn)
	defer p.close()
	if _, err := p.play(ctx, newRand(31), playOptions{stopAfter: 2}); err != nil {
		t.Fatalf("playing signed in through node 1: %v", err)
	}
	var mine struct {
		Playing []struct {
			Seats []engine.Seat `json:"seats"`
		} `json:"playing"`
	}
	if err := at(0).Do(ctx, "GET", "/api/me/matches", "", nil, &mine); err != nil || len(mine.Playing) != 1 {
		t.Fatalf("My games through node 0: %+v %v", mine, err)
	}
	if err := at(1).Do(ctx, "POST", "/api/auth/signout/everywhere", "", nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := at(0).Do(ctx, "GET", "/api/me", "", nil, nil); apiCode(err) != "signed_out" {
		t.Fatalf("signed out through node 1, node 0 says: %v", err)
	}
}
