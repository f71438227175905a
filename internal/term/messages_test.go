package term

import (
	"testing"
)

// The message format and the grammar where a value meets the words before
// it, in French and English.
func TestMessageFormat(t *testing.T) {
	ana := phrase{text: "Ana", you: true}
	alice, bob := phrase{text: "Alice"}, phrase{text: "Bob"}
	bimbo, savant := phrase{text: "la Bimbo", gender: "f"}, phrase{text: "le Savant", gender: "m"}
	for _, tc := range []struct {
		lang, text string
		params     p
		want       string
	}{
		{"fr", "La tuile de {seat} tombe.", p{"seat": alice}, "La tuile d’Alice tombe."},
		{"fr", "La tuile de {seat} tombe.", p{"seat": bob}, "La tuile de Bob tombe."},
		{"fr", "Il dit que {x} ment.", p{"x": "Émile"}, "Il dit qu’Émile ment."},
		{"fr", "Il dit que {x} ment.", p{"x": "Yves"}, "Il dit qu’Yves ment."},
		{"fr", "Il dit que {x} ment.", p{"x": "Yann"}, "Il dit que Yann ment."},
		{"fr", "Il dit que {x} ment.", p{"x": "Hugo"}, "Il dit qu’Hugo ment."},
		{"fr", "{card} va à {seat}.", p{"card": "Bouclier", "seat": "le centre"}, "Bouclier va au centre."},
		{"fr", "Il passe de {a} à {b}.", p{"a": "le couloir nord", "b": "les égouts"}, "Il passe du couloir nord aux égouts."},
		{"fr", "Il rampe jusqu’à {a}.", p{"a": "le couloir nord"}, "Il rampe jusqu’au couloir nord."},
		{"fr", "De {a} au toit.", p{"a": "le couloir"}, "Du couloir au toit."},
		{"fr", "La balise de {char} revient.", p{"char": bimbo}, "La balise de la Bimbo revient."},
		{"fr", "La balise de {char} revient.", p{"char": savant}, "La balise du Savant revient."},
		{"fr", "{Char} est {char, select, f {programmée} other {programmé}}.", p{"char": bimbo}, "La Bimbo est programmée."},
		{"fr", "{Char} est {char, select, f {programmée} other {programmé}}.", p{"char": savant}, "Le Savant est programmé."},
		{"fr", "{seat, select, you {Vous posez une tuile.} other {{Seat} pose une tuile.}}", p{"seat": ana}, "Vous posez une tuile."},
		{"fr", "{seat, select, you {Vous posez une tuile.} other {{Seat} pose une tuile.}}", p{"seat": alice}, "Alice pose une tuile."},
		{"fr", "{c, select, black {noire} other {orange}}", p{"c": "black"}, "noire"},
		{"fr", "{c, select, black {noire} other {orange}}", p{"c": "orange"}, "orange"},
		{"en", "{name} draws a {colour} token.", p{"name": bob, "colour": "orange"}, "Bob draws an orange token."},
		{"en", "{name} draws a {colour} token.", p{"name": bob, "colour": "black"}, "Bob draws a black token."},
		{"en", "It is a {x}.", p{"x": "uniform"}, "It is a uniform."},
		{"en", "{seat}’s tile", p{"seat": alice}, "Alice’s tile"},
		{"en", "Missing {x} and {Y}.", p{}, "Missing {x} and {Y}."},
		{"en", "Not a message {x", p{"x": 1}, "Not a message {x"},
	} {
		if got := format(tc.text, tc.params, tc.lang); got != tc.want {
			t.Errorf("%s %q %v:\n got %q\nwant %q", tc.lang, tc.text, tc.params, got, tc.want)
		}
	}
	fr, _ := newTexts("fr")
	en, _ := newTexts("en")
	for _, tc := range []struct {
		got, want string
	}{
		{pluralOf(0, "fr"), "one"}, {pluralOf(1, "fr"), "one"}, {pluralOf(1.5, "fr"), "one"}, {pluralOf(2, "fr"), "other"},
		{pluralOf(1e6, "fr"), "many"}, {pluralOf(0, "en"), "other"}, {pluralOf(1, "en"), "one"}, {pluralOf(2, "en"), "other"},
		{fr.people([]phrase{bob, ana}).text, "Bob et vous"},
		{en.people([]phrase{ana}).text, "you"},
		{en.people([]phrase{alice, bob, phrase{text: "Chloé"}}).text, "Alice, Bob and Chloé"},
	} {
		if tc.got != tc.want {
			t.Errorf("%q, want %q", tc.got, tc.want)
		}
	}
}
