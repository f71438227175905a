package term

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"sort"
	"strconv"
	"strings"
	"sync"

	tea "github.com/charmbracelet/bubbletea"

	"sortie/web"
)

// evades is the board of Les Évadés (web/games/evades.js): the turn and
// its direction, the prison (drawn whole where the screen is large, else
// the prisoner's surroundings: the doors of their area, what each asks and
// where it leads), the prisoners, the face-up Combines row, one's hand and
// escape plan, the piles. Actions come from the list; when they are too
// many to list (cards to discard or give from a large hand, Turnaround's
// doors) the person composes them on the board: digit keys pick cards of
// the hand, door numbers are typed; or types the game's short form.
type evades struct {
	sel  []string // the cards picked, for the decision decidedFor
	for_ string
}

var evCards = []string{"spoon", "soap", "paperclip", "cigarettes", "file", "screwdriver", "rope", "wire_cutters", "crowbar", "uniform", "keypad", "joker"}
var evPlans = map[string][2]string{
	"plan_roof": {"exit_roof", "money parachute"}, "plan_pier": {"exit_pier", "money diving_gear"},
	"plan_sewer": {"exit_sewer", "phone gas_mask"}, "plan_parking": {"exit_parking", "phone car_keys"},
}

// evLayout is the prison's public drawing data, the file the web page
// reads (web/games/evades.layout.json): area names and door ends.
var evLayout = sync.OnceValue(func() (l struct {
	Areas []evLayoutArea `json:"areas"`
	Doors []evLayoutDoor `json:"doors"`
}) {
	b, err := fs.ReadFile(web.Files(), "games/evades.layout.json")
	if err == nil {
		_ = json.Unmarshal(b, &l)
	}
	return l
})

type evLayoutArea struct {
	Area, Kind, En, Fr string
	X, Y               float64
	Vent               bool
}

type evLayoutDoor struct {
	Door, A, B    string
	X, Y          float64
	Warning, Exit bool
}

func evAreaAt(a string) (evLayoutArea, bool) {
	for _, x := range evLayout().Areas {
		if x.Area == a {
			return x, true
		}
	}
	return evLayoutArea{}, false
}

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
	kinds, n := evHandTypes(cs)
	var out []string
	for _, k := range kinds {
		if n[k] > 1 {
			out = append(out, fmt.Sprintf("%d × %s", n[k], c.t("evades.card."+k)))
		} else {
			out = append(out, c.t("evades.card."+k))
		}
	}
	return c.list(out)
}

func evObj(c *ctx, o string) string { return c.t("evades.obj." + tileNum.ReplaceAllString(o, "")) }

// evTheObj and evTheArea name an object and an area in a sentence, with
// their articles (the web page's theObj and theArea).
func evTheObj(c *ctx, o string) string {
	return c.t("evades.theObj." + tileNum.ReplaceAllString(o, ""))
}
func evTheArea(c *ctx, a string) string {
	if a == "none" {
		return c.t("evades.noVent")
	}
	return c.t("evades.the." + a)
}
func evDoor(c *ctx, d string) string {
	var n int
	if len(d) > 1 {
		n, _ = strconv.Atoi(d[1:]) // "d08" is door 8 (not an octal number)
	}
	return c.t("evades.door", p{"n": n})
}

