package evades

import (
	"slices"

	"sortie/engine"
)

// This file is the turn of §4 read top-down: who acts, what is legal, and one
// function per action. The Warning and Pass-Pass effects live in effects.go.

// Error codes of refused actions, beyond the engine's.
const (
	codePending        = "decision_pending"
	codeBadSlots       = "bad_slots"
	codeDiscardCount   = "wrong_discard_count"
	codeNotInHand      = "cards_not_in_hand"
	codeNoSupply       = "no_cards_left"
	codeNotAdjacent    = "door_not_adjacent"
	codeNotYourExit    = "not_your_exit"
	codeObjectRequired = "object_required"
	codeBadPayment     = "wrong_payment"
	codeNoCredit       = "no_credit"
	codeCorruptionExit = "corruption_on_exit"
	codeObjectNotHere  = "object_not_here"
	codeObjectOffPlan  = "object_not_on_plan"
	codeObjectCarried  = "object_type_carried"
	codeCarryLimit     = "carry_limit"
	codeBadVent        = "bad_vent"
	codeBadSource      = "bad_source"
	codeBadTarget      = "bad_target"
	codeBadDoors       = "bad_doors"
	codeCardCount      = "wrong_card_count"
	codeBadAnswer      = "bad_answer"
)

// Actors returns the seat that must act: the active seat, or whoever owes the
// pending decision (the Chantage target answers during another's turn).
func (s *State) Actors() []engine.Seat {
	if s.phase == phaseOver {
		return nil
	}
	a := s.actor()
	return allSeats[a : a+1 : a+1]
}

// allSeats backs the one-seat slices Actors returns (no allocation per call;
// the capacity limit makes an append by the caller copy).
var allSeats = [maxPlayers]engine.Seat{0, 1, 2, 3}

func (s *State) actor() int {
	if s.pend.kind != pendNone {
		return int(s.pend.seat)
	}
	return int(s.active)
}

// Advance does nothing: the game has no clock.
func (s *State) Advance(engine.Millis) []engine.Event { return nil }

// Deadline reports that nothing is scheduled.
func (s *State) Deadline() (engine.Millis, bool) { return 0, false }

// Outcome returns the result once someone has escaped or the turn limit was
// reached (§5, D30).
func (s *State) Outcome() (engine.Outcome, bool) {
	if s.phase != phaseOver {
		return engine.Outcome{}, false
	}
	o := engine.Outcome{Ranks: make([]int, s.n), Scores: make([]int, s.n), Winners: []engine.Seat{}}
	if s.winner == noSeat {
		for p := range o.Ranks {
			o.Ranks[p] = 1
		}
		o.Summary = "Nobody escaped before the turn limit."
		return o, true
	}
	for p := range o.Ranks {
		o.Ranks[p] = 2
	}
	w := int(s.winner)
	o.Ranks[w], o.Scores[w] = 1, 1
	o.Winners = []engine.Seat{engine.Seat(w)}
	o.Summary = "The winner, " + engine.Seat(w).Name() + ", escaped through the " + areas[board.planExit[s.seats[w].plan]].En + " exit."
	return o, true
}

// RatedResult says what the match is for rating: every prisoner for
// themselves, the one who escaped first and the others behind (all tied
// when nobody escaped).
func (s *State) RatedResult() (engine.Result, bool) {
	o, over := s.Outcome()
	if !over {
		return engine.Result{Family: engine.FreeForAll}, false
	}
	return engine.FreeForAllResult(o, ""), true
}

// ---- Legal ----

// slotPairs are the 10 ways to pick two face-up slots, in order, and
// slotPairIndex[i][j] (i < j) the index of {i, j} among them.
var slotPairs, slotPairIndex = func() (out []SlotPair, index [rowSize][rowSize]int) {
	for i := range rowSize {
		for j := i + 1; j < rowSize; j++ {
			index[i][j] = len(out)
			out = append(out, SlotPair{int8(i), int8(j)})
		}
	}
	return out, index
}()

