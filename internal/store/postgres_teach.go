package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

// The jobs, hints and daily challenges of a PostgreSQL store (see
// teach.go). Writes go through the writer's batches; a claim takes the
// oldest job nobody holds with FOR UPDATE SKIP LOCKED, so that nodes
// claiming at once take different jobs. Claims are told by the database's
// clock, as leases are.

const postgresTeachSchema = `CREATE TABLE jobs (
		id       bigserial PRIMARY KEY,
		kind     text NOT NULL,
		key      text NOT NULL,
		match_id text NOT NULL DEFAULT '',
		status   text NOT NULL,
		tries    integer NOT NULL DEFAULT 0,
		owner    text NOT NULL DEFAULT '',
		epoch    bigint NOT NULL DEFAULT 0,
		until    timestamptz,
		result   bytea,
		error    text NOT NULL DEFAULT '',
		created  timestamptz NOT NULL,
		updated  timestamptz NOT NULL,
		UNIQUE (kind, key)
	);
	CREATE INDEX jobs_todo ON jobs (kind, created) WHERE status = 'pending';
	CREATE INDEX jobs_match ON jobs (match_id) WHERE match_id <> '';
	CREATE TABLE hints (
		match_id text NOT NULL,
		seat     integer NOT NULL,
		step     integer NOT NULL,
		level    integer NOT NULL,
		at       timestamptz NOT NULL,
		PRIMARY KEY (match_id, seat, step, level)
	);
	CREATE TABLE daily (
		day      text NOT NULL,
		game     text NOT NULL,
		seed     bigint NOT NULL,
		bot_seed bigint NOT NULL,
		PRIMARY KEY (day, game)
	);
	CREATE TABLE daily_entries (
		match_id text PRIMARY KEY,
		day      text NOT NULL,
		game_id  text NOT NULL,
		player   text NOT NULL,
		entered  timestamptz NOT NULL
	);
	CREATE INDEX daily_entries_day ON daily_entries (day, game_id, entered);`

// postgresTeachPrune deletes, in Prune's statement, what belongs to the
// matches being pruned (those of its "gone").
const postgresTeachPrune = `
			j AS (DELETE FROM jobs WHERE match_id IN (SELECT id FROM gone)),
			h AS (DELETE FROM hints WHERE match_id IN (SELECT id FROM gone)),
			d AS (DELETE FROM daily_entries WHERE match_id IN (SELECT id FROM gone)),`

const pgJobColumns = `kind, key, match_id, status, tries, owner, epoch, until, result, error, created, updated`

func scanPgJob(row pgx.Row) (*Job, error) {
	var j Job
	var status string
	var until *time.Time
	if err := row.Scan(&j.Kind, &j.Key, &j.Match, &status, &j.Tries, &j.Node, &j.Epoch, &until, &j.Result, &j.Error, &j.Created, &j.Updated); err != nil {
		return nil, err
	}
	j.Status = JobStatus(status)
	if until != nil {
		j.Until = *until
	}
	return &j, nil
}

// EnqueueJob adds a pending job unless one of its kind and key exists.
func (s *Postgres) EnqueueJob(ctx context.Context, kind, key, match string, at time.Time) (bool, error) {
	added := false
	err := s.write(ctx, match, &pgOp{
		sql: `INSERT INTO jobs (kind, key, match_id, status, created, updated) VALUES ($1, $2, $3, 'pending', $4, $4)
			ON CONFLICT (kind, key) DO NOTHING RETURNING true`,
		args: []any{kind, key, match, at},
		scan: func(r pgx.Row) error { return r.Scan(&added) },
	})
	return added, err
}

