package term

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"sortie/engine"
	"sortie/games/all"
)

// listLines are the lines of the screen's list of actions, without their
// frame.
func listLines(scr string) []string {
	var out []string
	in := false
	for _, l := range strings.Split(scr, "\n") {
		switch {
		case strings.HasPrefix(l, "╭─ ") && strings.Contains(l, " action"):
			in = true
		case in && strings.HasPrefix(l, "╰"):
			return out
		case in:
			item, _, _ := strings.Cut(strings.TrimPrefix(l, "│ "), " │")
			out = append(out, strings.TrimSpace(item))
		}
	}
	return out
}

// At 80×24 the list is half the width: Les Évadés' crossings of one door
// differ only by what they pay, at the end of a long label. Each still
// reads differently from the others, on the screen and over the whole
// list (what scrolling would show), and says the door.
func TestEvadesCrossingsReadApartAt80Columns(t *testing.T) {
	g, _ := all.Find("evades")
	s := stateWhere(t, g, 2, func(s engine.State) bool {
		doors := map[string]int{}
		for _, a := range s.Legal(0) {
			b, _ := engine.MarshalTyped(a)
			if o := newObj(b); o.typ() == "cross_door" {
				doors[o.str("door")]++
				if doors[o.str("door")] > 1 {
					return true
				}
			}
		}
		return false
	})
	for _, lang := range []string{"en", "fr"} {
		m, _ := screenIn(t, lang, g, s, 2)
		list := m.shown()
		labels := m.listLabels(m.ctx(), list, (m.w-1)/2-4-3)
		seen := map[string]string{}
		for i, l := range labels {
			a := string(list[i].raw)
			if other, ok := seen[l]; ok {
				t.Errorf("%s: %s and %s both read %q", lang, other, a, l)
			}
			seen[l] = a
			if o := newObj(list[i].raw); o.typ() == "cross_door" && !strings.Contains(strings.ToLower(l), strings.ToLower(evDoor(m.ctx(), o.str("door")))) {
				t.Errorf("%s: %s reads %q, which does not say its door", lang, a, l)
			}
		}
		shown := listLines(m.View())
		if len(shown) < 2 {
			t.Fatalf("%s: no list on the screen:\n%s", lang, m.View())
		}
		for i, l := range shown {
			for _, k := range shown[:i] {
				if k[2:] == l[2:] {
					t.Errorf("%s: two actions read the same on the screen: %q\n%s", lang, l, m.View())
				}
			}
		}
	}
}

// distinct keeps what tells cut labels apart, and cuts alike those that
// are the same or already differ.
func TestDistinctCutsKeepTheDifference(t *testing.T) {
	got := distinct([]string{
		"Cross door 1 (Cell – North corridor): pay screwdriver, cigarettes",
		"Cross door 1 (Cell – North corridor): pay screwdriver, joker",
		"Cross door 2 (Cell – East corridor): pay file",
		"End my turn",
	}, 32)
	want := []string{
		"Cross door 1 (Cell –… cigarettes",
		"Cross door 1 (Cell – Nort… joker",
		"Cross door 2 (Cell – East corri…",
		"End my turn",
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%d: %q, want %q", i, got[i], want[i])
		}
		if n := lipWidth(got[i]); n > 32 {
			t.Errorf("%d: %q is %d columns", i, got[i], n)
		}
	}
}

