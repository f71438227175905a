package store

import (
	"context"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"sortie/engine"

	_ "modernc.org/sqlite" // the "sqlite" database/sql driver
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
	// OnCommit, if set, is called after every transaction of the writer with
	// the number of writes it held and how long it took.
	OnCommit func(writes int, d time.Duration)
}

// SQLite is a [Store] in one SQLite file (write-ahead log). One goroutine
// owns the writing connection and commits every write queued meanwhile in one
// transaction (group commit): a match waits for its own record to be durable,
// and a thousand matches share each flush to disk. Reads go through a separate
// pool and never wait for writes.
type SQLite struct {
	path   string
	w, r   *sql.DB
	ops    chan *op
	opts   SQLiteOptions
	mu     sync.RWMutex // guards closed against sends on ops
	closed bool
	done   chan struct{}

	appendStmt *sql.Stmt
}

// op is one queued write.
type op struct {
	run  func(tx *sql.Tx, s *SQLite) error
	done chan error
}

const schema = `
CREATE TABLE IF NOT EXISTS matches (
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
CREATE INDEX IF NOT EXISTS matches_status ON matches(status, created);
CREATE TABLE IF NOT EXISTS records (
	match_id TEXT NOT NULL,
	n        INTEGER NOT NULL,
	rec      BLOB NOT NULL,
	PRIMARY KEY (match_id, n)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS chat (
	match_id TEXT NOT NULL,
	n        INTEGER NOT NULL,
	line     BLOB NOT NULL,
	PRIMARY KEY (match_id, n)
) WITHOUT ROWID;
`

// OpenSQLite opens (creating if needed) the store in the file at path; the
// folder is created too.
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
	q := url.Values{}
	q.Add("_pragma", "busy_timeout(10000)")
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous("+mode+")")
	q.Set("_txlock", "immediate")
	dsn := "file:" + path + "?" + q.Encode()
	w, err := sql.Open("sqlite", dsn)
	if err != nil {
		return nil, fmt.Errorf("store: open %s: %v", path, err)
	}
	w.SetMaxOpenConns(1)
	w.SetMaxIdleConns(1)
	w.SetConnMaxLifetime(0)
	if _, err := w.Exec(schema); err != nil {
		w.Close()
		return nil, fmt.Errorf("store: prepare %s: %v", path, err)
	}
	qr := url.Values{}
	qr.Add("_pragma", "busy_timeout(10000)")
	qr.Add("_pragma", "query_only(1)")
	r, err := sql.Open("sqlite", "file:"+path+"?"+qr.Encode())
	if err != nil {
		w.Close()
		return nil, fmt.Errorf("store: open %s: %v", path, err)
	}
	r.SetMaxOpenConns(4)
	r.SetMaxIdleConns(4)
	s := &SQLite{path: path, w: w, r: r, ops: make(chan *op, 4096), opts: o, done: make(chan struct{})}
	// One statement per record: it lands only as the next record of a
	// running match. The match's clock is not updated here: a match that
	// resumes takes the later of its saved clock and its last record's time.
	s.appendStmt, err = w.Prepare(`INSERT INTO records(match_id, n, rec)
		SELECT ?1, ?2, ?3
		WHERE (SELECT coalesce(max(n), 0) FROM records WHERE match_id = ?1) = ?2 - 1
		AND EXISTS (SELECT 1 FROM matches WHERE id = ?1 AND status = 'running')`)
	if err != nil {
		w.Close()
		r.Close()
		return nil, fmt.Errorf("store: prepare statements: %v", err)
	}
	go s.writer()
	return s, nil
}

// Path returns the file the store lives in.
func (s *SQLite) Path() string { return s.path }

