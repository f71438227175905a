package term

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"

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

var placeholder = regexp.MustCompile(`\{(\w+)\}`)

// p is the parameters of a template.
type p map[string]any

// t returns the text of key with {name} replaced by params[name], as the
// web page's t does.
func (x *texts) t(key string, params ...p) string {
	s, ok := x.d[key]
	if !ok {
		s, ok = x.en[key]
	}
	if !ok {
		s = key
	}
	if len(params) == 0 || params[0] == nil {
		return s
	}
	return placeholder.ReplaceAllStringFunc(s, func(m string) string {
		v, ok := params[0][m[1:len(m)-1]]
		if !ok || v == nil {
			return m
		}
		return jsString(v)
	})
}

// tn picks key.one or key.other by n (French counts 0 and 1 as singular)
// and passes n as {n}.
func (x *texts) tn(key string, n int, params ...p) string {
	one := n == 1
	if x.lang == "fr" {
		one = n < 2
	}
	all := p{"n": n}
	if len(params) > 0 {
		for k, v := range params[0] {
			all[k] = v
		}
	}
	if one {
		return x.t(key+".one", all)
	}
	return x.t(key+".other", all)
}

// colon is the colon between a name and what it names, as the language
// writes it ("Hand: …", « Main : … »).
func (x *texts) colon() string {
	if x.lang == "fr" {
		return "\u00a0: " // a no-break space: the colon never starts a line
	}
	return ": "
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

// jsString writes a value as JavaScript's String() does, so that sentences
// read the same as on the web page.
func jsString(v any) string {
	switch x := v.(type) {
	case string:
		return x
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
