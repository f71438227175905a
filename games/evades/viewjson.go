package evades

import "sortie/engine/jsonw"

// The view writes its own JSON (engine.JSONAppender): the server encodes a
// view for every seat and the spectators after every action, and reflection
// was a large part of that cost. The bytes are exactly those json.Marshal
// writes for the same view — field order, omitempty, the ids' MarshalText —
// as TestViewWritesItsOwnJSON and the conformance suite check. A field added
// to a view type must be added here too.

// The ids as JSON strings, quoted once: a view repeats them many times.
var (
	cardJSON     = quotedIDs(int(numCards), func(i int) string { return cards[i].ID })
	areaJSON     = quotedIDs(numAreas, func(i int) string { return areas[i].ID })
	doorJSON     = quotedIDs(numDoors, func(i int) string { return doors[i].ID })
	passPassJSON = quotedIDs(int(numPassPass), func(i int) string { return passPassCards[i].ID })
	tokenJSON    = quotedIDs(int(numTokens), func(i int) string { return tokens[i].ID })
	objectJSON   = quotedIDs(numObjects, func(i int) string { return objects[i].ID })
	planJSON     = quotedIDs(numPlans, func(i int) string { return plans[i].ID })
	noCardJSON   = jsonw.String(nil, noCardID)
)

func quotedIDs(n int, id func(i int) string) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		out[i] = jsonw.String(nil, id(i))
	}
	return out
}

// appendQuoted appends table[i]. An index out of the table, which
// MarshalText refuses (json.Marshal then fails), is written as null.
func appendQuoted(dst []byte, table [][]byte, i int) []byte {
	if i >= len(table) {
		return append(dst, "null"...)
	}
	return append(dst, table[i]...)
}

// Each id type appends its MarshalText as a JSON string.

func (c Card) appendJSON(dst []byte) []byte {
	if c == noCard {
		return append(dst, noCardJSON...)
	}
	return appendQuoted(dst, cardJSON, int(c))
}

func (a Area) appendJSON(dst []byte) []byte     { return appendQuoted(dst, areaJSON, int(a)) }
func (d Door) appendJSON(dst []byte) []byte     { return appendQuoted(dst, doorJSON, int(d)) }
func (p PassPass) appendJSON(dst []byte) []byte { return appendQuoted(dst, passPassJSON, int(p)) }
func (t Token) appendJSON(dst []byte) []byte    { return appendQuoted(dst, tokenJSON, int(t)) }
func (o Object) appendJSON(dst []byte) []byte   { return appendQuoted(dst, objectJSON, int(o)) }
func (p Plan) appendJSON(dst []byte) []byte     { return appendQuoted(dst, planJSON, int(p)) }

// appendIDs appends a slice of ids as an array of their texts (null when
// nil: encoding/json writes a slice of text marshalers, even of bytes, as
// an array).
func appendIDs[T interface {
	~uint8
	appendJSON([]byte) []byte
}](dst []byte, ids []T) []byte {
	if ids == nil {
		return append(dst, "null"...)
	}
	dst = append(dst, '[')
	for i, x := range ids {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = x.appendJSON(dst)
	}
	return append(dst, ']')
}

// AppendJSON appends the view as json.Marshal writes it.
func (v *View) AppendJSON(dst []byte) []byte {
	dst = append(dst, `{"seat":`...)
	dst = jsonw.Int(dst, v.Seat)
	dst = append(dst, `,"players":`...)
	dst = jsonw.Int(dst, v.Players)
	dst = append(dst, `,"objects_required":`...)
	dst = jsonw.Int(dst, v.ObjectsRequired)
	dst = append(dst, `,"turn":`...)
	dst = jsonw.Int(dst, v.Turn)
	dst = append(dst, `,"turn_limit":`...)
	dst = jsonw.Int(dst, v.TurnLimit)
	dst = append(dst, `,"active":`...)
	dst = jsonw.Int(dst, v.Active)
	dst = append(dst, `,"phase":`...)
	dst = jsonw.String(dst, v.Phase)
	if v.Pending != nil {
		dst = append(dst, `,"pending":`...)
		dst = v.Pending.appendJSON(dst)
	}
	dst = append(dst, `,"direction":`...)
	dst = jsonw.Int(dst, v.Direction)
	dst = append(dst, `,"reverse_at_end":`...)
	dst = jsonw.Bool(dst, v.ReverseAtEnd)
	dst = append(dst, `,"badge_credits":`...)
	dst = jsonw.Int(dst, v.BadgeCredits)
	dst = append(dst, `,"corruption_credits":`...)
	dst = jsonw.Int(dst, v.CorruptionCreds)
	dst = append(dst, `,"doors":`...)
	dst = jsonw.List(dst, v.Doors, appendDoorView)
	dst = append(dst, `,"seats":`...)
	dst = jsonw.List(dst, v.Seats, appendSeatView)
	dst = append(dst, `,"rooms":`...)
	dst = jsonw.List(dst, v.Rooms, appendRoomView)
	dst = append(dst, `,"row":`...)
	dst = appendIDs(dst, v.Row)
	dst = append(dst, `,"draw_pile":`...)
	dst = jsonw.Int(dst, v.DrawPile)
	dst = append(dst, `,"discard":`...)
	dst = appendIDs(dst, v.Discard)
	dst = append(dst, `,"pass_pass_pile":`...)
	dst = jsonw.Int(dst, v.PassPassPile)
	dst = append(dst, `,"pass_pass_discard":`...)
	dst = appendIDs(dst, v.PassPassDiscard)
	dst = append(dst, `,"warning":`...)
	dst = v.Warning.appendJSON(dst)
	dst = append(dst, `,"winner":`...)
	dst = jsonw.Int(dst, v.Winner)
	if v.Revealed != nil {
		dst = append(dst, `,"revealed":`...)
		dst = v.Revealed.appendJSON(dst)
	}
	return append(dst, '}')
}