// writer commits queued writes, as many as are waiting, in one transaction.
func (s *SQLite) writer() {
	defer close(s.done)
	batch := make([]*op, 0, s.opts.MaxBatch)
	for first := range s.ops {
		batch = append(batch[:0], first)
	fill:
		for len(batch) < s.opts.MaxBatch {
			select {
			case o, ok := <-s.ops:
				if !ok {
					break fill
				}
				batch = append(batch, o)
			default:
				break fill
			}
		}
		start := time.Now()
		if err := s.commit(batch); err != nil {
			// One write failed (a conflict, say): give each its own
			// transaction so that the others still land and the faulty one
			// gets its own error.
			for _, o := range batch {
				o.done <- s.commit([]*op{o})
			}
		} else {
			for _, o := range batch {
				o.done <- nil
			}
		}
		if s.opts.OnCommit != nil {
			s.opts.OnCommit(len(batch), time.Since(start))
		}
	}
}

func (s *SQLite) commit(batch []*op) error {
	tx, err := s.w.Begin()
	if err != nil {
		return err
	}
	for _, o := range batch {
		if err := o.run(tx, s); err != nil {
			tx.Rollback()
			return err
		}
	}
	return tx.Commit()
}

// write queues fn and waits until it is committed. ctx bounds only the wait
// for a place in the queue: once queued, a write is carried out and waited for,
// so that its caller never mistakes a durable write for a lost one.
func (s *SQLite) write(ctx context.Context, fn func(tx *sql.Tx, s *SQLite) error) error {
	o := &op{run: fn, done: make(chan error, 1)}
	s.mu.RLock()
	if s.closed {
		s.mu.RUnlock()
		return ErrClosed
	}
	select {
	case s.ops <- o:
	case <-ctx.Done():
		s.mu.RUnlock()
		return ctx.Err()
	}
	s.mu.RUnlock()
	return <-o.done
}

// Close waits for the queued writes and closes the file.
func (s *SQLite) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	close(s.ops)
	s.mu.Unlock()
	<-s.done
	s.appendStmt.Close()
	err := errors.Join(s.r.Close(), s.w.Close())
	return err
}

// seatJSON is a seat as kept in the seats column.
type seatJSON struct {
	Seat
	Hash string `json:"hash,omitempty"`
}

func encodeSeats(seats []Seat) (string, error) {
	js := make([]seatJSON, len(seats))
	for i, st := range seats {
		js[i] = seatJSON{Seat: st}
		if st.TokenHash != nil {
			js[i].Hash = hex.EncodeToString(st.TokenHash)
		}
	}
	b, err := json.Marshal(js)
	return string(b), err
}

func decodeSeats(b string) ([]Seat, error) {
	var js []seatJSON
	if err := json.Unmarshal([]byte(b), &js); err != nil {
		return nil, err
	}
	seats := make([]Seat, len(js))
	for i, j := range js {
		seats[i] = j.Seat
		if j.Hash != "" {
			h, err := hex.DecodeString(j.Hash)
			if err != nil {
				return nil, err
			}
			seats[i].TokenHash = h
		}
	}
	return seats, nil
}

