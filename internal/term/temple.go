package term

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
)

// temple is the board of Escape: The Curse of the Temple
// (web/games/temple.js): the countdown running live, the gems and the
// escape's cost, this adventurer's dice (keys 1–7 pick the dice to reroll,
// R rolls them, or all the free ones, as on the web page), the chambers
// discovered drawn as a map around this adventurer, and every adventurer.
// Everything else is played from the list (enter, discover, pool,
// escape…), which the game keeps short.
type temple struct {
	sel map[int]bool // the dice picked to reroll, by id
}

// tpLetter is a die face in one letter of the language ("K" key, "C" clé),
// as the map's legend explains.
func tpLetter(c *ctx, face string) string {
	if face == "none" || face == "" {
		return "·"
	}
	return c.t("term.temple.letter." + face)
}

var gemChamber = regexp.MustCompile(`^gem_.*`)
var idNumber = regexp.MustCompile(`_(\d+)$`)

func tpChamberName(c *ctx, id string) string {
	if id == "" {
		return ""
	}
	kind := gemChamber.ReplaceAllString(tileNum.ReplaceAllString(id, ""), "gem")
	s := c.t("temple.kind." + kind)
	if n, ok := tpChamberNo(id); ok {
		s += " " + strconv.Itoa(n)
	}
	return s
}

// tpChamberNo is a chamber's number, its tile's without the zero that pads
// it ("basic_04" is Chamber 4).
func tpChamberNo(id string) (int, bool) {
	m := idNumber.FindStringSubmatch(id)
	if m == nil {
		return 0, false
	}
	n, err := strconv.Atoi(m[1])
	return n, err == nil
}

// tpTheChamber names a chamber in a sentence, with its article ("la salle
// 4", "the exit"), as the web page's theChamber does.
func tpTheChamber(c *ctx, id string) string {
	if id == "" {
		return ""
	}
	ps := p{}
	if n, ok := tpChamberNo(id); ok {
		ps["n"] = n
	}
	return c.t("temple.the."+tileNum.ReplaceAllString(id, ""), ps)
}

func tpCurse(c *ctx, id string) string {
	return c.t("temple.curse." + tileNum.ReplaceAllString(id, ""))
}
func tpTreasure(c *ctx, id string) string {
	return c.t("temple.treasure." + tileNum.ReplaceAllString(id, ""))
}

func (b *temple) describe(ev obj, c *ctx) (string, bool) {
	n := func(k string) phrase { return c.who(ev.num(k)) }
	switch ev.typ() {
	case "rolled", "committed", "withdrawn", "retargeted":
		return "", true
	case "die_lost":
		return c.t("temple.ev.die_lost", p{"seat": n("seat")}), false
	case "unlocked":
		return c.t("temple.ev.unlocked", p{"seat": n("seat")}), false
	case "entered":
		return c.t("temple.ev.entered", p{"seat": n("seat"), "to": tpTheChamber(c, ev.str("to"))}), false
	case "discovered":
		return c.t("temple.ev.discovered", p{"seat": n("seat"), "tile": tpTheChamber(c, ev.str("tile"))}), false
	case "curse_drawn":
		return c.t("temple.ev.curse_drawn", p{"seat": n("seat"), "curse": tpCurse(c, ev.str("card"))}), false
	case "curse_lifted":
		return c.t("temple.ev.curse_lifted", p{"seat": n("seat"), "curse": tpCurse(c, ev.str("card"))}), false
	case "treasure_claimed":
		return c.t("temple.ev.treasure_claimed", p{"seat": n("seat"), "treasure": tpTreasure(c, ev.str("treasure"))}), false
	case "treasure_used":
		return c.t("temple.ev.treasure_used", p{"seat": n("seat"), "treasure": tpTreasure(c, ev.str("treasure"))}), false
	case "activated":
		return c.tn("temple.ev.activated", ev.num("gems"), p{"chamber": tpTheChamber(c, ev.str("chamber"))}), false
	case "fate_provoked":
		return c.t("temple.ev.fate_provoked", p{"seat": n("seat")}), false
	case "escaped":
		return c.t("temple.ev.escaped", p{"seat": n("seat")}), false
	case "die_given":
		return c.t("temple.ev.die_given", p{"from": n("from"), "to": n("to")}), false
	case "gong":
		return c.t("temple.gongNow", p{"n": ev.num("n")}), false
	case "door_slam":
		s := c.t("temple.slamNow")
		if l := ev.subs("losses"); len(l) > 0 {
			var names []phrase
			for _, x := range l {
				names = append(names, c.who(x.num("seat")))
			}
			s += " " + c.tn("temple.ev.losses", len(names), p{"names": c.people(names)})
		}
		return s, false
	case "sand_out":
		return c.t("temple.slamNow"), false
	case "sand_turned":
		return c.t("temple.ev.sand_turned", p{"n": ev.num("run")}), false
	case "collapse":
		return c.t("temple.collapseNow"), false
	case "signal":
		return c.t("temple.ev.signal", p{"seat": n("seat"), "what": c.t("temple.signal." + ev.str("kind"))}), false
	case "game_over":
		if ev.boolean("won") {
			return c.t("temple.won"), false
		}
		return c.t("temple.lost." + ev.str("reason")), false
	}
	return "", false
}

