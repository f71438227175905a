package web_test

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"sortie/engine"
	"sortie/games/evades"
	"sortie/games/outran"
	"sortie/games/plandesecours"
	"sortie/games/room25"
	"sortie/games/temple"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// glyphsOK is the characters a page may write as text: Latin letters with
// their accents, punctuation and the usual typographic signs, which every
// system font draws. Symbols (arrows, shapes, dice faces) are SVG.
const glyphsOK = `/[^\u0009-\u000d\u0020-\u007e\u00a0-\u017f\u2010-\u2027\u2030-\u203a\u2212]/`

// strangeGlyphs lists the characters under sel that fonts may not draw.
func (p *page) strangeGlyphs(sel string) []string {
	p.t.Helper()
	return js[[]string](p, fmt.Sprintf(`(() => { const out = new Set(); const re = %s;
		const w = document.createTreeWalker(document.querySelector(%q) || document.body, NodeFilter.SHOW_TEXT);
		while (w.nextNode()) { if (w.currentNode.parentElement.closest('style,script,title')) continue;
			for (const c of w.currentNode.textContent) if (re.test(c)) out.add(c + ' in “' + w.currentNode.textContent.trim().slice(0, 40) + '”'); }
		return [...out]; })()`, glyphsOK, sel))
}

// noSideways fails when the page scrolls sideways.
func (p *page) noSideways(what string) {
	p.t.Helper()
	if w := js[[]int](p, `[document.documentElement.scrollWidth, innerWidth]`); w[0] > w[1] {
		p.t.Errorf("%s: the page is %d px wide in a %d px window: it scrolls sideways", what, w[0], w[1])
	}
}

// axe runs the axe-core audit on the page, from the axe.min.js named by
// SORTIE_AXE (.ci/run installs it from npm), and fails on serious or
// critical violations. Without it the audit is skipped with a note, except
// with CI=true.
func (p *page) axe(what string) {
	p.t.Helper()
	path := os.Getenv("SORTIE_AXE")
	if path == "" {
		if os.Getenv("CI") == "true" {
			p.t.Fatal("SORTIE_AXE is not set and CI=true: install axe-core from npm and name its axe.min.js")
		}
		p.t.Logf("%s: no axe-core audit (set SORTIE_AXE to axe-core's axe.min.js)", what)
		return
	}
	src, err := os.ReadFile(path)
	if err != nil {
		p.t.Fatalf("axe-core: %v", err)
	}
	js[bool](p, string(src)+";true")
	raw := js[string](p, `axe.run(document, {resultTypes: ['violations']}).then((r) => JSON.stringify(r.violations
		.filter((v) => v.impact === 'serious' || v.impact === 'critical')
		.map((v) => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => n.target.join(' ') + ': ' + (n.failureSummary || '').split('\n').slice(0, 2).join(' '))}))))`)
	var vs []struct {
		ID, Impact, Help string
		Nodes            []string
	}
	if err := json.Unmarshal([]byte(raw), &vs); err != nil {
		p.t.Fatalf("axe-core answer: %v", err)
	}
	for _, v := range vs {
		p.t.Errorf("%s: axe %s (%s): %s %q", what, v.ID, v.Impact, v.Help, v.Nodes)
	}
}

// boardCase is how a test reaches a game's board and which kinds of pieces
// must explain themselves there.
type boardCase struct {
	game    engine.Game
	seats   []string
	options map[string]string
	ready   string   // JavaScript: the board is ready to look at
	pieces  []string // a selector for each kind of piece
}

