package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	"sortie/engine"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// SQLiteOptions tune an SQLite store. The zero value is the safe default.
type SQLiteOptions struct {
	// Sync is SQLite's synchronous setting: "full" (the default: every
	// commit is flushed to disk, so an acknowledged action survives a power
	// cut) or "normal" (commits survive a crash of the process but the last
	// ones may be lost with the machine).
	Sync string
	// MaxBatch bounds how many writes share one transaction: 512 if zero.
	MaxBatch int
	// Linger: while writes keep coming from several matches (the previous
	// transaction held more than one and ended less than Linger ago), a
	// transaction waits until Linger after it to gather more, since a commit
	// costs far more than a write. One client alone never waits. 0 means DefaultLinger; negative, never wait.
	Linger time.Duration
	// OnCommit, if set, is called after every transaction of the writer with
	// the number of writes it held and how long it took.
	OnCommit func(writes int, d time.Duration)
}

// SQLite is a [Store] in one SQLite file (write-ahead log), for one node. One
// goroutine owns the writing connection and commits every write queued
// meanwhile in one transaction (group commit): a match waits for its own
// record to be durable, and a thousand matches share each flush to disk.
// Reads go through a separate pool and never wait for writes.
//
// The file is created readable by its owner only. A file that exists must be
// Sortie's: an empty file, another program's database or a damaged one is
// refused with an error that says so, and an older Sortie's file is migrated
// in place. Leases work as in any store, by the local clock.
type SQLite struct {
	path    string
	w, r    *sql.DB
	q       *queue[sqliteOp]
	damaged atomic.Pointer[error] // set once a read or write met damaged data

	// The writer's statements, prepared once on its connection (SQLite
	// takes about as long to parse a statement as to run it), and those of
	// them bound to the transaction under way. Only the writer's goroutine
	// uses them; a transaction's statements close with it.
	prepared [numWriterStmts]*sql.Stmt
	bound    [numWriterStmts]*sql.Stmt
	// The readers' most frequent statements, prepared once on each reading
	// connection as it first runs them: every summary, view and load reads
	// a match, and loads and histories its log and talk.
	getStmt, logStmt, chatStmt *sql.Stmt
	// And the session's, which every request of a signed-in browser reads.
	sessionStmt *sql.Stmt
}

// A writerStmt names one of the writer's statements.
type writerStmt int

const (
	// stAppend writes a record: it lands only as the next record of a
	// running match, under its current epoch. The match's clock is not
	// updated here: a match that resumes takes the later of its saved clock
	// and its last record's time.
	stAppend writerStmt = iota
	stLastRecord
	stHold
	stCreate
	stChat
	stLastChat
	stSeats
	stSetSeats
	stStart
	stFinish
	stEnd
	// stSaveClock and stSaveAbsence judge the write's epoch themselves, so
	// that a running match's clock, saved every second, takes one
	// statement.
	stSaveClock
	stSaveAbsence
	stLeaseOf
	stTakeLease
	stHeartbeat
	stRelease
	stCheck
	// stHoldSeat and stFreeSeat keep seat_accounts in step with the seats.
	stHoldSeat
	stFreeSeat
	numWriterStmts
)

// underEpoch keeps a write of a statement whose first parameters are the
// match (?1), a value (?2) and the writer's epoch (?3) to the match's
// current epoch, held by somebody (or epoch 0): the statement itself judges
// what [holding.refusal] would.
const underEpoch = `id = ?1 AND epoch = ?3 AND (owner <> '' OR epoch = 0)`

var writerQueries = [numWriterStmts]string{
	stAppend: `INSERT INTO records(match_id, n, rec)
		SELECT ?1, ?2, ?4 FROM matches
		WHERE ` + underEpoch + ` AND status = 'running'
		AND (SELECT coalesce(max(n), 0) FROM records WHERE match_id = ?1) = ?2 - 1`,
	stLastRecord: `SELECT rec FROM records WHERE match_id = ?1 AND n = ?2 AND n = (SELECT max(n) FROM records WHERE match_id = ?1)`,
	stHold:       `SELECT epoch, owner, status FROM matches WHERE id = ?`,
	stCreate: `INSERT INTO matches(id, game, setup, seats, host_hash, settings, status, clock, created, creator, account)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO NOTHING`,
	stChat: `INSERT INTO chat(match_id, n, line) SELECT ?1, ?2, ?3
		WHERE (SELECT coalesce(max(n), 0) FROM chat WHERE match_id = ?1) = ?2 - 1`,
	stLastChat:    `SELECT line FROM chat WHERE match_id = ?1 AND n = ?2 AND n = (SELECT max(n) FROM chat WHERE match_id = ?1)`,
	stSeats:       `SELECT seats FROM matches WHERE id = ?`,
	stSetSeats:    `UPDATE matches SET seats = ? WHERE id = ?`,
	stStart:       `UPDATE matches SET status = 'running', started = ? WHERE id = ?`,
	stFinish:      `UPDATE matches SET status = 'finished', outcome = ?, clock = ?, finished = ? WHERE id = ?`,
	stEnd:         `UPDATE matches SET status = ?, reason = ?, clock = ?, finished = ? WHERE id = ?`,
	stSaveClock:   `UPDATE matches SET clock = ?2 WHERE ` + underEpoch + ` AND status = 'running'`,
	stSaveAbsence: `UPDATE matches SET absent_since = ?2 WHERE ` + underEpoch + ` AND status = 'running'`,
	stLeaseOf: `SELECT m.epoch, m.owner, coalesce(n.expires, 0) FROM matches m LEFT JOIN nodes n ON n.name = m.owner
		WHERE m.id = ?`,
	stTakeLease: `UPDATE matches SET epoch = epoch + 1, owner = ? WHERE id = ?`,
	stHeartbeat: `INSERT INTO nodes(name, expires) VALUES (?, ?)
		ON CONFLICT(name) DO UPDATE SET expires = max(expires, excluded.expires) RETURNING expires`,
	stRelease: `UPDATE matches SET owner = '' WHERE id = ?`,
	stCheck:   `UPDATE sortie_health SET checked = ? WHERE id = 1`,
	stHoldSeat: `INSERT INTO seat_accounts(match_id, seat, account) VALUES (?, ?, ?)
		ON CONFLICT(match_id, seat) DO UPDATE SET account = excluded.account`,
	stFreeSeat: `DELETE FROM seat_accounts WHERE match_id = ? AND seat = ?`,
}

