// Package ratinglab is the lab of the rating: it measures with bots what a
// fair rating needs, and how well the rating works. [Baselines] plays hard
// bots on every seat to measure each side's baseline win rate and each
// co-op team's success rate, per game, variant and player count: the data
// (internal/rating's baselines.json) from which the rating sets role
// handicaps and benchmark teams. [Population] rates a population of bots of
// known strength over simulated matches and reports how soon it orders
// itself and how well the rating's predictions match the outcomes.
//
// It knows no game: games say what a match is for rating (engine.Rated),
// the simulator plays them, and the rating model (internal/rating) does the
// numbers. `sortie lab` runs it; docs/balance.md and docs/ratings.md give
// the commands and their figures.
package ratinglab

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"sortie/engine"
	"sortie/internal/rating"
	"sortie/sim"
)

// BaselineLevel is the bot level that holds every seat when baselines are
// measured: the strongest, the nearest to good players.
const BaselineLevel = "hard"

// Baselines plays each batch and returns the cells it measured: one per
// variant key, player count and composition of sides, for the batches
// rated in the team or co-op family. Batches of a free for all (which
// needs no baseline) and of games that say nothing of rating are left
// out, with the reason in skipped. The batches' policies must all be
// [BaselineLevel]; every cell is stamped with command and date.
func Baselines(ctx context.Context, cfgs []sim.Config, command, date string, progress func(done int)) (cells []rating.Cell, skipped []string, err error) {
	type cellKey struct {
		key     string
		players int
		comp    string
	}
	var order []cellKey
	byKey := map[cellKey]*rating.Cell{}
	before := 0
	for _, c := range cfgs {
		for _, p := range c.Policies {
			if p.Name() != BaselineLevel {
				return nil, nil, fmt.Errorf("%s: baselines are measured with %s bots on every seat, not %s", c.Label, BaselineLevel, p.Name())
			}
		}
		fam, _, err := variant(c.Game, engine.Setup{Players: c.Players, Options: c.Options, Seed: c.Seed})
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %v", c.Label, err)
		}
		if fam != engine.Team && fam != engine.Coop {
			skipped = append(skipped, fmt.Sprintf("%s: rated %s, which needs no baseline", c.Label, fam))
			continue
		}
		game := c.Game.Info().ID
		var failed error
		c.Each = func(_ int, r sim.Result) {
			if r.Rated == nil {
				failed = fmt.Errorf("%s: a game ended without a rated result", c.Label)
				return
			}
			res := *r.Rated
			k := cellKey{res.Key, c.Players, composition(res)}
			cell, ok := byKey[k]
			if !ok {
				cell = &rating.Cell{Game: game, Key: res.Key, Family: rating.Family(res.Family), Players: c.Players,
					Bots: BaselineLevel, Command: command, Date: date}
				for _, s := range res.Sides {
					cell.Sides = append(cell.Sides, rating.CellSide{Role: s.Role, Size: len(s.Seats)})
				}
				slices.SortFunc(cell.Sides, func(a, b rating.CellSide) int { return strings.Compare(a.Role, b.Role) })
				byKey[k] = cell
				order = append(order, k)
			}
			cell.Games++
			pts := points(res)
			for _, s := range res.Sides {
				i := slices.IndexFunc(cell.Sides, func(cs rating.CellSide) bool { return cs.Role == s.Role })
				cell.Sides[i].Points += pts[s.Role]
				if pts[s.Role] == 1 {
					cell.Sides[i].Wins++
				}
			}
		}
		if progress != nil {
			offset := before
			c.Progress = func(done int) { progress(offset + done) }
		}
		if _, err := sim.Run(ctx, c); err != nil {
			return nil, skipped, err
		}
		if failed != nil {
			return nil, skipped, failed
		}
		before += c.Games
	}
	for _, k := range order {
		cell := byKey[k]
		for i := range cell.Sides {
			iv := sim.Wilson(cell.Sides[i].Points, float64(cell.Games))
			cell.Sides[i].Rate = rating.Interval{P: round(iv.P), Lo: round(iv.Lo), Hi: round(iv.Hi)}
		}
		cells = append(cells, *cell)
	}
	return cells, skipped, nil
}

// round keeps four decimals, which is all an interval from a few thousand
// games can say.
func round(x float64) float64 {
	return float64(int64(x*1e4+0.5)) / 1e4
}

// variant returns the family and key a match of setup is rated in.
func variant(g engine.Game, setup engine.Setup) (engine.Family, string, error) {
	s, err := g.New(setup)
	if err != nil {
		return "", "", err
	}
	rs, ok := s.(engine.Rated)
	if !ok {
		return "", "", fmt.Errorf("%s does not say what a match is for rating", g.Info().ID)
	}
	r, _ := rs.RatedResult()
	return r.Family, r.Key, nil
}

// composition names a result's sides by role and size, in role order.
func composition(r engine.Result) string {
	parts := make([]string, len(r.Sides))
	for i, s := range r.Sides {
		parts[i] = fmt.Sprintf("%s:%d", s.Role, len(s.Seats))
	}
	slices.Sort(parts)
	return strings.Join(parts, ",")
}

// points gives each side of a result its share of the win, by role: 1 to
// a side first alone, 1/m to each of m sides sharing the top, 0 to the
// others; a lone side 1 when it won against the game.
func points(r engine.Result) map[string]float64 {
	out := map[string]float64{}
	if len(r.Sides) == 1 {
		if r.Sides[0].Rank == 1 {
			out[r.Sides[0].Role] = 1
		}
		return out
	}
	top := 0
	for _, s := range r.Sides {
		if s.Rank == 1 {
			top++
		}
	}
	for _, s := range r.Sides {
		if s.Rank == 1 {
			out[s.Role] = 1 / float64(top)
		}
	}
	return out
}

// Merge returns the data with the cells measured now in place of those
// measured before for the same game, variant and player count (every
// composition of a variant is measured again together), in a stable order.
func Merge(d *rating.Data, cells []rating.Cell) *rating.Data {
	type variantKey struct {
		game, key string
		players   int
	}
	fresh := map[variantKey]bool{}
	for _, c := range cells {
		fresh[variantKey{c.Game, c.Key, c.Players}] = true
	}
	out := &rating.Data{}
	if d != nil {
		for _, c := range d.Cells {
			if !fresh[variantKey{c.Game, c.Key, c.Players}] {
				out.Cells = append(out.Cells, c)
			}
		}
	}
	out.Cells = append(out.Cells, cells...)
	slices.SortStableFunc(out.Cells, func(a, b rating.Cell) int {
		return cmp.Or(strings.Compare(a.Game, b.Game), strings.Compare(a.Key, b.Key), a.Players-b.Players,
			strings.Compare(sidesText(a.Sides), sidesText(b.Sides)))
	})
	return out
}

func sidesText(sides []rating.CellSide) string {
	var b strings.Builder
	for _, s := range sides {
		fmt.Fprintf(&b, "%s:%d,", s.Role, s.Size)
	}
	return b.String()
}

// Encode writes data as baselines.json holds it: one cell a line, so that
// a new measure reads as a diff of the cells it changed.
func Encode(d *rating.Data) ([]byte, error) {
	if err := d.Check(); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.WriteString("{\"cells\": [")
	for i, c := range d.Cells {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("\n  ")
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(c); err != nil {
			return nil, err
		}
		b.Truncate(b.Len() - 1) // the encoder's newline
	}
	b.WriteString("\n]}\n")
	return b.Bytes(), nil
}
