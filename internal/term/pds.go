package term

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
)

// pds is the board of Plan de Secours (web/games/plandesecours.js): the
// top of the stack with its direction, the hand, the scores, the FLOOR and
// DANGER cards, the LOST call being asked, and at each round's end the path
// revealed tile by tile. The stack below its top is never shown and the log
// never names the tiles laid: remembering the path is the game (the
// reference's section 8), and the terminal keeps no history of it either.
type pds struct {
	pick      string // the tile picked when the direction is free
	armLost   string // LOST is armed for this stack (a second L plays it)
	reveal    *obj   // the reveal on screen, until closed
	revealFor int    // the round of the reveal last opened
}

var arrowTurn = map[string]int{"start": 0, "straight": 0, "crossroads": 0, "right": 1, "double_right": 1, "left": 3, "double_left": 3, "repetition": 0}
var moveTurn = map[string]int{"straight": 0, "right": 1, "left": 3}
var heading = map[string]int{"N": 0, "E": 1, "S": 2, "W": 3}

const arrows = "↑→↓←"

func arrow(d int) string { return string([]rune(arrows)[((d%4)+4)%4]) }

var tileNum = regexp.MustCompile(`_\d+$`)

func pdsType(tile string) string {
	if tile == "start" {
		return "start"
	}
	return tileNum.ReplaceAllString(tile, "")
}

// pdsCharacters are the characters printed on tiles: the game's public
// component table.
var pdsCharacters = map[string]string{
	"straight_1": "runner", "straight_2": "firefighter", "straight_3": "medic", "straight_4": "wheelchair",
	"left_1": "child", "left_2": "elder", "left_3": "guard", "right_1": "runner", "right_2": "firefighter", "right_3": "medic",
	"double_left_1": "wheelchair", "double_right_1": "child", "crossroads_1": "elder", "repetition_1": "guard",
}

func (b *pds) dirName(c *ctx, d int) string { return c.t("pds.dir." + fmt.Sprint(((d%4)+4)%4)) }

func (b *pds) charName(c *ctx, ch string) string {
	if ch == "" {
		return ""
	}
	return c.t("pds.char." + ch)
}

func (b *pds) tileName(c *ctx, tile, character string) string {
	n := c.t("pds.type." + pdsType(tile))
	if character != "" {
		return n + " (" + b.charName(c, character) + ")"
	}
	return n
}

func (b *pds) reasons(c *ctx, r obj) string {
	var out []string
	for _, x := range r.strs("reasons") {
		if strings.HasPrefix(x, "floor_") {
			out = append(out, c.t("pds.reasonFloor", p{"card": c.t("pds.id." + x)}))
		} else {
			out = append(out, c.t("pds.reason."+x))
		}
	}
	return c.list(out)
}

func (b *pds) verdict(c *ctx, r obj) string {
	if r.num("lost_at") != 0 {
		return c.t("pds.lostAt", p{"n": r.num("lost_at"), "reasons": b.reasons(c, r)})
	}
	return c.t("pds.pathHolds")
}

