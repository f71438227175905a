package web_test

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"sortie/games/plandesecours"
)

// playPDS plays one move of Plan de Secours through the page as a plain
// player would: it declines LOST calls, lays the first tile of its hand
// (choosing a facing when it is free), passes with an empty hand, and plays
// LOST (confirming it) when lost says so.
func playPDS(p *page, lost bool) string {
	p.t.Helper()
	has := func(sel string) bool {
		return js[bool](p, fmt.Sprintf(`(() => { const b = document.querySelector(%q); return !!b && !b.disabled; })()`, sel))
	}
	switch {
	case has("#pds-decline"):
		p.click("#pds-decline")
		return "decline"
	case lost && has("#pds-lost"):
		p.click("#pds-lost")
		p.wait(`document.querySelector('#pds-lost.primary')`, 5*time.Second)
		p.click("#pds-lost")
		return "lost"
	case has("#pds-hand .tile-btn[data-act]"):
		if has("#pds-hand .tile-btn:first-child[data-act]") && js[int](p, `+document.querySelector('.match-page').dataset.seq`)%2 == 0 {
			p.do("key 1", chromedpKey("1")) // the keyboard: 1 lays the first tile
		} else {
			p.click("#pds-hand .tile-btn[data-act]")
		}
		if js[bool](p, `!!document.querySelector('.facing-pick')`) {
			p.click(".facing-pick button[data-act]")
			return "tile+facing"
		}
		return "tile"
	case has("#pds-pass"):
		p.click("#pds-pass")
		return "pass"
	case has("#pds-lost"):
		p.click("#pds-lost")
		p.wait(`document.querySelector('#pds-lost.primary')`, 5*time.Second)
		p.click("#pds-lost")
		return "lost"
	}
	p.t.Fatalf("%s: my turn, but nothing to click", p.name)
	return ""
}

// TestPlanDeSecoursAgainstBots plays a whole match against a heuristic bot
// through the page, sees a round's reveal, an illegal action refused in words,
// and the end screen with its replay.
func TestPlanDeSecoursAgainstBots(t *testing.T) {
	s := newSite(t, plandesecours.Game{})
	p := s.browser("ada", "en").tab("match")
	id := p.createMatch("plandesecours", []string{"human", "heuristic"}, map[string]string{"danger": "true"}, "Ada")
	p.shot("created")
	p.click("#play-link")
	p.wait(`document.querySelector('.match-page') && document.querySelector('.match-page').dataset.status === 'running'`, 10*time.Second)
	if got := p.text(".seat-list li.me .seat-name"); got != "Ada" {
		t.Errorf("my seat is named %q, want Ada", got)
	}

	// An illegal action, sent by the page, comes back as the server's refusal
	// in words.
	p.waitMove(20 * time.Second)
	js[bool](p, `(window.sortie.page.play({type: 'pass_turn'}), true)`)
	p.wait(`!document.querySelector('#error').hidden`, 5*time.Second)
	if code := js[string](p, `document.querySelector('#error').dataset.code`); code != "must_play" {
		t.Errorf("refusal code %q, want must_play", code)
	}
	if msg := p.text("#error .error-text"); !strings.Contains(msg, "cannot pass") {
		t.Errorf("refusal shown as %q", msg)
	}

	moves, reveals, rounds := 0, 0, map[float64]bool{}
	deadline := time.Now().Add(100 * time.Second)
	for {
		st := p.waitMove(30 * time.Second)
		if st.Status == "finished" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the match is not over after %d moves", moves)
		}
		v := p.view()
		rounds[v["round"].(float64)] = true
		// Hand shown = hand in the view.
		if hand, ok := v["hand"].([]any); ok && v["phase"] == "turn" {
			want := []string{}
			for _, h := range hand {
				want = append(want, h.(map[string]any)["tile"].(string))
			}
			got := js[[]string](p, `[...document.querySelectorAll('#pds-hand [data-tile]')].map(b => b.dataset.tile)`)
			if !slices.Equal(got, want) {
				t.Fatalf("hand drawn %v, view holds %v", got, want)
			}
		}
		// Play LOST once, in the second round, to see the confirm step.
		lost := v["round"].(float64) == 2 && v["stack_tiles"].(float64) >= 3
		if moves == 2 {
			p.shot("turn")
		}
		playPDS(p, lost)
		moves++
		if js[bool](p, `!!document.querySelector('#pds-reveal')`) {
			if reveals == 0 {
				time.Sleep(3 * time.Second)
				p.shot("reveal")
			}
			reveals++
		}
	}
	if moves < 5 {
		t.Errorf("only %d moves before the end", moves)
	}
	if len(rounds) < 2 {
		t.Errorf("the match lasted %d round(s)", len(rounds))
	}
	if reveals == 0 {
		t.Errorf("no reveal was ever shown")
	}
	p.wait(`document.querySelector('#end-headline')`, 10*time.Second)
	if h := p.text("#end-headline"); h == "" {
		t.Error("the end screen has no headline")
	}
	// The replay: the scrubber starts at the end, on the full reveal, and
	// steps back through the log.
	p.wait(`document.querySelector('#scrubber')`, 10*time.Second)
	p.shot("end")
	n := js[int](p, `+document.querySelector('#scrubber').max`)
	if n < moves {
		t.Errorf("the replay has %d steps for %d moves of mine", n, moves)
	}
	p.axe("Plan de Secours' replay")
	last := p.text("#step-text")
	p.click("#step-prev")
	p.wait(fmt.Sprintf(`document.querySelector('#step-text').textContent !== %q`, last), 5*time.Second)
	// The step before the end: drawn from the views the page received (or
	// from the server's step views once it serves them).
	p.wait(`document.querySelector('#review-board .pds')`, 5*time.Second)
	p.click("#step-first")
	p.wait(`document.querySelector('#scrubber').value === '0'`, 5*time.Second)
	p.click("#step-next")
	p.wait(`document.querySelector('#scrubber').value === '1' && /^Step 1 of/.test(document.querySelector('#step-text').textContent)`, 5*time.Second)

	// The lobby lists the finished match.
	p.open("/")
	p.click("#tab-finished")
	p.wait(fmt.Sprintf(`document.querySelector('[data-match=%q]')`, id), 10*time.Second)
	p.checkErrors()
}

