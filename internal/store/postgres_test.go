package store_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"sortie/engine"
	"sortie/internal/cputime"
	"sortie/internal/store"
	"sortie/internal/store/pgtest"
	"sortie/internal/store/storetest"
)

func TestMain(m *testing.M) {
	code := m.Run()
	pgtest.StopShared()
	os.Exit(code)
}

// pgDatabase makes a new database on the tests' PostgreSQL, dropped at the
// end of the test.
func pgDatabase(t testing.TB) (*pgtest.Server, string) {
	t.Helper()
	srv := pgtest.Require(t)
	ctx := context.Background()
	u, err := srv.Database(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Drop(context.Background(), u) })
	return srv, u
}

func pgHarness(o store.PostgresOptions) storetest.Harness {
	return storetest.Harness{Open: func(t testing.TB, onCommit func(int, time.Duration)) func() (store.Store, error) {
		_, u := pgDatabase(t)
		return func() (store.Store, error) {
			o := o
			o.OnCommit = onCommit
			return store.OpenPostgres(context.Background(), u, o)
		}
	}}
}

func TestPostgres(t *testing.T) {
	storetest.Run(t, pgHarness(store.PostgresOptions{}))
}

func TestPostgresAccounts(t *testing.T) {
	storetest.RunAccounts(t, pgHarness(store.PostgresOptions{}))
}

func TestPostgresTickets(t *testing.T) {
	storetest.RunTickets(t, pgHarness(store.PostgresOptions{}))
}

func TestPostgresRatings(t *testing.T) {
	storetest.RunRatings(t, pgHarness(store.PostgresOptions{}))
}

func openPostgres(t *testing.T, u string, o store.PostgresOptions) *store.Postgres {
	t.Helper()
	s, err := store.OpenPostgres(context.Background(), u, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// The schema is made once, whoever comes first among nodes starting
// together, with its version recorded; a database that holds another
// program's matches table or a newer Sortie's schema is refused.
func TestPostgresSchema(t *testing.T) {
	ctx := context.Background()
	_, u := pgDatabase(t)
	var wg sync.WaitGroup
	errs := make([]error, 4)
	for i := range errs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s, err := store.OpenPostgres(ctx, u, store.PostgresOptions{})
			if err == nil {
				s.Close()
			}
			errs[i] = err
		}()
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		t.Fatalf("nodes starting together: %v", err)
	}
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var versions string
	if err := conn.QueryRow(ctx, `SELECT string_agg(version::text, ' ' ORDER BY version) FROM sortie_schema`).Scan(&versions); err != nil || versions != "1 2 3 4 5 6 7 8 9 10 11" { // (2: the table talk, 3: ends and their reasons, 4: the leases' history, 5: since when nobody plays, 6: who created each match, 7: accounts, 8: ratings, 9: jobs, hints and daily challenges, 10: notifications, 11: Play now by correspondence and for a range of players, rematches)
		t.Fatalf("schema versions: %q %v", versions, err)
	}
	if _, err := conn.Exec(ctx, `INSERT INTO sortie_schema (version) VALUES (99)`); err != nil {
		t.Fatal(err)
	}
	if _, err := store.OpenPostgres(ctx, u, store.PostgresOptions{}); err == nil || !strings.Contains(err.Error(), "newer Sortie (schema version 99") {
		t.Fatalf("a newer schema: %v", err)
	}

	_, other := pgDatabase(t)
	oc, err := pgx.Connect(ctx, other)
	if err != nil {
		t.Fatal(err)
	}
	defer oc.Close(ctx)
	if _, err := oc.Exec(ctx, `CREATE TABLE matches (home text, away text)`); err != nil {
		t.Fatal(err)
	}
	if _, err := store.OpenPostgres(ctx, other, store.PostgresOptions{}); err == nil || !strings.Contains(err.Error(), "Sortie did not make") {
		t.Fatalf("another program's matches table: %v", err)
	}
	if _, err := store.OpenPostgres(ctx, "mysql://nope", store.PostgresOptions{}); err == nil {
		t.Fatal("a bad URL was taken")
	}
}

