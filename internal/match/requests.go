// What clients ask of a match: actions, connections, joins, the start and
// the summary; each runs on the match's goroutine through its inbox.

package match

import (
	"context"
	"time"

	"sortie/engine"
	"sortie/internal/bus"
	"sortie/internal/store"
)

// Act plays a client's action for seat s, chosen on the state numbered seq.
// It returns nil once the action is stored and broadcast (the seat's copy of
// the update carries the acknowledgement), or the refusal.
func (x *Match) Act(ctx context.Context, s engine.Seat, seq uint64, raw []byte) error {
	_, err := x.actSeq(ctx, s, seq, raw)
	return err
}

// actSeq is Act, returning the seq of the update that acknowledges the
// action.
func (x *Match) actSeq(ctx context.Context, s engine.Seat, seq uint64, raw []byte) (uint64, error) {
	start := time.Now()
	var after uint64
	err := x.do(ctx, func() error {
		err := x.act(s, seq, raw)
		after = x.seq
		return err
	})
	if h := x.mgr.hooks.Handled; h != nil {
		code := ""
		if err != nil {
			code = AsError(err).Code
		}
		h(code, time.Since(start))
	}
	return after, err
}

// humanSeat refuses a seat the match does not have, or one a bot plays.
func (x *Match) humanSeat(s engine.Seat) error {
	switch {
	case s < 0 || int(s) >= len(x.seats):
		return refuse(CodeUnknownSeat, "This match has no seat %d.", s)
	case x.rec.Seats[s].Kind != Human:
		return refuse(CodeNotHuman, "Seat %d is played by a bot.", s)
	}
	return nil
}

func (x *Match) act(s engine.Seat, seq uint64, raw []byte) error {
	if err := x.humanSeat(s); err != nil {
		return err
	}
	switch {
	case x.rec.Status == store.Open:
		return refuse(CodeNotStarted, "The match has not started yet.")
	case x.rec.Status == store.Finished:
		return engine.GameOver()
	case x.broken:
		return refuse(CodeUnavailable, "The match cannot take actions now: its log could not be read back.")
	case x.rec.Seats[s].Left:
		return refuse(CodeSeatLeft, "You handed your seat to its bot: take it back to play again.")
	}
	a, err := x.game.DecodeAction(raw)
	if err != nil {
		return err
	}
	if seq < x.seq {
		return refuse(CodeStaleSeq, "The match has moved on since state %d (it is at %d): look at the new state and choose again.", seq, x.seq)
	}
	if seq > x.seq {
		return refuse(CodeFutureSeq, "There is no state %d yet (the match is at %d).", seq, x.seq)
	}
	st := x.seats[s]
	if st.byBot {
		// The human is back: they play again.
		st.byBot, st.pending = false, nil
		x.publishSeats()
	}
	at := x.clock(time.Now())
	if x.advance(at) {
		return refuse(CodeStaleSeq, "Time ran on and the match changed before your action arrived: look at the new state and choose again.")
	}
	evs, err := x.state.Apply(s, a, at)
	if err != nil {
		return err
	}
	return x.commit(engine.Record{Seat: s, Action: a, At: at}, evs, s, int64(seq), "human")
}

// Watch is a connection to a match: the snapshot to send first, then the
// messages of the subscription.
type Watch struct {
	// Seat is the audience: a seat or engine.Spectator.
	Seat engine.Seat
	// State is the snapshot message; Seq is its sequence number: messages of
	// Sub about changes up to Seq are already in it.
	State []byte
	Seq   uint64
	// Sub brings the messages that follow the snapshot.
	Sub *bus.Subscription
}

// Watch connects an audience to the match: seat s (whose human is back, if a
// bot was playing for them; an older connection of the seat is replaced) or
// [engine.Spectator]. Call Unwatch when the connection ends.
func (x *Match) Watch(ctx context.Context, s engine.Seat) (*Watch, error) {
	return x.watch(ctx, s, func() *bus.Subscription {
		return x.mgr.bus.SubscribeLocal(bus.Topic{Match: x.id, Seat: s}, x.mgr.buffer)
	})
}

// watch is Watch with the connection's subscription made by subscribe, on
// the match's goroutine (a connection from another node has one of its
// own: see remote.go).
func (x *Match) watch(ctx context.Context, s engine.Seat, subscribe func() *bus.Subscription) (*Watch, error) {
	var w *Watch
	var ref historyRef
	err := x.do(ctx, func() error {
		if s != engine.Spectator && (s < 0 || int(s) >= len(x.seats)) {
			return refuse(CodeUnknownSeat, "This match has no seat %d.", s)
		}
		sub := subscribe()
		if s == engine.Spectator {
			x.spectators[sub] = true
		} else {
			st := x.seats[s]
			if st.sub != nil {
				st.sub.Close(bus.ErrReplaced)
			}
			st.sub = sub
			if st.byBot && x.rec.Seats[s].Kind == Human && !x.rec.Seats[s].Left {
				st.byBot, st.pending = false, nil
				x.log.Info("a human reclaims their seat", "seat", int(s))
			}
			x.publishSeats()
		}
		now := time.Now()
		w = &Watch{Seat: s, State: x.snapshot(s, now), Seq: x.seq, Sub: sub}
		ref = x.historyRef(s)
		return nil
	})
	if err == nil {
		w.State = x.withHistory(ctx, w.State, s, ref)
	}
	return w, err
}

