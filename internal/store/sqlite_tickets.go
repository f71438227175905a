package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

var _ Tickets = (*SQLite)(nil)

const ticketColumns = `hash, account, name, game, players, mode, rated, humans_only, bot_fill_ms, mu, sigma, leaver, token_hash, created, status, match_id, seat, done, move_limit_ms, players_max`

func scanTicket(row scanner) (*Ticket, error) {
	var t Ticket
	var fill, created, done int64
	if err := row.Scan(&t.Hash, &t.Account, &t.Name, &t.Game, &t.Players, &t.Mode, &t.Rated, &t.HumansOnly, &fill, &t.Mu, &t.Sigma,
		&t.Leaver, &t.TokenHash, &created, &t.Status, &t.Match, &t.Seat, &done, &t.MoveLimitMs, &t.PlayersMax); err != nil {
		return nil, err
	}
	t.BotFill, t.Created, t.Done = time.Duration(fill)*time.Millisecond, fromMillis(created), fromMillis(done)
	return &t, nil
}

// PutTicket stores a new waiting ticket and cancels the account's others.
func (s *SQLite) PutTicket(ctx context.Context, t *Ticket) error {
	if err := checkTicket(t); err != nil {
		return err
	}
	return s.q.write(ctx, "", func(tx *sql.Tx) error {
		if taken, err := exists(tx, `SELECT 1 FROM tickets WHERE hash = ?`, t.Hash); err != nil || taken {
			if taken {
				return ErrConflict
			}
			return err
		}
		if _, err := tx.Exec(`UPDATE tickets SET status = 'cancelled', done = ? WHERE account = ? AND status = 'waiting'`,
			millis(t.Created), t.Account); err != nil {
			return err
		}
		_, err := tx.Exec(`INSERT INTO tickets (`+ticketColumns+`) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'waiting', '', 0, 0, ?, ?)`,
			t.Hash, t.Account, t.Name, t.Game, t.Players, t.Mode, t.Rated, t.HumansOnly, t.BotFill.Milliseconds(), t.Mu, t.Sigma,
			t.Leaver, t.TokenHash, millis(t.Created), t.MoveLimitMs, t.PlayersMax)
		return err
	})
}

// Ticket returns a ticket by its hash.
func (s *SQLite) Ticket(ctx context.Context, hash []byte) (*Ticket, error) {
	t, err := scanTicket(s.r.QueryRowContext(ctx, `SELECT `+ticketColumns+` FROM tickets WHERE hash = ?`, hash))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, noTicket()
	}
	return t, s.fault(err)
}

// CancelTicket cancels a waiting ticket of the account.
func (s *SQLite) CancelTicket(ctx context.Context, hash []byte, account string, at time.Time) error {
	return s.q.write(ctx, "", func(tx *sql.Tx) error {
		var status string
		err := tx.QueryRow(`SELECT status FROM tickets WHERE hash = ? AND account = ?`, hash, account).Scan(&status)
		switch {
		case errors.Is(err, sql.ErrNoRows):
			return noTicket()
		case err != nil:
			return err
		case status == TicketMatched:
			return ticketDone()
		case status == TicketCancelled:
			return nil
		}
		_, err = tx.Exec(`UPDATE tickets SET status = 'cancelled', done = ? WHERE hash = ?`, millis(at), hash)
		return err
	})
}

// WaitingTickets returns the waiting tickets, oldest first.
func (s *SQLite) WaitingTickets(ctx context.Context) ([]*Ticket, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+ticketColumns+` FROM tickets WHERE status = 'waiting' ORDER BY created, hash`)
	if err != nil {
		return nil, s.fault(err)
	}
	defer rows.Close()
	var out []*Ticket
	for rows.Next() {
		t, err := scanTicket(rows)
		if err != nil {
			return nil, s.fault(err)
		}
		out = append(out, t)
	}
	return out, s.fault(rows.Err())
}

// MatchTickets marks tickets matched, all or none.
func (s *SQLite) MatchTickets(ctx context.Context, match string, hashes [][]byte, seats []int, at time.Time) error {
	if len(hashes) != len(seats) {
		return errors.New("store: as many seats as tickets are needed")
	}
	return s.q.write(ctx, "", func(tx *sql.Tx) error {
		for _, h := range hashes {
			var status string
			if err := tx.QueryRow(`SELECT status FROM tickets WHERE hash = ?`, h).Scan(&status); err != nil {
				if errors.Is(err, sql.ErrNoRows) {
					return noTicket()
				}
				return err
			}
			if status != TicketWaiting {
				return ticketDone()
			}
		}
		for i, h := range hashes {
			if _, err := tx.Exec(`UPDATE tickets SET status = 'matched', match_id = ?, seat = ?, done = ? WHERE hash = ?`,
				match, seats[i], millis(at), h); err != nil {
				return err
			}
		}
		return nil
	})
}

// PruneTickets deletes tickets that stopped waiting before a time.
func (s *SQLite) PruneTickets(ctx context.Context, before time.Time, limit int) (int, error) {
	var n int64
	err := s.q.write(ctx, "", func(tx *sql.Tx) error {
		res, err := tx.Exec(`DELETE FROM tickets WHERE hash IN (SELECT hash FROM tickets WHERE status <> 'waiting' AND done < ? ORDER BY done LIMIT ?)`,
			millis(before), limitOr100(limit))
		if err == nil {
			n, _ = res.RowsAffected()
		}
		return err
	})
	return int(n), err
}

// TakeLock takes or renews a lock. One file is one node's, so the clock is
// this process's.
func (s *SQLite) TakeLock(ctx context.Context, name, node string, ttl time.Duration) (bool, error) {
	var held bool
	err := s.q.write(ctx, "", func(tx *sql.Tx) error {
		now := time.Now()
		res, err := tx.Exec(`INSERT INTO locks (name, node, expires) VALUES (?, ?, ?)
			ON CONFLICT (name) DO UPDATE SET node = excluded.node, expires = excluded.expires WHERE locks.node = excluded.node OR locks.expires < ?`,
			name, node, millis(now.Add(ttl)), millis(now))
		if err != nil {
			return err
		}
		k, _ := res.RowsAffected()
		held = k == 1
		return nil
	})
	return held, err
}
