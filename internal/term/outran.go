package term

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
)

// outran is the board of Outran (web/games/outran.js): the path card with
// its trail, the arrows laid so far (typed on the keypad digits, as in the
// page), what bends this seat's path, the monster's board, the way out with
// every runner, and the interference cards. During a run the legal
// submissions are the answers: the board never reads them and keeps them
// out of the list.
type outran struct {
	seq   []string
	round int
}

var orGlyph = map[string]string{"n": "↑", "ne": "↗", "e": "→", "se": "↘", "s": "↓", "sw": "↙", "w": "←", "nw": "↖", "spin": "↻", "detour": "+", "antidote": "✚", "express": "»"}
var orKeys = map[string]string{"8": "n", "9": "ne", "6": "e", "3": "se", "2": "s", "1": "sw", "4": "w", "7": "nw", "5": "spin", "+": "detour", "v": "antidote", "t": "express"}
var orCardKinds = []string{"ricochet_even_odd", "ricochet_odd_even", "not_this_way", "interchange", "reverse", "detour", "shortcut", "express", "boost", "shield", "thief", "swap", "for_you", "release"}

func orCardKind(card string) string {
	for _, k := range orCardKinds {
		if strings.HasPrefix(card, k) {
			return k
		}
	}
	return tileNum.ReplaceAllString(card, "")
}

// orCardParams names a card's arrows in words, as the page does (its
// sentences carry no symbol a font may lack).
func orCardParams(c *ctx, card string) p {
	k := orCardKind(card)
	rest := strings.Split(strings.TrimPrefix(card, k+"_"), "_")
	switch k {
	case "interchange":
		if len(rest) >= 2 {
			return p{"a": orTokName(c, rest[0]), "b": orTokName(c, rest[1])}
		}
	case "not_this_way":
		return p{"a": orTokName(c, rest[0])}
	case "detour":
		return p{"a": rest[0]}
	}
	return p{}
}

func orCardName(c *ctx, card string) string {
	return c.t("outran.card."+orCardKind(card), orCardParams(c, card))
}

func orTokName(c *ctx, tok string) string { return c.t("outran.tok." + tok) }

// orCardEffect says what a card does; a Detour's text counts its arrows,
// as on the web page.
func orCardEffect(c *ctx, card string) string {
	k := orCardKind(card)
	if k == "detour" {
		n, _ := strconv.Atoi(fmt.Sprint(orCardParams(c, card)["a"]))
		return c.tn("outran.effect.detour", n)
	}
	return c.t("outran.effect."+k, orCardParams(c, card))
}

// orTokNames writes tokens in words: "up, right, turn around".
func orTokNames(c *ctx, toks []string) string {
	out := make([]string, len(toks))
	for i, t := range toks {
		out[i] = orTokName(c, t)
	}
	return strings.Join(out, ", ")
}

// orGlyphOf is how the board draws an arrow or symbol: its glyph, or on a
// terminal without UTF-8 the key that types it (the keypad's 8 for ↑).
func orGlyphOf(c *ctx, tok string) string {
	if c.ascii {
		for k, x := range orKeys {
			if x == tok {
				return k
			}
		}
	}
	return orGlyph[tok]
}

func orGlyphs(c *ctx, toks []string) string {
	out := make([]string, len(toks))
	for i, t := range toks {
		out[i] = orGlyphOf(c, t)
	}
	return strings.Join(out, " ")
}