func (b *pds) describe(ev obj, c *ctx) (string, bool) {
	n := func(k string) phrase { return c.who(ev.num(k)) }
	switch ev.typ() {
	case "tile_played":
		return c.t("pds.ev.tile_played", p{"seat": n("seat")}), false
	case "tile_drawn":
		if !ev.has("tile") || ev.str("tile") == "" {
			return "", true
		}
		return c.t("pds.ev.tile_drawn_you", p{"tile": b.tileName(c, ev.str("tile"), pdsCharacters[ev.str("tile")])}), false
	case "danger_triggered":
		return c.t("pds.ev.danger_triggered", p{"seat": n("seat"), "card": c.t("pds.id." + ev.str("card")), "character": c.t("pds.theChar." + pdsCharacters[ev.str("tile")])}), false
	case "stack_rotated":
		return c.t("pds.ev.stack_rotated." + fmt.Sprint(ev.num("quarter_turns"))), false
	case "blackout":
		return c.t("pds.ev.blackout", p{"seat": n("seat")}), false
	case "turn_skipped":
		return c.t("pds.ev.turn_skipped", p{"seat": n("seat")}), false
	case "hand_received":
		if ev.has("from") {
			return c.t("pds.ev.hand_passed", p{"from": n("from")}), false
		}
		return c.t("pds.ev.hand_dealt"), false
	case "turn_passed":
		return c.t("pds.ev.turn_passed", p{"seat": n("seat")}), false
	case "lost_played":
		return c.t("pds.ev.lost_played", p{"seat": n("seat"), "chain": ev.num("chain")}), false
	case "chain_asked":
		return c.t("pds.ev.chain_asked", p{"seat": n("seat")}), false
	case "chain_joined":
		return c.t("pds.ev.chain_joined", p{"seat": n("seat")}), false
	case "chain_declined":
		return c.t("pds.ev.chain_declined", p{"seat": n("seat")}), false
	case "round_revealed":
		r := ev.sub("reveal")
		var scorers []phrase
		for seat, pts := range r.nums("points") {
			if pts > 0 {
				scorers = append(scorers, c.who(seat))
			}
		}
		s := c.t("pds.ev.round_revealed", p{"round": r.num("round")}) + " " + b.verdict(c, r) + " "
		if len(scorers) > 0 {
			return s + c.tn("pds.scoredNames", len(scorers), p{"names": c.people(scorers)}), false
		}
		return s + c.t("pds.nobodyScored"), false
	case "round_started":
		s := c.t("pds.ev.round_started", p{"round": ev.num("round"), "seat": n("first_player")})
		if ev.str("floor_revealed") != "" {
			s += " " + c.t("pds.ev.newFloor", p{"card": c.t("pds.id." + ev.str("floor_revealed"))})
		}
		if ev.str("danger_revealed") != "" {
			s += " " + c.t("pds.ev.newDanger", p{"card": c.t("pds.id." + ev.str("danger_revealed"))})
		}
		return s, false
	case "game_over":
		var names []phrase
		for _, w := range ev.nums("winners") {
			names = append(names, c.who(w))
		}
		return c.tn("pds.ev.game_over", len(names), p{"names": c.people(names)}), false
	}
	return "", false
}

func (b *pds) label(a obj, c *ctx) string {
	switch a.typ() {
	case "play_tile":
		base := c.t("pds.act.play_tile", p{"tile": b.tileName(c, a.str("tile"), pdsCharacters[a.str("tile")])})
		if a.has("facing") {
			return base + " " + c.t("pds.act.facing", p{"dir": b.dirName(c, a.num("facing"))})
		}
		return base
	case "play_lost":
		return c.t("pds.playLost")
	case "pass_turn":
		return c.t("pds.pass")
	case "join_lost":
		return c.t("pds.join")
	case "decline_lost":
		return c.t("pds.decline")
	}
	return ""
}

func (b *pds) status(c *ctx) string {
	v := newObj(c.view)
	if v.str("phase") == "game_over" || len(v.m) == 0 {
		return ""
	}
	if v.str("phase") == "lost_chain" && v.has("chain") {
		ch := v.sub("chain")
		if ch.num("asked") == c.seat {
			return c.t("pds.status.chainYou", p{"starter": c.name(ch.num("starter"))})
		}
		return c.t("pds.status.chain", p{"starter": c.who(ch.num("starter")), "name": c.name(ch.num("asked"))})
	}
	if c.myTurn {
		if len(v.subs("hand")) > 0 {
			return c.t("pds.status.turn")
		}
		return c.t("pds.status.empty")
	}
	return ""
}

func (b *pds) listed(obj, *ctx) bool { return true }

// events opens the reveal when a round ends.
func (b *pds) events(evs []obj, c *ctx) {
	for _, ev := range evs {
		if ev.typ() == "round_revealed" {
			r := ev.sub("reveal")
			b.reveal, b.revealFor = &r, r.num("round")
		}
	}
}

func (b *pds) keysHelp(c *ctx) string {
	if b.reveal != nil {
		return c.t("term.closeReveal")
	}
	if b.pick != "" {
		return c.t("term.pds.facingKeys")
	}
	return c.t("term.pds.keys")
}

