package web_test

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"sortie/games/temple"
)

// clockSeconds reads "m:ss".
func clockSeconds(s string) int {
	var m, sec int
	parts := strings.SplitN(strings.TrimSpace(s), ":", 2)
	if len(parts) != 2 {
		return -1
	}
	for _, c := range parts[0] {
		m = m*10 + int(c-'0')
	}
	for _, c := range parts[1] {
		sec = sec*10 + int(c-'0')
	}
	return m*60 + sec
}

// TestTempleFirstSeconds plays the first minute of a Temple match on the
// real clock with a heuristic bot: dice rolled through the page (mouse and
// keyboard), chambers entered or discovered, and the countdown running down
// with the match clock. A whole match lasts ten minutes of real time and the
// rules allow no shorter clock: with SORTIE_LONG=1 the test plays it all, to
// the end screen.
func TestTempleFirstSeconds(t *testing.T) {
	s := newSite(t, temple.Game{})
	p := s.browser("tess", "en").tab("match")
	p.createMatch("temple", []string{"human", "heuristic"}, nil, "Tess")
	p.click("#play-link")
	p.wait(`document.querySelector('#tp-countdown') && document.querySelector('.match-page').dataset.status === 'running'`, 10*time.Second)
	start := clockSeconds(p.text("#tp-time-left"))
	if start < 9*60 || start > 10*60 {
		t.Fatalf("the countdown starts at %q", p.text("#tp-time-left"))
	}
	if !strings.Contains(p.text("#tp-countdown"), "door slam") {
		t.Errorf("no next door slam in %q", p.text("#tp-countdown"))
	}
	// The sounds are made by the page itself.
	if ok, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](`import('/games/temple.js').then(m => { m.gong(); m.slam(); return true; })`, chromedp.EvalAwaitPromise)); err != nil || !ok {
		t.Errorf("the sounds: %v", err)
	}

	rolls, moves := 0, 0
	began := time.Now()
	play := 65 * time.Second
	whole := os.Getenv("SORTIE_LONG") == "1"
	if whole {
		play = 11 * time.Minute
	}
	for time.Since(began) < play {
		if whole && js[bool](p, `document.querySelector('.match-page').dataset.status === 'finished'`) {
			break
		}
		if js[bool](p, `!!document.querySelector('#tp-map .tp-chamber.can, #tp-map .tp-discover.can')`) && moves < 4 {
			p.click(`#tp-map .tp-chamber.can, #tp-map .tp-discover.can`)
			moves++
		} else if js[bool](p, `(() => { const b = document.querySelector('#tp-roll'); return !!b && !b.disabled; })()`) {
			if rolls%2 == 0 {
				p.click("#tp-roll")
			} else {
				p.do("roll by key", chromedpKey("r"))
			}
			rolls++
		}
		time.Sleep(1600 * time.Millisecond) // the roll cooldown
	}
	p.shot("play")
	p.axe("Temple after a minute of play")
	if whole {
		if !js[bool](p, `document.querySelector('.match-page').dataset.status === 'finished'`) {
			t.Fatalf("the match did not end in %v", play)
		}
		t.Logf("the whole match was played: %d rolls, %d moves", rolls, moves)
		return
	}
	left := clockSeconds(p.text("#tp-time-left"))
	if elapsed := start - left; elapsed < 60 || elapsed > 75 {
		t.Errorf("the countdown went from %d s to %d s in %v", start, left, play)
	}
	faces := js[int](p, `window.sortie.page.msg.view.dice.filter(d => d.owner === 0 && d.face !== 'none').length`)
	if rolls == 0 || faces == 0 {
		t.Errorf("%d rolls sent, %d faces showing", rolls, faces)
	}
	if n := js[int](p, `document.querySelectorAll('#tp-map .tp-chamber').length`); n < 2 {
		t.Errorf("%d chambers on the map", n)
	}
	t.Logf("%d rolls, %d moves, %d chambers", rolls, moves, js[int](p, `document.querySelectorAll('#tp-map .tp-chamber').length`))
	p.checkErrors()
}

