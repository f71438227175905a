package temple

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"sortie/engine"
)

// The rulebook's examples (§10.1). Ani is seat 0 (dice 0–4), Frank seat 1
// (dice 5–9); 2 players, normal, track_1, unless stated.

const ani, frank, carl = 0, 1, 2

func TestR1AnisTwoBlackMasks(t *testing.T) {
	s := newGame(t, 2, 1)
	s.live(BlackMask, 0, 1)
	s.live(Adventurer, 2)
	s.live(Key, 3)
	s.live(Torch, 4)
	refused(t, s, ani, Roll{Dice: []int{0, 1, 2, 3, 4}}, 5_000, CodeDieLocked)
	evs := apply(t, s, ani, Roll{Dice: []int{2, 3, 4}}, 5_000)
	r := must[Rolled](t, evs)
	if len(r.Dice) != 3 || r.Dice[0].ID != 2 || r.Dice[1].ID != 3 || r.Dice[2].ID != 4 {
		t.Fatalf("rolled %v, want dice 2, 3, 4", r.Dice)
	}
	if got := status(s, 0, 1); !slices.Equal(got, []DieStatus{Locked, Locked}) {
		t.Fatalf("dice 0, 1 are %v, want locked", got)
	}
	s.Advance(10_000)
	for _, a := range legalOf[Roll](s, ani) {
		if slices.Contains(a.Dice, 0) || slices.Contains(a.Dice, 1) {
			t.Fatalf("legal roll %v holds a locked die", a.Dice)
		}
	}
}

func TestR2GoldMaskFreesTwoBlackMasks(t *testing.T) {
	s := newGame(t, 2, 1)
	s.live(BlackMask, 0, 1)
	s.live(GoldMask, 2)
	s.live(Key, 3, 4)
	apply(t, s, ani, Unlock{Gold: 2, Targets: []int{0, 1}}, 1_000)
	if got := status(s, 0, 1, 2); !slices.Equal(got, allStatus(3, Spent)) {
		t.Fatalf("dice 0–2 are %v, want spent", got)
	}
	apply(t, s, ani, Roll{Dice: []int{0, 1, 2, 3, 4}}, 2_000)
}

func TestR3AniLetsFrankUseHerGoldMask(t *testing.T) {
	setup := func(players int) *State {
		s := newGame(t, players, 1)
		s.boardB1(t)
		s.at(t, ani, "basic_01")
		s.at(t, frank, "basic_01")
		s.live(GoldMask, 0)
		s.live(BlackMask, 1, 5, 6)
		s.live(Torch, 2, 3, 4, 7, 8, 9)
		return s
	}
	s := setup(2)
	apply(t, s, ani, Unlock{Gold: 0, Targets: []int{5, 6}}, 1_000)
	if got := status(s, 5, 6); !slices.Equal(got, []DieStatus{Spent, Spent}) {
		t.Fatalf("Frank's dice are %v", got)
	}
	if s.dice[1].Status != Locked || s.dice[0].Status != Spent || s.dice[0].Owner != ani {
		t.Fatalf("Ani's dice changed: %v %v", s.dice[0], s.dice[1])
	}
	apply(t, s, frank, Roll{Dice: []int{5, 6, 7, 8, 9}}, 1_000)

	s = setup(2)
	refused(t, s, frank, Unlock{Gold: 0, Targets: []int{5, 6}}, 1_000, CodeDieNotYours)

	s = setup(2)
	s.at(t, frank, "start")
	refused(t, s, ani, Unlock{Gold: 0, Targets: []int{5, 6}}, 1_000, CodeNotSameChamber)

	s = setup(3)
	s.at(t, carl, "basic_01")
	s.live(BlackMask, 10)
	refused(t, s, ani, Unlock{Gold: 0, Targets: []int{5, 10}}, 1_000, CodeOneOtherOnly)
	apply(t, s, ani, Unlock{Gold: 0, Targets: []int{1, 5}}, 1_000)
}

