package rating

import (
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
)

// Data is what the lab measured for the rating: in each variant of a game
// with sides (the team family) or a team against the game (co-op), how
// often each side won when hard bots held every seat. `sortie lab
// baselines` writes it into baselines.json beside this file, which the
// package embeds (see [Measured]); docs/balance.md says how it is made.
type Data struct {
	Cells []Cell `json:"cells"`
}

// Cell is one measured variant at one player count, with one composition
// of sides (the Suspicion mode of Room 25 at five seats deals two Guards in
// some games and one in others: two cells).
type Cell struct {
	// Game is the game's id, Key the variant's key as the game names it
	// (the engine's rated result: "mode=suspicion", "difficulty=expert").
	Game string `json:"game"`
	Key  string `json:"key"`
	// Family is the mode family: "team" or "coop".
	Family  Family `json:"family"`
	Players int    `json:"players"`
	// Games is the number of games measured.
	Games int        `json:"games"`
	Sides []CellSide `json:"sides"`
	// Bots is the bot level that held every seat; Command the command line
	// that measured the cell, and Date the day it ran (YYYY-MM-DD).
	Bots    string `json:"bots"`
	Command string `json:"command"`
	Date    string `json:"date"`
}

// CellSide is one side of a measured cell.
type CellSide struct {
	// Role is the side's role; Size its number of seats.
	Role string `json:"role"`
	Size int    `json:"size"`
	// Wins counts the games the side finished first alone (in co-op, the
	// team's successes); Points adds the games it shared the top, each
	// as one over the number of sides that shared it (a draw of two sides
	// is half a point each).
	Wins   int     `json:"wins"`
	Points float64 `json:"points"`
	// Rate is Points over Games with its 95% Wilson interval, for people
	// reading the file; the model reads only the counts.
	Rate Interval `json:"rate"`
}

// Interval is a proportion with its 95% interval.
type Interval struct {
	P  float64 `json:"p"`
	Lo float64 `json:"lo"`
	Hi float64 `json:"hi"`
}

// ErrNotMeasured is wrapped by the errors of a match whose variant,
// player count or composition of sides the lab has not measured: such a
// match cannot be rated fairly.
var ErrNotMeasured = errors.New("rating: variant not measured")

//go:embed baselines.json
var measuredJSON []byte

var measured = sync.OnceValues(func() (*Data, error) {
	return ReadData(strings.NewReader(string(measuredJSON)))
})

// Measured returns the data embedded in the package (baselines.json). It
// panics if the file is not valid, which the package's tests rule out.
func Measured() *Data {
	d, err := measured()
	if err != nil {
		panic(fmt.Sprintf("rating: the embedded baselines.json is not valid: %v", err))
	}
	return d
}

// ReadData reads and checks data in the JSON form the lab writes.
func ReadData(r io.Reader) (*Data, error) {
	var d Data
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&d); err != nil {
		return nil, fmt.Errorf("rating data: %v", err)
	}
	if err := d.Check(); err != nil {
		return nil, err
	}
	return &d, nil
}

// Check reports the first inconsistency of the data: a cell without
// games, sides that do not fill its seats, more points than games, or two
// cells for the same variant, player count and composition.
func (d *Data) Check() error {
	seen := map[string]bool{}
	for i, c := range d.Cells {
		where := fmt.Sprintf("rating data, cell %d (%s %q, %d players)", i, c.Game, c.Key, c.Players)
		switch {
		case c.Game == "":
			return fmt.Errorf("%s: no game", where)
		case c.Bots == "" || c.Command == "" || c.Date == "":
			return fmt.Errorf("%s: the bots, command or date that measured it is missing", where)
		case c.Family != Team && c.Family != Coop:
			return fmt.Errorf("%s: family %q has no measured cells (team or coop)", where, c.Family)
		case c.Games < 1:
			return fmt.Errorf("%s: no games", where)
		case len(c.Sides) == 0 || c.Family == Coop && len(c.Sides) != 1:
			return fmt.Errorf("%s: %d sides", where, len(c.Sides))
		}
		seats, points := 0, 0.0
		for _, s := range c.Sides {
			if s.Size < 1 || s.Wins < 0 || s.Points < float64(s.Wins) || s.Points > float64(c.Games) {
				return fmt.Errorf("%s: side %q has size %d, %d wins and %v points", where, s.Role, s.Size, s.Wins, s.Points)
			}
			seats += s.Size
			points += s.Points
		}
		if seats != c.Players {
			return fmt.Errorf("%s: the sides hold %d seats", where, seats)
		}
		if points > float64(c.Games)+1e-6 {
			return fmt.Errorf("%s: %v points in %d games", where, points, c.Games)
		}
		id := cellID(c.Game, c.Key, c.Players, composition(c.Sides))
		if seen[id] {
			return fmt.Errorf("%s: measured twice", where)
		}
		seen[id] = true
	}
	return nil
}

// roleSize is a side's role and size, what a cell is found by.
type roleSize struct {
	role string
	size int
}

func composition(sides []CellSide) []roleSize {
	out := make([]roleSize, len(sides))
	for i, s := range sides {
		out[i] = roleSize{s.Role, s.Size}
	}
	return out
}

func cellID(game, key string, players int, comp []roleSize) string {
	comp = slices.Clone(comp)
	slices.SortFunc(comp, func(a, b roleSize) int {
		if c := strings.Compare(a.role, b.role); c != 0 {
			return c
		}
		return a.size - b.size
	})
	var b strings.Builder
	fmt.Fprintf(&b, "%s\x00%s\x00%d", game, key, players)
	for _, s := range comp {
		fmt.Fprintf(&b, "\x00%s:%d", s.role, s.size)
	}
	return b.String()
}

// Has reports whether the lab measured the variant key of game at a player
// count, in some composition of sides: what a lobby can check before a
// team or co-op match starts (a free for all needs no data). A hidden
// composition (Suspicion's Guards) is only known at the end, where
// [Model.RateMatch] needs that very composition.
func (d *Data) Has(game, key string, players int) bool {
	if d == nil {
		return false
	}
	for _, c := range d.Cells {
		if c.Game == game && c.Key == key && c.Players == players {
			return true
		}
	}
	return false
}

// cell finds the cell of a match's variant and composition.
func (d *Data) cell(game, key string, comp []roleSize) (*Cell, error) {
	players := 0
	for _, s := range comp {
		players += s.size
	}
	want := cellID(game, key, players, comp)
	if d != nil {
		for i := range d.Cells {
			c := &d.Cells[i]
			if c.Game == game && c.Key == key && c.Players == players && cellID(c.Game, c.Key, c.Players, composition(c.Sides)) == want {
				return c, nil
			}
		}
	}
	var parts []string
	for _, s := range comp {
		parts = append(parts, fmt.Sprintf("%s×%d", s.role, s.size))
	}
	return nil, fmt.Errorf("%w: %s %q at %d players with sides %s", ErrNotMeasured, game, key, players, strings.Join(parts, ", "))
}

// Rates returns the cell's sides' win rates, as estimates kept off 0 and
// 1: (points + 1/k) / (games + 1) with k the number of outcomes a side
// shares (two for a lone side: success or failure), so that a variant the
// bots always won still gives a finite handicap.
func (c *Cell) Rates() []float64 {
	k := max(len(c.Sides), 2)
	out := make([]float64, len(c.Sides))
	for i, s := range c.Sides {
		out[i] = (s.Points + 1/float64(k)) / (float64(c.Games) + 1)
	}
	return out
}
