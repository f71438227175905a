package web_test

// The pages of accounts, played as people do: a guest who makes an account
// with a passkey and keeps the seats of this browser, signs out and in
// again with the passkey, plays a seat with no token, manages passkeys and
// deletes the account; a sign-in by a link read from a real SMTP server;
// My games; a profile, following and blocking; a rematch and an
// invitation of a friend. The passkeys are made and used by the DevTools
// protocol's virtual authenticator (an internal one, with resident keys
// and user verification), the mails by internal/mailtest.

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/webauthn"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"sortie/engine"
	"sortie/engine/enginetest/testgames"
	"sortie/games/evades"
	"sortie/games/plandesecours"
	"sortie/games/room25"
	"sortie/internal/mailtest"
	"sortie/internal/proofread"
	"sortie/internal/server"
)

// accountSite is a site with accounts, at http://localhost:<port>, its
// sign-in links sent through a real SMTP server run by the test.
type accountSite struct {
	*site
	mail *mailtest.Server
}

func newAccountSite(t *testing.T, games ...engine.Game) *accountSite {
	t.Helper()
	mail, err := mailtest.Start(false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mail.Close() })
	s := newSiteWith(t, func(c *server.Config) {
		c.PublicURL, c.SMTP, c.MailTLS = publicHere, mail.URL(), mail.ClientTLS()
		// Every page of a test is one client: several players signing in
		// from one address are no attack.
		c.SignInRate = 6000
	}, games...)
	return &accountSite{site: s, mail: mail}
}

// mailTo waits for the next mail to address and returns its link.
func (s *accountSite) mailTo(address string) string {
	s.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for {
		m, err := s.mail.Next(ctx)
		if err != nil {
			s.t.Fatalf("no mail to %s: %v", address, err)
		}
		if len(m.To) == 1 && m.To[0] == address {
			if !strings.HasPrefix(m.Link(), s.url+"/auth/email?") {
				s.t.Fatalf("the mail to %s links to %q, not to the server's public address %s", address, m.Link(), s.url)
			}
			return m.Link()
		}
	}
}

// authenticator gives the tab a virtual authenticator, as a phone's or a
// laptop's built-in one: resident keys, user verification that succeeds,
// presence given at once. It returns its id.
func (p *page) authenticator() webauthn.AuthenticatorID {
	p.t.Helper()
	var id webauthn.AuthenticatorID
	p.do("virtual authenticator", chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		if _, err := cdp.Call(ctx, t, webauthn.Enable, webauthn.EnableParams{}); err != nil {
			return err
		}
		r, err := cdp.Call(ctx, t, webauthn.AddVirtualAuthenticator, webauthn.AddVirtualAuthenticatorParams{Options: &webauthn.VirtualAuthenticatorOptions{
			Protocol: webauthn.AuthenticatorProtocolCtap2, Ctap2version: webauthn.Ctap2versionCtap21, Transport: webauthn.AuthenticatorTransportInternal,
			HasResidentKey: true, HasUserVerification: true, IsUserVerified: true, AutomaticPresenceSimulation: true,
		}})
		id = r.AuthenticatorID
		return err
	}))
	return id
}

// dropAuthenticator takes a virtual authenticator away (the device is
// gone), with its passkeys.
func (p *page) dropAuthenticator(id webauthn.AuthenticatorID) {
	p.t.Helper()
	p.do("remove the authenticator", chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, webauthn.RemoveVirtualAuthenticator, webauthn.RemoveVirtualAuthenticatorParams{AuthenticatorID: id})
		return err
	}))
}

// passkeys returns how many passkeys the authenticator holds.
func (p *page) passkeys(id webauthn.AuthenticatorID) int {
	p.t.Helper()
	var n int
	p.do("the authenticator's passkeys", chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		r, err := cdp.Call(ctx, t, webauthn.GetCredentials, webauthn.GetCredentialsParams{AuthenticatorID: id})
		n = len(r.Credentials)
		return err
	}))
	return n
}

// fetchJSON calls the API from the page, with its cookie (and token, if
// any, as the bearer), and returns the answer's status and body.
func (p *page) fetchJSON(method, path string, body any, token ...string) (int, string) {
	p.t.Helper()
	b, _ := json.Marshal(body)
	if body == nil {
		b = []byte("null")
	}
	bearer := ""
	if len(token) > 0 {
		bearer = token[0]
	}
	got := js[[]any](p, fmt.Sprintf(`(async () => { const b = %s, headers = {};
		if (b !== null) headers['Content-Type'] = 'application/json';
		if (%q) headers.Authorization = 'Bearer ' + %q;
		const r = await fetch(%q, {method: %q, headers, body: b === null ? undefined : JSON.stringify(b)});
		return [r.status, await r.text()]; })()`, b, bearer, bearer, path, method))
	return int(got[0].(float64)), got[1].(string)
}

// api calls the API from the page and decodes its answer into out; a
// status that is no success fails the test.
func (p *page) api(method, path string, body, out any, token ...string) {
	p.t.Helper()
	status, text := p.fetchJSON(method, path, body, token...)
	if status/100 != 2 {
		p.t.Fatalf("%s: %s %s: %d %s", p.name, method, path, status, text)
	}
	if out != nil {
		if err := json.Unmarshal([]byte(text), out); err != nil {
			p.t.Fatalf("%s: %s %s: %v", p.name, method, path, err)
		}
	}
}

// me is the page's account.
type me struct {
	ID, Name, Email, Lang string
}

func (p *page) me() me {
	p.t.Helper()
	var m me
	p.api("GET", "/api/me", nil, &m)
	return m
}

// signInByMail signs the tab's browser in by a link sent to address, as a
// player does: the sign-in page's form, the mail, the link opened.
func (s *accountSite) signInByMail(p *page, address string) {
	p.t.Helper()
	p.open("/signin")
	p.wait(`document.querySelector('#email')`, 10*time.Second)
	p.do("type the address", chromedpType("#email", address))
	p.click("#email-send")
	p.wait(`document.querySelector('#email-sent')`, 10*time.Second)
	p.do("open the link", chromedp.Navigate(s.mailTo(address)))
	p.wait(`document.querySelector('#me-button')`, 10*time.Second)
}

