package store_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"sortie/engine"
	"sortie/internal/store"
	"sortie/internal/store/storetest"
)

// sqliteHarness opens stores on one new file per scenario.
func sqliteHarness() storetest.Harness {
	return storetest.Harness{Open: func(t testing.TB, onCommit func(int, time.Duration)) func() (store.Store, error) {
		path := filepath.Join(t.TempDir(), "sortie.db")
		return func() (store.Store, error) {
			return store.OpenSQLite(path, store.SQLiteOptions{Sync: "normal", OnCommit: onCommit})
		}
	}}
}

func TestSQLite(t *testing.T) {
	storetest.Run(t, sqliteHarness())
}

func openSQLite(t *testing.T, path string) *store.SQLite {
	t.Helper()
	s, err := store.OpenSQLite(path, store.SQLiteOptions{Sync: "normal"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// A file written before schema versions were kept (version 1, no leases)
// opens with its matches and logs, is migrated in place, and takes writes
// at epoch 0 as before.
func TestSQLiteMigratesAnOldFile(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "old.db")
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	// The schema and rows exactly as the store wrote them before.
	for _, q := range []string{
		`CREATE TABLE IF NOT EXISTS matches (id TEXT PRIMARY KEY, game TEXT NOT NULL, setup TEXT NOT NULL, seats TEXT NOT NULL,
			host_hash BLOB, settings BLOB, status TEXT NOT NULL, clock INTEGER NOT NULL DEFAULT 0, outcome TEXT,
			created INTEGER NOT NULL, started INTEGER NOT NULL DEFAULT 0, finished INTEGER NOT NULL DEFAULT 0)`,
		`CREATE INDEX IF NOT EXISTS matches_status ON matches(status, created)`,
		`CREATE TABLE IF NOT EXISTS records (match_id TEXT NOT NULL, n INTEGER NOT NULL, rec BLOB NOT NULL, PRIMARY KEY (match_id, n)) WITHOUT ROWID`,
		`INSERT INTO matches VALUES ('old', 'testcards', '{"players":2,"seed":7}', '[{"kind":"human","joined":true,"hash":"0102"},{"kind":"bot","bot":"random","joined":true}]',
			x'0909', x'7b7d', 'running', 1500, NULL, 1700000000000, 1700000001000, 0)`,
		`INSERT INTO matches VALUES ('done', 'testcards', '{"players":2,"seed":8}', '[{"kind":"bot","bot":"hard","joined":true},{"kind":"bot","bot":"easy","joined":true}]',
			x'0909', x'7b7d', 'finished', 1500, '{"ranks":[1,2]}', 1700000000000, 1700000001000, 1700000002000)`,
		`INSERT INTO records VALUES ('old', 1, '{"at":10}'), ('old', 2, '{"at":20}')`,
	} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()

	s := openSQLite(t, path)
	m, err := s.Get(ctx, "old")
	if err != nil {
		t.Fatal(err)
	}
	if m.Status != store.Running || m.Records != 2 || m.Clock != 1500 || m.Setup.Seed != 7 || string(m.Seats[0].TokenHash) != "\x01\x02" ||
		m.Lease != (store.Lease{Match: "old"}) || !m.Started.Equal(time.UnixMilli(1700000001000)) {
		t.Fatalf("the old match reads as %+v", m)
	}
	if err := s.Append(ctx, "old", 0, 3, []byte(`{"at":30}`), 30); err != nil {
		t.Fatalf("append to the migrated match: %v", err)
	}
	if l, err := s.Acquire(ctx, "old", "A", time.Minute); err != nil || l.Epoch != 1 {
		t.Fatalf("acquire the migrated match: %+v %v", l, err)
	}
	s.Close()
	// Opening again migrates nothing more and loses nothing.
	s = openSQLite(t, path)
	if log, err := s.Log(ctx, "old"); err != nil || len(log) != 3 {
		t.Fatalf("log after reopening: %q %v", log, err)
	}
	versions := readVersions(t, path)
	if versions != "1 2 3 4 5 6 7 8 9 10 11" { // (3: the table talk, 4: ends and their reasons, 5: since when nobody plays, 6: who created each match, 7: accounts, 8: ratings, 9: jobs, hints and daily challenges, 10: notifications, 11: Play now by correspondence and for a range of players, rematches)
		t.Fatalf("schema versions recorded: %q", versions)
	}
	// A match finished before ratings existed is decided as such, never
	// rated afterwards.
	if ids, err := s.Unrated(ctx, time.Time{}, 0); err != nil || len(ids) != 0 {
		t.Fatalf("unrated after the migration: %q %v", ids, err)
	}
	if d, err := s.MatchRating(ctx, "done"); err != nil || d.Rated || d.Reason != "before_ratings" {
		t.Fatalf("the decision of a match finished before ratings: %+v %v", d, err)
	}
}

func readVersions(t *testing.T, path string) string {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?_pragma=query_only(1)")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rows, err := db.Query(`SELECT version FROM sortie_schema ORDER BY version`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var vs []string
	for rows.Next() {
		var v int
		rows.Scan(&v)
		vs = append(vs, fmt.Sprint(v))
	}
	return strings.Join(vs, " ")
}

// A file that is not Sortie's is refused with a sentence that says what it
// is, and left as it was; a file from a newer Sortie too.
func TestSQLiteRefusesAFileThatIsNotSorties(t *testing.T) {
	dir := t.TempDir()
	sqliteFile := func(name string, qs ...string) string {
		path := filepath.Join(dir, name)
		db, err := sql.Open("sqlite", "file:"+path)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		for _, q := range qs {
			if _, err := db.Exec(q); err != nil {
				t.Fatal(err)
			}
		}
		return path
	}
	plain := func(name string, b []byte) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b, 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	newer := sqliteFile("newer.db", `CREATE TABLE sortie_schema (version INTEGER PRIMARY KEY, applied INTEGER NOT NULL)`,
		`INSERT INTO sortie_schema VALUES (99, 0)`)
	for _, c := range []struct {
		name, path, want string
	}{
		{"an empty file", plain("empty.db", nil), "exists but is empty"},
		{"a text file", plain("notes.db", []byte(strings.Repeat("shopping list: eggs, milk\n", 200))), "not a Sortie database (not even an SQLite file)"},
		{"another program's database", sqliteFile("other.db", `CREATE TABLE users (name TEXT)`), "another program's SQLite database (it holds users)"},
		{"an SQLite file with no table", sqliteFile("blank.db", `CREATE TABLE x (a)`, `DROP TABLE x`), "with no table"},
		{"a newer Sortie's file", newer, "newer Sortie (schema version 99"},
	} {
		t.Run(c.name, func(t *testing.T) {
			before, _ := os.ReadFile(c.path)
			s, err := store.OpenSQLite(c.path, store.SQLiteOptions{})
			if err == nil {
				s.Close()
				t.Fatalf("%s was opened as a store", c.name)
			}
			if !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), c.path) {
				t.Fatalf("refused with %q, want a sentence with %q and the path", err, c.want)
			}
			if after, _ := os.ReadFile(c.path); string(after) != string(before) {
				t.Fatal("the refused file was changed")
			}
		})
	}
}

