// History: what an audience was told so far, so that a page rebuilt after a
// reload shows the same log as one that stayed open. It is rebuilt from the
// stored log and table talk, off the match's run, with the same
// filter as the updates (engine.Visible): an audience never learns more
// from its history than it was told live, and a restart changes nothing.

package match

import (
	"context"
	"encoding/json"
	"strconv"

	"sortie/engine"
)

// HistoryLimit bounds a state message's history: its newest entries (records
// with events the audience may see, and lines of table talk it hears).
const HistoryLimit = 300

// historyLimit is HistoryLimit; tests lower it.
var historyLimit = HistoryLimit

// TypeEvents is the type of a history entry holding the events of one
// record: {"type":"events","seq":K,"clock":C,"events":[…]}.
const TypeEvents = "events"

// historyRef is where a snapshot stands: the records and lines of talk it
// includes, and the team channel of its audience.
type historyRef struct {
	seq  uint64
	chat int
	team int
}

// historyRef returns where a snapshot for audience s taken now stands.
func (x *Match) historyRef(s engine.Seat) historyRef {
	return historyRef{seq: x.seq, chat: x.chatN, team: x.teamOf(s)}
}

// withHistory adds the history of audience s up to ref to a state message.
// It runs off the match's run: it reads only the log cache or the store,
// and what never changes (the game and the setup). If neither holds the
// log, the message goes without a history, and the client keeps the log it
// holds; that is said once while the store fails, not once a message.
func (x *Match) withHistory(ctx context.Context, state []byte, s engine.Seat, ref historyRef) []byte {
	h, err := x.history(ctx, s, ref)
	if err != nil {
		if x.mgr.historyLost.CompareAndSwap(false, true) {
			x.log.Warn("state messages go without their history until the store can be read", "err", err)
		} else {
			x.log.Debug("a state message goes without its history", "err", err)
		}
		return state
	}
	if x.mgr.historyLost.CompareAndSwap(true, false) {
		x.log.Info("state messages have their history again")
	}
	out := make([]byte, 0, len(state)+len(h)+16)
	out = append(out, state[:len(state)-1]...)
	out = append(out, `,"history":`...)
	out = append(out, h...)
	return append(out, '}')
}

// history encodes the entries audience s was told up to ref, oldest first,
// at most historyLimit of them.
func (x *Match) history(ctx context.Context, s engine.Seat, ref historyRef) ([]byte, error) {
	var entries [][]byte
	var lines []Line
	var raws [][]byte
	if ref.chat > 0 {
		all, err := x.mgr.chatLines(ctx, x.id, ref.chat)
		if err != nil {
			return nil, err
		}
		for _, b := range all {
			var l Line
			if json.Unmarshal(b, &l) != nil || !l.hears(s, ref.team) {
				continue
			}
			lines, raws = append(lines, l), append(raws, b)
		}
	}
	next := 0 // the next line of talk to place
	talkUpTo := func(seq uint64) {
		for next < len(lines) && lines[next].Seq <= seq {
			entries = append(entries, raws[next])
			next++
		}
	}
	talkUpTo(0)
	if ref.seq > 0 {
		_, err := replayLog(ctx, x.mgr, x.game, x.id, x.setup, int(ref.seq), func(k int, at engine.Millis, evs []engine.Event, _ engine.State) {
			if e := eventsEntry(k, at, evs, s); e != nil {
				entries = append(entries, e)
			}
			talkUpTo(uint64(k))
		})
		if err != nil {
			return nil, err
		}
	}
	talkUpTo(^uint64(0))
	if len(entries) > historyLimit {
		entries = entries[len(entries)-historyLimit:]
	}
	size := 2
	for _, e := range entries {
		size += len(e) + 1
	}
	b := make([]byte, 0, size)
	b = append(b, '[')
	for i, e := range entries {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, e...)
	}
	return append(b, ']'), nil
}

// eventsEntry encodes the events of record k that audience s may see, or
// returns nil when there are none.
func eventsEntry(k int, at engine.Millis, evs []engine.Event, s engine.Seat) []byte {
	var b []byte
	for _, e := range engine.Visible(nil, evs, s) {
		ej, err := e.MarshalJSON()
		if err != nil {
			continue
		}
		if b == nil {
			b = append(b, `{"type":"`+TypeEvents+`","seq":`...)
			b = strconv.AppendInt(b, int64(k), 10)
			b = append(b, `,"clock":`...)
			b = strconv.AppendInt(b, int64(at), 10)
			b = append(b, `,"events":[`...)
		} else {
			b = append(b, ',')
		}
		b = append(b, ej...)
	}
	if b == nil {
		return nil
	}
	return append(b, "]}"...)
}
