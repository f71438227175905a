package term

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	"sortie/engine"
	"sortie/internal/match"
	"sortie/internal/server/client"
)

// Invite is what an invite link holds: the server, the match, the seat and
// its token (docs/api.md: /play/<match id>?seat=N#token=T).
type Invite struct {
	Base  string
	Match string
	Seat  int
	Token string
}

// ParseInvite reads an invite link as the web page's lobby gives it.
func ParseInvite(link string) (Invite, error) {
	u, err := url.Parse(strings.TrimSpace(link))
	if err != nil || u.Host == "" || (u.Scheme != "http" && u.Scheme != "https") {
		return Invite{}, fmt.Errorf("%q is not an invite link: it looks like http://host:8080/play/<match>?seat=0#token=…", link)
	}
	id, ok := strings.CutPrefix(u.Path, "/play/")
	if !ok || id == "" || strings.Contains(id, "/") {
		return Invite{}, fmt.Errorf("%q is not an invite link: its path should be /play/<match>", link)
	}
	frag, _ := url.ParseQuery(u.Fragment)
	inv := Invite{Base: u.Scheme + "://" + u.Host, Match: id, Seat: -1, Token: frag.Get("token")}
	if inv.Token == "" {
		return Invite{}, fmt.Errorf("the link holds no seat token (the part after #token=): ask for the seat's own invite link")
	}
	if s := u.Query().Get("seat"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 0 {
			return Invite{}, fmt.Errorf("the link's seat %q is not a seat number", s)
		}
		inv.Seat = n
	}
	return inv, nil
}

// remote is a seat's socket to a match on a server; it reconnects when the
// line drops, as the web page does.
type remote struct {
	c    *client.Client
	inv  Invite
	out  chan *match.Message
	quit chan struct{}
	done chan struct{}
	here chan struct{} // PlayHere after the seat was opened elsewhere

	mu   sync.Mutex
	conn *client.Conn
	err  error
}

// LostType is the type of the message a remote line sends itself when the
// socket dropped and it tries again; Clock holds the wait in milliseconds.
const LostType = "term.lost"

// ReplacedType is the type of the message a remote line sends itself when
// the seat was opened elsewhere (close code 4001): it then waits for
// PlayHere, or Close.
const ReplacedType = "term.replaced"

// Retry delays after a dropped connection, as on the web page.
var retryDelays = []time.Duration{500 * time.Millisecond, time.Second, 2 * time.Second, 4 * time.Second, 8 * time.Second, 10 * time.Second}

// Dial joins the seat of an invite under a name and opens its socket.
func Dial(ctx context.Context, inv Invite, name string) (Conn, error) {
	c := client.New(inv.Base)
	if _, err := c.Join(ctx, inv.Match, inv.Token, name); err != nil {
		return nil, err
	}
	conn, err := c.Dial(ctx, inv.Match, inv.Token)
	if err != nil {
		return nil, err
	}
	r := &remote{c: c, inv: inv, conn: conn, out: make(chan *match.Message, 64), quit: make(chan struct{}), done: make(chan struct{}), here: make(chan struct{}, 1)}
	go r.run()
	return r, nil
}

func (r *remote) Messages() <-chan *match.Message { return r.out }

func (r *remote) Err() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.err
}

func (r *remote) Send(seq uint64, action json.RawMessage) {
	r.mu.Lock()
	conn := r.conn
	r.mu.Unlock()
	if conn == nil {
		r.tell(&match.Message{Type: match.TypeError, Re: &seq, Error: &match.Error{Code: "offline"}})
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := conn.Send(ctx, seq, action); err != nil {
		r.tell(&match.Message{Type: match.TypeError, Re: &seq, Error: &match.Error{Code: "offline"}})
	}
}

// Say sends a message of the table: a line of talk, leave or return. A
// refusal comes back as an error message.
func (r *remote) Say(m match.ClientMessage) {
	r.mu.Lock()
	conn := r.conn
	r.mu.Unlock()
	offline := &match.Message{Type: match.TypeError, Error: &match.Error{Code: "offline"}}
	if conn == nil {
		r.tell(offline)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var err error
	switch m.Type {
	case match.ClientChat:
		err = conn.Chat(ctx, m.Text, m.Team)
	case match.ClientLeave:
		err = conn.Leave(ctx)
	case match.ClientReturn:
		err = conn.Return(ctx)
	}
	if err != nil {
		r.tell(offline)
	}
}

func (r *remote) Close() error {
	select {
	case <-r.quit:
	default:
		close(r.quit)
	}
	r.mu.Lock()
	if r.conn != nil {
		r.conn.Close()
	}
	r.mu.Unlock()
	<-r.done
	return nil
}

func (r *remote) tell(m *match.Message) bool {
	select {
	case r.out <- m:
		return true
	case <-r.quit:
		return false
	}
}

func (r *remote) run() {
	defer close(r.done)
	defer close(r.out)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		select {
		case <-r.quit:
		case <-r.done:
		}
		cancel()
	}()
	tries := 0
	for {
		conn := r.current()
		for conn != nil {
			m, _, err := conn.Next(ctx)
			if err != nil {
				code := client.CloseStatus(err)
				r.mu.Lock()
				r.conn = nil
				r.mu.Unlock()
				conn = nil
				select {
				case <-r.quit:
					return
				default:
				}
				if code == client.CloseReplaced {
					// The other screen plays the seat until this one is
					// asked to play here again (which replaces it in turn).
					if !r.tell(&match.Message{Type: ReplacedType}) {
						return
					}
					select {
					case <-r.quit:
						return
					case <-r.here:
					}
					tries = 0
					r.dial(ctx)
					conn = r.current()
					continue
				}
				break
			}
			tries = 0
			if m.Type == match.TypePing {
				continue
			}
			if !r.tell(m) {
				return
			}
		}
		wait := retryDelays[min(tries, len(retryDelays)-1)]
		tries++
		if !r.tell(&match.Message{Type: LostType, Clock: engine.Millis(wait.Milliseconds())}) {
			return
		}
		select {
		case <-r.quit:
			return
		case <-time.After(wait):
		}
		r.dial(ctx)
	}
}

// dial opens the seat's socket again; on failure the line stays without
// one (and tries again after its next wait).
func (r *remote) dial(ctx context.Context) {
	dctx, dcancel := context.WithTimeout(ctx, 10*time.Second)
	c, err := r.c.Dial(dctx, r.inv.Match, r.inv.Token)
	dcancel()
	if err == nil {
		r.mu.Lock()
		r.conn = c
		r.mu.Unlock()
	}
}

func (r *remote) current() *client.Conn {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.conn
}

// PlayHere takes the seat back from the screen that replaced this one.
func (r *remote) PlayHere() {
	select {
	case r.here <- struct{}{}:
	default:
	}
}
