package server_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"sortie/internal/match"
	"sortie/internal/server"
	"sortie/internal/store"
)

// dailyTable is a day's table of a game, as GET /api/daily/{game} answers.
type dailyTable struct {
	Day     string              `json:"day"`
	Game    string              `json:"game"`
	By      string              `json:"by"`
	Entries []server.DailyEntry `json:"entries"`
}

// The daily challenge: a guest enters by a name (one the day's table has
// not), an account by its own and once; both play the same deal, against
// the same bots, on tables that are never rated and give no hints. Until
// the day is over nobody but its player sees a match of it: no spectator,
// no step, no replay, and the player's replay without its seed. The day's
// table ranks both once they are over; the next day the matches are
// everyone's to see and the table is yesterday's. (Issue 34, item 9.)
func TestDailyChallenge(t *testing.T) {
	ctx := context.Background()
	e := newAccountEnv(t, func(c *server.Config) { c.ClockSpeed = 20; c.RateEvery = 50 * time.Millisecond })
	t.Cleanup(func() { server.ShiftDailyClock(0) })
	ana, guest, visitor := e.browser(addrA), e.browser(addrB), e.browser(addrC)
	mA := ana.mustSignIn(t, "ana@example.org")
	today := time.Now().UTC().Format(time.DateOnly)

	var list struct {
		Day        string                  `json:"day"`
		Challenges []server.DailyChallenge `json:"challenges"`
	}
	if err := visitor.Do(ctx, "GET", "/api/daily", "", nil, &list); err != nil {
		t.Fatal(err)
	}
	if list.Day != today || len(list.Challenges) != len(e.games) || list.Challenges[0].Game != "testcards" ||
		list.Challenges[0].Players != 2 || list.Challenges[0].Entries != 0 {
		t.Fatalf("today's challenges: %+v", list)
	}

	wantCode(t, "a guest without a name", guest.Do(ctx, "POST", "/api/daily/testcards", "", map[string]string{}, nil), http.StatusBadRequest, match.CodeBadName)
	wantCode(t, "a name too long", guest.Do(ctx, "POST", "/api/daily/testcards", "", map[string]string{"name": strings.Repeat("x", 41)}, nil), http.StatusBadRequest, match.CodeBadName)
	wantCode(t, "an unknown field", guest.Do(ctx, "POST", "/api/daily/testcards", "", map[string]any{"name": "Bob", "seed": 1}, nil), http.StatusBadRequest, server.CodeMalformed)
	wantCode(t, "a game there is not", guest.Do(ctx, "POST", "/api/daily/chess", "", map[string]string{"name": "Bob"}, nil), http.StatusNotFound, match.CodeUnknownGame)

	var bob, anas server.CreatedMatch
	if err := guest.Do(ctx, "POST", "/api/daily/testcards", "", map[string]string{"name": "Bob"}, &bob); err != nil {
		t.Fatal(err)
	}
	wantCode(t, "a name on the table already", guest.Do(ctx, "POST", "/api/daily/testcards", "", map[string]string{"name": " bob "}, nil), http.StatusConflict, server.CodeDailyName)
	// Signed in, the name given is the account's.
	if err := ana.Do(ctx, "POST", "/api/daily/testcards", "", map[string]string{"name": "Bob"}, &anas); err != nil {
		t.Fatal(err)
	}
	wantCode(t, "an account's second entry", ana.Do(ctx, "POST", "/api/daily/testcards", "", map[string]string{"name": "Other"}, nil), http.StatusConflict, server.CodeDailyPlayed)
	for _, c := range []struct {
		cm      server.CreatedMatch
		name    string
		account string
	}{{bob, "Bob", ""}, {anas, mA.Name, mA.ID}} {
		s, seat := c.cm.Match.Settings, c.cm.Match.Seats[0]
		if s.Purpose != match.PurposeDaily || s.Day != today || s.Hints || !s.AutoStart {
			t.Fatalf("%s's table: %+v", c.name, s)
		}
		if seat.Name != c.name || seat.Account != c.account || !seat.Joined || c.cm.Match.Seats[1].Bot != "medium" {
			t.Fatalf("%s's seats: %+v", c.name, c.cm.Match.Seats)
		}
	}
	if sum := e.summary(t, anas.Match.ID); sum.Rated || sum.Unrated != server.UnratedDaily {
		t.Fatalf("an account's daily table: rated %v, %q", sum.Rated, sum.Unrated)
	}

	// Nobody but its player sees a match of today's challenge.
	id := bob.Match.ID
	wantCode(t, "a spectator's state", visitor.Do(ctx, "GET", "/api/matches/"+id+"/state", "", nil, nil), http.StatusForbidden, server.CodeDailySecret)
	wantCode(t, "a spectator's step", visitor.Do(ctx, "GET", "/api/matches/"+id+"/view?seat=spectator&step=0", "", nil, nil), http.StatusForbidden, server.CodeDailySecret)
	if _, err := visitor.Dial(ctx, id, ""); err == nil || !strings.Contains(err.Error(), server.CodeDailySecret) {
		t.Fatalf("a spectator's socket: %v", err)
	}
	if err := guest.Do(ctx, "GET", "/api/matches/"+id+"/state", bob.Seats[0].Token, nil, nil); err != nil {
		t.Fatalf("the player's state: %v", err)
	}

	// The same deal for both.
	vb := e.firstView(t, bob.Match.ID, bob.Seats[0].Token, 0)
	va := e.firstView(t, anas.Match.ID, anas.Seats[0].Token, 0)
	if string(va) != string(vb) {
		t.Fatalf("two entries of a day's challenge deal\n%s\nand\n%s", va, vb)
	}
	for i, cm := range []server.CreatedMatch{bob, anas} {
		p := e.dial(cm.Match.ID, cm.Seats[0].Token, 0)
		pctx, cancel := context.WithTimeout(ctx, time.Minute)
		_, err := p.play(pctx, newRand(uint64(i)), playOptions{})
		cancel()
		p.close()
		if err != nil {
			t.Fatal(err)
		}
	}

	var table dailyTable
	if err := visitor.Do(ctx, "GET", "/api/daily/testcards", "", nil, &table); err != nil {
		t.Fatal(err)
	}
	if table.Day != today || len(table.Entries) != 2 || table.By != "moves" {
		t.Fatalf("today's table: %+v", table)
	}
	names := map[string]server.DailyEntry{}
	for _, en := range table.Entries {
		names[en.Name] = en
		if en.Status != store.Finished || en.Rank < 1 || en.Moves == 0 {
			t.Fatalf("a finished entry: %+v", en)
		}
	}
	if names["Bob"].Match != bob.Match.ID || names[mA.Name].Account != mA.ID {
		t.Fatalf("the table's entries: %+v", table.Entries)
	}

	// The replay: the player's, without the seed; nobody else's.
	wantCode(t, "a visitor's replay", visitor.Do(ctx, "GET", "/api/matches/"+id+"/replay", "", nil, nil), http.StatusForbidden, server.CodeDailySecret)
	var rp map[string]json.RawMessage
	if err := guest.Do(ctx, "GET", "/api/matches/"+id+"/replay", bob.Seats[0].Token, nil, &rp); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(rp["setup"]), "seed") || len(rp["log"]) < 3 {
		t.Fatalf("the player's replay of today's challenge: setup %s", rp["setup"])
	}
	if err := ana.Do(ctx, "GET", "/api/matches/"+anas.Match.ID+"/replay", "", nil, nil); err != nil {
		t.Fatalf("the account's replay: %v", err)
	}
	// Nor its review, which would tell the deal's best moves.
	wantCode(t, "a visitor's review", visitor.Do(ctx, "GET", "/api/matches/"+id+"/review?seat=0", "", nil, nil), http.StatusForbidden, server.CodeDailySecret)
	var rv match.ReviewAnswer
	if err := guest.Do(ctx, "GET", "/api/matches/"+id+"/review?seat=0", bob.Seats[0].Token, nil, &rv); err != nil {
		t.Fatalf("the player's review: %v", err)
	}

	// The next day.
	server.ShiftDailyClock(24 * time.Hour)
	if err := visitor.Do(ctx, "GET", "/api/matches/"+id+"/replay", "", nil, &rp); err != nil {
		t.Fatalf("yesterday's replay: %v", err)
	}
	if !strings.Contains(string(rp["setup"]), `"seed"`) {
		t.Fatalf("yesterday's replay without its seed: %s", rp["setup"])
	}
	if err := visitor.Do(ctx, "GET", "/api/daily/testcards", "", nil, &table); err != nil || len(table.Entries) != 0 {
		t.Fatalf("the new day's table: %+v, %v", table, err)
	}
	if err := visitor.Do(ctx, "GET", "/api/daily/testcards?day="+today, "", nil, &table); err != nil || len(table.Entries) != 2 {
		t.Fatalf("yesterday's table: %+v, %v", table, err)
	}
	tomorrow := time.Now().UTC().Add(48 * time.Hour).Format(time.DateOnly)
	for _, day := range []string{"2026-13-01", "yesterday", tomorrow} {
		wantCode(t, "the table of "+day, visitor.Do(ctx, "GET", "/api/daily/testcards?day="+day, "", nil, nil), http.StatusBadRequest, server.CodeBadDay)
	}
}

