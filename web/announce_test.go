package web_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"
)

// listenLive records, from now on, what a screen reader would say from the
// page's live regions (window.sortieSaid: {at, region, text}), the way
// screen readers hear them: a region that is atomic, or whose text
// changed, says its whole text once per change; a region that reads its
// additions (aria-relevant="additions") says each node added; an alert
// says its text when it appears. A region drawn anew with its text says
// nothing (screen readers hear changes of regions they already know), and
// a region whose text did not change says nothing again.
const listenLive = `(() => {
	if (window.sortieSaid) { window.sortieSaid.length = 0; return true; }
	const said = window.sortieSaid = [];
	const regionOf = (n) => {
		const el = n && (n.nodeType === 1 ? n : n.parentElement);
		return el && el.closest('[aria-live]:not([aria-live="off"]), [role="alert"], [role="status"], [role="log"]');
	};
	const name = (r) => r.id || r.className || r.tagName;
	const shown = (r) => !r.hidden && !r.closest('[hidden]');
	const last = new WeakMap();
	const say = (r, text) => { text = (text || '').replace(/\s+/g, ' ').trim(); if (text) said.push({at: performance.now(), region: name(r), text}); };
	new MutationObserver((muts) => {
		const whole = new Set();
		for (const m of muts) {
			const r = regionOf(m.target);
			if (!r) {
				// An alert drawn anew speaks.
				for (const n of m.addedNodes) {
					if (n.nodeType !== 1) continue;
					for (const a of [n, ...n.querySelectorAll('[role="alert"]')]) if (a.getAttribute && a.getAttribute('role') === 'alert' && shown(a)) say(a, a.textContent);
				}
				continue;
			}
			if (!shown(r)) continue;
			const additions = (r.getAttribute('aria-relevant') || '').trim() === 'additions' && r.getAttribute('aria-atomic') !== 'true';
			if (additions && m.type === 'childList') {
				for (const n of m.addedNodes) say(r, n.textContent);
				continue;
			}
			whole.add(r);
		}
		for (const r of whole) {
			const text = r.textContent.replace(/\s+/g, ' ').trim();
			if (text === last.get(r)) continue;
			last.set(r, text);
			say(r, text);
		}
	}).observe(document.documentElement, {subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['hidden']});
	return true;
})()`

// utterance is one thing a screen reader said.
type utterance struct {
	At     float64 `json:"at"`
	Region string  `json:"region"`
	Text   string  `json:"text"`
}

// said returns what the page said since listenLive.
func (p *page) said() []utterance {
	p.t.Helper()
	return js[[]utterance](p, `window.sortieSaid || []`)
}

// saidText writes utterances one a line, for a failure's message.
func saidText(us []utterance) string {
	var b strings.Builder
	t0 := 0.0
	if len(us) > 0 {
		t0 = us[0].At
	}
	for _, u := range us {
		fmt.Fprintf(&b, "  %6.1f s  [%s] %s\n", (u.At-t0)/1000, u.Region, u.Text)
	}
	return b.String()
}

// heardEvents records, from now on, the events of the match page's updates
// (window.sortieEvents: {type, mine: the event is the page's seat's,
// frees: a gold mask that frees some of its dice}).
const heardEvents = `(() => {
	const pg = window.sortie.page, set = pg.setState;
	window.sortieEvents = [];
	pg.setState = function (m, evs) {
		set.call(this, m, evs);
		const dice = (this.msg.view || {}).dice || [];
		for (const e of evs || []) window.sortieEvents.push({type: e.type, mine: e.seat === this.seat,
			frees: e.seat !== this.seat && (e.targets || []).some((id) => (dice.find((d) => d.id === id) || {}).owner === this.seat)});
	};
	return true;
})()`

// heardEvent is one event of heardEvents.
type heardEvent struct {
	Type  string `json:"type"`
	Mine  bool   `json:"mine"`
	Frees bool   `json:"frees"`
}

// keyNames finds a key named in a sentence: "(keys 1–3)", "(L)", "press R".
var keyNames = regexp.MustCompile(`\([Kk]eys? [^)]*\)|\((?:[0-9A-Z]|[0-9]–[0-9])\)|[Pp]ress [A-Z0-9]\b`)

// announcing is a page ready to play with single-key shortcuts turned off
// (from the match page's settings) and its live regions heard from now.
func announcing(t *testing.T, game string, seats []string, options map[string]string) (*page, created) {
	t.Helper()
	s := newSite(t, boardCases[game].game)
	c := s.create(game, seats, options, 300, "Ada")
	p := s.browser("ada", "en").tab(game)
	p.openSeat(c, 0)
	p.wait(`document.querySelector('#pref-shortcuts')`, 30*time.Second)
	p.click("#pref-shortcuts")
	p.wait(`!document.querySelector('#pref-shortcuts').checked && localStorage.getItem('sortie.shortcuts') === 'off'`, 5*time.Second)
	js[bool](p, listenLive)
	return p, c
}

