package temple

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"sortie/engine"
)

// The edge cases of §10.2.

func TestE1RollCooldown(t *testing.T) {
	s := newGame(t, 2, 1)
	apply(t, s, ani, Roll{Dice: []int{0, 1, 2, 3, 4}}, 1_000)
	all := func() Roll {
		var ids []int
		for i := range 5 {
			if s.dice[i].Status != Locked {
				ids = append(ids, i)
			}
		}
		return Roll{Dice: ids}
	}
	refused(t, s, ani, all(), 2_499, CodeCooldown)
	apply(t, s, ani, all(), 2_500)

	s = newGame(t, 2, 1, OptCurses, "true")
	s.curse(t, ani, "cursed_hand_1")
	apply(t, s, ani, Roll{Dice: []int{0, 1, 2, 3, 4}}, 1_000)
	refused(t, s, ani, all(), 2_500, CodeCooldown)
	refused(t, s, ani, all(), 3_999, CodeCooldown)
	apply(t, s, ani, all(), 4_000)
}

func TestE2LeavingWithdraws(t *testing.T) {
	s := pooledKeys(t)
	apply(t, s, ani, Commit{Tier: 2, Dice: []int{0, 1}}, 1_000)
	apply(t, s, frank, Commit{Dice: []int{5, 6}}, 1_000)
	s.live(Adventurer, 3)
	s.live(Torch, 4)
	evs := apply(t, s, ani, Enter{To: "basic_08", Dice: []int{3, 4}}, 1_000)
	if w := must[Withdrawn](t, evs); len(w.Items) != 2 {
		t.Fatalf("withdrawn %+v", w)
	}
	c := &s.chambers[s.chamberByID("gem_key_1")]
	if got := status(s, 0, 1); !slices.Equal(got, []DieStatus{Live, Live}) || poolValue(c.pool) != 2 || c.target != 2 {
		t.Fatalf("Ani's keys %v, pool %d target %d", got, poolValue(c.pool), c.target)
	}
	apply(t, s, frank, Withdraw{Dice: []int{5, 6}}, 1_000)
	if len(c.pool) != 0 || c.target != 0 {
		t.Fatalf("pool %v target %d", c.pool, c.target)
	}
}

func TestE3Overshoot(t *testing.T) {
	s := newGame(t, 2, 1)
	s.clearBoard(t)
	s.put(t, "gem_torch_1", 1, 0, West)
	s.at(t, ani, "gem_torch_1")
	s.at(t, frank, "gem_torch_1")
	s.live(Torch, 0, 1, 2, 5, 6, 7)
	apply(t, s, frank, Commit{Tier: 1, Dice: []int{5, 6, 7}}, 1_000)
	evs := apply(t, s, ani, Commit{Dice: []int{0, 1, 2}}, 1_000)
	a := must[Activated](t, evs)
	if len(a.Consumed) != 4 || len(a.Returned) != 2 {
		t.Fatalf("activation %+v", a)
	}
	if got := status(s, 5, 6, 7, 0, 1, 2); !slices.Equal(got, []DieStatus{Spent, Spent, Spent, Spent, Live, Live}) {
		t.Fatalf("dice %v", got)
	}
}

func TestE4RetargetDownTriggers(t *testing.T) {
	s := pooledKeys(t)
	s.live(Key, 3, 4)
	apply(t, s, ani, Commit{Tier: 3, Dice: []int{0, 1, 2, 3, 4}}, 1_000)
	apply(t, s, frank, Commit{Dice: []int{5, 6, 7}}, 1_000)
	evs := apply(t, s, ani, Retarget{Tier: 2}, 1_000)
	a := must[Activated](t, evs)
	if a.Tier != 2 || a.Gems != 2 || len(a.Returned) != 1 || *a.Returned[0].Die != 7 || s.dice[7].Status != Live {
		t.Fatalf("activation %+v", a)
	}
}

