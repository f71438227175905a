package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// The jobs, hints and daily challenges of an SQLite store (see teach.go).
// Every write goes through the writer, in its group commit; a claim reads
// and takes the job in the writer's one transaction, so that two claims
// never take the same job. Claims are told by the local clock, as leases
// are.

const sqliteTeachSchema = `CREATE TABLE jobs (
		id       INTEGER PRIMARY KEY,
		kind     TEXT NOT NULL,
		key      TEXT NOT NULL,
		match_id TEXT NOT NULL DEFAULT '',
		status   TEXT NOT NULL,
		tries    INTEGER NOT NULL DEFAULT 0,
		owner    TEXT NOT NULL DEFAULT '',
		epoch    INTEGER NOT NULL DEFAULT 0,
		until    INTEGER NOT NULL DEFAULT 0,
		result   BLOB,
		error    TEXT NOT NULL DEFAULT '',
		created  INTEGER NOT NULL,
		updated  INTEGER NOT NULL,
		UNIQUE (kind, key)
	);
	CREATE INDEX jobs_todo ON jobs(kind, created) WHERE status = 'pending';
	CREATE INDEX jobs_match ON jobs(match_id) WHERE match_id <> '';
	CREATE TABLE hints (
		match_id TEXT NOT NULL,
		seat     INTEGER NOT NULL,
		step     INTEGER NOT NULL,
		level    INTEGER NOT NULL,
		at       INTEGER NOT NULL,
		PRIMARY KEY (match_id, seat, step, level)
	) WITHOUT ROWID;
	CREATE TABLE daily (
		day      TEXT NOT NULL,
		game     TEXT NOT NULL,
		seed     INTEGER NOT NULL,
		bot_seed INTEGER NOT NULL,
		PRIMARY KEY (day, game)
	) WITHOUT ROWID;
	CREATE TABLE daily_entries (
		match_id TEXT PRIMARY KEY,
		day      TEXT NOT NULL,
		game_id  TEXT NOT NULL,
		player   TEXT NOT NULL,
		entered  INTEGER NOT NULL
	);
	CREATE INDEX daily_entries_day ON daily_entries(day, game_id, entered);`

// sqliteTeachPrune deletes what belongs to a match being pruned (?: its id).
var sqliteTeachPrune = []string{
	`DELETE FROM jobs WHERE match_id = ?`,
	`DELETE FROM hints WHERE match_id = ?`,
	`DELETE FROM daily_entries WHERE match_id = ?`,
}

const sqliteJobColumns = `kind, key, match_id, status, tries, owner, epoch, until, result, error, created, updated`

func scanJob(row scanner) (*Job, error) {
	var j Job
	var status string
	var until, created, updated int64
	if err := row.Scan(&j.Kind, &j.Key, &j.Match, &status, &j.Tries, &j.Node, &j.Epoch, &until, &j.Result, &j.Error, &created, &updated); err != nil {
		return nil, err
	}
	j.Status = JobStatus(status)
	j.Until, j.Created, j.Updated = fromMillis(until), fromMillis(created), fromMillis(updated)
	return &j, nil
}

// EnqueueJob adds a pending job unless one of its kind and key exists.
func (s *SQLite) EnqueueJob(ctx context.Context, kind, key, match string, at time.Time) (bool, error) {
	added := false
	err := s.q.write(ctx, match, func(tx *sql.Tx) error {
		res, err := tx.Exec(`INSERT INTO jobs(kind, key, match_id, status, created, updated) VALUES (?, ?, ?, 'pending', ?, ?)
			ON CONFLICT(kind, key) DO NOTHING`, kind, key, match, millis(at), millis(at))
		if err != nil {
			return err
		}
		n, _ := res.RowsAffected()
		added = n == 1
		return nil
	})
	return added, err
}

// ClaimJob takes the oldest pending job of a kind that nobody holds.
func (s *SQLite) ClaimJob(ctx context.Context, kind, node string, ttl time.Duration) (*Job, error) {
	var j *Job
	err := s.q.write(ctx, "", func(tx *sql.Tx) error {
		now := time.Now()
		var id int64
		err := tx.QueryRow(`SELECT id FROM jobs WHERE kind = ?1 AND status = 'pending' AND (owner = '' OR until <= ?2) AND created <= ?2
			ORDER BY created, id LIMIT 1`, kind, now.UnixMilli()).Scan(&id)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("%w: no %s job to run", ErrNotFound, kind)
		}
		if err != nil {
			return err
		}
		if _, err := tx.Exec(`UPDATE jobs SET owner = ?, epoch = epoch + 1, until = ?, tries = tries + 1, updated = ? WHERE id = ?`,
			node, now.Add(ttl).UnixMilli(), now.UnixMilli(), id); err != nil {
			return err
		}
		j, err = scanJob(tx.QueryRow(`SELECT `+sqliteJobColumns+` FROM jobs WHERE id = ?`, id))
		return err
	})
	return j, err
}

