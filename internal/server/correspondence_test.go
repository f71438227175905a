package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"sortie/internal/match"
	"sortie/internal/match/matchtest"
	"sortie/internal/server"
	"sortie/internal/server/client"
	"sortie/internal/store"
)

// The API as the outside check uses it: "clock": "correspondence"
// with "move_limit_ms": 86400000 beside the other time controls makes a
// correspondence table whose summary's settings say so, and whose seats say
// when each move is due and the days off left, on the real SQLite store and
// through a restart. Anything else is a 400 with its code that makes
// nothing; GET /api/games says which games have such tables.
func TestCorrespondenceThroughTheAPI(t *testing.T) {
	e := newEnv(t, matchtest.Games(), func(c *server.Config) { c.CreateBurst = 100 })
	ctx := context.Background()
	var raw struct {
		Match struct {
			Settings map[string]any   `json:"settings"`
			Seats    []map[string]any `json:"seats"`
		} `json:"match"`
	}
	body := `{"game":"testcards","clock":"correspondence","move_limit_ms":86400000,"days_off":2,"auto_start":true,
		"seats":[{"kind":"human"},{"kind":"bot","bot":"random"}]}`
	if err := e.c.Do(ctx, "POST", "/api/matches", "", []byte(body), &raw); err != nil {
		t.Fatal(err)
	}
	set := raw.Match.Settings
	if set["clock"] != "correspondence" || set["move_limit_ms"] != float64(86400000) || set["days_off"] != float64(2) || set["takeover_after_ms"] != float64(0) {
		t.Fatalf("the settings of a correspondence table: %v", set)
	}
	if raw.Match.Seats[0]["days_off_left"] != float64(2) {
		t.Fatalf("the human seat of an open correspondence table: %v", raw.Match.Seats[0])
	}

	var games struct {
		Games []server.GameInfo `json:"games"`
	}
	if err := e.c.Do(ctx, "GET", "/api/games", "", nil, &games); err != nil {
		t.Fatal(err)
	}
	for _, g := range games.Games {
		c := g.Correspondence
		switch g.ID {
		case "testcards":
			if c == nil || len(c.MoveLimitsMs) != 4 || c.MoveLimitsMs[3] != 7*86400000 || c.DaysOff != match.DefaultDaysOff || c.MaxDaysOff != 21 {
				t.Fatalf("what a turn-based game offers by correspondence: %+v", c)
			}
		case "testrace":
			if c != nil {
				t.Fatalf("a real-time game offers correspondence tables: %+v", c)
			}
		}
	}

	list := func() int {
		var out struct {
			Matches []match.Summary `json:"matches"`
		}
		if err := e.c.Do(ctx, "GET", "/api/matches?limit=500", "", nil, &out); err != nil {
			t.Fatal(err)
		}
		return len(out.Matches)
	}
	before := list()
	for _, c := range []struct {
		what, body, code string
	}{
		{"a move limit of 90 s", `{"game":"testcards","clock":"correspondence","move_limit_ms":90000}`, match.CodeBadParameters},
		{"5 days a move", `{"game":"testcards","clock":"correspondence","move_limit_ms":432000000}`, match.CodeBadParameters},
		{"30 days off", `{"game":"testcards","clock":"correspondence","days_off":30}`, match.CodeBadParameters},
		{"half a day off", `{"game":"testcards","clock":"correspondence","days_off":0.5}`, server.CodeMalformed},
		{"a clock in days", `{"game":"testcards","clock":"days"}`, match.CodeBadParameters},
		{"a takeover", `{"game":"testcards","clock":"correspondence","takeover_after_ms":60000}`, match.CodeBadParameters},
		{"the Temple by correspondence", `{"game":"testrace","clock":"correspondence","move_limit_ms":86400000}`, match.CodeNoCorrespondence},
	} {
		err := e.c.Do(ctx, "POST", "/api/matches", "", []byte(c.body), nil)
		ae, ok := err.(*client.APIError)
		if !ok || ae.Status != http.StatusBadRequest || ae.Code != c.code || ae.Message == "" {
			t.Errorf("%s: %v, want 400 %s", c.what, err, c.code)
		}
	}
	if n := list(); n != before {
		t.Fatalf("refused creations made %d matches", n-before)
	}

	// Joined, it starts with no page open; its deadline is the same after a
	// restart.
	cm := e.newMatch(match.CreateRequest{Game: "testcards", Clock: match.ClockCorrespondence, MoveLimitMs: new(int64(2 * match.Day)),
		Seats: []match.SeatRequest{{Kind: match.Human}, {Kind: match.Bot, Bot: "random"}}, AutoStart: true}, false)
	sum, err := e.c.Match(ctx, cm.Match.ID)
	if err != nil {
		t.Fatal(err)
	}
	due := sum.Seats[0].Deadline
	if sum.Status != store.Running || due == nil || sum.StartedAt == nil {
		t.Fatalf("a correspondence table whose seats are joined: %s, deadline %v", sum.Status, due)
	}
	if d := due.Sub(*sum.StartedAt); d < 2*24*time.Hour-time.Second || d > 2*24*time.Hour {
		t.Fatalf("the first move is due %v after the start, want two days", d)
	}
	e.restart()
	again, err := e.c.Match(ctx, cm.Match.ID)
	if err != nil {
		t.Fatal(err)
	}
	if again.Seats[0].Deadline == nil || !again.Seats[0].Deadline.Equal(*due) {
		t.Fatalf("the deadline after a restart: %v, was %v", again.Seats[0].Deadline, due)
	}
	b, _ := json.Marshal(again)
	if !strings.Contains(string(b), `"deadline":"`) || !strings.Contains(string(b), `"days_off_left":3`) {
		t.Fatalf("the summary's seats: %s", b)
	}
}

