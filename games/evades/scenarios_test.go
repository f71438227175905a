package evades

import (
	"encoding/json"
	"slices"
	"testing"

	"sortie/engine"
)

// The scenarios of shared/rules/evades.md §10.1, one test each, named after
// their ids.

func TestS01SetupFourPlayers(t *testing.T) {
	for seed := range uint64(200) {
		st, err := Game{}.New(engine.Setup{Players: 4, Seed: seed})
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*State)
		for p := range 4 {
			if got := s.seats[p].hand.size(); got != dealSize {
				t.Fatalf("seed %d: seat %d holds %d cards", seed, p, got)
			}
			if s.seats[p].area != cellArea || s.seats[p].lastDoor != -1 {
				t.Fatalf("seed %d: pawn %d is not in the cell with no last door", seed, p)
			}
		}
		var plansSeen [numPlans]bool
		for p := range 4 {
			plansSeen[s.seats[p].plan] = true
		}
		for pl, ok := range plansSeen {
			if !ok {
				t.Fatalf("seed %d: plan %s was not dealt", seed, plans[pl].ID)
			}
		}
		wipes := len(s.discard) / rowSize
		if len(s.discard)%rowSize != 0 || len(s.pile) != 82-24-5-5*wipes {
			t.Fatalf("seed %d: pile %d, discard %d", seed, len(s.pile), len(s.discard))
		}
		if wipes < wipeCap && s.rowHasTriple() {
			t.Fatalf("seed %d: the row %v holds a triple", seed, s.row)
		}
		var tabs [len(innerTabs)]bool
		for d := range numDoors {
			f := s.face(Door(d))
			if board.exitDoor[d] {
				if f != Uniform && f != Keypad {
					t.Fatalf("seed %d: exit door %s shows %s", seed, doors[d].ID, cards[f].ID)
				}
				continue
			}
			if tabs[s.doorTab[d]] {
				t.Fatalf("seed %d: tab %s is in two doors", seed, innerTabs[s.doorTab[d]].ID)
			}
			tabs[s.doorTab[d]] = true
		}
		var pairs []string
		for _, r := range board.rooms {
			var here []string
			for o, a := range s.objRoom {
				if Area(a) == r {
					here = append(here, objects[o].ID)
				}
			}
			if len(here) != 2 {
				t.Fatalf("seed %d: room %s holds %v", seed, areas[r].ID, here)
			}
			pairs = append(pairs, here[0]+"+"+here[1])
		}
		slices.Sort(pairs)
		if len(slices.Compact(pairs)) != 4 {
			t.Fatalf("seed %d: rooms hold %v", seed, pairs)
		}
		if s.warnColour != orange || len(s.warnPile) != tokensPerColour || len(s.warnUsed[black]) != 0 {
			t.Fatalf("seed %d: warnings %s %d", seed, colourIDs[s.warnColour], len(s.warnPile))
		}
		if len(s.ppPile) != 24 || len(s.ppDiscard) != 0 {
			t.Fatalf("seed %d: Pass-Pass pile %d", seed, len(s.ppPile))
		}
		if s.turnsBegun != 1 || s.phase != phaseAction {
			t.Fatalf("seed %d: the first turn has not begun", seed)
		}
	}
}

func TestS02WipeAtSetup(t *testing.T) {
	s := newGame(t, 4)
	setDiscard(s)
	s.row = [rowSize]Card{noCard, noCard, noCard, noCard, noCard}
	setPile(s, Joker, Joker, Soap, Joker, Rope, File, Spoon, Crowbar, Soap, Keypad)
	var ev []engine.Event
	s.refillRow(&ev, []int{0, 1, 2, 3, 4})
	if want := []Card{File, Spoon, Crowbar, Soap, Keypad}; !slices.Equal(s.row[:], want) {
		t.Fatalf("row %v, want %v", s.row, want)
	}
	if want := []Card{Joker, Joker, Soap, Joker, Rope}; !slices.Equal(s.discard, want) {
		t.Fatalf("discard %v, want %v", s.discard, want)
	}
}

