package rating

import (
	"errors"
	"math"
	"strings"
	"testing"
)

// Two sides of equally skilled, established players are predicted to win
// as often as the role's baseline says, for two sides and for more, in
// both forms.
func TestHandicapsReproduceTheBaseline(t *testing.T) {
	for _, thurstone := range []bool{false, true} {
		m := Default()
		m.Thurstone = thurstone
		known := Rating{25, 1e-6}
		for _, rates := range [][]float64{{0.8, 0.2}, {0.5, 0.5}, {0.03, 0.97}, {0.5, 0.3, 0.2}, {0.1, 0.2, 0.3, 0.4}} {
			h, err := m.Handicaps(rates)
			if err != nil {
				t.Fatal(err)
			}
			sum := 0.0
			sides := make([]Side, len(rates))
			for i := range sides {
				sides[i] = Side{Players: repeat(known, 1+i), Handicap: h[i]}
				sum += h[i]
			}
			if math.Abs(sum) > 1e-9 {
				t.Errorf("%v: the handicaps %v add up to %v", rates, h, sum)
			}
			p, err := m.WinChances(sides, Mean)
			if err != nil {
				t.Fatal(err)
			}
			for i := range rates {
				if math.Abs(p[i]-rates[i]) > 1e-6 {
					t.Errorf("Thurstone %v, %v: handicaps %v predict %v", thurstone, rates, h, p)
					break
				}
			}
		}
		for _, bad := range [][]float64{nil, {1}, {0, 1}, {0.5, math.NaN()}, {1.2, 0.3}} {
			if _, err := m.Handicaps(bad); !errors.Is(err, ErrBadInput) {
				t.Errorf("Handicaps(%v): %v", bad, err)
			}
		}
	}
	m := Default()
	if h, _ := m.Handicaps([]float64{0.8, 0.2}); !near(h[0], math.Sqrt2*m.Beta*math.Log(4)/2) {
		t.Errorf("an 80%% role's handicap is %.4f", h[0])
	}
	m.Thurstone = true
	if h, _ := m.Handicaps([]float64{0.8, 0.2}); !near(h[0], math.Sqrt2*m.Beta*0.841621/2) {
		t.Errorf("an 80%% role's handicap is %.4f in the Thurstone form", h[0])
	}
}

// Between equally skilled, established sides with their handicaps, the
// update moves nobody's μ on average: a win pays the favourite as much as
// its rate of losing costs it. Handicaps of the Thurstone form do not: the
// favourite gains.
func TestHandicapsMoveNobodyOnAverage(t *testing.T) {
	for _, thurstone := range []bool{false, true} {
		m := Default()
		m.Tau, m.Thurstone = 0, thurstone
		h, _ := m.Handicaps([]float64{0.8, 0.2})
		known := Rating{25, 0.01}
		sides := func(first int) []Side {
			return []Side{{Players: []Rating{known}, Handicap: h[0], Rank: first}, {Players: repeat(known, 3), Handicap: h[1], Rank: 3 - first}}
		}
		won, _ := m.Rate(sides(1), Mean)
		lost, _ := m.Rate(sides(2), Mean)
		step := won[0][0].Mu - known.Mu
		drift := 0.8*step + 0.2*(lost[0][0].Mu-known.Mu)
		if fair := math.Abs(drift) < 1e-3*step; fair == thurstone {
			t.Errorf("Thurstone %v: the favoured side drifts by %.2g a match, a win paying %.2g", thurstone, drift, step)
		}
	}
}

// A team of established players at the anchor succeeds as often as the
// hard bots did, at every size; a harder variant has a stronger benchmark.
func TestBenchmarkReproducesTheSuccessRate(t *testing.T) {
	for _, c := range []struct{ thurstone, sum bool }{{false, false}, {true, false}, {false, true}, {true, true}} {
		thurstone := c.thurstone
		m := Default()
		m.Thurstone, m.CoopSum = c.thurstone, c.sum
		known := Rating{m.Anchor, 1e-6}
		for n := 1; n <= 6; n++ {
			prev := math.Inf(-1)
			for _, s := range []float64{0.95, 0.7, 0.4, 0.1} {
				b, err := m.Benchmark(s, n)
				if err != nil {
					t.Fatal(err)
				}
				if b.Mu <= prev {
					t.Errorf("%d players: the benchmark of a %.0f%% variant (%.3f) is not stronger than an easier one's (%.3f)", n, 100*s, b.Mu, prev)
				}
				prev = b.Mu
				p, _ := m.WinChances([]Side{{Players: repeat(known, n)}, {Players: repeat(b, n)}}, m.coopStrength())
				if math.Abs(p[0]-s) > 1e-6 {
					t.Errorf("Thurstone %v, summed %v, %d players, success %.2f: the anchor team is predicted %.6f", thurstone, c.sum, n, s, p[0])
				}
			}
		}
		for _, c := range []struct {
			s float64
			n int
		}{{0, 3}, {1, 3}, {math.NaN(), 3}, {0.5, 0}} {
			if _, err := m.Benchmark(c.s, c.n); !errors.Is(err, ErrBadInput) {
				t.Errorf("Benchmark(%v, %d): %v", c.s, c.n, err)
			}
		}
	}
}

