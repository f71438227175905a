package enginetest

import (
	"fmt"
	"slices"

	"sortie/engine"
)

// ratedBefore checks a state that is not over: a game whose states say
// what a match is for rating ([engine.Rated]) gives no sides yet, and the
// same family and key at every step.
func (ru *run) ratedBefore() error {
	rs, ok := ru.s.(engine.Rated)
	if !ok {
		return nil
	}
	r, over := rs.RatedResult()
	if over || r.Sides != nil {
		return fmt.Errorf("the game is not over but RatedResult gives %v with sides %v", over, r.Sides)
	}
	return ru.sameVariant(r)
}

// sameVariant checks that a rated result's family and key are the ones the
// match started with, and that the family is one the rating knows.
func (ru *run) sameVariant(r engine.Result) error {
	switch r.Family {
	case engine.FreeForAll, engine.Team, engine.Coop:
	default:
		return fmt.Errorf("RatedResult's family %q is not a family", r.Family)
	}
	if ru.rated == nil {
		ru.rated = &engine.Result{Family: r.Family, Key: r.Key}
	}
	if r.Family != ru.rated.Family || r.Key != ru.rated.Key {
		return fmt.Errorf("RatedResult's family and key changed during the match: %s %q, then %s %q", ru.rated.Family, ru.rated.Key, r.Family, r.Key)
	}
	return nil
}

// ratedOver checks the rated result of a finished game against its
// outcome: every seat in one side; a free for all one side a seat ranked
// as the outcome ranks it; a co-op game one side of every seat, rank 1 if
// they won and 2 if they lost; team sides with distinct roles, their seats
// of one rank in the outcome, and side ranks in the outcome's order.
func (ru *run) ratedOver(out engine.Outcome) error {
	rs, ok := ru.s.(engine.Rated)
	if !ok {
		return nil
	}
	r, over := rs.RatedResult()
	if !over {
		return fmt.Errorf("the game is over but RatedResult says it is not")
	}
	if err := ru.sameVariant(r); err != nil {
		return err
	}
	if err := checkRated(r, out, ru.players); err != nil {
		return fmt.Errorf("RatedResult %s against the outcome (ranks %v, winners %v): %v", js(r), out.Ranks, out.Winners, err)
	}
	return nil
}

func checkRated(r engine.Result, out engine.Outcome, n int) error {
	if len(r.Sides) == 0 {
		return fmt.Errorf("no side")
	}
	sideOf := make([]int, n)
	for p := range sideOf {
		sideOf[p] = -1
	}
	roles := map[string]bool{}
	for i, s := range r.Sides {
		if len(s.Seats) == 0 || !slices.IsSorted(s.Seats) {
			return fmt.Errorf("side %d's seats %v are empty or not in seat order", i, s.Seats)
		}
		if s.Rank < 1 || s.Rank > len(r.Sides) && !(len(r.Sides) == 1 && s.Rank == 2) {
			return fmt.Errorf("side %d has rank %d", i, s.Rank)
		}
		for _, p := range s.Seats {
			if p < 0 || int(p) >= n {
				return fmt.Errorf("side %d holds %s, not a seat", i, p)
			}
			if sideOf[p] >= 0 {
				return fmt.Errorf("%s is in sides %d and %d", p, sideOf[p], i)
			}
			sideOf[p] = i
			if out.Ranks[p] != out.Ranks[s.Seats[0]] {
				return fmt.Errorf("side %d's seats have ranks %d and %d in the outcome", i, out.Ranks[s.Seats[0]], out.Ranks[p])
			}
		}
		if r.Family != engine.FreeForAll {
			if s.Role == "" || roles[s.Role] {
				return fmt.Errorf("side %d's role %q is empty or repeated", i, s.Role)
			}
			roles[s.Role] = true
		}
	}
	for p, i := range sideOf {
		if i < 0 {
			return fmt.Errorf("seat %d is in no side", p)
		}
	}
	if len(r.Sides) == 1 {
		s := r.Sides[0]
		won := out.Won(s.Seats[0])
		for _, p := range s.Seats {
			if out.Won(p) != won {
				return fmt.Errorf("the lone side's seats did not all win or all lose")
			}
		}
		if s.Rank != 1 && s.Rank != 2 || won != (s.Rank == 1) {
			return fmt.Errorf("the lone side has rank %d, and won: %v", s.Rank, won)
		}
	}
	switch r.Family {
	case engine.FreeForAll:
		if len(r.Sides) < 2 {
			return fmt.Errorf("a free for all has %d side", len(r.Sides))
		}
		for i, s := range r.Sides {
			if len(s.Seats) != 1 || s.Rank != out.Ranks[s.Seats[0]] {
				return fmt.Errorf("side %d (seats %v, rank %d) is not one seat of its outcome rank", i, s.Seats, s.Rank)
			}
		}
	case engine.Coop:
		if len(r.Sides) != 1 {
			return fmt.Errorf("a co-op result has %d sides", len(r.Sides))
		}
	case engine.Team:
		if len(r.Sides) == 1 {
			break
		}
		for i, a := range r.Sides {
			for j, b := range r.Sides {
				ra, rb := out.Ranks[a.Seats[0]], out.Ranks[b.Seats[0]]
				if (a.Rank < b.Rank) != (ra < rb) || (a.Rank == b.Rank) != (ra == rb) {
					return fmt.Errorf("sides %d and %d have ranks %d and %d, their seats %d and %d", i, j, a.Rank, b.Rank, ra, rb)
				}
			}
			if out.Won(a.Seats[0]) && a.Rank != 1 {
				return fmt.Errorf("side %d won with rank %d", i, a.Rank)
			}
		}
	}
	return nil
}
