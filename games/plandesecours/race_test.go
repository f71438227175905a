//go:build race

package plandesecours

// raceEnabled is set when the tests run under the race detector, which makes
// the conformance suite about ten times slower: -race -short plays fewer
// games (the game has no goroutines; the race run checks the suite's own).
const raceEnabled = true
