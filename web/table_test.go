package web_test

// The table in the browser: the log after a reload, table talk shown as
// text, turn alerts in a hidden tab, seats told apart in every sentence and
// language, refusals in French with times said as a person says them, the
// error banner left up until read, the lobby's timers and invite box, and
// the replay drawing the board of every step.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"sortie/games/plandesecours"
	"sortie/games/temple"
)

// get reads the site's JSON API into out; a refusal fails the test.
func (s *site) get(path string, out any) {
	s.t.Helper()
	r, err := http.Get(s.url + path)
	if err != nil {
		s.t.Fatalf("GET %s: %v", path, err)
	}
	defer r.Body.Close()
	if r.StatusCode != http.StatusOK {
		var e bytes.Buffer
		_, _ = e.ReadFrom(r.Body)
		s.t.Fatalf("GET %s: %d %s", path, r.StatusCode, e.String())
	}
	if err := json.NewDecoder(r.Body).Decode(out); err != nil {
		s.t.Fatalf("GET %s: %v", path, err)
	}
}

// logTexts returns the lines of the "What happened" panel.
func (p *page) logTexts() []string {
	p.t.Helper()
	return js[[]string](p, `[...document.querySelectorAll('#log li')].map(li => li.textContent)`)
}

// playMoves plays n moves of Plan de Secours through the page (fewer if the
// match ends first), then waits for the player's turn: nothing moves then.
func playMoves(p *page, n int) {
	p.t.Helper()
	for range n {
		if st := p.waitMove(30 * time.Second); st.Status == "finished" {
			return
		}
		playPDS(p, false)
	}
	p.waitMove(30 * time.Second)
}

// Fault 2: "What happened" is the same after a reload, and after coming back
// from the lobby, as before: the page rebuilds it from the history the
// server sends.
func TestLogAfterReload(t *testing.T) {
	s := newSite(t, plandesecours.Game{})
	c := s.create("plandesecours", []string{"human", "medium"}, nil, 0, "Ada")
	p := s.browser("ada", "en").tab("match")
	p.openSeat(c, 0)
	playMoves(p, 3)
	before := p.logTexts()
	if len(before) < 4 {
		t.Fatalf("only %d lines in the log before the reload: %q", len(before), before)
	}
	p.do("reload", chromedp.Reload())
	p.wait(`document.querySelectorAll('#log li').length > 0`, 15*time.Second)
	if after := p.logTexts(); !slices.Equal(after, before) {
		t.Fatalf("after a reload the log holds\n%q\nbefore it held\n%q", after, before)
	}
	p.open("/")
	p.wait(`document.querySelector('#tab-running')`, 10*time.Second)
	p.open("/play/" + c.ID)
	p.wait(`document.querySelectorAll('#log li').length > 0`, 15*time.Second)
	if after := p.logTexts(); !slices.Equal(after, before) {
		t.Fatalf("back from the lobby the log holds\n%q\nbefore it held\n%q", after, before)
	}
	p.checkErrors()
}

