package web_test

import (
	"fmt"
	"testing"
	"time"

	"sortie/games/outran"
)

// TestOutranAgainstBots plays Outran against two bots through the page: in
// each run it lays the path card's arrows as they show (by click and by the
// keypad), finishes, votes to stop when it may, and answers the other
// decisions; the page never lists the run's answers.
func TestOutranAgainstBots(t *testing.T) {
	s := newSite(t, outran.Game{})
	p := s.browser("otto", "en").tab("match")
	p.createMatch("outran", []string{"human", "hard", "hard"}, map[string]string{"exit_boards": "1", "countdown_ms": "2000"}, "Otto")
	p.click("#play-link")
	p.wait(`document.querySelector('.or') && document.querySelector('.match-page').dataset.status === 'running'`, 10*time.Second)
	keypad := map[string]string{"n": "8", "ne": "9", "e": "6", "se": "3", "s": "2", "sw": "1", "w": "4", "nw": "7", "spin": "5"}
	runs, kinds := 0, map[string]int{}
	deadline := time.Now().Add(110 * time.Second)
	finished := false
	for time.Now().Before(deadline) {
		st := p.waitMove(60 * time.Second)
		if st.Status == "finished" {
			finished = true
			break
		}
		v := p.view()
		phase := v["phase"].(string)
		kind := phase
		switch phase {
		case "run":
			if js[bool](p, `(() => { const b = document.querySelector('#or-vote'); return !!b && !b.disabled; })()`) {
				p.click("#or-vote")
				kind = "vote"
				break
			}
			if js[int](p, `[...document.querySelectorAll('#actions button.legal')].filter(b => b.dataset.action === 'submit').length`) != 0 {
				t.Fatal("the page lists the run's submissions, which are the answers")
			}
			path := v["path"].(map[string]any)
			for i, sym := range path["symbols"].([]any) {
				tok := sym.(string)
				if !js[bool](p, fmt.Sprintf(`(() => { const b = document.querySelector('#or-palette [data-token=%q]'); return !!b && !b.disabled; })()`, tok)) {
					continue
				}
				if k, ok := keypad[tok]; ok && i%2 == 1 {
					p.do("type an arrow", chromedpKey(k))
				} else {
					p.click(fmt.Sprintf(`#or-palette [data-token=%q]`, tok))
				}
			}
			if runs == 0 {
				p.shot("run")
			}
			p.click("#or-finish")
			runs++
			kind = "submit"
		case "place_choice", "infect_choice":
			p.click("#or-choice button[data-act]")
		case "interference_turn":
			p.click("#or-end-turn")
		default:
			t.Fatalf("my move in phase %s", phase)
		}
		kinds[kind]++
		p.wait(fmt.Sprintf(`(() => { const d = document.querySelector('.match-page').dataset; return +d.seq > %d || d.busy !== 'true'; })()`, st.Seq), 10*time.Second)
	}
	t.Logf("%v, finished: %v", kinds, finished)
	p.axe("Outran after some runs")
	if finished {
		p.wait(`document.querySelector('#end-headline')`, 10*time.Second)
		p.shot("end")
	} else if runs < 3 {
		t.Errorf("only %d runs in the budget", runs)
	}
	p.checkErrors()
}

// TestOutranReplayCountdown watches two bots race to the end, then steps
// the end screen's replay to a countdown: it shows the time left at that
// step, as the server's view and clock of the step say (it showed 0:00, the
// time left at the match's end, on every step).
func TestOutranReplayCountdown(t *testing.T) {
	s := newSite(t, outran.Game{})
	c := s.create("outran", []string{"hard", "hard"}, map[string]string{"exit_boards": "1", "countdown_ms": "4000"}, 0, "")
	p := s.browser("watcher", "en").tab("replay")
	p.openSeat(c, -1)
	p.wait(`document.querySelector('#scrubber')`, 170*time.Second)
	n := js[int](p, `+document.querySelector('#scrubber').max`)
	type stepView struct {
		Clock int `json:"clock"`
		View  struct {
			Phase    string `json:"phase"`
			RevealAt int    `json:"reveal_at"`
		} `json:"view"`
	}
	k, want := -1, 0
	for i := 1; i < n && k < 0; i++ {
		var sv stepView
		s.get(fmt.Sprintf("/api/matches/%s/view?seat=spectator&step=%d", c.ID, i), &sv)
		if sv.View.Phase == "countdown" && sv.View.RevealAt-sv.Clock >= 2000 {
			k, want = i, (sv.View.RevealAt-sv.Clock)/1000
		}
	}
	if k < 0 {
		t.Fatalf("no step of the %d is a countdown with 2 s or more to go", n)
	}
	js[bool](p, fmt.Sprintf(`(() => { const r = document.querySelector('#scrubber'); r.value = %d; r.dispatchEvent(new Event('input')); return true; })()`, k))
	p.wait(fmt.Sprintf(`document.querySelector('#review-board').dataset.step === '%d' && document.querySelector('#review-board #or-countdown .big')`, k), 10*time.Second)
	if shown := p.text("#review-board #or-countdown .big"); clockSeconds(shown) != want {
		t.Errorf("step %d of the replay shows the countdown at %s, want %d s (the step's own time)", k, shown, want)
	}
	p.checkErrors()
}
