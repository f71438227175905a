package plandesecours

import (
	"flag"
	"path/filepath"
	"testing"

	"sortie/engine"
	"sortie/engine/enginetest"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite the recorded games in testdata/golden")

// goldenGames are the recorded games: bots of the given policies play them
// when -update-golden is set; every run replays them.
var goldenGames = []enginetest.GoldenGame{
	{Name: "players2", Setup: engine.Setup{Players: 2, Seed: 11}, Policies: []string{"heuristic", "random"}},
	{Name: "players3_danger", Setup: engine.Setup{Players: 3, Seed: 12, Options: map[string]string{"danger": "true"}}, Policies: []string{"random", "random", "random"}},
	{Name: "players4_danger", Setup: engine.Setup{Players: 4, Seed: 13, Options: map[string]string{"danger": "true"}}, Policies: []string{"heuristic", "random", "heuristic", "random"}},
	{Name: "players5", Setup: engine.Setup{Players: 5, Seed: 14}, Policies: []string{"heuristic", "heuristic", "random", "random", "random"}},
}

// TestGolden replays the recorded games of testdata/golden and checks that
// they end exactly as recorded (see enginetest.Golden).
func TestGolden(t *testing.T) {
	enginetest.Golden(t, Game{}, filepath.Join("testdata", "golden"), goldenGames, *updateGolden)
}
