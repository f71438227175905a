package rating

import (
	"errors"
	"math"
	"slices"
	"testing"
)

const tol = 1e-3

func near(a, b float64) bool { return math.Abs(a-b) <= tol }

// players makes a side's players from (μ, σ) pairs.
func players(ms ...float64) []Rating {
	var out []Rating
	for i := 0; i+1 < len(ms); i += 2 {
		out = append(out, Rating{ms[i], ms[i+1]})
	}
	return out
}

func repeat(r Rating, n int) []Rating {
	out := make([]Rating, n)
	for i := range out {
		out[i] = r
	}
	return out
}

// TestReferenceFigures holds the model to the figures of the reference
// implementation (openskill 5.0.1, Plackett–Luce) in shared/players.md.
func TestReferenceFigures(t *testing.T) {
	m := Default()
	n := m.New()
	bench := Rating{30, 1}
	for _, c := range []struct {
		name  string
		sides []Side
		want  [][]Rating
	}{
		{
			"4 new players, A > B > C > D",
			[]Side{{Players: []Rating{n}, Rank: 1}, {Players: []Rating{n}, Rank: 2}, {Players: []Rating{n}, Rank: 3}, {Players: []Rating{n}, Rank: 4}},
			[][]Rating{players(27.7953, 8.2636), players(26.5529, 8.1796), players(24.6894, 8.0841), players(20.9624, 8.0841)},
		},
		{
			"2 vs 2, team 1 wins",
			[]Side{
				{Players: players(25, 8.333, 32.444, 5.123), Rank: 1},
				{Players: players(43.381, 2.421, 25.188, 6.211), Rank: 2},
			},
			[][]Rating{players(28.6697, 8.0719, 33.8311, 5.0634), players(43.0709, 2.4181, 23.1493, 6.1384)},
		},
		{
			"co-op: 3 new players beat a benchmark of 3 × (30, 1)",
			[]Side{{Players: repeat(n, 3), Rank: 1}, {Players: repeat(bench, 3), Rank: 2}},
			[][]Rating{repeat(Rating{28.1980, 8.1138}, 3), repeat(Rating{29.9536, 1.0034}, 3)},
		},
		{
			"co-op: 3 new players lose to a benchmark of 3 × (30, 1)",
			[]Side{{Players: repeat(n, 3), Rank: 2}, {Players: repeat(bench, 3), Rank: 1}},
			[][]Rating{repeat(Rating{23.7708, 8.1138}, 3), repeat(Rating{30.0178, 1.0034}, 3)},
		},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := m.Rate(c.sides, Sum)
			if err != nil {
				t.Fatal(err)
			}
			for i := range c.want {
				for j, w := range c.want[i] {
					g := got[i][j]
					if !near(g.Mu, w.Mu) || !near(g.Sigma, w.Sigma) {
						t.Errorf("side %d player %d: got (%.4f, %.4f), want (%.4f, %.4f)", i, j, g.Mu, g.Sigma, w.Mu, w.Sigma)
					}
				}
			}
		})
	}
	for _, c := range []struct {
		name  string
		sides []Side
		want  []float64
	}{
		{"3 new players vs 3 × (30, 1)", []Side{{Players: repeat(n, 3)}, {Players: repeat(bench, 3)}}, []float64{0.1695, 0.8305}},
		{"the trap: 4 new players vs 2 new players", []Side{{Players: repeat(n, 4)}, {Players: repeat(n, 2)}}, []float64{0.9907, 0.0093}},
	} {
		t.Run("win chances: "+c.name, func(t *testing.T) {
			ref := m
			ref.Thurstone = true // the reference implementation's predict_win
			got, err := ref.WinChances(c.sides, Sum)
			if err != nil {
				t.Fatal(err)
			}
			for i := range c.want {
				if !near(got[i], c.want[i]) {
					t.Errorf("got %.4f, want %.4f", got, c.want)
				}
			}
		})
	}
}

// The trap disappears when sides are compared by their mean: four new
// players and two new players are even.
func TestMeanSidesAvoidTheTrap(t *testing.T) {
	m := Default()
	n := m.New()
	got, err := m.WinChances([]Side{{Players: repeat(n, 4)}, {Players: repeat(n, 2)}}, Mean)
	if err != nil {
		t.Fatal(err)
	}
	if !near(got[0], 0.5) {
		t.Fatalf("4 new vs 2 new by their mean: %.4f, want 0.5", got)
	}
}

