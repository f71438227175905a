// Accounts: the players who keep an identity, how they sign in, what they
// hold, and whom they follow or block. [Accounts] is a second interface of
// the same stores ([SQLite] and [Postgres] implement both), in the same
// database: an account's seats are seats of the matches beside them.
//
// As with tokens, no secret is kept in clear: a sign-in link's token is kept
// only as its SHA-256, a session's token as its SHA-256, and a passkey only as
// its public key. An e-mail address is kept to send links to, and never
// shown to anyone else (that is the server's to enforce).

package store

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"strings"
	"time"
	"unicode"

	"golang.org/x/text/runes"
	"golang.org/x/text/transform"
	"golang.org/x/text/unicode/norm"
)

// Account is a player who signed in at least once.
type Account struct {
	// ID names the account in addresses (/players/<id>): 12 random
	// characters of [A-Za-z0-9_-], never derived from the e-mail.
	ID string
	// Name is the display name the player chose (CheckName's rules).
	Name string
	// Email is the address sign-in links go to, in lower case (the store
	// keeps and compares it so, whatever case it is given in); empty for an
	// account that signs in with passkeys only. At most one account has a
	// given address.
	Email string
	// Lang is the player's language ("fr" or "en").
	Lang string
	// Handle is the account's WebAuthn user handle: 32 random bytes, never
	// the id (an authenticator may show it to whoever holds the device).
	Handle  []byte
	Created time.Time
}

// Passkey is one WebAuthn credential of an account.
type Passkey struct {
	// ID is the credential's id (the authenticator's).
	ID      []byte
	Account string
	// Name is what the player calls it ("Phone"), at most 40 characters.
	Name string
	// Credential is the WebAuthn library's record of the credential (its
	// public key, sign count, flags), opaque here.
	Credential []byte
	Created    time.Time
	// Used is when it last signed in (zero: never).
	Used time.Time
}

// HeldSeat is a seat of a match that an account holds, with the match.
type HeldSeat struct {
	Match *Match
	Seat  int
}

// Invitation is a seat of a match kept for an account by another.
type Invitation struct {
	Match   string
	Seat    int
	Account string // whom the seat is kept for
	From    string // the account that invited
	Created time.Time
}

// Relations are whom an account follows, who follows it, and whom it
// blocks; friends are those it follows who follow it back.
type Relations struct {
	Following, Followers, Blocked []string
}

// ErrNoAccount is returned for an account, passkey or sign-in token the
// store does not hold (or no longer: a token used or past its time).
var ErrNoAccount = errors.New("store: no such account")

// ErrTaken is returned when an account's e-mail address, or a passkey's id,
// is another's already.
var ErrTaken = errors.New("store: taken by another account")

