package web_test

import (
	"regexp"
	"strings"
	"testing"

	"sortie/coach"
	"sortie/games/all"
	"sortie/internal/proofread"
)

// Every game's tutorial has its words in both languages: each step what
// the coach says (and, for a move, what is asked again when another move
// is tried), each question of the check with its answers and why the
// right one is right; and every text of the tutorials and of the daily
// challenge reads as a careful reader expects, in French and in English.
// (No browser.)
func TestLearnTextsReadRight(t *testing.T) {
	dicts := map[string]map[string]string{"en": dict(t, "en"), "fr": dict(t, "fr")}
	for _, g := range all.Games() {
		id := g.Info().ID
		tu, ok := g.(coach.Tutor)
		if !ok {
			t.Errorf("%s has no tutorial", id)
			continue
		}
		script, err := coach.ParseTutorial(g, tu.Tutorial())
		if err != nil {
			t.Fatal(err)
		}
		var keys []string
		for _, st := range script.Steps {
			keys = append(keys, "learn."+id+"."+st.Key+".do")
			if !st.Read {
				keys = append(keys, "learn."+id+"."+st.Key+".goal")
			}
		}
		for _, q := range script.Check {
			k := "learn." + id + ".check." + q.Key + "."
			keys = append(keys, k+"q", k+"why")
			for i := 1; i <= q.Answers; i++ {
				keys = append(keys, k+"a"+string(rune('0'+i)))
			}
		}
		for lang, d := range dicts {
			for _, k := range keys {
				if d[k] == "" {
					t.Errorf("%s.json has no text %s", lang, k)
				}
			}
		}
	}
	// Values as the pages fill them in.
	values := map[string]map[string]string{
		"en": {"game": "Plan de Secours", "n": "2", "total": "5", "date": "Saturday, 28 November 2026", "name": "Bruno",
			"goal": dicts["en"]["learn.plandesecours.lay.goal"], "why": dicts["en"]["learn.evades.check.win.why"]},
		"fr": {"game": "Plan de Secours", "n": "2", "total": "5", "date": "samedi 28 novembre 2026", "name": "Bruno",
			"goal": dicts["fr"]["learn.plandesecours.lay.goal"], "why": dicts["fr"]["learn.evades.check.win.why"]},
	}
	for lang, d := range dicts {
		for k, v := range d {
			if !strings.HasPrefix(k, "learn.") && !strings.HasPrefix(k, "daily.") {
				continue
			}
			v = placeholder.ReplaceAllStringFunc(v, func(m string) string {
				if x, ok := values[lang][m[1:len(m)-1]]; ok {
					return x
				}
				return m
			})
			for _, slip := range proofread.Slips(lang, v, proofread.Options{}) {
				t.Errorf("%s %s %q: %s", lang, k, v, slip)
			}
		}
	}
}

var placeholder = regexp.MustCompile(`\{\w+\}`)
