package server_test

import (
	"context"
	"net/http"
	"testing"
	"time"

	"sortie/internal/match"
	"sortie/internal/server"
	"sortie/internal/server/client"
)

// playEnv is a server with accounts whose matchmaker runs a wave every 50 ms.
func playEnv(t *testing.T) *accountEnv {
	return newAccountEnv(t, func(c *server.Config) {
		c.ClockSpeed, c.RateEvery, c.PlayWave = 20, 50*time.Millisecond, 50*time.Millisecond
	})
}

// ask presses Play now.
func (b *browser) ask(t *testing.T, body map[string]any) server.TicketOut {
	t.Helper()
	var out server.TicketOut
	if err := b.Do(context.Background(), "POST", "/api/play", "", body, &out); err != nil {
		t.Fatalf("play now %v: %v", body, err)
	}
	return out
}

// ticket reads a ticket until ok holds.
func (b *browser) ticketWhen(t *testing.T, ticket, what string, ok func(server.TicketOut) bool) server.TicketOut {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		var out server.TicketOut
		if err := b.Do(context.Background(), "GET", "/api/play/"+ticket, "", nil, &out); err != nil {
			t.Fatal(err)
		}
		if ok(out) {
			return out
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s: the ticket is %+v", what, out)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func matched(o server.TicketOut) bool { return o.Status == "matched" }

// Two accounts pressing Play now for the same table meet at one table,
// each with a seat of their own and its token, the table rated and started
// as soon as both are there; while one waits, the pool counts them.
// (Issue 32, items 6 and 9.)
func TestPlayNowTwoAccountsMeet(t *testing.T) {
	e := playEnv(t)
	ana, bo := e.browser(addrA), e.browser(addrB)
	mA, mB := ana.mustSignIn(t, "ana@example.org"), bo.mustSignIn(t, "bo@example.org")
	ask := map[string]any{"game": "testcards", "players": 2, "rated": true, "bot_fill_after_ms": 60000}
	ta := ana.ask(t, ask)
	if ta.Status != "waiting" || ta.Waiting != 1 || ta.Ticket == "" || ta.Pool.Game != "testcards" || !ta.Pool.Rated || ta.BotFillMs != 60000 {
		t.Fatalf("ana's ticket: %+v", ta)
	}
	var pools struct {
		Pools []server.PoolOut `json:"pools"`
	}
	if err := bo.Do(context.Background(), "GET", "/api/play/pools", "", nil, &pools); err != nil || len(pools.Pools) != 1 || pools.Pools[0].Waiting != 1 {
		t.Fatalf("the pools while ana waits: %+v %v", pools, err)
	}
	time.Sleep(200 * time.Millisecond) // a few waves: ana stays alone
	if o := ana.ticketWhen(t, ta.Ticket, "ana alone", func(server.TicketOut) bool { return true }); o.Status != "waiting" || o.WaitedMs < 200 {
		t.Fatalf("ana alone: %+v", o)
	}
	tb := bo.ask(t, ask)
	a := ana.ticketWhen(t, ta.Ticket, "ana seated", matched)
	b := bo.ticketWhen(t, tb.Ticket, "bo seated", matched)
	if a.Match == "" || a.Match != b.Match || *a.Seat == *b.Seat || a.Token == "" || a.Token == b.Token || a.Waiting != 0 {
		t.Fatalf("ana %+v, bo %+v", a, b)
	}
	sum := e.summary(t, a.Match)
	if !sum.Rated || sum.Status != "open" || sum.Seats[*a.Seat].Account != mA.ID || sum.Seats[*b.Seat].Account != mB.ID ||
		!sum.Seats[0].Joined || !sum.Seats[1].Joined {
		t.Fatalf("the table: %+v", sum)
	}
	// Each plays with their seat's token; the table starts once both are
	// there.
	pa, pb := e.dial(a.Match, a.Token, *a.Seat), e.dial(b.Match, b.Token, *b.Seat)
	defer pa.close()
	defer pb.close()
	if _, err := client.New(e.public).Dial(context.Background(), a.Match, b.Token+"x"); err == nil {
		t.Fatal("a wrong token was taken")
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	done := make(chan error, 2)
	for i, p := range []*player{pa, pb} {
		go func() { _, err := p.play(ctx, newRand(uint64(i)), playOptions{}); done <- err }()
	}
	for range 2 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	e.profileWhen(t, mB.ID, "bo rated after Play now", func(p server.Profile) bool { return p.Ratings["testcards"]["free_for_all"].Games == 1 })
}

// A lone player is seated with bots after the wait they asked for, never
// before; a player who asked for humans only waits on; a casual table is
// not rated. (Issue 32, items 6 and 7.)
func TestPlayNowBotsAfterTheWait(t *testing.T) {
	e := playEnv(t)
	ana, bo := e.browser(addrA), e.browser(addrB)
	ana.mustSignIn(t, "ana@example.org")
	bo.mustSignIn(t, "bo@example.org")
	start := time.Now()
	ta := ana.ask(t, map[string]any{"game": "testcards", "players": 3, "bot_fill_after_ms": 400})
	tb := bo.ask(t, map[string]any{"game": "testcards", "players": 2, "bot_fill_after_ms": 0, "humans_only": true, "rated": false})
	a := ana.ticketWhen(t, ta.Ticket, "ana seated with bots", matched)
	if waited := time.Since(start); waited < 400*time.Millisecond || a.WaitedMs < 400 {
		t.Fatalf("ana was seated after %v (%d ms by the ticket), before the wait she asked for", waited, a.WaitedMs)
	}
	sum := e.summary(t, a.Match)
	bots := 0
	for _, st := range sum.Seats {
		if st.Kind == match.Bot {
			bots++
			if st.Bot != "medium" {
				t.Errorf("a bot of level %q for a new player", st.Bot)
			}
		}
	}
	if len(sum.Seats) != 3 || bots != 2 || !sum.Rated {
		t.Fatalf("ana's table: %+v", sum)
	}
	if sum.Settings.Hints {
		t.Errorf("ana's rated table against bots gives hints")
	}
	time.Sleep(300 * time.Millisecond)
	if o := bo.ticketWhen(t, tb.Ticket, "bo", func(server.TicketOut) bool { return true }); o.Status != "waiting" {
		t.Fatalf("bo, humans only, alone: %+v", o)
	}
	// Ana presses again, casual: she meets bo.
	ta = ana.ask(t, map[string]any{"game": "testcards", "players": 2, "rated": false})
	a = ana.ticketWhen(t, ta.Ticket, "ana meets bo", matched)
	if sum := e.summary(t, a.Match); sum.Rated || sum.Unrated != server.UnratedCasual {
		t.Fatalf("a casual table: rated %v, %q", sum.Rated, sum.Unrated)
	}
}

// A player who cancels stops waiting and is seated with nobody; a ticket
// is its player's alone; a ticket seated cannot be cancelled; bad requests
// are refused and change nothing. (Issue 32, item 6.)
func TestPlayNowCancelAndRefusals(t *testing.T) {
	e := playEnv(t)
	ana, bo, guest := e.browser(addrA), e.browser(addrB), e.browser(addrC)
	ana.mustSignIn(t, "ana@example.org")
	bo.mustSignIn(t, "bo@example.org")
	ctx := context.Background()
	ask := map[string]any{"game": "testcards", "players": 2, "bot_fill_after_ms": 60000}
	ta := ana.ask(t, ask)
	if err := bo.Do(ctx, "DELETE", "/api/play/"+ta.Ticket, "", nil, nil); apiCode(err) != server.CodeUnknownTicket {
		t.Fatalf("bo cancels ana's ticket: %v", err)
	}
	var out server.TicketOut
	if err := ana.Do(ctx, "DELETE", "/api/play/"+ta.Ticket, "", nil, &out); err != nil || out.Status != "cancelled" {
		t.Fatalf("ana cancels: %+v %v", out, err)
	}
	tb := bo.ask(t, ask)
	time.Sleep(300 * time.Millisecond)
	if o := bo.ticketWhen(t, tb.Ticket, "bo", func(server.TicketOut) bool { return true }); o.Status != "waiting" || o.Waiting != 1 {
		t.Fatalf("bo, after ana cancelled: %+v", o)
	}
	ta = ana.ask(t, ask)
	ana.ticketWhen(t, ta.Ticket, "ana seated", matched)
	if err := ana.Do(ctx, "DELETE", "/api/play/"+ta.Ticket, "", nil, nil); apiCode(err) != server.CodeTicketMatched {
		t.Fatalf("cancel a seated ticket: %v", err)
	}
	for _, c := range []struct {
		body map[string]any
		code string
	}{
		{map[string]any{"game": "nosuchgame", "players": 2}, match.CodeUnknownGame},
		{map[string]any{"game": "testcards", "players": 9}, match.CodeBadSetup},
		{map[string]any{"game": "testcards"}, match.CodeBadSetup},
		{map[string]any{"game": "testcards", "players": 2, "bot_fill_after_ms": -1}, match.CodeBadParameters},
		{map[string]any{"game": "testcards", "players": 2, "bot_fill_after_ms": 700000}, match.CodeBadParameters},
		{map[string]any{"game": "testcards", "players": 2, "surprise": 1}, server.CodeMalformed},
		{map[string]any{"game": "testrace", "players": 2, "clock": "correspondence"}, match.CodeNoCorrespondence},
		{map[string]any{"game": "testcards", "players": 2, "clock": "correspondence", "move_limit_ms": 3600000}, match.CodeBadParameters},
		{map[string]any{"game": "testcards", "players": 2, "move_limit_ms": 86400000}, match.CodeBadParameters},
		{map[string]any{"game": "testcards", "players": 2, "clock": "sundial"}, match.CodeBadParameters},
		{map[string]any{"game": "testcards", "players": 3, "players_max": 2}, match.CodeBadSetup},
		{map[string]any{"game": "testcards", "players": 2, "players_max": 9}, match.CodeBadSetup},
	} {
		if err := ana.Do(ctx, "POST", "/api/play", "", c.body, nil); apiCode(err) != c.code {
			t.Errorf("play now %v: %v, want %s", c.body, err, c.code)
		}
	}
	if err := guest.Do(ctx, "POST", "/api/play", "", ask, nil); apiCode(err) != "signed_out" {
		t.Errorf("a guest presses Play now: %v", err)
	}
	if err := guest.Do(ctx, "GET", "/api/play/"+ta.Ticket, "", nil, nil); apiCode(err) != "signed_out" {
		t.Errorf("a guest reads a ticket: %v", err)
	}
	var pools struct {
		Pools []server.PoolOut `json:"pools"`
	}
	if err := ana.Do(ctx, "GET", "/api/play/pools", "", nil, &pools); err != nil || len(pools.Pools) != 0 {
		t.Fatalf("the pools once everyone is seated: %+v %v", pools, err)
	}
	_ = http.StatusOK
}

// Play now by correspondence: players who asked for a correspondence table
// of the same move limit meet at one, with that move limit and the days
// off of any correspondence table; they never meet those who asked for a
// live table or another move limit, and bots fill a correspondence table
// after the wait as they do a live one. (Issue 32, item 6; issue 33.)
func TestPlayNowByCorrespondence(t *testing.T) {
	e := playEnv(t)
	ana, bo, cy := e.browser(addrA), e.browser(addrB), e.browser(addrC)
	ana.mustSignIn(t, "ana@example.org")
	bo.mustSignIn(t, "bo@example.org")
	cy.mustSignIn(t, "cy@example.org")
	twoDays := int64(2 * match.Day)
	ta := ana.ask(t, map[string]any{"game": "testcards", "players": 2, "clock": "correspondence", "move_limit_ms": twoDays, "bot_fill_after_ms": 60000})
	if ta.Pool.Clock != "correspondence" || ta.Pool.MoveLimitMs != twoDays {
		t.Fatalf("ana's ticket: %+v", ta.Pool)
	}
	tb := bo.ask(t, map[string]any{"game": "testcards", "players": 2, "bot_fill_after_ms": 60000})
	tc := cy.ask(t, map[string]any{"game": "testcards", "players": 2, "clock": "correspondence", "bot_fill_after_ms": 60000})
	if tb.Pool.Clock != "live" || tb.Pool.MoveLimitMs != 0 || tc.Pool.MoveLimitMs != int64(match.Day) || tc.Waiting != 1 {
		t.Fatalf("bo's ticket %+v, cy's %+v", tb, tc)
	}
	time.Sleep(300 * time.Millisecond) // waves: three pools of one
	for _, w := range []struct {
		b      *browser
		ticket string
	}{{ana, ta.Ticket}, {bo, tb.Ticket}, {cy, tc.Ticket}} {
		if o := w.b.ticketWhen(t, w.ticket, "alone in a pool", func(server.TicketOut) bool { return true }); o.Status != "waiting" {
			t.Fatalf("a player alone in their pool was seated: %+v", o)
		}
	}
	dee := e.browser("127.0.0.4")
	dee.mustSignIn(t, "dee@example.org")
	td := dee.ask(t, map[string]any{"game": "testcards", "players": 2, "clock": "correspondence", "move_limit_ms": twoDays})
	a := ana.ticketWhen(t, ta.Ticket, "ana seated", matched)
	d := dee.ticketWhen(t, td.Ticket, "dee seated", matched)
	if a.Match != d.Match {
		t.Fatalf("ana and dee at two tables: %+v %+v", a, d)
	}
	sum := e.summary(t, a.Match)
	if sum.Settings.Clock != match.ClockCorrespondence || sum.Settings.MoveLimitMs != twoDays || sum.Settings.DaysOff != match.DefaultDaysOff || !sum.Rated {
		t.Fatalf("ana and dee's table: %+v, rated %v (%s)", sum.Settings, sum.Rated, sum.Unrated)
	}
	// Cy, alone at a day a move, asks again with a short wait: bots.
	tc = cy.ask(t, map[string]any{"game": "testcards", "players": 2, "clock": "correspondence", "bot_fill_after_ms": 100})
	c := cy.ticketWhen(t, tc.Ticket, "cy seated with a bot", matched)
	if sum := e.summary(t, c.Match); sum.Settings.Clock != match.ClockCorrespondence || sum.Settings.MoveLimitMs != int64(match.Day) || sum.Seats[1].Kind != match.Bot {
		t.Fatalf("cy's table: %+v %+v", sum.Settings, sum.Seats)
	}
	if o := bo.ticketWhen(t, tb.Ticket, "bo", func(server.TicketOut) bool { return true }); o.Status != "waiting" {
		t.Fatalf("bo, live, was seated at a correspondence table: %+v", o)
	}
}

// A player may ask for a range of players: they meet those who asked for a
// number inside it, at the largest number that seats people only, and the
// count of players waiting is of those who could share their table.
// (Issue 32, item 6.)
func TestPlayNowForARangeOfPlayers(t *testing.T) {
	e := playEnv(t)
	ana, bo, cy := e.browser(addrA), e.browser(addrB), e.browser(addrC)
	ana.mustSignIn(t, "ana@example.org")
	bo.mustSignIn(t, "bo@example.org")
	cy.mustSignIn(t, "cy@example.org")
	ta := ana.ask(t, map[string]any{"game": "testcards", "players": 2, "players_max": 3, "bot_fill_after_ms": 60000})
	if ta.Pool.Players != 2 || ta.Pool.PlayersMax != 3 || ta.Waiting != 1 {
		t.Fatalf("ana's ticket: %+v", ta)
	}
	tb := bo.ask(t, map[string]any{"game": "testcards", "players": 3, "bot_fill_after_ms": 60000})
	if tb.Waiting != 2 {
		t.Fatalf("bo, for three, sees %d waiting: ana (two or three) is one", tb.Waiting)
	}
	time.Sleep(300 * time.Millisecond) // waves: two people for a table of three
	if o := ana.ticketWhen(t, ta.Ticket, "ana", func(server.TicketOut) bool { return true }); o.Status != "waiting" || o.Waiting != 2 {
		t.Fatalf("ana and bo alone were seated, or ana counts wrong: %+v", o)
	}
	tc := cy.ask(t, map[string]any{"game": "testcards", "players": 3, "players_max": 4, "bot_fill_after_ms": 60000})
	a := ana.ticketWhen(t, ta.Ticket, "ana seated", matched)
	b := bo.ticketWhen(t, tb.Ticket, "bo seated", matched)
	c := cy.ticketWhen(t, tc.Ticket, "cy seated", matched)
	if a.Match != b.Match || b.Match != c.Match {
		t.Fatalf("three tables: %s %s %s", a.Match, b.Match, c.Match)
	}
	if sum := e.summary(t, a.Match); len(sum.Seats) != 3 {
		t.Fatalf("a table of %d for two-or-three, three and three-or-four", len(sum.Seats))
	}
}
