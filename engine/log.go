package engine

import (
	"encoding/json"
	"fmt"

	jsonv2 "github.com/go-json-experiment/json"
	"github.com/go-json-experiment/json/jsontext"
)

// Record is one entry of a match's action log: seat Seat played Action at
// match time At. A record without an action says only that time passed up to
// At (a real-time game that ended by its clock records its end this way).
// Replaying a log from the match's seed rebuilds the match exactly.
type Record struct {
	Seat   Seat
	Action Action
	At     Millis
}

// MarshalJSON encodes a record as {"seat":0,"action":{...},"at":0}; a
// time-only record has no "action" and no "seat".
func (r Record) MarshalJSON() ([]byte, error) {
	if r.Action == nil {
		return json.Marshal(struct {
			At Millis `json:"at"`
		}{r.At})
	}
	a, err := MarshalTyped(r.Action)
	if err != nil {
		return nil, err
	}
	return json.Marshal(struct {
		Seat   Seat            `json:"seat"`
		Action json.RawMessage `json:"action"`
		At     Millis          `json:"at"`
	}{r.Seat, a, r.At})
}

// DecodeRecord reads a record in the form [Record.MarshalJSON] writes, using
// g to decode the action.
func DecodeRecord(g Game, b []byte) (Record, error) {
	var raw struct {
		Seat   *Seat          `json:"seat"`
		Action jsontext.Value `json:"action"`
		At     Millis         `json:"at"`
	}
	// Replays decode every record of a log: the decoder without
	// reflection's per-call set-up, strict as the client's messages are.
	if err := jsonv2.Unmarshal(b, &raw, jsonv2.RejectUnknownMembers(true)); err != nil {
		return Record{}, fmt.Errorf("not a log record: %v", err)
	}
	r := Record{At: raw.At}
	if len(raw.Action) == 0 || string(raw.Action) == "null" {
		return r, nil
	}
	if raw.Seat == nil {
		return Record{}, fmt.Errorf("the record has an action but no seat")
	}
	a, err := g.DecodeAction(raw.Action)
	if err != nil {
		return Record{}, err
	}
	r.Seat, r.Action = *raw.Seat, a
	return r, nil
}

// Play lets time pass up to r.At and then applies r's action, if any: the one
// way a match, a replay and a simulation move a state forward. It returns the
// events of both steps in order. If the action is refused, the time has still
// passed and the error says why.
func Play(s State, r Record) ([]Event, error) {
	evs := s.Advance(r.At)
	if r.Action == nil {
		return evs, nil
	}
	more, err := s.Apply(r.Seat, r.Action, r.At)
	return append(evs, more...), err
}

// Replay builds a state from a setup and plays a log on it. It stops at the
// first refused record and says which.
func Replay(g Game, setup Setup, log []Record) (State, error) {
	s, err := g.New(setup)
	if err != nil {
		return nil, err
	}
	for i, r := range log {
		if _, err := Play(s, r); err != nil {
			return s, fmt.Errorf("record %d (%s at %d ms): %w", i+1, r.Seat, r.At, err)
		}
	}
	return s, nil
}