func (b *temple) label(a obj, c *ctx) string {
	switch a.typ() {
	case "roll":
		// A roll is named by the dice it keeps, so that two rolls of as
		// many dice never read alike.
		base := c.tn("temple.rollSome", len(a.nums("dice")))
		rolled := map[int]bool{}
		for _, d := range a.nums("dice") {
			rolled[d] = true
		}
		// The faces kept, counted: "keeping 2 torches and 1 key".
		var faces []string
		count := map[string]int{}
		for _, d := range b.myDice(newObj(c.view)) {
			if tpRollable(d) && !rolled[d.num("id")] {
				if count[d.str("face")] == 0 {
					faces = append(faces, d.str("face"))
				}
				count[d.str("face")]++
			}
		}
		if len(faces) > 0 {
			kept := make([]string, len(faces))
			for i, f := range faces {
				kept[i] = c.tn("temple.faces."+f, count[f])
			}
			return base + ", " + c.t("temple.keeping", p{"faces": c.list(kept)})
		}
		return base
	case "unlock":
		return tpUnlockLabel(a, c)
	case "enter":
		return c.t("temple.enter", p{"to": tpTheChamber(c, a.str("to"))})
	case "discover":
		return c.t("temple.discover", p{"side": c.t("temple.toSide." + a.str("side"))})
	case "commit":
		tier := "—"
		if a.num("tier") != 0 {
			tier = fmt.Sprint(a.num("tier"))
		}
		return c.tn("temple.commit", len(a.nums("dice")), p{"tier": tier})
	case "retarget":
		return c.t("temple.retarget", p{"tier": a.num("tier")})
	case "withdraw":
		return c.tn("temple.withdraw", len(a.nums("dice")))
	case "escape":
		return c.t("temple.escape")
	case "give_die":
		return c.t("temple.giveDie", p{"name": c.name(a.num("to"))})
	case "provoke_fate":
		return c.t("temple.provokeFate", p{"chamber": tpTheChamber(c, a.str("chamber"))})
	case "claim_treasure":
		return c.t("temple.claimTreasure")
	case "use_treasure":
		return c.t("temple.useTreasure", p{"treasure": tpTreasure(c, a.str("treasure"))})
	case "lift_curse":
		return c.t("temple.liftCurse", p{"curse": tpCurse(c, a.str("card"))})
	case "signal":
		return c.t("temple.signal." + a.str("kind"))
	}
	return ""
}

func (b *temple) status(c *ctx) string {
	v := newObj(c.view)
	if len(v.m) == 0 || v.boolean("over") {
		return ""
	}
	return c.t("temple.statusLine")
}

func (b *temple) listed(obj, *ctx) bool { return true }

// tpRollable says whether a die may be rolled (kept or to roll).
func tpRollable(d obj) bool { return d.str("status") == "live" || d.str("status") == "spent" }