var boardCases = map[string]boardCase{
	"plandesecours": {plandesecours.Game{}, []string{"human", "medium", "medium"}, map[string]string{"danger": "true"},
		`document.querySelector('#pds-hand .tile-btn')`,
		[]string{"#pds-hand .tile-btn", "#pds-top .top-wrap", ".pds .card.floor"}},
	"evades": {evades.Game{}, []string{"human", "medium"}, map[string]string{"first_player": "0"},
		`document.querySelector('#ev-plan')`,
		[]string{"#ev-map .door", "#ev-map .area", "#ev-hand .card-btn", "#ev-row .card-btn", "#ev-plan"}},
	"room25": {room25.Game{}, []string{"human", "medium"}, nil,
		`document.querySelector('#r25-grid .r25-cell')`,
		[]string{"#r25-grid .r25-cell", "#r25-grid .r25-arrow"}},
	"temple": {temple.Game{}, []string{"human", "medium"}, nil,
		`document.querySelector('#tp-dice .die')`,
		[]string{"#tp-dice .die", "#tp-map .tp-chamber", ".tp .mini-die", "#tp-roll"}},
	"outran": {outran.Game{}, []string{"human", "medium"}, map[string]string{"countdown_ms": "2000"},
		`document.querySelector('#or-palette .or-card')`,
		[]string{"#or-palette .or-card", ".or-trail"}},
}

// TestBoardsOnAPhoneAndByScreenReader opens each game's board at phone
// size (390×844) and at desktop size in dark mode: the page never scrolls
// sideways, every symbol is SVG (no text glyph fonts may lack), every kind
// of piece has a tooltip a screen reader reads (aria-describedby), and
// axe-core finds no serious or critical violation.
func TestBoardsOnAPhoneAndByScreenReader(t *testing.T) {
	for id, bc := range boardCases {
		t.Run(id, func(t *testing.T) {
			s := newSite(t, bc.game)
			c := s.create(id, bc.seats, bc.options, 400, "Ada")
			p := s.browser("ada", "en").tab(id)
			p.size(390, 844, false)
			p.openSeat(c, 0)
			p.wait(bc.ready, 30*time.Second)
			p.noSideways(id + " at 390 px")
			p.shot("phone")
			if g := p.strangeGlyphs(".match-page"); len(g) > 0 {
				t.Errorf("characters that fonts may not draw: %q", g)
			}
			for _, sel := range bc.pieces {
				ok := js[bool](p, fmt.Sprintf(`(() => { const el = document.querySelector(%q); if (!el || !el.dataset.tip) return false;
					const ids = (el.getAttribute('aria-describedby') || '').split(' ').filter(Boolean);
					return ids.some((i) => (document.getElementById(i) || {}).textContent === el.dataset.tip); })()`, sel))
				if !ok {
					t.Errorf("%s has no tooltip that a screen reader reads", sel)
				}
			}
			// The tooltip shows on keyboard focus.
			p.focusByKeys(bc.pieces[0])
			p.wait(`document.querySelector('#tip') && !document.querySelector('#tip').hidden && document.querySelector('#tip').textContent.length > 10`, 15*time.Second) // (a loaded machine is slow to draw it)
			p.axe(id + " board")
			p.size(1400, 900, false)
			p.wait(bc.ready, 10*time.Second)
			p.do("Escape", chromedpKey(kb.Escape)) // the tooltip the keyboard opened
			js[bool](p, `(document.activeElement && document.activeElement.blur(), true)`)
			p.wait(`!document.querySelector('#tip') || document.querySelector('#tip').hidden`, 5*time.Second)
			p.shot("desktop")
			p.size(1400, 900, true)
			p.wait(bc.ready, 10*time.Second)
			p.shot("desktop-dark")
			p.checkErrors()
		})
	}
}

