package web_test

import (
	"regexp"
	"strings"
	"testing"
	"time"

	"sortie/games/outran"
	"sortie/games/plandesecours"
	"sortie/games/room25"
	"sortie/games/temple"
)

// TestPlanDeSecoursRevealDrawsTiles watches two bots play: the round's path
// reveal, live and on the end screen, draws tiles with their light face and
// dark routes, never solid black squares (issue 15, fault 1).
func TestPlanDeSecoursRevealDrawsTiles(t *testing.T) {
	s := newSite(t, plandesecours.Game{})
	c := s.create("plandesecours", []string{"medium", "medium"}, nil, 60, "")
	p := s.browser("watcher", "en").tab("match")
	p.openSeat(c, -1)
	p.wait(`document.querySelector('#board #pds-reveal')`, 90*time.Second)
	black := `(() => { const rs = [...document.querySelectorAll(%q)]; if (!rs.length) return 'none';
		return rs.filter((r) => /^rgb\(0, 0, 0\)$|^#000/.test(getComputedStyle(r).fill)).length + '/' + rs.length; })()`
	if got := js[string](p, sprintf(black, "#board #pds-reveal svg rect.bg")); got == "none" || !regexp.MustCompile(`^0/`).MatchString(got) {
		t.Errorf("live reveal: %s tile faces drawn black", got)
	}
	p.wait(`document.querySelector('#review-board #pds-reveal')`, 180*time.Second)
	if got := js[string](p, sprintf(black, "#review-board #pds-reveal svg rect.bg")); got == "none" || !regexp.MustCompile(`^0/`).MatchString(got) {
		t.Errorf("end screen reveal: %s tile faces drawn black", got)
	}
	p.axe("end screen")
	p.checkErrors()
}

// TestOutranLastRunTimes watches bots race: once a run is over, the times
// shown for it are the ones the log told, never negative (issue 15, fault 3).
func TestOutranLastRunTimes(t *testing.T) {
	s := newSite(t, outran.Game{})
	c := s.create("outran", []string{"medium", "medium"}, map[string]string{"countdown_ms": "4000"}, 20, "")
	p := s.browser("watcher", "en").tab("match")
	p.openSeat(c, -1)
	// The next round's countdown, with the last run's results still shown.
	p.wait(`window.sortie.page.msg && window.sortie.page.msg.view.phase === 'countdown' && /\d s\)/.test((document.querySelector('.or-results')||{}).textContent||'')`, 90*time.Second)
	said := js[[]string](p, `[...document.querySelectorAll('#log li')].map((li) => li.textContent).filter((x) => / s\b/.test(x))`)
	logged := map[string]bool{}
	for _, line := range said {
		for _, m := range regexp.MustCompile(`(\d+\.\d) s`).FindAllStringSubmatch(line, -1) {
			logged[m[1]] = true
		}
	}
	for _, txt := range js[[]string](p, `[...document.querySelectorAll('.or-results li')].map((li) => li.textContent)`) {
		m := regexp.MustCompile(`\(([-−]?\d+\.\d) s\)`).FindStringSubmatch(txt)
		if m == nil {
			continue
		}
		if strings.ContainsAny(m[1], "-−") {
			t.Errorf("last run line %q holds a negative time", txt)
		} else if !logged[m[1]] {
			t.Errorf("the last run shows %s s, which the log never said (%q)", m[1], said)
		}
	}
	p.checkErrors()
}

// TestTempleRollWaitsForCooldown presses Roll again and again: the page
// sends no roll while the cooldown it shows runs, so the server never has
// to refuse one (issue 15, fault 5), and its list of actions never names
// two different rolls alike (fault 7).
func TestTempleRollWaitsForCooldown(t *testing.T) {
	s := newSite(t, temple.Game{})
	c := s.create("temple", []string{"human", "medium"}, nil, 0, "Tess")
	p := s.browser("tess", "en").tab("match")
	p.openSeat(c, 0)
	p.wait(`document.querySelector('#tp-roll') && document.querySelector('.match-page').dataset.status === 'running'`, 15*time.Second)
	p.recordSends()
	// Two seconds of a player hammering Roll, by mouse and by key.
	end := time.Now().Add(2500 * time.Millisecond)
	for i := 0; time.Now().Before(end); i++ {
		if i%2 == 0 {
			js[bool](p, `(document.querySelector('#tp-roll').click(), true)`)
		} else {
			p.do("key r", chromedpKey("r"))
		}
		time.Sleep(60 * time.Millisecond)
	}
	p.wait(`document.querySelector('.match-page').dataset.busy !== 'true'`, 10*time.Second)
	time.Sleep(300 * time.Millisecond) // a refusal would be on its way
	rolls := js[int](p, `window.sortieSent.filter((m) => m.msg.action && m.msg.action.type === 'roll').length`)
	if rolls == 0 || rolls > 3 {
		t.Errorf("%d rolls sent in 2.5 s with a 1.5 s cooldown", rolls)
	}
	if code := js[string](p, `document.querySelector('#error').hidden ? '' : document.querySelector('#error').dataset.code`); code != "" {
		t.Errorf("the server refused a roll: %s (%s)", code, p.text("#error"))
	}
	// The list of actions: every label names one action.
	p.wait(`document.querySelector('#actions details')`, 10*time.Second)
	labels := js[[]string](p, `[...document.querySelectorAll('#actions button.legal')].map((b) => b.textContent)`)
	seen := map[string]bool{}
	for _, l := range labels {
		if seen[l] {
			t.Errorf("two actions are both labelled %q", l)
		}
		seen[l] = true
	}
	p.checkErrors()
}

// TestRoom25ProgramButtonsRead programs by keyboard: the token buttons'
// names say the token and its place in the program, not "2. Look 1"
// (issue 15, fault 7).
func TestRoom25ProgramButtonsRead(t *testing.T) {
	s := newSite(t, room25.Game{})
	c := s.create("room25", []string{"human", "medium"}, nil, 20, "Rita")
	p := s.browser("rita", "en").tab("match")
	p.openSeat(c, 0)
	for range 6 {
		st := p.waitMove(40 * time.Second)
		if js[string](p, `(document.querySelector('#r25-controls')||{dataset:{}}).dataset.decision || ''`) == "program" {
			break
		}
		playRoom25(p, false)
		p.wait(sprintf(`(() => { const d = document.querySelector('.match-page').dataset; return +d.seq > %d || d.busy !== 'true'; })()`, st.Seq), 10*time.Second)
	}
	p.wait(`document.querySelector('#r25-controls[data-decision="program"]')`, 5*time.Second)
	p.do("program", chromedpKey("2"))
	p.do("program", chromedpKey("1"))
	p.wait(`document.querySelectorAll('.token-btn[aria-pressed="true"]').length === 2`, 5*time.Second)
	names := p.accNames(".token-btn")
	bad := regexp.MustCompile(`^\d\.|\d$`)
	for _, n := range names {
		if bad.MatchString(n) {
			t.Errorf("a token button reads %q", n)
		}
	}
	if len(names) != 4 || !regexp.MustCompile(`(?i)look.*(second|2nd)`).MatchString(names[0]) || !regexp.MustCompile(`(?i)move.*(first|1st)`).MatchString(names[1]) {
		t.Errorf("token buttons read %q, want Move first and Look second", names)
	}
	p.checkErrors()
}
