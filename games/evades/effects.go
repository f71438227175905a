package evades

import (
	"slices"

	"sortie/engine"
)

// This file resolves the Warning tokens (§4.8) and the Pass-Pass cards
// (§4.9), and holds the actions that answer the decisions they open.

// resolveWarning draws one token after a voluntary crossing of Warning door
// d, which took the pawn from area from (D13).
func (s *State) resolveWarning(p int, d Door, from Area, ev *[]engine.Event) {
	t := s.drawWarning(ev)
	tell(ev, WarningDrawn{Seat: p, Door: d, Colour: colourIDs[s.warnColour], Token: t})
	me := &s.seats[p]
	switch t {
	case Vent: // D16: optional, chosen now
		s.pend = pending{kind: pendVent, seat: int8(p)}
	case Badge: // D17
		s.badge++
		tell(ev, CreditGained{Seat: p, Credit: BadgeCredit})
	case Codetainee: // D18
		s.pend = pending{kind: pendCodetainee, seat: int8(p)}
	case Guzman: // D19: undo this crossing, no refund, the turn ends
		at := me.area
		me.area, me.lastDoor = from, -1
		s.flip(d)
		tell(ev, PawnMoved{Seat: p, From: at, To: from, Cause: causeGuzman})
		tell(ev, DoorFlipped{Door: d, Face: s.face(d), Cause: causeGuzman})
		s.endTurn(ev)
	case Camera: // D20: play reverses when this turn ends; two cameras cancel
		s.reverseAtEnd = !s.reverseAtEnd
		tell(ev, ReverseAtEnd{Seat: p, Reverse: s.reverseAtEnd})
	case MotionDetector: // D21
		me.skip++
		tell(ev, SkipOwed{Seat: p, Skip: me.skip, Cause: causeMotion})
		s.endTurn(ev)
	case Speaker: // D22: every pawn to the cell, the turn ends
		for q := range s.n {
			s.sendToCell(q, causeSpeaker, ev)
		}
		s.endTurn(ev)
	}
}

// sendToCell moves seat q's pawn to the cell and clears its last door.
func (s *State) sendToCell(q int, cause string, ev *[]engine.Event) {
	pw := &s.seats[q]
	from := pw.area
	pw.area, pw.lastDoor = cellArea, -1
	if from != cellArea {
		tell(ev, PawnMoved{Seat: q, From: from, To: cellArea, Cause: cause})
	}
}

// resolvePassPass reveals the top Pass-Pass card and resolves it at once,
// opening a decision where the card needs one (§4.9).
func (s *State) resolvePassPass(p int, ev *[]engine.Event) {
	c := s.drawPassPassCard(ev)
	tell(ev, PassPassDrawn{Seat: p, Card: c})
	me := &s.seats[p]
	switch c {
	case PleinsPouvoirs: // D28
		me.extra++
		tell(ev, ExtraTurnOwed{Seat: p, Extra: me.extra})
	case Corruption:
		s.corruption++
		tell(ev, CreditGained{Seat: p, Credit: CorruptionCredit})
	case EpreuveDeForce, Vol, Manigance, Chantage:
		if len(s.targets(p, c)) == 0 {
			tell(ev, PassPassNoEffect{Seat: p, Card: c}) // D26
			return
		}
		s.pend = pending{kind: pendTarget, seat: int8(p), card: c}
	case Retournement:
		s.pend = pending{kind: pendDoors, seat: int8(p)}
	case DerriereLesBarreaux: // D27: even from the cell, the turn ends
		s.sendToCell(p, causeBarreaux, ev)
		s.endTurn(ev)
	}
}

// targets lists the opponents seat p may aim card c at (§4.9).
func (s *State) targets(p int, c PassPass) []int {
	var out []int
	for q := range s.n {
		if q == p {
			continue
		}
		switch c {
		case EpreuveDeForce:
			if s.seats[q].lastDoor < 0 {
				continue
			}
		case Vol, Manigance:
			if s.seats[q].hand.size() == 0 {
				continue
			}
		}
		out = append(out, q)
	}
	return out
}

