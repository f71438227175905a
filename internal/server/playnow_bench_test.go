package server_test

import (
	"context"
	"fmt"
	"runtime"
	"testing"
	"time"

	"sortie/internal/server"
)

// BenchmarkPlayNowTickets measures Play now's ticket operations on one node
// (SQLite, full sync), through HTTP from four clients a core at once: each
// iteration asks (POST /api/play), reads the ticket (GET) and cancels it
// (DELETE), three operations; it reports them a second. The issue asks for
// at least 1,000. The matchmaker runs its waves meanwhile, over six pools:
// two players who meet have their cancel refused (409), an answer too.
func BenchmarkPlayNowTickets(b *testing.B) {
	e := newAccountEnv(b, func(c *server.Config) { c.PlayWave = 200 * time.Millisecond })
	players := 4 * runtime.GOMAXPROCS(0)
	var bs []*browser
	for i := range players {
		br := e.browser(fmt.Sprintf("127.0.1.%d", i+1)) // (each an allowance of sign-ins of its own)
		br.mustSignIn(b, "p"+string(rune('a'+i))+"@example.org")
		bs = append(bs, br)
	}
	ctx := context.Background()
	next := make(chan *browser, players)
	for _, br := range bs {
		next <- br
	}
	b.SetParallelism(4) // four clients a core
	b.ResetTimer()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		br := <-next
		k := len(next)
		for pb.Next() {
			var t server.TicketOut
			if err := br.Do(ctx, "POST", "/api/play", "", map[string]any{"game": "testcards", "players": 2 + k%3, "rated": k%2 == 0,
				"bot_fill_after_ms": 600000}, &t); err != nil {
				b.Error(err)
				return
			}
			if err := br.Do(ctx, "GET", "/api/play/"+t.Ticket, "", nil, nil); err != nil {
				b.Error(err)
				return
			}
			if err := br.Do(ctx, "DELETE", "/api/play/"+t.Ticket, "", nil, nil); err != nil && apiCode(err) != server.CodeTicketMatched {
				b.Error(err)
				return
			}
		}
	})
	b.ReportMetric(float64(3*b.N)/time.Since(start).Seconds(), "ops/s")
}