func TestS03TakeFaceUpAndRefill(t *testing.T) {
	s := newGame(t, 4)
	setRow(s, Spoon, File, Crowbar, Soap, Rope)
	setPile(s, Cigarettes, Joker, Spoon, Spoon)
	setHand(s, 0, Spoon, Spoon, Soap, Soap, Paperclip, Paperclip)
	evs := play(t, s, 0, TakeFaceUp{Slots: SlotPair{1, 3}})
	if want := cardsOf(Spoon, Spoon, Soap, Soap, Paperclip, Paperclip, File, Soap); !slices.Equal(handOf(s, 0), want) {
		t.Fatalf("hand %v, want %v", handOf(s, 0), want)
	}
	if want := []Card{Spoon, Cigarettes, Crowbar, Joker, Rope}; !slices.Equal(s.row[:], want) {
		t.Fatalf("row %v, want %v", s.row, want)
	}
	if slices.Contains(kinds(evs, 1), "row_wiped") || s.phase != phaseMove {
		t.Fatalf("events %v, phase %s", kinds(evs, 1), phaseIDs[s.phase])
	}
}

func TestS04ThreeIdenticalAfterRefill(t *testing.T) {
	s := newGame(t, 4)
	setRow(s, Crowbar, Crowbar, Spoon, Soap, File)
	setPile(s, Crowbar, Rope, Joker, File, Soap, Rope, Keypad)
	setHand(s, 0)
	setDiscard(s)
	play(t, s, 0, TakeFaceUp{Slots: SlotPair{2, 3}})
	if want := []Card{Joker, File, Soap, Rope, Keypad}; !slices.Equal(s.row[:], want) {
		t.Fatalf("row %v, want %v", s.row, want)
	}
	if want := []Card{Crowbar, Crowbar, Crowbar, Rope, File}; !slices.Equal(s.discard, want) {
		t.Fatalf("discard %v, want %v", s.discard, want)
	}
	if want := cardsOf(Spoon, Soap); !slices.Equal(handOf(s, 0), want) {
		t.Fatalf("hand %v, want %v", handOf(s, 0), want)
	}
}

func TestS05BlindDraw(t *testing.T) {
	s := newGame(t, 4)
	setPile(s, Uniform, Spoon, Rope)
	setHand(s, 0, fill(7, Soap)...)
	row := s.row
	evs := play(t, s, 0, TakeBlind{})
	if want := cardsOf(append(fill(7, Soap), Uniform, Spoon)...); !slices.Equal(handOf(s, 0), want) {
		t.Fatalf("hand %v, want %v", handOf(s, 0), want)
	}
	if s.row != row {
		t.Fatal("the row changed")
	}
	mine, _ := find[DrewBlind](evs, 0)
	theirs, _ := find[DrewBlind](evs, 1)
	if mine.Cards != pay(Uniform, Spoon) || theirs.Cards.Len() != 0 || theirs.Count != 2 {
		t.Fatalf("seat 0 told %+v, seat 1 told %+v", mine, theirs)
	}
}

func TestS06PassPassActsAtOnce(t *testing.T) {
	s := newGame(t, 4)
	setPassPass(s, Corruption, Vol)
	setPawn(s, 0, "ring_n", "")
	setDoor(t, s, "d07", "tab_27", Screwdriver)
	setHand(s, 0, Spoon, Soap, File)
	play(t, s, 0, DrawPassPass{})
	play(t, s, 0, CrossDoor{Door: door("d07"), Credit: CorruptionCredit})
	if !slices.Equal(s.ppDiscard, []PassPass{Corruption}) {
		t.Fatalf("Pass-Pass discard %v", s.ppDiscard)
	}
	if s.seats[0].area != area("hall_n") || s.seats[0].lastDoor != int8(door("d07")) {
		t.Fatalf("pawn in %s, last door %d", areas[s.seats[0].area].ID, s.seats[0].lastDoor)
	}
	if s.face(door("d07")) != File || !slices.Equal(handOf(s, 0), cardsOf(Spoon, Soap, File)) || s.corruption != 0 {
		t.Fatalf("d07 shows %s, hand %v, credits %d", cards[s.face(door("d07"))].ID, handOf(s, 0), s.corruption)
	}
}