// stmt returns statement k bound to transaction tx, the writer's one under
// way.
func (s *SQLite) stmt(tx *sql.Tx, k writerStmt) *sql.Stmt {
	if s.bound[k] == nil {
		s.bound[k] = tx.Stmt(s.prepared[k])
	}
	return s.bound[k]
}

// sqliteOp is one write, run inside the writer's transaction. It returns a
// refusal only after writing nothing.
type sqliteOp func(tx *sql.Tx) error

// sqliteMigrations are the schema versions, in order; sqliteMigrations[v-1]
// brings a file from version v-1 to v. Version 1 is the schema of the files
// written before versions were kept.
var sqliteMigrations = []string{
	`CREATE TABLE matches (
		id        TEXT PRIMARY KEY,
		game      TEXT NOT NULL,
		setup     TEXT NOT NULL,
		seats     TEXT NOT NULL,
		host_hash BLOB,
		settings  BLOB,
		status    TEXT NOT NULL,
		clock     INTEGER NOT NULL DEFAULT 0,
		outcome   TEXT,
		created   INTEGER NOT NULL,
		started   INTEGER NOT NULL DEFAULT 0,
		finished  INTEGER NOT NULL DEFAULT 0
	);
	CREATE INDEX matches_status ON matches(status, created);
	CREATE TABLE records (
		match_id TEXT NOT NULL,
		n        INTEGER NOT NULL,
		rec      BLOB NOT NULL,
		PRIMARY KEY (match_id, n)
	) WITHOUT ROWID;`,

	`ALTER TABLE matches ADD COLUMN epoch INTEGER NOT NULL DEFAULT 0;
	ALTER TABLE matches ADD COLUMN owner TEXT NOT NULL DEFAULT '';
	CREATE INDEX matches_owner ON matches(owner) WHERE owner <> '';
	CREATE TABLE nodes (
		name    TEXT PRIMARY KEY,
		expires INTEGER NOT NULL
	);
	CREATE TABLE sortie_health (
		id      INTEGER PRIMARY KEY,
		checked INTEGER NOT NULL
	);
	INSERT INTO sortie_health VALUES (1, 0);`,

	`CREATE TABLE chat (
		match_id TEXT NOT NULL,
		n        INTEGER NOT NULL,
		line     BLOB NOT NULL,
		PRIMARY KEY (match_id, n)
	) WITHOUT ROWID;`,

	// Matches that end without an outcome (expired, abandoned, failed,
	// closed) keep why; matches over are pruned by when they ended.
	`ALTER TABLE matches ADD COLUMN reason TEXT NOT NULL DEFAULT '';
	CREATE INDEX matches_over ON matches(finished) WHERE status NOT IN ('open', 'running');`,

	// Since when a running match has had no player connected (0: one is,
	// or unknown).
	`ALTER TABLE matches ADD COLUMN absent_since INTEGER NOT NULL DEFAULT 0;`,

	// Who created a match, for the limits a node rebuilds when it starts.
	`ALTER TABLE matches ADD COLUMN creator TEXT NOT NULL DEFAULT '';
	CREATE INDEX matches_created ON matches(created) WHERE creator <> '';`,

	// Accounts, how they sign in, the seats they hold (seat_accounts
	// indexes the seats' own account field), the seats kept for them, and
	// whom they follow or block. An account's e-mail address is kept in
	// lower case, unique unless empty.
	`ALTER TABLE matches ADD COLUMN account TEXT NOT NULL DEFAULT '';
	CREATE INDEX matches_account ON matches(account) WHERE account <> '';
	CREATE TABLE accounts (
		id      TEXT PRIMARY KEY,
		name    TEXT NOT NULL,
		email   TEXT NOT NULL DEFAULT '',
		lang    TEXT NOT NULL DEFAULT '',
		handle  BLOB NOT NULL UNIQUE,
		created INTEGER NOT NULL
	);
	CREATE UNIQUE INDEX accounts_email ON accounts(email) WHERE email <> '';
	CREATE TABLE passkeys (
		id         BLOB PRIMARY KEY,
		account    TEXT NOT NULL,
		name       TEXT NOT NULL,
		credential BLOB NOT NULL,
		created    INTEGER NOT NULL,
		used       INTEGER NOT NULL DEFAULT 0
	);
	CREATE INDEX passkeys_account ON passkeys(account, created);
	CREATE TABLE sessions (
		hash    BLOB PRIMARY KEY,
		data    BLOB NOT NULL,
		account TEXT NOT NULL DEFAULT '',
		expiry  INTEGER NOT NULL
	) WITHOUT ROWID;
	CREATE INDEX sessions_account ON sessions(account) WHERE account <> '';
	CREATE INDEX sessions_expiry ON sessions(expiry);
	CREATE TABLE sign_in_tokens (
		hash    BLOB PRIMARY KEY,
		email   TEXT NOT NULL,
		expires INTEGER NOT NULL
	) WITHOUT ROWID;
	CREATE INDEX sign_in_tokens_expires ON sign_in_tokens(expires);
	CREATE TABLE seat_accounts (
		match_id TEXT NOT NULL,
		seat     INTEGER NOT NULL,
		account  TEXT NOT NULL,
		PRIMARY KEY (match_id, seat)
	) WITHOUT ROWID;
	CREATE INDEX seat_accounts_account ON seat_accounts(account);
	CREATE TABLE invitations (
		match_id     TEXT NOT NULL,
		seat         INTEGER NOT NULL,
		account      TEXT NOT NULL,
		from_account TEXT NOT NULL,
		created      INTEGER NOT NULL,
		PRIMARY KEY (match_id, seat)
	) WITHOUT ROWID;
	CREATE INDEX invitations_account ON invitations(account, created);
	CREATE INDEX invitations_from ON invitations(from_account);
	CREATE TABLE follows (
		from_account TEXT NOT NULL,
		to_account   TEXT NOT NULL,
		created      INTEGER NOT NULL,
		PRIMARY KEY (from_account, to_account)
	) WITHOUT ROWID;
	CREATE INDEX follows_to ON follows(to_account);
	CREATE TABLE blocks (
		from_account TEXT NOT NULL,
		to_account   TEXT NOT NULL,
		created      INTEGER NOT NULL,
		PRIMARY KEY (from_account, to_account)
	) WITHOUT ROWID;
	CREATE INDEX blocks_to ON blocks(to_account);`,

	// Ratings per player (an account, or a bot level) x game x family,
	// their history, and each finished match's decision (rated or why
	// not), written once; matches finished before ratings existed are
	// decided as such. Play now's tickets, and the locks that let one
	// node at a time do a job (seating the players who wait).
	`CREATE TABLE rated_matches (
		match_id TEXT PRIMARY KEY,
		rated    INTEGER NOT NULL,
		reason   TEXT NOT NULL DEFAULT '',
		game     TEXT NOT NULL DEFAULT '',
		family   TEXT NOT NULL DEFAULT '',
		at       INTEGER NOT NULL
	) WITHOUT ROWID;
	INSERT INTO rated_matches (match_id, rated, reason, game, at)
		SELECT id, 0, 'before_ratings', game, finished FROM matches WHERE status = 'finished';
	CREATE TABLE ratings (
		player  TEXT NOT NULL,
		game    TEXT NOT NULL,
		family  TEXT NOT NULL,
		mu      REAL NOT NULL,
		sigma   REAL NOT NULL,
		games   INTEGER NOT NULL,
		updated INTEGER NOT NULL,
		PRIMARY KEY (player, game, family)
	) WITHOUT ROWID;
	CREATE INDEX ratings_board ON ratings(game, family, (mu - 3 * sigma));
	CREATE TABLE rating_history (
		player       TEXT NOT NULL,
		match_id     TEXT NOT NULL,
		game         TEXT NOT NULL,
		family       TEXT NOT NULL,
		before_mu    REAL NOT NULL,
		before_sigma REAL NOT NULL,
		mu           REAL NOT NULL,
		sigma        REAL NOT NULL,
		rank         INTEGER NOT NULL,
		games        INTEGER NOT NULL,
		at           INTEGER NOT NULL,
		PRIMARY KEY (player, match_id)
	) WITHOUT ROWID;
	CREATE INDEX rating_history_player ON rating_history(player, at);
	CREATE INDEX rating_history_match ON rating_history(match_id);
	CREATE TABLE tickets (
		hash        BLOB PRIMARY KEY,
		account     TEXT NOT NULL,
		name        TEXT NOT NULL,
		game        TEXT NOT NULL,
		players     INTEGER NOT NULL,
		mode        TEXT NOT NULL,
		rated       INTEGER NOT NULL,
		humans_only INTEGER NOT NULL,
		bot_fill_ms INTEGER NOT NULL,
		mu          REAL NOT NULL,
		sigma       REAL NOT NULL,
		leaver      INTEGER NOT NULL,
		token_hash  BLOB NOT NULL,
		created     INTEGER NOT NULL,
		status      TEXT NOT NULL,
		match_id    TEXT NOT NULL DEFAULT '',
		seat        INTEGER NOT NULL DEFAULT 0,
		done        INTEGER NOT NULL DEFAULT 0
	) WITHOUT ROWID;
	CREATE INDEX tickets_waiting ON tickets(created) WHERE status = 'waiting';
	CREATE INDEX tickets_account ON tickets(account) WHERE status = 'waiting';
	CREATE INDEX tickets_done ON tickets(done) WHERE status <> 'waiting';
	CREATE TABLE locks (
		name    TEXT PRIMARY KEY,
		node    TEXT NOT NULL,
		expires INTEGER NOT NULL
	) WITHOUT ROWID;`,

	// Background jobs (a match's review), the hints used, the daily
	// challenges (sqlite_teach.go).
	sqliteTeachSchema,

	// Web Push subscriptions, notification settings, the server's secrets;
	// the jobs over, by kind, for their pruning (sqlite_notify.go).
	sqliteNotifySchema,

	// Play now at correspondence tables, and for a range of players: the
	// move limit and the largest number a ticket asks for; each match's
	// rematch.
	`ALTER TABLE tickets ADD COLUMN move_limit_ms INTEGER NOT NULL DEFAULT 0;
	ALTER TABLE tickets ADD COLUMN players_max INTEGER NOT NULL DEFAULT 0;
	CREATE TABLE rematches (
		match_id   TEXT PRIMARY KEY,
		rematch_id TEXT NOT NULL
	) WITHOUT ROWID;`,
}

