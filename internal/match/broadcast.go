// What the match tells its audiences: updates, snapshots and seats, each
// encoded from the audience's own view.

package match

import (
	"encoding/json"
	"sync"
	"time"

	"sortie/bot"
	"sortie/engine"
	"sortie/internal/bus"
	"sortie/internal/store"
)

// broadcast tells every audience with a listener its view and events, and
// every bot that remembers what its seat saw.
func (x *Match) broadcast(evs []engine.Event, actor engine.Seat, ack int64) {
	f := x.newFrame(TypeUpdate, x.lastAt, evs)
	for i, st := range x.seats {
		s := engine.Seat(i)
		if st.sub != nil {
			a := int64(-1)
			if s == actor {
				a = ack
			}
			if st.memo == nil {
				st.memo = &viewMemo{}
			}
			x.publish(s, bus.Message{Seq: x.seq, Data: x.encodeFor(f, s, a, nil, st.memo)})
		} else {
			st.memo = nil // nobody saw this state's view: the next one goes whole
		}
		if o, ok := st.bot.(bot.Observer); ok {
			if st.thinking != 0 { // told when it has answered: one goroutine at a time
				st.missed = append(st.missed, seen{x.state.View(s), engine.Visible(nil, evs, s)})
			} else {
				o.Observe(x.state.View(s), engine.Visible(nil, evs, s))
			}
		}
	}
	if len(x.spectators) > 0 {
		if x.specMemo == nil {
			x.specMemo = &viewMemo{}
		}
		x.publish(engine.Spectator,
			bus.Message{Seq: x.seq, Data: x.encodeFor(f, engine.Spectator, -1, nil, x.specMemo)})
	} else {
		x.specMemo = nil
	}
}

// publish gives audience s its message: through the bus between nodes when a
// socket on another node follows it (a watch this node owns, which that node
// subscribed to the topic before asking for), else to this node's sockets
// alone, so that no update crosses to nodes that follow nobody of it.
func (x *Match) publish(s engine.Seat, m bus.Message) {
	t := bus.Topic{Match: x.id, Seat: s}
	if x.followedElsewhere(s) {
		x.mgr.bus.Publish(t, m)
	} else {
		x.mgr.bus.PublishLocal(t, m)
	}
}

// followedElsewhere reports whether a socket on another node follows
// audience s.
func (x *Match) followedElsewhere(s engine.Seat) bool {
	if s != engine.Spectator {
		st := x.seats[s]
		return st.sub != nil && st.elsewhere
	}
	for _, elsewhere := range x.spectators {
		if elsewhere {
			return true
		}
	}
	return false
}

// newFrame prepares a message of type typ about the current state.
func (x *Match) newFrame(typ string, clock engine.Millis, evs []engine.Event) *frame {
	f := &frame{typ: typ, seq: x.seq, status: x.rec.Status, clock: clock, events: evs}
	if x.rec.Status == store.Running {
		f.actors = x.state.Actors()
		f.limits = x.deadlines(time.Now())
	}
	if len(evs) > 0 {
		f.evJSON = make([][]byte, len(evs))
		for i, e := range evs {
			b, err := e.MarshalJSON()
			if err != nil {
				x.log.Error("cannot encode an event", "type", e.Body.Kind(), "err", err)
				b = []byte(`{"type":"unencodable"}`)
			}
			f.evJSON[i] = b
			f.evBytes += len(b)
		}
	}
	if x.rec.Outcome != nil {
		f.outcome, _ = json.Marshal(x.rec.Outcome)
	}
	if r := decodeReason(x.rec.Reason); r != nil {
		f.reason, _ = json.Marshal(r)
	}
	return f
}

// deadlines lists the seats a move limit binds now: human seats that must
// act, whose human plays them, in a game that is not real-time.
func (x *Match) deadlines(now time.Time) []Deadline {
	var out []Deadline
	for i, st := range x.seats {
		if !x.bound(i) {
			continue
		}
		d := Deadline{Seat: engine.Seat(i), At: st.turnStart + x.set.MoveLimit}
		if x.set.Correspondence {
			d.By, d.DaysOffLeft = x.seatDeadline(i, now)
			d.At, _ = x.corrDue(st, x.clock(now))
		}
		out = append(out, d)
	}
	return out
}