// testData is a small measurement: a co-op game at 3 players (hard bots
// succeed in 80 games of 100) and a hidden-traitor game at 4 players
// (three Prisoners against one Guard: the Guard wins 70 of 100).
func testData() *Data {
	return &Data{Cells: []Cell{
		{Game: "coopgame", Key: "difficulty=normal", Family: Coop, Players: 3, Games: 99,
			Sides: []CellSide{{Role: "team", Size: 3, Wins: 79, Points: 79}}, Bots: "hard", Command: "test", Date: "2026-11-28"},
		{Game: "traitors", Key: "mode=suspicion", Family: Team, Players: 4, Games: 99,
			Sides: []CellSide{{Role: "prisoners", Size: 3, Wins: 29, Points: 29}, {Role: "guards", Size: 1, Wins: 70, Points: 70}}, Bots: "hard", Command: "test", Date: "2026-11-28"},
		{Game: "traitors", Key: "mode=suspicion", Family: Team, Players: 4, Games: 9,
			Sides: []CellSide{{Role: "prisoners", Size: 4, Wins: 4, Points: 4}}, Bots: "hard", Command: "test", Date: "2026-11-28"},
	}}
}

func TestRateMatchCoop(t *testing.T) {
	m := Default()
	d := testData()
	n := m.New()
	x := Match{Game: "coopgame", Key: "difficulty=normal", Family: Coop, Sides: []Side{{Role: "team", Players: repeat(n, 3), Rank: 1}}}
	p, err := m.Chances(d, x)
	if err != nil {
		t.Fatal(err)
	}
	// The success rate is estimated as (79 + ½) / (99 + 1).
	b, _ := m.Benchmark(0.795, 3)
	want, _ := m.WinChances([]Side{{Players: repeat(n, 3)}, {Players: repeat(b, 3)}}, Mean)
	if len(p) != 1 || !near(p[0], want[0]) {
		t.Fatalf("chances %v, want [%.4f]", p, want[0])
	}
	won, err := m.RateMatch(d, x)
	if err != nil {
		t.Fatal(err)
	}
	x.Sides[0].Rank = 2
	lost, err := m.RateMatch(d, x)
	if err != nil {
		t.Fatal(err)
	}
	if len(won) != 1 || len(won[0]) != 3 || won[0][0].Mu <= n.Mu || lost[0][0].Mu >= n.Mu {
		t.Fatalf("won %+v, lost %+v", won, lost)
	}
	// Losing a variant the bots win 80% of the time costs more than
	// winning it pays.
	if n.Mu-lost[0][0].Mu <= won[0][0].Mu-n.Mu {
		t.Fatalf("a likely success pays %.3f, a failure costs %.3f", won[0][0].Mu-n.Mu, n.Mu-lost[0][0].Mu)
	}
	x.Sides[0].Rank = 3
	if _, err := m.RateMatch(d, x); !errors.Is(err, ErrBadInput) {
		t.Fatalf("rank 3 of a lone side: %v", err)
	}
}