// myDice are this adventurer's dice, in the order the keys 1–7 name them.
func (b *temple) myDice(v obj) []obj {
	if !v.has("you") {
		return nil
	}
	var out []obj
	for _, d := range v.subs("dice") {
		if d.num("owner") == v.num("you") {
			out = append(out, d)
		}
	}
	return out
}

// chosen are the dice R rolls: those picked, else every free one.
func (b *temple) chosen(v obj) []int {
	var picked, free []int
	for _, d := range b.myDice(v) {
		if !tpRollable(d) {
			delete(b.sel, d.num("id"))
			continue
		}
		free = append(free, d.num("id"))
		if b.sel[d.num("id")] {
			picked = append(picked, d.num("id"))
		}
	}
	if len(picked) > 0 {
		return picked
	}
	return free
}

func (b *temple) keysHelp(c *ctx) string {
	if !c.myTurn {
		return ""
	}
	return c.t("term.temple.keys")
}

// ownsDigits: on this seat's turn the digits pick its dice.
func (b *temple) ownsDigits(c *ctx) bool { return c.myTurn }

func (b *temple) key(k tea.KeyMsg, c *ctx) (bool, tea.Cmd) {
	v := newObj(c.view)
	if !c.myTurn || len(v.m) == 0 {
		return false, nil
	}
	key := strings.ToLower(k.String())
	switch {
	case len(key) == 1 && key[0] >= '1' && key[0] <= '7':
		dice := b.myDice(v)
		i := int(key[0] - '1')
		if i >= len(dice) || !tpRollable(dice[i]) {
			return true, nil
		}
		id := dice[i].num("id")
		if b.sel[id] {
			delete(b.sel, id)
		} else {
			b.sel[id] = true
		}
		return true, nil
	case key == "r":
		dice := b.chosen(v)
		if len(dice) == 0 || c.busy {
			return true, nil
		}
		clear(b.sel)
		ids := make([]string, len(dice))
		for i, d := range dice {
			ids[i] = fmt.Sprint(d)
		}
		return true, c.play([]byte(`{"type":"roll","dice":[` + strings.Join(ids, ",") + `]}`))
	}
	return false, nil
}