// TestHelpPages opens every game's How to play page in both languages: a
// title, the game's pieces drawn as SVG with their explanations, a
// first-turn walkthrough, no missing text, and at phone width no sideways
// scrolling; the lobby and the match page link to them.
func TestHelpPages(t *testing.T) {
	s := newSite(t, plandesecours.Game{}, evades.Game{}, room25.Game{}, temple.Game{}, outran.Game{})
	for _, lang := range []string{"en", "fr"} {
		p := s.browser("reader-"+lang, lang).tab("help")
		p.size(390, 844, false)
		for _, g := range []string{"plandesecours", "evades", "room25", "temple", "outran"} {
			p.open("/help/" + g)
			p.wait(`document.querySelector('#help .first-turn li')`, 10*time.Second)
			what := g + " (" + lang + ")"
			if n := js[int](p, `document.querySelectorAll('.help-pieces li svg').length`); n < 5 {
				t.Errorf("%s: %d pieces drawn", what, n)
			}
			if n := js[int](p, `document.querySelectorAll('.first-turn li').length`); n < 3 {
				t.Errorf("%s: a first turn of %d steps", what, n)
			}
			if missing := js[string](p, `(document.body.innerText.match(/\b(help|tip|pieces)\.[a-z0-9_.]+/) || [''])[0]`); missing != "" {
				t.Errorf("%s: no text for %s", what, missing)
			}
			if title := js[string](p, `document.title`); !strings.Contains(title, js[string](p, `document.querySelector('h1').textContent.replace(/^[^A-Z]*/, '').slice(0, 6)`)) {
				t.Errorf("%s: page title %q does not name the page", what, title)
			}
			if g := p.strangeGlyphs("#help"); len(g) > 0 {
				t.Errorf("%s: characters that fonts may not draw: %q", what, g)
			}
			if lang == "fr" && js[string](p, `document.documentElement.lang`) != "fr" {
				t.Errorf("%s: the page is not in French", what)
			}
			p.noSideways(what)
			if g == "room25" {
				p.shot("help-" + lang)
				p.axe("help " + what)
			}
		}
		p.open("/")
		p.wait(`document.querySelector('.game-card .howto')`, 10*time.Second)
		if n := js[int](p, `document.querySelectorAll('.game-card .howto[href^="/help/"]').length`); n != 5 {
			t.Errorf("the lobby links %d help pages", n)
		}
		if n := js[int](p, `document.querySelectorAll('.game-card svg.picture').length`); n != 5 {
			t.Errorf("the lobby shows %d game pictures", n)
		}
		p.noSideways("lobby (" + lang + ")")
		p.axe("lobby (" + lang + ")")
		if lang == "en" { // the lobby's pictures in docs/screenshots
			p.shot("lobby-phone")
			p.size(1400, 900, false)
			p.shot("lobby-desktop")
			p.size(1400, 900, true)
			p.shot("lobby-dark")
		}
		p.checkErrors()
	}
}

