package coach_test

import (
	"math/rand/v2"
	"testing"

	"sortie/coach"
	"sortie/engine"
	"sortie/games/all"
	"sortie/internal/proofread"
)

// Given every game that gives hints (not in real time), it has an
// explainer whose every sentence reads right in French and English, and
// whose nudge at each decision of random matches is one of them.
func TestEveryGameWithHintsExplains(t *testing.T) {
	for _, g := range all.Games() {
		info := g.Info()
		if info.Timing == engine.RealTime {
			continue
		}
		t.Run(info.ID, func(t *testing.T) {
			ex, ok := g.(coach.Explainer)
			if !ok {
				t.Fatalf("%s gives hints but has no explainer (coach.Explainer)", info.ID)
			}
			keys := map[string]bool{}
			for _, n := range ex.Nudges() {
				keys[n.Key] = true
				for _, lang := range []string{"fr", "en"} {
					s := n.Text[lang]
					if s == "" {
						t.Errorf("nudge %s has no %s text", n.Key, lang)
					}
					for _, slip := range proofread.Slips(lang, s, proofread.Options{Sentence: true}) {
						t.Errorf("nudge %s (%s): %s: %q", n.Key, lang, slip, s)
					}
				}
			}
			said := map[string]bool{}
			r := rand.New(rand.NewPCG(1, 2))
			for seed := range uint64(30) {
				s, err := g.New(engine.Setup{Players: max(2, info.MinPlayers), Seed: seed})
				if err != nil {
					t.Fatal(err)
				}
				for steps := 0; steps < 400; steps++ {
					actors := s.Actors()
					if len(actors) == 0 {
						break
					}
					p := actors[r.IntN(len(actors))]
					legal := s.Legal(p)
					if len(legal) == 0 {
						break
					}
					n := ex.Explain(s.View(p))
					if !keys[n.Key] || n.Text["fr"] == "" || n.Text["en"] == "" {
						t.Fatalf("seed %d: the nudge %q is none of the explainer's sentences", seed, n.Key)
					}
					said[n.Key] = true
					s.Apply(p, legal[r.IntN(len(legal))], 0)
				}
			}
			t.Logf("%d of %d sentences said in 30 random matches: %v", len(said), len(keys), said)
			if len(said) < 3 {
				t.Errorf("the explainer said only %v in 30 matches", said)
			}
		})
	}
}