// Table talk: a line written by one player shows in the other's log and a
// spectator's as text — markup stays markup, nothing runs — and after a
// reload too; spectators have no box to write in. A player who hands their
// seat to the bot is announced to the others, and may take it back.
func TestTableTalk(t *testing.T) {
	s := newSite(t, plandesecours.Game{})
	c := s.create("plandesecours", []string{"human", "human"}, nil, 0, "Ana")
	s.post("/api/matches/"+c.ID+"/join", c.Tokens[1], map[string]string{"name": "Bob"}, nil)
	ana := s.browser("ana", "en").tab("match")
	ana.openSeat(c, 0)
	bob := s.browser("bob", "fr").tab("match")
	bob.openSeat(c, 1)
	spec := s.browser("spec", "en").tab("watch")
	spec.openSeat(c, -1)
	if js[bool](spec, `!!document.querySelector('#chat-input')`) || !strings.Contains(spec.text("#talk"), "Spectators read") {
		t.Errorf("a spectator's page offers to write: %q", spec.text("#talk"))
	}

	evil := `<img src=x onerror="window.pwned=1"> hello <b>Bob</b>`
	ana.do("type", chromedp.SendKeys(chromedp.CSS("#chat-input"), evil))
	ana.click("#chat-send")
	for _, p := range []*page{ana, bob, spec} {
		p.wait(`document.querySelector('#log li.chat .said')`, 10*time.Second)
		if got := p.text("#log li.chat .said"); got != evil {
			t.Errorf("%s shows the line as %q", p.name, got)
		}
		if js[bool](p, `!!document.querySelector('#log img, #log b') || window.pwned === 1`) {
			t.Errorf("%s made HTML of the line", p.name)
		}
	}
	if got := ana.text("#log li.chat .who"); got != "Ana:" {
		t.Errorf("the writer is named %q", got)
	}
	if v := js[string](ana, `document.querySelector('#chat-input').value`); v != "" {
		t.Errorf("the box still holds %q once the line is told back", v)
	}
	// A line too long is refused in words, next to the box.
	js[bool](bob, `(document.querySelector('#chat-input').value = 'x'.repeat(301), document.querySelector('#chat-send').click(), true)`)
	bob.wait(`!document.querySelector('#chat-error').hidden`, 10*time.Second)
	if got := bob.text("#chat-error"); !strings.Contains(got, "300") || !strings.Contains(got, "caractères") {
		t.Errorf("a line too long is refused as %q", got)
	}
	bob.do("reload", chromedp.Reload())
	bob.wait(`document.querySelector('#log li.chat .said')`, 15*time.Second)
	if got := bob.text("#log li.chat .said"); got != evil {
		t.Errorf("after a reload the line reads %q", got)
	}

	// Bob hands his seat to the bot: Ana is told, Bob's page offers it back.
	bob.click("#leave-seat")
	bob.wait(`/Appuyez encore/.test(document.querySelector('#leave-seat').textContent)`, 5*time.Second)
	bob.click("#leave-seat")
	ana.wait(`[...document.querySelectorAll('#log li')].some(li => /Bob handed their seat to their bot/.test(li.textContent))`, 10*time.Second)
	bob.wait(`document.querySelector('#take-back')`, 10*time.Second)
	bob.axe("a seat handed to its bot, with table talk (fr)")
	ana.axe("table talk")
	bob.click("#take-back")
	ana.wait(`[...document.querySelectorAll('#log li')].some(li => /Bob took their seat back/.test(li.textContent))`, 10*time.Second)
	for _, p := range []*page{ana, bob, spec} {
		p.checkErrors()
	}
}

// hiddenTab makes the tab say it is hidden, as when its player is in
// another tab, until showTab: the page's own code reads document.hidden and
// listens for visibilitychange, as it does in a real background tab
// (headless Chromium reports every tab visible).
const hiddenTab = `(() => {
	let hidden = true;
	Object.defineProperty(Document.prototype, 'hidden', {configurable: true, get() { return hidden; }});
	Object.defineProperty(Document.prototype, 'visibilityState', {configurable: true, get() { return hidden ? 'hidden' : 'visible'; }});
	window.showTab = () => { hidden = false; document.dispatchEvent(new Event('visibilitychange')); };
})();`

func (p *page) startHidden() {
	p.t.Helper()
	p.do("hide the tab", func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		_, err := cdp.Call(ctx, t, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: hiddenTab})
		return chromedp.Void{}, err
	})
}

// Turn alerts: in a hidden tab, the player's turn changes the title and the
// icon, which come back when the tab is seen; a spectator's hidden tab is
// never told.
func TestTurnAlertInHiddenTab(t *testing.T) {
	s := newSite(t, plandesecours.Game{})
	c := s.create("plandesecours", []string{"human", "easy"}, nil, 300, "Ada")
	spec := s.browser("spec", "en").tab("watch")
	spec.startHidden()
	spec.openSeat(c, -1)
	p := s.browser("ada", "en").tab("match")
	p.startHidden()
	p.openSeat(c, 0)
	p.wait(`document.hidden && document.querySelector('.match-page') && document.querySelector('.match-page').dataset.myTurn === 'true'`, 20*time.Second)
	p.wait(`document.title.startsWith('●')`, 5*time.Second)
	if title := js[string](p, `document.title`); !strings.Contains(title, "Your turn — Emergency Exit Only") {
		t.Errorf("the hidden tab's title is %q", title)
	}
	if !js[bool](p, `document.querySelector('link[rel=icon]').dataset.alert === 'true'`) {
		t.Error("the tab's icon did not change")
	}
	js[bool](p, `(window.showTab(), true)`)
	p.wait(`!document.title.startsWith('●') && !document.querySelector('link[rel=icon]').dataset.alert`, 5*time.Second)
	// The player moves; the bot answers; the spectator's hidden tab saw it
	// all and was never told it was its turn.
	playPDS(p, false)
	spec.wait(`+document.querySelector('.match-page').dataset.seq >= 2`, 20*time.Second)
	if title := js[string](spec, `document.title`); strings.HasPrefix(title, "●") {
		t.Errorf("a spectator's tab was alerted: %q", title)
	}
	p.checkErrors()
	spec.checkErrors()
}