// TestKeyboardKeepsFocus plays Plan de Secours by keyboard: after a tile is
// laid the focus stays on the board, not on the page's body; with
// single-key shortcuts turned off a digit lays nothing; L twice never plays
// LOST without a confirmation. In the Temple, the focus stays on Roll
// while the board is redrawn, and in the lobby on the status tabs through
// the list's refresh.
func TestKeyboardKeepsFocus(t *testing.T) {
	s := newSite(t, plandesecours.Game{}, temple.Game{})
	c := s.create("plandesecours", []string{"human", "medium"}, nil, 300, "Kim")
	p := s.browser("kim", "en").tab("match")
	p.openSeat(c, 0)
	p.recordSends()
	sent := func(kind string) int {
		return js[int](p, fmt.Sprintf(`window.sortieSent.filter((m) => m.msg.action && m.msg.action.type === %q).length`, kind))
	}
	st := p.waitMove(30 * time.Second)
	js[bool](p, `(document.querySelector('#pds-hand .tile-btn[data-act]').focus(), true)`)
	p.do("enter", chromedpKey("\r"))
	if js[bool](p, `!!document.querySelector('.facing-pick')`) {
		p.wait(`document.activeElement && document.activeElement.closest('.facing-pick')`, 5*time.Second)
		p.do("enter", chromedpKey("\r"))
	}
	p.wait(sprintf(`+document.querySelector('.match-page').dataset.seq > %d`, st.Seq), 10*time.Second)
	// Through the bot's move and back to my turn, the focus stays on the board.
	st = p.waitMove(30 * time.Second)
	if js[bool](p, `document.activeElement === document.body || !document.querySelector('#board').contains(document.activeElement)`) {
		t.Errorf("after laying a tile the focus is on %s", js[string](p, `document.activeElement.outerHTML.slice(0, 80)`))
	}

	// Shortcuts off: a digit does nothing.
	p.click("#pref-shortcuts")
	js[bool](p, `(document.activeElement.blur(), true)`)
	before := sent("play_tile")
	p.do("key 1", chromedpKey("1"))
	time.Sleep(500 * time.Millisecond) // a send would be immediate
	if sent("play_tile") != before {
		t.Error("with shortcuts off, the 1 key laid a tile")
	}
	p.click("#pref-shortcuts")
	js[bool](p, `(document.activeElement.blur(), true)`)
	// L twice: LOST is armed, never played without a confirmation.
	p.do("key l", chromedpKey("l"))
	p.do("key l", chromedpKey("l"))
	p.wait(`document.querySelector('#pds-lost.primary')`, 5*time.Second)
	time.Sleep(300 * time.Millisecond)
	if sent("play_lost") != 0 {
		t.Error("two presses of L played LOST")
	}
	p.do("key 1", chromedpKey("1"))
	p.wait(sprintf(`window.sortieSent.filter((m) => m.msg.action && m.msg.action.type === 'play_tile').length > %d || document.querySelector('.facing-pick')`, before), 5*time.Second)
	p.checkErrors()

	// The Temple redraws several times a second: Roll keeps the focus.
	tc := s.create("temple", []string{"human", "medium"}, nil, 0, "Kim")
	tp := p.b.tab("temple")
	tp.openSeat(tc, 0)
	tp.wait(`document.querySelector('#tp-roll')`, 15*time.Second)
	js[bool](tp, `(document.querySelector('#tp-roll').focus(), true)`)
	seq := tp.state().Seq
	tp.wait(sprintf(`+document.querySelector('.match-page').dataset.seq > %d`, seq+3), 20*time.Second)
	if id := js[string](tp, `document.activeElement.id`); id != "tp-roll" {
		t.Errorf("after the Temple's redraws the focus is on %q, not Roll", id)
	}
	tp.checkErrors()

	// The lobby's list refreshes every 5 s: the focused tab keeps the focus.
	lp := p.b.tab("lobby")
	lp.open("/")
	lp.wait(`document.querySelector('#tab-finished')`, 10*time.Second)
	lp.click("#tab-finished")
	lp.wait(`document.querySelector('#tab-finished[aria-selected="true"]')`, 5*time.Second)
	js[bool](lp, `(document.querySelector('#tab-finished').focus(), window.sortieFocusAt = Date.now(), true)`)
	lp.wait(`Date.now() - window.sortieFocusAt > 5600`, 10*time.Second) // past one refresh
	if id := js[string](lp, `document.activeElement.id`); id != "tab-finished" {
		t.Errorf("after the lobby's refresh the focus is on %q", id)
	}
	lp.checkErrors()
}