// Accounts keeps accounts and what goes with them. Every method is safe for
// concurrent use; a write that returned nil is durable, as for [Store].
type Accounts interface {
	// CreateAccount stores a new account. An id, e-mail address or handle
	// that is another account's is an [ErrTaken].
	CreateAccount(ctx context.Context, a *Account) error
	// Account returns an account by id; AccountByEmail by address (in any
	// case), AccountByHandle by WebAuthn user handle. None: [ErrNoAccount].
	Account(ctx context.Context, id string) (*Account, error)
	AccountByEmail(ctx context.Context, email string) (*Account, error)
	AccountByHandle(ctx context.Context, handle []byte) (*Account, error)
	// UpdateAccount sets an account's name, e-mail address and language
	// (its id, handle and creation stay). An address another account has
	// is an [ErrTaken]; an unknown account an [ErrNoAccount].
	UpdateAccount(ctx context.Context, a *Account) error
	// DeleteAccount deletes an account and everything of it: passkeys,
	// sessions, the sign-in tokens pending for its address, follows and
	// blocks both ways, invitations both ways, the matches' memory of whom
	// it created ([Match.Account]), its ratings and their history (in a
	// store that keeps [Ratings]); the seats it held stay in their matches, held by nobody, marked as a deleted
	// player's ([Seat.Deleted]), their names cleared. Unknown:
	// [ErrNoAccount].
	DeleteAccount(ctx context.Context, id string) error

	// AddPasskey stores a passkey (an id another passkey has: [ErrTaken];
	// an unknown account: [ErrNoAccount]).
	AddPasskey(ctx context.Context, p *Passkey) error
	// Passkeys returns an account's passkeys, oldest first.
	Passkeys(ctx context.Context, account string) ([]*Passkey, error)
	// PasskeyByID returns a passkey by its id ([ErrNoAccount] if none).
	PasskeyByID(ctx context.Context, id []byte) (*Passkey, error)
	// UpdatePasskey sets a passkey's name, credential and last use; it
	// must be the account's ([ErrNoAccount] otherwise).
	UpdatePasskey(ctx context.Context, p *Passkey) error
	// DeletePasskey deletes one of an account's passkeys ([ErrNoAccount]
	// if the account has no such passkey).
	DeletePasskey(ctx context.Context, account string, id []byte) error

	// Sessions keep what a signed-in browser (or one signing in) holds, by
	// the SHA-256 of its token; the session library's data is opaque here.
	// FindSession returns a session's data unless it is past its expiry.
	FindSession(ctx context.Context, hash []byte) (data []byte, found bool, err error)
	// CommitSession stores a session's data and expiry (made or replaced),
	// and the account it is signed in to ("" for none), so that an
	// account's sessions can be deleted with it.
	CommitSession(ctx context.Context, hash, data []byte, account string, expiry time.Time) error
	// DeleteSession deletes a session (none: no error).
	DeleteSession(ctx context.Context, hash []byte) error
	// DeleteSessionsOf deletes every session signed in to an account (sign
	// out everywhere), and returns how many (none for account "").
	DeleteSessionsOf(ctx context.Context, account string) (int, error)
	// PruneSessions deletes up to limit (0: 100) sessions past their expiry
	// and sign-in tokens past theirs, in all, and returns how many.
	PruneSessions(ctx context.Context, now time.Time, limit int) (int, error)

	// PutSignInToken keeps a sign-in link's token (its SHA-256) for an
	// e-mail address (in lower case) until expires, replacing what the same
	// hash held.
	PutSignInToken(ctx context.Context, hash []byte, email string, expires time.Time) error
	// TakeSignInToken uses a sign-in token once: it returns its address and
	// deletes it, if it is held and not past its time at now; otherwise
	// [ErrNoAccount], and a token used once is never taken again, by any
	// node.
	TakeSignInToken(ctx context.Context, hash []byte, now time.Time) (email string, err error)

	// HeldSeats returns the seats an account holds ([Seat.Account], as
	// [Store.Create] and [Store.SetSeat] wrote them) in the matches the
	// filter keeps, newest match first (a match's seats in order), each
	// with its match (without log); the filter's limit bounds the seats.
	HeldSeats(ctx context.Context, account string, f Filter) ([]HeldSeat, error)

	// Invite keeps seat of a match for an account (replacing an
	// invitation of the same seat): a match the store does not hold is an
	// [ErrNotFound], a seat out of range an [ErrConflict], an unknown
	// account (invited or inviting) an [ErrNoAccount]. Uninvite drops a
	// seat's invitation (none: no error).
	Invite(ctx context.Context, inv Invitation) error
	Uninvite(ctx context.Context, match string, seat int) error
	// Invitations returns the invitations an account received, newest
	// first.
	Invitations(ctx context.Context, account string) ([]Invitation, error)
	// FindAccounts returns the accounts whose name holds query, whatever
	// the case and accents ("emile" finds "Émile"): those whose name starts
	// with it first, then by name; at most limit. It reads every name (see
	// [MatchesName]): fine to some hundred thousand accounts.
	FindAccounts(ctx context.Context, query string, limit int) ([]AccountName, error)
	// Rematch records rematch as the rematch of a match unless another is
	// recorded already, and returns the one recorded ("" if none); with
	// rematch "" it only reads. Of players asking at once, one rematch
	// holds, on every node.
	Rematch(ctx context.Context, match, rematch string) (string, error)

	// Follow has from follow to, Unfollow not; Block has from block to
	// (which also ends each one's following of the other), Unblock not.
	// Doing what is done already is no error; following or blocking an
	// unknown account is an [ErrNoAccount], and oneself an error.
	Follow(ctx context.Context, from, to string) error
	Unfollow(ctx context.Context, from, to string) error
	Block(ctx context.Context, from, to string) error
	Unblock(ctx context.Context, from, to string) error
	// Relations returns an account's follows, followers and blocks, each
	// the oldest first.
	Relations(ctx context.Context, account string) (Relations, error)
	// Blocks reports whether from blocks to.
	Blocks(ctx context.Context, from, to string) (bool, error)
}

// AccountName is an account as a search finds it: its id and name, nothing
// private.
type AccountName struct {
	ID, Name string
}

// foldName is a name as a search compares it: lower case, without accents.
var foldName = transform.Chain(norm.NFD, runes.Remove(runes.In(unicode.Mn)), norm.NFC)

func fold(s string) string {
	out, _, err := transform.String(foldName, s)
	if err != nil {
		out = s
	}
	return strings.ToLower(out)
}

// MatchesName ranks name for a search of query: 0 if it starts with it
// (case and accents aside), 1 if it holds it elsewhere, -1 if not at all.
func MatchesName(name, query string) int {
	n, q := fold(name), fold(query)
	switch i := strings.Index(n, q); {
	case q == "" || i < 0:
		return -1
	case i == 0:
		return 0
	}
	return 1
}

// findAccounts picks and orders what a search finds among all names.
func findAccounts(all []AccountName, query string, limit int) []AccountName {
	type hit struct {
		AccountName
		rank int
		key  string
	}
	var hits []hit
	for _, a := range all {
		if r := MatchesName(a.Name, query); r >= 0 {
			hits = append(hits, hit{a, r, fold(a.Name)})
		}
	}
	slices.SortFunc(hits, func(a, b hit) int {
		return cmp.Or(cmp.Compare(a.rank, b.rank), cmp.Compare(a.key, b.key), cmp.Compare(a.ID, b.ID))
	})
	out := make([]AccountName, 0, min(limit, len(hits)))
	for _, h := range hits[:min(limit, len(hits))] {
		out = append(out, h.AccountName)
	}
	return out
}