// TestPlanDeSecoursTwoHumans has two players in two browsers: the host
// creates the match and sends the invite link; each sees its own hand and
// nothing of the other's; a dropped socket and a closed page both come back.
func TestPlanDeSecoursTwoHumans(t *testing.T) {
	s := newSite(t, plandesecours.Game{})
	host := s.browser("host", "en").tab("match")
	host.createMatch("plandesecours", []string{"human", "human"}, nil, "Hana")
	invite := js[string](host, `document.querySelector('.invites li[data-seat="1"] .invite-url').value`)
	if !strings.Contains(invite, "#token=") {
		t.Fatalf("invite link %q holds no token", invite)
	}
	host.click("#play-link")
	host.wait(`document.querySelector('.match-page')`, 10*time.Second)

	guest := s.browser("guest", "fr").tab("match")
	guest.do("open invite", chromedpNavigate(invite))
	guest.wait(`document.querySelector('#join-name')`, 10*time.Second)
	if strings.Contains(js[string](guest, `location.href`), "token") {
		t.Error("the token stays in the address bar")
	}
	// Before joining, the panels and badge that have nothing yet are not
	// drawn as empty boxes.
	const emptyBoxes = `[...document.querySelectorAll('.panel, .badge')].filter(e => !e.children.length && !e.textContent.trim() && e.getClientRects().length).map(e => e.id || e.className)`
	if empty := js[[]string](guest, emptyBoxes); len(empty) > 0 {
		t.Errorf("the invite page draws empty boxes: %v", empty)
	}
	guest.do("name", chromedpType("#join-name", "Gus"))
	guest.click("#join-btn")
	guest.wait(`(document.querySelector('.match-page')||{dataset:{}}).dataset.status === 'running'`, 10*time.Second)
	host.wait(`document.querySelector('.match-page').dataset.status === 'running'`, 10*time.Second)

	checkHands := func() {
		t.Helper()
		hv, gv := host.view(), guest.view()
		if hv["seat"].(float64) != 0 || gv["seat"].(float64) != 1 {
			t.Fatalf("seats %v and %v, want 0 and 1", hv["seat"], gv["seat"])
		}
		hostTiles := js[[]string](host, `[...document.querySelectorAll('#pds-hand [data-tile]')].map(b => b.dataset.tile)`)
		guestTiles := js[[]string](guest, `[...document.querySelectorAll('#pds-hand [data-tile]')].map(b => b.dataset.tile)`)
		if len(hostTiles) == 0 || len(guestTiles) == 0 {
			t.Fatalf("hands drawn: host %v, guest %v", hostTiles, guestTiles)
		}
		hostPage := js[string](host, `document.body.innerHTML + JSON.stringify(window.sortie.page.msg)`)
		guestPage := js[string](guest, `document.body.innerHTML + JSON.stringify(window.sortie.page.msg)`)
		for _, tile := range guestTiles {
			if strings.Contains(hostPage, `"`+tile+`"`) {
				t.Errorf("the host's page holds the guest's tile %s", tile)
			}
		}
		for _, tile := range hostTiles {
			if strings.Contains(guestPage, `"`+tile+`"`) {
				t.Errorf("the guest's page holds the host's tile %s", tile)
			}
		}
	}
	checkHands()

	// A few moves each, whoever's turn it is.
	for range 6 {
		for _, p := range []*page{host, guest} {
			if st := p.state(); st.MyTurn && !st.Busy {
				playPDS(p, false)
				p.wait(fmt.Sprintf(`+document.querySelector('.match-page').dataset.seq > %d`, st.Seq), 10*time.Second)
			}
		}
	}
	checkHands()

	// A dropped socket comes back by itself.
	seq := host.state().Seq
	js[bool](host, `(window.sortie.page.drop(), true)`)
	host.wait(`!document.querySelector('#conn-banner').hidden`, 5*time.Second)
	host.wait(`document.querySelector('#conn-banner').hidden`, 15*time.Second)
	if host.state().Seq < seq {
		t.Errorf("after reconnecting the page shows state %d, before %d", host.state().Seq, seq)
	}

	// The guest closes the page and comes back from the lobby's list.
	guest.cancel()
	back := guest.b.tab("back")
	back.open("/")
	back.wait(`document.querySelector('.mine a')`, 10*time.Second)
	back.click(".mine a")
	back.wait(`(document.querySelector('.match-page')||{dataset:{}}).dataset.status === 'running'`, 10*time.Second)
	if seat := back.view()["seat"].(float64); seat != 1 {
		t.Errorf("back in seat %v, want 1", seat)
	}
	if n := js[int](back, `document.querySelectorAll('#pds-hand [data-tile]').length`); n == 0 {
		t.Error("no hand after coming back")
	}
	// The guest's browser is French: the page is.
	if lang := js[string](back, `document.documentElement.lang`); lang != "fr" {
		t.Errorf("the guest's page is in %q, want fr", lang)
	}
	host.checkErrors()
	back.checkErrors()
}