// texts proofreads what a page says, in lang: none of the slips a careful
// reader corrects.
func proofreadTexts(t *testing.T, lang string, texts ...string) {
	t.Helper()
	for _, s := range texts {
		for _, slip := range proofread.Slips(lang, s, proofread.Options{}) {
			t.Errorf("%s %q: %s", lang, s, slip)
		}
	}
}

// A guest plays a seat, presses "Save my progress", makes an account with
// a passkey, and finds the seat theirs; signs out and in again with the
// passkey (through the page's own decoder of the options and encoder of
// the credential, as a browser without their JSON helpers); plays the seat
// with no token; adds a passkey from another device, renames one, removes
// one and is refused removing the last until an address is added by its
// link; downloads their data; deletes the account. (Issue 31, items 1, 2,
// 6.)
func TestPasskeySavesAGuestsProgress(t *testing.T) {
	s := newAccountSite(t, testgames.Draw{})
	c := s.create("draw", []string{"human", "human"}, nil, 0, "Ana")
	p := s.browser("ana", "en").tab("main")
	key := p.authenticator()
	p.openSeat(c, 0)

	// A guest: a discreet "Sign in", and an offer to save the seat.
	p.open("/")
	p.wait(`document.querySelector('#save-progress-link') && document.querySelector('#signin-link')`, 10*time.Second)
	if got := p.text("#signin-link"); got != "Sign in" {
		t.Errorf("the header says %q to a guest", got)
	}
	if !js[bool](p, `!!document.querySelector('[data-game=draw] input')`) {
		t.Error("a guest cannot start a match: the lobby asks for an account")
	}
	p.click("#save-progress-link")
	p.wait(`location.pathname === '/signin' && document.querySelector('#new-name')`, 10*time.Second)
	if lead := p.text(".signin-page .lead"); !strings.Contains(lead, "the matches you played in this browser become your account") {
		t.Errorf("the sign-in page of a guest who saves says %q", lead)
	}
	p.axe("the sign-in page")
	p.shot("signin")

	// A name, then the passkey.
	p.do("type the name", chromedpType("#new-name", "Ana"))
	p.click("#create-account-btn")
	p.wait(`location.pathname === '/' && document.querySelector('#saved-text')`, 15*time.Second)
	if n := p.passkeys(key); n != 1 {
		t.Fatalf("the authenticator holds %d passkeys, want 1", n)
	}
	if got := p.text("#notice-text"); got != "Welcome! Your account is ready. Choose your name" {
		t.Errorf("the lobby says %q after making an account", got)
	}
	if got := p.text("#saved-text"); got != "A match is saved to your account: find it in My games." {
		t.Errorf("saving the guest's seat says %q", got)
	}
	ana := p.me()
	var sum struct {
		Seats []struct{ Account string }
	}
	s.get("/api/matches/"+c.ID, &sum)
	if sum.Seats[0].Account != ana.ID || sum.Seats[1].Account != "" {
		t.Fatalf("after saving, the seats' accounts are %+v, want seat 1 Ana's (%s) alone", sum.Seats, ana.ID)
	}
	p.wait(fmt.Sprintf(`document.querySelector('#my-games [data-my=%q]')`, c.ID), 10*time.Second)
	if got := p.text("#me-button .me-name"); got != "Ana" {
		t.Errorf("the header names the player %q", got)
	}
	if js[bool](p, `!!document.querySelector('#save-progress-link, #save-progress')`) {
		t.Error("the seat saved is offered to be saved again")
	}
	p.axe("the lobby signed in, with what was saved")

	// The menu: a disclosure the keyboard opens and Escape closes.
	js[bool](p, `(document.querySelector('#me-button').focus(), true)`)
	p.do("open the menu", chromedpKey(kb.Enter))
	p.wait(`document.querySelector('#me-button').getAttribute('aria-expanded') === 'true' && !document.querySelector('#me-menu').hidden`, 5*time.Second)
	p.axe("the player's menu open")
	p.do("Escape", chromedpKey(kb.Escape))
	p.wait(`document.querySelector('#me-menu').hidden && document.activeElement.id === 'me-button'`, 5*time.Second)
	p.click("#me-button")
	p.click("#menu-signout")
	if !p.waitOK(`document.querySelector('#signin-link') && (document.querySelector('#notice-text') || {}).textContent === 'Signed out. You can still play as a guest.'`, 10*time.Second) {
		t.Errorf("signing out says %q", p.text("#notice-text"))
	}

	// Signed in again with the passkey, by the page's own converters; the
	// browser forgets its tokens: the session is enough to play.
	js[bool](p, `(localStorage.removeItem('sortie.matches'), true)`)
	p.open("/signin")
	p.wait(`document.querySelector('#passkey-signin')`, 10*time.Second)
	js[bool](p, `(delete PublicKeyCredential.parseRequestOptionsFromJSON, delete PublicKeyCredential.prototype.toJSON, true)`)
	p.click("#passkey-signin")
	p.wait(`location.pathname === '/' && document.querySelector('#notice-text')`, 15*time.Second)
	if got := p.text("#notice-text"); got != "You are signed in." {
		t.Errorf("signing in with the passkey says %q", got)
	}
	if again := p.me(); again.ID != ana.ID {
		t.Fatalf("the passkey signed in to %s, not %s", again.ID, ana.ID)
	}
	s.post("/api/matches/"+c.ID+"/join", c.Tokens[1], map[string]string{"name": "Bo"}, nil)
	p.wait(fmt.Sprintf(`document.querySelector('#my-games [data-my=%q] a')`, c.ID), 10*time.Second)
	p.click(fmt.Sprintf(`#my-games [data-my=%q] a`, c.ID))
	p.wait(`document.querySelector('.match-page') && document.querySelector('.match-page').dataset.seat === '0'`, 15*time.Second)
	if js[bool](p, `!!localStorage.getItem('sortie.matches') && JSON.parse(localStorage.getItem('sortie.matches'))[`+fmt.Sprintf("%q", c.ID)+`]?.seats?.[0]`) {
		t.Error("the page holds the seat's token: it did not play by the session")
	}
	other := s.browser("bo", "en").tab("match")
	other.openSeat(c, 1)
	st := p.waitMove(20 * time.Second)
	if !st.MyTurn {
		t.Fatalf("the signed-in seat never got its turn: %+v", st)
	}
	p.click(`#actions button.legal[data-action="draw"]`)
	p.wait(fmt.Sprintf(`+document.querySelector('.match-page').dataset.seq > %d`, st.Seq), 10*time.Second)

	// The account: a second passkey on this device is refused (it holds
	// one), another device's is added; renamed, removed, and the last is
	// kept.
	p.open("/account")
	p.wait(`document.querySelectorAll('.passkeys li').length === 1`, 10*time.Second)
	p.axe("the account page")
	p.click("#add-key-btn")
	p.wait(`document.querySelector('#said-keys').textContent !== ''`, 15*time.Second)
	if got := p.text("#said-keys"); got != "This device already holds a passkey of this account." {
		t.Errorf("a second passkey on the same device says %q", got)
	}
	p.dropAuthenticator(key)
	laptop := p.authenticator()
	p.do("name it", chromedpType("#key-name", "Laptop"))
	p.click("#add-key-btn")
	p.wait(`document.querySelectorAll('.passkeys li').length === 2`, 15*time.Second)
	if got := p.text("#said-keys"); got != "The passkey “Laptop” is added." {
		t.Errorf("adding a passkey says %q", got)
	}
	if n := p.passkeys(laptop); n != 1 {
		t.Errorf("the second device holds %d passkeys", n)
	}
	first := js[string](p, `[...document.querySelectorAll('.passkeys li')].find((li) => !li.textContent.includes('Laptop')).dataset.keyId`)
	p.click(fmt.Sprintf(`[data-key="rename-%s"]`, first))
	p.wait(fmt.Sprintf(`document.activeElement && document.activeElement.id === 'rename-%s'`, first), 5*time.Second)
	p.do("new name", chromedp.SetValue(chromedp.CSS("#rename-"+first), "Old phone"))
	p.click(fmt.Sprintf(`[data-key="rename-save-%s"]`, first))
	p.wait(`document.querySelector('#said-keys').textContent === 'The passkey is now called “Old phone”.'`, 10*time.Second)
	p.axe("the account page after renaming a passkey")
	p.shot("account-passkeys")
	p.click(fmt.Sprintf(`[data-key="remove-%s"]`, first))
	p.wait(fmt.Sprintf(`document.querySelector('[data-key="remove-%s"]').textContent.startsWith('Really remove it? Press again')`, first), 5*time.Second)
	p.click(fmt.Sprintf(`[data-key="remove-%s"]`, first))
	p.wait(`document.querySelectorAll('.passkeys li').length === 1`, 10*time.Second)
	last := js[string](p, `document.querySelector('.passkeys li').dataset.keyId`)
	p.click(fmt.Sprintf(`[data-key="remove-%s"]`, last))
	p.click(fmt.Sprintf(`[data-key="remove-%s"]`, last))
	p.wait(`document.querySelector('#said-keys.error')`, 10*time.Second)
	if got := p.text("#said-keys"); !strings.HasPrefix(got, "This is your only way to sign in") {
		t.Errorf("removing the last passkey says %q", got)
	}
	// An address added by its link: then the last passkey may go.
	p.do("type the address", chromedpType("#acc-new-email", "ana@example.org"))
	p.click("#acc-email-send")
	p.wait(`document.querySelector('#said-keys').textContent.startsWith('Check your inbox')`, 10*time.Second)
	p.do("open the link", chromedp.Navigate(s.mailTo("ana@example.org")))
	p.wait(`location.pathname === '/' && document.querySelector('#me-button')`, 10*time.Second)
	if again := p.me(); again.ID != ana.ID || again.Email != "ana@example.org" {
		t.Fatalf("the link added to a signed-in account gave %+v", again)
	}
	p.open("/account")
	p.wait(`document.querySelector('#acc-email') && document.querySelectorAll('.passkeys li').length === 1`, 10*time.Second)
	if got := p.text("#acc-email"); got != "Links to sign in are sent to ana@example.org." {
		t.Errorf("the account page says %q of the address", got)
	}
	p.click(fmt.Sprintf(`[data-key="remove-%s"]`, last))
	p.click(fmt.Sprintf(`[data-key="remove-%s"]`, last))
	p.wait(`document.querySelectorAll('.passkeys li').length === 0`, 10*time.Second)

	// The data, downloaded as JSON; then the account deleted.
	var export struct {
		Account struct{ ID string }
		Seats   []struct{ Seat int }
	}
	href := js[string](p, `document.querySelector('#export').getAttribute('href')`)
	p.api("GET", href, nil, &export)
	if export.Account.ID != ana.ID || len(export.Seats) != 1 {
		t.Errorf("the export: %+v", export)
	}
	p.click("#delete-start")
	p.wait(`document.activeElement && document.activeElement.id === 'delete-confirm'`, 5*time.Second)
	p.axe("the account's deletion asked")
	p.click("#delete-now")
	p.wait(`location.pathname === '/' && document.querySelector('#notice-text') && document.querySelector('#signin-link')`, 10*time.Second)
	if got := p.text("#notice-text"); !strings.HasPrefix(got, "Your account is deleted.") {
		t.Errorf("deleting the account says %q", got)
	}
	if status, _ := p.fetchJSON("GET", "/api/players/"+ana.ID, nil); status != 404 {
		t.Errorf("the deleted player's profile answers %d", status)
	}
	p.checkErrors()
	other.checkErrors()
}

