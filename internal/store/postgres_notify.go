package store

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
)

// The Web Push subscriptions, notification settings and server secrets of
// a PostgreSQL store (see notify.go); writes go through the writer's
// batches.

const postgresNotifySchema = `CREATE TABLE push_subscriptions (
		id       text PRIMARY KEY,
		account  text NOT NULL,
		endpoint text NOT NULL UNIQUE,
		p256dh   text NOT NULL,
		auth     text NOT NULL,
		label    text NOT NULL DEFAULT '',
		created  timestamptz NOT NULL
	);
	CREATE INDEX push_subscriptions_account ON push_subscriptions (account, created);
	CREATE TABLE notify_settings (
		account  text PRIMARY KEY,
		settings bytea NOT NULL,
		updated  timestamptz NOT NULL
	);
	CREATE TABLE secrets (
		name    text PRIMARY KEY,
		value   bytea NOT NULL,
		created timestamptz NOT NULL
	);
	CREATE INDEX jobs_over ON jobs (kind, updated) WHERE status <> 'pending';`

// postgresNotifyDeletes delete an account's notification data ($1: its
// id), in DeleteAccount's transaction.
var postgresNotifyDeletes = []string{
	`DELETE FROM push_subscriptions WHERE account = $1`,
	`DELETE FROM notify_settings WHERE account = $1`,
	`DELETE FROM jobs WHERE substr(key, 1, length($1) + 1) = $1 || ':'`,
}

// ClaimJobs takes the pending jobs of a kind and key prefix that nobody
// holds.
func (s *Postgres) ClaimJobs(ctx context.Context, kind, prefix, node string, ttl time.Duration, limit int) ([]*Job, error) {
	var keys, matches []string
	var epochs []int64
	var tries []int32
	var untils, created, updated []time.Time
	err := s.write(ctx, "", &pgOp{
		sql: `WITH free AS (SELECT id FROM jobs WHERE kind = $1 AND status = 'pending' AND substr(key, 1, length($2)) = $2
				AND (owner = '' OR until <= clock_timestamp()) ORDER BY created, id LIMIT $5 FOR UPDATE SKIP LOCKED),
			c AS (UPDATE jobs SET owner = $3, epoch = jobs.epoch + 1, until = clock_timestamp() + $4 * interval '1 millisecond',
				tries = jobs.tries + 1, updated = clock_timestamp()
				FROM free WHERE jobs.id = free.id RETURNING jobs.id, jobs.key, jobs.match_id, jobs.epoch, jobs.tries, jobs.until, jobs.created, jobs.updated)
			SELECT coalesce(array_agg(key ORDER BY created, id), '{}'), coalesce(array_agg(match_id ORDER BY created, id), '{}'),
				coalesce(array_agg(epoch ORDER BY created, id), '{}'), coalesce(array_agg(tries ORDER BY created, id), '{}'),
				coalesce(array_agg(until ORDER BY created, id), '{}'), coalesce(array_agg(created ORDER BY created, id), '{}'),
				coalesce(array_agg(updated ORDER BY created, id), '{}') FROM c`,
		args: []any{kind, prefix, node, ttl.Milliseconds(), limitOr100(limit)},
		scan: func(r pgx.Row) error { return r.Scan(&keys, &matches, &epochs, &tries, &untils, &created, &updated) },
	})
	if err != nil {
		return nil, err
	}
	out := make([]*Job, len(keys))
	for i := range keys {
		out[i] = &Job{Kind: kind, Key: keys[i], Match: matches[i], Status: JobPending, Tries: int(tries[i]), Node: node,
			Epoch: Epoch(epochs[i]), Until: untils[i], Created: created[i], Updated: updated[i]}
	}
	return out, nil
}

// DeferJob puts a job off.
func (s *Postgres) DeferJob(ctx context.Context, j *Job, due time.Time) error {
	return s.underClaim(ctx, j, `UPDATE jobs SET owner = '', until = NULL, created = $5, updated = clock_timestamp()`, due)
}

// PruneJobs deletes the jobs of a kind over for long.
func (s *Postgres) PruneJobs(ctx context.Context, kind string, before time.Time, limit int) (int, error) {
	var n int
	err := s.write(ctx, "", &pgOp{
		sql: `WITH d AS (DELETE FROM jobs WHERE id IN (SELECT id FROM jobs WHERE kind = $1 AND status <> 'pending' AND updated < $2 LIMIT $3) RETURNING 1)
			SELECT count(*) FROM d`,
		args: []any{kind, before, limitOr100(limit)},
		scan: func(r pgx.Row) error { return r.Scan(&n) },
	})
	return n, err
}

