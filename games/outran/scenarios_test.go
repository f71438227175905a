package outran

import (
	"slices"
	"testing"

	"sortie/engine"
)

// The scenarios of §10 of the rules reference, one test each, named after
// them.

// wrongList is a list seat p gets wrong: its answer with the first two
// tokens swapped.
func wrongList(s *state, p engine.Seat) string {
	l := slices.Clone(s.seats[p].Canonical)
	l[0], l[1] = l[1], l[0]
	return listString(l)
}

func wantPositions(t *testing.T, s *state, want ...int) {
	t.Helper()
	if got := positionsOf(s); !slices.Equal(got, want) {
		t.Fatalf("positions %v, want %v", got, want)
	}
}

func wantProgress(t *testing.T, s *state, want ...int) {
	t.Helper()
	if got := progressOf(s); !slices.Equal(got, want) {
		t.Fatalf("progress %v, want %v", got, want)
	}
}

func wantOrder(t *testing.T, got []engine.Seat, want ...engine.Seat) {
	t.Helper()
	if !slices.Equal(got, want) {
		t.Fatalf("order %v, want %v", got, want)
	}
}

func wantFront(t *testing.T, s *state, holder int, want ...string) {
	t.Helper()
	f := *s.frontOf(holder)
	if got := frontIDs(f); !slices.Equal(got, want) {
		t.Fatalf("front of %d: %v, want %v", holder, got, want)
	}
}

func wantAccepted(t *testing.T, s *state, p engine.Seat, want ...string) {
	t.Helper()
	slices.Sort(want)
	if got := listsString(s.seats[p].accepted()); !slices.Equal(got, want) {
		t.Fatalf("Accepted(%s) = %q, want %q", p, got, want)
	}
}

func wantWrong(t *testing.T, s *state, p engine.Seat, lists ...string) {
	t.Helper()
	for _, l := range lists {
		if isAccepted(toks(t, l), s.seats[p].accepted()) {
			t.Errorf("%q is accepted for %s, want wrong", l, p)
		}
	}
}

func inDiscard(s *state, c Card) bool { return slices.Contains(s.discard, c) }

// S1 — FAQ: Interchange and Not this way together.
func TestS1InterchangeAndNotThisWay(t *testing.T) {
	s := newState(t, 2, "bear")
	s.giveFront(t, int(A), "interchange_n_s", "not_this_way_n")
	s.stackPath(t, "p04")
	reveal(t, s)
	wantAccepted(t, s, A, "ne n se")
	wantWrong(t, s, A, "ne s se", "ne s n se", "ne se")
	submit(t, s, A, 3000, "ne n se")
	submitCorrect(t, s, B, 4000)
	if s.seats[A].Result != Correct {
		t.Fatalf("A's result %s, want correct", s.seats[A].Result)
	}
}

// S2 — Ricochet, even then odd, on 6 cards.
func TestS2RicochetEvenOdd(t *testing.T) {
	s := newState(t, 3, "vampire")
	s.giveFront(t, centreHolder, "ricochet_even_odd_1")
	s.stackPath(t, "p17")
	reveal(t, s)
	for p := A; p <= C; p++ {
		wantAccepted(t, s, p, "n s se ne sw e")
	}
}

// S3 — Ricochet, odd then even, on 6 cards.
func TestS3RicochetOddEven(t *testing.T) {
	s := newState(t, 3, "vampire")
	s.giveFront(t, centreHolder, "ricochet_odd_even_1")
	s.stackPath(t, "p17")
	reveal(t, s)
	for p := A; p <= C; p++ {
		wantAccepted(t, s, p, "ne sw e n s se")
	}
}

// S4 — FAQ: no second Boost.
func TestS4NoSecondBoost(t *testing.T) {
	s := newState(t, 3, "bear")
	s.giveFront(t, int(A), "boost_1")
	s.giveHand(t, A, "boost_4")
	s.giveHand(t, B, "boost_2")
	s.turnOf(A, A, B, C)
	refuse(t, s, A, Play{Card: cardOf(t, "boost_4"), Target: A}, s.phaseAt, CodeAlreadyHasKind)
	s.turnOf(B, A, B, C)
	refuse(t, s, B, Play{Card: cardOf(t, "boost_2"), Target: A}, s.phaseAt, CodeTargetYourself)

	// Next round, on a square worth 2, A moves 4.
	s = newState(t, 3, "bear")
	s.giveFront(t, int(A), "boost_1")
	reveal(t, s)
	submitCorrect(t, s, B, 3000)
	submitCorrect(t, s, A, 4000)
	submitCorrect(t, s, C, 5000)
	wantPositions(t, s, 4, 6, 1)
	wantProgress(t, s, 4, 3, 0)
}