func (b *outran) describe(ev obj, c *ctx) (string, bool) {
	n := func(s int) any {
		if s < 0 {
			return c.t("outran.centre")
		}
		return c.who(s)
	}
	switch ev.typ() {
	case "countdown":
		return c.t("outran.ev.countdown", p{"n": ev.num("round")}), false
	case "revealed":
		return c.t("outran.ev.revealed", p{"list": orTokNames(c, ev.strs("symbols"))}), false
	case "submitted":
		return c.t("outran.ev.submitted", p{"seat": n(ev.num("seat")), "rank": ev.num("rank"), "s": c.num(ev.float("elapsed")/1000, 1)}), false
	case "vote_open", "positions", "place_offered", "infect_offered", "turn_started", "turn_ended", "discarded", "reshuffled", "chose_place":
		return "", true
	case "voted":
		return c.t("outran.ev.voted", p{"seat": n(ev.num("seat"))}), false
	case "run_ended":
		var rs []string
		for _, r := range ev.subs("results") {
			rs = append(rs, c.t("outran.ev.result."+r.str("result"), p{"seat": n(r.num("seat"))}))
		}
		return c.t("outran.ev.run_ended."+ev.str("reason"), p{"list": c.list(rs)}), false
	case "cured":
		return c.t("outran.ev.cured", p{"seat": n(ev.num("seat"))}), false
	case "moved":
		if ev.num("escaped") >= 0 && ev.has("escaped") {
			return c.t("outran.ev.escaped", p{"seat": n(ev.num("escaped"))}), false
		}
		var l []string
		for q, st := range ev.nums("steps") {
			l = append(l, c.t("outran.ev.steps", p{"seat": n(q), "n": st}))
		}
		return c.t("outran.ev.moved", p{"list": c.list(l)}), false
	case "clawed":
		return c.t("outran.ev.clawed", p{"seat": n(ev.num("seat"))}), false
	case "burned":
		return c.t("outran.ev.burned", p{"seat": n(ev.num("seat"))}), false
	case "infected":
		return c.t("outran.ev.infected", p{"seat": n(ev.num("seat"))}), false
	case "drew":
		if ev.has("cards") {
			var l []string
			for _, x := range ev.strs("cards") {
				l = append(l, orCardName(c, x))
			}
			return c.t("outran.ev.drew_you", p{"list": c.list(l)}), false
		}
		return c.tn("outran.ev.drew", ev.num("count"), p{"seat": n(ev.num("seat"))}), false
	case "drew_face_up":
		// The Vampire's card turned up for the centre is said once: it
		// lies there at once.
		if ev.num("seat") < 0 {
			return c.t("outran.ev.drew_face_up_centre", p{"card": orCardName(c, ev.str("card"))}), false
		}
		return c.t("outran.ev.drew_face_up", p{"seat": n(ev.num("seat")), "card": orCardName(c, ev.str("card"))}), false
	case "placed":
		if ev.num("holder") < 0 {
			return "", true
		}
		return c.t("outran.ev.placed", p{"seat": n(ev.num("holder")), "card": orCardName(c, ev.str("card"))}), false
	case "played":
		return c.t("outran.ev.played", p{"seat": n(ev.num("seat")), "card": orCardName(c, ev.str("card")), "target": n(ev.num("target"))}), false
	case "game_over":
		if ev.str("reason") == "escaped" {
			var l []phrase
			for _, w := range ev.nums("winners") {
				l = append(l, c.who(w))
			}
			return c.tn("outran.ev.over_escaped", len(l), p{"names": c.people(l)}), false
		}
		return c.t("outran.ev.over_cap"), false
	}
	return "", false
}

func (b *outran) label(a obj, c *ctx) string {
	switch a.typ() {
	case "submit":
		return c.t("outran.finish")
	case "vote_stop":
		return c.t("outran.vote")
	case "choose_place":
		if a.boolean("leftmost") {
			return c.t("outran.goLeft")
		}
		return c.t("outran.stay")
	case "infect":
		return c.t("outran.infectLabel", p{"name": c.name(a.num("target"))})
	case "play":
		return c.t("outran.playLabel", p{"card": orCardName(c, a.str("card")), "name": c.name(a.num("target"))})
	case "end_turn":
		return c.t("outran.endTurn")
	}
	return ""
}

func (b *outran) listed(a obj, c *ctx) bool { return a.typ() != "submit" }

func (b *outran) me(v obj) (obj, bool) {
	s := v.num("seat")
	seats := v.subs("seats")
	if s < 0 || s >= len(seats) {
		return obj{}, false
	}
	return seats[s], true
}

func (b *outran) status(c *ctx) string {
	v := newObj(c.view)
	if !c.myTurn || v.str("phase") != "run" {
		return ""
	}
	if me, ok := b.me(v); ok && me.boolean("submitted") {
		return c.t("outran.status.voted")
	}
	return c.t("outran.status.run")
}

func (b *outran) laying(c *ctx) (obj, bool) {
	v := newObj(c.view)
	me, ok := b.me(v)
	return v, ok && v.str("phase") == "run" && !me.boolean("submitted")
}

func (b *outran) keysHelp(c *ctx) string {
	if _, ok := b.laying(c); ok {
		return c.t("term.outran.keys")
	}
	if _, ok := c.legalOf(`{"type":"vote_stop"}`); ok {
		return c.t("term.outran.voteKeys")
	}
	return ""
}

