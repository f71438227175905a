package match

import (
	"encoding/json"
	"reflect"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"sortie/engine"
	"sortie/internal/store"
)

// ClientMessage is what a client sends on a match socket: an action chosen on
// the state numbered Seq, or a message of another type.
type ClientMessage struct {
	// Type is empty for an action, else one of the Client* types.
	Type   string          `json:"type,omitempty"`
	Seq    uint64          `json:"seq"`
	Action json.RawMessage `json:"action,omitempty"`
	// Text is a line of table talk (ClientChat); Team sends it to the
	// seat's team alone.
	Text string `json:"text,omitempty"`
	Team bool   `json:"team,omitempty"`
}

// Types of the messages a client sends besides actions.
const (
	// ClientChat writes a line of table talk: {"type":"chat","text":"…"}.
	ClientChat = "chat"
	// ClientLeave hands the seat to its bot for the rest of the match.
	ClientLeave = "leave"
	// ClientReturn takes a seat back after ClientLeave.
	ClientReturn = "return"
)

// Message types the server sends on a match socket.
const (
	// TypeState is a full snapshot: on connecting, and when the match
	// starts.
	TypeState = "state"
	// TypeUpdate follows each change of the match: the new view and the
	// events the audience may see. The acting seat's copy carries Ack.
	TypeUpdate = "update"
	// TypeSeats tells who is connected and who plays each seat.
	TypeSeats = "seats"
	// TypeError answers a refused message.
	TypeError = "error"
	// TypePing is the keep-alive of an idle socket; it carries nothing.
	TypePing = "ping"
)

// Message is any message the server sends on a match socket, in the decoded
// form clients written in Go use (the tests, the load generator). Fields a
// type does not use are absent.
type Message struct {
	Type  string `json:"type"`
	Match string `json:"match,omitempty"`
	Game  string `json:"game,omitempty"`
	// Seat is the audience of the socket: a seat, or -1 for spectators
	// (state messages only).
	Seat *engine.Seat `json:"seat,omitempty"`
	// Seq numbers the state the message shows: the count of records in the
	// match's log. An action must name the Seq it was chosen on.
	Seq uint64 `json:"seq"`
	// Ack, on the acting seat's update, is the Seq its accepted action
	// named.
	Ack *uint64 `json:"ack,omitempty"`
	// Re, on an error, is the Seq the refused message named.
	Re     *uint64       `json:"re,omitempty"`
	Status store.Status  `json:"status,omitempty"`
	Clock  engine.Millis `json:"clock"`
	Actors []engine.Seat `json:"actors,omitempty"`
	// Deadlines say, while a move limit runs, when each seat it binds has
	// its move played by its bot.
	Deadlines []Deadline `json:"deadlines,omitempty"`
	// View is the audience's whole view; an update may carry Patch instead:
	// the members of the view that changed since the state before (whose
	// view the socket holds), and Drop, the members that are gone.
	View   json.RawMessage   `json:"view,omitempty"`
	Patch  json.RawMessage   `json:"patch,omitempty"`
	Drop   []string          `json:"drop,omitempty"`
	Events []json.RawMessage `json:"events,omitempty"`
	// Legal are the actions offered to the seat (engine.Offer): its legal
	// actions, unless listing them would give a puzzle away.
	Legal   []json.RawMessage `json:"legal,omitempty"`
	Outcome *engine.Outcome   `json:"outcome,omitempty"`
	// Reason says why the match ended without an outcome (status expired,
	// abandoned, failed or closed).
	Reason *Reason       `json:"reason,omitempty"`
	Seats  []SeatSummary `json:"seats,omitempty"`
	Error  *Error        `json:"error,omitempty"`
	// History, on state messages sent on connecting, is what the audience
	// was told so far, oldest first: TypeEvents entries and lines of table
	// talk (at most HistoryLimit).
	History []json.RawMessage `json:"history,omitempty"`
	// A line of table talk (TypeChat, TypeLeft, TypeBack) fills these, with
	// Seat and Seq above.
	N    int    `json:"n,omitempty"`
	Name string `json:"name,omitempty"`
	Text string `json:"text,omitempty"`
	Team *int   `json:"team,omitempty"`
}

// Deadline is when seat Seat's move limit runs out, in match time. At a
// correspondence table By says it as a wall time, and DaysOffLeft how many
// days off the seat's player has left: At and By move a day on for each
// day off they begin to spend.
type Deadline struct {
	Seat        engine.Seat   `json:"seat"`
	At          engine.Millis `json:"at"`
	By          *time.Time    `json:"by,omitempty"`
	DaysOffLeft *int          `json:"days_off_left,omitempty"`
}