// In French: a link asked on the sign-in page comes by mail; opened, it
// signs the browser in to a new account, and the lobby offers to save the
// seat this browser played as a guest; saved, it is in "Mes parties". The
// same link opened again signs nobody in and says why. Every sentence
// reads as French is written. (Issue 31, items 2, 7.)
func TestSignInByMailLink(t *testing.T) {
	s := newAccountSite(t, testgames.Draw{})
	c := s.create("draw", []string{"human", "human"}, nil, 0, "Émile")
	p := s.browser("emile", "fr").tab("main")
	p.openSeat(c, 0)
	p.open("/signin")
	p.wait(`document.querySelector('#email')`, 10*time.Second)
	p.click("#email-send")
	p.wait(`document.querySelector('#email-error:not([hidden])')`, 10*time.Second)
	if got := p.text("#email-error"); got != "Ce n’est pas une adresse e-mail." {
		t.Errorf("an empty address is refused as %q", got)
	}
	p.do("type the address", chromedpType("#email", "Emile@Example.org"))
	p.click("#email-send")
	p.wait(`document.querySelector('#email-sent')`, 10*time.Second)
	sent := p.text("#email-sent")
	if !strings.Contains(sent, "Regardez votre boîte de réception.") || !strings.Contains(sent, "Emile@Example.org") {
		t.Errorf("the page says %q once the link is asked", sent)
	}
	if js[string](p, `document.activeElement.id`) != "email-sent" {
		t.Error("the focus is not on what the page says once the link is sent")
	}
	p.axe("the sign-in page, a link sent")
	link := s.mailTo("emile@example.org")
	p.do("open the link", chromedp.Navigate(link))
	p.wait(`document.querySelector('#save-progress') && document.querySelector('#me-button')`, 15*time.Second)
	if got := p.text("#notice-text"); got != "Bienvenue\u00a0! Votre compte est prêt. Choisir votre nom" {
		t.Errorf("a new account's first sign-in says %q", got)
	}
	if got := p.text("#offer-text"); got != "Ce navigateur garde une partie jouée en invité. La garder dans votre compte, pour la retrouver sur tous vos appareils\u00a0?" {
		t.Errorf("the offer reads %q", got)
	}
	if js[string](p, `document.activeElement.id`) != "account-notice" {
		t.Error("the focus is not on what the sign-in says")
	}
	if loc := js[string](p, `location.search`); loc != "" {
		t.Errorf("the address keeps %q", loc)
	}
	p.axe("the lobby offering to save")
	p.shot("saved-offer")
	p.click("#save-progress")
	p.wait(`document.querySelector('#saved-text')`, 10*time.Second)
	saved := p.text("#saved-text")
	if saved != "Une partie est gardée dans votre compte\u00a0: retrouvez-la dans Mes parties." {
		t.Errorf("saving says %q", saved)
	}
	p.wait(fmt.Sprintf(`document.querySelector('#my-games [data-my=%q]')`, c.ID), 10*time.Second)
	if h := p.text("#my-games-h"); h != "Mes parties" {
		t.Errorf("My games is titled %q", h)
	}
	emile := p.me()
	if emile.Email != "emile@example.org" || emile.Lang != "fr" {
		t.Errorf("the account: %+v", emile)
	}
	proofreadTexts(t, "fr", p.text("#notice-text"), saved, sent)

	// The link again, in another browser.
	q := s.browser("eve", "fr").tab("main")
	q.do("open the link again", chromedp.Navigate(link))
	q.wait(`document.querySelector('#notice-text')`, 10*time.Second)
	spent := q.text("#notice-text")
	if spent != "Ce lien de connexion ne marche plus\u00a0: il a déjà servi, ou il a plus de 15 minutes. En demander un nouveau" {
		t.Errorf("a spent link says %q", spent)
	}
	if !js[bool](q, `!!document.querySelector('#signin-link') && document.querySelector('#notice-link').getAttribute('href') === '/signin'`) {
		t.Error("a spent link signed the browser in, or leads nowhere")
	}
	proofreadTexts(t, "fr", spent)
	q.axe("the lobby after a spent link")
	p.checkErrors()
	q.checkErrors()
}

