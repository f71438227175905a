package server_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"sortie/engine"
	"sortie/internal/match"
	"sortie/internal/match/matchtest"
	"sortie/internal/server"
	"sortie/internal/server/client"
	"sortie/internal/store"
)

// logTo sends a server's logs to l.
func logTo(l *matchtest.Logs) func(*server.Config) {
	return func(c *server.Config) { c.Logger = l.Logger() }
}

// playSome plays n legal actions of match id through the manager.
func (e *env) playSome(id string, n int) {
	e.t.Helper()
	ctx := context.Background()
	x, err := e.srv.Manager().Get(ctx, id)
	if err != nil {
		e.t.Fatal(err)
	}
	for range n {
		for s := range x.Players() {
			b, err := x.Snapshot(ctx, engine.Seat(s))
			if err != nil {
				e.t.Fatal(err)
			}
			var m match.Message
			json.Unmarshal(b, &m)
			if len(m.Legal) > 0 {
				if err := x.Act(ctx, engine.Seat(s), m.Seq, m.Legal[0]); err != nil {
					e.t.Fatal(err)
				}
				break
			}
		}
	}
}

// editStore changes the stored data of the stopped server by hand, as an
// operator (or a damaged disk) might.
func (e *env) editStore(query string, args ...any) {
	e.t.Helper()
	db, err := sql.Open("sqlite", "file:"+e.cfg.DataPath)
	if err != nil {
		e.t.Fatal(err)
	}
	defer db.Close()
	if res, err := db.Exec(query, args...); err != nil {
		e.t.Fatal(err)
	} else if n, _ := res.RowsAffected(); n != 1 {
		e.t.Fatalf("%s changed %d rows", query, n)
	}
}

// A match whose stored log no longer replays (a record edited by hand), and
// one whose options no longer fit its game, are marked failed once, with
// the reason, which the lobby and the API show; 200 requests for them
// answer at once and log nothing more than that one line each; their host
// may close them. (Issue 19, finding 8: such a match stayed running, and
// each request replayed it and logged an error again.)
func TestAMatchThatNoLongerReplaysFailsOnce(t *testing.T) {
	logs := &matchtest.Logs{}
	e := newEnv(t, matchtest.Games(), logTo(logs))
	ctx := context.Background()
	edited := e.newMatch(match.CreateRequest{Game: "testcards", Players: 2, Options: map[string]string{"hand": "4"}}, true)
	e.playSome(edited.Match.ID, 3)
	unfit := e.newMatch(match.CreateRequest{Game: "testcards", Players: 2}, false)
	e.stop()
	e.editStore(`UPDATE records SET rec = ? WHERE match_id = ? AND n = 2`, `{"seat":1,"action":{"type":"play","card":99},"at":0}`, edited.Match.ID)
	e.editStore(`UPDATE matches SET setup = replace(setup, '"hand":"3"', '"hand":"99"') WHERE id = ?`, unfit.Match.ID)
	e.start()

	for _, c := range []struct {
		cm     *server.CreatedMatch
		reason string
	}{{edited, match.ReasonBadLog}, {unfit, match.ReasonBadSetup}} {
		id := c.cm.Match.ID
		for i := range 200 {
			sum, err := e.c.Match(ctx, id)
			if err != nil || sum.Status != store.Failed || sum.Reason == nil || sum.Reason.Code != c.reason {
				t.Fatalf("GET %d of %s: %+v %v", i, id, sum.Reason, err)
			}
		}
		if c.reason == match.ReasonBadLog {
			if sum, _ := e.c.Match(ctx, id); sum.Reason.Params["record"] != float64(2) || strings.Contains(sum.Reason.Message, "99") {
				t.Fatalf("the reason should name the record, and nothing of what it held: %+v", sum.Reason)
			}
		}
		for _, path := range []string{"/state", "/view?step=1", "/replay"} {
			err := e.c.Do(ctx, "GET", "/api/matches/"+id+path, "", nil, nil)
			if apiCode(err) != match.CodeMatchFailed {
				t.Fatalf("GET %s of a failed match: %v", path, err)
			}
		}
		if _, err := e.c.Dial(ctx, id, ""); apiCode(err) != match.CodeMatchFailed {
			t.Fatalf("a socket to a failed match: %v", err)
		}
		if n := len(logs.Lines("ERROR", id)); n != 1 {
			t.Fatalf("match %s logged %d errors, want one:\n%s", id, n, strings.Join(logs.Lines("ERROR", id), "\n"))
		}
	}
	failed := listed(t, e.c, "failed")
	if len(failed) != 2 {
		t.Fatalf("the lobby lists %d failed matches, want 2", len(failed))
	}
	// Its host closes it; nobody else may.
	if _, err := e.c.CloseMatch(ctx, edited.Match.ID, edited.Seats[0].Token); apiCode(err) != match.CodeBadToken {
		t.Fatalf("a seat's token closes the match: %v", err)
	}
	sum, err := e.c.CloseMatch(ctx, edited.Match.ID, edited.HostToken)
	if err != nil || sum.Status != store.Closed || sum.Reason.Code != match.ReasonHostClosed || sum.Reason.Params["was"] != "failed" {
		t.Fatalf("closed by its host: %+v %v", sum, err)
	}
	if _, err := e.c.CloseMatch(ctx, edited.Match.ID, edited.HostToken); apiCode(err) != match.CodeFinished {
		t.Fatalf("closed twice: %v", err)
	}
	e.restart() // nothing is replayed again, nothing logged again
	if sum, err := e.c.Match(ctx, unfit.Match.ID); err != nil || sum.Status != store.Failed {
		t.Fatalf("after a restart: %+v %v", sum, err)
	}
	if n := len(logs.Lines("ERROR", "")); n != 2 {
		t.Fatalf("%d errors in all, want one per failed match:\n%s", n, strings.Join(logs.Lines("ERROR", ""), "\n"))
	}
}

