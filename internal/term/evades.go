package term

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"strings"
	"sync"

	tea "github.com/charmbracelet/bubbletea"

	"sortie/web"
)

// evades is the board of Les Évadés (web/games/evades.js): the turn and
// its direction, the prisoners and where they stand, the face-up Combines
// row, one's hand and escape plan, the piles. Actions come from the list,
// or, when they are too many to list, are typed in the game's short form.
type evades struct{}

var evCards = []string{"spoon", "soap", "paperclip", "cigarettes", "file", "screwdriver", "rope", "wire_cutters", "crowbar", "uniform", "keypad", "joker"}
var evPlans = map[string][2]string{
	"plan_roof": {"exit_roof", "money parachute"}, "plan_pier": {"exit_pier", "money diving_gear"},
	"plan_sewer": {"exit_sewer", "phone gas_mask"}, "plan_parking": {"exit_parking", "phone car_keys"},
}

// evLayout is the prison's public drawing data, the file the web page
// reads (web/games/evades.layout.json): area names and door ends.
var evLayout = sync.OnceValue(func() (l struct {
	Areas []struct {
		Area, En, Fr string
	} `json:"areas"`
	Doors []struct{ Door, A, B string } `json:"doors"`
}) {
	b, err := fs.ReadFile(web.Files(), "games/evades.layout.json")
	if err == nil {
		_ = json.Unmarshal(b, &l)
	}
	return l
})

func evArea(c *ctx, a string) string {
	if a == "none" {
		return c.t("evades.noVent")
	}
	for _, x := range evLayout().Areas {
		if x.Area == a {
			if c.lang == "fr" {
				return x.Fr
			}
			return x.En
		}
	}
	return a
}

func evCardsText(c *ctx, cs []string) string {
	n := map[string]int{}
	for _, x := range cs {
		n[x]++
	}
	var out []string
	for _, k := range evCards {
		if n[k] > 1 {
			out = append(out, fmt.Sprintf("%d × %s", n[k], c.t("evades.card."+k)))
		} else if n[k] == 1 {
			out = append(out, c.t("evades.card."+k))
		}
	}
	return strings.Join(out, ", ")
}

func evObj(c *ctx, o string) string { return c.t("evades.obj." + tileNum.ReplaceAllString(o, "")) }
func evDoor(c *ctx, d string) string {
	var n int
	if len(d) > 1 {
		fmt.Sscan(d[1:], &n)
	}
	return c.t("evades.door", p{"n": n})
}