// chooseVent answers a vent token: move to another vent area, or stay (D16).
func (s *State) chooseVent(p int, a ChooseVent, ev *[]engine.Event) *engine.RuleError {
	if err := s.expect(pendVent, phaseMove); err != nil {
		return err
	}
	me := &s.seats[p]
	if a.Area == ventNone {
		s.pend = pending{}
		return nil
	}
	to := -1
	for _, v := range board.vents {
		if areas[v].ID == a.Area && v != me.area {
			to = int(v)
		}
	}
	if to < 0 {
		return engine.Refuse(codeBadVent, "Choose another vent area, or \"none\" to stay where you are.")
	}
	s.pend = pending{}
	from := me.area
	me.area, me.lastDoor = Area(to), -1
	tell(ev, PawnMoved{Seat: p, From: from, To: me.area, Cause: causeVent})
	return nil
}

// chooseCodetainee answers a co-detainee token: one face-up card, the top
// Combines card, or the top Pass-Pass card (D18).
func (s *State) chooseCodetainee(p int, a ChooseCodetainee, ev *[]engine.Event) *engine.RuleError {
	if err := s.expect(pendCodetainee, phaseMove); err != nil {
		return err
	}
	i, hasSlot := a.Slot.Get()
	switch {
	case a.Source == sourceFaceUp && hasSlot:
		if i < 0 || i >= rowSize || s.row[i] == noCard {
			return engine.Refuse(codeBadSlots, "Choose a face-up card in slots 0 to 4.")
		}
		s.pend = pending{}
		c := s.row[i]
		s.row[i] = noCard
		s.gainPublic(p, c)
		tell(ev, TookFaceUp{Seat: p, Slots: slotLists[i][i], Cards: CardsOf(c)})
		s.refillRow(ev, slotLists[i][i])
		s.checkHandLimit(p)
	case a.Source == sourceBlind && !hasSlot:
		if s.supply() == 0 {
			return engine.Refuse(codeNoSupply, "There are no Combines cards left to draw.")
		}
		s.pend = pending{}
		c, _ := s.drawCard(ev)
		s.seats[p].hand.add(c)
		s.tellSplit(ev, DrewBlind{Seat: p, Count: 1, Cards: CardsOf(c)}, DrewBlind{Seat: p, Count: 1}, p, p)
		s.checkHandLimit(p)
	case a.Source == sourcePassPass && !hasSlot:
		s.pend = pending{}
		s.resolvePassPass(p, ev)
	default:
		return engine.Refuse(codeBadSource, "Take a face-up card (with its slot), a blind card, or a Pass-Pass card.")
	}
	return nil
}

// chooseTarget names the opponent of Épreuve de force, Vol, Manigance or
// Chantage (§4.9).
func (s *State) chooseTarget(p int, a ChooseTarget, ev *[]engine.Event) *engine.RuleError {
	if err := s.expect(pendTarget, phaseMove); err != nil {
		return err
	}
	c := s.pend.card
	q := a.Seat
	if !slices.Contains(s.targets(p, c), q) {
		return engine.Refuse(codeBadTarget, "You cannot play %s on %s.", passPassCards[c].En, engine.Seat(q).Name())
	}
	s.pend = pending{}
	tell(ev, TargetChosen{Seat: p, Target: q, Card: c})
	switch c {
	case EpreuveDeForce: // back through its last door; the door flips; no Warning
		v := &s.seats[q]
		d := Door(v.lastDoor)
		from := v.area
		v.area, v.lastDoor = board.other(d, from), -1
		s.flip(d)
		tell(ev, PawnMoved{Seat: q, From: from, To: v.area, Cause: causeEpreuve})
		tell(ev, DoorFlipped{Door: d, Face: s.face(d), Cause: causeEpreuve})
	case Vol:
		s.stealRandom(q, p, causeVol, ev)
		s.checkHandLimit(p)
	case Manigance:
		got := s.stealRandom(q, p, causeManigance, ev)
		s.pend = pending{kind: pendGiveCards, seat: int8(p), target: int8(q), count: int8(got)}
	case Chantage:
		s.pend = pending{kind: pendBlackmail, seat: int8(q), target: int8(p)}
	}
	return nil
}

