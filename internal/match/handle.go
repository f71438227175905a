// Handles: what the server holds of a match, wherever it runs. On one node
// it is the *Match itself; on several it may be a *Remote, which forwards
// every call to the node that runs the match (see remote.go).

package match

import (
	"context"
	"errors"

	"sortie/engine"
)

// Handle is a match as the server's handlers use it: the *Match when this
// node runs it, a *Remote when another node does. Every method behaves the
// same either way, and says [Moved] when the match stopped running where
// the handle points (it moved to another node, or this one is stopping):
// the caller opens the match again and repeats what it asked, which is safe
// (an action names the seq it was chosen on).
type Handle interface {
	ID() string
	// SeatOf returns the seat whose token this is.
	SeatOf(token string) (engine.Seat, bool)
	// IsHost reports whether token is the match's host token.
	IsHost(token string) bool
	Summary(ctx context.Context) (Summary, error)
	// Join records that the human of seat s joined (see Joiner).
	Join(ctx context.Context, s engine.Seat, j Joiner) (Summary, error)
	// Claim has account hold seat s, joined or not, whatever the match's
	// status (a guest's seats become the account's): a seat held by
	// another account is refused (CodeHeld).
	Claim(ctx context.Context, s engine.Seat, account string) (Summary, error)
	// Forget has every seat account holds held by nobody, named no more and
	// marked as a deleted player's (its account is being deleted).
	Forget(ctx context.Context, account string) error
	// SeatsHeldBy returns the seats account holds, as the handle last knew
	// them (a remote handle: when it was opened).
	SeatsHeldBy(account string) []engine.Seat
	// CreatorAccount returns the account that created the match, or "".
	CreatorAccount() string
	Start(ctx context.Context) (Summary, error)
	Snapshot(ctx context.Context, s engine.Seat) ([]byte, error)
	Watch(ctx context.Context, s engine.Seat) (*Watch, error)
	Unwatch(w *Watch)
	Act(ctx context.Context, s engine.Seat, seq uint64, raw []byte) error
	// Settle makes certain what became of an action that Act left [Lost]:
	// nil once it is played, else its refusal (see [Match.Settle]).
	Settle(ctx context.Context, s engine.Seat, seq uint64, raw []byte) error
	Chat(ctx context.Context, s engine.Seat, text string, team bool) error
	Leave(ctx context.Context, s engine.Seat) error
	Return(ctx context.Context, s engine.Seat) error
	// CloseOpen ends an open match (its host asked: the caller checked).
	CloseOpen(ctx context.Context) (Summary, error)
}

var (
	_ Handle = (*Match)(nil)
	_ Handle = (*Remote)(nil)
)

// errMoved is returned by a match that has stopped because another node
// took it over, and by a node asked about a match it does not run.
var errMoved = refuse(CodeUnavailable, "The match has moved to another server; try again.")

// Moved reports whether err says that the match no longer runs where it
// was asked: open it again to reach it where it runs now.
func Moved(err error) bool { return err == errGone || err == errMoved }

// Open returns a handle on match id: the match itself if this node runs it
// (loading it from the store, and taking its lease on several nodes, when
// nobody runs it), or a [Remote] on the node that runs it.
func (m *Manager) Open(ctx context.Context, id string) (Handle, error) {
	x, err := m.Get(ctx, id)
	if err == nil {
		return x, nil
	}
	var e *elsewhere
	if errors.As(err, &e) {
		return m.node.remote(e)
	}
	return nil, err
}

// Use runs fn on match id wherever it runs, opening it again and repeating
// fn (at most three times) while fn says [Moved].
func (m *Manager) Use(ctx context.Context, id string, fn func(h Handle) error) error {
	for range 3 {
		h, err := m.Open(ctx, id)
		if err != nil {
			return err
		}
		if err = fn(h); !Moved(err) {
			return err
		}
	}
	return errMoving
}

// errMoving: a match that keeps moving, or whose node died and has not
// been taken over yet.
var errMoving = refuse(CodeUnavailable, "The match is moving to another server; try again in a few seconds.")
