package web_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"sortie/games/plandesecours"
)

// apiHint asks the server for a hint as the page does, to compare.
func (s *site) apiHint(t *testing.T, id, token, query string) map[string]any {
	t.Helper()
	req, _ := http.NewRequest("GET", s.url+"/api/matches/"+id+"/hint?"+query, nil)
	req.Header.Set("Authorization", "Bearer "+token)
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	var out map[string]any
	if err := json.NewDecoder(r.Body).Decode(&out); err != nil || r.StatusCode != 200 {
		t.Fatalf("hint %s: %d %v", query, r.StatusCode, err)
	}
	return out
}

// Given a Plan de Secours match against a bot (hints on by default), when
// its player asks, by keyboard alone, for each level of hint in French and
// in English, then the panel says the nudge the server gives in the page's
// language, the bot's choice with its win chance and its best moves, and
// the verdict on a move chosen in the list; the answer is a status a screen
// reader hears, the panel fits the window at desktop and phone sizes and
// passes axe-core. Once the match is over, the end screen says the hints
// the player asked for.
func TestHintPanel(t *testing.T) {
	s := newSite(t, plandesecours.Game{})
	for _, lang := range []string{"fr", "en"} {
		t.Run(lang, func(t *testing.T) {
			d := dict(t, lang)
			p := s.browser("hints-"+lang, lang).tab("match")
			c := s.create("plandesecours", []string{"human", "medium"}, nil, 0, "Ana")
			p.openSeat(c, 0)
			p.waitMove(20 * time.Second)
			p.wait(`document.querySelector('#hints:not([hidden]) #hint-nudge')`, 5*time.Second)
			if got := p.text("#hints-h"); got != d["hints.title"] {
				t.Errorf("the panel's title is %q, want %q", got, d["hints.title"])
			}
			if role := js[string](p, `document.querySelector('#hint-answer').getAttribute('role')`); role != "status" {
				t.Errorf("the answer's role is %q: a screen reader would not hear it", role)
			}

			// Level 1, by keyboard: focus the nudge's button, press Enter.
			js[bool](p, `(document.querySelector('#hint-nudge').focus(), true)`)
			p.do("enter", chromedpKey("\r"))
			p.wait(`document.querySelector('#hint-answer .hint-nudge')`, 10*time.Second)
			want := s.apiHint(t, c.ID, c.Tokens[0], "level=1")["nudge"].(map[string]any)["text"].(map[string]any)[lang].(string)
			if got := p.text("#hint-answer .hint-nudge"); got != want {
				t.Errorf("the nudge reads %q, the server's %s sentence is %q", got, lang, want)
			}
			if id := js[string](p, `document.activeElement.id`); id != "hint-nudge" {
				t.Errorf("after the answer the keyboard is on %q, not on the button pressed", id)
			}

			// Level 2: Tab to the bot's choice, Enter.
			p.do("tab", chromedpKey("\t"))
			if id := js[string](p, `document.activeElement.id`); id != "hint-best" {
				t.Fatalf("Tab from the nudge reaches %q, not the bot's choice", id)
			}
			p.do("enter", chromedpKey("\r"))
			p.wait(`document.querySelector('#hint-answer .hint-best')`, 10*time.Second)
			best := p.text("#hint-answer .hint-best")
			pct := "%"
			if lang == "fr" {
				pct = "\u00a0%"
			}
			if !strings.Contains(best, pct) || !strings.HasPrefix(best, strings.SplitN(d["hints.bestIs"], "{", 2)[0]) {
				t.Errorf("the bot's choice reads %q", best)
			}
			if n := js[int](p, `document.querySelectorAll('#hint-answer ol.hint-top li').length`); n < 1 || n > 3 {
				t.Errorf("%d best moves listed", n)
			}
			if pressed := js[string](p, `document.querySelector('#hint-best').getAttribute('aria-pressed')`); pressed != "true" {
				t.Errorf("the bot's choice's button is not pressed (aria-pressed %q)", pressed)
			}

			p.shot("hints-best")

			// Level 3: a move of the list, checked.
			if !js[bool](p, `!!document.querySelector('#hint-action')`) {
				t.Fatal("no list of moves to check")
			}
			// The move of the longest name: the list must not widen the page.
			js[bool](p, `(() => { const s = document.querySelector('#hint-action');
				s.value = [...s.options].reduce((a, o) => (o.text.length > a.text.length ? o : a)).value;
				s.dispatchEvent(new Event('change', {bubbles: true})); document.querySelector('#hint-check-btn').focus(); return true; })()`)
			p.do("enter", chromedpKey("\r"))
			p.wait(`document.querySelector('#hint-answer .hint-verdict')`, 10*time.Second)
			band := js[string](p, `document.querySelector('#hint-answer .hint-verdict').dataset.band`)
			verdict := p.text("#hint-answer .hint-verdict")
			if word := d["hints.band."+band]; word == "" || !strings.Contains(verdict, word) {
				t.Errorf("the verdict %q does not say its band %q (%q)", verdict, band, word)
			}
			if compare := p.text("#hint-answer .hint-compare"); !strings.Contains(compare, pct) {
				t.Errorf("the check does not say the chances: %q", compare)
			}

			for _, sz := range [][2]int64{{1366, 768}, {390, 844}} {
				p.size(sz[0], sz[1], false)
				p.wait(fmt.Sprintf(`innerWidth === %d`, sz[0]), 5*time.Second)
				// The panel fits its column, and the column the window (the
				// board, drawn beside or above it, is another test's).
				r := js[[]float64](p, `(() => { const el = document.querySelector('#hints'), r = el.getBoundingClientRect(),
					c = el.parentElement.getBoundingClientRect(); return [r.left, r.right, c.left, c.right, c.width, innerWidth, el.scrollWidth - el.clientWidth]; })()`)
				if r[0] < r[2]-0.5 || r[1] > r[3]+0.5 || r[4] > r[5] || r[6] > 0 {
					t.Errorf("at %dx%d the panel spans %.0f..%.0f px in its column of %.0f..%.0f px, %.0f px wide in a %.0f px window (overflow %.0f)",
						sz[0], sz[1], r[0], r[1], r[2], r[3], r[4], r[5], r[6])
				}
				js[bool](p, `(document.querySelector('#hints').scrollIntoView(), true)`)
				p.shot(fmt.Sprintf("hints-%dx%d", sz[0], sz[1]))
			}
			p.size(1280, 900, false)
			p.axe("the hint panel, " + lang)

			if lang != "fr" {
				p.checkErrors()
				return
			}
			// Play the match out; the end says the hints asked.
			for range 200 {
				if st := p.waitMove(60 * time.Second); st.Status == "finished" {
					break
				}
				playPDS(p, false)
			}
			p.wait(`document.querySelector('#hints-used li')`, 20*time.Second)
			used := p.text("#hints-used li")
			if !strings.Contains(used, "3 conseils") || !strings.Contains(used, "une piste") || !strings.Contains(used, "un coup vérifié") {
				t.Errorf("the end says %q, not the three hints asked", used)
			}
			p.shot("hints-end")
			p.axe("the end screen with the hints used")
			p.checkErrors()
		})
	}
}
