package term

import (
	"encoding/json"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
)

// board draws one game in the terminal, as web/games/<id>.js does in the
// page: from the view it is given, never guessing a secret. Each method may
// answer "" (or false) to leave the match screen's generic behaviour.
type board interface {
	// render draws the view in at most w columns; h is the number of rows
	// the screen can give it (a board may use fewer, and is cut past h).
	render(c *ctx, w, h int) string
	// describe is the sentence of an event: hide says to show none; an
	// empty sentence without hide leaves it to the game's template or the
	// generic form (boards.js describeEvent).
	describe(ev obj, c *ctx) (s string, hide bool)
	// label names a legal action in the list.
	label(a obj, c *ctx) string
	// status says what is expected now, after whose turn it is.
	status(c *ctx) string
	// listed keeps an action out of the list when false (Outran's answers).
	listed(a obj, c *ctx) bool
	// key handles a key press before the screen does; it reports whether it
	// did, and may return a command (an action to play).
	key(k tea.KeyMsg, c *ctx) (bool, tea.Cmd)
}

// ctx is what a board is given to draw with: the view and the match as
// this audience knows them, the language, and the styles.
type ctx struct {
	*texts
	*styles
	game    string
	seat    int // -1: a spectator
	view    json.RawMessage
	legal   []obj
	actors  []int
	status  string // open, running, finished
	myTurn  bool
	busy    bool
	clock   int64 // the live match clock, in milliseconds
	players int
	nameOf  func(int) string
	ascii   bool // the terminal is not UTF-8 (see asciiScreen)
	play    func(action json.RawMessage) tea.Cmd
}

// seatShapes give each seat a shape as well as a colour, as on the web page.
var seatShapes = []string{"●", "■", "▲", "◆", "★", "⬟"}

func (c *ctx) name(s int) string { return c.nameOf(s) }

// who is a seat's name as a sentence's value: it names the reader when it
// is this screen's own seat ("You laid a tile", not "Ana laid a tile"), as
// the web page's ctx.who does.
func (c *ctx) who(s int) phrase { return phrase{text: c.nameOf(s), you: s >= 0 && s == c.seat} }

func (c *ctx) shape(s int) string { return seatShapes[((s%6)+6)%6] }

// mark is a seat's shape in its colour.
func (c *ctx) mark(s int) string { return c.seatStyle(s).Render(c.shape(s)) }

// legalOf returns the legal action that is the same as a, if any.
func (c *ctx) legalOf(a string) (obj, bool) {
	want := canon(json.RawMessage(a))
	for _, l := range c.legal {
		if canon(l.raw) == want {
			return l, true
		}
	}
	return obj{}, false
}

// find returns the legal actions of a type.
func (c *ctx) find(typ string) []obj {
	var out []obj
	for _, l := range c.legal {
		if l.typ() == typ {
			out = append(out, l)
		}
	}
	return out
}

// isActor says whether seat s may act now.
func (c *ctx) isActor(s int) bool {
	for _, a := range c.actors {
		if a == s {
			return true
		}
	}
	return false
}

// sentence runs describeEvent of web/js/boards.js: the board's sentence,
// else the game's template "<game>.ev.<type>", else the generic form. ok is
// false for an event the board hides.
func sentence(b board, ev obj, c *ctx) (string, bool) {
	s, hide := b.describe(ev, c)
	if hide {
		return "", false
	}
	if s != "" {
		return s, true
	}
	key := c.game + ".ev." + ev.typ()
	if c.has(key) {
		return c.t(key, genericParams(ev, c)), true
	}
	return genericDescribe(ev, c), true
}

// actionLabel runs labelAction of web/js/boards.js.
func actionLabel(b board, a obj, c *ctx) string {
	if s := b.label(a, c); s != "" {
		return s
	}
	key := c.game + ".act." + a.typ()
	if c.has(key) {
		return c.t(key, genericParams(a, c))
	}
	return genericLabel(a, c)
}

// ---- the generic forms (web/js/generic.js) ----

func humanize(k string) string { return strings.ReplaceAll(k, "_", " ") }

