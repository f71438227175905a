package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
)

var _ Accounts = (*Postgres)(nil)

// Several nodes write accounts at once. A write that needs an account to
// exist (a passkey, a follow, a block, an invitation) locks its row FOR
// KEY SHARE, and DeleteAccount locks it FOR UPDATE before anything else:
// whichever comes second sees the other's work whole (a follow of an
// account deleted meanwhile is refused; a passkey added before the
// deletion is deleted with it). The accounts' writes name no match to the
// queue, so they come first in their batch, before the matches' rows are
// locked; DeleteAccount, the one write that locks many matches, runs in a
// transaction of its own and locks them in the order of their ids, as
// every batch does.

// accountExists is a condition that account $n exists, holding it until
// the commit.
func accountExists(n int) string {
	return fmt.Sprintf(`EXISTS (SELECT 1 FROM accounts WHERE id = $%d FOR KEY SHARE)`, n)
}

// scanOne reads the row of a statement that returns one when it writes.
func scanOne(r pgx.Row) error {
	var one int
	return r.Scan(&one)
}

// pgAccountsExist returns [ErrNoAccount] unless every one of ids is an
// account.
func pgAccountsExist(ctx context.Context, tx pgx.Tx, ids ...string) error {
	for _, id := range ids {
		var found bool
		if err := tx.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM accounts WHERE id = $1)`, id).Scan(&found); err != nil {
			return err
		}
		if !found {
			return noAccount(id)
		}
	}
	return nil
}

func scanPgAccount(row pgx.Row) (*Account, error) {
	var a Account
	if err := row.Scan(&a.ID, &a.Name, &a.Email, &a.Lang, &a.Handle, &a.Created); err != nil {
		return nil, err
	}
	return &a, nil
}

// account reads one account by the query's condition.
func (s *Postgres) account(ctx context.Context, what, cond string, arg any) (*Account, error) {
	ctx, cancel := s.read(ctx)
	defer cancel()
	a, err := scanPgAccount(s.pool.QueryRow(ctx, `SELECT `+accountColumns+` FROM accounts WHERE `+cond, arg))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, noAccount(what)
	}
	return a, s.fault(err)
}

// CreateAccount stores a new account.
func (s *Postgres) CreateAccount(ctx context.Context, a *Account) error {
	if err := checkAccount(a); err != nil {
		return err
	}
	return s.write(ctx, "", &pgOp{
		sql:     `INSERT INTO accounts (` + accountColumns + `) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
		args:    []any{a.ID, a.Name, canonicalEmail(a.Email), a.Lang, a.Handle, a.Created},
		refusal: func(context.Context, pgx.Tx) error { return takenAccount(a.ID) },
	})
}

// Account returns an account by id.
func (s *Postgres) Account(ctx context.Context, id string) (*Account, error) {
	return s.account(ctx, id, `id = $1`, id)
}

// AccountByEmail returns the account of an e-mail address, in any case.
func (s *Postgres) AccountByEmail(ctx context.Context, email string) (*Account, error) {
	if email == "" {
		return nil, noAccount("of no e-mail address")
	}
	return s.account(ctx, "of that e-mail address", `email = $1`, canonicalEmail(email))
}

// AccountByHandle returns the account of a WebAuthn user handle.
func (s *Postgres) AccountByHandle(ctx context.Context, handle []byte) (*Account, error) {
	return s.account(ctx, "of that handle", `handle = $1`, handle)
}

// UpdateAccount sets an account's name, e-mail address and language.
func (s *Postgres) UpdateAccount(ctx context.Context, a *Account) error {
	return s.write(ctx, "", &pgOp{
		sql: `UPDATE accounts SET name = $2, email = $3, lang = $4 WHERE id = $1
			AND ($3 = '' OR NOT EXISTS (SELECT 1 FROM accounts o WHERE o.email = $3 AND o.id <> $1))`,
		args: []any{a.ID, a.Name, canonicalEmail(a.Email), a.Lang},
		refusal: func(ctx context.Context, tx pgx.Tx) error {
			if err := pgAccountsExist(ctx, tx, a.ID); err != nil {
				return err
			}
			return takenAccount(a.ID)
		},
	})
}

