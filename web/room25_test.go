package web_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"sortie/games/room25"
)

// playRoom25 plays one decision of Room 25 through the page: no first look,
// an honest-looking hint, two tokens for each character (by keyboard), and
// the first choice the board offers in the action phase (a button, or a
// highlighted room or arrow of the complex).
func playRoom25(p *page, look bool) string {
	p.t.Helper()
	decision := js[string](p, `(document.querySelector('#r25-controls')||{dataset:{}}).dataset.decision || ''`)
	switch decision {
	case "start_look":
		if look {
			p.click(`#r25-controls button[data-act="start_look"]`)
		} else {
			p.click("#r25-skip")
		}
	case "hint":
		p.click(`#r25-controls button[data-act="hint"]`)
	case "program":
		// Keyboard: 2 then 1 picks Move then Look.
		p.do("program", chromedpKey("2"))
		p.do("program", chromedpKey("1"))
		p.wait(`!document.querySelector('#r25-confirm').disabled`, 5*time.Second)
		p.click("#r25-confirm")
	case "":
		p.t.Fatalf("%s: my turn, but no decision on the board", p.name)
	default:
		if js[bool](p, `!!document.querySelector('#r25-controls button[data-act]:not([disabled])')`) {
			p.click(`#r25-controls button[data-act]:not([disabled])`)
		} else {
			p.click(`#r25-grid .can`)
		}
	}
	return decision
}

// TestRoom25AgainstBots plays a cooperation match with a heuristic bot
// through the page, to the end.
func TestRoom25AgainstBots(t *testing.T) {
	s := newSite(t, room25.Game{})
	p := s.browser("rita", "en").tab("match")
	p.createMatch("room25", []string{"human", "heuristic"}, nil, "Rita")
	p.click("#play-link")
	p.wait(`document.querySelector('#r25-grid')`, 10*time.Second)
	if n := js[int](p, `document.querySelectorAll('#r25-grid .r25-cell').length`); n != 25 {
		t.Errorf("%d cells drawn, want 25", n)
	}
	if n := js[int](p, `document.querySelectorAll('#r25-grid .r25-arrow.locked').length`); n != 4 {
		t.Errorf("%d locked slide arrows, want the 4 of the central row and column", n)
	}
	kinds := map[string]int{}
	deadline := time.Now().Add(100 * time.Second)
	for {
		st := p.waitMove(40 * time.Second)
		if st.Status == "finished" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("not over after %v", kinds)
		}
		if kinds["program"] == 1 {
			p.shot("action")
		}
		kinds[playRoom25(p, true)]++
		p.wait(fmt.Sprintf(`(() => { const d = document.querySelector('.match-page').dataset; return +d.seq > %d || d.busy !== 'true'; })()`, st.Seq), 10*time.Second)
	}
	t.Logf("decisions: %v", kinds)
	if kinds["program"] == 0 {
		t.Error("no programming was ever done")
	}
	p.wait(`document.querySelector('#end-headline')`, 10*time.Second)
	p.wait(`document.querySelector('#review-board #r25-grid')`, 10*time.Second)
	p.shot("end")
	p.axe("Room 25's end and review")
	p.checkErrors()
}