// viewBufs hold room for views that write their own JSON; maxKeptView
// bounds what goes back into the pool.
var viewBufs = sync.Pool{New: func() any { return new([]byte) }}

const maxKeptView = 64 << 10

// encodeFor encodes f for audience s from s's view alone. With a memo of
// what the audience was sent of the state before, the message carries only
// what changed in the view (see viewMemo).
func (x *Match) encodeFor(f *frame, s engine.Seat, ack int64, head []byte, memo *viewMemo) []byte {
	buf := viewBufs.Get().(*[]byte)
	defer viewBufs.Put(buf)
	view, err := engine.AppendView((*buf)[:0], x.state, s)
	if err == nil && cap(view) <= maxKeptView {
		*buf = view // the message copies the view: its room serves the next one
	}
	if err != nil {
		x.log.Error("cannot encode a view", "seat", s, "err", err)
		view = []byte(`null`)
	}
	var patch, drop []byte
	if memo != nil {
		var ok bool
		if patch, drop, ok = memo.patch(view, f.seq); !ok {
			patch, drop = nil, nil
		}
	}
	// People are shown what the game offers them (its legal actions, unless
	// listing those would give a puzzle away); bots choose from Legal.
	var legal []engine.Action
	if s >= 0 && x.rec.Status == store.Running && x.seats[s].isActor {
		legal = engine.Offer(x.state, s)
	}
	return f.encode(s, view, patch, drop, legal, ack, head)
}

// snapshot is the full state message for audience s.
func (x *Match) snapshot(s engine.Seat, now time.Time) []byte {
	f := x.newFrame(TypeState, x.clock(now), nil)
	var team *int // the audience's team channel, if it has one
	if t := x.teamOf(s); t >= 0 {
		team = &t
	}
	head, _ := json.Marshal(struct {
		Match string        `json:"match"`
		Game  string        `json:"game"`
		Seat  engine.Seat   `json:"seat"`
		Team  *int          `json:"team,omitempty"`
		Seats []SeatSummary `json:"seats"`
	}{x.id, x.info.ID, s, team, x.seatSummaries()})
	// Splice the head's fields in front of the frame's own.
	head = append(head[1:len(head)-1], ',')
	return x.encodeFor(f, s, -1, head, nil)
}

func (x *Match) seatSummaries() []SeatSummary {
	now := time.Now()
	out := make([]SeatSummary, len(x.seats))
	for i, st := range x.seats {
		r := x.rec.Seats[i]
		by := Human
		if r.Kind == Bot || st.byBot {
			by = Bot
		}
		out[i] = SeatSummary{
			Seat: engine.Seat(i), Kind: r.Kind, Bot: r.Bot, Name: seatName(r), Joined: r.Joined, Left: r.Left,
			Account: r.Account, Deleted: r.Deleted, Connected: st.sub != nil, PlayedBy: by,
		}
		out[i].Deadline, out[i].DaysOffLeft = x.seatDeadline(i, now)
	}
	return out
}

// publishSeats tells every audience who is connected and who plays.
func (x *Match) publishSeats() {
	b, _ := json.Marshal(struct {
		Type  string        `json:"type"`
		Seq   uint64        `json:"seq"`
		Seats []SeatSummary `json:"seats"`
	}{TypeSeats, x.seq, x.seatSummaries()})
	for i, st := range x.seats {
		if st.sub != nil {
			x.publish(engine.Seat(i), bus.Message{Data: b})
		}
	}
	if len(x.spectators) > 0 {
		x.publish(engine.Spectator, bus.Message{Data: b})
	}
}

// publishState sends every audience a full snapshot (when the match starts).
func (x *Match) publishState(now time.Time) {
	for i, st := range x.seats {
		if st.sub != nil {
			x.publish(engine.Seat(i), bus.Message{Data: x.snapshot(engine.Seat(i), now)})
		}
	}
	if len(x.spectators) > 0 {
		x.publish(engine.Spectator, bus.Message{Data: x.snapshot(engine.Spectator, now)})
	}
}