// A match whose stored row no longer reads back (its setup, or a finished
// match's outcome, edited by hand or damaged) is marked failed with the
// reason, and holds nothing else up: the lobby lists every match, the
// others play on, the damaged ones answer match_failed at once and log one
// line each, and their host may close them. (Before, one such row made the
// lobby and the match answer 503 "try again" for ever.)
func TestADamagedRowFailsAlone(t *testing.T) {
	logs := &matchtest.Logs{}
	e := newEnv(t, matchtest.Games(), logTo(logs))
	ctx := context.Background()
	req := match.CreateRequest{Game: "testcards", Players: 2}
	damaged := e.newMatch(req, true)
	e.playSome(damaged.Match.ID, 2)
	good := e.newMatch(req, true)
	ended := e.newMatch(req, true)
	e.stop()
	e.editStore(`UPDATE matches SET setup = '{"players":' WHERE id = ?`, damaged.Match.ID)
	e.editStore(`UPDATE matches SET status = 'finished', outcome = 'not json', finished = 1 WHERE id = ?`, ended.Match.ID)
	e.start()

	all := listed(t, e.c, "running,finished,failed")
	status := map[string]match.Summary{}
	for _, s := range all {
		status[s.ID] = s
	}
	if s := status[good.Match.ID]; s.Status != store.Running {
		t.Fatalf("the good match is listed as %q among %d", s.Status, len(all))
	}
	for _, cm := range []*server.CreatedMatch{damaged, ended} {
		id := cm.Match.ID
		if s := status[id]; s.Status != store.Failed || s.Reason == nil || s.Reason.Code != match.ReasonBadSetup {
			t.Fatalf("a damaged match is listed as %q (%+v)", s.Status, s.Reason)
		}
		for i := range 50 {
			if sum, err := e.c.Match(ctx, id); err != nil || sum.Status != store.Failed {
				t.Fatalf("GET %d of %s: %+v %v", i, id, sum, err)
			}
		}
		for _, path := range []string{"/state", "/view?step=1", "/replay"} {
			if err := e.c.Do(ctx, "GET", "/api/matches/"+id+path, "", nil, nil); apiCode(err) != match.CodeMatchFailed {
				t.Fatalf("GET %s of a damaged match: %v", path, err)
			}
		}
		if _, err := e.c.Dial(ctx, id, ""); apiCode(err) != match.CodeMatchFailed {
			t.Fatalf("a socket to a damaged match: %v", err)
		}
		if n := len(logs.Lines("ERROR", id)); n != 1 {
			t.Fatalf("match %s logged %d errors, want one:\n%s", id, n, strings.Join(logs.Lines("ERROR", id), "\n"))
		}
	}
	e.playSome(good.Match.ID, 2)
	sum, err := e.c.CloseMatch(ctx, damaged.Match.ID, damaged.HostToken)
	if err != nil || sum.Status != store.Closed {
		t.Fatalf("closed by its host: %+v %v", sum, err)
	}
	e.restart() // stored as failed or closed: nothing logged again
	if sum, err := e.c.Match(ctx, ended.Match.ID); err != nil || sum.Status != store.Failed {
		t.Fatalf("after a restart: %+v %v", sum, err)
	}
	if n := len(logs.Lines("ERROR", "")); n != 2 {
		t.Fatalf("%d errors in all, want one per damaged match:\n%s", n, strings.Join(logs.Lines("ERROR", ""), "\n"))
	}
}