func TestR4FrankMayEnterOnlyTheRoomAbove(t *testing.T) {
	s := newGame(t, 2, 1)
	s.boardB1(t)
	s.put(t, "basic_10", 1, 1, North)
	s.at(t, frank, "basic_10")
	s.live(Adventurer, 5, 6)
	s.live(Torch, 7)
	s.live(Key, 8, 9)
	s.live(Key, 0, 1)
	enters := legalOf[Enter](s, frank)
	if len(enters) != 1 || enters[0].To != "basic_08" {
		t.Fatalf("legal enters %v, want only basic_08", enters)
	}
	var sides []Side
	for _, d := range legalOf[Discover](s, frank) {
		sides = append(sides, d.Side)
	}
	if !slices.Equal(sides, []Side{East}) {
		t.Fatalf("discoverable sides %v, want E", sides)
	}
	refused(t, s, frank, Discover{Side: West, Dice: []int{5, 6}}, 1_000, CodeNoOpenExit)
	refused(t, s, frank, Enter{To: "start", Dice: []int{5, 6}}, 1_000, CodeNotConnected)
	apply(t, s, frank, Enter{To: "basic_08", Dice: []int{5, 7}}, 1_000)
}

func TestR5TwoOpenExitsLeadingNowhere(t *testing.T) {
	s := newGame(t, 2, 1)
	s.boardB1(t)
	s.at(t, frank, "basic_08")
	s.live(Adventurer, 5, 6)
	var sides []Side
	for _, d := range legalOf[Discover](s, frank) {
		sides = append(sides, d.Side)
	}
	if !slices.Equal(sides, []Side{East, South}) {
		t.Fatalf("discoverable sides %v, want E, S", sides)
	}
}

func TestR6FrankEntersWithTwoAdventurers(t *testing.T) {
	s := newGame(t, 2, 1)
	s.boardB1(t)
	s.live(Adventurer, 5, 6)
	s.live(Key, 7)
	refused(t, s, frank, Enter{To: "basic_01", Dice: []int{5, 7}}, 1_000, CodeWrongSymbols)
	apply(t, s, frank, Enter{To: "basic_01", Dice: []int{5, 6}}, 1_000)
	if s.chamberID(int(s.players[frank].at)) != "basic_01" || s.dice[5].Status != Spent || s.dice[6].Status != Spent {
		t.Fatalf("Frank did not enter basic_01 paying dice 5, 6")
	}
}

func TestR7FrankDiscoversWithTwoAdventurers(t *testing.T) {
	s := newGame(t, 2, 1)
	s.boardB1(t)
	s.onTop(t, "gem_key_1")
	s.at(t, frank, "basic_08")
	s.live(Adventurer, 5, 6)
	if len(s.stack) != 16 {
		t.Fatalf("stack holds %d, want 16", len(s.stack))
	}
	evs := apply(t, s, frank, Discover{Side: East, Dice: []int{5, 6}}, 1_000)
	d := must[Discovered](t, evs)
	if d.Tile != "gem_key_1" || d.X != 2 || d.Y != 0 || d.Stairs != West {
		t.Fatalf("discovered %+v", d)
	}
	c := s.chamberByID("gem_key_1")
	if got := SideSet(s.chambers[c].open).String(); got != "NEW" {
		t.Fatalf("gem_key_1 open sides %s, want N, E, W", got)
	}
	if s.chamberID(int(s.players[frank].at)) != "basic_08" || s.dice[5].Status != Spent || len(s.stack) != 15 {
		t.Fatalf("after discovering: Frank in %s, die 5 %s, stack %d", s.chamberID(int(s.players[frank].at)), s.dice[5].Status, len(s.stack))
	}
	if !s.connected(s.chamberByID("basic_08"), c) {
		t.Fatal("basic_08 and gem_key_1 are not connected")
	}
}

func TestR8FrankActivatesOneGemWithFourTorches(t *testing.T) {
	s := newGame(t, 2, 1)
	s.clearBoard(t)
	s.put(t, "basic_03", 1, 0, West)
	s.at(t, frank, "basic_03")
	s.live(Torch, 5, 6, 7, 8)
	evs := apply(t, s, frank, Commit{Tier: 1, Dice: []int{5, 6, 7, 8}}, 1_000)
	a := must[Activated](t, evs)
	c := s.chambers[s.chamberByID("basic_03")]
	if a.Tier != 1 || a.FromReserve != 1 || s.reserve != 6 || c.gems != 1 || c.activated != 1 || s.escapeCost() != 7 {
		t.Fatalf("activation %+v, reserve %d, chamber %+v", a, s.reserve, c)
	}
	if got := status(s, 5, 6, 7, 8); !slices.Equal(got, allStatus(4, Spent)) {
		t.Fatalf("torches are %v", got)
	}
}