// S5 — The last correct seat's placement choice (Bear, 4 seats).
func TestS5LastCorrectSeatChoice(t *testing.T) {
	setup := func() *state {
		s := newState(t, 4, "bear")
		s.giveFront(t, int(C), "reverse_2", "interchange_n_s")
		reveal(t, s)
		submit(t, s, A, 4900, wrongList(s, A))
		submitCorrect(t, s, B, 5200)
		submitCorrect(t, s, D, 6000)
		submitCorrect(t, s, C, 8100)
		wantPositions(t, s, 0, 6, 3, 4)
		if s.phase != PhasePlaceChoice || s.choiceSeat != C || s.choicePos != 1 {
			t.Fatalf("phase %s, choice %s pos%d; want C offered pos1", s.phase, s.choiceSeat, s.choicePos)
		}
		return s
	}
	t.Run("leftmost", func(t *testing.T) {
		s := setup()
		evs := play(t, s, C, ChoosePlace{Leftmost: true}, s.phaseAt+1000)
		wantPositions(t, s, 0, 6, 1, 4)
		wantProgress(t, s, 0, 3, 0, 2)
		wantFront(t, s, int(C))
		if cl := eventsOf[Clawed](evs); len(cl) != 1 || cl[0].Seat != C {
			t.Fatalf("clawed %v, want C", cl)
		}
		wantOrder(t, s.order, B, D, C, A)
		wantOrder(t, drawOrder(evs), B, D, C, A)
	})
	t.Run("timeout", func(t *testing.T) {
		s := setup()
		evs := s.Advance(s.phaseAt + s.cfg.Decision)
		wantPositions(t, s, 0, 6, 3, 4)
		wantProgress(t, s, 0, 3, 1, 2)
		wantFront(t, s, int(C), "reverse_2", "interchange_n_s")
		if len(eventsOf[Clawed](evs)) != 0 {
			t.Fatal("somebody was clawed")
		}
		if cp := eventsOf[ChosePlace](evs); len(cp) != 1 || !cp[0].Timeout || cp[0].Leftmost {
			t.Fatalf("chose_place %v, want a timeout that stays", cp)
		}
	})
}

// S6 — Placement grid, 5 seats.
func TestS6PlacementGridFiveSeats(t *testing.T) {
	s := newState(t, 5, "vampire")
	reveal(t, s)
	for i, p := range seats(E, A, C, B, D) {
		submitCorrect(t, s, p, engine.Millis(3000+1000*i))
	}
	wantPositions(t, s, 4, 2, 3, 1, 6)
	wantProgress(t, s, 2, 1, 1, 0, 3)
	if s.phase != PhaseCountdown {
		t.Fatalf("phase %s: no choice should be offered on the Vampire", s.phase)
	}
}

// S7 — Nobody correct.
func TestS7NobodyCorrect(t *testing.T) {
	s := newState(t, 3, "bear")
	s.flipper = B
	reveal(t, s)
	submit(t, s, A, 6000, wrongList(s, A))
	submit(t, s, C, 7000, wrongList(s, C))
	evs := s.Advance(s.at(90000))
	if re := eventsOf[RunEnded](evs); len(re) != 1 || re[0].Reason != "time_limit" {
		t.Fatalf("run_ended %v", re)
	}
	wantPositions(t, s, 0, 0, 0)
	wantProgress(t, s, 0, 0, 0)
	if len(eventsOf[Clawed](evs)) != 0 {
		t.Fatal("somebody was clawed")
	}
	wantOrder(t, s.order, A, C, B)
	wantOrder(t, drawOrder(evs), A, C, B)
	for s.phase == PhaseInterferenceTurn {
		play(t, s, s.order[s.turn], EndTurn{}, s.phaseAt)
	}
	if s.phase != PhaseCountdown || s.flipper != B {
		t.Fatalf("phase %s, flipper %s; want the countdown with flipper B", s.phase, s.flipper)
	}
}

// S8 — The others stop a seat that takes far too long.
func TestS8StopVote(t *testing.T) {
	setup := func() *state {
		s := newState(t, 4, "vampire")
		reveal(t, s)
		submitCorrect(t, s, A, 5000)
		submitCorrect(t, s, B, 6000)
		submitCorrect(t, s, C, 7000)
		s.Advance(s.at(12000))
		refuse(t, s, A, VoteStop{}, s.at(12000), CodeVoteTooEarly)
		play(t, s, A, VoteStop{}, s.at(15000))
		play(t, s, B, VoteStop{}, s.at(16000))
		return s
	}
	s := setup()
	at := s.at(17000)
	evs := play(t, s, C, VoteStop{}, at)
	if re := eventsOf[RunEnded](evs); len(re) != 1 || re[0].Reason != "vote" || re[0].At != at {
		t.Fatalf("run_ended %v, want by vote at 17 000", re)
	}
	if s.seats[D].Result != Stopped {
		t.Fatalf("D is %s, want stopped", s.seats[D].Result)
	}
	// D24 (corrected): C, the last correct seat, is offered pos1 even on the
	// Vampire (the reference's S8 still says no choice); it stays.
	if s.phase != PhasePlaceChoice || s.choiceSeat != C || s.choicePos != 1 {
		t.Fatalf("phase %s, choice %s pos%d; want C offered pos1", s.phase, s.choiceSeat, s.choicePos)
	}
	s.Advance(s.phaseAt + s.cfg.Decision)
	wantPositions(t, s, 6, 4, 3, 0)
	wantProgress(t, s, 3, 2, 1, 0)

	t.Run("late submission", func(t *testing.T) {
		s := setup()
		evs := submitCorrect(t, s, D, 16500)
		if re := eventsOf[RunEnded](evs); len(re) != 1 || re[0].Reason != "all_submitted" {
			t.Fatalf("run_ended %v, want all_submitted", re)
		}
		if s.seats[D].Result != Correct {
			t.Fatalf("D is %s, want correct", s.seats[D].Result)
		}
		wantPositions(t, s, 6, 4, 3, 1)
	})
}

