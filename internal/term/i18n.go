package term

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"embed"

	"sortie/internal/match"
	"sortie/web"
)

// Langs are the languages of the client, as on the web page.
var Langs = []string{"fr", "en"}

//go:embed i18n/*.json
var ownTexts embed.FS

// texts is one language's strings: the web page's (web/i18n), where every
// game's sentences live, and the terminal's own few (internal/term/i18n,
// keys "term.*"), with English for what a language lacks.
type texts struct {
	lang string
	d    map[string]string
	en   map[string]string
}

func loadDict(fsys fs.FS, path string) (map[string]string, error) {
	b, err := fs.ReadFile(fsys, path)
	if err != nil {
		return nil, err
	}
	var d map[string]string
	if err := json.Unmarshal(b, &d); err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return d, nil
}

func dict(lang string) (map[string]string, error) {
	d, err := loadDict(web.Files(), "i18n/"+lang+".json")
	if err != nil {
		return nil, err
	}
	own, err := loadDict(ownTexts, "i18n/"+lang+".json")
	if err != nil {
		return nil, err
	}
	for k, v := range own {
		d[k] = v
	}
	return d, nil
}

func newTexts(lang string) (*texts, error) {
	en, err := dict("en")
	if err != nil {
		return nil, err
	}
	tx := &texts{lang: "en", d: en, en: en}
	if lang != "en" {
		d, err := dict(lang)
		if err != nil {
			return nil, err
		}
		tx.lang, tx.d = lang, d
	}
	return tx, nil
}

// toASCII spells every text in ASCII (see asciiText), for a terminal that
// is not UTF-8.
func (x *texts) toASCII() {
	for _, d := range []map[string]string{x.d, x.en} {
		for k, v := range d {
			d[k] = asciiText(v)
		}
	}
}

// Lang picks the language: the one asked for if the client has it, else the
// locale's (LC_ALL, then LC_MESSAGES, then LANG), else English.
func Lang(asked string) (string, error) {
	if asked != "" {
		for _, l := range Langs {
			if l == asked {
				return l, nil
			}
		}
		return "", fmt.Errorf("--lang %q: the terminal speaks %s", asked, strings.Join(Langs, " and "))
	}
	for _, v := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		loc := os.Getenv(v)
		if loc == "" {
			continue
		}
		if len(loc) >= 2 && strings.ToLower(loc[:2]) == "fr" {
			return "fr", nil
		}
		return "en", nil
	}
	return "en", nil
}

// has says whether key has a text in this language or in English.
func (x *texts) has(key string) bool {
	_, ok := x.d[key]
	if !ok {
		_, ok = x.en[key]
	}
	return ok
}

// placeholder finds a placeholder left unfilled in a written text.
var placeholder = regexp.MustCompile(`\{(\w+)\}`)

// p is the parameters of a template.
type p map[string]any

// t returns the text of key filled with params, as the web page's t does
// (web/js/i18n.js, where the message format is described: {name}, {Name}
// for a capital, {name, select, you {…} other {…}}, and the language's
// grammar where a value meets the word before it).
func (x *texts) t(key string, params ...p) string {
	s, ok := x.d[key]
	if !ok {
		s, ok = x.en[key]
	}
	if !ok {
		return key
	}
	var ps p
	if len(params) > 0 {
		ps = params[0]
	}
	return format(s, ps, x.lang)
}

// tn picks key.<category> by n's plural category in this language, else
// key.other, and passes n as {n}.
func (x *texts) tn(key string, n int, params ...p) string {
	all := p{"n": n}
	if len(params) > 0 {
		for k, v := range params[0] {
			all[k] = v
		}
	}
	if k := key + "." + pluralOf(float64(n), x.lang); x.has(k) {
		return x.t(k, all)
	}
	return x.t(key+".other", all)
}

// pluralOf is the plural category of n, as Intl.PluralRules says it for
// French and English: French counts 0 and 1 (anything below 2) as one and
// a whole number of millions as many; English only 1 as one.
func pluralOf(n float64, lang string) string {
	if lang == "fr" {
		switch {
		case n >= 0 && n < 2:
			return "one"
		case n == math.Trunc(n) && n != 0 && math.Mod(n, 1e6) == 0:
			return "many"
		}
		return "other"
	}
	if n == 1 {
		return "one"
	}
	return "other"
}

// phrase is a value with what a sentence needs to know of it, as the web
// page's Phrase: its gender and whether it names the reader.
type phrase struct {
	text   string
	gender string
	you    bool
}

func (ph phrase) String() string { return ph.text }