// listed returns the matches the lobby lists with the given statuses.
func listed(t *testing.T, c *client.Client, status string) []match.Summary {
	t.Helper()
	var out struct {
		Matches []match.Summary `json:"matches"`
	}
	if err := c.Do(context.Background(), "GET", "/api/matches?status="+status, "", nil, &out); err != nil {
		t.Fatal(err)
	}
	return out.Matches
}

// An open match nobody starts expires; a running match nobody is connected
// to is abandoned, and its bots stop; each gives its creator's place back,
// and the lobby lists them with why. (Issue 19, finding 2.)
func TestMatchesNobodyPlaysEnd(t *testing.T) {
	const expire, abandon = 400 * time.Millisecond, 600 * time.Millisecond
	e := newEnv(t, matchtest.Games(), func(c *server.Config) {
		c.ExpireOpen, c.AbandonAfter, c.OpenPerClient, c.CreateRate, c.ClockSpeed = expire, abandon, 1, -1, 20
	})
	ctx := context.Background()
	a, b := e.clientFrom(addrA), e.clientFrom(addrB)

	// Expiry: the open match holds its creator's one place until it expires.
	open, err := a.Create(ctx, match.CreateRequest{Game: "testcards"})
	if err != nil {
		t.Fatal(err)
	}
	if status, code, _, _ := createRaw(ctx, a, match.CreateRequest{Game: "testcards"}, nil); status != http.StatusTooManyRequests {
		t.Fatalf("a second open match: %d %s", status, code)
	}
	waitFor(t, "the open match to expire", func() bool {
		sum, err := a.Match(ctx, open.Match.ID)
		return err == nil && sum.Status == store.Expired
	})
	sum, _ := a.Match(ctx, open.Match.ID)
	if sum.Reason == nil || sum.Reason.Code != match.ReasonNotStarted || sum.Reason.Params["after_ms"] != float64(expire.Milliseconds()) || sum.FinishedAt == nil {
		t.Fatalf("expired: %+v", sum)
	}
	if _, err := e.c.Start(ctx, open.Match.ID, open.HostToken); apiCode(err) != match.CodeFinished {
		t.Fatalf("starting an expired match: %v", err)
	}
	if _, err := a.Join(ctx, open.Match.ID, open.Seats[0].Token, "late"); apiCode(err) != match.CodeFinished {
		t.Fatalf("joining an expired match: %v", err)
	}

	// Abandonment: the place came back; a bots-only match runs while
	// nobody is connected, until it is abandoned, and its bots stop.
	bots, err := a.Create(ctx, match.CreateRequest{Game: "testrace", Seats: []match.SeatRequest{{Kind: match.Bot}},
		Options: map[string]string{"seconds": "600", "goal": "100"}, AutoStart: true})
	if err != nil {
		t.Fatalf("the place of the expired match did not come back: %v", err)
	}
	waitFor(t, "the bots-only match to be abandoned", func() bool {
		sum, err := a.Match(ctx, bots.Match.ID)
		return err == nil && sum.Status == store.Abandoned
	})
	sum, _ = a.Match(ctx, bots.Match.ID)
	if sum.Reason == nil || sum.Reason.Code != match.ReasonNobodyThere || sum.Seq == 0 {
		t.Fatalf("abandoned: %+v", sum)
	}
	time.Sleep(300 * time.Millisecond)
	if again, _ := a.Match(ctx, sum.ID); again.Seq != sum.Seq {
		t.Fatalf("the bots played on after the match was abandoned: %d records, then %d", sum.Seq, again.Seq)
	}

	// A player connected keeps a match going however long it lasts; once
	// they leave, it is abandoned.
	held := e.newMatch(match.CreateRequest{Game: "testcards", Players: 2, TakeoverAfterMs: new(int64(0)), MoveLimitMs: new(int64(0))}, true)
	p := e.dial(held.Match.ID, held.Seats[0].Token, 0)
	time.Sleep(2 * abandon)
	if sum, _ := b.Match(ctx, held.Match.ID); sum.Status != store.Running {
		t.Fatalf("a match with a player connected is %s", sum.Status)
	}
	p.close()
	waitFor(t, "the match left by its player to be abandoned", func() bool {
		sum, err := b.Match(ctx, held.Match.ID)
		return err == nil && sum.Status == store.Abandoned
	})
	if _, err := a.Create(ctx, match.CreateRequest{Game: "testcards"}); err != nil {
		t.Fatalf("the place of the abandoned match did not come back: %v", err)
	}
	if n := len(listed(t, e.c, "expired,abandoned")); n != 3 {
		t.Fatalf("the lobby lists %d matches expired or abandoned, want 3", n)
	}
	if _, err := e.c.Replay(ctx, held.Match.ID); err != nil {
		t.Fatalf("the replay of an abandoned match: %v", err)
	}
}