// pooledKeys builds R9: Ani and Frank in gem_key_1, reserve 7.
func pooledKeys(t *testing.T) *State {
	s := newGame(t, 2, 1)
	s.boardB1(t)
	s.put(t, "gem_key_1", 2, 0, West)
	s.at(t, ani, "gem_key_1")
	s.at(t, frank, "gem_key_1")
	s.live(Key, 0, 1, 2, 5, 6, 7, 8)
	return s
}

func TestR9AniAndFrankPoolSevenKeys(t *testing.T) {
	s := pooledKeys(t)
	evs := apply(t, s, ani, Commit{Tier: 2, Dice: []int{0, 1, 2}}, 1_000)
	if _, ok := find[Activated](evs); ok {
		t.Fatal("three keys activated tier 2")
	}
	c := &s.chambers[s.chamberByID("gem_key_1")]
	if c.target != 2 || poolValue(c.pool) != 3 {
		t.Fatalf("pool target %d value %d", c.target, poolValue(c.pool))
	}
	refused(t, s, ani, Roll{Dice: []int{0}}, 1_000, CodeDiePooled)
	evs = apply(t, s, frank, Commit{Dice: []int{5, 6, 7, 8}}, 2_000)
	a := must[Activated](t, evs)
	if a.Tier != 2 || a.Gems != 2 || s.reserve != 5 || s.escapeCost() != 6 {
		t.Fatalf("activation %+v, reserve %d", a, s.reserve)
	}
	if got := status(s, 0, 1, 2, 5, 6, 7, 8); !slices.Equal(got, allStatus(7, Spent)) {
		t.Fatalf("dice are %v", got)
	}

	// Variant: Frank's four keys aimed at tier 1 activate it at once.
	s = pooledKeys(t)
	evs = apply(t, s, frank, Commit{Tier: 1, Dice: []int{5, 6, 7, 8}}, 1_000)
	if a := must[Activated](t, evs); a.Tier != 1 || a.Gems != 1 {
		t.Fatalf("activation %+v", a)
	}
	refused(t, s, ani, Commit{Tier: 2, Dice: []int{0, 1, 2}}, 1_000, CodeAlreadyActivated)
}

func TestR10AChamberActivatesOnlyOnce(t *testing.T) {
	s := pooledKeys(t)
	apply(t, s, ani, Commit{Tier: 2, Dice: []int{0, 1, 2}}, 1_000)
	apply(t, s, frank, Commit{Dice: []int{5, 6, 7, 8}}, 1_000)
	s.live(Key, 0, 1, 2, 3)
	refused(t, s, ani, Commit{Tier: 3, Dice: []int{0, 1, 2, 3}}, 1_000, CodeAlreadyActivated)
	refused(t, s, ani, Retarget{Tier: 3}, 1_000, CodeAlreadyActivated)
}

// atExit builds R11: reserve 2, Frank in the exit with keys 5, 6, 7.
func atExit(t *testing.T) *State {
	s := newGame(t, 2, 1)
	s.boardB1(t)
	s.put(t, "exit", 2, 0, West)
	s.reserve = 2
	s.at(t, frank, "exit")
	s.at(t, ani, "basic_01")
	s.live(Key, 5, 6, 7)
	s.live(Torch, 8, 9)
	return s
}

func TestR11FrankEscapesWithThreeKeys(t *testing.T) {
	s := atExit(t)
	refused(t, s, frank, Escape{Dice: []int{5, 6}}, 100_000, CodeNotEnoughKeys)
	evs := apply(t, s, frank, Escape{Dice: []int{5, 6, 7}}, 100_000)
	if e := must[Escaped](t, evs); e.Cost != 3 || e.Paid != 3 {
		t.Fatalf("escaped %+v", e)
	}
	if s.inside(frank) || !s.players[frank].gifting || s.players[frank].giftDue != 110_000 {
		t.Fatalf("Frank %+v", s.players[frank])
	}
	if _, over := s.Outcome(); over {
		t.Fatal("the game is over with Ani inside")
	}

	s = atExit(t)
	s.at(t, ani, "exit")
	s.live(Key, 0)
	refused(t, s, frank, Escape{Dice: []int{0, 5, 6}}, 100_000, CodeDieNotYours)
}