// frame is what a change of the match looks like before it is encoded for
// each audience.
type frame struct {
	typ     string
	seq     uint64
	status  store.Status
	clock   engine.Millis
	actors  []engine.Seat
	limits  []Deadline
	events  []engine.Event
	evJSON  [][]byte // events encoded once, beside events
	evBytes int      // their length together
	outcome []byte   // JSON of the outcome once over, else nil
	reason  []byte   // JSON of the reason of an end without an outcome, else nil
}

// encode builds the message of one audience: with the whole view, or with
// the patch of the view (and the keys it drops) when patch is not nil. ack
// < 0 means none.
func (f *frame) encode(s engine.Seat, view, patch, drop []byte, legal []engine.Action, ack int64, head []byte) []byte {
	size := len(view)
	if patch != nil {
		size = len(patch) + len(drop)
	}
	b := make([]byte, 0, 128+size+len(head)+64*len(legal)+f.evBytes+len(f.evJSON)+len(f.outcome)+len(f.reason))
	b = append(b, `{"type":"`...)
	b = append(b, f.typ...)
	b = append(b, `",`...)
	b = append(b, head...)
	b = append(b, `"seq":`...)
	b = strconv.AppendUint(b, f.seq, 10)
	if ack >= 0 {
		b = append(b, `,"ack":`...)
		b = strconv.AppendInt(b, ack, 10)
	}
	b = append(b, `,"status":"`...)
	b = append(b, f.status...)
	b = append(b, `","clock":`...)
	b = strconv.AppendInt(b, int64(f.clock), 10)
	b = append(b, `,"actors":[`...)
	for i, a := range f.actors {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(a), 10)
	}
	if len(f.limits) > 0 {
		b = append(b, `],"deadlines":[`...)
		for i, d := range f.limits {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(b, `{"seat":`...)
			b = strconv.AppendInt(b, int64(d.Seat), 10)
			b = append(b, `,"at":`...)
			b = strconv.AppendInt(b, int64(d.At), 10)
			if d.By != nil {
				b = append(b, `,"by":"`...)
				b = d.By.AppendFormat(b, time.RFC3339Nano)
				b = append(b, '"')
			}
			if d.DaysOffLeft != nil {
				b = append(b, `,"days_off_left":`...)
				b = strconv.AppendInt(b, int64(*d.DaysOffLeft), 10)
			}
			b = append(b, '}')
		}
	}
	if patch != nil {
		b = append(b, `],"patch":`...)
		b = append(b, patch...)
		if drop != nil {
			b = append(b, `,"drop":`...)
			b = append(b, drop...)
		}
	} else {
		b = append(b, `],"view":`...)
		b = append(b, view...)
	}
	b = append(b, `,"events":[`...)
	first := true
	for i, e := range f.events {
		if !e.To.Sees(s) {
			continue
		}
		if !first {
			b = append(b, ',')
		}
		first = false
		b = append(b, f.evJSON[i]...)
	}
	b = append(b, ']')
	if len(legal) > 0 {
		b = append(b, `,"legal":[`...)
		for i, a := range legal {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendAction(b, a)
		}
		b = append(b, ']')
	}
	if f.outcome != nil {
		b = append(b, `,"outcome":`...)
		b = append(b, f.outcome...)
	}
	if f.reason != nil {
		b = append(b, `,"reason":`...)
		b = append(b, f.reason...)
	}
	return append(b, '}')
}

// actionJSON remembers the JSON of actions the games offer, by value: a
// game's offers come from a bounded set (a tile on a square, a die, a
// door…), and the seat that must act is sent its offer after every change.
// Only comparable values are kept, at most maxActionJSON of them.
var (
	actionJSON  sync.Map // engine.Action → []byte
	actionCount atomic.Int64
	keyables    sync.Map // reflect.Type → bool
)

const maxActionJSON = 1 << 16

// appendAction appends an offered action's JSON (null if it cannot be
// encoded, which the games' conformance tests rule out).
func appendAction(b []byte, a engine.Action) []byte {
	keep := keyable(reflect.TypeOf(a))
	if keep {
		if j, ok := actionJSON.Load(a); ok {
			return append(b, j.([]byte)...)
		}
	}
	j, err := engine.MarshalTyped(a)
	if err != nil {
		return append(b, `null`...)
	}
	if keep && actionCount.Load() < maxActionJSON {
		if _, loaded := actionJSON.LoadOrStore(a, j); !loaded {
			actionCount.Add(1)
		}
	}
	return append(b, j...)
}

// keyable reports whether t is a plain value type, which may be a map key
// and whose values say everything they hold: booleans, numbers, strings,
// and arrays and structs of those (not pointers, whose target may change,
// nor interfaces, whose value may not be comparable).
func keyable(t reflect.Type) bool {
	if k, ok := keyables.Load(t); ok {
		return k.(bool)
	}
	k := plainValue(t)
	keyables.Store(t, k)
	return k
}

func plainValue(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return true
	case reflect.Array:
		return plainValue(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if !plainValue(t.Field(i).Type) {
				return false
			}
		}
		return true
	}
	return false
}
