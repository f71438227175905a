package web_test

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"sortie/engine/enginetest/testgames"
	"sortie/games/plandesecours"
	"sortie/games/temple"
	"sortie/internal/server"
)

// zone has the tab's browser live in time zone id (IANA).
func (p *page) zone(id string) {
	p.t.Helper()
	p.do("time zone "+id, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: id})
		return err
	}))
}

// set gives a form field a value as a person's choice does (its change
// and input events).
func (p *page) set(sel, value string) {
	p.t.Helper()
	ok := js[bool](p, fmt.Sprintf(`(() => { const el = document.querySelector(%q); if (!el) return false; el.value = %q;
		el.dispatchEvent(new Event('change', {bubbles: true})); el.dispatchEvent(new Event('input', {bubbles: true})); return true; })()`, sel, value))
	if !ok {
		p.t.Fatalf("%s: no field %s", p.name, sel)
	}
}

// calendar says instant at as a reader in zone reads it, written here
// independently of the page: "Tue 1 Dec, 14:05" (English, as in Britain),
// "mar. 1er déc. à 14 h 05" (French).
func calendar(t *testing.T, at time.Time, zone, lang string) string {
	t.Helper()
	loc, err := time.LoadLocation(zone)
	if err != nil {
		t.Fatal(err)
	}
	at = at.In(loc)
	if lang == "fr" {
		days := []string{"dim.", "lun.", "mar.", "mer.", "jeu.", "ven.", "sam."}
		months := []string{"janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc."}
		day := fmt.Sprint(at.Day())
		if day == "1" {
			day = "1er"
		}
		return fmt.Sprintf("%s %s %s à %d\u00a0h\u00a0%02d", days[at.Weekday()], day, months[at.Month()-1], at.Hour(), at.Minute())
	}
	months := []string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sept", "Oct", "Nov", "Dec"}
	return fmt.Sprintf("%s %d %s, %02d:%02d", at.Format("Mon"), at.Day(), months[at.Month()-1], at.Hour(), at.Minute())
}

// corrSummary is what the tests read of a correspondence table's summary.
type corrSummary struct {
	Status   string `json:"status"`
	Actors   []int  `json:"actors"`
	Settings struct {
		Clock           string `json:"clock"`
		MoveLimitMs     int64  `json:"move_limit_ms"`
		DaysOff         int    `json:"days_off"`
		TakeoverAfterMs int64  `json:"takeover_after_ms"`
	} `json:"settings"`
	Seats []struct {
		Deadline    *time.Time `json:"deadline"`
		DaysOffLeft *int       `json:"days_off_left"`
	} `json:"seats"`
	Rated bool `json:"rated"`
}