func (b *temple) render(c *ctx, w, h int) string {
	v := newObj(c.view)
	if len(v.m) == 0 {
		return ""
	}
	var out []string
	// The countdown, live: the match clock runs between messages.
	clk := v.sub("clock")
	now := max(int64(v.num("now")), c.clock)
	left := int64(clk.num("end")) - now
	big := c.bold.Render("⧗ "+fmtClock(left)) + " " + c.t("temple.collapseIn")
	if clk.num("next_slam") != 0 {
		slam := fmtClock(int64(clk.num("next_slam")) - now)
		if clk.num("countdown") > 0 {
			big += " · " + c.refusal.Render(c.t("temple.slamIn", p{"time": slam}))
		} else {
			big += " · " + c.t("temple.nextSlam", p{"time": slam})
		}
	}
	out = append(out, wrap(big, w)...)
	gems := c.tn("temple.gemsLeft", v.num("reserve"))
	if v.num("side") != 0 {
		gems += " + " + c.tn("temple.sideSupply", v.num("side"))
	}
	stats := []string{gems, c.tn("temple.escapeCost", v.num("escape_cost")), c.tn("temple.stackLeft", v.num("stack_left"))}
	if v.boolean("breach_mode") {
		stats = append(stats, c.t("temple.breach"))
	}
	out = append(out, wrap(strings.Join(stats, " · "), w)...)
	// My dice, numbered for the keys that pick them.
	dice := v.subs("dice")
	if v.has("you") {
		you := v.num("you")
		var mine []string
		for i, d := range b.myDice(v) {
			cell := tpLetter(c, d.str("face"))
			switch d.str("status") {
			case "locked":
				cell = c.bad.Render(cell)
			case "live":
				cell = c.good.Render(cell)
			case "lost", "out":
				cell = c.dim.Render(cell)
			}
			item := fmt.Sprintf("%d[%s]", i+1, cell)
			if b.sel[d.num("id")] {
				item = c.selected.Render(item)
			}
			mine = append(mine, item+" "+c.dim.Render(c.t("temple.status."+d.str("status"))))
		}
		out = append(out, wrap(c.bold.Render(c.t("temple.yourDice"))+" "+strings.Join(mine, "  "), w)...)
		for _, st := range v.subs("seats") {
			if st.num("seat") != you {
				continue
			}
			locked := 0
			for _, d := range b.myDice(v) {
				if d.str("status") == "locked" {
					locked++
				}
			}
			if c.myTurn && !st.boolean("escaped") && len(b.chosen(v)) == 0 && locked > 0 {
				out = append(out, wrap(c.warn.Render(c.t("tip.temple.allLocked")), w)...)
			} else if c.myTurn && !st.boolean("escaped") {
				roll := c.t("temple.rollAll")
				if picked := b.chosen(v); len(b.sel) > 0 {
					roll = c.tn("temple.rollSome", len(picked))
				}
				wait := c.good.Render(c.t("temple.ready"))
				if next := int64(st.num("next_roll_at")); next > c.clock {
					wait = c.dim.Render(c.t("temple.cooldown", p{"s": c.num(float64(next-c.clock)/1000, 1)}))
				}
				out = append(out, fit("[R] "+roll+" · "+wait+" · "+c.dim.Render(c.t("term.temple.pick")), w))
			}
			if cs := st.strs("curses"); len(cs) > 0 {
				var names []string
				for _, x := range cs {
					names = append(names, tpCurse(c, x))
				}
				out = append(out, wrap(c.t("temple.curses", p{"list": c.list(names)}), w)...)
			}
			if ts := st.strs("treasures"); len(ts) > 0 {
				var names []string
				for _, x := range ts {
					names = append(names, tpTreasure(c, x))
				}
				out = append(out, wrap(c.t("temple.treasures", p{"list": c.list(names)}), w)...)
			}
		}
	}
	// The adventurers, the end, and the map of the chambers in the room
	// left between them.
	var advs []string
	for _, st := range v.subs("seats") {
		s := st.num("seat")
		where := tpChamberName(c, st.str("chamber_id"))
		if st.boolean("escaped") {
			where = c.good.Render(c.t("temple.escaped"))
		}
		var faces []string
		locked := 0
		for _, d := range dice {
			if d.num("owner") != s || d.str("status") == "lost" || d.str("status") == "out" {
				continue
			}
			faces = append(faces, tpLetter(c, d.str("face")))
			if d.str("status") == "locked" {
				locked++
			}
		}
		line := c.mark(s) + " " + c.name(s) + " — " + where + " · " + c.tn("temple.dice", st.num("dice")) + c.colon() + strings.Join(faces, " ")
		if locked > 0 {
			line += " · " + c.tn("temple.locked", locked)
		}
		advs = append(advs, fit(line, w))
	}
	if v.boolean("over") {
		if v.boolean("won") {
			advs = append(advs, c.good.Render(c.t("temple.won")))
		} else {
			advs = append(advs, c.bad.Render(c.t("temple.lost."+v.str("reason"))))
		}
	}
	out = append(out, b.chamberMap(v, c, w, h-len(out)-len(advs))...)
	out = append(out, advs...)
	return strings.Join(out, "\n")
}

// tpShortName names a chamber in a map's cell: "Start", "Gem 2", "09".
func tpShortName(c *ctx, id string) string {
	kind := gemChamber.ReplaceAllString(tileNum.ReplaceAllString(id, ""), "gem")
	s := c.t("term.temple.short." + kind)
	if m := idNumber.FindStringSubmatch(id); m != nil {
		s += " " + m[1]
	}
	return s
}