// Legal returns every legal action of seat p. Cards are named by type, so
// every distinct payment, discard or gift is listed once (D40). The actions
// are canonical values built once (see canon), and the most frequent lists
// (step 1, Retournement, a lone end_turn) are shared too: a caller may keep
// or append to the slice, but never write into it (I11).
func (s *State) Legal(p engine.Seat) []engine.Action {
	if s.phase == phaseOver || int(p) != s.actor() {
		return nil
	}
	me := int(p)
	h := &s.seats[me].hand
	switch s.pend.kind {
	case pendVent:
		return s.legalVent(me)
	case pendCodetainee:
		return s.legalCodetainee()
	case pendTarget:
		acts := []engine.Action{}
		for _, q := range s.targets(me, s.pend.card) {
			acts = append(acts, canon.target[q])
		}
		return acts
	case pendDoors:
		return canon.doors
	case pendGiveCards:
		return cardChoices(h, int(s.pend.count), &canon.give)
	case pendBlackmail:
		if h.size() < takeCount {
			return canon.skipOnly
		}
		return cardChoices(h, takeCount, &canon.blackmail, canon.blackmailSkip)
	case pendDiscard:
		return cardChoices(h, int(s.pend.count), &canon.discard)
	}
	if s.phase == phaseAction {
		return s.legalDraw(me)
	}
	return s.legalMove(me)
}

// drawDiscard is how many cards a seat must discard before taking two (D10).
func (s *State) drawDiscard(p int) int {
	return max(0, s.seats[p].hand.size()+takeCount-handLimit)
}

// legalDraw lists step 1: each pair of face-up slots, the blind draw (if
// the piles hold enough, counting the discard the draw needs) and the
// Pass-Pass card. The discard a draw needs at 11 or 12 cards is its own
// decision (I13), so the list never grows past 12, and it is nearly always
// the same shared list.
func (s *State) legalDraw(p int) []engine.Action {
	if s.supply()+s.drawDiscard(p) >= takeCount && !slices.Contains(s.row[:], noCard) {
		return canon.drawAll
	}
	acts := make([]engine.Action, 0, numSlotPairs+2)
	for i, pr := range slotPairs {
		if s.row[pr[0]] != noCard && s.row[pr[1]] != noCard {
			acts = append(acts, canon.takeFaceUp[i])
		}
	}
	if s.supply()+s.drawDiscard(p) >= takeCount {
		acts = append(acts, canon.takeBlind)
	}
	return append(acts, canon.drawPassPass)
}

func (s *State) legalMove(p int) []engine.Action {
	me := &s.seats[p]
	adj := board.adj[me.area]
	var buf [32]engine.Action
	acts := buf[:0]
	for _, d := range adj {
		if board.exitDoor[d] && !s.mayExit(p, d) {
			continue
		}
		t := s.face(d)
		n := cards[t].Level
		for j := max(0, n-int(me.hand[t])); j <= min(n, int(me.hand[Joker])); j++ {
			acts = append(acts, canon.cross[d][t][j])
		}
		if s.badge > 0 {
			acts = append(acts, canon.crossCredit[d][BadgeCredit])
		}
		if s.corruption > 0 && !board.exitDoor[d] {
			acts = append(acts, canon.crossCredit[d][CorruptionCredit])
		}
	}
	if board.isRoom[me.area] {
		for o := range numObjects {
			if s.mayTakeObject(p, Object(o)) {
				acts = append(acts, canon.takeObject[o])
			}
		}
	}
	if len(acts) == 0 {
		return canon.endOnly
	}
	return exactly(append(acts, canon.endTurn))
}

// exactly returns a copy of a list built in a buffer on the stack: the one
// allocation of a Legal call, of the list's own size.
func exactly(acts []engine.Action) []engine.Action {
	out := make([]engine.Action, len(acts))
	copy(out, acts)
	return out
}

func (s *State) legalVent(p int) []engine.Action {
	acts := make([]engine.Action, 0, len(board.vents)+1)
	for _, v := range board.vents {
		if v != s.seats[p].area {
			acts = append(acts, canon.vent[v])
		}
	}
	return append(acts, canon.ventNone)
}

func (s *State) legalCodetainee() []engine.Action {
	acts := make([]engine.Action, 0, rowSize+2)
	for i := range rowSize {
		if s.row[i] != noCard {
			acts = append(acts, canon.codetFaceUp[i])
		}
	}
	if s.supply() > 0 {
		acts = append(acts, canon.codetBlind)
	}
	return append(acts, canon.codetPassPass)
}

