package room25

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
	{Name: "cooperation4_escape", Setup: engine.Setup{Players: 4, Seed: 13}, Policies: []string{"heuristic", "heuristic", "heuristic", "heuristic"}},
	{Name: "cooperation4_partial", Setup: engine.Setup{Players: 4, Seed: 33}, Policies: []string{"heuristic", "heuristic", "heuristic", "heuristic"}},
	{Name: "cooperation2_random", Setup: engine.Setup{Players: 2, Seed: 12}, Policies: []string{"random", "heuristic"}},
	{Name: "solo_escape", Setup: engine.Setup{Players: 1, Seed: 11}, Policies: []string{"heuristic"}},
	{Name: "suspicion5_alarm_escape", Setup: engine.Setup{Players: 5, Seed: 12, Options: map[string]string{"mode": "suspicion"}}, Policies: []string{"heuristic", "heuristic", "random", "heuristic", "heuristic"}},
	{Name: "competition3", Setup: engine.Setup{Players: 3, Seed: 15, Options: map[string]string{"mode": "competition"}}, Policies: []string{"heuristic", "random", "heuristic"}},
	{Name: "team6_nobeacons", Setup: engine.Setup{Players: 6, Seed: 16, Options: map[string]string{"mode": "team", "beacons": "off"}}, Policies: []string{"heuristic", "random", "heuristic", "random", "heuristic", "random"}},
}

// TestGolden replays the recorded games of testdata/golden and checks that
// they end exactly as recorded (see enginetest.Golden).
func TestGolden(t *testing.T) {
	enginetest.Golden(t, Game{}, filepath.Join("testdata", "golden"), goldenGames, *updateGolden)
}
