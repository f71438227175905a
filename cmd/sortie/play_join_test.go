package main

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"strings"
	"sync"
	"testing"
	"time"

	"sortie/engine"
	"sortie/internal/match"
	"sortie/internal/server/client"
	"sortie/internal/store"
)

// cable is a TCP line between the terminal and the server that the test can
// cut, as a train going into a tunnel does: every connection open through
// it drops at once, and new ones go through again.
type cable struct {
	ln   net.Listener
	to   string
	mu   sync.Mutex
	open map[net.Conn]bool
	down bool
}

func newCable(t *testing.T, to string) *cable {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c := &cable{ln: ln, to: to, open: map[net.Conn]bool{}}
	go c.serve()
	t.Cleanup(func() { ln.Close(); c.cut() })
	return c
}

// base is the server's address through the cable.
func (c *cable) base() string { return "http://" + c.ln.Addr().String() }

func (c *cable) serve() {
	for {
		in, err := c.ln.Accept()
		if err != nil {
			return
		}
		c.mu.Lock()
		down := c.down
		c.mu.Unlock()
		if down {
			in.Close()
			continue
		}
		out, err := net.Dial("tcp", c.to)
		if err != nil {
			in.Close()
			continue
		}
		c.mu.Lock()
		c.open[in], c.open[out] = true, true
		c.mu.Unlock()
		go c.pipe(in, out)
		go c.pipe(out, in)
	}
}

func (c *cable) pipe(a, b net.Conn) {
	_, _ = io.Copy(a, b)
	a.Close()
	b.Close()
}

// cut drops every connection open through the cable; while down, new
// ones are dropped too.
func (c *cable) cut() { c.set(true) }

// mend lets connections through again.
func (c *cable) mend() { c.set(false) }

func (c *cable) set(down bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.down = down
	for conn := range c.open {
		conn.Close()
		delete(c.open, conn)
	}
}

