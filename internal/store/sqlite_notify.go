package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

// The Web Push subscriptions, notification settings and server secrets of
// an SQLite store (see notify.go); writes go through the writer.

const sqliteNotifySchema = `CREATE TABLE push_subscriptions (
		id       TEXT PRIMARY KEY,
		account  TEXT NOT NULL,
		endpoint TEXT NOT NULL UNIQUE,
		p256dh   TEXT NOT NULL,
		auth     TEXT NOT NULL,
		label    TEXT NOT NULL DEFAULT '',
		created  INTEGER NOT NULL
	);
	CREATE INDEX push_subscriptions_account ON push_subscriptions(account, created);
	CREATE TABLE notify_settings (
		account  TEXT PRIMARY KEY,
		settings BLOB NOT NULL,
		updated  INTEGER NOT NULL
	) WITHOUT ROWID;
	CREATE TABLE secrets (
		name    TEXT PRIMARY KEY,
		value   BLOB NOT NULL,
		created INTEGER NOT NULL
	) WITHOUT ROWID;
	CREATE INDEX jobs_over ON jobs(kind, updated) WHERE status <> 'pending';`

// sqliteNotifyDeletes delete an account's notification data (?1: its id),
// in DeleteAccount's transaction.
var sqliteNotifyDeletes = []string{
	`DELETE FROM push_subscriptions WHERE account = ?1`,
	`DELETE FROM notify_settings WHERE account = ?1`,
	`DELETE FROM jobs WHERE substr(key, 1, length(?1) + 1) = ?1 || ':'`,
}

// Secret returns a server secret, storing value if there is none.
func (s *SQLite) Secret(ctx context.Context, name string, value []byte) ([]byte, error) {
	var out []byte
	err := s.q.write(ctx, "", func(tx *sql.Tx) error {
		if _, err := tx.Exec(`INSERT INTO secrets(name, value, created) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`,
			name, value, time.Now().UnixMilli()); err != nil {
			return err
		}
		return tx.QueryRow(`SELECT value FROM secrets WHERE name = ?`, name).Scan(&out)
	})
	return out, err
}

// AddPushSubscription keeps a subscription.
func (s *SQLite) AddPushSubscription(ctx context.Context, p *PushSubscription, max int) error {
	return s.q.write(ctx, "", func(tx *sql.Tx) error {
		if err := accountsExist(tx, p.Account); err != nil {
			return err
		}
		if _, err := tx.Exec(`DELETE FROM push_subscriptions WHERE endpoint = ? OR id = ?`, p.Endpoint, p.ID); err != nil {
			return err
		}
		if _, err := tx.Exec(`INSERT INTO push_subscriptions(id, account, endpoint, p256dh, auth, label, created) VALUES (?, ?, ?, ?, ?, ?, ?)`,
			p.ID, p.Account, p.Endpoint, p.P256dh, p.Auth, p.Label, millis(p.Created)); err != nil {
			return err
		}
		if max > 0 {
			_, err := tx.Exec(`DELETE FROM push_subscriptions WHERE account = ?1 AND id NOT IN
				(SELECT id FROM push_subscriptions WHERE account = ?1 ORDER BY created DESC, id DESC LIMIT ?2)`, p.Account, max)
			return err
		}
		return nil
	})
}

// PushSubscriptions lists an account's subscriptions.
func (s *SQLite) PushSubscriptions(ctx context.Context, account string) ([]*PushSubscription, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, account, endpoint, p256dh, auth, label, created FROM push_subscriptions
		WHERE account = ? ORDER BY created, id`, account)
	if err != nil {
		return nil, s.fault(err)
	}
	defer rows.Close()
	var out []*PushSubscription
	for rows.Next() {
		var p PushSubscription
		var created int64
		if err := rows.Scan(&p.ID, &p.Account, &p.Endpoint, &p.P256dh, &p.Auth, &p.Label, &created); err != nil {
			return nil, s.fault(err)
		}
		p.Created = fromMillis(created)
		out = append(out, &p)
	}
	return out, s.fault(rows.Err())
}

// DeletePushSubscription deletes one of an account's subscriptions.
func (s *SQLite) DeletePushSubscription(ctx context.Context, account, id string) error {
	return s.q.write(ctx, "", func(tx *sql.Tx) error {
		res, err := tx.Exec(`DELETE FROM push_subscriptions WHERE account = ? AND id = ?`, account, id)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return noSubscription(account, id)
		}
		return nil
	})
}

// DropPushEndpoint deletes the subscription of an endpoint.
func (s *SQLite) DropPushEndpoint(ctx context.Context, endpoint string) error {
	return s.q.write(ctx, "", func(tx *sql.Tx) error {
		_, err := tx.Exec(`DELETE FROM push_subscriptions WHERE endpoint = ?`, endpoint)
		return err
	})
}

// NotifySettings returns an account's settings.
func (s *SQLite) NotifySettings(ctx context.Context, account string) ([]byte, error) {
	var out []byte
	err := s.r.QueryRowContext(ctx, `SELECT settings FROM notify_settings WHERE account = ?`, account).Scan(&out)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	return out, s.fault(err)
}

// PutNotifySettings keeps an account's settings.
func (s *SQLite) PutNotifySettings(ctx context.Context, account string, settings []byte) error {
	return s.q.write(ctx, "", func(tx *sql.Tx) error {
		if err := accountsExist(tx, account); err != nil {
			return err
		}
		_, err := tx.Exec(`INSERT INTO notify_settings(account, settings, updated) VALUES (?1, ?2, ?3)
			ON CONFLICT(account) DO UPDATE SET settings = ?2, updated = ?3`, account, nonNil(settings), time.Now().UnixMilli())
		return err
	})
}

func noSubscription(account, id string) error {
	return fmt.Errorf("%w: account %s has no push subscription %s", ErrNotFound, account, id)
}
