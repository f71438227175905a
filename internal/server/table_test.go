package server_test

// The table: talk, history on connecting, leaving a seat to its bot, views
// at a step, and the time controls a match gets by default.

import (
	"bytes"
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"sortie/engine"
	"sortie/games/room25"
	"sortie/internal/match"
	"sortie/internal/match/matchtest"
	"sortie/internal/server"
	"sortie/internal/store"
)

func isLine(m *match.Message) bool {
	return m.Type == match.TypeChat || m.Type == match.TypeLeft || m.Type == match.TypeBack
}

// refusal reads until the socket's next error and returns it.
func (p *player) refusal(t *testing.T, what string) *match.Error {
	t.Helper()
	return p.expect(t, what, func(m *match.Message) bool { return m.Type == match.TypeError }).Error
}

// Table talk: a line reaches every socket of the match exactly as written
// (a page must show it as text), spectators read but do not write, bad
// lines are refused with their own codes and reach nobody, and the lines
// are kept with the match: after a restart a page gets them back.
func TestTableTalk(t *testing.T) {
	e := newEnv(t, matchtest.Games(), nil)
	ctx := context.Background()
	cm := e.newMatch(match.CreateRequest{Game: "testcards", Players: 2}, true)
	id := cm.Match.ID
	p0, p1, spec := e.dial(id, cm.Seats[0].Token, 0), e.dial(id, cm.Seats[1].Token, 1), e.dial(id, "", engine.Spectator)
	for _, p := range []*player{p0, p1, spec} {
		p.expect(t, "the state", isState) // connected: what follows reaches it
	}
	evil := `<img src=x onerror="document.title='pwned'"> ça va ? 🙂 & "quotes"`
	if err := p0.conn.Chat(ctx, evil, false); err != nil {
		t.Fatal(err)
	}
	for _, p := range []*player{p0, p1, spec} {
		l := p.expect(t, "the line", isLine)
		if l.Type != match.TypeChat || l.Text != evil || *l.Seat != 0 || l.Name != "player 0" || l.N != 1 {
			t.Fatalf("%s got the line %+v", p.seat, l)
		}
	}

	_ = spec.conn.Chat(ctx, "hello from the stands", false)
	if r := spec.refusal(t, "a spectator's line refused"); r.Code != match.CodeChatSpectator {
		t.Fatalf("a spectator's line: %+v", r)
	}
	for _, c := range []struct {
		text string
		team bool
		code string
	}{
		{strings.Repeat("é", match.MaxChatLen+1), false, match.CodeChatTooLong},
		{"   ", false, match.CodeChatEmpty},
		{"two\nlines", false, match.CodeChatBadText},
		{"I \u202ewon", false, match.CodeChatBadText},
		{"\u2066isolated\u2069", false, match.CodeChatBadText},
		{"just us", true, match.CodeNoTeamChat},
	} {
		_ = p1.conn.Chat(ctx, c.text, c.team)
		r := p1.refusal(t, c.code)
		if r.Code != c.code {
			t.Fatalf("%q: refused with %+v, want %s", c.text, r, c.code)
		}
		if c.code == match.CodeChatTooLong && r.Params["max"] != float64(match.MaxChatLen) {
			t.Errorf("chat_too_long says no max: %+v", r.Params)
		}
	}
	// Five lines at once pass; the sixth comes too fast.
	for i := range 6 {
		_ = p1.conn.Chat(ctx, "line "+string(rune('a'+i)), false)
	}
	for i := range 5 {
		l := p1.expect(t, "a line of one's own", isLine)
		if l.N != 2+i || l.Text != "line "+string(rune('a'+i)) {
			t.Fatalf("line %d: %+v", i, l)
		}
	}
	if r := p1.refusal(t, "too fast"); r.Code != match.CodeChatTooFast || r.Params["wait_ms"].(float64) <= 0 {
		t.Fatalf("the sixth line: %+v", r)
	}
	// Nothing refused reached the others: seat 0 got lines 2 to 6, in order.
	for i := range 5 {
		if l := p0.expect(t, "seat 1's lines", isLine); l.N != 2+i {
			t.Fatalf("seat 0 got line %d, want %d", l.N, 2+i)
		}
	}
	for _, p := range []*player{p0, p1, spec} {
		p.close()
	}

	// Kept with the match: after a restart, a socket's history holds them.
	e.restart()
	st := e.dial(id, cm.Seats[1].Token, 1).expect(t, "the state", isState)
	var texts []string
	for _, raw := range st.History {
		var l match.Line
		if err := json.Unmarshal(raw, &l); err != nil || l.Type != match.TypeChat {
			t.Fatalf("history entry %s", raw)
		}
		texts = append(texts, l.Text)
	}
	if want := []string{evil, "line a", "line b", "line c", "line d", "line e"}; !slices.Equal(texts, want) {
		t.Fatalf("the history after a restart holds %q, want %q", texts, want)
	}
}