// Fault 6: two bots of the same level are told apart everywhere, in the
// player's language, and switching language says the whole log again.
func TestSeatsToldApart(t *testing.T) {
	s := newSite(t, plandesecours.Game{})
	c := s.create("plandesecours", []string{"human", "medium", "medium"}, nil, 0, "Zoé")
	p := s.browser("zoe", "fr").tab("match")
	p.openSeat(c, 0)
	names := js[[]string](p, `[...document.querySelectorAll('.seat-list .seat-name')].map(e => e.textContent)`)
	if want := []string{"Zoé", "Bot moyen 1", "Bot moyen 2"}; !slices.Equal(names, want) {
		t.Fatalf("the seats are named %q, want %q", names, want)
	}
	playMoves(p, 4)
	fr := p.logTexts()
	all := strings.Join(fr, "\n")
	if !strings.Contains(all, "Bot moyen 1") || !strings.Contains(all, "Bot moyen 2") || !strings.Contains(all, "pose une tuile") {
		t.Fatalf("the French log does not tell the bots apart:\n%s", all)
	}
	if strings.Contains(all, "medium bot") || strings.Contains(all, "Medium bot") {
		t.Fatalf("the French log names a bot in English:\n%s", all)
	}
	p.click("header .lang .lang-en")
	p.wait(`document.documentElement.lang === 'en'`, 5*time.Second)
	en := p.logTexts()
	all = strings.Join(en, "\n")
	if len(en) != len(fr) || strings.Contains(all, "pose une tuile") || strings.Contains(all, "Bot moyen") || !strings.Contains(all, "Medium bot 2 laid a tile") {
		t.Fatalf("after switching to English the log reads:\n%s", all)
	}
	p.checkErrors()
}

// Faults 4 and 5: a refusal in the French page is French, with its wait
// said as a person says it (no milliseconds), and it stays up while bots
// play on, until the player dismisses it or acts again.
func TestRefusalReadsAndStays(t *testing.T) {
	s := newSite(t, temple.Game{})
	// The longest cooldown the game allows (3 s), so that the second roll
	// still meets it on a loaded machine.
	c := s.create("temple", []string{"human", "easy", "easy"}, map[string]string{"roll_cooldown_ms": "3000"}, 0, "Zoé")
	p := s.browser("zoe", "fr").tab("match")
	p.openSeat(c, 0)
	p.wait(`document.querySelector('.match-page').dataset.status === 'running' && window.sortie.page.msg.legal.some(a => a.type === 'roll')`, 15*time.Second)
	// Roll the free dice, and roll the dice still free again the moment the
	// first roll is acknowledged, on the state it made: the second comes
	// during the cooldown. (When black masks have locked every die, a signal
	// twice does the same: signals have a cooldown too, with the same code.)
	// The second roll leaves out the dice the first locked, which would be
	// refused as locked before the cooldown is looked at. A bot's move
	// landing in between makes the second stale instead: try again (the
	// bots are easy ones, slow to act, so that it seldom happens).
	js[bool](p, `(() => { const pg = window.sortie.page; const set = pg.setState.bind(pg);
		pg.rollFree = () => {
			const free = (pg.msg.view.dice || []).filter(d => d.owner === pg.seat && (d.status === 'live' || d.status === 'spent')).map(d => d.id);
			return free.length ? {type: 'roll', dice: free} : {type: 'signal', kind: 'ok'};
		};
		pg.setState = (m, ev) => { set(m, ev); if (m.ack != null && pg.again) { pg.again = false; setTimeout(() => pg.play(pg.rollFree())); } };
		return true; })()`)
	refused := false
	for range 5 {
		js[bool](p, `(() => { const pg = window.sortie.page; pg.again = true; pg.play(pg.rollFree()); return true; })()`)
		if p.waitOK(`!document.querySelector('#error').hidden && document.querySelector('#error').dataset.code === 'cooldown'`, 5*time.Second) {
			refused = true
			break
		}
	}
	if !refused {
		t.Fatal("no roll or signal was refused for coming too soon")
	}
	text := p.text("#error .error-text")
	if !regexp.MustCompile(`dans \d+(,\d)?\x{00a0}s`).MatchString(text) || strings.Contains(text, "ms") || regexp.MustCompile(`\b(you|roll|again)\b`).MatchString(text) {
		t.Errorf("the refusal reads %q in the French page", text)
	}
	p.axe("a refusal shown")
	// The bots roll every two seconds or so: the banner stays while they do.
	seq := p.state().Seq
	p.wait(fmt.Sprintf(`+document.querySelector('.match-page').dataset.seq >= %d`, seq+3), 20*time.Second)
	if js[bool](p, `document.querySelector('#error').hidden`) {
		t.Error("the bots' moves cleared the refusal before it could be read")
	}
	p.click("#error .close")
	p.wait(`document.querySelector('#error').hidden`, 5*time.Second)
	p.checkErrors()
}

