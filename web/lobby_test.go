package web_test

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp/kb"

	"sortie/engine/enginetest/testgames"
	"sortie/games/plandesecours"
)

// TestYourMatchesSayWhereTheyStand: "Your matches" in the lobby tells the
// matches still to play from the finished ones, each with its status and
// where it stands (whom it waits for, who won); only the newest finished
// ones are kept, the older ones are forgotten by the browser. The match
// log's lines, talk included, are not numbered.
func TestYourMatchesSayWhereTheyStand(t *testing.T) {
	s := newSite(t, testgames.Draw{}, plandesecours.Game{})
	held := map[string]any{}
	now := time.Now().UnixMilli()
	var finished []string
	for i := range 7 {
		c := s.create("draw", []string{"random", "random"}, nil, 0, "")
		finished = append(finished, c.ID)
		held[c.ID] = map[string]any{"game": "draw", "seats": map[string]string{}, "invites": map[string]string{}, "host": "h", "created": now - int64(100-i)}
	}
	for _, id := range finished {
		deadline := time.Now().Add(30 * time.Second)
		for {
			var sum struct{ Status string }
			s.get("/api/matches/"+id, &sum)
			if sum.Status == "finished" {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the bots' match %s is still %s", id, sum.Status)
			}
			time.Sleep(50 * time.Millisecond)
		}
	}
	open := s.create("plandesecours", []string{"human", "human"}, nil, 0, "Ana")
	held[open.ID] = map[string]any{"game": "plandesecours", "seats": map[string]string{"0": open.Tokens[0]}, "invites": map[string]string{}, "last": 0, "created": now}
	b, _ := json.Marshal(held)

	p := s.browser("ana", "en").tab("lobby")
	p.open("/")
	js[bool](p, fmt.Sprintf(`(localStorage.setItem('sortie.matches', %q), true)`, string(b)))
	p.open("/")
	p.wait(`document.querySelectorAll('#mine-list li[data-status]:not([data-status=""])').length >= 6`, 15*time.Second)
	groups := js[[]string](p, `[...document.querySelectorAll('#mine-list h3')].map((h) => h.textContent)`)
	if strings.Join(groups, "|") != "To play|Finished" {
		t.Errorf("Your matches has the groups %q", groups)
	}
	if got := p.text(fmt.Sprintf(`[data-mine=%q]`, open.ID)); !strings.Contains(got, "open") || !strings.Contains(got, "players here: 0 of 2") {
		t.Errorf("the open match reads %q", got)
	}
	done := js[[]string](p, `[...document.querySelectorAll('#mine-list ul:last-of-type li')].map((li) => li.textContent)`)
	if len(done) != 5 {
		t.Errorf("%d finished matches shown, want the newest 5: %q", len(done), done)
	}
	for _, d := range done {
		if !strings.Contains(d, "finished") || !(strings.Contains(d, "won by") || strings.Contains(d, "Nobody won")) {
			t.Errorf("a finished match reads %q, without its status or outcome", d)
		}
	}
	// The two that finished first are forgotten.
	type fin struct {
		ID       string `json:"id"`
		Finished string `json:"finished_at"`
	}
	var fins []fin
	for _, id := range finished {
		var f fin
		s.get("/api/matches/"+id, &f)
		fins = append(fins, f)
	}
	slices.SortFunc(fins, func(a, b fin) int { return strings.Compare(a.Finished, b.Finished) })
	for _, old := range []string{fins[0].ID, fins[1].ID} {
		if js[bool](p, fmt.Sprintf(`!!document.querySelector('[data-mine=%q]') || %q in JSON.parse(localStorage.getItem('sortie.matches'))`, old, old)) {
			t.Errorf("the old finished match %s is still kept", old)
		}
	}
	p.axe("the lobby with Your matches")

	// The match log is no numbered list, talk or events.
	c := s.create("plandesecours", []string{"human", "medium"}, nil, 0, "Ana")
	m := s.browser("ana2", "en").tab("match")
	m.openSeat(c, 0)
	m.waitMove(30 * time.Second)
	clickPDS(m)
	m.do("type", chromedpType("#chat-input", "hello"))
	m.click("#chat-send")
	m.wait(`document.querySelector('#log li.chat') && document.querySelector('#log li.ev')`, 15*time.Second)
	if styles := js[[]string](m, `[...document.querySelectorAll('#log li.chat, #log li.ev')].map((li) => getComputedStyle(li).listStyleType).filter((s) => s !== 'none')`); len(styles) > 0 {
		t.Errorf("log lines are numbered: %q", styles)
	}
	m.checkErrors()
	p.checkErrors()
}

