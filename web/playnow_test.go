package web_test

// Play now and ratings, as players use them: two accounts pressing Play now
// meet at one table; a lone player is seated with bots after the wait; the
// waiting panel, the profile's ratings and chart, and a leaderboard read
// right in English and French, lie inside the screen, and pass axe-core.

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"sortie/engine"
	"sortie/engine/enginetest/testgames"
	"sortie/games/plandesecours"
	"sortie/internal/mailtest"
	"sortie/internal/server"
)

// newPlaySite is a site with accounts whose matchmaker pairs every 100 ms
// and whose finished matches are rated at once.
func newPlaySite(t *testing.T, games ...engine.Game) *accountSite {
	t.Helper()
	mail, err := mailtest.Start(false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mail.Close() })
	s := newSiteWith(t, func(c *server.Config) {
		c.PublicURL, c.SMTP, c.MailTLS = publicHere, mail.URL(), mail.ClientTLS()
		c.SignInRate = 6000
		c.PlayWave, c.RateEvery = 100*time.Millisecond, 100*time.Millisecond
	}, append(games, plandesecours.Game{})...)
	return &accountSite{site: s, mail: mail}
}

// inside fails unless the element lies wholly inside the viewport's width
// and has a size.
func (p *page) inside(sel string) {
	p.t.Helper()
	box := js[[]float64](p, fmt.Sprintf(`(() => { const r = document.querySelector(%q).getBoundingClientRect(); return [r.left, r.right, r.width, r.height, innerWidth]; })()`, sel))
	if box[0] < 0 || box[1] > box[4]+0.5 || box[2] == 0 || box[3] == 0 {
		p.t.Errorf("%s: %s lies at x %.0f..%.0f (%.0f×%.0f) in a viewport %.0f wide", p.name, sel, box[0], box[1], box[2], box[3], box[4])
	}
}

// Two accounts press Play now for Plan de Secours, one after the other,
// the first for any number of players and the second for two: the first
// sees herself waiting, alone in the pool, with the time before bots; once
// the second presses, both land on one table, each in a seat
// of their own, the table rated with even chances. (Issue 32, "Done when".)
func TestPlayNowTwoAccountsMeet(t *testing.T) {
	s := newPlaySite(t)
	ana := s.browser("ana", "en").tab("main")
	bo := s.browser("bo", "fr").tab("main")
	s.signInByMail(ana, "ana@example.org")
	s.signInByMail(bo, "bo@example.org")
	for _, p := range []*page{ana, bo} {
		p.open("/")
		p.wait(`document.querySelector('#play-plandesecours')`, 15*time.Second)
	}
	if got := ana.text("#play-now-h"); got != "Play now" {
		t.Errorf("the panel's title: %q", got)
	}
	if got := bo.text("#play-now-h"); got != "Jouer maintenant" {
		t.Errorf("the panel's title in French: %q", got)
	}
	// Ana takes any number of players; bo asks for two.
	ana.set("#play-plandesecours-players", "2-5")
	ana.click("#play-plandesecours")
	ana.wait(`document.querySelector('#play-status')`, 10*time.Second)
	if got := ana.text("#play-status"); got != "1 player waiting for this table" {
		t.Errorf("ana waiting alone reads %q", got)
	}
	if got := ana.text("#play-waiting .waiting-what"); !strings.Contains(got, "2–5 players") {
		t.Errorf("ana's wait says %q, not the number she asked for", got)
	}
	if got := ana.text("#play-waited"); !strings.Contains(got, "bots take the empty seats after 30 seconds") {
		t.Errorf("ana's wait reads %q", got)
	}
	if f := js[string](ana, `document.activeElement.id`); f != "play-cancel" {
		t.Errorf("once waiting, the focus is on %q, not the button to stop", f)
	}
	ana.inside("#play-waiting")
	ana.axe("the lobby, waiting to play")
	ana.shot("waiting")
	proofreadTexts(t, "en", ana.text("#play-waiting"))
	bo.click("#play-plandesecours")
	for _, p := range []*page{ana, bo} {
		p.wait(`location.pathname.startsWith('/play/') && document.querySelector('#rated-line')`, 20*time.Second)
	}
	aPath, bPath := js[string](ana, `location.pathname`), js[string](bo, `location.pathname`)
	aSeat, bSeat := js[string](ana, `new URLSearchParams(location.search).get('seat')`), js[string](bo, `new URLSearchParams(location.search).get('seat')`)
	if aPath != bPath || aSeat == bSeat {
		t.Fatalf("ana at %s seat %s, bo at %s seat %s: not one table", aPath, aSeat, bPath, bSeat)
	}
	if got := ana.text("#rated-line"); got != "Rated table" {
		t.Errorf("the table's line: %q", got)
	}
	if got := bo.text("#rated-line"); got != "Table classée" {
		t.Errorf("the table's line in French: %q", got)
	}
	if got := js[[]string](ana, `[...document.querySelectorAll('#seats .tag.chance')].map((e) => e.textContent)`); len(got) != 2 || got[0] != "chance of winning: 50%" {
		t.Errorf("the chances before the start: %q", got)
	}
	if got := js[[]string](bo, `[...document.querySelectorAll('#seats .tag.chance')].map((e) => e.textContent)`); len(got) != 2 || got[0] != "chances de gagner\u00a0: 50\u00a0%" {
		t.Errorf("the chances in French: %q", got)
	}
}