// cardChoices lists one action per distinct multiset of k cards of h (k is
// at most 2: see numCanonSets), taken from a canonical table, then extra.
func cardChoices(h *hand, k int, table *[numCanonSets]engine.Action, extra ...engine.Action) []engine.Action {
	var types [numCards]Card // the types in hand
	m, doubles := 0, 0
	for c := range numCards {
		if h[c] > 0 {
			types[m] = c
			m++
			if h[c] >= 2 {
				doubles++
			}
		}
	}
	n := 1 // k == 0: the empty set
	switch k {
	case 1:
		n = m
	case 2:
		n = doubles + m*(m-1)/2
	}
	acts := make([]engine.Action, 0, n+len(extra))
	switch k {
	case 0:
		acts = append(acts, table[0])
	case 1:
		for _, c := range types[:m] {
			acts = append(acts, table[1+int(c)])
		}
	case 2: // the order of canonSets
		for i, a := range types[:m] {
			if h[a] >= 2 {
				acts = append(acts, table[canonPair(a, a)])
			}
			for _, b := range types[i+1 : m] {
				acts = append(acts, table[canonPair(a, b)])
			}
		}
	}
	return append(acts, extra...)
}

// ---- Apply ----

// Apply plays one action of seat p. A refused action returns a
// *engine.RuleError and leaves the state untouched: every check runs before
// the first change.
func (s *State) Apply(p engine.Seat, a engine.Action, _ engine.Millis) ([]engine.Event, error) {
	if s.phase == phaseOver {
		return nil, engine.GameOver()
	}
	if p < 0 || int(p) >= s.n || int(p) != s.actor() {
		return nil, engine.NotYourTurn(p)
	}
	ev := make([]engine.Event, 0, 4) // most actions tell 1 to 3 events
	var err *engine.RuleError
	me := int(p)
	switch a := a.(type) {
	case *TakeFaceUp:
		err = s.takeFaceUp(me, deref(a), &ev)
	case TakeFaceUp:
		err = s.takeFaceUp(me, a, &ev)
	case *TakeBlind, TakeBlind:
		err = s.takeBlind(me, &ev)
	case *DrawPassPass, DrawPassPass:
		err = s.drawPassPass(me, &ev)
	case *CrossDoor:
		err = s.crossDoor(me, deref(a), &ev)
	case CrossDoor:
		err = s.crossDoor(me, a, &ev)
	case *TakeObject:
		err = s.takeObject(me, deref(a), &ev)
	case TakeObject:
		err = s.takeObject(me, a, &ev)
	case *EndTurn, EndTurn:
		err = s.endTurnAction(me, &ev)
	case *ChooseVent:
		err = s.chooseVent(me, deref(a), &ev)
	case ChooseVent:
		err = s.chooseVent(me, a, &ev)
	case *ChooseCodetainee:
		err = s.chooseCodetainee(me, deref(a), &ev)
	case ChooseCodetainee:
		err = s.chooseCodetainee(me, a, &ev)
	case *ChooseTarget:
		err = s.chooseTarget(me, deref(a), &ev)
	case ChooseTarget:
		err = s.chooseTarget(me, a, &ev)
	case *ChooseDoors:
		err = s.chooseDoors(me, deref(a), &ev)
	case ChooseDoors:
		err = s.chooseDoors(me, a, &ev)
	case *GiveCards:
		err = s.giveCards(me, deref(a), &ev)
	case GiveCards:
		err = s.giveCards(me, a, &ev)
	case *AnswerBlackmail:
		err = s.answerBlackmail(me, deref(a), &ev)
	case AnswerBlackmail:
		err = s.answerBlackmail(me, a, &ev)
	case *Discard:
		err = s.discardAction(me, deref(a), &ev)
	case Discard:
		err = s.discardAction(me, a, &ev)
	default:
		return nil, engine.Refuse(engine.CodeMalformed, "This is not an action of Les Évadés.")
	}
	if err != nil {
		return nil, err
	}
	return ev, nil
}

// deref reads an action given by pointer; a nil pointer reads as the zero
// action, which the rules then refuse or accept on its merits.
func deref[T any](a *T) T {
	if a == nil {
		var zero T
		return zero
	}
	return *a
}

// expect refuses an action of the wrong kind for the moment: a pending
// decision comes first, and each step has its own actions.
func (s *State) expect(want pendKind, ph phase) *engine.RuleError {
	if s.pend.kind != want {
		if s.pend.kind != pendNone {
			return engine.Refuse(codePending, "First answer the pending decision (%s).", pendIDs[s.pend.kind])
		}
		return engine.Refuse(engine.CodeWrongPhase, "There is no such decision to take now.")
	}
	if want == pendNone && s.phase != ph {
		if ph == phaseAction {
			return engine.Refuse(engine.CodeWrongPhase, "You have already taken this turn's draw action: cross doors or end your turn.")
		}
		return engine.Refuse(engine.CodeWrongPhase, "First take this turn's draw action: two face-up cards, two blind cards or a Pass-Pass card.")
	}
	return nil
}