func (b *evades) describe(ev obj, c *ctx) (string, bool) {
	n := func(k string) phrase { return c.who(ev.num(k)) }
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
			pay = c.t("evades.usedCredit." + ev.str("credit"))
		}
		return c.t("evades.ev.door_crossed", p{"seat": n("seat"), "from": evTheArea(c, ev.str("from")), "to": evTheArea(c, ev.str("to")), "pay": pay, "face": c.t("evades.card." + ev.str("face"))}), false
	case "warning_pile_changed":
		return c.t("evades.ev.warning_pile_changed", p{"colour": ev.str("colour")}), false
	case "warning_drawn":
		return c.t("evades.warningDrawn", p{"name": n("seat"), "token": c.t("evades.tok." + ev.str("token")), "colour": ev.str("colour")}) + " " + c.t("evades.tokEffect."+ev.str("token")), false
	case "pawn_moved":
		return c.t("evades.ev.pawn_moved", p{"seat": n("seat"), "from": evTheArea(c, ev.str("from")), "to": evTheArea(c, ev.str("to")), "cause": c.t("evades.cause." + ev.str("cause"))}), false
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
			return c.tn("evades.ev.cards_moved_seen", len(ev.strs("cards")), p{"from": n("from"), "to": n("to"), "cards": evCardsText(c, ev.strs("cards"))}), false
		}
		return c.tn("evades.ev.cards_moved", ev.num("count"), p{"from": n("from"), "to": n("to")}), false
	case "object_taken":
		return c.t("evades.ev.object_taken", p{"seat": n("seat"), "object": evTheObj(c, ev.str("token")), "room": evTheArea(c, ev.str("room"))}), false
	case "game_ended":
		if ev.num("winner") >= 0 {
			return c.t("evades.ev.escaped", p{"seat": n("winner"), "exit": evTheArea(c, ev.str("exit"))}), false
		}
		return c.t("evades.ev.turn_limit"), false
	}
	return "", false
}

