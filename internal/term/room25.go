package term

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"sync"

	tea "github.com/charmbracelet/bubbletea"
)

// room25 is the board of Room 25 (web/games/room25.js): the 5×5 complex
// with the rooms known to this seat and the characters in them, each
// character's state and program, and the decision the action phase waits
// for. Choices are made from the list.
type room25 struct{}

var r25ClassMark = map[string]string{"green": "●", "yellow": "▲", "red": "✖", "blue": "◆", "none": "○"}

// r25Mark is a class mark (or a hint's colour) in its colour.
func r25Mark(c *ctx, colour string) string {
	m := r25ClassMark[colour]
	switch colour {
	case "green":
		return c.good.Render(m)
	case "yellow":
		return c.warn.Render(m)
	case "red":
		return c.bad.Render(m)
	case "blue":
		return c.accent.Render(m)
	}
	return m
}

func r25CellName(c *ctx, cell int) string {
	return c.t("room25.cell", p{"row": cell/5 + 1, "col": cell%5 + 1})
}

func r25LineName(c *ctx, l string) string {
	if len(l) < 4 {
		return l
	}
	var n int
	n, _ = strconv.Atoi(l[3:])
	return c.t("room25.line."+l[:3], p{"n": n + 1})
}

// r25Cell is the cell a tile lies in now, or -1.
func r25Cell(c *ctx, tile string) int {
	for _, cell := range newObj(c.view).subs("cells") {
		if cell.str("tile") == tile {
			return cell.num("cell")
		}
	}
	return -1
}

// r25Where names a tile's cell in a sentence (the tile's id if it is gone,
// as on the web page).
func r25Where(c *ctx, tile string) string {
	if i := r25Cell(c, tile); i >= 0 {
		return r25CellName(c, i)
	}
	return tile
}

func r25CellOf(c *ctx, tile string) string { return r25CellName(c, r25Cell(c, tile)) }

// r25Char names a character as a sentence's value: a phrase with its
// gender, which French sentences agree with (the web page's charName).
func r25Char(c *ctx, id string) phrase {
	return phrase{text: c.t("room25.char." + id), gender: c.t("room25.char." + id + ".gender")}
}

