package plandesecours

import (
	"slices"
	"testing"

	"sortie/engine"
)

// The scenarios of section 10 of the rules reference, one test each.

// S1 — Repetition crossed again, lost by reverse (the rulebook's example).
func TestS1RepetitionCrossedAgainReverse(t *testing.T) {
	for _, cFacing := range []int{2, 0, 1, 3} {
		s := game(3, false, A)
		rig(s, []string{"double_left_2", "straight_5", "straight_6"},
			[]string{"repetition_2", "right_5", "left_7"},
			[]string{"right_4", "right_6", "left_6"})
		lay(t, s, A, "double_left_2")
		lay(t, s, B, "repetition_2")
		lay(t, s, C, "right_4", cFacing) // free: the top is a Repetition
		lay(t, s, A, "straight_5")
		lay(t, s, B, "right_5")
		lay(t, s, C, "right_6")
		lay(t, s, A, "straight_6")
		do(t, s, B, PlayLost{})
		do(t, s, C, DeclineLost{})
		evs := do(t, s, A, JoinLost{}) // C is now the last holder: the round ends

		if !slices.Contains(kinds(evs, C), "round_revealed") {
			t.Fatalf("the round did not end: %v", kinds(evs, C))
		}
		r := s.lastReveal
		checkSteps(t, r,
			at{"double_left_2", false, 0, 1, West},
			at{"repetition_2", false, -1, 1, South},
			at{"right_4", false, -1, 0, West},
			at{"straight_5", false, -2, 0, West},
			at{"right_5", false, -3, 0, North},
			at{"right_6", false, -3, 1, East},
			at{"straight_6", false, -2, 1, East},
			at{"repetition_2", true, -1, 1, East},
		)
		if r.Steps[1].Move != Left || r.Steps[7].Move != Straight {
			t.Errorf("the Repetition copied %s then %s, want left then straight", r.Steps[1].Move, r.Steps[7].Move)
		}
		checkLost(t, r, 7, "reverse")
		if *r.Blocked != (Blocked{X: 0, Y: 1, Side: West}) {
			t.Errorf("blocked at %+v, want (0,1) side W", *r.Blocked)
		}
		checkScores(t, s, 1, 1, 0)
	}
}

// S2 — the LOST chain (the rulebook's example).
func TestS2LostChain(t *testing.T) {
	s := game(4, false, A)
	do(t, s, A, PlayLost{})
	do(t, s, B, JoinLost{})
	do(t, s, C, DeclineLost{})
	v := view(s, engine.Spectator)
	if v.Chain == nil || v.Chain.Asked != 3 || !slices.Equal(v.Chain.Joined, []int{1}) || !slices.Equal(v.Chain.Declined, []int{2}) {
		t.Fatalf("chain view %s", js(v.Chain))
	}
	do(t, s, D, DeclineLost{}) // holders C and D: D may join, so it is asked
	if s.phase != phaseTurn || s.actor != 2 {
		t.Fatalf("phase %s, actor %d; want turn, C", phaseNames[s.phase], s.actor)
	}
	v = view(s, engine.Spectator)
	if !slices.Equal(v.Lost, []LostTile{{0, 1}, {1, 1}}) || s.firstLost != 0 || v.Chain != nil {
		t.Fatalf("lost %v, first lost %d", v.Lost, s.firstLost)
	}
	if s.holders != 1<<2|1<<3 {
		t.Fatalf("holders %b, want C and D", s.holders)
	}
	// A and B never act again this round.
	lay(t, s, C, s.hands[2][0].String())
	if s.actor != 3 {
		t.Fatalf("after C the actor is %d, want D", s.actor)
	}
	do(t, s, D, s.Legal(engine.Seat(D))[0])
	if s.actor != 2 {
		t.Fatalf("after D the actor is %d, want C", s.actor)
	}
}

