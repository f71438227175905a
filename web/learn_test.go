package web_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"sortie/games/all"
	"sortie/internal/server"
)

// learnMove plays one step of a tutorial by keyboard, as its coach says.
type learnMove func(p *page)

// keys presses keys one after the other (a digit, a letter, kb.Enter…).
func keys(ks ...string) learnMove {
	return func(p *page) {
		for _, k := range ks {
			p.do("key "+k, chromedpKey(k))
		}
	}
}

// pressing focuses a control (as Tab would reach it) and presses Enter.
func pressing(sel string) learnMove { return func(p *page) { p.press(sel) } }

// then plays moves one after the other.
func then(ms ...learnMove) learnMove {
	return func(p *page) {
		for _, m := range ms {
			m(p)
		}
	}
}

// arrowsTo moves the keyboard over a map to the piece sel with the arrow
// keys, as a player who sees the map does (the shortest way, each arrow
// going where the map's roving focus sends it: the nearest piece that way),
// from the piece focused, or the map's own stop (its piece with tabindex 0,
// the one Tab reaches); then presses Enter on it. pieces are the map's
// roving pieces.
func arrowsTo(mapSel, pieces, sel string) learnMove {
	return func(p *page) {
		p.t.Helper()
		var tried []string
		for range 30 {
			path := js[[]string](p, fmt.Sprintf(`(() => {
				const m = document.querySelector(%q), to = document.querySelector(%q);
				if (!m || !to) return ['none'];
				if (!m.contains(document.activeElement)) m.querySelector('[tabindex="0"]')?.focus();
				const items = [...m.querySelectorAll(%q)], from = document.activeElement.closest(%q);
				if (from === to) return [];
				const c = (el) => { const r = el.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; };
				const dirs = {ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1]};
				const nearest = (a, [dx, dy]) => { const [x0, y0] = c(a); let best = null, score = Infinity;
					for (const it of items) { if (it === a) continue; const [x, y] = c(it); const along = (x - x0) * dx + (y - y0) * dy;
						if (along <= 2) continue; const sc = along + (Math.abs((x - x0) * dy) + Math.abs((y - y0) * dx)) * 2.5;
						if (sc < score) { score = sc; best = it; } } return best; };
				const seen = new Map([[from, []]]), queue = [from];
				while (queue.length) { const a = queue.shift(); if (a === to) return seen.get(a);
					for (const [k, d] of Object.entries(dirs)) { const b = nearest(a, d); if (b && !seen.has(b)) { seen.set(b, [...seen.get(a), k]); queue.push(b); } } }
				return ['none']; })()`, mapSel, sel, pieces, pieces))
			if len(path) == 0 {
				p.do("enter", chromedpKey(kb.Enter))
				return
			}
			if path[0] == "none" {
				break
			}
			// One key at a time: the way is worked out again from where it led.
			tried = append(tried, path[0])
			p.do("arrow "+path[0], chromedpKey(map[string]string{"ArrowRight": kb.ArrowRight, "ArrowLeft": kb.ArrowLeft, "ArrowDown": kb.ArrowDown, "ArrowUp": kb.ArrowUp}[path[0]]))
		}
		p.t.Fatalf("%s: the arrow keys %v did not reach %s (the focus on %s)", p.name, tried, sel, p.focusedText())
	}
}

// whenRollable waits for the Temple's Roll to be allowed again (its
// cooldown).
func whenRollable(p *page) {
	p.wait(`(() => { const b = document.querySelector('#tp-roll'); return b && b.dataset.can === 'true' && !b.getAttribute('aria-disabled'); })()`, 10*time.Second)
}

// learnScript is how a test plays a game's tutorial: each move step by
// keyboard, and one step first tried with another move, which the coach
// turns down.
type learnScript struct {
	moves     map[string]learnMove
	wrongStep string
	wrong     learnMove
}

