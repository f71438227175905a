// Package store keeps matches and their action logs: what a match started from
// (game, setup, seats, settings), where it stands (status, clock, outcome) and
// every record of its log, in order.
//
// [Store] is the one interface the rest of the server uses. [SQLite] (an
// embedded file through modernc.org/sqlite, WAL) is the default for one node;
// [Postgres] (through jackc/pgx) is shared by several nodes. Both create and
// migrate their own schema, versioned, and pass the same suite (storetest).
//
// Several nodes share a store through leases: each match is run by the node
// holding its lease, and every write to a match carries the [Epoch] of the
// lease its writer believes it holds. A write under an epoch that has passed
// is refused with [ErrFenced], so a node that was paused or cut off while
// another took its matches over can never write to them again.
//
// A store knows no game: records are the JSON forms that
// engine.Record.MarshalJSON writes, and settings are opaque bytes of the match
// package. It must never hold a secret in clear: seat tokens are kept only as
// SHA-256 hashes.
package store

import (
	"context"
	"errors"
	"slices"
	"time"

	"sortie/engine"
)

// Status is where a match stands.
type Status string

const (
	// Open matches wait for their players and for the start.
	Open Status = "open"
	// Running matches are being played.
	Running Status = "running"
	// Finished matches have an outcome; their log no longer changes.
	Finished Status = "finished"

	// The statuses of matches that ended without an outcome, each with a
	// reason ([Match.Reason]); like finished ones, they change no more.

	// Expired matches were never started in the time a server gives them.
	Expired Status = "expired"
	// Abandoned matches ran for long with nobody connected; they stopped
	// where they were.
	Abandoned Status = "abandoned"
	// Failed matches cannot go on: their stored log or setup no longer
	// replays.
	Failed Status = "failed"
	// Closed matches were closed by their host (one never started, or one
	// that failed).
	Closed Status = "closed"
)

// Statuses are the known statuses, those under way first.
var Statuses = []Status{Open, Running, Finished, Expired, Abandoned, Failed, Closed}

// Valid reports whether s is one of the known statuses.
func (s Status) Valid() bool { return slices.Contains(Statuses, s) }

// Over reports whether a match of status s is over: finished, or ended
// without an outcome. An over match takes no more records.
func (s Status) Over() bool { return s != Open && s != Running }

// endsFrom lists, for each status a match may end with ([Store.End]), the
// statuses it may end from.
var endsFrom = map[Status][]Status{
	Expired:   {Open},
	Abandoned: {Running},
	Failed:    {Open, Running, Finished},
	Closed:    {Open, Failed},
}

// Seat is one seat of a match as it was set up and claimed.
type Seat struct {
	// Kind is "human" or "bot".
	Kind string `json:"kind"`
	// Bot is the policy that plays the seat (bot seats) or stands in for its
	// human when they are away (human seats).
	Bot string `json:"bot,omitempty"`
	// Name is the name the player gave when joining.
	Name string `json:"name,omitempty"`
	// Joined is set once the seat's human has joined with the invite token.
	Joined bool `json:"joined"`
	// Left is set while the seat's human has handed the seat to its bot for
	// the rest of the match (they may take it back).
	Left bool `json:"left,omitempty"`
	// Account is the account that holds the seat ("" for none: a guest's
	// seat, or nobody's yet); it may play it signed in, without the token.
	Account string `json:"account,omitempty"`
	// Deleted is set on a seat whose account was deleted: its name is
	// gone, and it is shown as a deleted player's.
	Deleted bool `json:"deleted,omitempty"`
	// JoinedElsewhere is set once the seat was joined by another client
	// than the match's creator ([Match.Creator]): somebody else sat at the
	// table. It is never cleared.
	JoinedElsewhere bool `json:"joined_elsewhere,omitempty"`
	// TokenHash is the SHA-256 of the seat's token; nil for bot seats.
	TokenHash []byte `json:"-"`
}