func (ph phrase) features() []string {
	var f []string
	if ph.you {
		f = append(f, "you")
	}
	if ph.gender != "" {
		f = append(f, ph.gender)
	}
	return f
}

// part is a piece of a parsed text: words, or a placeholder (with its
// arms when it is a select).
type part struct {
	words string
	name  string
	cap   bool
	arms  []arm
}

type arm struct {
	key   string
	parts []part
}

// parseMessage reads a text into parts, as the web page's parse does.
func parseMessage(text string) ([]part, error) {
	i := 0
	fail := func(why string) error { return fmt.Errorf("message %q: %s at %d", text, why, i) }
	word := func() (string, error) {
		for i < len(text) && text[i] == ' ' {
			i++
		}
		j := i
		for j < len(text) && (text[j] == '_' || text[j] >= '0' && text[j] <= '9' || text[j]|0x20 >= 'a' && text[j]|0x20 <= 'z') {
			j++
		}
		if j == i {
			return "", fail("a name is missing")
		}
		w := text[i:j]
		i = j
		for i < len(text) && text[i] == ' ' {
			i++
		}
		return w, nil
	}
	var parts func(depth int) ([]part, error)
	placeholder := func(depth int) (part, error) {
		i++ // {
		name, err := word()
		if err != nil {
			return part{}, err
		}
		ph := part{name: strings.ToLower(name[:1]) + name[1:], cap: name[:1] != strings.ToLower(name[:1])}
		if i < len(text) && text[i] == ',' {
			i++
			if kind, err := word(); err != nil || kind != "select" || i >= len(text) || text[i] != ',' {
				return part{}, fail("only select is known")
			}
			i++
			other := false
			for {
				for i < len(text) && strings.ContainsRune(" \t\n", rune(text[i])) {
					i++
				}
				if i < len(text) && text[i] == '}' {
					break
				}
				key, err := word()
				if err != nil {
					return part{}, err
				}
				if i >= len(text) || text[i] != '{' {
					return part{}, fail("an arm lacks its text")
				}
				i++
				sub, err := parts(depth + 1)
				if err != nil {
					return part{}, err
				}
				if i >= len(text) || text[i] != '}' {
					return part{}, fail("an arm is not closed")
				}
				i++
				ph.arms = append(ph.arms, arm{key, sub})
				other = other || key == "other"
			}
			if !other {
				return part{}, fail("a select has no arm other")
			}
		}
		if i >= len(text) || text[i] != '}' {
			return part{}, fail("a placeholder is not closed")
		}
		i++
		return ph, nil
	}
	parts = func(depth int) ([]part, error) {
		var out []part
		var run strings.Builder
		flush := func() {
			if run.Len() > 0 {
				out = append(out, part{words: run.String()})
				run.Reset()
			}
		}
		for i < len(text) {
			switch text[i] {
			case '}':
				if depth == 0 {
					return nil, fail("a } closes nothing")
				}
				flush()
				return out, nil
			case '{':
				flush()
				ph, err := placeholder(depth)
				if err != nil {
					return nil, err
				}
				out = append(out, ph)
			default:
				run.WriteByte(text[i])
				i++
			}
		}
		flush()
		return out, nil
	}
	return parts(0)
}

// format writes a text in lang with params, as the web page's format does;
// a placeholder without a value stays as written, and a text that does not
// parse is written as it is.
func format(text string, params p, lang string) string {
	parts, err := parseMessage(text)
	if err != nil {
		return text
	}
	var b strings.Builder
	writeParts(&b, parts, params, lang)
	return b.String()
}

func writeParts(b *strings.Builder, parts []part, params p, lang string) {
	for _, pt := range parts {
		if pt.name == "" {
			b.WriteString(pt.words)
			continue
		}
		v, ok := params[pt.name]
		if !ok || v == nil {
			name := pt.name
			if pt.cap {
				name = capital(name)
			}
			b.WriteString("{" + name + "}")
			continue
		}
		if pt.arms != nil {
			feats := []string{jsString(v)}
			if ph, ok := v.(phrase); ok {
				feats = ph.features()
			}
			var chosen []part
			for _, a := range pt.arms {
				if slices.Contains(feats, a.key) {
					chosen = a.parts
					break
				}
			}
			if chosen == nil {
				for _, a := range pt.arms {
					if a.key == "other" {
						chosen = a.parts
						break
					}
				}
			}
			writeParts(b, chosen, params, lang)
			continue
		}
		s := jsString(v)
		if pt.cap {
			s = capital(s)
		}
		joined := joinValue(b.String(), s, lang)
		b.Reset()
		b.WriteString(joined)
	}
}

// capital makes the first letter of s a capital.
func capital(s string) string {
	r, n := utf8.DecodeRuneInString(s)
	if n == 0 {
		return s
	}
	return string(unicode.ToUpper(r)) + s[n:]
}