func millis(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

func fromMillis(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms)
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
	return s.write(ctx, func(tx *sql.Tx, _ *SQLite) error {
		_, err := tx.Exec(`INSERT INTO matches(id, game, setup, seats, host_hash, settings, status, clock, created)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
			m.ID, m.Game, string(setup), seats, m.HostHash, m.Settings, string(status), int64(m.Clock), millis(m.Created))
		if err != nil && strings.Contains(err.Error(), "UNIQUE") {
			return fmt.Errorf("%w: match %s exists", ErrConflict, m.ID)
		}
		return err
	})
}

// Append writes the next record of a match's log.
func (s *SQLite) Append(ctx context.Context, id string, n int, rec []byte, at engine.Millis) error {
	return s.write(ctx, func(tx *sql.Tx, s *SQLite) error {
		res, err := tx.Stmt(s.appendStmt).Exec(id, n, rec)
		if err != nil {
			return err
		}
		if k, _ := res.RowsAffected(); k != 1 {
			return fmt.Errorf("%w: record %d of match %s is not the next one of a running match", ErrConflict, n, id)
		}
		return nil
	})
}

// AppendChat writes the next line of a match's table talk.
func (s *SQLite) AppendChat(ctx context.Context, id string, n int, line []byte) error {
	return s.write(ctx, func(tx *sql.Tx, _ *SQLite) error {
		res, err := tx.Exec(`INSERT INTO chat(match_id, n, line)
			SELECT ?1, ?2, ?3
			WHERE (SELECT coalesce(max(n), 0) FROM chat WHERE match_id = ?1) = ?2 - 1
			AND EXISTS (SELECT 1 FROM matches WHERE id = ?1)`, id, n, line)
		if err != nil {
			return err
		}
		if k, _ := res.RowsAffected(); k != 1 {
			return fmt.Errorf("%w: chat line %d of match %s is not the next one of a stored match", ErrConflict, n, id)
		}
		return nil
	})
}

// Chat returns a match's table talk.
func (s *SQLite) Chat(ctx context.Context, id string) ([][]byte, error) {
	return s.lines(ctx, `SELECT n, line FROM chat WHERE match_id = ? ORDER BY n`, id, "chat line")
}

// SetSeat replaces one seat of a match.
func (s *SQLite) SetSeat(ctx context.Context, id string, i int, st Seat) error {
	return s.write(ctx, func(tx *sql.Tx, _ *SQLite) error {
		var raw string
		if err := tx.QueryRow(`SELECT seats FROM matches WHERE id = ?`, id).Scan(&raw); err != nil {
			if errors.Is(err, sql.ErrNoRows) {
				return ErrNotFound
			}
			return err
		}
		seats, err := decodeSeats(raw)
		if err != nil {
			return err
		}
		if i < 0 || i >= len(seats) {
			return fmt.Errorf("%w: match %s has no seat %d", ErrConflict, id, i)
		}
		seats[i] = st
		enc, err := encodeSeats(seats)
		if err != nil {
			return err
		}
		_, err = tx.Exec(`UPDATE matches SET seats = ? WHERE id = ?`, enc, id)
		return err
	})
}

// Start marks a match running.
func (s *SQLite) Start(ctx context.Context, id string, at time.Time) error {
	return s.write(ctx, func(tx *sql.Tx, _ *SQLite) error {
		res, err := tx.Exec(`UPDATE matches SET status = 'running', started = ? WHERE id = ? AND status = 'open'`, millis(at), id)
		if err != nil {
			return err
		}
		if k, _ := res.RowsAffected(); k != 1 {
			return fmt.Errorf("%w: match %s is not open", ErrConflict, id)
		}
		return nil
	})
}

// Finish marks a match finished.
func (s *SQLite) Finish(ctx context.Context, id string, o engine.Outcome, clock engine.Millis, at time.Time) error {
	out, err := json.Marshal(o)
	if err != nil {
		return err
	}
	return s.write(ctx, func(tx *sql.Tx, _ *SQLite) error {
		_, err := tx.Exec(`UPDATE matches SET status = 'finished', outcome = ?, clock = max(clock, ?), finished = ? WHERE id = ?`,
			string(out), int64(clock), millis(at), id)
		return err
	})
}

// SaveClock saves the clock of a running match.
func (s *SQLite) SaveClock(ctx context.Context, id string, clock engine.Millis) error {
	return s.write(ctx, func(tx *sql.Tx, _ *SQLite) error {
		_, err := tx.Exec(`UPDATE matches SET clock = max(clock, ?) WHERE id = ? AND status = 'running'`, int64(clock), id)
		return err
	})
}

// matchColumns are read from matches m; the record count comes from the log.
const matchColumns = `id, game, setup, seats, host_hash, settings, status,
	(SELECT coalesce(max(n), 0) FROM records WHERE match_id = m.id), clock, outcome, created, started, finished`

type scanner interface{ Scan(dest ...any) error }

func scanMatch(row scanner) (*Match, error) {
	var (
		m                          Match
		setup, seats, status       string
		outcome                    sql.NullString
		clock                      int64
		created, started, finished int64
	)
	if err := row.Scan(&m.ID, &m.Game, &setup, &seats, &m.HostHash, &m.Settings, &status, &m.Records, &clock, &outcome,
		&created, &started, &finished); err != nil {
		return nil, err
	}
	if err := json.Unmarshal([]byte(setup), &m.Setup); err != nil {
		return nil, fmt.Errorf("store: match %s: setup: %v", m.ID, err)
	}
	var err error
	if m.Seats, err = decodeSeats(seats); err != nil {
		return nil, fmt.Errorf("store: match %s: seats: %v", m.ID, err)
	}
	if outcome.Valid {
		m.Outcome = new(engine.Outcome)
		if err := json.Unmarshal([]byte(outcome.String), m.Outcome); err != nil {
			return nil, fmt.Errorf("store: match %s: outcome: %v", m.ID, err)
		}
	}
	m.Status, m.Clock = Status(status), engine.Millis(clock)
	m.Created, m.Started, m.Finished = fromMillis(created), fromMillis(started), fromMillis(finished)
	return &m, nil
}

// Get returns one match.
func (s *SQLite) Get(ctx context.Context, id string) (*Match, error) {
	m, err := scanMatch(s.r.QueryRowContext(ctx, `SELECT `+matchColumns+` FROM matches m WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, ErrNotFound
	}
	return m, err
}

// Log returns a match's log.
func (s *SQLite) Log(ctx context.Context, id string) ([][]byte, error) {
	return s.lines(ctx, `SELECT n, rec FROM records WHERE match_id = ? ORDER BY n`, id, "record")
}

// lines reads numbered rows (n, data) of match id, which must count from 1
// with no gap.
func (s *SQLite) lines(ctx context.Context, query, id, what string) ([][]byte, error) {
	rows, err := s.r.QueryContext(ctx, query, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var log [][]byte
	for rows.Next() {
		var n int
		var rec []byte
		if err := rows.Scan(&n, &rec); err != nil {
			return nil, err
		}
		if n != len(log)+1 {
			return nil, fmt.Errorf("store: match %s: %s %d is missing", id, what, len(log)+1)
		}
		log = append(log, rec)
	}
	return log, rows.Err()
}

// List returns matches, newest first.
func (s *SQLite) List(ctx context.Context, f Filter) ([]*Match, error) {
	limit := f.Limit
	if limit <= 0 {
		limit = 100
	}
	q := `SELECT ` + matchColumns + ` FROM matches m WHERE 1=1`
	var args []any
	if f.Status != "" {
		q += ` AND status = ?`
		args = append(args, string(f.Status))
	}
	if f.Game != "" {
		q += ` AND game = ?`
		args = append(args, f.Game)
	}
	q += ` ORDER BY created DESC, id LIMIT ?`
	args = append(args, limit)
	rows, err := s.r.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ms []*Match
	for rows.Next() {
		m, err := scanMatch(rows)
		if err != nil {
			return nil, err
		}
		ms = append(ms, m)
	}
	return ms, rows.Err()
}

// Unfinished returns the ids of open and running matches, oldest first.
func (s *SQLite) Unfinished(ctx context.Context) ([]string, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id FROM matches WHERE status IN ('open', 'running') ORDER BY created, id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ids []string
	for rows.Next() {
		var id string
		if err := rows.Scan(&id); err != nil {
			return nil, err
		}
		ids = append(ids, id)
	}
	return ids, rows.Err()
}

// Ping checks that the file can be read.
func (s *SQLite) Ping(ctx context.Context) error {
	var one int
	return s.r.QueryRowContext(ctx, `SELECT 1`).Scan(&one)
}