// TestRoom25TwoHumans has two players in two browsers: each looks at a room
// and programs its characters; neither page holds the other's program or
// the identity of the room the other looked at.
func TestRoom25TwoHumans(t *testing.T) {
	s := newSite(t, room25.Game{})
	host := s.browser("host", "en").tab("match")
	host.createMatch("room25", []string{"human", "human"}, nil, "Hugo")
	invite := js[string](host, `document.querySelector('.invites li[data-seat="1"] .invite-url').value`)
	host.click("#play-link")
	guest := s.browser("guest", "en").tab("match")
	guest.do("open invite", chromedpNavigate(invite))
	guest.wait(`document.querySelector('#join-name')`, 10*time.Second)
	guest.click("#join-btn")
	for _, p := range []*page{host, guest} {
		p.wait(`document.querySelector('#r25-grid') && document.querySelector('.match-page').dataset.status === 'running'`, 10*time.Second)
	}
	// Both look at a room first (different ones), hint, and program.
	looked := map[*page]string{}
	for round := 0; round < 12; round++ {
		progress := false
		for i, p := range []*page{host, guest} {
			st := p.state()
			if !st.MyTurn || st.Busy {
				continue
			}
			d := js[string](p, `(document.querySelector('#r25-controls')||{dataset:{}}).dataset.decision || ''`)
			if d == "start_look" {
				sel := fmt.Sprintf(`#r25-controls button[data-act="start_look"]:nth-of-type(%d)`, i+1)
				key := js[string](p, fmt.Sprintf(`document.querySelector(%q).dataset.key`, sel))
				var a struct{ Tile string }
				_ = json.Unmarshal([]byte(key), &a)
				looked[p] = a.Tile
				p.click(sel)
			} else if d == "hint" || d == "program" {
				playRoom25(p, true)
			} else {
				continue
			}
			progress = true
			p.wait(fmt.Sprintf(`(() => { const d = document.querySelector('.match-page').dataset; return +d.seq > %d || d.busy !== 'true'; })()`, st.Seq), 10*time.Second)
		}
		if !progress && host.view()["phase"] == "action" {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if looked[host] == "" || looked[guest] == "" {
		t.Fatalf("looks: host %q, guest %q", looked[host], looked[guest])
	}
	// Each knows the room it looked at.
	for p, tile := range looked {
		if !js[bool](p, fmt.Sprintf(`!!document.querySelector('#r25-grid [data-tile=%q][data-room]')`, tile)) {
			t.Errorf("%s: the room looked at (%s) is not marked", p.name, tile)
		}
	}
	// Neither knows the other's: not on the page, not in the view.
	check := func(p, other *page, otherSeat float64) {
		t.Helper()
		tile := looked[other]
		v := p.view()
		for _, c := range v["cells"].([]any) {
			cell := c.(map[string]any)
			if cell["tile"] == tile && cell["face_up"] != true {
				if _, ok := cell["room"]; ok {
					t.Errorf("%s: the view holds the room the other looked at (%s)", p.name, tile)
				}
			}
		}
		if js[bool](p, fmt.Sprintf(`(() => { const c = document.querySelector('#r25-grid [data-tile=%q]'); return !!c && !c.classList.contains('up') && c.hasAttribute('data-room'); })()`, tile)) {
			t.Errorf("%s: the page shows the room the other looked at", p.name)
		}
		for _, c := range v["characters"].([]any) {
			ch := c.(map[string]any)
			if ch["seat"] == otherSeat {
				if _, ok := ch["program"]; ok {
					t.Errorf("%s: the view holds the program of %v", p.name, ch["id"])
				}
			}
		}
		if own := js[string](p, `document.querySelector('.r25-chars').textContent`); !strings.Contains(own, "program:") {
			t.Errorf("%s: its own program is not shown", p.name)
		}
	}
	check(host, guest, 1)
	check(guest, host, 0)
	host.checkErrors()
	guest.checkErrors()
}

// crowdRoom25 hands the page a view of the complex at its fullest: every
// room named (face up, or face down and seen by this seat), up to six
// seats' hints on a room (one claim made twice), beacons on face-down
// rooms, a flooded room, and all six figures in the Central Room.
const crowdRoom25 = `(() => { const pg = window.sortie.page; const v = structuredClone(pg.msg.view);
	const rooms = ['trapped', 'control_room', 'illusion', 'flooded', 'acid', 'vortex', 'prison', 'cold', 'dark', 'deadly', 'mobile', 'twin', 'vision', 'empty', 'room25'];
	const colours = ['green', 'yellow', 'red', 'blue'];
	v.cells.forEach((c, i) => {
		c.hints = [];
		for (let k = 0; k < i % 7; k++) c.hints.push({seat: k % 6, colour: colours[(i + k) % 4]});
		if (i % 7 === 3) c.hints.push({...c.hints[0]});
		if (c.cell === 12) return;
		c.room = rooms[i % rooms.length];
		if (i % 3 === 0) c.face_up = true;
		else if (i % 3 === 1) c.known = true;
		else delete c.room;
		if (!c.face_up) c.beacons = ['scientist', 'geek', 'handsome'].slice(0, i % 4);
		c.flooded = c.face_up && c.room === 'flooded';
	});
	v.cells[12].characters = ['scientist', 'geek', 'handsome', 'bimbo', 'colossus', 'little_girl'];
	v.characters = v.cells[12].characters.map((id, k) => ({...(v.characters[0] || {}), id, seat: k % 2, alive: true, cell: 12}));
	pg.setState({...pg.msg, view: v}, []); return true; })()`

// room25Parts measures every cell of the complex: its tile, and each thing
// drawn on it, in screen pixels; and the room names' font size.
const room25Parts = `(() => {
	const box = (el) => { const r = el.getBoundingClientRect(); return {x: r.left, y: r.top, w: r.width, h: r.height}; };
	return [...document.querySelectorAll('#board #r25-grid .r25-cell')].map((g) => {
		const parts = {};
		const add = (name, sel) => g.querySelectorAll(sel).forEach((el, i) => { parts[name + ' ' + (i + 1)] = box(el); });
		add('name', '.r25-room'); add('class mark', '.r25-tile .class-mark'); add('hint', '.r25-hint');
		add('figure', '.r25-figure'); add('back', '.r25-back'); add('beacon', '.r25-beacon'); add('eye', '.r25-seen');
		const name = g.querySelector('.r25-room');
		return {cell: +g.dataset.cell, tile: box(g.querySelector('.tile')), inner: g.querySelector('.inner') ? box(g.querySelector('.inner')) : null,
			name: name ? name.textContent : '', px: name ? parseFloat(getComputedStyle(name).fontSize) * name.getScreenCTM().a : 0, parts};
	}); })()`

type box struct{ X, Y, W, H float64 }

func (a box) overlaps(b box, slack float64) bool {
	return a.X+a.W > b.X+slack && b.X+b.W > a.X+slack && a.Y+a.H > b.Y+slack && b.Y+b.H > a.Y+slack
}

func (a box) inside(b box, slack float64) bool {
	return a.X >= b.X-slack && a.Y >= b.Y-slack && a.X+a.W <= b.X+b.W+slack && a.Y+a.H <= b.Y+b.H+slack
}

// TestRoom25TilesKeepTheirPlaces draws the complex at its fullest in
// English and French, at 1366×768 and at 390×844: every name, class mark,
// hint, figure, beacon and "?" lies within its own room, none covers
// another, a room's name lies within its frame, names are at least 12 px
// high on a desktop and 9 px on a phone, and on the phone the whole
// complex fits the screen (it used to pan, showing 3 columns of 5). Hints
// used to run into the next room and over the "?", and names to be cut
// ("Trapped Roo", "alle de contrôl").
func TestRoom25TilesKeepTheirPlaces(t *testing.T) {
	s := newSite(t, room25.Game{})
	for _, lang := range []string{"en", "fr"} {
		c := s.create("room25", []string{"human", "medium"}, nil, 400, "Rita")
		p := s.browser("rita-"+lang, lang).tab("tiles")
		for _, size := range []struct {
			w, h int64
			px   float64
		}{{1366, 768, 12}, {390, 844, 9}} {
			what := fmt.Sprintf("%s at %d px", lang, size.w)
			p.size(size.w, size.h, false)
			p.openSeat(c, 0)
			p.wait(`document.querySelector('#board #r25-grid .r25-cell')`, 20*time.Second)
			// The bot's first look first: an update after the crowded view
			// would draw the real one over it.
			p.wait(`JSON.stringify(window.sortie.page.msg.actors) === '[0]'`, 20*time.Second)
			js[bool](p, crowdRoom25)
			p.wait(`document.querySelectorAll('#board #r25-grid .r25-figure').length === 6`, 5*time.Second)
			p.shot(fmt.Sprintf("crowded-%s-%d", lang, size.w))
			cells := js[[]struct {
				Cell  int
				Tile  box
				Inner *box
				Name  string
				Px    float64
				Parts map[string]box
			}](p, room25Parts)
			if len(cells) != 25 {
				t.Fatalf("%s: %d cells drawn", what, len(cells))
			}
			named, hints := 0, 0
			for _, c := range cells {
				names := make([]string, 0, len(c.Parts))
				for n, r := range c.Parts {
					names = append(names, n)
					if !r.inside(c.Tile, 0.5) {
						t.Errorf("%s: cell %d: %s runs out of its room: %+v in %+v", what, c.Cell, n, r, c.Tile)
					}
					if strings.HasPrefix(n, "hint") {
						hints++
					}
				}
				slices.Sort(names)
				for i, a := range names {
					for _, b := range names[i+1:] {
						if c.Parts[a].overlaps(c.Parts[b], 0.5) {
							t.Errorf("%s: cell %d: %s and %s overlap: %+v and %+v", what, c.Cell, a, b, c.Parts[a], c.Parts[b])
						}
					}
				}
				if c.Name == "" {
					continue
				}
				named++
				if r := c.Parts["name 1"]; c.Inner != nil && !r.inside(*c.Inner, 0.5) {
					t.Errorf("%s: cell %d: the name %q (%.0f px wide) is cut by its frame (%.0f px)", what, c.Cell, c.Name, r.W, c.Inner.W)
				}
				if c.Px < size.px {
					t.Errorf("%s: cell %d: the name %q is %.1f px high, under %.0f px", what, c.Cell, c.Name, c.Px, size.px)
				}
			}
			if named < 15 || hints < 40 {
				t.Errorf("%s: %d rooms named and %d hints drawn: the crowded view did not take", what, named, hints)
			}
			// The whole complex on the screen, without panning.
			fit := js[[]float64](p, `(() => { const r = document.querySelector('#board #r25-grid').getBoundingClientRect(), pan = document.querySelector('#r25-pan');
				return [r.left, r.right, innerWidth, pan.scrollWidth - pan.clientWidth]; })()`)
			if fit[0] < 0 || fit[1] > fit[2] || fit[3] > 1 {
				t.Errorf("%s: the complex spans %.0f–%.0f px of a %.0f px screen (%.0f px to pan)", what, fit[0], fit[1], fit[2], fit[3])
			}
		}
		p.checkErrors()
	}
}

// TestRoom25EndOfALoss watches two random bots (random play never
// escapes) to the end: the end screen says nobody won and ranks nobody
// first; the final board counts no turns left; the full reveal names every
// room, those never turned face up included.
func TestRoom25EndOfALoss(t *testing.T) {
	s := newSite(t, room25.Game{})
	c := s.create("room25", []string{"random", "random"}, nil, 0, "")
	p := s.browser("watcher", "en").tab("end")
	p.openSeat(c, -1)
	p.wait(`document.querySelector('#review-board #r25-grid') && document.querySelector('#review-board').dataset.step`, 120*time.Second)
	p.shot("end")
	if h := p.text("#end-headline"); h != "Nobody won." {
		t.Fatalf("the headline reads %q: random bots won?", h)
	}
	table := js[[]string](p, `[...document.querySelectorAll('#end table.outcome tr')].map((tr) => [...tr.children].map((c) => c.textContent.trim()).join(' | '))`)
	for _, row := range table {
		if strings.Contains(row, "Rank") || regexp.MustCompile(`^1\b`).MatchString(row) {
			t.Errorf("the outcome ranks a table that lost together: %q", table)
			break
		}
	}
	if turn := p.text("#review-board #r25-turn"); turn == "" || strings.Contains(turn, "left") {
		t.Errorf("the final board's turn reads %q: turns left after the end", turn)
	}
	type cell struct {
		Down  bool
		Name  string
		Label string
	}
	cells := js[[]cell](p, `[...document.querySelectorAll('#review-board #r25-grid .r25-cell')].map((g) => ({
		down: !!g.querySelector('.r25-tile.down'), name: (g.querySelector('.r25-room') || {}).textContent || '', label: g.getAttribute('aria-label')}))`)
	unturned := 0
	for i, c := range cells {
		if c.Down || c.Name == "" {
			t.Errorf("cell %d is left face down in the full reveal (%q)", i, c.Label)
		}
		if strings.Contains(c.Label, "never turned face up") {
			unturned++
		}
	}
	if len(cells) != 25 || unturned == 0 {
		t.Errorf("%d cells revealed, %d said never turned face up", len(cells), unturned)
	}
	p.checkErrors()
}
