package evades

import (
	"slices"
	"testing"

	"sortie/engine"
)

// The edge cases of shared/rules/evades.md §10.2, one test each.

// atExit sets seat 0 in step 2 in the lobby of its exit, able to pay it.
func atExit(t *testing.T, s *State, pl Plan, lobby, exitDoor string) {
	t.Helper()
	s.seats[0].plan = pl
	toMove(s, 0)
	setPawn(s, 0, lobby, "")
	setDoor(t, s, exitDoor, "tab_x1", Uniform)
	setHand(s, 0, Uniform, Uniform, Uniform)
}

func carry(s *State, p int, id string) {
	s.objRoom[object(id)], s.objHolder[object(id)] = -1, int8(p)
}

func TestE01ExitWithoutObject(t *testing.T) {
	s := newGame(t, 2)
	atExit(t, s, 2, "lobby_s", "d37") // plan_sewer
	refuse(t, s, 0, CrossDoor{Door: door("d37"), Pay: pay(Uniform, Uniform, Uniform)}, codeObjectRequired)
}

func TestE02SomeoneElsesExit(t *testing.T) {
	s := newGame(t, 2)
	atExit(t, s, 2, "lobby_n", "d35") // plan_sewer at the roof
	carry(s, 0, "phone_1")
	s.badge = 1
	refuse(t, s, 0, CrossDoor{Door: door("d35"), Pay: pay(Uniform, Uniform, Uniform)}, codeNotYourExit)
	refuse(t, s, 0, CrossDoor{Door: door("d35"), Credit: BadgeCredit}, codeNotYourExit)
}

func TestE03HandOfEleven(t *testing.T) {
	s := newGame(t, 4)
	setHand(s, 0, append(fill(6, Soap), fill(5, Rope)...)...)
	if n := len(legalOf[TakeFaceUp](s, 0)); n != numSlotPairs {
		t.Fatalf("%d face-up draws listed at 11 cards", n)
	}
	// I13: the draw is chosen first, then its discard of exactly one card.
	play(t, s, 0, TakeFaceUp{Slots: SlotPair{1, 0}})
	if v := s.View(0).(*View).Pending; v == nil || v.Decision != kindDiscard || v.Count != 1 || v.Draw != kindTakeFaceUp || !slices.Equal(v.Slots, []int{0, 1}) {
		t.Fatalf("pending %+v", v)
	}
	if got := legalOf[Discard](s, 0); len(got) != 2 {
		t.Fatalf("discards listed: %v", got)
	}
	refuse(t, s, 0, Discard{Cards: pay(Soap, Rope)}, codeDiscardCount)
	refuse(t, s, 0, Discard{Cards: pay(Spoon)}, codeNotInHand)
	refuse(t, s, 0, EndTurn{}, codePending)
	row := s.row
	play(t, s, 0, Discard{Cards: pay(Rope)})
	if s.seats[0].hand.size() != 12 || s.seats[0].hand[row[0]] == 0 || s.phase != phaseMove {
		t.Fatalf("hand %v, phase %s", handOf(s, 0), phaseIDs[s.phase])
	}
}

func TestE04OffPlanObject(t *testing.T) {
	s := newGame(t, 2)
	s.seats[0].plan = 3 // plan_parking
	toMove(s, 0)
	setPawn(s, 0, areas[s.objRoom[object("money_2")]].ID, "")
	refuse(t, s, 0, TakeObject{Token: object("money_2")}, codeObjectOffPlan)
}

func TestE05BadgeOnTheExit(t *testing.T) {
	for _, credit := range []Credit{BadgeCredit, CorruptionCredit} {
		s := newGame(t, 2)
		s.seats[0].plan = 0 // plan_roof
		carry(s, 0, "parachute")
		toMove(s, 0)
		setPawn(s, 0, "hall_n", "")
		setDoor(t, s, "d08", "tab_01", Soap)
		setHand(s, 0, Soap)
		setWarnings(s, Badge)
		play(t, s, 0, CrossDoor{Door: door("d08"), Pay: pay(Soap)})
		if credit == BadgeCredit {
			play(t, s, 0, CrossDoor{Door: door("d35"), Credit: BadgeCredit})
			if out, over := s.Outcome(); !over || !out.Won(0) {
				t.Fatal("the badge did not open the exit")
			}
			continue
		}
		s.badge, s.corruption = 0, 1
		refuse(t, s, 0, CrossDoor{Door: door("d35"), Credit: CorruptionCredit}, codeCorruptionExit)
	}
}

