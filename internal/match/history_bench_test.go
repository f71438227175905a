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

// BenchmarkHistoryOfALongMatch measures what a socket connecting to a long
// match costs for its history: a whole Temple match of four medium bots
// (some thousand records) read from SQLite and replayed for the seat's
// events, once per connection.
func BenchmarkHistoryOfALongMatch(b *testing.B) {
	ctx := context.Background()
	st, err := store.OpenSQLite(filepath.Join(b.TempDir(), "sortie.db"), store.SQLiteOptions{Sync: "normal"})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	g := temple.Game{}
	manager := func() *match.Manager {
		return match.NewManager(match.Config{Store: st, Games: []engine.Game{g}, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	}
	m := manager()
	c, err := m.Create(ctx, match.CreateRequest{Game: "temple", Players: 4})
	if err != nil {
		b.Fatal(err)
	}
	id := c.Match.ID
	m.Shutdown(ctx)
	// The match's log is a whole match of bots, written as the match would.
	rec, err := st.Get(ctx, id)
	if err != nil {
		b.Fatal(err)
	}
	medium, err := bot.Find(g, "medium")
	if err != nil {
		b.Fatal(err)
	}
	res, err := sim.Play(g, rec.Setup, []bot.Policy{medium, medium, medium, medium}, true)
	if err != nil {
		b.Fatal(err)
	}
	if err := st.Start(ctx, id, 0, time.Now()); err != nil {
		b.Fatal(err)
	}
	for i, r := range res.Log {
		data, _ := r.MarshalJSON()
		if err := st.Append(ctx, id, 0, i+1, data, r.At); err != nil {
			b.Fatal(err)
		}
	}
	m = manager()
	defer m.Shutdown(ctx)
	x, err := m.Get(ctx, id)
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
	b.ReportMetric(float64(len(res.Log)), "records")
	b.ReportMetric(float64(size), "bytes/state")
}