func TestE5SideSupply(t *testing.T) {
	s := pooledKeys(t)
	s.reserve = 1
	s.live(Key, 3, 4, 9)
	apply(t, s, ani, Commit{Tier: 3, Dice: []int{0, 1, 2, 3, 4}}, 1_000)
	a := must[Activated](t, apply(t, s, frank, Commit{Dice: []int{5, 6, 7, 8, 9}}, 1_000))
	if a.Gems != 3 || a.FromReserve != 1 || a.FromSide != 2 || s.reserve != 0 || s.side != 0 || s.escapeCost() != 1 {
		t.Fatalf("activation %+v, reserve %d side %d", a, s.reserve, s.side)
	}
	fate := func(wantTo string, wantCost int) {
		t.Helper()
		s.live(BlackMask, 0)
		f := must[FateProvoked](t, apply(t, s, ani, ProvokeFate{Chamber: "gem_key_1"}, 1_000))
		if f.To != wantTo || s.escapeCost() != wantCost {
			t.Fatalf("fate %+v, cost %d", f, s.escapeCost())
		}
	}
	fate("side", 1)
	fate("side", 1)
	fate("reserve", 2)
}

func TestE6ProvokeFatePreconditions(t *testing.T) {
	s := newGame(t, 2, 1)
	s.boardB1(t)
	s.live(Adventurer, 0, 1)
	refused(t, s, ani, ProvokeFate{Chamber: "basic_01"}, 1_000, CodeNoLockedDice)
	s.live(BlackMask, 0, 1)
	refused(t, s, ani, ProvokeFate{Chamber: "basic_01"}, 1_000, CodeNoGemThere)
	s.put(t, "gem_torch_1", 3, 3, West) // across the temple
	c := s.chamberByID("gem_torch_1")
	s.chambers[c].gems, s.chambers[c].activated = 2, 2
	reserve := s.reserve
	apply(t, s, ani, ProvokeFate{Chamber: "gem_torch_1"}, 1_000)
	if s.chambers[c].gems != 1 || s.reserve != reserve+1 || s.chambers[c].activated != 2 {
		t.Fatalf("chamber %+v reserve %d", s.chambers[c], s.reserve)
	}
	if got := status(s, 0, 1); !slices.Equal(got, []DieStatus{Spent, Spent}) {
		t.Fatalf("dice %v", got)
	}
	s.at(t, ani, "gem_torch_1")
	s.live(Torch, 0)
	refused(t, s, ani, Commit{Tier: 1, Dice: []int{0}}, 1_000, CodeAlreadyActivated)
}

func TestE7WeakMask(t *testing.T) {
	s := newGame(t, 2, 1, OptCurses, "true")
	s.curse(t, ani, "weak_mask_1")
	s.live(BlackMask, 0, 1)
	s.live(GoldMask, 2)
	refused(t, s, ani, Unlock{Gold: 2, Targets: []int{0, 1}}, 1_000, CodeTooManyTargets)
	apply(t, s, ani, Unlock{Gold: 2, Targets: []int{0}}, 1_000)
	if s.dice[1].Status != Locked {
		t.Fatal("the weak mask freed two dice")
	}
}

func TestE8ExitIntoAnOccupiedCell(t *testing.T) {
	for _, tc := range []struct {
		neighbour string
		connected bool
	}{{"basic_01", false}, {"basic_04", true}} {
		s := newGame(t, 2, 1)
		s.clearBoard(t)
		s.put(t, "basic_02", -1, 0, East)
		s.put(t, "basic_08", 1, 0, West)
		// basic_01 with stairs N is open N and S (its E is a wall);
		// basic_04 with stairs N is open N, E and S.
		s.put(t, tc.neighbour, 0, 1, North)
		s.onTop(t, "basic_05") // stairs N: F = S, R = W, facing (0, 1)
		s.at(t, frank, "basic_08")
		s.live(Adventurer, 5, 6)
		apply(t, s, frank, Discover{Side: South, Dice: []int{5, 6}}, 1_000)
		c, n := s.chamberByID("basic_05"), s.chamberByID(tc.neighbour)
		if got := s.connected(c, n); got != tc.connected {
			t.Fatalf("%s: connected %v, want %v", tc.neighbour, got, tc.connected)
		}
		if ok, _ := s.discoverable(c, West, s.breachMode()); ok {
			t.Fatalf("%s: the exit into an occupied cell is discoverable", tc.neighbour)
		}
		if tc.connected {
			s.at(t, frank, "basic_05")
			s.live(Adventurer, 5)
			s.live(Key, 6)
			apply(t, s, frank, Enter{To: tc.neighbour, Dice: []int{5, 6}}, 1_000)
			s.live(Adventurer, 5)
			s.live(Key, 6)
			apply(t, s, frank, Enter{To: "basic_05", Dice: []int{5, 6}}, 1_000)
		}
	}
}