func TestE06PleinsPouvoirsThenMotionDetector(t *testing.T) {
	s := newGame(t, 4)
	setPassPass(s, PleinsPouvoirs)
	play(t, s, 0, DrawPassPass{})
	if s.seats[0].extra != 1 {
		t.Fatal("no extra turn owed")
	}
	setPawn(s, 0, "wing_ne", "")
	setDoor(t, s, "d12", "tab_01", Soap)
	setHand(s, 0, Soap)
	setWarnings(s, MotionDetector)
	evs := play(t, s, 0, CrossDoor{Door: door("d12"), Pay: pay(Soap)})
	if s.active != 1 || s.seats[0].extra != 0 || s.seats[0].skip != 0 {
		t.Fatalf("active %d, extra %d, skip %d", s.active, s.seats[0].extra, s.seats[0].skip)
	}
	if k := kinds(evs, 1); !slices.Contains(k, "turn_skipped") {
		t.Fatalf("events %v", k)
	}
}

func TestE07PleinsPouvoirsPlain(t *testing.T) {
	s := newGame(t, 4)
	setPassPass(s, PleinsPouvoirs)
	play(t, s, 0, DrawPassPass{})
	play(t, s, 0, EndTurn{})
	if s.active != 0 || s.phase != phaseAction || s.turnsBegun != 2 {
		t.Fatalf("active %d, phase %s", s.active, phaseIDs[s.phase])
	}
	play(t, s, 0, quietDraw(s))
	play(t, s, 0, EndTurn{})
	if s.active != 1 {
		t.Fatalf("active %d", s.active)
	}
}

func TestE08ChantageAgainstOneCard(t *testing.T) {
	s := newGame(t, 4)
	setPassPass(s, Chantage)
	setHand(s, 2, Rope)
	play(t, s, 0, DrawPassPass{})
	play(t, s, 0, ChooseTarget{Seat: 2})
	if a := s.Actors(); !slices.Equal(a, []engine.Seat{2}) {
		t.Fatalf("actors %v", a)
	}
	if l := s.Legal(2); len(l) != 1 {
		t.Fatalf("seat 2 may %v", l)
	}
	refuse(t, s, 2, AnswerBlackmail{Give: pay(Rope, Rope)}, codeNotInHand)
	play(t, s, 2, AnswerBlackmail{Skip: true})
	if s.seats[2].skip != 1 || !slices.Equal(s.Actors(), []engine.Seat{0}) {
		t.Fatal("the skip was not owed")
	}
}

func TestE09ChantageGiving(t *testing.T) {
	s := newGame(t, 4)
	setPassPass(s, Chantage)
	setHand(s, 0, fill(11, Soap)...)
	setHand(s, 2, Rope, Soap, File, File, Spoon)
	play(t, s, 0, DrawPassPass{})
	play(t, s, 0, ChooseTarget{Seat: 2})
	evs := play(t, s, 2, AnswerBlackmail{Give: pay(Rope, Soap)})
	if m, _ := find[CardsMoved](evs, 0); m.Cards != pay(Soap, Rope) {
		t.Fatalf("seat 0 told %+v", m)
	}
	if m, _ := find[CardsMoved](evs, 1); m.Cards.Len() != 0 || m.Count != 2 {
		t.Fatalf("seat 1 told %+v", m)
	}
	if s.seats[0].hand.size() != 13 || s.pend.kind != pendDiscard || s.pend.count != 1 || s.actor() != 0 {
		t.Fatal("no discard of 1 is pending for seat 0")
	}
	refuse(t, s, 0, EndTurn{}, codePending)
	play(t, s, 0, Discard{Cards: pay(Soap)})
	if s.seats[0].hand.size() != 12 || s.pend.kind != pendNone {
		t.Fatal("the discard did not happen")
	}
}

func TestE10VolAgainstSmallHand(t *testing.T) {
	s := newGame(t, 3)
	setPassPass(s, Vol)
	setHand(s, 0)
	setHand(s, 1, Crowbar)
	setHand(s, 2)
	play(t, s, 0, DrawPassPass{})
	if l := legalOf[ChooseTarget](s, 0); len(l) != 1 || l[0].Seat != 1 {
		t.Fatalf("targets %v", l)
	}
	play(t, s, 0, ChooseTarget{Seat: 1})
	if !slices.Equal(handOf(s, 0), []Card{Crowbar}) || s.seats[1].hand.size() != 0 {
		t.Fatal("vol took the wrong cards")
	}

	none := newGame(t, 3)
	setPassPass(none, Vol)
	setHand(none, 1)
	setHand(none, 2)
	evs := play(t, none, 0, DrawPassPass{})
	if _, ok := find[PassPassNoEffect](evs, 1); !ok || none.pend.kind != pendNone || none.phase != phaseMove {
		t.Fatal("vol with no target did something")
	}
}