func (b *pds) key(k tea.KeyMsg, c *ctx) (bool, tea.Cmd) {
	v := newObj(c.view)
	if b.reveal != nil {
		switch k.Type {
		case tea.KeyEnter, tea.KeyEsc:
			b.reveal = nil
			return true, nil
		}
		if k.String() == "r" {
			b.reveal = nil
			return true, nil
		}
		return true, nil // the reveal covers the board until closed
	}
	if k.String() == "r" && v.has("last_reveal") {
		r := v.sub("last_reveal")
		b.reveal = &r
		return true, nil
	}
	if !c.myTurn || c.busy {
		return false, nil
	}
	key := strings.ToLower(k.String())
	playIf := func(a string) (bool, tea.Cmd) {
		if l, ok := c.legalOf(a); ok {
			return true, c.play(l.raw)
		}
		return false, nil
	}
	if v.str("phase") == "lost_chain" {
		switch key {
		case "j":
			return playIf(`{"type":"join_lost"}`)
		case "k":
			return playIf(`{"type":"decline_lost"}`)
		}
		return false, nil
	}
	if b.pick != "" {
		f := map[string]int{"up": 0, "right": 1, "down": 2, "left": 3}
		if d, ok := f[key]; ok {
			tile := b.pick
			b.pick = ""
			_, cmd := playIf(fmt.Sprintf(`{"type":"play_tile","tile":%q,"facing":%d}`, tile, d))
			return true, cmd
		}
		if key == "esc" {
			b.pick = ""
			return true, nil
		}
	}
	switch key {
	case "1", "2", "3":
		hand := v.subs("hand")
		i := int(key[0] - '1')
		if i >= len(hand) {
			return false, nil
		}
		tile := hand[i].str("tile")
		if v.str("next_facing") == "free" {
			b.pick = tile
			return true, nil
		}
		return playIf(fmt.Sprintf(`{"type":"play_tile","tile":%q}`, tile))
	case "l":
		if _, ok := c.legalOf(`{"type":"play_lost"}`); !ok {
			return false, nil
		}
		armed := fmt.Sprintf("%d:%d", v.num("stack_tiles"), v.num("round"))
		if b.armLost == armed {
			b.armLost = ""
			return playIf(`{"type":"play_lost"}`)
		}
		b.armLost = armed
		return true, nil
	case "s":
		return playIf(`{"type":"pass_turn"}`)
	}
	return false, nil
}

// ---- drawing ----

func (b *pds) render(c *ctx, w, h int) string {
	v := newObj(c.view)
	if len(v.m) == 0 {
		return ""
	}
	if b.reveal != nil {
		return b.revealPanel(*b.reveal, c, w, h)
	}
	var out []string
	// The strip.
	stats := []string{c.t("pds.round", p{"round": v.num("round")}), c.tn("pds.target", v.num("target")),
		c.tn("pds.drawPile", v.num("draw_pile")), c.tn("pds.stackTiles", v.num("stack_tiles"))}
	if v.boolean("danger") {
		stats = append(stats, c.warn.Render(c.t("pds.dangerMode")))
	}
	out = append(out, wrap(strings.Join(stats, " · "), w)...)
	// The top of the stack beside the players.
	top := b.topTile(v, c)
	tw := 16
	for _, l := range top {
		tw = max(tw, lipWidth(l)+1)
	}
	tw = min(tw, 24)
	players := b.players(v, c, w-tw)
	out = append(out, joinColumns(top, tw, players, w-tw-1, max(len(top), len(players)))...)
	if v.str("next_facing") == "free" {
		out = append(out, wrap(c.accent.Render(c.t("pds.nextFree")), w)...)
	} else {
		nf := v.num("next_facing")
		out = append(out, wrap(c.t("pds.nextFacing", p{"dir": b.dirName(c, nf), "arrow": arrow(nf)}), w)...)
	}
	// The hand and the call being asked come before the cards in force,
	// which are cut first when the screen is short.
	if v.num("seat") >= 0 {
		out = append(out, b.hand(v, c, w, h >= 30 && w >= 96)...)
	}
	if v.str("phase") == "lost_chain" && v.has("chain") {
		ch := v.sub("chain")
		var joined []string
		for _, j := range ch.nums("joined") {
			joined = append(joined, c.name(j))
		}
		js := c.t("word.nobody")
		if len(joined) > 0 {
			js = c.list(joined)
		}
		who := c.t("pds.chainInfo", p{"starter": c.who(ch.num("starter")), "chain": ch.num("chain"), "joined": js})
		if c.myTurn && ch.num("asked") == c.seat {
			out = append(out, wrap(c.mine.Render(who+" "+c.t("pds.chainAsk"))+" "+c.dim.Render("[J] "+c.t("pds.join")+"  [K] "+c.t("pds.decline")), w)...)
		} else {
			out = append(out, wrap(who+" "+c.t("pds.chainWaiting", p{"name": c.who(ch.num("asked"))}), w)...)
		}
	}
	out = append(out, b.cardsInForce(v, c, w, h-len(out)-1)...)
	if v.has("last_reveal") {
		out = append(out, c.dim.Render(fit("[R] "+c.t("pds.showReveal", p{"round": v.sub("last_reveal").num("round")}), w)))
	}
	return strings.Join(out, "\n")
}

