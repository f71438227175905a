package web_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// created is what the tests keep of a match made through the API.
type created struct {
	ID     string
	Tokens map[int]string
}

// create makes a match through the JSON API, the quick way to reach a board
// without the lobby's form: seats are "human" or a bot's name; the first
// human seat is joined under name. All-bot matches start at once.
func (s *site) create(game string, seats []string, options map[string]string, botDelayMS int, name string) created {
	s.t.Helper()
	type seat struct {
		Kind string `json:"kind"`
		Bot  string `json:"bot,omitempty"`
		Name string `json:"name,omitempty"`
	}
	req := map[string]any{"game": game, "players": len(seats), "options": options, "bot_delay_ms": botDelayMS, "auto_start": true}
	var ss []seat
	for _, k := range seats {
		if k == "human" {
			ss = append(ss, seat{Kind: "human", Bot: "medium"})
		} else {
			ss = append(ss, seat{Kind: "bot", Bot: k})
		}
	}
	req["seats"] = ss
	var out struct {
		Match struct {
			ID string `json:"id"`
		} `json:"match"`
		Seats []struct {
			Seat  int    `json:"seat"`
			Token string `json:"token"`
		} `json:"seats"`
	}
	s.post("/api/matches", "", req, &out)
	c := created{ID: out.Match.ID, Tokens: map[int]string{}}
	for _, st := range out.Seats {
		if st.Token != "" {
			c.Tokens[st.Seat] = st.Token
			s.post("/api/matches/"+c.ID+"/join", st.Token, map[string]string{"name": name}, nil)
		}
	}
	return c
}

func (s *site) post(path, token string, body, out any) {
	s.t.Helper()
	b, _ := json.Marshal(body)
	req, _ := http.NewRequest("POST", s.url+path, bytes.NewReader(b))
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	r, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatalf("POST %s: %v", path, err)
	}
	defer r.Body.Close()
	if r.StatusCode/100 != 2 {
		var e bytes.Buffer
		_, _ = e.ReadFrom(r.Body)
		s.t.Fatalf("POST %s: %d %s", path, r.StatusCode, e.String())
	}
	if out != nil {
		if err := json.NewDecoder(r.Body).Decode(out); err != nil {
			s.t.Fatalf("POST %s: %v", path, err)
		}
	}
}

// openSeat opens the match page as the holder of seat's token (as its
// invite link does), or as a spectator when seat < 0.
func (p *page) openSeat(c created, seat int) {
	p.t.Helper()
	path := "/play/" + c.ID
	if seat >= 0 {
		path += fmt.Sprintf("?seat=%d#token=%s", seat, url.QueryEscape(c.Tokens[seat]))
	}
	p.open(path)
	p.wait(`document.querySelector('.match-page') && document.querySelector('.match-page').dataset.status`, 15*time.Second)
}

// size sets the page's viewport (CSS pixels) and colour scheme.
func (p *page) size(w, h int64, dark bool) {
	p.t.Helper()
	scheme := "light"
	if dark {
		scheme = "dark"
	}
	p.do("viewport", chromedp.EmulateViewport(w, h),
		chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
			_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
			return err
		}))
}

// sends records what the page sends on its socket from now on (the tests
// read window.sortieSent).
func (p *page) recordSends() {
	p.t.Helper()
	js[bool](p, `(() => { if (window.sortieSent) return true; window.sortieSent = [];
		const send = WebSocket.prototype.send;
		WebSocket.prototype.send = function (d) { try { window.sortieSent.push({at: performance.now(), msg: JSON.parse(d)}); } catch {} return send.call(this, d); };
		return true; })()`)
}

// accName is the accessible name of the elements matching sel, as a screen
// reader computes it for a button: aria-label, else the text of what is not
// aria-hidden.
func (p *page) accNames(sel string) []string {
	p.t.Helper()
	return js[[]string](p, fmt.Sprintf(`[...document.querySelectorAll(%q)].map((el) => {
		if (el.getAttribute('aria-label')) return el.getAttribute('aria-label');
		const walk = (n) => n.nodeType === 3 ? n.textContent : (n.nodeType === 1 && n.getAttribute('aria-hidden') === 'true') ? '' :
			(n.nodeType === 1 && n.getAttribute('aria-label')) ? n.getAttribute('aria-label') : [...n.childNodes].map(walk).join('');
		return walk(el).replace(/\s+/g, ' ').trim(); })`, sel))
}