func TestS07CrossingTwoDoors(t *testing.T) {
	s := newGame(t, 4)
	toMove(s, 0)
	setPawn(s, 0, "cell", "")
	setDoor(t, s, "d01", "tab_01", Soap)
	setDoor(t, s, "d07", "tab_27", File)
	setHand(s, 0, Soap, File, File, Crowbar)
	setDiscard(s)
	warnings := len(s.warnPile)
	play(t, s, 0, CrossDoor{Door: door("d01"), Pay: pay(Soap)})
	play(t, s, 0, CrossDoor{Door: door("d07"), Pay: pay(File, File)})
	play(t, s, 0, EndTurn{})
	if s.seats[0].area != area("hall_n") || s.seats[0].lastDoor != int8(door("d07")) {
		t.Fatalf("pawn in %s", areas[s.seats[0].area].ID)
	}
	if s.face(door("d01")) != Spoon || s.face(door("d07")) != Screwdriver {
		t.Fatal("the doors did not flip")
	}
	if !slices.Equal(s.discard, []Card{Soap, File, File}) || !slices.Equal(handOf(s, 0), []Card{Crowbar}) {
		t.Fatalf("discard %v, hand %v", s.discard, handOf(s, 0))
	}
	if len(s.warnPile) != warnings || s.active != 1 {
		t.Fatalf("a Warning was drawn, or seat %d is active", s.active)
	}
}

func TestS08JokerCompletesCombination(t *testing.T) {
	s := newGame(t, 4)
	toMove(s, 0)
	setPawn(s, 0, "hall_n", "")
	setDoor(t, s, "d09", "tab_20", Crowbar)
	setHand(s, 0, Crowbar, Joker, Joker, Spoon)
	refuse(t, s, 0, CrossDoor{Door: door("d09"), Pay: pay(Crowbar, Joker)}, codeBadPayment)
	refuse(t, s, 0, CrossDoor{Door: door("d09"), Pay: pay(Spoon, Crowbar, Joker)}, codeBadPayment)
	play(t, s, 0, CrossDoor{Door: door("d09"), Pay: pay(Crowbar, Joker, Joker)})
	if s.seats[0].area != area("wing_ne") {
		t.Fatalf("pawn in %s", areas[s.seats[0].area].ID)
	}
}

func TestS09HandOfTwelveBlocked(t *testing.T) {
	s := newGame(t, 4)
	setPawn(s, 0, "cell", "")
	for _, d := range []string{"d01", "d02", "d03", "d04"} {
		setDoor(t, s, d, "tab_19", Crowbar)
	}
	h := append(fill(6, Soap), fill(6, Rope)...)
	setHand(s, 0, h...)
	if !slices.ContainsFunc(s.Legal(0), func(a engine.Action) bool { _, ok := a.(DrawPassPass); return ok }) {
		t.Fatal("draw_pass_pass is not legal at 12 cards")
	}
	setPile(s, Joker, File)
	setDiscard(s)
	// I13: the blind draw at 12 cards opens its discard of 2 before any
	// card moves; a discard of fewer is refused.
	if evs := play(t, s, 0, TakeBlind{}); len(evs) != 0 || s.pend.kind != pendDiscard || s.pend.count != 2 || len(s.pile) != 2 {
		t.Fatalf("take_blind at 12 cards: events %v, pending %+v", kinds(evs, 0), s.pend)
	}
	refuse(t, s, 0, Discard{}, codeDiscardCount)
	refuse(t, s, 0, Discard{Cards: pay(Soap)}, codeDiscardCount)
	refuse(t, s, 0, DrawPassPass{}, codePending)
	evs := play(t, s, 0, Discard{Cards: pay(Rope, Soap)})
	if got := kinds(evs, 0); !slices.Equal(got, []string{"cards_discarded", "drew_blind"}) {
		t.Fatalf("events %v", got)
	}
	want := cardsOf(append(append(fill(5, Soap), fill(5, Rope)...), Joker, File)...)
	if !slices.Equal(handOf(s, 0), want) || !slices.Equal(s.discard, []Card{Soap, Rope}) {
		t.Fatalf("hand %v, discard %v", handOf(s, 0), s.discard)
	}
}

