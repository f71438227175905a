package server_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	_ "modernc.org/sqlite"

	"sortie/engine"
	"sortie/internal/mailtest"
	"sortie/internal/match"
	"sortie/internal/match/matchtest"
	"sortie/internal/server"
	"sortie/internal/server/client"
	"sortie/internal/store"
)

// The tests here play people who keep an account: signing in by a link sent
// to a real SMTP server run by the test, their matches, friends, data; and
// the security of signing in, each check shown to catch its flaw.

// accountEnv is a server with accounts, and the mail server its links go
// through.
type accountEnv struct {
	*env
	mail *mailtest.Server
}

// newAccountEnv starts a server with accounts, sending mail through a test
// SMTP server (STARTTLS), with cfg's other settings.
func newAccountEnv(t testing.TB, tune func(*server.Config)) *accountEnv {
	t.Helper()
	mail, err := mailtest.Start(false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mail.Close() })
	e := newEnv(t, matchtest.Games(), func(c *server.Config) {
		c.PublicURL, c.SMTP, c.MailTLS = autoPublicURL, mail.URL(), mail.ClientTLS()
		if tune != nil {
			tune(c)
		}
	})
	return &accountEnv{env: e, mail: mail}
}

// browser is one browser: a client with its own cookies, at the server's
// public address (where its cookies belong), from address ip.
type browser struct {
	*client.Client
	jar http.CookieJar
	e   *accountEnv
}

