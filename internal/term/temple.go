package term

import (
	"fmt"
	"regexp"
	"strings"

	tea "github.com/charmbracelet/bubbletea"
)

// temple is the board of Escape: The Curse of the Temple
// (web/games/temple.js): the countdown running live, the gems and the
// escape's cost, this adventurer's dice, the chambers discovered with who
// stands where, and every adventurer. Everything is played from the list
// (roll, enter, discover, pool, escape…), which the game keeps short.
type temple struct{}

var faceLetter = map[string]string{"none": "·", "adventurer": "A", "key": "K", "torch": "T", "gold_mask": "G", "black_mask": "B"}
var gemChamber = regexp.MustCompile(`^gem_.*`)
var idNumber = regexp.MustCompile(`_(\d+)$`)

func tpChamberName(c *ctx, id string) string {
	if id == "" {
		return ""
	}
	kind := gemChamber.ReplaceAllString(tileNum.ReplaceAllString(id, ""), "gem")
	s := c.t("temple.kind." + kind)
	if m := idNumber.FindStringSubmatch(id); m != nil {
		s += " " + m[1]
	}
	return s
}

func tpCurse(c *ctx, id string) string {
	return c.t("temple.curse." + tileNum.ReplaceAllString(id, ""))
}
func tpTreasure(c *ctx, id string) string {
	return c.t("temple.treasure." + tileNum.ReplaceAllString(id, ""))
}

func (temple) describe(ev obj, c *ctx) (string, bool) {
	n := func(k string) string { return c.name(ev.num(k)) }
	switch ev.typ() {
	case "rolled", "committed", "withdrawn", "retargeted":
		return "", true
	case "die_lost":
		return c.t("temple.ev.die_lost", p{"seat": n("seat")}), false
	case "unlocked":
		return c.t("temple.ev.unlocked", p{"seat": n("seat")}), false
	case "entered":
		return c.t("temple.ev.entered", p{"seat": n("seat"), "to": tpChamberName(c, ev.str("to"))}), false
	case "discovered":
		return c.t("temple.ev.discovered", p{"seat": n("seat"), "tile": tpChamberName(c, ev.str("tile"))}), false
	case "curse_drawn":
		return c.t("temple.ev.curse_drawn", p{"seat": n("seat"), "curse": tpCurse(c, ev.str("card"))}), false
	case "curse_lifted":
		return c.t("temple.ev.curse_lifted", p{"seat": n("seat"), "curse": tpCurse(c, ev.str("card"))}), false
	case "treasure_claimed":
		return c.t("temple.ev.treasure_claimed", p{"seat": n("seat"), "treasure": tpTreasure(c, ev.str("treasure"))}), false
	case "treasure_used":
		return c.t("temple.ev.treasure_used", p{"seat": n("seat"), "treasure": tpTreasure(c, ev.str("treasure"))}), false
	case "activated":
		return c.tn("temple.ev.activated", ev.num("gems"), p{"chamber": tpChamberName(c, ev.str("chamber"))}), false
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
			var names []string
			for _, x := range l {
				names = append(names, c.name(x.num("seat")))
			}
			s += " " + c.t("temple.ev.losses", p{"names": c.list(names)})
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

func (temple) label(a obj, c *ctx) string {
	switch a.typ() {
	case "roll":
		return c.tn("temple.rollSome", len(a.nums("dice")))
	case "unlock":
		return tpUnlockLabel(a, c)
	case "enter":
		return c.t("temple.enter", p{"to": tpChamberName(c, a.str("to"))})
	case "discover":
		return c.t("temple.discover", p{"side": c.t("temple.side." + a.str("side"))})
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
		return c.t("temple.provokeFate", p{"chamber": tpChamberName(c, a.str("chamber"))})
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

func (temple) status(c *ctx) string {
	v := newObj(c.view)
	if len(v.m) == 0 || v.boolean("over") {
		return ""
	}
	return c.t("temple.statusLine")
}

func (temple) listed(obj, *ctx) bool                { return true }
func (temple) key(tea.KeyMsg, *ctx) (bool, tea.Cmd) { return false, nil }

func (temple) render(c *ctx, w, h int) string {
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
	// My dice.
	dice := v.subs("dice")
	if v.has("you") {
		you := v.num("you")
		var mine []string
		for _, d := range dice {
			if d.num("owner") != you {
				continue
			}
			f := faceLetter[d.str("face")]
			st := d.str("status")
			cell := "[" + f + "]"
			switch st {
			case "locked":
				cell = c.bad.Render(cell)
			case "live":
				cell = c.good.Render(cell)
			case "lost", "out":
				cell = c.dim.Render(cell)
			}
			mine = append(mine, cell+" "+c.dim.Render(c.t("temple.status."+st)))
		}
		out = append(out, wrap(c.bold.Render(c.t("temple.yourDice"))+" "+strings.Join(mine, "  "), w)...)
		for _, st := range v.subs("seats") {
			if st.num("seat") != you {
				continue
			}
			if next := int64(st.num("next_roll_at")); next > c.clock {
				out = append(out, c.dim.Render(c.t("temple.cooldown", p{"s": toFixed1(float64(next-c.clock) / 1000)})))
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
	// The chambers, with who stands where.
	chambers := v.subs("chambers")
	at := map[int][]int{}
	for _, st := range v.subs("seats") {
		at[st.num("chamber")] = append(at[st.num("chamber")], st.num("seat"))
	}
	out = append(out, b(c, c.t("temple.map")))
	out = append(out, b2(c, chambers, at, w)...)
	// The adventurers.
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
			faces = append(faces, faceLetter[d.str("face")])
			if d.str("status") == "locked" {
				locked++
			}
		}
		line := c.mark(s) + " " + c.name(s) + " — " + where + " · " + c.tn("temple.dice", st.num("dice")) + ": " + strings.Join(faces, " ")
		if locked > 0 {
			line += " · " + c.tn("temple.locked", locked)
		}
		out = append(out, fit(line, w))
	}
	if v.boolean("over") {
		if v.boolean("won") {
			out = append(out, c.good.Render(c.t("temple.won")))
		} else {
			out = append(out, c.bad.Render(c.t("temple.lost."+v.str("reason"))))
		}
	}
	return strings.Join(out, "\n")
}

func b(c *ctx, s string) string { return c.bold.Render(s) }

// b2 lists the chambers one per cell: name, its cost in die letters, a
// gem field's pool and who stands there.
func b2(c *ctx, chambers []obj, at map[int][]int, w int) []string {
	var cells []string
	for i, ch := range chambers {
		var cost []string
		for _, f := range ch.strs("cost") {
			if l := faceLetter[f]; l != "·" {
				cost = append(cost, l)
			}
		}
		s := tpChamberName(c, ch.str("id"))
		if len(cost) > 0 {
			s += " " + c.dim.Render(strings.Join(cost, "+"))
		}
		if ch.num("gems") > 0 {
			s += " ◆×" + fmt.Sprint(ch.num("gems"))
		}
		if ch.num("activated") > 0 {
			s += " ✔"
		}
		for _, q := range at[i] {
			s += " " + c.mark(q)
		}
		cells = append(cells, "["+s+"]")
	}
	return wrap(strings.Join(cells, " "), w)
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