func (room25) describe(ev obj, c *ctx) (string, bool) {
	ch := func() phrase { return r25Char(c, ev.str("character")) }
	switch ev.typ() {
	case "start_look_chosen":
		return c.t("room25.ev.start_look_chosen", p{"seat": c.who(ev.num("seat"))}), false
	case "seen":
		return c.t("room25.ev.seen", p{"cell": r25Where(c, ev.str("tile")), "room": c.t("room25.the." + ev.str("room"))}), false
	case "start_hint_chosen":
		return "", true
	case "start_looks":
		var l []string
		for _, x := range ev.subs("looks") {
			who := c.who(x.num("seat"))
			switch col := x.str("colour"); {
			case x.str("tile") == "":
				l = append(l, c.t("room25.noLook", p{"name": who}))
			case col == "" || col == "none":
				l = append(l, c.t("room25.lookedSilent", p{"name": who, "cell": r25Where(c, x.str("tile"))}))
			default:
				l = append(l, c.t("room25.lookedHint", p{"name": who, "cell": r25Where(c, x.str("tile")), "colour": c.t("room25.colour." + col)}))
			}
		}
		return c.t("room25.ev.start_looks", p{"list": c.list(l)}), false
	case "turn_started":
		return c.tn("room25.ev.turn_started", ev.num("turns_left"), p{"turn": ev.num("turn")}), false
	case "programmed":
		if ev.str("first") != "" {
			return c.t("room25.ev.programmed_you", p{"char": ch(), "list": r25Program(c, ev.str("first"), ev.str("second"))}), false
		}
		return c.tn("room25.ev.programmed", ev.num("tokens"), p{"char": ch()}), false
	case "round_started":
		return c.t("room25.ev.round_started", p{"n": ev.num("round")}), false
	case "token_revealed":
		return c.t("room25.ev.token_revealed", p{"char": ch(), "token": c.t("room25.tok." + ev.str("token"))}), false
	case "waited":
		return c.t("room25.ev.waited", p{"char": ch()}), false
	case "passed":
		return c.t("room25.ev.passed", p{"char": ch()}), false
	case "action_lost":
		return c.t("room25.ev.action_lost", p{"char": ch(), "token": c.t("room25.tok." + ev.str("token")), "reason": c.t("room25.lost." + ev.str("reason"))}), false
	case "looked":
		return c.t("room25.ev.looked", p{"char": ch(), "cell": r25Where(c, ev.str("tile"))}), false
	case "hinted":
		return c.t("room25.ev.hinted", p{"seat": c.who(ev.num("seat")), "cell": r25Where(c, ev.str("tile")), "colour": c.t("room25.colour." + ev.str("colour"))}), false
	case "entered":
		s := c.t("room25.ev.entered", p{"char": ch(), "room": c.t("room25.the." + ev.str("room")), "cell": r25CellName(c, ev.num("cell"))})
		if ev.boolean("revealed") {
			s += " " + c.t("room25.roomEffect."+ev.str("room"))
		}
		return s, false
	case "slid":
		return c.t("room25.ev.slid", p{"char": ch(), "line": r25LineName(c, ev.str("line")), "dir": c.t("room25.dir." + ev.str("dir"))}), false
	case "swapped":
		return c.t("room25.ev.swapped", p{"a": r25CellName(c, ev.num("cell")), "b": r25CellName(c, ev.num("other_cell"))}), false
	case "trapped":
		return c.t("room25.ev.trapped", p{"char": ch()}), false
	case "flooding":
		return c.t("room25.ev.flooding", p{"char": ch(), "turn": ev.num("drowns_turn")}), false
	case "died":
		return c.t("room25.ev.died", p{"char": ch(), "cause": c.t("room25.cause."+ev.str("cause"), p{"char": ch()})}), false
	case "beacon_placed":
		return c.t("room25.ev.beacon_placed", p{"char": ch(), "cell": r25Where(c, ev.str("tile"))}), false
	case "beacon_returned":
		return c.t("room25.ev.beacon_returned", p{"char": ch()}), false
	case "role_revealed":
		return c.t("room25.ev.role_revealed", p{"seat": c.who(ev.num("seat")), "role": c.t("room25.role." + ev.str("role"))}), false
	case "alarm":
		return c.tn("room25.ev.alarm", ev.num("turns_left")), false
	case "escaped":
		return c.t("room25.ev.escaped", p{"char": ch()}), false
	case "game_over":
		return c.t("room25.result." + ev.str("reason")), false
	}
	return "", false
}

func (r room25) label(a obj, c *ctx) string {
	ch := func() phrase { return r25Char(c, a.str("character")) }
	switch a.typ() {
	case "start_look", "look":
		return c.t("room25.lookAt", p{"cell": r25CellOf(c, a.str("tile"))})
	case "skip_look":
		return c.t("room25.skipLook")
	case "hint":
		return c.t("room25.hintLabel", p{"colour": c.t("room25.colour." + a.str("colour"))})
	case "program":
		return c.t("room25.programLabel", p{"char": ch(), "list": r25Program(c, a.str("first"), a.str("second"))})
	case "play":
		return c.t("room25.play")
	case "wait":
		return c.t("room25.wait")
	case "pass":
		return c.t("room25.pass")
	case "move":
		return c.t("room25.moveDir", p{"dir": c.t("room25.dir." + a.str("dir"))})
	case "push":
		return c.t("room25.pushDir", p{"char": ch(), "dir": c.t("room25.dir." + a.str("dir"))})
	case "control", "control_room_slide":
		return c.t("room25.slide", p{"line": r25LineName(c, a.str("line")), "dir": c.t("room25.dir." + a.str("dir"))})
	case "act":
		inner := newObj(a.raw)
		inner.m["type"] = inner.m["action"]
		return r.label(inner, c)
	case "vision_view":
		return c.t("room25.visionAt", p{"cell": r25CellOf(c, a.str("tile"))})
	case "mobile_swap":
		return c.t("room25.mobileWith", p{"cell": r25CellOf(c, a.str("tile"))})
	case "illusion_swap":
		return c.t("room25.illusionWith", p{"cell": r25CellOf(c, a.str("tile"))})
	case "place_beacon":
		return c.t("room25.beaconOn", p{"char": ch(), "cell": r25CellOf(c, a.str("tile"))})
	case "reveal_role":
		return c.t("room25.revealRole")
	}
	return ""
}