// S9 — Zombie antidote.
func TestS9ZombieAntidote(t *testing.T) {
	setup := func() *state {
		s := newState(t, 3, "zombie")
		s.seats[A].Infected = true
		s.giveFront(t, int(A), "reverse_3")
		s.stackPath(t, "p05")
		s.stackDeck(t, "not_this_way_spin", "interchange_ne_sw")
		reveal(t, s)
		return s
	}
	s := setup()
	submitCorrect(t, s, B, 3000)
	submitCorrect(t, s, C, 4000)
	evs := submit(t, s, A, 5000, "n sw w spin antidote")
	if len(eventsOf[Cured](evs)) != 1 || s.seats[A].Infected || !inDiscard(s, cardOf(t, "reverse_3")) {
		t.Fatal("A is not cured, or reverse_3 not discarded")
	}
	wantPositions(t, s, 1, 6, 4)
	for _, in := range eventsOf[Infected](evs) {
		if in.Seat == A {
			t.Fatal("A was infected although immune")
		}
	}
	if slices.Contains(drawOrder(evs), A) {
		t.Fatal("A drew although healthy")
	}

	t.Run("reverse forgotten", func(t *testing.T) {
		s := setup()
		submitCorrect(t, s, B, 3000)
		submitCorrect(t, s, C, 4000)
		submit(t, s, A, 5000, "spin w sw n antidote")
		evs := s.Advance(s.phaseAt + s.cfg.Decision) // C stays on pos4
		if s.seats[A].Result != Wrong || s.seats[A].Pos != zeroBox || !s.seats[A].Infected {
			t.Fatalf("A: %s on %d, infected %v", s.seats[A].Result, s.seats[A].Pos, s.seats[A].Infected)
		}
		for _, in := range eventsOf[Infected](evs) {
			if in.Spreader != nil && *in.Spreader == A {
				t.Fatal("A spread from the +0 box")
			}
		}
		wantFront(t, s, int(A), "reverse_3", "interchange_ne_sw")
		if !slices.Contains(drawOrder(evs), A) {
			t.Fatal("A did not draw")
		}
	})
}

// S10 — An infected seat on a biohazard must infect a neighbour.
func TestS10InfectedSeatMustInfectNeighbour(t *testing.T) {
	s := newState(t, 4, "zombie")
	s.seats[A].Infected = true
	s.stackPath(t, "p01")
	reveal(t, s)
	submitCorrect(t, s, B, 3000)
	submitCorrect(t, s, A, 4000)
	submitCorrect(t, s, C, 5000)
	evs := submitCorrect(t, s, D, 6000)
	wantPositions(t, s, 4, 6, 3, 1)
	if !s.seats[D].Infected {
		t.Fatal("D was not infected on pos1")
	}
	offers := eventsOf[InfectOffered](evs)
	if s.phase != PhaseInfectChoice || len(offers) != 1 || offers[0].Seat != A || !slices.Equal(offers[0].Candidates, seats(B, C)) {
		t.Fatalf("phase %s, offers %v; want A to choose between B and C", s.phase, offers)
	}
	evs = s.Advance(s.phaseAt + s.cfg.Decision)
	if !s.seats[B].Infected || s.seats[C].Infected {
		t.Fatal("on timeout B (the higher position) must be infected, and only B")
	}
	wantOrder(t, drawOrder(evs), B, A, D)
}

// S11 — Movement order decides the race.
func TestS11MovementOrderDecidesTheRace(t *testing.T) {
	s := newState(t, 3, "bear", "exit_boards=2")
	s.seats[A].Progress, s.seats[B].Progress, s.seats[C].Progress = 16, 17, 10
	reveal(t, s)
	submitCorrect(t, s, A, 3000)
	submitCorrect(t, s, B, 4000)
	submit(t, s, C, 5000, wrongList(s, C))
	if s.phase != PhasePlaceChoice || s.choiceSeat != B {
		t.Fatalf("phase %s: B should be offered pos1", s.phase)
	}
	s.Advance(s.phaseAt + s.cfg.Decision)
	wantProgress(t, s, 19, 17, 10)
	out, over := s.Outcome()
	if !over || !slices.Equal(out.Winners, seats(A)) || !slices.Equal(out.Ranks, []int{1, 2, 3}) {
		t.Fatalf("outcome %+v, over %v", out, over)
	}
}

