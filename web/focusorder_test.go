package web_test

import (
	"fmt"
	"testing"
	"time"
)

// tabsTo presses Tab until the focus is on an element matching sel and
// returns how many presses it took, or -1 after max.
func (p *page) tabsTo(sel string, max int) int {
	p.t.Helper()
	for n := 0; n <= max; n++ {
		if js[bool](p, fmt.Sprintf(`!!document.activeElement && document.activeElement.matches(%q)`, sel)) {
			return n
		}
		p.do("tab", chromedpKey("\t"))
	}
	return -1
}

// press focuses the element matching sel and presses Enter on it, as a
// keyboard user plays.
func (p *page) press(sel string) {
	p.t.Helper()
	if !js[bool](p, fmt.Sprintf(`(() => { const el = document.querySelector(%q); if (!el) return false; el.focus(); return document.activeElement === el; })()`, sel)) {
		p.t.Fatalf("%s: cannot focus %s", p.name, sel)
	}
	p.do("enter", chromedpKey("\r"))
}

// focusedText says where the focus is, for a failure's message.
func (p *page) focusedText() string {
	return js[string](p, `(() => { const a = document.activeElement; return a ? a.tagName + '#' + a.id + '.' + a.className.baseVal + a.className + ' ' + (a.getAttribute('aria-label') || a.textContent).slice(0, 60) : 'none'; })()`)
}

// TestNextDecisionIsOneTabAway plays by keyboard (the focus on a control,
// Enter) and counts the Tab presses from where the focus is when the
// player's next decision comes to its first control: one at most (the
// focus waits just before it), where it took 26 to 36.
func TestNextDecisionIsOneTabAway(t *testing.T) {
	t.Run("evades", func(t *testing.T) {
		bc := boardCases["evades"]
		s := newSite(t, bc.game)
		c := s.create("evades", bc.seats, bc.options, 300, "Ada")
		p := s.browser("ada", "en").tab("ev")
		p.openSeat(c, 0)
		// A turn may open on another decision (a Pass-Pass card the bot
		// played on the player): it is answered with the first action of the
		// list, until the turn's draw comes.
		// It says whether the draw came with nothing between (the focus
		// then stands where the page put it).
		toDraw := func() bool {
			t.Helper()
			for try := 0; ; try++ {
				p.waitMove(60 * time.Second)
				if p.waitOK(`document.querySelector('#ev-take-blind:not([disabled])')`, 3*time.Second) {
					return try == 0
				}
				if try == 5 {
					t.Fatalf("no draw to make after %d other decisions", try)
				}
				seq := p.state().Seq
				js[bool](p, `(document.querySelector('#actions button.legal').click(), true)`)
				p.wait(fmt.Sprintf(`+document.querySelector('.match-page').dataset.seq > %d`, seq), 10*time.Second)
			}
		}
		for turn := 0; turn < 2; turn++ {
			toDraw()
			seq := p.state().Seq
			p.press("#ev-take-blind")
			p.wait(fmt.Sprintf(`+document.querySelector('.match-page').dataset.seq > %d && document.querySelector('#ev-end-turn:not([disabled])')`, seq), 10*time.Second)
			if n := p.tabsTo("#ev-controls button:not([disabled])", 40); n != 0 {
				t.Errorf("turn %d, step 2: %d Tab presses to its first control from %s", turn+1, n, p.focusedText())
			}
			p.press("#ev-end-turn")
			plain := toDraw()
			time.Sleep(300 * time.Millisecond) // (the last redraws)
			if n := p.tabsTo("#ev-controls button:not([disabled])", 40); plain && (n < 0 || n > 1) {
				t.Errorf("turn %d: %d Tab presses to the next turn's first control from %s", turn+2, n, p.focusedText())
			}
		}
		p.checkErrors()
	})
	t.Run("room25", func(t *testing.T) {
		bc := boardCases["room25"]
		s := newSite(t, bc.game)
		c := s.create("room25", bc.seats, bc.options, 300, "Ada")
		p := s.browser("ada", "en").tab("r25")
		p.openSeat(c, 0)
		decisions := 0
		for i := 0; i < 9; i++ {
			p.waitMove(60 * time.Second)
			p.wait(`document.querySelector('#r25-controls button:not([disabled])')`, 10*time.Second)
			time.Sleep(300 * time.Millisecond)
			d := js[string](p, `(document.querySelector('#r25-controls')||{dataset:{}}).dataset.decision || ''`)
			if i > 0 {
				decisions++
				if n := p.tabsTo("#r25-controls button:not([disabled])", 40); n < 0 || n > 1 {
					t.Errorf("decision %s: %d Tab presses to its first control from %s", d, n, p.focusedText())
				}
			}
			seq := p.state().Seq
			switch d {
			case "start_look":
				p.press("#r25-skip")
			case "program":
				p.press(`.token-btn[data-token="move"]`)
				p.press("#r25-confirm")
			default:
				p.press("#r25-controls button[data-act]:not([disabled])")
			}
			p.wait(fmt.Sprintf(`+document.querySelector('.match-page').dataset.seq > %d`, seq), 10*time.Second)
		}
		if decisions < 5 {
			t.Errorf("only %d decisions seen", decisions)
		}
		p.checkErrors()
	})
	t.Run("temple", func(t *testing.T) {
		bc := boardCases["temple"]
		s := newSite(t, bc.game)
		c := s.create("temple", bc.seats, bc.options, 300, "Ada")
		p := s.browser("ada", "en").tab("tp")
		p.openSeat(c, 0)
		p.wait(`document.querySelector('#tp-roll')`, 30*time.Second)
		moved := 0
		for began := time.Now(); moved < 2 && time.Since(began) < 90*time.Second; {
			if js[bool](p, `!!document.querySelector('#tp-map .can')`) {
				seq := p.state().Seq
				p.press("#tp-map .can")
				p.wait(fmt.Sprintf(`+document.querySelector('.match-page').dataset.seq > %d`, seq), 10*time.Second)
				time.Sleep(300 * time.Millisecond)
				moved++
				if n := p.tabsTo("#tp-roll", 60); n < 0 || n > 1 {
					t.Errorf("after moving: %d Tab presses to Roll from %s", n, p.focusedText())
				}
				continue
			}
			// Black masks lock dice: a gold mask frees them, as a player
			// would (else the dice may all end locked, and nothing enters).
			if js[bool](p, `!!document.querySelector('.tp-tray button[data-act="unlock"]:not([disabled])')`) {
				seq := p.state().Seq
				p.press(`.tp-tray button[data-act="unlock"]:not([disabled])`)
				p.wait(fmt.Sprintf(`+document.querySelector('.match-page').dataset.seq > %d`, seq), 10*time.Second)
				continue
			}
			if js[bool](p, `document.querySelector('#tp-roll').getAttribute('aria-disabled') !== 'true'`) {
				p.press("#tp-roll")
			}
			time.Sleep(700 * time.Millisecond)
		}
		if moved == 0 {
			t.Error("no chamber could be entered in 90 s")
		}
		p.checkErrors()
	})
}
