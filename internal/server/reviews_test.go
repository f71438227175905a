package server_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"sortie/coach"
	"sortie/engine"
	"sortie/games/all"
	"sortie/internal/match"

	"github.com/jackc/pgx/v5"
)

// playOut plays seat's first legal action at each of its turns in match id
// until the match is over.
func (e *env) playOut(id string, seat engine.Seat) {
	e.t.Helper()
	ctx := context.Background()
	x, err := e.srv.Manager().Get(ctx, id)
	if err != nil {
		e.t.Fatal(err)
	}
	deadline := time.Now().Add(2 * time.Minute)
	for time.Now().Before(deadline) {
		b, err := x.Snapshot(ctx, seat)
		if err != nil {
			e.t.Fatal(err)
		}
		var m match.Message
		if err := json.Unmarshal(b, &m); err != nil {
			e.t.Fatal(err)
		}
		if m.Status == "finished" {
			return
		}
		if len(m.Legal) > 0 {
			_ = x.Act(ctx, seat, m.Seq, m.Legal[len(m.Legal)-1]) // (refused if the seq moved on: asked again)
		}
		time.Sleep(5 * time.Millisecond)
	}
	e.t.Fatal("the match did not finish within 2 minutes")
}

func (e *env) review(id string, seat int) (*match.ReviewAnswer, error) {
	var out match.ReviewAnswer
	err := e.c.Do(context.Background(), "GET", "/api/matches/"+id+"/review?seat="+itoa(seat), "", nil, &out)
	return &out, err
}

func itoa(n int) string { b, _ := json.Marshal(n); return string(b) }

// Given a finished match of a person against a bot on a node that does not
// review, when its review is asked, then it is queued ("working") and stays
// so; once the server restarts with reviews on, the job kept in the store
// is run and the review is ready: each decision of the person's with its
// band, the accuracy, the win chance over the match, the key moments and
// the decisions to try again. Asking for it before the end, for a bot's
// seat or for no seat is refused.
func TestReviewIsADurableJob(t *testing.T) {
	e := newEnv(t, all.Games(), nil)
	cm := e.newMatch(match.CreateRequest{Game: "plandesecours", Seats: []match.SeatRequest{{}, {Kind: "bot"}}}, true)
	id := cm.Match.ID
	if _, err := e.review(id, 0); apiCode(err) != match.CodeNotFinished {
		t.Errorf("a review before the end: %v", err)
	}
	e.playOut(id, 0)
	for _, c := range []struct {
		seat int
		code string
	}{{1, match.CodeNotHuman}, {2, match.CodeUnknownSeat}, {-1, match.CodeBadParameters}} {
		if _, err := e.review(id, c.seat); apiCode(err) != c.code {
			t.Errorf("the review of seat %d: %v, want %s", c.seat, err, c.code)
		}
	}
	rv, err := e.review(id, 0)
	if err != nil || rv.Status != match.ReviewWorking {
		t.Fatalf("asked first: %+v %v", rv, err)
	}
	time.Sleep(300 * time.Millisecond)
	if rv, err := e.review(id, 0); err != nil || rv.Status != match.ReviewWorking {
		t.Fatalf("a node that does not review made it: %+v %v", rv, err)
	}

	e.cfg.Reviews = true
	e.restart()
	deadline := time.Now().Add(60 * time.Second)
	for rv.Status != match.ReviewReady && time.Now().Before(deadline) {
		time.Sleep(200 * time.Millisecond)
		if rv, err = e.review(id, 0); err != nil {
			t.Fatal(err)
		}
	}
	if rv.Status != match.ReviewReady || rv.Review == nil {
		t.Fatalf("the review is still %q after the restart", rv.Status)
	}
	if len(rv.Decisions) == 0 || rv.Accuracy < 0 || rv.Accuracy > 100 || len(rv.Series) < 2 || rv.Learn == nil || rv.Key == nil {
		t.Fatalf("the review: %d decisions, accuracy %v, %d points of the series", len(rv.Decisions), rv.Accuracy, len(rv.Series))
	}
	bands := map[string]bool{}
	for _, b := range coach.Bands {
		bands[b] = true
	}
	for _, d := range rv.Decisions {
		if !bands[d.Band] || d.Seq < 1 || d.Seq > int(cm.Match.Seq)+1000 || len(d.Played) == 0 || len(d.Best) == 0 {
			t.Errorf("decision %+v", d)
		}
	}
	t.Logf("reviewed: %d decisions, accuracy %.1f, counts %v, key %v, learn %v", len(rv.Decisions), rv.Accuracy, rv.Counts, rv.Key, rv.Learn)
	again, _ := e.review(id, 0)
	if a, b := mustJSON(t, rv), mustJSON(t, again); a != b {
		t.Errorf("the review changed when asked again")
	}
}

// Given two nodes that both review matches, sharing PostgreSQL, when a
// match of a person against a bot finishes (the seat's bot playing for its
// person, out of time), then its review is made once: one node logs it,
// its job was claimed once, and both nodes answer it ready.
func TestReviewOnceOnSeveralNodes(t *testing.T) {
	c := newCluster(t, 2, "--reviews")
	ctx := context.Background()
	cl := c.client(0)
	limit := int64(1)
	cm, err := cl.Create(ctx, match.CreateRequest{Game: "plandesecours", Seats: []match.SeatRequest{{Bot: "medium"}, {Kind: "bot", Bot: "medium"}}, MoveLimitMs: &limit})
	if err != nil {
		t.Fatal(err)
	}
	id := cm.Match.ID
	if _, err := cl.Join(ctx, id, cm.Seats[0].Token, "Ana"); err != nil {
		t.Fatal(err)
	}
	if _, err := cl.Start(ctx, id, cm.HostToken); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(2 * time.Minute); ; time.Sleep(50 * time.Millisecond) {
		sum, err := cl.Match(ctx, id)
		if err == nil && sum.Status == "finished" {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the match did not end: %+v %v", sum, err)
		}
	}
	for i := range 2 {
		var rv match.ReviewAnswer
		for deadline := time.Now().Add(2 * time.Minute); rv.Status != match.ReviewReady; time.Sleep(200 * time.Millisecond) {
			if err := c.client(i).Do(ctx, "GET", "/api/matches/"+id+"/review?seat=0", "", nil, &rv); err != nil {
				t.Fatalf("node %d: %v", i, err)
			}
			if time.Now().After(deadline) {
				t.Fatalf("node %d: the review is still %q", i, rv.Status)
			}
		}
		if len(rv.Decisions) == 0 {
			t.Errorf("node %d: a review without decisions", i)
		}
	}
	conn, err := pgx.Connect(ctx, c.db)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var tries int
	var owner string
	if err := conn.QueryRow(ctx, `SELECT tries, owner FROM jobs WHERE kind = 'review' AND key = $1`, id).Scan(&tries, &owner); err != nil || tries != 1 {
		t.Errorf("the review's job was claimed %d times (last by %q): %v", tries, owner, err)
	}
	reviewed := 0
	for _, nd := range c.nodes {
		b, _ := os.ReadFile(nd.log)
		reviewed += strings.Count(string(b), `msg="match reviewed" match=`+id)
	}
	if reviewed != 1 {
		t.Errorf("the nodes logged the review %d times", reviewed)
	}
}