// Matches over for longer than the retention are deleted with their logs;
// matches under way stay. Without a retention, everything stays.
func TestRetention(t *testing.T) {
	e := newEnv(t, matchtest.Games(), func(c *server.Config) {
		c.Retain, c.ClockSpeed, c.Linger = 300*time.Millisecond, 50, 50*time.Millisecond
	})
	ctx := context.Background()
	done, err := e.c.Create(ctx, botsOnly("2"))
	if err != nil {
		t.Fatal(err)
	}
	open := e.newMatch(match.CreateRequest{Game: "testcards"}, false)
	waitFor(t, "the finished match to be pruned", func() bool {
		_, err := e.c.Match(ctx, done.Match.ID)
		return apiCode(err) == match.CodeUnknownMatch
	})
	if log, err := e.srv.Manager().View(ctx, done.Match.ID, engine.Spectator, 1, "", ""); err == nil {
		t.Fatalf("the pruned match's log is still there: %+v", log)
	}
	if sum, err := e.c.Match(ctx, open.Match.ID); err != nil || sum.Status != store.Open {
		t.Fatalf("an open match was pruned: %v", err)
	}

	keep := newEnv(t, matchtest.Games(), func(c *server.Config) { c.ClockSpeed = 50 })
	kept, err := keep.c.Create(ctx, botsOnly("2"))
	if err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the match to finish", func() bool {
		sum, err := keep.c.Match(ctx, kept.Match.ID)
		return err == nil && sum.Status == store.Finished
	})
	time.Sleep(time.Second)
	if _, err := keep.c.Replay(ctx, kept.Match.ID); err != nil {
		t.Fatalf("without a retention a finished match was lost: %v", err)
	}
}

// A match past the retention is gone at once, on every way it was shown:
// its summary, state and view answer unknown_match, the lobby lists it no
// more, the sockets watching it are let go and it leaves memory, though a
// finished match lingers a minute in memory otherwise. (Issue 29, finding 6.)
func TestPastTheRetentionIsGoneAtOnce(t *testing.T) {
	const retain = 2 * time.Second
	e := newEnv(t, matchtest.Games(), func(c *server.Config) {
		c.Retain, c.ClockSpeed, c.Linger = time.Hour, 50, time.Minute
	})
	ctx := context.Background()
	done, err := e.c.Create(ctx, botsOnly("2"))
	if err != nil {
		t.Fatal(err)
	}
	id := done.Match.ID
	var finished time.Time
	waitFor(t, "the match to finish", func() bool {
		sum, err := e.c.Match(ctx, id)
		if err == nil && sum.FinishedAt != nil {
			finished = *sum.FinishedAt
		}
		return err == nil && sum.Status == store.Finished
	})
	// The same store under a server whose retention is short: the match
	// is loaded again and watched, then passes the retention.
	e.stop()
	e.cfg.Retain = retain
	e.start()
	spec := e.dial(id, "", engine.Spectator)
	defer spec.close()
	if _, err := e.c.Match(ctx, id); err != nil && time.Since(finished) < retain {
		t.Fatalf("the match is not shown before the retention: %v", err)
	}
	deadline := finished.Add(retain + 400*time.Millisecond)
	waitFor(t, "the match to be gone", func() bool {
		_, err := e.c.Match(ctx, id)
		return apiCode(err) == match.CodeUnknownMatch
	})
	if now := time.Now(); now.After(deadline.Add(time.Second)) {
		t.Fatalf("the match was shown %v past its retention", now.Sub(finished.Add(retain)))
	}
	if err := e.c.Do(ctx, "GET", "/api/matches/"+id+"/state", "", nil, nil); apiCode(err) != match.CodeUnknownMatch {
		t.Fatalf("the state past the retention: %v", err)
	}
	if _, err := e.c.View(ctx, id, engine.Spectator, 1, ""); apiCode(err) != match.CodeUnknownMatch {
		t.Fatalf("a step view past the retention: %v", err)
	}
	waitFor(t, "the match to leave memory", func() bool { return e.srv.Manager().Live() == 0 })
	var list struct{ Matches []match.Summary }
	if err := e.c.Do(ctx, "GET", "/api/matches", "", nil, &list); err != nil {
		t.Fatal(err)
	}
	for _, m := range list.Matches {
		if m.ID == id {
			t.Fatalf("the lobby lists a match past its retention")
		}
	}
}