// A correspondence table from the lobby to the players' pages. The lobby's
// advanced settings offer "Correspondence (days per move)" for a turn-based
// game and not for a real-time one, with its move limits in days and each
// player's days off, and no takeover. Once both players joined (no page
// need be open), it runs; each player's match page, in their language and
// their own time zone (Auckland, Montréal), says by when each move is due
// and the reader's days off left, and the table's line says it is rated and
// played by correspondence; "My games" says the deadline too. Every French
// sentence is proofread; the pages pass axe-core, and neither scrolls
// sideways on a phone. (Issue 33, item 1.)
func TestCorrespondenceTables(t *testing.T) {
	s := newAccountSite(t, plandesecours.Game{}, temple.Game{})
	ana := s.browser("ana", "en").tab("main")
	bo := s.browser("bo", "fr").tab("main")
	s.signInByMail(ana, "ana@example.org")
	s.signInByMail(bo, "bo@example.org")
	zones := map[*page]string{ana: "Pacific/Auckland", bo: "America/Montreal"}
	for p, z := range zones {
		p.zone(z)
	}

	ana.size(1366, 768, false)
	ana.open("/")
	ana.wait(`document.querySelector('[data-game="temple"] input')`, 10*time.Second)
	ana.click(`[data-game="temple"] input`)
	ana.click("details.advanced summary")
	ana.wait(`document.querySelector('details.advanced[open]')`, 5*time.Second)
	if js[bool](ana, `!!document.querySelector('#clock')`) {
		t.Error("the Temple, a real-time game, offers correspondence tables")
	}
	ana.click(`[data-game="plandesecours"] input`)
	ana.wait(`document.querySelector('#clock')`, 5*time.Second)
	if got := js[[]string](ana, `[...document.querySelectorAll('#clock option')].map((o) => o.textContent)`); strings.Join(got, "|") != "Live: everyone plays at the table|Correspondence (days per move)" {
		t.Errorf("the table's pace offers %q", got)
	}
	ana.set("#clock", "correspondence")
	ana.wait(`document.querySelector('#corr-limit')`, 5*time.Second)
	if got := js[[]string](ana, `[...document.querySelectorAll('#corr-limit option')].map((o) => o.textContent)`); strings.Join(got, "|") != "1 day (usual)|2 days|3 days|7 days" {
		t.Errorf("the correspondence move limits read %q", got)
	}
	if got := js[string](ana, `document.querySelector('#days-off').value`); got != "3" {
		t.Errorf("days off by default: %q", got)
	}
	if js[bool](ana, `!!document.querySelector('#takeover') || !!document.querySelector('#move-limit') || document.activeElement.id !== 'clock' || !document.querySelector('details.advanced[open]')`) {
		t.Error("a correspondence table offers a takeover or a live move limit, or the choice lost the focus or closed the settings")
	}
	ana.set("#corr-limit", "172800000")
	ana.set("#days-off", "5")
	ana.set("#players", "2")
	ana.set("#seat-kind-1", "human")
	ana.wait(`document.querySelector('#corr-limit') && document.querySelector('#corr-limit').value === '172800000' && document.querySelector('#days-off').value === '5'`, 5*time.Second)
	ana.axe("the lobby offering a correspondence table")
	ana.shot("corr-lobby-desktop")
	ana.size(390, 844, false)
	if w := js[int](ana, `document.documentElement.scrollWidth`); w > 390 {
		t.Errorf("the lobby's correspondence settings scroll sideways on a phone: %d px", w)
	}
	if r := js[float64](ana, `document.querySelector('#days-off-help').getBoundingClientRect().right`); r > 390 {
		t.Errorf("the days off' help runs out of a phone's screen: right edge at %v px", r)
	}
	ana.shot("corr-lobby-phone")
	ana.size(1366, 768, false)
	ana.do("type name", chromedpType("#seat-name-0", "Ana"))
	ana.click("#create-btn")
	ana.wait(`document.querySelector('#play-link') && document.querySelector('.invite-url')`, 10*time.Second)
	id := strings.TrimPrefix(strings.SplitN(js[string](ana, `document.querySelector('#play-link').getAttribute('href')`), "?", 2)[0], "/play/")
	invite := js[string](ana, `document.querySelector('.invite-url').value`)
	u, err := url.Parse(invite)
	if err != nil {
		t.Fatal(err)
	}
	token := strings.TrimPrefix(u.Fragment, "token=")
	var sum corrSummary
	s.get("/api/matches/"+id, &sum)
	if set := sum.Settings; set.Clock != "correspondence" || set.MoveLimitMs != 2*86_400_000 || set.DaysOff != 5 || set.TakeoverAfterMs != 0 || sum.Status != "open" {
		t.Fatalf("the lobby made %+v, status %s", set, sum.Status)
	}

	// Until Bo joins, Ana's page says whom the table waits for: not for a
	// page to be open.
	ana.open("/play/" + id + "?seat=0")
	ana.wait(`(document.querySelector('.match-page')||{dataset:{}}).dataset.status === 'open' && document.querySelector('#turn').textContent !== ''`, 15*time.Second)
	if got := ana.text("#turn"); got != "The match starts once every player has joined the table. Not here yet: Seat 2." {
		t.Errorf("the open table's page says %q", got)
	}

	// Bo joins from his invite: both seats are joined, and the table runs
	// with no page open.
	bo.sit(created{ID: id, Tokens: map[int]string{1: token}}, 1)
	for range 100 {
		if s.get("/api/matches/"+id, &sum); sum.Status == "running" {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if sum.Status != "running" || len(sum.Actors) != 1 || !sum.Rated {
		t.Fatalf("once both joined, the table is %s with actors %v, rated %v", sum.Status, sum.Actors, sum.Rated)
	}
	mover := sum.Actors[0]
	due := sum.Seats[mover].Deadline
	if due == nil || sum.Seats[mover].DaysOffLeft == nil || *sum.Seats[mover].DaysOffLeft != 5 {
		t.Fatalf("the seat to move: %+v", sum.Seats[mover])
	}
	names := []string{"Ana", bo.me().Name}
	for i, p := range []*page{ana, bo} {
		lang := map[int]string{0: "en", 1: "fr"}[i]
		when := calendar(t, *due, zones[p], lang)
		var want, listed string // (the page's, My games')
		switch {
		case mover == i && lang == "en":
			want, listed = "Your move by "+when+" · 5 days off left", "Your move by "+when
		case mover == i:
			want, listed = "À vous de jouer avant le "+when+" · 5\u00a0jours de congé restants", "À vous de jouer avant le "+when
		case lang == "en":
			want, listed = names[mover]+" has until "+when, "waiting for "+names[mover]+" until "+when
		default:
			want, listed = names[mover]+" a jusqu’au "+when, "on attend "+names[mover]+" jusqu’au "+when
		}
		p.open(fmt.Sprintf("/play/%s?seat=%d", id, i))
		p.wait(`(document.querySelector('.match-page')||{dataset:{}}).dataset.status === 'running' && document.querySelector('#clock').textContent !== ''`, 15*time.Second)
		// The first of the month, a morning hour.
		for at, said := range map[string]map[string]string{
			"2026-12-01T13:05:00Z": {"en": "Tue 1 Dec, 14:05", "fr": "mar. 1er déc. à 14\u00a0h\u00a005"},
			"2026-09-03T07:05:00Z": {"en": "Thu 3 Sept, 09:05", "fr": "jeu. 3 sept. à 9\u00a0h\u00a005"},
		} {
			if got := js[string](p, fmt.Sprintf(`import('/js/deadline.js').then((m) => m.fmtWhen(%q, 'Europe/Paris'))`, at)); got != said[lang] {
				t.Errorf("%s says %s in Paris %q, want %q", p.name, at, got, said[lang])
			}
		}
		if got := p.text("#clock"); got != want {
			t.Errorf("%s's page (%s, %s) says %q, want %q", p.name, lang, zones[p], got, want)
		}
		pace := map[string]string{"en": "Rated table · Correspondence: 2 days a move, 5 days off each",
			"fr": "Table classée · Par correspondance\u00a0: 2\u00a0jours par coup, 5\u00a0jours de congé chacun"}[lang]
		if got := p.text("#rated-line"); got != pace {
			t.Errorf("%s's table line reads %q, want %q", p.name, got, pace)
		}
		if lang == "fr" {
			proofreadTexts(t, "fr", p.text("#clock"), p.text("#rated-line"))
		}
		p.axe("a correspondence table's page")
		p.shot("corr-match-desktop")
		p.size(390, 844, false)
		if w := js[int](p, `document.documentElement.scrollWidth`); w > 390 {
			t.Errorf("%s: the match page scrolls sideways on a phone: %d px", p.name, w)
		}
		if r := js[float64](p, `document.querySelector('#clock').getBoundingClientRect().right`); r > 390 {
			t.Errorf("%s: the deadline runs out of a phone's screen: right edge at %v px", p.name, r)
		}
		p.shot("corr-match-phone")
		p.size(1366, 768, false)

		// My games says the deadline, as the page does.
		p.open("/")
		p.wait(fmt.Sprintf(`document.querySelector('[data-my=%q] .my-deadline')`, id), 15*time.Second)
		if got := p.text(fmt.Sprintf(`[data-my=%q] .my-deadline`, id)); got != listed {
			t.Errorf("%s's My games says %q, want %q", p.name, got, listed)
		}
		if lang == "fr" {
			proofreadTexts(t, "fr", p.text(fmt.Sprintf(`[data-my=%q]`, id)))
		}
		p.axe("My games with a correspondence table")
		p.shot("corr-mygames-desktop")
		p.size(390, 844, false)
		if w := js[int](p, `document.documentElement.scrollWidth`); w > 390 {
			t.Errorf("%s: My games scrolls sideways on a phone: %d px", p.name, w)
		}
		p.shot("corr-mygames-phone")
		p.size(1366, 768, false)
		p.checkErrors()
	}
}

// When a player's move limit runs out at a correspondence table, a day off
// begins: their page, left open, says the new deadline and one day off
// fewer without a reload; with none left, their seat's bot plays the move,
// and the seat stays theirs. (The server's clock runs 21,600 times faster
// than the wall: a day is 4 s.)
func TestCorrespondenceDayOffShows(t *testing.T) {
	s := newSiteWith(t, func(c *server.Config) { c.ClockSpeed = 21_600 }, testgames.Draw{})
	var out struct {
		Match struct{ ID string }
		Seats []struct{ Token string }
	}
	s.post("/api/matches", "", map[string]any{"game": "draw", "clock": "correspondence", "days_off": 1, "auto_start": true,
		"seats": []map[string]string{{"kind": "human"}, {"kind": "bot", "bot": "random"}}}, &out)
	c := created{ID: out.Match.ID, Tokens: map[int]string{0: out.Seats[0].Token}}
	p := s.browser("ana", "en").tab("main")
	p.zone("Europe/Paris")
	s.post("/api/matches/"+c.ID+"/join", c.Tokens[0], map[string]string{"name": "Ana"}, nil)
	p.openSeat(c, 0)
	p.wait(`document.querySelector('#clock').textContent.endsWith('· 1 day off left')`, 10*time.Second)
	first := js[string](p, `window.sortie.page.msg.deadlines[0].by`)
	// The lobby's "Your matches" (this browser's, as a guest) says it too.
	a, err := time.Parse(time.RFC3339Nano, first)
	if err != nil {
		t.Fatal(err)
	}
	lobby := p.b.tab("lobby")
	lobby.zone("Europe/Paris")
	lobby.open("/")
	lobby.wait(fmt.Sprintf(`document.querySelector('[data-mine=%q] .mine-detail')`, c.ID), 10*time.Second)
	if got, want := lobby.text(fmt.Sprintf(`[data-mine=%q] .mine-detail`, c.ID)), "Your move by "+calendar(t, a, "Europe/Paris", "en"); got != want {
		t.Errorf("Your matches says %q, want %q", got, want)
	}
	lobby.checkErrors()
	p.wait(`document.querySelector('#clock').textContent.endsWith('· no day off left')`, 15*time.Second)
	second := js[string](p, `window.sortie.page.msg.deadlines[0].by`)
	b, err := time.Parse(time.RFC3339Nano, second)
	if err != nil || b.Sub(a) < 3900*time.Millisecond || b.Sub(a) > 4100*time.Millisecond {
		t.Errorf("the deadline moved from %s to %s once the day off began, want a day (4 s) on", first, second)
	}
	if got, want := p.text("#clock"), "Your move by "+calendar(t, b, "Europe/Paris", "en")+" · no day off left"; got != want {
		t.Errorf("in the day off the page says %q, want %q", got, want)
	}
	if seq := p.state().Seq; seq != 0 {
		t.Errorf("a move was played in the day off (seq %d)", seq)
	}
	// No day off left: the bot plays the move at the deadline, and the
	// seat is still the person's.
	p.wait(`(document.querySelector('.match-page')||{dataset:{}}).dataset.seq >= 1`, 15*time.Second)
	if got := p.text(`.seat-list li[data-seat="0"]`); strings.Contains(got, "bot") {
		t.Errorf("after its bot's move the person's seat reads %q", got)
	}
	p.checkErrors()
}
