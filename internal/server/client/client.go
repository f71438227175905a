// Package client talks to a Sortie server as any client would: the lobby API
// over HTTP and match sockets over WebSocket. The load generator and the
// server's tests use it; it knows no game and sees only what the server sends.
package client

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/coder/websocket"

	"sortie/engine"
	"sortie/internal/match"
	"sortie/internal/server"
)

// Client is a connection to one server.
type Client struct {
	// Base is the server's URL, as in "http://127.0.0.1:8080".
	Base string
	// HTTP does the requests; nil means http.DefaultClient.
	HTTP *http.Client
}

// New returns a client of the server at base.
func New(base string) *Client { return &Client{Base: strings.TrimSuffix(base, "/")} }

// APIError is a refusal of the server.
type APIError struct {
	Status  int
	Code    string
	Message string
}

// Error says the status, the code and the message.
func (e *APIError) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message) }

// Do sends a request with an optional JSON body and bearer token, and decodes
// a JSON answer into out (if not nil). A refusal is an *APIError.
func (c *Client) Do(ctx context.Context, method, path, token string, body, out any) error {
	var rd io.Reader
	if body != nil {
		switch b := body.(type) {
		case []byte:
			rd = bytes.NewReader(b)
		default:
			enc, err := json.Marshal(body)
			if err != nil {
				return err
			}
			rd = bytes.NewReader(enc)
		}
	}
	req, err := http.NewRequestWithContext(ctx, method, c.Base+path, rd)
	if err != nil {
		return err
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	if resp.StatusCode >= 300 {
		var eb server.ErrorBody
		if json.Unmarshal(data, &eb) == nil && eb.Error != nil {
			return &APIError{Status: resp.StatusCode, Code: eb.Error.Code, Message: eb.Error.Message}
		}
		return &APIError{Status: resp.StatusCode, Code: "http", Message: strings.TrimSpace(string(data))}
	}
	if out != nil {
		return json.Unmarshal(data, out)
	}
	return nil
}

// Games lists the server's games.
func (c *Client) Games(ctx context.Context) ([]server.GameInfo, error) {
	var out struct {
		Games []server.GameInfo `json:"games"`
	}
	err := c.Do(ctx, "GET", "/api/games", "", nil, &out)
	return out.Games, err
}

// Create creates a match.
func (c *Client) Create(ctx context.Context, req match.CreateRequest) (*server.CreatedMatch, error) {
	var out server.CreatedMatch
	if err := c.Do(ctx, "POST", "/api/matches", "", req, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Join joins the seat of token under a name.
func (c *Client) Join(ctx context.Context, id, token, name string) (match.Summary, error) {
	var out struct {
		Match match.Summary `json:"match"`
	}
	err := c.Do(ctx, "POST", "/api/matches/"+id+"/join", token, map[string]string{"name": name}, &out)
	return out.Match, err
}

// Start starts a match with its host token.
func (c *Client) Start(ctx context.Context, id, hostToken string) (match.Summary, error) {
	var out match.Summary
	err := c.Do(ctx, "POST", "/api/matches/"+id+"/start", hostToken, nil, &out)
	return out, err
}

// CloseMatch closes, with its host token, a match that never started or
// that failed.
func (c *Client) CloseMatch(ctx context.Context, id, hostToken string) (match.Summary, error) {
	var out match.Summary
	err := c.Do(ctx, "POST", "/api/matches/"+id+"/close", hostToken, nil, &out)
	return out, err
}

// Match returns a match's summary.
func (c *Client) Match(ctx context.Context, id string) (match.Summary, error) {
	var out match.Summary
	err := c.Do(ctx, "GET", "/api/matches/"+id, "", nil, &out)
	return out, err
}

// Replay returns a finished match's log and reveal.
func (c *Client) Replay(ctx context.Context, id string) (*match.Replay, error) {
	var out match.Replay
	if err := c.Do(ctx, "GET", "/api/matches/"+id+"/replay", "", nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// View returns what seat (or engine.Spectator) saw after record step of
// match id; token is needed for a seat's view while the match runs.
func (c *Client) View(ctx context.Context, id string, seat engine.Seat, step int, token string) (*match.StepView, error) {
	who := "spectator"
	if seat != engine.Spectator {
		who = strconv.Itoa(int(seat))
	}
	var out match.StepView
	if err := c.Do(ctx, "GET", "/api/matches/"+id+"/view?seat="+who+"&step="+strconv.Itoa(step), token, nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// Hint asks for a hint of the given level for the seat holding token in
// match id; action is the action to check (level 3), nil otherwise.
func (c *Client) Hint(ctx context.Context, id, token string, level int, action []byte) (*match.Hint, error) {
	q := "?level=" + strconv.Itoa(level)
	if action != nil {
		q += "&action=" + url.QueryEscape(string(action))
	}
	var out match.Hint
	if err := c.Do(ctx, "GET", "/api/matches/"+id+"/hint"+q, token, nil, &out); err != nil {
		return nil, err
	}
	return &out, nil
}

// HintsUsed returns the hints each human seat of match id asked for.
func (c *Client) HintsUsed(ctx context.Context, id string) ([]match.HintsUsed, error) {
	var out struct {
		Seats []match.HintsUsed `json:"seats"`
	}
	if err := c.Do(ctx, "GET", "/api/matches/"+id+"/hints", "", nil, &out); err != nil {
		return nil, err
	}
	return out.Seats, nil
}

// Conn is a match socket.
type Conn struct {
	ws *websocket.Conn
}

// Dial opens the socket of the seat holding token in match id, or a
// spectator's socket if token is empty.
func (c *Client) Dial(ctx context.Context, id, token string) (*Conn, error) {
	q := ""
	if token != "" {
		q = "?token=" + url.QueryEscape(token)
	}
	return c.dial(ctx, id, q)
}

// DialSeat opens the socket of seat of match id that the account this
// client is signed in to (its cookies) holds.
func (c *Client) DialSeat(ctx context.Context, id string, seat engine.Seat) (*Conn, error) {
	return c.dial(ctx, id, "?seat="+strconv.Itoa(int(seat)))
}

func (c *Client) dial(ctx context.Context, id, query string) (*Conn, error) {
	u := strings.Replace(c.Base, "http", "ws", 1) + "/api/matches/" + id + "/ws" + query
	ws, resp, err := websocket.Dial(ctx, u, &websocket.DialOptions{HTTPClient: c.HTTP})
	if err != nil {
		if resp != nil && resp.StatusCode >= 300 {
			var eb server.ErrorBody
			if resp.Body != nil {
				data, _ := io.ReadAll(resp.Body)
				if json.Unmarshal(data, &eb) == nil && eb.Error != nil {
					return nil, &APIError{Status: resp.StatusCode, Code: eb.Error.Code, Message: eb.Error.Message}
				}
			}
			return nil, &APIError{Status: resp.StatusCode, Code: "http", Message: err.Error()}
		}
		return nil, err
	}
	ws.SetReadLimit(8 << 20)
	return &Conn{ws: ws}, nil
}

// Next reads the next message, decoded and raw.
func (c *Conn) Next(ctx context.Context) (*match.Message, []byte, error) {
	_, b, err := c.ws.Read(ctx)
	if err != nil {
		return nil, nil, err
	}
	var m match.Message
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, b, fmt.Errorf("client: undecodable message %q: %v", b, err)
	}
	return &m, b, nil
}

// ReadRaw reads the next message undecoded.
func (c *Conn) ReadRaw(ctx context.Context) ([]byte, error) {
	_, b, err := c.ws.Read(ctx)
	return b, err
}

// Send sends an action chosen on state seq.
func (c *Conn) Send(ctx context.Context, seq uint64, action json.RawMessage) error {
	b, err := json.Marshal(match.ClientMessage{Seq: seq, Action: action})
	if err != nil {
		return err
	}
	return c.ws.Write(ctx, websocket.MessageText, b)
}

// Chat writes a line of table talk (to the seat's team alone if team).
func (c *Conn) Chat(ctx context.Context, text string, team bool) error {
	return c.sendMessage(ctx, match.ClientMessage{Type: match.ClientChat, Text: text, Team: team})
}

// Leave hands the seat to its bot for the rest of the match.
func (c *Conn) Leave(ctx context.Context) error {
	return c.sendMessage(ctx, match.ClientMessage{Type: match.ClientLeave})
}

// Return takes the seat back after Leave.
func (c *Conn) Return(ctx context.Context) error {
	return c.sendMessage(ctx, match.ClientMessage{Type: match.ClientReturn})
}

func (c *Conn) sendMessage(ctx context.Context, m match.ClientMessage) error {
	b, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return c.ws.Write(ctx, websocket.MessageText, b)
}

// SendRaw sends any bytes as a text message (tests of bad input).
func (c *Conn) SendRaw(ctx context.Context, b []byte) error {
	return c.ws.Write(ctx, websocket.MessageText, b)
}

// SendBinary sends a binary message (tests of bad input).
func (c *Conn) SendBinary(ctx context.Context, b []byte) error {
	return c.ws.Write(ctx, websocket.MessageBinary, b)
}

// Close closes the socket normally.
func (c *Conn) Close() error { return c.ws.Close(websocket.StatusNormalClosure, "") }

// CloseNow drops the socket without a goodbye.
func (c *Conn) CloseNow() error { return c.ws.CloseNow() }

// CloseReplaced is the close code of a socket whose seat connected again
// elsewhere (server.CloseReplaced).
const CloseReplaced = int(server.CloseReplaced)

// CloseStatus returns the close code of an error from Next, or -1.
func CloseStatus(err error) int { return int(websocket.CloseStatus(err)) }