// Match is a match as stored: everything needed to rebuild it by replaying
// its log from Setup.
type Match struct {
	ID    string
	Game  string
	Setup engine.Setup
	Seats []Seat
	// HostHash is the SHA-256 of the token that may start the match.
	HostHash []byte
	// Settings are the match package's own settings (timers, pace), opaque
	// here.
	Settings []byte
	Status   Status
	// Records is the number of records in the log.
	Records int
	// Clock is the match clock last saved (at shutdown, periodically in
	// real time, at the end): a running match resumes from the later of it
	// and its last record's time.
	Clock engine.Millis
	// Outcome is set once the match is finished.
	Outcome *engine.Outcome
	// Reason says why a match ended without an outcome (expired,
	// abandoned, failed, closed): the match package's own account, opaque
	// here; empty otherwise.
	Reason string
	// Damaged says why part of the stored row does not read back (its
	// setup, seats or outcome, edited by hand or damaged); the fields it
	// concerns are then zero. Get and List still return such a match, so
	// that one bad row hides no other; the match package marks it failed.
	Damaged string
	// Creator is who created the match, as the server tells clients apart
	// (their network), for its limits; empty if unknown.
	Creator string
	// Account is the account that created the match ("" for a guest's):
	// it may start and close the match signed in, as its host token may.
	Account string
	// Lease says which node runs the match, under which epoch.
	Lease    Lease
	Created  time.Time
	Started  time.Time // zero until started
	Finished time.Time // when it finished or ended; zero until then
	// AbsentSince is when the last of a running match's players
	// disconnected, zero while one is connected or if it was never saved
	// (see [Store.SaveAbsence]).
	AbsentSince time.Time
}

// Creation is one match's creation, as [Store.Creations] lists them.
type Creation struct {
	Creator string
	Created time.Time
}

// Filter selects matches to list.
type Filter struct {
	// Statuses keeps matches of any of these statuses; empty keeps all.
	Statuses []Status
	// Game keeps matches of this game; empty keeps all.
	Game string
	// Limit bounds the answer (newest first); 0 means 100.
	Limit int
}

// Epoch numbers the leases of one match. Each lease taken on a match has the
// next epoch; a match that was never leased is at epoch 0, which is what a
// single node that takes no leases writes with.
type Epoch uint64

// Lease is a node's hold on a match: while it lasts, that node alone runs the
// match and writes to it.
//
// A node keeps all its leases alive at once with [Store.Renew]: a lease
// expires when its node stops renewing, and another node may then take the
// match over with [Store.Acquire]. Expiry is told by the store's clock, never a
// node's.
type Lease struct {
	// Match is the match's id.
	Match string
	// Node holds the lease; empty when nobody does (the match was never
	// leased, or its lease was released).
	Node string
	// Epoch is the lease's fencing token.
	Epoch Epoch
	// Expires is when the lease ends unless its node renews; zero when
	// nobody holds it.
	Expires time.Time
}

// ErrNotFound is returned for a match id that the store does not hold.
var ErrNotFound = errors.New("store: no such match")

// ErrConflict is returned when a write does not fit what is stored: a log
// record out of order, a match id taken twice, a match that is not in the
// status the write needs.
var ErrConflict = errors.New("store: conflicting write")

// ErrFenced is returned for a write under an epoch that is no longer the
// match's: another node has taken the match over (or the writer released
// it). The writer must stop running the match; nothing was written.
var ErrFenced = errors.New("store: the match's lease has passed to another epoch")

// ErrLeased is returned by [Store.Acquire] when another node holds a live
// lease on the match.
var ErrLeased = errors.New("store: the match is leased to another node")

// ErrUnavailable is returned when the store cannot be reached or cannot
// write (the database is down, the disk full or read-only, the file damaged).
// A write that failed this way may still have landed if its commit was sent;
// repeating it is safe (see [Store.Append]).
var ErrUnavailable = errors.New("store: unavailable")

// ErrClosed is returned by a store after Close.
var ErrClosed = errors.New("store: closed")