// ClaimJob takes the oldest pending job of a kind that nobody holds.
func (s *Postgres) ClaimJob(ctx context.Context, kind, node string, ttl time.Duration) (*Job, error) {
	var j *Job
	err := s.write(ctx, "", &pgOp{
		sql: `WITH free AS (SELECT id FROM jobs WHERE kind = $1 AND status = 'pending'
				AND (owner = '' OR until <= clock_timestamp()) AND created <= clock_timestamp() ORDER BY created, id LIMIT 1 FOR UPDATE SKIP LOCKED)
			UPDATE jobs SET owner = $2, epoch = jobs.epoch + 1, until = clock_timestamp() + $3 * interval '1 millisecond',
				tries = jobs.tries + 1, updated = clock_timestamp()
			FROM free WHERE jobs.id = free.id RETURNING ` + qualified("jobs", pgJobColumns),
		args: []any{kind, node, ttl.Milliseconds()},
		scan: func(r pgx.Row) (err error) { j, err = scanPgJob(r); return err },
		refusal: func(context.Context, pgx.Tx) error {
			return fmt.Errorf("%w: no %s job to run", ErrNotFound, kind)
		},
	})
	return j, err
}

// qualified prefixes each of the comma-separated columns with table.
func qualified(table, columns string) string {
	out := ""
	start := 0
	for i := 0; i <= len(columns); i++ {
		if i == len(columns) || columns[i] == ',' {
			col := columns[start:i]
			for len(col) > 0 && col[0] == ' ' {
				col = col[1:]
			}
			if out != "" {
				out += ", "
			}
			out += table + "." + col
			start = i + 1
		}
	}
	return out
}

// underClaim runs update on j's row only under j's claim ($1..$4: j's
// kind, key, node and epoch; the update's own parameters follow); a write
// that changed nothing says why.
func (s *Postgres) underClaim(ctx context.Context, j *Job, update string, args ...any) error {
	return s.write(ctx, j.Match, &pgOp{
		sql:  update + ` WHERE kind = $1 AND key = $2 AND owner = $3 AND owner <> '' AND epoch = $4 AND status = 'pending'`,
		args: append([]any{j.Kind, j.Key, j.Node, int64(j.Epoch)}, args...),
		refusal: func(ctx context.Context, tx pgx.Tx) error {
			return jobRefusal(j, func() (*Job, error) {
				return scanPgJob(tx.QueryRow(ctx, `SELECT `+pgJobColumns+` FROM jobs WHERE kind = $1 AND key = $2`, j.Kind, j.Key))
			}, pgx.ErrNoRows)
		},
	})
}

// ExtendJob renews a claim.
func (s *Postgres) ExtendJob(ctx context.Context, j *Job, ttl time.Duration) error {
	return s.underClaim(ctx, j, `UPDATE jobs SET until = clock_timestamp() + $5 * interval '1 millisecond', updated = clock_timestamp()`, ttl.Milliseconds())
}

// CompleteJob keeps a job's result.
func (s *Postgres) CompleteJob(ctx context.Context, j *Job, result []byte) error {
	return s.underClaim(ctx, j, `UPDATE jobs SET status = 'done', result = $5, owner = '', until = NULL, error = '', updated = clock_timestamp()`, result)
}

// ReleaseJob gives a claim up.
func (s *Postgres) ReleaseJob(ctx context.Context, j *Job, why string, failed bool) error {
	status := JobPending
	if failed {
		status = JobFailed
	}
	return s.underClaim(ctx, j, `UPDATE jobs SET status = $5, owner = '', until = NULL, error = $6, updated = clock_timestamp()`, string(status), why)
}

// JobOf returns a job.
func (s *Postgres) JobOf(ctx context.Context, kind, key string) (*Job, error) {
	ctx, cancel := s.read(ctx)
	defer cancel()
	j, err := scanPgJob(s.pool.QueryRow(ctx, `SELECT `+pgJobColumns+` FROM jobs WHERE kind = $1 AND key = $2`, kind, key))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("%w: no %s job %s", ErrNotFound, kind, key)
	}
	return j, s.fault(err)
}

