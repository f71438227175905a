package web_test

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"sortie/games/evades"
)

// playEvades plays one decision of Les Évadés through the page: it answers
// pending choices (the discard a full hand owes before a draw among them),
// takes cards (two face-up ones every other turn, else two blind), crosses
// up to two doors a turn, picks up objects, and ends its turn.
func playEvades(p *page, turn int, crossed *int) string {
	p.t.Helper()
	enabled := func(sel string) bool {
		return js[bool](p, fmt.Sprintf(`(() => { const b = document.querySelector(%q); return !!b && !b.disabled; })()`, sel))
	}
	pickUntil := func(sel string) bool {
		for range 14 {
			if enabled(sel) {
				return true
			}
			if !js[bool](p, `(() => { const b = [...document.querySelectorAll('#ev-hand .card-btn')].find(b => !b.disabled && b.getAttribute('aria-pressed') !== 'true'); if (b) b.click(); return !!b; })()`) {
				break
			}
		}
		return enabled(sel)
	}
	decision := js[string](p, `(document.querySelector('#ev-controls')||{dataset:{}}).dataset.decision || ''`)
	v := p.view()
	switch decision {
	case "choose_vent", "choose_codetainee", "choose_target":
		p.click("#ev-controls button[data-act]")
		return decision
	case "choose_doors":
		p.click("#ev-flip")
		return decision
	case "answer_blackmail":
		p.click("#ev-skip")
		return decision
	case "give_cards", "discard":
		if !pickUntil("#ev-give") {
			p.t.Fatalf("%s: cannot pick the cards to %s", p.name, decision)
		}
		p.click("#ev-give")
		return decision
	}
	if v["phase"] == "action" {
		*crossed = 0
		if turn%2 == 0 {
			p.click(`#ev-row [data-slot="0"]`)
			p.click(`#ev-row [data-slot="1"]`)
			if enabled("#ev-take-face") {
				p.click("#ev-take-face")
				return "take_face_up"
			}
		}
		p.click("#ev-take-blind")
		return "take_blind"
	}
	if enabled(`[id^="ev-take-object-"]`) {
		p.click(`[id^="ev-take-object-"]`)
		return "take_object"
	}
	// Keep the cards of the first turns: a full hand must discard before it
	// draws, a decision the board composes when the server lists no choices
	// (two cards of many types).
	if turn > 3 && *crossed < 2 && js[bool](p, `!!document.querySelector('#ev-map .door.can-cross')`) {
		// Keyboard: focus the first door with D, open its payments with Enter.
		p.do("focus a door", chromedpKey("d"))
		p.wait(`document.activeElement && document.activeElement.classList.contains('can-cross')`, 5*time.Second)
		p.do("open payments", chromedpKey("\r"))
		p.wait(`document.querySelector('#ev-pay')`, 5*time.Second)
		if enabled("#ev-pay button[data-act]") {
			*crossed++
			p.click("#ev-pay button[data-act]")
			return "cross_door"
		}
	}
	p.click("#ev-end-turn")
	return "end_turn"
}