// Unwatch ends a connection made by Watch.
func (x *Match) Unwatch(w *Watch) {
	w.Sub.Close(nil)
	_ = x.do(context.Background(), func() error {
		now := time.Now()
		if w.Seat == engine.Spectator {
			delete(x.spectators, w.Sub)
		} else if st := x.seats[w.Seat]; st.sub == w.Sub {
			st.sub = nil
			st.away = x.clock(now)
			x.publishSeats()
		}
		if x.idle() {
			x.idleSince = now
		}
		return nil
	})
}

// Snapshot returns the state message of audience s, as sent on connecting
// (with its history).
func (x *Match) Snapshot(ctx context.Context, s engine.Seat) ([]byte, error) {
	var b []byte
	var ref historyRef
	err := x.do(ctx, func() error {
		if s != engine.Spectator && (s < 0 || int(s) >= len(x.seats)) {
			return refuse(CodeUnknownSeat, "This match has no seat %d.", s)
		}
		b = x.snapshot(s, time.Now())
		ref = x.historyRef(s)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return x.withHistory(ctx, b, s, ref), nil
}

// Join records that the human of seat s has joined under a name (empty keeps
// the seat's name). A match that starts by itself starts when the last human
// joins.
func (x *Match) Join(ctx context.Context, s engine.Seat, name string) (Summary, error) {
	var sum Summary
	err := x.do(ctx, func() error {
		name, err := CheckName(name)
		if err != nil {
			return err
		}
		switch {
		case s < 0 || int(s) >= len(x.seats):
			return refuse(CodeUnknownSeat, "This match has no seat %d.", s)
		case x.rec.Seats[s].Kind != Human:
			return refuse(CodeNotHuman, "Seat %d is played by a bot; only human seats can be joined.", s)
		case x.rec.Status == store.Finished:
			return refuse(CodeFinished, "The match is over.")
		}
		seat := x.rec.Seats[s]
		seat.Joined = true
		if name != "" {
			seat.Name = name
		}
		if err := x.mgr.store.SetSeat(context.Background(), x.id, x.rec.Lease.Epoch, int(s), seat); err != nil {
			if x.lost(err) {
				return errMoved
			}
			x.log.Error("cannot store a join", "err", err)
			return refuse(CodeUnavailable, "The server could not save your seat; try again.")
		}
		x.rec.Seats[s] = seat
		x.publishSeats()
		if x.set.AutoStart && x.rec.Status == store.Open && x.allJoined() {
			if err := x.start(time.Now()); err != nil {
				return err
			}
		}
		sum = x.summary()
		return nil
	})
	return sum, err
}

func (x *Match) allJoined() bool {
	for _, s := range x.rec.Seats {
		if s.Kind == Human && !s.Joined {
			return false
		}
	}
	return true
}

// Start starts an open match.
func (x *Match) Start(ctx context.Context) (Summary, error) {
	var sum Summary
	err := x.do(ctx, func() error {
		if err := x.start(time.Now()); err != nil {
			return err
		}
		sum = x.summary()
		return nil
	})
	return sum, err
}

func (x *Match) start(now time.Time) error {
	switch x.rec.Status {
	case store.Running:
		return refuse(CodeStarted, "The match has already started.")
	case store.Finished:
		return refuse(CodeFinished, "The match is over.")
	}
	if err := x.mgr.store.Start(context.Background(), x.id, x.rec.Lease.Epoch, now); err != nil {
		if x.lost(err) {
			return errMoved
		}
		x.log.Error("cannot store the start", "err", err)
		return refuse(CodeUnavailable, "The server could not start the match; try again.")
	}
	x.rec.Status, x.rec.Started = store.Running, now
	x.clockBase, x.clockWall, x.savedClock = x.lastAt, now, now
	for _, st := range x.seats {
		st.away = x.clockBase
	}
	x.trackActors(engine.Spectator)
	x.log.Info("match started")
	x.finishIfOver(now)
	x.publishState(now)
	return nil
}

// Summary returns the match as the lobby sees it, with who is connected.
func (x *Match) Summary(ctx context.Context) (Summary, error) {
	var sum Summary
	err := x.do(ctx, func() error {
		sum = x.summary()
		return nil
	})
	return sum, err
}

func (x *Match) summary() Summary {
	s := summarize(x.rec, x.opts)
	s.Seats = x.seatSummaries()
	s.Seq, s.Clock, s.Live = x.seq, x.clock(time.Now()), true
	return s
}