func TestS10CombinesPileRunsOut(t *testing.T) {
	s := newGame(t, 4)
	setPile(s, Spoon)
	setDiscard(s, fill(30, Crowbar)...)
	s.discard[29] = Keypad
	setHand(s, 0)
	evs := play(t, s, 0, TakeBlind{})
	h := handOf(s, 0)
	if len(h) != 2 || !slices.Contains(h, Spoon) || len(s.discard) != 0 || len(s.pile) != 29 {
		t.Fatalf("hand %v, discard %d, pile %d", h, len(s.discard), len(s.pile))
	}
	if _, ok := find[CombinesReshuffled](evs, 1); !ok {
		t.Fatal("no reshuffle event")
	}
}

func TestS11FallingOnWarningSpot(t *testing.T) {
	s := newGame(t, 4)
	toMove(s, 0)
	setPawn(s, 0, "ring_n", "")
	setDoor(t, s, "d05", "tab_30", Rope)
	setHand(s, 0, Rope, Rope)
	setWarnings(s, Toothbrush, Guzman)
	evs := play(t, s, 0, CrossDoor{Door: door("d05"), Pay: pay(Rope, Rope)})
	if s.seats[0].area != area("ring_e") || s.face(door("d05")) != Screwdriver {
		t.Fatal("the crossing did not happen")
	}
	if w, _ := find[WarningDrawn](evs, 2); w.Token != Toothbrush || w.Colour != "orange" {
		t.Fatalf("warning %+v", w)
	}
	if !slices.Equal(s.warnUsed[orange], []Token{Toothbrush}) || s.phase != phaseMove || s.pend.kind != pendNone || s.active != 0 {
		t.Fatal("the toothbrush did something")
	}
}

func TestS12OrangeThenBlackThenOrange(t *testing.T) {
	s := newGame(t, 4)
	setWarnings(s, Biscuits)
	s.warnUsed[orange] = shuffledTokens(s.warnUsed[orange], &s.rng)[:19]
	var ev []engine.Event
	if tok := s.drawWarning(&ev); tok != Biscuits || s.warnColour != orange || len(s.warnUsed[orange]) != 20 {
		t.Fatalf("first draw %s from %s", tokens[tok].ID, colourIDs[s.warnColour])
	}
	s.drawWarning(&ev)
	if s.warnColour != black || len(s.warnPile) != 19 || len(s.warnUsed[black]) != 1 {
		t.Fatalf("second draw from %s, pile %d", colourIDs[s.warnColour], len(s.warnPile))
	}
	if w, _ := find[WarningPileChanged](ev, 0); w.Colour != "black" {
		t.Fatal("no colour change event")
	}
	for range 19 {
		s.drawWarning(&ev)
	}
	s.drawWarning(&ev)
	if s.warnColour != orange || len(s.warnPile) != 19 || len(s.warnUsed[orange]) != 1 || len(s.warnUsed[black]) != 20 {
		t.Fatalf("after black: %s, pile %d", colourIDs[s.warnColour], len(s.warnPile))
	}
}

