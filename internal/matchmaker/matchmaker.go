// Package matchmaker pairs Play now's waiting players into tables: numbers
// in, tables out, no store and no server. The server keeps the tickets in
// the store, lets one node at a time call [Pair] every wave, and seats the
// tables it returns.
//
// Each wave ([Pair]) looks at the waiting players pool by pool (a pool is a
// game, a mode, rated or casual, live or by correspondence at one move
// limit), the longest waiting first, and seats each with the players
// nearest in rating whose window takes them in, at a table of a number of
// players every one of them asked for (a number, or a range: the largest
// number that seats only people now). A player's window is a distance in
// μ that starts at [Config.Window] and widens by [Config.Widen] each second
// they wait, and two players sit together only inside both windows. Players who leave
// often are paired among themselves first: one of them meets the others
// only once they waited half their wait before bots. A player who waited
// their wait before bots (unless they asked for humans only) is seated with
// whoever their window takes in, the empty seats filled with bots of the
// level nearest their rating, at the number of their range that seats the
// most people (the smallest, between equals).
package matchmaker

import (
	"cmp"
	"math"
	"slices"
	"time"
)

// Player is one waiting player.
type Player struct {
	// ID names the player's ticket.
	ID string
	// Pool is the pool the player waits in.
	Pool Pool
	// Mu is the player's rating (μ) in the pool's game and family.
	Mu float64
	// Since is when the player started waiting.
	Since time.Time
	// BotFill is how long the player waits before bots fill the empty
	// seats; HumansOnly waits for people whatever the wait.
	BotFill    time.Duration
	HumansOnly bool
	// Leaver says the player left many of their recent matches.
	Leaver bool
}

// Pool is what a player asked for: a game, a number of players (or a
// range, from Players to PlayersMax), a mode, rated or casual, and a clock.
// Players are only ever seated with players who asked for the same but for
// the number, at a number each of them asked for.
type Pool struct {
	Game    string `json:"game"`
	Players int    `json:"players"`
	// PlayersMax, above Players, asks for any number from Players to it.
	PlayersMax int    `json:"players_max,omitempty"`
	Mode       string `json:"mode,omitempty"`
	Rated      bool   `json:"rated"`
	// Clock is "live" or "correspondence"; MoveLimitMs a correspondence
	// table's move limit (a day or more).
	Clock       string `json:"clock"`
	MoveLimitMs int64  `json:"move_limit_ms,omitempty"`
}

// Span returns the smallest and largest numbers of players p asks for.
func (p Pool) Span() (lo, hi int) { return p.Players, max(p.Players, p.PlayersMax) }

// Key is p without its number of players: the pool players share whatever
// the numbers they asked for.
func (p Pool) Key() Pool {
	p.Players, p.PlayersMax = 0, 0
	return p
}

// Meets reports whether players who asked for p and q may sit at one
// table: the same pool, and a number both asked for.
func (p Pool) Meets(q Pool) bool {
	plo, phi := p.Span()
	qlo, qhi := q.Span()
	return p.Key() == q.Key() && max(plo, qlo) <= min(phi, qhi)
}

// Table is a table a wave seats: its pool (with the number of players it
// seats), its players, in seat order, and how many bots of which level
// take the remaining seats (after the players).
type Table struct {
	Pool    Pool
	Players []Player
	Bots    int
	Level   string
}

// Level is a bot level and its rating (μ) in a pool's game and family.
type Level struct {
	Name string
	Mu   float64
}

// Config tunes the pairing. The zero value is not usable: start from
// [Defaults].
type Config struct {
	// Window is a player's window when they start waiting, in μ.
	Window float64
	// Widen is how much a window widens each second of waiting, in μ.
	Widen float64
}

// Defaults are a window of 3 μ (a little under half a new player's σ) that
// widens by 0.5 μ a second: after 10 s a player meets anyone within 8 μ, after
// 30 s within 18 μ, which holds about every rating of a game.
func Defaults() Config { return Config{Window: 3, Widen: 0.5} }

// window returns p's window at now.
func (c Config) window(p Player, now time.Time) float64 {
	return c.Window + c.Widen*max(0, now.Sub(p.Since).Seconds())
}

// waited reports whether p waited at least d at now.
func waited(p Player, now time.Time, d time.Duration) bool { return now.Sub(p.Since) >= d }

