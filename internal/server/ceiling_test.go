package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/coder/websocket"
)

// BenchmarkSocketCeiling measures what the sockets alone allow on this
// machine, with no game, no store and no JSON: groups of four WebSocket
// clients, one of which sends a short message that the server answers by
// writing a message of the size of a typical update to all four, as a match
// does for each action; the sender sends again once it has its copy. One
// op is one such round (one "action"), client and server in one process, as
// `sortie loadtest` runs them on one machine. It is the ceiling any server
// design with one socket per seat reaches here: run it with -cpu 2 and
// compare with the loadtest's actions per second.
func BenchmarkSocketCeiling(b *testing.B) {
	for _, size := range []int{300, 2000} {
		b.Run("update="+strconv.Itoa(size)+"B", func(b *testing.B) { socketCeiling(b, 64, 4, size) })
	}
}

func socketCeiling(b *testing.B, groups, seats, size int) {
	payload := make([]byte, size)
	for i := range payload {
		payload[i] = 'x'
	}
	type group struct {
		mu    sync.Mutex
		conns []*websocket.Conn
		ready sync.WaitGroup
	}
	gs := make([]*group, groups)
	for i := range gs {
		gs[i] = &group{}
		gs[i].ready.Add(seats)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gi, _ := strconv.Atoi(r.URL.Query().Get("g"))
		c, err := websocket.Accept(w, r, nil)
		if err != nil {
			return
		}
		g := gs[gi]
		g.mu.Lock()
		g.conns = append(g.conns, c)
		g.mu.Unlock()
		g.ready.Done()
		g.ready.Wait()
		ctx := context.Background()
		for {
			if _, _, err := c.Read(ctx); err != nil {
				return
			}
			for _, o := range g.conns {
				if err := o.Write(ctx, websocket.MessageText, payload); err != nil {
					return
				}
			}
		}
	}))
	defer srv.Close()
	url := "ws" + srv.URL[len("http"):]
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var rounds atomic.Int64
	target := int64(b.N)
	var wg sync.WaitGroup
	clients := make([][]*websocket.Conn, groups)
	for gi := range groups {
		for range seats {
			c, _, err := websocket.Dial(ctx, url+"?g="+strconv.Itoa(gi), nil)
			if err != nil {
				b.Fatal(err)
			}
			c.SetReadLimit(1 << 20)
			clients[gi] = append(clients[gi], c)
		}
	}
	b.ResetTimer()
	for gi := range groups {
		for si, c := range clients[gi] {
			wg.Add(1)
			go func() {
				defer wg.Done()
				sender := si == 0
				if sender {
					if err := c.Write(ctx, websocket.MessageText, []byte(`{"seq":1}`)); err != nil {
						return
					}
				}
				for {
					if _, _, err := c.Read(ctx); err != nil {
						return
					}
					if !sender {
						continue
					}
					if rounds.Add(1) >= target {
						cancel()
						return
					}
					if err := c.Write(ctx, websocket.MessageText, []byte(`{"seq":1}`)); err != nil {
						return
					}
				}
			}()
		}
	}
	wg.Wait()
	b.StopTimer()
	b.ReportMetric(float64(rounds.Load())/b.Elapsed().Seconds(), "actions/s")
	for _, cs := range clients {
		for _, c := range cs {
			c.CloseNow()
		}
	}
}
