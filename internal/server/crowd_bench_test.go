package server_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"sortie/bot"
	"sortie/engine"
	"sortie/games/temple"
	"sortie/internal/match"
	"sortie/internal/match/matchtest"
	"sortie/internal/server"
	"sortie/internal/store"
	"sortie/sim"
)

// storeLongTemple writes, in a new SQLite file at path, a finished Temple
// match of five medium bots from a fixed seed (1,490 records) as a server
// would have stored it, and returns its id and length.
func storeLongTemple(b *testing.B, path string) (string, int) {
	ctx := context.Background()
	st, err := store.OpenSQLite(path, store.SQLiteOptions{Sync: "normal"})
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	setup := engine.Setup{Players: 5, Seed: 67}
	rec := &store.Match{ID: "long-temple", Game: "temple", Setup: setup, Status: store.Open, Created: time.Now(),
		Seats: slices.Repeat([]store.Seat{{Kind: match.Bot, Bot: "medium"}}, 5)}
	if err := st.Create(ctx, rec); err != nil {
		b.Fatal(err)
	}
	g := temple.Game{}
	medium, err := bot.Find(g, "medium")
	if err != nil {
		b.Fatal(err)
	}
	res, err := sim.Play(g, setup, slices.Repeat([]bot.Policy{medium}, 5), true)
	if err != nil {
		b.Fatal(err)
	}
	if err := st.Start(ctx, rec.ID, 0, time.Now()); err != nil {
		b.Fatal(err)
	}
	for i, r := range res.Log {
		data, _ := r.MarshalJSON()
		if err := st.Append(ctx, rec.ID, 0, i+1, data, r.At); err != nil {
			b.Fatal(err)
		}
	}
	if err := st.Finish(ctx, rec.ID, 0, res.Outcome, res.Log[len(res.Log)-1].At, time.Now()); err != nil {
		b.Fatal(err)
	}
	return rec.ID, len(res.Log)
}

// BenchmarkStepViewsBesidePlay measures what readers of a replay cost the
// players. Readers in a process of their own (this test binary run again,
// as a crowd of clients would be) ask, as fast as they are answered, for
// views of any step of a long finished Temple match, while two players play
// another match here. It reports the players' median and 95th percentile
// time from sending an action to its acknowledgement, and the views served
// and refused a second; one op is one acknowledged action. Cases: no reader
// (the baseline); 16 readers from one address and from 16, under the
// default rate of reads; 16 from 16 addresses with no rate (only the bound
// on rebuilds at once stands).
//
//	go test ./internal/server -run '^$' -bench StepViewsBesidePlay -benchtime 2000x
func BenchmarkStepViewsBesidePlay(b *testing.B) {
	path := filepath.Join(b.TempDir(), "sortie.db")
	id, records := storeLongTemple(b, path)
	for _, c := range []struct {
		readers, addrs int
		rate           float64
	}{{0, 0, 0}, {16, 1, 0}, {16, 16, 0}, {16, 16, -1}} {
		name := fmt.Sprintf("readers=%d/addresses=%d", c.readers, c.addrs)
		if c.rate < 0 {
			name += "/no-rate"
		}
		b.Run(name, func(b *testing.B) {
			e := newEnv(b, append(matchtest.Games(), temple.Game{}), func(cfg *server.Config) {
				cfg.DataPath, cfg.CreateRate, cfg.ReadRate = path, -1, c.rate
			})
			var stop func() (ok, limited int64)
			if c.readers > 0 {
				stop = startReaders(b, fmt.Sprintf("%s %s %d %d %d", e.hs.URL, id, records, c.readers, c.addrs))
			}
			newTable := func() []*player {
				cm := e.newMatch(match.CreateRequest{Game: "testcards", Players: 2, Options: map[string]string{"hand": "4"}}, true)
				return []*player{e.dial(cm.Match.ID, cm.Seats[0].Token, 0), e.dial(cm.Match.ID, cm.Seats[1].Token, 1)}
			}
			ps := newTable()
			var lat []time.Duration
			start := time.Now()
			b.ResetTimer()
			for range b.N {
				d, ok := actOnce(b, ps)
				if !ok { // over: a new match
					closeAll(ps)
					ps = newTable()
					if d, ok = actOnce(b, ps); !ok {
						b.Fatal("a new match has nothing to play")
					}
				}
				lat = append(lat, d)
			}
			b.StopTimer()
			elapsed := time.Since(start).Seconds()
			closeAll(ps)
			if stop != nil {
				ok, limited := stop()
				b.ReportMetric(float64(ok)/elapsed, "views/s")
				b.ReportMetric(float64(limited)/elapsed, "refused/s")
			}
			slices.Sort(lat)
			b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "ack-p50-ms")
			b.ReportMetric(float64(lat[len(lat)*95/100].Microseconds())/1000, "ack-p95-ms")
		})
	}
}

// startReaders runs this test binary again as a crowd of readers (see
// server.ReadersEnv); stop ends it and returns the views it was served and
// refused.
func startReaders(b *testing.B, spec string) (stop func() (ok, limited int64)) {
	exe, err := os.Executable()
	if err != nil {
		b.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run", "^$")
	cmd.Env = append(os.Environ(), server.ReadersEnv+"="+spec)
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	rd := bufio.NewReader(out)
	if line, err := rd.ReadString('\n'); err != nil || strings.TrimSpace(line) != "ready" {
		cmd.Process.Kill()
		b.Fatalf("the readers did not start: %q %v", line, err)
	}
	return func() (ok, limited int64) {
		_ = cmd.Process.Signal(os.Interrupt)
		line, _ := rd.ReadString('\n')
		_ = cmd.Wait()
		fmt.Sscanf(line, "ok=%d limited=%d", &ok, &limited)
		return ok, limited
	}
}

// actOnce has the player whose turn it is play its first legal action, and
// returns the time from sending it to its acknowledgement; false when the
// match is over.
func actOnce(tb testing.TB, ps []*player) (time.Duration, bool) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for _, p := range ps {
		for p.last == nil {
			if _, err := p.recv(ctx); err != nil {
				tb.Fatal(err)
			}
		}
	}
	for {
		// Both sockets are up to the newest state before choosing.
		seq := max(ps[0].last.Seq, ps[1].last.Seq)
		for _, p := range ps {
			for p.last.Seq < seq {
				if _, err := p.recv(ctx); err != nil {
					tb.Fatal(err)
				}
			}
		}
		if ps[0].last.Status == store.Finished {
			return 0, false
		}
		for _, p := range ps {
			if len(p.last.Legal) == 0 {
				continue
			}
			sent := time.Now()
			if err := p.send(ctx, p.last.Seq, p.last.Legal[0]); err != nil {
				tb.Fatal(err)
			}
			acked := p.last.Seq
			for {
				m, err := p.recv(ctx)
				if err != nil {
					tb.Fatal(err)
				}
				if m.Type == match.TypeError {
					tb.Fatalf("refused: %+v", m.Error)
				}
				if m.Ack != nil && *m.Ack == acked {
					return time.Since(sent), true
				}
			}
		}
		// Nobody may act yet (a state between turns): wait for the next.
		if _, err := ps[0].recv(ctx); err != nil {
			tb.Fatal(err)
		}
	}
}
