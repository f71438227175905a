package server_test

import (
	"context"
	"math"
	"testing"
	"time"

	"sortie/engine"
	"sortie/games/room25"
	"sortie/internal/match"
	"sortie/internal/server"
	"sortie/internal/store"
)

// ratingEnv is a server with accounts that rates finished matches at once.
func ratingEnv(t *testing.T) *accountEnv {
	return newAccountEnv(t, func(c *server.Config) { c.ClockSpeed = 20; c.RateEvery = 50 * time.Millisecond })
}

// table creates a testcards table of the given seats (nil: two humans) as
// host, and seats the browsers at its human seats, in order, signed in or
// not; it returns the match and each human seat's token.
func (e *accountEnv) table(t *testing.T, host *browser, seats []match.SeatRequest, tune func(*match.CreateRequest), at ...*browser) *server.CreatedMatch {
	t.Helper()
	ctx := context.Background()
	req := match.CreateRequest{Game: "testcards", Players: 2, Seats: seats}
	if tune != nil {
		tune(&req)
	}
	cm, err := host.Create(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	k := 0
	for _, s := range cm.Seats {
		if s.Token == "" {
			continue
		}
		if _, err := at[k].Join(ctx, cm.Match.ID, s.Token, "P"); err != nil {
			t.Fatal(err)
		}
		k++
	}
	return cm
}

// summary reads a match's summary.
func (e *accountEnv) summary(t *testing.T, id string) match.Summary {
	t.Helper()
	sum, err := e.browser(addrC).Match(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return sum
}

// playOut starts the match and plays every human seat at random to the
// end; leave names a seat whose player leaves at its first turn.
func (e *accountEnv) playOut(t *testing.T, cm *server.CreatedMatch, host *browser, leave engine.Seat) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := host.Do(ctx, "POST", "/api/matches/"+cm.Match.ID+"/start", cm.HostToken, nil, nil); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, len(cm.Seats))
	n := 0
	for _, s := range cm.Seats {
		if s.Token == "" {
			continue
		}
		n++
		p := e.dial(cm.Match.ID, s.Token, s.Seat)
		defer p.close()
		go func() {
			if s.Seat == leave {
				done <- p.conn.Leave(ctx)
				return
			}
			_, err := p.play(ctx, newRand(uint64(s.Seat)), playOptions{})
			done <- err
		}()
	}
	for range n {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}

// profile reads a player's profile until ok holds (the sweep rates within
// a moment).
func (e *accountEnv) profileWhen(t *testing.T, id string, what string, ok func(server.Profile) bool) server.Profile {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		var p server.Profile
		if err := e.browser(addrC).Do(context.Background(), "GET", "/api/players/"+id, "", nil, &p); err != nil {
			t.Fatal(err)
		}
		if ok(p) {
			return p
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: the profile is %+v", what, p)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

const noLeaver = engine.Seat(-1)

// addrC is a third client, a visitor who reads.
const addrC = "127.0.0.3"

// Two signed-in players at a table with its clocks on: the lobby says the
// table is rated once both sit, with an even chance each; at the end each
// has a rating and a line of history, the winner's up and the loser's
// down; the finished match says it was rated. A table with a guest, with
// its clocks off, or of bots only is not rated, and says why before the
// start. (Issue 32, items 1, 4 and 5.)
func TestRatedMatch(t *testing.T) {
	e := ratingEnv(t)
	ana, bo := e.browser(addrA), e.browser(addrB)
	mA, mB := ana.mustSignIn(t, "ana@example.org"), bo.mustSignIn(t, "bo@example.org")
	ctx := context.Background()

	cm, err := ana.Create(ctx, match.CreateRequest{Game: "testcards", Players: 2})
	if err != nil {
		t.Fatal(err)
	}
	if sum := e.summary(t, cm.Match.ID); sum.Rated || sum.Unrated != server.UnratedSeatOpen {
		t.Fatalf("a table with free seats: rated %v, unrated %q", sum.Rated, sum.Unrated)
	}
	for i, b := range []*browser{ana, bo} {
		if _, err := b.Join(ctx, cm.Match.ID, cm.Seats[i].Token, "P"); err != nil {
			t.Fatal(err)
		}
	}
	sum := e.summary(t, cm.Match.ID)
	if !sum.Rated || sum.Unrated != "" || len(sum.Chances) != 2 || sum.Chances[0].Chance != 0.5 || sum.Chances[1].Seats[0] != 1 {
		t.Fatalf("a table of two new accounts: rated %v %q, chances %+v", sum.Rated, sum.Unrated, sum.Chances)
	}
	e.playOut(t, cm, ana, noLeaver)
	out := e.summary(t, cm.Match.ID).Outcome
	pa := e.profileWhen(t, mA.ID, "ana rated", func(p server.Profile) bool { return p.Ratings["testcards"]["free_for_all"].Games == 1 })
	pb := e.profileWhen(t, mB.ID, "bo rated", func(p server.Profile) bool { return p.Ratings["testcards"]["free_for_all"].Games == 1 })
	ra, rb := pa.Ratings["testcards"]["free_for_all"], pb.Ratings["testcards"]["free_for_all"]
	up := func(r server.RatingOut, rank, other int) bool {
		switch {
		case rank < other:
			return r.Mu > 25
		case rank > other:
			return r.Mu < 25
		}
		return math.Abs(r.Mu-25) < 1e-9
	}
	if !up(ra, out.Ranks[0], out.Ranks[1]) || !up(rb, out.Ranks[1], out.Ranks[0]) || ra.Sigma >= 25.0/3 || !ra.Provisional ||
		ra.Display != math.Round(max(0, ra.Mu-3*ra.Sigma)*10)/10 || rb.Display != math.Round(max(0, rb.Mu-3*rb.Sigma)*10)/10 {
		t.Fatalf("after ranks %v: ana %+v, bo %+v", out.Ranks, ra, rb)
	}
	if len(pa.RatingHistory) != 1 || pa.RatingHistory[0].Match != cm.Match.ID || pa.RatingHistory[0].Mu != ra.Mu ||
		pa.RatingHistory[0].Rank != out.Ranks[0] {
		t.Fatalf("ana's history: %+v", pa.RatingHistory)
	}
	if pa.Reputation != (server.Reputation{Days: 30, Finished: 1}) {
		t.Fatalf("ana's reputation: %+v", pa.Reputation)
	}
	if sum := e.summary(t, cm.Match.ID); !sum.Rated || len(sum.Chances) != 0 {
		t.Fatalf("the finished match: rated %v, chances %+v", sum.Rated, sum.Chances)
	}

	// Tables that are not rated say why before the start.
	zero, yes := int64(0), true
	for _, c := range []struct {
		name  string
		seats []match.SeatRequest
		tune  func(*match.CreateRequest)
		at    []*browser
		want  string
	}{
		{"a guest's seat", nil, nil, []*browser{ana, e.browser(addrC)}, server.UnratedSeatOpen},
		{"the clocks off", nil, func(r *match.CreateRequest) { r.MoveLimitMs = &zero }, []*browser{ana, bo}, server.UnratedNoClock},
		{"bots only", []match.SeatRequest{{Kind: "bot", Bot: "easy"}, {Kind: "bot", Bot: "hard"}}, nil, nil, server.UnratedBotsOnly},
		{"a bot that is not a level", []match.SeatRequest{{Kind: "human"}, {Kind: "bot", Bot: "random"}}, nil, []*browser{ana}, server.UnratedBot},
		{"one account on both seats", nil, nil, []*browser{ana, ana}, server.UnratedSamePlayer},
		{"hints allowed", nil, func(r *match.CreateRequest) { r.Hints = &yes }, []*browser{ana, bo}, server.UnratedHints},
		{"one person and a bot, hints by default", []match.SeatRequest{{Kind: "human"}, {Kind: "bot", Bot: "easy"}}, nil, []*browser{ana}, server.UnratedHints},
	} {
		cm := e.table(t, ana, c.seats, c.tune, c.at...)
		if sum := e.summary(t, cm.Match.ID); sum.Rated || sum.Unrated != c.want || sum.Chances != nil {
			t.Errorf("%s: rated %v, unrated %q, chances %v; want %q", c.name, sum.Rated, sum.Unrated, sum.Chances, c.want)
		}
	}
}

// A player who leaves counts as last, and the bot that finished for them
// is not their result; the others' ratings stay as they were. A bot of a
// level has a rated identity that a match against it moves. (Issue 32,
// items 3 and 4.)
func TestRatedLeaverAndBot(t *testing.T) {
	e := ratingEnv(t)
	ana, bo := e.browser(addrA), e.browser(addrB)
	mA, mB := ana.mustSignIn(t, "ana@example.org"), bo.mustSignIn(t, "bo@example.org")

	cm := e.table(t, ana, nil, nil, ana, bo)
	e.playOut(t, cm, ana, 1)
	pb := e.profileWhen(t, mB.ID, "bo rated as last", func(p server.Profile) bool { return p.Ratings["testcards"]["free_for_all"].Games == 1 })
	if rb := pb.Ratings["testcards"]["free_for_all"]; rb.Mu >= 25 || pb.RatingHistory[0].Rank != 2 {
		t.Fatalf("bo, who left: %+v, history %+v", rb, pb.RatingHistory)
	}
	if pb.Reputation != (server.Reputation{Days: 30, Left: 1}) {
		t.Fatalf("bo's reputation: %+v", pb.Reputation)
	}
	pa := e.profileWhen(t, mA.ID, "ana's profile", func(server.Profile) bool { return true })
	if len(pa.Ratings) != 0 || len(pa.RatingHistory) != 0 {
		t.Fatalf("ana, whose opponent left, was rated: %+v %+v", pa.Ratings, pa.RatingHistory)
	}
	if sum := e.summary(t, cm.Match.ID); !sum.Rated || sum.Unrated != server.UnratedLeavers {
		t.Fatalf("the match with a leaver: rated %v, %q", sum.Rated, sum.Unrated)
	}

	no := false // (hints, on by default against bots, leave a table unrated)
	cm = e.table(t, ana, []match.SeatRequest{{Kind: "human"}, {Kind: "bot", Bot: "hard"}}, func(r *match.CreateRequest) { r.Hints = &no }, ana)
	if sum := e.summary(t, cm.Match.ID); !sum.Rated || len(sum.Chances) != 2 {
		t.Fatalf("ana against a hard bot: rated %v %q, chances %+v", sum.Rated, sum.Unrated, sum.Chances)
	}
	e.playOut(t, cm, ana, noLeaver)
	e.profileWhen(t, mA.ID, "ana rated against the bot", func(p server.Profile) bool { return p.Ratings["testcards"]["free_for_all"].Games == 1 })
	var lb server.Leaderboards
	if err := e.browser(addrC).Do(context.Background(), "GET", "/api/leaderboard/testcards?family=free_for_all", "", nil, &lb); err != nil {
		t.Fatal(err)
	}
	if len(lb.Boards) != 1 || len(lb.Boards[0].Entries) != 0 {
		t.Fatalf("a leaderboard of provisional ratings only: %+v", lb)
	}
}

// The leaderboard ranks established ratings by μ − 3σ, names accounts and
// bots, and refuses an unknown game or family. (Issue 32, item 5.)
func TestLeaderboard(t *testing.T) {
	e := ratingEnv(t)
	ana, bo := e.browser(addrA), e.browser(addrB)
	mA, mB := ana.mustSignIn(t, "ana@example.org"), bo.mustSignIn(t, "bo@example.org")
	e.stop()
	st, err := store.OpenSQLite(e.cfg.DataPath, store.SQLiteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	for i, c := range []store.RatingChange{
		{Player: mA.ID, Mu: 30, Sigma: 4},        // 18
		{Player: mB.ID, Mu: 35, Sigma: 6},        // provisional
		{Player: "bot:hard", Mu: 28, Sigma: 2},   // 22
		{Player: "bot:easy", Mu: 15, Sigma: 1.5}, // 10.5
	} {
		if err := st.RecordRating(ctx, &store.MatchRating{Match: "x" + string(rune('a'+i)), Rated: true, Game: "testcards",
			Family: "free_for_all", Changes: []store.RatingChange{c}, At: time.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	st.Close()
	e.start()
	var lb server.Leaderboards
	if err := e.browser(addrC).Do(ctx, "GET", "/api/leaderboard/testcards", "", nil, &lb); err != nil {
		t.Fatal(err)
	}
	if len(lb.Boards) != 1 || lb.Boards[0].Family != "free_for_all" || len(lb.Boards[0].Entries) != 3 {
		t.Fatalf("the boards: %+v", lb)
	}
	want := []server.LeaderboardEntry{
		{Rank: 1, Player: "bot:hard", Name: "hard", Rating: 22, Mu: 28, Sigma: 2, Games: 1, Bot: true},
		{Rank: 2, Player: mA.ID, Name: mA.Name, Rating: 18, Mu: 30, Sigma: 4, Games: 1},
		{Rank: 3, Player: "bot:easy", Name: "easy", Rating: 10.5, Mu: 15, Sigma: 1.5, Games: 1, Bot: true},
	}
	for i, w := range want {
		if lb.Boards[0].Entries[i] != w {
			t.Fatalf("entry %d: %+v, want %+v", i, lb.Boards[0].Entries[i], w)
		}
	}
	for path, code := range map[string]string{
		"/api/leaderboard/nosuchgame":            match.CodeUnknownGame,
		"/api/leaderboard/testcards?family=solo": match.CodeBadParameters,
		"/api/leaderboard/testcards?limit=0":     match.CodeBadParameters,
	} {
		if err := e.browser(addrC).Do(ctx, "GET", path, "", nil, nil); apiCode(err) != code {
			t.Errorf("%s: %v, want %s", path, err, code)
		}
	}
}

// Room 25's co-operation and team modes are rated where the lab measured
// their baselines (internal/rating/baselines.json), with each side's
// chance before the start; a variant it did not measure (no beacons) says
// so. (Issue 32, item 2.)
func TestRoom25RatedWhereMeasured(t *testing.T) {
	e := newAccountEnv(t, func(c *server.Config) { c.Games = append(c.Games, room25.Game{}) })
	ana, bo := e.browser(addrA), e.browser(addrB)
	ana.mustSignIn(t, "ana@example.org")
	bo.mustSignIn(t, "bo@example.org")
	no := false
	for _, c := range []struct {
		options map[string]string
		rated   bool
	}{
		{map[string]string{"mode": "cooperation"}, true},
		{map[string]string{"mode": "cooperation", "beacons": "off"}, false},
	} {
		cm := e.table(t, ana, nil, func(r *match.CreateRequest) { r.Game, r.Options, r.Hints = "room25", c.options, &no }, ana, bo)
		sum := e.summary(t, cm.Match.ID)
		if c.rated && (!sum.Rated || len(sum.Chances) != 1 || sum.Chances[0].Chance <= 0 || sum.Chances[0].Chance >= 1) {
			t.Errorf("%v: rated %v (%q), chances %+v; want rated, with the team's chance", c.options, sum.Rated, sum.Unrated, sum.Chances)
		}
		if !c.rated && (sum.Rated || sum.Unrated != server.UnratedNotMeasured) {
			t.Errorf("%v: rated %v, unrated %q; want %q", c.options, sum.Rated, sum.Unrated, server.UnratedNotMeasured)
		}
	}
}