// S12 — Vampire: a "+" card reaches the centre.
func TestS12VampireDetourInCentre(t *testing.T) {
	s := newState(t, 3, "vampire")
	s.giveFront(t, centreHolder, "reverse_1")
	s.stackPath(t, "p01", "p07")
	s.stackDeck(t, "detour_2_3_v")
	reveal(t, s)
	for p := A; p <= C; p++ {
		submit(t, s, p, engine.Millis(3000+int(p)*1000), "")
	}
	wantFront(t, s, centreHolder, "reverse_1", "detour_2_3_v")
	reveal(t, s)
	for p := A; p <= C; p++ {
		wantAccepted(t, s, p, "se nw detour spin sw w")
		wantWrong(t, s, p, "se nw spin sw w")
		if s.seats[p].Palette&(1<<Detour) == 0 {
			t.Fatalf("%s has no detour in its palette", p)
		}
	}
}

// S13 — Bear claw (2 seats).
func TestS13BearClaw(t *testing.T) {
	s := newState(t, 2, "bear")
	s.giveFront(t, int(A), "not_this_way_w", "detour_3_4_v", "boost_4")
	reveal(t, s)
	submitCorrect(t, s, B, 3000)
	evs := submitCorrect(t, s, A, 4000)
	wantPositions(t, s, 1, 6)
	wantProgress(t, s, 0, 3)
	var claw, roundOver []string
	for _, d := range eventsOf[Discarded](evs) {
		for _, c := range d.Cards {
			switch d.Reason {
			case "claw":
				claw = append(claw, c.String())
			case "round_over":
				roundOver = append(roundOver, c.String())
			}
		}
	}
	if !slices.Equal(claw, []string{"not_this_way_w", "detour_3_4_v"}) || !slices.Equal(roundOver, []string{"boost_4"}) {
		t.Fatalf("claw removed %v, the round's end %v", claw, roundOver)
	}
	if len(eventsOf[PlaceOffered](evs)) != 0 {
		t.Fatal("a choice was offered with no free square")
	}
}

// S14 — Dragon turrets and fire (3 seats).
func TestS14DragonTurretsAndFire(t *testing.T) {
	s := newState(t, 3, "dragon")
	s.giveFront(t, int(C), "reverse_1", "interchange_e_w")
	s.giveHand(t, A, "swap_2")
	reveal(t, s)
	submitCorrect(t, s, A, 3000)
	submitCorrect(t, s, B, 4000)
	evs := submitCorrect(t, s, C, 5000)
	wantPositions(t, s, 6, 4, 1)
	wantProgress(t, s, 4, 2, 0)
	wantFront(t, s, int(C))
	if b := eventsOf[Burned](evs); len(b) != 1 || b[0].Seat != C {
		t.Fatalf("burned %v, want C", b)
	}
	var draws []Drew
	for _, e := range evs {
		if d, ok := e.Body.(*Drew); ok && e.To.Sees(engine.Spectator) {
			draws = append(draws, *d)
		}
	}
	if len(draws) != 2 || draws[0].Seat != B || draws[0].Count != 2 || draws[1].Seat != C || draws[1].Count != 2 {
		t.Fatalf("draws %v, want B 2 then C 2", draws)
	}
	var turns []engine.Seat
	for s.phase == PhaseInterferenceTurn {
		p := s.order[s.turn]
		turns = append(turns, p)
		play(t, s, p, EndTurn{}, s.phaseAt)
	}
	wantOrder(t, turns, A, B, C)
}

// S15 — Ricochet counts positions after a skip.
func TestS15RicochetAfterSkip(t *testing.T) {
	s := newState(t, 2, "bear")
	s.giveFront(t, int(A), "ricochet_even_odd_3", "not_this_way_n")
	s.stackPath(t, "p17")
	reveal(t, s)
	wantAccepted(t, s, A, "sw e ne s se")
	wantWrong(t, s, A, "s se ne sw e")
}

// S16 — Shortcut with Ricochet.
func TestS16ShortcutWithRicochet(t *testing.T) {
	s := newState(t, 2, "bear")
	s.giveFront(t, int(A), "shortcut_3", "ricochet_odd_even_3")
	s.stackPath(t, "p10")
	reveal(t, s)
	wantAccepted(t, s, A, "spin ne s e n", "e n ne s", "spin n ne s", "spin n e s", "spin ne e s", "spin ne e n")
	wantWrong(t, s, A, "spin ne s n")
	submit(t, s, A, 3000, "spin n ne s")
	submitCorrect(t, s, B, 4000)
	if s.seats[A].Result != Correct {
		t.Fatal("spin n ne s should be correct")
	}
}

