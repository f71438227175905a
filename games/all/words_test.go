package all_test

import (
	"strings"
	"testing"

	"sortie/engine"
	"sortie/games/all"
	"sortie/internal/proofread"
)

// What the lobby shows of each game — its name, summary, and each option's
// name and help — reads as the client's own texts do: none of the slips
// proofread knows, and French apostrophes are typographic (’) as in every
// other French text of the site.
func TestGameTextsReadRight(t *testing.T) {
	for _, g := range all.Games() {
		info := g.Info()
		texts := []engine.Text{info.Name, info.Summary}
		for _, o := range info.Options {
			texts = append(texts, o.Name, o.Help)
		}
		for _, text := range texts {
			for _, lang := range []string{"en", "fr"} {
				s := text[lang]
				if s == "" && len(text) > 0 {
					t.Errorf("%s: no %s text beside %q", info.ID, lang, text["en"])
				}
				for _, slip := range proofread.Slips(lang, s, proofread.Options{}) {
					t.Errorf("%s (%s): %s:\n  %q", info.ID, lang, slip, s)
				}
				if lang == "fr" && strings.Contains(s, "'") {
					t.Errorf("%s: a straight apostrophe in French:\n  %q", info.ID, s)
				}
			}
		}
	}
}