// S3 — DANGER: the stack turns clockwise (the rulebook's example).
func TestS3DangerClockwiseTurn(t *testing.T) {
	s := game(3, true, A)
	setDangers(s, DangerRotateCW)
	rig(s, []string{"left_1", "straight_5", "straight_6"})
	evs := lay(t, s, A, "left_1")
	if s.handLen[0] != 3 {
		t.Errorf("A holds %d tiles, want 3", s.handLen[0])
	}
	v := view(s, B)
	if v.Top.Tile != tid("left_1") || v.Top.Facing != 1 || v.NextFacing != 0 {
		t.Errorf("top %s, next facing %d; want left_1 facing 1, next 0", js(v.Top), v.NextFacing)
	}
	var played TilePlayed
	rotated := false
	for _, e := range evs {
		switch b := e.Body.(type) {
		case TilePlayed:
			played = b
		case StackRotated:
			rotated = b.QuarterTurns == 1
		}
	}
	if played.Facing != 0 || !rotated {
		t.Errorf("laid with facing %d, rotated %v; want 0 and stack_rotated{1}", played.Facing, rotated)
	}
	r := s.reveal(EndedByExhaustion)
	checkSteps(t, r, at{"left_1", false, 0, 1, West})
}

// S4 — FLOOR card: 5 different characters (the rulebook's example).
func TestS4FiveCharacters(t *testing.T) {
	r := revealOf(3, []FloorID{FloorInitial, FloorFiveCharacters},
		T("straight_1"), T("straight_2"), T("straight_3"), T("straight_4"), T("left_1"))
	checkSteps(t, r,
		at{"straight_1", false, 0, 1, North}, at{"straight_2", false, 0, 2, North},
		at{"straight_3", false, 0, 3, North}, at{"straight_4", false, 0, 4, North},
		at{"left_1", false, 0, 5, West})
	checkLost(t, r, 5, "floor_five_characters")
}

// S5 — secondary routes continue the path.
func TestS5SecondaryRoutes(t *testing.T) {
	cross := []item{T("crossroads_2"), T("right_4"), T("right_5"), T("right_6"), T("repetition_2"), T("left_4")}
	t.Run("a crossroads", func(t *testing.T) {
		r := revealOf(3, nil, cross...)
		checkSteps(t, r,
			at{"crossroads_2", false, 0, 1, North},
			at{"right_4", false, 0, 2, East},
			at{"right_5", false, 1, 2, South},
			at{"right_6", false, 1, 1, West},
			at{"crossroads_2", true, 0, 1, West},
			at{"repetition_2", false, -1, 1, West},
			at{"left_4", false, -2, 1, South})
		if r.Steps[4].Move != Straight || r.Steps[5].Move != Straight {
			t.Errorf("pass %s, Repetition %s; want straight, straight", r.Steps[4].Move, r.Steps[5].Move)
		}
		checkLost(t, r, 0)
	})
	t.Run("b crossing", func(t *testing.T) {
		checkLost(t, revealOf(3, []FloorID{FloorInitial, FloorCrossing}, cross...), 4, "floor_crossing")
	})
	t.Run("c double turn", func(t *testing.T) {
		r := revealOf(3, nil, T("double_left_2"), T("right_4"), T("straight_5"), T("right_5"),
			T("straight_6"), T("right_6"), T("straight_7"), T("right_7"), T("repetition_2"))
		checkSteps(t, r,
			at{"double_left_2", false, 0, 1, West},
			at{"right_4", false, -1, 1, North},
			at{"straight_5", false, -1, 2, North},
			at{"right_5", false, -1, 3, East},
			at{"straight_6", false, 0, 3, East},
			at{"right_6", false, 1, 3, South},
			at{"straight_7", false, 1, 2, South},
			at{"right_7", false, 1, 1, West},
			at{"double_left_2", true, 0, 1, North},
			at{"repetition_2", false, 0, 2, East})
		if r.Steps[8].Move != Right || r.Steps[9].Move != Right {
			t.Errorf("pass %s, Repetition %s; want right, right", r.Steps[8].Move, r.Steps[9].Move)
		}
		checkLost(t, r, 9, "dead_end")
	})
}

// S6 — two players: a LOST call ends the round at once.
func TestS6TwoPlayersLostEndsRound(t *testing.T) {
	s := game(2, false, A)
	evs := do(t, s, A, PlayLost{})
	if slices.Contains(kinds(evs, B), "chain_asked") || !slices.Contains(kinds(evs, B), "round_revealed") {
		t.Fatalf("events %v: B must not be asked, and the round must end", kinds(evs, B))
	}
	checkLost(t, s.lastReveal, 0)
	checkScores(t, s, 0, 1)
}