// TestTooltipsCanBeHovered checks WCAG 1.4.13 with a mouse: a piece's
// tooltip stays while the pointer moves from the piece onto it and rests
// there, goes when the pointer leaves both, and a click on it or Escape
// closes it; one opened by the keyboard lets clicks through.
func TestTooltipsCanBeHovered(t *testing.T) {
	bc := boardCases["evades"]
	s := newSite(t, bc.game)
	c := s.create("evades", bc.seats, bc.options, 400, "Ada")
	p := s.browser("ada", "en").tab("tips")
	p.size(1400, 900, false)
	p.openSeat(c, 0)
	p.wait(bc.ready, 30*time.Second)
	type rect struct{ X, Y, W, H float64 }
	rectOf := func(sel string) rect {
		return js[rect](p, fmt.Sprintf(`(() => { const r = document.querySelector(%q).getBoundingClientRect();
			return {X: r.left, Y: r.top, W: r.width, H: r.height}; })()`, sel))
	}
	move := func(x, y float64) {
		p.do("move the pointer", chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, x, y))
	}
	const shown = `document.querySelector('#tip') && !document.querySelector('#tip').hidden`
	const piece = "#ev-hand .card-btn"
	hover := func() rect {
		t.Helper()
		js[bool](p, fmt.Sprintf(`(document.querySelector(%q).scrollIntoView({block: 'center'}), true)`, piece))
		r := rectOf(piece)
		move(r.X+r.W/2, r.Y+r.H/2)
		p.wait(shown, 5*time.Second)
		return rectOf("#tip")
	}

	// From the piece onto the tooltip, where the pointer rests past the
	// time a tooltip left behind takes to go.
	tip := hover()
	said := js[string](p, `document.querySelector('#tip').textContent`)
	move(tip.X+tip.W/2, tip.Y+tip.H/2)
	time.Sleep(700 * time.Millisecond)
	if !js[bool](p, shown) || js[string](p, `document.querySelector('#tip').textContent`) != said {
		t.Fatal("the tooltip went while the pointer rested on it")
	}
	if !js[bool](p, fmt.Sprintf(`document.elementFromPoint(%f, %f) === document.querySelector('#tip')`, tip.X+tip.W/2, tip.Y+tip.H/2)) {
		t.Fatal("the pointer on the tooltip is not on it but on what is beneath")
	}
	p.axe("a tooltip shown")
	// Away from both: it goes.
	move(5, 5)
	p.wait(`document.querySelector('#tip').hidden`, 3*time.Second)

	// A click on it closes it (and reaches nothing beneath).
	tip = hover()
	move(tip.X+tip.W/2, tip.Y+tip.H/2)
	p.do("click the tooltip", chromedp.MouseClickXY(tip.X+tip.W/2, tip.Y+tip.H/2))
	p.wait(`document.querySelector('#tip').hidden`, 3*time.Second)

	// Escape closes it while the pointer is still on the piece.
	hover()
	p.do("escape", chromedpKey(kb.Escape))
	p.wait(`document.querySelector('#tip').hidden`, 3*time.Second)

	// One the keyboard opened lets clicks through to what it covers: a
	// player who picked with keys and confirms with the mouse must not lose
	// the click (Room 25's program, whose Confirm lies under the tokens).
	move(5, 5)
	p.focusByKeys(piece)
	p.wait(shown, 5*time.Second)
	tip = rectOf("#tip")
	if js[bool](p, fmt.Sprintf(`document.elementFromPoint(%f, %f) === document.querySelector('#tip')`, tip.X+tip.W/2, tip.Y+tip.H/2)) {
		t.Error("a tooltip opened by the keyboard catches the clicks meant for what it covers")
	}
	p.checkErrors()
}

// focusByKeys moves the keyboard focus onto the element sel as a reader
// does, with Tab (a tooltip opens only on the reader's own moves).
func (p *page) focusByKeys(sel string) {
	p.t.Helper()
	js[bool](p, fmt.Sprintf(`(document.querySelector(%q).focus(), true)`, sel))
	p.do("shift-tab", chromedp.KeyEvent(kb.Tab, chromedp.KeyModifiers(chromedp.ModifierShift)))
	p.do("tab", chromedpKey(kb.Tab))
	if !js[bool](p, fmt.Sprintf(`document.activeElement === document.querySelector(%q)`, sel)) {
		p.t.Fatalf("%s: Tab does not come back to %s but to %s", p.name, sel, js[string](p, `document.activeElement.outerHTML.slice(0, 80)`))
	}
}