// An action the server refuses as stale (another seat moved, or time ran,
// while it travelled) goes again on the new state when it is still
// offered, as the terminal does, and the player sees no refusal; one
// still stale after that is said.
func TestStaleActionGoesAgain(t *testing.T) {
	s := newSite(t, plandesecours.Game{})
	c := s.create("plandesecours", []string{"human", "medium"}, nil, 0, "Ada")
	p := s.browser("ada", "en").tab("match")
	p.openSeat(c, 0)
	playMoves(p, 1) // (so that there is a state before the one shown)
	st := p.waitMove(30 * time.Second)
	// The page's first send names the state before the one shown, as if a
	// move had landed while the action travelled.
	js[bool](p, `(() => { const pg = window.sortie.page; const ws = pg.ws; const send = ws.send.bind(ws);
		window.sent = []; window.realSend = ws.send;
		ws.send = (data) => { const m = JSON.parse(data); if (window.sent.length === 0) m.seq -= 1; window.sent.push(m.seq); send(JSON.stringify(m)); };
		pg.play(pg.msg.legal[0]); return true; })()`)
	p.wait(fmt.Sprintf(`+document.querySelector('.match-page').dataset.seq > %d`, st.Seq), 15*time.Second)
	if sent := js[[]int](p, `window.sent`); len(sent) != 2 || sent[0] != st.Seq-1 || sent[1] != st.Seq {
		t.Errorf("the page sent the action on states %v, want [%d %d]", sent, st.Seq-1, st.Seq)
	}
	if !js[bool](p, `document.querySelector('#error').hidden`) {
		t.Errorf("a refusal is shown for an action that went through: %q", p.text("#error"))
	}
	// Stale twice: said, not sent a third time.
	st = p.waitMove(30 * time.Second)
	js[bool](p, `(() => { const pg = window.sortie.page; const ws = pg.ws; const send = window.realSend.bind(ws);
		window.sent = [];
		ws.send = (data) => { const m = JSON.parse(data); m.seq -= 1; window.sent.push(m.seq); send(JSON.stringify(m)); };
		pg.play(pg.msg.legal[0]); return true; })()`)
	p.wait(`!document.querySelector('#error').hidden`, 15*time.Second)
	if code := js[string](p, `document.querySelector('#error').dataset.code`); code != "stale_seq" {
		t.Errorf("the refusal shown has the code %q, want stale_seq", code)
	}
	if sent := js[[]int](p, `window.sent`); len(sent) != 2 {
		t.Errorf("the page sent a stale action %d times, want 2", len(sent))
	}
	p.checkErrors()
}

