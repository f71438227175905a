package matchmaker

import (
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"time"
)

// SimConfig is a simulated crowd pressing Play now.
type SimConfig struct {
	// Players arrive at random (a Poisson process) at Rate a minute.
	Players int
	Rate    float64
	// Pools are the pools they ask for, each with its weight.
	Pools   []Pool
	Weights []float64
	// Mu and Spread are the mean and standard deviation of the players'
	// ratings (μ).
	Mu, Spread float64
	// BotFill is every player's wait before bots; Leavers the share of
	// players who leave often; HumansOnly the share who want no bots.
	BotFill    time.Duration
	Leavers    float64
	HumansOnly float64
	// Wave is the time between two waves.
	Wave time.Duration
	Seed uint64
}

// DefaultPools are a mix of tables across the five games: two-player free
// for alls most asked for, some tables of four, co-op tables of three and
// four; four in five rated.
func DefaultPools() ([]Pool, []float64) {
	type p struct {
		game    string
		players int
		mode    string
		w       float64
	}
	var pools []Pool
	var ws []float64
	for _, x := range []p{
		{"plandesecours", 2, "", 3}, {"plandesecours", 4, "", 1}, {"evades", 2, "", 2}, {"outran", 2, "", 2},
		{"room25", 4, "cooperation", 1}, {"temple", 3, "", 1},
	} {
		for _, rated := range []bool{true, false} {
			w := x.w * 0.8
			if !rated {
				w = x.w * 0.2
			}
			pools = append(pools, Pool{Game: x.game, Players: x.players, Mode: x.mode, Rated: rated, Clock: "live"})
			ws = append(ws, w)
		}
	}
	return pools, ws
}

// SimReport is what a simulated crowd met.
type SimReport struct {
	Players, Tables int
	// Waits of every player, from arrival to seat.
	MedianWait, P95Wait, MaxWait time.Duration
	// Gaps are the rating gaps (highest μ less lowest) inside tables of
	// two people or more; TablesOfPeople counts those tables.
	MedianGap, P95Gap float64
	TablesOfPeople    int
	// WithBots is the share of tables with a bot; PlayersWithBots the
	// share of players seated with one.
	WithBots, PlayersWithBots float64
	// Unseated are players still waiting when the crowd stopped coming
	// and every wave had run (humans only, alone in their pool).
	Unseated int
}

// Simulate runs a crowd through the matchmaker, one wave every c.Wave of
// simulated time, until every player who can be seated is.
func (mc Config) Simulate(c SimConfig) SimReport {
	r := rand.New(rand.NewPCG(c.Seed, 0x5eed))
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var arrivals []Player
	at := t0
	total := 0.0
	for _, w := range c.Weights {
		total += w
	}
	for i := range c.Players {
		at = at.Add(time.Duration(r.ExpFloat64() / (c.Rate / 60) * float64(time.Second)))
		x, k := r.Float64()*total, 0
		for k < len(c.Weights)-1 && x >= c.Weights[k] {
			x -= c.Weights[k]
			k++
		}
		arrivals = append(arrivals, Player{ID: strconv.Itoa(i), Pool: c.Pools[k], Mu: c.Mu + c.Spread*r.NormFloat64(), Since: at,
			BotFill: c.BotFill, Leaver: r.Float64() < c.Leavers, HumansOnly: r.Float64() < c.HumansOnly})
	}
	levels := func(Pool) []Level {
		return []Level{{"easy", c.Mu - c.Spread}, {"medium", c.Mu}, {"hard", c.Mu + c.Spread}}
	}
	var waiting []Player
	var waits []time.Duration
	var gaps []float64
	rep := SimReport{Players: c.Players}
	withBots, playersWithBots := 0, 0
	next := 0
	end := at.Add(c.BotFill + time.Hour)
	for now := t0; now.Before(end) && (next < len(arrivals) || len(waiting) > 0); now = now.Add(c.Wave) {
		for next < len(arrivals) && !arrivals[next].Since.After(now) {
			waiting = append(waiting, arrivals[next])
			next++
		}
		tables := mc.Pair(waiting, levels, now)
		seated := map[string]bool{}
		for _, t := range tables {
			rep.Tables++
			lo, hi := math.Inf(1), math.Inf(-1)
			for _, p := range t.Players {
				seated[p.ID] = true
				waits = append(waits, now.Sub(p.Since))
				lo, hi = min(lo, p.Mu), max(hi, p.Mu)
			}
			if len(t.Players) >= 2 {
				gaps = append(gaps, hi-lo)
			}
			if t.Bots > 0 {
				withBots++
				playersWithBots += len(t.Players)
			}
		}
		waiting = slices.DeleteFunc(waiting, func(p Player) bool { return seated[p.ID] })
	}
	rep.Unseated = len(waiting)
	slices.Sort(waits)
	slices.Sort(gaps)
	rep.MedianWait, rep.P95Wait = quantile(waits, 0.5), quantile(waits, 0.95)
	if len(waits) > 0 {
		rep.MaxWait = waits[len(waits)-1]
	}
	rep.MedianGap, rep.P95Gap, rep.TablesOfPeople = quantile(gaps, 0.5), quantile(gaps, 0.95), len(gaps)
	if rep.Tables > 0 {
		rep.WithBots = float64(withBots) / float64(rep.Tables)
	}
	if seated := c.Players - rep.Unseated; seated > 0 {
		rep.PlayersWithBots = float64(playersWithBots) / float64(seated)
	}
	return rep
}

// quantile is the q-quantile of sorted xs (nearest rank); zero if empty.
func quantile[T any](xs []T, q float64) T {
	var zero T
	if len(xs) == 0 {
		return zero
	}
	i := int(math.Ceil(q*float64(len(xs)))) - 1
	return xs[max(0, min(i, len(xs)-1))]
}
