package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"math/rand/v2"
	"net"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"

	"sortie/engine"
	"sortie/internal/match"
	"sortie/internal/server"
	"sortie/internal/server/client"
	"sortie/internal/store"
)

// autoPublicURL, as Config.PublicURL, has env give the server the public
// address of its listener, on localhost: accounts are on.
const autoPublicURL = "auto"

// env is a server on a real SQLite file behind a real HTTP listener.
type env struct {
	t      testing.TB
	cfg    server.Config
	public string // the server's public URL, with accounts
	srv    *server.Server
	hs     *httptest.Server
	c      *client.Client
	games  []engine.Game
}

// newEnv starts a server serving games, with cfg's other settings.
func newEnv(t testing.TB, games []engine.Game, tune func(*server.Config)) *env {
	t.Helper()
	cfg := server.Config{
		Games: games, DataPath: filepath.Join(t.TempDir(), "sortie.db"),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		// Tests poll and reconnect faster than people: the allowances of
		// reads and sockets are off but where a test sets them.
		ReadRate: -1, SocketRate: -1,
	}
	if testing.Verbose() {
		cfg.Logger = slog.New(slog.NewTextHandler(&testWriter{t}, &slog.HandlerOptions{Level: slog.LevelInfo}))
	}
	if tune != nil {
		tune(&cfg)
	}
	e := &env{t: t, cfg: cfg, games: games}
	e.start()
	t.Cleanup(e.stop)
	return e
}

type testWriter struct{ t testing.TB }

func (w *testWriter) Write(b []byte) (int, error) {
	w.t.Log(string(bytes.TrimRight(b, "\n")))
	return len(b), nil
}

func (e *env) start() {
	e.t.Helper()
	e.hs = httptest.NewUnstartedServer(nil)
	cfg := e.cfg
	if cfg.PublicURL == autoPublicURL {
		// Passkeys and cookies want a host name: localhost.
		cfg.PublicURL = "http://localhost:" + strconv.Itoa(e.hs.Listener.Addr().(*net.TCPAddr).Port)
	}
	srv, err := server.New(cfg)
	if err != nil {
		e.t.Fatal(err)
	}
	if _, err := srv.Resume(context.Background()); err != nil {
		e.t.Fatal(err)
	}
	e.srv, e.public = srv, cfg.PublicURL
	// As Run serves: with the server's timeouts, behind its caps on
	// connections.
	e.hs.Config = srv.HTTPServer()
	e.hs.Listener = srv.Guard(e.hs.Listener)
	e.hs.Start()
	e.c = client.New(e.hs.URL)
}

// stop shuts the server down gracefully.
func (e *env) stop() {
	if e.srv == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := e.srv.Shutdown(ctx); err != nil {
		e.t.Errorf("shutdown: %v", err)
	}
	e.hs.Close()
	e.srv = nil
}

// restart stops the server and starts a new one on the same file.
func (e *env) restart() {
	e.stop()
	e.start()
}

// newMatch creates a match and joins every human seat.
func (e *env) newMatch(req match.CreateRequest, start bool) *server.CreatedMatch {
	e.t.Helper()
	ctx := context.Background()
	cm, err := e.c.Create(ctx, req)
	if err != nil {
		e.t.Fatalf("create: %v", err)
	}
	for _, s := range cm.Seats {
		if s.Token != "" {
			if _, err := e.c.Join(ctx, cm.Match.ID, s.Token, fmt.Sprintf("player %d", s.Seat)); err != nil {
				e.t.Fatalf("join seat %d: %v", s.Seat, err)
			}
		}
	}
	if start {
		if _, err := e.c.Start(ctx, cm.Match.ID, cm.HostToken); err != nil {
			e.t.Fatalf("start: %v", err)
		}
	}
	return cm
}

// player is one real socket client: a goroutine reads every message, keeps
// it, and hands it on; play plays random legal actions until the match ends.
type player struct {
	seat engine.Seat
	conn *client.Conn
	in   chan got
	done chan struct{}

	mu  sync.Mutex
	raw [][]byte

	// last is the newest state or update taken from in.
	last *match.Message
	// sent holds the actions not yet answered, by the seq they named:
	// never two at once on one seq, so that an answer names its action.
	// It outlives a call of play (an action kept by a server that cannot
	// save is answered later).
	sent map[uint64]json.RawMessage
	// owed counts, by the seq they named, the actions sent on the socket
	// less their answers (an update or a state with "ack", an "error" with
	// "re" other than "pending", which only says that the answer will
	// come); end is how the socket ended (see answers).
	owed  map[uint64]int
	sends int
	end   error
}

