package evades

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"sortie/bot"
	"sortie/engine"
)

var updateGolden = flag.Bool("update-golden", false, "record the golden games of testdata/golden again")

// goldenGames are the recorded matches: bots with fixed seeds.
var goldenGames = []struct {
	name     string
	setup    engine.Setup
	policies []string
}{
	{"2p_heuristic_vs_random", engine.Setup{Players: 2, Seed: 11}, []string{"heuristic", "random"}},
	{"3p_heuristic_selfplay", engine.Setup{Players: 3, Seed: 12}, []string{"heuristic", "heuristic", "heuristic"}},
	{"4p_two_objects_heuristic", engine.Setup{Players: 4, Seed: 13, Options: map[string]string{optObjects: "2"}}, []string{"heuristic", "heuristic", "random", "heuristic"}},
	{"4p_random", engine.Setup{Players: 4, Seed: 14}, []string{"random", "random", "random", "random"}},
}

// goldenSummary is what a replay of a golden log must give again.
type goldenSummary struct {
	Setup    engine.Setup   `json:"setup"`
	Policies []string       `json:"policies"`
	Actions  int            `json:"actions"`
	Outcome  engine.Outcome `json:"outcome"`
	Events   string         `json:"events_sha256"` // every event with its audience
	Views    string         `json:"views_sha256"`  // every seat's final view and the spectator's
}

// TestGolden replays every recorded game of testdata/golden (an
// engine.Record per line, with its summary beside it) and checks that the
// rules still give the same events, views and outcome. Run with
// -update-golden to record them again after a deliberate rules change.
func TestGolden(t *testing.T) {
	for _, gg := range goldenGames {
		t.Run(gg.name, func(t *testing.T) {
			logPath := filepath.Join("testdata", "golden", gg.name+".jsonl")
			sumPath := filepath.Join("testdata", "golden", gg.name+".json")
			if *updateGolden {
				recordGolden(t, gg.setup, gg.policies, logPath, sumPath)
			}
			var want goldenSummary
			b, err := os.ReadFile(sumPath)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &want); err != nil {
				t.Fatal(err)
			}
			log := readLog(t, logPath)
			got := replaySummary(t, want.Setup, log)
			got.Policies = want.Policies
			if g, w := js(t, got), js(t, want); g != w {
				t.Fatalf("the replay of %s differs from its record:\n got %s\nwant %s", gg.name, g, w)
			}
		})
	}
}

func js(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func readLog(t *testing.T, path string) []engine.Record {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var log []engine.Record
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		r, err := engine.DecodeRecord(Game{}, sc.Bytes())
		if err != nil {
			t.Fatalf("%s line %d: %v", path, len(log)+1, err)
		}
		log = append(log, r)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return log
}

// replaySummary plays a log from its setup and sums up what happened.
func replaySummary(t *testing.T, setup engine.Setup, log []engine.Record) goldenSummary {
	st, err := Game{}.New(setup)
	if err != nil {
		t.Fatal(err)
	}
	ev, views := sha256.New(), sha256.New()
	for i, r := range log {
		evs, err := engine.Play(st, r)
		if err != nil {
			t.Fatalf("record %d: %v", i+1, err)
		}
		for _, e := range evs {
			b, _ := json.Marshal(e)
			fmt.Fprintf(ev, "%d %s\n", e.To, b)
		}
	}
	out, over := st.Outcome()
	if !over {
		t.Fatal("the recorded game does not end")
	}
	for p := -1; p < setup.Players; p++ {
		b, _ := json.Marshal(st.View(engine.Seat(p)))
		views.Write(b)
	}
	return goldenSummary{
		Setup: setup, Actions: len(log), Outcome: out,
		Events: hex.EncodeToString(ev.Sum(nil)), Views: hex.EncodeToString(views.Sum(nil)),
	}
}

// recordGolden plays a bot game and writes its log and summary.
func recordGolden(t *testing.T, setup engine.Setup, policies []string, logPath, sumPath string) {
	g := Game{}
	st, err := g.New(setup)
	if err != nil {
		t.Fatal(err)
	}
	opts, _ := g.Info().Check(setup)
	bots := make([]bot.Bot, setup.Players)
	for p := range bots {
		pol, err := bot.Find(g, policies[p])
		if err != nil {
			t.Fatal(err)
		}
		bots[p] = pol.NewBot(g, bot.Seating{Seat: engine.Seat(p), Players: setup.Players, Options: opts, Seed: engine.Mix(setup.Seed, uint64(p))})
	}
	var buf bytes.Buffer
	var log []engine.Record
	for {
		if _, over := st.Outcome(); over {
			break
		}
		p := st.Actors()[0]
		d := bots[p].Decide(st.View(p), st.Legal(p), 0)
		r := engine.Record{Seat: p, Action: d.Action}
		if _, err := engine.Play(st, r); err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(r)
		buf.Write(b)
		buf.WriteByte('\n')
		log = append(log, r)
	}
	if err := os.MkdirAll(filepath.Dir(logPath), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(logPath, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	sum := replaySummary(t, setup, log)
	sum.Policies = policies
	b, _ := json.MarshalIndent(sum, "", "  ")
	if err := os.WriteFile(sumPath, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}