// OpenSQLite opens the store in the file at path, creating the file (and its
// folder) if it does not exist.
func OpenSQLite(path string, o SQLiteOptions) (*SQLite, error) {
	if o.MaxBatch <= 0 {
		o.MaxBatch = 512
	}
	mode := strings.ToUpper(o.Sync)
	switch mode {
	case "":
		mode = "FULL"
	case "FULL", "NORMAL":
	default:
		return nil, fmt.Errorf("store: sync must be full or normal, not %q", o.Sync)
	}
	if dir := filepath.Dir(path); dir != "" {
		if err := os.MkdirAll(dir, 0o700); err != nil {
			return nil, fmt.Errorf("store: %v", err)
		}
	}
	switch fi, err := os.Stat(path); {
	case errors.Is(err, os.ErrNotExist):
		if err := createSQLite(path); err != nil {
			return nil, err
		}
	case err != nil:
		return nil, fmt.Errorf("store: %v", err)
	case fi.Size() == 0:
		return nil, fmt.Errorf("store: %s exists but is empty, so it is not a Sortie database; "+
			"move it away to start a new one, or give the right file with --data", path)
	}
	s := &SQLite{path: path}
	if err := s.inspect(); err != nil {
		return nil, err
	}
	w, err := openSQLite(path, "synchronous("+mode+")")
	if err != nil {
		return nil, err
	}
	if err := migrateSQLite(w, path, false, true); err != nil {
		w.Close()
		return nil, s.unfit(err)
	}
	r, err := openSQLite(path, "query_only(1)")
	if err != nil {
		w.Close()
		return nil, err
	}
	r.SetMaxOpenConns(4)
	r.SetMaxIdleConns(4)
	s.w, s.r = w, r
	for k, q := range writerQueries {
		if s.prepared[k], err = w.Prepare(q); err != nil {
			s.closeStmts()
			w.Close()
			r.Close()
			return nil, fmt.Errorf("store: prepare statements: %v", err)
		}
	}
	for _, p := range []struct {
		st **sql.Stmt
		q  string
	}{{&s.getStmt, sqliteGet}, {&s.logStmt, sqliteLog}, {&s.chatStmt, sqliteChat}, {&s.sessionStmt, sqliteSession}} {
		if *p.st, err = r.Prepare(p.q); err != nil {
			s.closeStmts()
			w.Close()
			r.Close()
			return nil, fmt.Errorf("store: prepare statements: %v", err)
		}
	}
	s.q = newQueue(o.MaxBatch, o.Linger, s.commit, o.OnCommit)
	return s, nil
}