// Every chamber's name, in both languages and with two-digit numbers, is
// drawn within its tile's floor (108 units wide): a long one ("Salle des
// gemmes 12") is narrowed rather than spilled over its neighbours.
func TestTempleNamesFitTheirTiles(t *testing.T) {
	s := newSite(t, temple.Game{})
	p := s.browser("namer", "en").tab("names")
	p.open("/")
	p.wait(`document.querySelector('.game-card')`, 10*time.Second)
	var names []string
	for _, lang := range []string{"en", "fr"} {
		for k, v := range dict(t, lang) {
			if strings.HasPrefix(k, "temple.kind.") {
				names = append(names, v, v+" 12")
			}
		}
	}
	list, _ := json.Marshal(names)
	script := `import('/pieces/temple.js').then((m) => {
		const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
		svg.setAttribute('viewBox', '0 0 120 120');
		svg.setAttribute('width', '120');
		document.body.append(svg);
		const out = {};
		for (const name of ` + string(list) + `) {
			const g = m.chamberTile({open: 'NESW'}, {name});
			svg.append(g);
			out[name] = g.querySelector('text.name').getBBox().width;
			g.remove();
		}
		svg.remove();
		return out;
	})`
	widths, err := chromedp.Run(p.ctx, chromedp.Evaluate[map[string]float64](script, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if len(widths) < 10 {
		t.Fatalf("%d names measured", len(widths))
	}
	for name, w := range widths {
		if w > 108 {
			t.Errorf("%q is %.0f units wide on a floor of 108", name, w)
		}
	}
	p.checkErrors()
}

// TestTempleNewsIsReadOnce: a door slam is read out once, urgently, with
// the dice it cost (the player's own said to them as "you"); the log shows it without a screen reader reading it a
// second time, while the log's other news is read as it comes. (The first
// slam comes after minutes of play, so the page is handed the update one
// brings.)
func TestTempleNewsIsReadOnce(t *testing.T) {
	s := newSite(t, temple.Game{})
	p := s.browser("tess", "en").tab("news")
	p.createMatch("temple", []string{"human", "heuristic"}, nil, "Tess")
	p.click("#play-link")
	p.wait(`document.querySelector('#tp-countdown') && document.querySelector('.match-page').dataset.status === 'running'`, 10*time.Second)
	js[bool](p, listenLive)
	js[bool](p, `(() => { const pg = window.sortie.page;
		pg.setState({...pg.msg}, [{type: 'door_slam', losses: [{seat: 0}]}, {type: 'escaped', seat: 1}]);
		return true; })()`)
	p.wait(`document.querySelector('#announce-urgent') && document.querySelector('#announce-urgent').textContent !== ''`, 5*time.Second)
	urgent := p.text("#announce-urgent")
	if !strings.Contains(urgent, "You lose a die") {
		t.Errorf("the slam was read as %q, without the die Tess lost (said to her as \"you\")", urgent)
	}
	log := js[[]string](p, `[...document.querySelectorAll('#log li')].map((li) => li.textContent)`)
	if !slices.Contains(log, urgent) {
		t.Errorf("the log %q does not show the slam %q", log, urgent)
	}
	p.wait(`window.sortieSaid.some((u) => u.region === 'announce-polite' && /escape/.test(u.text))`, 5*time.Second)
	for _, u := range p.said() {
		if u.Region != "announce-urgent" && strings.Contains(u.Text, urgent) {
			t.Errorf("the slam is read twice: urgently and from the log (%q)", u.Text)
		}
	}
	p.axe("Temple with a slam's banner")
	if js[string](p, `document.querySelector('#log').getAttribute('aria-live') || ''`) != "" {
		t.Error("the log is itself a live region again, which reads the slam a second time")
	}
	p.checkErrors()
}

// TestTempleTilesKeepTheirPlaces draws the fullest chamber there can be (a
// gem chamber with its longest name, its cost, a field counting 10/10 and
// done, loose gems, a curse mask, a chest and five explorers) and checks
// that no two of its things overlap and that all stay on the floor: the
// explorers used to hide the field's count.
func TestTempleTilesKeepTheirPlaces(t *testing.T) {
	s := newSite(t, temple.Game{})
	p := s.browser("tiler", "fr").tab("tiles")
	p.open("/")
	p.wait(`document.querySelector('.game-card')`, 10*time.Second)
	script := `import('/pieces/temple.js').then((m) => {
		const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
		svg.setAttribute('viewBox', '0 0 120 120');
		svg.setAttribute('width', '480');
		document.body.append(svg);
		const c = {open: 'NESW', kind: 'gem', cost: ['adventurer', 'torch'], symbol: 'torch',
			tiers: [{cost: 4, gems: 1}, {cost: 7, gems: 2}, {cost: 10, gems: 3}], target: 3, pool_value: 10,
			activated: true, gems: 7, mask: true, chest: true};
		const g = m.chamberTile(c, {kind: 'gem', name: 'Salle des gemmes 12', pawns: [0, 1, 2, 3, 4]});
		svg.append(g);
		const box = (el) => { const r = el.getBoundingClientRect(); return {x: r.left, y: r.top, w: r.width, h: r.height}; };
		const parts = {};
		for (const [name, sel] of Object.entries({name: 'text.name', cost: '.cost', field: '.field', count: '.field-t',
			done: '.done', gem: '.gem', gems: '.gems-t', chest: '.chest', mask: '.curse-mask'})) {
			const el = g.querySelector(sel);
			if (el) parts[name] = box(el);
		}
		g.querySelectorAll('.seat-token').forEach((el, i) => { parts['explorer ' + (i + 1)] = box(el); });
		const out = {floor: box(g.querySelector('.floor')), parts};
		svg.remove();
		return out;
	})`
	type rect struct{ X, Y, W, H float64 }
	drawn, err := chromedp.Run(p.ctx, chromedp.Evaluate[struct {
		Floor rect
		Parts map[string]rect
	}](script, chromedp.EvalAwaitPromise))
	if err != nil {
		t.Fatal(err)
	}
	if len(drawn.Parts) != 14 {
		t.Fatalf("%d things drawn, not 14: %v", len(drawn.Parts), drawn.Parts)
	}
	const slack = 0.5 // of a screen pixel, at 4 pixels a unit
	f := drawn.Floor
	names := make([]string, 0, len(drawn.Parts))
	for name, r := range drawn.Parts {
		names = append(names, name)
		if r.X < f.X-slack || r.Y < f.Y-slack || r.X+r.W > f.X+f.W+slack || r.Y+r.H > f.Y+f.H+slack {
			t.Errorf("%s runs off the floor: %+v on %+v", name, r, f)
		}
	}
	slices.Sort(names)
	for i, a := range names {
		for _, b := range names[i+1:] {
			ra, rb := drawn.Parts[a], drawn.Parts[b]
			if ra.X+ra.W > rb.X+slack && rb.X+rb.W > ra.X+slack && ra.Y+ra.H > rb.Y+slack && rb.Y+rb.H > ra.Y+slack {
				t.Errorf("%s and %s overlap: %+v and %+v", a, b, ra, rb)
			}
		}
	}
	p.checkErrors()
}

// TestTempleChamberButtonsReadTheirName: a chamber one may enter is a
// button whose only text is its name; the numbers drawn over it (its
// field's count, the explorers in it) lie outside it, said in words by its
// label (WCAG 2.5.3, which axe found broken once an explorer stood in a
// chamber another could enter).
func TestTempleChamberButtonsReadTheirName(t *testing.T) {
	s := newSite(t, temple.Game{})
	c := s.create("temple", []string{"human", "medium"}, nil, 0, "Zoé")
	p := s.browser("zoe", "fr").tab("match")
	p.openSeat(c, 0)
	p.wait(`document.querySelectorAll('#tp-map .tp-chamber').length >= 3 && window.sortie.page.msg.legal.length > 0`, 15*time.Second)
	// The other explorer steps into a gem chamber next to Zoé's, which
	// she has the dice to enter, as an update would tell.
	js[bool](p, `(() => { const pg = window.sortie.page;
		const view = structuredClone(pg.msg.view);
		const i = view.chambers.findIndex((c) => c.id !== 'start');
		view.chambers[i].tiers = [{cost: 4, gems: 1}, {cost: 7, gems: 2}];
		view.chambers[i].symbol = 'torch';
		view.chambers[i].pool_value = 3;
		view.seats[1].chamber = i;
		pg.setState({...pg.msg, view, legal: [...pg.msg.legal, {type: 'enter', to: view.chambers[i].id}]}, []);
		return true; })()`)
	p.wait(`document.querySelector('#tp-map .tp-chamber.can')`, 5*time.Second)
	bad := js[[]string](p, `[...document.querySelectorAll('#tp-map .tp-chamber')].filter((g) => {
		const name = g.querySelector('text.name');
		return g.textContent.trim() !== (name ? name.textContent : '').trim() || !g.getAttribute('aria-label').includes(name.textContent);
	}).map((g) => g.textContent + ' / ' + g.getAttribute('aria-label'))`)
	if len(bad) > 0 {
		t.Errorf("chambers whose text is more than their name, or whose label lacks it: %q", bad)
	}
	if n := js[int](p, `document.querySelectorAll('#tp-map .tp-marks .seat-token').length`); n != 2 {
		t.Errorf("%d explorers drawn over the chambers, want 2", n)
	}
	p.shot("explorer-in-a-gem-chamber")
	p.axe("Temple with an explorer in a chamber one may enter")
	p.checkErrors()
}

// TestTempleReplayClock draws a step of a Temple match as the end screen's
// replay does (read-only, while the match's own clock is far later): the
// countdown shows the time left at that step, not at the match's last
// moment (it was frozen at its final value on every step).
func TestTempleReplayClock(t *testing.T) {
	s := newSite(t, temple.Game{})
	c := s.create("temple", []string{"human", "medium"}, nil, 0, "Tess")
	p := s.browser("tess", "en").tab("replay")
	p.openSeat(c, 0)
	p.wait(`document.querySelector('#tp-time-left') && window.sortie.page.msg.view.clock.end > 0`, 15*time.Second)
	// A step 5 s into the match, drawn when the match stood at 9:55.
	left := js[string](p, `(() => { const pg = window.sortie.page;
		const view = structuredClone(pg.msg.view);
		view.now = 5000;
		const ctx = pg.ctx([], null, {view, seat: 0, legal: [], actors: [], myTurn: false, readonly: true, ui: {}, play: () => {}, clock: 595000});
		const box = document.createElement('div');
		pg.mod.render(box, ctx);
		return box.querySelector('#tp-time-left').textContent + ' of ' + (view.clock.end - 5000); })()`)
	var shown string
	var want int
	if _, err := fmt.Sscanf(left, "%s of %d", &shown, &want); err != nil {
		t.Fatalf("read %q: %v", left, err)
	}
	if got := clockSeconds(shown); got != want/1000 {
		t.Errorf("a step 5 s into the match shows %s left, want %d s (the view's own time)", shown, want/1000)
	}
	p.checkErrors()
}