// A file with damaged pages is refused when it is opened; damage met while
// the store runs makes its check fail.
func TestSQLiteDetectsDamage(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "sortie.db")
	s := openSQLite(t, path)
	fill(t, s, 40, 50)
	s.Close()
	smash(t, path)
	if s, err := store.OpenSQLite(path, store.SQLiteOptions{}); err == nil {
		s.Close()
		t.Fatal("a damaged file was opened")
	} else if !strings.Contains(err.Error(), "is damaged") {
		t.Fatalf("refused with %q, want a sentence saying the file is damaged", err)
	}

	path = filepath.Join(t.TempDir(), "sortie.db")
	s = openSQLite(t, path)
	fill(t, s, 40, 50)
	if err := s.Check(ctx); err != nil {
		t.Fatal(err)
	}
	smash(t, path)
	_, err := s.List(ctx, store.Filter{Limit: 1000})
	for i := 0; err == nil && i < 40; i++ {
		_, err = s.Log(ctx, fmt.Sprint("m", i))
	}
	if !errors.Is(err, store.ErrUnavailable) {
		t.Fatalf("reading damaged pages: %v, want unavailable", err)
	}
	if err := s.Check(ctx); !errors.Is(err, store.ErrUnavailable) || !strings.Contains(err.Error(), "damaged") {
		t.Fatalf("check after reading damaged pages: %v", err)
	}
}

