package rating

import (
	"fmt"
	"slices"
)

// Family is a mode family: each account has one rating per game and
// family. The values are the engine's (engine.Family).
type Family string

const (
	// FreeForAll is every seat for itself, ranked by the game's outcome.
	FreeForAll Family = "free_for_all"
	// Team is sides of seats that win or lose together, possibly of
	// different sizes and roles (Room 25's Prisoners against hidden
	// Guards, its teams in Team mode).
	Team Family = "team"
	// Coop is one team against the game.
	Coop Family = "coop"
)

// Match is a match as the rating sees it: the game, the variant's key and
// family from the engine's rated result, and its sides with the players'
// ratings before the match. Ranks are where the sides finished (1 best,
// equal ranks tie); a lone side — a co-op team, or a team-family match
// with one side, such as Suspicion without a Guard — has rank 1 when it
// won and 2 when it lost against the game. Ranks are ignored by
// [Model.Chances]. The sides' handicaps are set from the data, whatever
// they hold.
type Match struct {
	Game   string `json:"game"`
	Key    string `json:"key"`
	Family Family `json:"family"`
	Sides  []Side `json:"sides"`
}

// RateMatch returns every player's rating after the match, side by side
// and player by player as in x.Sides:
//   - free for all: the plain model, sides summed;
//   - team: sides compared by their mean with each role's handicap, from
//     the lab's baseline for the variant, player count and composition
//     of sides ([Model.Handicaps]);
//   - a lone side (co-op, or one side in the team family): the team
//     against a benchmark team of its size, both by their mean member
//     (summed with m.CoopSum), from the lab's success rate for the variant
//     and player count ([Model.Benchmark]).
//
// A variant the data lacks gives an error wrapping [ErrNotMeasured]; bad
// input one wrapping [ErrBadInput].
func (m Model) RateMatch(d *Data, x Match) ([][]Rating, error) {
	sides, by, lone, err := m.sides(d, x, true)
	if err != nil {
		return nil, err
	}
	out, err := m.Rate(sides, by)
	if err != nil {
		return nil, err
	}
	if lone {
		out = out[:1]
	}
	return out, nil
}

// Chances returns each side's chance of finishing first (of succeeding,
// for a lone side), before the match, under the same handicaps and
// benchmarks as [Model.RateMatch].
func (m Model) Chances(d *Data, x Match) ([]float64, error) {
	sides, by, lone, err := m.sides(d, x, false)
	if err != nil {
		return nil, err
	}
	p, err := m.WinChances(sides, by)
	if err != nil {
		return nil, err
	}
	if lone {
		p = p[:1]
	}
	return p, nil
}

// Sides returns the sides the model rates x as, and how it weighs them:
// x's sides with their handicaps set, and for a lone side the benchmark
// team after it. Ranks are not checked.
func (m Model) Sides(d *Data, x Match) ([]Side, Strength, error) {
	sides, by, _, err := m.sides(d, x, false)
	return sides, by, err
}

// sides returns the sides the model rates for x, how they are weighed,
// and whether the last one is the benchmark added for a lone side.
func (m Model) sides(d *Data, x Match, ranked bool) ([]Side, Strength, bool, error) {
	if x.Game == "" {
		return nil, 0, false, badInput("the match names no game")
	}
	sides := slices.Clone(x.Sides)
	for i := range sides {
		sides[i].Handicap = 0
		if len(sides[i].Players) == 0 {
			return nil, 0, false, badInput("side %d has no player", i)
		}
	}
	switch x.Family {
	case FreeForAll:
		if len(sides) < 2 {
			return nil, 0, false, badInput("a free-for-all match needs two sides or more, got %d", len(sides))
		}
		return sides, Sum, false, nil
	case Team, Coop:
	default:
		return nil, 0, false, badInput("unknown family %q", x.Family)
	}
	if x.Family == Coop && len(sides) != 1 {
		return nil, 0, false, badInput("a co-op match has one side, got %d", len(sides))
	}
	comp := make([]roleSize, len(sides))
	for i, s := range sides {
		comp[i] = roleSize{s.Role, len(s.Players)}
		for j := range i {
			if sides[j].Role == s.Role {
				return nil, 0, false, badInput("two sides have the role %q", s.Role)
			}
		}
	}
	c, err := d.cell(x.Game, x.Key, comp)
	if err != nil {
		return nil, 0, false, err
	}
	if c.Family != x.Family {
		return nil, 0, false, fmt.Errorf("%w: %s %q was measured as %s, not %s", ErrNotMeasured, x.Game, x.Key, c.Family, x.Family)
	}
	rates := c.Rates()
	if len(sides) == 1 {
		n := len(sides[0].Players)
		b, err := m.Benchmark(rates[0], n)
		if err != nil {
			return nil, 0, false, err
		}
		bench := Side{Role: "benchmark", Players: make([]Rating, n), Rank: 1}
		for j := range bench.Players {
			bench.Players[j] = b
		}
		if ranked {
			switch sides[0].Rank {
			case 1:
				bench.Rank = 2
			case 2:
			default:
				return nil, 0, false, badInput("a lone side's rank is 1 (won) or 2 (lost), not %d", sides[0].Rank)
			}
		}
		return append(sides, bench), m.coopStrength(), true, nil
	}
	h, err := m.Handicaps(rates)
	if err != nil {
		return nil, 0, false, err
	}
	for i, s := range sides {
		for k, cs := range c.Sides {
			if cs.Role == s.Role {
				sides[i].Handicap = h[k]
			}
		}
	}
	return sides, Mean, false, nil
}