// TestEvadesAgainstBots plays Les Évadés against two heuristic bots through
// the page, to the end if the budget allows, else it checks that turns went
// by; the map, the hand and the plan are drawn from the view.
func TestEvadesAgainstBots(t *testing.T) {
	s := newSite(t, evades.Game{})
	p := s.browser("eve", "en").tab("match")
	p.createMatch("evades", []string{"human", "heuristic", "heuristic"}, map[string]string{"first_player": "0"}, "Eve")
	p.click("#play-link")
	p.wait(`document.querySelector('#ev-map')`, 10*time.Second)
	p.shot("start")
	if n := js[int](p, `document.querySelectorAll('#ev-map .door').length`); n != 38 {
		t.Errorf("%d doors drawn, want 38", n)
	}
	if n := js[int](p, `document.querySelectorAll('#ev-map .pawn-g').length`); n != 3 {
		t.Errorf("%d pawns drawn, want 3", n)
	}
	p.wait(`document.querySelector('#ev-plan')`, 5*time.Second)
	// Only my own plan is shown.
	if n := js[int](p, `document.querySelectorAll('.plan').length`); n != 1 {
		t.Errorf("%d plans shown during the game, want only mine", n)
	}

	moves, turns, crossed, kinds := 0, 0, 0, map[string]int{}
	lastSeq, stuck, composed := -1, 0, 0
	deadline := time.Now().Add(90 * time.Second)
	finished := false
	for time.Now().Before(deadline) {
		st := p.waitMove(40 * time.Second)
		if st.Status == "finished" {
			finished = true
			break
		}
		v := p.view()
		hand := 0
		for _, seat := range v["seats"].([]any) {
			sv := seat.(map[string]any)
			if int(sv["seat"].(float64)) == 0 {
				if h, ok := sv["hand"].([]any); ok {
					hand = len(h)
				}
			}
		}
		if shown := js[int](p, `[...document.querySelectorAll('#ev-hand .count')].reduce((n, c) => n + parseInt(c.textContent), 0)`); shown != hand {
			t.Fatalf("hand drawn with %d cards, view holds %d", shown, hand)
		}
		if st.Seq == lastSeq {
			if stuck++; stuck > 5 {
				snap := js[string](p, `(async () => { const pg = window.sortie.page; const r = await fetch('/api/matches/' + pg.id + '/state', {headers: {Authorization: 'Bearer ' + pg.token}}); const j = await r.json(); return JSON.stringify({seq: j.seq, actors: j.actors, legal: (j.legal||[]).length, status: j.status}); })()`)
				t.Fatalf("stuck at state %d: error %q, controls %q, page %s, server %s", st.Seq, p.text("#error"), p.text("#ev-controls"),
					js[string](p, `JSON.stringify({seq: window.sortie.page.msg.seq, actors: window.sortie.page.msg.actors, legal: window.sortie.page.msg.legal.length})`), snap)
			}
		} else {
			lastSeq, stuck = st.Seq, 0
		}
		if js[bool](p, `window.sortie.page.msg.legal.length === 0`) {
			composed++ // the server listed no choices: the board composes the action
		}
		kind := playEvades(p, turns, &crossed)
		kinds[kind]++
		if kind == "take_blind" || kind == "take_face_up" {
			turns++
		}
		if moves == 6 {
			p.shot("move")
		}
		moves++
		p.wait(fmt.Sprintf(`(() => { const d = document.querySelector('.match-page').dataset; return +d.seq > %d || d.busy !== 'true'; })()`, st.Seq), 10*time.Second)
	}
	t.Logf("%d moves of mine (%v, %d composed without a list), %d turns, finished: %v", moves, kinds, composed, turns, finished)
	p.axe("Les Évadés after some turns")
	if finished {
		p.wait(`document.querySelector('#end-headline')`, 10*time.Second)
		p.wait(`document.querySelector('#review-board .ev')`, 10*time.Second)
		// Every plan is revealed at the end.
		p.wait(`document.querySelectorAll('#review-board .plan').length === 3`, 10*time.Second)
		p.shot("end")
		// A hand spent on doors as fast as it fills may never reach the
		// limit in a short match (9 turns were seen to); a long one does.
		if turns >= 12 && kinds["discard"] == 0 {
			t.Error("the hand never got full enough to discard before a draw")
		}
	} else if turns < 8 {
		t.Errorf("only %d turns of mine in the budget", turns)
	}
	p.checkErrors()
}

