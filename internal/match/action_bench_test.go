package match_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"sortie/engine"
	"sortie/games/all"
	"sortie/internal/bus"
	"sortie/internal/cputime"
	"sortie/internal/match"
	"sortie/internal/store"
)

// BenchmarkAction measures one action through the whole server path but the
// sockets: decoded, checked and played in the match's run, appended to
// a SQLite log and committed, then encoded for every audience (each seat
// watching, and spectators when asked) and handed to the bus. Every seat is
// human and plays a random legal action in turn; a finished match is
// replaced by a new one (its setup is counted). "matches=1" commits every
// action alone; "matches=32" plays 32 matches at once, whose commits are
// shared as on a busy server. The figures to watch are cpu-ns/op (the
// process's CPU an action, on every thread: wall time is mostly the disk's
// fsync) and allocs/op.
//
// The real-time games are left to `sortie loadtest`: what their seats may
// do depends on match time (cooldowns, votes after a while, a sand timer
// that ends the match), so a loop of actions as fast as possible measures
// waiting and new matches more than actions.
func BenchmarkAction(b *testing.B) {
	for _, g := range all.Games() {
		info := g.Info()
		if info.Timing == engine.RealTime {
			continue // see above
		}
		for _, players := range []int{2, 4} {
			if players < info.MinPlayers || players > info.MaxPlayers {
				continue
			}
			for _, matches := range []int{1, 32} {
				b.Run(fmt.Sprintf("%s/seats=%d/matches=%d", info.ID, players, matches), func(b *testing.B) {
					benchActions(b, info.ID, players, matches)
				})
			}
		}
	}
}

func benchActions(b *testing.B, game string, players, matches int) {
	var commits, writes atomic.Int64
	st, err := store.OpenSQLite(filepath.Join(b.TempDir(), "sortie.db"), store.SQLiteOptions{OnCommit: func(n int, _ time.Duration) {
		commits.Add(1)
		writes.Add(int64(n))
	}})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	m := match.NewManager(match.Config{Store: st, Games: all.Games(), Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	defer m.Shutdown(context.Background())
	b.ReportAllocs()
	b.ResetTimer()
	cpu0 := cputime.Process()
	var wg sync.WaitGroup
	per := b.N / matches
	for i := range matches {
		n := per
		if i == 0 {
			n += b.N % matches
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := playActions(m, game, players, n, uint64(i)); err != nil {
				b.Error(err)
			}
		}()
	}
	wg.Wait()
	b.ReportMetric(float64(cputime.Process()-cpu0)/float64(b.N), "cpu-ns/op")
	b.ReportMetric(float64(writes.Load())/float64(max(commits.Load(), 1)), "writes/commit")
}

// playActions plays n actions in matches of game, one after the other, with
// every seat watched.
func playActions(m *match.Manager, game string, players, n int, seed uint64) error {
	ctx := context.Background()
	r := rand.New(rand.NewPCG(seed, 1))
	var x *match.Match
	var watches []*match.Watch
	closeMatch := func() {
		for _, w := range watches {
			x.Unwatch(w)
		}
		watches = nil
	}
	defer func() {
		if x != nil {
			closeMatch()
		}
	}()
	stuck := time.Now()
	for done := 0; done < n; {
		if time.Since(stuck) > 10*time.Second {
			return fmt.Errorf("%s: nothing could be played for 10 s", game)
		}
		if x == nil {
			c, err := m.Create(ctx, match.CreateRequest{Game: game, Players: players, MoveLimitMs: new(int64(0)), TakeoverAfterMs: new(int64(0))})
			if err != nil {
				return err
			}
			if x, err = m.Get(ctx, c.Match.ID); err != nil {
				return err
			}
			for s := range players {
				w, err := x.Watch(ctx, engine.Seat(s))
				if err != nil {
					return err
				}
				go drain(w.Sub)
				watches = append(watches, w)
			}
			if _, err := x.Start(ctx); err != nil {
				return err
			}
		}
		seq, s, legal, over := x.Turn(ctx, r.IntN)
		if over {
			closeMatch()
			x = nil
			continue
		}
		if len(legal) == 0 { // only time can move the game on
			time.Sleep(time.Millisecond)
			continue
		}
		a := legal[r.IntN(len(legal))]
		data, err := engine.MarshalTyped(a)
		if err != nil {
			return err
		}
		if err := x.Act(ctx, s, seq, data); err != nil {
			if c := match.AsError(err).Code; c == match.CodeStaleSeq || c == "cooldown" {
				time.Sleep(time.Millisecond) // real time moved on, or the die is not ready yet
				continue
			}
			return fmt.Errorf("seat %d plays %s: %v", s, data, err)
		}
		done++
		stuck = time.Now()
	}
	return nil
}

// drain reads a subscription as a socket would, until it ends.
func drain(sub *bus.Subscription) {
	var buf []bus.Message
	for {
		select {
		case <-sub.Ready():
			buf = sub.Take(buf[:0])
		case <-sub.Done():
			return
		}
	}
}
