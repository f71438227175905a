package rating

import (
	"math"
)

// Handicaps returns the handicap in μ of each side of an asymmetric match
// from the sides' baseline chances of winning (between equally skilled
// players, as the lab measures them with hard bots on every seat). The
// handicaps add up to zero: only their differences count.
//
// They are the offsets that make the model expect the baseline between
// sides of equally skilled, perfectly known players (σ = 0), both in its
// chances before the match ([Model.WinChances]) and in its update, which
// then moves nobody's μ on average for holding a role. In the model's own
// Plackett–Luce form, with c = √k·β for k sides, side i is expected to win
// e^{h_i/c} / Σ_s e^{h_s/c}, so h_i = c·ln w_i (centred); two sides differ
// by h_1 − h_2 = √2·β·logit(w_1). With m.Thurstone, two sides differ by
// √2·β·Φ⁻¹(w_1), and more are solved for numerically. Rates must lie
// strictly between 0 and 1 (the lab's estimates do); they are scaled to add
// up to one.
func (m Model) Handicaps(rates []float64) ([]float64, error) {
	if m.Beta <= 0 {
		return nil, badInput("the model needs β > 0")
	}
	if len(rates) < 2 {
		return nil, badInput("handicaps need at least two sides, got %d", len(rates))
	}
	total := 0.0
	for i, w := range rates {
		if !(w > 0 && w < 1) {
			return nil, badInput("side %d's baseline win rate %v is not strictly between 0 and 1", i, w)
		}
		total += w
	}
	w := make([]float64, len(rates))
	for i := range rates {
		w[i] = rates[i] / total
	}
	h := make([]float64, len(w))
	switch {
	case !m.Thurstone:
		c := math.Sqrt(float64(len(w))) * m.Beta
		for i := range w {
			h[i] = c * math.Log(w[i])
		}
		centre(h)
		return h, nil
	case len(w) == 2:
		d := math.Sqrt2 * m.Beta * phiInv(w[0])
		h[0], h[1] = d/2, -d/2
		return h, nil
	}
	// Move each handicap by the gap between the wanted and the predicted
	// chance, in the same units, until they agree.
	sd := make([]float64, len(w))
	for i := range sd {
		sd[i] = m.Beta
	}
	for range 200 {
		p := firstChances(h, sd)
		worst := 0.0
		for i := range h {
			gap := phiInv(w[i]) - phiInv(p[i])
			h[i] += m.Beta / math.Sqrt2 * gap
			worst = max(worst, math.Abs(w[i]-p[i]))
		}
		centre(h)
		if worst < 1e-9 {
			break
		}
	}
	return h, nil
}

// coopStrength is how a co-op team and its benchmark are weighed.
func (m Model) coopStrength() Strength {
	if m.CoopSum {
		return Sum
	}
	return Mean
}

// centre shifts xs so that they add up to zero.
func centre(xs []float64) {
	mean := 0.0
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for i := range xs {
		xs[i] -= mean
	}
}

// Benchmark returns the rating of each member of the benchmark team that a
// co-operative team of n players plays against, in a variant where the
// lab's hard bots succeed with chance success.
//
// The benchmark is n members of (μ_b, σ_b), σ_b = m.BenchmarkSigma, and
// both sides are weighed by their mean member. μ_b is set so that a team
// of n established players (σ = 0) of μ = m.Anchor is expected to succeed
// as often as the hard bots did: in the model's own form,
// logistic((Anchor − μ_b)/c) = success with c = √(2β² + σ_b²/n), so
// μ_b = Anchor − c·logit(success) (Φ⁻¹ in place of the logit with
// m.Thurstone). So a team as good as the hard bots neither gains nor loses
// on average whatever the difficulty and the team's size, and a harder
// variant costs a losing team less and pays a winning one more.
//
// The mean, not the paper's sum: the benchmark already holds what the
// team's size does to its chances (it is measured per player count), and
// a sum would count the members' skill again n times over, so that six
// players each a little above the anchor were all but sure to succeed.
// The lab finds the sum over-confident in Room 25's co-operation, and the
// mean better calibrated there and about as good in the Temple
// (docs/ratings.md). With m.CoopSum the sides are summed, as the
// reference figures have it: logistic(n(Anchor − μ_b)/c) = success with
// c = √(2β² + n·σ_b²), μ_b = Anchor − c·logit(success)/n.
func (m Model) Benchmark(success float64, n int) (Rating, error) {
	if m.Beta <= 0 || !(m.BenchmarkSigma > 0) {
		return Rating{}, badInput("the model needs β > 0 and a benchmark σ > 0")
	}
	if n < 1 {
		return Rating{}, badInput("a benchmark team needs at least one member, got %d", n)
	}
	if !(success > 0 && success < 1) {
		return Rating{}, badInput("the success rate %v is not strictly between 0 and 1", success)
	}
	sb := m.BenchmarkSigma
	c := math.Sqrt(2*m.Beta*m.Beta + sb*sb/float64(n))
	gain := 1.0
	if m.CoopSum {
		c = math.Sqrt(2*m.Beta*m.Beta + float64(n)*sb*sb)
		gain = float64(n)
	}
	z := math.Log(success / (1 - success))
	if m.Thurstone {
		z = phiInv(success)
	}
	return Rating{Mu: m.Anchor - z*c/gain, Sigma: sb}, nil
}
