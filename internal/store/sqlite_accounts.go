package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

var _ Accounts = (*SQLite)(nil)

// The accounts' writes go through the one writer as the matches' do; they
// name no match to the queue.

const accountColumns = `id, name, email, lang, handle, created`

func scanAccount(row scanner) (*Account, error) {
	var a Account
	var created int64
	if err := row.Scan(&a.ID, &a.Name, &a.Email, &a.Lang, &a.Handle, &created); err != nil {
		return nil, err
	}
	a.Created = fromMillis(created)
	return &a, nil
}

// account reads one account by the query's condition.
func (s *SQLite) account(ctx context.Context, what, cond string, arg any) (*Account, error) {
	a, err := scanAccount(s.r.QueryRowContext(ctx, `SELECT `+accountColumns+` FROM accounts WHERE `+cond, arg))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, noAccount(what)
	}
	return a, s.fault(err)
}

// exists reports whether tx holds a row that query (SELECT 1 ...) finds.
func exists(tx *sql.Tx, query string, args ...any) (bool, error) {
	var one int
	err := tx.QueryRow(query, args...).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// accountsExist returns [ErrNoAccount] unless every one of ids is an
// account.
func accountsExist(tx *sql.Tx, ids ...string) error {
	for _, id := range ids {
		ok, err := exists(tx, `SELECT 1 FROM accounts WHERE id = ?`, id)
		if err != nil {
			return err
		}
		if !ok {
			return noAccount(id)
		}
	}
	return nil
}

// CreateAccount stores a new account.
func (s *SQLite) CreateAccount(ctx context.Context, a *Account) error {
	if err := checkAccount(a); err != nil {
		return err
	}
	return s.q.write(ctx, "", func(tx *sql.Tx) error {
		res, err := tx.Exec(`INSERT INTO accounts(`+accountColumns+`) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
			a.ID, a.Name, canonicalEmail(a.Email), a.Lang, a.Handle, millis(a.Created))
		if err != nil {
			return err
		}
		if k, _ := res.RowsAffected(); k != 1 {
			return takenAccount(a.ID)
		}
		return nil
	})
}

// Account returns an account by id.
func (s *SQLite) Account(ctx context.Context, id string) (*Account, error) {
	return s.account(ctx, id, `id = ?`, id)
}

// AccountByEmail returns the account of an e-mail address, in any case.
func (s *SQLite) AccountByEmail(ctx context.Context, email string) (*Account, error) {
	if email == "" {
		return nil, noAccount("of no e-mail address")
	}
	return s.account(ctx, "of that e-mail address", `email = ?`, canonicalEmail(email))
}

// AccountByHandle returns the account of a WebAuthn user handle.
func (s *SQLite) AccountByHandle(ctx context.Context, handle []byte) (*Account, error) {
	return s.account(ctx, "of that handle", `handle = ?`, handle)
}

// UpdateAccount sets an account's name, e-mail address and language.
func (s *SQLite) UpdateAccount(ctx context.Context, a *Account) error {
	email := canonicalEmail(a.Email)
	return s.q.write(ctx, "", func(tx *sql.Tx) error {
		if email != "" {
			other, err := exists(tx, `SELECT 1 FROM accounts WHERE email = ? AND id <> ?`, email, a.ID)
			if err != nil {
				return err
			}
			if other {
				return takenAccount(a.ID)
			}
		}
		res, err := tx.Exec(`UPDATE accounts SET name = ?, email = ?, lang = ? WHERE id = ?`, a.Name, email, a.Lang, a.ID)
		if err != nil {
			return err
		}
		if k, _ := res.RowsAffected(); k != 1 {
			return noAccount(a.ID)
		}
		return nil
	})
}

// DeleteAccount deletes an account and everything of it; its seats stay,
// a deleted player's. A match whose seats do not read back (damaged) keeps
// them as they are: nobody can read them, and one such row must not keep
// a player from leaving.
func (s *SQLite) DeleteAccount(ctx context.Context, id string) error {
	return s.q.write(ctx, "", func(tx *sql.Tx) error {
		var email string
		err := tx.QueryRow(`SELECT email FROM accounts WHERE id = ?`, id).Scan(&email)
		if errors.Is(err, sql.ErrNoRows) {
			return noAccount(id)
		}
		if err != nil {
			return err
		}
		rows, err := tx.Query(`SELECT id, seats FROM matches WHERE id IN (SELECT match_id FROM seat_accounts WHERE account = ?)`, id)
		if err != nil {
			return err
		}
		var held []struct{ id, seats string }
		for rows.Next() {
			var m struct{ id, seats string }
			if err := rows.Scan(&m.id, &m.seats); err != nil {
				rows.Close()
				return err
			}
			held = append(held, m)
		}
		rows.Close()
		if err := rows.Err(); err != nil {
			return err
		}
		for _, m := range held {
			seats, err := decodeSeats(m.seats)
			if err != nil || !forgetAccount(seats, id) {
				continue
			}
			enc, err := encodeSeats(seats)
			if err != nil {
				return err
			}
			if _, err := s.stmt(tx, stSetSeats).Exec(enc, m.id); err != nil {
				return err
			}
		}
		for _, q := range []string{
			`DELETE FROM seat_accounts WHERE account = ?1`,
			`UPDATE matches SET account = '' WHERE account = ?1 AND account <> ''`, // (which the partial index needs said)
			`DELETE FROM passkeys WHERE account = ?1`,
			`DELETE FROM sessions WHERE account = ?1 AND account <> ''`,
			`DELETE FROM sign_in_tokens WHERE email = ?2 AND ?2 <> ''`,
			`DELETE FROM invitations WHERE account = ?1 OR from_account = ?1`,
			`DELETE FROM follows WHERE from_account = ?1 OR to_account = ?1`,
			`DELETE FROM blocks WHERE from_account = ?1 OR to_account = ?1`,
			`DELETE FROM ratings WHERE player = ?1`,
			`DELETE FROM rating_history WHERE player = ?1`,
			sqliteNotifyDeletes[0], sqliteNotifyDeletes[1], sqliteNotifyDeletes[2],
			`DELETE FROM accounts WHERE id = ?1`,
		} {
			if _, err := tx.Exec(q, id, email); err != nil {
				return err
			}
		}
		return nil
	})
}

// AddPasskey stores a passkey of an account.
func (s *SQLite) AddPasskey(ctx context.Context, p *Passkey) error {
	if err := checkPasskey(p); err != nil {
		return err
	}
	return s.q.write(ctx, "", func(tx *sql.Tx) error {
		if err := accountsExist(tx, p.Account); err != nil {
			return err
		}
		res, err := tx.Exec(`INSERT INTO passkeys(id, account, name, credential, created, used) VALUES (?, ?, ?, ?, ?, ?)
			ON CONFLICT DO NOTHING`, p.ID, p.Account, p.Name, nonNil(p.Credential), millis(p.Created), millis(p.Used))
		if err != nil {
			return err
		}
		if k, _ := res.RowsAffected(); k != 1 {
			return takenPasskey(p.Account)
		}
		return nil
	})
}

const passkeyColumns = `id, account, name, credential, created, used`

func scanPasskey(row scanner) (*Passkey, error) {
	var p Passkey
	var created, used int64
	if err := row.Scan(&p.ID, &p.Account, &p.Name, &p.Credential, &created, &used); err != nil {
		return nil, err
	}
	p.Created, p.Used = fromMillis(created), fromMillis(used)
	return &p, nil
}

// Passkeys returns an account's passkeys, oldest first.
func (s *SQLite) Passkeys(ctx context.Context, account string) ([]*Passkey, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+passkeyColumns+` FROM passkeys WHERE account = ? ORDER BY created, id`, account)
	if err != nil {
		return nil, s.fault(err)
	}
	defer rows.Close()
	var ps []*Passkey
	for rows.Next() {
		p, err := scanPasskey(rows)
		if err != nil {
			return nil, s.fault(err)
		}
		ps = append(ps, p)
	}
	return ps, s.fault(rows.Err())
}

// PasskeyByID returns a passkey by its id.
func (s *SQLite) PasskeyByID(ctx context.Context, id []byte) (*Passkey, error) {
	p, err := scanPasskey(s.r.QueryRowContext(ctx, `SELECT `+passkeyColumns+` FROM passkeys WHERE id = ?`, id))
	if errors.Is(err, sql.ErrNoRows) {
		return nil, noAccount("of that passkey")
	}
	return p, s.fault(err)
}

// UpdatePasskey sets one of an account's passkeys' name, credential and
// last use.
func (s *SQLite) UpdatePasskey(ctx context.Context, p *Passkey) error {
	return s.q.write(ctx, "", func(tx *sql.Tx) error {
		res, err := tx.Exec(`UPDATE passkeys SET name = ?, credential = ?, used = ? WHERE id = ? AND account = ?`,
			p.Name, nonNil(p.Credential), millis(p.Used), p.ID, p.Account)
		if err != nil {
			return err
		}
		if k, _ := res.RowsAffected(); k != 1 {
			return noPasskey(p.Account)
		}
		return nil
	})
}

// DeletePasskey deletes one of an account's passkeys.
func (s *SQLite) DeletePasskey(ctx context.Context, account string, id []byte) error {
	return s.q.write(ctx, "", func(tx *sql.Tx) error {
		res, err := tx.Exec(`DELETE FROM passkeys WHERE id = ? AND account = ?`, id, account)
		if err != nil {
			return err
		}
		if k, _ := res.RowsAffected(); k != 1 {
			return noPasskey(account)
		}
		return nil
	})
}

// sqliteSession is the readers' prepared statement for FindSession, which
// every request of a signed-in browser runs.
const sqliteSession = `SELECT data FROM sessions WHERE hash = ? AND expiry > ?`

// FindSession returns a session's data unless it has expired (by this
// node's clock).
func (s *SQLite) FindSession(ctx context.Context, hash []byte) ([]byte, bool, error) {
	var data []byte
	err := s.sessionStmt.QueryRowContext(ctx, hash, time.Now().UnixMilli()).Scan(&data)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, s.fault(err)
	}
	return data, true, nil
}

// CommitSession stores a session, made or replaced.
func (s *SQLite) CommitSession(ctx context.Context, hash, data []byte, account string, expiry time.Time) error {
	if len(hash) == 0 {
		return errors.New("store: a session needs its token's hash")
	}
	return s.q.write(ctx, "", func(tx *sql.Tx) error {
		_, err := tx.Exec(`INSERT INTO sessions(hash, data, account, expiry) VALUES (?, ?, ?, ?)
			ON CONFLICT(hash) DO UPDATE SET data = excluded.data, account = excluded.account, expiry = excluded.expiry`,
			hash, nonNil(data), account, expiry.UnixMilli())
		return err
	})
}

// DeleteSession deletes a session.
func (s *SQLite) DeleteSession(ctx context.Context, hash []byte) error {
	return s.q.write(ctx, "", func(tx *sql.Tx) error {
		_, err := tx.Exec(`DELETE FROM sessions WHERE hash = ?`, hash)
		return err
	})
}

// DeleteSessionsOf deletes every session signed in to an account.
func (s *SQLite) DeleteSessionsOf(ctx context.Context, account string) (int, error) {
	if account == "" {
		return 0, nil // the sessions of nobody in particular are not one account's
	}
	var n int64
	err := s.q.write(ctx, "", func(tx *sql.Tx) error {
		res, err := tx.Exec(`DELETE FROM sessions WHERE account = ? AND account <> ''`, account)
		if err != nil {
			return err
		}
		n, err = res.RowsAffected()
		return err
	})
	return int(n), err
}

// PruneSessions deletes up to limit (100 if not above 0) sessions and
// sign-in tokens, in all, past their time at now: sessions first, the
// soonest expired first.
func (s *SQLite) PruneSessions(ctx context.Context, now time.Time, limit int) (int, error) {
	limit = limitOr100(limit)
	var n int
	err := s.q.write(ctx, "", func(tx *sql.Tx) error {
		n = 0
		for _, q := range []string{
			`DELETE FROM sessions WHERE hash IN (SELECT hash FROM sessions WHERE expiry <= ? ORDER BY expiry LIMIT ?)`,
			`DELETE FROM sign_in_tokens WHERE hash IN (SELECT hash FROM sign_in_tokens WHERE expires <= ? ORDER BY expires LIMIT ?)`,
		} {
			res, err := tx.Exec(q, now.UnixMilli(), limit-n)
			if err != nil {
				return err
			}
			k, err := res.RowsAffected()
			if err != nil {
				return err
			}
			n += int(k)
		}
		return nil
	})
	return n, err
}

// PutSignInToken keeps a sign-in link's token until it expires.
func (s *SQLite) PutSignInToken(ctx context.Context, hash []byte, email string, expires time.Time) error {
	if len(hash) == 0 || email == "" {
		return errors.New("store: a sign-in token needs its hash and an e-mail address")
	}
	return s.q.write(ctx, "", func(tx *sql.Tx) error {
		_, err := tx.Exec(`INSERT INTO sign_in_tokens(hash, email, expires) VALUES (?, ?, ?)
			ON CONFLICT(hash) DO UPDATE SET email = excluded.email, expires = excluded.expires`,
			hash, canonicalEmail(email), expires.UnixMilli())
		return err
	})
}

// TakeSignInToken uses a sign-in token once. The writer deletes it in the
// same statement that reads it, and SQLite lets one writer at a time at
// the file, whichever process it is in.
func (s *SQLite) TakeSignInToken(ctx context.Context, hash []byte, now time.Time) (string, error) {
	var email string
	err := s.q.write(ctx, "", func(tx *sql.Tx) error {
		err := tx.QueryRow(`DELETE FROM sign_in_tokens WHERE hash = ? AND expires > ? RETURNING email`, hash, now.UnixMilli()).Scan(&email)
		if errors.Is(err, sql.ErrNoRows) {
			return errNoToken
		}
		return err
	})
	if err != nil {
		return "", err
	}
	return email, nil
}

// HeldSeats returns the seats an account holds in the matches the filter
// keeps, newest match first (its seats in order); the limit bounds the
// seats.
func (s *SQLite) HeldSeats(ctx context.Context, account string, f Filter) ([]HeldSeat, error) {
	cond, args := sqliteFilter(f, []any{account})
	rows, err := s.r.QueryContext(ctx, `SELECT `+matchColumns+`, sa.seat FROM seat_accounts sa JOIN matches m ON m.id = sa.match_id
		WHERE sa.account = ?`+cond+` ORDER BY m.created DESC, m.id, sa.seat LIMIT ?`, append(args, limitOr100(f.Limit))...)
	if err != nil {
		return nil, s.fault(err)
	}
	defer rows.Close()
	var out []HeldSeat
	for rows.Next() {
		var h HeldSeat
		if h.Match, err = scanMatch(rows, &h.Seat); err != nil {
			return nil, s.fault(err)
		}
		out = append(out, h)
	}
	return out, s.fault(rows.Err())
}

// Invite keeps a seat of a match for an account.
func (s *SQLite) Invite(ctx context.Context, inv Invitation) error {
	if err := checkInvitation(inv); err != nil {
		return err
	}
	return s.q.write(ctx, "", func(tx *sql.Tx) error {
		var seats int
		err := tx.QueryRow(`SELECT json_array_length(seats) FROM matches WHERE id = ?`, inv.Match).Scan(&seats)
		if errors.Is(err, sql.ErrNoRows) {
			return fmt.Errorf("%w: %s", ErrNotFound, inv.Match)
		}
		if err != nil {
			return err
		}
		if inv.Seat < 0 || inv.Seat >= seats {
			return badSeat(inv.Match, inv.Seat)
		}
		if err := accountsExist(tx, inv.Account, inv.From); err != nil {
			return err
		}
		_, err = tx.Exec(`INSERT INTO invitations(match_id, seat, account, from_account, created) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT(match_id, seat) DO UPDATE SET account = excluded.account, from_account = excluded.from_account, created = excluded.created`,
			inv.Match, inv.Seat, inv.Account, inv.From, millis(inv.Created))
		return err
	})
}

// Uninvite drops a seat's invitation.
func (s *SQLite) Uninvite(ctx context.Context, match string, seat int) error {
	return s.q.write(ctx, "", func(tx *sql.Tx) error {
		_, err := tx.Exec(`DELETE FROM invitations WHERE match_id = ? AND seat = ?`, match, seat)
		return err
	})
}

// FindAccounts returns the accounts whose name holds query.
func (s *SQLite) FindAccounts(ctx context.Context, query string, limit int) ([]AccountName, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT id, name FROM accounts`)
	if err != nil {
		return nil, s.fault(err)
	}
	defer rows.Close()
	var all []AccountName
	for rows.Next() {
		var a AccountName
		if err := rows.Scan(&a.ID, &a.Name); err != nil {
			return nil, s.fault(err)
		}
		all = append(all, a)
	}
	if err := rows.Err(); err != nil {
		return nil, s.fault(err)
	}
	return findAccounts(all, query, limit), nil
}

// Rematch records a match's rematch unless one is recorded already.
func (s *SQLite) Rematch(ctx context.Context, match, rematch string) (string, error) {
	var held string
	read := func(q interface {
		QueryRowContext(context.Context, string, ...any) *sql.Row
	}) error {
		err := q.QueryRowContext(ctx, `SELECT rematch_id FROM rematches WHERE match_id = ?`, match).Scan(&held)
		if errors.Is(err, sql.ErrNoRows) {
			held, err = "", nil
		}
		return err
	}
	if rematch == "" {
		return held, s.fault(read(s.r))
	}
	err := s.q.write(ctx, "", func(tx *sql.Tx) error {
		if _, err := tx.Exec(`INSERT OR IGNORE INTO rematches (match_id, rematch_id) VALUES (?, ?)`, match, rematch); err != nil {
			return err
		}
		return read(tx)
	})
	return held, err
}

// Invitations returns the invitations an account received, newest first.
func (s *SQLite) Invitations(ctx context.Context, account string) ([]Invitation, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT match_id, seat, account, from_account, created FROM invitations
		WHERE account = ? ORDER BY created DESC, match_id, seat`, account)
	if err != nil {
		return nil, s.fault(err)
	}
	defer rows.Close()
	var out []Invitation
	for rows.Next() {
		var inv Invitation
		var created int64
		if err := rows.Scan(&inv.Match, &inv.Seat, &inv.Account, &inv.From, &created); err != nil {
			return nil, s.fault(err)
		}
		inv.Created = fromMillis(created)
		out = append(out, inv)
	}
	return out, s.fault(rows.Err())
}

// Follow has from follow to.
func (s *SQLite) Follow(ctx context.Context, from, to string) error {
	if err := checkPair("follow", from, to); err != nil {
		return err
	}
	return s.q.write(ctx, "", func(tx *sql.Tx) error {
		if err := accountsExist(tx, from, to); err != nil {
			return err
		}
		_, err := tx.Exec(`INSERT INTO follows(from_account, to_account, created) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`,
			from, to, time.Now().UnixMilli())
		return err
	})
}

// Unfollow has from follow to no more.
func (s *SQLite) Unfollow(ctx context.Context, from, to string) error {
	return s.q.write(ctx, "", func(tx *sql.Tx) error {
		_, err := tx.Exec(`DELETE FROM follows WHERE from_account = ? AND to_account = ?`, from, to)
		return err
	})
}

// Block has from block to, and ends each one's following of the other.
func (s *SQLite) Block(ctx context.Context, from, to string) error {
	if err := checkPair("block", from, to); err != nil {
		return err
	}
	return s.q.write(ctx, "", func(tx *sql.Tx) error {
		if err := accountsExist(tx, from, to); err != nil {
			return err
		}
		if _, err := tx.Exec(`INSERT INTO blocks(from_account, to_account, created) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`,
			from, to, time.Now().UnixMilli()); err != nil {
			return err
		}
		_, err := tx.Exec(`DELETE FROM follows WHERE (from_account = ?1 AND to_account = ?2) OR (from_account = ?2 AND to_account = ?1)`, from, to)
		return err
	})
}

// Unblock has from block to no more.
func (s *SQLite) Unblock(ctx context.Context, from, to string) error {
	return s.q.write(ctx, "", func(tx *sql.Tx) error {
		_, err := tx.Exec(`DELETE FROM blocks WHERE from_account = ? AND to_account = ?`, from, to)
		return err
	})
}

// Relations returns an account's follows, followers and blocks, each the
// oldest first.
func (s *SQLite) Relations(ctx context.Context, account string) (Relations, error) {
	var r Relations
	rows, err := s.r.QueryContext(ctx, relationsQuery, account)
	if err != nil {
		return r, s.fault(err)
	}
	defer rows.Close()
	for rows.Next() {
		var kind, id string
		var created int64
		if err := rows.Scan(&kind, &id, &created); err != nil {
			return Relations{}, s.fault(err)
		}
		r.add(kind, id)
	}
	return r, s.fault(rows.Err())
}

// relationsQuery lists an account's ($1) relations, kind by kind, each the
// oldest first; both databases take it.
const relationsQuery = `SELECT '` + relFollowing + `', to_account, created FROM follows WHERE from_account = $1
	UNION ALL SELECT '` + relFollower + `', from_account, created FROM follows WHERE to_account = $1
	UNION ALL SELECT '` + relBlocked + `', to_account, created FROM blocks WHERE from_account = $1
	ORDER BY 1, 3, 2`

// Blocks reports whether from blocks to.
func (s *SQLite) Blocks(ctx context.Context, from, to string) (bool, error) {
	var one int
	err := s.r.QueryRowContext(ctx, `SELECT 1 FROM blocks WHERE from_account = ? AND to_account = ?`, from, to).Scan(&one)
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, s.fault(err)
}

// nonNil gives an empty value for nil bytes, which the drivers would store
// as NULL.
func nonNil(b []byte) []byte {
	if b == nil {
		return []byte{}
	}
	return b
}