// S17 — Reverse with a Detour; Detour on a short list.
func TestS17ReverseWithDetourAndShortList(t *testing.T) {
	s := newState(t, 2, "bear")
	s.giveFront(t, int(A), "reverse_4", "detour_3_4_z")
	s.stackPath(t, "p01")
	reveal(t, s)
	wantAccepted(t, s, A, "s e nw detour se")

	s = newState(t, 2, "bear")
	s.giveFront(t, int(A), "not_this_way_w", "detour_4_5_v")
	s.stackPath(t, "p03")
	reveal(t, s)
	wantAccepted(t, s, A, "e n ne detour")
}

// S18 — Express shortcut.
func TestS18ExpressShortcut(t *testing.T) {
	s := newState(t, 2, "zombie")
	s.seats[A].Infected = true
	s.giveFront(t, int(A), "reverse_3", "express_2")
	s.stackPath(t, "p05")
	reveal(t, s)
	wantAccepted(t, s, A, "n sw w spin", "n sw w spin antidote", "express")
	wantWrong(t, s, A, "express antidote")
	evs := submit(t, s, A, 3000, "express")
	evs = append(evs, submitCorrect(t, s, B, 4000)...)
	if s.seats[A].Result != Correct || len(eventsOf[Cured](evs)) != 0 {
		t.Fatal("express must be correct and must not cure")
	}
}

// S19 — Same millisecond.
func TestS19SameMillisecond(t *testing.T) {
	s := newState(t, 4, "vampire")
	reveal(t, s)
	submitCorrect(t, s, C, 5000)
	submitCorrect(t, s, D, 6000)
	submitCorrect(t, s, B, 12345)
	submitCorrect(t, s, A, 12345)
	if s.seats[B].Arrival != 3 || s.seats[A].Arrival != 4 {
		t.Fatalf("arrivals B %d, A %d", s.seats[B].Arrival, s.seats[A].Arrival)
	}
	if s.seats[B].Pos <= s.seats[A].Pos {
		t.Fatalf("B on %d, A on %d: B arrived first and must be ahead", s.seats[B].Pos, s.seats[A].Pos)
	}
}

// S20 — Time limit; a lone correct seat may still choose.
func TestS20TimeLimitLoneCorrectSeat(t *testing.T) {
	s := newState(t, 2, "bear")
	reveal(t, s)
	submitCorrect(t, s, A, 8000)
	evs := s.Advance(s.at(90000))
	if re := eventsOf[RunEnded](evs); len(re) != 1 || re[0].Reason != "time_limit" {
		t.Fatalf("run_ended %v", re)
	}
	if s.seats[B].Result != Stopped || s.phase != PhasePlaceChoice || s.choiceSeat != A {
		t.Fatalf("B %s, phase %s", s.seats[B].Result, s.phase)
	}
	wantPositions(t, s, 6, 0)
	s.Advance(s.phaseAt + s.cfg.Decision)
	wantProgress(t, s, 3, 0)
}

// S21 — Shield.
func TestS21Shield(t *testing.T) {
	s := newState(t, 2, "bear")
	s.giveHand(t, A, "shield_1")
	s.giveHand(t, B, "reverse_2", "thief_1")
	s.turnOf(A, A, B)
	play(t, s, A, Play{Card: cardOf(t, "shield_1"), Target: A}, s.phaseAt)
	play(t, s, A, EndTurn{}, s.phaseAt) // A's hand is empty: its turn would have ended anyway
	if s.phase != PhaseInterferenceTurn || s.order[s.turn] != B {
		t.Fatalf("phase %s: B's turn expected", s.phase)
	}
	refuse(t, s, B, Play{Card: cardOf(t, "reverse_2"), Target: A}, s.phaseAt, CodeTargetShielded)
	refuse(t, s, B, Play{Card: cardOf(t, "thief_1"), Target: A}, s.phaseAt, CodeTargetShielded)
	c := s.Clone().(*state)
	play(t, c, B, Play{Card: cardOf(t, "reverse_2"), Target: B}, c.phaseAt)

	// At the next interference step the Shield goes before the draws.
	play(t, s, B, EndTurn{}, s.phaseAt)
	reveal(t, s)
	submit(t, s, A, 3000, "")
	evs := submit(t, s, B, 4000, "")
	shieldGone, firstDraw := -1, -1
	for i, e := range evs {
		switch b := e.Body.(type) {
		case *Discarded:
			if slices.Contains(b.Cards, cardOf(t, "shield_1")) {
				shieldGone = i
			}
		case *Drew:
			if firstDraw < 0 {
				firstDraw = i
			}
		}
	}
	if shieldGone < 0 || shieldGone > firstDraw {
		t.Fatalf("shield discarded at event %d, first draw at %d", shieldGone, firstDraw)
	}
	if s.playVerdict(B, cardOf(t, "reverse_2"), A) != canPlay {
		t.Fatal("A cannot be targeted again")
	}
}