func (room25) status(c *ctx) string {
	v := newObj(c.view)
	if len(v.m) == 0 || v.str("phase") == "over" || !c.myTurn {
		return ""
	}
	return c.t("room25.status." + v.str("phase"))
}

// r25Program names a program's tokens in order ("Move, then Push"); empty
// ones are left out.
func r25Program(c *ctx, toks ...string) string {
	var names []string
	for _, k := range toks {
		if k != "" {
			names = append(names, c.t("room25.tok."+k))
		}
	}
	return strings.Join(names, ", "+c.t("room25.then")+" ")
}

// r25TokenIDs are the action tokens.
var r25TokenIDs = []string{"look", "move", "push", "control"}

// r25TokenNames are the tokens' names in every language of the terminal,
// lower-cased: a player may type them, or their initials, in any of them
// (Move or Bouger, M or B).
var r25TokenNames = sync.OnceValue(func() map[string][]string {
	out := map[string][]string{}
	for _, lang := range Langs {
		d, err := dict(lang)
		if err != nil {
			continue
		}
		for _, id := range r25TokenIDs {
			if name := d["room25.tok."+id]; name != "" {
				out[id] = append(out[id], strings.ToLower(name))
			}
		}
	}
	return out
})

// r25Token returns the token a typed word names: its initial, or its name
// (or the start of it, three letters at least) in any language.
func r25Token(word string) (string, bool) {
	word = strings.ToLower(word)
	if n := len([]rune(word)); n == 0 || n == 2 {
		return "", false
	}
	for _, id := range r25TokenIDs {
		for _, name := range r25TokenNames()[id] {
			if strings.HasPrefix(name, word) {
				return id, true
			}
		}
	}
	return "", false
}

// compose reads a program typed as its tokens, the first character's to
// program: their initials ("MP": Move, then Push) or their names ("move
// push"). A line that names no token is left to the screen.
func (room25) compose(line string, c *ctx) (json.RawMessage, string, bool) {
	progs := c.find("program")
	if len(progs) == 0 {
		return nil, "", false
	}
	words := strings.FieldsFunc(line, func(r rune) bool { return r == ' ' || r == ',' || r == '+' })
	if len(words) == 1 && len([]rune(words[0])) == 2 {
		words = []string{string([]rune(words[0])[:1]), string([]rune(words[0])[1:])}
	}
	if len(words) == 0 || len(words) > 2 {
		return nil, "", false
	}
	var toks []string
	for _, w := range words {
		tk, ok := r25Token(w)
		if !ok {
			return nil, "", false
		}
		toks = append(toks, tk)
	}
	char := progs[0].str("character")
	for _, a := range progs {
		if a.str("character") == char && a.str("first") == toks[0] && (len(toks) == 1 && a.str("second") == "" || len(toks) == 2 && a.str("second") == toks[1]) {
			return a.raw, "", true
		}
	}
	return nil, c.t("term.room25.notAProgram", p{"char": r25Char(c, char), "list": r25Program(c, toks...)}), true
}

// keysHelp says how to type a program while one is asked.
func (room25) keysHelp(c *ctx) string {
	if len(c.find("program")) == 0 {
		return ""
	}
	return c.t("term.room25.programKeys")
}

func (room25) listed(obj, *ctx) bool                { return true }
func (room25) key(tea.KeyMsg, *ctx) (bool, tea.Cmd) { return false, nil }