type got struct {
	m   *match.Message
	err error
}

func (e *env) dial(id, token string, seat engine.Seat) *player {
	e.t.Helper()
	p, err := e.tryDial(id, token, seat)
	if err != nil {
		e.t.Fatalf("dial seat %d: %v", seat, err)
	}
	return p
}

func (e *env) tryDial(id, token string, seat engine.Seat) (*player, error) {
	return dialWith(e.c, id, token, seat)
}

// dialWith opens a socket of seat (token) or a spectator (no token).
func dialWith(c *client.Client, id, token string, seat engine.Seat) (*player, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := c.Dial(ctx, id, token)
	if err != nil {
		return nil, err
	}
	return newPlayer(seat, conn), nil
}

// newPlayer reads the messages of a socket open for seat.
func newPlayer(seat engine.Seat, conn *client.Conn) *player {
	p := &player{seat: seat, conn: conn, in: make(chan got, 100000), done: make(chan struct{}), owed: map[uint64]int{}}
	go p.readLoop()
	return p
}

func (p *player) readLoop() {
	defer close(p.done)
	for {
		m, raw, err := p.conn.Next(context.Background())
		p.mu.Lock()
		if raw != nil {
			p.raw = append(p.raw, raw)
		}
		if m != nil {
			p.answered(m)
		}
		if err != nil {
			p.end = err
		}
		p.mu.Unlock()
		p.in <- got{m, err}
		if err != nil {
			return
		}
	}
}

// answered counts m if it answers an action (p.mu held).
func (p *player) answered(m *match.Message) {
	switch {
	case (m.Type == match.TypeState || m.Type == match.TypeUpdate) && m.Ack != nil:
		p.owed[*m.Ack]--
	case m.Type == match.TypeError && m.Re != nil && m.Error != nil && m.Error.Code != match.CodePending:
		p.owed[*m.Re]--
	}
}

// answers waits up to d for every action sent on the socket to be
// answered, or for the socket to end, and returns the seqs of the actions
// still unanswered, of those answered more than once, and how the socket
// ended (nil while it is open).
func (p *player) answers(d time.Duration) (unanswered, twice []uint64, end error) {
	for deadline := time.Now().Add(d); ; time.Sleep(10 * time.Millisecond) {
		p.mu.Lock()
		unanswered, twice, end = nil, nil, p.end
		for s, n := range p.owed {
			switch {
			case n > 0:
				unanswered = append(unanswered, s)
			case n < 0:
				twice = append(twice, s)
			}
		}
		p.mu.Unlock()
		if len(unanswered) == 0 || end != nil || time.Now().After(deadline) {
			slices.Sort(unanswered)
			slices.Sort(twice)
			return unanswered, twice, end
		}
	}
}

// close closes the socket and waits for the reader.
func (p *player) close() {
	p.conn.CloseNow()
	<-p.done
}

// recvAll reads what is left of a socket that ended, and returns the error
// that ended it.
func (p *player) recvAll() ([]*match.Message, error) {
	var out []*match.Message
	for {
		select {
		case g := <-p.in:
			if g.err != nil {
				return out, g.err
			}
			out = append(out, g.m)
		default:
			return out, nil
		}
	}
}

// messages returns every message received so far.
func (p *player) messages() [][]byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.raw)
}

