package outran

import (
	"math/rand/v2"
	"slices"
	"testing"

	"sortie/bot"
	"sortie/engine"
)

// Rules beyond the reference's scenarios.

// D13: a played Release discards every card in front, the Shield included.
func TestReleaseDiscardsEverything(t *testing.T) {
	s := newState(t, 2, "bear")
	s.giveHand(t, A, "release_2")
	s.turnOf(A, A, B)
	refuse(t, s, A, Play{Card: cardOf(t, "release_2"), Target: A}, s.phaseAt, CodeNothingToRelease)
	s.giveFront(t, int(A), "shield_1", "reverse_1", "boost_2")
	refuse(t, s, A, Play{Card: cardOf(t, "release_2"), Target: B}, s.phaseAt, CodeTargetYourself)
	play(t, s, A, Play{Card: cardOf(t, "release_2"), Target: A}, s.phaseAt)
	wantFront(t, s, int(A))
	for _, id := range []string{"shield_1", "reverse_1", "boost_2", "release_2"} {
		if !inDiscard(s, cardOf(t, id)) {
			t.Errorf("%s is not in the discard pile", id)
		}
	}
}

// D12: Swap needs a card in front on either side, For you one's own.
func TestSwapAndForYouNeedCards(t *testing.T) {
	s := newState(t, 2, "bear")
	s.giveHand(t, A, "swap_1", "for_you_1")
	s.turnOf(A, A, B)
	refuse(t, s, A, Play{Card: cardOf(t, "swap_1"), Target: B}, s.phaseAt, CodeNothingToSwap)
	refuse(t, s, A, Play{Card: cardOf(t, "for_you_1"), Target: B}, s.phaseAt, CodeNothingToGive)
	refuse(t, s, A, Play{Card: cardOf(t, "swap_1"), Target: A}, s.phaseAt, CodeTargetOther)
	s.giveFront(t, int(B), "detour_2_3_v")
	c := s.Clone().(*state)
	play(t, s, A, Play{Card: cardOf(t, "swap_1"), Target: B}, s.phaseAt) // one side is enough
	wantFront(t, s, int(A), "detour_2_3_v")
	wantFront(t, s, int(B))

	// A Shield alone is a card in front like any other: it can be given.
	c.giveFront(t, int(A), "shield_1")
	play(t, c, A, Play{Card: cardOf(t, "for_you_1"), Target: B}, c.phaseAt)
	wantFront(t, c, int(A))
	wantFront(t, c, int(B), "detour_2_3_v", "shield_1")
}

// D12, D11: a Shield in front of the player who plays Swap or For you moves
// with its other cards (the card says "the interference cards placed in
// front of you", with no exception); a Shield in front of the target still
// refuses both.
func TestSwapAndForYouMoveTheirPlayersShield(t *testing.T) {
	s := newState(t, 3, "bear")
	s.giveFront(t, int(A), "reverse_1", "shield_1")
	s.giveFront(t, int(B), "detour_2_3_v")
	s.giveFront(t, int(C), "shield_2", "not_this_way_w")
	s.giveHand(t, A, "swap_1", "for_you_1")
	s.turnOf(A, A, B, C)
	refuse(t, s, A, Play{Card: cardOf(t, "swap_1"), Target: C}, s.phaseAt, CodeTargetShielded)
	refuse(t, s, A, Play{Card: cardOf(t, "for_you_1"), Target: C}, s.phaseAt, CodeTargetShielded)

	t.Run("swap", func(t *testing.T) {
		s := s.Clone().(*state)
		play(t, s, A, Play{Card: cardOf(t, "swap_1"), Target: B}, s.phaseAt)
		wantFront(t, s, int(A), "detour_2_3_v")
		wantFront(t, s, int(B), "reverse_1", "shield_1")
		refuse(t, s, A, Play{Card: cardOf(t, "for_you_1"), Target: B}, s.phaseAt, CodeTargetShielded)
	})
	t.Run("for you", func(t *testing.T) {
		s := s.Clone().(*state)
		play(t, s, A, Play{Card: cardOf(t, "for_you_1"), Target: B}, s.phaseAt)
		wantFront(t, s, int(A))
		wantFront(t, s, int(B), "detour_2_3_v", "reverse_1", "shield_1")
	})
}

// D24: on the Vampire board, whose squares carry no icon, the last correct
// seat is offered the leftmost free position all the same; the bots stay.
func TestVampireLastCorrectSeatIsOfferedTheLeftmost(t *testing.T) {
	setup := func() *state {
		s := newState(t, 3, "vampire")
		reveal(t, s)
		submitCorrect(t, s, B, 3000)
		submitCorrect(t, s, A, 4000)
		submit(t, s, C, 5000, "")
		wantPositions(t, s, 4, 6, 0)
		if s.phase != PhasePlaceChoice || s.choiceSeat != A || s.choicePos != 1 {
			t.Fatalf("phase %s, choice %s pos%d; want A offered pos1", s.phase, s.choiceSeat, s.choicePos)
		}
		return s
	}
	s := setup()
	play(t, s, A, ChoosePlace{Leftmost: true}, s.phaseAt+500)
	wantPositions(t, s, 1, 6, 0)
	wantProgress(t, s, 0, 3, 0)

	s = setup()
	d := Heuristic.NewBot(Game{}, bot.Seating{Seat: A, Players: 3, Seed: 1}).Decide(s.View(A), s.Legal(A), s.phaseAt)
	if cp, ok := d.Action.(ChoosePlace); !ok || cp.Leftmost {
		t.Fatalf("the bot chose %s, want to stay", js(d.Action))
	}
	play(t, s, A, d.Action, s.phaseAt+d.Delay)
	wantPositions(t, s, 4, 6, 0)
	wantProgress(t, s, 2, 3, 0)
}