func TestRateMatchTeams(t *testing.T) {
	m := Default()
	d := testData()
	known := Rating{25, 1e-3}
	x := Match{Game: "traitors", Key: "mode=suspicion", Family: Team, Sides: []Side{
		{Role: "guards", Players: []Rating{known}, Rank: 1},
		{Role: "prisoners", Players: repeat(known, 3), Rank: 2},
	}}
	p, err := m.Chances(d, x)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(p[0]-70.5/100) > 1e-3 {
		t.Fatalf("equal players: the Guard's chance is %.4f, the baseline 70.5%%", p[0])
	}
	// The trap, once more: without handicaps and means, four equal players
	// would make the three Prisoners near-certain winners.
	n := m.New()
	x.Sides[0].Players, x.Sides[1].Players = []Rating{n}, repeat(n, 3)
	out, err := m.RateMatch(d, x)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 2 || len(out[0]) != 1 || len(out[1]) != 3 {
		t.Fatalf("shape %v", out)
	}
	guard, prisoner := out[0][0].Mu-n.Mu, out[1][0].Mu-n.Mu
	if guard <= 0 || prisoner >= 0 || math.Abs(guard+3*prisoner) > 1e-9 {
		t.Fatalf("the Guard won %.4f, each Prisoner %.4f", guard, prisoner)
	}
	// The Guard was expected to win: a win pays less than a loss costs.
	x.Sides[0].Rank, x.Sides[1].Rank = 2, 1
	out2, _ := m.RateMatch(d, x)
	if lost := n.Mu - out2[0][0].Mu; lost <= guard {
		t.Fatalf("the favoured Guard wins %.4f and loses %.4f", guard, lost)
	}
	// Sides given in the other order, the same ratings.
	x.Sides[0], x.Sides[1] = x.Sides[1], x.Sides[0]
	out3, _ := m.RateMatch(d, x)
	if out3[1][0] != out2[0][0] || out3[0][2] != out2[1][2] {
		t.Fatalf("the order of the sides changed the result: %v against %v", out3, out2)
	}
	// A Suspicion game dealt without a Guard: the Prisoners against a
	// benchmark.
	alone := Match{Game: "traitors", Key: "mode=suspicion", Family: Team, Sides: []Side{{Role: "prisoners", Players: repeat(n, 4), Rank: 2}}}
	lone, err := m.RateMatch(d, alone)
	if err != nil || len(lone) != 1 || len(lone[0]) != 4 || lone[0][0].Mu >= n.Mu {
		t.Fatalf("no Guard, Prisoners lost: %v %v", lone, err)
	}
}

func TestDataHas(t *testing.T) {
	d := testData()
	for _, c := range []struct {
		game, key string
		players   int
		want      bool
	}{
		{"traitors", "mode=suspicion", 4, true},
		{"traitors", "mode=suspicion", 5, false},
		{"coopgame", "difficulty=normal", 3, true},
		{"coopgame", "difficulty=expert", 3, false},
	} {
		if got := d.Has(c.game, c.key, c.players); got != c.want {
			t.Errorf("Has(%s, %q, %d) = %v", c.game, c.key, c.players, got)
		}
	}
	var none *Data
	if none.Has("coopgame", "difficulty=normal", 3) {
		t.Error("nil data has a cell")
	}
}

func TestRateMatchRefusals(t *testing.T) {
	m := Default()
	d := testData()
	n := m.New()
	ffa := Match{Game: "race", Family: FreeForAll, Sides: []Side{{Players: []Rating{n}, Rank: 2}, {Players: []Rating{n}, Rank: 1}}}
	if out, err := m.RateMatch(d, ffa); err != nil || out[1][0].Mu <= n.Mu {
		t.Fatalf("free for all: %v %v", out, err)
	}
	for _, c := range []struct {
		name string
		x    Match
		want error
	}{
		{"an unmeasured variant", Match{Game: "coopgame", Key: "difficulty=expert", Family: Coop, Sides: []Side{{Role: "team", Players: repeat(n, 3), Rank: 1}}}, ErrNotMeasured},
		{"an unmeasured player count", Match{Game: "coopgame", Key: "difficulty=normal", Family: Coop, Sides: []Side{{Role: "team", Players: repeat(n, 2), Rank: 1}}}, ErrNotMeasured},
		{"an unmeasured composition", Match{Game: "traitors", Key: "mode=suspicion", Family: Team, Sides: []Side{
			{Role: "prisoners", Players: repeat(n, 2), Rank: 1}, {Role: "guards", Players: repeat(n, 2), Rank: 2}}}, ErrNotMeasured},
		{"a family the data does not say", Match{Game: "coopgame", Key: "difficulty=normal", Family: Team, Sides: []Side{{Role: "team", Players: repeat(n, 3), Rank: 1}}}, ErrNotMeasured},
		{"no data", Match{Game: "race", Family: Coop, Sides: []Side{{Role: "team", Players: repeat(n, 3), Rank: 1}}}, ErrNotMeasured},
		{"two co-op sides", Match{Game: "coopgame", Key: "difficulty=normal", Family: Coop, Sides: []Side{{Players: []Rating{n}, Rank: 1}, {Players: []Rating{n}, Rank: 2}}}, ErrBadInput},
		{"one free-for-all side", Match{Game: "race", Family: FreeForAll, Sides: []Side{{Players: []Rating{n}, Rank: 1}}}, ErrBadInput},
		{"an unknown family", Match{Game: "race", Family: "duel", Sides: ffa.Sides}, ErrBadInput},
		{"no game", Match{Family: FreeForAll, Sides: ffa.Sides}, ErrBadInput},
		{"two sides of one role", Match{Game: "traitors", Key: "mode=suspicion", Family: Team, Sides: []Side{
			{Role: "guards", Players: repeat(n, 1), Rank: 1}, {Role: "guards", Players: repeat(n, 3), Rank: 2}}}, ErrBadInput},
		{"an empty side", Match{Game: "traitors", Key: "mode=suspicion", Family: Team, Sides: []Side{
			{Role: "guards", Rank: 1}, {Role: "prisoners", Players: repeat(n, 3), Rank: 2}}}, ErrBadInput},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := m.RateMatch(d, c.x); !errors.Is(err, c.want) {
				t.Fatalf("RateMatch: %v, want %v", err, c.want)
			}
			if _, err := m.Chances(d, c.x); !errors.Is(err, c.want) && !(c.name == "rank") {
				t.Fatalf("Chances: %v, want %v", err, c.want)
			}
		})
	}
	var none *Data
	if _, err := m.RateMatch(none, Match{Game: "coopgame", Key: "difficulty=normal", Family: Coop, Sides: []Side{{Role: "team", Players: repeat(n, 3), Rank: 1}}}); !errors.Is(err, ErrNotMeasured) {
		t.Fatalf("nil data: %v", err)
	}
}

