package term

import (
	"strings"
	"testing"

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