func TestR12FrankGivesADieToAni(t *testing.T) {
	s := atExit(t)
	s.players[ani].nextRollAt = 100_700
	evs := apply(t, s, frank, Escape{Dice: []int{5, 6, 7}, GiveTo: ip(ani)}, 100_000)
	g := must[DieGiven](t, evs)
	if g.Die != 5 || g.To != ani || g.Auto || s.dice[5].Owner != ani {
		t.Fatalf("gift %+v", g)
	}
	if st := s.dice[5].Status; st != Live && st != Locked {
		t.Fatalf("the gift is %s, not rolled", st)
	}
	if s.players[ani].nextRollAt != 100_700 || s.diceOwned(ani) != 6 {
		t.Fatalf("Ani: next roll %d, %d dice", s.players[ani].nextRollAt, s.diceOwned(ani))
	}
	if got := status(s, 6, 7, 8, 9); !slices.Equal(got, allStatus(4, Out)) {
		t.Fatalf("Frank's other dice are %v", got)
	}

	// Variant: no receiver named; the die goes to Ani after 10 s.
	s = atExit(t)
	apply(t, s, frank, Escape{Dice: []int{5, 6, 7}}, 100_000)
	if dl, _ := s.Deadline(); dl != 110_000 {
		t.Fatalf("deadline %d, want the gift at 110000", dl)
	}
	if evs := s.Advance(109_999); len(evs) != 0 {
		t.Fatalf("events before the gift deadline: %v", evs)
	}
	g = must[DieGiven](t, s.Advance(110_000))
	if g.Die != 5 || g.To != ani || !g.Auto {
		t.Fatalf("gift %+v", g)
	}
}

// slamSetup builds R13: Ani in basic_01 with die 0 locked, Frank in start.
func slamSetup(t *testing.T) *State {
	s := newGame(t, 2, 1)
	s.boardB1(t)
	s.at(t, ani, "basic_01")
	s.live(BlackMask, 0)
	s.live(Adventurer, 1, 2)
	s.live(Torch, 3, 4)
	s.Advance(209_990)
	return s
}

func TestR13AniMissesTheStartChamber(t *testing.T) {
	s := slamSetup(t)
	slam := must[DoorSlam](t, s.Advance(210_000))
	if slam.N != 1 || len(slam.Losses) != 1 || slam.Losses[0] != (Loss{Seat: ani, Die: 0}) {
		t.Fatalf("slam %+v", slam)
	}
	if s.diceOwned(ani) != 4 || s.diceOwned(frank) != 5 || s.chamberID(int(s.players[ani].at)) != "basic_01" {
		t.Fatal("wrong losses at the first slam")
	}
	slam = must[DoorSlam](t, s.Advance(410_000))
	if slam.N != 2 || s.diceOwned(ani) != 3 {
		t.Fatalf("second slam %+v, Ani owns %d", slam, s.diceOwned(ani))
	}

	// The enter stamped at the slam's millisecond comes after the slam.
	s = slamSetup(t)
	evs := apply(t, s, ani, Enter{To: "start", Dice: []int{1, 2}}, 210_000)
	if _, ok := find[DoorSlam](evs); !ok || evs[0].Body.Kind() != "door_slam" || s.dice[0].Status != Lost {
		t.Fatalf("events %v", evs)
	}
	if s.players[ani].at != 0 {
		t.Fatal("Ani did not enter the start chamber")
	}
}

// curseBoard builds R14: curses on, B1 with marked tiles, Frank in
// marked_08, marked_03 on top of the stack, trap_2 on top of the deck.
func curseBoard(t *testing.T, card string) *State {
	s := newGame(t, 2, 1, OptCurses, "true")
	s.boardB1(t)
	s.onTop(t, "marked_03")
	s.at(t, frank, "marked_08")
	c := curseIndex(card)
	i := slices.Index(s.curseDeck, c)
	s.curseDeck = slices.Insert(slices.Delete(s.curseDeck, i, i+1), 0, c)
	s.live(Adventurer, 5, 6)
	return s
}

func TestR14FrankDrawsACurse(t *testing.T) {
	s := curseBoard(t, "trap_2")
	evs := apply(t, s, frank, Discover{Side: East, Dice: []int{5, 6}}, 1_000)
	if c := must[CurseDrawn](t, evs); c.Card != "trap_2" || c.Seat != frank {
		t.Fatalf("curse %+v", c)
	}
	s.live(Adventurer, 5, 6)
	s.live(Torch, 7)
	refused(t, s, frank, Enter{To: "marked_03", Dice: []int{5, 7}}, 2_000, CodeTrapped)
	refused(t, s, frank, Discover{Side: South, Dice: []int{5, 6}}, 2_000, CodeTrapped)
	s.live(Adventurer, 0, 1)
	apply(t, s, ani, Enter{To: "marked_01", Dice: []int{0, 1}}, 2_000)
}