func TestE11DerriereLesBarreaux(t *testing.T) {
	for _, from := range []string{"hall_e", "cell"} {
		s := newGame(t, 4)
		setPawn(s, 0, from, "d14")
		setPassPass(s, DerriereLesBarreaux)
		play(t, s, 0, DrawPassPass{})
		if s.seats[0].area != cellArea || s.seats[0].lastDoor != -1 || s.active != 1 {
			t.Fatalf("from %s: pawn in %s, active %d", from, areas[s.seats[0].area].ID, s.active)
		}
	}
}

func TestE12EpreuveDeForce(t *testing.T) {
	s := newGame(t, 3)
	setPassPass(s, EpreuveDeForce)
	evs := play(t, s, 0, DrawPassPass{})
	if _, ok := find[PassPassNoEffect](evs, 0); !ok {
		t.Fatal("Épreuve de force without a target did something")
	}

	s = newGame(t, 3)
	setPassPass(s, EpreuveDeForce)
	setPawn(s, 1, "hall_n", "d07")
	setDoor(t, s, "d07", "tab_27", Screwdriver)
	warnings := len(s.warnPile)
	play(t, s, 0, DrawPassPass{})
	play(t, s, 0, ChooseTarget{Seat: 1})
	if s.seats[1].area != area("ring_n") || s.seats[1].lastDoor != -1 || s.face(door("d07")) != File {
		t.Fatal("the pawn was not pushed back through d07")
	}
	if len(s.warnPile) != warnings {
		t.Fatal("a Warning was drawn")
	}
}

func TestE13RetournementLimits(t *testing.T) {
	s := newGame(t, 4)
	setPassPass(s, Retournement)
	play(t, s, 0, DrawPassPass{})
	if n := len(s.Legal(0)); n != 1+34+34*33/2 {
		t.Fatalf("%d Retournement choices", n)
	}
	refuse(t, s, 0, ChooseDoors{Doors: doorList("d35")}, codeBadDoors)
	refuse(t, s, 0, ChooseDoors{Doors: doorList("d05", "d05")}, codeBadDoors)
	refuse(t, s, 0, ChooseDoors{Doors: doorList("d01", "d02", "d03")}, codeBadDoors)
	f1, f2 := s.face(door("d01")), s.face(door("d20"))
	play(t, s, 0, ChooseDoors{Doors: doorList("d01", "d20")})
	if s.face(door("d01")) == f1 || s.face(door("d20")) == f2 {
		t.Fatal("the doors did not flip")
	}

	s = newGame(t, 4)
	setPassPass(s, Retournement)
	play(t, s, 0, DrawPassPass{})
	play(t, s, 0, ChooseDoors{})
}

func TestE14TwoCameras(t *testing.T) {
	s := newGame(t, 3)
	toMove(s, 0)
	setPawn(s, 0, "ring_n", "")
	setDoor(t, s, "d05", "tab_01", Soap)
	setHand(s, 0, Soap, Spoon)
	setWarnings(s, Camera, Camera)
	play(t, s, 0, CrossDoor{Door: door("d05"), Pay: pay(Soap)})
	play(t, s, 0, CrossDoor{Door: door("d05"), Pay: pay(Spoon)})
	play(t, s, 0, EndTurn{})
	if s.direction != 1 || s.active != 1 {
		t.Fatalf("direction %d, active %d", s.direction, s.active)
	}
}

func TestE15CodetaineeAtTwelve(t *testing.T) {
	s := newGame(t, 4)
	toMove(s, 0)
	setPawn(s, 0, "ring_n", "")
	setDoor(t, s, "d05", "tab_01", Soap)
	setHand(s, 0, append(fill(6, Soap), fill(7, Rope)...)...)
	setWarnings(s, Codetainee)
	play(t, s, 0, CrossDoor{Door: door("d05"), Pay: pay(Soap)})
	play(t, s, 0, ChooseCodetainee{Source: sourceBlind})
	if s.seats[0].hand.size() != 13 || s.pend.kind != pendDiscard || s.pend.count != 1 {
		t.Fatal("no discard pending at 13 cards")
	}
	refuse(t, s, 0, CrossDoor{Door: door("d05"), Pay: pay(Spoon)}, codePending)
	refuse(t, s, 0, Discard{Cards: pay(Soap, Soap)}, codeDiscardCount)
	play(t, s, 0, Discard{Cards: pay(Rope)})
}

func TestE16SameDoorTwice(t *testing.T) {
	s := newGame(t, 4)
	s.seats[0].plan = 2 // plan_sewer
	placeObjects(s, "room_ne", "phone_2", "diving_gear")
	toMove(s, 0)
	setPawn(s, 0, "wing_ne", "")
	setDoor(t, s, "d11", "tab_01", Soap)
	setHand(s, 0, Soap, Spoon)
	setWarnings(s, ToiletPaper, Biscuits)
	play(t, s, 0, CrossDoor{Door: door("d11"), Pay: pay(Soap)})
	play(t, s, 0, TakeObject{Token: object("phone_2")})
	refuse(t, s, 0, CrossDoor{Door: door("d11"), Pay: pay(Soap)}, codeBadPayment)
	play(t, s, 0, CrossDoor{Door: door("d11"), Pay: pay(Spoon)})
	if len(s.warnUsed[orange]) != 2 || s.face(door("d11")) != Soap || s.seats[0].area != area("wing_ne") {
		t.Fatal("the second crossing went wrong")
	}
}

