package web_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"sortie/games/all"
	"sortie/internal/server"
)

// stepView reads what seat 0 of a match saw at a step, with its token.
func (s *site) stepView(t *testing.T, id, token string, step int) map[string]any {
	t.Helper()
	req, _ := http.NewRequest("GET", fmt.Sprintf("%s/api/matches/%s/view?seat=0&step=%d", s.url, id, step), nil)
	req.Header.Set("Authorization", "Bearer "+token)
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	var out struct {
		View map[string]any `json:"view"`
	}
	if err := json.NewDecoder(r.Body).Decode(&out); err != nil || r.StatusCode != 200 {
		t.Fatalf("the view of %s at step %d: %d %v", id, step, r.StatusCode, err)
	}
	return out.View
}

// Given today's challenge, two players in two browsers (one in English,
// one in French) enter Plan de Secours' deal by the page, as guests under
// the names they type, and play it out by the page against its bot: both
// are dealt the same hand on the same deal, the end screen's replay opens
// for each (a match of today's challenge shows to its player alone), and
// the day's table, read by both, shows both, ranked, with what they
// scored; a player who has entered is offered their match instead of
// another. The page fits a phone, passes axe-core and reads right in both
// languages. (Issue 34, item 9.)
func TestDailyChallengeTwoBrowsers(t *testing.T) {
	s := newSiteWith(t, func(c *server.Config) { c.ClockSpeed = 20 }, all.Games()...)
	type player struct {
		p          *page
		lang, name string
		match, tok string
	}
	players := []*player{{lang: "en", name: "Ada"}, {lang: "fr", name: "Bruno"}}
	for _, pl := range players {
		pl.p = s.browser("daily-"+pl.lang, pl.lang).tab("daily")
		p := pl.p
		p.open("/daily")
		p.wait(`document.querySelectorAll('.daily-game').length === 5 && document.querySelector('#daily-name')`, 15*time.Second)
		p.do("type a name", chromedp.SendKeys(chromedp.CSS("#daily-name"), pl.name))
		p.press("#daily-play-plandesecours")
		p.wait(`location.pathname.startsWith('/play/') && document.querySelector('.match-page') && document.querySelector('.match-page').dataset.status`, 15*time.Second)
		pl.match = js[string](p, `location.pathname.slice('/play/'.length)`)
		pl.tok = js[string](p, fmt.Sprintf(`JSON.parse(localStorage.getItem('sortie.matches'))[%q].seats[0]`, pl.match))
		if got := js[string](p, `document.querySelector('.seat-list li[data-seat="0"] .seat-name').textContent`); got != pl.name {
			t.Errorf("%s: the seat is named %q, not %q", pl.lang, got, pl.name)
		}
	}
	if players[0].match == players[1].match {
		t.Fatal("both players sit at one match")
	}
	a, b := s.stepView(t, players[0].match, players[0].tok, 0), s.stepView(t, players[1].match, players[1].tok, 0)
	if ha, hb := fmt.Sprint(a["hand"]), fmt.Sprint(b["hand"]); ha != hb || ha == "" || ha == "<nil>" {
		t.Fatalf("the two entries are dealt\n%s\nand\n%s", ha, hb)
	}

	// Each plays it out, one after the other.
	for _, pl := range players {
		finished := false
		for range 400 {
			if st := pl.p.waitMove(60 * time.Second); st.Status == "finished" {
				finished = true
				break
			}
			playPDS(pl.p, false)
		}
		if !finished {
			t.Fatalf("%s: no end after 400 moves", pl.lang)
		}
	}
	for _, pl := range players {
		// The end screen's replay opens: the player's seat shows them their match.
		pl.p.wait(`window.sortie.page.replay && window.sortie.page.replay.log.length > 0`, 20*time.Second)
		if msg := pl.p.text("#review .error"); msg != "" {
			t.Errorf("%s: the end screen's replay says %q", pl.lang, msg)
		}
	}

	for _, pl := range players {
		d := dict(t, pl.lang)
		p := pl.p
		p.open("/daily")
		p.wait(`document.querySelectorAll('#daily-table-plandesecours tbody tr').length === 2`, 20*time.Second)
		rows := js[[][]string](p, `[...document.querySelectorAll('#daily-table-plandesecours tbody tr')].map((tr) => [...tr.children].map((c) => c.textContent))`)
		names := map[string]bool{}
		for _, r := range rows {
			names[r[1]] = true
			if r[0] != "1" && r[0] != "2" {
				t.Errorf("%s: a finished entry ranked %q: %v", pl.lang, r[0], r)
			}
			if r[2] != d["daily.won"] && r[2] != d["daily.lost"] {
				t.Errorf("%s: a finished entry's result reads %q", pl.lang, r[2])
			}
		}
		if !names["Ada"] || !names["Bruno"] {
			t.Errorf("%s: the day's table shows %v, not both players", pl.lang, rows)
		}
		if !js[bool](p, `!!document.querySelector('#daily-mine-plandesecours') && !document.querySelector('#daily-play-plandesecours')`) {
			t.Errorf("%s: a player who has played today's deal is offered another", pl.lang)
		}
		if got := js[string](p, `document.querySelector('#daily-mine-plandesecours').getAttribute('href')`); !strings.HasPrefix(got, "/play/"+pl.match) {
			t.Errorf("%s: the link to their match is %q", pl.lang, got)
		}
		proofreadTexts(t, pl.lang, js[[]string](p, `[...document.querySelectorAll('#daily p, #daily h1, #daily h2, #daily label, #daily caption, #daily th, #daily button, #daily a')].map((e) => e.textContent.trim()).filter(Boolean)`)...)
		for _, sz := range [][2]int64{{1366, 768}, {390, 844}} {
			p.size(sz[0], sz[1], false)
			p.wait(fmt.Sprintf(`innerWidth === %d`, sz[0]), 5*time.Second)
			p.noSideways(fmt.Sprintf("today's challenge at %dx%d", sz[0], sz[1]))
			p.shot(fmt.Sprintf("%dx%d", sz[0], sz[1]))
		}
		p.size(1280, 900, false)
		p.axe("today's challenge, " + pl.lang)
		p.checkErrors()
	}
}
