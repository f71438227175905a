//go:build !race

package plandesecours

// raceEnabled is set when the tests run under the race detector.
const raceEnabled = false