// TestLanguageSwitch switches the lobby and a match page between French and
// English, and the choice survives a reload.
func TestLanguageSwitch(t *testing.T) {
	s := newSite(t, plandesecours.Game{})
	p := s.browser("lang", "en").tab("lobby")
	en, fr := dict(t, "en"), dict(t, "fr")
	p.open("/")
	p.wait(`document.querySelector('.lead')`, 10*time.Second)
	if got := p.text(".lead"); got != en["lobby.lead"] {
		t.Errorf("lobby lead %q, want English", got)
	}
	p.click("header .lang .lang-fr")
	p.wait(fmt.Sprintf(`document.querySelector('.lead').textContent === %q`, fr["lobby.lead"]), 5*time.Second)
	if lang := js[string](p, `document.documentElement.lang`); lang != "fr" {
		t.Errorf("html lang %q after the switch", lang)
	}
	// The game's own texts come from the server in both languages.
	if name := p.text(`[data-game="plandesecours"] .game-name`); name != "Plan de Secours" {
		t.Errorf("game name %q", name)
	}
	p.open("/")
	p.wait(fmt.Sprintf(`(document.querySelector('.lead')||{}).textContent === %q`, fr["lobby.lead"]), 10*time.Second)

	// On a match page, the board's words switch too.
	p.createMatch("plandesecours", []string{"human", "random"}, nil, "")
	p.click("#play-link")
	p.wait(`document.querySelector('#pds-hand')`, 10*time.Second)
	p.wait(fmt.Sprintf(`document.querySelector('#pds-hand-h').textContent === %q`, fr["pds.yourHand"]), 5*time.Second)
	p.click("header .lang .lang-en")
	p.wait(fmt.Sprintf(`document.querySelector('#pds-hand-h').textContent === %q`, en["pds.yourHand"]), 5*time.Second)
	p.checkErrors()
}

func dict(t *testing.T, lang string) map[string]string {
	t.Helper()
	b, err := os.ReadFile("i18n/" + lang + ".json")
	if err != nil {
		t.Fatal(err)
	}
	var d map[string]string
	if err := json.Unmarshal(b, &d); err != nil {
		t.Fatal(err)
	}
	return d
}
