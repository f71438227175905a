// Tickets: the players waiting to be seated by Play now, and the lock that
// lets one node at a time seat them. [Tickets] is a fourth interface of the
// same stores ([SQLite] and [Postgres]). A ticket is kept in the store from
// the moment its player asks, so that a node's death loses no waiting
// player: whichever node holds the lock next seats them.
//
// As with seat tokens, no secret is kept in clear: a ticket is known by the
// SHA-256 of its secret, and the seat token its player will play with by
// its SHA-256 alone.

package store

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// Ticket statuses.
const (
	TicketWaiting   = "waiting"
	TicketMatched   = "matched"
	TicketCancelled = "cancelled"
)

// Ticket is one player waiting for a table, or seated at one.
type Ticket struct {
	// Hash is the SHA-256 of the ticket's secret (the player's handle on
	// it).
	Hash []byte
	// Account is the player's; Name the name their seat takes.
	Account, Name string
	// What the player asked for: a game, a number of players, a mode (the
	// game's "mode" option; "" for the default), rated or casual, humans
	// only, and how long they wait before bots fill the empty seats.
	Game    string
	Players int
	// PlayersMax, above Players, asks for any number of players from
	// Players to it (0: Players exactly).
	PlayersMax int
	Mode       string
	Rated      bool
	HumansOnly bool
	BotFill    time.Duration
	// MoveLimitMs is the move limit of the correspondence table the player
	// asked for (a day or more); 0 asks for a live table.
	MoveLimitMs int64
	// Mu and Sigma are the player's rating when they asked, to pair near
	// ratings; Leaver says they left many of their recent matches, to
	// pair them among themselves first.
	Mu, Sigma float64
	Leaver    bool
	// TokenHash is the SHA-256 of the token of the seat the player gets.
	TokenHash []byte
	Created   time.Time
	// Status is waiting, matched or cancelled; Match and Seat are set once
	// matched, and Done is when it stopped waiting.
	Status string
	Match  string
	Seat   int
	Done   time.Time
}

// Tickets keeps Play now's tickets. Every method is safe for concurrent use;
// a write that returned nil is durable, as for [Store].
type Tickets interface {
	// PutTicket stores a new waiting ticket, and cancels the account's
	// other waiting tickets (a player waits at one pool at a time). A hash
	// another ticket has is an [ErrConflict].
	PutTicket(ctx context.Context, t *Ticket) error
	// Ticket returns a ticket by its hash ([ErrNotFound] if none).
	Ticket(ctx context.Context, hash []byte) (*Ticket, error)
	// CancelTicket cancels a waiting ticket of the account: an unknown
	// ticket, or another account's, is an [ErrNotFound]; one matched
	// already is an [ErrConflict]; one cancelled already, no error.
	CancelTicket(ctx context.Context, hash []byte, account string, at time.Time) error
	// WaitingTickets returns every waiting ticket, oldest first.
	WaitingTickets(ctx context.Context) ([]*Ticket, error)
	// MatchTickets marks the tickets matched to seats of a match, all or
	// none: if one of them is no longer waiting, it writes nothing and
	// returns an [ErrConflict].
	MatchTickets(ctx context.Context, match string, hashes [][]byte, seats []int, at time.Time) error
	// PruneTickets deletes up to limit tickets that stopped waiting before
	// the given time, and returns how many.
	PruneTickets(ctx context.Context, before time.Time, limit int) (int, error)
	// TakeLock gives node the lock of the given name for ttl from now (by
	// the store's clock) if nobody holds it, its holder let it expire, or
	// node holds it already (which renews it); it reports whether node
	// holds it now.
	TakeLock(ctx context.Context, name, node string, ttl time.Duration) (bool, error)
}

func checkTicket(t *Ticket) error {
	switch {
	case len(t.Hash) != 32 || len(t.TokenHash) != 32:
		return errors.New("store: a ticket needs the SHA-256 of its secret and of its seat's token")
	case t.Account == "" || t.Game == "" || t.Players < 1:
		return errors.New("store: a ticket needs an account, a game and a number of players")
	case t.BotFill < 0:
		return errors.New("store: a ticket's wait before bots cannot be negative")
	case t.PlayersMax != 0 && t.PlayersMax < t.Players:
		return errors.New("store: a ticket's range of players ends below its start")
	case t.MoveLimitMs < 0:
		return errors.New("store: a ticket's move limit cannot be negative")
	}
	return nil
}

func noTicket() error { return fmt.Errorf("%w: no such ticket", ErrNotFound) }

func ticketDone() error {
	return fmt.Errorf("%w: the ticket was matched already", ErrConflict)
}
