package evades

import (
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"sortie/coach/coachtest"
	"sortie/engine"
	"sortie/engine/enginetest"
)

// TestConformance runs the engine's suite over 2, 3 and 4 players and both
// object rules with a random first player, and over every fixed first player
// with fewer playouts. Random games often run to the turn limit (hundreds of
// turns), so the playouts are fewer than the suite's default; SORTIE_LONG=1
// runs 400 per setup.
func TestConformance(t *testing.T) {
	playouts, few := 20, 2
	switch {
	case os.Getenv("SORTIE_LONG") == "1":
		playouts, few = 400, 20
	case testing.Short():
		playouts, few = 3, 1
	}
	var main, firsts []engine.Setup
	for n := minPlayers; n <= maxPlayers; n++ {
		for _, objs := range []string{"1", "2"} {
			main = append(main, engine.Setup{Players: n, Options: map[string]string{optObjects: objs, optFirst: "random"}})
			for f := range n {
				if testing.Short() && f != n-1 {
					continue // -short: one fixed first player per table
				}
				firsts = append(firsts, engine.Setup{Players: n, Options: map[string]string{optObjects: objs, optFirst: strconv.Itoa(f)}})
			}
		}
	}
	t.Run("random_first", func(t *testing.T) {
		enginetest.Run(t, enginetest.Harness{Game: Game{}, Setups: main, Playouts: playouts, Perturb: perturb, CheckEvery: 0.1,
			Hint: coachtest.Hint(Game{}), HintPerturb: perturb})
	})
	t.Run("fixed_first", func(t *testing.T) {
		enginetest.Run(t, enginetest.Harness{Game: Game{}, Setups: firsts, Playouts: few, Perturb: perturb, CheckEvery: 0.1})
	})
}

// perturb changes what seat p may not know: the other seats' hands (drawn
// again with the deeper draw pile, keeping their sizes and what p can prove
// they hold), the plans p does not know, and the order of the piles. Because
// the suite then plays one more action on both states and compares what p is
// told, it keeps what that action could reveal: the actors' hands and plans,
// every hand when p is about to steal from one, the top of each pile as deep
// as the next action can draw, and the generator (a reshuffle is public). Near
// the end of a game it changes nothing, since the end reveals everything.
func perturb(st engine.State, p engine.Seat, r *rand.Rand) engine.State {
	s := st.(*State)
	c := s.clone()
	if s.phase == phaseOver || s.mayEndNext() {
		return c
	}
	var k resampleKeep
	k.seats[s.actor()] = true
	if s.pend.kind == pendTarget && int(s.pend.seat) == int(p) && (s.pend.card == Vol || s.pend.card == Manigance) {
		k.allHands = true
	}
	k.pileTop = s.revealDepth()
	k.ppTop, k.warnTop = 1, 1
	c.resample(int(p), r, k)
	return c
}

// mayEndNext reports whether the next action could end the game: an exit
// within reach, or the turn limit close enough for the next turn change.
func (s *State) mayEndNext() bool {
	a := s.actor()
	for _, d := range board.adj[s.seats[a].area] {
		if board.exitDoor[d] && s.mayExit(a, d) {
			return true
		}
	}
	owed := 0
	for q := range s.n {
		owed += s.seats[q].skip + s.seats[q].extra
	}
	return s.turnLimit-s.turnsBegun <= owed+2
}

// revealDepth is how many cards from the top of the draw pile the next
// action can draw: refills after taking face-up cards (wipes included), or
// blind draws.
func (s *State) revealDepth() int {
	depth := takeCount
	for _, pr := range slotPairs {
		depth = max(depth, s.refillDepth([]int{int(pr[0]), int(pr[1])}))
	}
	return depth
}

// refillDepth simulates refilling the given slots and the wipes that follow.
func (s *State) refillDepth(slots []int) int {
	row := s.row
	pos := len(s.pile)
	draw := func() bool {
		if pos == 0 {
			return false
		}
		pos--
		return true
	}
	for _, i := range slots {
		if !draw() {
			return len(s.pile)
		}
		row[i] = s.pile[pos]
	}
	for range wipeCap {
		var h hand
		triple := false
		for _, c := range row {
			if c != noCard {
				h[c]++
				triple = triple || h[c] >= tripleSize
			}
		}
		if !triple {
			break
		}
		for i := range row {
			if !draw() {
				return len(s.pile)
			}
			row[i] = s.pile[pos]
		}
	}
	return len(s.pile) - pos
}