func TestS13VentIsOptional(t *testing.T) {
	for _, choice := range []string{"wing_sw", ventNone} {
		s := newGame(t, 4)
		toMove(s, 0)
		setPawn(s, 0, "ring_n", "")
		setDoor(t, s, "d05", "tab_30", Rope)
		setHand(s, 0, Rope, Rope, Soap)
		setWarnings(s, Vent)
		play(t, s, 0, CrossDoor{Door: door("d05"), Pay: pay(Rope, Rope)})
		var offered []string
		for _, a := range legalOf[ChooseVent](s, 0) {
			offered = append(offered, a.Area)
		}
		if want := []string{"wing_ne", "wing_se", "wing_sw", "wing_nw", "none"}; !slices.Equal(offered, want) {
			t.Fatalf("vents offered %v, want %v", offered, want)
		}
		play(t, s, 0, ChooseVent{Area: choice})
		if choice == ventNone {
			if s.seats[0].area != area("ring_e") || s.seats[0].lastDoor != int8(door("d05")) {
				t.Fatal("declining the vent moved the pawn")
			}
			continue
		}
		if s.seats[0].area != area("wing_sw") || s.seats[0].lastDoor != -1 {
			t.Fatal("the vent did not move the pawn")
		}
		setDoor(t, s, "d25", "tab_01", Soap)
		setWarnings(s, Biscuits)
		play(t, s, 0, CrossDoor{Door: door("d25"), Pay: pay(Soap)})
		if s.seats[0].area != area("room_sw") {
			t.Fatal("the pawn could not go on")
		}
	}
}

func TestS14BadgeOpensNextDoor(t *testing.T) {
	for _, end := range []bool{false, true} {
		s := newGame(t, 4)
		toMove(s, 0)
		setPawn(s, 0, "wing_ne", "")
		setDoor(t, s, "d12", "tab_01", Soap)
		setDoor(t, s, "d16", "tab_22", Crowbar)
		setHand(s, 0, Soap, Spoon)
		setWarnings(s, Badge)
		play(t, s, 0, CrossDoor{Door: door("d12"), Pay: pay(Soap)})
		if end {
			play(t, s, 0, EndTurn{})
			if s.badge != 0 {
				t.Fatal("the badge outlived the turn")
			}
			continue
		}
		play(t, s, 0, CrossDoor{Door: door("d16"), Credit: BadgeCredit})
		if s.seats[0].area != area("wing_se") || s.face(door("d16")) != Soap || !slices.Equal(handOf(s, 0), []Card{Spoon}) {
			t.Fatal("the badge crossing went wrong")
		}
	}
}

func TestS15Codetainee(t *testing.T) {
	setup := func(t *testing.T) *State {
		s := newGame(t, 4)
		toMove(s, 0)
		setPawn(s, 0, "ring_n", "")
		setDoor(t, s, "d05", "tab_30", Rope)
		setHand(s, 0, Rope, Rope)
		setWarnings(s, Codetainee)
		setRow(s, Spoon, Crowbar, Joker, Soap, File)
		setPile(s, Rope, Spoon)
		setPassPass(s, Vol)
		play(t, s, 0, CrossDoor{Door: door("d05"), Pay: pay(Rope, Rope)})
		if len(legalOf[ChooseCodetainee](s, 0)) != 7 {
			t.Fatalf("co-detainee offers %v", legalOf[ChooseCodetainee](s, 0))
		}
		return s
	}
	t.Run("face_up", func(t *testing.T) {
		s := setup(t)
		play(t, s, 0, ChooseCodetainee{Source: sourceFaceUp, Slot: SlotAt(2)})
		if !slices.Equal(handOf(s, 0), []Card{Joker}) || s.row[2] != Rope {
			t.Fatalf("hand %v, row %v", handOf(s, 0), s.row)
		}
	})
	t.Run("blind", func(t *testing.T) {
		s := setup(t)
		row := s.row
		play(t, s, 0, ChooseCodetainee{Source: sourceBlind})
		if !slices.Equal(handOf(s, 0), []Card{Rope}) || s.row != row {
			t.Fatalf("hand %v", handOf(s, 0))
		}
	})
	t.Run("pass_pass", func(t *testing.T) {
		s := setup(t)
		play(t, s, 0, ChooseCodetainee{Source: sourcePassPass})
		if !slices.Equal(s.ppDiscard, []PassPass{Vol}) || s.pend.kind != pendTarget {
			t.Fatal("vol was not revealed and resolved")
		}
		play(t, s, 0, ChooseTarget{Seat: 1})
		if s.phase != phaseMove || s.pend.kind != pendNone || s.seats[0].hand.size() != 2 {
			t.Fatal("movement does not continue after vol")
		}
		play(t, s, 0, EndTurn{})
	})
}