// TestEvadesMapKeepsItsPlaceOnAPhone: at phone width the map is wider than
// the screen and pans inside itself. It opens on the player's pawn, and
// where its reader panned it stays through every redraw (every update
// redraws the board): it used to jump back to its left edge.
func TestEvadesMapKeepsItsPlaceOnAPhone(t *testing.T) {
	s := newSite(t, evades.Game{})
	c := s.create("evades", []string{"human", "medium"}, map[string]string{"first_player": "1"}, 400, "Eve")
	p := s.browser("eve", "en").tab("phone")
	p.size(390, 844, false)
	p.openSeat(c, 0)
	p.wait(`document.querySelector('#ev-pan') && document.querySelector('#ev-pan').scrollWidth > document.querySelector('#ev-pan').clientWidth`, 20*time.Second)
	const pawnShown = `(() => { const pan = document.querySelector('#ev-pan').getBoundingClientRect();
		const r = document.querySelector('#ev-map .pawn-g[data-seat="0"]').getBoundingClientRect();
		return r.left >= pan.left && r.right <= pan.right; })()`
	p.wait(pawnShown, 5*time.Second)
	js[bool](p, `(() => { const pan = document.querySelector('#ev-pan'); pan.scrollLeft = 37; pan.dataset.old = '1'; return true; })()`)
	js[bool](p, `(window.sortie.page.drawBoard([], null), true)`)
	if js[bool](p, `document.querySelector('#ev-pan').dataset.old === '1'`) {
		t.Fatal("the board was not drawn again")
	}
	if x := js[int](p, `document.querySelector('#ev-pan').scrollLeft`); x != 37 {
		t.Errorf("after a redraw the map is panned to %d, not where its reader left it (37)", x)
	}
	// So does an update (another seat's move), handed to the page as the
	// socket would.
	js[bool](p, `(() => { const pg = window.sortie.page; document.querySelector('#ev-pan').dataset.old = '1';
		pg.setState({...pg.msg}, []); return true; })()`)
	if js[bool](p, `document.querySelector('#ev-pan').dataset.old === '1'`) {
		t.Fatal("an update did not draw the board again")
	}
	if x := js[int](p, `document.querySelector('#ev-pan').scrollLeft`); x != 37 {
		t.Errorf("after an update the map is panned to %d, not 37", x)
	}
	p.checkErrors()
}

// TestEvadesNamesFitTheirAreas: every area's name, in both languages, lies
// within its area's box on the map (the Garage ramp's ran under the door
// beside it).
func TestEvadesNamesFitTheirAreas(t *testing.T) {
	s := newSite(t, evades.Game{})
	for _, lang := range []string{"en", "fr"} {
		c := s.create("evades", []string{"human", "medium"}, map[string]string{"first_player": "1"}, 400, "Eve")
		p := s.browser("eve-"+lang, lang).tab("names")
		p.openSeat(c, 0)
		p.wait(`document.querySelectorAll('#ev-map .area text').length > 20`, 20*time.Second)
		over := js[[]string](p, `[...document.querySelectorAll('#ev-map .area')].flatMap((g) => {
			const box = g.querySelector('rect').getBBox(), text = g.querySelector('text');
			const lines = text.querySelectorAll('tspan').length ? [...text.querySelectorAll('tspan')] : [text];
			return lines.filter((l) => { const b = l.getBBox(); return b.x < box.x + 0.02 || b.x + b.width > box.x + box.width - 0.02; })
				.map((l) => l.textContent + ' (' + l.getBBox().width.toFixed(2) + ' in ' + box.width.toFixed(2) + ')');
		})`)
		if len(over) > 0 {
			t.Errorf("%s: names wider than their areas: %v", lang, over)
		}
		p.checkErrors()
	}
}