// checkSaid fails on utterances that name keys (shortcuts are off) and on
// a sentence said twice in one utterance (the same news twice).
func checkSaid(t *testing.T, us []utterance) {
	t.Helper()
	for _, u := range us {
		if m := keyNames.FindString(u.Text); m != "" {
			t.Errorf("with shortcuts off, an announcement names keys (%q): %q", m, u.Text)
		}
	}
}

// count returns how many utterances hold text.
func count(us []utterance, text string) int {
	n := 0
	for _, u := range us {
		if strings.Contains(u.Text, text) {
			n++
		}
	}
	return n
}

// clickPDS, clickRoom25 and clickEvades play one decision as playPDS,
// playRoom25 and playEvades do, by pointer only (the single-key shortcuts
// those use are off).
func clickPDS(p *page) {
	p.t.Helper()
	for _, sel := range []string{"#pds-decline", "#pds-hand .tile-btn[data-act]", "#pds-pass"} {
		if js[bool](p, fmt.Sprintf(`(() => { const b = document.querySelector(%q); return !!b && !b.disabled && b.getAttribute('aria-disabled') !== 'true'; })()`, sel)) {
			p.click(sel)
			if js[bool](p, `!!document.querySelector('.facing-pick')`) {
				p.click(".facing-pick button[data-act]")
			}
			return
		}
	}
	p.click("#pds-lost")
	p.wait(`document.querySelector('#pds-lost.primary')`, 5*time.Second)
	p.click("#pds-lost")
}

func clickRoom25(p *page) {
	p.t.Helper()
	switch js[string](p, `(document.querySelector('#r25-controls')||{dataset:{}}).dataset.decision || ''`) {
	case "start_look":
		p.click("#r25-skip")
	case "program":
		p.click(`.token-btn[data-token="move"]`)
		if js[bool](p, `!document.querySelector('.token-btn[data-token="look"]').disabled`) {
			p.click(`.token-btn[data-token="look"]`)
		}
		p.click("#r25-confirm")
	default:
		playRoom25(p, false)
	}
}

func clickEvades(p *page, turn int) {
	p.t.Helper()
	decision := js[string](p, `(document.querySelector('#ev-controls')||{dataset:{}}).dataset.decision || ''`)
	if decision == "" && p.view()["phase"] == "move" {
		if turn > 2 && js[bool](p, `!!document.querySelector('#ev-map .door.can-cross')`) {
			p.click("#ev-map .door.can-cross")
			p.wait(`document.querySelector('#ev-pay')`, 5*time.Second)
			if js[bool](p, `!!document.querySelector('#ev-pay button[data-act]:not([disabled])')`) {
				p.click("#ev-pay button[data-act]")
				return
			}
		}
		p.click("#ev-end-turn")
		return
	}
	crossed := 2 // (playEvades crosses by key: never)
	playEvades(p, turn, &crossed)
}

