package temple

import "sortie/engine/jsonw"

// The view writes its own JSON (engine.JSONAppender): the server encodes a
// view for every seat and the spectators after every action, and in real
// time actions come fast; reflection was a large part of that cost. The
// bytes are exactly those json.Marshal writes for the same view — field
// order (the embedded ChamberTile's fields first), omitempty, the
// MarshalText of faces, statuses, sides and kinds — as
// TestViewWritesItsOwnJSON and the conformance suite check. A field added to
// a view type must be added here too.

// The names of faces, statuses, kinds and sides as JSON strings, quoted
// once: a view repeats them for every die and chamber.
var (
	faceJSON   = quoted(faceNames[:])
	statusJSON = quoted(statusNames[:])
	kindJSON   = quoted(tileKindNames[:])
	sideJSON   = quoted(sideNames[:])
)

func quoted(names []string) [][]byte {
	out := make([][]byte, len(names))
	for i, n := range names {
		out[i] = jsonw.String(nil, n)
	}
	return out
}

// Each enum appends its MarshalText as a JSON string (the String of a
// value out of range, as MarshalText writes it).

func (f Face) appendJSON(dst []byte) []byte {
	if f >= 0 && f < numFaces {
		return append(dst, faceJSON[f]...)
	}
	return jsonw.String(dst, f.String())
}

func (d DieStatus) appendJSON(dst []byte) []byte {
	if d >= 0 && d < numStatuses {
		return append(dst, statusJSON[d]...)
	}
	return jsonw.String(dst, d.String())
}

func (k TileKind) appendJSON(dst []byte) []byte {
	if k >= 0 && int(k) < len(kindJSON) {
		return append(dst, kindJSON[k]...)
	}
	return jsonw.String(dst, k.String())
}

func (s Side) appendJSON(dst []byte) []byte {
	if s >= 0 && int(s) < len(sideJSON) {
		return append(dst, sideJSON[s]...)
	}
	return jsonw.String(dst, s.String())
}

// AppendJSON appends the view as json.Marshal writes it.
func (v *View) AppendJSON(dst []byte) []byte {
	dst = append(dst, '{')
	if v.You != nil {
		dst = append(dst, `"you":`...)
		dst = jsonw.Int(dst, *v.You)
		dst = append(dst, ',')
	}
	dst = append(dst, `"now":`...)
	dst = jsonw.Int(dst, v.Now)
	dst = append(dst, `,"players":`...)
	dst = jsonw.Int(dst, v.Players)
	dst = append(dst, `,"difficulty":`...)
	dst = jsonw.String(dst, v.Difficulty)
	dst = append(dst, `,"curses":`...)
	dst = jsonw.Bool(dst, v.Curses)
	dst = append(dst, `,"treasures":`...)
	dst = jsonw.Bool(dst, v.Treasures)
	dst = append(dst, `,"roll_cooldown_ms":`...)
	dst = jsonw.Int(dst, v.RollCooldown)
	dst = append(dst, `,"clock":`...)
	dst = v.Clock.appendJSON(dst)
	dst = append(dst, `,"reserve":`...)
	dst = jsonw.Int(dst, v.Reserve)
	dst = append(dst, `,"side":`...)
	dst = jsonw.Int(dst, v.Side)
	dst = append(dst, `,"escape_cost":`...)
	dst = jsonw.Int(dst, v.EscapeCost)
	dst = append(dst, `,"gems_activated":`...)
	dst = jsonw.Int(dst, v.GemsActivated)
	dst = append(dst, `,"stack_left":`...)
	dst = jsonw.Int(dst, v.StackLeft)
	dst = append(dst, `,"curse_deck_left":`...)
	dst = jsonw.Int(dst, v.CurseDeckLeft)
	dst = append(dst, `,"treasure_stack_left":`...)
	dst = jsonw.Int(dst, v.TreasureStackLeft)
	dst = append(dst, `,"breach_mode":`...)
	dst = jsonw.Bool(dst, v.BreachMode)
	dst = append(dst, `,"chambers":`...)
	dst = jsonw.List(dst, v.Chambers, appendChamberView)
	dst = append(dst, `,"passages":`...)
	dst = jsonw.List(dst, v.Passages, appendPassage)
	dst = append(dst, `,"seats":`...)
	dst = jsonw.List(dst, v.Seats, appendSeatView)
	dst = append(dst, `,"dice":`...)
	dst = jsonw.List(dst, v.Dice, appendDieView)
	dst = append(dst, `,"removed_curses":`...)
	dst = jsonw.Strings(dst, v.RemovedCurses)
	dst = append(dst, `,"used_treasures":`...)
	dst = jsonw.Strings(dst, v.UsedTreasures)
	dst = append(dst, `,"over":`...)
	dst = jsonw.Bool(dst, v.Over)
	dst = append(dst, `,"won":`...)
	dst = jsonw.Bool(dst, v.Won)
	if v.Reason != "" {
		dst = append(dst, `,"reason":`...)
		dst = jsonw.String(dst, v.Reason)
	}
	if v.Reveal != nil {
		dst = append(dst, `,"reveal":`...)
		dst = v.Reveal.appendJSON(dst)
	}
	dst = append(dst, `,"exit_draw_window":[`...)
	dst = jsonw.Int(dst, v.ExitDrawWindow[0])
	dst = append(dst, ',')
	dst = jsonw.Int(dst, v.ExitDrawWindow[1])
	return append(dst, "]}"...)
}

