package rating

import "math"

// phi is the standard normal cumulative distribution Φ.
func phi(x float64) float64 { return 0.5 * math.Erfc(-x/math.Sqrt2) }

// phiInv is Φ⁻¹, for p in (0, 1).
func phiInv(p float64) float64 { return -math.Sqrt2 * math.Erfcinv(2*p) }

// density is the standard normal density φ.
func density(x float64) float64 { return math.Exp(-x*x/2) / math.Sqrt(2*math.Pi) }

// firstChances returns, for normal performances of means mu and standard
// deviations sd, each one's chance of being the highest. Two are compared
// in closed form; more are integrated with Simpson's rule over ±9
// standard deviations of each, which is exact to about 1e-9.
func firstChances(mu, sd []float64) []float64 {
	k := len(mu)
	out := make([]float64, k)
	if k == 2 {
		out[0] = phi((mu[0] - mu[1]) / math.Hypot(sd[0], sd[1]))
		out[1] = 1 - out[0]
		return out
	}
	const steps = 720 // even
	const lo, hi = -9.0, 9.0
	h := (hi - lo) / steps
	total := 0.0
	for i := range k {
		acc := 0.0
		for n := 0; n <= steps; n++ {
			z := lo + float64(n)*h
			f := density(z)
			x := mu[i] + sd[i]*z
			for j := range k {
				if j != i {
					f *= phi((x - mu[j]) / sd[j])
				}
			}
			switch {
			case n == 0 || n == steps:
				acc += f
			case n%2 == 1:
				acc += 4 * f
			default:
				acc += 2 * f
			}
		}
		out[i] = acc * h / 3
		total += out[i]
	}
	for i := range out {
		out[i] /= total
	}
	return out
}
