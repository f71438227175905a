package evades

import (
	"fmt"
	"strconv"
	"strings"

	"sortie/engine"
)

// This file serves people at a terminal: a text rendering of the view, the
// short form of actions they may type, and the choices worth listing.

// maxOffer is the longest list of choices worth showing a person; longer
// ones (two cards to discard or give from a hand of many types, Retournement)
// are typed in the short form.
const maxOffer = 60

// Offer returns the legal actions of seat p when they are few enough to list
// as numbered choices, and none otherwise: the person then types the action
// in the short form of ParseAction (the terminal says so).
func (s *State) Offer(p engine.Seat) []engine.Action {
	l := s.Legal(p)
	if len(l) > maxOffer {
		return nil
	}
	return l
}

// shortForms is the help line for ParseAction.
const shortForms = `Short forms: face I J | blind | pass | cross dNN [cards | badge | corruption] | take OBJECT | end | vent AREA|none | codetainee face N|blind|pass | target SEAT | flip [dNN [dNN]] | give cards | answer skip|card card | discard cards`

// ParseAction reads an action typed in a terminal, in the short form above or
// as JSON. Card, door, area and object names are the ids of the README.
func (Game) ParseAction(line string) (engine.Action, error) {
	line = strings.TrimSpace(line)
	if strings.HasPrefix(line, "{") {
		return decodeAction([]byte(line))
	}
	w := strings.Fields(strings.ToLower(line))
	if len(w) == 0 {
		return nil, bad("Type an action. " + shortForms)
	}
	args := w[1:]
	switch w[0] {
	case "face":
		if len(args) != 2 {
			return nil, bad("face needs two slots: face 1 3 (at 11 or 12 cards, the discard comes next: discard CARDS)")
		}
		i, err1 := strconv.Atoi(args[0])
		j, err2 := strconv.Atoi(args[1])
		if err1 != nil || err2 != nil || i < 0 || j < 0 || i >= rowSize || j >= rowSize {
			return nil, bad("face needs two slots from 0 to 4: face 1 3")
		}
		return TakeFaceUp{Slots: SlotPair{int8(min(i, j)), int8(max(i, j))}}, nil
	case "blind":
		if len(args) != 0 {
			return nil, bad("blind takes nothing more (at 11 or 12 cards, the discard comes next: discard CARDS)")
		}
		return TakeBlind{}, nil
	case "pass", "passpass", "pass_pass":
		return DrawPassPass{}, nil
	case "cross":
		if len(args) == 0 {
			return nil, bad("cross needs a door: cross d07 file joker, or cross d16 badge")
		}
		var d Door
		if err := d.UnmarshalText([]byte(args[0])); err != nil {
			return nil, bad(err.Error())
		}
		if len(args) == 2 && (args[1] == "badge" || args[1] == "corruption") {
			var c Credit
			_ = c.UnmarshalText([]byte(args[1]))
			return CrossDoor{Door: d, Credit: c}, nil
		}
		cs, err := parseCards(args[1:])
		return CrossDoor{Door: d, Pay: cs}, err
	case "take":
		if len(args) != 1 {
			return nil, bad("take needs one object: take money_1")
		}
		var o Object
		if err := o.UnmarshalText([]byte(args[0])); err != nil {
			return nil, bad(err.Error())
		}
		return TakeObject{Token: o}, nil
	case "end":
		return EndTurn{}, nil
	case "vent":
		if len(args) != 1 {
			return nil, bad("vent needs an area or none: vent wing_sw")
		}
		return ChooseVent{Area: args[0]}, nil
	case "codetainee", "codet":
		switch {
		case len(args) == 2 && args[0] == "face":
			n, err := strconv.Atoi(args[1])
			if err != nil {
				return nil, bad("codetainee face needs a slot: codetainee face 2")
			}
			return ChooseCodetainee{Source: sourceFaceUp, Slot: SlotAt(n)}, nil
		case len(args) == 1 && args[0] == "blind":
			return ChooseCodetainee{Source: sourceBlind}, nil
		case len(args) == 1 && (args[0] == "pass" || args[0] == "pass_pass"):
			return ChooseCodetainee{Source: sourcePassPass}, nil
		}
		return nil, bad("codetainee face N, codetainee blind, or codetainee pass")
	case "target":
		if len(args) != 1 {
			return nil, bad("target needs a seat: target 2")
		}
		n, err := strconv.Atoi(args[0])
		if err != nil {
			return nil, bad("target needs a seat number: target 2")
		}
		return ChooseTarget{Seat: n}, nil
	case "flip":
		if len(args) > maxListed {
			return nil, bad("flip names at most two doors: flip d05 d20")
		}
		var ds []Door
		for _, a := range args {
			var d Door
			if err := d.UnmarshalText([]byte(a)); err != nil {
				return nil, bad(err.Error())
			}
			ds = append(ds, d)
		}
		l := DoorsOf(ds...)
		l.sort()
		return ChooseDoors{Doors: l}, nil
	case "give":
		cs, err := parseCards(args)
		return GiveCards{Cards: cs}, err
	case "answer":
		if len(args) == 1 && args[0] == "skip" {
			return AnswerBlackmail{Skip: true}, nil
		}
		cs, err := parseCards(args)
		return AnswerBlackmail{Give: cs}, err
	case "discard":
		cs, err := parseCards(args)
		return Discard{Cards: cs}, err
	}
	return nil, bad("Unknown action " + strconv.Quote(w[0]) + ". " + shortForms)
}