// A correspondence table between two accounts is rated (its move limit in
// days is its clock, though it hands no seat over for a closed page), and
// the lobby says so before the start; its rematch is a correspondence
// table of the same move limit and days off.
func TestCorrespondenceTablesAreRated(t *testing.T) {
	e := ratingEnv(t)
	ana, bo := e.browser(addrA), e.browser(addrB)
	ana.mustSignIn(t, "ana@example.org")
	bo.mustSignIn(t, "bo@example.org")
	cm := e.table(t, ana, nil, func(r *match.CreateRequest) {
		r.Clock, r.MoveLimitMs, r.DaysOff = match.ClockCorrespondence, new(int64(3*match.Day)), new(5)
	}, ana, bo)
	if sum := e.summary(t, cm.Match.ID); !sum.Rated || sum.Unrated != "" || len(sum.Chances) != 2 || sum.Settings.TakeoverAfterMs != 0 {
		t.Fatalf("a correspondence table of two accounts: rated %v %q, chances %+v, settings %+v", sum.Rated, sum.Unrated, sum.Chances, sum.Settings)
	}
	e.playOut(t, cm, ana, noLeaver)
	var re server.CreatedMatch
	if err := ana.Do(context.Background(), "POST", "/api/matches/"+cm.Match.ID+"/rematch", "", nil, &re); err != nil {
		t.Fatal(err)
	}
	if set := re.Match.Settings; set.Clock != match.ClockCorrespondence || set.MoveLimitMs != int64(3*match.Day) || set.DaysOff != 5 {
		t.Fatalf("the rematch of a correspondence table: %+v", set)
	}
}

// Open correspondence tables wait a week for their players, not the hour
// of a live table nobody joined, yet a crowd still cannot fill the server
// with them: near the cap, the oldest that nobody but its creator joined
// ends to make room (issue 29), and one a friend sat at stays.
func TestLonelyCorrespondenceTablesMakeRoom(t *testing.T) {
	const maxLive = 20
	e := newEnv(t, matchtest.Games(), func(c *server.Config) {
		behindProxy(c)
		c.MaxLive, c.OpenPerClient, c.CreateRate = maxLive, -1, -1
		c.ExpireLonely = 200 * time.Millisecond
	})
	ctx := context.Background()
	table := match.CreateRequest{Game: "testcards", Players: 2, Clock: match.ClockCorrespondence, AutoStart: true}
	host := e.as("198.51.100.1")
	friends, err := host.Create(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := e.as("198.51.100.2").Join(ctx, friends.Match.ID, friends.Seats[1].Token, "Friend"); err != nil {
		t.Fatal(err)
	}
	waiter := e.as("198.51.100.3")
	lonely, err := waiter.Create(ctx, table)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := waiter.Join(ctx, lonely.Match.ID, lonely.Seats[0].Token, "Waiter"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(500 * time.Millisecond) // (past a live table's lonely expiry)
	if sum, err := e.c.Match(ctx, lonely.Match.ID); err != nil || sum.Status != store.Open {
		t.Fatalf("a lonely correspondence table past the live ones' expiry: %v %v", sum.Status, err)
	}
	for i := range 3 * maxLive {
		if _, err := e.as("203.0.113."+itoa(i+1)).Create(ctx, table); err != nil {
			t.Fatalf("creation %d of the crowd: %v", i+1, err)
		}
	}
	if live := e.srv.Manager().Live(); live > maxLive {
		t.Fatalf("%d matches in memory, over the cap of %d", live, maxLive)
	}
	sum, err := e.c.Match(ctx, lonely.Match.ID)
	if err != nil || sum.Status != store.Expired || sum.Reason == nil || sum.Reason.Code != match.ReasonNoRoom {
		t.Fatalf("the oldest lonely correspondence table: %v %+v %v, want expired for %s", sum.Status, sum.Reason, err, match.ReasonNoRoom)
	}
	if sum, err := e.c.Match(ctx, friends.Match.ID); err != nil || sum.Status != store.Open {
		t.Fatalf("the table a friend sat at: %v %v", sum.Status, err)
	}
	e.newcomerPlays(addrB)
}