// createAs makes a match of game for seats ("human" or a bot) from the
// page, signed in: the match is its account's. It returns the match and its
// seats' tokens.
func (p *page) createAs(game string, seats []string, autoStart bool, options ...map[string]string) created {
	p.t.Helper()
	opts := map[string]string{}
	if len(options) > 0 {
		opts = options[0]
	}
	var ss []map[string]string
	for _, k := range seats {
		if k == "human" {
			ss = append(ss, map[string]string{"kind": "human"})
		} else {
			ss = append(ss, map[string]string{"kind": "bot", "bot": k})
		}
	}
	var out struct {
		Match struct{ ID string }
		Seats []struct {
			Seat  int
			Token string
		}
	}
	p.api("POST", "/api/matches", map[string]any{"game": game, "players": len(seats), "options": opts, "seats": ss, "auto_start": autoStart, "bot_delay_ms": 0}, &out)
	c := created{ID: out.Match.ID, Tokens: map[int]string{}}
	for _, st := range out.Seats {
		if st.Token != "" {
			c.Tokens[st.Seat] = st.Token
		}
	}
	return c
}

// sit joins seat of c from the page with its token, under the account's
// name: the seat becomes the account's.
func (p *page) sit(c created, seat int) {
	p.t.Helper()
	p.api("POST", "/api/matches/"+c.ID+"/join", map[string]string{"name": p.me().Name}, nil, c.Tokens[seat])
}

// stopWhenAsked plays Draw from the page: it stops at its turn, until the
// match is over.
func (p *page) stopWhenAsked() {
	p.t.Helper()
	for range 10 {
		if st := p.waitMove(30 * time.Second); st.Status == "finished" {
			return
		}
		p.click(`#actions button.legal[data-action="stop"]`)
		p.wait(`document.querySelector('.match-page').dataset.busy !== 'true'`, 10*time.Second)
	}
}

// The account that created a table hosts it from any device: on another
// browser signed in to it, the table's page offers to start it (and to
// invite a friend), with no host token in that browser; a guest's page
// does not. (Issue 31, item 4.)
func TestTheCreatorHostsFromAnyDevice(t *testing.T) {
	s := newAccountSite(t, testgames.Draw{})
	ana := s.browser("ana", "en").tab("main")
	phone := s.browser("ana-phone", "en").tab("main")
	s.signInByMail(ana, "ana@example.org")
	s.signInByMail(phone, "ana@example.org")
	c := ana.createAs("draw", []string{"human", "human"}, false)
	ana.sit(c, 0)
	s.post("/api/matches/"+c.ID+"/join", c.Tokens[1], map[string]string{"name": "Gus"}, nil)

	phone.open("/play/" + c.ID + "?seat=0")
	phone.wait(`document.querySelector('#start-btn')`, 15*time.Second)
	phone.axe("the host's panel on another device")
	phone.click("#start-btn")
	phone.wait(`(document.querySelector('.match-page')||{dataset:{}}).dataset.status === 'running'`, 15*time.Second)

	// A guest at another open table of hers sees no host panel.
	other := ana.createAs("draw", []string{"human", "human"}, false)
	s.post("/api/matches/"+other.ID+"/join", other.Tokens[1], map[string]string{"name": "Gus"}, nil)
	guest := s.browser("gus", "en").tab("main")
	guest.openSeat(other, 1)
	guest.wait(`document.querySelector('.match-page').dataset.status === 'open' && document.querySelector('#turn').textContent !== ''`, 15*time.Second)
	time.Sleep(time.Second)
	if js[bool](guest, `!!document.querySelector('#start-btn')`) {
		t.Error("a guest's page offers to start a table it does not host")
	}
}

