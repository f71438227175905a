package proofread

import "testing"

// Each slip is caught in a sentence that has it, and the same sentence
// written right passes.
func TestSlips(t *testing.T) {
	for _, tc := range []struct {
		lang, bad, good string
	}{
		{"fr", "La tuile suivante continue vers vers le haut", "La tuile suivante continue vers le haut"},
		{"fr", "Bouclier va à le centre.", "Bouclier va au centre."},
		{"fr", "Il passe de les égouts au toit.", "Il passe des égouts au toit."},
		{"fr", "La tuile de Alice est face cachée.", "La tuile d’Alice est face cachée."},
		{"fr", "Il dit que Émile ment.", "Il dit qu’Émile ment."},
		{"fr", "Le tour 3 commence\u00a0: 2 tour(s) restant(s).", "Le tour 3 commence\u00a0: 2 tours restants."},
		{"fr", "Ana : faux (9,6\u00a0s)", "Ana\u00a0: faux (9,6\u00a0s)"},
		{"fr", "DANGER ! La pile tourne.", "DANGER\u202f! La pile tourne."},
		{"fr", "Exemple: vision:1 et acid:2 (voir https://sortie.example).", "Exemple\u00a0: vision:1 et acid:2 (voir https://sortie.example)."},
		{"fr", "La carte « Vol » est jouée.", "La carte «\u00a0Vol\u00a0» est jouée."},
		{"fr", "Le chemin (icône antidote)", "Le chemin, antidote"},
		{"fr", "Le Savant meurt, {cause}.", "Le Savant meurt, noyé."},
		{"fr", "le Savant révèle Regarder.", "Le Savant révèle Regarder."},
		{"en", "Warning! Bob draws a orange token.", "Warning! Bob draws an orange token."},
		{"en", "The path (antidote icon)", "The path, antidote"},
		{"en", "Time is up : Ana wrong.", "Time is up: Ana got it wrong."},
		{"en", "You need the object(s) of your plan.", "You need what your plan asks for."},
	} {
		if got := Slips(tc.lang, tc.bad, Options{Sentence: true}); len(got) == 0 {
			t.Errorf("%s %q: no slip found", tc.lang, tc.bad)
		}
		if got := Slips(tc.lang, tc.good, Options{Sentence: true}); len(got) != 0 {
			t.Errorf("%s %q: %v", tc.lang, tc.good, got)
		}
	}
	// French "vous vous" is a reflexive verb, not a slip; "de le" written
	// by the text itself is a pronoun.
	if got := Slips("fr", "Vous vous échappez\u202f!", Options{}); len(got) != 0 {
		t.Errorf("vous vous: %v", got)
	}
	if got := Slips("fr", "Impossible de le relancer.", Options{Written: []string{"Impossible de le relancer."}}); len(got) != 0 {
		t.Errorf("de le relancer: %v", got)
	}
}