// chamberMap draws the chambers discovered on their grid, around this
// adventurer's chamber (the start for a spectator) as far as the room
// allows: each chamber with the dice its entry costs, its gem field's pool
// and gems, and who stands there; corridors join the chambers that
// connect; a + marks where this adventurer may discover a chamber.
func (b *temple) chamberMap(v obj, c *ctx, w, room int) []string {
	chambers := v.subs("chambers")
	if room < 3 || len(chambers) == 0 {
		return nil
	}
	type xy struct{ x, y int }
	at := map[xy]int{}
	minX, maxX, minY, maxY := 1<<30, -1<<30, 1<<30, -1<<30
	for i, ch := range chambers {
		p := xy{ch.num("x"), ch.num("y")}
		at[p] = i
		minX, maxX, minY, maxY = min(minX, p.x), max(maxX, p.x), min(minY, p.y), max(maxY, p.y)
	}
	who := map[int][]int{}
	here := 0
	for _, st := range v.subs("seats") {
		if st.boolean("escaped") {
			continue
		}
		who[st.num("chamber")] = append(who[st.num("chamber")], st.num("seat"))
		if v.has("you") && st.num("seat") == v.num("you") {
			here = st.num("chamber")
		}
	}
	// Where this adventurer may discover a chamber.
	sides := map[xy]string{}
	if c.myTurn {
		for _, a := range c.find("discover") {
			h := chambers[here]
			d := map[string]xy{"N": {0, -1}, "E": {1, 0}, "S": {0, 1}, "W": {-1, 0}}[a.str("side")]
			sides[xy{h.num("x") + d.x, h.num("y") + d.y}] = a.str("side")
		}
	}
	linked := func(i int, p xy) bool {
		j, ok := at[p]
		if !ok {
			return false
		}
		for _, l := range chambers[i].nums("links") {
			if l == j {
				return true
			}
		}
		return false
	}
	// Chambers drawn as boxes where there is room, else two lines or one
	// in brackets.
	framed, two := room >= 16, room >= 10
	cellW, gap := 17, 3
	pitchH := 2
	switch {
	case framed:
		cellW, pitchH = 15, 5
	case two:
		cellW, pitchH = 15, 3
	}
	cols := max((w+gap)/(cellW+2+gap), 1)
	rows := max((room-1+1)/pitchH, 1)
	for p := range sides {
		minX, maxX, minY, maxY = min(minX, p.x), max(maxX, p.x), min(minY, p.y), max(maxY, p.y)
	}
	// The window: the whole map if it fits, else as much around here.
	hx, hy := chambers[here].num("x"), chambers[here].num("y")
	win := func(lo, hi, at, n int) int {
		if hi-lo+1 <= n {
			return lo
		}
		return min(max(at-n/2, lo), hi-n+1)
	}
	x0, y0 := win(minX, maxX, hx, cols), win(minY, maxY, hy, rows)
	cols, rows = min(cols, maxX-x0+1), min(rows, maxY-y0+1)
	cellText := func(i int) (string, string) {
		ch := chambers[i]
		name := tpShortName(c, ch.str("id"))
		if i == here && v.has("you") {
			name = c.mine.Render(name)
		}
		var cost []string
		for _, f := range ch.strs("cost") {
			if l := tpLetter(c, f); l != "·" {
				cost = append(cost, l)
			}
		}
		first := name
		if len(cost) > 0 {
			first += " " + c.dim.Render(strings.Join(cost, ""))
		}
		var more []string
		if ch.has("tiers") {
			more = append(more, fmt.Sprintf("Σ%d", ch.num("pool_value")))
		}
		if ch.num("gems") > 0 {
			more = append(more, c.accent.Render(fmt.Sprintf("◆%d", ch.num("gems"))))
		}
		if ch.num("activated") > 0 {
			more = append(more, c.good.Render("✔"))
		}
		var marks []string
		for _, q := range who[i] {
			marks = append(marks, c.mark(q))
		}
		second := strings.Join(more, " ")
		if len(marks) > 0 {
			second = strings.TrimSpace(second + " " + strings.Join(marks, ""))
		}
		return first, second
	}
	var out []string
	title := c.bold.Render(c.t("temple.map")) + " " + c.dim.Render(c.t("term.temple.legend"))
	out = append(out, fit(title, w))
	box := func(s string, mine bool) string {
		s = fit(s, cellW)
		s += strings.Repeat(" ", cellW-lipWidth(s))
		if mine {
			return c.mine.Render("[") + s + c.mine.Render("]")
		}
		return "[" + s + "]"
	}
	blank := strings.Repeat(" ", cellW+2)
	edge := func(l, mid, r string, joint bool, st func(...string) string) string {
		line := strings.Repeat("─", cellW/2)
		if joint {
			line += mid
		} else {
			line += "─"
		}
		line += strings.Repeat("─", cellW-cellW/2-1)
		return st(l + line + r)
	}
	plainStyle := func(s ...string) string { return strings.Join(s, "") }
	for gy := y0; gy < y0+rows; gy++ {
		n := 2 // the chamber's line(s), then the corridors down
		switch {
		case framed:
			n = 5
		case two:
			n = 3
		}
		lines := make([]strings.Builder, n)
		for gx := x0; gx < x0+cols; gx++ {
			p := xy{gx, gy}
			i, ok := at[p]
			cells := make([]string, n)
			for k := range cells {
				cells[k] = blank
			}
			right := "   "
			switch {
			case ok:
				a, bb := cellText(i)
				mine := i == here && v.has("you")
				down := linked(i, xy{gx, gy + 1})
				if linked(i, xy{gx + 1, gy}) {
					right = "───"
				}
				switch {
				case framed:
					st := plainStyle
					if mine {
						st = c.mine.Render
					}
					pad := func(s string) string {
						s = fit(s, cellW)
						return st("│") + s + strings.Repeat(" ", cellW-lipWidth(s)) + st("│")
					}
					cells[0] = edge("┌", "┴", "┐", linked(i, xy{gx, gy - 1}), st)
					cells[1], cells[2] = pad(a), pad(bb)
					cells[3] = edge("└", "┬", "┘", down, st)
				case two:
					cells[0], cells[1] = box(a, mine), box(bb, mine)
				default:
					cells[0] = box(strings.TrimSpace(a+" "+bb), mine)
				}
				if down {
					cells[n-1] = center("│", cellW+2, " ")
				}
			case sides[p] != "":
				row := 0
				if framed {
					row = 1
				}
				cells[row] = c.dim.Render(center("+ "+c.t("temple.side."+sides[p]), cellW+2, " "))
			}
			for k := range cells {
				lines[k].WriteString(cells[k])
				if gx < x0+cols-1 {
					if k == 0 && !framed || k == 1 && framed {
						lines[k].WriteString(right)
					} else {
						lines[k].WriteString(strings.Repeat(" ", gap))
					}
				}
			}
		}
		for k := range lines {
			if k == n-1 && gy == y0+rows-1 {
				break
			}
			out = append(out, strings.TrimRight(lines[k].String(), " "))
		}
	}
	// No empty rows at the end of the map.
	for len(out) > 1 && strings.TrimSpace(ansiStrip(out[len(out)-1])) == "" {
		out = out[:len(out)-1]
	}
	return out
}

// tpUnlockLabel names the dice a gold mask frees by their places in their
// owners' trays, as the web page does, so that two unlocks never read alike.
func tpUnlockLabel(a obj, c *ctx) string {
	v := newObj(c.view)
	all := v.subs("dice")
	var dice []string
	for _, id := range a.nums("targets") {
		name := c.t("temple.dieOf.you", p{"n": id})
		for _, d := range all {
			if d.num("id") != id {
				continue
			}
			owner, n := d.num("owner"), 0
			for _, x := range all {
				if x.num("owner") == owner {
					n++
				}
				if x.num("id") == id {
					break
				}
			}
			if v.has("you") && owner == v.num("you") {
				name = c.t("temple.dieOf.you", p{"n": n})
			} else {
				name = c.t("temple.dieOf.other", p{"n": n, "name": c.name(owner)})
			}
		}
		dice = append(dice, name)
	}
	return c.t("temple.unlock.dice", p{"dice": c.list(dice)})
}