// Secret returns a server secret, storing value if there is none. (The
// insert's row is not seen by the same statement's select: one of the two
// gives it, or a read after it.)
func (s *Postgres) Secret(ctx context.Context, name string, value []byte) ([]byte, error) {
	var out []byte
	err := s.write(ctx, "", &pgOp{
		sql: `WITH ins AS (INSERT INTO secrets (name, value, created) VALUES ($1, $2, now()) ON CONFLICT DO NOTHING RETURNING value)
			SELECT value FROM ins UNION ALL SELECT value FROM secrets WHERE name = $1 LIMIT 1`,
		args: []any{name, value},
		scan: func(r pgx.Row) error { return r.Scan(&out) },
	})
	if err == nil && out == nil {
		// Another node's insert was under way: its row, committed now, was
		// not in this statement's snapshot.
		rctx, cancel := s.read(ctx)
		defer cancel()
		err = s.fault(s.pool.QueryRow(rctx, `SELECT value FROM secrets WHERE name = $1`, name).Scan(&out))
	}
	return out, err
}

// AddPushSubscription keeps a subscription, in a transaction of its own
// that holds the account against its deletion meanwhile.
func (s *Postgres) AddPushSubscription(ctx context.Context, p *PushSubscription, max int) error {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var found bool
		if err := tx.QueryRow(ctx, `SELECT `+accountExists(1), p.Account).Scan(&found); err != nil {
			return err
		}
		if !found {
			return noAccount(p.Account)
		}
		if _, err := tx.Exec(ctx, `DELETE FROM push_subscriptions WHERE endpoint = $1 OR id = $2`, p.Endpoint, p.ID); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, `INSERT INTO push_subscriptions (id, account, endpoint, p256dh, auth, label, created)
			VALUES ($1, $2, $3, $4, $5, $6, $7)`, p.ID, p.Account, p.Endpoint, p.P256dh, p.Auth, p.Label, p.Created); err != nil {
			return err
		}
		if max > 0 {
			_, err := tx.Exec(ctx, `DELETE FROM push_subscriptions WHERE account = $1 AND id NOT IN
				(SELECT id FROM push_subscriptions WHERE account = $1 ORDER BY created DESC, id DESC LIMIT $2)`, p.Account, max)
			return err
		}
		return nil
	})
	return s.fault(err)
}

// PushSubscriptions lists an account's subscriptions.
func (s *Postgres) PushSubscriptions(ctx context.Context, account string) ([]*PushSubscription, error) {
	ctx, cancel := s.read(ctx)
	defer cancel()
	rows, err := s.pool.Query(ctx, `SELECT id, account, endpoint, p256dh, auth, label, created FROM push_subscriptions
		WHERE account = $1 ORDER BY created, id`, account)
	if err != nil {
		return nil, s.fault(err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (*PushSubscription, error) {
		var p PushSubscription
		err := r.Scan(&p.ID, &p.Account, &p.Endpoint, &p.P256dh, &p.Auth, &p.Label, &p.Created)
		return &p, err
	})
	return out, s.fault(err)
}

// DeletePushSubscription deletes one of an account's subscriptions.
func (s *Postgres) DeletePushSubscription(ctx context.Context, account, id string) error {
	return s.write(ctx, "", &pgOp{
		sql:  `DELETE FROM push_subscriptions WHERE account = $1 AND id = $2`,
		args: []any{account, id},
		refusal: func(context.Context, pgx.Tx) error {
			return noSubscription(account, id)
		},
	})
}

// DropPushEndpoint deletes the subscription of an endpoint.
func (s *Postgres) DropPushEndpoint(ctx context.Context, endpoint string) error {
	return s.write(ctx, "", &pgOp{sql: `DELETE FROM push_subscriptions WHERE endpoint = $1`, args: []any{endpoint}})
}

// NotifySettings returns an account's settings.
func (s *Postgres) NotifySettings(ctx context.Context, account string) ([]byte, error) {
	ctx, cancel := s.read(ctx)
	defer cancel()
	var out []byte
	err := s.pool.QueryRow(ctx, `SELECT settings FROM notify_settings WHERE account = $1`, account).Scan(&out)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, nil
	}
	return out, s.fault(err)
}

// PutNotifySettings keeps an account's settings.
func (s *Postgres) PutNotifySettings(ctx context.Context, account string, settings []byte) error {
	return s.write(ctx, "", &pgOp{
		sql: `INSERT INTO notify_settings (account, settings, updated) SELECT $1, $2, clock_timestamp() WHERE ` + accountExists(1) + `
			ON CONFLICT (account) DO UPDATE SET settings = $2, updated = clock_timestamp() RETURNING 1`,
		args:    []any{account, nonNil(settings)},
		scan:    scanOne,
		refusal: func(ctx context.Context, tx pgx.Tx) error { return pgAccountsExist(ctx, tx, account) },
	})
}