func TestR15FrankLiftsHisCurseAlone(t *testing.T) {
	s := newGame(t, 2, 1, OptCurses, "true")
	s.boardB1(t)
	s.curse(t, frank, "trap_2")
	s.live(Adventurer, 5, 6)
	s.live(Torch, 7, 0)
	refused(t, s, frank, LiftCurse{Card: "trap_2", Dice: []int{5, 6, 0}}, 1_000, CodeDieNotYours)
	apply(t, s, frank, LiftCurse{Card: "trap_2", Dice: []int{5, 6, 7}}, 1_000)
	if len(s.players[frank].curses) != 0 || !slices.Contains(s.removedCurses, curseIndex("trap_2")) {
		t.Fatal("trap_2 is not removed from the game")
	}
	if got := status(s, 5, 6, 7); !slices.Equal(got, allStatus(3, Spent)) {
		t.Fatalf("dice %v", got)
	}
	s.live(Adventurer, 5, 6)
	apply(t, s, frank, Enter{To: "marked_01", Dice: []int{5, 6}}, 1_000)
}

func TestR16DuplicateAndSetupCurses(t *testing.T) {
	s := curseBoard(t, "silence_2")
	s.curse(t, frank, "silence_1")
	evs := apply(t, s, frank, Discover{Side: East, Dice: []int{5, 6}}, 1_000)
	if d := must[CurseDiscarded](t, evs); d.Card != "silence_2" || d.Reason != "duplicate" {
		t.Fatalf("discarded %+v", d)
	}
	if len(s.players[frank].curses) != 1 || !slices.Contains(s.removedCurses, curseIndex("silence_2")) {
		t.Fatal("silence_2 was not removed")
	}

	// A seed whose west setup tile is marked_03, a purple mask.
	found := false
	for seed := uint64(0); seed < 2_000 && !found; seed++ {
		s := newGame(t, 2, seed, OptCurses, "true")
		if tiles[s.chambers[1].tile].ID != "marked_03" {
			continue
		}
		found = true
		if len(s.curseDeck) != len(curses) || len(s.players[0].curses)+len(s.players[1].curses) != 0 {
			t.Fatal("a setup tile drew a curse")
		}
	}
	if !found {
		t.Fatal("no seed puts marked_03 west of the start")
	}
}

func TestR17FrankFindsATreasure(t *testing.T) {
	s := newGame(t, 2, 1, OptTreasures, "true")
	s.boardB1(t)
	for c := range s.chambers {
		s.chambers[c].chest = -1 // the hand-built board has no treasures yet
	}
	s.treasureStack = []int8{treasureIndex("teleport_1"), treasureIndex("healing_mask_1")}
	s.onTop(t, "marked_02")
	s.at(t, frank, "marked_08")
	s.live(Adventurer, 5, 6)
	evs := apply(t, s, frank, Discover{Side: East, Dice: []int{5, 6}}, 1_000)
	if p := must[TreasurePlaced](t, evs); p.Chamber != "marked_02" {
		t.Fatalf("placed %+v", p)
	}
	for _, e := range evs {
		if b, _ := json.Marshal(e); strings.Contains(string(b), "teleport") {
			t.Fatalf("an event names the face-down treasure: %s", b)
		}
	}
	for _, p := range []engine.Seat{0, 1, engine.Spectator} {
		v := s.view(p)
		b, _ := json.Marshal(v)
		if strings.Contains(string(b), "teleport_1") {
			t.Fatalf("the view of %s names the face-down treasure", p)
		}
		if !v.Chambers[s.chamberByID("marked_02")].FaceDownTreasure {
			t.Fatalf("the view of %s shows no treasure on marked_02", p)
		}
	}
	s.at(t, ani, "marked_02")
	s.live(Key, 0, 1)
	evs = apply(t, s, ani, ClaimTreasure{Dice: []int{0, 1}}, 2_000)
	if c := must[TreasureClaimed](t, evs); c.Treasure != "teleport_1" || c.Seat != ani {
		t.Fatalf("claimed %+v", c)
	}
	if v := s.view(engine.Spectator); !slices.Equal(v.Seats[ani].Treasures, []string{"teleport_1"}) {
		t.Fatalf("Ani's treasures seen by all: %v", v.Seats[ani].Treasures)
	}
}