// S22 — For you replaces what clashes.
func TestS22ForYouReplaces(t *testing.T) {
	s := newState(t, 2, "bear")
	s.giveFront(t, int(A), "reverse_1", "interchange_n_s", "boost_1", "shield_2")
	s.giveFront(t, int(B), "ricochet_even_odd_1", "not_this_way_w", "interchange_e_w")
	s.giveHand(t, A, "for_you_1")
	s.turnOf(A, A, B)
	s.discard = nil
	play(t, s, A, Play{Card: cardOf(t, "for_you_1"), Target: B}, s.phaseAt)
	// D12: the Shield moves with the rest (the reference's S22 still keeps it
	// with A; D12 was corrected after it).
	wantFront(t, s, int(B), "not_this_way_w", "reverse_1", "interchange_n_s", "boost_1", "shield_2")
	wantFront(t, s, int(A))
	got := []string{}
	for _, c := range s.discard {
		got = append(got, c.String())
	}
	slices.Sort(got)
	if want := []string{"for_you_1", "interchange_e_w", "ricochet_even_odd_1"}; !slices.Equal(got, want) {
		t.Fatalf("discarded %v, want %v", got, want)
	}
}

// S23 — Swap moves the player's Shield too (D12, corrected: the reference's
// S23 still keeps it with A).
func TestS23SwapMovesTheShield(t *testing.T) {
	s := newState(t, 2, "bear")
	s.giveFront(t, int(A), "shield_1", "detour_2_3_v")
	s.giveFront(t, int(B), "reverse_3")
	s.giveHand(t, A, "swap_1")
	s.turnOf(A, A, B)
	c := s.Clone().(*state)
	evs := play(t, s, A, Play{Card: cardOf(t, "swap_1"), Target: B}, s.phaseAt)
	wantFront(t, s, int(A), "reverse_3")
	wantFront(t, s, int(B), "shield_1", "detour_2_3_v")
	if sw := eventsOf[Swapped](evs); len(sw) != 1 || js(sw[0].Gave) != `["shield_1","detour_2_3_v"]` || js(sw[0].Took) != `["reverse_3"]` {
		t.Fatalf("swapped %s, want A giving shield_1 and detour_2_3_v for reverse_3", js(sw))
	}

	c.giveFront(t, int(B), "shield_2")
	refuse(t, c, A, Play{Card: cardOf(t, "swap_1"), Target: B}, c.phaseAt, CodeTargetShielded)
}

// S24 — One at a time and no duplicates, when played.
func TestS24OneAtATimeNoDuplicates(t *testing.T) {
	s := newState(t, 4, "bear")
	s.giveFront(t, int(A), "reverse_1")
	s.giveHand(t, B, "ricochet_odd_even_3")
	s.giveHand(t, C, "reverse_4")
	s.giveHand(t, D, "reverse_2")
	s.turnOf(B, A, B, C, D)
	play(t, s, B, Play{Card: cardOf(t, "ricochet_odd_even_3"), Target: A}, s.phaseAt)
	wantFront(t, s, int(A), "ricochet_odd_even_3")
	s.turnOf(C, A, B, C, D)
	play(t, s, C, Play{Card: cardOf(t, "reverse_4"), Target: A}, s.phaseAt)
	wantFront(t, s, int(A), "reverse_4")
	s.turnOf(D, A, B, C, D)
	refuse(t, s, D, Play{Card: cardOf(t, "reverse_2"), Target: A}, s.phaseAt, CodeAlreadyHasKind)
}

// giveUpRound plays a Vampire round in which every seat gives up except
// the listed ones, who lay their answers first, in order.
func giveUpRound(t *testing.T, s *state, correct ...engine.Seat) []engine.Event {
	t.Helper()
	var evs []engine.Event
	reveal(t, s)
	for i, p := range correct {
		evs = append(evs, submitCorrect(t, s, p, engine.Millis(3000+1000*i))...)
	}
	for p := range s.n {
		if !s.seats[p].Submitted {
			evs = append(evs, submit(t, s, engine.Seat(p), 9000, "")...)
		}
	}
	if s.phase == PhasePlaceChoice { // D24: the last correct seat stays
		evs = append(evs, play(t, s, s.choiceSeat, ChoosePlace{}, s.phaseAt)...)
	}
	return evs
}