// My games, signed in: the match where it is the player's turn first and
// said so, then the others with whom they wait for, then the invitations;
// an invitation taken opens its seat, played by the session with no token;
// one declined goes. (Issue 31, item 4.)
func TestMyGamesPutsYourTurnFirst(t *testing.T) {
	s := newAccountSite(t, testgames.Draw{}, plandesecours.Game{})
	ana := s.browser("ana", "en").tab("main")
	bo := s.browser("bo", "en").tab("main")
	s.signInByMail(ana, "ana@example.org")
	s.signInByMail(bo, "bo@example.org")
	anaID := ana.me().ID

	// Ana waits for a guest in one match, Gus's (she sits in seat 2), and
	// is waited for in another (seat 1): Draw's first seat plays first.
	var guests struct {
		Match     struct{ ID string }
		HostToken string `json:"host_token"`
		Seats     []struct{ Token string }
	}
	s.post("/api/matches", "", map[string]any{"game": "draw", "players": 2}, &guests)
	waiting := created{ID: guests.Match.ID, Tokens: map[int]string{0: guests.Seats[0].Token, 1: guests.Seats[1].Token}}
	ana.sit(waiting, 1)
	s.post("/api/matches/"+waiting.ID+"/join", waiting.Tokens[0], map[string]string{"name": "Gus"}, nil)
	s.post("/api/matches/"+waiting.ID+"/start", guests.HostToken, nil, nil)
	mine := ana.createAs("draw", []string{"human", "human"}, false)
	ana.sit(mine, 0)
	s.post("/api/matches/"+mine.ID+"/join", mine.Tokens[1], map[string]string{"name": "Gus"}, nil)
	ana.api("POST", "/api/matches/"+mine.ID+"/start", nil, nil)
	// Bo keeps a seat of his Plan de Secours for Ana, and one of a Draw.
	table := bo.createAs("plandesecours", []string{"human", "human"}, true)
	bo.sit(table, 0)
	bo.api("POST", "/api/matches/"+table.ID+"/invite", map[string]any{"seat": 1, "player": anaID}, nil)
	other := bo.createAs("draw", []string{"human", "human"}, false)
	bo.sit(other, 0)
	bo.api("POST", "/api/matches/"+other.ID+"/invite", map[string]any{"seat": 1, "player": anaID}, nil)

	ana.open("/")
	ana.wait(`document.querySelectorAll('#my-games li').length === 4`, 15*time.Second)
	groups := js[[]string](ana, `[...document.querySelectorAll('#my-games-list h3')].map((h) => h.textContent)`)
	if strings.Join(groups, "|") != "Your turn|Under way|Invitations" {
		t.Errorf("My games has the groups %q", groups)
	}
	order := js[[]string](ana, `[...document.querySelectorAll('#my-games li')].map((li) => li.dataset.my || li.dataset.invite)`)
	if len(order) != 4 || order[0] != mine.ID || order[1] != waiting.ID {
		t.Errorf("My games lists %q: %s (Ana's turn) first, then %s", order, mine.ID, waiting.ID)
	}
	first := ana.text(fmt.Sprintf(`[data-my=%q]`, mine.ID))
	if !strings.Contains(first, "your turn") || !js[bool](ana, fmt.Sprintf(`document.querySelector('[data-my=%q]').classList.contains('my-turn') && !!document.querySelector('[data-my=%q] .turn-badge')`, mine.ID, mine.ID)) {
		t.Errorf("the match where it is Ana's turn reads %q, without its mark", first)
	}
	if got := ana.text(fmt.Sprintf(`[data-my=%q] .my-where`, waiting.ID)); got != "waiting for Gus" {
		t.Errorf("the match waiting for Gus says %q", got)
	}
	if got := ana.accNames(fmt.Sprintf(`[data-my=%q] a`, mine.ID)); len(got) != 1 || got[0] != "Play — Draw: Gus" {
		t.Errorf("the link to Ana's turn reads %q to a screen reader", got)
	}
	if got := ana.text(fmt.Sprintf(`[data-invite=%q] .my-invite`, table.ID)); got != "Bo invites you to a match of Emergency Exit Only, seat 2." {
		t.Errorf("the invitation reads %q", got)
	}
	ana.axe("My games")
	ana.shot("mygames")
	ana.size(390, 844, false)
	if w := js[int](ana, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("My games scrolls sideways on a phone: %d px", w)
	}
	ana.shot("mygames-phone")
	ana.size(1280, 900, false)

	// Declined, an invitation goes; taken, its seat opens, played by the
	// session.
	ana.click(fmt.Sprintf(`[data-invite=%q] button:not(.primary)`, other.ID))
	ana.wait(fmt.Sprintf(`!document.querySelector('[data-invite=%q]') && document.activeElement.id === 'my-games'`, other.ID), 10*time.Second)
	var sum struct {
		Seats []struct {
			Account string
			Joined  bool
		}
		Status string
	}
	bo.open(fmt.Sprintf("/play/%s?seat=0", table.ID))
	bo.wait(`document.querySelector('.match-page') && document.querySelector('.match-page').dataset.seat === '0'`, 15*time.Second)
	ana.click(fmt.Sprintf(`[data-invite=%q] button.primary`, table.ID))
	ana.wait(`location.pathname.startsWith('/play/') && document.querySelector('.match-page') && document.querySelector('.match-page').dataset.status === 'running'`, 20*time.Second)
	if seat := js[string](ana, `document.querySelector('.match-page').dataset.seat`); seat != "1" {
		t.Errorf("the seat taken opens as seat %s", seat)
	}
	if js[bool](ana, fmt.Sprintf(`!!(JSON.parse(localStorage.getItem('sortie.matches') || '{}')[%q])`, table.ID)) {
		t.Error("the browser holds a token of the seat taken: it was not played by the session")
	}
	s.get("/api/matches/"+table.ID, &sum)
	if sum.Seats[1].Account != anaID || !sum.Seats[1].Joined {
		t.Errorf("the seat taken: %+v", sum.Seats[1])
	}
	ana.checkErrors()
	bo.checkErrors()
}