// TestAnnouncementsSayWhatChangedOnce plays a scripted stretch of each game
// at a person's pace, with single-key shortcuts off, and counts what a
// screen reader hears from the page's live regions: at most one
// utterance an action (each bot move used to say three things: the log,
// the board and the turn line), the instructions once and never with key
// names, a Temple roll's faces said, nothing of another runner while one
// runs in Outran, and a watcher of Room 25 not flooded.
func TestAnnouncementsSayWhatChangedOnce(t *testing.T) {
	think := 1200 * time.Millisecond // a person hears the news, then plays
	waitActed := func(p *page, seq int) {
		p.wait(fmt.Sprintf(`(() => { const d = document.querySelector('.match-page').dataset; return +d.seq > %d || d.busy !== 'true'; })()`, seq), 10*time.Second)
	}
	t.Run("plandesecours", func(t *testing.T) {
		p, _ := announcing(t, "plandesecours", []string{"human", "medium", "medium"}, map[string]string{"danger": "true"})
		if n := js[int](p, `document.querySelectorAll('#board [aria-keyshortcuts]').length`); n != 0 {
			t.Errorf("with shortcuts off, %d controls still offer a key shortcut", n)
		}
		if n := js[int](p, `[...document.querySelectorAll('#board kbd')].filter((k) => k.getClientRects().length).length`); n != 0 {
			t.Errorf("with shortcuts off, %d key hints are still shown", n)
		}
		start := p.state().Seq
		for p.state().Seq-start < 14 {
			st := p.waitMove(60 * time.Second)
			if st.Status == "finished" {
				break
			}
			time.Sleep(think)
			clickPDS(p)
			waitActed(p, st.Seq)
		}
		time.Sleep(2 * time.Second)
		us, acts := p.said(), p.state().Seq-start
		t.Logf("%d actions, %d utterances:\n%s", acts, len(us), saidText(us))
		if len(us) > acts {
			t.Errorf("%d utterances for %d actions (at most one an action)", len(us), acts)
		}
		if n := count(us, "Lay a tile from your hand"); n > 1 {
			t.Errorf("the turn's instructions were said %d times", n)
		}
		for _, u := range us {
			if strings.Count(u.Text, "Top of the stack") > 1 {
				t.Errorf("one utterance says the top of the stack twice: %q", u.Text)
			}
		}
		checkSaid(t, us)
	})
	t.Run("evades", func(t *testing.T) {
		p, _ := announcing(t, "evades", []string{"human", "medium"}, map[string]string{"first_player": "0"})
		start := p.state().Seq
		for turn := 0; p.state().Seq-start < 14; turn++ {
			st := p.waitMove(60 * time.Second)
			if st.Status == "finished" {
				break
			}
			time.Sleep(think)
			clickEvades(p, turn)
			waitActed(p, st.Seq)
		}
		time.Sleep(2 * time.Second)
		us, acts := p.said(), p.state().Seq-start
		t.Logf("%d actions, %d utterances:\n%s", acts, len(us), saidText(us))
		if len(us) > acts {
			t.Errorf("%d utterances for %d actions (at most one an action)", len(us), acts)
		}
		if n := count(us, "Ada takes"); n > 0 {
			t.Errorf("the player's own move was read back to them %d times", n)
		}
		checkSaid(t, us)
	})
	t.Run("room25", func(t *testing.T) {
		p, c := announcing(t, "room25", []string{"human", "medium"}, nil)
		w := p.b.s.browser("watcher", "en").tab("watch")
		w.openSeat(c, -1)
		js[bool](w, listenLive)
		start := p.state().Seq
		began := time.Now()
		for time.Since(began) < 25*time.Second {
			st := p.waitMove(60 * time.Second)
			if st.Status == "finished" {
				break
			}
			time.Sleep(think)
			clickRoom25(p)
			waitActed(p, st.Seq)
		}
		us, acts := p.said(), p.state().Seq-start
		seen := w.said()
		took := time.Since(began).Seconds()
		t.Logf("%d actions in %.0f s; the player heard %d utterances:\n%s\nthe watcher heard %d:\n%s", acts, took, len(us), saidText(us), len(seen), saidText(seen))
		if len(us) > acts {
			t.Errorf("%d utterances for %d actions (at most one an action)", len(us), acts)
		}
		if rate := float64(len(seen)) / took; rate > 1 {
			t.Errorf("the watcher heard %.1f utterances a second", rate)
		}
		for _, text := range []string{" reveals ", " is programmed with "} {
			if n := count(us, text) + count(seen, text); n > 0 {
				t.Errorf("%q was said %d times (what the token did is said; the program is secret)", text, n)
			}
		}
		checkSaid(t, us)
	})
	t.Run("temple", func(t *testing.T) {
		p, _ := announcing(t, "temple", []string{"human", "medium"}, nil)
		js[bool](p, heardEvents) // (from the moment the page is heard)
		p.wait(`document.querySelector('#tp-roll')`, 30*time.Second)
		began := time.Now()
		for time.Since(began) < 20*time.Second {
			if js[bool](p, `(() => { const b = document.querySelector('#tp-roll'); return !!b && b.getAttribute('aria-disabled') !== 'true'; })()`) {
				js[bool](p, `(document.querySelector('#tp-roll').click(), true)`)
			}
			time.Sleep(1600 * time.Millisecond) // the roll's cooldown
		}
		time.Sleep(1500 * time.Millisecond)
		us := p.said()
		// The rolls played, and the news the match brought that is said to
		// everyone: the others' rolls, steps, pooled dice and gold masks
		// (but one that frees the player's dice) are not. The bot's news
		// comes with time, the player's rolls with the dice (all locked, no
		// roll) and the machine's speed: each is counted as it came.
		rolls, news, quiet := 0, 0, 0
		for _, e := range js[[]heardEvent](p, `window.sortieEvents`) {
			switch {
			case e.Type == "rolled" && e.Mine:
				rolls++
			case e.Type == "rolled", e.Type == "entered", e.Type == "committed", e.Type == "withdrawn", e.Type == "retargeted",
				e.Type == "unlocked" && !e.Frees:
				quiet++
			default:
				news++
			}
		}
		t.Logf("%d rolls, %d other news, %d moves not to read, %d utterances:\n%s", rolls, news, quiet, len(us), saidText(us))
		if quiet == 0 {
			t.Error("the bot made no move: nothing was left unread")
		}
		// (A roll said after the next one came is replaced by it: on a busy
		// machine a few are.)
		if n := count(us, "You rolled: "); rolls == 0 || n < (rolls+1)/2 || n > rolls {
			t.Errorf("%d of %d rolls were said", n, rolls)
		}
		for _, u := range us {
			if n := strings.Count(u.Text, "You rolled: "); n > 1 {
				t.Errorf("one utterance says %d rolls: %q", n, u.Text)
			}
		}
		// (Plus the turn's instructions, said once.)
		if len(us) > rolls+news+1 {
			t.Errorf("%d utterances for %d rolls and %d other news: the others' moves are read", len(us), rolls, news)
		}
		if n := count(us, " goes to "); n > 0 {
			t.Errorf("another adventurer's every step is read (%d times)", n)
		}
		checkSaid(t, us)
	})
	t.Run("outran", func(t *testing.T) {
		p, _ := announcing(t, "outran", []string{"human", "medium", "medium"}, map[string]string{"countdown_ms": "2000"})
		p.wait(`window.sortie.page.msg && window.sortie.page.msg.view.phase === 'run' && document.querySelector('#or-finish')`, 30*time.Second)
		js[bool](p, listenLive)
		// The bots finish while the player still runs.
		p.wait(`window.sortie.page.msg.view.seats.filter((s) => s.submitted).length >= 2`, 30*time.Second)
		time.Sleep(think)
		during := p.said()
		p.click("#or-finish")
		p.wait(`window.sortie.page.msg.view.phase !== 'run'`, 30*time.Second)
		time.Sleep(2 * time.Second)
		us := p.said()
		t.Logf("during the run %d utterances; in all %d:\n%s", len(during), len(us), saidText(us))
		for _, u := range during {
			if strings.Contains(u.Text, "Medium bot") {
				t.Errorf("while the player runs, the others' news is read: %q", u.Text)
			}
		}
		if len(during) > 1 {
			t.Errorf("%d utterances during the player's run", len(during))
		}
		if !strings.Contains(saidText(us), "Everyone finished") && !strings.Contains(saidText(us), "Time is up") {
			t.Error("the run's results were not said once it ended")
		}
		checkSaid(t, us)
	})
}

