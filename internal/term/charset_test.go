package term

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestUTF8FromTheLocale(t *testing.T) {
	cases := []struct {
		env  map[string]string
		want bool
	}{
		{map[string]string{}, true},
		{map[string]string{"LANG": "fr_FR.UTF-8"}, true},
		{map[string]string{"LANG": "C.utf8"}, true},
		{map[string]string{"LANG": "de_DE.UTF-8@euro"}, true},
		{map[string]string{"LANG": "C"}, false},
		{map[string]string{"LANG": "POSIX"}, false},
		{map[string]string{"LANG": "fr_FR"}, false},
		{map[string]string{"LANG": "fr_FR.ISO-8859-1"}, false},
		// LC_ALL, then LC_CTYPE, then LANG: the first one set says.
		{map[string]string{"LC_ALL": "C", "LANG": "fr_FR.UTF-8"}, false},
		{map[string]string{"LC_CTYPE": "en_US.UTF-8", "LANG": "C"}, true},
		{map[string]string{"LC_ALL": "fr_FR.UTF-8", "LC_CTYPE": "C"}, true},
	}
	for _, tc := range cases {
		if got := UTF8(func(k string) string { return tc.env[k] }); got != tc.want {
			t.Errorf("%v: UTF8 %v, want %v", tc.env, got, tc.want)
		}
	}
}

// Every character the screen may draw becomes ASCII exactly as wide, so
// that frames and columns stay where the layout put them.
func TestASCIIScreenKeepsWidths(t *testing.T) {
	var all strings.Builder
	for r := range glyphs {
		all.WriteRune(r)
	}
	all.WriteString("╭─ 5 actions ─╮│├┼┤└┴┘ÀÉéèêëàâîïôöûüùçÇ Ω 日本 😀 ø")
	for _, r := range all.String() {
		in := string(r)
		out := asciiScreen(in)
		if ansi.StringWidth(out) != ansi.StringWidth(in) {
			t.Errorf("%q became %q: width %d, want %d", in, out, ansi.StringWidth(out), ansi.StringWidth(in))
		}
		if !isASCII(out) {
			t.Errorf("%q became %q, not ASCII", in, out)
		}
	}
	if got, want := asciiScreen("╭─ Ce qui s’est passé ─╮"), "+- Ce qui s'est passe -+"; got != want {
		t.Errorf("a frame's title reads %q, want %q", got, want)
	}
	if got, want := asciiScreen("\x1b[1mÉté\x1b[0m"), "\x1b[1mEte\x1b[0m"; got != want {
		t.Errorf("styled text reads %q, want %q", got, want)
	}
}

// Texts are spelled before they are laid out: a ligature keeps both its
// letters, French quotation marks become plain ones with their spaces, and
// a no-break space stays one until the screen is drawn.
func TestASCIITextSpellsOut(t *testing.T) {
	for in, want := range map[string]string{
		"Ma sœur a dit « Allons-y\u00a0»…":  `Ma soeur a dit "Allons-y"...`,
		"À vous de jouer\u202f! — l’équipe": "A vous de jouer\u202f! - l'equipe",
		"plain": "plain",
	} {
		if got := asciiText(in); got != want {
			t.Errorf("asciiText(%q) = %q, want %q", in, got, want)
		}
	}
}

// What tells seats or classes apart on the screen still does in ASCII.
func TestASCIIMarksStayApart(t *testing.T) {
	apart := func(what string, marks []string) {
		seen := map[string]string{}
		for _, m := range marks {
			a := asciiScreen(m)
			if other, ok := seen[a]; ok {
				t.Errorf("%s: %s and %s both read %q in ASCII", what, other, m, a)
			}
			seen[a] = m
		}
	}
	apart("seat shapes", seatShapes)
	var classes []string
	for _, m := range r25ClassMark {
		classes = append(classes, m)
	}
	apart("Room 25's hint marks", classes)
	c := &ctx{ascii: true}
	var arrows []string
	for tok := range orGlyph {
		arrows = append(arrows, orGlyphOf(c, tok))
	}
	apart("Outran's symbols", arrows)
}
