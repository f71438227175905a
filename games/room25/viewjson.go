package room25

import (
	"slices"

	"sortie/engine/jsonw"
)

// The view writes its own JSON (engine.JSONAppender): the server encodes a
// view for every audience after every action, and encoding/json's
// reflection was a large share of its CPU. Every function here writes
// exactly what json.Marshal writes for the same value — field order,
// omitempty, null for nil lists — and TestViewWritesItsOwnJSON and the
// conformance suite hold it to that. A field added to a view type must be
// added here too.

// AppendJSON appends the view's JSON to dst, as json.Marshal writes it.
func (v View) AppendJSON(dst []byte) []byte {
	dst = jsonw.Int(jsonw.Key(append(dst, '{'), "seat"), v.Seat)
	dst = jsonw.String(jsonw.Key(append(dst, ','), "mode"), v.Mode)
	dst = jsonw.String(jsonw.Key(append(dst, ','), "room_set"), v.RoomSet)
	if len(v.CustomRooms) > 0 {
		dst = appendCounts(jsonw.Key(append(dst, ','), "custom_rooms"), v.CustomRooms)
	}
	dst = jsonw.Bool(jsonw.Key(append(dst, ','), "beacons"), v.Beacons)
	dst = jsonw.String(jsonw.Key(append(dst, ','), "phase"), v.Phase)
	dst = jsonw.Int(jsonw.Key(append(dst, ','), "turn"), v.Turn)
	dst = jsonw.Int(jsonw.Key(append(dst, ','), "turns_left"), v.TurnsLeft)
	dst = jsonw.Int(jsonw.Key(append(dst, ','), "counter"), v.Counter)
	dst = jsonw.Bool(jsonw.Key(append(dst, ','), "alarm"), v.Alarm)
	if v.Round != 0 {
		dst = jsonw.Int(jsonw.Key(append(dst, ','), "round"), v.Round)
	}
	dst = appendNames(jsonw.Key(append(dst, ','), "line"), v.Line)
	if v.Slot != NoCharacter {
		dst = v.Slot.appendJSON(jsonw.Key(append(dst, ','), "slot"))
	}
	if v.Decision != nil {
		dst = appendDecision(jsonw.Key(append(dst, ','), "decision"), v.Decision)
	}
	dst = jsonw.List(jsonw.Key(append(dst, ','), "cells"), v.Cells, appendCell)
	dst = jsonw.List(jsonw.Key(append(dst, ','), "characters"), v.Characters, appendCharacter)
	dst = jsonw.List(jsonw.Key(append(dst, ','), "marks"), v.Marks, appendMark)
	dst = jsonw.List(jsonw.Key(append(dst, ','), "seats"), v.Seats, appendSeat)
	dst = appendNames(jsonw.Key(append(dst, ','), "deaths"), v.Deaths)
	if len(v.Aside) > 0 {
		dst = appendNames(jsonw.Key(append(dst, ','), "aside"), v.Aside)
	}
	if v.Result != nil {
		dst = appendResult(jsonw.Key(append(dst, ','), "result"), v.Result)
	}
	return append(dst, '}')
}

func appendDecision(dst []byte, d *DecisionView) []byte {
	dst = jsonw.String(jsonw.Key(append(dst, '{'), "kind"), d.Kind)
	dst = jsonw.Int(jsonw.Key(append(dst, ','), "seat"), d.Seat)
	dst = d.Character.appendJSON(jsonw.Key(append(dst, ','), "character"))
	if d.Token != NoToken {
		dst = d.Token.appendJSON(jsonw.Key(append(dst, ','), "token"))
	}
	if d.Tile != 0 {
		dst = d.Tile.appendJSON(jsonw.Key(append(dst, ','), "tile"))
	}
	return append(dst, '}')
}

