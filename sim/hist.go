package sim

import (
	"math"
	"sort"
)

// Histogram counts whole-number values: actions per game, scores, seconds.
// Its JSON form lists the values seen with their counts, in increasing
// order.
type Histogram struct {
	Bins []Bin `json:"bins"`
}

// Bin is one value of a [Histogram] and how often it was seen.
type Bin struct {
	Value int `json:"value"`
	Count int `json:"count"`
}

// Add counts one more v.
func (h *Histogram) Add(v int) { h.addN(v, 1) }

func (h *Histogram) addN(v, k int) {
	i := sort.Search(len(h.Bins), func(i int) bool { return h.Bins[i].Value >= v })
	if i < len(h.Bins) && h.Bins[i].Value == v {
		h.Bins[i].Count += k
		return
	}
	h.Bins = append(h.Bins, Bin{})
	copy(h.Bins[i+1:], h.Bins[i:])
	h.Bins[i] = Bin{Value: v, Count: k}
}

// Merge adds every count of o.
func (h *Histogram) Merge(o Histogram) {
	for _, b := range o.Bins {
		h.addN(b.Value, b.Count)
	}
}

// N is the number of values counted.
func (h Histogram) N() int {
	n := 0
	for _, b := range h.Bins {
		n += b.Count
	}
	return n
}

// Mean is the mean value, 0 when empty.
func (h Histogram) Mean() float64 {
	n, sum := 0, 0.0
	for _, b := range h.Bins {
		n += b.Count
		sum += float64(b.Value) * float64(b.Count)
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n)
}

// StdDev is the standard deviation of the values, 0 when empty.
func (h Histogram) StdDev() float64 {
	n, m := h.N(), h.Mean()
	if n == 0 {
		return 0
	}
	ss := 0.0
	for _, b := range h.Bins {
		d := float64(b.Value) - m
		ss += d * d * float64(b.Count)
	}
	return math.Sqrt(ss / float64(n))
}

// Quantile returns the smallest value v such that a share q of the values
// are at most v (q = 0.5: the median), 0 when empty.
func (h Histogram) Quantile(q float64) int {
	n := h.N()
	if n == 0 {
		return 0
	}
	need := int(math.Ceil(q * float64(n)))
	seen := 0
	for _, b := range h.Bins {
		seen += b.Count
		if seen >= need {
			return b.Value
		}
	}
	return h.Bins[len(h.Bins)-1].Value
}

// Min and Max are the smallest and largest values seen, 0 when empty.
func (h Histogram) Min() int {
	if len(h.Bins) == 0 {
		return 0
	}
	return h.Bins[0].Value
}

// Max is the largest value seen, 0 when empty.
func (h Histogram) Max() int {
	if len(h.Bins) == 0 {
		return 0
	}
	return h.Bins[len(h.Bins)-1].Value
}
