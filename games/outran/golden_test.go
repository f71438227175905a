package outran

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
	{Name: "bear_players3", Setup: engine.Setup{Players: 3, Seed: 21, Options: map[string]string{"monster": "bear", "exit_boards": "1"}}, Policies: []string{"heuristic", "easy", "hard"}},
	{Name: "vampire_players4", Setup: engine.Setup{Players: 4, Seed: 22, Options: map[string]string{"monster": "vampire"}}, Policies: []string{"easy", "heuristic", "hard", "expert"}},
	{Name: "zombie_players5", Setup: engine.Setup{Players: 5, Seed: 23, Options: map[string]string{"monster": "zombie"}}, Policies: []string{"heuristic", "heuristic", "easy", "hard", "random"}},
	{Name: "dragon_players6", Setup: engine.Setup{Players: 6, Seed: 24, Options: map[string]string{"monster": "dragon", "exit_boards": "3"}}, Policies: []string{"easy", "heuristic", "hard", "expert", "random", "heuristic"}},
	{Name: "bear_players2_slow", Setup: engine.Setup{Players: 2, Seed: 25, Options: map[string]string{"monster": "bear", "exit_boards": "1"}}, Policies: []string{"easy", "easy"}},
}

// TestGolden replays the recorded games of testdata/golden and checks that
// they end exactly as recorded (see enginetest.Golden).
func TestGolden(t *testing.T) {
	enginetest.Golden(t, Game{}, filepath.Join("testdata", "golden"), goldenGames, *updateGolden)
}
