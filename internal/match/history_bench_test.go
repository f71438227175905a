package match_test

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"sortie/bot"
	"sortie/engine"
	"sortie/games/temple"
	"sortie/internal/match"
	"sortie/internal/store"
	"sortie/sim"
)

// longMatch is a whole Temple match of five medium bots from a fixed seed
// (1,490 records), stored as the match would have written it, in a SQLite
// file of its own.
type longMatch struct {
	st      *store.SQLite
	id      string
	records int
}

// storeLongMatch stores a longMatch; tb's end closes its store.
func storeLongMatch(tb testing.TB) *longMatch {
	tb.Helper()
	ctx := context.Background()
	st, err := store.OpenSQLite(filepath.Join(tb.TempDir(), "sortie.db"), store.SQLiteOptions{Sync: "normal"})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { st.Close() })
	lm := &longMatch{st: st}
	m := lm.manager(0)
	c, err := m.Create(ctx, match.CreateRequest{Game: "temple", Players: longPlayers})
	if err != nil {
		tb.Fatal(err)
	}
	m.Shutdown(ctx)
	// The same match from a fixed seed, so that every run measures the
	// same log.
	rec, err := st.Get(ctx, c.Match.ID)
	if err != nil {
		tb.Fatal(err)
	}
	rec.ID, rec.Setup.Seed, rec.Status = "long-temple", longSeed, store.Open
	if err := st.Create(ctx, rec); err != nil {
		tb.Fatal(err)
	}
	lm.id = rec.ID
	g := temple.Game{}
	medium, err := bot.Find(g, "medium")
	if err != nil {
		tb.Fatal(err)
	}
	res, err := sim.Play(g, rec.Setup, []bot.Policy{medium, medium, medium, medium, medium}, true)
	if err != nil {
		tb.Fatal(err)
	}
	if err := st.Start(ctx, lm.id, 0, time.Now()); err != nil {
		tb.Fatal(err)
	}
	for i, r := range res.Log {
		data, _ := r.MarshalJSON()
		if err := st.Append(ctx, lm.id, 0, i+1, data, r.At); err != nil {
			tb.Fatal(err)
		}
	}
	if err := st.Finish(ctx, lm.id, 0, res.Outcome, res.Log[len(res.Log)-1].At, time.Now()); err != nil {
		tb.Fatal(err)
	}
	lm.records = len(res.Log)
	return lm
}

// The long match's setup.
const (
	longPlayers = 5
	longSeed    = 67
)

// manager returns a manager of the long match's store, with a log cache of
// cache bytes (0: the default).
func (lm *longMatch) manager(cache int64) *match.Manager {
	return match.NewManager(match.Config{Store: lm.st, Games: []engine.Game{temple.Game{}}, LogCache: cache,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
}

// BenchmarkHistoryOfALongMatch measures what a socket connecting to a long
// match costs for its history: a whole Temple match of four medium bots
// (some thousand records) replayed for the seat's events, once per
// connection, from the log cache.
func BenchmarkHistoryOfALongMatch(b *testing.B) {
	ctx := context.Background()
	lm := storeLongMatch(b)
	m := lm.manager(0)
	defer m.Shutdown(ctx)
	x, err := m.Get(ctx, lm.id)
	if err != nil {
		b.Fatal(err)
	}
	size := 0
	for b.Loop() {
		s, err := x.Snapshot(ctx, 0)
		if err != nil {
			b.Fatal(err)
		}
		size = len(s)
	}
	b.ReportMetric(float64(lm.records), "records")
	b.ReportMetric(float64(size), "bytes/state")
}