func TestS16GuzmanAfterTwoDoors(t *testing.T) {
	s := newGame(t, 4)
	toMove(s, 0)
	setPawn(s, 0, "cell", "")
	setDoor(t, s, "d01", "tab_03", Spoon)
	setDoor(t, s, "d05", "tab_30", Rope)
	setHand(s, 0, Spoon, Rope, Rope, Joker)
	setWarnings(s, Guzman)
	setDiscard(s)
	play(t, s, 0, CrossDoor{Door: door("d01"), Pay: pay(Spoon)})
	play(t, s, 0, CrossDoor{Door: door("d05"), Pay: pay(Rope, Joker)})
	if s.seats[0].area != area("ring_n") || s.seats[0].lastDoor != -1 {
		t.Fatalf("pawn in %s", areas[s.seats[0].area].ID)
	}
	if s.face(door("d05")) != Rope || s.face(door("d01")) != Paperclip {
		t.Fatal("the doors are wrong")
	}
	if !slices.Equal(cardsOf(s.discard...), cardsOf(Spoon, Rope, Joker)) || !slices.Equal(handOf(s, 0), []Card{Rope}) {
		t.Fatalf("discard %v, hand %v", s.discard, handOf(s, 0))
	}
	if s.active != 1 || s.phase != phaseAction {
		t.Fatal("the turn did not end")
	}
}

func TestS17SecurityCamera(t *testing.T) {
	s := newGame(t, 3)
	toMove(s, 0)
	setPawn(s, 0, "ring_n", "")
	setDoor(t, s, "d05", "tab_30", Rope)
	setDoor(t, s, "d14", "tab_01", Soap)
	setHand(s, 0, Rope, Rope, Soap)
	setWarnings(s, Camera)
	play(t, s, 0, CrossDoor{Door: door("d05"), Pay: pay(Rope, Rope)})
	play(t, s, 0, CrossDoor{Door: door("d14"), Pay: pay(Soap)})
	play(t, s, 0, EndTurn{})
	var order []int
	for range 3 {
		order = append(order, int(s.active))
		play(t, s, int(s.active), quietDraw(s))
		if s.phase == phaseMove && s.pend.kind == pendNone {
			play(t, s, int(s.active), EndTurn{})
		}
	}
	if s.direction != -1 || !slices.Equal(order, []int{2, 1, 0}) {
		t.Fatalf("direction %d, order %v", s.direction, order)
	}

	two := newGame(t, 2)
	toMove(two, 0)
	setPawn(two, 0, "ring_n", "")
	setDoor(t, two, "d05", "tab_30", Rope)
	setHand(two, 0, Rope, Rope)
	setWarnings(two, Camera)
	play(t, two, 0, CrossDoor{Door: door("d05"), Pay: pay(Rope, Rope)})
	play(t, two, 0, EndTurn{})
	if two.active != 1 {
		t.Fatalf("with 2 seats, seat %d is next", two.active)
	}
}

// quietDraw empties the active hand and returns a draw action that resolves
// without a decision:
// two blind cards.
func quietDraw(s *State) engine.Action {
	setHand(s, int(s.active))
	return TakeBlind{}
}