var learnScripts = map[string]learnScript{
	"plandesecours": {
		moves: map[string]learnMove{
			"lay": keys("3"), "lost": keys("l", kb.Enter), "straight": keys("2"), "repetition": keys("1", kb.ArrowUp),
		},
		wrongStep: "lay", wrong: keys("2"),
	},
	"evades": {
		moves: map[string]learnMove{
			"take":   keys("3", "5", "t"),
			"joker":  then(keys("d"), arrowsTo("#ev-map", ".door, .area", `#ev-map [data-door="d02"]`), keys(kb.Enter)),
			"level":  then(keys("d"), arrowsTo("#ev-map", ".door, .area", `#ev-map [data-door="d14"]`), keys(kb.Enter)),
			"room":   then(keys("d"), arrowsTo("#ev-map", ".door, .area", `#ev-map [data-door="d13"]`), keys(kb.Enter)),
			"object": pressing(`#ev-controls [data-key="obj-gas_mask"]`),
			"end":    keys("e"),
		},
		wrongStep: "take", wrong: keys("1", "2", "t"),
	},
	"room25": {
		moves: map[string]learnMove{
			"peek":    pressing(`#r25-controls [data-key='{"type":"start_look","tile":"t13"}']`),
			"hint":    pressing(`#r25-controls .hint-red`),
			"program": then(keys("1", "2"), pressing("#r25-confirm")),
			"look":    pressing(`#r25-controls [data-key='{"type":"look","tile":"t07"}']`),
			"safe":    pressing(`#r25-controls .hint-green`),
			"move":    pressing(`#r25-controls [data-key='{"type":"move","dir":"up"}']`),
		},
		wrongStep: "peek", wrong: pressing(`#r25-controls [data-key='{"type":"start_look","tile":"t07"}']`),
	},
	"temple": {
		moves: map[string]learnMove{
			"roll":     then(whenRollable, keys("r")),
			"unlock":   pressing(`.tp-tray [data-act="unlock"]`),
			"enter":    arrowsTo("#tp-map", ".tp-chamber, .tp-discover", `#tp-map [data-chamber="gem_torch_1"]`),
			"discover": arrowsTo("#tp-map", ".tp-chamber, .tp-discover", `#tp-map [data-side="N"]`),
			"reroll":   then(whenRollable, keys("r")),
			"pool":     pressing(`.tp-tray [data-key='act-{"type":"commit","tier":1,"dice":[0,2,6]}']`),
			"again":    then(whenRollable, keys("r")),
			"gem":      pressing(`.tp-tray [data-key='act-{"type":"commit","tier":1,"dice":[1,3]}']`),
		},
		wrongStep: "roll", wrong: then(whenRollable, keys("1", "r")),
	},
	"outran": {
		moves: map[string]learnMove{
			"run":     keys("2", "9", "4", "6", kb.Enter),
			"reverse": keys("3", "2", "9", "6", "1", "4", "5", "7", "8", kb.Enter),
		},
		wrongStep: "run", wrong: keys("2", "9", "4", kb.Enter),
	},
}

// tutorialScript is a tutorial as GET /api/learn/{game} serves it.
type tutorialScript struct {
	Steps []struct {
		Key    string            `json:"key"`
		Read   bool              `json:"read"`
		Expect []json.RawMessage `json:"expect"`
		Target []string          `json:"target"`
	} `json:"steps"`
	Check []struct {
		Key     string `json:"key"`
		Answers int    `json:"answers"`
		Right   int    `json:"right"`
	} `json:"check"`
}

func (s *site) tutorial(t *testing.T, game string) tutorialScript {
	t.Helper()
	r, err := http.Get(s.url + "/api/learn/" + game)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	var out tutorialScript
	if err := json.NewDecoder(r.Body).Decode(&out); err != nil || r.StatusCode != 200 {
		t.Fatalf("the tutorial of %s: %d %v", game, r.StatusCode, err)
	}
	return out
}