// Under Mean, a lone player against three moves three times as far as each
// of the three, and the changes balance: the side's mean moves as the
// lone player does, the other way.
func TestMeanSidesShareTheChange(t *testing.T) {
	m := Default()
	n := m.New()
	out, err := m.Rate([]Side{{Players: repeat(n, 3), Rank: 2}, {Players: []Rating{n}, Rank: 1}}, Mean)
	if err != nil {
		t.Fatal(err)
	}
	three, one := out[0][0].Mu-n.Mu, out[1][0].Mu-n.Mu
	if three >= 0 || one <= 0 {
		t.Fatalf("the losers moved %.4f, the winner %.4f", three, one)
	}
	if !near(3*three+one, 0) {
		t.Fatalf("3 × %.4f + %.4f is not 0", three, one)
	}
	if out[0][0].Sigma <= out[1][0].Sigma {
		t.Fatalf("each of the three learned more (σ %.4f) than the lone player (σ %.4f)", out[0][0].Sigma, out[1][0].Sigma)
	}
}

// A tie between equals moves no μ, and teaches the model something.
func TestTieBetweenEquals(t *testing.T) {
	m := Default()
	n := m.New()
	out, err := m.Rate([]Side{{Players: []Rating{n}, Rank: 1}, {Players: []Rating{n}, Rank: 1}}, Sum)
	if err != nil {
		t.Fatal(err)
	}
	for i := range out {
		if !near(out[i][0].Mu, n.Mu) || out[i][0].Sigma >= n.Sigma {
			t.Fatalf("side %d after a tie: %+v", i, out[i][0])
		}
	}
	// Ranks 1, 1, 3 and 1, 1, 2 are the same ranking.
	a, _ := m.Rate([]Side{{Players: []Rating{n}, Rank: 1}, {Players: []Rating{n}, Rank: 1}, {Players: []Rating{n}, Rank: 3}}, Sum)
	b, _ := m.Rate([]Side{{Players: []Rating{n}, Rank: 1}, {Players: []Rating{n}, Rank: 1}, {Players: []Rating{n}, Rank: 2}}, Sum)
	for i := range a {
		if a[i][0] != b[i][0] {
			t.Fatalf("ranks 1,1,3 and 1,1,2 differ at side %d: %+v, %+v", i, a[i][0], b[i][0])
		}
	}
}

// More than two sides, in both forms: equals are even, the strongest is
// the favourite, and the model's own chances are its Plackett–Luce
// first-place probabilities.
func TestWinChancesOfSeveralSides(t *testing.T) {
	n := Default().New()
	field := []Side{{Players: []Rating{{20, 2}}}, {Players: []Rating{{32, 2}}}, {Players: []Rating{{25, 2}}}, {Players: []Rating{{25, 8}}}}
	for _, thurstone := range []bool{false, true} {
		m := Default()
		m.Thurstone = thurstone
		p, err := m.WinChances([]Side{{Players: []Rating{n}}, {Players: []Rating{n}}, {Players: []Rating{n}}}, Sum)
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range p {
			if math.Abs(x-1.0/3) > 1e-6 {
				t.Fatalf("Thurstone %v, three equals: %v", thurstone, p)
			}
		}
		four, _ := m.WinChances(field, Sum)
		if slices.Index(four, slices.Max(four)) != 1 || math.Abs(four[0]+four[1]+four[2]+four[3]-1) > 1e-9 {
			t.Fatalf("Thurstone %v, four sides: %v", thurstone, four)
		}
	}
	m := Default()
	four, _ := m.WinChances(field, Sum)
	c := math.Sqrt(3*(4+m.Beta*m.Beta) + 64 + m.Beta*m.Beta)
	den := math.Exp(20/c) + math.Exp(32/c) + 2*math.Exp(25/c)
	if math.Abs(four[1]-math.Exp(32/c)/den) > 1e-12 {
		t.Fatalf("the favourite's chance %v, Plackett–Luce's %v", four[1], math.Exp(32/c)/den)
	}
	// The Thurstone form: a side that can never win leaves the other two
	// as the closed form has them.
	m.Thurstone = true
	a, b := Rating{30, 3}, Rating{24, 5}
	two, _ := m.WinChances([]Side{{Players: []Rating{a}}, {Players: []Rating{b}}}, Sum)
	three, _ := m.WinChances([]Side{{Players: []Rating{a}}, {Players: []Rating{b}}, {Players: []Rating{{-500, 1}}}}, Sum)
	if math.Abs(two[0]-three[0]) > 1e-6 || math.Abs(two[1]-three[1]) > 1e-6 || three[2] > 1e-9 {
		t.Fatalf("two sides %v, with a hopeless third %v", two, three)
	}
}