func TestE9Breach(t *testing.T) {
	s := newGame(t, 2, 1)
	s.clearBoard(t)
	a := s.put(t, "basic_01", -1, 0, East)
	b := s.put(t, "basic_02", 1, 0, West)
	c := s.put(t, "basic_03", 0, -1, South)
	// Hand-built: every open side faces a tile.
	s.chambers[a].open = 1 << East
	s.chambers[b].open = 1 << West
	s.chambers[c].open = 1 << South
	s.stack = s.stack[:3]
	s.retopo()
	if !s.breachMode() {
		t.Fatal("no breach mode")
	}
	s.live(Adventurer, 0, 1)
	refused(t, s, ani, Discover{Side: North, Dice: []int{0, 1}}, 1_000, CodeNoOpenExit)
	d := must[Discovered](t, apply(t, s, ani, Discover{Side: South, Dice: []int{0, 1}}, 1_000))
	if !d.Breach || d.X != 0 || d.Y != 1 || d.Stairs != North {
		t.Fatalf("discovered %+v", d)
	}
	if s.chambers[0].breach != 1<<South || !s.connected(0, s.chamberByID(d.Tile)) {
		t.Fatal("the breach did not open the start chamber")
	}
}

func TestE10AutoGift(t *testing.T) {
	setup := func() *State {
		s := newGame(t, 3, 1)
		s.boardB1(t)
		s.put(t, "exit", 2, 0, West)
		s.reserve = 2
		s.at(t, frank, "exit")
		s.live(Key, 5, 6, 7)
		s.setDice(Lost, NoFace, 3, 4)
		return s
	}
	s := setup()
	apply(t, s, frank, Escape{Dice: []int{5, 6, 7}}, 50_000)
	if g := must[DieGiven](t, s.Advance(60_000)); g.To != ani || !g.Auto {
		t.Fatalf("gift %+v", g)
	}

	s = setup()
	apply(t, s, frank, Escape{Dice: []int{5, 6, 7}}, 50_000)
	s.at(t, ani, "exit")
	s.live(Key, 0, 1, 2)
	apply(t, s, ani, Escape{Dice: []int{0, 1, 2}}, 55_000)
	evs := s.Advance(60_000)
	if g := must[DieGiven](t, evs); g.From != frank || g.To != carl {
		t.Fatalf("gift %+v", g)
	}
}

func TestE11EarlyLoss(t *testing.T) {
	s := newGame(t, 1, 1)
	s.boardB1(t)
	s.at(t, 0, "basic_01")
	s.setDice(Lost, NoFace, 0, 1, 2, 3, 4, 5)
	s.live(Key, 6)
	s.Advance(209_000)
	s.players[0].at = 0
	s.Advance(300_000)
	s.at(t, 0, "basic_01")
	evs := s.Advance(410_000)
	if g := must[GameOver](t, evs); g.Won || g.Reason != "no_dice" {
		t.Fatalf("game over %+v", g)
	}

	// With a gift pending the game goes on.
	s = atExit(t)
	s.setDice(Lost, NoFace, 0, 1, 2, 3)
	s.live(Key, 4)
	apply(t, s, frank, Escape{Dice: []int{5, 6, 7}}, 205_000)
	evs = s.Advance(210_000)
	if _, over := s.Outcome(); over {
		t.Fatalf("the game ended with a gift pending: %v", evs)
	}
	g := must[DieGiven](t, s.Advance(215_000))
	if g.To != ani || s.diceOwned(ani) != 1 {
		t.Fatalf("gift %+v", g)
	}
	if _, over := s.Outcome(); over {
		t.Fatal("the game ended after the gift")
	}
}

func TestE12TrapAtTheExit(t *testing.T) {
	s := atExit(t)
	s.opt.treasures = true
	s.curse(t, frank, "trap_1")
	s.treasure(t, frank, "teleport_1")
	s.live(Adventurer, 8)
	s.live(Key, 9)
	refused(t, s, frank, Enter{To: "basic_08", Dice: []int{8, 9}}, 1_000, CodeTrapped)
	refused(t, s, frank, UseTreasure{Treasure: "teleport_1", To: "basic_01"}, 1_000, CodeTrapped)
	apply(t, s, frank, Escape{Dice: []int{5, 6, 7}}, 1_000)
}

