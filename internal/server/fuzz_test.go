package server

// Fuzz targets of what anyone may send: socket messages through every game,
// and match creations. Their seed corpora are in testdata/fuzz; the README
// says how to run them longer (.ci/run runs each briefly).

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"sortie/engine"
	"sortie/engine/enginetest"
	"sortie/games/all"
	"sortie/internal/match"
)

var updateSeeds = flag.Bool("update-fuzz-seeds", false, "write the seed corpora of the fuzz targets in testdata/fuzz again")

// socketInput turns the fuzzer's values into a message for a game at a
// state: the game, its setup (a player count and option values, as the
// conformance suite enumerates them), the seed, how many random records lead
// to the state, the seat, the match time waited, and the message.
func socketInput(games []engine.Game, game uint8, variant, seed uint64, steps uint16, seat uint8, wait uint16) (engine.Game, enginetest.Input) {
	g := games[int(game)%len(games)]
	setup := enginetest.SetupOf(g.Info(), variant)
	setup.Seed = seed
	return g, enginetest.Input{Setup: setup, Steps: int(steps % 400), Seat: engine.Seat(int(seat) % setup.Players),
		Wait: engine.Millis(wait % 10_000)}
}

// FuzzSocketMessage sends any bytes as a socket message of a seat: the
// server's decoding either refuses them as malformed, or hands the action to
// the game, whose DecodeAction and Apply must keep every promise of
// enginetest.CheckInput (no panic, refusals change nothing, what the log
// keeps replays).
func FuzzSocketMessage(f *testing.F) {
	games := all.Games()
	f.Fuzz(func(t *testing.T, game uint8, variant, seed uint64, steps uint16, seat uint8, wait uint16, msg []byte) {
		m, _, err := decodeMessage(msg)
		if err != nil {
			if e := match.AsError(err); e.Code != CodeMalformed || e.Message == "" {
				t.Fatalf("a socket message was refused with %+v", e)
			}
			return
		}
		if m.Type != "" {
			return // talk or a seat left: not the game's business
		}
		g, in := socketInput(games, game, variant, seed, steps, seat, wait)
		in.Raw = m.Action
		if err := enginetest.CheckInput(g, in); err != nil {
			t.Fatalf("%s, %s seed %d after %d steps, %s sends %s:\n%v", g.Info().ID, enginetest.SetupName(in.Setup), seed, in.Steps, in.Seat, msg, err)
		}
	})
}

// createCodes are the refusals a creation may get (docs/api.md).
var createCodes = []string{CodeMalformed, CodeTooLarge, match.CodeBadSetup, match.CodeUnknownBot, match.CodeBadName,
	match.CodeBadParameters, match.CodeUnknownGame, match.CodeServerFull}

// FuzzCreateMatch posts any body as a match creation: the answer is a
// created match that fits its game, or a documented refusal with a sentence,
// and the server never fails.
func FuzzCreateMatch(f *testing.F) {
	fz := &createFuzz{dir: f.TempDir()}
	f.Cleanup(fz.stop)
	f.Fuzz(func(t *testing.T, body []byte) {
		s := fz.server(t)
		r := httptest.NewRequest("POST", "/api/matches", bytes.NewReader(body))
		r.Header.Set("Content-Type", "application/json")
		r.RemoteAddr = "192.0.2.1:4711"
		w := httptest.NewRecorder()
		s.Handler().ServeHTTP(w, r)
		if w.Code != http.StatusCreated {
			var eb ErrorBody
			if err := json.Unmarshal(w.Body.Bytes(), &eb); err != nil || eb.Error == nil {
				t.Fatalf("%d with an answer that is not a refusal: %s", w.Code, w.Body)
			}
			if !slices.Contains(createCodes, eb.Error.Code) || statusOf[eb.Error.Code] != w.Code {
				t.Fatalf("a creation refused with %d %s: %s", w.Code, eb.Error.Code, eb.Error.Message)
			}
			if eb.Error.Message == "" || strings.Contains(eb.Error.Message, "\n") {
				t.Fatalf("a refusal that is not one sentence: %q", eb.Error.Message)
			}
			return
		}
		fz.created++
		var req match.CreateRequest
		if err := decodeStrict(body, &req); err != nil {
			t.Fatalf("created from a body that does not decode strictly: %v", err)
		}
		var out CreatedMatch
		if err := json.Unmarshal(w.Body.Bytes(), &out); err != nil {
			t.Fatal(err)
		}
		checkCreated(t, s, req, out)
	})
}

// checkCreated checks a created match against its request and its game.
func checkCreated(t *testing.T, s *Server, req match.CreateRequest, out CreatedMatch) {
	t.Helper()
	g, err := s.mgr.Game(out.Match.Game)
	if err != nil || out.Match.Game != req.Game {
		t.Fatalf("created a match of game %q for a request of %q", out.Match.Game, req.Game)
	}
	info := g.Info()
	n := out.Match.Players
	if n < info.MinPlayers || n > info.MaxPlayers || len(out.Match.Seats) != n || len(out.Seats) != n {
		t.Fatalf("%s created with %d players and %d seats", info.ID, n, len(out.Match.Seats))
	}
	if _, err := info.Check(engine.Setup{Players: n, Options: out.Match.Options}); err != nil {
		t.Fatalf("%s created with options that do not fit: %v", info.ID, err)
	}
	for i, st := range out.Seats {
		human := st.Kind == match.Human
		if human != (st.Token != "") || human != (st.Invite != "") || (!human && st.Kind != match.Bot) {
			t.Fatalf("seat %d of kind %q with token %v and invite %v", i, st.Kind, st.Token != "", st.Invite != "")
		}
		if name := out.Match.Seats[i].Name; name != "" {
			if clean, err := match.CheckName(name); err != nil || clean != name {
				t.Fatalf("seat %d got the name %q, which is not a clean name", i, name)
			}
		}
	}
	if out.HostToken == "" || out.Match.ID == "" {
		t.Fatalf("a match without an id or a host token: %+v", out)
	}
}