// cardsInForce lists the FLOOR cards (and the DANGER cards) in force with
// what each does, or by name alone when the screen has not the room.
func (b *pds) cardsInForce(v obj, c *ctx, w, room int) []string {
	group := func(title, deck string, ids []string, none, prefix, kind string, st func(...string) string) (full, short string) {
		head := c.bold.Render(title) + " " + c.dim.Render(deck) + " "
		if len(ids) == 0 {
			return head + none, head + none
		}
		var long, names []string
		for _, id := range ids {
			long = append(long, st(prefix+" "+c.t("pds.id."+id))+c.colon()+c.t("pds."+kind+"Text."+id))
			names = append(names, st(prefix+" "+c.t("pds.id."+id)))
		}
		return head + strings.Join(long, " "), head + strings.Join(names, " ")
	}
	fullF, shortF := group(c.t("pds.floors"), c.tn("pds.deckLeft", v.num("floor_deck")), v.strs("floors"), "", "▦", "floor", c.bold.Render)
	full, short := []string{fullF}, []string{shortF}
	if v.boolean("danger") {
		fullD, shortD := group(c.t("pds.dangers"), c.tn("pds.deckLeft", v.num("danger_deck")), v.strs("dangers"), c.t("pds.noDanger"), "⚠", "danger", c.warn.Render)
		full, short = append(full, fullD), append(short, shortD)
	}
	var out []string
	for _, l := range full {
		out = append(out, wrap(l, w)...)
	}
	if len(out) <= room {
		return out
	}
	out = out[:0]
	for _, l := range short {
		out = append(out, wrap(l, w)...)
	}
	return out
}

// modal: the reveal covers the screen until it is closed.
func (b *pds) modal(*ctx) bool { return b.reveal != nil }

// tileBox draws a tile as a small box: its arrow (or mark) in the middle
// and its character's letter in the corner.
func tileBox(c *ctx, mid, corner, caption string) []string {
	if corner == "" {
		corner = "─"
	}
	return []string{
		"╭" + corner + "────╮",
		"│  " + mid + "  │",
		"╰─────╯",
		caption,
	}
}

func (b *pds) topTile(v obj, c *ctx) []string {
	t := v.sub("top")
	var box []string
	switch t.str("kind") {
	case "lost":
		box = tileBox(c, c.refusal.Render("✖"), "", fit(c.t("pds.lostWord")+" "+c.name(t.num("seat")), 23))
	case "face_down":
		box = tileBox(c, "?", "", fit(c.t("pds.aria.faceDown"), 23))
	case "start":
		box = tileBox(c, c.accent.Render(arrow(t.num("facing"))), "", c.t("pds.start"))
	default:
		typ := pdsType(t.str("tile"))
		mid := arrow(t.num("facing") + arrowTurn[typ])
		if typ == "repetition" {
			mid = "↻"
		}
		corner := ""
		if ch := t.str("character"); ch != "" {
			corner = c.t("pds.char." + ch + ".abbr")
		}
		box = tileBox(c, c.accent.Render(mid), corner, fit(c.t("pds.type."+typ), 23))
	}
	return append([]string{c.dim.Render(fit(c.t("pds.topOfStack"), 23))}, box...)
}