// ownsDigits: while the seat lays its arrows the digits are the keypad's.
func (b *outran) ownsDigits(c *ctx) bool {
	_, ok := b.laying(c)
	return ok
}

func (b *outran) key(k tea.KeyMsg, c *ctx) (bool, tea.Cmd) {
	if vote, ok := c.legalOf(`{"type":"vote_stop"}`); ok && !c.busy && strings.ToLower(k.String()) == "s" {
		if _, laying := b.laying(c); !laying {
			return true, c.play(vote.raw)
		}
	}
	v, ok := b.laying(c)
	if !ok {
		return false, nil
	}
	if b.round != v.num("round") {
		b.seq, b.round = nil, v.num("round")
	}
	switch k.Type {
	case tea.KeyBackspace:
		if len(b.seq) > 0 {
			b.seq = b.seq[:len(b.seq)-1]
		}
		return true, nil
	case tea.KeyEnter:
		if c.busy {
			return true, nil
		}
		cards := b.seq
		if cards == nil {
			cards = []string{}
		}
		b.seq = nil
		body := fmt.Sprintf(`{"type":"submit","cards":[%s]}`, quoteAll(cards))
		return true, c.play([]byte(body))
	case tea.KeyRunes:
		tok, ok := orKeys[strings.ToLower(string(k.Runes))]
		if !ok {
			return false, nil
		}
		palette := v.strs("palette")
		inPalette := false
		for _, t := range palette {
			inPalette = inPalette || t == tok
		}
		if !inPalette {
			return true, nil
		}
		for _, t := range b.seq {
			if t == tok {
				return true, nil
			}
		}
		if len(b.seq) < 12 {
			b.seq = append(b.seq, tok)
		}
		return true, nil
	}
	return false, nil
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = fmt.Sprintf("%q", s)
	}
	return strings.Join(q, ",")
}

func (b *outran) render(c *ctx, w, h int) string {
	v := newObj(c.view)
	if len(v.m) == 0 {
		return ""
	}
	if b.round != v.num("round") {
		b.seq, b.round = nil, v.num("round")
	}
	out := b.head(v, c, w)
	big := h >= 34 && w >= 90
	pathAndRight := func(tight int) []string {
		top := b.path(v, c, big, tight)
		pw := 16
		if big {
			pw = 28
		}
		if !v.has("path") {
			pw = min(max(lipWidth(top[0])+1, pw), w/2)
		}
		right := b.rightColumn(v, c, w-pw-1, tight > 0)
		return joinColumns(top, pw, right, w-pw-1, max(len(top), len(right)))
	}
	if ph := v.str("phase"); ph == "countdown" || ph == "run" {
		// The run: the path and the arrows first, then every runner's
		// lane. Where the screen is short the path loses its inner
		// rules, then the lanes their title, then the path its outer
		// rules; whatever still does not fit comes off the bottom of the
		// path's column: never a runner.
		pr, lanes := pathAndRight(0), b.lanes(v, c, w)
		if len(out)+len(pr)+len(lanes) > h {
			pr = pathAndRight(1)
		}
		if len(out)+len(pr)+len(lanes) > h {
			lanes = lanes[1:]
		}
		if len(out)+len(pr)+len(lanes) > h {
			pr = pathAndRight(2)
		}
		if over := len(out) + len(pr) + len(lanes) - h; over > 0 {
			pr = pr[:max(len(pr)-over, 0)]
		}
		out = append(out, pr...)
		out = append(out, lanes...)
		for _, more := range [][]string{b.monsterBoard(v, c, w, big), b.hands(v, c, w)} {
			if len(out)+len(more) <= h { // whole, or not at all
				out = append(out, more...)
			}
		}
	} else {
		// Between runs: where everyone stands, and the cards.
		out = append(out, b.lanes(v, c, w)...)
		out = append(out, b.hands(v, c, w)...)
		out = append(out, b.monsterBoard(v, c, w, big)...)
		out = append(out, pathAndRight(0)...)
	}
	return strings.Join(out, "\n")
}