// History on connecting: the state message of a socket opened mid-match
// holds what its audience was told so far — the events it saw, and the
// lines of talk — the same as a socket that stayed open, and nothing more
// (no other seat's draws). A restart changes nothing.
func TestHistoryOnReconnect(t *testing.T) {
	e := newEnv(t, matchtest.Games(), nil)
	ctx := context.Background()
	g := matchtest.Cards{}
	cm := e.newMatch(match.CreateRequest{Game: "testcards", Players: 2}, true)
	id := cm.Match.ID
	p0, p1, spec := e.dial(id, cm.Seats[0].Token, 0), e.dial(id, cm.Seats[1].Token, 1), e.dial(id, "", engine.Spectator)
	for _, p := range []*player{p0, p1, spec} {
		p.expect(t, "the state", isState) // connected: every change reaches it
	}
	done := make(chan error, 1)
	go func() { _, err := p1.play(ctx, newRand(4), playOptions{stopAfter: 4}); done <- err }()
	if _, err := p0.play(ctx, newRand(5), playOptions{stopAfter: 2}); err != nil {
		t.Fatal(err)
	}
	if err := p0.conn.Chat(ctx, "nice one", false); err != nil {
		t.Fatal(err)
	}
	p0.expect(t, "its line", isLine)
	if _, err := p0.play(ctx, newRand(6), playOptions{stopAfter: 2}); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	sum, err := e.c.Match(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	spec.expect(t, "the last record", func(m *match.Message) bool { return m.Type == match.TypeUpdate && m.Seq == sum.Seq })

	// What each socket was told live, as history entries.
	live := func(p *player) [][]byte {
		var out [][]byte
		for _, raw := range p.messages() {
			var m match.Message
			_ = json.Unmarshal(raw, &m)
			switch {
			case m.Type == match.TypeUpdate && len(m.Events) > 0:
				b, _ := json.Marshal(struct {
					Type   string            `json:"type"`
					Seq    uint64            `json:"seq"`
					Clock  engine.Millis     `json:"clock"`
					Events []json.RawMessage `json:"events"`
				}{match.TypeEvents, m.Seq, m.Clock, m.Events})
				out = append(out, b)
			case isLine(&m):
				out = append(out, raw)
			}
		}
		return out
	}
	rp := replayOf(t, e, id, g)
	check := func(when string) {
		for _, p := range []*player{p0, p1, spec} {
			token := ""
			if p.seat >= 0 {
				token = cm.Seats[p.seat].Token
			}
			q := e.dial(id, token, p.seat)
			st := q.expect(t, "the state", isState)
			want := live(p)
			if len(want) < 5 || len(st.History) != len(want) {
				for _, h := range st.History {
					t.Logf("history: %s", h)
				}
				for _, h := range want {
					t.Logf("live: %s", h)
				}
				t.Fatalf("%s, %s: %d history entries, %d told live", when, p.seat, len(st.History), len(want))
			}
			for i := range want {
				if !bytes.Equal(compact(t, st.History[i]), compact(t, want[i])) {
					t.Fatalf("%s, %s: history entry %d is\n%s\nlive it was\n%s", when, p.seat, i, st.History[i], want[i])
				}
			}
			raw, _ := json.Marshal(st.History)
			if err := checkHistory(p.seat, raw, rp.eventsOf(p.seat)); err != nil {
				t.Fatal(err)
			}
			q.close()
		}
	}
	check("reconnected")
	e.restart()
	check("after a restart")
}

// The history check catches what it is for: a seat's history holding an
// event of another seat's (seat 1's own draw, told to seat 0), an event out
// of its record, or entries out of order.
func TestCheckHistoryCatchesLeaks(t *testing.T) {
	e := newEnv(t, matchtest.Games(), nil)
	ctx := context.Background()
	cm := e.newMatch(match.CreateRequest{Game: "testcards", Players: 2}, true)
	id := cm.Match.ID
	p0, p1 := e.dial(id, cm.Seats[0].Token, 0), e.dial(id, cm.Seats[1].Token, 1)
	p0.expect(t, "the state", isState)
	p1.expect(t, "the state", isState)
	done := make(chan error, 1)
	go func() { _, err := p1.play(ctx, newRand(1), playOptions{stopAfter: 5}); done <- err }()
	if _, err := p0.play(ctx, newRand(2), playOptions{stopAfter: 5}); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	rp := replayOf(t, e, id, matchtest.Cards{})
	entry := func(k uint64, seat engine.Seat) []byte {
		var evs []json.RawMessage
		for _, e := range rp.eventsOf(seat)(k) {
			evs = append(evs, e)
		}
		b, _ := json.Marshal(map[string]any{"type": match.TypeEvents, "seq": k, "events": evs})
		return b
	}
	history := func(entries ...[]byte) json.RawMessage {
		return json.RawMessage("[" + string(bytes.Join(entries, []byte(","))) + "]")
	}
	// A record whose events differ between the seats: a draw of seat 1's.
	leak := uint64(0)
	for k := uint64(1); k < uint64(len(rp.events)); k++ {
		if !slices.EqualFunc(rp.eventsOf(0)(k), rp.eventsOf(1)(k), bytes.Equal) && rp.log[k-1].Seat == 1 {
			leak = k
			break
		}
	}
	if leak == 0 {
		t.Fatal("seat 1 drew no card in ten moves")
	}
	if err := checkHistory(0, history(entry(leak, 0)), rp.eventsOf(0)); err != nil {
		t.Fatalf("the honest history is refused: %v", err)
	}
	for what, h := range map[string]json.RawMessage{
		"another seat's events": history(entry(leak, 1)),
		"out of order":          history(entry(leak, 0), entry(1, 0)),
		"an unknown entry":      history([]byte(`{"type":"view","seq":1}`)),
	} {
		if checkHistory(0, h, rp.eventsOf(0)) == nil {
			t.Errorf("the check let %s through", what)
		}
	}
}

// compact returns JSON without insignificant spaces.
func compact(t *testing.T, b []byte) []byte {
	t.Helper()
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return out.Bytes()
}

// replayed is a match's stored log replayed independently of the server.
type replayed struct {
	g      engine.Game
	setup  engine.Setup
	log    []engine.Record
	events [][]engine.Event // by record number, from 1
	views  [][]engine.View  // by record number (0: the start), by audience (0: spectators, s+1: seat s)
}

// replayOf reads a match's log from the server's store and replays it.
func replayOf(t *testing.T, e *env, id string, g engine.Game) *replayed {
	t.Helper()
	rec, log := storedMatch(t, e, id)
	r := &replayed{g: g, setup: rec.Setup, events: [][]engine.Event{nil}}
	s, err := g.New(rec.Setup)
	if err != nil {
		t.Fatal(err)
	}
	snap := func() {
		vs := []engine.View{s.View(engine.Spectator)}
		for p := range rec.Setup.Players {
			vs = append(vs, s.View(engine.Seat(p)))
		}
		r.views = append(r.views, vs)
	}
	snap()
	for i, raw := range log {
		rc, err := engine.DecodeRecord(g, raw)
		if err != nil {
			t.Fatalf("record %d: %v", i+1, err)
		}
		evs, err := engine.Play(s, rc)
		if err != nil {
			t.Fatalf("record %d: %v", i+1, err)
		}
		r.log = append(r.log, rc)
		r.events = append(r.events, evs)
		snap()
	}
	return r
}

// eventsOf returns, for checkHistory, the encoded events of record k seat
// may see.
func (r *replayed) eventsOf(seat engine.Seat) func(k uint64) [][]byte {
	return func(k uint64) [][]byte {
		var out [][]byte
		for _, e := range engine.Visible(nil, r.events[k], seat) {
			b, _ := e.MarshalJSON()
			out = append(out, b)
		}
		return out
	}
}

// storedMatch reads a match and its log from a second handle on the
// server's SQLite file.
func storedMatch(t *testing.T, e *env, id string) (*store.Match, [][]byte) {
	t.Helper()
	st, err := store.OpenSQLite(e.cfg.DataPath, store.SQLiteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	rec, err := st.Get(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	log, err := st.Log(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return rec, log
}

// Leaving: a seat handed to its bot is played by it, stays with it when its
// human connects again or the server restarts, refuses their actions until
// they take it back, and the table is told both ways.
func TestLeaveAndReturn(t *testing.T) {
	e := newEnv(t, matchtest.Games(), nil)
	ctx := context.Background()
	cm := e.newMatch(match.CreateRequest{Game: "testcards", Players: 2, BotDelayMs: 10}, true)
	id := cm.Match.ID
	p0, p1 := e.dial(id, cm.Seats[0].Token, 0), e.dial(id, cm.Seats[1].Token, 1)
	p0.expect(t, "the state", isState)
	p1.expect(t, "the state", isState)
	if err := p1.conn.Leave(ctx); err != nil {
		t.Fatal(err)
	}
	if l := p0.expect(t, "the notice", isLine); l.Type != match.TypeLeft || *l.Seat != 1 {
		t.Fatalf("seat 0 was told %+v", l)
	}
	seats := p0.expect(t, "the seats", func(m *match.Message) bool { return m.Type == match.TypeSeats && m.Seats[1].Left })
	if seats.Seats[1].PlayedBy != match.Bot {
		t.Fatalf("a seat left is played by %s", seats.Seats[1].PlayedBy)
	}
	// Seat 0 plays; seat 1's moves are its bot's.
	if _, err := p0.play(ctx, newRand(7), playOptions{stopAfter: 2}); err != nil {
		t.Fatal(err)
	}
	seatMoves := func() int {
		n := 0
		_, log := storedMatch(t, e, id)
		for _, raw := range log {
			if r, _ := engine.DecodeRecord(matchtest.Cards{}, raw); r.Action != nil && r.Seat == 1 {
				n++
			}
		}
		return n
	}
	if n := seatMoves(); n < 1 {
		t.Fatalf("seat 1's bot played %d moves", n)
	}
	// Its human's action is refused; connecting again does not take it back.
	last := p1.expect(t, "an update", isUpdate)
	_ = p1.conn.Send(ctx, last.Seq, json.RawMessage(`{"type":"pass"}`))
	if r := p1.refusal(t, "seat_left"); r.Code != match.CodeSeatLeft {
		t.Fatalf("an action of a seat left: %+v", r)
	}
	p1.close()
	p1 = e.dial(id, cm.Seats[1].Token, 1)
	if st := p1.expect(t, "the state", isState); !st.Seats[1].Left || st.Seats[1].PlayedBy != match.Bot {
		t.Fatalf("after connecting again: %+v", st.Seats[1])
	}
	p0.close()
	p1.close()
	e.restart()
	p1 = e.dial(id, cm.Seats[1].Token, 1)
	st := p1.expect(t, "the state", isState)
	if !st.Seats[1].Left || st.Seats[1].PlayedBy != match.Bot {
		t.Fatalf("after a restart: %+v", st.Seats[1])
	}
	if n := len(st.History); n == 0 || !bytes.Contains(st.History[0], []byte(`"type":"left"`)) {
		t.Fatalf("the history does not say the seat was left: %s", st.History)
	}
	// Taking it back: the table is told, and the human plays again.
	p0 = e.dial(id, cm.Seats[0].Token, 0)
	p0.expect(t, "the state", isState)
	if err := p1.conn.Return(ctx); err != nil {
		t.Fatal(err)
	}
	if l := p0.expect(t, "the notice", isLine); l.Type != match.TypeBack || *l.Seat != 1 {
		t.Fatalf("seat 0 was told %+v", l)
	}
	p0.expect(t, "the seats", func(m *match.Message) bool {
		return m.Type == match.TypeSeats && !m.Seats[1].Left && m.Seats[1].PlayedBy == match.Human
	})
	done := make(chan error, 1)
	go func() { _, err := p0.play(ctx, newRand(8), playOptions{}); done <- err }()
	before, acked := seatMoves(), 0
	if _, err := p1.play(ctx, newRand(9), playOptions{onAck: func(uint64, json.RawMessage) { acked++ }}); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if n := seatMoves() - before; n != acked || n == 0 {
		t.Fatalf("seat 1 made %d moves after its human took it back, %d of them the human's", n, acked)
	}
}

// Views at a step: any seat's of a finished match for anyone; while a match
// runs, the spectators' for anyone and a seat's for its own token alone.
// Each is exactly what an independent replay gives.
func TestViewAtStep(t *testing.T) {
	e := newEnv(t, matchtest.Games(), nil)
	ctx := context.Background()
	g := matchtest.Cards{}
	sameView := func(t *testing.T, got *match.StepView, r *replayed, seat engine.Seat, k int) {
		t.Helper()
		want, _ := json.Marshal(r.views[k][seat+1])
		if got.Seq != uint64(k) || !bytes.Equal(got.View, want) {
			t.Fatalf("%s at step %d: %s (seq %d), want %s", seat, k, got.View, got.Seq, want)
		}
		evs := r.eventsOf(seat)(uint64(k))
		if k == 0 {
			evs = nil
		}
		if !equalRaw(got.Events, evs) {
			t.Fatalf("%s at step %d: events %s, want %s", seat, k, got.Events, evs)
		}
	}

	// A match under way.
	cm := e.newMatch(match.CreateRequest{Game: "testcards", Players: 2}, true)
	id := cm.Match.ID
	p0, p1 := e.dial(id, cm.Seats[0].Token, 0), e.dial(id, cm.Seats[1].Token, 1)
	done := make(chan error, 1)
	go func() { _, err := p1.play(ctx, newRand(1), playOptions{stopAfter: 2}); done <- err }()
	if _, err := p0.play(ctx, newRand(2), playOptions{stopAfter: 2}); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	r := replayOf(t, e, id, g)
	for k := range len(r.log) + 1 {
		v, err := e.c.View(ctx, id, engine.Spectator, k, "")
		if err != nil {
			t.Fatal(err)
		}
		sameView(t, v, r, engine.Spectator, k)
		v, err = e.c.View(ctx, id, 1, k, cm.Seats[1].Token)
		if err != nil {
			t.Fatal(err)
		}
		sameView(t, v, r, 1, k)
	}
	for _, c := range []struct {
		seat  engine.Seat
		step  int
		token string
		code  string
	}{
		{0, 1, "", server.CodeNoToken},
		{0, 1, cm.Seats[1].Token, match.CodeBadToken},
		{0, len(r.log) + 1, cm.Seats[0].Token, match.CodeBadParameters},
		{5, 1, "", match.CodeUnknownSeat},
	} {
		if _, err := e.c.View(ctx, id, c.seat, c.step, c.token); apiCode(err) != c.code {
			t.Errorf("seat %d step %d: %v, want %s", c.seat, c.step, err, c.code)
		}
	}
	if err := e.c.Do(ctx, "GET", "/api/matches/"+id+"/view?seat=spectator&step=minus", "", nil, nil); apiCode(err) != match.CodeBadParameters {
		t.Errorf("a bad step: %v", err)
	}
	if _, err := e.c.View(ctx, "nosuchmatch", engine.Spectator, 0, ""); apiCode(err) != match.CodeUnknownMatch {
		t.Errorf("no such match: %v", err)
	}

	// Once it is over, every seat's view at every step, without a token.
	done = make(chan error, 1)
	go func() { _, err := p1.play(ctx, newRand(3), playOptions{}); done <- err }()
	if _, err := p0.play(ctx, newRand(4), playOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	r = replayOf(t, e, id, g)
	for _, seat := range []engine.Seat{engine.Spectator, 0, 1} {
		for _, k := range []int{0, 1, len(r.log) / 2, len(r.log)} {
			v, err := e.c.View(ctx, id, seat, k, "")
			if err != nil {
				t.Fatal(err)
			}
			sameView(t, v, r, seat, k)
		}
	}
}

// Time controls: a match created without any gets its game's defaults (a
// move limit and a takeover for turn-based games, a takeover only in real
// time), shown in the lobby; a 0 turns one off; the page is told when a
// move limit runs out.
func TestDefaultTimers(t *testing.T) {
	e := newEnv(t, matchtest.Games(), nil)
	ctx := context.Background()
	games, err := e.c.Games(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range games {
		want := match.DefaultTimers(g.Timing)
		if g.DefaultTimers != want || want.TakeoverAfterMs == 0 {
			t.Errorf("%s: default timers %+v, want %+v", g.ID, g.DefaultTimers, want)
		}
		if (want.MoveLimitMs == 0) != (g.Timing == engine.RealTime) {
			t.Errorf("%s (%s): move limit %d", g.ID, g.Timing, want.MoveLimitMs)
		}
		cm := e.newMatch(match.CreateRequest{Game: g.ID, Players: g.MinPlayers}, false)
		got := cm.Match.Settings
		if got.MoveLimitMs != want.MoveLimitMs || got.TakeoverAfterMs != want.TakeoverAfterMs {
			t.Errorf("%s: a match created without timers has %+v", g.ID, got)
		}
	}
	cm := e.newMatch(match.CreateRequest{Game: "testcards", Players: 2, MoveLimitMs: new(int64(0)), TakeoverAfterMs: new(int64(0))}, false)
	if s := cm.Match.Settings; s.MoveLimitMs != 0 || s.TakeoverAfterMs != 0 {
		t.Errorf("timers turned off: %+v", s)
	}
	// The deadline of the seat to act.
	cm = e.newMatch(match.CreateRequest{Game: "testcards", Players: 2}, true)
	st := e.dial(cm.Match.ID, "", engine.Spectator).expect(t, "the state", isState)
	limit := engine.Millis(match.DefaultTimers(engine.TurnBased).MoveLimitMs)
	if len(st.Deadlines) != 1 || st.Deadlines[0].Seat != st.Actors[0] || st.Deadlines[0].At != limit {
		t.Fatalf("deadlines %+v, actors %v", st.Deadlines, st.Actors)
	}
}

// Room 25's team mode with team chat on: a team's line reaches its own
// seats and nobody else, not even in their histories; the whole table's
// line reaches all. With team chat off there is no team channel.
func TestTeamTalk(t *testing.T) {
	e := newEnv(t, []engine.Game{room25.Game{}}, nil)
	ctx := context.Background()
	cm := e.newMatch(match.CreateRequest{Game: "room25", Players: 4, Options: map[string]string{"mode": "team"}}, true)
	id := cm.Match.ID
	var ps []*player
	for _, s := range cm.Seats {
		ps = append(ps, e.dial(id, s.Token, s.Seat))
	}
	spec := e.dial(id, "", engine.Spectator)
	for _, p := range append(ps, spec) {
		p.expect(t, "the state", isState)
	}
	if err := ps[0].conn.Chat(ctx, "I saw the exit near us", true); err != nil {
		t.Fatal(err)
	}
	// The second line is written once the first is stored (seat 0 got it
	// back), so that every socket gets them in this order.
	heard0 := ps[0].expect(t, "its own line", isLine).Text
	if err := ps[1].conn.Chat(ctx, "good luck all", false); err != nil {
		t.Fatal(err)
	}
	// Teams alternate around the table: seats 0 and 2, seats 1 and 3.
	for _, p := range append(ps, spec) {
		var got []string
		n := 1 + btoi(p.seat == 0 || p.seat == 2)
		if p.seat == 0 {
			got, n = []string{heard0}, 1
		}
		for range n {
			got = append(got, p.expect(t, "a line", isLine).Text)
		}
		want := []string{"good luck all"}
		if p.seat == 0 || p.seat == 2 {
			want = []string{"I saw the exit near us", "good luck all"}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s heard %q, want %q", p.seat, got, want)
		}
		token := ""
		if p.seat >= 0 {
			token = cm.Seats[p.seat].Token
		}
		q := e.dial(id, token, p.seat)
		st := q.expect(t, "the state", isState)
		if wantTeam := p.seat >= 0; (st.Team != nil) != wantTeam || wantTeam && *st.Team != int(p.seat)%2 {
			t.Errorf("%s is told its team channel is %v", p.seat, st.Team)
		}
		h := st.History
		if len(h) != len(want) {
			t.Errorf("%s's history holds %d lines, want %d: %s", p.seat, len(h), len(want), h)
		}
		q.close()
	}
	off := e.newMatch(match.CreateRequest{Game: "room25", Players: 4, Options: map[string]string{"mode": "team", "team_chat": "off"}}, true)
	p := e.dial(off.Match.ID, off.Seats[0].Token, 0)
	_ = p.conn.Chat(ctx, "just us", true)
	if r := p.refusal(t, "no team channel"); r.Code != match.CodeNoTeamChat {
		t.Fatalf("a team line with team chat off: %+v", r)
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}
