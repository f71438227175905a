package web_test

import (
	"strconv"
	"strings"
	"testing"
	"time"

	"sortie/games/plandesecours"
	"sortie/internal/server"
)

// Given a Plan de Secours match played out against a bot on a server that
// reviews matches, when its end screen is open, then the review comes (it
// says "working" until then): the accuracy, the decisions by band, the
// chart of the win chance with its sentence, the costly moves with the
// move the bot preferred, each of which shows its step in the replay as
// the player saw it, and "learn from your mistakes" asks a costly
// decision's moves and says what the one picked was worth. In both
// languages, by keyboard, with axe-core.
func TestReviewOnTheEndScreen(t *testing.T) {
	s := newSiteWith(t, func(c *server.Config) { c.Reviews = true }, plandesecours.Game{})
	for _, lang := range []string{"fr", "en"} {
		t.Run(lang, func(t *testing.T) {
			d := dict(t, lang)
			p := s.browser("review-"+lang, lang).tab("match")
			c := s.create("plandesecours", []string{"human", "medium"}, nil, 0, "Ana")
			p.openSeat(c, 0)
			for range 300 {
				if st := p.waitMove(60 * time.Second); st.Status == "finished" {
					break
				}
				playPDS(p, false)
			}
			p.wait(`document.querySelector('#analysis-accuracy')`, 90*time.Second)
			acc := p.text("#analysis-accuracy")
			if !strings.HasPrefix(acc, strings.SplitN(d["review.accuracy"], "{", 2)[0]) || !strings.Contains(acc, "%") {
				t.Errorf("the accuracy reads %q", acc)
			}
			if got := js[string](p, `document.querySelector('#analysis svg[role=img]').getAttribute('aria-label')`); got == "" || got != p.text("#analysis figcaption") {
				t.Errorf("the chart says %q to a screen reader, its caption %q", got, p.text("#analysis figcaption"))
			}
			if n := js[int](p, `document.querySelectorAll('#analysis svg polyline').length`); n != 1 {
				t.Errorf("%d lines drawn in the chart", n)
			}
			if js[bool](p, `!!document.querySelector('#analysis-costly li')`) {
				line := p.text("#analysis-costly li")
				preferred := strings.SplitN(strings.SplitN(d["review.preferred"], "}. ", 2)[1], "{", 2)[0]
				if !strings.Contains(line, preferred) {
					t.Errorf("a costly move reads %q, without %q", line, preferred)
				}
				seq := js[int](p, `+document.querySelector('#analysis-costly li').dataset.seq`)
				js[bool](p, `(document.querySelector('#analysis-costly li button').focus(), true)`)
				p.do("enter", chromedpKey("\r"))
				p.wait(`document.querySelector('#review-board') && document.querySelector('#review-board').dataset.step === '`+strconv.Itoa(seq-1)+`' && document.querySelector('#review-board').dataset.seat === '0'`, 10*time.Second)
				// One step on, the replay says the decision's band and the
				// move the bot preferred.
				p.click("#step-next")
				p.wait(`document.querySelector('#step-text').textContent.includes(`+strconv.Quote(strings.SplitN(d["review.stepNote"], "{", 3)[1][len("band}"):])+`)`, 10*time.Second)
			} else {
				t.Logf("no costly move in this match")
			}
			if js[bool](p, `!!document.querySelector('#learn-start')`) {
				js[bool](p, `(document.querySelector('#learn-start').focus(), true)`)
				p.do("enter", chromedpKey("\r"))
				p.wait(`document.activeElement && document.activeElement.closest('#learn-choices')`, 5*time.Second)
				p.do("enter", chromedpKey("\r"))
				p.wait(`document.querySelector('#learn-verdict')`, 5*time.Second)
				if v := p.text("#learn-verdict"); v == "" {
					t.Errorf("no verdict after a move tried again")
				}
			} else {
				t.Logf("nothing to try again: %q", p.text("#analysis-learn"))
			}
			js[bool](p, `(document.querySelector('#analysis').scrollIntoView(), true)`)
			p.shot("review")
			p.axe("the review, " + lang)
			p.checkErrors()
		})
	}
}