// S7 — the last holder is never asked.
func TestS7LastHolderNeverAsked(t *testing.T) {
	s := game(3, false, A)
	do(t, s, A, PlayLost{})
	evs := do(t, s, B, JoinLost{})
	if slices.Contains(kinds(evs, C), "chain_asked") {
		t.Fatal("C was asked")
	}
	r := s.lastReveal
	if r == nil || r.EndedBy != EndedByLastHolder || !slices.Equal(r.Holders, []int{2}) {
		t.Fatalf("reveal %s", js(r))
	}
}

// s8 plays scenario S8 and returns the state after its round.
func s8(t *testing.T) *State {
	s := game(5, false, A)
	rig(s, []string{"left_4", "straight_6", "straight_7"}, nil,
		[]string{"left_5", "straight_5", "straight_8"}, []string{"left_6", "straight_9", "right_4"})
	lay(t, s, A, "left_4")
	do(t, s, B, PlayLost{})
	for _, p := range []engine.Seat{C, D, E, A} {
		do(t, s, p, DeclineLost{})
	}
	lay(t, s, C, "left_5")
	lay(t, s, D, "left_6")
	do(t, s, E, PlayLost{})
	do(t, s, A, JoinLost{})
	do(t, s, C, DeclineLost{})
	do(t, s, D, DeclineLost{})
	lay(t, s, C, "straight_5")
	do(t, s, D, PlayLost{}) // C is the last holder: the round ends
	return s
}

// S8 — early, scoring and late calls.
func TestS8EarlyScoringLateCalls(t *testing.T) {
	s := s8(t)
	r := s.lastReveal
	checkSteps(t, r,
		at{"left_4", false, 0, 1, West},
		at{"left_5", false, -1, 1, South},
		at{"left_6", false, -1, 0, East})
	checkLost(t, r, 3, "dead_end")
	var status []string
	for _, it := range r.Stack {
		if it.Kind == LostItem {
			status = append(status, string(rune('A'+it.Seat))+":"+it.Status.String())
		}
	}
	if want := []string{"B:early", "E:scoring", "A:scoring", "D:after"}; !slices.Equal(status, want) {
		t.Errorf("LOST tiles %v, want %v", status, want)
	}
	checkScores(t, s, 1, 0, 0, 0, 1)
	if s.first != 1 {
		t.Errorf("next first player %d, want B", s.first)
	}
}

// S9 — valid path: the holders score.
func TestS9ValidPathHoldersScore(t *testing.T) {
	s := game(3, false, B)
	rig(s, nil, []string{"straight_5", "left_4", "left_5"}, []string{"right_4", "left_6", "left_7"})
	lay(t, s, B, "straight_5")
	lay(t, s, C, "right_4")
	do(t, s, A, PlayLost{})
	do(t, s, B, JoinLost{}) // C is the last holder
	checkLost(t, s.lastReveal, 0)
	checkScores(t, s, 0, 0, 1)
}

// S10 — a failed path with no LOST tile after it: nobody scores.
func TestS10FailedPathNobodyAfter(t *testing.T) {
	r := revealOf(3, nil, T("left_4"), L(A, 1), T("left_5"), T("left_6"))
	checkLost(t, r, 3, "dead_end")
	if r.Stack[1].Status != LostEarly || !slices.Equal(r.Points, []int{0, 0, 0}) || !slices.Equal(r.Holders, []int{1, 2}) {
		t.Fatalf("reveal %s", js(r))
	}
}

// S11 — a loop into the start.
func TestS11LoopIntoStart(t *testing.T) {
	stack := []item{T("right_4"), T("right_5"), T("straight_5"), T("right_6"), T("right_7")}
	r := revealOf(3, nil, stack...)
	checkSteps(t, r,
		at{"right_4", false, 0, 1, East},
		at{"right_5", false, 1, 1, South},
		at{"straight_5", false, 1, 0, South},
		at{"right_6", false, 1, -1, West},
		at{"right_7", false, 0, -1, North})
	checkLost(t, r, 5, "loop")
	checkLost(t, revealOf(3, []FloorID{FloorInitial, FloorBehind}, stack...), 4, "floor_behind")
}

// S12 — chains of Repetitions repeat the same move.
func TestS12RepetitionChains(t *testing.T) {
	r := revealOf(3, nil, T("left_4"), T("repetition_2"), T("repetition_3"))
	checkSteps(t, r,
		at{"left_4", false, 0, 1, West},
		at{"repetition_2", false, -1, 1, South},
		at{"repetition_3", false, -1, 0, East})
	checkLost(t, r, 3, "dead_end")
}