func TestS18MotionDetector(t *testing.T) {
	s := newGame(t, 3, optFirst, "1")
	toMove(s, 1)
	setPawn(s, 1, "hall_n", "")
	setDoor(t, s, "d08", "tab_01", Soap)
	setHand(s, 1, Soap)
	setWarnings(s, MotionDetector)
	play(t, s, 1, CrossDoor{Door: door("d08"), Pay: pay(Soap)})
	if s.active != 2 || s.seats[1].skip != 1 {
		t.Fatalf("active %d, skip %d", s.active, s.seats[1].skip)
	}
	play(t, s, 2, quietDraw(s))
	play(t, s, 2, EndTurn{})
	play(t, s, 0, quietDraw(s))
	evs := play(t, s, 0, EndTurn{})
	if k := kinds(evs, 0); !slices.Contains(k, "turn_skipped") {
		t.Fatalf("events %v", k)
	}
	if s.active != 2 || s.seats[1].skip != 0 {
		t.Fatalf("active %d after the skipped turn", s.active)
	}
}

func TestS19Speaker(t *testing.T) {
	s := newGame(t, 3)
	toMove(s, 0)
	setPawn(s, 0, "hall_n", "")
	setPawn(s, 1, "room_se", "d18")
	s.objRoom[object("phone_1")], s.objHolder[object("phone_1")] = -1, 1
	setPawn(s, 2, "cell", "")
	setDoor(t, s, "d08", "tab_07", Spoon)
	setHand(s, 0, Spoon)
	setHand(s, 1, File)
	setHand(s, 2, Rope)
	setWarnings(s, Speaker)
	play(t, s, 0, CrossDoor{Door: door("d08"), Pay: pay(Spoon)})
	for p := range 3 {
		if s.seats[p].area != cellArea || s.seats[p].lastDoor != -1 {
			t.Fatalf("pawn %d in %s", p, areas[s.seats[p].area].ID)
		}
	}
	if s.face(door("d08")) != Screwdriver || s.objHolder[object("phone_1")] != 1 {
		t.Fatal("the Speaker changed a door or an object")
	}
	if len(handOf(s, 0)) != 0 || !slices.Equal(handOf(s, 1), []Card{File}) || s.active != 1 {
		t.Fatal("hands changed, or the turn did not end")
	}
}

func TestS20NeutralToken(t *testing.T) {
	s := newGame(t, 4)
	toMove(s, 0)
	setPawn(s, 0, "ring_n", "")
	setDoor(t, s, "d05", "tab_30", Rope)
	setHand(s, 0, Rope, Rope)
	setWarnings(s, Biscuits)
	before := s.clone()
	play(t, s, 0, CrossDoor{Door: door("d05"), Pay: pay(Rope, Rope)})
	if !slices.Equal(s.warnUsed[orange], []Token{Biscuits}) || s.pend.kind != pendNone || s.phase != phaseMove {
		t.Fatal("biscuits did something")
	}
	if s.badge != before.badge || s.reverseAtEnd || s.seats[0].skip != 0 || s.active != 0 {
		t.Fatal("biscuits changed the turn")
	}
}