func TestR18EndOfGame(t *testing.T) {
	s := atExit(t)
	apply(t, s, frank, Escape{Dice: []int{5, 6, 7}, GiveTo: ip(ani)}, 100_000)
	s.at(t, ani, "start")
	evs := s.Advance(600_000)
	if _, ok := find[Collapse](evs); !ok {
		t.Fatalf("no collapse in %v", evs)
	}
	if o, over := s.Outcome(); !over || len(o.Winners) != 0 || s.reason != "collapse" {
		t.Fatalf("outcome %+v reason %s", o, s.reason)
	}

	s = atExit(t)
	apply(t, s, frank, Escape{Dice: []int{5, 6, 7}, GiveTo: ip(ani)}, 100_000)
	s.at(t, ani, "exit")
	s.live(Key, 0, 1, 2)
	evs = apply(t, s, ani, Escape{Dice: []int{0, 1, 2}}, 480_000)
	if g := must[GameOver](t, evs); !g.Won || g.Reason != "all_escaped" {
		t.Fatalf("game over %+v", g)
	}
	if o, _ := s.Outcome(); len(o.Winners) != 2 || s.endAt != 480_000 {
		t.Fatalf("outcome %+v at %d", o, s.endAt)
	}
	if evs := s.Advance(600_000); len(evs) != 0 {
		t.Fatalf("events after the end: %v", evs)
	}
}

func TestR19Setup(t *testing.T) {
	for n := 1; n <= 5; n++ {
		for seed := range uint64(200) {
			s := newGame(t, n, seed)
			if s.chambers[1].x != -1 || s.chambers[1].stairs != East || s.chambers[2].x != 1 || s.chambers[2].stairs != West {
				t.Fatalf("%d players seed %d: setup tiles %+v %+v", n, seed, s.chambers[1], s.chambers[2])
			}
			lo, hi := 12, 16
			if n <= 2 {
				lo, hi = 6, 10
			}
			if s.exitDraw < lo || s.exitDraw > hi || s.stack[s.exitDraw-1] != tileExit || len(s.stack) != 16 {
				t.Fatalf("%d players seed %d: exit draw %d", n, seed, s.exitDraw)
			}
			want, each := 5*n, 5
			if n == 1 {
				want, each = 7, 7
			}
			if len(s.dice) != want || s.diceOwned(n-1) != each {
				t.Fatalf("%d players: %d dice", n, len(s.dice))
			}
			for _, d := range s.dice {
				if d.Status != Spent || d.Face != NoFace {
					t.Fatalf("die %+v at setup", d)
				}
			}
			if n == 1 && (s.reserve != 7 || s.diceOwned(0) != 7) {
				t.Fatalf("solo: reserve %d, %d dice", s.reserve, s.diceOwned(0))
			}
		}
	}
}

func TestR20SandOfFortune(t *testing.T) {
	s := newGame(t, 2, 1, OptTimer, "sand", OptSandMs, "200000")
	s.boardB1(t)
	s.at(t, ani, "basic_01")
	evs := s.Advance(200_000)
	if len(evs) != 2 || evs[0].Body.Kind() != "sand_out" || evs[1].Body.Kind() != "sand_turned" {
		t.Fatalf("events at 200000: %v", evs)
	}
	if o := evs[0].Body.(SandOut); o.Run != 1 || len(o.Losses) != 1 || o.Losses[0].Seat != ani {
		t.Fatalf("sand out %+v", o)
	}
	if r := evs[1].Body.(SandTurned); r.Run != 2 {
		t.Fatalf("turned %+v", r)
	}
	evs = append(evs, s.Advance(400_000)...)
	evs = append(evs, s.Advance(600_000)...)
	if _, ok := find[Gong](evs); ok {
		t.Fatal("a gong sounded with the hourglass")
	}
	if _, ok := find[Collapse](evs); !ok || s.diceOwned(ani) != 3 || s.reason != "collapse" {
		t.Fatalf("events %v; Ani owns %d", evs, s.diceOwned(ani))
	}
}

func TestR21ExpertForbidsProvokingFate(t *testing.T) {
	s := newGame(t, 2, 1, OptDifficulty, "expert")
	if s.reserve != 13 {
		t.Fatalf("reserve %d, want 13", s.reserve)
	}
	s.boardB1(t)
	s.chambers[1].gems, s.chambers[1].activated = 1, 1
	s.live(BlackMask, 0, 1)
	if l := legalOf[ProvokeFate](s, ani); len(l) != 0 {
		t.Fatalf("legal: %v", l)
	}
	refused(t, s, ani, ProvokeFate{Chamber: "basic_01"}, 1_000, CodeFateForbidden)
}