func appendCell(dst []byte, c *CellView) []byte {
	dst = jsonw.Int(jsonw.Key(append(dst, '{'), "cell"), c.Cell)
	dst = c.Tile.appendJSON(jsonw.Key(append(dst, ','), "tile"))
	dst = jsonw.String(jsonw.Key(append(dst, ','), "origin"), c.Origin)
	dst = jsonw.Bool(jsonw.Key(append(dst, ','), "face_up"), c.FaceUp)
	if c.Room != "" {
		dst = jsonw.String(jsonw.Key(append(dst, ','), "room"), c.Room)
	}
	if c.Known {
		dst = append(dst, `,"known":true`...)
	}
	if c.Flooded {
		dst = append(dst, `,"flooded":true`...)
	}
	if len(c.Characters) > 0 {
		dst = appendNames(jsonw.Key(append(dst, ','), "characters"), c.Characters)
	}
	if len(c.Beacons) > 0 {
		dst = appendNames(jsonw.Key(append(dst, ','), "beacons"), c.Beacons)
	}
	if len(c.Hints) > 0 {
		dst = jsonw.List(jsonw.Key(append(dst, ','), "hints"), c.Hints, appendHint)
	}
	if len(c.ViewedBy) > 0 {
		dst = jsonw.Ints(jsonw.Key(append(dst, ','), "viewed_by"), c.ViewedBy)
	}
	return append(dst, '}')
}

func appendHint(dst []byte, h *HintView) []byte {
	dst = jsonw.Int(jsonw.Key(append(dst, '{'), "seat"), h.Seat)
	dst = h.Colour.appendJSON(jsonw.Key(append(dst, ','), "colour"))
	return append(dst, '}')
}

func appendCharacter(dst []byte, c *CharacterView) []byte {
	dst = c.ID.appendJSON(jsonw.Key(append(dst, '{'), "id"))
	dst = jsonw.Int(jsonw.Key(append(dst, ','), "seat"), c.Seat)
	if c.Team != "" {
		dst = jsonw.String(jsonw.Key(append(dst, ','), "team"), c.Team)
	}
	dst = jsonw.Bool(jsonw.Key(append(dst, ','), "alive"), c.Alive)
	dst = jsonw.Int(jsonw.Key(append(dst, ','), "cell"), c.Cell)
	if c.Tile != 0 {
		dst = c.Tile.appendJSON(jsonw.Key(append(dst, ','), "tile"))
	}
	if c.Trapped {
		dst = append(dst, `,"trapped":true`...)
	}
	if c.DrownsTurn != 0 {
		dst = jsonw.Int(jsonw.Key(append(dst, ','), "drowns_turn"), c.DrownsTurn)
	}
	if c.Beacon != 0 {
		dst = c.Beacon.appendJSON(jsonw.Key(append(dst, ','), "beacon"))
	}
	dst = jsonw.Bool(jsonw.Key(append(dst, ','), "programmed"), c.Programmed)
	if c.Tokens != 0 {
		dst = jsonw.Int(jsonw.Key(append(dst, ','), "tokens"), c.Tokens)
	}
	if len(c.Program) > 0 {
		dst = appendNames(jsonw.Key(append(dst, ','), "program"), c.Program)
	}
	if c.Immediate {
		dst = append(dst, `,"immediate":true`...)
	}
	if c.Cold {
		dst = append(dst, `,"cold":true`...)
	}
	if c.Waited {
		dst = append(dst, `,"waited":true`...)
	}
	dst = appendNames(jsonw.Key(append(dst, ','), "shown"), c.Shown[:])
	dst = appendNames(jsonw.Key(append(dst, ','), "previous"), c.Previous[:])
	return append(dst, '}')
}

func appendMark(dst []byte, m *MarkView) []byte {
	dst = m.Line.appendJSON(jsonw.Key(append(dst, '{'), "line"))
	dst = m.Dir.appendJSON(jsonw.Key(append(dst, ','), "dir"))
	return append(dst, '}')
}

