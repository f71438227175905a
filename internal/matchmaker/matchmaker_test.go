package matchmaker

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

var t0 = time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)

var duel = Pool{Game: "plandesecours", Players: 2, Rated: true}

// pds is a rated pool of Plan de Secours for lo players, or lo to hi.
func pds(lo, hi int) Pool {
	return Pool{Game: "plandesecours", Players: lo, PlayersMax: hi, Rated: true}
}

// player waits in pool with rating mu since t0 + since seconds.
func player(id string, pool Pool, mu float64, since int) Player {
	return Player{ID: id, Pool: pool, Mu: mu, Since: t0.Add(time.Duration(since) * time.Second), BotFill: 30 * time.Second}
}

func levels(Pool) []Level { return []Level{{"easy", 18}, {"medium", 25}, {"hard", 31}} }

// tables formats a wave's tables: "a+b", "a+2 hard".
func tables(ts []Table) string {
	var out []string
	for _, t := range ts {
		if t.Pool.PlayersMax != 0 || t.Pool.Players != len(t.Players)+t.Bots {
			return fmt.Sprintf("a table of %d people and %d bots for %+v", len(t.Players), t.Bots, t.Pool)
		}
		var ids []string
		for _, p := range t.Players {
			ids = append(ids, p.ID)
		}
		s := strings.Join(ids, "+")
		if t.Bots > 0 {
			s += fmt.Sprintf("+%d %s", t.Bots, t.Level)
		}
		out = append(out, s)
	}
	return strings.Join(out, " | ")
}

func wave(ps []Player, at int) string {
	return tables(Defaults().Pair(ps, levels, t0.Add(time.Duration(at)*time.Second)))
}

func TestPair(t *testing.T) {
	four := Pool{Game: "room25", Players: 4, Mode: "coop", Rated: true}
	casual := duel
	casual.Rated = false
	humansOnly := player("h", duel, 25, 0)
	humansOnly.HumansOnly = true
	leaver := func(id string, mu float64, since int) Player {
		p := player(id, duel, mu, since)
		p.Leaver = true
		return p
	}
	for _, c := range []struct {
		name    string
		waiting []Player
		at      int
		want    string
	}{
		{"two near players meet at once", []Player{player("a", duel, 25, 0), player("b", duel, 26, 0)}, 0, "a+b"},
		{"the nearest is chosen", []Player{player("a", duel, 25, 0), player("b", duel, 27.5, 0), player("c", duel, 25.5, 1)}, 1, "a+c"},
		{"far ratings wait", []Player{player("a", duel, 15, 0), player("b", duel, 35, 0)}, 10, ""},
		{"windows widen while they wait", []Player{player("a", duel, 15, 0), player("b", duel, 31, 0)}, 26, "a+b"},
		{"both windows must take the other in", []Player{player("a", duel, 15, 0), player("b", duel, 31, 25)}, 26, ""},
		{"pools never mix", []Player{player("a", duel, 25, 0), player("b", casual, 25, 0), player("c", four, 25, 0)}, 5, ""},
		{"a lone player waits for people first", []Player{player("a", duel, 25, 0)}, 29, ""},
		{"then bots of the level nearest fill the seats", []Player{player("a", duel, 30, 0)}, 30, "a+1 hard"},
		{"a table of four with two people", []Player{player("a", four, 19, 0), player("b", four, 17, 10)}, 30, "a+b+2 easy"},
		{"humans only wait on", []Player{humansOnly}, 600, ""},
		{"humans only are never seated with bots", []Player{player("a", four, 25, 0), humansOnly, {ID: "x", Pool: four, Mu: 25, Since: t0, HumansOnly: true}}, 30, "a+3 medium"},
		{"five for a table of four: the four longest waiting", []Player{
			player("a", four, 25, 0), player("b", four, 25, 1), player("c", four, 25, 2), player("d", four, 25, 3), player("e", four, 25, 4)}, 4, "a+b+c+d"},
		{"leavers with leavers first", []Player{leaver("l", 25, 0), player("n", duel, 25, 0), leaver("m", 28, 1)}, 1, "l+m"},
		{"a leaver and another player wait half the wait", []Player{leaver("l", 25, 0), player("n", duel, 25, 0)}, 14, ""},
		{"then meet", []Player{leaver("l", 25, 0), player("n", duel, 25, 0)}, 15, "l+n"},
		// Ranges of players: a table at a number everyone asked for.
		{"a range meets a number inside it", []Player{player("a", pds(2, 4), 25, 0), player("b", pds(3, 0), 25, 1), player("c", pds(3, 0), 25, 2)}, 2, "a+b+c"},
		{"the largest number that seats people only", []Player{player("a", pds(2, 4), 25, 0), player("b", pds(2, 3), 25, 1), player("c", pds(2, 5), 25, 2)}, 2, "a+b+c"},
		{"ranges apart never meet", []Player{player("a", pds(2, 3), 25, 0), player("b", pds(4, 5), 25, 0)}, 20, ""},
		{"a range waits for people first", []Player{player("a", pds(2, 4), 25, 0)}, 29, ""},
		{"then the fewest bots for the most people", []Player{player("a", pds(2, 4), 25, 0)}, 30, "a+1 medium"},
		{"as many people as the range can seat", []Player{player("a", pds(2, 5), 25, 0), player("b", pds(4, 5), 25, 1)}, 30, "a+b+2 medium"},
	} {
		if got := wave(c.waiting, c.at); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}

// A simulated crowd: every player is seated once, none waits past their
// wait before bots and a wave; a busy crowd meets people far more than a
// thin one, and a humans-only player alone in a pool stays unseated.
func TestSimulate(t *testing.T) {
	pools, ws := DefaultPools()
	run := func(rate float64) SimReport {
		return Defaults().Simulate(SimConfig{Players: 1000, Rate: rate, Pools: pools, Weights: ws, Mu: 25, Spread: 4,
			BotFill: 30 * time.Second, Leavers: 0.05, Wave: time.Second, Seed: 1})
	}
	busy, thin := run(600), run(6)
	for _, r := range []SimReport{busy, thin} {
		if r.Unseated != 0 || r.MaxWait > 31*time.Second || r.Tables == 0 {
			t.Errorf("a crowd: %+v", r)
		}
	}
	if busy.PlayersWithBots >= thin.PlayersWithBots || busy.MedianWait >= thin.MedianWait || busy.TablesOfPeople <= thin.TablesOfPeople {
		t.Errorf("a busy crowd (%+v) fares no better than a thin one (%+v)", busy, thin)
	}
	lone := Defaults().Simulate(SimConfig{Players: 1, Rate: 1, Pools: pools[:1], Weights: []float64{1}, Mu: 25, Spread: 4,
		BotFill: 30 * time.Second, HumansOnly: 1, Wave: time.Second})
	if lone.Unseated != 1 || lone.Tables != 0 {
		t.Errorf("a humans-only player alone: %+v", lone)
	}
}
