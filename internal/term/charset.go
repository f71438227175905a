package term

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"golang.org/x/text/unicode/norm"
)

// UTF8 reports whether the terminal's character set, as the locale names it,
// is UTF-8: the first of LC_ALL, LC_CTYPE and LANG that is set says, as
// tmux and ncurses read it ("fr_FR.UTF-8" and "C.utf8" are; "C", "POSIX"
// and "fr_FR.ISO-8859-1" are not). With none set it assumes UTF-8, which
// every terminal of today speaks.
func UTF8(getenv func(string) string) bool {
	for _, v := range []string{"LC_ALL", "LC_CTYPE", "LANG"} {
		loc := getenv(v)
		if loc == "" {
			continue
		}
		_, cs, _ := strings.Cut(loc, ".")
		cs, _, _ = strings.Cut(cs, "@")
		cs = strings.ToLower(strings.ReplaceAll(cs, "-", ""))
		return cs == "utf8"
	}
	return true
}

// The client draws in ASCII on a terminal that is not UTF-8: there every
// other character shows as "?" or garbage. Texts are spelled out before
// they are laid out (asciiText: "œ" is "oe", "…" is "..."), and what the
// screen draws is replaced character for character, each by ASCII of its
// width, so that frames and columns stay aligned (asciiScreen).

// spelled are the characters of texts that read best as several ASCII
// ones; French quotation marks take their inner spaces with them.
var spelled = strings.NewReplacer(
	"«\u00a0", `"`, "«\u202f", `"`, "« ", `"`, "«", `"`,
	"\u00a0»", `"`, "\u202f»", `"`, " »", `"`, "»", `"`,
	"œ", "oe", "Œ", "OE", "æ", "ae", "Æ", "AE", "ß", "ss",
	"…", "...", "—", "-", "–", "-", "’", "'", "‘", "'", "“", `"`, "”", `"`,
)

// asciiText spells s in ASCII, for a text the screen lays out afterwards.
// Its no-break spaces stay, so that a line is not broken before "!" or
// ":" as French writes them; the screen draws them as spaces.
func asciiText(s string) string {
	if isASCII(s) {
		return s
	}
	var b strings.Builder
	for _, r := range spelled.Replace(s) {
		switch {
		case r < utf8.RuneSelf || r == '\u00a0' || r == '\u202f':
			b.WriteRune(r)
		default:
			b.WriteString(asciiRune(r))
		}
	}
	return b.String()
}

// glyphs are the ASCII stand-ins of the symbols the boards draw, each as
// wide as the symbol. The seats' shapes (● ■ ▲ ◆ ★ ⬟) stay apart, and so
// do the marks of Room 25's hints (● ▲ ✖ ◆ ○).
var glyphs = map[rune]string{
	// Frames.
	'─': "-", '━': "-", '═': "=", '│': "|", '┃': "|", '║': "|",
	// Arrows.
	'←': "<", '→': ">", '↑': "^", '↓': "v", '↖': `\`, '↗': "/", '↘': `\`, '↙': "/",
	'‹': "<", '›': ">", '▸': ">", '◂': "<", '▲': "^", '▼': "v", '↻': "@",
	// Shapes and marks.
	'●': "o", '○': ".", '■': "#", '◆': "$", '★': "*", '⬟': "@", '█': "_", '▦': "#",
	'·': "-", '•': "*", '×': "x", '✖': "x", '✔': "v", '✚': "+", '⚠': "!", '⚑': "F",
	'⧗': "T", '⏰': "!!", '≈': "~", 'Σ': "S", '»': ">", '«': "<",
	'’': "'", '‘': "'", '“': `"`, '”': `"`, '—': "-", '–': "-", '…': ".",
	'\u00a0': " ", '\u202f': " ", '\u2009': " ",
}

// asciiScreen replaces every character of s beyond ASCII by ASCII as wide:
// a glyph by its stand-in, a box-drawing corner or joint by "+", a letter
// by its base letter ("é" is "e"), anything else by "?".
func asciiScreen(s string) string {
	if isASCII(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if r < utf8.RuneSelf {
			b.WriteRune(r)
			continue
		}
		b.WriteString(asciiRune(r))
	}
	return b.String()
}

// asciiRune is r in ASCII, as wide as r on the screen (nothing for a
// character of no width, such as a combining accent).
func asciiRune(r rune) string {
	w := ansi.StringWidth(string(r))
	if w == 0 {
		return ""
	}
	if g, ok := glyphs[r]; ok && len(g) == w {
		return g
	}
	if r >= 0x2500 && r <= 0x257f && w == 1 {
		return "+" // the corners and joints of frames
	}
	if w == 1 {
		for _, d := range norm.NFD.String(string(r)) {
			if d < utf8.RuneSelf {
				return string(d)
			}
			break
		}
	}
	return strings.Repeat("?", w)
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
