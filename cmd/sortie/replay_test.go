package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sortie/engine"
	"sortie/games/all"
	"sortie/internal/match"
	"sortie/internal/server"
	"sortie/internal/server/client"
	"sortie/internal/store"
)

// startServer runs a match server in the test's process, on a real SQLite
// file, and returns its address and a client of it.
func startServer(t *testing.T) (string, *client.Client) {
	t.Helper()
	srv, err := server.New(server.Config{
		Games: all.Games(), DataPath: filepath.Join(t.TempDir(), "sortie.db"),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := srv.Resume(context.Background()); err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		srv.Shutdown(ctx)
		hs.Close()
	})
	return hs.URL, client.New(hs.URL)
}

// Given a match of bots played to its end on a server, when it is replayed
// from the server by its page's address (or its API's), then the replay
// takes the game, seats, options and seed from the log and ends as the
// match did; saved to a file, the server's document replays the same way.
func TestReplayAMatchFromTheServer(t *testing.T) {
	base, c := startServer(t)
	ctx := context.Background()
	bots := []match.SeatRequest{{Kind: "bot", Bot: "medium"}, {Kind: "bot", Bot: "easy"}, {Kind: "bot", Bot: "medium"}}
	cm, err := c.Create(ctx, match.CreateRequest{Game: "plandesecours", Players: 3, Options: map[string]string{"danger": "true"}, Seats: bots, AutoStart: true})
	if err != nil {
		t.Fatal(err)
	}
	id := cm.Match.ID
	var sum match.Summary
	for deadline := time.Now().Add(2 * time.Minute); ; {
		if sum, err = c.Match(ctx, id); err != nil {
			t.Fatal(err)
		}
		if sum.Status == store.Finished {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the match did not end: %+v", sum)
		}
		time.Sleep(20 * time.Millisecond)
	}

	var got struct {
		View    json.RawMessage `json:"view"`
		Outcome *engine.Outcome `json:"outcome"`
	}
	for _, u := range []string{base + "/play/" + id + "?seat=1#token=abc", base + "/api/matches/" + id, base + "/api/matches/" + id + "/replay"} {
		out, err := run(t, nil, "replay", "--match", u)
		if err != nil {
			t.Fatalf("--match %s: %v\n%s", u, err, out)
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil || got.Outcome == nil {
			t.Fatalf("--match %s: no outcome in %s (%v)", u, out, err)
		}
		if js(got.Outcome) != js(sum.Outcome) {
			t.Fatalf("--match %s: the replay ends %s, the match ended %s", u, js(got.Outcome), js(sum.Outcome))
		}
	}

	doc, err := c.Replay(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	saved, _ := json.Marshal(doc)
	out, err := run(t, strings.NewReader(string(saved)), "replay")
	if err != nil || !strings.Contains(out, `"summary": `+js(sum.Outcome.Summary)) {
		t.Fatalf("the saved document: %v\n%s", err, out)
	}
	_, err = run(t, strings.NewReader(string(saved)), "replay", "--players", "2")
	if err == nil || !strings.Contains(err.Error(), "the log carries its own setup (3 players") {
		t.Fatalf("--players against the log's setup: %v", err)
	}
	_, err = run(t, strings.NewReader(string(saved)), "replay", "evades")
	if err == nil || err.Error() != "the log is of a plandesecours match, not evades" {
		t.Fatalf("another game named: %v", err)
	}
}

// Given matches a server cannot replay, and addresses that name no match,
// --match says why in a sentence.
func TestReplayMatchRefusals(t *testing.T) {
	base, c := startServer(t)
	open, err := c.Create(context.Background(), match.CreateRequest{Game: "evades", Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ url, want string }{
		{base + "/play/" + open.Match.ID, "match " + open.Match.ID + " on " + base + " is not finished"},
		{base + "/play/nosuchmatch", "the server at " + base + " has no match nosuchmatch"},
		{base + "/", `is not the address of a match: give its page or invite link`},
		{"localhost:8080/play/abc", `is not the address of a match`},
	} {
		_, err := run(t, nil, "replay", "--match", tc.url)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("--match %s: %v, want %q", tc.url, err, tc.want)
		}
	}
}

// A record for a seat the match does not have is refused in words.
func TestReplayNoSuchSeat(t *testing.T) {
	log := `{"at":0}` + "\n" + `{"seat":5,"action":{"type":"play_lost"},"at":0}` + "\n"
	_, err := run(t, strings.NewReader(log), "replay", "plandesecours", "--seed", "3")
	if err == nil || err.Error() != `line 2: its "seat" is 5, but the match has 2 seats ("seat" 0 and 1 in a log); give --players as the match was played` {
		t.Fatalf("got %v", err)
	}
	_, err = run(t, strings.NewReader(`{"seat":-1,"action":{"type":"play_lost"},"at":0}`), "replay", "plandesecours", "--players", "4")
	if err == nil || !strings.Contains(err.Error(), `line 1: its "seat" is -1, but the match has 4 seats ("seat" 0 to 3 in a log)`) {
		t.Fatalf("got %v", err)
	}
}

// A refused record names its seat as every screen does, from 1, beside
// the record's own "seat" field, which counts from 0.
func TestReplayRefusalNamesTheSeat(t *testing.T) {
	_, err := run(t, strings.NewReader(`{"seat":1,"action":{"type":"pass_turn"},"at":0}`), "replay", "plandesecours", "--players", "3", "--seed", "3")
	if err == nil || !strings.HasPrefix(err.Error(), `line 1: the action of seat 2 ("seat": 1) was refused: `) {
		t.Fatalf("got %v", err)
	}
}

func js(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