func (evades) describe(ev obj, c *ctx) (string, bool) {
	n := func(k string) string { return c.name(ev.num(k)) }
	switch ev.typ() {
	case "turn_began":
		return c.t("evades.ev.turn_began", p{"seat": n("seat"), "turn": ev.num("turn")}), false
	case "turn_skipped":
		return c.t("evades.ev.turn_skipped", p{"seat": n("seat")}), false
	case "turn_ended", "row_refilled":
		return "", true
	case "direction_changed":
		if ev.num("direction") > 0 {
			return c.t("evades.ev.dir_cw"), false
		}
		return c.t("evades.ev.dir_ccw"), false
	case "cards_discarded":
		return c.t("evades.ev.cards_discarded", p{"seat": n("seat"), "cards": evCardsText(c, ev.strs("cards"))}), false
	case "took_face_up":
		return c.t("evades.ev.took_face_up", p{"seat": n("seat"), "cards": evCardsText(c, ev.strs("cards"))}), false
	case "drew_blind":
		if ev.has("cards") {
			return c.t("evades.ev.drew_blind_you", p{"cards": evCardsText(c, ev.strs("cards"))}), false
		}
		return c.tn("evades.ev.drew_blind", ev.num("count"), p{"seat": n("seat")}), false
	case "row_wiped":
		return c.t("evades.ev.row_wiped", p{"cards": evCardsText(c, ev.strs("cards"))}), false
	case "combines_reshuffled":
		return c.t("evades.ev.combines_reshuffled"), false
	case "pass_pass_reshuffled":
		return c.t("evades.ev.pass_pass_reshuffled"), false
	case "pass_pass_drawn":
		return c.t("evades.ppDrawn", p{"name": n("seat"), "card": c.t("evades.pp." + ev.str("card"))}) + " " + c.t("evades.ppEffect."+ev.str("card")), false
	case "pass_pass_no_effect":
		return c.t("evades.ev.pass_pass_no_effect", p{"card": c.t("evades.pp." + ev.str("card"))}), false
	case "target_chosen":
		return c.t("evades.ev.target_chosen", p{"seat": n("seat"), "target": n("target"), "card": c.t("evades.pp." + ev.str("card"))}), false
	case "door_crossed":
		pay := evCardsText(c, ev.strs("pay"))
		if ev.str("credit") != "" {
			pay = c.t("evades.useCredit." + ev.str("credit"))
		}
		return c.t("evades.ev.door_crossed", p{"seat": n("seat"), "from": evArea(c, ev.str("from")), "to": evArea(c, ev.str("to")), "pay": pay, "face": c.t("evades.card." + ev.str("face"))}), false
	case "warning_pile_changed":
		return c.t("evades.ev.warning_pile_changed", p{"colour": c.t("evades.colour." + ev.str("colour"))}), false
	case "warning_drawn":
		return c.t("evades.warningDrawn", p{"name": n("seat"), "token": c.t("evades.tok." + ev.str("token")), "colour": c.t("evades.colour." + ev.str("colour"))}) + " " + c.t("evades.tokEffect."+ev.str("token")), false
	case "pawn_moved":
		return c.t("evades.ev.pawn_moved", p{"seat": n("seat"), "from": evArea(c, ev.str("from")), "to": evArea(c, ev.str("to")), "cause": c.t("evades.cause." + ev.str("cause"))}), false
	case "door_flipped":
		return c.t("evades.ev.door_flipped", p{"door": evDoor(c, ev.str("door")), "face": c.t("evades.card." + ev.str("face")), "cause": c.t("evades.cause." + ev.str("cause"))}), false
	case "credit_gained":
		return c.t("evades.ev.credit_gained."+ev.str("credit"), p{"seat": n("seat")}), false
	case "reverse_at_end":
		if ev.boolean("reverse") {
			return c.t("evades.ev.reverse_on"), false
		}
		return c.t("evades.ev.reverse_off"), false
	case "skip_owed":
		return c.t("evades.ev.skip_owed", p{"seat": n("seat"), "cause": c.t("evades.cause." + ev.str("cause"))}), false
	case "extra_turn_owed":
		return c.t("evades.ev.extra_turn_owed", p{"seat": n("seat")}), false
	case "cards_moved":
		if ev.has("cards") {
			return c.t("evades.ev.cards_moved_seen", p{"from": n("from"), "to": n("to"), "cards": evCardsText(c, ev.strs("cards"))}), false
		}
		return c.tn("evades.ev.cards_moved", ev.num("count"), p{"from": n("from"), "to": n("to")}), false
	case "object_taken":
		return c.t("evades.ev.object_taken", p{"seat": n("seat"), "object": evObj(c, ev.str("token")), "room": evArea(c, ev.str("room"))}), false
	case "game_ended":
		if ev.num("winner") >= 0 {
			return c.t("evades.ev.escaped", p{"seat": n("winner"), "exit": evArea(c, ev.str("exit"))}), false
		}
		return c.t("evades.ev.turn_limit"), false
	}
	return "", false
}

func (evades) label(a obj, c *ctx) string {
	switch a.typ() {
	case "take_face_up":
		s := a.nums("slots")
		if len(s) == 2 {
			return c.t("evades.takeFace", p{"cards": c.t("evades.slots", p{"a": s[0] + 1, "b": s[1] + 1})})
		}
	case "take_blind":
		return c.t("evades.takeBlind")
	case "draw_pass_pass":
		return c.t("evades.drawPP")
	case "cross_door":
		da, db := "", ""
		for _, d := range evLayout().Doors {
			if d.Door == a.str("door") {
				da, db = evArea(c, d.A), evArea(c, d.B)
			}
		}
		pay := c.t("evades.pay", p{"cards": evCardsText(c, a.strs("pay"))})
		if a.str("credit") != "" {
			pay = c.t("evades.useCredit." + a.str("credit"))
		}
		return c.t("evades.crossLabel", p{"door": evDoor(c, a.str("door")), "a": da, "b": db, "pay": pay})
	case "take_object":
		return c.t("evades.takeObject", p{"object": evObj(c, a.str("token"))})
	case "end_turn":
		return c.t("evades.endTurn")
	case "choose_vent":
		if a.str("area") == "none" {
			return c.t("evades.noVent")
		}
		return c.t("evades.ventTo", p{"area": evArea(c, a.str("area"))})
	case "choose_codetainee":
		if a.str("source") == "face_up" {
			return c.t("evades.codetSlot", p{"slot": a.num("slot") + 1})
		}
		return c.t("evades.codet." + a.str("source"))
	case "choose_target":
		return c.t("evades.targetLabel", p{"name": c.name(a.num("seat"))})
	case "choose_doors":
		var ds []string
		for _, d := range a.strs("doors") {
			ds = append(ds, evDoor(c, d))
		}
		if len(ds) > 0 {
			return c.t("evades.flipDoors", p{"doors": c.list(ds)})
		}
		return c.t("evades.flipNone")
	case "give_cards":
		return c.t("evades.confirm.give_cards") + ": " + evCardsText(c, a.strs("cards"))
	case "discard":
		return c.t("evades.confirm.discard") + ": " + evCardsText(c, a.strs("cards"))
	case "answer_blackmail":
		if a.boolean("skip") {
			return c.t("evades.blackmailSkip")
		}
		return c.t("evades.confirm.answer_blackmail") + ": " + evCardsText(c, a.strs("give"))
	}
	return ""
}

