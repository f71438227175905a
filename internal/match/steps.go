// Views at a step: what one audience saw after record K of a match's log,
// rebuilt by replaying the stored log from the setup, so that a replay can
// draw the board at every step. Finished matches show any seat's; a match
// under way shows the spectators' view to anyone and a seat's own to the
// holder of its token alone, never another seat's.

package match

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"sortie/engine"
	"sortie/internal/store"
)

// rebuildWait bounds the wait for a place among the rebuilds.
const rebuildWait = 2 * time.Second

// CodeNoToken refuses a request that needs a seat's token and has none.
const CodeNoToken = "no_token"

// StepView is what an audience saw after record Seq of a match's log.
type StepView struct {
	Seq uint64 `json:"seq"`
	// Clock is the match time of record Seq (0 at the start).
	Clock engine.Millis   `json:"clock"`
	View  json.RawMessage `json:"view"`
	// Events are the events of record Seq the audience saw.
	Events []json.RawMessage `json:"events"`
}

// View returns what audience seat (a seat or engine.Spectator) saw after
// record step of match id's log. token is the caller's seat token, if any,
// and account the account it is signed in to, if any: while the match is
// under way the token must hold seat, or the account hold it, for a seat's
// view.
func (m *Manager) View(ctx context.Context, id string, seat engine.Seat, step int, token, account string) (*StepView, error) {
	rec, err := m.overOrStored(ctx, id)
	if err != nil {
		return nil, err
	}
	if seat != engine.Spectator && (seat < 0 || int(seat) >= len(rec.Seats)) {
		return nil, refuse(CodeUnknownSeat, "This match has no seat %d.", seat)
	}
	if rec.Status == store.Failed || rec.Status == store.Closed {
		return nil, overRefusal(rec)
	}
	if !rec.Status.Over() && seat != engine.Spectator && (account == "" || rec.Seats[seat].Account != account) {
		switch {
		case token == "":
			return nil, refuse(CodeNoToken, "While the match is under way, a seat's view is shown to its player alone: send the seat's token.")
		case !tokenMatches(token, rec.Seats[seat].TokenHash):
			return nil, refuse(CodeBadToken, "This token does not hold seat %d of this match.", seat)
		}
	}
	if step < 0 || step > rec.Records {
		return nil, refuse(CodeBadParameters, "There is no step %d: the log has %d records.", step, rec.Records).with("records", rec.Records)
	}
	g, err := m.Game(rec.Game)
	if err != nil {
		return nil, refuse(CodeUnavailable, "The game of this match (%s) is not on this server.", rec.Game)
	}
	out := &StepView{Seq: uint64(step), Events: []json.RawMessage{}}
	if err := m.rebuilding(ctx); err != nil {
		return nil, err
	}
	defer m.rebuilt()
	s, at, last, err := m.stateAt(ctx, g, id, rec.Setup, step)
	out.Clock = at
	if err != nil {
		m.log.Error("cannot rebuild a step of a match", "match", id, "step", step, "err", err)
		return nil, refuse(CodeUnavailable, "Match %s cannot be rebuilt from its log.", id)
	}
	if out.View, err = engine.AppendView(nil, s, seat); err != nil {
		return nil, refuse(CodeUnavailable, "The view could not be encoded.")
	}
	for _, e := range engine.Visible(nil, last, seat) {
		if b, err := e.MarshalJSON(); err == nil {
			out.Events = append(out.Events, b)
		}
	}
	return out, nil
}

// overOrStored returns match id's row as stored, or as the log cache keeps
// it once the match is over (its row changes no more then, but to fail,
// which lets the cache's copy go): a replay's views of every step read the
// store once.
func (m *Manager) overOrStored(ctx context.Context, id string) (*store.Match, error) {
	if rec, ok := m.logs.overRecord(id); ok {
		if m.pastRetention(rec.Finished, time.Now()) {
			return nil, refuse(CodeUnknownMatch, "There is no match %q.", id)
		}
		return rec, nil
	}
	rec, err := m.stored(ctx, id)
	if err == nil && rec.Status.Over() && rec.Status != store.Failed && rec.Status != store.Closed {
		m.logs.keepOverRecord(rec)
	}
	return rec, err
}

// stateAt returns the state after record step of match id's log, with the
// time and events of that record. It starts from the nearest state the log
// cache keeps before it, and keeps some of the states it passes, so that a
// view at any step costs about what a view near the start does.
func (m *Manager) stateAt(ctx context.Context, g engine.Game, id string, setup engine.Setup, step int) (engine.State, engine.Millis, []engine.Event, error) {
	log, err := m.logRecords(ctx, id, step)
	if err != nil {
		return nil, 0, nil, err
	}
	var s engine.State
	from := 0
	// The events of record step come from playing it: start before it.
	if p, ok := m.logs.nearest(id, step-1); ok {
		s, from = p.state.Clone(), p.k
	} else if s, err = g.New(setup); err != nil {
		return nil, 0, nil, err
	}
	var at engine.Millis
	var evs []engine.Event
	for k := from + 1; k <= step; k++ {
		r, err := engine.DecodeRecord(g, log[k-1])
		if err != nil {
			return nil, 0, nil, fmt.Errorf("record %d: %v", k, err)
		}
		if evs, err = engine.Play(s, r); err != nil {
			return nil, 0, nil, fmt.Errorf("record %d: %v", k, err)
		}
		at = r.At
		if k%stepEvery == 0 {
			m.logs.keepState(id, k, at, s.Clone())
		}
	}
	return s, at, evs, nil
}

// rebuilding waits for a place among the rebuilds of past steps that may run
// at once (half the cores, at least one), so that readers of replays never
// take the cores the matches under way need; it refuses when ctx ends
// first. The caller calls rebuilt when done.
func (m *Manager) rebuilding(ctx context.Context) error {
	t := time.NewTimer(rebuildWait)
	defer t.Stop()
	select {
	case m.rebuilds <- struct{}{}:
		return nil
	case <-t.C:
	case <-ctx.Done():
	}
	return refuse(CodeUnavailable, "The server is busy rebuilding other replays; try again in a moment.")
}

func (m *Manager) rebuilt() { <-m.rebuilds }

// replayLog replays the first n records of match id's stored log from its
// setup, calling fn (if not nil) after each with its number (from 1), its
// time, its events and the state after it, which fn must not keep. It
// returns the state after record n.
func replayLog(ctx context.Context, m *Manager, g engine.Game, id string, setup engine.Setup, n int, fn func(k int, at engine.Millis, evs []engine.Event, s engine.State)) (engine.State, error) {
	log, err := m.logRecords(ctx, id, n)
	if err != nil {
		return nil, err
	}
	s, err := g.New(setup)
	if err != nil {
		return nil, err
	}
	for i, raw := range log[:n] {
		r, err := engine.DecodeRecord(g, raw)
		if err != nil {
			return nil, fmt.Errorf("record %d: %v", i+1, err)
		}
		evs, err := engine.Play(s, r)
		if err != nil {
			return nil, fmt.Errorf("record %d: %v", i+1, err)
		}
		if fn != nil {
			fn(i+1, r.At, evs, s)
		}
	}
	return s, nil
}