// FinishedWithout lists finished matches with no job of a kind.
func (s *Postgres) FinishedWithout(ctx context.Context, kind string, since time.Time, limit int) ([]string, error) {
	return s.ids(ctx, `SELECT m.id FROM matches m WHERE m.status = 'finished' AND m.finished >= $1
		AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.kind = $2 AND j.key = m.id)
		ORDER BY m.finished, m.id LIMIT $3`, since, kind, limitOr100(limit))
}

// AddHint notes a hint.
func (s *Postgres) AddHint(ctx context.Context, match string, h Hint) error {
	return s.write(ctx, match, &pgOp{
		sql:  `INSERT INTO hints (match_id, seat, step, level, at) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
		args: []any{match, h.Seat, h.Step, h.Level, h.At},
	})
}

// Hints returns a match's hints.
func (s *Postgres) Hints(ctx context.Context, match string) ([]Hint, error) {
	ctx, cancel := s.read(ctx)
	defer cancel()
	rows, err := s.pool.Query(ctx, `SELECT seat, step, level, at FROM hints WHERE match_id = $1 ORDER BY seat, step, level`, match)
	if err != nil {
		return nil, s.fault(err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Hint, error) {
		var h Hint
		err := r.Scan(&h.Seat, &h.Step, &h.Level, &h.At)
		return h, err
	})
	return out, s.fault(err)
}

// DailySeed returns a day's challenge, storing d if there is none. (The
// insert's row is not seen by the same statement's select: one of the two
// gives it.)
func (s *Postgres) DailySeed(ctx context.Context, d Daily) (Daily, error) {
	out := Daily{Day: d.Day, Game: d.Game}
	var seed, botSeed int64
	err := s.write(ctx, "", &pgOp{
		sql: `WITH ins AS (INSERT INTO daily (day, game, seed, bot_seed) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING RETURNING seed, bot_seed)
			SELECT seed, bot_seed FROM ins UNION ALL SELECT seed, bot_seed FROM daily WHERE day = $1 AND game = $2 LIMIT 1`,
		args: []any{d.Day, d.Game, int64(d.Seed), int64(d.BotSeed)},
		scan: func(r pgx.Row) error { return r.Scan(&seed, &botSeed) },
	})
	out.Seed, out.BotSeed = uint64(seed), uint64(botSeed)
	return out, err
}

// AddDailyEntry notes a match of a daily challenge.
func (s *Postgres) AddDailyEntry(ctx context.Context, day, game, match, name string, at time.Time) error {
	return s.write(ctx, match, &pgOp{
		sql:  `INSERT INTO daily_entries (match_id, day, game_id, player, entered) VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING`,
		args: []any{match, day, game, name, at},
		refusal: func(context.Context, pgx.Tx) error {
			return fmt.Errorf("%w: match %s is entered already", ErrConflict, match)
		},
	})
}

// DailyEntries lists a daily challenge's matches.
func (s *Postgres) DailyEntries(ctx context.Context, day, game string, limit int) ([]DailyEntry, error) {
	ctx, cancel := s.read(ctx)
	defer cancel()
	rows, err := s.pool.Query(ctx, `SELECT `+pgMatchColumns+`, e.player FROM daily_entries e JOIN matches m ON m.id = e.match_id
		WHERE e.day = $1 AND e.game_id = $2 ORDER BY e.entered, e.match_id LIMIT $3`, day, game, limitOr100(limit))
	if err != nil {
		return nil, s.fault(err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (DailyEntry, error) {
		var name string
		m, err := scanPgMatch(pgWithName{r, &name})
		return DailyEntry{Match: m, Name: name}, err
	})
	return out, s.fault(err)
}

// pgWithName scans a match's columns and one more, the name after them.
type pgWithName struct {
	row  pgx.Row
	name *string
}

func (w pgWithName) Scan(dest ...any) error { return w.row.Scan(append(dest, w.name)...) }