func (room25) render(c *ctx, w, h int) string {
	v := newObj(c.view)
	if len(v.m) == 0 {
		return ""
	}
	var out []string
	stats := []string{c.t("room25.mode." + v.str("mode")), c.t("room25.turnOf", p{"turn": v.num("turn"), "counter": v.num("counter")}) + " · " + c.tn("room25.turnsLeft", v.num("turns_left"))}
	if v.boolean("alarm") {
		stats = append(stats, c.refusal.Render("⏰ "+c.t("room25.alarm")))
	}
	ph := c.t("room25.phase." + v.str("phase"))
	if v.num("round") != 0 {
		ph += " · " + c.t("room25.round", p{"n": v.num("round")})
	}
	out = append(out, wrap(strings.Join(append(stats, ph), " · "), w)...)
	if v.has("decision") {
		d := v.sub("decision")
		if c.myTurn {
			out = append(out, wrap(c.mine.Render(c.t("room25.decision."+d.str("kind"), p{"char": r25Char(c, d.str("character")), "token": c.t("room25.tok." + d.str("token"))})), w)...)
		} else {
			out = append(out, wrap(c.t("room25.waitDecision", p{"name": c.name(d.num("seat")), "char": r25Char(c, d.str("character"))}), w)...)
		}
	}
	side := r25Side(v, c)
	// The complex takes two lines a room where the screen is tall enough,
	// one otherwise; the characters go beside it where it is wide enough,
	// under it otherwise.
	tall := h-len(out) >= 17+len(side)/3
	cw := 13
	if tall {
		cw = 11
	}
	gw := 2 + 5*cw + 6
	sw := w - gw - 2
	if sw < 36 {
		cw = min(max((w-8)/5, 9), 16)
		gw, sw = 2+5*cw+6, 0
	}
	grid := r25Grid(v, c, cw, tall)
	if sw > 0 {
		var right []string
		for _, l := range side {
			right = append(right, wrap(l, sw)...)
		}
		out = append(out, joinColumns(grid, gw, append([]string{""}, right...), sw, max(len(grid), len(right)+1))...)
	} else {
		out = append(out, grid...)
		for _, l := range side {
			out = append(out, fit(l, w))
		}
	}
	if v.has("result") {
		out = append(out, c.bold.Render(c.t("room25.result."+v.sub("result").str("reason"))))
	}
	return strings.Join(out, "\n")
}

// r25Grid draws the 5×5 complex, rows and columns numbered as the
// sentences name them: each room's class mark and short name (or ? face
// down, dim when only this seat has seen it), the colour hints given on
// it, and the characters in it by their short names in their seat's
// colour (the one acting now underlined).
func r25Grid(v obj, c *ctx, cw int, tall bool) []string {
	chars := map[string]obj{}
	for _, x := range v.subs("characters") {
		chars[x.str("id")] = x
	}
	cells := v.subs("cells")
	rule := func(l, m, r string) string {
		return "  " + l + strings.Repeat(strings.Repeat("─", cw)+m, 4) + strings.Repeat("─", cw) + r
	}
	top := "  ┌"
	for col := range 5 {
		top += center("─"+fmt.Sprint(col+1)+"─", cw, "─")
		if col < 4 {
			top += "┬"
		}
	}
	grid := []string{top + "┐"}
	for r := range 5 {
		first, second := fmt.Sprintf("%d │", r+1), "  │"
		for col := range 5 {
			var cell obj
			if i := r*5 + col; i < len(cells) {
				cell = cells[i]
			}
			name, who := r25CellText(cell, chars, v, c, cw)
			if tall {
				first += pad1(name, cw) + "│"
				second += pad1(who, cw) + "│"
				continue
			}
			both := name
			if who != "" {
				room := cw - lipWidth(who) - 1
				both = fit(name, max(room, 1)) + " " + who
			}
			first += pad1(both, cw) + "│"
		}
		grid = append(grid, first)
		if tall {
			grid = append(grid, second)
			if r < 4 {
				grid = append(grid, rule("├", "┼", "┤"))
			}
		}
	}
	return append(grid, rule("└", "┴", "┘"))
}

// r25CellText is a room's name (with its class mark) and who is in it.
func r25CellText(cell obj, chars map[string]obj, v obj, c *ctx, cw int) (string, string) {
	room := cell.str("room")
	var name string
	switch {
	case room != "" && cell.boolean("face_up"):
		name = r25Mark(c, r25Class[room]) + c.t("term.room25.room."+room)
	case room != "":
		name = r25Mark(c, r25Class[room]) + c.dim.Render(c.t("term.room25.room."+room)+"?")
	default:
		name = c.dim.Render("?")
		var hints []string
		for _, hn := range cell.subs("hints") {
			hints = append(hints, r25Mark(c, hn.str("colour"))+c.mark(hn.num("seat")))
		}
		if len(hints) > 0 {
			name += " " + strings.Join(hints, " ")
		}
	}
	if cell.boolean("flooded") {
		name += " ≈"
	}
	if len(cell.strs("beacons")) > 0 {
		name += " ⚑"
	}
	var who []string
	for _, id := range cell.strs("characters") {
		ch := chars[id]
		st := c.seatStyle(ch.num("seat"))
		if v.str("slot") == id {
			st = st.Underline(true)
		}
		who = append(who, st.Render(c.t("room25.char."+id+".short")))
	}
	return fit(name, cw), strings.Join(who, "")
}