func (evades) status(c *ctx) string {
	v := newObj(c.view)
	if len(v.m) == 0 || v.str("phase") == "over" {
		return ""
	}
	if v.has("pending") && v.sub("pending").num("seat") == c.seat {
		return c.t("evades.status.decide")
	}
	if c.myTurn {
		if v.str("phase") == "action" {
			return c.t("evades.status.step1")
		}
		return c.t("evades.status.step2")
	}
	return ""
}

func (evades) listed(obj, *ctx) bool                { return true }
func (evades) key(tea.KeyMsg, *ctx) (bool, tea.Cmd) { return false, nil }

func (evades) render(c *ctx, w, h int) string {
	v := newObj(c.view)
	if len(v.m) == 0 {
		return ""
	}
	var out []string
	dir := c.t("evades.clockwise")
	if v.num("direction") < 0 {
		dir = c.t("evades.counter")
	}
	out = append(out, wrap(strings.Join([]string{c.t("evades.turn", p{"turn": v.num("turn"), "limit": v.num("turn_limit")}), dir, c.tn("evades.objectsRequired", v.num("objects_required"))}, " · "), w)...)
	// The prisoners.
	for _, st := range v.subs("seats") {
		s := st.num("seat")
		line := c.mark(s) + " " + c.bold.Render(c.name(s)) + " — " + evArea(c, st.str("area")) + " · " + c.tn("evades.cards", st.num("hand_size"))
		if s == v.num("active") && v.str("phase") != "over" {
			line = "▸" + line
		}
		if cs := st.strs("carried"); len(cs) > 0 {
			var objs []string
			for _, o := range cs {
				objs = append(objs, evObj(c, o))
			}
			line += " · " + c.t("evades.carries", p{"objects": c.list(objs)})
		}
		out = append(out, fit(line, w))
	}
	// The row.
	var row []string
	for i, cd := range v.strs("row") {
		name := "—"
		if cd != "none" {
			name = c.t("evades.card." + cd)
		}
		row = append(row, fmt.Sprintf("[%d] %s", i+1, name))
	}
	out = append(out, wrap(c.bold.Render(c.t("evades.row"))+" "+strings.Join(row, "  "), w)...)
	// My hand and plan.
	for _, st := range v.subs("seats") {
		if st.num("seat") != v.num("seat") {
			continue
		}
		hand := evCardsText(c, st.strs("hand"))
		if hand == "" {
			hand = c.t("evades.noCards")
		}
		out = append(out, wrap(c.bold.Render(c.tn("evades.yourHand", len(st.strs("hand"))))+" "+hand, w)...)
		if plan := st.str("plan"); plan != "" {
			pl := evPlans[plan]
			objs := strings.Fields(pl[1])
			need := c.t("evades.planEither", p{"a": c.t("evades.obj." + objs[0]), "b": c.t("evades.obj." + objs[1])})
			if v.num("objects_required") > 1 {
				need = c.t("evades.planBoth", p{"a": c.t("evades.obj." + objs[0]), "b": c.t("evades.obj." + objs[1])})
			}
			out = append(out, wrap(c.accent.Render(c.t("evades.yourPlan")+" "+c.t("evades.plan."+plan))+" · "+c.t("evades.planExit", p{"exit": evArea(c, pl[0])})+" · "+need, w)...)
		}
	}
	// The rooms' objects and the piles.
	var rooms []string
	for _, r := range v.subs("rooms") {
		var objs []string
		for _, o := range r.strs("objects") {
			objs = append(objs, evObj(c, o))
		}
		if len(objs) > 0 {
			rooms = append(rooms, evArea(c, r.str("room"))+": "+strings.Join(objs, ", "))
		}
	}
	out = append(out, wrap(c.dim.Render(strings.Join(rooms, " · ")), w)...)
	wv := v.sub("warning")
	out = append(out, wrap(c.dim.Render(c.tn("evades.drawPile", v.num("draw_pile"))+" · "+c.tn("evades.ppPile", v.num("pass_pass_pile"))+" · "+c.t("evades.warningPile", p{"colour": c.t("evades.colour." + wv.str("colour")), "n": wv.num("pile")})), w)...)
	return strings.Join(out, "\n")
}