// head is the round and what the phase waits for.
func (b *outran) head(v obj, c *ctx, w int) []string {
	out := wrap(strings.Join([]string{c.bold.Render(c.t("outran.monster." + v.str("monster"))),
		c.t("outran.round", p{"n": v.num("round"), "max": v.num("max_rounds")}), c.t("outran.phase." + v.str("phase")),
		c.tn("outran.pathLength", v.num("path_length")), c.tn("outran.deck", v.num("deck"))}, " · "), w)
	left := func(at int) string { return fmtClock(int64(at) - c.clock) }
	switch v.str("phase") {
	case "countdown":
		out = append(out, c.mine.Render(c.t("outran.revealIn")+" "+left(v.num("reveal_at"))))
	case "run":
		if v.has("deadline") {
			out = append(out, c.warn.Render(c.t("outran.runLimit", p{"time": left(v.num("deadline"))})))
		}
	case "place_choice", "infect_choice":
		ch := v.sub("choice")
		if ch.num("seat") == v.num("seat") {
			out = append(out, c.mine.Render(c.t("outran.choice."+ch.str("kind"), p{"pos": ch.num("position")})))
		} else {
			out = append(out, c.t("outran.choiceOther."+ch.str("kind"), p{"name": c.name(ch.num("seat"))}))
		}
	case "interference_turn":
		if v.num("turn") == v.num("seat") {
			out = append(out, c.mine.Render(c.t("outran.yourTurn")))
		} else {
			out = append(out, c.t("outran.turnOther", p{"name": c.name(v.num("turn"))}))
		}
	case "over":
		out = append(out, c.bold.Render(c.t("outran.over")))
	}
	return out
}

// needs is the least height the board takes from the screen: in the run,
// the head, the path at its tightest (a title and three rows, with a line
// each beside it for the arrows, the one being laid and what bends them)
// and one lane a runner.
func (b *outran) needs(c *ctx, w int) int {
	v := newObj(c.view)
	if ph := v.str("phase"); len(v.m) == 0 || ph != "countdown" && ph != "run" {
		return 0
	}
	return len(b.head(v, c, w)) + 4 + len(v.subs("seats"))
}

// path draws the 3×3 path card: each cell of the trail holds its arrow
// and its step number. Tight 1 leaves out the rules between the rows, 2
// every rule across.
func (b *outran) path(v obj, c *ctx, big bool, tight int) []string {
	if !v.has("path") {
		return []string{c.dim.Render(c.t("outran.noPath"))}
	}
	pc := v.sub("path")
	hidden := v.str("phase") == "countdown"
	at := map[string]int{}
	for i, cell := range pc.strs("trail") {
		at[cell] = i
	}
	syms := pc.strs("symbols")
	title := c.t("outran.path")
	if hidden {
		title = c.t("outran.lastPath")
	}
	// A cell holds its step's number and arrow; in a large window each
	// cell is a square of three lines with the arrow in its middle.
	cw, ch := 3, 1
	if big {
		cw, ch = 7, 3
	}
	rule := func(l, m, r string) string {
		return l + strings.Repeat(strings.Repeat("─", cw)+m, 2) + strings.Repeat("─", cw) + r
	}
	lines := []string{c.bold.Render(fit(title, 4*cw+1))}
	if tight < 2 {
		lines = append(lines, rule("┌", "┬", "┐"))
	}
	for r := 0; r < 3; r++ {
		rows := make([]string, ch)
		for k := range rows {
			rows[k] = "│"
		}
		for col := 0; col < 3; col++ {
			id := string("abc"[col]) + fmt.Sprint(r+1)
			i, ok := at[id]
			cell := make([]string, ch)
			for k := range cell {
				cell[k] = strings.Repeat(" ", cw)
			}
			if ok && i < len(syms) {
				g := c.accent.Render(orGlyphOf(c, syms[i]))
				num := fmt.Sprint((i + 1) % 10)
				if i == 0 {
					g, num = c.warn.Render(orGlyphOf(c, syms[i])), c.warn.Render("*")
				}
				if big {
					cell[0] = num + strings.Repeat(" ", cw-1)
					cell[1] = strings.Repeat(" ", cw/2) + g + strings.Repeat(" ", cw-cw/2-1)
				} else if c.ascii {
					cell[0] = num + ":" + g // its step, then the key of its arrow
				} else {
					cell[0] = num + g + " "
				}
				if hidden {
					for k := range cell {
						cell[k] = c.dim.Render(ansiStrip(cell[k]))
					}
				}
			}
			for k := range rows {
				rows[k] += cell[k] + "│"
			}
		}
		lines = append(lines, rows...)
		if r < 2 && tight == 0 {
			lines = append(lines, rule("├", "┼", "┤"))
		}
	}
	if tight < 2 {
		lines = append(lines, rule("└", "┴", "┘"))
	}
	return lines
}