func (c *Clock) appendJSON(dst []byte) []byte {
	dst = append(dst, `{"timer":`...)
	dst = jsonw.String(dst, c.Timer)
	if c.Track != "" {
		dst = append(dst, `,"track":`...)
		dst = jsonw.String(dst, c.Track)
	}
	dst = append(dst, `,"schedule":`...)
	dst = jsonw.List(dst, c.Schedule, appendCue)
	dst = append(dst, `,"next":`...)
	dst = jsonw.Int(dst, c.Next)
	dst = append(dst, `,"end":`...)
	dst = jsonw.Int(dst, c.End)
	dst = append(dst, `,"time_left":`...)
	dst = jsonw.Int(dst, c.TimeLeft)
	if c.NextSlam != 0 {
		dst = append(dst, `,"next_slam":`...)
		dst = jsonw.Int(dst, c.NextSlam)
	}
	if c.SlamLeft != 0 {
		dst = append(dst, `,"slam_left":`...)
		dst = jsonw.Int(dst, c.SlamLeft)
	}
	if c.Countdown != 0 {
		dst = append(dst, `,"countdown":`...)
		dst = jsonw.Int(dst, c.Countdown)
	}
	if c.SandRun != 0 {
		dst = append(dst, `,"sand_run":`...)
		dst = jsonw.Int(dst, c.SandRun)
	}
	if c.SandMs != 0 {
		dst = append(dst, `,"sand_ms":`...)
		dst = jsonw.Int(dst, c.SandMs)
	}
	return append(dst, '}')
}

func appendCue(dst []byte, c *Cue) []byte {
	dst = append(dst, `{"at":`...)
	dst = jsonw.Int(dst, c.At)
	dst = append(dst, `,"type":`...)
	dst = jsonw.String(dst, c.Type)
	if c.N != 0 {
		dst = append(dst, `,"n":`...)
		dst = jsonw.Int(dst, c.N)
	}
	return append(dst, '}')
}

// appendChamberView writes the embedded tile's fields first, as
// encoding/json promotes them, or none when the tile is nil.
func appendChamberView(dst []byte, c *ChamberView) []byte {
	dst = append(dst, '{')
	if t := c.ChamberTile; t != nil {
		dst = append(dst, `"id":`...)
		dst = jsonw.String(dst, t.ID)
		dst = append(dst, `,"kind":`...)
		dst = t.Kind.appendJSON(dst)
		dst = append(dst, `,"cost":[`...)
		dst = t.Cost[0].appendJSON(dst)
		dst = append(dst, ',')
		dst = t.Cost[1].appendJSON(dst)
		dst = append(dst, `],"symbol":`...)
		dst = t.Symbol.appendJSON(dst)
		if len(t.Tiers) > 0 {
			dst = append(dst, `,"tiers":`...)
			dst = jsonw.List(dst, t.Tiers, appendTier)
		}
		if t.Mask {
			dst = append(dst, `,"mask":true`...)
		}
		if t.Chest {
			dst = append(dst, `,"chest":true`...)
		}
		dst = append(dst, ',')
	}
	dst = append(dst, `"x":`...)
	dst = jsonw.Int(dst, c.X)
	dst = append(dst, `,"y":`...)
	dst = jsonw.Int(dst, c.Y)
	dst = append(dst, `,"stairs":`...)
	dst = c.Stairs.appendJSON(dst)
	dst = append(dst, `,"open":`...)
	dst = c.Open.appendJSON(dst)
	if c.Breaches != 0 {
		dst = append(dst, `,"breaches":`...)
		dst = c.Breaches.appendJSON(dst)
	}
	dst = append(dst, `,"links":`...)
	dst = jsonw.Ints(dst, c.Links)
	if c.Discoverable != 0 {
		dst = append(dst, `,"discoverable":`...)
		dst = c.Discoverable.appendJSON(dst)
	}
	if c.Activated != 0 {
		dst = append(dst, `,"activated":`...)
		dst = jsonw.Int(dst, c.Activated)
	}
	if c.Gems != 0 {
		dst = append(dst, `,"gems":`...)
		dst = jsonw.Int(dst, c.Gems)
	}
	if c.Target != 0 {
		dst = append(dst, `,"target":`...)
		dst = jsonw.Int(dst, c.Target)
	}
	if c.PoolValue != 0 {
		dst = append(dst, `,"pool_value":`...)
		dst = jsonw.Int(dst, c.PoolValue)
	}
	if len(c.Pool) > 0 {
		dst = append(dst, `,"pool":`...)
		dst = jsonw.List(dst, c.Pool, appendItem)
	}
	if c.FaceDownTreasure {
		dst = append(dst, `,"face_down_treasure":true`...)
	}
	return append(dst, '}')
}