// DeleteAccount deletes an account and everything of it; its seats stay,
// a deleted player's. A match whose seats do not read back (damaged) keeps
// them as they are: nobody can read them, and one such row must not keep
// a player from leaving.
func (s *Postgres) DeleteAccount(ctx context.Context, id string) error {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		var email string
		err := tx.QueryRow(ctx, `SELECT email FROM accounts WHERE id = $1 FOR UPDATE`, id).Scan(&email)
		if errors.Is(err, pgx.ErrNoRows) {
			return noAccount(id)
		}
		if err != nil {
			return err
		}
		// Every match written below is locked now, in id order: those
		// whose seats it holds, and those it created.
		rows, err := tx.Query(ctx, `SELECT id, seats::text FROM matches
			WHERE id IN (SELECT match_id FROM seat_accounts WHERE account = $1) OR account = $1 AND account <> ''
			ORDER BY id FOR NO KEY UPDATE`, id)
		if err != nil {
			return err
		}
		held, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) ([2]string, error) {
			var m [2]string
			return m, r.Scan(&m[0], &m[1])
		})
		if err != nil {
			return err
		}
		b := &pgx.Batch{}
		for _, m := range held {
			seats, err := decodeSeats(m[1])
			if err != nil || !forgetAccount(seats, id) {
				continue
			}
			enc, err := encodeSeats(seats)
			if err != nil {
				return err
			}
			b.Queue(`UPDATE matches SET seats = $2::jsonb WHERE id = $1`, m[0], enc)
		}
		for _, q := range []string{
			`DELETE FROM seat_accounts WHERE account = $1`,
			`UPDATE matches SET account = '' WHERE account = $1 AND account <> ''`, // (which the partial index needs said)
			`DELETE FROM passkeys WHERE account = $1`,
			`DELETE FROM sessions WHERE account = $1 AND account <> ''`,
			`DELETE FROM invitations WHERE account = $1 OR from_account = $1`,
			`DELETE FROM follows WHERE from_account = $1 OR to_account = $1`,
			`DELETE FROM blocks WHERE from_account = $1 OR to_account = $1`,
			`DELETE FROM ratings WHERE player = $1`,
			`DELETE FROM rating_history WHERE player = $1`,
			postgresNotifyDeletes[0], postgresNotifyDeletes[1], postgresNotifyDeletes[2],
			`DELETE FROM accounts WHERE id = $1`,
		} {
			b.Queue(q, id)
		}
		if email != "" {
			b.Queue(`DELETE FROM sign_in_tokens WHERE email = $1`, email)
		}
		br := tx.SendBatch(ctx, b)
		for range b.Len() {
			if _, err := br.Exec(); err != nil {
				br.Close()
				return err
			}
		}
		return br.Close()
	})
	return s.fault(err)
}

// AddPasskey stores a passkey of an account.
func (s *Postgres) AddPasskey(ctx context.Context, p *Passkey) error {
	if err := checkPasskey(p); err != nil {
		return err
	}
	return s.write(ctx, "", &pgOp{
		sql: `INSERT INTO passkeys (id, account, name, credential, created, used)
			SELECT $1::bytea, $2::text, $3::text, $4::bytea, $5::timestamptz, $6::timestamptz WHERE ` + accountExists(2) + `
			ON CONFLICT (id) DO NOTHING`,
		args: []any{p.ID, p.Account, p.Name, nonNil(p.Credential), p.Created, orNull(p.Used)},
		refusal: func(ctx context.Context, tx pgx.Tx) error {
			if err := pgAccountsExist(ctx, tx, p.Account); err != nil {
				return err
			}
			return takenPasskey(p.Account)
		},
	})
}

func scanPgPasskey(row pgx.Row) (*Passkey, error) {
	var p Passkey
	var used *time.Time
	if err := row.Scan(&p.ID, &p.Account, &p.Name, &p.Credential, &p.Created, &used); err != nil {
		return nil, err
	}
	if used != nil {
		p.Used = *used
	}
	return &p, nil
}

// Passkeys returns an account's passkeys, oldest first.
func (s *Postgres) Passkeys(ctx context.Context, account string) ([]*Passkey, error) {
	ctx, cancel := s.read(ctx)
	defer cancel()
	rows, err := s.pool.Query(ctx, `SELECT `+passkeyColumns+` FROM passkeys WHERE account = $1 ORDER BY created, id`, account)
	if err != nil {
		return nil, s.fault(err)
	}
	ps, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (*Passkey, error) { return scanPgPasskey(r) })
	return ps, s.fault(err)
}