// rightColumn is what stands beside the path: this seat's arrows, what
// bends its path, the last run's results; tight keeps each to a line.
func (b *outran) rightColumn(v obj, c *ctx, w int, tight bool) []string {
	wrap := wrap
	if tight {
		wrap = func(s string, w int) []string { return []string{fit(s, w)} }
	}
	var out []string
	me, hasMe := b.me(v)
	if hasMe && v.str("phase") == "run" {
		if me.boolean("submitted") {
			out = append(out, wrap(c.mine.Render(c.t("outran.submitted", p{"rank": me.num("rank")}))+" "+orGlyphs(c, me.strs("cards")), w)...)
			if _, ok := c.legalOf(`{"type":"vote_stop"}`); ok {
				out = append(out, c.mine.Render(fit("[S] "+c.t("outran.vote"), w)))
			}
		} else {
			var pal []string
			for _, t := range v.strs("palette") {
				key := ""
				for k, x := range orKeys {
					if x == t {
						key = k
					}
				}
				if c.ascii {
					pal = append(pal, key) // the glyph is the key
					continue
				}
				pal = append(pal, orGlyph[t]+c.dim.Render(key))
			}
			out = append(out, fit(c.bold.Render(c.t("outran.yourArrows"))+" "+strings.Join(pal, " "), w))
			seq := c.dim.Render(c.t("term.outran.emptySeq"))
			if len(b.seq) > 0 {
				var parts []string
				for i, t := range b.seq {
					sep := ""
					if c.ascii {
						sep = ":" // the arrow is a digit too
					}
					parts = append(parts, fmt.Sprintf("%d%s%s", i+1, sep, c.accent.Render(orGlyphOf(c, t))))
				}
				seq = strings.Join(parts, " ")
			}
			out = append(out, wrap("» "+seq, w)...)
		}
	}
	// What bends this seat's path.
	var cards []string
	title := c.t("outran.frontApplies")
	if v.str("monster") == "vampire" {
		title = c.t("outran.centreApplies")
		cards = v.strs("centre")
	} else if hasMe {
		cards = me.strs("front")
	}
	out = append(out, c.bold.Render(fit(title, w)))
	if len(cards) == 0 {
		out = append(out, c.dim.Render(fit(c.t("outran.noneApplies"), w)))
	}
	for _, cd := range cards {
		out = append(out, wrap(c.warn.Render(orCardName(c, cd))+" — "+orCardEffect(c, cd), w)...)
	}
	if hasMe && me.boolean("infected") {
		out = append(out, wrap(c.bad.Render(c.t("outran.infected")), w)...)
	}
	// The last run's results.
	var res []string
	for q, st := range v.subs("seats") {
		if st.str("result") == "" {
			continue
		}
		r := c.mark(q) + " " + c.name(q) + c.colon() + c.t("outran.result."+st.str("result"))
		if st.num("elapsed") > 0 {
			r += " " + c.t("outran.elapsed", p{"s": c.num(st.float("elapsed")/1000, 1)})
		}
		if st.has("cards") {
			r += " " + orGlyphs(c, st.strs("cards"))
		}
		res = append(res, fit(r, w))
	}
	if len(res) > 0 {
		out = append(out, c.bold.Render(c.t("outran.results")))
		out = append(out, res...)
	}
	return out
}