// S25 — Vampire centre capacity.
func TestS25VampireCentreCapacity(t *testing.T) {
	s := newState(t, 2, "vampire")
	s.giveFront(t, centreHolder, "interchange_n_s", "reverse_1")
	s.stackDeck(t, "detour_3_4_v", "boost_1", "ricochet_even_odd_1", "reverse_2")
	giveUpRound(t, s)
	wantFront(t, s, centreHolder, "reverse_1", "detour_3_4_v")
	giveUpRound(t, s)
	wantFront(t, s, centreHolder, "detour_3_4_v", "boost_1")
	giveUpRound(t, s, A) // every seat's movement is doubled: A moves 6
	wantProgress(t, s, 6, 0)
	wantFront(t, s, centreHolder, "detour_3_4_v", "ricochet_even_odd_1")
	giveUpRound(t, s)
	wantFront(t, s, centreHolder, "detour_3_4_v", "reverse_2")
}

// S26 — Zombie draws replace; a drawn Release resolves.
func TestS26ZombieDrawsReplaceAndRelease(t *testing.T) {
	s := newState(t, 2, "zombie")
	s.seats[A].Infected = true
	s.giveFront(t, int(A), "not_this_way_se")
	s.stackDeck(t, "not_this_way_spin", "boost_3", "release_1", "shortcut_2")
	reveal(t, s)
	submit(t, s, A, 3000, "")
	submit(t, s, B, 4000, "")
	wantFront(t, s, int(A), "not_this_way_spin")
	if !inDiscard(s, cardOf(t, "not_this_way_se")) {
		t.Fatal("not_this_way_se was not discarded")
	}
	reveal(t, s)
	submit(t, s, A, 3000, "")
	submit(t, s, B, 4000, "")
	wantFront(t, s, int(A))
	if !inDiscard(s, cardOf(t, "release_1")) || !inDiscard(s, cardOf(t, "not_this_way_spin")) || !s.seats[A].Infected {
		t.Fatal("the Release did not clear A's front, or A was cured")
	}
}

// S27 — Malformed or impossible submissions.
func TestS27MalformedSubmissions(t *testing.T) {
	s := newState(t, 2, "bear")
	reveal(t, s)
	at := s.at(3000)
	refuse(t, s, A, Submit{Cards: toks(t, "n n e")}, at, CodeRepeatedToken)
	refuse(t, s, A, Submit{Cards: toks(t, "n detour")}, at, CodeNotInPalette)
	refuse(t, s, A, Submit{Cards: toks(t, "express")}, at, CodeNotInPalette)
	refuse(t, s, A, Submit{Cards: toks(t, answer(s, A)+" antidote")}, at, CodeNotInPalette)
	refuse(t, s, A, Submit{Cards: make([]Token, 13)}, at, CodeTooManyTokens)
	submit(t, s, A, 3000, "")
	submit(t, s, B, 4000, "")
	if s.seats[A].Result != Wrong {
		t.Fatal("the empty list must be wrong")
	}

	s = newState(t, 2, "zombie")
	s.stackPath(t, "p01")
	reveal(t, s)
	submit(t, s, A, 3000, "se nw e s antidote")
	submit(t, s, B, 4000, "")
	if s.seats[A].Result != Wrong {
		t.Fatal("an antidote on a card without the icon must be wrong")
	}
}

// S28 — A lone correct seat trades movement for the claw.
func TestS28LoneCorrectSeatTakesTheClaw(t *testing.T) {
	s := newState(t, 3, "bear")
	s.giveFront(t, int(C), "not_this_way_w", "detour_4_5_v")
	reveal(t, s)
	submit(t, s, A, 3000, "")
	submit(t, s, B, 4000, "")
	submitCorrect(t, s, C, 5000)
	wantPositions(t, s, 0, 0, 6)
	play(t, s, C, ChoosePlace{Leftmost: true}, s.phaseAt)
	wantPositions(t, s, 0, 0, 1)
	wantProgress(t, s, 0, 0, 0)
	wantFront(t, s, int(C))
}

// S29 — Failing never avoids infection.
func TestS29FailingNeverAvoidsInfection(t *testing.T) {
	s := newState(t, 2, "zombie")
	s.stackPath(t, "p01")
	reveal(t, s)
	submitCorrect(t, s, A, 3000)
	submit(t, s, B, 4000, "")
	if s.phase != PhasePlaceChoice || s.choiceSeat != A {
		t.Fatalf("phase %s: A should be offered pos1", s.phase)
	}
	evs := play(t, s, A, ChoosePlace{Leftmost: false}, s.phaseAt)
	if !s.seats[B].Infected || s.seats[A].Infected {
		t.Fatal("B (on the +0 box) must be infected, A not")
	}
	if d := eventsOf[DrewFaceUp](evs); len(d) != 1 || d[0].Seat != int(B) || len(s.seats[B].Front) != 1 {
		t.Fatalf("draws %v: B must draw one card in front of itself", d)
	}
}