// PasskeyByID returns a passkey by its id.
func (s *Postgres) PasskeyByID(ctx context.Context, id []byte) (*Passkey, error) {
	ctx, cancel := s.read(ctx)
	defer cancel()
	p, err := scanPgPasskey(s.pool.QueryRow(ctx, `SELECT `+passkeyColumns+` FROM passkeys WHERE id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, noAccount("of that passkey")
	}
	return p, s.fault(err)
}

// UpdatePasskey sets one of an account's passkeys' name, credential and
// last use.
func (s *Postgres) UpdatePasskey(ctx context.Context, p *Passkey) error {
	return s.write(ctx, "", &pgOp{
		sql:     `UPDATE passkeys SET name = $3, credential = $4, used = $5 WHERE id = $1 AND account = $2`,
		args:    []any{p.ID, p.Account, p.Name, nonNil(p.Credential), orNull(p.Used)},
		refusal: func(context.Context, pgx.Tx) error { return noPasskey(p.Account) },
	})
}

// DeletePasskey deletes one of an account's passkeys.
func (s *Postgres) DeletePasskey(ctx context.Context, account string, id []byte) error {
	return s.write(ctx, "", &pgOp{
		sql:     `DELETE FROM passkeys WHERE id = $1 AND account = $2`,
		args:    []any{id, account},
		refusal: func(context.Context, pgx.Tx) error { return noPasskey(account) },
	})
}

// FindSession returns a session's data unless it has expired (by this
// node's clock, which made its expiry).
func (s *Postgres) FindSession(ctx context.Context, hash []byte) ([]byte, bool, error) {
	ctx, cancel := s.read(ctx)
	defer cancel()
	var data []byte
	err := s.pool.QueryRow(ctx, `SELECT data FROM sessions WHERE hash = $1 AND expiry > $2`, hash, time.Now()).Scan(&data)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, s.fault(err)
	}
	return data, true, nil
}

// CommitSession stores a session, made or replaced.
func (s *Postgres) CommitSession(ctx context.Context, hash, data []byte, account string, expiry time.Time) error {
	if len(hash) == 0 {
		return errors.New("store: a session needs its token's hash")
	}
	return s.write(ctx, "", &pgOp{
		sql: `INSERT INTO sessions (hash, data, account, expiry) VALUES ($1, $2, $3, $4)
			ON CONFLICT (hash) DO UPDATE SET data = excluded.data, account = excluded.account, expiry = excluded.expiry`,
		args: []any{hash, nonNil(data), account, expiry},
	})
}

// DeleteSession deletes a session.
func (s *Postgres) DeleteSession(ctx context.Context, hash []byte) error {
	return s.write(ctx, "", &pgOp{sql: `DELETE FROM sessions WHERE hash = $1`, args: []any{hash}})
}

// DeleteSessionsOf deletes every session signed in to an account.
func (s *Postgres) DeleteSessionsOf(ctx context.Context, account string) (int, error) {
	if account == "" {
		return 0, nil // the sessions of nobody in particular are not one account's
	}
	var n int
	err := s.write(ctx, "", &pgOp{
		sql:  `WITH d AS (DELETE FROM sessions WHERE account = $1 AND account <> '' RETURNING 1) SELECT count(*) FROM d`,
		args: []any{account},
		scan: func(r pgx.Row) error { return r.Scan(&n) },
	})
	return n, err
}

// PruneSessions deletes up to limit (100 if not above 0) sessions and
// sign-in tokens, in all, past their time at now: sessions first, the
// soonest expired first. Rows another node is pruning are left to it.
func (s *Postgres) PruneSessions(ctx context.Context, now time.Time, limit int) (int, error) {
	var n int
	err := s.write(ctx, "", &pgOp{
		sql: `WITH s AS (DELETE FROM sessions WHERE hash IN (SELECT hash FROM sessions WHERE expiry <= $1
				ORDER BY expiry LIMIT $2 FOR UPDATE SKIP LOCKED) RETURNING 1),
			t AS (DELETE FROM sign_in_tokens WHERE hash IN (SELECT hash FROM sign_in_tokens WHERE expires <= $1
				ORDER BY expires LIMIT $2 - (SELECT count(*) FROM s) FOR UPDATE SKIP LOCKED) RETURNING 1)
			SELECT (SELECT count(*) FROM s) + (SELECT count(*) FROM t)`,
		args: []any{now, limitOr100(limit)},
		scan: func(r pgx.Row) error { return r.Scan(&n) },
	})
	return n, err
}

// PutSignInToken keeps a sign-in link's token until it expires.
func (s *Postgres) PutSignInToken(ctx context.Context, hash []byte, email string, expires time.Time) error {
	if len(hash) == 0 || email == "" {
		return errors.New("store: a sign-in token needs its hash and an e-mail address")
	}
	return s.write(ctx, "", &pgOp{
		sql: `INSERT INTO sign_in_tokens (hash, email, expires) VALUES ($1, $2, $3)
			ON CONFLICT (hash) DO UPDATE SET email = excluded.email, expires = excluded.expires`,
		args: []any{hash, canonicalEmail(email), expires},
	})
}

// TakeSignInToken uses a sign-in token once. Of two nodes deleting the
// same row at once, the second waits for the first's commit and then finds
// nothing to delete.
func (s *Postgres) TakeSignInToken(ctx context.Context, hash []byte, now time.Time) (string, error) {
	var email string
	err := s.write(ctx, "", &pgOp{
		sql:     `DELETE FROM sign_in_tokens WHERE hash = $1 AND expires > $2 RETURNING email`,
		args:    []any{hash, now},
		scan:    func(r pgx.Row) error { return r.Scan(&email) },
		refusal: func(context.Context, pgx.Tx) error { return errNoToken },
	})
	if err != nil {
		return "", err
	}
	return email, nil
}

// HeldSeats returns the seats an account holds in the matches the filter
// keeps, newest match first (its seats in order); the limit bounds the
// seats.
func (s *Postgres) HeldSeats(ctx context.Context, account string, f Filter) ([]HeldSeat, error) {
	ctx, cancel := s.read(ctx)
	defer cancel()
	rows, err := s.pool.Query(ctx, `SELECT `+pgMatchColumns+`, sa.seat FROM seat_accounts sa JOIN matches m ON m.id = sa.match_id
		WHERE sa.account = $4 AND `+pgFilter+` ORDER BY m.created DESC, m.id, sa.seat LIMIT $3`,
		statusStrings(f.Statuses), f.Game, limitOr100(f.Limit), account)
	if err != nil {
		return nil, s.fault(err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (HeldSeat, error) {
		var h HeldSeat
		var err error
		h.Match, err = scanPgMatch(r, &h.Seat)
		return h, err
	})
	return out, s.fault(err)
}

// Invite keeps a seat of a match for an account.
func (s *Postgres) Invite(ctx context.Context, inv Invitation) error {
	if err := checkInvitation(inv); err != nil {
		return err
	}
	return s.write(ctx, "", &pgOp{
		sql: `INSERT INTO invitations (match_id, seat, account, from_account, created)
			SELECT m.id, $2::int, $3::text, $4::text, $5::timestamptz FROM matches m
			WHERE m.id = $1 AND $2::int >= 0 AND $2::int < jsonb_array_length(m.seats) AND ` + accountExists(3) + ` AND ` + accountExists(4) + `
			FOR KEY SHARE OF m
			ON CONFLICT (match_id, seat) DO UPDATE SET account = excluded.account, from_account = excluded.from_account, created = excluded.created`,
		args: []any{inv.Match, inv.Seat, inv.Account, inv.From, inv.Created},
		refusal: func(ctx context.Context, tx pgx.Tx) error {
			var seats int
			err := tx.QueryRow(ctx, `SELECT jsonb_array_length(seats) FROM matches WHERE id = $1`, inv.Match).Scan(&seats)
			if errors.Is(err, pgx.ErrNoRows) {
				return fmt.Errorf("%w: %s", ErrNotFound, inv.Match)
			}
			if err != nil {
				return err
			}
			if inv.Seat < 0 || inv.Seat >= seats {
				return badSeat(inv.Match, inv.Seat)
			}
			return pgAccountsExist(ctx, tx, inv.Account, inv.From)
		},
	})
}

// Uninvite drops a seat's invitation.
func (s *Postgres) Uninvite(ctx context.Context, match string, seat int) error {
	return s.write(ctx, "", &pgOp{sql: `DELETE FROM invitations WHERE match_id = $1 AND seat = $2`, args: []any{match, seat}})
}

// FindAccounts returns the accounts whose name holds query.
func (s *Postgres) FindAccounts(ctx context.Context, query string, limit int) ([]AccountName, error) {
	ctx, cancel := s.read(ctx)
	defer cancel()
	rows, err := s.pool.Query(ctx, `SELECT id, name FROM accounts`)
	if err != nil {
		return nil, s.fault(err)
	}
	all, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (AccountName, error) {
		var a AccountName
		err := r.Scan(&a.ID, &a.Name)
		return a, err
	})
	if err != nil {
		return nil, s.fault(err)
	}
	return findAccounts(all, query, limit), nil
}

// Rematch records a match's rematch unless one is recorded already.
func (s *Postgres) Rematch(ctx context.Context, match, rematch string) (string, error) {
	var held string
	read := func(ctx context.Context, q interface {
		QueryRow(context.Context, string, ...any) pgx.Row
	}) error {
		err := q.QueryRow(ctx, `SELECT rematch_id FROM rematches WHERE match_id = $1`, match).Scan(&held)
		if errors.Is(err, pgx.ErrNoRows) {
			held, err = "", nil
		}
		return err
	}
	if rematch == "" {
		ctx, cancel := s.read(ctx)
		defer cancel()
		return held, s.fault(read(ctx, s.pool))
	}
	err := s.tx(ctx, func(ctx context.Context, tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO rematches (match_id, rematch_id) VALUES ($1, $2) ON CONFLICT (match_id) DO NOTHING`, match, rematch); err != nil {
			return err
		}
		return read(ctx, tx)
	})
	return held, err
}

