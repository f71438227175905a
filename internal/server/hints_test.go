package server_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"testing"
	"time"

	"sortie/engine"
	"sortie/games/all"
	"sortie/internal/match"
	"sortie/internal/server"
	"sortie/internal/server/client"
)

// decisionOf waits until seat may act in match id and returns its
// snapshot (the seq and legal actions).
func (e *env) decisionOf(id string, seat engine.Seat) match.Message {
	e.t.Helper()
	ctx := context.Background()
	x, err := e.srv.Manager().Get(ctx, id)
	if err != nil {
		e.t.Fatal(err)
	}
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		b, err := x.Snapshot(ctx, seat)
		if err != nil {
			e.t.Fatal(err)
		}
		var m match.Message
		if err := json.Unmarshal(b, &m); err != nil {
			e.t.Fatal(err)
		}
		if len(m.Legal) > 1 {
			return m
		}
		if len(m.Legal) == 1 {
			if err := x.Act(ctx, seat, m.Seq, m.Legal[0]); err != nil {
				e.t.Fatal(err)
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	e.t.Fatalf("seat %d had no decision to make within 20 s", seat)
	return match.Message{}
}

// hintRefused checks that a hint request is refused with code and status.
func hintRefused(t *testing.T, c *client.Client, what, path, token, code string, status int) {
	t.Helper()
	err := c.Do(context.Background(), "GET", path, token, nil, nil)
	var ae *client.APIError
	if !errors.As(err, &ae) || ae.Code != code || ae.Status != status {
		t.Errorf("%s: got %v, want %d %s", what, err, status, code)
	}
}

// Given a Plan de Secours table of one person and a bot, which gives hints
// unless told otherwise, when its player asks for each level at a decision
// of theirs, then the nudge is a sentence in both languages, the bot's
// choice is the best of a top three with win chances, a check of the best
// move says "best" and one of another move says what it loses; asking
// again gives the same answers, and the hints are counted once per seat,
// step and level. Bad questions are refused with clear codes and count
// nothing.
func TestHintsAtTheTable(t *testing.T) {
	e := newEnv(t, all.Games(), nil)
	ctx := context.Background()
	cm := e.newMatch(match.CreateRequest{Game: "plandesecours", Seats: []match.SeatRequest{{}, {Kind: "bot"}}}, true)
	if !cm.Match.Settings.Hints {
		t.Fatalf("a table of one person and a bot gives no hints by default: %+v", cm.Match.Settings)
	}
	id, token := cm.Match.ID, cm.Seats[0].Token
	m := e.decisionOf(id, 0)

	nudge, err := e.c.Hint(ctx, id, token, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	if nudge.Nudge == nil || nudge.Nudge.Key == "" || nudge.Nudge.Text["fr"] == "" || nudge.Nudge.Text["en"] == "" || nudge.Best != nil {
		t.Fatalf("nudge: %+v", nudge)
	}
	if nudge.Seq != m.Seq {
		t.Errorf("the nudge is about step %d, the decision is at %d", nudge.Seq, m.Seq)
	}

	start := time.Now()
	best, err := e.c.Hint(ctx, id, token, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	if best.Win == nil || *best.Win < 0 || *best.Win > 1 || len(best.Top) == 0 || len(best.Top) > 3 || best.Rollouts == 0 {
		t.Fatalf("the bot's choice: %+v", best)
	}
	if string(best.Top[0].Action) != string(best.Best) || best.Top[0].Win != *best.Win {
		t.Errorf("the top three do not start with the best: %s vs %+v", best.Best, best.Top[0])
	}
	legal := map[string]bool{}
	for _, a := range m.Legal {
		legal[canonical(t, a)] = true
	}
	for _, c := range best.Top {
		if !legal[canonical(t, c.Action)] {
			t.Errorf("the top three hold %s, not a legal action of the seat", c.Action)
		}
	}
	t.Logf("the bot's choice in %v (%d rollouts): %s at %.3f", took, best.Rollouts, best.Best, *best.Win)
	again, err := e.c.Hint(ctx, id, token, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if a, b := mustJSON(t, best), mustJSON(t, again); a != b {
		t.Errorf("asked again, the hint changed:\n%s\n%s", a, b)
	}

	checked, err := e.c.Hint(ctx, id, token, 3, best.Best)
	if err != nil {
		t.Fatal(err)
	}
	if checked.Check == nil || checked.Check.Band != "best" || checked.Check.Loss != 0 || *checked.Win != *best.Win {
		t.Errorf("the best move checked: %+v, not the bot's choice at %.3f", checked.Check, *best.Win)
	}
	var other json.RawMessage
	for _, a := range m.Legal {
		if canonical(t, a) != canonical(t, best.Best) {
			other = a
			break
		}
	}
	checked, err = e.c.Hint(ctx, id, token, 3, other)
	if err != nil {
		t.Fatal(err)
	}
	if checked.Check == nil || checked.Check.Loss < 0 || checked.Check.Band == "" || checked.Check.Win > *checked.Win {
		t.Errorf("another move checked: %+v", checked)
	}

	base := "/api/matches/" + id + "/hint"
	hintRefused(t, e.c, "level 0", base+"?level=0", token, match.CodeBadParameters, http.StatusBadRequest)
	hintRefused(t, e.c, "no level", base, token, match.CodeBadParameters, http.StatusBadRequest)
	hintRefused(t, e.c, "a check without its action", base+"?level=3", token, match.CodeBadParameters, http.StatusBadRequest)
	hintRefused(t, e.c, "a check of no action", base+"?level=3&action=%7B%22type%22%3A%22fly%22%7D", token, match.CodeBadParameters, http.StatusBadRequest)
	hintRefused(t, e.c, "no token", base+"?level=2", "", server.CodeNoToken, http.StatusUnauthorized)
	hintRefused(t, e.c, "another's token", base+"?level=2", cm.HostToken, match.CodeBadToken, http.StatusForbidden)

	used, err := e.c.HintsUsed(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if len(used) != 1 || used[0] != (match.HintsUsed{Seat: 0, Nudges: 1, Choice: 1, Checks: 1}) {
		t.Errorf("hints used: %+v, want one nudge, one choice and one check (two checks of one step count once)", used)
	}
}

// Hints are refused at a table made without them (two people, by default,
// or one that said no), in a real-time game while its clock runs, and to a
// seat whose turn it is not.
func TestHintsRefused(t *testing.T) {
	e := newEnv(t, all.Games(), nil)
	ctx := context.Background()
	off := false
	for _, req := range []match.CreateRequest{
		{Game: "plandesecours", Players: 2},
		{Game: "plandesecours", Seats: []match.SeatRequest{{}, {Kind: "bot"}}, Hints: &off},
	} {
		cm := e.newMatch(req, true)
		if cm.Match.Settings.Hints {
			t.Errorf("%+v gives hints", req)
		}
		hintRefused(t, e.c, "hints off", "/api/matches/"+cm.Match.ID+"/hint?level=1", cm.Seats[0].Token, match.CodeHintsOff, http.StatusForbidden)
	}

	temple := e.newMatch(match.CreateRequest{Game: "temple", Seats: []match.SeatRequest{{}, {Kind: "bot"}}}, true)
	if !temple.Match.Settings.Hints {
		t.Errorf("a Temple table of one person and a bot gives no hints: its review and its clock's end would")
	}
	hintRefused(t, e.c, "the Temple's clock runs", "/api/matches/"+temple.Match.ID+"/hint?level=2", temple.Seats[0].Token, match.CodeHintsClock, http.StatusConflict)

	wait := e.newMatch(match.CreateRequest{Game: "plandesecours", Seats: []match.SeatRequest{{}, {Kind: "bot"}}, BotDelayMs: 60000}, true)
	x, err := e.srv.Manager().Get(ctx, wait.Match.ID)
	if err != nil {
		t.Fatal(err)
	}
	// The bot waits a minute before each move: once seat 0 has no move to
	// make (at once if the bot opens the round, else after seat 0's moves),
	// it is the bot's turn for a while.
	for range 50 {
		b, err := x.Snapshot(ctx, 0)
		if err != nil {
			t.Fatal(err)
		}
		var m match.Message
		json.Unmarshal(b, &m)
		if m.Status == "running" && len(m.Legal) == 0 {
			hintRefused(t, e.c, "the bot's turn", "/api/matches/"+wait.Match.ID+"/hint?level=1", wait.Seats[0].Token, engine.CodeNotYourTurn, http.StatusConflict)
			used, _ := e.c.HintsUsed(ctx, wait.Match.ID)
			if len(used) != 1 || used[0] != (match.HintsUsed{}) {
				t.Errorf("refused hints were counted: %+v", used)
			}
			return
		}
		if len(m.Legal) > 0 {
			if err := x.Act(ctx, 0, m.Seq, m.Legal[0]); err != nil {
				t.Fatal(err)
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("seat 0 never handed the turn to the bot")
}

func canonical(t *testing.T, raw json.RawMessage) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	return mustJSON(t, v)
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