// S30 — A healthy seat uses the antidote for immunity.
func TestS30AntidoteImmunity(t *testing.T) {
	s := newState(t, 3, "zombie")
	s.stackPath(t, "p12")
	reveal(t, s)
	submitCorrect(t, s, A, 3000)
	submit(t, s, B, 4000, "se ne sw w n antidote")
	evs := submitCorrect(t, s, C, 5000)
	wantPositions(t, s, 6, 4, 1)
	if s.seats[B].Infected || !s.seats[C].Infected {
		t.Fatal("B must stay healthy (immune) on pos4; C is infected on pos1")
	}
	if c := eventsOf[Cured](evs); len(c) != 1 || c[0].Seat != B {
		t.Fatalf("cured %v, want B (immune)", c)
	}
}

// S31 — Thief, then play at once.
func TestS31ThiefThenPlay(t *testing.T) {
	s := newState(t, 2, "bear")
	s.giveHand(t, A, "reverse_2", "boost_3")
	s.giveHand(t, B, "thief_1")
	s.turnOf(B, B, A)
	evs := play(t, s, B, Play{Card: cardOf(t, "thief_1"), Target: A}, s.phaseAt)
	for _, e := range evs {
		if st, ok := e.Body.(*Stolen); ok && len(st.Cards) > 0 && e.To != engine.Only(A, B) {
			t.Fatal("the stolen cards are told to someone else than the thief and its victim")
		}
	}
	play(t, s, B, Play{Card: cardOf(t, "reverse_2"), Target: A}, s.phaseAt)
	if len(s.seats[A].Hand) != 0 {
		t.Fatal("A's hand is not empty")
	}
	play(t, s, B, EndTurn{}, s.phaseAt)
	if s.phase != PhaseCountdown {
		t.Fatalf("phase %s: A's turn must be skipped", s.phase)
	}
}

// S32 — Deck reshuffle during the Bear draws.
func TestS32ReshuffleDuringBearDraws(t *testing.T) {
	s := newState(t, 6, "bear")
	s.deck, s.discard = slices.Clone(s.deck[:2]), slices.Clone(s.deck[2:12])
	top := []Card{s.deck[1], s.deck[0]}
	reveal(t, s)
	var evs []engine.Event
	for p := range 6 {
		evs = append(evs, submit(t, s, engine.Seat(p), engine.Millis(3000+p*100), "")...)
	}
	order := drawOrder(evs)
	wantOrder(t, order, A, B, C, D, E, F)
	if handIDs(s.seats[A].Hand)[0] != top[0].String() || handIDs(s.seats[B].Hand)[0] != top[1].String() {
		t.Fatal("the first two seats did not draw the deck's two cards")
	}
	resh := -1
	for i, e := range evs {
		if r, ok := e.Body.(*Reshuffled); ok && r.Pile == "interference" && r.Count == 10 {
			resh = i
		}
	}
	if resh < 0 {
		t.Fatal("no reshuffle of 10 cards")
	}
	if len(s.deck) != 6 {
		t.Fatalf("deck holds %d, want 6", len(s.deck))
	}
}

// S33 — Round cap.
func TestS33RoundCap(t *testing.T) {
	s := newState(t, 3, "bear", "max_rounds=10")
	s.round = 10
	s.seats[A].Progress, s.seats[B].Progress, s.seats[C].Progress = 12, 12, 7
	reveal(t, s)
	submit(t, s, B, 1000, "")
	submit(t, s, A, 2000, "")
	evs := submit(t, s, C, 3000, "")
	out, over := s.Outcome()
	if !over || !slices.Equal(out.Ranks, []int{2, 1, 3}) || !slices.Equal(out.Winners, seats(B)) {
		t.Fatalf("outcome %+v", out)
	}
	if len(eventsOf[Drew](evs)) != 0 {
		t.Fatal("an interference step followed the last round")
	}
}

// S34 — Bot timing is replayable. The round's pace is O15's spread
// rather than §8.4's jitter: a pace of 1.10 is the scenario's u = +0.10.
func TestS34BotTimingIsReplayable(t *testing.T) {
	if got := layTime(&botLevels[1], 6, 0, 1.10); got != 7260 {
		t.Fatalf("normal bot on a 6-symbol card at pace 1.10: %d ms, want 7 260", got)
	}
	decide := func() (engine.Millis, string) {
		s := newState(t, 2, "bear")
		s.stackPath(t, "p17")
		reveal(t, s)
		b := Heuristic.NewBot(Game{}, botSeating(A, 99))
		d := b.Decide(s.View(A), s.Legal(A), s.revealAt)
		return s.revealAt + d.Delay, js(d.Action)
	}
	at1, a1 := decide()
	at2, a2 := decide()
	if at1 != at2 || a1 != a2 {
		t.Fatalf("same seed, other decisions: %d %s / %d %s", at1, a1, at2, a2)
	}
	// Within O15's cut: 6 600 ms × e^(0.45·z − 0.45²/2), −2 ≤ z ≤ 3.
	if el := at1 - (5000); el < 2424 || el > 23008 {
		t.Fatalf("elapsed %d ms, want 6 600 × 0.37 to 6 600 × 3.49", el)
	}
}