// A digit goes into the prompt silently only while it can still name an
// action of the list (or a board reads numbers); any other is refused in
// words at once. One that makes the number too large stays in the prompt,
// so that Enter plays nothing; Backspace takes it and its refusal away. On
// a board whose digits are keys (Temple's dice), a digit it does not use
// is no key, and where there is nothing to number a digit stays out.
func TestDigitsThatNameNothingAreRefused(t *testing.T) {
	digit := func(d string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(d)} }
	pds, _ := all.Find("plandesecours")
	s, err := pds.New(engine.Setup{Players: 3, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	for s.Actors()[0] != 0 {
		p := s.Actors()[0]
		if _, err := s.Apply(p, s.Legal(p)[0], 0); err != nil {
			t.Fatal(err)
		}
	}
	m, out := screenOn(t, pds, s, 3)
	n := len(m.shown())
	if n < 4 || n > 9 {
		t.Fatalf("a list of %d actions", n)
	}
	last := fmt.Sprint(n)
	press(m, digit(last))
	if m.input != last || m.refusal != "" {
		t.Fatalf("%s: prompt %q, refusal %q", last, m.input, m.refusal)
	}
	press(m, digit("7"))
	if m.input != last+"7" || !strings.Contains(m.refusal, "There is no action "+last+"7: pick a number from 1 to "+last+".") {
		t.Errorf("%s then 7: prompt %q, refusal %q", last, m.input, m.refusal)
	}
	if !strings.Contains(m.View(), "› "+last+"7█") || !strings.Contains(m.View(), "There is no action "+last+"7") {
		t.Errorf("the screen does not show the prompt and the refusal:\n%s", m.View())
	}
	press(m, enter)
	if len(out.sent) != 0 {
		t.Errorf("Enter on %s7 played %s", last, out.sent)
	}
	press(m, digit(last), digit("7"), tea.KeyMsg{Type: tea.KeyBackspace})
	if m.input != last || m.refusal != "" {
		t.Errorf("%s, 7, Backspace: prompt %q, refusal %q", last, m.input, m.refusal)
	}
	press(m, tea.KeyMsg{Type: tea.KeyEsc}, digit("0"))
	if m.input != "0" || !strings.Contains(m.refusal, "There is no action 0") {
		t.Errorf("0: prompt %q, refusal %q", m.input, m.refusal)
	}

	// Temple: the digits pick dice; 8 is no key.
	temple, _ := all.Find("temple")
	ts, err := temple.New(engine.Setup{Players: 2, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	for _, lang := range []string{"en", "fr"} {
		m, _ := screenIn(t, lang, temple, ts, 2)
		press(m, digit("8"))
		want := map[string]string{"en": "8 is not a key here", "fr": "8 n’est pas une touche ici"}[lang]
		if m.input != "" || !strings.Contains(m.refusal, want) {
			t.Errorf("%s, Temple, 8: prompt %q, refusal %q", lang, m.input, m.refusal)
		}
		if strings.Contains(m.View(), m.tx.t("term.pickHelp")) {
			t.Errorf("%s: the prompt offers numbers where the digits are keys", lang)
		}
	}

	// Not this seat's turn: nothing to number.
	for s.Actors()[0] == 0 {
		if _, err := s.Apply(0, s.Legal(0)[0], 0); err != nil {
			t.Fatal(err)
		}
	}
	m, _ = screenOn(t, pds, s, 3)
	press(m, digit("1"))
	if m.input != "" || m.refusal != "Not your turn." {
		t.Errorf("another's turn, 1: prompt %q, refusal %q", m.input, m.refusal)
	}
}

// At 80×24 Outran's way out shows every runner, and the path card keeps
// its three rows, for 2 to 6 players in both languages (the 6-player
// French run is the tallest head).
func TestOutranWayOutShowsEveryRunnerAt80x24(t *testing.T) {
	g, _ := all.Find("outran")
	for players := 2; players <= 6; players++ {
		s, err := g.New(engine.Setup{Players: players, Seed: 7})
		if err != nil {
			t.Fatal(err)
		}
		running := func() bool {
			b, _ := json.Marshal(s.View(0))
			return strings.Contains(string(b), `"phase":"run"`)
		}
		for at := engine.Millis(0); !running() && at < 60000; at += 100 {
			s.Advance(at)
		}
		for _, lang := range []string{"en", "fr"} {
			m, _ := screenIn(t, lang, g, s, players)
			scr := m.View()
			if n := strings.Count(scr, "┤ 0/18"); n != players {
				t.Errorf("%d players, %s: %d lanes on the screen:\n%s", players, lang, n, scr)
			}
			v := newObj(m.view)
			trail := v.sub("path").strs("trail")
			for i := range trail {
				step := fmt.Sprint((i + 1) % 10)
				if i == 0 {
					step = "*"
				}
				if !strings.Contains(scr, "│"+step) {
					t.Errorf("%d players, %s: step %s of the path is not on the screen:\n%s", players, lang, step, scr)
				}
			}
			if lines := strings.Split(scr, "\n"); len(lines) != 24 {
				t.Errorf("%d players, %s: %d lines", players, lang, len(lines))
			}
		}
	}
}
