package enginetest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"sortie/bot"
	"sortie/engine"
	"sortie/sim"
)

// GoldenGame is a recorded game of a game's testdata/golden folder: bots of
// the named policies (or levels) play it from Setup when it is recorded.
type GoldenGame struct {
	Name     string
	Setup    engine.Setup
	Policies []string
}

// golden is the expected end of a recorded game, beside its action log.
type golden struct {
	Setup     engine.Setup    `json:"setup"`
	Policies  []string        `json:"policies"`
	Actions   int             `json:"actions"`
	Outcome   engine.Outcome  `json:"outcome"`
	FinalView json.RawMessage `json:"final_view"`
}

// Golden replays the recorded games of dir (NAME.jsonl: one engine.Record
// per line; NAME.json: the setup, the bots, the outcome and the final
// spectator view) and checks that each ends exactly as recorded. With update
// set it first plays and records them again: a rules change that alters a
// recorded game must be a deliberate one. Games call it from a test with an
// -update-golden flag of their own.
func Golden(t *testing.T, g engine.Game, dir string, games []GoldenGame, update bool) {
	t.Helper()
	if update {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		for _, gg := range games {
			record(t, g, dir, gg)
		}
	}
	for _, gg := range games {
		t.Run(gg.Name, func(t *testing.T) {
			var want golden
			b, err := os.ReadFile(filepath.Join(dir, gg.Name+".json"))
			if err != nil {
				t.Fatalf("%v (run with -update-golden to record it)", err)
			}
			if err := json.Unmarshal(b, &want); err != nil {
				t.Fatal(err)
			}
			log := readLog(t, g, filepath.Join(dir, gg.Name+".jsonl"))
			s, err := engine.Replay(g, want.Setup, log)
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
func record(t *testing.T, g engine.Game, dir string, gg GoldenGame) {
	ps := make([]bot.Policy, len(gg.Policies))
	for i, n := range gg.Policies {
		p, err := bot.Find(g, n)
		if err != nil {
			t.Fatal(err)
		}
		ps[i] = p
	}
	res, err := sim.Play(g, gg.Setup, ps, true)
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
	s, err := engine.Replay(g, gg.Setup, res.Log)
	if err != nil {
		t.Fatal(err)
	}
	view, _ := json.Marshal(s.View(engine.Spectator))
	sum := golden{Setup: gg.Setup, Policies: gg.Policies, Actions: len(res.Log), Outcome: res.Outcome, FinalView: view}
	b, err := json.MarshalIndent(sum, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, gg.Name+".jsonl"), lines.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, gg.Name+".json"), append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readLog(t *testing.T, g engine.Game, path string) []engine.Record {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var log []engine.Record
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for line := 1; sc.Scan(); line++ {
		r, err := engine.DecodeRecord(g, sc.Bytes())
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
