package temple

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"sortie/engine"
	"sortie/sim"
)

var updateGolden = flag.Bool("update-golden", false, "re-record the golden games in testdata/golden")

// goldenGames are the recorded matches: heuristic bots on the virtual clock.
var goldenGames = []struct {
	name  string
	setup engine.Setup
}{
	{"solo_sand", engine.Setup{Players: 1, Seed: 11, Options: map[string]string{OptTimer: "sand"}}},
	{"three_modules_advanced", engine.Setup{Players: 3, Seed: 12, Options: map[string]string{OptCurses: "true", OptTreasures: "true", OptDifficulty: "advanced"}}},
	{"four_normal", engine.Setup{Players: 4, Seed: 13}},
}

// goldenLine is one line of a golden file: the setup first, then each
// record with the events it caused, then the outcome.
type goldenLine struct {
	Setup   *engine.Setup   `json:"setup,omitempty"`
	Record  json.RawMessage `json:"record,omitempty"`
	Events  json.RawMessage `json:"events,omitempty"`
	Outcome *engine.Outcome `json:"outcome,omitempty"`
}

// replayLines replays a log and writes the golden lines it gives.
func replayLines(t *testing.T, setup engine.Setup, log []engine.Record) []byte {
	t.Helper()
	s, err := Game{}.New(setup)
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.Encode(goldenLine{Setup: &setup})
	for i, r := range log {
		evs, err := engine.Play(s, r)
		if err != nil {
			t.Fatalf("record %d refused: %v", i+1, err)
		}
		rb, _ := json.Marshal(r)
		eb, _ := json.Marshal(evs)
		enc.Encode(goldenLine{Record: rb, Events: eb})
	}
	out, over := s.Outcome()
	if !over {
		t.Fatal("the recorded game is not over")
	}
	enc.Encode(goldenLine{Outcome: &out})
	return buf.Bytes()
}

func TestGoldenReplays(t *testing.T) {
	for _, gg := range goldenGames {
		t.Run(gg.name, func(t *testing.T) {
			path := filepath.Join("testdata", "golden", gg.name+".jsonl")
			if *updateGolden {
				res, err := sim.Play(Game{}, gg.setup, team(Heuristic(), gg.setup.Players), true)
				if err != nil {
					t.Fatal(err)
				}
				os.MkdirAll(filepath.Dir(path), 0o755)
				if err := os.WriteFile(path, replayLines(t, gg.setup, res.Log), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update-golden to record)", err)
			}
			var setup engine.Setup
			var log []engine.Record
			sc := bufio.NewScanner(bytes.NewReader(want))
			sc.Buffer(nil, 1<<20)
			for sc.Scan() {
				var l goldenLine
				if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
					t.Fatal(err)
				}
				switch {
				case l.Setup != nil:
					setup = *l.Setup
				case l.Record != nil:
					r, err := engine.DecodeRecord(Game{}, l.Record)
					if err != nil {
						t.Fatal(err)
					}
					log = append(log, r)
				}
			}
			got := replayLines(t, setup, log)
			if !bytes.Equal(got, want) {
				gl, wl := bytes.Split(got, []byte("\n")), bytes.Split(want, []byte("\n"))
				for i := range min(len(gl), len(wl)) {
					if !bytes.Equal(gl[i], wl[i]) {
						t.Fatalf("line %d differs (a rules change? rerun with -update-golden if deliberate):\n got: %s\nwant: %s", i+1, gl[i], wl[i])
					}
				}
				t.Fatal(fmt.Sprintf("the replay has %d lines, the golden file %d", len(gl), len(wl)))
			}
		})
	}
}