// Store persists matches, their logs and their leases. Every method is safe
// for concurrent use. A write that returned nil is durable: it survives a
// crash of the process (and of the machine, with the default settings).
//
// The writes to an existing match (SetSeat, Start, Append, SaveClock,
// Finish) take the epoch of the lease the caller holds. Such a write is
// carried out only if the epoch is still the match's current one and someone
// holds that lease (epoch 0 needs no holder): otherwise it writes nothing and
// returns [ErrFenced], whatever else is wrong with it. An expired lease that
// nobody has taken over still fences nobody: no other node has written.
type Store interface {
	// Create stores a new match with an empty log, at epoch 0 and leased to
	// nobody. A match id that exists is an [ErrConflict].
	Create(ctx context.Context, m *Match) error
	// SetSeat replaces seat i of match id (a human joined, left or came
	// back). A seat index out of range is an [ErrConflict].
	SetSeat(ctx context.Context, id string, e Epoch, i int, s Seat) error
	// Start marks open match id running; a match that is not open is an
	// [ErrConflict].
	Start(ctx context.Context, id string, e Epoch, at time.Time) error
	// Append writes record number n (counting from 1) of running match
	// id's log, which must be the next one; at is the record's time.
	// Anything else is an [ErrConflict] and writes nothing, except the
	// repeat of the last record, byte for byte, which returns nil: a caller
	// that was told [ErrUnavailable] may repeat its append safely.
	Append(ctx context.Context, id string, e Epoch, n int, rec []byte, at engine.Millis) error
	// AppendChat writes line number n (counting from 1) of match id's table
	// talk, which must be the next one: anything else is an [ErrConflict]
	// and writes nothing, except the repeat of the last line, byte for
	// byte, which returns nil. A line is the match package's JSON, opaque
	// here; a match of any status may talk.
	AppendChat(ctx context.Context, id string, e Epoch, n int, line []byte) error
	// Chat returns match id's lines of table talk, in order.
	Chat(ctx context.Context, id string) ([][]byte, error)
	// SaveClock sets the saved match clock of a running match (it may move
	// back: a server that stops saves the exact clock over one it saved
	// ahead); a match that is not running is left as it is.
	SaveClock(ctx context.Context, id string, e Epoch, clock engine.Millis) error
	// SaveAbsence saves since when no player of running match id has been
	// connected (zero: a player is), so that the time a match may stay
	// without players counts across restarts; a match that is not running
	// is left as it is.
	SaveAbsence(ctx context.Context, id string, e Epoch, since time.Time) error
	// Finish marks match id finished with its outcome and final clock (set
	// as given).
	Finish(ctx context.Context, id string, e Epoch, o engine.Outcome, clock engine.Millis, at time.Time) error
	// End marks match id over without an outcome: status is [Expired] (an
	// open match), [Abandoned] (a running one), [Failed] (an open, running
	// or finished one) or [Closed] (an open or failed one), with the reason,
	// its final clock and when. A match in another status, or another
	// status, is an [ErrConflict] and writes nothing.
	End(ctx context.Context, id string, e Epoch, status Status, reason string, clock engine.Millis, at time.Time) error
	// Prune deletes up to limit matches that have been over since before
	// the given time, oldest first, with their logs and talk, and returns
	// how many it deleted.
	Prune(ctx context.Context, before time.Time, limit int) (int, error)

	// Get returns match id without its log, with its lease.
	Get(ctx context.Context, id string) (*Match, error)
	// Log returns match id's log records, in order.
	Log(ctx context.Context, id string) ([][]byte, error)
	// List returns the matches the filter keeps, newest first.
	List(ctx context.Context, f Filter) ([]*Match, error)
	// Unfinished returns the ids of every match that is open or running,
	// oldest first: those a single node rebuilds when it starts.
	Unfinished(ctx context.Context) ([]string, error)
	// Creations returns the creations of the matches created at or after
	// since whose creator is known, oldest first: what a node starting
	// counts against each client's allowance of new matches.
	Creations(ctx context.Context, since time.Time) ([]Creation, error)

	// Acquire gives node the lease on match id under the next epoch, if
	// nobody holds it, its holder's leases have expired, or node holds it
	// already (a node that restarted takes its matches back at once);
	// otherwise it returns [ErrLeased] and changes no lease. Taking a lease
	// renews node's other leases for ttl too, as Renew does. The caller must read the
	// log after Acquire returns: every write under an earlier epoch has then
	// landed or been refused.
	Acquire(ctx context.Context, id, node string, ttl time.Duration) (Lease, error)
	// Renew extends every lease node holds to ttl from now (by the store's
	// clock) and returns them, for the matches still open or running: a
	// match missing from the answer was taken over, and node must stop
	// running it. A node renews well within ttl (a third of it, say).
	Renew(ctx context.Context, node string, ttl time.Duration) ([]Lease, error)
	// Release gives up lease l (a node hands its matches over before it
	// stops). Writes under l.Epoch are refused from then on; another node may
	// acquire the match at once. A lease that has passed already is an
	// [ErrFenced].
	Release(ctx context.Context, l Lease) error
	// Orphans returns the ids of up to limit open or running matches whose
	// lease is free (never taken, released, or expired with its node),
	// oldest first: those another node should take over.
	Orphans(ctx context.Context, limit int) ([]string, error)

	// Check reports whether the store can write now: it returns nil after a
	// write has been committed recently enough, and otherwise commits a small
	// write of its own, waiting no longer than ctx allows. A store that found
	// its data damaged reports it until it is reopened.
	Check(ctx context.Context) error
	// Close finishes the writes under way and releases the store.
	Close() error

	// Background work and teaching (see teach.go).
	Jobs
	Teaching
}