// recv returns the next message.
func (p *player) recv(ctx context.Context) (*match.Message, error) {
	select {
	case g := <-p.in:
		p.note(g.m)
		return g.m, g.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// note keeps the newest state or update.
func (p *player) note(m *match.Message) {
	if m != nil && (m.Type == match.TypeState || m.Type == match.TypeUpdate) && (p.last == nil || m.Seq >= p.last.Seq) {
		p.last = m
	}
}

// expect reads until a message satisfies ok.
func (p *player) expect(t *testing.T, what string, ok func(*match.Message) bool) *match.Message {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for {
		m, err := p.recv(ctx)
		if err != nil {
			t.Fatalf("seat %d waiting for %s: %v", p.seat, what, err)
		}
		if ok(m) {
			return m
		}
	}
}

// playOptions pace a random player.
type playOptions struct {
	// think returns how long to wait before acting (real-time games).
	think func(r *rand.Rand) time.Duration
	// stopAfter stops after this many of the seat's actions were
	// acknowledged (0: play to the end).
	stopAfter int
	// onAck is told each acknowledged action with its record number.
	onAck func(record uint64, action json.RawMessage)
	// onRefusal is told each refusal.
	onRefusal func(e *match.Error)
}

// play plays random legal actions until the match is over (or stopAfter).
// It returns the last state or update received.
func (p *player) play(ctx context.Context, r *rand.Rand, o playOptions) (*match.Message, error) {
	var (
		last  *match.Message
		seq   uint64
		legal []json.RawMessage
		acked int
		timer <-chan time.Time
		// An action refused as unavailable may or may not have been
		// played (the node that ran the match did not answer): it is sent
		// again as it was, never another in its place, until an answer
		// says which.
		again <-chan time.Time
	)
	if p.sent == nil {
		p.sent = map[uint64]json.RawMessage{}
	}
	sent := p.sent
	if p.last != nil {
		last, seq, legal = p.last, p.last.Seq, p.last.Legal
		if last.Status == store.Finished {
			return last, nil
		}
	}
	plan := func() {
		if sent[seq] != nil || len(legal) == 0 || timer != nil {
			return // a decision under way acts on the newest state when due
		}
		d := time.Duration(0)
		if o.think != nil {
			d = o.think(r)
		}
		timer = time.After(d)
	}
	plan()
	for {
		select {
		case g := <-p.in:
			if g.err != nil {
				return last, g.err
			}
			m := g.m
			p.note(m)
			switch m.Type {
			case match.TypeState, match.TypeUpdate:
				if m.Seq < seq {
					continue
				}
				if m.Ack != nil {
					acked++
					if o.onAck != nil && sent[*m.Ack] != nil {
						o.onAck(*m.Ack+1, sent[*m.Ack]) // record ack+1 (a state with ack comes later)
					}
					delete(sent, *m.Ack)
				}
				for k := range sent {
					if k < m.Seq && m.Type == match.TypeState {
						delete(sent, k) // the fresh state says where the match stands
					}
				}
				last, seq, legal = m, m.Seq, m.Legal
				if m.Status == store.Finished {
					return m, nil
				}
				if o.stopAfter > 0 && acked >= o.stopAfter {
					return m, nil
				}
				plan()
			case match.TypeError:
				if o.onRefusal != nil {
					o.onRefusal(m.Error)
				}
				switch m.Error.Code {
				case match.CodeStaleSeq, server.CodeRateLimited, match.CodeUnavailable, match.CodePending:
				case engine.CodeGameOver:
					// The match ended meanwhile (a real-time one by its
					// clock, while the action was on its way): its
					// finished update comes, or the test's deadline fails
					// it.
				default:
					// A refusal of a legal action is a bug, except in real
					// time where the state may move on meanwhile.
					if o.think == nil && m.Re != nil && *m.Re == seq {
						return last, fmt.Errorf("seat %d: legal action refused: %s: %s", p.seat, m.Error.Code, m.Error.Message)
					}
				}
				if m.Re != nil && m.Error.Code == match.CodeUnavailable && sent[*m.Re] != nil {
					if again == nil {
						again = time.After(100 * time.Millisecond)
					}
					continue
				}
				if m.Re != nil && m.Error.Code == match.CodePending {
					continue // the server keeps the action: its update answers it
				}
				if m.Re != nil && m.Error.Code == match.CodeStaleSeq {
					// The match moved on: its update comes. The action
					// stays the one of that state, never another in its
					// place, for it may be this very action sent before
					// (resent after "unavailable"), whose acknowledgement
					// may come yet; the next state clears it.
					plan()
					continue
				}
				if m.Re != nil {
					delete(sent, *m.Re)
				}
				if m.Error.Code == server.CodeRateLimited {
					time.Sleep(50 * time.Millisecond)
				}
				plan()
			}
		case <-again:
			again = nil
			if a := sent[seq]; a != nil {
				if err := p.send(ctx, seq, a); err != nil {
					return last, err
				}
			}
		case <-timer:
			timer = nil
			if len(legal) == 0 || sent[seq] != nil {
				continue
			}
			a := legal[r.IntN(len(legal))]
			if err := p.send(ctx, seq, a); err != nil {
				return last, err
			}
			sent[seq] = a
		case <-ctx.Done():
			return last, ctx.Err()
		}
	}
}

// send sends an action. Its write does not end with ctx (play's time):
// the WebSocket library closes a connection whose write is cut short.
func (p *player) send(ctx context.Context, seq uint64, a json.RawMessage) error {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer cancel()
	p.mu.Lock()
	p.owed[seq]++
	p.sends++
	p.mu.Unlock()
	return p.conn.Send(ctx, seq, a)
}

// checkNoLeak proves that everything audience seat got over a whole match is
// exactly what an independent replay of the log gives that seat: its view
// (whole, or rebuilt from patches), the events it may see, its legal
// actions, and nothing else. It returns how many updates carried a patch.
func checkNoLeak(t *testing.T, g engine.Game, rp *match.Replay, seat engine.Seat, raw [][]byte) (patches int) {
	t.Helper()
	var log []engine.Record
	for i, b := range rp.Log {
		r, err := engine.DecodeRecord(g, b)
		if err != nil {
			t.Fatalf("record %d: %v", i+1, err)
		}
		log = append(log, r)
	}
	// What the seat may know after each record, by sequence number.
	type expected struct {
		view   []byte
		events [][]byte
		legal  [][]byte
		actors []engine.Seat
	}
	s, err := g.New(rp.Setup)
	if err != nil {
		t.Fatal(err)
	}
	want := make([]expected, len(log)+1)
	snap := func(k int, evs []engine.Event, started bool) {
		v, _ := json.Marshal(s.View(seat))
		ex := expected{view: v}
		for _, e := range engine.Visible(nil, evs, seat) {
			b, _ := e.MarshalJSON()
			ex.events = append(ex.events, b)
		}
		if _, over := s.Outcome(); !over && started {
			ex.actors = s.Actors()
			if seat >= 0 && slices.Contains(ex.actors, seat) {
				for _, a := range engine.Offer(s, seat) {
					b, _ := engine.MarshalTyped(a)
					ex.legal = append(ex.legal, b)
				}
			}
		}
		want[k] = ex
	}
	snap(0, nil, true)
	for i, r := range log {
		evs, err := engine.Play(s, r)
		if err != nil {
			t.Fatalf("replaying record %d: %v", i+1, err)
		}
		snap(i+1, evs, true)
	}
	line := []string{"type", "n", "seat", "name", "text", "team", "seq", "clock", "time"}
	allowed := map[string][]string{
		match.TypeState:  {"type", "match", "game", "seat", "team", "seats", "seq", "status", "clock", "actors", "deadlines", "view", "events", "legal", "outcome", "reason", "history"},
		match.TypeUpdate: {"type", "seq", "ack", "status", "clock", "actors", "deadlines", "view", "patch", "drop", "events", "legal", "outcome", "reason"},
		match.TypeSeats:  {"type", "seq", "seats"},
		match.TypeError:  {"type", "re", "error"},
		match.TypePing:   {"type"},
		match.TypeChat:   line,
		match.TypeLeft:   line,
		match.TypeBack:   line,
	}
	nextSeq := uint64(0)
	// The view the socket holds, as a client keeps it: whole from a state
	// message or an update with a view, patched by the updates with a patch.
	var held map[string]json.RawMessage
	heldSeq := uint64(0)
	sawFinal := false
	for i, b := range raw {
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(b, &fields); err != nil {
			t.Fatalf("message %d is not a JSON object: %s", i, b)
		}
		var typ string
		_ = json.Unmarshal(fields["type"], &typ)
		keys, ok := allowed[typ]
		if !ok {
			t.Fatalf("message %d has an unknown type %q", i, typ)
		}
		for k := range fields {
			if !slices.Contains(keys, k) {
				t.Fatalf("message %d (%s) has an unexpected field %q: %s", i, typ, k, b)
			}
		}
		if typ != match.TypeState && typ != match.TypeUpdate {
			continue
		}
		if typ == match.TypeState {
			err := checkHistory(seat, fields["history"], func(k uint64) [][]byte {
				if k > uint64(len(log)) {
					return nil
				}
				return want[k].events
			})
			if err != nil {
				t.Fatal(err)
			}
		}
		var m struct {
			Seq    uint64            `json:"seq"`
			Status store.Status      `json:"status"`
			View   json.RawMessage   `json:"view"`
			Patch  json.RawMessage   `json:"patch"`
			Drop   []string          `json:"drop"`
			Events []json.RawMessage `json:"events"`
			Legal  []json.RawMessage `json:"legal"`
			Actors []engine.Seat     `json:"actors"`
		}
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		if m.Seq > uint64(len(log)) {
			t.Fatalf("message %d names state %d; the log has %d records", i, m.Seq, len(log))
		}
		ex := want[m.Seq]
		if m.Patch == nil {
			if !bytes.Equal(m.View, ex.view) {
				t.Fatalf("%s: view at state %d differs from the replay's:\n got %s\nwant %s", seat, m.Seq, m.View, ex.view)
			}
			held = objectMembers(t, m.View)
		} else {
			if typ != match.TypeUpdate || m.View != nil || held == nil || heldSeq+1 != m.Seq {
				t.Fatalf("%s: a patch of the view at state %d, on the view of state %d: %s", seat, m.Seq, heldSeq, b)
			}
			patches++
			maps.Copy(held, objectMembers(t, m.Patch))
			for _, k := range m.Drop {
				if _, ok := held[k]; !ok {
					t.Fatalf("%s: state %d drops %q, which the view did not hold", seat, m.Seq, k)
				}
				delete(held, k)
			}
			if w := objectMembers(t, ex.view); !maps.EqualFunc(held, w, func(a, b json.RawMessage) bool { return bytes.Equal(a, b) }) {
				t.Fatalf("%s: the view patched to state %d differs from the replay's:\n got %v\nwant %s", seat, m.Seq, held, ex.view)
			}
		}
		heldSeq = m.Seq
		if m.Status == store.Open {
			continue
		}
		if !slices.Equal(m.Actors, ex.actors) {
			t.Fatalf("%s: actors at state %d: got %v, want %v", seat, m.Seq, m.Actors, ex.actors)
		}
		if !equalRaw(m.Legal, ex.legal) {
			t.Fatalf("%s: legal actions at state %d: got %s, want %s", seat, m.Seq, m.Legal, ex.legal)
		}
		if typ == match.TypeUpdate {
			if m.Seq != nextSeq+1 && nextSeq != 0 {
				t.Fatalf("%s: update %d follows state %d: a change was skipped", seat, m.Seq, nextSeq)
			}
			if !equalRaw(m.Events, ex.events) {
				t.Fatalf("%s: events of record %d: got %s, want %s", seat, m.Seq, m.Events, ex.events)
			}
		} else if len(m.Events) != 0 {
			t.Fatalf("%s: a state message holds events", seat)
		}
		nextSeq = m.Seq
		if m.Status == store.Finished {
			sawFinal = true
		}
	}
	if !sawFinal {
		t.Fatalf("%s never saw the end of the match", seat)
	}
	if nextSeq != uint64(len(log)) {
		t.Fatalf("%s last saw state %d of %d", seat, nextSeq, len(log))
	}
	return patches
}

// checkHistory proves that the history of a state message holds, for each
// record it names, exactly the events audience seat may see (events(k), from
// an independent replay, nil for a record beyond the log), in order, and
// lines of talk only as their own entries. It returns what is wrong.
func checkHistory(seat engine.Seat, raw json.RawMessage, events func(k uint64) [][]byte) error {
	if raw == nil {
		return nil
	}
	var entries []struct {
		Type   string            `json:"type"`
		Seq    uint64            `json:"seq"`
		Events []json.RawMessage `json:"events"`
	}
	if err := json.Unmarshal(raw, &entries); err != nil {
		return fmt.Errorf("%s: the history is not a list of entries: %s", seat, raw)
	}
	last := uint64(0)
	for _, e := range entries {
		switch e.Type {
		case match.TypeEvents:
			want := events(e.Seq)
			if len(want) == 0 || !equalRaw(e.Events, want) {
				return fmt.Errorf("%s: the history's events of record %d: got %s, want %s", seat, e.Seq, e.Events, want)
			}
		case match.TypeChat, match.TypeLeft, match.TypeBack:
			if e.Events != nil {
				return fmt.Errorf("%s: a line of talk in the history holds events", seat)
			}
		default:
			return fmt.Errorf("%s: a history entry of type %q", seat, e.Type)
		}
		if e.Seq < last {
			return fmt.Errorf("%s: the history goes back from record %d to %d", seat, last, e.Seq)
		}
		last = e.Seq
	}
	return nil
}

// objectMembers decodes a JSON object into its members, as written.
func objectMembers(t *testing.T, b []byte) map[string]json.RawMessage {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("not a JSON object: %s", b)
	}
	return m
}

func equalRaw(a []json.RawMessage, b [][]byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !bytes.Equal(a[i], b[i]) {
			return false
		}
	}
	return true
}

// apiCode returns the refusal code of an API error, or "".
func apiCode(err error) string {
	var ae *client.APIError
	if errors.As(err, &ae) {
		return ae.Code
	}
	return ""
}

func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x5017)) }