func (b *pds) players(v obj, c *ctx, w int) []string {
	lostBy := map[int]int{}
	for _, l := range v.subs("lost") {
		lostBy[l.num("seat")] = l.num("chain")
	}
	scores, sizes := v.nums("scores"), v.nums("hand_sizes")
	target := v.num("target")
	var out []string
	for s := 0; s < v.num("players"); s++ {
		acting := v.str("phase") != "game_over" && v.num("actor") == s
		sc := 0
		if s < len(scores) {
			sc = scores[s]
		}
		pips := strings.Repeat("●", min(sc, target)) + strings.Repeat("○", max(target-sc, 0))
		name := c.mark(s) + " " + c.bold.Render(c.name(s))
		if s == v.num("seat") {
			name += " (" + c.t("match.you") + ")"
		}
		if acting {
			name = "▸" + name
		}
		out = append(out, fit(name+" "+pips+" "+c.dim.Render(c.tn("pds.score", sc, p{"target": target})), w))
		size := 0
		if s < len(sizes) {
			size = sizes[s]
		}
		line := "  " + c.tn("pds.handSize", size) + " · "
		if ch, out := lostBy[s]; out {
			line += c.bad.Render(c.t("pds.outChain", p{"chain": ch}))
		} else {
			line += c.t("pds.holdsLost")
		}
		if s == v.num("first_player") {
			line += " · " + c.t("pds.firstPlayer")
		}
		out = append(out, c.dim.Render(fit(line, w)))
	}
	return out
}

func (b *pds) hand(v obj, c *ctx, w int, big bool) []string {
	hand := v.subs("hand")
	title := c.bold.Render(c.t("pds.yourHand")) + " "
	if len(hand) == 0 {
		return []string{title + c.dim.Render(c.t("pds.emptyHand"))}
	}
	free := v.str("next_facing") == "free"
	// markOf is where a tile in the hand would point if laid now.
	markOf := func(t obj) string {
		typ := pdsType(t.str("tile"))
		switch {
		case typ == "repetition":
			return "↻"
		case free:
			return "?"
		}
		return arrow(v.num("next_facing") + arrowTurn[typ])
	}
	var items []string
	for i, t := range hand {
		item := fmt.Sprintf("[%d] %s %s", i+1, c.accent.Render(markOf(t)), b.tileName(c, t.str("tile"), t.str("character")))
		if b.pick == t.str("tile") {
			item = c.selected.Render(item)
		}
		items = append(items, item)
	}
	out := wrap(title+strings.Join(items, "   "), w)
	if big {
		// Where there is room, the tiles drawn as on the table.
		out = []string{c.bold.Render(c.t("pds.yourHand"))}
		var cols [][]string
		for i, t := range hand {
			corner := ""
			if ch := t.str("character"); ch != "" {
				corner = c.t("pds.char." + ch + ".abbr")
			}
			box := tileBox(c, c.accent.Render(markOf(t)), corner, "")[:3]
			label := fmt.Sprintf("[%d] %s", i+1, b.tileName(c, t.str("tile"), t.str("character")))
			if b.pick == t.str("tile") {
				label = c.selected.Render(label)
			}
			cols = append(cols, append(box, label))
		}
		colW := min(w/len(cols), 40)
		for r := range 4 {
			var line string
			for _, col := range cols {
				cell := fit(col[r], colW-2)
				line += cell + strings.Repeat(" ", max(colW-lipWidth(cell), 1))
			}
			out = append(out, strings.TrimRight(line, " "))
		}
	}
	switch {
	case b.pick != "":
		out = append(out, c.mine.Render(fit(c.t("pds.chooseFacing")+" ↑ → ↓ ← · Esc "+c.t("word.cancel"), w)))
	case free && c.myTurn:
		out = append(out, c.dim.Render(fit(c.t("pds.freeHelp"), w)))
	}
	armed := fmt.Sprintf("%d:%d", v.num("stack_tiles"), v.num("round"))
	if b.armLost == armed && c.myTurn {
		out = append(out, c.refusal.Render(fit("[L] "+c.t("pds.lostConfirm"), w)))
	}
	return out
}