// Invitations returns the invitations an account received, newest first.
func (s *Postgres) Invitations(ctx context.Context, account string) ([]Invitation, error) {
	ctx, cancel := s.read(ctx)
	defer cancel()
	rows, err := s.pool.Query(ctx, `SELECT match_id, seat, account, from_account, created FROM invitations
		WHERE account = $1 ORDER BY created DESC, match_id, seat`, account)
	if err != nil {
		return nil, s.fault(err)
	}
	out, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Invitation, error) {
		var inv Invitation
		return inv, r.Scan(&inv.Match, &inv.Seat, &inv.Account, &inv.From, &inv.Created)
	})
	return out, s.fault(err)
}

// Follow has from follow to.
func (s *Postgres) Follow(ctx context.Context, from, to string) error {
	if err := checkPair("follow", from, to); err != nil {
		return err
	}
	return s.write(ctx, "", &pgOp{
		sql: `INSERT INTO follows (from_account, to_account, created)
			SELECT $1::text, $2::text, $3::timestamptz WHERE ` + accountExists(1) + ` AND ` + accountExists(2) + `
			ON CONFLICT DO NOTHING`,
		args: []any{from, to, time.Now()},
		refusal: func(ctx context.Context, tx pgx.Tx) error {
			return pgAccountsExist(ctx, tx, from, to) // both: the follow was there already
		},
	})
}