// The day's table ranks wins first, by points then the quicker first;
// then losses by place, points and how long they held out; equal results
// share a rank, and matches under way come last, unranked.
func TestDailyRanking(t *testing.T) {
	f := store.Finished
	es := []server.DailyEntry{
		{Name: "slow win", Status: f, Won: true, Place: 1, Score: 3, Moves: 90},
		{Name: "playing", Status: store.Running, Moves: 5},
		{Name: "second, short", Status: f, Place: 2, Score: 1, Moves: 20},
		{Name: "quick win", Status: f, Won: true, Place: 1, Score: 3, Moves: 40},
		{Name: "second, long", Status: f, Place: 2, Score: 1, Moves: 60},
		{Name: "third", Status: f, Place: 3, Score: 2, Moves: 99},
		{Name: "quick win too", Status: f, Won: true, Place: 1, Score: 3, Moves: 40},
		{Name: "second, more points", Status: f, Place: 2, Score: 2, Moves: 10},
		{Name: "slowest, most points", Status: f, Won: true, Place: 1, Score: 4, Moves: 120},
	}
	server.RankDaily(es, false)
	want := []struct {
		name string
		rank int
	}{{"slowest, most points", 1}, {"quick win", 2}, {"quick win too", 2}, {"slow win", 4}, {"second, more points", 5},
		{"second, long", 6}, {"second, short", 7}, {"third", 8}, {"playing", 0}}
	for i, w := range want {
		if es[i].Name != w.name || es[i].Rank != w.rank {
			t.Fatalf("place %d: %s ranked %d, want %s ranked %d (the table: %+v)", i+1, es[i].Name, es[i].Rank, w.name, w.rank, es)
		}
	}
}
