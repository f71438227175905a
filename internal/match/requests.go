// What clients ask of a match: actions, connections, joins, the start and
// the summary; each runs on the match through its inbox.

package match

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strconv"
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
	return x.actSeqWith(ctx, func() (bool, error) { return true, x.act(s, seq, raw) })
}

// actSeqWith runs act on the match, counts what it judged as a client's
// action, and returns the match's seq after it.
func (x *Match) actSeqWith(ctx context.Context, act func() (judged bool, err error)) (uint64, error) {
	start := time.Now()
	var after uint64
	judged := true
	err := x.do(ctx, func() error {
		var err error
		judged, err = act()
		after = x.seq
		return err
	})
	if h := x.mgr.hooks.Handled; h != nil && judged {
		code := ""
		if err != nil {
			code = AsError(err).Code
		}
		h(code, time.Since(start))
	}
	return after, err
}

// Settle makes certain what became of a client's action for seat s, chosen
// on state seq, whose answer was lost on its way between nodes (the node
// asked died, stalled, or could not be heard from): nil when the action is
// played — it is record seq+1 already, or it is played now if the match is
// still at seq — else the refusal it gets now. Once Settle has answered, no
// copy of the action still on its way can be played: the match is past
// seq, or refuses the copy as it refused this one. (A record seq+1 of the
// same action by the seat's bot, played when its move limit ran out, counts
// as the action: the match stands as the person wanted.)
func (x *Match) Settle(ctx context.Context, s engine.Seat, seq uint64, raw []byte) error {
	_, err := x.settleSeq(ctx, s, seq, raw)
	return err
}

// settleSeq is Settle, returning the seq of the update that acknowledges
// the action if it is played now (0 if it was played before).
func (x *Match) settleSeq(ctx context.Context, s engine.Seat, seq uint64, raw []byte) (uint64, error) {
	past := false
	after, err := x.actSeqWith(ctx, func() (bool, error) {
		if seq < x.seq && x.humanSeat(s) == nil {
			past = true
			return false, nil
		}
		return true, x.act(s, seq, raw)
	})
	if err != nil || !past {
		return after, err
	}
	played, err := x.isRecord(ctx, seq+1, s, raw)
	switch {
	case err != nil:
		return 0, ErrLost // still unknown: ask again later
	case played:
		return 0, nil
	}
	return 0, refuse(CodeStaleSeq, "The match has moved on since state %d (it is at %d): look at the new state and choose again.", seq, after)
}

// isRecord reports whether record n of the match's log is seat s's action
// raw.
func (x *Match) isRecord(ctx context.Context, n uint64, s engine.Seat, raw []byte) (bool, error) {
	a, err := x.game.DecodeAction(raw)
	if err != nil {
		return false, nil
	}
	log, err := x.mgr.store.Log(ctx, x.id)
	if err != nil {
		return false, err
	}
	if n == 0 || n > uint64(len(log)) {
		return false, nil
	}
	rec, err := engine.DecodeRecord(x.game, log[n-1])
	if err != nil || rec.Seat != s || rec.Action == nil {
		return false, err
	}
	want, err1 := json.Marshal(a)
	got, err2 := json.Marshal(rec.Action)
	return err1 == nil && err2 == nil && bytes.Equal(want, got), nil
}

// AckOf returns the "ack" of an update message as the match encodes it
// (the seq its seat's accepted action named), and whether it has one.
func AckOf(b []byte) (uint64, bool) {
	const head = `{"type":"` + TypeUpdate + `","seq":`
	if !bytes.HasPrefix(b, []byte(head)) {
		return 0, false
	}
	b = b[len(head):]
	i := 0
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	b, ok := bytes.CutPrefix(b[i:], []byte(`,"ack":`))
	if !ok {
		return 0, false
	}
	i = 0
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	ack, err := strconv.ParseUint(string(b[:i]), 10, 64)
	return ack, err == nil
}

// WithAck returns state message b (which carries no "ack") with "ack": a
// state that is the first its socket is sent since an action of its seat
// was played acknowledges it, as the seat's update would have.
func WithAck(b []byte, ack uint64) []byte {
	const head = `{"type":"` + TypeState + `",`
	if !bytes.HasPrefix(b, []byte(head)) {
		return b
	}
	out := make([]byte, 0, len(b)+32)
	out = append(out, head...)
	out = append(out, `"ack":`...)
	out = strconv.AppendUint(out, ack, 10)
	out = append(out, ',')
	return append(out, b[len(head):]...)
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
	case x.rec.Status.Over():
		return overError(x.rec.Status)
	case x.stall != nil:
		return stalledErr
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
		if x.stall != nil {
			return stalledErr
		}
		return refuse(CodeStaleSeq, "Time ran on and the match changed before your action arrived: look at the new state and choose again.")
	}
	return x.play(engine.Record{Seat: s, Action: a, At: at}, s, int64(seq), "human")
}