// lanes draw the way out with one lane a runner, so that runners on the
// same step never hide each other: the runner's mark at its step, the exit
// at the end.
func (b *outran) lanes(v obj, c *ctx, w int) []string {
	L := v.num("path_length")
	seats := v.subs("seats")
	nameW := 0
	for q := range seats {
		nameW = max(nameW, lipWidth(c.name(q)))
	}
	nameW = min(nameW, max(w/4, 8))
	// One column a step, or up to three where the window is wide.
	per := min(max((w-nameW-48)/(L+1), 1), 3)
	cols := (L + 1) * per
	if cols > w-nameW-18 {
		per, cols = 1, min(L+1, max(w-nameW-18, 4))
	}
	out := []string{c.bold.Render(c.t("outran.exitPath"))}
	for q, st := range seats {
		pos := min(st.num("progress"), L)
		x := pos * per
		if per == 1 {
			x = pos * (cols - 1) / max(L, 1)
		}
		track := []rune(strings.Repeat("─", cols))
		for i := range track {
			if i < x {
				track[i] = '═'
			}
		}
		lane := string(track[:x]) + c.mark(q) + string(track[x+1:])
		name := fit(c.name(q), nameW)
		name += strings.Repeat(" ", nameW-lipWidth(name))
		line := c.mark(q) + " " + name + " ├" + lane + "┤ " + fmt.Sprintf("%d/%d", st.num("progress"), L)
		if st.num("progress") >= L {
			line += " " + c.good.Render(c.t("term.outran.exit"))
		}
		if n := st.num("hand_count"); n > 0 {
			line += " · " + c.tn("outran.inHand", n)
		}
		var front []string
		for _, x := range st.strs("front") {
			front = append(front, orCardName(c, x))
		}
		if len(front) > 0 {
			line += " · " + c.warn.Render(c.t("outran.inFront", p{"list": c.list(front)}))
		}
		if st.boolean("infected") {
			line += " · " + c.bad.Render(c.t("outran.infectedTag"))
		}
		if st.boolean("immune") {
			line += " · " + c.t("outran.immuneTag")
		}
		out = append(out, fit(line, w))
	}
	return out
}

// monsterBoard is the monster's board: each place with the steps it
// gives, its icons and the runners on it, the places not in play dimmed;
// drawn as a row of boxes where the screen is large.
func (b *outran) monsterBoard(v obj, c *ctx, w int, big bool) []string {
	bd := v.sub("board")
	vals := bd.nums("values")
	active := map[int]bool{0: true}
	for _, a := range bd.nums("active") {
		active[a] = true
	}
	var icons [][]string
	_ = json.Unmarshal(bd.m["icons"], &icons)
	at := map[int][]int{}
	for q, st := range v.subs("seats") {
		at[st.num("position")] = append(at[st.num("position")], q)
	}
	place := func(i int) string {
		if i == 0 {
			return "+0"
		}
		return fmt.Sprintf("#%d", i)
	}
	iconText := func(i int) string {
		if i >= len(icons) {
			return ""
		}
		var names []string
		for _, ic := range icons[i] {
			names = append(names, c.t("outran.icon."+ic))
		}
		return strings.Join(names, ", ")
	}
	marks := func(i int) string {
		var m string
		for _, q := range at[i] {
			m += c.mark(q)
		}
		return m
	}
	title := c.bold.Render(c.t("outran.board")) + " " + c.dim.Render(c.t("term.outran.boardHelp"))
	if !big {
		var cells []string
		for i, val := range vals {
			cell := fmt.Sprintf("%s=%d", place(i), val)
			if ic := iconText(i); ic != "" {
				cell += " " + ic
			}
			if !active[i] {
				cell = c.dim.Render(cell)
			}
			cells = append(cells, cell+marks(i))
		}
		return wrap(title+" "+strings.Join(cells, "  "), w)
	}
	cw := 8
	for i := range vals {
		cw = max(cw, lipWidth(iconText(i))+2)
	}
	per := max((w-1)/(cw+1), 1)
	out := []string{fit(title, w)}
	for from := 0; from < len(vals); from += per {
		to := min(from+per, len(vals))
		n := to - from
		rule := func(l, m, r string) string {
			return l + strings.Repeat(strings.Repeat("─", cw)+m, n-1) + strings.Repeat("─", cw) + r
		}
		rows := make([]string, 4)
		for k := range rows {
			rows[k] = "│"
		}
		for i := from; i < to; i++ {
			cells := []string{place(i), c.tn("outran.steps", vals[i]), iconText(i), marks(i)}
			for k, cell := range cells {
				cell = center(cell, cw, " ")
				if !active[i] && k < 3 {
					cell = c.dim.Render(cell)
				}
				rows[k] += cell + "│"
			}
		}
		out = append(out, rule("┌", "┬", "┐"))
		out = append(out, rows...)
		out = append(out, rule("└", "┴", "┘"))
	}
	return out
}

func (b *outran) hands(v obj, c *ctx, w int) []string {
	var out []string
	if v.num("seat") >= 0 {
		var hand []string
		for _, x := range v.strs("hand") {
			hand = append(hand, orCardName(c, x))
		}
		hs := "—"
		if len(hand) > 0 {
			hs = c.list(hand)
		}
		out = append(out, wrap(c.bold.Render(c.t("outran.interference"))+" · "+c.t("outran.yourHand")+" "+hs, w)...)
	}
	return out
}