// TestLobbyTabsFollowTheTabPattern: the lobby's tabs of matches are one
// tab stop; the arrow keys, Home and End move between them and show their
// lists; Tab goes from the tab to its list.
func TestLobbyTabsFollowTheTabPattern(t *testing.T) {
	s := newSite(t, plandesecours.Game{})
	s.create("plandesecours", []string{"human", "human"}, nil, 0, "Ana") // an open match
	p := s.browser("ana", "en").tab("lobby")
	p.open("/")
	p.wait(`document.querySelector('#tab-running')`, 10*time.Second)
	js[bool](p, `(document.querySelector('#tab-running').focus(), true)`)
	stops := js[int](p, `document.querySelectorAll('[role=tab][tabindex="0"]').length`)
	if stops != 1 {
		t.Errorf("%d tabs are tab stops, want 1", stops)
	}
	for _, step := range []struct{ key, want string }{
		{kb.ArrowRight, "finished"}, {kb.End, "ended"}, {kb.ArrowRight, "open"}, {kb.Home, "open"}, {kb.ArrowLeft, "ended"}, {kb.ArrowLeft, "finished"}, {kb.Home, "open"},
	} {
		p.do("key", chromedpKey(step.key))
		p.wait(fmt.Sprintf(`document.activeElement && document.activeElement.id === 'tab-%s' && document.activeElement.getAttribute('aria-selected') === 'true' && document.querySelector('#match-list').getAttribute('aria-labelledby') === 'tab-%s'`, step.want, step.want), 5*time.Second)
		if n := js[int](p, `document.querySelectorAll('[role=tab][aria-selected=true]').length + document.querySelectorAll('[role=tab][tabindex="0"]').length`); n != 2 {
			t.Errorf("after %q: %d selected tabs and tab stops, want one each", step.key, n)
		}
	}
	// The open tab lists the open match; Tab goes to the list, not to the
	// next tab.
	p.wait(`document.querySelector('#match-list .match')`, 10*time.Second)
	p.do("tab", chromedpKey("\t"))
	if id := js[string](p, `document.activeElement.id || document.activeElement.closest('[id]').id`); id != "match-list" {
		t.Errorf("Tab from the tabs went to %q, not their list", id)
	}
	p.checkErrors()
}

// The lobby's advanced settings say whether players may ask for hints: on
// by default at a table of one person and bots (as the server decides),
// off when unticked, and a table that allows them is said unrated.
// (Issue 34, item 1; issue 32, item 4.)
func TestLobbyOffersHints(t *testing.T) {
	s := newSite(t, plandesecours.Game{})
	p := s.browser("ana", "en").tab("lobby")
	for _, c := range []struct {
		options map[string]string
		want    bool
	}{{nil, true}, {map[string]string{"hints": "false"}, false}} {
		id := p.createMatch("plandesecours", []string{"human", "medium"}, c.options, "Ana")
		var sum struct {
			Settings struct {
				Hints bool `json:"hints"`
			} `json:"settings"`
		}
		s.get("/api/matches/"+id, &sum)
		if sum.Settings.Hints != c.want {
			t.Errorf("with the options %v the table's hints are %v", c.options, sum.Settings.Hints)
		}
	}
	if got := js[string](p, `(document.querySelector('label[for="opt-hints"]') || {}).textContent || ''`); got != "Hints at the table" {
		t.Errorf("the switch is labelled %q", got)
	}
	// It closes the section, after the clocks, not between them.
	if !js[bool](p, `(() => { const f = document.querySelectorAll('details.advanced .field'); return f.length > 1 && !!f[f.length - 1].querySelector('#opt-hints'); })()`) {
		t.Error("the hints switch sits among the time controls")
	}
	p.checkErrors()
}