func TestE13RushedRollWithLostDice(t *testing.T) {
	base := newGame(t, 2, 1, OptCurses, "true")
	base.curse(t, ani, "lost_dice_1")
	apply(t, base, ani, Roll{Dice: []int{0, 1, 2, 3, 4}}, 10_000)
	base.live(Adventurer, 0, 1, 2, 3, 4)
	dropped := false
	for seed := uint64(0); seed < 100 && !dropped; seed++ {
		s := base.clone()
		s.rng = engine.NewRNG(seed)
		evs := apply(t, s, ani, Roll{Dice: []int{0, 1, 2, 3, 4}}, 12_000)
		if l, ok := find[DieLost](evs); ok {
			dropped = true
			if l.Cause != "lost_dice" || s.dice[l.Die].Status != Lost {
				t.Fatalf("die lost %+v", l)
			}
		}
	}
	if !dropped {
		t.Fatal("no rushed roll dropped a die")
	}
	for seed := range uint64(100) {
		s := base.clone()
		s.rng = engine.NewRNG(seed)
		if _, ok := find[DieLost](apply(t, s, ani, Roll{Dice: []int{0, 1, 2, 3, 4}}, 13_000)); ok {
			t.Fatal("a calm roll dropped a die")
		}
	}
}

func TestE14Silence(t *testing.T) {
	s := newGame(t, 2, 1, OptCurses, "true")
	s.curse(t, ani, "silence_2")
	if !s.Muted(ani) {
		t.Fatal("Ani's chat is not muted")
	}
	refused(t, s, ani, Signal{Call: "help_gold"}, 1_000, CodeSilenced)
	s.live(Adventurer, 0, 1)
	s.live(Torch, 2)
	apply(t, s, ani, LiftCurse{Card: "silence_2", Dice: []int{0, 1, 2}}, 1_000)
	apply(t, s, ani, Signal{Call: "help_gold"}, 1_000)
	refused(t, s, ani, Signal{Call: "ok"}, 1_999, CodeCooldown)
	apply(t, s, ani, Signal{Call: "ok"}, 2_000)
}

func TestE15DoubleKeyAtTheExit(t *testing.T) {
	s := atExit(t)
	s.opt.treasures = true
	s.reserve = 3
	s.treasure(t, frank, "double_key_1")
	refused(t, s, frank, Escape{Dice: []int{5, 6, 7}, Treasures: []string{"double_key_1"}}, 1_000, CodeIdleDice)
	e := must[Escaped](t, apply(t, s, frank, Escape{Dice: []int{5, 6}, Treasures: []string{"double_key_1"}}, 1_000))
	if e.Cost != 4 || e.Paid != 4 {
		t.Fatalf("escaped %+v", e)
	}
}

func TestE16TeleportNeedsCompany(t *testing.T) {
	s := pooledKeys(t)
	s.opt.treasures = true
	s.treasure(t, ani, "teleport_2")
	s.at(t, frank, "basic_08")
	apply(t, s, ani, Commit{Tier: 2, Dice: []int{0, 1}}, 1_000)
	refused(t, s, ani, UseTreasure{Treasure: "teleport_2", To: "basic_01"}, 1_000, CodeNoAdventurerThere)
	apply(t, s, ani, UseTreasure{Treasure: "teleport_2", To: "basic_08"}, 1_000)
	if s.chamberID(int(s.players[ani].at)) != "basic_08" || s.dice[0].Status != Live || len(s.players[ani].treasures) != 0 {
		t.Fatal("Ani did not teleport to Frank with her keys back")
	}
}

func TestE17SecretPassage(t *testing.T) {
	s := newGame(t, 2, 1, OptTreasures, "true")
	s.boardB1(t)
	// marked_12 south of the start with stairs E (facing W, R = N) is open
	// E and N; the start's S side is a wall, so they are not connected.
	s.put(t, "marked_12", 0, 1, East)
	s.treasure(t, ani, "secret_passage_1")
	refused(t, s, ani, UseTreasure{Treasure: "secret_passage_1", A: "start", B: "marked_01"}, 1_000, CodeAlreadyConnected)
	refused(t, s, ani, UseTreasure{Treasure: "secret_passage_1", A: "marked_01", B: "marked_08"}, 1_000, CodeNotAdjacent)
	apply(t, s, ani, UseTreasure{Treasure: "secret_passage_1", A: "start", B: "marked_12"}, 1_000)
	s.live(Key, 0, 1)
	s.live(Adventurer, 2)
	refused(t, s, ani, Enter{To: "marked_12", Dice: []int{0, 2}}, 1_000, CodeWrongSymbols)
	apply(t, s, ani, Enter{To: "marked_12", Dice: []int{0, 1}}, 1_000)
	v := s.view(engine.Spectator)
	if len(v.Passages) != 1 || v.Passages[0] != (Passage{A: "start", B: "marked_12"}) {
		t.Fatalf("passages %v", v.Passages)
	}
}