// createFuzz is the server the creations go to, made again now and then so
// that the matches of a long run do not pile up in memory.
type createFuzz struct {
	dir     string
	n       int
	s       *Server
	created int
}

func (fz *createFuzz) server(t *testing.T) *Server {
	if fz.s != nil && fz.created < 1000 {
		return fz.s
	}
	fz.stop()
	fz.n++
	s, err := New(Config{
		Games: all.Games(), DataPath: filepath.Join(fz.dir, fmt.Sprintf("fuzz-%d.db", fz.n)), Sync: "normal",
		Logger:     slog.New(slog.NewTextHandler(io.Discard, nil)),
		CreateRate: -1, OpenPerClient: -1, MaxLive: 2000,
	})
	if err != nil {
		t.Fatal(err)
	}
	fz.s, fz.created = s, 0
	return s
}

func (fz *createFuzz) stop() {
	if fz.s == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = fz.s.Shutdown(ctx)
	fz.s = nil
}

// TestFuzzSeeds writes the seed corpora of the fuzz targets with
// -update-fuzz-seeds; otherwise it checks that they are there (go test runs
// them as tests).
func TestFuzzSeeds(t *testing.T) {
	games := all.Games()
	socket := map[string][]any{}
	for gi, g := range games {
		// A few setups of each game, options varied.
		for _, variant := range []uint64{0, 7, 1234567} {
			setup := enginetest.SetupOf(g.Info(), variant)
			setup.Seed = variant + 1
			for k, in := range enginetest.SeedInputs(g, []engine.Setup{setup}) {
				if k%3 != 0 {
					continue
				}
				msg, _ := json.Marshal(match.ClientMessage{Seq: uint64(in.Steps), Action: in.Raw})
				name := fmt.Sprintf("%s-%d-%d", g.Info().ID, variant, k)
				socket[name] = []any{uint8(gi), variant, setup.Seed, uint16(in.Steps), uint8(in.Seat), uint16(0), msg}
			}
		}
	}
	socket["malformed-case"] = []any{uint8(0), uint64(0), uint64(1), uint16(0), uint8(0), uint16(0), []byte(`{"SEQ":0,"action":{"type":"pass"}}`)}
	socket["malformed-twice"] = []any{uint8(0), uint64(0), uint64(1), uint16(0), uint8(0), uint16(0), []byte(`{"seq":0,"seq":1,"action":{}}`)}
	create := map[string][]any{}
	for _, g := range games {
		info := g.Info()
		create[info.ID+"-default"] = []any{[]byte(`{"game":"` + info.ID + `"}`)}
		seats := make([]match.SeatRequest, info.MaxPlayers)
		for i := range seats {
			seats[i] = match.SeatRequest{Kind: []string{match.Human, match.Bot}[i%2], Bot: []string{"", "easy", "hard"}[i%3], Name: "Zoë"}
		}
		opts := map[string]string{}
		for _, o := range info.Options {
			opts[o.Key] = o.Default
		}
		b, _ := json.Marshal(match.CreateRequest{Game: info.ID, Options: opts, Seats: seats, MoveLimitMs: new(int64(60_000)), TakeoverAfterMs: new(int64(1000)), AutoStart: true})
		create[info.ID+"-full"] = []any{b}
	}
	create["case"] = []any{[]byte(`{"GAME":"plandesecours"}`)}
	create["bidi"] = []any{[]byte(`{"game":"evades","seats":[{"name":"\u202eAna"},{}]}`)}
	for target, seeds := range map[string]map[string][]any{"FuzzSocketMessage": socket, "FuzzCreateMatch": create} {
		dir := filepath.Join("testdata", "fuzz", target)
		if !*updateSeeds {
			if files, _ := filepath.Glob(filepath.Join(dir, "seed-*")); len(files) == 0 {
				t.Errorf("%s has no seed corpus: run go test -run TestFuzzSeeds -update-fuzz-seeds ./internal/server", target)
			}
			continue
		}
		if err := writeCorpus(dir, seeds); err != nil {
			t.Fatal(err)
		}
		t.Logf("%s: %d seeds", target, len(seeds))
	}
}

// writeCorpus writes seeds as files of the go test fuzz corpus format, each
// named seed-NAME, replacing the seeds of dir (and keeping the regression
// inputs the fuzzer found).
func writeCorpus(dir string, seeds map[string][]any) error {
	old, _ := filepath.Glob(filepath.Join(dir, "seed-*"))
	for _, f := range old {
		os.Remove(f)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	for name, vals := range seeds {
		var b strings.Builder
		b.WriteString("go test fuzz v1\n")
		for _, v := range vals {
			switch v := v.(type) {
			case []byte:
				fmt.Fprintf(&b, "[]byte(%q)\n", v)
			case string:
				fmt.Fprintf(&b, "string(%q)\n", v)
			default:
				fmt.Fprintf(&b, "%T(%v)\n", v, v)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, "seed-"+name), []byte(b.String()), 0o644); err != nil {
			return err
		}
	}
	return nil
}