func bad(msg string) error { return engine.Refuse(engine.CodeMalformed, "%s", msg) }

// parseCards reads card ids, skipping "-" and a leading "pay", into a list
// in canonical order.
func parseCards(ws []string) (Cards, error) {
	var cs []Card
	for _, x := range ws {
		if x == "-" || x == "pay" {
			continue
		}
		var c Card
		if err := c.UnmarshalText([]byte(x)); err != nil || c == noCard {
			return Cards{}, bad(fmt.Sprintf("%q is not a card (cards: spoon soap paperclip cigarettes file screwdriver rope wire_cutters crowbar uniform keypad joker)", x))
		}
		cs = append(cs, c)
	}
	if len(cs) > maxListed {
		return Cards{}, bad(fmt.Sprintf("at most %d cards, not %d", maxListed, len(cs)))
	}
	l := CardsOf(cs...)
	l.sort()
	return l, nil
}

// count writes n things in English: "1 card", "2 cards".
func count(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return strconv.Itoa(n) + " " + thing + "s"
}

// String renders the view for a terminal; seats are numbered from 1, as
// on every screen.
func (v *View) String() string {
	var b strings.Builder
	dir := "clockwise"
	if v.Direction < 0 {
		dir = "counter-clockwise"
	}
	fmt.Fprintf(&b, "Les Évadés — turn %d of at most %d, %s's turn (%s), play goes %s", v.Turn, v.TurnLimit, engine.Seat(v.Active).Name(), v.Phase, dir)
	if v.ReverseAtEnd {
		b.WriteString(", reverses after this turn")
	}
	b.WriteByte('\n')
	if v.BadgeCredits+v.CorruptionCreds > 0 {
		fmt.Fprintf(&b, "Credits this turn: %s, %s\n", count(v.BadgeCredits, "badge"), count(v.CorruptionCreds, "bribe"))
	}
	if p := v.Pending; p != nil {
		fmt.Fprintf(&b, "Waiting for %s: %s", engine.Seat(p.Seat).Name(), p.Decision)
		if p.Card != nil {
			fmt.Fprintf(&b, " (%s)", passPassCards[*p.Card].ID)
		}
		if p.Count > 0 {
			b.WriteString(" " + count(p.Count, "card"))
		}
		switch {
		case len(p.Slots) == 2:
			fmt.Fprintf(&b, ", then take face-up slots %d and %d", p.Slots[0], p.Slots[1])
		case p.Draw == kindTakeBlind:
			b.WriteString(", then draw two blind")
		}
		b.WriteByte('\n')
	}
	if v.Winner >= 0 {
		fmt.Fprintf(&b, "The winner, %s, escaped!\n", engine.Seat(v.Winner).Name())
	} else if v.Phase == phaseIDs[phaseOver] {
		b.WriteString("Nobody escaped before the turn limit.\n")
	}
	for _, sv := range v.Seats {
		you := ""
		if sv.Seat == v.Seat {
			you = " (you)"
		}
		fmt.Fprintf(&b, "Seat %d%s: in %s", sv.Seat+1, you, areas[sv.Area].ID)
		if sv.LastDoor != nil {
			fmt.Fprintf(&b, " (came through %s)", doors[*sv.LastDoor].ID)
		}
		b.WriteString(", " + count(sv.HandSize, "card"))
		if len(sv.Carried) > 0 {
			fmt.Fprintf(&b, ", carries %s", joinIDs(sv.Carried))
		}
		if sv.Skip > 0 {
			fmt.Fprintf(&b, ", skips %s", count(sv.Skip, "turn"))
		}
		if sv.Extra > 0 {
			b.WriteString(", " + count(sv.Extra, "extra turn"))
		}
		b.WriteByte('\n')
		if sv.Plan != nil {
			pl := plans[*sv.Plan]
			fmt.Fprintf(&b, "    plan %s: exit %s through %s, with %s or %s\n", pl.ID, pl.Exit, pl.Door,
				objectTypes[pl.Objects[0]].ID, objectTypes[pl.Objects[1]].ID)
		}
		if sv.Hand != nil {
			fmt.Fprintf(&b, "    hand: %s\n", joinIDs(sv.Hand))
		}
	}
	b.WriteString("Rooms:")
	for _, r := range v.Rooms {
		fmt.Fprintf(&b, "  %s: %s", areas[r.Room].ID, joinIDs(r.Objects))
	}
	b.WriteString("\nFace up:")
	for i, c := range v.Row {
		fmt.Fprintf(&b, "  %d %s", i, idOf(c))
	}
	fmt.Fprintf(&b, "\nPiles: draw %d, discard %d, Pass-Pass %d (used %d), Warning %s %d left\n",
		v.DrawPile, len(v.Discard), v.PassPassPile, len(v.PassPassDiscard), v.Warning.Colour, v.Warning.Pile)
	if v.Seat >= 0 && v.Seat < len(v.Seats) {
		at := v.Seats[v.Seat].Area
		fmt.Fprintf(&b, "Doors of %s:", areas[at].ID)
		for _, d := range board.adj[at] {
			fmt.Fprintf(&b, "  %s", describeDoor(v, d, at))
		}
		b.WriteByte('\n')
	}
	b.WriteString("All doors:")
	for d := range numDoors {
		if d%4 == 0 {
			b.WriteString("\n ")
		}
		dv := v.Doors[d]
		mark := " "
		if board.warning[d] {
			mark = "!"
		}
		fmt.Fprintf(&b, " %s%s %s–%s %s×%d;", doors[d].ID, mark, doors[d].A, doors[d].B, idOf(dv.Face), dv.Level)
	}
	b.WriteString("\n(! = Warning spot; vents: wing_ne wing_se wing_sw wing_nw)\n")
	b.WriteString(shortForms)
	return b.String()
}

// describeDoor describes door d as seen from area at.
func describeDoor(v *View, d Door, at Area) string {
	dv := v.Doors[d]
	mark := ""
	if board.warning[d] {
		mark = "!"
	}
	return fmt.Sprintf("%s%s→%s %s×%d (then %s)", doors[d].ID, mark, areas[board.other(d, at)].ID, idOf(dv.Face), dv.Level, idOf(dv.Other))
}

func idOf(x interface{ MarshalText() ([]byte, error) }) string {
	b, err := x.MarshalText()
	if err != nil {
		return "?"
	}
	return string(b)
}

func joinIDs[T interface{ MarshalText() ([]byte, error) }](xs []T) string {
	if len(xs) == 0 {
		return "—"
	}
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = idOf(x)
	}
	return strings.Join(parts, " ")
}