// TestTooltipsOnlyOnDeliberateMoves: a tooltip opens when the reader moves
// the pointer onto a piece or the keyboard focus onto it (WCAG 1.4.13),
// never by itself. After a tile laid by keyboard, the focus the page puts
// back on a piece of the board opens none (one used to open over the board
// and stay); in Les Évadés, a tooltip closed by Escape stays closed when
// the board is redrawn under the still pointer (it used to open again).
func TestTooltipsOnlyOnDeliberateMoves(t *testing.T) {
	s := newSite(t, plandesecours.Game{}, evades.Game{})
	const shown = `document.querySelector('#tip') && !document.querySelector('#tip').hidden`
	const hidden = `!document.querySelector('#tip') || document.querySelector('#tip').hidden`

	c := s.create("plandesecours", []string{"human", "medium"}, nil, 300, "Kim")
	p := s.browser("kim", "en").tab("keys")
	p.openSeat(c, 0)
	st := p.waitMove(30 * time.Second)
	p.focusByKeys(`#pds-hand .tile-btn[data-act]`)
	p.wait(shown, 5*time.Second)
	p.do("enter", chromedpKey("\r"))
	if js[bool](p, `!!document.querySelector('.facing-pick')`) {
		p.wait(`document.activeElement && document.activeElement.closest('.facing-pick')`, 5*time.Second)
		p.do("enter", chromedpKey("\r"))
	}
	p.wait(sprintf(`+document.querySelector('.match-page').dataset.seq > %d`, st.Seq), 10*time.Second)
	p.waitMove(30 * time.Second) // through the bot's move, back to Kim
	if !js[bool](p, `!!(document.activeElement && document.activeElement.closest('#board [data-tip]'))`) {
		t.Fatalf("after the tile the focus is on %s, not on a piece of the board", js[string](p, `document.activeElement.outerHTML.slice(0, 80)`))
	}
	time.Sleep(300 * time.Millisecond)
	if js[bool](p, shown) {
		t.Errorf("the focus put back on %q opened its tooltip %q over the board", js[string](p, `document.activeElement.dataset.key || document.activeElement.id`), p.text("#tip"))
	}
	// The reader's own move along the hand opens the next one's.
	p.do("tab", chromedpKey(kb.Tab))
	if js[bool](p, `!!document.activeElement.closest('[data-tip]')`) {
		p.wait(shown, 5*time.Second)
	}
	p.checkErrors()

	bc := boardCases["evades"]
	ce := s.create("evades", bc.seats, bc.options, 400, "Eve")
	e := s.browser("eve", "en").tab("pointer")
	e.size(1400, 900, false)
	e.openSeat(ce, 0)
	e.wait(bc.ready, 30*time.Second)
	at := js[[]float64](e, `(() => { const d = document.querySelector('#ev-map .door[data-door="d07"]'); d.scrollIntoView({block: 'center'});
		const r = d.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()`)
	e.do("move onto a door", chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, at[0], at[1]))
	e.wait(shown, 5*time.Second)
	redraw := func() {
		t.Helper()
		js[bool](e, `(() => { const pg = window.sortie.page; document.querySelector('#ev-map').dataset.old = '1'; pg.setState({...pg.msg}, []); return true; })()`)
		if js[bool](e, `document.querySelector('#ev-map').dataset.old === '1'`) {
			t.Fatal("the board was not drawn again")
		}
		time.Sleep(400 * time.Millisecond)
	}
	// Open, it follows its piece through a redraw.
	redraw()
	if !js[bool](e, shown) {
		t.Error("a tooltip under the resting pointer went with a redraw")
	}
	e.do("escape", chromedpKey(kb.Escape))
	e.wait(hidden, 3*time.Second)
	redraw()
	redraw()
	if js[bool](e, shown) {
		t.Errorf("closed by Escape, the tooltip %q opened again when the board was redrawn under the still pointer", e.text("#tip"))
	}
	// Moving on to another piece opens its own.
	at = js[[]float64](e, `(() => { const r = document.querySelector('#ev-map .door[data-door="d01"]').getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()`)
	e.do("move onto another door", chromedp.MouseEvent(input.DispatchMouseEventTypeMouseMoved, at[0], at[1]))
	e.wait(shown, 5*time.Second)
	e.checkErrors()
}
