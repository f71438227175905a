package rating

import (
	"math"
)

// Handicaps returns the handicap in μ of each side of an asymmetric match
// from the sides' baseline chances of winning (between equally skilled
// players, as the lab measures them with hard bots on every seat). The
// handicaps add up to zero: only their differences count.
//
// Two sides of equally skilled, perfectly known players (σ = 0) are
// predicted to win with Φ((h_1 − h_2) / (√2·β)) (see [Model.WinChances]);
// the handicaps are the offsets that make that prediction the baseline,
// h_1 − h_2 = √2·β·Φ⁻¹(w_1). More sides are solved for numerically.
// Rates must lie strictly between 0 and 1 (the lab's estimates do); they
// are scaled to add up to one.
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
	if len(w) == 2 {
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
// sides are summed (the paper's teams, as the reference figures have it).
// A team of n established players (σ = 0) of μ = m.Anchor is predicted to
// succeed with Φ(n(Anchor − μ_b) / √(2β² + n·σ_b²)); μ_b is where that is
// the hard bots' rate. So a team as good as the hard bots neither gains nor
// loses on average whatever the difficulty and the team's size, and a
// harder variant costs a losing team less and pays a winning one more.
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
	spread := math.Sqrt(2*m.Beta*m.Beta + float64(n)*sb*sb)
	return Rating{Mu: m.Anchor - phiInv(success)*spread/float64(n), Sigma: sb}, nil
}
