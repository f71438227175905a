// Package proofread says what a careful reader would correct in a sentence
// the client shows, in French or English: the slips a message format or a
// sentence put together in code lets through. Tests use it on every message
// of the dictionaries (internal/term) and on whole matches read in the
// browser (web); it changes nothing and knows no game.
package proofread

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
)

// Options tune a reading.
type Options struct {
	// Written are the texts the sentence was made from (a message's own
	// words): a pair of words they write as they are is no slip where a
	// value meets them (French "de le relancer", le being a pronoun).
	Written []string
	// Sentence says the text is a whole sentence, which starts with a
	// capital letter when it ends with its full stop.
	Sentence bool
}

// Slips says what a careful reader would correct in s, written in lang
// ("fr" or "en"), one line a slip: a placeholder left unfilled, a plural or
// gender written "(s)", a word written twice, a preposition not contracted
// or a word not elided before a vowel (French "à le centre", "de Alice"),
// the no-break space a French colon, semicolon, exclamation or question
// mark takes and the ones inside « » (none before them in English), "a"
// before a vowel (English), an icon named in words, and (o.Sentence) a
// sentence that starts with a small letter.
func Slips(lang, s string, o Options) []string {
	var out []string
	check := func(re *regexp.Regexp, why string) {
		for _, m := range re.FindAllString(s, -1) {
			if re == contraction && slices.ContainsFunc(o.Written, func(w string) bool { return strings.Contains(w, m) }) {
				continue
			}
			out = append(out, fmt.Sprintf("%s (%q)", why, m))
			return
		}
	}
	check(placeholder, "a placeholder left unfilled")
	check(maybePlural, "a plural or gender left to the reader")
	check(icon, "an icon named in words")
	if w := twice(lang, s); w != "" {
		out = append(out, fmt.Sprintf("a word written twice (%q)", w))
	}
	switch lang {
	case "fr":
		check(contraction, "a preposition not contracted")
		check(elision, "a word not elided before a vowel")
		check(frenchSpace, "a French mark without its no-break space")
		check(guillemet, "guillemets without their no-break spaces")
	case "en":
		check(englishSpace, "a space before a mark")
		check(an, `"a" before a vowel`)
	}
	if o.Sentence && startsLow.MatchString(s) {
		out = append(out, "a sentence that starts with a small letter")
	}
	return out
}

// twice returns a word written twice in a row ("vers vers"), but for the
// French "vous vous" and "nous nous" (vous vous échappez).
func twice(lang, s string) string {
	for _, m := range word.FindAllStringSubmatchIndex(s, -1) {
		w := s[m[2]:m[3]]
		next := nextWord.FindStringSubmatch(s[m[1]:])
		if next == nil || !strings.EqualFold(next[1], w) {
			continue
		}
		if lang == "fr" && (strings.EqualFold(w, "vous") || strings.EqualFold(w, "nous")) {
			continue
		}
		return w
	}
	return ""
}

var (
	placeholder  = regexp.MustCompile(`\{\w+\}?|\}`)
	maybePlural  = regexp.MustCompile(`\p{L}\((s|e|es|x|nt)\)`)
	icon         = regexp.MustCompile(`(?i)\bicon\)|\(icône|\bicon$`)
	word         = regexp.MustCompile(`(\p{L}+)`)
	nextWord     = regexp.MustCompile(`^ (\p{L}+)\b`)
	contraction  = regexp.MustCompile(`(?:^|[\s’'])(?:[àÀ]|[dD]e) les? `)
	elision      = regexp.MustCompile(`(?:^|[\s(«\x{00a0}])(?:[dD]e|[qQ]ue|[lL][ea]|[nsjNSJ]e) [aeiouàâäéèêëîïôöùûüœæAEIOUÀÂÄÉÈÊËÎÏÔÖÙÛÜŒÆ]`)
	frenchSpace  = regexp.MustCompile(`[^\x{00a0}\x{202f}\d][:;!?](?:[\s\x{00a0}\x{202f}»"')\]]|$)`)
	guillemet    = regexp.MustCompile(`«[^\x{00a0}]|[^\x{00a0}]»`)
	englishSpace = regexp.MustCompile(`\p{L}[\s\x{00a0}\x{202f}][:;!?]`)
	an           = regexp.MustCompile(`(?:^|\s)a [aeioAEIO]\p{L}`)
	startsLow    = regexp.MustCompile(`^\p{Ll}[^.!?]*\s[^.!?]*[.!?]$`)
)