func appendSeat(dst []byte, s *SeatView) []byte {
	dst = jsonw.Int(jsonw.Key(append(dst, '{'), "seat"), s.Seat)
	dst = appendNames(jsonw.Key(append(dst, ','), "characters"), s.Characters)
	if s.Team != "" {
		dst = jsonw.String(jsonw.Key(append(dst, ','), "team"), s.Team)
	}
	if s.Role != NoRole {
		dst = s.Role.appendJSON(jsonw.Key(append(dst, ','), "role"))
	}
	if s.RoleRevealed {
		dst = append(dst, `,"role_revealed":true`...)
	}
	if s.StartReady {
		dst = append(dst, `,"start_ready":true`...)
	}
	if s.StartLook != 0 {
		dst = s.StartLook.appendJSON(jsonw.Key(append(dst, ','), "start_look"))
	}
	if s.StartHint != NoColour {
		dst = s.StartHint.appendJSON(jsonw.Key(append(dst, ','), "start_hint"))
	}
	return append(dst, '}')
}

func appendResult(dst []byte, r *ResultView) []byte {
	dst = jsonw.String(jsonw.Key(append(dst, '{'), "reason"), r.Reason)
	dst = jsonw.Ints(jsonw.Key(append(dst, ','), "winners"), r.Winners)
	dst = jsonw.Ints(jsonw.Key(append(dst, ','), "scores"), r.Scores)
	dst = jsonw.Ints(jsonw.Key(append(dst, ','), "ranks"), r.Ranks)
	dst = jsonw.String(jsonw.Key(append(dst, ','), "summary"), r.Summary)
	return append(dst, '}')
}

// appendCounts appends a non-empty map of counts with its keys sorted, as
// encoding/json writes maps. The map holds at most one key per room, so
// the keys are sorted in an array on the stack.
func appendCounts(dst []byte, m map[string]int) []byte {
	var buf [numRooms]string
	keys := buf[:0]
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	dst = append(dst, '{')
	for i, k := range keys {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonw.Int(append(jsonw.String(dst, k), ':'), m[k])
	}
	return append(dst, '}')
}

// named is a component whose JSON is its name (its MarshalText).
type named interface {
	~uint8
	appendJSON(dst []byte) []byte
}

// appendNames appends a list of names as encoding/json writes a slice of
// text marshalers (null when nil).
func appendNames[T named](dst []byte, xs []T) []byte { return jsonw.List(dst, xs, appendName) }

func appendName[T named](dst []byte, x *T) []byte { return (*x).appendJSON(dst) }

// quoted appends a name that needs no escaping (the components' fixed
// names) as a JSON string.
func quoted(dst []byte, name string) []byte {
	dst = append(dst, '"')
	dst = append(dst, name...)
	return append(dst, '"')
}

// The appendJSON methods write what MarshalText writes, quoted, without
// allocating.

func (c Character) appendJSON(dst []byte) []byte { return quoted(dst, c.String()) }
func (r Role) appendJSON(dst []byte) []byte      { return quoted(dst, roleNames[r]) }
func (t Token) appendJSON(dst []byte) []byte     { return quoted(dst, tokenNames[t]) }
func (d Dir) appendJSON(dst []byte) []byte       { return quoted(dst, dirNames[d]) }
func (c Colour) appendJSON(dst []byte) []byte    { return quoted(dst, colourNames[c]) }

func (t TileID) appendJSON(dst []byte) []byte {
	if t == 0 || t > numTiles {
		return append(dst, `""`...)
	}
	i := t - 1
	return append(dst, '"', 't', '0'+byte(i/10), '0'+byte(i%10), '"')
}

func (l Line) appendJSON(dst []byte) []byte {
	if l == 0 || l > numLines {
		return append(dst, `""`...)
	}
	kind := "col"
	if l.isRow() {
		kind = "row"
	}
	dst = append(dst, '"')
	dst = append(dst, kind...)
	return append(dst, '0'+byte(l.pos()), '"')
}