func (p *PendingView) appendJSON(dst []byte) []byte {
	dst = append(dst, `{"decision":`...)
	dst = jsonw.String(dst, p.Decision)
	dst = append(dst, `,"seat":`...)
	dst = jsonw.Int(dst, p.Seat)
	if p.Card != nil {
		dst = append(dst, `,"card":`...)
		dst = p.Card.appendJSON(dst)
	}
	if p.Target != nil {
		dst = append(dst, `,"target":`...)
		dst = jsonw.Int(dst, *p.Target)
	}
	if p.Count != 0 {
		dst = append(dst, `,"count":`...)
		dst = jsonw.Int(dst, p.Count)
	}
	if p.Draw != "" {
		dst = append(dst, `,"draw":`...)
		dst = jsonw.String(dst, p.Draw)
	}
	if len(p.Slots) > 0 {
		dst = append(dst, `,"slots":`...)
		dst = jsonw.Ints(dst, p.Slots)
	}
	return append(dst, '}')
}

func appendDoorView(dst []byte, d *DoorView) []byte {
	dst = append(dst, `{"door":`...)
	dst = d.Door.appendJSON(dst)
	dst = append(dst, `,"face":`...)
	dst = d.Face.appendJSON(dst)
	dst = append(dst, `,"level":`...)
	dst = jsonw.Int(dst, d.Level)
	dst = append(dst, `,"other":`...)
	dst = d.Other.appendJSON(dst)
	return append(dst, '}')
}

func appendSeatView(dst []byte, s *SeatView) []byte {
	dst = append(dst, `{"seat":`...)
	dst = jsonw.Int(dst, s.Seat)
	dst = append(dst, `,"area":`...)
	dst = s.Area.appendJSON(dst)
	if s.LastDoor != nil {
		dst = append(dst, `,"last_door":`...)
		dst = s.LastDoor.appendJSON(dst)
	}
	dst = append(dst, `,"hand_size":`...)
	dst = jsonw.Int(dst, s.HandSize)
	if len(s.Hand) > 0 {
		dst = append(dst, `,"hand":`...)
		dst = appendIDs(dst, s.Hand)
	}
	if s.Plan != nil {
		dst = append(dst, `,"plan":`...)
		dst = s.Plan.appendJSON(dst)
	}
	if len(s.Carried) > 0 {
		dst = append(dst, `,"carried":`...)
		dst = appendIDs(dst, s.Carried)
	}
	if s.Skip != 0 {
		dst = append(dst, `,"skip":`...)
		dst = jsonw.Int(dst, s.Skip)
	}
	if s.Extra != 0 {
		dst = append(dst, `,"extra":`...)
		dst = jsonw.Int(dst, s.Extra)
	}
	return append(dst, '}')
}

func appendRoomView(dst []byte, r *RoomView) []byte {
	dst = append(dst, `{"room":`...)
	dst = r.Room.appendJSON(dst)
	dst = append(dst, `,"objects":`...)
	dst = appendIDs(dst, r.Objects)
	return append(dst, '}')
}

func (w *WarningView) appendJSON(dst []byte) []byte {
	dst = append(dst, `{"colour":`...)
	dst = jsonw.String(dst, w.Colour)
	dst = append(dst, `,"pile":`...)
	dst = jsonw.Int(dst, w.Pile)
	dst = append(dst, `,"orange_aside":`...)
	dst = appendIDs(dst, w.OrangeAside)
	dst = append(dst, `,"black_aside":`...)
	dst = appendIDs(dst, w.BlackAside)
	return append(dst, '}')
}

func (r *RevealView) appendJSON(dst []byte) []byte {
	dst = append(dst, `{"aside":`...)
	dst = appendIDs(dst, r.Aside)
	dst = append(dst, `,"draw_pile":`...)
	dst = appendIDs(dst, r.DrawPile)
	dst = append(dst, `,"pass_pass_pile":`...)
	dst = appendIDs(dst, r.PassPass)
	dst = append(dst, `,"warning_pile":`...)
	dst = appendIDs(dst, r.WarningPile)
	return append(dst, '}')
}