// overError refuses what a match over cannot take.
func overError(st store.Status) error {
	return refuse(CodeFinished, "The match is over (%s): nothing more can be done in it.", st)
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
	return x.watch(ctx, s, false, func() *bus.Subscription {
		return x.mgr.bus.SubscribeLocal(bus.Topic{Match: x.id, Seat: s}, x.mgr.buffer)
	})
}

// watch is Watch with the connection's subscription made by subscribe, in
// the match's run (a connection from another node has one of its
// own: see remote.go).
func (x *Match) watch(ctx context.Context, s engine.Seat, elsewhere bool, subscribe func() *bus.Subscription) (*Watch, error) {
	var w *Watch
	var ref historyRef
	err := x.do(ctx, func() error {
		if s != engine.Spectator && (s < 0 || int(s) >= len(x.seats)) {
			return refuse(CodeUnknownSeat, "This match has no seat %d.", s)
		}
		sub := subscribe()
		if s == engine.Spectator {
			x.spectators[sub] = elsewhere
		} else {
			st := x.seats[s]
			if st.sub != nil {
				st.sub.Close(bus.ErrReplaced)
			}
			st.sub, st.elsewhere = sub, elsewhere
			if st.byBot && x.rec.Seats[s].Kind == Human && !x.rec.Seats[s].Left {
				st.byBot, st.pending = false, nil
				x.log.Info("a human reclaims their seat", "seat", int(s))
			}
			x.publishSeats()
			x.noteAbsence()
		}
		now := time.Now()
		w = &Watch{Seat: s, State: x.snapshot(s, now), Seq: x.seq, Sub: sub}
		ref = x.historyRef(s)
		// After the snapshot: the connection then hears the start like
		// everyone else, from its subscription.
		if s != engine.Spectator {
			x.startIfHere()
		}
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
			x.lastPlayer = now
			x.publishSeats()
			x.noteAbsence()
			x.noticeTurn(int(w.Seat)) // they left on their turn
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

// Joiner is who joins a seat.
type Joiner struct {
	// Name is the name they give (empty keeps the seat's name).
	Name string
	// Client is where they join from, as CreateRequest.Owner tells clients
	// apart ("" if unknown).
	Client string
	// Account is the account they are signed in to ("" for a guest): the
	// seat becomes the account's, unless another account holds it.
	Account string
}

// Join records that the human of seat s has joined. A match that starts by
// itself starts once every human seat has joined and has its player on the
// match (see everyoneHere).
func (x *Match) Join(ctx context.Context, s engine.Seat, j Joiner) (Summary, error) {
	var sum Summary
	name, client := j.Name, j.Client
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
		case x.rec.Status.Over():
			return refuse(CodeFinished, "The match is over.")
		}
		seat := x.rec.Seats[s]
		seat.Joined = true
		if name != "" {
			seat.Name = name
		}
		if client == "" || client != x.rec.Creator {
			seat.JoinedElsewhere = true // somebody else sat at the table
		}
		if j.Account != "" {
			if seat.Account != "" && seat.Account != j.Account {
				return refuse(CodeHeld, "Seat %d is kept for another player.", s)
			}
			seat.Account = j.Account
		}
		err = x.setSeat(s, seat, "join", func() {
			x.publishSeats()
			x.startIfHere()
		})
		sum = x.summary()
		return err
	})
	return sum, err
}

// setSeat stores seat s as st, then makes it the match's and runs then
// (which tells everyone). what names the request for a client told it
// waits for the store.
func (x *Match) setSeat(s engine.Seat, st store.Seat, what string, then func()) error {
	m, id, epoch := x.mgr, x.id, x.rec.Lease.Epoch
	err := x.save("a seat", func(ctx context.Context) error {
		return m.store.SetSeat(ctx, id, epoch, int(s), st)
	}, func() {
		x.rec.Seats[s] = st
		x.noteHolders()
		then()
	})
	if err != nil && err != errPending && err != stalledErr {
		return x.refusedWrite("a seat", err)
	}
	return pending(err, what)
}