// finishDraw makes a Draw match between two signed-in pages, each seated
// by its token (the seats become their accounts'), and plays it to its
// end through both pages, opened on their seats with no token.
func finishDraw(t *testing.T, a, b *page) created {
	t.Helper()
	c := a.createAs("draw", []string{"human", "human"}, true)
	a.sit(c, 0)
	b.sit(c, 1)
	a.open(fmt.Sprintf("/play/%s?seat=0", c.ID))
	b.open(fmt.Sprintf("/play/%s?seat=1", c.ID))
	done := make(chan struct{})
	go func() { defer close(done); b.stopWhenAsked() }()
	a.stopWhenAsked()
	<-done
	a.wait(`document.querySelector('#end-headline')`, 15*time.Second)
	b.wait(`document.querySelector('#end-headline')`, 15*time.Second)
	return c
}

// A profile, as others see it: the player's name, their figures in each
// game, their recent matches with their replays, and never an address.
// From it a player follows another, who follows back (in French): they are
// friends; a player finds a third by name on the friends page and follows
// them from there; a player blocked cannot sit at the blocker's table.
// (Issue 31, items 3, 5, 7.)
func TestProfileFollowAndBlock(t *testing.T) {
	s := newAccountSite(t, testgames.Draw{})
	ana := s.browser("ana", "en").tab("main")
	bo := s.browser("bo", "fr").tab("main")
	cy := s.browser("cy", "en").tab("main")
	s.signInByMail(ana, "ana@example.org")
	s.signInByMail(bo, "bo@example.org")
	s.signInByMail(cy, "cy@example.org")
	anaID, boID, cyID := ana.me().ID, bo.me().ID, cy.me().ID
	c := finishDraw(t, ana, bo)

	// From the seat list to Bo's profile.
	ana.click(fmt.Sprintf(`#seats a[href="/players/%s"]`, boID))
	ana.wait(`document.querySelector('#profile-h') && document.querySelector('.game-stats')`, 15*time.Second)
	if got := ana.text("#profile-h"); got != "Bo" {
		t.Errorf("Bo's profile is titled %q", got)
	}
	if got := ana.text(`[data-game=draw] [data-figure=matches]`); got != "1" {
		t.Errorf("Bo's matches of Draw: %q", got)
	}
	if got := js[[]string](ana, `[...document.querySelectorAll('[data-game=draw] table.by td')].map((td) => td.textContent)`); len(got) < 3 || got[0] != "2 players" || got[1] != "1" {
		t.Errorf("Bo's Draw by number of players: %q", got)
	}
	if href := js[string](ana, fmt.Sprintf(`(document.querySelector('#recent [data-match=%q] a') || {}).getAttribute?.('href') || ''`, c.ID)); href != "/play/"+c.ID {
		t.Errorf("the recent match links to %q, not its replay", href)
	}
	if page := js[string](ana, `document.body.innerText`); strings.Contains(page, "@") {
		t.Errorf("a profile shows an address: %q", page)
	}
	ana.axe("a profile")
	ana.shot("profile")
	ana.click("#follow")
	ana.wait(`document.querySelector('#follow').textContent === 'Unfollow'`, 10*time.Second)

	// Bo, in French, follows back: friends.
	bo.open("/players/" + anaID)
	bo.wait(`document.querySelector('#relation-tag')`, 15*time.Second)
	if tag, btn := bo.text("#relation-tag"), bo.text("#follow"); tag != "vous suit" || btn != "Suivre aussi" {
		t.Errorf("Ana followed Bo: his page of her says %q and offers %q", tag, btn)
	}
	bo.click("#follow")
	bo.wait(`document.querySelector('#relation-tag').textContent === 'amis\u00a0: vous vous suivez'`, 10*time.Second)
	if js[string](bo, `document.activeElement.id`) != "follow" {
		t.Error("the focus left the follow button once it was pressed")
	}
	proofreadTexts(t, "fr", bo.text(".profile-page .lead"), bo.text("#relation"), bo.text("#stats"))
	bo.axe("a profile in French")
	bo.size(390, 844, false)
	if w := js[int](bo, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("a profile scrolls sideways on a phone: %d px", w)
	}
	bo.shot("profile-phone")
	bo.size(1280, 900, false)
	bo.open("/friends")
	bo.wait(fmt.Sprintf(`document.querySelector('#friends [data-player=%q]')`, anaID), 10*time.Second)
	if got := bo.text("#friends-h"); got != "Amis" {
		t.Errorf("the friends page is titled %q", got)
	}
	bo.axe("the friends page")
	// Bo finds Cy by name, in capitals, and follows him from the results.
	bo.set("#find-q", "CY")
	bo.click("#find-go")
	bo.wait(fmt.Sprintf(`document.querySelector('#found [data-player=%q] button')`, cyID), 10*time.Second)
	if got := bo.text("#find-status"); got != "1\u00a0joueur trouvé" {
		t.Errorf("the search says %q", got)
	}
	if js[string](bo, `document.activeElement.id`) != "find-q" {
		t.Error("the focus left the search once it ran")
	}
	bo.click(fmt.Sprintf(`#found [data-player=%q] button`, cyID))
	bo.wait(fmt.Sprintf(`document.querySelector('#following [data-player=%q]')`, cyID), 10*time.Second)
	bo.set("#find-q", "zz")
	bo.click("#find-go")
	bo.wait(`(document.querySelector('p#found') || {}).textContent === 'Aucun joueur ne porte ce nom.'`, 10*time.Second)
	proofreadTexts(t, "fr", bo.text("#find"))
	bo.axe("the friends page, after a search")

	// Ana blocks Cy (a second press confirms): Cy cannot sit at her table.
	ana.open("/players/" + cyID)
	ana.wait(`document.querySelector('#block')`, 10*time.Second)
	ana.click("#block")
	ana.wait(`document.querySelector('#block').textContent === 'Block? Press again' && document.activeElement.id === 'block'`, 5*time.Second)
	ana.click("#block")
	ana.wait(`(document.querySelector('#relation-tag') || {}).textContent === 'you block this player'`, 10*time.Second)
	if js[bool](ana, `!!document.querySelector('#follow')`) {
		t.Error("a blocked player can be followed")
	}
	table := ana.createAs("draw", []string{"human", "human"}, true)
	ana.sit(table, 0)
	cy.open(fmt.Sprintf("/play/%s?seat=1#token=%s", table.ID, table.Tokens[1]))
	cy.wait(`document.querySelector('#join-btn')`, 15*time.Second)
	cy.click("#join-btn")
	cy.wait(`document.querySelector('#error:not([hidden])')`, 10*time.Second)
	if got := cy.text("#error .error-text"); got != "This player does not take you at their table." {
		t.Errorf("a blocked player's join says %q", got)
	}
	var sum struct {
		Seats []struct{ Joined bool }
	}
	s.get("/api/matches/"+table.ID, &sum)
	if sum.Seats[1].Joined {
		t.Error("the blocked player sat at the table")
	}
	ana.checkErrors()
	bo.checkErrors()
	cy.checkErrors()
}