// A table on a server: the terminal player Ana and a browser player Bo
// (here the test's own socket) against a bot. Ana joins by her seat's
// invite link; her moves are acknowledged by the server; Bo's talk reaches
// her screen and hers reaches Bo; she hands her seat to her bot and takes
// it back; when the line drops, the screen says so, reconnects by itself,
// shows the log it had (talk included, from the server's history), and
// plays on.
func TestJoinAServersTable(t *testing.T) {
	hsBase, c := startServer(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	zero := int64(0)
	cm, err := c.Create(ctx, match.CreateRequest{
		Game: "plandesecours", Players: 3, AutoStart: true, BotDelayMs: 100,
		Seats:           []match.SeatRequest{{Kind: "human"}, {Kind: "human", Name: "Bo"}, {Kind: "bot", Bot: "medium"}},
		TakeoverAfterMs: &zero, MoveLimitMs: &zero,
	})
	if err != nil {
		t.Fatal(err)
	}
	id, ana, bo := cm.Match.ID, cm.Seats[0], cm.Seats[1]
	line := newCable(t, strings.TrimPrefix(hsBase, "http://"))

	// Bo sits down first, from a browser.
	if _, err := c.Join(ctx, id, bo.Token, "Bo"); err != nil {
		t.Fatal(err)
	}
	boSock, err := c.Dial(ctx, id, bo.Token)
	if err != nil {
		t.Fatal(err)
	}
	defer boSock.CloseNow()
	bob := &browser{sock: boSock, seat: 1}
	go bob.run(ctx)

	// Ana takes her seat in the terminal with her invite link; the match
	// starts.
	s := play(t, 80, 24, nil, "--join", line.base()+ana.Invite, "--name", "Ana", "--lang", "en")
	s.waitFor("Emergency Exit Only", "Ana (you)", "Bo", "Medium bot")

	// Her move goes to the server, which acknowledges it: the record is
	// hers.
	s.waitFor("Your turn.")
	before := seqOf(t, c, id)
	s.keys("1")
	// On a stack whose top leaves the direction free (a Repetition), the
	// tile then asks for one: any does.
	deadline := time.Now().Add(time.Minute)
	for !strings.Contains(s.text(), "You laid a tile") {
		if time.Now().After(deadline) {
			t.Fatalf("Ana's tile was never laid:\n%s", s.text())
		}
		if strings.Contains(s.text(), "Direction of the tile") {
			s.keys("\x1b[A")
		}
		time.Sleep(100 * time.Millisecond)
	}
	if !recordOf(t, c, id, ana.Token, before) {
		t.Fatalf("the server holds no move of Ana's after record %d", before)
	}

	// Talk: Bo's line on Ana's screen, Ana's line to Bo.
	if err := boSock.Chat(ctx, "hello from the browser", false); err != nil {
		t.Fatal(err)
	}
	s.waitFor("Bo: hello from the browser")
	s.keys("\t")
	s.waitFor("Your line ›")
	s.keys("hi Bo\r")
	s.waitFor("Ana: hi Bo")
	bob.waitHeard(t, func(m *match.Message) bool {
		return m.Type == match.TypeChat && m.Text == "hi Bo" && m.Seat != nil && *m.Seat == 0
	})

	// Ana hands her seat to her bot (asked twice) and takes it back.
	s.keys("/leave\r")
	s.waitFor("Really leave?")
	s.keys("/leave\r")
	s.waitFor("Your bot plays your seat.")
	bob.waitHeard(t, func(m *match.Message) bool { return m.Type == match.TypeLeft && m.Seat != nil && *m.Seat == 0 })
	s.keys("/back\r")
	s.waitFor("You took your seat back.")

	// The line drops: the screen says so. Bo talks meanwhile. When the line
	// is back the screen reconnects by itself, and the log has what was
	// said while Ana was away (from the server's history).
	line.cut()
	s.waitFor("Connection lost.")
	if err := boSock.Chat(ctx, "are you still there?", false); err != nil {
		t.Fatal(err)
	}
	bob.waitHeard(t, func(m *match.Message) bool { return m.Type == match.TypeChat && m.Text == "are you still there?" })
	if strings.Contains(s.text(), "are you still there?") {
		t.Fatal("the line was down, yet the screen heard Bo")
	}
	line.mend()
	scr := s.waitFor("Connected again.", "Bo: are you still there?")
	noJSON(t, scr)

	// She opens her seat in a browser too, which takes it over; the
	// terminal says so and plays it again when asked (the browser is then
	// the one replaced).
	anaSock, err := c.Dial(ctx, id, ana.Token)
	if err != nil {
		t.Fatal(err)
	}
	defer anaSock.CloseNow()
	s.waitFor("You opened this seat in another tab or browser", "to play here again.")
	s.keys("/back\r")
	for {
		_, _, err := anaSock.Next(ctx)
		if err != nil {
			if code := client.CloseStatus(err); code != client.CloseReplaced {
				t.Fatalf("the browser's socket ended with %v, want 4001 (replaced)", err)
			}
			break
		}
	}
	deadline = time.Now().Add(time.Minute)
	for strings.Contains(s.text(), "another tab or browser") || strings.Contains(s.text(), "Opening the seat here") {
		if time.Now().After(deadline) {
			t.Fatalf("the terminal did not play the seat again:\n%s", s.text())
		}
		time.Sleep(50 * time.Millisecond)
	}

	// And she plays on: her next move is acknowledged too.
	deadline = time.Now().Add(2 * time.Minute)
	for !strings.Contains(s.text(), "Your turn.") {
		if time.Now().After(deadline) {
			t.Fatalf("Ana's turn never came back:\n%s", s.text())
		}
		if strings.Contains(s.text(), "the path revealed") {
			s.keys("\x1b") // a round ended: close its reveal
		}
		time.Sleep(50 * time.Millisecond)
	}
	before = seqOf(t, c, id)
	s.keys("\r") // the first action of the list
	deadline = time.Now().Add(time.Minute)
	for !recordOf(t, c, id, ana.Token, before) {
		if time.Now().After(deadline) {
			t.Fatalf("the server acknowledged no move of Ana's after reconnecting:\n%s", s.text())
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// seqOf is the number of records in a match's log.
func seqOf(t *testing.T, c *client.Client, id string) uint64 {
	t.Helper()
	sum, err := c.Match(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if sum.Status != store.Running {
		t.Fatalf("the match is %s", sum.Status)
	}
	return sum.Seq
}

// recordOf says whether a record after record after is seat 0's own move
// (its events say seat 0 laid a tile or played a card).
func recordOf(t *testing.T, c *client.Client, id, token string, after uint64) bool {
	t.Helper()
	now := seqOf(t, c, id)
	for k := after + 1; k <= now; k++ {
		v, err := c.View(context.Background(), id, 0, int(k), token)
		if err != nil {
			t.Fatal(err)
		}
		for _, raw := range v.Events {
			var ev struct {
				Type string       `json:"type"`
				Seat *engine.Seat `json:"seat"`
			}
			if json.Unmarshal(raw, &ev) == nil && ev.Seat != nil && *ev.Seat == 0 && (ev.Type == "tile_played" || ev.Type == "lost_played" || ev.Type == "turn_passed" || ev.Type == "chain_joined" || ev.Type == "chain_declined") {
				return true
			}
		}
	}
	return false
}

// browser is a player at a web page, seen from its socket: it plays the
// first of its legal actions when its turn comes, and keeps what it heard.
type browser struct {
	sock  *client.Conn
	seat  engine.Seat
	mu    sync.Mutex
	heard []*match.Message
	done  bool
}

func (b *browser) run(ctx context.Context) {
	defer func() { b.mu.Lock(); b.done = true; b.mu.Unlock() }()
	for {
		m, _, err := b.sock.Next(ctx)
		if err != nil {
			return
		}
		b.mu.Lock()
		b.heard = append(b.heard, m)
		b.mu.Unlock()
		if (m.Type == match.TypeState || m.Type == match.TypeUpdate) && len(m.Legal) > 0 {
			for _, a := range m.Actors {
				if a == b.seat {
					_ = b.sock.Send(ctx, m.Seq, m.Legal[0])
				}
			}
		}
	}
}

// waitHeard waits until the browser heard a message that matches.
func (b *browser) waitHeard(t *testing.T, ok func(*match.Message) bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for seen := 0; ; {
		b.mu.Lock()
		fresh, done := b.heard[seen:], b.done
		seen = len(b.heard)
		b.mu.Unlock()
		for _, m := range fresh {
			if ok(m) {
				return
			}
		}
		if done {
			t.Fatal("the browser's socket closed")
		}
		if time.Now().After(deadline) {
			t.Fatal("the browser never heard it")
		}
		time.Sleep(20 * time.Millisecond)
	}
}