func TestE17WipeCap(t *testing.T) {
	s := newGame(t, 4)
	setDiscard(s)
	s.row = [rowSize]Card{noCard, noCard, noCard, noCard, noCard}
	var top []Card
	for range 11 {
		top = append(top, Soap, Soap, Soap, Rope, File)
	}
	top = append(top, Spoon, Spoon)
	setPile(s, top...)
	var ev []engine.Event
	s.refillRow(&ev, []int{0, 1, 2, 3, 4})
	wipes := 0
	for _, e := range ev {
		if _, ok := e.Body.(RowWiped); ok {
			wipes++
		}
	}
	if wipes != wipeCap || !s.rowHasTriple() || len(s.pile) != 2 {
		t.Fatalf("%d wipes, pile %d", wipes, len(s.pile))
	}
	// The game goes on: the next change of the row checks again.
	s.phase, s.active = phaseAction, 0
	setHand(s, 0)
	setPile(s, Spoon, Keypad, Crowbar, Joker, Uniform, Cigarettes, Paperclip)
	play(t, s, 0, TakeFaceUp{Slots: SlotPair{0, 3}})
	if s.rowHasTriple() {
		t.Fatal("the row was not checked again")
	}
}

func TestE18TurnLimit(t *testing.T) {
	s := newGame(t, 2)
	s.turnsBegun = 200
	play(t, s, 0, quietDraw(s))
	evs := play(t, s, 0, EndTurn{})
	out, over := s.Outcome()
	if !over || len(out.Winners) != 0 || !slices.Equal(out.Ranks, []int{1, 1}) {
		t.Fatalf("outcome %+v", out)
	}
	if e, _ := find[GameEnded](evs, 0); e.Winner != -1 || e.Reason != "turn_limit" {
		t.Fatalf("end %+v", e)
	}
}

func TestE19GuzmanAfterBadge(t *testing.T) {
	s := newGame(t, 4)
	toMove(s, 0)
	setPawn(s, 0, "hall_e", "")
	setDoor(t, s, "d15", "tab_22", Crowbar)
	s.badge = 1
	setWarnings(s, Guzman)
	play(t, s, 0, CrossDoor{Door: door("d15"), Credit: BadgeCredit})
	if s.seats[0].area != area("hall_e") || s.face(door("d15")) != Crowbar || s.active != 1 {
		t.Fatal("Guzman did not undo the badge crossing")
	}
	if s.badge != 0 {
		t.Fatal("the badge came back")
	}
}

func TestE20IllegalInputChangesNothing(t *testing.T) {
	s := newGame(t, 4)
	refuse(t, s, 0, TakeFaceUp{Slots: SlotPair{2, 2}}, codeBadSlots)
	refuse(t, s, 0, TakeFaceUp{Slots: SlotPair{4, 5}}, codeBadSlots)
	refuse(t, s, 1, TakeBlind{}, engine.CodeNotYourTurn)
	refuse(t, s, 0, EndTurn{}, engine.CodeWrongPhase)
	refuse(t, s, 0, ChooseVent{Area: "wing_ne"}, engine.CodeWrongPhase)
	toMove(s, 0)
	setPawn(s, 0, "cell", "")
	setDoor(t, s, "d01", "tab_01", Soap)
	setHand(s, 0, Spoon)
	refuse(t, s, 0, CrossDoor{Door: door("d20"), Pay: pay(Spoon)}, codeNotAdjacent)
	refuse(t, s, 0, CrossDoor{Door: door("d01"), Pay: pay(Soap)}, codeNotInHand)
	refuse(t, s, 0, CrossDoor{Door: door("d01"), Credit: BadgeCredit}, codeNoCredit)
	refuse(t, s, 0, TakeBlind{}, engine.CodeWrongPhase)

	// While the Chantage target decides, the active seat may do nothing.
	s = newGame(t, 4)
	setPassPass(s, Chantage)
	setHand(s, 1, Rope, Rope)
	play(t, s, 0, DrawPassPass{})
	play(t, s, 0, ChooseTarget{Seat: 1})
	refuse(t, s, 0, EndTurn{}, engine.CodeNotYourTurn)
	refuse(t, s, 1, EndTurn{}, codePending)
	refuse(t, s, 1, AnswerBlackmail{Give: pay(Rope), Skip: true}, codeBadAnswer)
}