// A friend invited straight to a seat from the lobby's new table takes it
// from My games; at the end of a match a rematch is one click, and the
// other player (in French) is offered their seat of it on their end
// screen. (Issue 31, item 5.)
func TestRematchAndInviteAFriend(t *testing.T) {
	s := newAccountSite(t, testgames.Draw{}, plandesecours.Game{})
	ana := s.browser("ana", "en").tab("main")
	bo := s.browser("bo", "fr").tab("main")
	s.signInByMail(ana, "ana@example.org")
	s.signInByMail(bo, "bo@example.org")
	anaID, boID := ana.me().ID, bo.me().ID
	ana.api("PUT", "/api/me/follows/"+boID, nil, nil)
	bo.api("PUT", "/api/me/follows/"+anaID, nil, nil)

	id := ana.createMatch("plandesecours", []string{"human", "human"}, nil, "")
	ana.wait(`document.querySelector('#friend-1')`, 10*time.Second)
	if got := ana.accNames("#friend-1 option"); len(got) != 1 || got[0] != "Bo" {
		t.Errorf("the friends offered for seat 2: %q", got)
	}
	if got := js[string](ana, `document.querySelector('label[for="friend-1"]').textContent`); got != "Invite a friend to seat 2" {
		t.Errorf("the list of friends is labelled %q", got)
	}
	ana.axe("the new table with a friend to invite")
	ana.click("#invite-friend-1")
	ana.wait(`document.querySelector('#invite-status-1').textContent !== ''`, 10*time.Second)
	if got := ana.text("#invite-status-1"); got != "Invitation sent to Bo: the seat waits for them in their games." {
		t.Errorf("the invitation says %q", got)
	}
	bo.open("/")
	bo.wait(fmt.Sprintf(`document.querySelector('[data-invite=%q] button.primary')`, id), 15*time.Second)
	if got := bo.text(fmt.Sprintf(`[data-invite=%q] .my-invite`, id)); got != "Ana vous invite à une partie de Plan de Secours, place 2." {
		t.Errorf("Bo's invitation reads %q", got)
	}
	proofreadTexts(t, "fr", bo.text(fmt.Sprintf(`[data-invite=%q]`, id)))
	bo.click(fmt.Sprintf(`[data-invite=%q] button.primary`, id))
	ana.click("#play-link")
	for _, p := range []*page{ana, bo} {
		p.wait(`document.querySelector('.match-page') && document.querySelector('.match-page').dataset.status === 'running'`, 20*time.Second)
	}
	if seat := js[string](bo, `document.querySelector('.match-page').dataset.seat`); seat != "1" {
		t.Errorf("Bo plays seat %s of the table he was invited to", seat)
	}

	// The end of another match: Ana asks for a rematch; Bo's end screen
	// offers his seat of it.
	c := finishDraw(t, ana, bo)
	ana.wait(`document.querySelector('#rematch-btn')`, 15*time.Second)
	bo.wait(`document.querySelector('#rematch-btn')`, 15*time.Second)
	ana.axe("the end screen with a rematch")
	ana.click("#rematch-btn")
	ana.wait(fmt.Sprintf(`location.pathname.startsWith('/play/') && location.pathname !== '/play/%s' && document.querySelector('.match-page')`, c.ID), 15*time.Second)
	next := strings.TrimPrefix(js[string](ana, `location.pathname`), "/play/")
	bo.wait(`document.querySelector('#rematch-take')`, 20*time.Second)
	if got := bo.text("#rematch-asked"); got != "Ana propose une revanche." {
		t.Errorf("Bo's end screen says %q", got)
	}
	bo.axe("the end screen offering a rematch, in French")
	bo.click("#rematch-take")
	for _, p := range []*page{ana, bo} {
		p.wait(fmt.Sprintf(`location.pathname === '/play/%s' && document.querySelector('.match-page') && document.querySelector('.match-page').dataset.status === 'running'`, next), 20*time.Second)
	}
	var sum struct {
		Game  string
		Seats []struct{ Account string }
	}
	s.get("/api/matches/"+next, &sum)
	if sum.Game != "draw" || len(sum.Seats) != 2 || sum.Seats[0].Account != anaID || sum.Seats[1].Account != boID {
		t.Errorf("the rematch: %+v", sum)
	}
	ana.checkErrors()
	bo.checkErrors()
}

