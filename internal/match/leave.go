// Leaving: a human hands their seat to its bot for the rest of the match,
// and may take it back. Unlike a takeover after a disconnection, a seat
// that was left stays with its bot when its human connects again, until
// they ask for it; the table is told both ways.

package match

import (
	"context"
	"time"

	"sortie/engine"
	"sortie/internal/store"
)

// Leave hands seat s to its bot for the rest of the match. Leaving a seat
// already left changes nothing.
func (x *Match) Leave(ctx context.Context, s engine.Seat) error {
	return x.do(ctx, func() error { return x.setLeft(s, true, time.Now()) })
}

// Return gives seat s back to its human after Leave. Taking back a seat
// that was not left changes nothing.
func (x *Match) Return(ctx context.Context, s engine.Seat) error {
	return x.do(ctx, func() error { return x.setLeft(s, false, time.Now()) })
}

func (x *Match) setLeft(s engine.Seat, left bool, now time.Time) error {
	if err := x.humanSeat(s); err != nil {
		return err
	}
	switch {
	case x.rec.Status == store.Open:
		return refuse(CodeNotStarted, "The match has not started yet.")
	case x.rec.Status.Over():
		return refuse(CodeFinished, "The match is over.")
	case x.rec.Seats[s].Left == left:
		return nil
	}
	seat := x.rec.Seats[s]
	seat.Left = left
	return x.setSeat(s, seat, "request", func() {
		st := x.seats[s]
		st.byBot, st.pending = left, nil
		typ := TypeBack
		if left {
			typ = TypeLeft
			x.log.Info("a human hands their seat to its bot", "seat", int(s))
		} else {
			x.log.Info("a human takes their seat back", "seat", int(s))
		}
		// The notice is a line of the table talk, kept with the match. A
		// table whose talk is full is still told by the seats message; a
		// notice that waits for the store is told when it lands.
		if err := x.tell(&Line{Type: typ, Seat: s}, now); err != nil && AsError(err).Code == CodeChatFull {
			x.log.Debug("no notice of a seat left or taken back", "err", err)
		}
		x.publishSeats()
	})
}