// stealRandom moves min(2, hand) cards of seat from, picked uniformly one at
// a time, to seat to.
func (s *State) stealRandom(from, to int, cause string, ev *[]engine.Event) int {
	h := s.seats[from].hand
	k := min(takeCount, h.size())
	var got Cards
	for range k {
		c := h.nth(s.rng.IntN(h.size()))
		h[c]--
		got.a[got.n] = c
		got.n++
	}
	got.sort()
	s.moveCards(from, to, got.items())
	s.tellCardsMoved(from, to, got, cause, ev)
	return k
}

func (s *State) tellCardsMoved(from, to int, cs Cards, cause string, ev *[]engine.Event) {
	s.tellSplit(ev,
		CardsMoved{From: from, To: to, Count: cs.Len(), Cards: cs, Cause: cause},
		CardsMoved{From: from, To: to, Count: cs.Len(), Cause: cause},
		from, to)
}

// giveCards gives the Manigance target as many cards as were taken; hand
// sizes end where they started, so no discard follows.
func (s *State) giveCards(p int, a GiveCards, ev *[]engine.Event) *engine.RuleError {
	if err := s.expect(pendGiveCards, phaseMove); err != nil {
		return err
	}
	if err := checkCards(&s.seats[p].hand, a.Cards.items(), int(s.pend.count), "give back"); err != nil {
		return err
	}
	q := int(s.pend.target)
	s.pend = pending{}
	cs := sortedCards(a.Cards)
	s.moveCards(p, q, cs.items())
	s.tellCardsMoved(p, q, cs, causeGiveBack, ev)
	return nil
}

// answerBlackmail is the Chantage target's choice: give two cards of its
// choice (only with at least two), or skip its next turn (D39).
func (s *State) answerBlackmail(p int, a AnswerBlackmail, ev *[]engine.Event) *engine.RuleError {
	if err := s.expect(pendBlackmail, phaseMove); err != nil {
		return err
	}
	r := int(s.pend.target)
	switch {
	case a.Skip && a.Give.Len() == 0:
		s.pend = pending{}
		s.seats[p].skip++
		tell(ev, SkipOwed{Seat: p, Skip: s.seats[p].skip, Cause: causeChantage})
	case !a.Skip && a.Give.Len() > 0:
		if err := checkCards(&s.seats[p].hand, a.Give.items(), takeCount, "give"); err != nil {
			return err
		}
		s.pend = pending{}
		cs := sortedCards(a.Give)
		s.moveCards(p, r, cs.items())
		s.tellCardsMoved(p, r, cs, causeChantage, ev)
		s.checkHandLimit(r)
	default:
		return engine.Refuse(codeBadAnswer, "Either give two cards or skip your next turn.")
	}
	return nil
}

// chooseDoors flips 0, 1 or 2 distinct inner doors (Retournement, D37).
func (s *State) chooseDoors(_ int, a ChooseDoors, ev *[]engine.Event) *engine.RuleError {
	if err := s.expect(pendDoors, phaseMove); err != nil {
		return err
	}
	ds := a.Doors.items()
	if len(ds) > 2 {
		return engine.Refuse(codeBadDoors, "Retournement flips at most two doors.")
	}
	for i, d := range ds {
		if int(d) >= numDoors {
			return engine.Refuse(codeBadDoors, "There is no such door.")
		}
		if board.exitDoor[d] {
			return engine.Refuse(codeBadDoors, "Retournement cannot flip an exit door.")
		}
		if i > 0 && ds[0] == d {
			return engine.Refuse(codeBadDoors, "Choose two different doors.")
		}
	}
	s.pend = pending{}
	for _, d := range ds {
		s.flip(d)
		tell(ev, DoorFlipped{Door: d, Face: s.face(d), Cause: causeRetournment})
	}
	return nil
}