// Unfollow has from follow to no more.
func (s *Postgres) Unfollow(ctx context.Context, from, to string) error {
	return s.write(ctx, "", &pgOp{sql: `DELETE FROM follows WHERE from_account = $1 AND to_account = $2`, args: []any{from, to}})
}

// Block has from block to, and ends each one's following of the other.
func (s *Postgres) Block(ctx context.Context, from, to string) error {
	if err := checkPair("block", from, to); err != nil {
		return err
	}
	return s.write(ctx, "", &pgOp{
		sql: `WITH ok AS (SELECT 1 WHERE ` + accountExists(1) + ` AND ` + accountExists(2) + `),
			b AS (INSERT INTO blocks (from_account, to_account, created) SELECT $1::text, $2::text, $3::timestamptz FROM ok
				ON CONFLICT DO NOTHING),
			f AS (DELETE FROM follows WHERE EXISTS (SELECT 1 FROM ok)
				AND (from_account = $1 AND to_account = $2 OR from_account = $2 AND to_account = $1))
			SELECT 1 FROM ok`,
		args:    []any{from, to, time.Now()},
		scan:    scanOne,
		refusal: func(ctx context.Context, tx pgx.Tx) error { return pgAccountsExist(ctx, tx, from, to) },
	})
}

// Unblock has from block to no more.
func (s *Postgres) Unblock(ctx context.Context, from, to string) error {
	return s.write(ctx, "", &pgOp{sql: `DELETE FROM blocks WHERE from_account = $1 AND to_account = $2`, args: []any{from, to}})
}

// Relations returns an account's follows, followers and blocks, each the
// oldest first.
func (s *Postgres) Relations(ctx context.Context, account string) (Relations, error) {
	ctx, cancel := s.read(ctx)
	defer cancel()
	var r Relations
	rows, err := s.pool.Query(ctx, relationsQuery, account)
	if err != nil {
		return r, s.fault(err)
	}
	defer rows.Close()
	for rows.Next() {
		var kind, id string
		var created time.Time
		if err := rows.Scan(&kind, &id, &created); err != nil {
			return Relations{}, s.fault(err)
		}
		r.add(kind, id)
	}
	if err := rows.Err(); err != nil {
		return Relations{}, s.fault(err)
	}
	return r, nil
}

// Blocks reports whether from blocks to.
func (s *Postgres) Blocks(ctx context.Context, from, to string) (bool, error) {
	ctx, cancel := s.read(ctx)
	defer cancel()
	var b bool
	err := s.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM blocks WHERE from_account = $1 AND to_account = $2)`, from, to).Scan(&b)
	return b, s.fault(err)
}

// orNull gives NULL for the zero time.
func orNull(t time.Time) *time.Time {
	if t.IsZero() {
		return nil
	}
	return &t
}
