package term

import (
	"strings"
	"testing"
	"time"

	"sortie/engine"
	"sortie/games/all"
	"sortie/internal/match"
)

// At a correspondence table the header says, as the web page does, by when
// each seat must move, in the player's time zone and language, with their
// days off left, and no match clock (the time since the start says nothing
// to anyone).
func TestCorrespondenceDeadlinesInTheHeader(t *testing.T) {
	g, _ := all.Find("plandesecours")
	s, err := g.New(engine.Setup{Players: 2, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	paris, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	first := time.Date(2026, 12, 1, 13, 5, 0, 0, time.UTC)
	morning := time.Date(2026, 9, 3, 7, 5, 0, 0, time.UTC)
	for _, tc := range []struct {
		lang string
		want []string
	}{
		{"en", []string{"Your move by Tue 1 Dec, 14:05 · 2 days off left", "Medium bot has until Thu 3 Sept, 09:05"}},
		{"fr", []string{"À vous de jouer avant le mar. 1er déc. à 14\u00a0h\u00a005 · 2\u00a0jours de congé restants",
			"Bot moyen a jusqu’au jeu. 3 sept. à 9\u00a0h\u00a005"}},
	} {
		m, _ := screenIn(t, tc.lang, g, s, 2)
		m.w, m.h, m.zone = 200, 40, paris
		two, none := 2, 0
		m.seats[0].DaysOffLeft, m.seats[1].DaysOffLeft = &two, &none
		m.status = "running"
		m.clock = 3 * 86_400_000
		m.deadlines = []match.Deadline{{Seat: 1, At: 1, By: &morning}, {Seat: 0, At: 2, By: &first, DaysOffLeft: &two}}
		head := strings.Join(m.header(m.ctx(), m.w), "\n")
		got := strings.Join(m.dueDates(), " | ")
		if got != strings.Join(tc.want, " | ") {
			t.Errorf("%s: the deadlines read %q, want %q", tc.lang, got, tc.want)
		}
		for _, w := range tc.want {
			if !strings.Contains(head, strings.SplitN(w, " · ", 2)[0]) {
				t.Errorf("%s: the header does not say %q:\n%s", tc.lang, w, head)
			}
		}
		if strings.Contains(head, m.tx.t("match.clock", p{"time": fmtClock(m.clock)})) {
			t.Errorf("%s: the header shows the match clock of a correspondence table:\n%s", tc.lang, head)
		}
	}
}
