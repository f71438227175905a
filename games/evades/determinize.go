package evades

import (
	"cmp"
	"math/rand/v2"
	"slices"

	"sortie/engine"
)

// Determinize returns a copy in which everything seat p cannot see is drawn
// again with r: the other seats' hands (keeping their sizes and what p can
// prove they hold), the order of the draw, Pass-Pass and Warning piles, the
// plans p does not know (consistent with the objects each seat carries), and
// the generator itself. View(p) of the copy equals View(p) of s.
func (s *State) Determinize(p engine.Seat, r *rand.Rand) engine.State {
	c := s.clone()
	if c.phase == phaseOver {
		return c
	}
	c.resample(int(p), r, resampleKeep{})
	c.rng = engine.NewRNG(r.Uint64())
	return c
}

// resampleKeep names what a resampling must leave alone.
type resampleKeep struct {
	seats    [maxPlayers]bool // hands and plans of these seats stay
	allHands bool             // no hand changes
	pileTop  int              // Combines cards that stay on top of the draw pile
	ppTop    int              // Pass-Pass cards that stay on top
	warnTop  int              // Warning tokens that stay on top
}

// resample redraws what seat p (or engine.Spectator, -1) cannot see, except
// what k keeps.
func (s *State) resample(p int, r *rand.Rand, k resampleKeep) {
	var freeBuf [maxPlayers]int
	free := freeBuf[:0]
	for q := range s.n {
		if q != p && !k.seats[q] {
			free = append(free, q)
		}
	}
	// Hands and the draw pile below its kept top.
	if !k.allHands {
		top := min(k.pileTop, len(s.pile))
		deep := len(s.pile) - top
		var poolBuf [maxDeck]Card
		pool := append(poolBuf[:0], s.pile[:deep]...)
		var need [maxPlayers]int
		for _, q := range free {
			h := &s.seats[q].hand
			var sure hand
			if p >= 0 {
				sure = s.known[p][q]
			}
			for c := range sure {
				sure[c] = min(sure[c], h[c])
			}
			need[q] = h.size() - sure.size()
			for c := range h {
				for range h[c] - sure[c] {
					pool = append(pool, Card(c))
				}
			}
			*h = sure
		}
		// Sorted first: the deal depends on what p may know and on r alone,
		// never on where the unseen cards really are (hints, coach).
		slices.Sort(pool)
		r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
		for _, q := range free {
			s.seats[q].hand.add(pool[:need[q]]...)
			pool = pool[need[q]:]
		}
		copy(s.pile[:deep], pool)
	}
	// Pile orders below their kept tops.
	shuffleBelow(r, s.ppPile, k.ppTop)
	shuffleBelow(r, s.warnPile, k.warnTop)
	// Plans p does not know: free seats' and those set aside.
	s.resamplePlans(free, r)
}

func shuffleBelow[T cmp.Ordered](r *rand.Rand, pile []T, top int) {
	deep := len(pile) - min(top, len(pile))
	slices.Sort(pile[:deep])
	r.Shuffle(deep, func(i, j int) { pile[i], pile[j] = pile[j], pile[i] })
}

// resamplePlans deals the plans of the free seats and the aside pile again,
// uniformly among the deals in which every free seat's carried objects are on
// its plan (D23 makes the real deal one of them).
func (s *State) resamplePlans(free []int, r *rand.Rand) {
	var valsBuf [numPlans]Plan
	vals := valsBuf[:0]
	for _, q := range free {
		vals = append(vals, s.seats[q].plan)
	}
	vals = append(vals, s.aside...)
	slices.Sort(vals) // (the deals are then listed in the same order whoever holds which plan)
	var deals [maxDeals][numPlans]Plan
	n := 0
	permute(vals, 0, func(perm []Plan) {
		for i, q := range free {
			for o, h := range s.objHolder {
				if int(h) == q && !onPlan(perm[i], objects[o].Type) {
					return
				}
			}
		}
		copy(deals[n][:], perm)
		n++
	})
	d := deals[r.IntN(n)]
	for i, q := range free {
		s.seats[q].plan = d[i]
	}
	copy(s.aside, d[len(free):len(vals)])
}

// maxDeals is the number of orders of the four plans.
const maxDeals = 4 * 3 * 2

// permute calls fn with every ordering of xs (xs is permuted in place and
// restored).
func permute(xs []Plan, i int, fn func([]Plan)) {
	if i == len(xs) {
		fn(xs)
		return
	}
	for j := i; j < len(xs); j++ {
		xs[i], xs[j] = xs[j], xs[i]
		permute(xs, i+1, fn)
		xs[i], xs[j] = xs[j], xs[i]
	}
}