// A lone player who asked to wait 1.5 s (the server's wait is 30 s; the
// lobby's address may shorten it) waits, then is seated at a table with a
// bot of her level; on her phone the waiting panel fits the screen. She
// chose to play by correspondence, two days a move: the panel says so, and
// her table is a correspondence table. (Issue 32, "Done when"; items 6 and 7.)
func TestPlayNowLonePlayerGetsBots(t *testing.T) {
	s := newPlaySite(t)
	ana := s.browser("ana", "fr").tab("main")
	s.signInByMail(ana, "ana@example.org")
	ana.size(390, 844, false)
	ana.open("/?bot_fill_after_ms=1500")
	ana.wait(`document.querySelector('#play-plandesecours')`, 15*time.Second)
	ana.inside("#play-plandesecours")
	ana.inside("#play-plandesecours-pace")
	ana.set("#play-plandesecours-pace", "172800000")
	start := time.Now()
	ana.click("#play-plandesecours")
	ana.wait(`document.querySelector('#play-status')`, 10*time.Second)
	if got := ana.text("#play-status"); got != "1 joueur en attente pour cette table" {
		t.Errorf("ana waiting reads %q", got)
	}
	if got := ana.text("#play-waiting .waiting-what"); !strings.Contains(got, "2\u00a0jours par coup") {
		t.Errorf("ana's wait says %q, not her pace", got)
	}
	ana.inside("#play-waiting")
	ana.inside("#play-cancel")
	ana.shot("waiting-phone")
	ana.axe("the lobby on a phone, waiting")
	proofreadTexts(t, "fr", ana.text("#play-waiting"))
	ana.wait(`location.pathname.startsWith('/play/') && document.querySelector('#seats li')`, 20*time.Second)
	if d := time.Since(start); d < 1500*time.Millisecond {
		t.Errorf("seated with bots after %v, before the wait", d)
	}
	bots := js[[]string](ana, `[...document.querySelectorAll('#seats .seat .tag')].map((e) => e.textContent).filter((x) => x.startsWith('bot'))`)
	if len(bots) != 1 || bots[0] != "bot\u00a0: Moyen" {
		t.Errorf("the bots at ana's table: %q", bots)
	}
	id := strings.TrimPrefix(js[string](ana, `location.pathname`), "/play/")
	var sum struct {
		Settings struct {
			Clock       string `json:"clock"`
			MoveLimitMs int64  `json:"move_limit_ms"`
		} `json:"settings"`
	}
	s.get("/api/matches/"+id, &sum)
	if sum.Settings.Clock != "correspondence" || sum.Settings.MoveLimitMs != 2*86_400_000 {
		t.Errorf("ana's table: %+v", sum.Settings)
	}
}

// After two rated matches, a profile shows the player's rating in each game
// and mode ("?" while provisional), how often they finish what they start,
// and the chart of their rating, inside the screen on a phone; the
// leaderboard says nobody is established yet. In English and French,
// axe-clean. (Issue 32, items 5 and 8.)
func TestRatingsOnProfileAndLeaderboard(t *testing.T) {
	s := newPlaySite(t, testgames.Draw{})
	ana := s.browser("ana", "en").tab("main")
	bo := s.browser("bo", "fr").tab("main")
	s.signInByMail(ana, "ana@example.org")
	s.signInByMail(bo, "bo@example.org")
	finishDraw(t, ana, bo)
	finishDraw(t, ana, bo)
	anaID := ana.me().ID
	for _, p := range []*page{ana, bo} {
		p.open("/players/" + anaID)
		p.wait(`document.querySelectorAll('#rating-chart circle').length === 2 && document.querySelector('#ratings tr[data-game=draw] td:last-child').textContent === '2'`, 20*time.Second)
	}
	if got := ana.text(`#ratings tr[data-game=draw] [data-figure=rating]`); got != "? (provisional)" {
		t.Errorf("ana's rating in Draw: %q", got)
	}
	if got := ana.text("#reputation"); got != "Over the last 30 days: 2 of 2 matches played to the end; matches left: 0." {
		t.Errorf("ana's reputation: %q", got)
	}
	if got := bo.text("#reputation"); got != "Ces 30\u00a0derniers jours\u00a0: 2 sur 2\u00a0parties menées à leur terme\u00a0; parties quittées\u00a0: 0." {
		t.Errorf("ana's reputation in French: %q", got)
	}
	if got := bo.text(`#ratings tr[data-game=draw] td:nth-child(2)`); got != "Chacun pour soi" {
		t.Errorf("the mode in French: %q", got)
	}
	proofreadTexts(t, "en", ana.text("#reputation"), ana.text("#rating-chart-cap"))
	proofreadTexts(t, "fr", bo.text("#reputation"), bo.text("#rating-chart-cap"))
	ana.axe("a profile with ratings")
	ana.shot("profile-ratings")
	ana.size(390, 844, true)
	ana.inside("#rating-chart svg")
	ana.inside("#ratings table")
	ana.shot("profile-ratings-phone")
	bo.click(`#ratings tr[data-game=draw] a`)
	bo.wait(`document.querySelector('#board-h') && document.querySelector('#board-empty')`, 15*time.Second)
	if got := bo.text("#board-h"); got != "Classement\u00a0: Pioche" {
		t.Errorf("the leaderboard's title in French: %q", got)
	}
	bo.axe("a leaderboard")
	bo.shot("leaderboard")
}