var seatKeys = map[string]bool{"seat": true, "from": true, "to": true, "target": true, "starter": true, "winner": true, "asked": true, "actor": true, "first_player": true}
var seatListKeys = map[string]bool{"seats": true, "winners": true, "joined": true, "declined": true}

// genericValue writes one field of an event or action for a sentence:
// seats become names, ids the game names in its texts, lists are joined.
func genericValue(k string, raw json.RawMessage, c *ctx) string {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return ""
	}
	return jsValue(k, v, c)
}

func jsValue(k string, v any, c *ctx) string {
	switch x := v.(type) {
	case nil:
		return ""
	case []any:
		parts := make([]string, len(x))
		for i, e := range x {
			parts[i] = jsValue(k, e, c)
		}
		return strings.Join(parts, ", ")
	case map[string]any:
		b, _ := json.Marshal(x)
		o := newObj(b)
		var parts []string
		for _, kk := range o.keys {
			parts = append(parts, humanize(kk)+" "+genericValue(kk, o.m[kk], c))
		}
		return strings.Join(parts, ", ")
	case float64:
		if seatKeys[k] {
			if x < 0 {
				return "—"
			}
			return c.name(int(x))
		}
		if seatListKeys[k] {
			return c.name(int(x))
		}
		return jsNumber(x)
	case string:
		if c.has(c.game + ".id." + x) {
			return c.t(c.game + ".id." + x)
		}
		return x
	case bool:
		if x {
			return c.t("word.yes")
		}
		return c.t("word.no")
	}
	return ""
}

func genericParams(o obj, c *ctx) p {
	out := p{}
	for _, k := range o.keys {
		if k != "type" {
			out[k] = genericValue(k, o.m[k], c)
		}
	}
	return out
}

func genericDetails(o obj, c *ctx) string {
	var parts []string
	for _, k := range o.keys {
		if k != "type" {
			parts = append(parts, humanize(k)+": "+genericValue(k, o.m[k], c))
		}
	}
	return strings.Join(parts, ", ")
}

func genericDescribe(ev obj, c *ctx) string {
	d := genericDetails(ev, c)
	if d != "" {
		return humanize(ev.typ()) + " — " + d
	}
	return humanize(ev.typ())
}

func genericLabel(a obj, c *ctx) string {
	d := genericDetails(a, c)
	if d != "" {
		return humanize(a.typ()) + " (" + d + ")"
	}
	return humanize(a.typ())
}

// generic is the board of a game without its own: the view as readable
// fields, the actions in the list (web/js/generic.js).
type generic struct{}

func (generic) render(c *ctx, w, h int) string {
	var v map[string]any
	if err := json.Unmarshal(c.view, &v); err != nil {
		return ""
	}
	o := newObj(c.view)
	var lines []string
	for _, k := range o.keys {
		lines = append(lines, c.bold.Render(humanize(k)+":")+" "+genericTree(o.m[k], c))
	}
	return strings.Join(lines, "\n")
}

func genericTree(raw json.RawMessage, c *ctx) string {
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return ""
	}
	switch x := v.(type) {
	case nil:
		return "—"
	case bool:
		if x {
			return c.t("word.yes")
		}
		return c.t("word.no")
	case []any:
		if len(x) == 0 {
			return c.t("generic.empty")
		}
		var raws []json.RawMessage
		_ = json.Unmarshal(raw, &raws)
		parts := make([]string, len(raws))
		for i, r := range raws {
			parts[i] = genericTree(r, c)
		}
		return strings.Join(parts, ", ")
	case map[string]any:
		o := newObj(raw)
		var parts []string
		for _, k := range o.keys {
			parts = append(parts, humanize(k)+" "+genericTree(o.m[k], c))
		}
		return "(" + strings.Join(parts, "; ") + ")"
	case float64:
		return jsNumber(x)
	case string:
		return x
	}
	return ""
}

func (generic) describe(obj, *ctx) (string, bool)    { return "", false }
func (generic) label(obj, *ctx) string               { return "" }
func (generic) status(*ctx) string                   { return "" }
func (generic) listed(obj, *ctx) bool                { return true }
func (generic) key(tea.KeyMsg, *ctx) (bool, tea.Cmd) { return false, nil }