// PostgreSQL crashes while matches append: every call made while it is
// down says unavailable within the timeout, the store comes back by itself
// when PostgreSQL does, and every record acknowledged before the crash is
// there.
func TestPostgresCrashAndReturn(t *testing.T) {
	srv, u := pgDatabase(t)
	if !srv.Throwaway() {
		t.Skip("SORTIE_TEST_POSTGRES names a server the tests may not stop")
	}
	ctx := context.Background()
	s := openPostgres(t, u, store.PostgresOptions{Timeout: 3 * time.Second})
	const matches = 8
	for i := range matches {
		id := fmt.Sprint("m", i)
		if err := s.Create(ctx, &store.Match{ID: id, Game: "g", Seats: []store.Seat{}, Created: time.Now()}); err != nil {
			t.Fatal(err)
		}
		if err := s.Start(ctx, id, 0, time.Now()); err != nil {
			t.Fatal(err)
		}
	}
	var (
		stop     atomic.Bool
		wg       sync.WaitGroup
		acked    [matches]atomic.Int64
		refusals atomic.Int64
		other    = make(chan error, matches)
	)
	for i := range matches {
		wg.Add(1)
		go func() {
			defer wg.Done()
			id := fmt.Sprint("m", i)
			for n := 1; !stop.Load(); {
				err := s.Append(ctx, id, 0, n, fmt.Appendf(nil, `{"n":%d}`, n), 0)
				switch {
				case err == nil:
					acked[i].Store(int64(n))
					n++
				case errors.Is(err, store.ErrUnavailable):
					// The record may have landed: the same append again is
					// taken either way.
					refusals.Add(1)
					time.Sleep(20 * time.Millisecond)
				default:
					other <- fmt.Errorf("%s #%d: %v", id, n, err)
					return
				}
			}
		}()
	}
	waitFor(t, "appends before the crash", func() bool { m, err := s.Get(ctx, "m0"); return err == nil && m.Records >= 20 })
	srv.Kill()
	start := time.Now()
	if _, err := s.Get(ctx, "m0"); !errors.Is(err, store.ErrUnavailable) {
		t.Fatalf("get while PostgreSQL is down: %v", err)
	}
	cctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	if err := s.Check(cctx); !errors.Is(err, store.ErrUnavailable) {
		t.Fatalf("check while PostgreSQL is down: %v", err)
	}
	cancel()
	if d := time.Since(start); d > 15*time.Second {
		t.Fatalf("calls while PostgreSQL is down took %v", d)
	}
	waitFor(t, "appends refused as unavailable", func() bool { return refusals.Load() >= matches })
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the check passing again", func() bool { return s.Check(ctx) == nil })
	var before [matches]int64
	for i := range matches {
		before[i] = acked[i].Load()
	}
	waitFor(t, "every match appending again", func() bool {
		for i := range matches {
			if acked[i].Load() <= before[i] {
				return false
			}
		}
		return true
	})
	stop.Store(true)
	wg.Wait()
	close(other)
	for err := range other {
		t.Fatal(err)
	}
	for i := range matches {
		log, err := s.Log(ctx, fmt.Sprint("m", i))
		if err != nil {
			t.Fatal(err)
		}
		if n := int(acked[i].Load()); len(log) < n || len(log) > n+1 {
			t.Fatalf("m%d: %d records acknowledged, %d stored", i, n, len(log))
		}
		for n, rec := range log {
			if string(rec) != fmt.Sprintf(`{"n":%d}`, n+1) {
				t.Fatalf("m%d #%d is %s", i, n+1, rec)
			}
		}
	}
	t.Logf("%d appends refused while PostgreSQL was down", refusals.Load())
}