// Pair is one wave: the tables to seat now among the waiting players, and
// levels, for each pool, the bot levels with their ratings (nil: bots fill
// at the middle level). Each player is in at most one table.
func (c Config) Pair(waiting []Player, levels func(Pool) []Level, now time.Time) []Table {
	pools := map[Pool][]Player{}
	var order []Pool
	for _, p := range waiting {
		k := p.Pool.Key()
		if _, ok := pools[k]; !ok {
			order = append(order, k)
		}
		pools[k] = append(pools[k], p)
	}
	var tables []Table
	for _, pool := range order {
		tables = append(tables, c.pairPool(pool, pools[pool], levels, now)...)
	}
	return tables
}

// pairPool pairs one pool's players, the longest waiting first.
func (c Config) pairPool(pool Pool, ps []Player, levels func(Pool) []Level, now time.Time) []Table {
	slices.SortStableFunc(ps, func(a, b Player) int { return cmp.Compare(a.Since.UnixNano(), b.Since.UnixNano()) })
	seated := make([]bool, len(ps))
	var tables []Table
	for i, p := range ps {
		if seated[i] {
			continue
		}
		n, near, ok := c.table(i, ps, seated, now)
		if !ok {
			continue
		}
		at := pool
		at.Players = n
		t := Table{Pool: at, Players: []Player{p}}
		seated[i] = true
		for _, j := range near {
			seated[j] = true
			t.Players = append(t.Players, ps[j])
		}
		if t.Bots = n - len(t.Players); t.Bots > 0 {
			t.Level = nearestLevel(t.Players, levels(at))
		}
		tables = append(tables, t)
	}
	return tables
}

// table finds the table ps[i] sits at now, if any: its number of players
// and the others who join it. A table of people alone comes first, at the
// largest number ps[i] asked for that has one; once ps[i] waited their wait
// before bots (unless they asked for humans only), the number that seats
// the most people (the smallest between equals), bots in the other seats.
func (c Config) table(i int, ps []Player, seated []bool, now time.Time) (n int, near []int, ok bool) {
	p := ps[i]
	lo, hi := p.Pool.Span()
	bots := !p.HumansOnly && waited(p, now, p.BotFill)
	for k := hi; k >= lo; k-- {
		cands := c.candidates(i, ps, seated, k, now)
		if len(cands) >= k-1 {
			return k, cands[:k-1], true
		}
		if !bots {
			continue
		}
		// Bots fill the table: those who want humans only wait on.
		cands = slices.DeleteFunc(cands, func(j int) bool { return ps[j].HumansOnly })
		if !ok || len(cands) >= len(near) {
			n, near, ok = k, cands, true
		}
	}
	return n, near, ok
}

// candidates returns the players ps[i] and they both accept at a table of
// k, nearest first (leavers with leavers first, then by distance in
// rating).
func (c Config) candidates(i int, ps []Player, seated []bool, k int, now time.Time) []int {
	p := ps[i]
	var near []int
	for j, q := range ps {
		if lo, hi := q.Pool.Span(); j == i || seated[j] || k < lo || k > hi || !c.accepts(p, q, now) || !c.accepts(q, p, now) {
			continue
		}
		near = append(near, j)
	}
	slices.SortStableFunc(near, func(a, b int) int {
		return cmp.Or(cmp.Compare(b2i(ps[a].Leaver != p.Leaver), b2i(ps[b].Leaver != p.Leaver)),
			cmp.Compare(math.Abs(ps[a].Mu-p.Mu), math.Abs(ps[b].Mu-p.Mu)))
	})
	return near
}

// accepts reports whether p would sit with q now: q is inside p's window,
// and a leaver and a player who is not one meet only once the leaver waited
// half their wait before bots.
func (c Config) accepts(p, q Player, now time.Time) bool {
	if math.Abs(p.Mu-q.Mu) > c.window(p, now) {
		return false
	}
	if p.Leaver != q.Leaver {
		l := p
		if q.Leaver {
			l = q
		}
		return waited(l, now, l.BotFill/2)
	}
	return true
}

// nearestLevel is the bot level whose rating is nearest the players' mean.
func nearestLevel(ps []Player, levels []Level) string {
	if len(levels) == 0 {
		return "medium"
	}
	mean := 0.0
	for _, p := range ps {
		mean += p.Mu
	}
	mean /= float64(len(ps))
	best := levels[0]
	for _, l := range levels[1:] {
		if math.Abs(l.Mu-mean) < math.Abs(best.Mu-mean) {
			best = l
		}
	}
	return best.Name
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