// handOver plays match c's seat from the page until it runs, then hands
// the seat to its bot for the rest of the match (a second press confirms),
// and waits for the end.
func (p *page) handOver(c created, seat int) {
	p.t.Helper()
	p.open(fmt.Sprintf("/play/%s?seat=%d", c.ID, seat))
	p.wait(`document.querySelector('#leave-seat')`, 20*time.Second)
	p.click("#leave-seat")
	p.wait(`document.querySelector('#leave-seat.danger')`, 5*time.Second)
	p.click("#leave-seat")
	p.wait(`document.querySelector('.match-page').dataset.status === 'finished'`, 120*time.Second)
}

// outOfPanels lists what lies out of its panel, sideways, on the page.
const outOfPanels = `[...document.querySelectorAll('main .panel')].flatMap((panel) => {
  const r = panel.getBoundingClientRect();
  return [...panel.querySelectorAll('*')].filter((el) => {
    if (el.closest('.visually-hidden') || el.closest('[hidden]')) return false;
    for (let a = el.parentElement; a && a !== panel; a = a.parentElement) {
      if (/auto|scroll|hidden/.test(getComputedStyle(a).overflowX)) return false; // it scrolls inside
    }
    const e = el.getBoundingClientRect();
    return e.width > 0 && (e.right > r.right + 1 || e.left < r.left - 1);
  }).map((el) => el.tagName.toLowerCase() + '.' + el.className + ': ' + el.textContent.trim().slice(0, 40));
}).slice(0, 8)`

// The pages of accounts as a player sees them with a history of real
// matches, at a desktop's size and a phone's (and the desktop's in dark
// mode), in English and French: no
// page scrolls sideways on the phone, each passes axe-core, and the
// profile's figures are the server's. SORTIE_SHOTS keeps their pictures.
func TestAccountPagesLook(t *testing.T) {
	s := newAccountSite(t, plandesecours.Game{}, evades.Game{}, room25.Game{})
	ana := s.browser("ana", "en").tab("main")
	bo := s.browser("bo", "fr").tab("main")
	s.signInByMail(ana, "ana@example.org")
	s.signInByMail(bo, "bo@example.org")
	anaID, boID := ana.me().ID, bo.me().ID
	ana.api("PATCH", "/api/me", map[string]string{"name": "Ana Lima"}, nil)
	ana.api("PUT", "/api/me/follows/"+boID, nil, nil)
	bo.api("PUT", "/api/me/follows/"+anaID, nil, nil)

	// Finished matches of three games, Ana's seat handed to its bot.
	for _, m := range []struct {
		game    string
		seats   []string
		options map[string]string
	}{
		{"room25", []string{"human", "medium"}, map[string]string{"mode": "cooperation"}},
		{"room25", []string{"human", "medium", "medium"}, map[string]string{"mode": "cooperation"}},
		{"plandesecours", []string{"human", "medium", "medium"}, nil},
		{"evades", []string{"human", "medium"}, nil},
	} {
		c := ana.createAs(m.game, m.seats, true, m.options)
		ana.sit(c, 0)
		ana.handOver(c, 0)
	}
	// Under way: Ana's turn (Room 25's programming is everyone's), and a
	// table Bo keeps a seat of for her.
	turn := ana.createAs("room25", []string{"human", "human"}, false, map[string]string{"mode": "cooperation"})
	ana.sit(turn, 0)
	s.post("/api/matches/"+turn.ID+"/join", turn.Tokens[1], map[string]string{"name": "Gus"}, nil)
	ana.api("POST", "/api/matches/"+turn.ID+"/start", nil, nil)
	table := bo.createAs("room25", []string{"human", "human", "medium"}, true)
	bo.sit(table, 0)
	bo.api("POST", "/api/matches/"+table.ID+"/invite", map[string]any{"seat": 1, "player": anaID}, nil)

	var profile struct {
		Stats map[string]struct {
			Matches, Wins int
			By            []struct{ Players, Matches, Wins int }
		}
	}
	s.get("/api/players/"+anaID, &profile)
	look := func(p *page, path, ready, name string) {
		t.Helper()
		for _, size := range []struct {
			w, h int64
			dark bool
			tag  string
		}{{1280, 800, false, ""}, {390, 844, false, "-phone"}, {1280, 800, true, "-dark"}} {
			p.size(size.w, size.h, size.dark)
			p.open(path)
			p.wait(ready, 15*time.Second)
			if w := js[int](p, `document.documentElement.scrollWidth`); w > int(size.w) {
				t.Errorf("%s at %d px scrolls sideways: %d px", path, size.w, w)
			}
			// Nothing of a panel sticks out of it (but from what scrolls
			// inside it).
			if out := js[[]string](p, outOfPanels); len(out) > 0 {
				t.Errorf("%s at %d px: out of their panels: %q", path, size.w, out)
			}
			p.axe(fmt.Sprintf("%s at %d px%s", path, size.w, size.tag))
			p.shot(name + size.tag)
		}
	}
	look(ana, "/", `document.querySelectorAll('#my-games li').length >= 6`, "mygames")
	look(bo, "/players/"+anaID, `document.querySelectorAll('.game-stats').length === 3`, "profile-fr")
	look(ana, "/players/"+anaID, `document.querySelectorAll('.game-stats').length === 3`, "profile")
	for game, st := range profile.Stats {
		if got := ana.text(fmt.Sprintf(`[data-game=%q] [data-figure=matches]`, game)); got != fmt.Sprint(st.Matches) {
			t.Errorf("%s: the profile shows %q matches, the server counts %d", game, got, st.Matches)
		}
		rows := js[[]string](ana, fmt.Sprintf(`[...document.querySelectorAll('[data-game=%q] table.by tbody tr')].map((tr) => tr.textContent)`, game))
		if len(rows) != len(st.By) {
			t.Errorf("%s: %d lines by number of players, the server has %d", game, len(rows), len(st.By))
		}
	}
	if rows := js[[]string](ana, `[...document.querySelectorAll('[data-game=room25] table.by tbody tr')].map((tr) => [...tr.cells].map((c) => c.textContent).slice(0, 2).join('|'))`); strings.Join(rows, " ") != "2 players|cooperation 3 players|cooperation" {
		t.Errorf("Room 25's lines by players and mode: %q", rows)
	}
	look(ana, "/account", `document.querySelector('#acc-name')`, "account")
	look(bo, "/friends", `document.querySelector('#friends li')`, "friends-fr")
	bo.checkErrors()
	ana.checkErrors()
}
