package server_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"sortie/internal/mailtest"
	"sortie/internal/match"
	"sortie/internal/notify/pushtest"
	"sortie/internal/server/client"
)

// On several nodes, a notification is sent once, and none is lost, even
// when the node sending it is killed (SIGKILL) after its push reached the
// push service and before it marked the job done: the job's claim runs
// out, another node sends it again, under the same Topic, and the push
// service (which has not delivered the first yet, the device being
// offline) keeps one. The test's push service holds the first post
// unanswered until the sender is dead, so that the kill falls exactly
// there.
func TestClusterNotifyOnceThroughKill(t *testing.T) {
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
	svc := pushtest.Start()
	defer svc.Close()
	c := newCluster(t, 2)
	public := fmt.Sprintf("http://localhost:%d", c.nodes[0].port)
	c.args = append(c.args, "--public-url", public, "--smtp", mail.URL(), "--push-services", svc.Host(),
		"--notify-delay", "300ms", "--notify-claim", "3s")
	for i := range c.nodes {
		c.kill(i)
		c.start(i)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	// Two players, each in a browser of their own, signed in through node 0.
	browserAt := func(jar http.CookieJar) func(i int) *client.Client {
		return func(i int) *client.Client {
			cl := client.New(strings.Replace(c.nodes[i].url, "127.0.0.1", "localhost", 1))
			cl.HTTP = &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
			return cl
		}
	}
	signIn := func(email string) func(i int) *client.Client {
		jar, _ := cookiejar.New(nil)
		at := browserAt(jar)
		if err := at(0).Do(ctx, "POST", "/api/auth/email", "", map[string]string{"email": email}, nil); err != nil {
			t.Fatal(err)
		}
		m, err := mail.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		resp, err := at(0).HTTP.Get(m.Link())
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return at
	}
	ana, bo := signIn("ana@example.org"), signIn("bo@example.org")
	subs := []*pushtest.Subscription{svc.Subscribe(), svc.Subscribe()}
	for i, b := range []func(int) *client.Client{ana, bo} {
		if err := b(1).Do(ctx, "POST", "/api/me/push", "", subs[i].JSON(), nil); err != nil {
			t.Fatal(err)
		}
	}
	held := svc.Hold()
	// A table whose first turn comes at the start, while both are away.
	cm, err := ana(0).Create(ctx, match.CreateRequest{Game: "evades", Players: 2, TakeoverAfterMs: new(int64), MoveLimitMs: new(int64)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ana(0).Join(ctx, cm.Match.ID, cm.Seats[0].Token, ""); err != nil {
		t.Fatal(err)
	}
	if _, err := bo(1).Join(ctx, cm.Match.ID, cm.Seats[1].Token, ""); err != nil {
		t.Fatal(err)
	}
	if err := ana(1).Do(ctx, "POST", "/api/matches/"+cm.Match.ID+"/start", "", nil, nil); err != nil {
		t.Fatal(err)
	}
	var first pushtest.Message
	select {
	case first = <-held:
	case <-ctx.Done():
		t.Fatalf("no push came (refused: %v)", svc.Errors())
	}
	// The node holding the job's claim posted it: kill it now.
	var sender string
	if err := c.dbQuery(`SELECT owner FROM jobs WHERE kind = 'notify' AND status = 'pending' AND owner <> ''`, nil, &sender); err != nil {
		t.Fatalf("which node sends: %v", err)
	}
	k := slices.IndexFunc(c.nodes, func(n *clusterNode) bool { return n.name == sender })
	c.kill(k)
	svc.Release()
	t.Logf("node %s posted the push and was killed before marking it sent", sender)
	// The other node sends it again once the claim runs out, and marks it
	// done.
	deadline := time.Now().Add(time.Minute)
	for {
		var status string
		if err := c.dbQuery(`SELECT status FROM jobs WHERE kind = 'notify' AND key LIKE '%:turn:%'`, nil, &status); err == nil && status == "done" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the notification was never marked sent after the kill (posts: %d)", svc.Posts())
		}
		time.Sleep(100 * time.Millisecond)
	}
	if svc.Posts() < 2 {
		t.Fatalf("%d post: the test did not make the push go twice", svc.Posts())
	}
	sub := subs[slices.IndexFunc(subs, func(s *pushtest.Subscription) bool { return s.ID == first.Sub })]
	got := svc.Deliver(sub)
	if len(got) != 1 {
		t.Fatalf("after the kill, the device was given %d pushes (of %d posts), not one", len(got), svc.Posts())
	}
	if got[0].Title() != first.Title() || got[0].Topic != first.Topic || got[0].Title() != "Your turn: The Escapees" {
		t.Fatalf("the push kept is %q (topic %s), the first was %q (%s)", got[0].Title(), got[0].Topic, first.Title(), first.Topic)
	}
	// Both nodes sign with the one key kept in the store, the one they
	// give browsers.
	var key struct{ Key string }
	if err := ana(1-k).Do(ctx, "GET", "/api/push/key", "", nil, &key); err != nil {
		t.Fatal(err)
	}
	if first.VAPIDKey != key.Key || got[0].VAPIDKey != key.Key {
		t.Fatalf("the nodes signed with %q and %q; browsers subscribe with %q", first.VAPIDKey, got[0].VAPIDKey, key.Key)
	}
	// Nothing more comes.
	time.Sleep(2 * time.Second)
	if got := svc.Deliver(sub); len(got) != 1 {
		t.Fatalf("later, %d pushes", len(got))
	}
	c.start(k)
}
