package room25

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"sortie/bot"
	"sortie/engine"
	"sortie/sim"
)

var updateGolden = flag.Bool("update-golden", false, "rewrite the recorded games in testdata/golden")

// goldenGames are the recorded games: bots of the given policies play them
// when -update-golden is set; every run replays them.
var goldenGames = []struct {
	name     string
	setup    engine.Setup
	policies []string
}{
	{"cooperation4_escape", engine.Setup{Players: 4, Seed: 13}, []string{"heuristic", "heuristic", "heuristic", "heuristic"}},
	{"cooperation4_partial", engine.Setup{Players: 4, Seed: 33}, []string{"heuristic", "heuristic", "heuristic", "heuristic"}},
	{"cooperation2_random", engine.Setup{Players: 2, Seed: 12}, []string{"random", "heuristic"}},
	{"solo_escape", engine.Setup{Players: 1, Seed: 11}, []string{"heuristic"}},
	{"suspicion5_alarm_escape", engine.Setup{Players: 5, Seed: 12, Options: map[string]string{"mode": "suspicion"}}, []string{"heuristic", "heuristic", "random", "heuristic", "heuristic"}},
	{"competition3", engine.Setup{Players: 3, Seed: 15, Options: map[string]string{"mode": "competition"}}, []string{"heuristic", "random", "heuristic"}},
	{"team6_nobeacons", engine.Setup{Players: 6, Seed: 16, Options: map[string]string{"mode": "team", "beacons": "off"}}, []string{"heuristic", "random", "heuristic", "random", "heuristic", "random"}},
}

// golden is the expected end of a recorded game, beside its action log.
type golden struct {
	Setup     engine.Setup    `json:"setup"`
	Policies  []string        `json:"policies"`
	Actions   int             `json:"actions"`
	Outcome   engine.Outcome  `json:"outcome"`
	FinalView json.RawMessage `json:"final_view"`
}

// TestGolden replays the recorded games of testdata/golden (NAME.jsonl: one
// engine.Record per line; NAME.json: the setup, the outcome and the final
// spectator view) and checks that they end exactly as recorded. A rules
// change that alters them must be deliberate: rerun with -update-golden.
func TestGolden(t *testing.T) {
	dir := filepath.Join("testdata", "golden")
	if *updateGolden {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, gg := range goldenGames {
			record(t, dir, gg.name, gg.setup, gg.policies)
		}
	}
	for _, gg := range goldenGames {
		t.Run(gg.name, func(t *testing.T) {
			var want golden
			b, err := os.ReadFile(filepath.Join(dir, gg.name+".json"))
			if err != nil {
				t.Fatalf("%v (run with -update-golden to record it)", err)
			}
			if err := json.Unmarshal(b, &want); err != nil {
				t.Fatal(err)
			}
			log := readLog(t, filepath.Join(dir, gg.name+".jsonl"))
			s, err := engine.Replay(Game{}, want.Setup, log)
			if err != nil {
				t.Fatal(err)
			}
			out, over := s.Outcome()
			if !over || len(log) != want.Actions {
				t.Fatalf("after %d records the game is over: %v (recorded: %d actions)", len(log), over, want.Actions)
			}
			if a, b := js(out), js(want.Outcome); a != b {
				t.Errorf("outcome %s, recorded %s", a, b)
			}
			var compact bytes.Buffer
			if err := json.Compact(&compact, want.FinalView); err != nil {
				t.Fatal(err)
			}
			if a := js(s.View(engine.Spectator)); a != compact.String() {
				t.Errorf("the final spectator view differs from the recorded one:\n got %s\nwant %s", a, compact.String())
			}
		})
	}
}

// record plays a game between bots and writes its log and its end.
func record(t *testing.T, dir, name string, setup engine.Setup, policies []string) {
	ps := make([]bot.Policy, len(policies))
	for i, n := range policies {
		p, err := bot.Find(Game{}, n)
		if err != nil {
			t.Fatal(err)
		}
		ps[i] = p
	}
	res, err := sim.Play(Game{}, setup, ps, true)
	if err != nil {
		t.Fatal(err)
	}
	var lines bytes.Buffer
	for _, r := range res.Log {
		b, err := json.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		lines.Write(b)
		lines.WriteByte('\n')
	}
	s, err := engine.Replay(Game{}, setup, res.Log)
	if err != nil {
		t.Fatal(err)
	}
	view, _ := json.Marshal(s.View(engine.Spectator))
	g := golden{Setup: setup, Policies: policies, Actions: len(res.Log), Outcome: res.Outcome, FinalView: view}
	b, err := json.MarshalIndent(g, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".jsonl"), lines.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name+".json"), append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readLog(t *testing.T, path string) []engine.Record {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var log []engine.Record
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		r, err := engine.DecodeRecord(Game{}, sc.Bytes())
		if err != nil {
			t.Fatalf("%s:%d: %v", path, line, err)
		}
		log = append(log, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return log
}