// Fault 7 (the lobby's timers) and time controls by default: timers are said
// in minutes and seconds, start at the game's usual values and reach the
// match, whose page then shows the time left; a real-time game has no move
// limit.
func TestLobbyTimers(t *testing.T) {
	s := newSite(t, plandesecours.Game{}, temple.Game{})
	p := s.browser("ada", "en").tab("lobby")
	p.open("/")
	p.wait(`document.querySelector('[data-game="plandesecours"] input')`, 10*time.Second)
	p.click(`[data-game="plandesecours"] input`)
	p.click("details.advanced summary")
	labels := p.text("details.advanced")
	if strings.Contains(labels, "ms") || strings.Contains(labels, "(s") {
		t.Errorf("the timers still speak milliseconds or bare seconds: %q", labels)
	}
	chosen := func(sel string) string {
		return js[string](p, fmt.Sprintf(`(() => { const s = document.querySelector(%q); return s.options[s.selectedIndex].textContent; })()`, sel))
	}
	if got := chosen("#move-limit"); got != "1 min 30 s (usual)" {
		t.Errorf("the move limit shows %q", got)
	}
	if got := chosen("#takeover"); got != "3 min (usual)" {
		t.Errorf("the takeover shows %q", got)
	}
	p.click("#create-btn")
	p.wait(`document.querySelector('#play-link')`, 10*time.Second)
	p.click("#play-link")
	p.wait(`document.querySelector('.match-page') && document.querySelector('.match-page').dataset.status === 'running'`, 10*time.Second)
	p.waitMove(20 * time.Second)
	p.wait(`/your time left 1:[23]\d/.test(document.querySelector('#clock').textContent)`, 5*time.Second)

	p.open("/")
	p.wait(`document.querySelector('[data-game="temple"] input')`, 10*time.Second)
	p.click(`[data-game="temple"] input`)
	if js[bool](p, `!!document.querySelector('#move-limit')`) {
		t.Error("a real-time game offers a move limit")
	}

	p.checkErrors()
}

// Fault 7 (the invite box): a link that is not an invite is said wrong next
// to the field, instead of being silently ignored.
func TestInviteBox(t *testing.T) {
	s := newSite(t, plandesecours.Game{})
	p := s.browser("ada", "en").tab("lobby")
	p.open("/")
	p.wait(`document.querySelector('#invite')`, 10*time.Second)
	p.do("type", chromedp.SendKeys(chromedp.CSS("#invite"), "not a link"))
	p.click("form:has(#invite) button[type=submit]")
	p.wait(`!document.querySelector('#invite-error').hidden`, 5*time.Second)
	if got := p.text("#invite-error"); !strings.Contains(got, "not a Sortie invite link") {
		t.Errorf("a bad invite link is answered %q", got)
	}
	if js[string](p, `location.pathname`) != "/" {
		t.Error("a bad invite link left the lobby")
	}
	p.checkErrors()
}

// The replay at the end draws the board at every step, as the seat chosen
// in "Seen by" saw it: what it draws is the view the server serves for that
// step, and the keyboard steps through it.
func TestReplayBoardAtStep(t *testing.T) {
	s := newSite(t, plandesecours.Game{})
	c := s.create("plandesecours", []string{"easy", "easy"}, nil, 0, "")
	p := s.browser("viewer", "en").tab("watch")
	p.openSeat(c, -1)
	p.wait(`document.querySelector('#scrubber')`, 60*time.Second)
	// Step back to the start, then forward by the keyboard.
	p.click("#step-first")
	p.wait(`document.querySelector('#review-board').dataset.step === '0'`, 10*time.Second)
	p.do("focus the board", chromedp.Focus(chromedp.CSS("#review-board")))
	for range 5 {
		p.do("next step", chromedpKey(kb.ArrowRight))
	}
	check := func(seat string, k int) {
		t.Helper()
		p.wait(fmt.Sprintf(`document.querySelector('#review-board').dataset.step === '%d' && document.querySelector('#review-board').dataset.seat === %q`, k, seat), 10*time.Second)
		if js[bool](p, `!document.querySelector('#review-board .board-inner') || !document.querySelector('#review-board .board-inner').children.length`) {
			t.Fatalf("nothing drawn at step %d: %q", k, p.text("#review-board"))
		}
		drawn := js[string](p, `JSON.stringify(window.sortie.page.reviewShown.view)`)
		who := seat
		if seat == "-1" {
			who = "spectator"
		}
		var served struct {
			View json.RawMessage `json:"view"`
		}
		s.get(fmt.Sprintf("/api/matches/%s/view?seat=%s&step=%d", c.ID, who, k), &served)
		var a, b any
		_ = json.Unmarshal([]byte(drawn), &a)
		_ = json.Unmarshal(served.View, &b)
		if fmt.Sprint(a) != fmt.Sprint(b) {
			t.Fatalf("step %d seen by %s: the board drew\n%s\nthe server serves\n%s", k, who, drawn, served.View)
		}
	}
	check("-1", 5)
	js[bool](p, `(() => { const s = document.querySelector('#perspective'); s.value = '1'; s.dispatchEvent(new Event('change')); return true; })()`)
	check("1", 5)
	p.do("focus the board", chromedp.Focus(chromedp.CSS("#review-board")))
	p.do("previous step", chromedpKey(kb.ArrowLeft))
	check("1", 4)
	p.checkErrors()
}
