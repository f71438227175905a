package rating

import (
	"errors"
	"fmt"
	"math"
)

// Rating is what the model believes of one player's skill: a normal
// distribution of mean Mu and standard deviation Sigma.
type Rating struct {
	Mu    float64 `json:"mu"`
	Sigma float64 `json:"sigma"`
}

// Display is the rating shown to people: μ − 3σ, a skill the player has
// with about 99.9% certainty, so that it rises as the model learns; never
// below 0, what a newcomer shows (a co-op team that keeps failing pulls
// μ under 3σ, and a negative rating says nothing more to a player).
func (r Rating) Display() float64 { return max(0, r.Mu-3*r.Sigma) }

// Model holds the model's parameters. The zero value is not usable: start
// from [Default].
type Model struct {
	// Mu0 and Sigma0 are a new player's rating.
	Mu0, Sigma0 float64
	// Beta is the spread of one match's performance around a skill: two
	// perfectly known sides whose strengths differ by d win with chance
	// Φ(d / (√2·Beta)).
	Beta float64
	// Kappa is the floor of the factor by which an update may shrink a
	// variance (the paper's κ), so that σ stays positive.
	Kappa float64
	// Tau is the dynamics: before each update a rating's σ grows to
	// √(σ² + τ²), so that the model keeps following a player who
	// improves or declines instead of freezing after many matches.
	Tau float64
	// Uncertain is the σ above which a rating is shown as uncertain ("?")
	// and kept off leaderboards.
	Uncertain float64
	// Anchor is the μ of an established player who does what the lab's
	// hard bots do, in the games with a benchmark (co-op): the benchmark
	// team of a variant is as strong as such players need it to be to
	// succeed as often as hard bots did (see [Model.Benchmark]).
	Anchor float64
	// BenchmarkSigma is the σ of each member of a benchmark team.
	BenchmarkSigma float64
	// Thurstone makes the chances before a match those of the reference
	// implementation (openskill's predict_win): each side performs its
	// strength plus a normal noise of variance β², and wins when it
	// performs best. By default they are the model's own, Plackett–Luce's,
	// which its updates are fitted to (see [Model.WinChances]). Handicaps
	// and benchmarks follow the same form.
	Thurstone bool
	// CoopSum compares a co-op team with its benchmark by the sum of their
	// members, as the paper's teams and the reference figures do, instead
	// of by their mean member (see [Model.Benchmark]). The lab measures
	// the sum worse calibrated (docs/ratings.md); it is kept to compare.
	CoopSum bool
}

// Default returns the model's defaults: μ₀ = 25, σ₀ = 25/3, β = σ₀/2,
// κ = 0.0001, τ = σ₀/100, uncertain above σ = 5, co-op anchor μ₀ and a
// benchmark σ of 1 (see the package documentation for why).
func Default() Model {
	return Model{
		Mu0: 25, Sigma0: 25.0 / 3, Beta: 25.0 / 6, Kappa: 0.0001, Tau: 25.0 / 300,
		Uncertain: 5, Anchor: 25, BenchmarkSigma: 1,
	}
}

// New returns a new player's rating.
func (m Model) New() Rating { return Rating{Mu: m.Mu0, Sigma: m.Sigma0} }

// IsUncertain reports whether r is still too uncertain to be ranked: its
// σ is above m.Uncertain.
func (m Model) IsUncertain(r Rating) bool { return r.Sigma > m.Uncertain }

// Side is one side of a match: the players who won or lost together (one
// player in a free-for-all), where the side finished, and what it is
// given for its role.
type Side struct {
	// Role names the side's part in an asymmetric game ("prisoners",
	// "guards"); [Model.RateMatch] reads it to find the side's handicap.
	Role string `json:"role,omitempty"`
	// Players are the side's members.
	Players []Rating `json:"players"`
	// Rank is where the side finished, 1 for the best; equal ranks tie.
	Rank int `json:"rank"`
	// Handicap is added to the side's strength, in μ (see [Handicaps]).
	Handicap float64 `json:"handicap,omitempty"`
}

// Strength says how a side's members make its strength.
type Strength int