func (e *accountEnv) browser(ip string) *browser {
	jar, _ := cookiejar.New(nil)
	c := client.New(e.public)
	c.HTTP = &http.Client{Jar: jar, Transport: &http.Transport{DialContext: dialerFrom(ip).DialContext},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	e.t.Cleanup(c.HTTP.CloseIdleConnections)
	return &browser{Client: c, jar: jar, e: e}
}

// session returns the browser's session cookie, or "".
func (b *browser) session() string {
	u, _ := url.Parse(b.Base)
	for _, c := range b.jar.Cookies(u) {
		if c.Name == "sortie_session" {
			return c.Value
		}
	}
	return ""
}

// askLink asks for a sign-in link to email and returns the mail's link.
func (b *browser) askLink(email string) (string, error) {
	if err := b.Do(context.Background(), "POST", "/api/auth/email", "", map[string]string{"email": email, "lang": "fr"}, nil); err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	m, err := b.e.mail.Next(ctx)
	if err != nil {
		return "", err
	}
	if len(m.To) != 1 || m.To[0] != strings.ToLower(email) {
		return "", fmt.Errorf("the link went to %v, not %s", m.To, email)
	}
	return m.Link(), nil
}

// open opens a link and returns the answer (never following a redirect).
func (b *browser) open(link string) (*http.Response, error) {
	resp, err := b.HTTP.Get(link)
	if err != nil {
		return nil, err
	}
	resp.Body.Close()
	return resp, nil
}

// signIn signs the browser in by a link sent to email.
func (b *browser) signIn(email string) (*http.Response, error) {
	link, err := b.askLink(email)
	if err != nil {
		return nil, err
	}
	resp, err := b.open(link)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode != http.StatusSeeOther || !strings.Contains(resp.Header.Get("Location"), "signed_in") {
		return resp, fmt.Errorf("the link answered %d %s", resp.StatusCode, resp.Header.Get("Location"))
	}
	return resp, nil
}

// me returns the browser's account.
func (b *browser) me() (server.Me, error) {
	var me server.Me
	err := b.Do(context.Background(), "GET", "/api/me", "", nil, &me)
	return me, err
}

// mustSignIn signs the browser in, and returns its account.
func (b *browser) mustSignIn(t testing.TB, email string) server.Me {
	t.Helper()
	if _, err := b.signIn(email); err != nil {
		t.Fatal(err)
	}
	me, err := b.me()
	if err != nil {
		t.Fatal(err)
	}
	return me
}

// A player signs in with a link sent by e-mail: the link leads to the
// server's public address, signs the browser in (a new account the first
// time, the same one after), works once, and /api/me says who is signed in
// — to that browser only; signing out ends it. (Issue 31, item 2.)
func TestSignInByMail(t *testing.T) {
	e := newAccountEnv(t, nil)
	ana := e.browser(addrA)
	if _, err := ana.me(); apiCode(err) != "signed_out" {
		t.Fatalf("/api/me signed out: %v, want 401 signed_out", err)
	}
	link, err := ana.askLink("Ana.Martin@Example.org")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(link, e.public+"/auth/email?") || !strings.Contains(link, "token=") {
		t.Fatalf("the link is %q, not on %s", link, e.public)
	}
	resp, err := ana.open(link)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/?signed_in=new" {
		t.Fatalf("a first link: %d → %q", resp.StatusCode, resp.Header.Get("Location"))
	}
	me, err := ana.me()
	if err != nil || me.Email != "ana.martin@example.org" || me.Name != "Ana" || me.Lang != "fr" {
		t.Fatalf("signed in as %+v, %v", me, err)
	}
	// The same link again signs nobody in.
	other := e.browser(addrB)
	if resp, err := other.open(link); err != nil || resp.Header.Get("Location") != "/?sign_in=spent" {
		t.Fatalf("the link used twice: %v %v", resp.Header.Get("Location"), err)
	}
	if _, err := other.me(); apiCode(err) != "signed_out" {
		t.Fatalf("a spent link signed a browser in: %v", err)
	}
	// Another link to the same address: the same account.
	again := e.browser(addrB)
	if me2 := again.mustSignIn(t, "ana.martin@example.org"); me2.ID != me.ID {
		t.Fatalf("a second sign-in made another account: %s, %s", me2.ID, me.ID)
	}
	if err := ana.Do(context.Background(), "POST", "/api/auth/signout", "", nil, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := ana.me(); apiCode(err) != "signed_out" {
		t.Fatalf("after signing out: %v", err)
	}
	if _, err := again.me(); err != nil {
		t.Fatalf("signing out of one browser signed another out: %v", err)
	}
	for _, bad := range []string{"", "ana", "ana@x"} {
		if err := ana.Do(context.Background(), "POST", "/api/auth/email", "", map[string]string{"email": bad}, nil); apiCode(err) != "bad_email" {
			t.Errorf("a link for %q: %v", bad, err)
		}
	}
}

// Each security promise of signing in is a check; each is shown to catch
// the flaw it guards against, planted in a server (or its store) on
// purpose. (Issue 31, "security tests for each point of item 2".)
var securityChecks = []struct {
	name, flaw string // flaw: a server flaw (server.PlantFlaw), or store:<name> for a store's
	check      func(t *testing.T, e *accountEnv) error
}{
	{"cookie flags", "loose-cookie", checkCookieFlags},
	{"a new session id at sign-in", "keep-token", checkNewSessionID},
	{"a link works once", "store:reusable", checkLinkOnce},
	{"a link expires in 15 minutes", "store:ageless", checkLinkExpires},
	{"the same answer for any address", "enumerate", checkNoEnumeration},
	{"links limited per address", "no-link-limit", checkLinksPerAddress},
	{"sign-ins limited per client", "no-sign-in-rate", checkSignInsPerClient},
	{"no writes from other sites", "no-origin-check", checkCrossSite},
	{"sign out everywhere", "store:forgetful", checkSignOutEverywhere},
}

func TestSignInSecurity(t *testing.T) {
	for _, c := range securityChecks {
		t.Run(c.name, func(t *testing.T) {
			if err := c.check(t, newAccountEnv(t, nil)); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestSecurityChecksCatchFlaws(t *testing.T) {
	for _, c := range securityChecks {
		t.Run(c.name, func(t *testing.T) {
			e := newAccountEnv(t, func(cfg *server.Config) {
				if name, ok := strings.CutPrefix(c.flaw, "store:"); ok {
					cfg.Store = flawedStore(t, name)
				} else {
					server.PlantFlaw(cfg, c.flaw)
				}
			})
			err := c.check(t, e)
			if err == nil {
				t.Fatalf("the check passed a server with the flaw %q", c.flaw)
			}
			t.Logf("caught: %v", err)
		})
	}
}

// The session cookie is HttpOnly and SameSite=Lax (and Secure under an
// https public address).
func checkCookieFlags(t *testing.T, e *accountEnv) error {
	resp, err := e.browser(addrA).signIn("cookie@example.org")
	if err != nil {
		return err
	}
	for _, c := range resp.Cookies() {
		if c.Name == "sortie_session" {
			if !c.HttpOnly || c.SameSite != http.SameSiteLaxMode || c.Path != "/" {
				return fmt.Errorf("the session cookie: HttpOnly %v, SameSite %v, Path %q", c.HttpOnly, c.SameSite, c.Path)
			}
			return nil
		}
	}
	return errors.New("the sign-in set no session cookie")
}

// A session known before signing in (one an attacker planted in the
// browser, or saw) is not the one signed in: the sign-in gets a new id.
func checkNewSessionID(t *testing.T, e *accountEnv) error {
	b := e.browser(addrA)
	// Beginning a passkey sign-in makes a session of a browser signed out.
	if err := b.Do(context.Background(), "POST", "/api/auth/passkey/signin", "", nil, nil); err != nil {
		return err
	}
	before := b.session()
	if before == "" {
		return errors.New("no session before signing in")
	}
	if _, err := b.signIn("fixed@example.org"); err != nil {
		return err
	}
	if after := b.session(); after == before {
		return errors.New("the session kept its id when it signed in")
	}
	planted := e.browser(addrB)
	u, _ := url.Parse(e.public)
	planted.jar.SetCookies(u, []*http.Cookie{{Name: "sortie_session", Value: before}})
	if _, err := planted.me(); apiCode(err) != "signed_out" {
		return fmt.Errorf("the id from before the sign-in is signed in: %v", err)
	}
	return nil
}

// A link signs in once.
func checkLinkOnce(t *testing.T, e *accountEnv) error {
	b := e.browser(addrA)
	link, err := b.askLink("once@example.org")
	if err != nil {
		return err
	}
	for i, want := range []string{"/?signed_in=new", "/?sign_in=spent"} {
		resp, err := e.browser(addrB).open(link)
		if err != nil {
			return err
		}
		if got := resp.Header.Get("Location"); got != want {
			return fmt.Errorf("the link opened a %s time: %s, want %s", []string{"first", "second"}[i], got, want)
		}
	}
	return nil
}

// A link older than 15 minutes signs nobody in.
func checkLinkExpires(t *testing.T, e *accountEnv) error {
	b := e.browser(addrA)
	link, err := b.askLink("late@example.org")
	if err != nil {
		return err
	}
	// Sixteen minutes pass, for the store.
	path := e.cfg.DataPath
	if p, ok := e.cfg.Store.(interface{ Path() string }); ok {
		path = p.Path()
	}
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		return err
	}
	defer db.Close()
	if _, err := db.Exec(`UPDATE sign_in_tokens SET expires = expires - ?`, (16 * time.Minute).Milliseconds()); err != nil {
		return err
	}
	resp, err := b.open(link)
	if err != nil {
		return err
	}
	if got := resp.Header.Get("Location"); got != "/?sign_in=spent" {
		return fmt.Errorf("a link 16 minutes old: %s", got)
	}
	return nil
}

// Asking a link answers the same for an address with an account and one
// without.
func checkNoEnumeration(t *testing.T, e *accountEnv) error {
	if _, err := e.browser(addrA).signIn("known@example.org"); err != nil {
		return fmt.Errorf("a first sign-in: %v", err)
	}
	answer := func(email string) (string, error) {
		r, _ := http.NewRequest("POST", e.public+"/api/auth/email", strings.NewReader(`{"email":"`+email+`"}`))
		r.Header.Set("Content-Type", "application/json")
		resp, err := e.browser(addrB).HTTP.Do(r)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		b := make([]byte, 512)
		n, _ := resp.Body.Read(b)
		return fmt.Sprint(resp.StatusCode, " ", string(b[:n])), nil
	}
	known, err := answer("known@example.org")
	if err != nil {
		return err
	}
	unknown, err := answer("nobody@example.org")
	if err != nil {
		return err
	}
	if known != unknown {
		return fmt.Errorf("a known address is answered %q, an unknown one %q", known, unknown)
	}
	return nil
}

// Three links at once to one address, no more.
func checkLinksPerAddress(t *testing.T, e *accountEnv) error {
	for i := range 4 {
		b := e.browser(fmt.Sprintf("127.0.0.%d", 10+i)) // from other clients each
		err := b.Do(context.Background(), "POST", "/api/auth/email", "", map[string]string{"email": "many@example.org"}, nil)
		switch {
		case i < 3 && err != nil:
			return fmt.Errorf("link %d: %v", i+1, err)
		case i == 3 && apiCode(err) != "too_many_links":
			return fmt.Errorf("a fourth link at once to one address: %v", err)
		}
	}
	return nil
}

// Ten requests to sign in at once from a client, no more.
func checkSignInsPerClient(t *testing.T, e *accountEnv) error {
	b := e.browser(addrA)
	for i := range 11 {
		err := b.Do(context.Background(), "POST", "/api/auth/passkey/signin", "", nil, nil)
		switch {
		case i < 10 && err != nil:
			return fmt.Errorf("request %d: %v", i+1, err)
		case i == 10 && apiCode(err) != server.CodeRateLimited:
			return fmt.Errorf("an eleventh request to sign in at once: %v", err)
		}
	}
	return nil
}

// Another site's page cannot write with the player's cookie: a request
// that says it comes from elsewhere is refused, changing nothing.
func checkCrossSite(t *testing.T, e *accountEnv) error {
	b := e.browser(addrA)
	if _, err := b.signIn("victim@example.org"); err != nil {
		return err
	}
	send := func(origin, site string) (int, error) {
		r, _ := http.NewRequest("PATCH", e.public+"/api/me", strings.NewReader(`{"name":"Pwned"}`))
		r.Header.Set("Content-Type", "application/json")
		r.Header.Set("Origin", origin)
		r.Header.Set("Sec-Fetch-Site", site)
		resp, err := b.HTTP.Do(r)
		if err != nil {
			return 0, err
		}
		resp.Body.Close()
		return resp.StatusCode, nil
	}
	if status, err := send("https://evil.example", "cross-site"); err != nil || status != http.StatusForbidden {
		return fmt.Errorf("a write from another site: %d %v", status, err)
	}
	if me, err := b.me(); err != nil || me.Name == "Pwned" {
		return fmt.Errorf("a write from another site changed the account: %+v %v", me, err)
	}
	if status, err := send(e.public, "same-origin"); err != nil || status != http.StatusOK {
		return fmt.Errorf("a write from the server's own page: %d %v", status, err)
	}
	return nil
}

// Signing out everywhere ends every session of the account.
func checkSignOutEverywhere(t *testing.T, e *accountEnv) error {
	one, two := e.browser(addrA), e.browser(addrB)
	for _, b := range []*browser{one, two} {
		if _, err := b.signIn("twice@example.org"); err != nil {
			return err
		}
	}
	if err := one.Do(context.Background(), "POST", "/api/auth/signout/everywhere", "", nil, nil); err != nil {
		return err
	}
	for i, b := range []*browser{one, two} {
		if _, err := b.me(); apiCode(err) != "signed_out" {
			return fmt.Errorf("browser %d is still signed in: %v", i+1, err)
		}
	}
	return nil
}

// flawedStore is a real SQLite store with one flaw of signing in.
func flawedStore(t *testing.T, flaw string) store.Store {
	st, err := store.OpenSQLite(filepath.Join(t.TempDir(), "flawed.db"), store.SQLiteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	switch flaw {
	case "reusable":
		return reusable{st}
	case "ageless":
		return ageless{st}
	case "forgetful":
		return forgetfulSessions{st}
	}
	t.Fatalf("no store flaw %q", flaw)
	return nil
}

// reusable takes a sign-in token without deleting it.
type reusable struct{ *store.SQLite }

func (r reusable) TakeSignInToken(ctx context.Context, hash []byte, now time.Time) (string, error) {
	email, err := r.SQLite.TakeSignInToken(ctx, hash, now)
	if err == nil {
		_ = r.SQLite.PutSignInToken(ctx, hash, email, now.Add(time.Hour))
	}
	return email, err
}

// ageless takes a sign-in token whatever its age.
type ageless struct{ *store.SQLite }

func (a ageless) TakeSignInToken(ctx context.Context, hash []byte, _ time.Time) (string, error) {
	return a.SQLite.TakeSignInToken(ctx, hash, time.Time{})
}

// forgetfulSessions deletes no session of an account.
type forgetfulSessions struct{ *store.SQLite }

func (forgetfulSessions) DeleteSessionsOf(context.Context, string) (int, error) { return 0, nil }

// socketAs opens the socket of the seat the browser's account holds in
// match id, with its cookie and no token.
func (b *browser) socketAs(t *testing.T, id string, seat engine.Seat) *player {
	t.Helper()
	c := client.New(b.Base)
	c.HTTP = &http.Client{Jar: b.jar, Transport: b.HTTP.Transport}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := c.DialSeat(ctx, id, seat)
	if err != nil {
		t.Fatalf("the socket of seat %d, signed in: %v", seat, err)
	}
	return newPlayer(seat, conn)
}

// Signed in, a player's matches are theirs: one they create they may start
// without its host token, a seat they join they may play from any browser
// signed in to them, without its token; "My games" lists their matches,
// those where it is their turn first; a guest's seats become theirs when
// they save their progress; their profile counts their finished matches
// and never shows their address. (Issue 31, items 1, 3 and 4.)
func TestMatchesOfAnAccount(t *testing.T) {
	e := newAccountEnv(t, func(c *server.Config) { c.ClockSpeed = 20 })
	ctx := context.Background()
	ana := e.browser(addrA)
	me := ana.mustSignIn(t, "ana@example.org")
	cm, err := ana.Create(ctx, match.CreateRequest{Game: "testcards", Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	// Created signed in, its host seat (the first human one) is hers.
	if cm.Match.Seats[0].Account != me.ID || cm.Match.Seats[1].Account != "" {
		t.Fatalf("the seats of a match created signed in are held by %q and %q", cm.Match.Seats[0].Account, cm.Match.Seats[1].Account)
	}
	// Joining without a name, she sits under her account's.
	if j, err := ana.Join(ctx, cm.Match.ID, cm.Seats[0].Token, ""); err != nil || j.Seats[0].Name != me.Name || me.Name == "" {
		t.Fatalf("joined as %q (%v), not under the account's name %q", j.Seats[0].Name, err, me.Name)
	}
	// A guest, in another browser, sits in the other seat.
	guest := e.browser(addrB)
	// The match's summary tells its creating account, and nobody else, that
	// it hosts it: her page offers to start it from any device.
	for _, c := range []struct {
		b    *browser
		want bool
	}{{ana, true}, {guest, false}} {
		var sum struct {
			YouHost bool `json:"you_host"`
		}
		if err := c.b.Do(ctx, "GET", "/api/matches/"+cm.Match.ID, "", nil, &sum); err != nil || sum.YouHost != c.want {
			t.Fatalf("you_host is %v (%v) for a browser that hosts: %v", sum.YouHost, err, c.want)
		}
	}
	if _, err := guest.Join(ctx, cm.Match.ID, cm.Seats[1].Token, "Bo"); err != nil {
		t.Fatal(err)
	}
	if err := ana.Do(ctx, "POST", "/api/matches/"+cm.Match.ID+"/start", "", nil, nil); err != nil {
		t.Fatalf("the creating account starts its match without the host token: %v", err)
	}
	// Another browser of Ana's plays her seat with no token.
	phone := e.browser(addrA)
	phone.mustSignIn(t, "ana@example.org")
	p0 := phone.socketAs(t, cm.Match.ID, 0)
	defer p0.close()
	first := p0.expect(t, "the seat's state", func(m *match.Message) bool { return m.Type == match.TypeState })
	if first.Seat == nil || *first.Seat != 0 {
		t.Fatalf("the signed-in socket sees %v, not seat 0", first.Seat)
	}
	// Without the account, the seat is refused.
	if _, err := client.New(e.public).DialSeat(ctx, cm.Match.ID, 0); apiCode(err) != server.CodeNoToken {
		t.Fatalf("a seat without token nor account: %v", err)
	}
	var mine struct {
		Playing []server.MyMatch `json:"playing"`
	}
	if err := ana.Do(ctx, "GET", "/api/me/matches", "", nil, &mine); err != nil {
		t.Fatal(err)
	}
	if len(mine.Playing) != 1 || mine.Playing[0].Match.ID != cm.Match.ID || len(mine.Playing[0].Seats) != 1 {
		t.Fatalf("My games: %+v", mine.Playing)
	}
	if mine.Playing[0].YourTurn != (len(first.Legal) > 0) {
		t.Fatalf("My games says your_turn %v, the seat may act: %v", mine.Playing[0].YourTurn, len(first.Legal) > 0)
	}
	// The guest plays on, signs up, and saves their progress.
	p1 := e.dial(cm.Match.ID, cm.Seats[1].Token, 1)
	defer p1.close()
	done := make(chan error, 2)
	for _, p := range []*player{p0, p1} {
		go func() { _, err := p.play(ctx, newRand(uint64(p.seat)), playOptions{}); done <- err }()
	}
	for range 2 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	bo := guest.mustSignIn(t, "bo@example.org")
	var claimed struct {
		Seats []struct {
			Match string       `json:"match"`
			Seat  *engine.Seat `json:"seat"`
		} `json:"seats"`
	}
	body := map[string]any{"seats": []map[string]string{{"match": cm.Match.ID, "token": cm.Seats[1].Token}, {"match": cm.Match.ID, "token": "nope"}}}
	if err := guest.Do(ctx, "POST", "/api/me/seats", "", body, &claimed); err != nil {
		t.Fatal(err)
	}
	if len(claimed.Seats) != 2 || claimed.Seats[0].Seat == nil || *claimed.Seats[0].Seat != 1 || claimed.Seats[1].Seat != nil {
		t.Fatalf("save my progress: %+v", claimed.Seats)
	}
	// Ana cannot take Bo's seat with its old token.
	var stolen struct {
		Seats []struct {
			Seat  *engine.Seat `json:"seat"`
			Error *match.Error `json:"error"`
		} `json:"seats"`
	}
	if err := ana.Do(ctx, "POST", "/api/me/seats", "", map[string]any{"seats": []map[string]string{{"match": cm.Match.ID, "token": cm.Seats[1].Token}}}, &stolen); err != nil ||
		stolen.Seats[0].Seat != nil || stolen.Seats[0].Error == nil || stolen.Seats[0].Error.Code != match.CodeHeld {
		t.Fatalf("another account's seat was claimed: %+v %v", stolen.Seats, err)
	}
	for _, who := range []server.Me{me, bo} {
		var p server.Profile
		if err := e.browser(addrB).Do(ctx, "GET", "/api/players/"+who.ID, "", nil, &p); err != nil {
			t.Fatal(err)
		}
		st := p.Stats["testcards"]
		if p.Name != who.Name || st.Matches != 1 || len(st.By) != 1 || st.By[0].Players != 2 || len(p.Recent) != 1 {
			t.Fatalf("%s's profile: %+v", who.Name, p)
		}
		if raw, _ := json.Marshal(p); strings.Contains(string(raw), "@example.org") {
			t.Fatalf("a profile shows an address: %s", raw)
		}
	}
	if err := e.browser(addrB).Do(ctx, "GET", "/api/players/nosuchplayer", "", nil, nil); apiCode(err) != "unknown_player" {
		t.Fatalf("an unknown player: %v", err)
	}
}

// Friends: following both ways makes friends; a player blocked by a host
// cannot sit at their table, nor invite them; a host invites a friend
// straight to a seat, which the friend takes from "My games"; a rematch
// keeps the players' seats and invites them. (Issue 31, item 5.)
func TestFriendsAndRematch(t *testing.T) {
	e := newAccountEnv(t, func(c *server.Config) { c.ClockSpeed = 20 })
	ctx := context.Background()
	ana, bo, cy := e.browser(addrA), e.browser(addrB), e.browser("127.0.0.3")
	anaMe, boMe, cyMe := ana.mustSignIn(t, "ana@example.org"), bo.mustSignIn(t, "bo@example.org"), cy.mustSignIn(t, "cy@example.org")
	for _, f := range []struct {
		b  *browser
		to string
	}{{ana, boMe.ID}, {bo, anaMe.ID}} {
		if err := f.b.Do(ctx, "PUT", "/api/me/follows/"+f.to, "", nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	var rel struct{ Friends []server.PlayerRef }
	if err := ana.Do(ctx, "GET", "/api/me/relations", "", nil, &rel); err != nil || len(rel.Friends) != 1 || rel.Friends[0].ID != boMe.ID {
		t.Fatalf("Ana's friends: %+v %v", rel, err)
	}
	// Ana blocks Cy: Cy cannot sit at her table.
	if err := ana.Do(ctx, "PUT", "/api/me/blocks/"+cyMe.ID, "", nil, nil); err != nil {
		t.Fatal(err)
	}
	cm, err := ana.Create(ctx, match.CreateRequest{Game: "testcards", Players: 3})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cy.Join(ctx, cm.Match.ID, cm.Seats[2].Token, "Cy"); apiCode(err) != server.CodeBlocked {
		t.Fatalf("a blocked player joined: %v", err)
	}
	if err := cy.Do(ctx, "POST", "/api/matches/"+cm.Match.ID+"/invite", "", map[string]any{"seat": 2, "player": anaMe.ID}, nil); apiCode(err) != match.CodeBadToken {
		t.Fatalf("a player who is not the host invited: %v", err)
	}
	// Cy blocks Ana: her invitation is answered as made, and dropped.
	if err := cy.Do(ctx, "PUT", "/api/me/blocks/"+anaMe.ID, "", nil, nil); err != nil {
		t.Fatal(err)
	}
	if err := ana.Do(ctx, "POST", "/api/matches/"+cm.Match.ID+"/invite", "", map[string]any{"seat": 2, "player": cyMe.ID}, nil); err != nil {
		t.Fatalf("an invitation to a player who blocks the host: %v, want it answered as made", err)
	}
	var cys struct {
		Invited []server.Invited `json:"invited"`
	}
	if err := cy.Do(ctx, "GET", "/api/me/matches", "", nil, &cys); err != nil || len(cys.Invited) != 0 {
		t.Fatalf("an invitation reached a player who blocks its sender: %+v %v", cys.Invited, err)
	}
	// Ana invites Bo to seat 1; Bo takes it from My games.
	if err := ana.Do(ctx, "POST", "/api/matches/"+cm.Match.ID+"/invite", "", map[string]any{"seat": 1, "player": boMe.ID}, nil); err != nil {
		t.Fatal(err)
	}
	var mine struct {
		Invited []server.Invited `json:"invited"`
	}
	if err := bo.Do(ctx, "GET", "/api/me/matches", "", nil, &mine); err != nil || len(mine.Invited) != 1 || mine.Invited[0].From.ID != anaMe.ID || mine.Invited[0].Seat != 1 {
		t.Fatalf("Bo's invitations: %+v %v", mine.Invited, err)
	}
	if err := bo.Do(ctx, "POST", "/api/matches/"+cm.Match.ID+"/seats/1/take", "", nil, nil); err != nil {
		t.Fatalf("Bo takes the seat he was invited to: %v", err)
	}
	if err := cy.Do(ctx, "POST", "/api/matches/"+cm.Match.ID+"/seats/1/take", "", nil, nil); apiCode(err) != match.CodeHeld {
		t.Fatalf("another player took an invited seat: %v", err)
	}
	// Ana joins, a guest takes seat 2, they play to the end.
	if _, err := ana.Join(ctx, cm.Match.ID, cm.Seats[0].Token, "Ana"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.browser("127.0.0.4").Join(ctx, cm.Match.ID, cm.Seats[2].Token, "Guest"); err != nil {
		t.Fatal(err)
	}
	if err := ana.Do(ctx, "POST", "/api/matches/"+cm.Match.ID+"/start", "", nil, nil); err != nil {
		t.Fatal(err)
	}
	ps := []*player{ana.socketAs(t, cm.Match.ID, 0), bo.socketAs(t, cm.Match.ID, 1), e.dial(cm.Match.ID, cm.Seats[2].Token, 2)}
	done := make(chan error, len(ps))
	for _, p := range ps {
		go func() { _, err := p.play(ctx, newRand(uint64(p.seat)+7), playOptions{}); done <- err }()
	}
	for range ps {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	closeAll(ps)
	// A rematch: Ana in her seat, Bo's seat kept for him and him invited,
	// the guest's seat with an invite link.
	var re server.CreatedMatch
	if err := ana.Do(ctx, "POST", "/api/matches/"+cm.Match.ID+"/rematch", "", nil, &re); err != nil {
		t.Fatal(err)
	}
	if re.Match.Game != "testcards" || re.Match.Players != 3 || re.Match.Seats[0].Account != anaMe.ID || !re.Match.Seats[0].Joined ||
		re.Match.Seats[1].Account != boMe.ID || re.Match.Seats[2].Account != "" || re.Seats[2].Invite == "" {
		t.Fatalf("the rematch: %+v", re)
	}
	if err := bo.Do(ctx, "GET", "/api/me/matches", "", nil, &mine); err != nil || len(mine.Invited) != 1 || mine.Invited[0].Match.ID != re.Match.ID {
		t.Fatalf("Bo's invitation to the rematch: %+v %v", mine.Invited, err)
	}
	if err := cy.Do(ctx, "POST", "/api/matches/"+cm.Match.ID+"/rematch", "", nil, nil); apiCode(err) != match.CodeBadToken {
		t.Fatalf("a rematch asked by somebody who did not play: %v", err)
	}
	// Bo asks for a rematch too: he sits at Ana's, in his seat.
	var joined struct {
		Seat  int           `json:"seat"`
		Match match.Summary `json:"match"`
	}
	if err := bo.Do(ctx, "POST", "/api/matches/"+cm.Match.ID+"/rematch", "", nil, &joined); err != nil {
		t.Fatal(err)
	}
	if joined.Match.ID != re.Match.ID || joined.Seat != 1 || !joined.Match.Seats[1].Joined {
		t.Fatalf("Bo's rematch once Ana asked: seat %d of %s (Ana's is %s), joined %v", joined.Seat, joined.Match.ID, re.Match.ID, joined.Match.Seats[1].Joined)
	}
	if err := bo.Do(ctx, "GET", "/api/me/matches", "", nil, &mine); err != nil || len(mine.Invited) != 0 {
		t.Fatalf("Bo is still invited once seated: %+v %v", mine.Invited, err)
	}
}

// Two players pressing "rematch" at the same moment get one rematch: each
// sits at it in their own seat, and the table the slower one made is
// closed. (Issue 31, item 5.)
func TestRematchAskedAtOnce(t *testing.T) {
	e := newAccountEnv(t, func(c *server.Config) { c.ClockSpeed = 20 })
	ctx := context.Background()
	ana, bo := e.browser(addrA), e.browser(addrB)
	ana.mustSignIn(t, "ana@example.org")
	bo.mustSignIn(t, "bo@example.org")
	for round := range 3 {
		cm, err := ana.Create(ctx, match.CreateRequest{Game: "testcards", Players: 2, AutoStart: true})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := ana.Join(ctx, cm.Match.ID, cm.Seats[0].Token, "Ana"); err != nil {
			t.Fatal(err)
		}
		if _, err := bo.Join(ctx, cm.Match.ID, cm.Seats[1].Token, "Bo"); err != nil {
			t.Fatal(err)
		}
		ps := []*player{ana.socketAs(t, cm.Match.ID, 0), bo.socketAs(t, cm.Match.ID, 1)}
		done := make(chan error, len(ps))
		for _, p := range ps {
			go func() { _, err := p.play(ctx, newRand(uint64(10*round)+uint64(p.seat)), playOptions{}); done <- err }()
		}
		for range ps {
			if err := <-done; err != nil {
				t.Fatal(err)
			}
		}
		closeAll(ps)
		type answer struct {
			Seat  *int          `json:"seat"`
			Match match.Summary `json:"match"`
		}
		got := make([]answer, 2)
		errs := make(chan error, 2)
		for i, b := range []*browser{ana, bo} {
			go func() { errs <- b.Do(ctx, "POST", "/api/matches/"+cm.Match.ID+"/rematch", "", nil, &got[i]) }()
		}
		for range 2 {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
		if got[0].Match.ID != got[1].Match.ID {
			t.Fatalf("round %d: two rematches, %s and %s", round, got[0].Match.ID, got[1].Match.ID)
		}
		sum := e.summary(t, got[0].Match.ID)
		if !sum.Seats[0].Joined || !sum.Seats[1].Joined {
			t.Fatalf("round %d: the rematch's seats: %+v", round, sum.Seats)
		}
	}
}

// A player may take everything of theirs away: the export holds their
// account and seats; deleting the account signs every browser out, keeps
// its finished matches with the seat shown as a deleted player's, and
// leaves nothing else. (Issue 31, item 6.)
func TestExportAndDeleteAccount(t *testing.T) {
	e := newAccountEnv(t, nil)
	ctx := context.Background()
	ana := e.browser(addrA)
	me := ana.mustSignIn(t, "ana@example.org")
	cm, err := ana.Create(ctx, match.CreateRequest{Game: "testcards", Players: 2, Seats: []match.SeatRequest{{}, {Kind: match.Bot}}})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ana.Join(ctx, cm.Match.ID, cm.Seats[0].Token, "Ana"); err != nil {
		t.Fatal(err)
	}
	var export struct {
		Account server.Me
		Seats   []struct {
			Match match.Summary
			Seat  int
		}
	}
	if err := ana.Do(ctx, "GET", "/api/me/export", "", nil, &export); err != nil {
		t.Fatal(err)
	}
	if export.Account.Email != "ana@example.org" || len(export.Seats) != 1 || export.Seats[0].Match.ID != cm.Match.ID {
		t.Fatalf("the export: %+v", export)
	}
	other := e.browser(addrB)
	other.mustSignIn(t, "ana@example.org")
	if err := ana.Do(ctx, "DELETE", "/api/me", "", nil, nil); err != nil {
		t.Fatal(err)
	}
	for _, b := range []*browser{ana, other} {
		if _, err := b.me(); apiCode(err) != "signed_out" {
			t.Fatalf("a browser is signed in to a deleted account: %v", err)
		}
	}
	sum, err := e.c.Match(ctx, cm.Match.ID)
	if err != nil {
		t.Fatal(err)
	}
	if s := sum.Seats[0]; !s.Deleted || s.Account != "" || s.Name != "" {
		t.Fatalf("the deleted player's seat: %+v", s)
	}
	if err := e.browser(addrB).Do(ctx, "GET", "/api/players/"+me.ID, "", nil, nil); apiCode(err) != "unknown_player" {
		t.Fatalf("the deleted player's profile: %v", err)
	}
	// Signing in again with the same address makes a new account.
	if again := e.browser(addrA).mustSignIn(t, "ana@example.org"); again.ID == me.ID {
		t.Fatal("the deleted account came back")
	}
}

// Players find each other by name: a search finds names whatever their
// case and accents, starting ones first, and says nothing but ids and
// names; too short or too long a query is refused. (Issue 31, item 5.)
func TestFindPlayers(t *testing.T) {
	e := newAccountEnv(t, nil)
	ctx := context.Background()
	for i, c := range []struct{ addr, email, name string }{
		{addrA, "emile@example.org", "Émile"}, {addrB, "amelie@example.org", "Amélie"}, {addrC, "mel@example.org", "Mel"},
	} {
		b := e.browser(c.addr)
		b.mustSignIn(t, c.email)
		if err := b.Do(ctx, "PATCH", "/api/me", "", map[string]any{"name": c.name}, nil); err != nil {
			t.Fatalf("%d: %v", i, err)
		}
	}
	guest := e.browser("127.0.0.9")
	find := func(q string) (string, error) {
		var out struct {
			Players []map[string]any `json:"players"`
		}
		err := guest.Do(ctx, "GET", "/api/players?q="+url.QueryEscape(q), "", nil, &out)
		var names []string
		for _, p := range out.Players {
			if len(p) != 2 || p["id"] == "" {
				t.Errorf("a player found as %v: only an id and a name", p)
			}
			names = append(names, fmt.Sprint(p["name"]))
		}
		return strings.Join(names, ", "), err
	}
	for q, want := range map[string]string{"MEL": "Mel, Amélie", "emi": "Émile", "example.org": "", "  él ": "Amélie, Mel"} {
		if got, err := find(q); err != nil || got != want {
			t.Errorf("find %q: %q %v, want %q", q, got, err, want)
		}
	}
	for _, q := range []string{"", "a", strings.Repeat("x", 41)} {
		if _, err := find(q); apiCode(err) != match.CodeBadParameters {
			t.Errorf("find %q: %v", q, err)
		}
	}
}