// revealPanel lays out the revealed path on a grid, one cell per tile: the
// start, each step's arrow, the tile where the group got lost and the wall
// it ran into.
func (b *pds) revealPanel(r obj, c *ctx, w, h int) string {
	steps := r.subs("steps")
	type cell struct{ x, y int }
	marks := map[cell]string{{0, 0}: c.accent.Render("S")}
	minX, maxX, minY, maxY := 0, 0, 0, 0
	grow := func(x, y int) {
		minX, maxX, minY, maxY = min(minX, x), max(maxX, x), min(minY, y), max(maxY, y)
	}
	lostAt := r.num("lost_at")
	for _, st := range steps {
		x, y := st.num("x"), st.num("y")
		grow(x, y)
		g := arrow(heading[st.str("heading")])
		switch {
		case st.boolean("pass"):
			g = c.dim.Render(g)
		case lostAt != 0 && st.num("index") == lostAt:
			g = c.refusal.Render("✖")
		}
		marks[cell{x, y}] = g
	}
	if r.has("blocked") {
		bl := r.sub("blocked")
		grow(bl.num("x"), bl.num("y"))
		marks[cell{bl.num("x"), bl.num("y")}] = c.refusal.Render("#")
	}
	var grid []string
	cols := maxX - minX + 1
	if cols*2+1 <= w {
		grid = append(grid, "┌"+strings.Repeat("──", cols)+"─┐")
		for y := maxY; y >= minY; y-- {
			row := "│"
			for x := minX; x <= maxX; x++ {
				m, ok := marks[cell{x, y}]
				if !ok {
					m = c.dim.Render("·")
				}
				row += " " + m
			}
			grid = append(grid, row+" │")
		}
		grid = append(grid, "└"+strings.Repeat("──", cols)+"─┘")
	}
	var scorers []string
	for seat, pts := range r.nums("points") {
		if pts > 0 {
			scorers = append(scorers, fmt.Sprintf("%s +%d", c.name(seat), pts))
		}
	}
	var lines []string
	lines = append(lines, c.bold.Render(c.t("pds.revealTitle", p{"round": r.num("round")}))+" "+c.dim.Render(c.t("pds.endedBy."+r.str("ended_by"))))
	var text []string
	text = append(text, b.verdict(c, r))
	if len(scorers) > 0 {
		text = append(text, c.t("pds.scored", p{"list": c.list(scorers)}))
	} else {
		text = append(text, c.t("pds.nobodyScored"))
	}
	// The stack, bottom to top: each tile with its player's name, or with
	// their shape alone when it takes several columns to show.
	stackOf := func(room int) []string {
		items := r.subs("stack")
		short := len(items) > room
		var out []string
		for i, it := range items {
			who := c.name(it.num("seat"))
			if short {
				who = c.mark(it.num("seat"))
			}
			if it.str("kind") == "lost" {
				if short {
					out = append(out, fmt.Sprintf("%d ", i+1)+who+" "+c.bad.Render(c.t("pds.lostWord")+" "+c.t("pds.judge."+it.str("status"))))
				} else {
					out = append(out, fmt.Sprintf("%d. ", i+1)+c.bad.Render(c.t("pds.revealLost", p{"name": who, "chain": it.num("chain"), "status": c.t("pds.judge." + it.str("status"))})))
				}
				continue
			}
			tile := b.tileName(c, it.str("tile"), pdsCharacters[it.str("tile")])
			if short {
				out = append(out, fmt.Sprintf("%d %s %s", i+1, who, tile))
				continue
			}
			s := fmt.Sprintf("%d. %s — %s", i+1, tile, who)
			if it.boolean("face_down") {
				s += " (" + c.t("pds.wasFaceDown") + ")"
			}
			out = append(out, s)
		}
		return out
	}
	side := w - (cols*2 + 4)
	if len(grid) > 0 && side >= 30 {
		right := append(wrap(strings.Join(text, " "), side), c.dim.Render(c.t("pds.revealStack")))
		room := max(h-1-len(right), len(grid)-len(right), 1)
		right = append(right, columns(stackOf(room), side, room)...)
		lines = append(lines, joinColumns(grid, cols*2+3, right, side, max(len(grid), len(right)))...)
	} else {
		lines = append(lines, grid...)
		lines = append(lines, wrap(strings.Join(text, " "), w)...)
		room := max(h-len(lines), 1)
		lines = append(lines, columns(stackOf(room), w, room)...)
	}
	return strings.Join(lines, "\n")
}

var _ = json.Marshal