// Given each game's tutorial, in French and in English, a player plays it
// to its end by keyboard alone: the welcome's button, each step's move by
// the keys its coach names (or a control reached by the keyboard), Next
// on the explanations, the check's answers. The coach says each step's
// words, marks what to press on the board, turns down another move gently
// ("Not yet. First, …") without sending it, and says after each move what
// it did; a wrong answer to the check is said so and a right one
// explained; at the end the tutorial's match is over (its learner done
// with it), and the page offers a match against bots. (Issue 34, item 8.)
func TestLearnEveryTutorialByKeyboard(t *testing.T) {
	for _, g := range all.Games() {
		game := g.Info().ID
		t.Run(game, func(t *testing.T) {
			s := newSiteWith(t, func(c *server.Config) { c.ClockSpeed = 4 }, all.Games()...)
			script := s.tutorial(t, game)
			ls := learnScripts[game]
			for _, lang := range []string{"fr", "en"} {
				d := dict(t, lang)
				name := g.Info().Name[lang]
				p := s.browser("learn-"+game+"-"+lang, lang).tab("tutorial")
				p.open("/learn/" + game)
				p.wait(`document.querySelector('#learn-start') && document.activeElement && document.activeElement.id === 'learn-start'`, 10*time.Second)
				if got, want := p.text("h1"), strings.ReplaceAll(d["learn.title"], "{game}", name); got != want {
					t.Errorf("%s: the title reads %q, want %q", lang, got, want)
				}
				if got, want := p.text("#learn-intro"), d["learn."+game+"."+script.Steps[0].Key+".do"]; got != want {
					t.Errorf("%s: the welcome reads %q, want %q", lang, got, want)
				}
				if lang == "en" {
					p.shot("welcome")
				}
				p.do("start", chromedpKey(kb.Enter))
				p.wait(`document.querySelector('#coach[data-step]')`, 15*time.Second)
				var match string
				shot := false
				for i, st := range script.Steps {
					if i == 0 && st.Read {
						continue // (the welcome said it)
					}
					p.wait(fmt.Sprintf(`document.querySelector('#coach[data-step=%q]')`, st.Key), 60*time.Second)
					key := "learn." + game + "." + st.Key
					if st.Read {
						p.wait(`document.activeElement && document.activeElement.id === 'coach-next'`, 5*time.Second)
						if got := p.text("#coach-do"); got != d[key+".do"] {
							t.Errorf("%s, step %s: the coach says %q, want %q", lang, st.Key, got, d[key+".do"])
						}
						p.do("next", chromedpKey(kb.Enter))
						continue
					}
					// The learner's turn: the words, and what to press marked.
					p.wait(`(() => { const d = (document.querySelector('.match-page')||{}).dataset || {}; return d.myTurn === 'true' && d.busy !== 'true'; })()`, 60*time.Second)
					p.wait(`!document.querySelector('#coach-wait')`, 10*time.Second)
					if match == "" {
						match = js[string](p, `window.sortie.learn.runInfo.id`)
					}
					if got := p.text("#coach-do"); got != d[key+".do"] {
						t.Errorf("%s, step %s: the coach says %q, want %q", lang, st.Key, got, d[key+".do"])
					}
					if len(st.Target) > 0 && !p.waitOK(`document.querySelector('#board .learn-target')`, 5*time.Second) {
						t.Errorf("%s, step %s: nothing on the board is marked to press (%v)", lang, st.Key, st.Target)
					}
					if !shot && lang == "en" {
						shot = true
						for _, sz := range [][2]int64{{1366, 768}, {390, 844}} {
							p.size(sz[0], sz[1], false)
							p.wait(fmt.Sprintf(`innerWidth === %d`, sz[0]), 5*time.Second)
							js[bool](p, `(window.scrollTo(0, 0), true)`)
							p.noSideways(fmt.Sprintf("the coach at %dx%d", sz[0], sz[1]))
							r := js[[]float64](p, `(() => { const r = document.querySelector('#coach').getBoundingClientRect(); return [r.left, r.right, innerWidth]; })()`)
							if r[0] < 0 || r[1] > r[2] {
								t.Errorf("at %dx%d the coach spans %.0f..%.0f px in a %.0f px window", sz[0], sz[1], r[0], r[1], r[2])
							}
							p.shot(fmt.Sprintf("%dx%d", sz[0], sz[1]))
						}
						p.size(1280, 900, false)
						p.axe("a tutorial's step, " + game)
					}
					if st.Key == ls.wrongStep {
						p.recordSends()
						ls.wrong(p)
						p.wait(`document.querySelector('#coach-not')`, 10*time.Second)
						want := strings.ReplaceAll(d["learn.notYet"], "{goal}", d[key+".goal"])
						if got := p.text("#coach-not"); got != want {
							t.Errorf("%s: another move is turned down as %q, want %q", lang, got, want)
						}
						if sent := js[string](p, `JSON.stringify(window.sortieSent.filter((m) => m.msg.action))`); sent != "[]" || !p.state().MyTurn {
							t.Errorf("%s: the move turned down was sent: %s", lang, sent)
						}
					}
					move := ls.moves[st.Key]
					if move == nil {
						t.Fatalf("no keys for step %s", st.Key)
					}
					move(p)
					// Said after it: what the move did.
					if then := d[key+".then"]; then != "" {
						if !p.waitOK(fmt.Sprintf(`(document.querySelector('#coach-then')||{}).textContent === %q`, then), 30*time.Second) {
							t.Fatalf("%s, step %s: after the move the coach does not say %q: it is at step %q, saying %q", lang, st.Key, then,
								js[string](p, `(document.querySelector('#coach') || {dataset: {}}).dataset.step || ''`), p.text("#coach-then"))
						}
					} else {
						p.wait(fmt.Sprintf(`!document.querySelector('#coach[data-step=%q]')`, st.Key), 30*time.Second)
					}
				}

				// The check: a wrong answer first, then the right one.
				for i, q := range script.Check {
					p.wait(fmt.Sprintf(`document.querySelector('#check-h') && document.querySelector('#check-h').textContent === %q`,
						strings.NewReplacer("{n}", fmt.Sprint(i+1), "{total}", fmt.Sprint(len(script.Check))).Replace(d["learn.checkTitle"])), 20*time.Second)
					key := "learn." + game + ".check." + q.Key
					if got := p.text("#check-q"); got != d[key+".q"] {
						t.Errorf("%s: question %d reads %q, want %q", lang, i+1, got, d[key+".q"])
					}
					wrong := q.Right%q.Answers + 1
					p.press(fmt.Sprintf(`#check-answers [data-answer="%d"]`, wrong))
					p.wait(`document.querySelector('#check-says.check-wrong')`, 5*time.Second)
					if got := p.text("#check-says"); got != d["learn.wrong"] {
						t.Errorf("%s: a wrong answer is said %q", lang, got)
					}
					p.press(fmt.Sprintf(`#check-answers [data-answer="%d"]`, q.Right))
					p.wait(`document.querySelector('#check-says.check-right') && document.activeElement && document.activeElement.id === 'check-next'`, 5*time.Second)
					if got, want := p.text("#check-says"), strings.ReplaceAll(d["learn.right"], "{why}", d[key+".why"]); got != want {
						t.Errorf("%s: the right answer is said %q, want %q", lang, got, want)
					}
					if i == 0 && lang == "en" {
						p.shot("check")
						p.axe("a tutorial's check, " + game)
					}
					p.do("next question", chromedpKey(kb.Enter))
				}
				p.wait(`document.querySelector('#learn-done-h') && document.activeElement === document.querySelector('#learn-done-h')`, 10*time.Second)
				if lang == "fr" {
					p.shot("done")
				}
				if href := js[string](p, `document.querySelector('#learn-play').getAttribute('href')`); href != "/?game="+game {
					t.Errorf("%s: the end offers %q, not a match of %s", lang, href, game)
				}
				if sum := s.summary(t, match); sum.Status != "abandoned" || sum.Reason == nil || sum.Reason.Code != "tutorial_over" {
					t.Errorf("%s: the tutorial's match is %s (%+v) once done", lang, sum.Status, sum.Reason)
				}
				p.checkErrors()
			}
		})
	}
}