func (b *evades) label(a obj, c *ctx) string {
	switch a.typ() {
	case "take_face_up":
		s := a.nums("slots")
		if len(s) == 2 {
			// The cards by name, the slots after them.
			row := newObj(c.view).strs("row")
			if s[0] < len(row) && s[1] < len(row) {
				return c.t("evades.takeFace", p{"cards": evCardsText(c, []string{row[s[0]], row[s[1]]})}) + fmt.Sprintf(" (%d, %d)", s[0]+1, s[1]+1)
			}
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
		return c.t("evades.takeObject", p{"object": evTheObj(c, a.str("token"))})
	case "end_turn":
		return c.t("evades.endTurn")
	case "choose_vent":
		if a.str("area") == "none" {
			return c.t("evades.noVent")
		}
		return c.t("evades.ventTo", p{"area": evTheArea(c, a.str("area"))})
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
		return c.t("evades.confirm.give_cards") + c.colon() + evCardsText(c, a.strs("cards"))
	case "discard":
		return c.t("evades.confirm.discard") + c.colon() + evCardsText(c, a.strs("cards"))
	case "answer_blackmail":
		if a.boolean("skip") {
			return c.t("evades.blackmailSkip")
		}
		return c.t("evades.confirm.answer_blackmail") + c.colon() + evCardsText(c, a.strs("give"))
	}
	return ""
}

// shortLabel names a crossing where the list is narrow by what tells it
// from the others: the door, the area it leads to from here, what it
// costs ("Door 1 → North corridor: spoon").
func (b *evades) shortLabel(a obj, c *ctx) string {
	if a.typ() != "cross_door" {
		return ""
	}
	v := newObj(c.view)
	here := ""
	for _, st := range v.subs("seats") {
		if st.num("seat") == v.num("seat") {
			here = st.str("area")
		}
	}
	to := ""
	for _, d := range evLayout().Doors {
		if d.Door == a.str("door") {
			switch here {
			case d.A:
				to = evArea(c, d.B)
			case d.B:
				to = evArea(c, d.A)
			default:
				to = evArea(c, d.A) + " – " + evArea(c, d.B)
			}
		}
	}
	pay := evCardsText(c, a.strs("pay"))
	if a.str("credit") != "" {
		pay = c.t("evades.useCredit." + a.str("credit"))
	}
	var n int
	if d := a.str("door"); len(d) > 1 {
		n, _ = strconv.Atoi(d[1:])
	}
	return c.t("term.evades.crossShort", p{"n": n, "area": to, "pay": pay})
}

func (b *evades) status(c *ctx) string {
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

func (b *evades) listed(obj, *ctx) bool { return true }

// ---- composing what the list does not hold ----

// evPending is the decision this seat owes now, if any.
func evPending(v obj, c *ctx) (obj, bool) {
	if !v.has("pending") || !c.myTurn {
		return obj{}, false
	}
	pd := v.sub("pending")
	return pd, pd.num("seat") == c.seat
}

// picking says how many hand cards the person picks now on the board (0:
// none), for a decision the list does not hold.
func (b *evades) picking(v obj, c *ctx) int {
	pd, ok := evPending(v, c)
	if !ok || len(c.legal) > 0 {
		return 0
	}
	key := fmt.Sprint(v.num("turn"), pd.str("decision"), pd.num("count"))
	if b.for_ != key {
		b.sel, b.for_ = nil, key
	}
	switch pd.str("decision") {
	case "give_cards", "discard":
		return pd.num("count")
	case "answer_blackmail":
		return 2
	}
	return 0
}

// evHandTypes are the kinds of card in a hand (or any list of cards), in
// the game's order, with how many of each: the digit keys pick them in this
// order.
func evHandTypes(hand []string) ([]string, map[string]int) {
	n := map[string]int{}
	for _, x := range hand {
		n[x]++
	}
	var kinds []string
	for _, k := range evCards {
		if n[k] > 0 {
			kinds = append(kinds, k)
		}
	}
	return kinds, n
}

func (b *evades) myHand(v obj) []string {
	for _, st := range v.subs("seats") {
		if st.num("seat") == v.num("seat") {
			return st.strs("hand")
		}
	}
	return nil
}

// picked is the selection as an action of the decision owed.
func (b *evades) picked(v obj) json.RawMessage {
	pd := v.sub("pending")
	var sorted []string
	for _, k := range evCards {
		for _, x := range b.sel {
			if x == k {
				sorted = append(sorted, x)
			}
		}
	}
	cards, _ := json.Marshal(sorted)
	if pd.str("decision") == "answer_blackmail" {
		return json.RawMessage(`{"type":"answer_blackmail","give":` + string(cards) + `}`)
	}
	return json.RawMessage(`{"type":"` + pd.str("decision") + `","cards":` + string(cards) + `}`)
}

func (b *evades) keysHelp(c *ctx) string {
	v := newObj(c.view)
	if len(v.m) == 0 || !c.myTurn {
		return ""
	}
	if b.picking(v, c) > 0 {
		return c.t("term.evades.pickKeys")
	}
	if pd, ok := evPending(v, c); ok && pd.str("decision") == "choose_doors" && len(c.legal) == 0 {
		return c.t("term.evades.doorKeys")
	}
	if !v.has("pending") {
		return c.t("term.evades.keys")
	}
	return ""
}

func (b *evades) key(k tea.KeyMsg, c *ctx) (bool, tea.Cmd) {
	v := newObj(c.view)
	if len(v.m) == 0 || !c.myTurn || c.busy {
		return false, nil
	}
	if max := b.picking(v, c); max > 0 {
		kinds, n := evHandTypes(b.myHand(v))
		key := k.String()
		switch {
		case len(key) == 1 && key[0] >= '1' && key[0] <= '9':
			i := int(key[0] - '1')
			if i < len(kinds) {
				have := 0
				for _, x := range b.sel {
					if x == kinds[i] {
						have++
					}
				}
				if have < n[kinds[i]] && len(b.sel) < max {
					b.sel = append(b.sel, kinds[i])
				}
			}
			return true, nil
		case k.Type == tea.KeyBackspace:
			if len(b.sel) > 0 {
				b.sel = b.sel[:len(b.sel)-1]
			}
			return true, nil
		case k.Type == tea.KeyEsc && len(b.sel) > 0:
			b.sel = nil
			return true, nil
		case k.Type == tea.KeyEnter && len(b.sel) > 0:
			a := b.picked(v)
			b.sel = nil
			return true, c.play(a)
		case key == "s" && v.sub("pending").str("decision") == "answer_blackmail":
			return true, c.play(json.RawMessage(`{"type":"answer_blackmail","skip":true}`))
		}
		return false, nil
	}
	if v.has("pending") {
		return false, nil
	}
	// The web page's keys: B and P draw in step 1, E ends the turn.
	playIf := func(a string) (bool, tea.Cmd) {
		if l, ok := c.legalOf(a); ok {
			return true, c.play(l.raw)
		}
		return false, nil
	}
	switch strings.ToLower(k.String()) {
	case "b":
		return playIf(`{"type":"take_blind"}`)
	case "p":
		return playIf(`{"type":"draw_pass_pass"}`)
	case "e":
		return playIf(`{"type":"end_turn"}`)
	}
	return false, nil
}

// compose reads door numbers typed for Turnaround ("5 20", "d05", "0" for
// none), the one choice of the game that is never listed.
// takesNumbers: Turnaround's doors are typed by their numbers.
func (b *evades) takesNumbers(c *ctx) bool {
	pd, ok := evPending(newObj(c.view), c)
	return ok && pd.str("decision") == "choose_doors"
}

func (b *evades) compose(line string, c *ctx) (json.RawMessage, string, bool) {
	v := newObj(c.view)
	pd, ok := evPending(v, c)
	if !ok || pd.str("decision") != "choose_doors" {
		return nil, "", false
	}
	var doors []string
	for _, f := range strings.Fields(strings.ToLower(line)) {
		n, err := strconv.Atoi(strings.TrimPrefix(f, "d"))
		if err != nil {
			return nil, "", false // not door numbers: the short form, perhaps
		}
		if n == 0 {
			continue
		}
		d := fmt.Sprintf("d%02d", n)
		known := false
		for _, x := range evLayout().Doors {
			known = known || x.Door == d && !x.Exit
		}
		if !known {
			return nil, c.t("term.evades.noSuchDoor", p{"n": n}), true
		}
		doors = append(doors, d)
	}
	if len(doors) > 2 {
		return nil, c.t("term.evades.twoDoors"), true
	}
	sort.Strings(doors)
	ds, _ := json.Marshal(doors)
	if len(doors) == 0 {
		ds = []byte("[]")
	}
	return json.RawMessage(`{"type":"choose_doors","doors":` + string(ds) + `}`), "", true
}

// ---- drawing ----

func (b *evades) render(c *ctx, w, h int) string {
	v := newObj(c.view)
	if len(v.m) == 0 {
		return ""
	}
	var out []string
	dir := c.t("evades.clockwise")
	if v.num("direction") < 0 {
		dir = c.t("evades.counter")
	}
	if v.boolean("reverse_at_end") {
		dir += " · " + c.t("evades.willReverse")
	}
	stats := []string{c.t("evades.turn", p{"turn": v.num("turn"), "limit": v.num("turn_limit")}), dir, c.tn("evades.objectsRequired", v.num("objects_required"))}
	if n := v.num("badge_credits"); n > 0 {
		stats = append(stats, c.tn("evades.badges", n))
	}
	if n := v.num("corruption_credits"); n > 0 {
		stats = append(stats, c.tn("evades.corruptions", n))
	}
	out = append(out, wrap(strings.Join(stats, " · "), w)...)
	out = append(out, b.prompt(v, c, w)...)
	info := b.info(v, c, w)
	if mp := b.prisonMap(v, c, w); len(mp) > 0 {
		// Under the prison, the prisoners beside the cards.
		half := (w - 1) / 2
		side := b.prisoners(v, c, half)
		cards := b.info(v, c, w-half-1)
		below := joinColumns(side, half, cards, w-half-1, max(len(side), len(cards)))
		if len(mp)+len(out)+min(len(below), 6) <= h {
			out = append(out, mp...)
			out = append(out, below...)
			return strings.Join(out, "\n")
		}
	}
	// The surroundings beside the prisoners and the plan.
	around := b.surroundings(v, c, min(w, 50))
	aw := 0
	if len(around) > 0 {
		aw = lipWidth(around[0])
	}
	if w-aw-1 >= 30 {
		side := b.prisoners(v, c, w-aw-1)
		out = append(out, joinColumns(around, aw, side, w-aw-1, max(len(around), len(side)))...)
	} else {
		side := b.prisoners(v, c, w)
		out = append(out, around...)
		out = append(out, side...)
	}
	out = append(out, info...)
	return strings.Join(out, "\n")
}

// prompt says the decision owed (this seat's, with how to make it here, or
// another's).
func (b *evades) prompt(v obj, c *ctx, w int) []string {
	if !v.has("pending") || v.str("phase") == "over" {
		if v.str("phase") == "over" {
			if v.num("winner") >= 0 {
				return wrap(c.bold.Render(c.t("evades.escaped", p{"name": c.who(v.num("winner"))})), w)
			}
			return wrap(c.bold.Render(c.t("evades.noEscape")), w)
		}
		return nil
	}
	pd := v.sub("pending")
	kind := pd.str("decision")
	params := p{"count": pd.num("count"), "name": ""}
	if pd.has("card") {
		params["card"] = c.t("evades.pp." + pd.str("card"))
	}
	if pd.has("target") {
		params["name"] = c.name(pd.num("target"))
	}
	if pd.num("seat") != c.seat || !c.myTurn {
		params["name"] = c.name(pd.num("seat"))
		return wrap(c.t("evades.pendingOther."+kind, params), w)
	}
	key := "evades.pending." + kind
	if kind == "discard" && pd.str("draw") != "" {
		key = "evades.pending.discard_draw"
	}
	said := c.t(key, params)
	if kind == "give_cards" || kind == "discard" {
		said = c.tn(key, pd.num("count"), params)
	}
	text := c.mine.Render(said)
	if n := b.picking(v, c); n > 0 {
		var sel []string
		for _, x := range b.sel {
			sel = append(sel, c.t("evades.card."+x))
		}
		picked := c.t("evades.chosen", p{"cards": strings.Join(sel, ", ")})
		if len(sel) == 0 {
			picked = c.t("evades.chosen", p{"cards": "—"})
		}
		text += " " + c.bold.Render(picked)
	} else if kind == "choose_doors" && len(c.legal) == 0 {
		text += " " + c.dim.Render(c.t("term.evades.typeDoors"))
	}
	return wrap(text, w)
}

// evDirection is the arrow from one place of the prison to another.
func evDirection(ax, ay, bx, by float64) string {
	dx, dy := bx-ax, by-ay
	switch {
	case math.Abs(dx) < math.Abs(dy)/2:
		if dy < 0 {
			return "↑"
		}
		return "↓"
	case math.Abs(dy) < math.Abs(dx)/2:
		if dx < 0 {
			return "←"
		}
		return "→"
	case dx > 0 && dy < 0:
		return "↗"
	case dx > 0:
		return "↘"
	case dy < 0:
		return "↖"
	}
	return "↙"
}

// evDoorFace is what a door asks: its face and level ("File ●●").
func evDoorFace(c *ctx, v obj, door string) (face string, level int) {
	for _, d := range v.subs("doors") {
		if d.str("door") == door {
			return d.str("face"), d.num("level")
		}
	}
	return "", 0
}

// crossable are the doors the list lets this seat cross now.
func evCrossable(c *ctx) map[string]bool {
	out := map[string]bool{}
	for _, a := range c.find("cross_door") {
		out[a.str("door")] = true
	}
	return out
}

// pawns are the marks of the seats in an area.
func evPawns(c *ctx, v obj, area string) string {
	var s string
	for _, st := range v.subs("seats") {
		if st.str("area") == area {
			s += c.mark(st.num("seat"))
		}
	}
	return s
}

// surroundings is the prisoner's area in a frame: each of its doors with
// its direction, number, what it asks, where it leads and who is there;
// the doors this seat may cross now first marked ▸.
func (b *evades) surroundings(v obj, c *ctx, w int) []string {
	area := ""
	for _, st := range v.subs("seats") {
		if st.num("seat") == v.num("seat") {
			area = st.str("area")
		}
	}
	if area == "" {
		return nil
	}
	here, _ := evAreaAt(area)
	can := evCrossable(c)
	var lines []string
	for _, d := range evLayout().Doors {
		if d.A != area && d.B != area {
			continue
		}
		other := d.B
		if d.B == area {
			other = d.A
		}
		there, _ := evAreaAt(other)
		face, level := evDoorFace(c, v, d.Door)
		tag := fmt.Sprintf("%s %s %s", evDirection(here.X, here.Y, there.X, there.Y), strings.TrimPrefix(d.Door, "d"), c.t("evades.card."+face+".short")+" "+strings.Repeat("●", level))
		tag = fit(tag, 18)
		tag += strings.Repeat(" ", max(18-lipWidth(tag), 0))
		line := tag + " " + evArea(c, other)
		if d.Exit {
			line = tag + " " + c.accent.Render(evArea(c, other))
		}
		if d.Warning {
			line += " " + c.warn.Render("!")
		}
		if pw := evPawns(c, v, other); pw != "" {
			line += " " + pw
		}
		if can[d.Door] {
			line = c.mine.Render("▸") + line
		} else {
			line = " " + line
		}
		lines = append(lines, line)
	}
	if here.Vent {
		lines = append(lines, c.dim.Render(" "+c.t("term.evades.vent")))
	}
	for _, r := range v.subs("rooms") {
		if r.str("room") == area && len(r.strs("objects")) > 0 {
			var objs []string
			for _, o := range r.strs("objects") {
				objs = append(objs, evTheObj(c, o))
			}
			lines = append(lines, " "+c.t("term.evades.objectsHere", p{"objects": strings.Join(objs, ", ")}))
		}
	}
	title := c.t("term.evades.here", p{"area": evArea(c, area)}) + " " + evPawns(c, v, area)
	fw := lipWidth(title) + 6
	for _, l := range lines {
		fw = max(fw, lipWidth(l)+4)
	}
	return frame(c.styles, title, lines, min(fw, w), len(lines)+2)
}

// prisoners are the seats with where they stand and what they carry, and
// this seat's escape plan.
func (b *evades) prisoners(v obj, c *ctx, w int) []string {
	var out []string
	for _, st := range v.subs("seats") {
		s := st.num("seat")
		line := c.mark(s) + " " + c.bold.Render(c.name(s)) + " — " + evArea(c, st.str("area")) + " · " + c.tn("evades.cards", st.num("hand_size"))
		if s == v.num("active") && v.str("phase") != "over" {
			line = "▸" + line
		}
		if cs := st.strs("carried"); len(cs) > 0 {
			var objs []string
			for _, o := range cs {
				objs = append(objs, evTheObj(c, o))
			}
			line += " · " + c.t("evades.carries", p{"objects": c.list(objs)})
		}
		if n := st.num("skip"); n > 0 {
			line += " · " + c.tn("evades.skips", n)
		}
		if n := st.num("extra"); n > 0 {
			line += " · " + c.tn("evades.extras", n)
		}
		out = append(out, wrap(line, w)...)
		if st.has("plan") && s != v.num("seat") {
			out = append(out, wrap("  "+c.dim.Render(c.t("evades.planOf")+" "+c.t("evades.plan."+st.str("plan"))), w)...)
		}
	}
	for _, st := range v.subs("seats") {
		if plan := st.str("plan"); plan != "" && st.num("seat") == v.num("seat") {
			pl := evPlans[plan]
			objs := strings.Fields(pl[1])
			need := c.t("evades.planEither", p{"a": c.t("evades.obj." + objs[0]), "b": c.t("evades.obj." + objs[1])})
			if v.num("objects_required") > 1 {
				need = c.t("evades.planBoth", p{"a": c.t("evades.obj." + objs[0]), "b": c.t("evades.obj." + objs[1])})
			}
			out = append(out, wrap(c.accent.Render(c.t("evades.yourPlan")+" "+c.t("evades.plan."+plan))+" · "+c.t("evades.planExit", p{"exit": evArea(c, pl[0])})+" · "+need, w)...)
		}
	}
	return out
}

// info is the face-up row, the hand (numbered when cards are picked on the
// board), the objects in the common rooms and the piles.
func (b *evades) info(v obj, c *ctx, w int) []string {
	var out []string
	var row []string
	for i, cd := range v.strs("row") {
		name := "—"
		if cd != "none" {
			name = c.t("evades.card." + cd)
		}
		row = append(row, fmt.Sprintf("[%d] %s", i+1, name))
	}
	out = append(out, wrap(c.bold.Render(c.t("evades.row"))+" "+strings.Join(row, "  "), w)...)
	if v.num("seat") >= 0 {
		hand := b.myHand(v)
		kinds, n := evHandTypes(hand)
		picking := b.picking(v, c) > 0
		var items []string
		for i, k := range kinds {
			item := c.t("evades.card." + k)
			if n[k] > 1 {
				item = fmt.Sprintf("%d × %s", n[k], item)
			}
			if picking {
				item = fmt.Sprintf("[%d] %s", i+1, item)
				for _, x := range b.sel {
					if x == k {
						item = c.selected.Render(item)
						break
					}
				}
			}
			items = append(items, item)
		}
		text := strings.Join(items, ", ")
		if picking {
			text = strings.Join(items, "  ")
		}
		if text == "" {
			text = c.t("evades.noCards")
		}
		out = append(out, wrap(c.bold.Render(c.tn("evades.yourHand", len(hand)))+" "+text, w)...)
	}
	var rooms []string
	for _, r := range v.subs("rooms") {
		var objs []string
		for _, o := range r.strs("objects") {
			objs = append(objs, evObj(c, o))
		}
		if len(objs) > 0 {
			rooms = append(rooms, evArea(c, r.str("room"))+c.colon()+strings.Join(objs, ", "))
		}
	}
	out = append(out, wrap(c.dim.Render(strings.Join(rooms, " · ")), w)...)
	wv := v.sub("warning")
	out = append(out, wrap(c.dim.Render(c.tn("evades.drawPile", v.num("draw_pile"))+" · "+c.tn("evades.ppPile", v.num("pass_pass_pile"))+" · "+c.tn("evades.warningPile", wv.num("pile"), p{"colour": wv.str("colour")})), w)...)
	return out
}

// wide asks for a wide board where the whole prison can be drawn: its
// middle row holds nine areas.
func (b *evades) wide(w int) bool { return w >= 150 }

// prisonMap draws the whole prison where the screen is large enough (nil
// otherwise), placed as on the web page's map: each area with the pawns in
// it, each door between its two areas with its number, what it asks (its
// face and level, ● a card), ! on a Warning spot; the doors this seat may
// cross now in reverse.
func (b *evades) prisonMap(v obj, c *ctx, w int) []string {
	sx := min(float64(w-16)/24, 4.6)
	if sx < 3.9 {
		return nil
	}
	const sy = 1.25
	col := func(x float64) int { return int(math.Round(x*sx)) + 8 }
	row := func(y float64) int { return int(math.Round(y*sy)) + 1 }
	cv := newCanvas(col(24)+9, row(24)+3)
	can := evCrossable(c)
	mine, exit := "", ""
	for _, st := range v.subs("seats") {
		if st.num("seat") == v.num("seat") {
			mine = st.str("area")
			if pl, ok := evPlans[st.str("plan")]; ok {
				exit = pl[0]
			}
		}
	}
	areas := map[string]evLayoutArea{}
	for _, a := range evLayout().Areas {
		areas[a.Area] = a
	}
	// The doors: a tag (number, level, ! on a Warning spot) and the face.
	var corridors []evLayoutDoor
	for _, d := range evLayout().Doors {
		a, bb := areas[d.A], areas[d.B]
		face, level := evDoorFace(c, v, d.Door)
		num := strings.TrimPrefix(d.Door, "d")
		x, y := col(d.X), row(d.Y)
		numRow := y
		if a.Y == bb.Y {
			// A door on a row of areas: its tag above, its face below,
			// and a corridor through it (drawn last, where nothing is).
			numRow = y - 1
			corridors = append(corridors, d)
		}
		st := c.bold
		if can[d.Door] {
			st = c.selected
		}
		tag := num + strings.Repeat("●", level)
		left := x - (lipWidth(tag)+1)/2
		cv.put(left, numRow, num, st)
		cv.put(left+2, numRow, strings.Repeat("●", level), c.dim)
		if d.Warning {
			cv.put(left+lipWidth(tag), numRow, "!", c.warn)
		}
		// The face under the tag, or above it where another door's face
		// is in the way.
		fs := c.t("term.evades.face." + face)
		fx := x - (lipWidth(fs)+1)/2
		fy := y + 1
		if !cv.free(fx-1, fy, lipWidth(fs)+2) && cv.free(fx-1, numRow-1, lipWidth(fs)+2) {
			fy = numRow - 1
		}
		cv.put(fx, fy, fs, c.dim)
	}
	// The areas, then their pawns: after the name where there is room,
	// else under it or over it.
	type spot struct{ x, y int }
	ends := map[string]spot{}
	for _, a := range evLayout().Areas {
		label := "[" + c.t("term.evades.short."+a.Area) + "]"
		x, y := col(a.X)-lipWidth(label)/2, row(a.Y)
		st := c.bold
		switch {
		case a.Area == mine:
			st = c.mine
		case a.Area == exit:
			st = c.accent.Bold(true)
		case a.Kind == "exit":
			st = c.accent
		}
		cv.put(x, y, label, st)
		ends[a.Area] = spot{x + lipWidth(label), y}
	}
	for _, a := range evLayout().Areas {
		var pawns []int
		for _, st := range v.subs("seats") {
			if st.str("area") == a.Area {
				pawns = append(pawns, st.num("seat"))
			}
		}
		if len(pawns) == 0 {
			continue
		}
		at := ends[a.Area]
		x, y := at.x, at.y
		switch {
		case cv.free(x, y, len(pawns)+1):
		case cv.free(col(a.X)-len(pawns)/2-1, y+1, len(pawns)+2):
			x, y = col(a.X)-len(pawns)/2, y+1
		case cv.free(col(a.X)-len(pawns)/2-1, y-1, len(pawns)+2):
			x, y = col(a.X)-len(pawns)/2, y-1
		default:
			x, y = col(a.X)-len(pawns)/2, y+1 // over a door's face, if need be
		}
		for i, q := range pawns {
			cv.put(x+i, y, c.shape(q), c.seatStyle(q))
		}
	}
	for _, d := range corridors {
		a, bb := areas[d.A], areas[d.B]
		y := row(d.Y)
		for i := col(math.Min(a.X, bb.X)); i <= col(math.Max(a.X, bb.X)); i++ {
			if cv.free(i, y, 1) {
				cv.put(i, y, "─", c.dim)
			}
		}
	}
	out := []string{c.bold.Render(c.t("evades.map")) + " " + c.dim.Render(c.t("term.evades.legend"))}
	return append(out, cv.lines()...)
}
