package web_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"sortie/games/plandesecours"
)

// TestMatchStartsWhenEveryoneIsHere: the host creates a match for two in
// the lobby and stays there; the friend opens the invite and joins. The
// match waits — no clock runs — and the friend's page says whom it waits
// for; the host's lobby says the match waits for them. When the host opens
// the match, it starts on both pages, and nobody is told they were
// "connected again".
func TestMatchStartsWhenEveryoneIsHere(t *testing.T) {
	s := newSite(t, plandesecours.Game{})
	host := s.browser("host", "en").tab("lobby")
	id := host.createMatch("plandesecours", []string{"human", "human"}, nil, "Hana")
	invite := js[string](host, `document.querySelector('.invites li[data-seat="1"] .invite-url').value`)
	if got := host.text("#created"); !strings.Contains(got, "starts when every player has it open") {
		t.Errorf("the created match does not say when it starts: %q", got)
	}

	guest := s.browser("guest", "fr").tab("match")
	guest.do("open invite", chromedpNavigate(invite))
	guest.wait(`document.querySelector('#join-name')`, 10*time.Second)
	guest.do("name", chromedpType("#join-name", "Gus"))
	guest.click("#join-btn")
	guest.wait(`document.querySelector('.match-page') && document.querySelector('.match-page').dataset.status`, 10*time.Second)
	time.Sleep(1500 * time.Millisecond) // a start would have come by now
	var sum struct {
		Status string `json:"status"`
		Clock  int    `json:"clock"`
		Seats  []struct {
			Connected bool `json:"connected"`
		} `json:"seats"`
	}
	s.get("/api/matches/"+id, &sum)
	if sum.Status != "open" || sum.Clock != 0 {
		t.Fatalf("with the host still in the lobby the match is %s at clock %d ms", sum.Status, sum.Clock)
	}
	if st := guest.state().Status; st != "open" {
		t.Fatalf("the friend's page shows the match %s", st)
	}
	if got := guest.text("#turn"); !strings.Contains(got, "Pas encore là\u00a0: Hana.") || !strings.Contains(got, "aucune horloge ne tourne") {
		t.Errorf("the friend's page says %q, not whom it waits for", got)
	}
	guest.axe("a match waiting for its host (fr)")
	// The host's lobby lists the match among theirs as waiting for them.
	host.wait(fmt.Sprintf(`/waits for you/.test((document.querySelector('[data-mine=%q]') || {}).textContent || '')`, id), 15*time.Second)
	if got := host.text(fmt.Sprintf(`[data-mine=%q] .badge`, id)); got != "open" {
		t.Errorf("the host's match shows the status %q", got)
	}

	// The host opens the match: it starts for both.
	host.click(fmt.Sprintf(`[data-mine=%q] a`, id))
	host.wait(`(document.querySelector('.match-page')||{dataset:{}}).dataset.status === 'running'`, 10*time.Second)
	guest.wait(`document.querySelector('.match-page').dataset.status === 'running'`, 10*time.Second)
	time.Sleep(300 * time.Millisecond)
	for _, p := range []*page{host, guest} {
		if toasts := p.text("#toasts"); strings.Contains(toasts, "again") || strings.Contains(toasts, "nouveau") {
			t.Errorf("%s: the start reads as a reconnection: %q", p.name, toasts)
		}
		p.checkErrors()
	}
}