var (
	frArticle     = regexp.MustCompile(`^(les?) `)
	frPreposition = regexp.MustCompile(`(^|[\s(«\x{00a0}’'])(à|À|de|De) $`)
	frElides      = regexp.MustCompile(`(^|[\s(«\x{00a0}])(de|De|que|Que|le|Le|la|La|ne|se|je|Je|jusque|lorsque|puisque) $`)
	// French elides before a vowel, a mute h (taken to be a name's capital
	// H) and a y that sounds as a vowel (Yves, not Yann).
	frVowel     = regexp.MustCompile(`^(?:[aeiouàâäéèêëîïôöùûüœæAEIOUÀÂÄÉÈÊËÎÏÔÖÙÛÜŒÆH]|[yY][^aeiouyéè])`)
	enArticle   = regexp.MustCompile(`(^|[\s(])(a|A) $`)
	frContracts = map[string]string{"à le": "au", "à les": "aux", "de le": "du", "de les": "des"}
)

// joinValue appends a value to the text written before it as the language
// joins words, as the web page's joinValue does: French elides and
// contracts (d’Alice, au centre), English writes "an" before a vowel.
func joinValue(before, value, lang string) string {
	if value == "" {
		return before
	}
	switch lang {
	case "fr":
		if art := frArticle.FindStringSubmatch(value); art != nil {
			if prep := frPreposition.FindStringSubmatch(before); prep != nil {
				low := strings.ToLower(prep[2])
				c := frContracts[low+" "+art[1]]
				if prep[2] != low {
					c = capital(c)
				}
				return before[:len(before)-len(prep[2])-1] + c + value[len(art[1]):]
			}
		}
		if frElides.MatchString(before) && frVowel.MatchString(value) {
			return before[:len(before)-2] + "’" + value
		}
	case "en":
		if enArticle.MatchString(before) && enVowel(value) {
			return before[:len(before)-1] + "n " + value
		}
	}
	return before + value
}

// enVowel says whether an English word starts with a vowel sound: a, e, i,
// o, and u unless it sounds "you" (uniform, user, usual).
func enVowel(s string) bool {
	if s == "" {
		return false
	}
	switch s[0] | 0x20 {
	case 'a', 'e', 'i', 'o':
		return true
	case 'u':
		rest := strings.ToLower(s[1:])
		for _, you := range []string{"ni", "se", "su", "ti"} {
			if strings.HasPrefix(rest, you) {
				return false
			}
		}
		return true
	}
	return false
}

// colon is the colon between a name and what it names, as the language
// writes it ("Hand: …", « Main : … », with a no-break space so that the
// colon never starts a line).
func (x *texts) colon() string { return x.t("word.colon") }

// people joins the phrases naming people as a sentence does, the reader
// last and called "you", as the web page's people does.
func (x *texts) people(ps []phrase) phrase {
	var names []string
	you := false
	for _, ph := range ps {
		if ph.you {
			you = true
			continue
		}
		names = append(names, ph.text)
	}
	if you {
		names = append(names, x.t("word.you"))
	}
	return phrase{text: x.list(names), you: you}
}

// list joins words as a sentence does: "a, b and c".
func (x *texts) list(items []string) string {
	var kept []string
	for _, s := range items {
		if s != "" {
			kept = append(kept, s)
		}
	}
	if len(kept) <= 1 {
		return strings.Join(kept, "")
	}
	return strings.Join(kept[:len(kept)-1], ", ") + " " + x.t("word.and") + " " + kept[len(kept)-1]
}

// errorText says a refusal in the player's language as the web page's
// errorText does (web/js/i18n.js): the game's own text for its rule code,
// the client's for the server's codes, filled with the refusal's params
// (durations said as a person says them, seats by name, numbers as the
// language writes them), else the server's sentence.
func (x *texts) errorText(e *match.Error, game string, name func(int) string) string {
	if e == nil {
		return x.t("error.unknown")
	}
	params := x.errorParams(e.Params, name)
	for _, key := range []string{game + ".error." + e.Code, "error." + e.Code} {
		if e.Code == "" || strings.HasPrefix(key, ".") || !x.has(key) {
			continue
		}
		if s := x.t(key, params); !placeholder.MatchString(s) {
			return s
		}
	}
	if e.Message != "" {
		return e.Message
	}
	return x.t("error.unknown")
}

