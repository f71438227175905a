package server_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gobwas/ws"

	"sortie/internal/match"
	"sortie/internal/match/matchtest"
	"sortie/internal/server"
)

// rawSocket is a spectator's socket spoken to frame by frame, for what the
// ordinary client never sends.
type rawSocket struct {
	t    *testing.T
	conn net.Conn
	r    io.Reader
}

func dialRaw(t *testing.T, e *env, id string) *rawSocket {
	t.Helper()
	u := strings.Replace(e.hs.URL, "http", "ws", 1) + "/api/matches/" + id + "/ws"
	conn, br, _, err := ws.Dialer{Timeout: 10 * time.Second}.Dial(context.Background(), u)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	s := &rawSocket{t: t, conn: conn, r: conn}
	if br != nil {
		s.r = io.MultiReader(br, conn)
	}
	if f := s.frame(); f.Header.OpCode != ws.OpText || !strings.Contains(string(f.Payload), `"type":"state"`) {
		t.Fatalf("first frame %v %q, want the snapshot", f.Header.OpCode, f.Payload)
	}
	return s
}

// sendHeader sends the header of a masked frame of length bytes, and none
// of its payload.
func (s *rawSocket) sendHeader(op ws.OpCode, length int64) {
	s.t.Helper()
	h := ws.Header{Fin: true, OpCode: op, Masked: true, Mask: ws.NewMask(), Length: length}
	if err := ws.WriteHeader(s.conn, h); err != nil {
		s.t.Fatal(err)
	}
}

// send sends one frame, masked as a client's must be unless told not to.
func (s *rawSocket) send(op ws.OpCode, fin bool, p []byte, masked bool) {
	s.t.Helper()
	f := ws.NewFrame(op, fin, p)
	if masked {
		f = ws.MaskFrame(f)
	}
	if err := ws.WriteFrame(s.conn, f); err != nil {
		s.t.Fatal(err)
	}
}

// frame reads the next frame the server sends, skipping keep-alive pings.
func (s *rawSocket) frame() ws.Frame {
	s.t.Helper()
	s.conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	for {
		f, err := ws.ReadFrame(s.r)
		if err != nil {
			s.t.Fatal(err)
		}
		if f.Header.Masked {
			s.t.Fatal("the server masked a frame")
		}
		if f.Header.OpCode == ws.OpText && strings.Contains(string(f.Payload), `"type":"`+match.TypePing+`"`) {
			continue
		}
		return f
	}
}

// closed reads up to the server's close frame and returns its code, then
// checks that the server ends the connection.
func (s *rawSocket) closed() ws.StatusCode {
	s.t.Helper()
	for {
		f := s.frame()
		if f.Header.OpCode == ws.OpClose {
			code, _ := ws.ParseCloseFrameData(f.Payload)
			if _, err := s.r.Read(make([]byte, 1)); err == nil {
				s.t.Fatal("the connection goes on after the close frame")
			}
			return code
		}
	}
}

// refusal reads the next message, which must refuse with code.
func (s *rawSocket) refusal(code string) {
	s.t.Helper()
	f := s.frame()
	var m match.Message
	if err := json.Unmarshal(f.Payload, &m); err != nil || m.Type != match.TypeError || m.Error == nil || m.Error.Code != code {
		s.t.Fatalf("got %v %q, want the refusal %q", f.Header.OpCode, f.Payload, code)
	}
}

// The server speaks WebSocket as RFC 6455 has it, beyond what browsers
// send: messages in fragments with control frames between them, pings,
// the close handshake, and frames that break the protocol.
func TestSocketProtocol(t *testing.T) {
	e := newEnv(t, matchtest.Games(), nil)
	id := e.newMatch(match.CreateRequest{Game: "testcards", Players: 2}, true).Match.ID
	action := []byte(`{"seq":0,"action":{"type":"pass"}}`)

	t.Run("a message in fragments, a ping between them", func(t *testing.T) {
		s := dialRaw(t, e, id)
		s.send(ws.OpText, false, action[:5], true)
		s.send(ws.OpPing, true, []byte("between"), true)
		s.send(ws.OpContinuation, false, action[5:20], true)
		s.send(ws.OpContinuation, true, action[20:], true)
		if f := s.frame(); f.Header.OpCode != ws.OpPong || string(f.Payload) != "between" {
			t.Fatalf("got %v %q, want the pong", f.Header.OpCode, f.Payload)
		}
		s.refusal(server.CodeSpectator) // read whole: a spectator's action
		s.send(ws.OpPing, true, nil, true)
		if f := s.frame(); f.Header.OpCode != ws.OpPong || len(f.Payload) != 0 {
			t.Fatalf("got %v %q, want an empty pong", f.Header.OpCode, f.Payload)
		}
	})
	t.Run("the client closes", func(t *testing.T) {
		s := dialRaw(t, e, id)
		s.send(ws.OpClose, true, ws.NewCloseFrameBody(ws.StatusGoingAway, "bye"), true)
		if code := s.closed(); code != ws.StatusGoingAway {
			t.Fatalf("close %d, want the client's 1001 echoed", code)
		}
	})
	for _, c := range []struct {
		name string
		send func(s *rawSocket)
		code ws.StatusCode
	}{
		{"an unmasked frame", func(s *rawSocket) { s.send(ws.OpText, true, action, false) }, ws.StatusProtocolError},
		{"a continuation with nothing to continue", func(s *rawSocket) { s.send(ws.OpContinuation, true, action, true) }, ws.StatusProtocolError},
		{"a reserved opcode", func(s *rawSocket) { s.send(ws.OpCode(3), true, action, true) }, ws.StatusProtocolError},
		{"a new message inside a fragmented one", func(s *rawSocket) {
			s.send(ws.OpText, false, action[:5], true)
			s.send(ws.OpText, true, action, true)
		}, ws.StatusProtocolError},
		{"text that is not UTF-8", func(s *rawSocket) { s.send(ws.OpText, true, []byte{'"', 0xff, 0xfe, '"'}, true) }, ws.StatusInvalidFramePayloadData},
		{"a fragmented message over the limit", func(s *rawSocket) {
			chunk := make([]byte, 6<<10)
			s.send(ws.OpText, false, chunk, true)
			for range 3 {
				s.send(ws.OpContinuation, false, chunk, true)
			}
		}, ws.StatusMessageTooBig},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := dialRaw(t, e, id)
			c.send(s)
			if code := s.closed(); code != c.code {
				t.Fatalf("close %d, want %d", code, c.code)
			}
		})
	}
	// The match and its other sockets go on.
	s := dialRaw(t, e, id)
	s.send(ws.OpText, true, action, true)
	s.refusal(server.CodeSpectator)
}