func TestE18HealingMask(t *testing.T) {
	s := newGame(t, 2, 1, OptTreasures, "true")
	s.boardB1(t)
	s.at(t, frank, "marked_08")
	s.treasure(t, ani, "healing_mask_1")
	s.live(BlackMask, 0, 1, 5)
	apply(t, s, ani, UseTreasure{Treasure: "healing_mask_1"}, 1_000)
	if got := status(s, 0, 1, 5); !slices.Equal(got, allStatus(3, Spent)) {
		t.Fatalf("dice %v", got)
	}
}

func TestE19AllEscapeBeforeTheLastCountdown(t *testing.T) {
	s := atExit(t)
	apply(t, s, frank, Escape{Dice: []int{5, 6, 7}, GiveTo: ip(ani)}, 250_000)
	s.at(t, ani, "exit")
	s.live(Key, 0, 1, 2)
	evs := apply(t, s, ani, Escape{Dice: []int{0, 1, 2}}, 300_000)
	if g := must[GameOver](t, evs); !g.Won {
		t.Fatalf("game over %+v", g)
	}
	if _, ok := s.Deadline(); ok {
		t.Fatal("a deadline is left after the end")
	}
	if evs := s.Advance(600_000); len(evs) != 0 {
		t.Fatalf("events after the end: %v", evs)
	}
}

func TestE20HiddenInformation(t *testing.T) {
	g := Game{}
	setup := engine.Setup{Players: 3, Seed: 42, Options: map[string]string{OptCurses: "true", OptTreasures: "true"}}
	s := newGame(t, 3, 42, OptCurses, "true", OptTreasures, "true")
	var log []engine.Record
	check := func() {
		for _, p := range []engine.Seat{0, 1, 2, engine.Spectator} {
			v := s.view(p)
			js, _ := json.Marshal(v)
			if v.StackLeft != len(s.stack) {
				t.Fatalf("stack count %d, want %d", v.StackLeft, len(s.stack))
			}
			if s.over {
				continue
			}
			for _, ti := range s.stack {
				if strings.Contains(string(js), `"`+tiles[ti].ID+`"`) {
					t.Fatalf("the view of %s names the undrawn tile %s", p, tiles[ti].ID)
				}
			}
			for _, c := range s.curseDeck {
				if strings.Contains(string(js), `"`+curses[c].ID+`"`) {
					t.Fatalf("the view of %s names the undrawn curse %s", p, curses[c].ID)
				}
			}
			hidden := slices.Clone(s.treasureStack)
			for _, c := range s.chambers {
				if c.chest >= 0 {
					hidden = append(hidden, c.chest)
				}
			}
			for _, tr := range hidden {
				if strings.Contains(string(js), `"`+treasures[tr].ID+`"`) {
					t.Fatalf("the view of %s names the hidden treasure %s", p, treasures[tr].ID)
				}
			}
		}
	}
	// Random play with the harness's kind of steps.
	r := newTestRand(7)
	now := engine.Millis(0)
	for steps := 0; steps < 20_000; steps++ {
		if _, over := s.Outcome(); over {
			break
		}
		check()
		now += engine.Millis(r.IntN(1_500))
		if dl, ok := s.Deadline(); ok && dl <= now {
			now = dl
			s.Advance(now)
			log = append(log, engine.Record{At: now})
			continue
		}
		s.Advance(now)
		p := r.IntN(3)
		l := s.Legal(engine.Seat(p))
		if len(l) == 0 {
			continue
		}
		rec := engine.Record{Seat: engine.Seat(p), Action: l[r.IntN(len(l))], At: now}
		if _, err := engine.Play(s, rec); err != nil {
			t.Fatal(err)
		}
		log = append(log, rec)
	}
	if !s.over {
		t.Fatal("the random game did not end")
	}
	rv := s.view(engine.Spectator).Reveal
	if rv == nil || len(rv.Stack) != len(s.stack) || len(rv.CurseDeck) != len(s.curseDeck) || len(rv.TreasureStack) != len(s.treasureStack) {
		t.Fatalf("reveal %+v", rv)
	}
	again, err := engine.Replay(g, setup, log)
	if err != nil {
		t.Fatal(err)
	}
	a, b2 := again.(*State), s
	if !equalStates(a, b2) {
		t.Fatal("replaying the log gives another state")
	}
}
