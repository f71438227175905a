package plandesecours

import (
	"sortie/engine/jsonw"
)

// This file writes the view's JSON by hand (engine.JSONAppender): the server
// encodes a view for every audience after every action, and encoding/json's
// reflection was a third of its CPU. The bytes must stay exactly those of
// json.Marshal (TestViewWritesItsOwnJSON and the conformance suite compare
// them): a field added to a view type in view.go or reveal.go must be added
// here too, in the same order, with the same omitempty/omitzero rule.
//
// Ids from the component tables (tiles, types, characters, cards, moves,
// headings) are plain identifiers: they are written between quotes without
// escaping. Other strings go through jsonw.String.

// AppendJSON appends the view as json.Marshal writes it.
func (v View) AppendJSON(dst []byte) []byte {
	dst = jsonw.Int(jsonw.Key(append(dst, '{'), "seat"), v.Seat)
	dst = jsonw.Int(jsonw.Key(append(dst, ','), "players"), v.Players)
	dst = jsonw.Bool(jsonw.Key(append(dst, ','), "danger"), v.Danger)
	dst = jsonw.Int(jsonw.Key(append(dst, ','), "round"), v.Round)
	dst = jsonw.Int(jsonw.Key(append(dst, ','), "target"), v.Target)
	dst = jsonw.Ints(jsonw.Key(append(dst, ','), "scores"), v.Scores)
	dst = jsonw.Int(jsonw.Key(append(dst, ','), "first_player"), v.FirstPlayer)
	dst = jsonw.String(jsonw.Key(append(dst, ','), "phase"), v.Phase)
	dst = jsonw.Int(jsonw.Key(append(dst, ','), "actor"), v.Actor)
	if len(v.Hand) > 0 {
		dst = jsonw.List(jsonw.Key(append(dst, ','), "hand"), v.Hand, appendHandTile)
	}
	dst = jsonw.Ints(jsonw.Key(append(dst, ','), "hand_sizes"), v.HandSizes)
	dst = v.Top.appendJSON(jsonw.Key(append(dst, ','), "top"))
	dst = v.NextFacing.appendJSON(jsonw.Key(append(dst, ','), "next_facing"))
	dst = jsonw.Int(jsonw.Key(append(dst, ','), "stack_tiles"), v.StackTiles)
	dst = jsonw.Int(jsonw.Key(append(dst, ','), "draw_pile"), v.DrawPile)
	dst = jsonw.List(jsonw.Key(append(dst, ','), "lost"), v.Lost, appendLostTile)
	if v.Chain != nil {
		dst = v.Chain.appendJSON(jsonw.Key(append(dst, ','), "chain"))
	}
	dst = jsonw.List(jsonw.Key(append(dst, ','), "floors"), v.Floors, appendFloor)
	dst = jsonw.Int(jsonw.Key(append(dst, ','), "floor_deck"), v.FloorDeck)
	if len(v.Dangers) > 0 {
		dst = jsonw.List(jsonw.Key(append(dst, ','), "dangers"), v.Dangers, appendDanger)
	}
	if v.DangerDeck != 0 {
		dst = jsonw.Int(jsonw.Key(append(dst, ','), "danger_deck"), v.DangerDeck)
	}
	if v.LastReveal != nil {
		dst = v.LastReveal.appendJSON(jsonw.Key(append(dst, ','), "last_reveal"))
	}
	if v.Outcome != nil {
		dst = v.Outcome.AppendJSON(jsonw.Key(append(dst, ','), "outcome"))
	}
	return append(dst, '}')
}

func appendHandTile(dst []byte, h *HandTile) []byte {
	dst = appendName(jsonw.Key(append(dst, '{'), "tile"), tiles[h.Tile].id)
	dst = appendName(jsonw.Key(append(dst, ','), "type"), tileTypes[h.Type].id)
	if h.Character != NoCharacter {
		dst = appendName(jsonw.Key(append(dst, ','), "character"), characterNames[h.Character])
	}
	return append(dst, '}')
}

func (t *TopItem) appendJSON(dst []byte) []byte {
	dst = jsonw.String(jsonw.Key(append(dst, '{'), "kind"), t.Kind)
	if t.Tile != 0 {
		dst = appendName(jsonw.Key(append(dst, ','), "tile"), tiles[t.Tile].id)
	}
	if t.Type != 0 {
		dst = appendName(jsonw.Key(append(dst, ','), "type"), tileTypes[t.Type].id)
	}
	if t.Character != NoCharacter {
		dst = appendName(jsonw.Key(append(dst, ','), "character"), characterNames[t.Character])
	}
	dst = jsonw.Int(jsonw.Key(append(dst, ','), "facing"), t.Facing)
	dst = jsonw.Int(jsonw.Key(append(dst, ','), "seat"), t.Seat)
	return append(dst, '}')
}

// appendJSON writes what MarshalJSON writes.
func (f NextFacing) appendJSON(dst []byte) []byte {
	if f == FacingFree {
		return append(dst, `"free"`...)
	}
	return jsonw.Int(dst, f)
}

