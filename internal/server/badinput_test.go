package server_test

import (
	"context"
	"encoding/json"
	"fmt"
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

// snapshotOf returns a match's stored description and log, to prove a
// refused request changed nothing.
func (e *env) stored(t *testing.T, id string) string {
	t.Helper()
	var sum match.Summary
	if err := e.c.Do(context.Background(), "GET", "/api/matches/"+id, "", nil, &sum); err != nil {
		t.Fatal(err)
	}
	sum.Clock = 0
	sum.Live = false
	for i := range sum.Seats {
		sum.Seats[i].Connected = false
	}
	b, _ := json.Marshal(sum)
	return string(b)
}

// Every bad request to the lobby API gets its own stable code, the right
// HTTP status, and changes nothing.
func TestBadRequests(t *testing.T) {
	// Refused creations count towards the client's allowance too: this
	// client may make many.
	e := newEnv(t, matchtest.Games(), func(c *server.Config) { c.CreateBurst = 100 })
	ctx := context.Background()
	cm := e.newMatch(match.CreateRequest{Game: "testcards", Players: 2}, false)
	other := e.newMatch(match.CreateRequest{Game: "testcards", Players: 2}, false)
	id := cm.Match.ID
	before := e.stored(t, id)
	big := `{"game":"testcards","seats":[` + strings.Repeat(`{"name":"x"},`, 10000) + `{}]}`
	cases := []struct {
		name, method, path, token string
		body                      any
		code                      string
		status                    int
	}{
		{"body too large", "POST", "/api/matches", "", []byte(big), server.CodeTooLarge, 413},
		{"malformed JSON", "POST", "/api/matches", "", []byte(`{"game":`), server.CodeMalformed, 400},
		{"not an object", "POST", "/api/matches", "", []byte(`[1,2]`), server.CodeMalformed, 400},
		{"unknown field", "POST", "/api/matches", "", []byte(`{"game":"testcards","colour":"red"}`), server.CodeMalformed, 400},
		{"trailing data", "POST", "/api/matches", "", []byte(`{"game":"testcards"} {}`), server.CodeMalformed, 400},
		{"wrong type", "POST", "/api/matches", "", []byte(`{"game":7}`), server.CodeMalformed, 400},
		{"a name in another case", "POST", "/api/matches", "", []byte(`{"GAME":"testcards"}`), server.CodeMalformed, 400},
		{"a seat's name in another case", "POST", "/api/matches", "", []byte(`{"game":"testcards","seats":[{"Kind":"bot"},{}]}`), server.CodeMalformed, 400},
		{"a name given twice", "POST", "/api/matches", "", []byte(`{"game":"chess","game":"testcards"}`), server.CodeMalformed, 400},
		{"invalid UTF-8", "POST", "/api/matches", "", []byte("{\"game\":\"testcards\",\"seats\":[{\"name\":\"\xff\"},{}]}"), server.CodeMalformed, 400},
		{"join with a name in another case", "POST", "/api/matches/" + id + "/join", cm.Seats[0].Token, []byte(`{"Name":"Ana"}`), server.CodeMalformed, 400},
		{"empty body", "POST", "/api/matches", "", []byte(``), server.CodeMalformed, 400},
		{"null body", "POST", "/api/matches", "", []byte(`null`), server.CodeMalformed, 400},
		{"null body to join", "POST", "/api/matches/" + id + "/join", cm.Seats[0].Token, []byte(` null `), server.CodeMalformed, 400},
		{"a string for a body", "POST", "/api/matches", "", []byte(`"testcards"`), server.CodeMalformed, 400},
		{"unknown game", "POST", "/api/matches", "", match.CreateRequest{Game: "chess"}, match.CodeUnknownGame, 404},
		{"too many players", "POST", "/api/matches", "", match.CreateRequest{Game: "testcards", Players: 9}, match.CodeBadSetup, 400},
		{"seats and players disagree", "POST", "/api/matches", "", match.CreateRequest{Game: "testcards", Players: 3, Seats: []match.SeatRequest{{}, {}}}, match.CodeBadSetup, 400},
		{"unknown option", "POST", "/api/matches", "", match.CreateRequest{Game: "testcards", Options: map[string]string{"colour": "red"}}, match.CodeBadSetup, 400},
		{"option out of range", "POST", "/api/matches", "", match.CreateRequest{Game: "testcards", Options: map[string]string{"hand": "99"}}, match.CodeBadSetup, 400},
		{"unknown seat kind", "POST", "/api/matches", "", match.CreateRequest{Game: "testcards", Seats: []match.SeatRequest{{Kind: "alien"}, {}}}, match.CodeBadSetup, 400},
		{"unknown bot", "POST", "/api/matches", "", match.CreateRequest{Game: "testcards", Seats: []match.SeatRequest{{Kind: "bot", Bot: "deep-blue"}, {}}}, match.CodeUnknownBot, 400},
		{"negative timer", "POST", "/api/matches", "", match.CreateRequest{Game: "testcards", TakeoverAfterMs: new(int64(-1))}, match.CodeBadParameters, 400},
		{"bot delay too long", "POST", "/api/matches", "", match.CreateRequest{Game: "testcards", BotDelayMs: 3_600_000}, match.CodeBadParameters, 400},
		{"name with control characters", "POST", "/api/matches", "", match.CreateRequest{Game: "testcards", Seats: []match.SeatRequest{{Name: "a\x07b"}, {}}}, match.CodeBadName, 400},
		{"name with a right-to-left override", "POST", "/api/matches", "", match.CreateRequest{Game: "testcards", Seats: []match.SeatRequest{{Name: "Ana\u202Egnorw"}, {}}}, match.CodeBadName, 400},
		{"name with an isolate", "POST", "/api/matches/" + id + "/join", cm.Seats[0].Token, map[string]string{"name": "\u2067Ana\u2069"}, match.CodeBadName, 400},
		{"name of zero-width characters", "POST", "/api/matches", "", match.CreateRequest{Game: "testcards", Seats: []match.SeatRequest{{Name: "\u200b\u200d\ufeff"}, {}}}, match.CodeBadName, 400},
		{"name of blank fillers", "POST", "/api/matches/" + id + "/join", cm.Seats[0].Token, map[string]string{"name": "\u3164 \u2800"}, match.CodeBadName, 400},
		{"name too long", "POST", "/api/matches/" + id + "/join", cm.Seats[0].Token, map[string]string{"name": strings.Repeat("n", 41)}, match.CodeBadName, 400},
		{"unknown game info", "GET", "/api/games/chess", "", nil, match.CodeUnknownGame, 404},
		{"unknown match", "GET", "/api/matches/nosuchmatch", "", nil, match.CodeUnknownMatch, 404},
		{"garbage match id", "GET", "/api/matches/%27%3B--", "", nil, match.CodeUnknownMatch, 404},
		{"unknown match join", "POST", "/api/matches/nosuchmatch/join", cm.Seats[0].Token, nil, match.CodeUnknownMatch, 404},
		{"unknown match state", "GET", "/api/matches/nosuchmatch/state", "", nil, match.CodeUnknownMatch, 404},
		{"unknown match replay", "GET", "/api/matches/nosuchmatch/replay", "", nil, match.CodeUnknownMatch, 404},
		{"unknown match socket", "GET", "/api/matches/nosuchmatch/ws", "", nil, match.CodeUnknownMatch, 404},
		{"join without token", "POST", "/api/matches/" + id + "/join", "", nil, server.CodeNoToken, 401},
		{"join with a wrong token", "POST", "/api/matches/" + id + "/join", "AAAAAAAAAAAAAAAAAAAAAA", nil, match.CodeBadToken, 403},
		{"join with a token of another match", "POST", "/api/matches/" + id + "/join", other.Seats[0].Token, nil, match.CodeBadToken, 403},
		{"join with the token of another seat", "POST", "/api/matches/" + id + "/join?seat=0", cm.Seats[1].Token, nil, match.CodeBadToken, 403},
		{"join with the host token", "POST", "/api/matches/" + id + "/join", cm.HostToken, nil, match.CodeBadToken, 403},
		{"start without token", "POST", "/api/matches/" + id + "/start", "", nil, server.CodeNoToken, 401},
		{"start with a seat token", "POST", "/api/matches/" + id + "/start", cm.Seats[0].Token, nil, match.CodeBadToken, 403},
		{"start with another match's host token", "POST", "/api/matches/" + id + "/start", other.HostToken, nil, match.CodeBadToken, 403},
		{"state of a seat without its token", "GET", "/api/matches/" + id + "/state?seat=1", "", nil, server.CodeNoToken, 401},
		{"state with a token of another match", "GET", "/api/matches/" + id + "/state", other.Seats[1].Token, nil, match.CodeBadToken, 403},
		{"socket with a token of another match", "GET", "/api/matches/" + id + "/ws", other.Seats[1].Token, nil, match.CodeBadToken, 403},
		{"replay before the end", "GET", "/api/matches/" + id + "/replay", "", nil, match.CodeNotFinished, 409},
		{"list with a bad status", "GET", "/api/matches?status=lost", "", nil, match.CodeBadParameters, 400},
		{"list with a bad limit", "GET", "/api/matches?limit=100000", "", nil, match.CodeBadParameters, 400},
		{"unknown endpoint", "GET", "/api/teapot", "", nil, server.CodeNotFound, 404},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := e.c.Do(ctx, c.method, c.path, c.token, c.body, nil)
			ae, ok := err.(*client.APIError)
			if !ok {
				t.Fatalf("got %v, want a refusal %s", err, c.code)
			}
			if ae.Code != c.code || ae.Status != c.status {
				t.Fatalf("got %d %s (%s), want %d %s", ae.Status, ae.Code, ae.Message, c.status, c.code)
			}
			if ae.Message == "" || strings.Contains(ae.Message, "\n") {
				t.Fatalf("the message should be one clear sentence: %q", ae.Message)
			}
		})
	}
	// Names that need joiners or marks inside visible text are fine.
	for _, name := range []string{"👩‍👩‍👧", "می‌خواهم", "Zoë", "Ñandú"} {
		if _, err := e.c.Join(ctx, other.Match.ID, other.Seats[1].Token, name); err != nil {
			t.Fatalf("the name %q was refused: %v", name, err)
		}
	}
	// The scheme of Authorization is a word in any case (RFC 7235); another
	// scheme holds no seat token.
	for _, c := range []struct {
		header string
		status int
	}{{"bearer " + other.Seats[0].Token, 200}, {"BEARER  " + other.Seats[0].Token, 200}, {"Basic " + other.Seats[0].Token, 401}} {
		r, _ := http.NewRequest("GET", e.hs.URL+"/api/matches/"+other.Match.ID+"/state", nil)
		r.Header.Set("Authorization", c.header)
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.status {
			t.Fatalf("Authorization: %.12s…: %d, want %d", c.header, resp.StatusCode, c.status)
		}
	}
	// A plain form post (what another site's page may send) is refused.
	resp, err := http.Post(e.hs.URL+"/api/matches", "text/plain", strings.NewReader(`{"game":"testcards"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnsupportedMediaType {
		t.Fatalf("a text/plain body: %d", resp.StatusCode)
	}
	if after := e.stored(t, id); after != before {
		t.Fatalf("bad requests changed the match:\nbefore %s\nafter  %s", before, after)
	}
	if ms, err := e.c.Match(ctx, other.Match.ID); err != nil || ms.Status != store.Open {
		t.Fatalf("the other match changed: %v %v", ms.Status, err)
	}
	// A seat's token never starts or replays anything: the start is refused
	// twice over, and the match is still open.
	if _, err := e.c.Start(ctx, id, cm.HostToken); err != nil {
		t.Fatal(err)
	}
	if _, err := e.c.Start(ctx, id, cm.HostToken); apiCode(err) != match.CodeStarted {
		t.Fatalf("second start: %v, want %s", err, match.CodeStarted)
	}
}

// badMsg sends one bad socket message and expects its refusal code, and no
// change of the match.
func badMsg(t *testing.T, e *env, p *player, id string, send func() error, code string) {
	t.Helper()
	before := e.stored(t, id)
	if err := send(); err != nil {
		t.Fatalf("send: %v", err)
	}
	m := p.expect(t, "refusal "+code, func(m *match.Message) bool { return m.Type == match.TypeError })
	if m.Error.Code != code {
		t.Fatalf("got refusal %s (%s), want %s", m.Error.Code, m.Error.Message, code)
	}
	if m.Error.Message == "" {
		t.Fatalf("refusal %s has no message", code)
	}
	if after := e.stored(t, id); after != before {
		t.Fatalf("a refused message (%s) changed the match:\nbefore %s\nafter  %s", code, before, after)
	}
}

// Every bad socket message gets its own stable code and changes nothing; the
// socket lives on and a good action still plays, but for a message over the
// size limit, which ends it.
func TestBadMessages(t *testing.T) {
	e := newEnv(t, matchtest.Games(), func(c *server.Config) { c.MessageRate = 5; c.MessageBurst = 60 })
	ctx := context.Background()
	cm := e.newMatch(match.CreateRequest{Game: "testcards", Players: 2}, false)
	id := cm.Match.ID
	p0 := e.dial(id, cm.Seats[0].Token, 0)
	p1 := e.dial(id, cm.Seats[1].Token, 1)
	spec := e.dial(id, "", engine.Spectator)
	st := p0.expect(t, "the first state", func(m *match.Message) bool { return m.Type == match.TypeState })
	p1.expect(t, "the first state", func(m *match.Message) bool { return m.Type == match.TypeState })
	var view matchtest.CardsView
	if err := json.Unmarshal(st.View, &view); err != nil {
		t.Fatal(err)
	}
	play := func(card int) json.RawMessage { b, _ := engine.MarshalTyped(matchtest.Play{Card: card}); return b }
	raw := func(c *player, s string) func() error {
		return func() error { return c.conn.SendRaw(ctx, []byte(s)) }
	}
	send := func(c *player, seq uint64, a json.RawMessage) func() error {
		return func() error { return c.conn.Send(ctx, seq, a) }
	}

	badMsg(t, e, p0, id, send(p0, 0, play(view.Hand[0])), match.CodeNotStarted)
	if _, err := e.c.Start(ctx, id, cm.HostToken); err != nil {
		t.Fatal(err)
	}
	st = p0.expect(t, "the start", func(m *match.Message) bool { return m.Type == match.TypeState && m.Status == store.Running })
	json.Unmarshal(st.View, &view)
	notHeld := 1
	for contains(view.Hand, notHeld) {
		notHeld++
	}

	badMsg(t, e, p0, id, raw(p0, `{"seq":0,"action":`), server.CodeMalformed)
	badMsg(t, e, p0, id, raw(p0, `not json at all`), server.CodeMalformed)
	badMsg(t, e, p0, id, raw(p0, `{"seq":0,"action":{"type":"pass"},"extra":1}`), server.CodeMalformed)
	badMsg(t, e, p0, id, raw(p0, `{"seq":0}`), server.CodeMalformed)
	badMsg(t, e, p0, id, raw(p0, `{"SEQ":0,"action":{"type":"pass"}}`), server.CodeMalformed)
	badMsg(t, e, p0, id, raw(p0, `{"seq":0,"Action":{"type":"pass"}}`), server.CodeMalformed)
	badMsg(t, e, p0, id, raw(p0, `{"seq":5,"seq":0,"action":{"type":"pass"}}`), server.CodeMalformed)
	badMsg(t, e, p0, id, raw(p0, fmt.Sprintf(`{"seq":0,"action":{"type":"play","CARD":%d}}`, view.Hand[0])), engine.CodeMalformed)
	badMsg(t, e, p0, id, raw(p0, fmt.Sprintf(`{"seq":0,"action":{"type":"play","card":%d,"type":"pass"}}`, view.Hand[0])), engine.CodeMalformed)
	badMsg(t, e, p0, id, raw(p0, `{"seq":-1,"action":{"type":"pass"}}`), server.CodeMalformed)
	badMsg(t, e, p0, id, raw(p0, `{"seq":0,"action":{"type":"resign"}}`), engine.CodeMalformed)
	badMsg(t, e, p0, id, raw(p0, `{"seq":0,"action":{"type":"play","card":"seven"}}`), engine.CodeMalformed)
	badMsg(t, e, p0, id, raw(p0, `{"seq":0,"action":{"type":"play","card":1,"trump":true}}`), engine.CodeMalformed)
	badMsg(t, e, p0, id, send(p0, 0, play(notHeld)), "not_in_hand")
	badMsg(t, e, p1, id, send(p1, 0, play(1)), engine.CodeNotYourTurn)
	badMsg(t, e, p0, id, send(p0, 5, play(view.Hand[0])), match.CodeFutureSeq)
	badMsg(t, e, p0, id, func() error { return p0.conn.SendBinary(ctx, []byte(`{"seq":0,"action":{"type":"pass"}}`)) }, server.CodeUnsupported)
	badMsg(t, e, spec, id, raw(spec, `{"seq":0,"action":{"type":"pass"}}`), server.CodeSpectator)

	// The good action still plays, and is acknowledged to its seat.
	card := view.Hand[0]
	if err := p0.conn.Send(ctx, 0, play(card)); err != nil {
		t.Fatal(err)
	}
	ack := p0.expect(t, "the acknowledgement", func(m *match.Message) bool { return m.Type == match.TypeUpdate })
	if ack.Ack == nil || *ack.Ack != 0 || ack.Seq != 1 {
		t.Fatalf("the update is not an acknowledgement of state 0: %+v", ack)
	}
	// Sent again, the same message is stale: it is never applied twice.
	badMsg(t, e, p0, id, send(p0, 0, play(card)), match.CodeStaleSeq)
	// And seat 1 acting on the state before seat 0's move is stale too.
	p1.expect(t, "seat 0's move", func(m *match.Message) bool { return m.Type == match.TypeUpdate && m.Seq == 1 })
	badMsg(t, e, p1, id, raw(p1, `{"seq":0,"action":{"type":"pass"}}`), match.CodeStaleSeq)

	// Flooding the socket is refused past the rate, and nothing is played.
	before := e.stored(t, id)
	for range 80 {
		p1.conn.SendRaw(ctx, []byte(`{"seq":0,"action":{"type":"pass"}}`))
	}
	limited := 0
	deadline := time.After(10 * time.Second)
	for got := 0; got < 80; got++ {
		select {
		case g := <-p1.in:
			if g.err != nil {
				t.Fatal(g.err)
			}
			if g.m.Type == match.TypeError && g.m.Error.Code == server.CodeRateLimited {
				limited++
			}
		case <-deadline:
			t.Fatalf("only %d answers to 80 messages", got)
		}
	}
	if limited == 0 {
		t.Fatal("80 messages at once were not rate limited")
	}
	if after := e.stored(t, id); after != before {
		t.Fatal("the flood changed the match")
	}
	t.Logf("%d of 80 flooding messages were refused as rate_limited", limited)

	// A message over the limit is refused and closes the socket (1009),
	// and changes nothing else.
	p0.conn.SendRaw(ctx, []byte(`{"seq":1,"action":{"type":"pass","pad":"`+strings.Repeat("x", 20000)+`"}}`))
	p0.expect(t, "the refusal of a message over the limit", func(m *match.Message) bool {
		return m.Type == match.TypeError && m.Error.Code == server.CodeTooLarge
	})
	for {
		m, err := p0.recv(context.Background())
		if err != nil {
			if client.CloseStatus(err) != 1009 {
				t.Fatalf("closed with %v, want 1009 (message too big)", err)
			}
			break
		}
		_ = m
	}
	if after := e.stored(t, id); after != before {
		t.Fatal("the huge message changed the match")
	}
}

// Actions after the end are refused with game_over.
func TestActionAfterTheEnd(t *testing.T) {
	e := newEnv(t, matchtest.Games(), nil)
	ctx := context.Background()
	cm := e.newMatch(match.CreateRequest{Game: "testcards", Seats: []match.SeatRequest{{}, {Kind: match.Bot}},
		Options: map[string]string{"hand": "1"}}, true)
	p := e.dial(cm.Match.ID, cm.Seats[0].Token, 0)
	last, err := p.play(ctx, newRand(1), playOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if last.Status != store.Finished {
		t.Fatalf("status %s", last.Status)
	}
	badMsg(t, e, p, cm.Match.ID, func() error { return p.conn.Send(ctx, last.Seq, json.RawMessage(`{"type":"pass"}`)) }, engine.CodeGameOver)
	if _, err := e.c.Join(ctx, cm.Match.ID, cm.Seats[0].Token, "late"); apiCode(err) != match.CodeFinished {
		t.Fatalf("join after the end: %v", err)
	}
	if _, err := e.c.Start(ctx, cm.Match.ID, cm.HostToken); apiCode(err) != match.CodeFinished {
		t.Fatalf("start after the end: %v", err)
	}
	// The status code of a refusal over HTTP.
	resp, err := http.Get(e.hs.URL + "/api/matches/" + cm.Match.ID + "/state?seat=0")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 401 {
		t.Fatalf("state of a seat without token: %d", resp.StatusCode)
	}
}

func contains(xs []int, x int) bool {
	for _, y := range xs {
		if x == y {
			return true
		}
	}
	return false
}