const (
	// Sum is the paper's team strength: the sum of the members' skills.
	// It is right where sides have the same size, or one player each.
	Sum Strength = iota
	// Mean is the mean of the members' skills: sides of different sizes
	// compared by their mean player, as the asymmetric games need (three
	// Prisoners against one Guard is not three against one).
	Mean
)

// ErrBadInput is wrapped by every error about a match that cannot be
// rated as given.
var ErrBadInput = errors.New("rating: bad input")

func badInput(format string, a ...any) error {
	return fmt.Errorf("%w: "+format, append([]any{ErrBadInput}, a...)...)
}

// check refuses sides the model cannot rate.
// Ranks are checked only when ranked: they mean nothing before a match.
func (m Model) check(sides []Side, by Strength, ranked bool) error {
	if m.Beta <= 0 || m.Kappa <= 0 || m.Tau < 0 {
		return badInput("the model needs β > 0, κ > 0 and τ ≥ 0 (start from Default)")
	}
	if by != Sum && by != Mean {
		return badInput("unknown strength %d", by)
	}
	if len(sides) < 2 {
		return badInput("a match needs at least two sides, got %d", len(sides))
	}
	for i, s := range sides {
		if len(s.Players) == 0 {
			return badInput("side %d has no player", i)
		}
		if ranked && s.Rank < 1 {
			return badInput("side %d has rank %d; ranks start at 1", i, s.Rank)
		}
		if math.IsNaN(s.Handicap) || math.IsInf(s.Handicap, 0) {
			return badInput("side %d has handicap %v", i, s.Handicap)
		}
		for j, p := range s.Players {
			if math.IsNaN(p.Mu) || math.IsInf(p.Mu, 0) || !(p.Sigma > 0) || math.IsInf(p.Sigma, 0) {
				return badInput("side %d, player %d: rating (%v, %v) needs a finite μ and σ > 0", i, j, p.Mu, p.Sigma)
			}
		}
	}
	return nil
}

// weight is a member's share of its side's strength.
func weight(n int, by Strength) float64 {
	if by == Mean {
		return 1 / float64(n)
	}
	return 1
}

// strength returns a side's strength: its mean (the members' weighted
// means plus the handicap) and its variance, with each member's σ² grown
// by tau².
func strength(s Side, by Strength, tau2 float64) (mu, v float64) {
	w := weight(len(s.Players), by)
	for _, p := range s.Players {
		mu += w * p.Mu
		v += w * w * (p.Sigma*p.Sigma + tau2)
	}
	return mu + s.Handicap, v
}