// S13 — a Repetition right after the start is a straight.
func TestS13RepetitionAfterStart(t *testing.T) {
	r := revealOf(3, nil, T("repetition_2"), T("right_4"))
	checkSteps(t, r, at{"repetition_2", false, 0, 1, North}, at{"right_4", false, 0, 2, East})
	checkLost(t, r, 0)
}

// S14 — a Repetition crossed again can save the path.
func TestS14RepetitionCrossingSaves(t *testing.T) {
	stack := []item{T("left_4"), T("repetition_2"), T("right_4"), T("straight_5"), T("right_5"),
		T("straight_6"), T("right_6"), T("right_7"), T("left_5"), T("straight_7")}
	r := revealOf(3, nil, stack...)
	checkSteps(t, r,
		at{"left_4", false, 0, 1, West},
		at{"repetition_2", false, -1, 1, South},
		at{"right_4", false, -1, 0, West},
		at{"straight_5", false, -2, 0, West},
		at{"right_5", false, -3, 0, North},
		at{"straight_6", false, -3, 1, North},
		at{"right_6", false, -3, 2, East},
		at{"right_7", false, -2, 2, South},
		at{"left_5", false, -2, 1, East},
		at{"repetition_2", true, -1, 1, North},
		at{"straight_7", false, -1, 2, North})
	checkLost(t, r, 0)
	checkLost(t, revealOf(3, []FloorID{FloorInitial, FloorCrossing}, stack...), 9, "floor_crossing")
}

// S15 — facing rules.
func TestS15FacingRules(t *testing.T) {
	t.Run("a derived", func(t *testing.T) {
		s := game(3, false, A)
		rig(s, []string{"right_4", "left_4", "left_5"}, []string{"straight_5", "left_6", "left_7"}, []string{"straight_6", "straight_7", "straight_8"})
		lay(t, s, A, "right_4")
		lay(t, s, B, "straight_5")
		if v := view(s, C); v.Top.Facing != 1 || v.NextFacing != 1 {
			t.Fatalf("top facing %d, next %d; want 1, 1", v.Top.Facing, v.NextFacing)
		}
		refused(t, s, C, PlayTile{Tile: tid("straight_6"), Facing: FacingOf(1)}, CodeFacingNotFree)
	})
	t.Run("b free", func(t *testing.T) {
		s := game(3, false, A)
		rig(s, []string{"repetition_2", "left_4", "left_5"}, []string{"straight_5", "left_6", "left_7"})
		lay(t, s, A, "repetition_2")
		if v := view(s, B); v.NextFacing != FacingFree {
			t.Fatalf("next facing %d, want free", v.NextFacing)
		}
		refused(t, s, B, PlayTile{Tile: tid("straight_5")}, CodeFacingRequired)
		lay(t, s, B, "straight_5", 3)
		if v := view(s, C); v.Top.Facing != 3 {
			t.Fatalf("top facing %d, want 3", v.Top.Facing)
		}
	})
	t.Run("c free under LOST", func(t *testing.T) {
		s := stacked(3, nil, T("straight_5"), T("repetition_2"), L(A, 1))
		s.actor = 1
		if v := view(s, B); v.NextFacing != FacingFree || v.Top.Kind != "lost" {
			t.Fatalf("next facing %d, top %s; want free under a LOST tile", v.NextFacing, js(v.Top))
		}
	})
	t.Run("d derived under LOST", func(t *testing.T) {
		s := stacked(3, nil, T("straight_5"), T("left_4"), L(A, 1))
		if v := view(s, B); v.NextFacing != 3 {
			t.Fatalf("next facing %d, want 3", v.NextFacing)
		}
	})
}

// S16 — blackout.
func TestS16Blackout(t *testing.T) {
	s := game(3, true, A)
	setDangers(s, DangerBlackout)
	rig(s, []string{"straight_1", "left_4", "left_5"})
	evs := lay(t, s, A, "straight_1")
	if !slices.Contains(kinds(evs, C), "blackout") {
		t.Errorf("no blackout event: %v", kinds(evs, C))
	}
	for _, p := range []engine.Seat{A, B, C, engine.Spectator} {
		v := view(s, p)
		if v.Top != (TopItem{Kind: "face_down", Seat: -1}) || v.NextFacing != FacingFree {
			t.Errorf("%s sees top %s, next facing %d; want face down and free", p, js(v.Top), v.NextFacing)
		}
	}
	checkSteps(t, s.reveal(EndedByExhaustion), at{"straight_1", false, 0, 1, North})
}