// fill writes matches running with records each.
func fill(t *testing.T, s store.Store, matches, records int) {
	t.Helper()
	ctx := context.Background()
	pad := strings.Repeat("x", 200)
	for i := range matches {
		id := fmt.Sprint("m", i)
		m := &store.Match{ID: id, Game: "g", Seats: []store.Seat{}, Created: time.Now()}
		if err := s.Create(ctx, m); err != nil {
			t.Fatal(err)
		}
		if err := s.Start(ctx, id, 0, time.Now()); err != nil {
			t.Fatal(err)
		}
		for n := 1; n <= records; n++ {
			if err := s.Append(ctx, id, 0, n, fmt.Appendf(nil, `{"at":%d,"pad":%q}`, n, pad), engine.Millis(n)); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// smash overwrites the pages in the middle of the file at path (folding
// its write-ahead log in first) with garbage.
func smash(t *testing.T, path string) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(`PRAGMA wal_checkpoint(TRUNCATE)`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, _ := f.Stat()
	junk := []byte(strings.Repeat("\xde\xad\xbe\xef", 4096))
	for off := fi.Size() / 4; off < fi.Size()*3/4; off += 8192 {
		if _, err := f.WriteAt(junk[:4096], off); err != nil {
			t.Fatal(err)
		}
	}
}

// The file and its companions are readable by their owner only.
func TestSQLiteFileIsPrivate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data", "sortie.db")
	s := openSQLite(t, path)
	fill(t, s, 1, 1)
	for _, p := range []string{path, path + "-wal", path + "-shm", filepath.Dir(path)} {
		fi, err := os.Stat(p)
		if err != nil {
			t.Fatal(err)
		}
		if fi.Mode().Perm()&0o077 != 0 {
			t.Errorf("%s has mode %v: others may read it", filepath.Base(p), fi.Mode().Perm())
		}
	}
	if left, _ := filepath.Glob(filepath.Join(filepath.Dir(path), ".sortie-new-*")); len(left) != 0 {
		t.Fatalf("files left over from creating the store: %v", left)
	}
}

// When the file cannot be written (another program holds its write lock),
// the check says so within its deadline, though reads still work.
func TestSQLiteCheckFailsWhenTheFileIsLocked(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sortie.db")
	s := openSQLite(t, path)
	fill(t, s, 1, 1)
	other, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	conn, err := other.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(context.Background(), `BEGIN EXCLUSIVE`); err != nil {
		t.Fatal(err)
	}
	checkBecomes(t, s, false, "with the file locked by another program")
	if _, err := s.Get(context.Background(), "m0"); err != nil {
		t.Fatalf("reads stopped too: %v", err)
	}
	conn.ExecContext(context.Background(), `ROLLBACK`)
	conn.Close()
	checkBecomes(t, s, true, "once the lock is released")
}

// checkBecomes waits until s's check passes (or fails, with ErrUnavailable,
// each attempt given half a second), for up to 30 s. A check trusts a commit
// of the last second, so a fault shows within about a second.
func checkBecomes(t *testing.T, s store.Store, pass bool, when string) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		err := s.Check(ctx)
		cancel()
		if pass && err == nil || !pass && errors.Is(err, store.ErrUnavailable) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("check %s: %v after 30 s", when, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// When the files are made immutable (as a sick disk or an operator would),
// the check fails; once writable again, it passes without a restart.
func TestSQLiteCheckFailsWhenTheFileIsImmutable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sortie.db")
	s := openSQLite(t, path)
	fill(t, s, 1, 1)
	writable := storetest.Immutable(t, path)
	checkBecomes(t, s, false, "with immutable files")
	writable()
	checkBecomes(t, s, true, "once the files are writable again")
}

func TestSQLiteAccounts(t *testing.T) {
	storetest.RunAccounts(t, sqliteHarness())
}

func TestSQLiteRatings(t *testing.T) {
	storetest.RunRatings(t, sqliteHarness())
}

func TestSQLiteTickets(t *testing.T) {
	storetest.RunTickets(t, sqliteHarness())
}

func TestSQLiteNotifications(t *testing.T) {
	storetest.RunNotifications(t, sqliteHarness())
}
