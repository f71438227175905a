package server_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"sortie/engine"
	"sortie/internal/match"
	"sortie/internal/match/matchtest"
	"sortie/internal/server"
	"sortie/internal/server/client"
	"sortie/internal/store"
)

func isState(m *match.Message) bool  { return m.Type == match.TypeState }
func isUpdate(m *match.Message) bool { return m.Type == match.TypeUpdate }

// A client that drops out reconnects and resumes where the match is; a second
// connection of a seat replaces the first.
func TestReconnect(t *testing.T) {
	e := newEnv(t, matchtest.Games(), nil)
	ctx := context.Background()
	cm := e.newMatch(match.CreateRequest{Game: "testcards", Players: 2}, true)
	id := cm.Match.ID
	p0 := e.dial(id, cm.Seats[0].Token, 0)
	p1 := e.dial(id, cm.Seats[1].Token, 1)
	if _, err := p0.play(ctx, newRand(1), playOptions{stopAfter: 1}); err != nil {
		t.Fatal(err)
	}
	// Seat 1 drops without a goodbye, and seat 0 sees it gone.
	p1.close()
	p0.expect(t, "seat 1 gone", func(m *match.Message) bool { return m.Type == match.TypeSeats && !m.Seats[1].Connected })
	sum, err := e.c.Match(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	// Seat 1 comes back: it gets the match as it is now, with its moves.
	p1 = e.dial(id, cm.Seats[1].Token, 1)
	st := p1.expect(t, "the state", isState)
	if st.Seq != sum.Seq || len(st.Legal) == 0 || *st.Seat != 1 {
		t.Fatalf("after reconnecting: seq %d (match at %d), %d legal actions, seat %v", st.Seq, sum.Seq, len(st.Legal), *st.Seat)
	}
	// A second socket of seat 1 replaces the first, which is told why.
	p1b := e.dial(id, cm.Seats[1].Token, 1)
	for {
		_, err := p1.recv(ctx)
		if err != nil {
			if client.CloseStatus(err) != int(server.CloseReplaced) {
				t.Fatalf("the replaced socket closed with %v", err)
			}
			break
		}
	}
	// The match plays on to its end with the new socket.
	done := make(chan error, 1)
	go func() { _, err := p0.play(ctx, newRand(2), playOptions{}); done <- err }()
	if _, err := p1b.play(ctx, newRand(3), playOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	rp, err := e.c.Replay(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	checkNoLeak(t, matchtest.Cards{}, rp, 0, p0.messages())
}

// A human away longer than the match's takeover time has their seat played
// by its bot; when they come back they play again, and the bot stops.
func TestBotTakeoverAndReclaim(t *testing.T) {
	e := newEnv(t, matchtest.Games(), nil)
	ctx := context.Background()
	start := time.Now() // before the match starts
	cm := e.newMatch(match.CreateRequest{Game: "testcards", Players: 2, TakeoverAfterMs: new(int64(300)), BotDelayMs: 20}, true)
	id := cm.Match.ID
	p0 := e.dial(id, cm.Seats[0].Token, 0)
	// Seat 1 never connects. Seat 0 plays; after 300 ms seat 1's bot takes
	// over and answers.
	p0.expect(t, "the state", isState)
	p0.expect(t, "the takeover", func(m *match.Message) bool {
		return m.Type == match.TypeSeats && m.Seats[1].PlayedBy == match.Bot
	})
	if d := time.Since(start); d < 290*time.Millisecond {
		t.Fatalf("the bot took over after %v, before the 300 ms", d)
	}
	r := newRand(4)
	for range 3 {
		if _, err := p0.play(ctx, r, playOptions{stopAfter: 1}); err != nil {
			t.Fatal(err)
		}
	}
	// Seat 1's human comes back: the seat is theirs again.
	p1 := e.dial(id, cm.Seats[1].Token, 1)
	st := p1.expect(t, "the state", isState)
	if st.Seats[1].PlayedBy != match.Human || !st.Seats[1].Connected {
		t.Fatalf("after reclaiming, seat 1 is played by %s", st.Seats[1].PlayedBy)
	}
	// Seat 0 plays; now it is seat 1's turn, and no bot plays it.
	if st.Actors[0] == 0 {
		if _, err := p0.play(ctx, r, playOptions{stopAfter: 1}); err != nil {
			t.Fatal(err)
		}
	}
	time.Sleep(300 * time.Millisecond) // longer than the bot's delay
	sum, err := e.c.Match(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	seq := sum.Seq
	time.Sleep(200 * time.Millisecond)
	if sum, _ = e.c.Match(ctx, id); sum.Seq != seq {
		t.Fatalf("the match moved on (%d → %d) while seat 1's human holds the turn", seq, sum.Seq)
	}
	// The human leaves again: after 300 ms the bot plays their turn.
	p1.close()
	p0.expect(t, "the second takeover", func(m *match.Message) bool { return isUpdate(m) && m.Seq > seq })
	finishWith(t, ctx, p0)
}

// finishWith plays p's seat to the end.
func finishWith(t *testing.T, ctx context.Context, p *player) {
	t.Helper()
	last, err := p.play(ctx, newRand(9), playOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if last.Status != store.Finished {
		t.Fatalf("status %s", last.Status)
	}
}

// A human out of time has that one move played by the seat's bot, and keeps
// the seat.
func TestMoveLimit(t *testing.T) {
	e := newEnv(t, matchtest.Games(), nil)
	cm := e.newMatch(match.CreateRequest{Game: "testcards", Players: 2, MoveLimitMs: new(int64(200))}, false)
	p0 := e.dial(cm.Match.ID, cm.Seats[0].Token, 0)
	p0.expect(t, "the state", isState)
	start := time.Now() // before the match starts
	if _, err := e.c.Start(context.Background(), cm.Match.ID, cm.HostToken); err != nil {
		t.Fatal(err)
	}
	st := p0.expect(t, "the start", func(m *match.Message) bool { return isState(m) && m.Status == store.Running })
	if st.Actors[0] != 0 {
		t.Fatalf("seat %d starts", st.Actors[0])
	}
	up := p0.expect(t, "the move played for seat 0", isUpdate)
	if d := time.Since(start); d < 190*time.Millisecond {
		t.Fatalf("the move was played after %v, before the 200 ms limit", d)
	}
	if up.Ack != nil || up.Seq != 1 {
		t.Fatalf("unexpected update %+v", up)
	}
	sum, _ := e.c.Match(context.Background(), cm.Match.ID)
	if sum.Seats[0].PlayedBy != match.Human {
		t.Fatalf("seat 0 is now played by %s", sum.Seats[0].PlayedBy)
	}
}

// A graceful restart keeps every acknowledged action; open and running
// matches come back from their logs and finish; a real-time clock pauses
// while the server is down.
func TestRestartResumes(t *testing.T) {
	e := newEnv(t, matchtest.Games(), nil)
	ctx := context.Background()
	cm := e.newMatch(match.CreateRequest{Game: "testcards", Players: 2}, true)
	open := e.newMatch(match.CreateRequest{Game: "testcards", Players: 3}, false)
	race := e.newMatch(match.CreateRequest{Game: "testrace", Players: 1, Options: map[string]string{"seconds": "600"}}, true)
	id := cm.Match.ID
	p0 := e.dial(id, cm.Seats[0].Token, 0)
	p1 := e.dial(id, cm.Seats[1].Token, 1)
	done := make(chan error, 1)
	go func() { _, err := p1.play(ctx, newRand(1), playOptions{stopAfter: 3}); done <- err }()
	if _, err := p0.play(ctx, newRand(2), playOptions{stopAfter: 3}); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // the race's clock runs
	before, _ := e.c.Match(ctx, id)
	t0 := time.Now()
	raceBefore, _ := e.c.Match(ctx, race.Match.ID)
	e.stop()
	up := time.Since(t0) // the clock may run while the server is up
	// Sockets learn that the server is going away.
	if _, err := p0.recv(ctx); client.CloseStatus(err) != 1001 {
		for err == nil {
			_, err = p0.recv(ctx)
		}
		if client.CloseStatus(err) != 1001 {
			t.Fatalf("socket closed with %v, want 1001 going away", err)
		}
	}
	time.Sleep(500 * time.Millisecond) // the server is down
	t2 := time.Now()
	e.start()
	after, err := e.c.Match(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if after.Seq != before.Seq || after.Status != store.Running || !after.Live {
		t.Fatalf("after restart: seq %d status %s live %v; before: seq %d", after.Seq, after.Status, after.Live, before.Seq)
	}
	raceAfter, _ := e.c.Match(ctx, race.Match.ID)
	up += time.Since(t2)
	if ran := raceAfter.Clock - raceBefore.Clock; ran < 0 || time.Duration(ran)*time.Millisecond > up+50*time.Millisecond {
		t.Fatalf("the race clock went from %d to %d while the server was up %v and down 500 ms", raceBefore.Clock, raceAfter.Clock, up)
	}
	if o, _ := e.c.Match(ctx, open.Match.ID); o.Status != store.Open || !o.Live {
		t.Fatalf("the open match came back as %s (live %v)", o.Status, o.Live)
	}
	p0 = e.dial(id, cm.Seats[0].Token, 0)
	p1 = e.dial(id, cm.Seats[1].Token, 1)
	go func() { _, err := p1.play(ctx, newRand(3), playOptions{}); done <- err }()
	finishWith(t, ctx, p0)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	rp, err := e.c.Replay(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	// The clients' messages after the restart match a replay of the log.
	checkNoLeak(t, matchtest.Cards{}, rp, 0, p0.messages())
}

// The lobby lists matches by status; a match's summary never shows its seed
// or tokens.
func TestLobby(t *testing.T) {
	e := newEnv(t, matchtest.Games(), nil)
	ctx := context.Background()
	games, err := e.c.Games(ctx)
	if err != nil || len(games) != 2 || games[0].ID != "testcards" || len(games[0].Options) != 1 || len(games[0].Bots) == 0 {
		t.Fatalf("games: %+v %v", games, err)
	}
	open := e.newMatch(match.CreateRequest{Game: "testcards", Players: 2}, false)
	running := e.newMatch(match.CreateRequest{Game: "testcards", Players: 2}, true)
	for status, want := range map[store.Status]string{store.Open: open.Match.ID, store.Running: running.Match.ID} {
		var out struct{ Matches []match.Summary }
		if err := e.c.Do(ctx, "GET", "/api/matches?status="+string(status), "", nil, &out); err != nil {
			t.Fatal(err)
		}
		if len(out.Matches) != 1 || out.Matches[0].ID != want {
			t.Fatalf("%s matches: %+v", status, out.Matches)
		}
	}
	resp, err := http.Get(e.hs.URL + "/api/matches")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, secret := range []string{open.HostToken, open.Seats[0].Token, running.Seats[1].Token, `"seed"`, "bot_seed", "hash"} {
		if strings.Contains(string(body), secret) {
			t.Fatalf("the match list shows a secret (%s): %s", secret, body)
		}
	}
	if !strings.Contains(open.Seats[0].Invite, open.Seats[0].Token) || !strings.Contains(open.Seats[0].Invite, "#") {
		t.Fatalf("the invite link %q should hold the token in its fragment", open.Seats[0].Invite)
	}
	// Auto-start: the match starts when every human seat has joined and
	// has its player on the match (a socket open), not before.
	cm, err := e.c.Create(ctx, match.CreateRequest{Game: "testcards", Players: 2, AutoStart: true})
	if err != nil {
		t.Fatal(err)
	}
	e.c.Join(ctx, cm.Match.ID, cm.Seats[0].Token, "Ana")
	if s, _ := e.c.Match(ctx, cm.Match.ID); s.Status != store.Open {
		t.Fatalf("started with one seat empty")
	}
	s, err := e.c.Join(ctx, cm.Match.ID, cm.Seats[1].Token, "Bo")
	if err != nil || s.Status != store.Open || s.Seats[1].Name != "Bo" {
		t.Fatalf("after the last join, nobody on the match: %+v %v", s, err)
	}
	bo := e.dial(cm.Match.ID, cm.Seats[1].Token, 1)
	defer bo.close()
	if s, _ := e.c.Match(ctx, cm.Match.ID); s.Status != store.Open || !s.Seats[1].Connected {
		t.Fatalf("started with Ana still away: %+v", s)
	}
	ana := e.dial(cm.Match.ID, cm.Seats[0].Token, 0)
	defer ana.close()
	waitFor(t, "the match to start with both players on it", func() bool {
		s, err := e.c.Match(ctx, cm.Match.ID)
		return err == nil && s.Status == store.Running
	})
}

// /healthz, /metrics and the static files.
func TestOperations(t *testing.T) {
	e := newEnv(t, matchtest.Games(), func(c *server.Config) {
		c.Static = fstest.MapFS{"index.html": {Data: []byte("<p>the web client</p>")}}
	})
	ctx := context.Background()
	cm := e.newMatch(match.CreateRequest{Game: "testcards", Players: 2}, true)
	p := e.dial(cm.Match.ID, cm.Seats[0].Token, 0)
	if _, err := p.play(ctx, newRand(1), playOptions{stopAfter: 1}); err != nil {
		t.Fatal(err)
	}
	get := func(path string) (int, string) {
		resp, err := http.Get(e.hs.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := get("/healthz"); code != 200 || !strings.Contains(body, `"ok"`) {
		t.Fatalf("healthz: %d %s", code, body)
	}
	// The counters are updated just after the acknowledgement is sent.
	var code int
	var body string
	for range 100 {
		if code, body = get("/metrics"); strings.Contains(body, `result="accepted"} 1`) {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	if code != 200 {
		t.Fatalf("metrics: %d", code)
	}
	for _, m := range []string{"sortie_matches_live 1", `sortie_sockets{audience="seat"} 1`, `sortie_client_actions_total{result="accepted"} 1`,
		"sortie_action_seconds_bucket", "sortie_records_total", "sortie_store_commit_seconds", "process_resident_memory_bytes", "go_goroutines"} {
		if !strings.Contains(body, m) {
			t.Fatalf("/metrics lacks %q", m)
		}
	}
	if code, body := get("/"); code != 200 || !strings.Contains(body, "the web client") {
		t.Fatalf("static /: %d %s", code, body)
	}
	e2 := newEnv(t, matchtest.Games(), nil)
	resp, err := http.Get(e2.hs.URL + "/")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), "Sortie") {
		t.Fatalf("placeholder: %d %s", resp.StatusCode, b)
	}
	_ = engine.Spectator
}