// openSQLite opens a pool on path with one more pragma. A writing pool keeps
// one connection: the writer's.
func openSQLite(path, pragma string) (*sql.DB, error) {
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", pragma)
	write := !strings.HasPrefix(pragma, "query_only")
	if write {
		q.Add("_pragma", "journal_mode(WAL)")
		q.Set("_txlock", "immediate")
	}
	db, err := sql.Open("sqlite", "file:"+path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %v", path, err)
	}
	if write {
		db.SetMaxOpenConns(1)
		db.SetMaxIdleConns(1)
		db.SetConnMaxLifetime(0)
	}
	return db, nil
}

// createSQLite makes a new store file at path, readable by its owner only.
// The schema is written to a file aside that then takes the name, so that a
// file at path is always a whole Sortie database: an empty one was not left
// by Sortie.
func createSQLite(path string) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".sortie-new-*.db") // mode 0600
	if err != nil {
		return fmt.Errorf("store: %v", err)
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	db, err := openSQLite(tmp.Name(), "synchronous(FULL)")
	if err != nil {
		return err
	}
	err = migrateSQLite(db, tmp.Name(), true, true)
	if cerr := db.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return err
	}
	if err := os.Link(tmp.Name(), path); err != nil && !errors.Is(err, os.ErrExist) {
		return fmt.Errorf("store: %v", err) // another process made it meanwhile: open theirs
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// inspect checks, without writing to it, that the file is a whole Sortie
// database that this Sortie knows.
func (s *SQLite) inspect() error {
	db, err := openSQLite(s.path, "query_only(1)")
	if err != nil {
		return err
	}
	defer db.Close()
	var res string
	if err := db.QueryRow(`PRAGMA quick_check`).Scan(&res); err != nil {
		return s.unfit(err)
	}
	if res != "ok" {
		return fmt.Errorf("store: %s is damaged (%s); restore it from a backup, or move it away to start a new one", s.path, res)
	}
	if err := migrateSQLite(db, s.path, false, false); err != nil {
		return s.unfit(err)
	}
	return nil
}

// unfit says in words why the file at s.path cannot be opened.
func (s *SQLite) unfit(err error) error {
	var se *sqlite.Error
	if errors.As(err, &se) {
		switch se.Code() & 0xff {
		case sqlite3.SQLITE_NOTADB:
			return fmt.Errorf("store: %s is not a Sortie database (not even an SQLite file); give the right file with --data", s.path)
		case sqlite3.SQLITE_CORRUPT:
			return fmt.Errorf("store: %s is damaged (%v); restore it from a backup, or move it away to start a new one", s.path, err)
		}
	}
	if strings.HasPrefix(err.Error(), "store:") {
		return err
	}
	return fmt.Errorf("store: open %s: %v", s.path, err)
}

// migrateSQLite applies the migrations the file lacks (or, unless apply,
// only says whether it could). A file with no table is taken only when fresh
// (made by createSQLite).
func migrateSQLite(db *sql.DB, path string, fresh, apply bool) error {
	tx, err := db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var tables []string
	rows, err := tx.Query(`SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name`)
	if err != nil {
		return err
	}
	for rows.Next() {
		var name string
		if err := rows.Scan(&name); err != nil {
			rows.Close()
			return err
		}
		tables = append(tables, name)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	has := func(t string) bool {
		for _, x := range tables {
			if x == t {
				return true
			}
		}
		return false
	}
	version := 0
	switch {
	case has("sortie_schema"):
		if err := tx.QueryRow(`SELECT coalesce(max(version), 0) FROM sortie_schema`).Scan(&version); err != nil {
			return err
		}
	case has("matches") && has("records"):
		version = 1 // written before versions were kept
	case len(tables) == 0 && !fresh:
		return fmt.Errorf("store: %s is an SQLite database with no table, not a Sortie database; "+
			"move it away to start a new one, or give the right file with --data", path)
	case len(tables) > 0:
		return fmt.Errorf("store: %s is another program's SQLite database (it holds %s), not Sortie's; "+
			"give Sortie a file of its own with --data", path, strings.Join(tables, ", "))
	}
	if version > len(sqliteMigrations) {
		return fmt.Errorf("store: %s was written by a newer Sortie (schema version %d; this one knows up to %d)",
			path, version, len(sqliteMigrations))
	}
	if version == len(sqliteMigrations) || !apply {
		return nil
	}
	if _, err := tx.Exec(`CREATE TABLE IF NOT EXISTS sortie_schema (version INTEGER PRIMARY KEY, applied INTEGER NOT NULL)`); err != nil {
		return err
	}
	now := time.Now().UnixMilli()
	if version == 1 && !has("sortie_schema") {
		if _, err := tx.Exec(`INSERT INTO sortie_schema VALUES (1, ?)`, now); err != nil {
			return err
		}
	}
	for v := version + 1; v <= len(sqliteMigrations); v++ {
		if _, err := tx.Exec(sqliteMigrations[v-1]); err != nil {
			return fmt.Errorf("store: %s: schema version %d: %v", path, v, err)
		}
		if _, err := tx.Exec(`INSERT INTO sortie_schema VALUES (?, ?)`, v, now); err != nil {
			return err
		}
	}
	return tx.Commit()
}

// Path returns the file the store lives in.
func (s *SQLite) Path() string { return s.path }

// commit runs a batch of writes in one transaction.
func (s *SQLite) commit(batch []sqliteOp) ([]error, error) {
	tx, err := s.w.Begin()
	if err != nil {
		return nil, s.fault(err)
	}
	defer clear(s.bound[:])
	errs := make([]error, len(batch))
	for i, run := range batch {
		if err := run(tx); err != nil {
			if refused(err) {
				errs[i] = err
				continue
			}
			tx.Rollback()
			return nil, s.fault(err)
		}
	}
	if err := tx.Commit(); err != nil {
		return nil, s.fault(err)
	}
	return errs, nil
}

// fault turns an error of the file (full, read-only, damaged, locked by
// another program) into [ErrUnavailable], and remembers damage for Check.
func (s *SQLite) fault(err error) error {
	var se *sqlite.Error
	if err == nil || !errors.As(err, &se) {
		return err
	}
	switch se.Code() & 0xff {
	case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
		err = unavailable("the database file "+s.path+" is damaged", err)
		s.damaged.CompareAndSwap(nil, &err)
		return err
	case sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_READONLY, sqlite3.SQLITE_CANTOPEN,
		sqlite3.SQLITE_PERM, sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_PROTOCOL:
		return unavailable("the database file "+s.path+" cannot be written", err)
	}
	return err
}

// Close waits for the queued writes and closes the file.
func (s *SQLite) Close() error {
	if !s.q.close() {
		return nil
	}
	s.closeStmts()
	return errors.Join(s.r.Close(), s.w.Close())
}

func (s *SQLite) closeStmts() {
	for _, st := range append(s.prepared[:], s.getStmt, s.logStmt, s.chatStmt, s.sessionStmt) {
		if st != nil {
			st.Close()
		}
	}
}

// hold reads what a write to match id is judged on.
func (s *SQLite) hold(tx *sql.Tx, id string) (holding, error) {
	h := holding{found: true}
	var status string
	err := s.stmt(tx, stHold).QueryRow(id).Scan(&h.epoch, &h.owner, &status)
	if errors.Is(err, sql.ErrNoRows) {
		return holding{}, nil
	}
	h.status = Status(status)
	return h, err
}

// fenced runs write on match id if a write under epoch e that needs status
// need may be carried out.
func (s *SQLite) fenced(ctx context.Context, id string, e Epoch, need Status, write func(tx *sql.Tx) error) error {
	return s.q.write(ctx, id, func(tx *sql.Tx) error {
		h, err := s.hold(tx, id)
		if err != nil {
			return err
		}
		if err := h.refusal(id, e, need); err != nil {
			return err
		}
		return write(tx)
	})
}

// Create stores a new match.
func (s *SQLite) Create(ctx context.Context, m *Match) error {
	setup, err := json.Marshal(m.Setup)
	if err != nil {
		return err
	}
	seats, err := encodeSeats(m.Seats)
	if err != nil {
		return err
	}
	status := m.Status
	if status == "" {
		status = Open
	}
	index, accounts := heldSeats(m.Seats)
	return s.q.write(ctx, m.ID, func(tx *sql.Tx) error {
		res, err := s.stmt(tx, stCreate).Exec(m.ID, m.Game, string(setup), seats, m.HostHash, m.Settings, string(status), int64(m.Clock), millis(m.Created), m.Creator, m.Account)
		if err != nil {
			return err
		}
		if k, _ := res.RowsAffected(); k != 1 {
			return taken(m.ID)
		}
		for i, seat := range index {
			if _, err := s.stmt(tx, stHoldSeat).Exec(m.ID, seat, accounts[i]); err != nil {
				return err
			}
		}
		return nil
	})
}

// Append writes the next record of a match's log.
func (s *SQLite) Append(ctx context.Context, id string, e Epoch, n int, rec []byte, at engine.Millis) error {
	return s.q.write(ctx, id, func(tx *sql.Tx) error {
		if wrote, err := s.execUnder(tx, stAppend, id, e, Running, n, rec); wrote || err != nil {
			return err
		}
		var last []byte
		err := s.stmt(tx, stLastRecord).QueryRow(id, n).Scan(&last)
		return repeated(id, n, rec, last, err, sql.ErrNoRows)
	})
}

// AppendChat writes the next line of a match's table talk.
func (s *SQLite) AppendChat(ctx context.Context, id string, e Epoch, n int, line []byte) error {
	return s.fenced(ctx, id, e, "", func(tx *sql.Tx) error {
		res, err := s.stmt(tx, stChat).Exec(id, n, line)
		if err != nil {
			return err
		}
		if k, _ := res.RowsAffected(); k == 1 {
			return nil
		}
		var last []byte
		err = s.stmt(tx, stLastChat).QueryRow(id, n).Scan(&last)
		return repeated(id, n, line, last, err, sql.ErrNoRows)
	})
}

// Chat returns a match's table talk.
func (s *SQLite) Chat(ctx context.Context, id string) ([][]byte, error) {
	rows, err := s.chatStmt.QueryContext(ctx, id)
	if err != nil {
		return nil, s.fault(err)
	}
	defer rows.Close()
	return readLog(id, rows, s.fault)
}

// SetSeat replaces one seat of a match.
func (s *SQLite) SetSeat(ctx context.Context, id string, e Epoch, i int, st Seat) error {
	return s.fenced(ctx, id, e, "", func(tx *sql.Tx) error {
		var raw string
		if err := s.stmt(tx, stSeats).QueryRow(id).Scan(&raw); err != nil {
			return err
		}
		seats, err := decodeSeats(raw)
		if err != nil {
			return err
		}
		if i < 0 || i >= len(seats) {
			return badSeat(id, i)
		}
		seats[i] = st
		enc, err := encodeSeats(seats)
		if err != nil {
			return err
		}
		if _, err = s.stmt(tx, stSetSeats).Exec(enc, id); err != nil {
			return err
		}
		if st.Account == "" {
			_, err = s.stmt(tx, stFreeSeat).Exec(id, i)
		} else {
			_, err = s.stmt(tx, stHoldSeat).Exec(id, i, st.Account)
		}
		return err
	})
}

// Start marks a match running.
func (s *SQLite) Start(ctx context.Context, id string, e Epoch, at time.Time) error {
	return s.fenced(ctx, id, e, Open, func(tx *sql.Tx) error {
		_, err := s.stmt(tx, stStart).Exec(millis(at), id)
		return err
	})
}

// Finish marks a match finished.
func (s *SQLite) Finish(ctx context.Context, id string, e Epoch, o engine.Outcome, clock engine.Millis, at time.Time) error {
	out, err := json.Marshal(o)
	if err != nil {
		return err
	}
	return s.fenced(ctx, id, e, "", func(tx *sql.Tx) error {
		_, err := s.stmt(tx, stFinish).Exec(string(out), int64(clock), millis(at), id)
		return err
	})
}

// End marks a match over without an outcome.
func (s *SQLite) End(ctx context.Context, id string, e Epoch, status Status, reason string, clock engine.Millis, at time.Time) error {
	return s.q.write(ctx, id, func(tx *sql.Tx) error {
		h, err := s.hold(tx, id)
		if err != nil {
			return err
		}
		if err := h.refusal(id, e, ""); err != nil {
			return err
		}
		if err := canEnd(id, h.status, status); err != nil {
			return err
		}
		_, err = s.stmt(tx, stEnd).Exec(string(status), reason, int64(clock), millis(at), id)
		return err
	})
}

// Prune deletes matches over since before the given time.
func (s *SQLite) Prune(ctx context.Context, before time.Time, limit int) (int, error) {
	var n int
	err := s.q.write(ctx, "", func(tx *sql.Tx) error {
		rows, err := tx.Query(`SELECT id FROM matches WHERE `+over+` AND finished < ?
			ORDER BY finished, id LIMIT ?`, millis(before), limitOr100(limit))
		if err != nil {
			return err
		}
		ids, err := readIDs(rows, func(err error) error { return err })
		rows.Close()
		if err != nil {
			return err
		}
		for _, id := range ids {
			for _, q := range append([]string{`DELETE FROM records WHERE match_id = ?`, `DELETE FROM chat WHERE match_id = ?`,
				`DELETE FROM seat_accounts WHERE match_id = ?`, `DELETE FROM invitations WHERE match_id = ?`}, append(sqliteTeachPrune, `DELETE FROM matches WHERE id = ?`)...) {
				if _, err := tx.Exec(q, id); err != nil {
					return err
				}
			}
		}
		n = len(ids)
		return nil
	})
	return n, err
}

// SaveClock saves the clock of a running match.
func (s *SQLite) SaveClock(ctx context.Context, id string, e Epoch, clock engine.Millis) error {
	return s.saveRunning(ctx, id, e, stSaveClock, int64(clock))
}

// SaveAbsence saves since when a running match has had no player.
func (s *SQLite) SaveAbsence(ctx context.Context, id string, e Epoch, since time.Time) error {
	return s.saveRunning(ctx, id, e, stSaveAbsence, millis(since))
}

// saveRunning runs update k (stSaveClock, stSaveAbsence) on match id under
// epoch e: it saves v if the match is running under that epoch; if it does
// not, a match that is not running is left as it is, and a passed epoch is
// refused.
func (s *SQLite) saveRunning(ctx context.Context, id string, e Epoch, k writerStmt, v int64) error {
	return s.q.write(ctx, id, func(tx *sql.Tx) error {
		_, err := s.execUnder(tx, k, id, e, "", v)
		return err
	})
}

// execUnder runs statement k, which writes one row of match id only under
// epoch e (see underEpoch), with the match, v and e as its first three
// parameters and more after. If it wrote nothing, execUnder reads the match
// to say why: the refusal of a write that needs status need, or none
// (wrote false, err nil) if nothing refuses it.
func (s *SQLite) execUnder(tx *sql.Tx, k writerStmt, id string, e Epoch, need Status, v any, more ...any) (wrote bool, err error) {
	var room [4]any // the most parameters a statement takes here
	args := append(append(room[:0], id, v, int64(e)), more...)
	res, err := s.stmt(tx, k).Exec(args...)
	if err != nil {
		return false, err
	}
	if n, _ := res.RowsAffected(); n == 1 {
		return true, nil
	}
	h, err := s.hold(tx, id)
	if err != nil {
		return false, err
	}
	return false, h.refusal(id, e, need)
}

// Acquire takes the lease on a match.
func (s *SQLite) Acquire(ctx context.Context, id, node string, ttl time.Duration) (Lease, error) {
	var l Lease
	err := s.q.write(ctx, id, func(tx *sql.Tx) error {
		var epoch, until int64
		var owner string
		err := s.stmt(tx, stLeaseOf).QueryRow(id).Scan(&epoch, &owner, &until)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("%w: %s", ErrNotFound, id)
		}
		if err != nil {
			return err
		}
		now := time.Now()
		if owner != "" && owner != node && until > now.UnixMilli() {
			return leased(id, owner, time.UnixMilli(until))
		}
		expires, err := s.heartbeat(tx, node, now.Add(ttl))
		if err != nil {
			return err
		}
		if _, err := s.stmt(tx, stTakeLease).Exec(node, id); err != nil {
			return err
		}
		l = Lease{Match: id, Node: node, Epoch: Epoch(epoch + 1), Expires: expires}
		return nil
	})
	return l, err
}

// heartbeat extends node's leases to until, never shortening them, and
// returns when they end.
func (s *SQLite) heartbeat(tx *sql.Tx, node string, until time.Time) (time.Time, error) {
	var ms int64
	err := s.stmt(tx, stHeartbeat).QueryRow(node, until.UnixMilli()).Scan(&ms)
	return time.UnixMilli(ms), err
}

// Renew extends a node's leases and lists them.
func (s *SQLite) Renew(ctx context.Context, node string, ttl time.Duration) ([]Lease, error) {
	var expires time.Time
	err := s.q.write(ctx, "", func(tx *sql.Tx) (err error) {
		expires, err = s.heartbeat(tx, node, time.Now().Add(ttl))
		return err
	})
	if err != nil {
		return nil, err
	}
	rows, err := s.r.QueryContext(ctx, `SELECT id, epoch FROM matches WHERE owner = ? AND status IN ('open', 'running') ORDER BY id`, node)
	if err != nil {
		return nil, s.fault(err)
	}
	defer rows.Close()
	var ls []Lease
	for rows.Next() {
		l := Lease{Node: node, Expires: expires}
		if err := rows.Scan(&l.Match, &l.Epoch); err != nil {
			return nil, s.fault(err)
		}
		ls = append(ls, l)
	}
	return ls, s.fault(rows.Err())
}

// Release gives a lease up.
func (s *SQLite) Release(ctx context.Context, l Lease) error {
	return s.q.write(ctx, l.Match, func(tx *sql.Tx) error {
		h, err := s.hold(tx, l.Match)
		if err != nil {
			return err
		}
		if err := h.refusal(l.Match, l.Epoch, ""); err != nil {
			return err
		}
		if h.owner != l.Node {
			return fmt.Errorf("%w: match %s is held by node %q, not %q", ErrFenced, l.Match, h.owner, l.Node)
		}
		_, err = s.stmt(tx, stRelease).Exec(l.Match)
		return err
	})
}

// Orphans lists unfinished matches that nobody holds.
func (s *SQLite) Orphans(ctx context.Context, limit int) ([]string, error) {
	return s.ids(ctx, `SELECT m.id FROM matches m LEFT JOIN nodes n ON n.name = m.owner
		WHERE m.status IN ('open', 'running') AND (m.owner = '' OR n.expires IS NULL OR n.expires <= ?)
		ORDER BY m.created, m.id LIMIT ?`, time.Now().UnixMilli(), limitOr100(limit))
}

// Check commits a small write unless one committed lately.
func (s *SQLite) Check(ctx context.Context) error {
	if err := s.damaged.Load(); err != nil {
		return *err
	}
	return s.q.check(ctx, func(tx *sql.Tx) error {
		_, err := s.stmt(tx, stCheck).Exec(time.Now().UnixMilli())
		return err
	})
}

// matchColumns are read from matches m; the record count comes from the log.
const matchColumns = `m.id, m.game, m.setup, m.seats, m.host_hash, m.settings, m.status,
	(SELECT coalesce(max(n), 0) FROM records WHERE match_id = m.id), m.clock, m.outcome, m.created, m.started, m.finished,
	m.epoch, m.owner, coalesce((SELECT expires FROM nodes WHERE name = m.owner), 0), m.reason, m.absent_since, m.creator, m.account`

type scanner interface{ Scan(dest ...any) error }

// scanMatch reads a match from matchColumns, and the columns after them
// into more.
func scanMatch(row scanner, more ...any) (*Match, error) {
	var (
		m                                   Match
		setup, seats, status                string
		outcome                             sql.NullString
		clock                               int64
		created, started, finished, expires int64
		absent                              int64
	)
	dest := []any{&m.ID, &m.Game, &setup, &seats, &m.HostHash, &m.Settings, &status, &m.Records, &clock, &outcome,
		&created, &started, &finished, &m.Lease.Epoch, &m.Lease.Node, &expires, &m.Reason, &absent, &m.Creator, &m.Account}
	if err := row.Scan(append(dest, more...)...); err != nil {
		return nil, err
	}
	m.Status, m.Clock = Status(status), engine.Millis(clock)
	m.Created, m.Started, m.Finished = fromMillis(created), fromMillis(started), fromMillis(finished)
	m.AbsentSince = fromMillis(absent)
	m.Lease.Expires = fromMillis(expires)
	var out *string
	if outcome.Valid {
		out = &outcome.String
	}
	decodeMatch(&m, setup, seats, out)
	return &m, nil
}

// The readers' prepared statements.
const (
	sqliteGet  = `SELECT ` + matchColumns + ` FROM matches m WHERE id = ?`
	sqliteLog  = `SELECT n, rec FROM records WHERE match_id = ? ORDER BY n`
	sqliteChat = `SELECT n, line FROM chat WHERE match_id = ? ORDER BY n`
)

// Get returns one match.
func (s *SQLite) Get(ctx context.Context, id string) (*Match, error) {
	m, err := scanMatch(s.getStmt.QueryRowContext(ctx, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%w: %s", ErrNotFound, id)
	}
	return m, s.fault(err)
}

// Log returns a match's log.
func (s *SQLite) Log(ctx context.Context, id string) ([][]byte, error) {
	rows, err := s.logStmt.QueryContext(ctx, id)
	if err != nil {
		return nil, s.fault(err)
	}
	defer rows.Close()
	return readLog(id, rows, s.fault)
}

// List returns matches, newest first.
func (s *SQLite) List(ctx context.Context, f Filter) ([]*Match, error) {
	cond, args := sqliteFilter(f, nil)
	q := `SELECT ` + matchColumns + ` FROM matches m WHERE 1=1` + cond + ` ORDER BY m.created DESC, m.id LIMIT ?`
	rows, err := s.r.QueryContext(ctx, q, append(args, limitOr100(f.Limit))...)
	if err != nil {
		return nil, s.fault(err)
	}
	defer rows.Close()
	var ms []*Match
	for rows.Next() {
		m, err := scanMatch(rows)
		if err != nil {
			return nil, s.fault(err)
		}
		ms = append(ms, m)
	}
	return ms, s.fault(rows.Err())
}

// sqliteFilter returns the conditions on matches m that keep what f keeps
// (each beginning with AND), and args with their parameters.
func sqliteFilter(f Filter, args []any) (string, []any) {
	var cond string
	if len(f.Statuses) > 0 {
		cond += ` AND m.status IN (?` + strings.Repeat(`, ?`, len(f.Statuses)-1) + `)`
		for _, st := range f.Statuses {
			args = append(args, string(st))
		}
	}
	if f.Game != "" {
		cond += ` AND m.game = ?`
		args = append(args, f.Game)
	}
	return cond, args
}

// Unfinished returns the ids of open and running matches, oldest first.
func (s *SQLite) Unfinished(ctx context.Context) ([]string, error) {
	return s.ids(ctx, `SELECT id FROM matches WHERE status IN ('open', 'running') ORDER BY created, id`)
}

// Creations returns the creations since a time, oldest first.
func (s *SQLite) Creations(ctx context.Context, since time.Time) ([]Creation, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT creator, created FROM matches WHERE creator <> '' AND created >= ? ORDER BY created`, millis(since))
	if err != nil {
		return nil, s.fault(err)
	}
	defer rows.Close()
	var out []Creation
	for rows.Next() {
		var c Creation
		var at int64
		if err := rows.Scan(&c.Creator, &at); err != nil {
			return nil, s.fault(err)
		}
		c.Created = fromMillis(at)
		out = append(out, c)
	}
	return out, s.fault(rows.Err())
}

func (s *SQLite) ids(ctx context.Context, q string, args ...any) ([]string, error) {
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, s.fault(err)
	}
	defer rows.Close()
	return readIDs(rows, s.fault)
}