// r25Side is one line per character (seat, where, program or hidden
// tokens, trapped, drowning), then the order of play, the roles and the
// dead.
func r25Side(v obj, c *ctx) []string {
	var out []string
	for _, x := range v.subs("characters") {
		id := x.str("id")
		s := c.seatStyle(x.num("seat")).Render(c.t("room25.char."+id+".short")) + " " + c.bold.Render(capital(c.t("room25.char."+id))) + " (" + c.name(x.num("seat"))
		if team := x.str("team"); team != "" {
			s += ", " + c.t("room25.team", p{"team": team})
		}
		s += ")"
		if v.str("slot") == id {
			s = "▸" + s
		}
		switch {
		case !x.boolean("alive"):
			out = append(out, c.dim.Render(s+" — "+c.t("room25.dead", p{"char": r25Char(c, id)})))
			continue
		case x.num("cell") >= 0:
			s += " " + c.dim.Render(r25CellName(c, x.num("cell")))
		}
		if x.boolean("trapped") {
			s += " — " + c.bad.Render(c.t("room25.trapped", p{"char": r25Char(c, id)}))
		}
		if x.num("drowns_turn") != 0 {
			s += " — " + c.bad.Render(c.t("room25.drowns", p{"turn": x.num("drowns_turn")}))
		}
		switch {
		case len(x.strs("program")) > 0:
			s += " · " + r25Program(c, x.strs("program")...)
		case x.boolean("programmed"):
			s += " · " + c.tn("room25.tokensHidden", x.num("tokens"))
		}
		var shown []string
		for _, k := range x.strs("shown") {
			if k != "" {
				shown = append(shown, c.t("room25.tok."+k))
			}
		}
		if len(shown) > 0 {
			s += " · " + c.tn("room25.shown", len(shown), p{"list": strings.Join(shown, ", ")})
		}
		out = append(out, s)
	}
	var legend []string
	for _, k := range []string{"green", "yellow", "red", "blue"} {
		legend = append(legend, r25Mark(c, k)+" "+c.t("term.room25.class."+k))
	}
	out = append(out, c.dim.Render(strings.Join(legend, " ")), c.dim.Render(c.t("term.room25.legend")))
	if line := v.strs("line"); len(line) > 0 {
		var names []string
		for _, id := range line {
			n := c.t("room25.char." + id + ".short")
			if v.str("slot") == id {
				n = "▸" + n
			}
			names = append(names, n)
		}
		out = append(out, c.dim.Render(c.t("room25.line")+c.colon()+strings.Join(names, " → ")))
	}
	var roles []string
	for _, st := range v.subs("seats") {
		if r := st.str("role"); r != "" {
			role := c.t("room25.role." + r)
			if st.boolean("role_revealed") {
				role += " (" + c.t("room25.public") + ")"
			} else if st.num("seat") == c.seat {
				role += " (" + c.t("room25.secret") + ")"
			}
			roles = append(roles, c.t("room25.roleOf", p{"name": c.name(st.num("seat")), "role": role}))
		}
	}
	if len(roles) > 0 {
		out = append(out, c.t("room25.roles")+c.colon()+strings.Join(roles, " · "))
	}
	for _, st := range v.subs("seats") {
		if st.num("seat") == c.seat && st.str("team") != "" {
			out = append(out, c.bold.Render(c.t("room25.yourTeam", p{"team": st.str("team")})))
		}
	}
	return out
}

// center centres s in w columns, filling with fill.
func center(s string, w int, fill string) string {
	s = fit(s, w)
	n := w - lipWidth(s)
	return strings.Repeat(fill, n/2) + s + strings.Repeat(fill, n-n/2)
}

// pad1 centres s in w columns.
func pad1(s string, w int) string {
	s = fit(s, w)
	n := w - lipWidth(s)
	return strings.Repeat(" ", n/2) + s + strings.Repeat(" ", n-n/2)
}

// r25Class is each room's colour class (the game's public table).
var r25Class = map[string]string{
	"central": "blue", "room25": "blue", "empty": "green", "vision": "green", "control_room": "green", "mobile": "green", "twin": "green",
	"vortex": "yellow", "prison": "yellow", "cold": "yellow", "dark": "yellow",
	"trapped": "red", "deadly": "red", "illusion": "red", "flooded": "red", "acid": "red",
}
