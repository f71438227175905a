package web_test

import (
	"strings"
	"testing"
	"time"
)

// TestNamesSayWhatIsDrawn: in Les Évadés, in English and French, every
// door's accessible name begins with the word drawn on it (WCAG 2.5.3:
// a voice-control user says "click Cigs"); in Plan de Secours a tile of
// the hand is named once, not by its picture and its caption both, and the
// top of the stack is a picture (role img), not a focusable box with no
// role.
func TestNamesSayWhatIsDrawn(t *testing.T) {
	t.Run("evades", func(t *testing.T) {
		bc := boardCases["evades"]
		s := newSite(t, bc.game)
		c := s.create("evades", bc.seats, bc.options, 400, "Ada")
		for _, lang := range []string{"en", "fr"} {
			p := s.browser("ada-"+lang, lang).tab("doors")
			p.openSeat(c, 0)
			p.wait(`document.querySelector('#ev-map .door text')`, 30*time.Second)
			type door struct{ Drawn, Name string }
			doors := js[[]door](p, `[...document.querySelectorAll('#ev-map .door')].map((d) => ({Drawn: d.querySelector('text').textContent, Name: d.getAttribute('aria-label')}))`)
			if len(doors) < 20 {
				t.Fatalf("%s: %d doors drawn", lang, len(doors))
			}
			shorter := 0
			for _, d := range doors {
				if !strings.HasPrefix(d.Name, d.Drawn) {
					t.Errorf("%s: the door showing %q is named %q", lang, d.Drawn, d.Name)
				}
				if !strings.Contains(strings.ToLower(d.Name[len(d.Drawn):]), strings.ToLower(strings.TrimSuffix(d.Drawn, "."))) {
					shorter++ // the drawn word is short for the card's name
				}
			}
			if lang == "en" && shorter == 0 {
				t.Error("no door shows a shortened card name: the test sees nothing")
			}
			p.checkErrors()
		}
	})
	t.Run("plandesecours", func(t *testing.T) {
		bc := boardCases["plandesecours"]
		s := newSite(t, bc.game)
		c := s.create("plandesecours", bc.seats, bc.options, 400, "Ada")
		p := s.browser("ada", "en").tab("tiles")
		p.openSeat(c, 0)
		p.wait(bc.ready, 30*time.Second)
		names := p.accNames("#pds-hand .tile-btn")
		captions := js[[]string](p, `[...document.querySelectorAll('#pds-hand .tile-btn .name')].map((n) => n.textContent)`)
		if len(names) == 0 || len(names) != len(captions) {
			t.Fatalf("tile names %q, captions %q", names, captions)
		}
		for i, n := range names {
			if !strings.HasPrefix(n, captions[i]) || strings.Count(n, captions[i]) != 1 {
				t.Errorf("the tile captioned %q is named %q", captions[i], n)
			}
		}
		top := js[map[string]string](p, `(() => { const el = document.querySelector('#pds-top .top-wrap'); return {role: el.getAttribute('role') || '', name: el.getAttribute('aria-label') || '', tab: el.getAttribute('tabindex') || ''}; })()`)
		if top["role"] != "img" || !strings.HasPrefix(top["name"], "Top of the stack: ") {
			t.Errorf("the top of the stack is %v", top)
		}
		p.axe("Plan de Secours's hand and stack")
		p.checkErrors()
	})
}