func waitFor(t *testing.T, what string, f func() bool) {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for !f() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not after 60 s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A benchWrite is the write a benchmark repeats: the nth of match id.
type benchWrite func(ctx context.Context, s store.Store, id string, n int) error

var benchRecord = []byte(`{"seat":1,"at":123456,"action":{"type":"move","to":[3,4]}}`)

// appendRecord appends a match's next record, as every action does.
func appendRecord(ctx context.Context, s store.Store, id string, n int) error {
	return s.Append(ctx, id, 0, n, benchRecord, engine.Millis(n))
}

// saveClock saves a match's clock, as every real-time match does every
// second.
func saveClock(ctx context.Context, s store.Store, id string, n int) error {
	return s.SaveClock(ctx, id, 0, engine.Millis(n))
}

// benchmarkAppends measures appends a second with many matches appending at
// once, each waiting for its record to be durable (as a match does), and how
// many writes shared each transaction.
func benchmarkAppends(b *testing.B, open func(onCommit func(int, time.Duration)) store.Store) {
	benchmarkWrites(b, 64, appendRecord, open)
}

// benchmarkWrites is benchmarkAppends for any write.
func benchmarkWrites(b *testing.B, matches int, write benchWrite, open func(onCommit func(int, time.Duration)) store.Store) {
	benchmarkNodes(b, 1, matches, write, func(onCommit func(int, time.Duration)) func() store.Store {
		return func() store.Store { return open(onCommit) }
	})
}

// benchmarkNodes is benchmarkWrites with several nodes, each with its own
// store (its own writer) on the same database and perNode matches of its own;
// it also reports the commits a second the database took from them all.
// The CPU a write costs is the whole process's (the benchmark's goroutines
// are a small part of it; a database server's, PostgreSQL's, is not in it).
func benchmarkNodes(b *testing.B, nodes, perNode int, write benchWrite, opener func(onCommit func(int, time.Duration)) func() store.Store) {
	matches := nodes * perNode
	var writes, txs atomic.Int64
	open := opener(func(n int, _ time.Duration) { writes.Add(int64(n)); txs.Add(1) })
	stores := make([]store.Store, nodes)
	for i := range stores {
		stores[i] = open()
		defer stores[i].Close()
	}
	ctx := context.Background()
	for i := range matches {
		s := stores[i/perNode]
		id := fmt.Sprint("m", i)
		if err := s.Create(ctx, &store.Match{ID: id, Game: "g", Seats: []store.Seat{}, Created: time.Now()}); err != nil {
			b.Fatal(err)
		}
		if err := s.Start(ctx, id, 0, time.Now()); err != nil {
			b.Fatal(err)
		}
	}
	writes.Store(0)
	txs.Store(0)
	var left atomic.Int64
	left.Store(int64(b.N))
	b.ResetTimer()
	start, cpu0 := time.Now(), cputime.Process()
	var wg sync.WaitGroup
	for i := range matches {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := stores[i/perNode]
			id := fmt.Sprint("m", i)
			for n := 1; left.Add(-1) >= 0; n++ {
				if err := write(ctx, s, id, n); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start).Seconds()
	b.ReportMetric(float64(b.N)/elapsed, "writes/s")
	b.ReportMetric(float64(cputime.Process()-cpu0)/float64(time.Microsecond)/float64(b.N), "cpu-µs/write")
	if t := txs.Load(); t > 0 {
		b.ReportMetric(float64(writes.Load())/float64(t), "writes/commit")
		if nodes > 1 {
			b.ReportMetric(float64(t)/elapsed, "commits/s")
		}
	}
}

func BenchmarkAppendSQLite(b *testing.B) {
	for _, sync := range []string{"full", "normal"} {
		b.Run("sync="+sync, func(b *testing.B) {
			benchmarkAppends(b, openSQLiteBench(b, sync))
		})
	}
}

// Every real-time match saves its clock once a second, all of a node's at
// the same instant: a write that does not touch the log.
func BenchmarkSaveClockSQLite(b *testing.B) {
	benchmarkWrites(b, 64, saveClock, openSQLiteBench(b, "full"))
}

// One match appending alone (every commit holds one write, with its flush to
// disk): the cost of an action at a person's pace on a quiet node.
func BenchmarkAppendAloneSQLite(b *testing.B) {
	benchmarkWrites(b, 1, appendRecord, openSQLiteBench(b, "full"))
}

func openSQLiteBench(b *testing.B, sync string) func(onCommit func(int, time.Duration)) store.Store {
	return func(onCommit func(int, time.Duration)) store.Store {
		s, err := store.OpenSQLite(b.TempDir()+"/sortie.db", store.SQLiteOptions{Sync: sync, OnCommit: onCommit})
		if err != nil {
			b.Fatal(err)
		}
		return s
	}
}

func BenchmarkAppendPostgres(b *testing.B) {
	benchmarkAppends(b, func(onCommit func(int, time.Duration)) store.Store {
		_, u := pgDatabase(b)
		s, err := store.OpenPostgres(context.Background(), u, store.PostgresOptions{OnCommit: onCommit})
		if err != nil {
			b.Fatal(err)
		}
		return s
	})
}

// Three nodes append to one PostgreSQL, each through its own writer: what
// the database sustains for a cluster.
func BenchmarkAppendPostgresNodes(b *testing.B) {
	benchmarkNodes(b, 3, 64, appendRecord, func(onCommit func(int, time.Duration)) func() store.Store {
		_, u := pgDatabase(b)
		return func() store.Store {
			s, err := store.OpenPostgres(context.Background(), u, store.PostgresOptions{OnCommit: onCommit})
			if err != nil {
				b.Fatal(err)
			}
			return s
		}
	})
}

// Every lease taken is kept with its node, and every record with the epoch
// it was appended under: who wrote what can be told afterwards.
func TestPostgresKeepsWhoWroteWhat(t *testing.T) {
	_, u := pgDatabase(t)
	ctx := context.Background()
	s := openPostgres(t, u, store.PostgresOptions{})
	if err := s.Create(ctx, &store.Match{ID: "m", Game: "g", Seats: []store.Seat{}, Created: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if err := s.Start(ctx, "m", 0, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := s.Append(ctx, "m", 0, 1, []byte(`{"n":1}`), 0); err != nil {
		t.Fatal(err)
	}
	a, err := s.Acquire(ctx, "m", "node-a", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Append(ctx, "m", a.Epoch, 2, []byte(`{"n":2}`), 0); err != nil {
		t.Fatal(err)
	}
	if err := s.Release(ctx, a); err != nil {
		t.Fatal(err)
	}
	b, err := s.Acquire(ctx, "m", "node-b", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Append(ctx, "m", a.Epoch, 3, []byte(`{"n":3}`), 0); !errors.Is(err, store.ErrFenced) {
		t.Fatalf("an append under the passed lease: %v", err)
	}
	if err := s.Append(ctx, "m", b.Epoch, 3, []byte(`{"n":3}`), 0); err != nil {
		t.Fatal(err)
	}
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	var writers, leases string
	if err := conn.QueryRow(ctx, `SELECT string_agg(r.n || ':' || r.epoch || ':' || coalesce(l.node, '-'), ' ' ORDER BY r.n)
		FROM records r LEFT JOIN leases l ON l.match_id = r.match_id AND l.epoch = r.epoch WHERE r.match_id = 'm'`).Scan(&writers); err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("1:0:- 2:%d:node-a 3:%d:node-b", a.Epoch, b.Epoch); writers != want {
		t.Fatalf("records by writer: %q, want %q", writers, want)
	}
	if err := conn.QueryRow(ctx, `SELECT string_agg(epoch || ':' || node, ' ' ORDER BY epoch) FROM leases WHERE match_id = 'm'`).Scan(&leases); err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("%d:node-a %d:node-b", a.Epoch, b.Epoch); leases != want {
		t.Fatalf("leases: %q, want %q", leases, want)
	}
}

// A node paused (or cut off) in the middle of a commit holds nobody up for
// long: PostgreSQL ends its transaction, and the row locks it took, after
// a second idle inside it, so that another node takes its match over at
// once rather than wait, with every write of its own batch, until the
// paused node comes back.
func TestPostgresPausedCommitHoldsNoLock(t *testing.T) {
	_, u := pgDatabase(t)
	ctx := context.Background()
	a := openPostgres(t, u, store.PostgresOptions{})
	b := openPostgres(t, u, store.PostgresOptions{Timeout: 5 * time.Second})
	if err := a.Create(ctx, &store.Match{ID: "m", Game: "g", Seats: []store.Seat{}, Created: time.Now()}); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Acquire(ctx, "m", "node-a", 200*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	// Node a stops between two statements of a commit that wrote to m.
	conn, err := store.PoolOf(a).Acquire(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Release()
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `UPDATE matches SET records = records WHERE id = 'm'`); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond) // a's lease expires
	start := time.Now()
	l, err := b.Acquire(ctx, "m", "node-b", time.Minute)
	if err != nil {
		t.Fatalf("node b could not take the match over from the paused node: %v (after %v)", err, time.Since(start).Round(time.Millisecond))
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("node b took the match over after %v", d.Round(time.Millisecond))
	}
	t.Logf("taken over (epoch %d) %v after the paused node's lease expired", l.Epoch, time.Since(start).Round(time.Millisecond))
}

func TestPostgresNotifications(t *testing.T) {
	storetest.RunNotifications(t, pgHarness(store.PostgresOptions{}))
}