// evadesParts measures the map as drawn, with every pawn put in each area
// in turn: each area's box and the things in it (its name's lines, its
// objects, its vent or exit mark, the pawns), each door (its tab with its
// Warning spot), in screen pixels, and the font size of each text.
const evadesParts = `((cards) => {
	const pg = window.sortie.page;
	const box = (el) => { const r = el.getBoundingClientRect(); return {x: r.left, y: r.top, w: r.width, h: r.height}; };
	const px = (el) => parseFloat(getComputedStyle(el).fontSize) * el.getScreenCTM().a;
	const out = {areas: {}, doors: {}, texts: []};
	const areas = [...document.querySelectorAll('#ev-map .area')].map((g) => g.dataset.area);
	for (const area of areas) {
		const view = structuredClone(pg.msg.view);
		// (An exit holds one pawn: the first there wins.)
		view.seats.forEach((st, i) => { st.area = area.startsWith('exit_') && i > 0 ? 'cell' : area; });
		pg.setState({...pg.msg, view}, []);
		const g = document.querySelector('#ev-map .area[data-area="' + area + '"]');
		const parts = {};
		const add = (name, els) => els.forEach((el, i) => { parts[name + ' ' + (i + 1)] = box(el); });
		const text = g.querySelector('text');
		add('name line', text.querySelectorAll('tspan').length ? [...text.querySelectorAll('tspan')] : [text]);
		add('object', [...g.querySelectorAll('.obj')]);
		add('vent', [...g.querySelectorAll('.vent-mark')]);
		add('exit mark', [...g.querySelectorAll('.exit-mark')]);
		add('pawn', [...document.querySelectorAll('#ev-map .pawn-g')].filter((p, i) => view.seats[i].area === area).map((p) => p.querySelector('.seat-shape')));
		out.areas[area] = {box: box(g.querySelector(':scope > rect')), parts};
	}
	for (const g of document.querySelectorAll('#ev-map .door')) {
		const r = box(g.querySelector('rect')), spot = g.querySelector('.warn-spot');
		if (spot) { const c = box(spot); const x = Math.min(r.x, c.x), y = Math.min(r.y, c.y);
			out.doors[g.dataset.door] = {x, y, w: Math.max(r.x + r.w, c.x + c.w) - x, h: Math.max(r.y + r.h, c.y + c.h) - y}; }
		else out.doors[g.dataset.door] = r;
	}
	// A text pressed to fit (textLength) keeps its height but not its
	// width: how much of its width it keeps.
	const kept = (el) => { if (!el.hasAttribute('textLength')) return 1;
		const free = el.cloneNode(true); free.removeAttribute('textLength'); el.after(free);
		const k = el.textLength.baseVal.value / free.getComputedTextLength(); free.remove(); return k; };
	for (const el of document.querySelectorAll('#ev-map .area text, #ev-map .area tspan, #ev-map .door-t, #ev-map .obj-t')) {
		if (el.querySelector('tspan')) continue;
		out.texts.push({text: el.textContent, px: px(el), kept: kept(el)});
	}
	// Every card on a door.
	for (const card of cards) {
		const view = structuredClone(pg.msg.view);
		view.doors.forEach((d) => { d.face = card; });
		pg.setState({...pg.msg, view}, []);
		const el = document.querySelector('#ev-map .door-t');
		out.texts.push({text: el.textContent, px: px(el), kept: kept(el)});
	}
	pg.setState({...pg.msg}, []);
	return out; })(%s)`

type evadesDrawn struct {
	Areas map[string]struct {
		Box   box
		Parts map[string]box
	}
	Doors map[string]box
	Texts []drawnText
}

// drawnText is a text of the map: its font size in pixels, and how much of
// its width it keeps when pressed to fit.
type drawnText struct {
	Text     string
	Px, Kept float64
}

// checkEvadesMap fails on anything of the map that overlaps another thing,
// leaves its area, or is written under minPx pixels high.
func checkEvadesMap(t *testing.T, what string, d evadesDrawn, minPx float64) {
	t.Helper()
	if len(d.Areas) != 25 || len(d.Doors) != 38 {
		t.Fatalf("%s: %d areas and %d doors drawn", what, len(d.Areas), len(d.Doors))
	}
	const slack = 0.5
	doors := slices.Sorted(maps.Keys(d.Doors))
	for i, a := range doors {
		for _, b := range doors[i+1:] {
			if d.Doors[a].overlaps(d.Doors[b], slack) {
				t.Errorf("%s: doors %s and %s overlap", what, a, b)
			}
		}
	}
	for _, area := range slices.Sorted(maps.Keys(d.Areas)) {
		ar := d.Areas[area]
		names := slices.Sorted(maps.Keys(ar.Parts))
		for i, a := range names {
			if !ar.Parts[a].inside(ar.Box, slack) {
				t.Errorf("%s: %s: %s leaves its box", what, area, a)
			}
			for _, b := range names[i+1:] {
				if ar.Parts[a].overlaps(ar.Parts[b], slack) {
					t.Errorf("%s: %s: %s and %s overlap", what, area, a, b)
				}
			}
		}
		for _, door := range doors {
			if d.Doors[door].overlaps(ar.Box, slack) {
				t.Errorf("%s: door %s lies on %s", what, door, area)
			}
		}
	}
	small, pressed := map[string]float64{}, map[string]float64{}
	for _, tx := range d.Texts {
		if tx.Px < minPx {
			small[tx.Text] = tx.Px
		}
		if tx.Kept < 0.75 {
			pressed[tx.Text] = tx.Kept
		}
	}
	if len(small) > 0 {
		t.Errorf("%s: texts under %.0f px: %v", what, minPx, small)
	}
	if len(pressed) > 0 {
		t.Errorf("%s: texts pressed to under 3/4 of their width: %v", what, pressed)
	}
}

