package web_test

import (
	"encoding/json"
	"fmt"
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
