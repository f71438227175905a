package match_test

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"sortie/games/all"
	"sortie/internal/cputime"
	"sortie/internal/match"
	"sortie/internal/store"
)

// BenchmarkCorrespondenceWaiting measures what correspondence matches
// waiting for their players cost a node: SORTIE_WAITING matches (10,000 by
// default) of Plan de Secours, Les Évadés and Room 25 in turn, two seats
// each, both joined and neither connected, each waiting for a move due in a
// day, on a SQLite store.
//
//   - live-KiB/match, heap-KiB/match, goroutines/match: the live Go heap,
//     the heap in use (spans holding a live object) and the goroutines
//     the waiting matches hold, after a collection, once created, and
//     once brought back by another manager's Resume (resumed-…: a
//     restart);
//   - rest-cpu-ms/s: the process's CPU a second of wall time while they
//     wait, over 10 s;
//   - create-s, resume-s: the time to create and start them all (eight
//     creators at once), and to bring them back from the store;
//   - sweep-s, sweep-cpu-us/deadline: a third manager, whose clock runs
//     fast enough that every deadline has passed when it starts, brings
//     them back and has each seat's bot play its move out of time (the
//     days off are 0): the time from its start until the last move is
//     stored, and the CPU of each deadline (its share of the resume
//     included); swept-live-KiB/match is what a match holds then (the bot
//     that played is kept).
//
// One run is one measurement:
//
//	go test ./internal/match -run '^$' -bench CorrespondenceWaiting -benchtime 1x
func BenchmarkCorrespondenceWaiting(b *testing.B) {
	n := 10_000
	if v := os.Getenv("SORTIE_WAITING"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n <= 0 {
			b.Fatalf("SORTIE_WAITING=%q: a number of matches", v)
		}
	}
	for range b.N {
		benchWaiting(b, n)
	}
}

func benchWaiting(b *testing.B, n int) {
	ctx := context.Background()
	path := filepath.Join(b.TempDir(), "sortie.db")
	st, err := store.OpenSQLite(path, store.SQLiteOptions{})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	var played atomic.Int64
	manager := func(speed float64) *match.Manager {
		return match.NewManager(match.Config{Store: st, Games: all.Games(), Logger: quiet, ClockSpeed: speed,
			Hooks: match.Hooks{Recorded: func(source string) {
				if source == "bot" {
					played.Add(1)
				}
			}}})
	}
	games := []string{"plandesecours", "evades", "room25"}

	heap0, g0, live0 := heapInUse(), goroutines(), liveHeap()
	m := manager(1)
	start := time.Now()
	var next atomic.Int64
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				_, err := m.Create(ctx, match.CreateRequest{Game: games[i%len(games)], Clock: match.ClockCorrespondence, DaysOff: new(0),
					Seats: []match.SeatRequest{{Kind: match.Human, Joined: true}, {Kind: match.Human, Joined: true}}, AutoStart: true})
				if err != nil {
					b.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if b.Failed() {
		return
	}
	created := time.Since(start)
	firstStart := start
	if m.Live() != n {
		b.Fatalf("%d matches in memory, want %d", m.Live(), n)
	}
	heap1, g1, live1 := heapInUse(), goroutines(), liveHeap()
	cpu0, wall0 := cputime.Process(), time.Now()
	time.Sleep(10 * time.Second)
	rest := float64(cputime.Process()-cpu0) / float64(time.Since(wall0)) * 1000
	if err := m.Shutdown(ctx); err != nil {
		b.Fatal(err)
	}
	if played.Load() != 0 {
		b.Fatalf("%d moves were played while the matches waited", played.Load())
	}

	// A restart: the matches come back from the store.
	m = nil
	heapR0 := heapInUse()
	m = manager(1)
	start = time.Now()
	if got, err := m.Resume(ctx); err != nil || got != n {
		b.Fatalf("resumed %d of %d: %v", got, n, err)
	}
	resumed := time.Since(start)
	heapR1, gR, liveR := heapInUse(), goroutines(), liveHeap()
	if err := m.Shutdown(ctx); err != nil {
		b.Fatal(err)
	}

	// Every deadline has passed: a day of match time is less than the
	// time since the first start.
	m = nil
	speed := float64(match.Day) / float64(time.Since(firstStart).Milliseconds()) * 1.5
	m = manager(speed)
	cpu0, start = cputime.Process(), time.Now()
	if got, err := m.Resume(ctx); err != nil || got != n {
		b.Fatalf("resumed %d of %d: %v", got, n, err)
	}
	for played.Load() < int64(n) {
		if time.Since(start) > 10*time.Minute {
			b.Fatalf("%d of %d moves out of time played after 10 min", played.Load(), n)
		}
		time.Sleep(10 * time.Millisecond)
	}
	swept, sweepCPU := time.Since(start), cputime.Process()-cpu0
	liveS := liveHeap()
	if err := m.Shutdown(ctx); err != nil {
		b.Fatal(err)
	}

	b.ReportMetric(float64(heap1-heap0)/1024/float64(n), "heap-KiB/match")
	b.ReportMetric(float64(live1-live0)/1024/float64(n), "live-KiB/match")
	b.ReportMetric(float64(liveR-live0)/1024/float64(n), "resumed-live-KiB/match")
	b.ReportMetric(float64(liveS-live0)/1024/float64(n), "swept-live-KiB/match")
	b.ReportMetric(float64(g1-g0)/float64(n), "goroutines/match")
	b.ReportMetric(float64(heapR1-heapR0)/1024/float64(n), "resumed-heap-KiB/match")
	b.ReportMetric(float64(gR-g0)/float64(n), "resumed-goroutines/match")
	b.ReportMetric(rest, "rest-cpu-ms/s")
	b.ReportMetric(created.Seconds(), "create-s")
	b.ReportMetric(resumed.Seconds(), "resume-s")
	b.ReportMetric(swept.Seconds(), "sweep-s")
	b.ReportMetric(float64(sweepCPU.Microseconds())/float64(n), "sweep-cpu-us/deadline")
	b.Logf("%d waiting matches on %s (load %s): created in %v, resumed in %v, every deadline played in %v",
		n, runtime.GOARCH, loadAverage(), created.Round(time.Millisecond), resumed.Round(time.Millisecond), swept.Round(time.Millisecond))
}

// heapInUse returns the bytes of Go heap in use after two collections.
func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}

// liveHeap returns the bytes of live Go heap objects after a collection.
func liveHeap() uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapAlloc
}

// goroutines returns the goroutines running once those that just ended
// are gone.
func goroutines() int {
	n := runtime.NumGoroutine()
	for range 50 {
		time.Sleep(20 * time.Millisecond)
		k := runtime.NumGoroutine()
		if k >= n {
			return k
		}
		n = k
	}
	return n
}

// loadAverage returns the machine's load average over a minute, or "?".
func loadAverage() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return "?"
	}
	return f[0]
}
