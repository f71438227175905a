package server_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"

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