// A message, once begun, must come whole within ReadTimeout: a client that
// sends half of one and stops is closed (1008), while pings and idle time
// between messages are no message begun.
func TestSocketMessageMustComeWhole(t *testing.T) {
	e := newEnv(t, matchtest.Games(), func(c *server.Config) { c.ReadTimeout = 300 * time.Millisecond })
	id := e.newMatch(match.CreateRequest{Game: "testcards", Players: 2}, true).Match.ID
	action := []byte(`{"seq":0,"action":{"type":"pass"}}`)

	idle := dialRaw(t, e, id)
	idle.send(ws.OpPing, true, []byte("alone"), true)
	if f := idle.frame(); f.Header.OpCode != ws.OpPong {
		t.Fatalf("got %v %q, want the pong", f.Header.OpCode, f.Payload)
	}
	time.Sleep(time.Second)
	idle.send(ws.OpText, true, action, true)
	idle.refusal(server.CodeSpectator)

	half := dialRaw(t, e, id)
	var frame bytes.Buffer
	if err := ws.WriteFrame(&frame, ws.MaskFrame(ws.NewTextFrame(action))); err != nil {
		t.Fatal(err)
	}
	if _, err := half.conn.Write(frame.Bytes()[:frame.Len()/2]); err != nil {
		t.Fatal(err)
	}
	if code := half.closed(); code != ws.StatusPolicyViolation {
		t.Fatalf("close %d, want 1008", code)
	}
	idle.send(ws.OpText, true, action, true)
	idle.refusal(server.CodeSpectator)
}

// A client that sends its first message with the handshake, before the
// server's answer, has it read and answered: those bytes are in net/http's
// reader when the connection is handed over.
func TestSocketMessageAheadOfTheHandshake(t *testing.T) {
	e := newEnv(t, matchtest.Games(), nil)
	id := e.newMatch(match.CreateRequest{Game: "testcards", Players: 2}, true).Match.ID
	conn, err := net.Dial("tcp", e.hs.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var req bytes.Buffer
	fmt.Fprintf(&req, "GET /api/matches/%s/ws HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"+
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n", id, e.hs.Listener.Addr())
	if err := ws.WriteFrame(&req, ws.MaskFrame(ws.NewTextFrame([]byte(`{"seq":0,"action":{"type":"pass"}}`)))); err != nil {
		t.Fatal(err)
	}
	if _, err := conn.Write(req.Bytes()); err != nil { // one write: the frame comes with the request
		t.Fatal(err)
	}
	br := bufio.NewReader(conn)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusSwitchingProtocols {
		t.Fatalf("handshake: %s", resp.Status)
	}
	s := &rawSocket{t: t, conn: conn, r: br}
	if f := s.frame(); !strings.Contains(string(f.Payload), `"type":"state"`) {
		t.Fatalf("first frame %q, want the snapshot", f.Payload)
	}
	s.refusal(server.CodeSpectator)
	s.send(ws.OpText, true, []byte(`{"seq":0,"action":{"type":"pass"}}`), true)
	s.refusal(server.CodeSpectator)
}

// A page of another origin may open a socket only if the server lets its
// host; a request that is no WebSocket handshake is refused.
func TestSocketOrigins(t *testing.T) {
	e := newEnv(t, matchtest.Games(), func(c *server.Config) { c.OriginPatterns = []string{"*.friends.example"} })
	id := e.newMatch(match.CreateRequest{Game: "testcards", Players: 2}, true).Match.ID
	u := strings.Replace(e.hs.URL, "http", "ws", 1) + "/api/matches/" + id + "/ws"
	for _, c := range []struct {
		origin string
		ok     bool
	}{
		{"", true},
		{e.hs.URL, true},
		{"https://play.friends.example", true},
		{"https://elsewhere.example", false},
		{"not a url", false},
	} {
		d := ws.Dialer{Timeout: 10 * time.Second}
		if c.origin != "" {
			d.Header = ws.HandshakeHeaderHTTP(http.Header{"Origin": {c.origin}})
		}
		conn, _, _, err := d.Dial(context.Background(), u)
		if c.ok != (err == nil) {
			t.Errorf("origin %q: %v, want allowed %v", c.origin, err, c.ok)
		}
		if err == nil {
			conn.Close()
		} else if se, isStatus := err.(ws.StatusError); !isStatus || int(se) != http.StatusForbidden {
			t.Errorf("origin %q: %v, want 403", c.origin, err)
		}
	}
	resp, err := http.Get(e.hs.URL + "/api/matches/" + id + "/ws")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode < 400 || resp.StatusCode >= 500 {
		t.Fatalf("a plain GET of the socket: %d, want a refusal", resp.StatusCode)
	}
}