// Playing a card one does not hold, or on no seat, is refused.
func TestPlayRefusals(t *testing.T) {
	s := newState(t, 2, "bear")
	s.giveHand(t, A, "reverse_1")
	s.turnOf(A, A, B)
	refuse(t, s, A, Play{Card: cardOf(t, "reverse_2"), Target: B}, s.phaseAt, CodeNotInHand)
	refuse(t, s, A, Play{Card: cardOf(t, "reverse_1"), Target: 5}, s.phaseAt, CodeNoSuchSeat)
	refuse(t, s, B, Play{Card: cardOf(t, "reverse_1"), Target: A}, s.phaseAt, engine.CodeNotYourTurn)
	refuse(t, s, A, Submit{Cards: []Token{}}, s.phaseAt, engine.CodeWrongPhase)
}

// D22 with the option off: no vote, only the time limit.
func TestStopVoteOff(t *testing.T) {
	s := newState(t, 2, "vampire", "stop_vote=false")
	reveal(t, s)
	submitCorrect(t, s, A, 3000)
	s.Advance(s.at(40000))
	if len(s.Actors()) != 1 || s.Actors()[0] != B {
		t.Fatalf("actors %v, want B alone", s.Actors())
	}
	refuse(t, s, A, VoteStop{}, s.at(40000), CodeStopVoteOff)
	if d, _ := s.Deadline(); d != s.at(90000) {
		t.Fatalf("deadline %d, want the time limit", d)
	}
}

// §8.3: in the run, Legal is every accepted list, the literal card when it
// is wrong, and the empty list; a finished seat whose vote is open may vote.
func TestRunLegalIsRepresentative(t *testing.T) {
	s := newState(t, 2, "bear")
	s.giveFront(t, int(A), "reverse_1")
	s.stackPath(t, "p01")
	reveal(t, s)
	var got []string
	for _, a := range s.Legal(A) {
		got = append(got, js(a))
	}
	want := []string{
		`{"type":"submit","cards":["s","e","nw","se"]}`,
		`{"type":"submit","cards":["se","nw","e","s"]}`,
		`{"type":"submit","cards":[]}`,
	}
	if !slices.Equal(got, want) {
		t.Fatalf("Legal(A) = %v, want %v", got, want)
	}
	submit(t, s, A, 3000, "s e nw se")
	s.Advance(s.at(13000))
	if l := s.Legal(A); len(l) != 1 || l[0].Kind() != "vote_stop" || !slices.Contains(s.Actors(), A) {
		t.Fatalf("Legal(A) = %v after the grace: want the vote", l)
	}
}

// Determinize keeps the cards a seat saw taken from it by a Thief, and
// resamples the others.
func TestDeterminizeKeepsStolenCards(t *testing.T) {
	s := newState(t, 3, "bear")
	s.giveHand(t, A, "reverse_2", "boost_3")
	s.giveHand(t, B, "thief_1")
	s.giveHand(t, C, "swap_1", "shield_2")
	s.turnOf(B, B, A, C)
	play(t, s, B, Play{Card: cardOf(t, "thief_1"), Target: A}, s.phaseAt)
	r := rand.New(rand.NewPCG(1, 2))
	changedC := false
	for range 50 {
		d := s.Determinize(A, r).(*state)
		if js(d.View(A)) != js(s.View(A)) {
			t.Fatal("Determinize changed A's view")
		}
		if got := handIDs(d.seats[B].Hand); !slices.Equal(got, []string{"reverse_2", "boost_3"}) {
			t.Fatalf("B's hand %v: A saw those cards taken", got)
		}
		if !slices.Equal(handIDs(d.seats[C].Hand), []string{"swap_1", "shield_2"}) {
			changedC = true
		}
	}
	if !changedC {
		t.Fatal("C's hand, unknown to A, was never resampled")
	}
}

// The run's answers are worked out the same way whichever way answersFor
// takes (shared tables, the one-list shortcut, the general case), for every
// path card under every shaping card and pairs of them, with and without the
// antidote: the accepted lists of acceptedLists, then the literal card when
// it is wrong, then giving up.
func TestAnswersAgree(t *testing.T) {
	s := newState(t, 2, "zombie")
	var shaping []Card
	for c := range Card(cardCount) {
		if c.Kind() <= KindExpress || c.Kind() == KindBoost {
			shaping = append(shaping, c)
		}
	}
	var all []mods
	all = append(all, noMods)
	for i, a := range shaping {
		all = append(all, modsOfCards([]Card{a}))
		for _, b := range shaping[i+1:] {
			if a.Kind() != b.Kind() {
				all = append(all, modsOfCards([]Card{a, b}))
			}
		}
	}
	for path := range pathCards {
		s.path = path
		p := pathCards[path].Symbols
		for _, m := range all {
			for _, antidote := range []bool{false, true} {
				want := acceptedLists(p, m, antidote)
				if !isAccepted(p, want) {
					want = append(want, p)
				}
				want = append(want, []Token{})
				got := s.answersFor(m, antidote)
				var lists [][]Token
				for _, a := range got.Legal {
					lists = append(lists, a.(*Submit).Cards)
				}
				if !slices.EqualFunc(lists, want, slices.Equal) || got.NAccepted != len(acceptedLists(p, m, antidote)) {
					t.Fatalf("%s under %+v, antidote %v: Legal %v (%d accepted), want %v", pathCards[path].ID, m, antidote, lists, got.NAccepted, want)
				}
			}
		}
	}
}
