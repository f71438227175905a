package engine

import (
	"math/bits"
	"math/rand/v2"
)

// RNG is the random generator a state holds: a PCG from math/rand/v2, kept by
// value so that copying the state (Clone) copies the generator's position too.
// Its zero value is a valid generator; use [NewRNG] to seed one.
type RNG struct {
	pcg rand.PCG
}

// NewRNG returns a generator seeded from a match seed.
func NewRNG(seed uint64) RNG {
	return RNG{pcg: *rand.NewPCG(seed, Mix(seed, 0x5eed))}
}

// Uint64 returns 64 random bits.
func (r *RNG) Uint64() uint64 { return r.pcg.Uint64() }

// IntN returns a uniform number in [0, n). It panics if n <= 0.
func (r *RNG) IntN(n int) int {
	if n <= 0 {
		panic("engine: RNG.IntN with n <= 0")
	}
	// Lemire's multiply-and-reject: unbiased, and one multiplication in the
	// common case.
	un := uint64(n)
	hi, lo := bits.Mul64(r.pcg.Uint64(), un)
	if lo < un {
		thresh := -un % un
		for lo < thresh {
			hi, lo = bits.Mul64(r.pcg.Uint64(), un)
		}
	}
	return int(hi)
}

// Shuffle puts n items in a uniform random order by Fisher–Yates, calling
// swap(i, j) to exchange two of them, from the last item down.
func (r *RNG) Shuffle(n int, swap func(i, j int)) {
	for i := n - 1; i > 0; i-- {
		swap(i, r.IntN(i+1))
	}
}

// Rand returns a *rand.Rand that draws from (and advances) this generator. It
// allocates; hot paths should use the methods of RNG directly.
func (r *RNG) Rand() *rand.Rand { return rand.New(&r.pcg) }

// Mix derives an independent 64-bit value from a seed and a salt (SplitMix64
// finalizer), for example a bot's own seed from the match seed and its seat.
func Mix(seed, salt uint64) uint64 {
	z := seed + 0x9e3779b97f4a7c15*(salt+1)
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}