// S17 — play again and skip.
func TestS17PlayAgainAndSkip(t *testing.T) {
	t.Run("play again", func(t *testing.T) {
		s := game(4, true, A)
		setDangers(s, DangerPlayAgain)
		rig(s, []string{"right_2", "left_4", "left_5"})
		lay(t, s, A, "right_2")
		if s.handLen[0] != 3 || s.actor != 0 {
			t.Fatalf("A holds %d, actor %d; want 3 and A again", s.handLen[0], s.actor)
		}
	})
	t.Run("skip", func(t *testing.T) {
		s := game(4, true, A)
		setDangers(s, DangerSkipNext)
		rig(s, []string{"straight_3", "left_4", "left_5"})
		evs := lay(t, s, A, "straight_3")
		if s.actor != 2 || !slices.Contains(kinds(evs, B), "turn_skipped") {
			t.Fatalf("actor %d, events %v; want C and turn_skipped", s.actor, kinds(evs, B))
		}
	})
	t.Run("skip with two holders", func(t *testing.T) {
		s := game(4, true, B)
		setDangers(s, DangerSkipNext)
		rig(s, []string{"straight_3", "left_4", "left_5"}, nil, []string{"left_6", "left_7", "right_4"})
		do(t, s, B, PlayLost{})
		do(t, s, C, DeclineLost{})
		do(t, s, D, JoinLost{})
		do(t, s, A, DeclineLost{})
		lay(t, s, C, "left_6")
		lay(t, s, A, "straight_3")
		if s.actor != 0 {
			t.Fatalf("actor %d, want A again", s.actor)
		}
	})
}

// S18 — pass hands.
func TestS18PassHands(t *testing.T) {
	s := game(4, true, D)
	setDangers(s, DangerPassHands)
	rig(s, []string{"straight_4", "left_4", "left_5"}, []string{"left_6", "left_7", "right_4"},
		[]string{"right_5", "right_6", "right_7"}, []string{"straight_5", "straight_6", "straight_7"})
	do(t, s, D, PlayLost{})
	for _, p := range []engine.Seat{A, B, C} {
		do(t, s, p, DeclineLost{})
	}
	before := s.hands
	evs := lay(t, s, A, "straight_4") // A then holds left_4, left_5 and its draw, straight_1
	aHand := [3]TileID{tid("left_4"), tid("left_5"), tid("straight_1")}
	if s.hands[1] != aHand || s.hands[2] != before[1] || s.hands[0] != before[2] || s.hands[3] != before[3] {
		t.Fatalf("hands after passing: %v", s.hands)
	}
	for _, p := range []engine.Seat{A, B, C} {
		n := 0
		for _, e := range engine.Visible(nil, evs, p) {
			if h, ok := e.Body.(HandReceived); ok {
				n++
				if h.Seat != int(p) {
					t.Errorf("%s is told of %d's hand", p, h.Seat)
				}
			}
		}
		if n != 1 {
			t.Errorf("%s got %d hand_received events, want 1", p, n)
		}
	}
	if slices.Contains(kinds(evs, D), "hand_received") || slices.Contains(kinds(evs, engine.Spectator), "hand_received") {
		t.Error("D or a spectator was told a hand")
	}
}

// S19 — the first player of the next round.
func TestS19NextFirstPlayer(t *testing.T) {
	if s := s8(t); s.first != 1 {
		t.Errorf("after S8 the first player is %d, want B", s.first)
	}
	s := game(4, false, C)
	s.drawPos = numPlayable
	s.handLen = [MaxPlayers]uint8{0, 0, 1, 0}
	s.hands[2][0] = tid("straight_5")
	lay(t, s, C, "straight_5") // the last tile: exhaustion
	if s.round != 2 || s.first != 3 || s.actor != 3 {
		t.Fatalf("round %d first %d actor %d; want round 2 opened by D", s.round, s.first, s.actor)
	}
	if s.lastReveal.EndedBy != EndedByExhaustion {
		t.Errorf("ended by %s", s.lastReveal.EndedBy)
	}
}