// checkCards refuses a list of cards the hand does not hold, or of the wrong
// length.
func checkCards(h *hand, cs []Card, want int, what string) *engine.RuleError {
	if len(cs) != want {
		code := codeCardCount
		if what == "discard" {
			code = codeDiscardCount
		}
		return engine.Refuse(code, "You must %s exactly %s, not %d.", what, count(want, "card"), len(cs)).With("want", want).With("given", len(cs))
	}
	if !h.contains(cs) {
		return engine.Refuse(codeNotInHand, "You cannot %s cards you do not hold.", what)
	}
	return nil
}

// takeFaceUp: step 1, two face-up cards (§4.3, D8). At 11 or 12 cards the
// draw waits for its discard (D10, I13).
func (s *State) takeFaceUp(p int, a TakeFaceUp, ev *[]engine.Event) *engine.RuleError {
	if err := s.expect(pendNone, phaseAction); err != nil {
		return err
	}
	i, j := int(min(a.Slots[0], a.Slots[1])), int(max(a.Slots[0], a.Slots[1]))
	if i == j || i < 0 || j >= rowSize {
		return engine.Refuse(codeBadSlots, "Take two different face-up cards, in slots 0 to 4.")
	}
	if s.row[i] == noCard || s.row[j] == noCard {
		return engine.Refuse(codeBadSlots, "That face-up slot is empty.")
	}
	if k := s.drawDiscard(p); k > 0 {
		s.pend = pending{kind: pendDiscard, seat: int8(p), count: int8(k), draw: drawFaceUp, slots: uint8(slotPairIndex[i][j])}
		return nil
	}
	s.drawFaceUp(p, i, j, ev)
	return nil
}

// drawFaceUp moves the cards of slots i < j to seat p's hand and refills the
// row.
func (s *State) drawFaceUp(p, i, j int, ev *[]engine.Event) {
	sl := slotLists[i][j]
	got := CardsOf(s.row[i], s.row[j])
	s.row[i], s.row[j] = noCard, noCard
	s.gainPublic(p, got.items()...)
	tell(ev, TookFaceUp{Seat: p, Slots: sl, Cards: got})
	s.refillRow(ev, sl) // the two events share the read-only slot list
	s.phase = phaseMove
}

// takeBlind: step 1, the top two Combines cards (§4.3). At 11 or 12 cards
// the draw waits for its discard (D10, I13).
func (s *State) takeBlind(p int, ev *[]engine.Event) *engine.RuleError {
	if err := s.expect(pendNone, phaseAction); err != nil {
		return err
	}
	k := s.drawDiscard(p)
	if s.supply()+k < takeCount {
		return engine.Refuse(codeNoSupply, "There are not enough Combines cards left to draw.")
	}
	if k > 0 {
		s.pend = pending{kind: pendDiscard, seat: int8(p), count: int8(k), draw: drawBlind}
		return nil
	}
	s.drawBlind(p, ev)
	return nil
}

// drawBlind moves the top two Combines cards to seat p's hand.
func (s *State) drawBlind(p int, ev *[]engine.Event) {
	var got Cards
	for range takeCount {
		c, _ := s.drawCard(ev)
		got.a[got.n] = c
		got.n++
	}
	s.seats[p].hand.add(got.items()...)
	s.tellSplit(ev, DrewBlind{Seat: p, Count: takeCount, Cards: got}, DrewBlind{Seat: p, Count: takeCount}, p, p)
	s.phase = phaseMove
}

// drawPassPass: step 1, the top Pass-Pass card, resolved at once (§4.3). It
// needs no discard, even at 12 cards.
func (s *State) drawPassPass(p int, ev *[]engine.Event) *engine.RuleError {
	if err := s.expect(pendNone, phaseAction); err != nil {
		return err
	}
	s.phase = phaseMove
	s.resolvePassPass(p, ev)
	return nil
}

// mayExit reports whether seat p may cross exit door d, payment aside (D24).
func (s *State) mayExit(p int, d Door) bool {
	return board.planDoor[s.seats[p].plan] == d && s.carriedCount(p) >= s.objectsRequired
}

// exitRefusal says why seat p may not cross exit door d, if it may not (D24).
func (s *State) exitRefusal(p int, d Door) *engine.RuleError {
	pl := s.seats[p].plan
	if board.planDoor[pl] != d {
		return engine.Refuse(codeNotYourExit, "This is not your exit: your escape plan leads elsewhere.")
	}
	if n := s.carriedCount(p); n < s.objectsRequired {
		if s.objectsRequired == 1 {
			return engine.Refuse(codeObjectRequired, "You need your escape object before you can cross your exit door.")
		}
		return engine.Refuse(codeObjectRequired, "You need both objects of your escape plan before you can cross your exit door (you carry %d).", n)
	}
	return nil
}