// ClaimJobs takes the pending jobs of a kind and key prefix that nobody
// holds.
func (s *SQLite) ClaimJobs(ctx context.Context, kind, prefix, node string, ttl time.Duration, limit int) ([]*Job, error) {
	var out []*Job
	err := s.q.write(ctx, "", func(tx *sql.Tx) error {
		out = out[:0]
		now := time.Now()
		rows, err := tx.Query(`SELECT id FROM jobs WHERE kind = ?1 AND status = 'pending' AND substr(key, 1, length(?2)) = ?2
			AND (owner = '' OR until <= ?3) ORDER BY created, id LIMIT ?4`, kind, prefix, now.UnixMilli(), limitOr100(limit))
		if err != nil {
			return err
		}
		ids, err := readIDs(rows, func(err error) error { return err })
		rows.Close()
		if err != nil {
			return err
		}
		for _, id := range ids {
			if _, err := tx.Exec(`UPDATE jobs SET owner = ?, epoch = epoch + 1, until = ?, tries = tries + 1, updated = ? WHERE id = ?`,
				node, now.Add(ttl).UnixMilli(), now.UnixMilli(), id); err != nil {
				return err
			}
			j, err := scanJob(tx.QueryRow(`SELECT `+sqliteJobColumns+` FROM jobs WHERE id = ?`, id))
			if err != nil {
				return err
			}
			out = append(out, j)
		}
		return nil
	})
	return out, err
}

// DeferJob puts a job off.
func (s *SQLite) DeferJob(ctx context.Context, j *Job, due time.Time) error {
	return s.underClaimJob(ctx, j, `UPDATE jobs SET owner = '', until = 0, created = ?, updated = ?`, millis(due), time.Now().UnixMilli())
}

// PruneJobs deletes the jobs of a kind over for long.
func (s *SQLite) PruneJobs(ctx context.Context, kind string, before time.Time, limit int) (int, error) {
	n := 0
	err := s.q.write(ctx, "", func(tx *sql.Tx) error {
		res, err := tx.Exec(`DELETE FROM jobs WHERE id IN (SELECT id FROM jobs WHERE kind = ? AND status <> 'pending' AND updated < ? LIMIT ?)`,
			kind, millis(before), limitOr100(limit))
		if err != nil {
			return err
		}
		m, _ := res.RowsAffected()
		n = int(m)
		return nil
	})
	return n, err
}

// underClaim runs update on j's row (its last parameters j's kind, key,
// node and epoch) only under j's claim; a write that changed nothing says
// why.
func (s *SQLite) underClaimJob(ctx context.Context, j *Job, update string, args ...any) error {
	return s.q.write(ctx, j.Match, func(tx *sql.Tx) error {
		res, err := tx.Exec(update+` WHERE kind = ? AND key = ? AND owner = ? AND owner <> '' AND epoch = ? AND status = 'pending'`,
			append(args, j.Kind, j.Key, j.Node, int64(j.Epoch))...)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 1 {
			return nil
		}
		return jobRefusal(j, func() (*Job, error) {
			return scanJob(tx.QueryRow(`SELECT `+sqliteJobColumns+` FROM jobs WHERE kind = ? AND key = ?`, j.Kind, j.Key))
		}, sql.ErrNoRows)
	})
}

// jobRefusal says why a write under j's claim changed nothing, from the
// job as stored (read by now; noRow when there is none).
func jobRefusal(j *Job, now func() (*Job, error), noRow error) error {
	cur, err := now()
	switch {
	case errors.Is(err, noRow):
		return fmt.Errorf("%w: no %s job %s", ErrNotFound, j.Kind, j.Key)
	case err != nil:
		return err
	case cur.Epoch != j.Epoch || cur.Node != j.Node:
		return fmt.Errorf("%w: %s job %s was claimed again (epoch %d, node %q)", ErrFenced, j.Kind, j.Key, cur.Epoch, cur.Node)
	}
	return fmt.Errorf("%w: %s job %s is %s", ErrFenced, j.Kind, j.Key, cur.Status)
}

// ExtendJob renews a claim.
func (s *SQLite) ExtendJob(ctx context.Context, j *Job, ttl time.Duration) error {
	now := time.Now()
	return s.underClaimJob(ctx, j, `UPDATE jobs SET until = ?, updated = ?`, now.Add(ttl).UnixMilli(), now.UnixMilli())
}

// CompleteJob keeps a job's result.
func (s *SQLite) CompleteJob(ctx context.Context, j *Job, result []byte) error {
	return s.underClaimJob(ctx, j, `UPDATE jobs SET status = 'done', result = ?, owner = '', until = 0, error = '', updated = ?`,
		result, time.Now().UnixMilli())
}