// appendJSON writes the set's letters as SideSet.MarshalText does, without
// building the string.
func (s SideSet) appendJSON(dst []byte) []byte {
	dst = append(dst, '"')
	for d := North; d <= West; d++ {
		if s.Has(d) {
			dst = append(dst, sideNames[d]...)
		}
	}
	return append(dst, '"')
}

func appendTier(dst []byte, t *Tier) []byte {
	dst = append(dst, `{"cost":`...)
	dst = jsonw.Int(dst, t.Cost)
	dst = append(dst, `,"gems":`...)
	dst = jsonw.Int(dst, t.Gems)
	return append(dst, '}')
}

func appendItem(dst []byte, it *Item) []byte {
	dst = append(dst, `{"seat":`...)
	dst = jsonw.Int(dst, it.Seat)
	if it.Die != nil {
		dst = append(dst, `,"die":`...)
		dst = jsonw.Int(dst, *it.Die)
	}
	if it.Treasure != "" {
		dst = append(dst, `,"treasure":`...)
		dst = jsonw.String(dst, it.Treasure)
	}
	return append(dst, '}')
}

func appendPassage(dst []byte, p *Passage) []byte {
	dst = append(dst, `{"a":`...)
	dst = jsonw.String(dst, p.A)
	dst = append(dst, `,"b":`...)
	dst = jsonw.String(dst, p.B)
	return append(dst, '}')
}

func appendSeatView(dst []byte, s *SeatView) []byte {
	dst = append(dst, `{"seat":`...)
	dst = jsonw.Int(dst, s.Seat)
	dst = append(dst, `,"colour":`...)
	dst = jsonw.String(dst, s.Colour)
	dst = append(dst, `,"chamber":`...)
	dst = jsonw.Int(dst, s.Chamber)
	if s.ChamberID != "" {
		dst = append(dst, `,"chamber_id":`...)
		dst = jsonw.String(dst, s.ChamberID)
	}
	dst = append(dst, `,"escaped":`...)
	dst = jsonw.Bool(dst, s.Escaped)
	if s.EscapedAt != 0 {
		dst = append(dst, `,"escaped_at":`...)
		dst = jsonw.Int(dst, s.EscapedAt)
	}
	dst = append(dst, `,"next_roll_at":`...)
	dst = jsonw.Int(dst, s.NextRollAt)
	if s.LastRollAt != 0 {
		dst = append(dst, `,"last_roll_at":`...)
		dst = jsonw.Int(dst, s.LastRollAt)
	}
	dst = append(dst, `,"dice":`...)
	dst = jsonw.Int(dst, s.Dice)
	if len(s.Curses) > 0 {
		dst = append(dst, `,"curses":`...)
		dst = jsonw.Strings(dst, s.Curses)
	}
	if len(s.Treasures) > 0 {
		dst = append(dst, `,"treasures":`...)
		dst = jsonw.Strings(dst, s.Treasures)
	}
	if s.GiftDue != 0 {
		dst = append(dst, `,"gift_due":`...)
		dst = jsonw.Int(dst, s.GiftDue)
	}
	if s.Gifting {
		dst = append(dst, `,"gifting":true`...)
	}
	if s.NextSignal != 0 {
		dst = append(dst, `,"next_signal_at":`...)
		dst = jsonw.Int(dst, s.NextSignal)
	}
	return append(dst, '}')
}

func appendDieView(dst []byte, d *DieView) []byte {
	dst = append(dst, `{"id":`...)
	dst = jsonw.Int(dst, d.ID)
	dst = append(dst, `,"owner":`...)
	dst = jsonw.Int(dst, d.Owner)
	dst = append(dst, `,"face":`...)
	dst = d.Face.appendJSON(dst)
	dst = append(dst, `,"status":`...)
	dst = d.Status.appendJSON(dst)
	return append(dst, '}')
}

func (r *Reveal) appendJSON(dst []byte) []byte {
	dst = append(dst, `{"stack":`...)
	dst = jsonw.Strings(dst, r.Stack)
	dst = append(dst, `,"curse_deck":`...)
	dst = jsonw.Strings(dst, r.CurseDeck)
	dst = append(dst, `,"treasure_stack":`...)
	dst = jsonw.Strings(dst, r.TreasureStack)
	dst = append(dst, `,"face_down":`...)
	dst = jsonw.List(dst, r.FaceDown, appendFaceDown)
	dst = append(dst, `,"exit_draw":`...)
	dst = jsonw.Int(dst, r.ExitDraw)
	return append(dst, '}')
}

func appendFaceDown(dst []byte, f *FaceDownView) []byte {
	dst = append(dst, `{"chamber":`...)
	dst = jsonw.String(dst, f.Chamber)
	dst = append(dst, `,"treasure":`...)
	dst = jsonw.String(dst, f.Treasure)
	return append(dst, '}')
}