// Given Outran's tutorial, when the Enter that sends a step's move is still
// down as the move's answer comes back and puts the focus on the coach's
// Next (a loaded machine, a key held), that Enter's keypress and its
// repeats do not press Next: what the move did and the explanation after
// it stay until the learner presses Enter on Next.
func TestLearnMoveKeyDoesNotPressNext(t *testing.T) {
	s := newSiteWith(t, func(c *server.Config) { c.ClockSpeed = 4 }, all.Games()...)
	d := dict(t, "en")
	p := s.browser("learn-held", "en").tab("tutorial")
	p.open("/learn/outran")
	p.wait(`document.activeElement && document.activeElement.id === 'learn-start'`, 10*time.Second)
	p.do("start", chromedpKey(kb.Enter))
	p.wait(`document.querySelector('#coach[data-step="run"]')`, 15*time.Second)
	p.wait(`(() => { const d = (document.querySelector('.match-page')||{}).dataset || {}; return d.myTurn === 'true' && d.busy !== 'true'; })()`, 60*time.Second)
	keys("2", "9", "4", "6")(p)
	enter := kb.Encode('\r') // its key down, its keypress, its key up
	p.do("Enter down", dispatchKey(enter[0]))
	p.wait(`document.querySelector('#coach[data-step="moved"]') && document.activeElement && document.activeElement.id === 'coach-next'`, 30*time.Second)
	yes := true
	repeat := *enter[0]
	repeat.AutoRepeat = &yes
	p.do("the Enter's keypress, held, then up", dispatchKey(enter[1]), dispatchKey(&repeat), dispatchKey(enter[1]), dispatchKey(enter[2]))
	if step := js[string](p, `(document.querySelector('#coach') || {dataset: {}}).dataset.step || ''`); step != "moved" {
		t.Errorf("the Enter that sent the move went on past the explanation, to %q", step)
	}
	if got, want := p.text("#coach-then"), d["learn.outran.run.then"]; got != want {
		t.Errorf("after the move the coach says %q, want %q", got, want)
	}
	p.do("Enter on Next", chromedpKey(kb.Enter))
	p.wait(`document.querySelector('#coach[data-step="reverse"]')`, 5*time.Second)
	p.checkErrors()
}

// dispatchKey sends one key event (a key down, a keypress or a key up) as
// a keyboard would.
func dispatchKey(k *input.DispatchKeyEventParams) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, input.DispatchKeyEvent, *k)
		return err
	})
}

// summary reads a match's summary through the API.
func (s *site) summary(t *testing.T, id string) struct {
	Status string `json:"status"`
	Reason *struct {
		Code string `json:"code"`
	} `json:"reason"`
} {
	t.Helper()
	var out struct {
		Status string `json:"status"`
		Reason *struct {
			Code string `json:"code"`
		} `json:"reason"`
	}
	r, err := http.Get(s.url + "/api/matches/" + id)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Body.Close()
	if err := json.NewDecoder(r.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out
}