// TestEvadesMapKeepsThingsApart: in English and French at 1366×768, with
// the four pawns in each area in turn, no door touches another door or an
// area, everything in an area (its name, objects, marks, pawns) lies in it
// apart from the rest, and every name, door and object reads at 12 px or
// more (door tabs and pawns overlapped around the Cell and the halls, and
// objects were about 7 px high). At 390×844 the map opens at that size and
// pans; its zoom buttons show the whole prison and zoom back in.
func TestEvadesMapKeepsThingsApart(t *testing.T) {
	s := newSite(t, evades.Game{})
	var ids []string
	for k := range dict(t, "en") {
		if id, ok := strings.CutPrefix(k, "evades.card."); ok && strings.HasSuffix(id, ".short") && id != "none.short" {
			ids = append(ids, strings.TrimSuffix(id, ".short"))
		}
	}
	list, _ := json.Marshal(ids)
	cards := string(list)
	for _, lang := range []string{"en", "fr"} {
		c := s.create("evades", []string{"human", "medium", "medium", "medium"}, map[string]string{"first_player": "0"}, 400, "Eve")
		p := s.browser("eve-"+lang, lang).tab("map")
		p.size(1366, 768, false)
		p.openSeat(c, 0)
		p.wait(`document.querySelectorAll('#ev-map .area text').length > 20 && document.querySelectorAll('#ev-map .obj').length === 8`, 20*time.Second)
		drawn := js[evadesDrawn](p, sprintf(evadesParts, cards))
		if w := dict(t, lang)["evades.card.screwdriver.short"]; !slices.ContainsFunc(drawn.Texts, func(x drawnText) bool { return x.Text == w }) {
			t.Fatalf("%s: the doors were not drawn with every card (%q is missing)", lang, w)
		}
		checkEvadesMap(t, lang+" at 1366 px", drawn, 12)
		p.shot("map-" + lang)

		p = s.browser("eve-phone-"+lang, lang).tab("map")
		p.size(390, 844, false)
		p.openSeat(c, 0)
		p.wait(`document.querySelectorAll('#ev-map .obj').length === 8`, 20*time.Second)
		p.noSideways(lang + " at 390 px")
		pans := `(() => { const p = document.querySelector('#ev-pan'); return p.scrollWidth > p.clientWidth + 1; })()`
		if !js[bool](p, pans) {
			t.Errorf("%s at 390 px: the map opens whole, too small to read", lang)
		}
		checkEvadesMap(t, lang+" at 390 px", js[evadesDrawn](p, sprintf(evadesParts, cards)), 12)
		p.click("#ev-zoom-out")
		p.wait(`!document.querySelector('#ev-zoom-out') || document.querySelector('#ev-zoom-out').disabled`, 5*time.Second)
		if js[bool](p, pans) {
			t.Errorf("%s at 390 px: zoomed out, the whole prison is still wider than the screen", lang)
		}
		p.shot("whole-" + lang)
		p.click("#ev-zoom-in")
		p.click("#ev-zoom-in")
		p.wait(`document.querySelector('#ev-map').getBoundingClientRect().width > 1100`, 5*time.Second)
		checkEvadesMap(t, lang+" at 390 px zoomed in", js[evadesDrawn](p, sprintf(evadesParts, cards)), 12)
		p.noSideways(lang + " at 390 px zoomed in")
		p.checkErrors()
	}
}