func TestReadData(t *testing.T) {
	good := `{"cells": [
		{"game": "coopgame", "key": "", "family": "coop", "players": 2, "games": 10,
		 "sides": [{"role": "team", "size": 2, "wins": 7, "points": 7, "rate": {"p": 0.7, "lo": 0.39, "hi": 0.89}}],
		 "bots": "hard", "command": "sortie lab baselines coopgame", "date": "2026-11-28"}]}`
	if _, err := ReadData(strings.NewReader(good)); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, from, to, want string }{
		{"not JSON", `"cells": [`, `"cells": {`, "rating data"},
		{"an unknown field", `"bots"`, `"robots"`, "unknown field"},
		{"no command", `"command": "sortie lab baselines coopgame"`, `"command": ""`, "command"},
		{"no games", `"games": 10`, `"games": 0`, "no games"},
		{"seats left empty", `"size": 2`, `"size": 1`, "hold 1 seats"},
		{"more wins than games", `"wins": 7, "points": 7`, `"wins": 11, "points": 11`, "11 wins"},
		{"points under wins", `"points": 7`, `"points": 6`, "6 points"},
		{"an unknown family", `"family": "coop"`, `"family": "duel"`, "family"},
		{"two co-op sides", `"sides": [`, `"sides": [{"role": "x", "size": 1, "wins": 0, "points": 0},`, "2 sides"},
	} {
		t.Run(c.name, func(t *testing.T) {
			bad := strings.Replace(good, c.from, c.to, 1)
			if bad == good {
				t.Fatal("the test changes nothing")
			}
			_, err := ReadData(strings.NewReader(bad))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("got %v, want an error about %q", err, c.want)
			}
		})
	}
	twice := strings.Replace(good, `}]}`, `}, {"game": "coopgame", "key": "", "family": "coop", "players": 2, "games": 3, "sides": [{"role": "team", "size": 2, "wins": 1, "points": 1}], "bots": "hard", "command": "x", "date": "2026-11-28"}]}`, 1)
	if _, err := ReadData(strings.NewReader(twice)); err == nil || !strings.Contains(err.Error(), "measured twice") {
		t.Fatalf("a cell measured twice: %v", err)
	}
}

func TestMeasuredDataIsValid(t *testing.T) {
	for _, c := range Measured().Cells {
		if c.Bots != "hard" {
			t.Errorf("%s %q at %d players was measured with %q bots", c.Game, c.Key, c.Players, c.Bots)
		}
	}
}

// A co-op team is as strong as its mean member: six players a little
// above the anchor are given the chance two such players are (the
// benchmark holds what the size does), where a sum would all but promise
// them success; a single weak member pulls the team down by its share.
func TestCoopTeamsByTheirMean(t *testing.T) {
	m := Default()
	above := Rating{m.Anchor + 3, 2}
	chance := func(m Model, team []Rating) float64 {
		b, err := m.Benchmark(0.5, len(team))
		if err != nil {
			t.Fatal(err)
		}
		p, err := m.WinChances([]Side{{Players: team}, {Players: repeat(b, len(team))}}, m.coopStrength())
		if err != nil {
			t.Fatal(err)
		}
		return p[0]
	}
	two, six := chance(m, repeat(above, 2)), chance(m, repeat(above, 6))
	if math.Abs(two-six) > 0.01 || two < 0.6 || two > 0.75 {
		t.Errorf("by the mean: two players above the anchor %.3f, six %.3f", two, six)
	}
	weak := append(repeat(above, 5), Rating{m.Anchor - 18, 2})
	if p := chance(m, weak); p >= 0.5 {
		t.Errorf("five players above the anchor and one far below: %.3f", p)
	}
	sum := m
	sum.CoopSum = true
	if p := chance(sum, repeat(above, 6)); p < 0.9 {
		t.Errorf("summed, six players above the anchor: %.3f (the sum counts each one's skill again)", p)
	}
}