func appendLostTile(dst []byte, l *LostTile) []byte {
	dst = jsonw.Int(jsonw.Key(append(dst, '{'), "seat"), l.Seat)
	dst = jsonw.Int(jsonw.Key(append(dst, ','), "chain"), l.Chain)
	return append(dst, '}')
}

func (c *ChainView) appendJSON(dst []byte) []byte {
	dst = jsonw.Int(jsonw.Key(append(dst, '{'), "chain"), c.Chain)
	dst = jsonw.Int(jsonw.Key(append(dst, ','), "starter"), c.Starter)
	dst = jsonw.Ints(jsonw.Key(append(dst, ','), "joined"), c.Joined)
	dst = jsonw.Ints(jsonw.Key(append(dst, ','), "declined"), c.Declined)
	dst = jsonw.Int(jsonw.Key(append(dst, ','), "asked"), c.Asked)
	return append(dst, '}')
}

func appendFloor(dst []byte, f *FloorID) []byte { return appendName(dst, floors[*f].id) }

func appendDanger(dst []byte, d *DangerID) []byte { return appendName(dst, dangers[*d].id) }

func (r *Reveal) appendJSON(dst []byte) []byte {
	dst = jsonw.Int(jsonw.Key(append(dst, '{'), "round"), r.Round)
	dst = jsonw.String(jsonw.Key(append(dst, ','), "ended_by"), r.EndedBy)
	dst = jsonw.List(jsonw.Key(append(dst, ','), "floors"), r.Floors, appendFloor)
	dst = jsonw.List(jsonw.Key(append(dst, ','), "stack"), r.Stack, appendRevealItem)
	dst = jsonw.List(jsonw.Key(append(dst, ','), "steps"), r.Steps, appendStep)
	dst = jsonw.Int(jsonw.Key(append(dst, ','), "lost_at"), r.LostAt)
	dst = jsonw.Strings(jsonw.Key(append(dst, ','), "reasons"), r.Reasons)
	if b := r.Blocked; b != nil {
		dst = jsonw.Int(jsonw.Key(append(jsonw.Key(append(dst, ','), "blocked"), '{'), "x"), b.X)
		dst = jsonw.Int(jsonw.Key(append(dst, ','), "y"), b.Y)
		dst = append(appendName(jsonw.Key(append(dst, ','), "side"), headingNames[b.Side&3]), '}')
	}
	if r.ScoringChain != 0 {
		dst = jsonw.Int(jsonw.Key(append(dst, ','), "scoring_chain"), r.ScoringChain)
	}
	dst = jsonw.Ints(jsonw.Key(append(dst, ','), "holders"), r.Holders)
	dst = jsonw.Ints(jsonw.Key(append(dst, ','), "points"), r.Points)
	return append(dst, '}')
}

func appendRevealItem(dst []byte, it *RevealItem) []byte {
	dst = appendName(jsonw.Key(append(dst, '{'), "kind"), itemKindNames[it.Kind&1])
	dst = jsonw.Int(jsonw.Key(append(dst, ','), "seat"), it.Seat)
	if it.Tile != 0 {
		dst = appendName(jsonw.Key(append(dst, ','), "tile"), tiles[it.Tile].id)
	}
	if it.Index != 0 {
		dst = jsonw.Int(jsonw.Key(append(dst, ','), "index"), it.Index)
	}
	if it.Facing != 0 {
		dst = jsonw.Int(jsonw.Key(append(dst, ','), "facing"), it.Facing)
	}
	if it.FaceDown {
		dst = append(jsonw.Key(append(dst, ','), "face_down"), "true"...)
	}
	if it.Chain != 0 {
		dst = jsonw.Int(jsonw.Key(append(dst, ','), "chain"), it.Chain)
	}
	if it.Status != NoStatus {
		dst = appendName(jsonw.Key(append(dst, ','), "status"), lostStatusNames[it.Status&3])
	}
	return append(dst, '}')
}

func appendStep(dst []byte, st *Step) []byte {
	dst = append(dst, '{')
	if st.Index != 0 {
		dst = append(jsonw.Int(jsonw.Key(dst, "index"), st.Index), ',')
	}
	dst = appendName(jsonw.Key(dst, "tile"), tiles[st.Tile].id)
	if st.Pass {
		dst = append(jsonw.Key(append(dst, ','), "pass"), "true"...)
	}
	dst = jsonw.Int(jsonw.Key(append(dst, ','), "x"), st.X)
	dst = jsonw.Int(jsonw.Key(append(dst, ','), "y"), st.Y)
	dst = appendName(jsonw.Key(append(dst, ','), "move"), moveNames[st.Move])
	dst = appendName(jsonw.Key(append(dst, ','), "heading"), headingNames[st.Heading&3])
	return append(dst, '}')
}

// appendName writes a component table's id, which needs no escaping (the
// ids are letters, digits and underscores).
func appendName(dst []byte, id string) []byte {
	dst = append(dst, '"')
	dst = append(dst, id...)
	return append(dst, '"')
}