// Claim has account hold seat s (see Handle.Claim): a guest who signs up
// keeps the seats they played, finished matches included.
func (x *Match) Claim(ctx context.Context, s engine.Seat, account string) (Summary, error) {
	var sum Summary
	err := x.do(ctx, func() error {
		switch {
		case s < 0 || int(s) >= len(x.seats):
			return refuse(CodeUnknownSeat, "This match has no seat %d.", s)
		case x.rec.Seats[s].Kind != Human:
			return refuse(CodeNotHuman, "Seat %d is played by a bot.", s)
		case account == "":
			return refuse(CodeHeld, "Only an account may hold a seat.")
		}
		seat := x.rec.Seats[s]
		switch seat.Account {
		case account:
			sum = x.summary()
			return nil
		case "":
		default:
			return refuse(CodeHeld, "Seat %d is kept for another player.", s)
		}
		seat.Account = account
		err := x.setSeat(s, seat, "claim", x.publishSeats)
		sum = x.summary()
		return err
	})
	return sum, err
}

// Forget has every seat account holds held by nobody, named no more and
// marked as a deleted player's, whatever the match's status.
func (x *Match) Forget(ctx context.Context, account string) error {
	return x.do(ctx, func() error {
		if account == "" {
			return nil
		}
		for i, st := range x.rec.Seats {
			if st.Account != account {
				continue
			}
			st.Account, st.Name, st.Deleted = "", "", true
			if err := x.setSeat(engine.Seat(i), st, "forget", x.publishSeats); err != nil {
				return err
			}
		}
		return nil
	})
}

// noteHolders publishes each seat's account for SeatsHeldBy, which any
// goroutine may call; it runs on the match's run, whenever a seat changes.
func (x *Match) noteHolders() {
	hs := make([]string, len(x.rec.Seats))
	for i, s := range x.rec.Seats {
		hs[i] = s.Account
	}
	x.holders.Store(&hs)
}

// SeatsHeldBy returns the seats account holds.
func (x *Match) SeatsHeldBy(account string) []engine.Seat {
	hs := x.holders.Load()
	if hs == nil {
		return nil
	}
	return seatsOf(*hs, account)
}

// CreatorAccount returns the account that created the match, or "".
func (x *Match) CreatorAccount() string { return x.creatorAccount }

// seatsOf returns the seats holders gives to account.
func seatsOf(holders []string, account string) []engine.Seat {
	var out []engine.Seat
	if account == "" {
		return nil
	}
	for i, h := range holders {
		if h == account {
			out = append(out, engine.Seat(i))
		}
	}
	return out
}

// everyoneHere reports whether every human seat has its player here: joined,
// and with a socket open on the match (on this node or another). A match
// that starts by itself waits for it, so that no clock runs while a player
// is still in the lobby or has not opened their invite yet; a match with no
// human seat has everyone here from the start. A correspondence table
// needs every human seat joined, and no socket: its players come by one at
// a time, and have days for a move.
func (x *Match) everyoneHere() bool {
	for i, s := range x.rec.Seats {
		if s.Kind == Human && (!s.Joined || x.seats[i].sub == nil && !x.set.Correspondence) {
			return false
		}
	}
	return true
}

// startIfHere starts an open match that starts by itself once everyone is
// here. (A start that waits for the store is done when it lands.)
func (x *Match) startIfHere() {
	if x.set.AutoStart && x.rec.Status == store.Open && x.everyoneHere() {
		_ = x.start(time.Now())
	}
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
	switch {
	case x.rec.Status == store.Running:
		return refuse(CodeStarted, "The match has already started.")
	case x.rec.Status.Over():
		return refuse(CodeFinished, "The match is over.")
	}
	m, id, epoch := x.mgr, x.id, x.rec.Lease.Epoch
	err := x.save("the start", func(ctx context.Context) error {
		err := m.store.Start(ctx, id, epoch, now)
		if errors.Is(err, store.ErrConflict) {
			// A try again of a start that landed the first time.
			if rec, gerr := m.store.Get(ctx, id); gerr == nil && rec.Status == store.Running {
				return nil
			}
		}
		return err
	}, func() {
		// The clock starts when the start is stored (now, or once the
		// store saves again).
		landed := time.Now()
		x.rec.Status, x.rec.Started = store.Running, now
		x.clockBase, x.clockWall, x.savedClock, x.credit = x.lastAt, landed, time.Time{}, x.lastAt
		x.lastPlayer = landed
		x.noteAbsence()
		for _, st := range x.seats {
			st.away = x.clockBase
		}
		x.trackActors(engine.Spectator)
		x.log.Info("match started")
		x.finishIfOver(landed)
		x.publishState(landed)
	})
	if err != nil && err != errPending && err != stalledErr {
		return x.refusedWrite("the start", err)
	}
	return pending(err, "request")
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
	if x.rec.Status == store.Running {
		s.Actors = x.state.Actors()
	}
	return s
}
