package notify

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"sortie/engine"
	"sortie/internal/cputime"
	"sortie/internal/match"
	"sortie/internal/match/matchtest"
	"sortie/internal/notify/pushtest"
	"sortie/internal/store"
)

// BenchmarkTurnNotifications measures what "your turn" costs the node that
// sends it: an op is 1,000 turns of 1,000 players, each away from a match
// waiting for them, each with one device — each turn queued as a job,
// claimed, checked (the player's running matches from the store, each
// match's summary), its push encrypted (RFC 8291) and signed (VAPID), posted
// to a push service on loopback that only takes it (so that its own work is
// not counted), and marked sent. It reports the process's CPU and the
// bytes allocated per 1,000 turns, and the heap after them.
//
//	go test ./internal/notify -run '^$' -bench TurnNotifications -benchtime 5x
func BenchmarkTurnNotifications(b *testing.B) {
	ctx := context.Background()
	st, err := store.OpenSQLite(filepath.Join(b.TempDir(), "s.db"), store.SQLiteOptions{})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	var posts atomic.Int64
	sink := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		posts.Add(1)
		w.WriteHeader(http.StatusCreated)
	}))
	defer sink.Close()
	svc := pushtest.Start() // (for keys a browser would make)
	defer svc.Close()
	const players = 1000
	ms := matches{}
	for i := range players {
		acct := fmt.Sprintf("p%04d", i)
		if err := st.CreateAccount(ctx, &store.Account{ID: acct, Name: "Player " + acct, Lang: []string{"fr", "en"}[i%2], Handle: []byte(acct), Created: time.Now()}); err != nil {
			b.Fatal(err)
		}
		sub := svc.Subscribe()
		if err := st.AddPushSubscription(ctx, &store.PushSubscription{ID: "d" + acct, Account: acct, Endpoint: sink.URL + "/push/" + acct,
			P256dh: sub.P256dh, Auth: sub.Auth, Created: time.Now()}, 20); err != nil {
			b.Fatal(err)
		}
		id := "m" + acct
		if err := st.Create(ctx, &store.Match{ID: id, Game: "testcards", Setup: engine.Setup{Players: 2}, Status: store.Running, Created: time.Now(),
			Seats: []store.Seat{{Kind: "human", Account: acct}, {Kind: "human"}}}); err != nil {
			b.Fatal(err)
		}
		ms[id] = match.Summary{ID: id, Game: "testcards", Status: store.Running, Live: true, Actors: []engine.Seat{0},
			Seats: []match.SeatSummary{{Seat: 0, Name: "Player", Account: acct, PlayedBy: "human"}, {Seat: 1, Name: "Bob", PlayedBy: "human"}}}
	}
	pub, _ := url.Parse("https://sortie.example")
	hosts, _ := ParsePushServices(strings.TrimPrefix(sink.URL, "http://"))
	n, err := New(ctx, Config{Store: st, Matches: ms, Games: []engine.Game{matchtest.Cards{}}, PublicURL: pub, PushServices: hosts,
		Delay: time.Millisecond, Poll: 5 * time.Millisecond, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		b.Fatal(err)
	}
	n.Start()
	defer n.Stop()
	runtime.GC()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	cpu0, wall0 := cputime.Process(), time.Now()
	b.ResetTimer()
	for op := range b.N {
		want := posts.Load() + players
		for i := range players {
			acct := fmt.Sprintf("p%04d", i)
			n.Notice(match.Notice{Kind: match.NoticeTurn, Match: "m" + acct, Account: acct, Turn: op})
		}
		deadline := time.Now().Add(5 * time.Minute)
		for posts.Load() < want {
			if time.Now().After(deadline) {
				b.Fatalf("%d of %d pushes after 5 minutes", posts.Load()-want+players, players)
			}
			time.Sleep(2 * time.Millisecond)
		}
	}
	b.StopTimer()
	cpu, wall := cputime.Process()-cpu0, time.Since(wall0)
	runtime.ReadMemStats(&m1)
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/1000turns")
	b.ReportMetric(wall.Seconds()/float64(b.N), "wall-s/1000turns")
	b.ReportMetric(float64(m1.TotalAlloc-m0.TotalAlloc)/float64(b.N)/(1<<20), "alloc-MiB/1000turns")
	b.ReportMetric(float64(m1.HeapInuse)/(1<<20), "heap-MiB")
}