// crossDoor: step 2, cross one door touching the pawn's area, paying its
// current face or using a credit (§4.6, D12, D13, D17, D38).
func (s *State) crossDoor(p int, a CrossDoor, ev *[]engine.Event) *engine.RuleError {
	if err := s.expect(pendNone, phaseMove); err != nil {
		return err
	}
	me := &s.seats[p]
	d := a.Door
	if int(d) >= numDoors || !board.touches(d, me.area) {
		return engine.Refuse(codeNotAdjacent, "You can only cross a door of the area your pawn stands in (%s).", areas[me.area].En)
	}
	exit := board.exitDoor[d]
	if exit {
		if err := s.exitRefusal(p, d); err != nil {
			return err
		}
	}
	t := s.face(d)
	a.Pay = sortedCards(a.Pay)
	pay := a.Pay.items()
	switch a.Credit {
	case NoCredit:
		n := cards[t].Level
		if len(pay) != n {
			return engine.Refuse(codeBadPayment, "Door %s shows %s: it needs exactly %s of that type or jokers, not %d.", doors[d].ID, cards[t].En, count(n, "card"), len(pay))
		}
		for _, c := range pay {
			if c != t && c != Joker {
				return engine.Refuse(codeBadPayment, "Door %s shows %s: pay it with %s or joker cards only.", doors[d].ID, cards[t].En, cards[t].En)
			}
		}
		if !me.hand.contains(pay) {
			return engine.Refuse(codeNotInHand, "You do not hold the cards of that payment.")
		}
	case BadgeCredit, CorruptionCredit:
		if len(pay) != 0 {
			return engine.Refuse(codeBadPayment, "A credit replaces the payment: pay no cards with it.")
		}
		if a.Credit == BadgeCredit && s.badge == 0 {
			return engine.Refuse(codeNoCredit, "You have no badge to use this turn.")
		}
		if a.Credit == CorruptionCredit {
			if s.corruption == 0 {
				return engine.Refuse(codeNoCredit, "You have no Corruption crossing to use this turn.")
			}
			if exit {
				return engine.Refuse(codeCorruptionExit, "Corruption cannot open an exit door.")
			}
		}
	default:
		return engine.Refuse(codeNoCredit, "A credit is either \"badge\" or \"corruption\".")
	}
	// Everything is checked: play it.
	switch a.Credit {
	case NoCredit:
		s.discardPublic(p, pay)
	case BadgeCredit:
		s.badge--
	case CorruptionCredit:
		s.corruption--
	}
	from := me.area
	me.area, me.lastDoor = board.other(d, from), int8(d)
	if !exit {
		s.flip(d) // D37: exit tabs never turn
	}
	tell(ev, DoorCrossed{Seat: p, Door: d, From: from, To: me.area, Pay: a.Pay, Credit: a.Credit, Face: s.face(d)})
	if exit {
		s.finish(p, ev)
		return nil
	}
	if board.warning[d] {
		s.resolveWarning(p, d, from, ev)
	}
	return nil
}

// mayTakeObject reports whether seat p may pick up token o now (D23).
func (s *State) mayTakeObject(p int, o Object) bool {
	if int(s.objRoom[o]) != int(s.seats[p].area) || !onPlan(s.seats[p].plan, objects[o].Type) {
		return false
	}
	n, has := s.carried(p, objects[o].Type)
	return !has && n < s.objectsRequired
}

// objectRefusal says why seat p may not pick up token o now, if it may not
// (D23).
func (s *State) objectRefusal(p int, o Object) *engine.RuleError {
	if int(o) >= numObjects || int(s.objRoom[o]) != int(s.seats[p].area) {
		return engine.Refuse(codeObjectNotHere, "That object is not in the room where your pawn stands.")
	}
	t := objects[o].Type
	if !onPlan(s.seats[p].plan, t) {
		return engine.Refuse(codeObjectOffPlan, "That object is not on your escape plan.")
	}
	n, has := s.carried(p, t)
	if has {
		return engine.Refuse(codeObjectCarried, "You already carry an object of that kind.")
	}
	if n >= s.objectsRequired {
		return engine.Refuse(codeCarryLimit, "You already carry all the objects your escape needs.")
	}
	return nil
}