func TestS21ObjectsAndEscape(t *testing.T) {
	s := newGame(t, 2)
	s.seats[0].plan, s.seats[1].plan = 0, 1 // plan_roof, plan_pier
	s.aside = append(s.aside[:0], 2, 3)
	placeObjects(s, "room_nw", "money_1", "car_keys")
	toMove(s, 0)
	setPawn(s, 0, "hall_n", "")
	setDoor(t, s, "d34", "tab_01", Soap)
	setHand(s, 0, Soap)
	play(t, s, 0, CrossDoor{Door: door("d34"), Pay: pay(Soap)})
	evs := play(t, s, 0, TakeObject{Token: object("money_1")})
	if o, _ := find[ObjectTaken](evs, 1); o.Token != object("money_1") || o.Seat != 0 {
		t.Fatal("taking the object is not public")
	}
	if s.objHolder[object("money_1")] != 0 || s.objRoom[object("car_keys")] != int8(area("room_nw")) {
		t.Fatal("the objects are wrong")
	}
	refuse(t, s, 0, TakeObject{Token: object("car_keys")}, codeObjectOffPlan)
	setPawn(s, 0, "lobby_n", "d08")
	setDoor(t, s, "d35", "tab_x1", Uniform)
	setHand(s, 0, Uniform, Uniform, Joker)
	setHand(s, 1, Spoon, Rope)
	evs = play(t, s, 0, CrossDoor{Door: door("d35"), Pay: pay(Uniform, Uniform, Joker)})
	out, over := s.Outcome()
	if !over || !slices.Equal(out.Ranks, []int{1, 2}) || !slices.Equal(out.Winners, []engine.Seat{0}) {
		t.Fatalf("outcome %+v", out)
	}
	end, _ := find[GameEnded](evs, 1)
	if len(end.Plans) != 2 || len(end.Aside) != 2 {
		t.Fatalf("end event %+v", end)
	}
	v := s.View(1).(*View)
	if v.Seats[0].Plan == nil || *v.Seats[0].Plan != 0 || !slices.Equal(v.Seats[1].Hand, []Card{Spoon, Rope}) || len(v.Revealed.Aside) != 2 {
		t.Fatal("the end does not reveal every plan and hand")
	}
}

// placeObjects puts the given tokens (and only them) in a room, swapping the
// room's own tokens to where these came from.
func placeObjects(s *State, room string, ids ...string) {
	r := int8(area(room))
	var here []Object
	for o, a := range s.objRoom {
		if a == r {
			here = append(here, Object(o))
		}
	}
	for i, id := range ids {
		o := object(id)
		from := s.objRoom[o]
		s.objRoom[o] = r
		if i < len(here) && here[i] != o {
			s.objRoom[here[i]] = from
		}
	}
}

func TestS22TwoObjectVariant(t *testing.T) {
	s := newGame(t, 2, optObjects, "2")
	s.seats[0].plan = 0 // plan_roof
	s.objRoom[object("money_1")], s.objHolder[object("money_1")] = -1, 0
	toMove(s, 0)
	setPawn(s, 0, "lobby_n", "d08")
	setDoor(t, s, "d35", "tab_x1", Keypad)
	setHand(s, 0, Keypad, Keypad, Keypad)
	refuse(t, s, 0, CrossDoor{Door: door("d35"), Pay: pay(Keypad, Keypad, Keypad)}, codeObjectRequired)
	room := Area(s.objRoom[object("parachute")])
	money2 := object("money_2")
	setPawn(s, 0, areas[room].ID, "")
	play(t, s, 0, TakeObject{Token: object("parachute")})
	setPawn(s, 0, areas[Area(s.objRoom[money2])].ID, "")
	refuse(t, s, 0, TakeObject{Token: money2}, codeObjectCarried)
	setPawn(s, 0, "lobby_n", "d08")
	play(t, s, 0, CrossDoor{Door: door("d35"), Pay: pay(Keypad, Keypad, Keypad)})
	if out, over := s.Outcome(); !over || !out.Won(0) {
		t.Fatal("the two-object escape did not win")
	}
}

// TestViewJSON checks the view of a fresh game reads as documented.
func TestViewJSON(t *testing.T) {
	s := newGame(t, 3)
	b, err := json.Marshal(s.View(1))
	if err != nil {
		t.Fatal(err)
	}
	var v View
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	if v.Seats[1].Hand == nil || v.Seats[0].Hand != nil || v.Seats[0].Plan != nil || v.Seats[1].Plan == nil {
		t.Fatalf("seat 1 sees %s", b)
	}
	sp := s.View(engine.Spectator).(*View)
	for _, sv := range sp.Seats {
		if sv.Hand != nil || sv.Plan != nil {
			t.Fatal("the spectator sees a hand or a plan")
		}
	}
}