func (x *texts) errorParams(in map[string]any, name func(int) string) p {
	out := p{}
	for k, v := range in {
		f, isNum := number(v)
		switch {
		case strings.HasSuffix(k, "_ms") && isNum:
			d := x.duration(f)
			out[k], out[strings.TrimSuffix(k, "_ms")] = d, d
		case (k == "seat" || k == "target") && isNum && name != nil:
			out[k] = name(int(f))
		case isNum:
			out[k] = x.num(f, 2)
		default:
			out[k] = v
		}
	}
	return out
}

// number reads a JSON number (float64 once decoded; any Go number, named
// types such as engine.Millis included, when a refusal comes from a match
// in this process).
func number(v any) (float64, bool) {
	if n, ok := v.(json.Number); ok {
		f, err := n.Float64()
		return f, err == nil
	}
	r := reflect.ValueOf(v)
	switch r.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(r.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return float64(r.Uint()), true
	case reflect.Float32, reflect.Float64:
		return r.Float(), true
	}
	return 0, false
}

// num writes a number as the language does, with at most digits decimals,
// as Intl.NumberFormat does on the web page: "1,234.5" in English,
// "1 234,5" in French (a narrow no-break space between thousands).
func (x *texts) num(f float64, digits int) string {
	scale := math.Pow(10, float64(digits))
	r := math.Round(math.Abs(f)*scale) / scale // half away from zero, as Intl
	s := strconv.FormatFloat(r, 'f', digits, 64)
	intPart, frac, _ := strings.Cut(s, ".")
	frac = strings.TrimRight(frac, "0")
	group, point := ",", "."
	if x.lang == "fr" {
		group, point = "\u202f", ","
	}
	var b strings.Builder
	if f < 0 && r != 0 {
		b.WriteString("-")
	}
	for i, c := range intPart {
		if i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteString(group)
		}
		b.WriteRune(c)
	}
	if frac != "" {
		b.WriteString(point + frac)
	}
	return b.String()
}

// duration says a duration as the web page's fmtDuration does: "2.5 s",
// "45 s", "1 min 30 s", "2 h 5 min", "3 days"; seconds are rounded up, so
// that a wait is never said shorter than it is.
func (x *texts) duration(ms float64) string {
	ms = max(ms, 0)
	if ms < 10000 {
		return x.t("time.s", p{"n": x.num(math.Ceil(ms/100)/10, 1)})
	}
	secs := int(math.Ceil(ms / 1000))
	switch {
	case secs < 60:
		return x.t("time.s", p{"n": secs})
	case secs < 3600:
		m, s := secs/60, secs%60
		if s != 0 {
			return x.t("time.minS", p{"m": m, "s": s})
		}
		return x.t("time.min", p{"n": m})
	case secs < 86400 || secs%86400 != 0:
		h, m := secs/3600, int(math.Round(float64(secs%3600)/60))
		if m != 0 {
			return x.t("time.hMin", p{"h": h, "m": m})
		}
		return x.t("time.h", p{"n": h})
	}
	return x.tn("time.day", secs/86400)
}

// when says an instant in zone as the web page's fmtWhen does: English as
// in Britain ("Tue 1 Dec, 14:05"), French with "1er" for the first of the
// month and the hour written "14 h 05" ("mar. 1er déc. à 14 h 05").
func (x *texts) when(at time.Time, zone *time.Location) string {
	at = at.In(zone)
	if x.lang == "fr" {
		days := [...]string{"dim.", "lun.", "mar.", "mer.", "jeu.", "ven.", "sam."}
		months := [...]string{"janv.", "févr.", "mars", "avr.", "mai", "juin", "juil.", "août", "sept.", "oct.", "nov.", "déc."}
		day := strconv.Itoa(at.Day())
		if day == "1" {
			day = "1er"
		}
		return fmt.Sprintf("%s %s %s à %d\u00a0h\u00a0%02d", days[at.Weekday()], day, months[at.Month()-1], at.Hour(), at.Minute())
	}
	months := [...]string{"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sept", "Oct", "Nov", "Dec"}
	return fmt.Sprintf("%s %d %s, %02d:%02d", at.Format("Mon"), at.Day(), months[at.Month()-1], at.Hour(), at.Minute())
}

// jsString writes a value as JavaScript's String() does, so that sentences
// read the same as on the web page.
func jsString(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case phrase:
		return x.text
	case float64:
		return jsNumber(x)
	case int:
		return strconv.Itoa(x)
	case bool:
		return strconv.FormatBool(x)
	}
	return fmt.Sprint(v)
}

func jsNumber(f float64) string {
	if f == math.Trunc(f) && math.Abs(f) < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// fmtClock writes milliseconds as m:ss.
func fmtClock(ms int64) string {
	s := max(ms, 0) / 1000
	return fmt.Sprintf("%d:%02d", s/60, s%60)
}
