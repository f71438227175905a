package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"strings"
	"testing"

	"sortie/engine"
	"sortie/games/all"
	"sortie/internal/match"
	"sortie/internal/match/matchtest"
	"sortie/internal/server"
	"sortie/internal/server/client"
	"sortie/internal/store"
)

// firstView opens a seat's socket and returns the view of the first state
// in which the match runs.
func (e *env) firstView(t *testing.T, id, token string, seat engine.Seat) json.RawMessage {
	t.Helper()
	p := e.dial(id, token, seat)
	defer p.close()
	return p.expect(t, "the match running", func(m *match.Message) bool { return m.Status == store.Running && m.View != nil }).View
}

// wantCode fails unless err is a refusal with the status and code given.
func wantCode(t *testing.T, what string, err error, status int, code string) {
	t.Helper()
	var ae *client.APIError
	if !errors.As(err, &ae) || ae.Status != status || ae.Code != code {
		t.Fatalf("%s: got %v, want %d %s", what, err, status, code)
	}
}

// Every game's tutorial is served: its steps and check, never its deal. A
// tutorial made twice deals the learner the same hand on its script's deal,
// starts as the learner opens it, against the script's bots, with no clock
// to beat and no hints, and shows in no list; its host ends it when the
// learner is done. (Issue 34, item 8.)
func TestTutorials(t *testing.T) {
	ctx := context.Background()
	e := newEnv(t, all.Games(), func(c *server.Config) { c.ClockSpeed = 20 })
	var list struct {
		Tutorials []struct {
			Game  string `json:"game"`
			Steps int    `json:"steps"`
		} `json:"tutorials"`
	}
	if err := e.c.Do(ctx, "GET", "/api/learn", "", nil, &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Tutorials) != len(all.Games()) {
		t.Fatalf("tutorials listed: %+v, want one per game", list.Tutorials)
	}
	var raw json.RawMessage
	if err := e.c.Do(ctx, "GET", "/api/learn/plandesecours", "", nil, &raw); err != nil {
		t.Fatal(err)
	}
	var script struct {
		Game    string            `json:"game"`
		Players int               `json:"players"`
		Steps   []json.RawMessage `json:"steps"`
		Check   []json.RawMessage `json:"check"`
	}
	if err := json.Unmarshal(raw, &script); err != nil {
		t.Fatal(err)
	}
	if script.Game != "plandesecours" || script.Players != 2 || len(script.Steps) == 0 || len(script.Check) == 0 {
		t.Fatalf("the script: %s", raw)
	}
	if strings.Contains(string(raw), "seed") {
		t.Fatalf("the script shows its deal: %s", raw)
	}
	wantCode(t, "a game there is not", e.c.Do(ctx, "GET", "/api/learn/chess", "", nil, nil), http.StatusNotFound, match.CodeUnknownGame)
	wantCode(t, "a body that is not an object", e.c.Do(ctx, "POST", "/api/learn/plandesecours", "", []byte(`[]`), nil), http.StatusBadRequest, server.CodeMalformed)

	var views []json.RawMessage
	var made []*server.CreatedMatch
	for range 2 {
		var cm server.CreatedMatch
		if err := e.c.Do(ctx, "POST", "/api/learn/plandesecours", "", map[string]string{"name": "Ada"}, &cm); err != nil {
			t.Fatal(err)
		}
		made = append(made, &cm)
		s := cm.Match.Settings
		if s.Purpose != match.PurposeTutorial || s.Hints || s.MoveLimitMs != 0 || s.TakeoverAfterMs != 0 || !s.AutoStart || cm.Match.Rated {
			t.Fatalf("a tutorial's table: %+v, rated %v", s, cm.Match.Rated)
		}
		if st := cm.Match.Seats; st[0].Kind != match.Human || !st[0].Joined || st[0].Name != "Ada" || st[1].Kind != match.Bot || st[1].Bot != "medium" {
			t.Fatalf("a tutorial's seats: %+v", st)
		}
		views = append(views, e.firstView(t, cm.Match.ID, cm.Seats[0].Token, 0))
	}
	var hand struct {
		Hand []struct {
			Tile string `json:"tile"`
		} `json:"hand"`
	}
	if err := json.Unmarshal(views[0], &hand); err != nil || len(hand.Hand) != 3 || hand.Hand[2].Tile != "right_6" {
		t.Fatalf("the learner's hand on the script's deal: %s", views[0])
	}
	if string(views[0]) != string(views[1]) {
		t.Fatalf("two tutorials deal\n%s\nand\n%s", views[0], views[1])
	}
	var ms struct {
		Matches []match.Summary `json:"matches"`
	}
	if err := e.c.Do(ctx, "GET", "/api/matches?status=open,running", "", nil, &ms); err != nil {
		t.Fatal(err)
	}
	for _, m := range ms.Matches {
		if m.ID == made[0].Match.ID || m.ID == made[1].Match.ID {
			t.Fatalf("the lobby lists a tutorial: %+v", m)
		}
	}
	sum, err := e.c.CloseMatch(ctx, made[0].Match.ID, made[0].HostToken)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Status != store.Abandoned || sum.Reason == nil || sum.Reason.Code != match.ReasonTutorialOver {
		t.Fatalf("a tutorial its learner is done with: %s %+v", sum.Status, sum.Reason)
	}
}

// A game without a tutorial says so.
func TestNoTutorial(t *testing.T) {
	e := newEnv(t, matchtest.Games(), nil)
	wantCode(t, "a game without a tutorial", e.c.Do(context.Background(), "GET", "/api/learn/testcards", "", nil, nil),
		http.StatusNotFound, server.CodeNoTutorial)
}
