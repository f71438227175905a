package store

import (
	"context"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"
)

var _ Tickets = (*Postgres)(nil)

func scanPgTicket(row pgx.Row) (*Ticket, error) {
	var t Ticket
	var fill int64
	var done *time.Time
	if err := row.Scan(&t.Hash, &t.Account, &t.Name, &t.Game, &t.Players, &t.Mode, &t.Rated, &t.HumansOnly, &fill, &t.Mu, &t.Sigma,
		&t.Leaver, &t.TokenHash, &t.Created, &t.Status, &t.Match, &t.Seat, &done, &t.MoveLimitMs, &t.PlayersMax); err != nil {
		return nil, err
	}
	t.BotFill = time.Duration(fill) * time.Millisecond
	if done != nil {
		t.Done = *done
	}
	return &t, nil
}

// tx runs f in a transaction of its own, bounded by the store's timeout.
func (s *Postgres) tx(ctx context.Context, f func(ctx context.Context, tx pgx.Tx) error) error {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	return s.fault(pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error { return f(ctx, tx) }))
}

// PutTicket stores a new waiting ticket and cancels the account's others.
func (s *Postgres) PutTicket(ctx context.Context, t *Ticket) error {
	if err := checkTicket(t); err != nil {
		return err
	}
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `UPDATE tickets SET status = 'cancelled', done = $2 WHERE account = $1 AND status = 'waiting'`,
			t.Account, t.Created); err != nil {
			return err
		}
		tag, err := tx.Exec(ctx, `INSERT INTO tickets (`+ticketColumns+`)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, 'waiting', '', 0, NULL, $15, $16) ON CONFLICT (hash) DO NOTHING`,
			t.Hash, t.Account, t.Name, t.Game, t.Players, t.Mode, t.Rated, t.HumansOnly, t.BotFill.Milliseconds(), t.Mu, t.Sigma,
			t.Leaver, t.TokenHash, t.Created, t.MoveLimitMs, t.PlayersMax)
		if err == nil && tag.RowsAffected() == 0 {
			return ErrConflict
		}
		return err
	})
}

// Ticket returns a ticket by its hash.
func (s *Postgres) Ticket(ctx context.Context, hash []byte) (*Ticket, error) {
	ctx, cancel := s.read(ctx)
	defer cancel()
	t, err := scanPgTicket(s.pool.QueryRow(ctx, `SELECT `+ticketColumns+` FROM tickets WHERE hash = $1`, hash))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, noTicket()
	}
	return t, s.fault(err)
}

// CancelTicket cancels a waiting ticket of the account.
func (s *Postgres) CancelTicket(ctx context.Context, hash []byte, account string, at time.Time) error {
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		var status string
		err := tx.QueryRow(ctx, `SELECT status FROM tickets WHERE hash = $1 AND account = $2 FOR UPDATE`, hash, account).Scan(&status)
		switch {
		case errors.Is(err, pgx.ErrNoRows):
			return noTicket()
		case err != nil:
			return err
		case status == TicketMatched:
			return ticketDone()
		case status == TicketCancelled:
			return nil
		}
		_, err = tx.Exec(ctx, `UPDATE tickets SET status = 'cancelled', done = $2 WHERE hash = $1`, hash, at)
		return err
	})
}

// WaitingTickets returns the waiting tickets, oldest first.
func (s *Postgres) WaitingTickets(ctx context.Context) ([]*Ticket, error) {
	ctx, cancel := s.read(ctx)
	defer cancel()
	rows, err := s.pool.Query(ctx, `SELECT `+ticketColumns+` FROM tickets WHERE status = 'waiting' ORDER BY created, hash`)
	if err != nil {
		return nil, s.fault(err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (*Ticket, error) { return scanPgTicket(r) })
	return out, s.fault(err)
}

// MatchTickets marks tickets matched, all or none: the rows are locked
// first, so that a cancel at the same time either lands before (and this
// writes nothing) or waits and finds the ticket matched.
func (s *Postgres) MatchTickets(ctx context.Context, match string, hashes [][]byte, seats []int, at time.Time) error {
	if len(hashes) != len(seats) {
		return errors.New("store: as many seats as tickets are needed")
	}
	return s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		var waiting int
		if err := tx.QueryRow(ctx, `SELECT count(*) FROM (SELECT 1 FROM tickets WHERE hash = ANY($1) AND status = 'waiting' ORDER BY hash FOR UPDATE) w`,
			hashes).Scan(&waiting); err != nil {
			return err
		}
		if waiting != len(hashes) {
			return ticketDone()
		}
		for i, h := range hashes {
			if _, err := tx.Exec(ctx, `UPDATE tickets SET status = 'matched', match_id = $2, seat = $3, done = $4 WHERE hash = $1`,
				h, match, seats[i], at); err != nil {
				return err
			}
		}
		return nil
	})
}

// PruneTickets deletes tickets that stopped waiting before a time.
func (s *Postgres) PruneTickets(ctx context.Context, before time.Time, limit int) (int, error) {
	var n int64
	err := s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `DELETE FROM tickets WHERE hash IN (SELECT hash FROM tickets WHERE status <> 'waiting' AND done < $1 ORDER BY done LIMIT $2)`,
			before, limitOr100(limit))
		n = tag.RowsAffected()
		return err
	})
	return int(n), err
}

// TakeLock takes or renews a lock, by the database's clock.
func (s *Postgres) TakeLock(ctx context.Context, name, node string, ttl time.Duration) (bool, error) {
	var held bool
	err := s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `INSERT INTO locks (name, node, expires) VALUES ($1, $2, now() + $3 * interval '1 millisecond')
			ON CONFLICT (name) DO UPDATE SET node = excluded.node, expires = excluded.expires
			WHERE locks.node = excluded.node OR locks.expires < now()`, name, node, ttl.Milliseconds())
		held = tag.RowsAffected() == 1
		return err
	})
	return held, err
}