// ReleaseJob gives a claim up.
func (s *SQLite) ReleaseJob(ctx context.Context, j *Job, why string, failed bool) error {
	status := JobPending
	if failed {
		status = JobFailed
	}
	return s.underClaimJob(ctx, j, `UPDATE jobs SET status = ?, owner = '', until = 0, error = ?, updated = ?`,
		string(status), why, time.Now().UnixMilli())
}

// JobOf returns a job.
func (s *SQLite) JobOf(ctx context.Context, kind, key string) (*Job, error) {
	j, err := scanJob(s.r.QueryRowContext(ctx, `SELECT `+sqliteJobColumns+` FROM jobs WHERE kind = ? AND key = ?`, kind, key))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%w: no %s job %s", ErrNotFound, kind, key)
	}
	return j, s.fault(err)
}

// FinishedWithout lists finished matches with no job of a kind.
func (s *SQLite) FinishedWithout(ctx context.Context, kind string, since time.Time, limit int) ([]string, error) {
	return s.ids(ctx, `SELECT m.id FROM matches m WHERE m.status = 'finished' AND m.finished >= ?
		AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.kind = ? AND j.key = m.id)
		ORDER BY m.finished, m.id LIMIT ?`, millis(since), kind, limitOr100(limit))
}

// AddHint notes a hint.
func (s *SQLite) AddHint(ctx context.Context, match string, h Hint) error {
	return s.q.write(ctx, match, func(tx *sql.Tx) error {
		_, err := tx.Exec(`INSERT INTO hints(match_id, seat, step, level, at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
			match, h.Seat, h.Step, h.Level, millis(h.At))
		return err
	})
}

// Hints returns a match's hints.
func (s *SQLite) Hints(ctx context.Context, match string) ([]Hint, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT seat, step, level, at FROM hints WHERE match_id = ? ORDER BY seat, step, level`, match)
	if err != nil {
		return nil, s.fault(err)
	}
	defer rows.Close()
	var out []Hint
	for rows.Next() {
		var h Hint
		var at int64
		if err := rows.Scan(&h.Seat, &h.Step, &h.Level, &at); err != nil {
			return nil, s.fault(err)
		}
		h.At = fromMillis(at)
		out = append(out, h)
	}
	return out, s.fault(rows.Err())
}

// DailySeed returns a day's challenge, storing d if there is none.
func (s *SQLite) DailySeed(ctx context.Context, d Daily) (Daily, error) {
	out := Daily{Day: d.Day, Game: d.Game}
	err := s.q.write(ctx, "", func(tx *sql.Tx) error {
		if _, err := tx.Exec(`INSERT INTO daily(day, game, seed, bot_seed) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`,
			d.Day, d.Game, int64(d.Seed), int64(d.BotSeed)); err != nil {
			return err
		}
		var seed, botSeed int64
		err := tx.QueryRow(`SELECT seed, bot_seed FROM daily WHERE day = ? AND game = ?`, d.Day, d.Game).Scan(&seed, &botSeed)
		out.Seed, out.BotSeed = uint64(seed), uint64(botSeed)
		return err
	})
	return out, err
}

// AddDailyEntry notes a match of a daily challenge.
func (s *SQLite) AddDailyEntry(ctx context.Context, day, game, match, name string, at time.Time) error {
	return s.q.write(ctx, match, func(tx *sql.Tx) error {
		res, err := tx.Exec(`INSERT INTO daily_entries(match_id, day, game_id, player, entered) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
			match, day, game, name, millis(at))
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n != 1 {
			return fmt.Errorf("%w: match %s is entered already", ErrConflict, match)
		}
		return nil
	})
}

// DailyEntries lists a daily challenge's matches.
func (s *SQLite) DailyEntries(ctx context.Context, day, game string, limit int) ([]DailyEntry, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+matchColumns+`, e.player FROM daily_entries e JOIN matches m ON m.id = e.match_id
		WHERE e.day = ? AND e.game_id = ? ORDER BY e.entered, e.match_id LIMIT ?`, day, game, limitOr100(limit))
	if err != nil {
		return nil, s.fault(err)
	}
	defer rows.Close()
	var out []DailyEntry
	for rows.Next() {
		var name string
		m, err := scanMatch(withName{rows, &name})
		if err != nil {
			return nil, s.fault(err)
		}
		out = append(out, DailyEntry{Match: m, Name: name})
	}
	return out, s.fault(rows.Err())
}

// withName scans a match's columns and one more, the name after them.
type withName struct {
	row  scanner
	name *string
}

func (w withName) Scan(dest ...any) error { return w.row.Scan(append(dest, w.name)...) }