// The model's own chances for two sides are the logistic of the gap over
// c, the scale of its update; the reference's are steeper.
func TestTwoSidesChances(t *testing.T) {
	m := Default()
	a, b := Rating{30, 3}, Rating{24, 5}
	c := math.Sqrt(2*m.Beta*m.Beta + 9 + 25)
	p, _ := m.WinChances([]Side{{Players: []Rating{a}}, {Players: []Rating{b}}}, Sum)
	if want := 1 / (1 + math.Exp(-6/c)); math.Abs(p[0]-want) > 1e-12 {
		t.Fatalf("got %v, want %v", p[0], want)
	}
	m.Thurstone = true
	q, _ := m.WinChances([]Side{{Players: []Rating{a}}, {Players: []Rating{b}}}, Sum)
	if q[0] <= p[0] {
		t.Fatalf("the Thurstone form (%v) is not steeper than the model's own (%v)", q[0], p[0])
	}
}

// Bad input is refused with ErrBadInput, and changes nothing.
func TestBadInput(t *testing.T) {
	m := Default()
	n := m.New()
	for _, c := range []struct {
		name  string
		sides []Side
	}{
		{"no side", nil},
		{"one side", []Side{{Players: []Rating{n}, Rank: 1}}},
		{"an empty side", []Side{{Players: []Rating{n}, Rank: 1}, {Rank: 2}}},
		{"rank 0", []Side{{Players: []Rating{n}, Rank: 0}, {Players: []Rating{n}, Rank: 1}}},
		{"σ 0", []Side{{Players: []Rating{{25, 0}}, Rank: 1}, {Players: []Rating{n}, Rank: 2}}},
		{"μ NaN", []Side{{Players: []Rating{{math.NaN(), 1}}, Rank: 1}, {Players: []Rating{n}, Rank: 2}}},
		{"σ +Inf", []Side{{Players: []Rating{{25, math.Inf(1)}}, Rank: 1}, {Players: []Rating{n}, Rank: 2}}},
		{"handicap NaN", []Side{{Players: []Rating{n}, Rank: 1, Handicap: math.NaN()}, {Players: []Rating{n}, Rank: 2}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := clone(c.sides)
			if _, err := m.Rate(c.sides, Sum); !errors.Is(err, ErrBadInput) {
				t.Fatalf("Rate: %v", err)
			}
			if !equalSides(before, c.sides) {
				t.Fatal("Rate changed its input")
			}
		})
	}
	if _, err := (Model{}).Rate([]Side{{Players: []Rating{n}, Rank: 1}, {Players: []Rating{n}, Rank: 2}}, Sum); !errors.Is(err, ErrBadInput) {
		t.Fatalf("the zero Model rated a match: %v", err)
	}
	if _, err := m.Rate([]Side{{Players: []Rating{n}, Rank: 1}, {Players: []Rating{n}, Rank: 2}}, Strength(7)); !errors.Is(err, ErrBadInput) {
		t.Fatalf("an unknown strength: %v", err)
	}
}

func clone(sides []Side) []Side {
	out := slices.Clone(sides)
	for i := range out {
		out[i].Players = slices.Clone(out[i].Players)
	}
	return out
}

func equalSides(a, b []Side) bool {
	return slices.EqualFunc(a, b, func(x, y Side) bool {
		return x.Rank == y.Rank && x.Role == y.Role && (x.Handicap == y.Handicap || x.Handicap != x.Handicap) &&
			slices.EqualFunc(x.Players, y.Players, func(p, q Rating) bool {
				return (p.Mu == q.Mu || p.Mu != p.Mu) && (p.Sigma == q.Sigma || p.Sigma != p.Sigma)
			})
	})
}

func TestDisplayAndUncertainty(t *testing.T) {
	m := Default()
	n := m.New()
	if !near(n.Display(), 0) || !m.IsUncertain(n) {
		t.Fatalf("a new player shows %.4f, uncertain %v", n.Display(), m.IsUncertain(n))
	}
	r := Rating{30, 2}
	if !near(r.Display(), 24) || m.IsUncertain(r) {
		t.Fatalf("(30, 2) shows %.4f, uncertain %v", r.Display(), m.IsUncertain(r))
	}
	// A co-op player whose teams keep failing: μ under 3σ shows 0.
	if low := (Rating{12, 4.5}); low.Display() != 0 {
		t.Fatalf("(12, 4.5) shows %.4f, want 0", low.Display())
	}
	// Twenty two-player matches against new players, won and lost in turn,
	// make a rating certain; ten do not.
	a, b := n, n
	for g := range 20 {
		out, err := m.Rate([]Side{{Players: []Rating{a}, Rank: 1 + g%2}, {Players: []Rating{b}, Rank: 2 - g%2}}, Sum)
		if err != nil {
			t.Fatal(err)
		}
		a, b = out[0][0], out[1][0]
		if g == 9 && !m.IsUncertain(a) {
			t.Fatalf("certain after 10 matches: σ %.3f", a.Sigma)
		}
	}
	if m.IsUncertain(a) {
		t.Fatalf("still uncertain after 20 matches: σ %.3f", a.Sigma)
	}
}