// S20 — shared victory.
func TestS20SharedVictory(t *testing.T) {
	s := game(4, false, A)
	s.scores = [MaxPlayers]int{1, 1, 0, 0}
	rig(s, []string{"left_4", "left_7", "right_4"}, []string{"left_5", "right_5", "right_6"},
		[]string{"left_6", "right_7", "straight_9"}, []string{"straight_5", "straight_6", "straight_7"})
	lay(t, s, A, "left_4")
	lay(t, s, B, "left_5")
	lay(t, s, C, "left_6") // dead end
	lay(t, s, D, "straight_5")
	do(t, s, A, PlayLost{})
	do(t, s, B, JoinLost{})
	do(t, s, C, DeclineLost{})
	do(t, s, D, DeclineLost{})
	do(t, s, C, PlayLost{}) // D is the last holder
	o, over := s.Outcome()
	if !over || !slices.Equal(o.Winners, []engine.Seat{0, 1}) || !slices.Equal(o.Ranks, []int{1, 1, 3, 3}) {
		t.Fatalf("outcome %+v (over %v); want A and B sharing the victory", o, over)
	}
	checkScores(t, s, 2, 2, 0, 0)
	if v := view(s, engine.Spectator); v.LastReveal == nil || v.LastReveal.Round != 1 || v.Phase != "game_over" || v.Actor != -1 {
		t.Errorf("final view: %s", js(v))
	}
}

// S21 — an empty hand, then exhaustion.
func TestS21EmptyHandThenExhaustion(t *testing.T) {
	s := game(2, false, A)
	s.drawPos = numPlayable
	s.handLen = [MaxPlayers]uint8{0, 1}
	s.hands[1][0] = tid("straight_5")
	legal := s.Legal(engine.Seat(A))
	if len(legal) != 2 || legal[0] != engine.Action(PlayLost{}) || legal[1] != engine.Action(PassTurn{}) {
		t.Fatalf("A's legal actions %v", legal)
	}
	refused(t, s, B, PassTurn{}, engine.CodeNotYourTurn)
	do(t, s, A, PassTurn{})
	refused(t, s, B, PassTurn{}, CodeMustPlay)
	lay(t, s, B, "straight_5")
	if s.round != 2 || s.lastReveal.EndedBy != EndedByExhaustion {
		t.Fatalf("round %d; the round must end by exhaustion", s.round)
	}
	checkScores(t, s, 1, 1)
}

// S22 — failure at the last tile.
func TestS22FailureAtLastTile(t *testing.T) {
	r := revealOf(3, nil, T("left_4"), T("left_5"), T("left_6"))
	checkLost(t, r, 3, "dead_end")
	if !slices.Equal(r.Points, []int{0, 0, 0}) {
		t.Fatalf("points %v, want none", r.Points)
	}
}

// S23 — the other FLOOR cards.
func TestS23OtherFloorCards(t *testing.T) {
	straights := []item{T("straight_5"), T("straight_6"), T("straight_7"), T("straight_8")}
	corridor := []FloorID{FloorInitial, FloorCorridor}
	checkLost(t, revealOf(3, corridor, straights...), 4, "floor_corridor")
	checkLost(t, revealOf(3, corridor, T("crossroads_2"), T("right_4"), T("right_5"), T("right_6"),
		T("repetition_2"), T("straight_7"), T("straight_8")), 7, "floor_corridor")
	checkLost(t, revealOf(3, []FloorID{FloorInitial, FloorFar}, append(straights, T("right_4"))...), 5, "floor_far")
	checkLost(t, revealOf(3, []FloorID{FloorInitial, FloorTwinCharacters}, T("straight_1"), T("right_1")), 2, "floor_twin_characters")
}

// S24 — the safety cap.
func TestS24SafetyCap(t *testing.T) {
	s := game(3, false, A)
	s.round = MaxRounds
	s.scores = [MaxPlayers]int{2, 2, 0}
	do(t, s, A, PlayLost{})
	do(t, s, B, JoinLost{}) // C is the last holder of a valid path: C +1
	o, over := s.Outcome()
	if !over || !slices.Equal(o.Winners, []engine.Seat{0, 1}) || !slices.Equal(o.Scores, []int{2, 2, 1}) {
		t.Fatalf("outcome %+v (over %v); want A and B sharing at the cap", o, over)
	}
}