// takeObject: step 2, pick up an object of one's plan in the pawn's room
// (§4.7, D23).
func (s *State) takeObject(p int, a TakeObject, ev *[]engine.Event) *engine.RuleError {
	if err := s.expect(pendNone, phaseMove); err != nil {
		return err
	}
	if err := s.objectRefusal(p, a.Token); err != nil {
		return err
	}
	room := Area(s.objRoom[a.Token])
	s.objRoom[a.Token], s.objHolder[a.Token] = noSeat, int8(p)
	tell(ev, ObjectTaken{Seat: p, Token: a.Token, Room: room})
	return nil
}

// endTurnAction: step 2 always ends with an explicit end_turn (D34).
func (s *State) endTurnAction(_ int, ev *[]engine.Event) *engine.RuleError {
	if err := s.expect(pendNone, phaseMove); err != nil {
		return err
	}
	s.endTurn(ev)
	return nil
}

// discardAction: the discard before a draw at 11 or 12 cards, which then
// takes place (D10, I13), or back down to 12 cards after a gain (§4.5).
func (s *State) discardAction(p int, a Discard, ev *[]engine.Event) *engine.RuleError {
	if err := s.expect(pendDiscard, phaseMove); err != nil {
		return err
	}
	cs := sortedCards(a.Cards)
	if err := checkCards(&s.seats[p].hand, cs.items(), int(s.pend.count), "discard"); err != nil {
		return err
	}
	pd := s.pend
	s.pend = pending{}
	s.discardPublic(p, cs.items())
	tell(ev, CardsDiscarded{Seat: p, Cards: cs, Cause: causeHandLimit})
	switch pd.draw {
	case drawFaceUp:
		pr := slotPairs[pd.slots]
		s.drawFaceUp(p, int(pr[0]), int(pr[1]), ev)
	case drawBlind:
		s.drawBlind(p, ev)
	}
	return nil
}

// checkHandLimit opens a discard decision when a gain left seat p above 12
// cards (§4.5, D10).
func (s *State) checkHandLimit(p int) {
	if over := s.seats[p].hand.size() - handLimit; over > 0 {
		s.pend = pending{kind: pendDiscard, seat: int8(p), count: int8(over)}
	}
}

// ---- Turn order (§4.2, §4.10) ----

// endTurn ends the active seat's turn: a camera reverses play, credits expire,
// an extra turn is given before play moves on (D28).
func (s *State) endTurn(ev *[]engine.Event) {
	p := int(s.active)
	s.pend = pending{}
	tell(ev, TurnEnded{Seat: p})
	if s.reverseAtEnd {
		s.direction = -s.direction
		tell(ev, DirectionChanged{Direction: int(s.direction)})
	}
	next := p
	if s.seats[p].extra > 0 {
		s.seats[p].extra--
	} else {
		next = s.nextSeat(p)
	}
	s.beginTurn(next, ev)
}

// beginTurn starts seat p's turn, running skipped turns by itself, or ends
// the game at the turn limit (D29).
func (s *State) beginTurn(p int, ev *[]engine.Event) {
	for {
		if s.turnsBegun >= s.turnLimit {
			s.finish(noSeat, ev)
			return
		}
		s.turnsBegun++
		s.active = int8(p)
		s.badge, s.corruption, s.reverseAtEnd = 0, 0, false
		s.pend = pending{}
		tell(ev, TurnBegan{Seat: p, Turn: s.turnsBegun})
		me := &s.seats[p]
		if me.skip == 0 {
			s.phase = phaseAction
			return
		}
		me.skip--
		tell(ev, TurnSkipped{Seat: p})
		tell(ev, TurnEnded{Seat: p})
		if me.extra > 0 {
			me.extra--
		} else {
			p = s.nextSeat(p)
		}
	}
}

// finish ends the game: winner escaped, or noSeat at the turn limit. Every
// plan is revealed (§5, §7).
func (s *State) finish(winner int, ev *[]engine.Event) {
	s.phase, s.winner, s.pend = phaseOver, int8(winner), pending{}
	e := GameEnded{Winner: winner, Aside: slices.Clone(s.aside), Reason: "turn_limit"}
	if winner != noSeat {
		x := board.planExit[s.seats[winner].plan]
		e.Exit, e.Reason = &x, "escaped"
	}
	for p := range s.n {
		e.Plans = append(e.Plans, SeatPlan{Seat: p, Plan: s.seats[p].plan})
	}
	tell(ev, e)
}