// Rate returns every player's rating after the match, side by side and
// player by player as given: Algorithm 4 of Weng and Lin (the
// Plackett–Luce model), with each member's share of its side's strength
// given by by. Bad input gives an error wrapping [ErrBadInput].
//
// Each side's strength θ_i is a normal of mean μ_i and variance σ_i²
// (see [Strength]); c² = Σ_i (σ_i² + β²). The ranking's Plackett–Luce
// likelihood, with p_{i,q} = e^{μ_i/c} / Σ_{s: r_s ≥ r_q} e^{μ_s/c}, gives
// each side
//
//	Ω_i = σ_i²/c · Σ_{q: r_q ≤ r_i} (1[q = i] − p_{i,q}) / A_q
//	Δ_i = γ_i σ_i²/c² · Σ_{q: r_q ≤ r_i} p_{i,q}(1 − p_{i,q}) / A_q,  γ_i = σ_i/c
//
// where A_q counts the sides tied with q. A member j of weight w_j moves
// by the share of the side's change its own variance carries:
// μ_j += w_j σ_j²/σ_i² · Ω_i and σ_j² *= max(1 − w_j² σ_j²/σ_i² · Δ_i, κ)
// (the paper's update is w_j = 1).
func (m Model) Rate(sides []Side, by Strength) ([][]Rating, error) {
	if err := m.check(sides, by, true); err != nil {
		return nil, err
	}
	tau2 := m.Tau * m.Tau
	k := len(sides)
	mu := make([]float64, k)
	v := make([]float64, k)
	c2 := 0.0
	for i, s := range sides {
		mu[i], v[i] = strength(s, by, tau2)
		c2 += v[i] + m.Beta*m.Beta
	}
	c := math.Sqrt(c2)
	// e_i = exp((μ_i − max μ)/c): the common factor cancels in every p.
	top := math.Inf(-1)
	for _, x := range mu {
		top = max(top, x)
	}
	e := make([]float64, k)
	for i := range mu {
		e[i] = math.Exp((mu[i] - top) / c)
	}
	sum := make([]float64, k) // Σ e_s over the sides ranked no better than q
	tied := make([]float64, k)
	for q, sq := range sides {
		for s, ss := range sides {
			if ss.Rank >= sq.Rank {
				sum[q] += e[s]
			}
			if ss.Rank == sq.Rank {
				tied[q]++
			}
		}
	}
	out := make([][]Rating, k)
	for i, si := range sides {
		omega, delta := 0.0, 0.0
		for q, sq := range sides {
			if sq.Rank > si.Rank {
				continue
			}
			p := e[i] / sum[q]
			if q == i {
				omega += (1 - p) / tied[q]
			} else {
				omega -= p / tied[q]
			}
			delta += p * (1 - p) / tied[q]
		}
		omega *= v[i] / c
		gamma := math.Sqrt(v[i]) / c
		delta *= gamma * v[i] / c2
		w := weight(len(si.Players), by)
		out[i] = make([]Rating, len(si.Players))
		for j, p := range si.Players {
			vj := p.Sigma*p.Sigma + tau2
			share := w * vj / v[i]
			out[i][j] = Rating{
				Mu:    p.Mu + share*omega,
				Sigma: math.Sqrt(vj * max(1-w*share*delta, m.Kappa)),
			}
		}
	}
	return out, nil
}

// WinChances returns each side's chance of finishing first, before the
// match (ranks are ignored). Bad input gives an error wrapping
// [ErrBadInput]. Ratings are taken as they are (τ is not added: nothing
// has happened yet).
//
// The chances are the Plackett–Luce model's own, the one the updates
// fit: side i finishes first with e^{μ_i/c} / Σ_s e^{μ_s/c}, c as in
// [Model.Rate] (two sides: the logistic of (μ_1 − μ_2)/c). An update moves
// a side's μ by its result minus this chance, so once ratings have settled
// these chances match how often sides win. With m.Thurstone they are the
// reference implementation's instead: each side performs its strength
// plus a normal noise of variance β², two sides win with
// Φ((μ_1 − μ_2) / √(2β² + σ_1² + σ_2²)), more with the chance that each
// performs best, integrated numerically. That form is steeper than the
// one the updates fit (Φ(x) against the logistic of x), so it is
// overconfident once ratings have settled; docs/ratings.md measures both.
func (m Model) WinChances(sides []Side, by Strength) ([]float64, error) {
	if err := m.check(sides, by, false); err != nil {
		return nil, err
	}
	mu := make([]float64, len(sides))
	sd := make([]float64, len(sides))
	for i, s := range sides {
		var v float64
		mu[i], v = strength(s, by, 0)
		sd[i] = math.Sqrt(v + m.Beta*m.Beta)
	}
	if m.Thurstone {
		return firstChances(mu, sd), nil
	}
	return plackettLuceFirst(mu, sd), nil
}

// plackettLuceFirst returns each side's Plackett–Luce chance of finishing
// first, for strengths mu whose performances spread by sd: e^{μ_i/c} /
// Σ_s e^{μ_s/c} with c² = Σ sd².
func plackettLuceFirst(mu, sd []float64) []float64 {
	c2, top := 0.0, math.Inf(-1)
	for i := range mu {
		c2 += sd[i] * sd[i]
		top = max(top, mu[i])
	}
	c := math.Sqrt(c2)
	out := make([]float64, len(mu))
	total := 0.0
	for i := range mu {
		out[i] = math.Exp((mu[i] - top) / c)
		total += out[i]
	}
	for i := range out {
		out[i] /= total
	}
	return out
}