// TestTempleSaysWhoseDiceAreFreed: another adventurer's gold mask that
// frees the player's dice is said, naming them as theirs; one that frees
// someone else's, and the player's own, are not read out (the log keeps
// "… frees dice with a gold mask." for every unlock, which a screen reader
// heard again and again).
func TestTempleSaysWhoseDiceAreFreed(t *testing.T) {
	s := newSite(t, boardCases["temple"].game)
	c := s.create("temple", []string{"human", "medium"}, nil, 0, "Tess")
	p := s.browser("tess", "en").tab("temple")
	p.openSeat(c, 0)
	p.wait(`document.querySelector('#tp-roll') && window.sortie.page.msg.view.dice.length > 0`, 30*time.Second)
	js[bool](p, listenLive)
	js[bool](p, `(() => { const pg = window.sortie.page, v = pg.msg.view;
		const mine = v.dice.filter((d) => d.owner === 0).map((d) => d.id), theirs = v.dice.filter((d) => d.owner === 1).map((d) => d.id);
		pg.setState({...pg.msg}, [{type: 'unlocked', seat: 1, gold: theirs[0], targets: [theirs[1]]}]);
		pg.setState({...pg.msg}, [{type: 'unlocked', seat: 0, gold: mine[0], targets: [mine[1]]}]);
		pg.setState({...pg.msg}, [{type: 'unlocked', seat: 1, gold: theirs[0], targets: [mine[2], mine[3]]}]);
		return true; })()`)
	p.waitOK(`window.sortieSaid.some((u) => /of your dice/.test(u.text))`, 5*time.Second)
	time.Sleep(1500 * time.Millisecond)
	us := p.said()
	all := saidText(us)
	if n := count(us, "Medium bot frees 2 of your dice."); n != 1 {
		t.Errorf("the gold mask freeing the player's two dice was said %d times:\n%s", n, all)
	}
	if strings.Contains(all, "frees dice with a gold mask") {
		t.Errorf("an unlock was read from the log:\n%s", all)
	}
	p.checkErrors()
}
