package outran

import (
	"sortie/engine/jsonw"
)

// This file writes the view's JSON by hand (engine.JSONAppender): the server
// encodes a view for every audience after every action, and encoding/json's
// reflection was a third of its CPU. The bytes must stay exactly those of
// json.Marshal (TestViewWritesItsOwnJSON and the conformance suite compare
// them): a field added to a view type in view.go must be added here too, in
// the same place and with the same omitempty rule.
//
// Token and card ids come from the component tables and are plain
// identifiers: they are written between quotes without escaping. Every
// string field of the view goes through jsonw.String.

// AppendJSON appends the view as json.Marshal writes it.
func (v *View) AppendJSON(dst []byte) []byte {
	dst = jsonw.Int(jsonw.Key(append(dst, '{'), "seat"), v.Seat)
	dst = jsonw.Int(jsonw.Key(append(dst, ','), "players"), v.Players)
	dst = jsonw.String(jsonw.Key(append(dst, ','), "monster"), v.Monster)
	dst = jsonw.Int(jsonw.Key(append(dst, ','), "exit_boards"), v.ExitBoards)
	dst = jsonw.Int(jsonw.Key(append(dst, ','), "path_length"), v.PathLength)
	dst = jsonw.String(jsonw.Key(append(dst, ','), "path_layout"), v.PathLayout)
	dst = jsonw.Int(jsonw.Key(append(dst, ','), "max_rounds"), v.MaxRounds)
	dst = v.Timers.appendJSON(jsonw.Key(append(dst, ','), "timers"))
	dst = v.Board.appendJSON(jsonw.Key(append(dst, ','), "board"))
	dst = jsonw.String(jsonw.Key(append(dst, ','), "phase"), v.Phase)
	dst = jsonw.Int(jsonw.Key(append(dst, ','), "round"), v.Round)
	dst = jsonw.Int(jsonw.Key(append(dst, ','), "flipper"), v.Flipper)
	dst = jsonw.Int(jsonw.Key(append(dst, ','), "reveal_at"), v.RevealAt)
	if v.Deadline != nil {
		dst = jsonw.Int(jsonw.Key(append(dst, ','), "deadline"), *v.Deadline)
	}
	if v.Path != nil {
		dst = v.Path.appendJSON(jsonw.Key(append(dst, ','), "path"))
	}
	dst = jsonw.Int(jsonw.Key(append(dst, ','), "path_deck"), v.PathDeck)
	dst = jsonw.Strings(jsonw.Key(append(dst, ','), "path_discard"), v.PathDiscard)
	dst = jsonw.Int(jsonw.Key(append(dst, ','), "deck"), v.Deck)
	dst = jsonw.List(jsonw.Key(append(dst, ','), "discard"), v.Discard, appendCard)
	if len(v.Centre) > 0 {
		dst = jsonw.List(jsonw.Key(append(dst, ','), "centre"), v.Centre, appendCard)
	}
	dst = jsonw.Ints(jsonw.Key(append(dst, ','), "order"), v.Order)
	dst = jsonw.List(jsonw.Key(append(dst, ','), "seats"), v.Seats, appendSeatView)
	if len(v.Hand) > 0 {
		dst = jsonw.List(jsonw.Key(append(dst, ','), "hand"), v.Hand, appendCard)
	}
	if len(v.Palette) > 0 {
		dst = jsonw.List(jsonw.Key(append(dst, ','), "palette"), v.Palette, appendToken)
	}
	if v.Choice != nil {
		dst = v.Choice.appendJSON(jsonw.Key(append(dst, ','), "choice"))
	}
	if v.Turn != nil {
		dst = jsonw.Int(jsonw.Key(append(dst, ','), "turn"), *v.Turn)
	}
	if v.Outcome != nil {
		dst = v.Outcome.AppendJSON(jsonw.Key(append(dst, ','), "outcome"))
	}
	if v.Revealed != nil {
		dst = jsonw.Strings(jsonw.Key(append(jsonw.Key(append(dst, ','), "revealed"), '{'), "path_deck"), v.Revealed.PathDeck)
		dst = append(jsonw.List(jsonw.Key(append(dst, ','), "deck"), v.Revealed.Deck, appendCard), '}')
	}
	return append(dst, '}')
}

func (t *TimersView) appendJSON(dst []byte) []byte {
	dst = jsonw.Int(jsonw.Key(append(dst, '{'), "countdown_ms"), t.CountdownMS)
	dst = jsonw.Int(jsonw.Key(append(dst, ','), "run_limit_ms"), t.RunLimitMS)
	dst = jsonw.Bool(jsonw.Key(append(dst, ','), "stop_vote"), t.StopVote)
	dst = jsonw.Int(jsonw.Key(append(dst, ','), "stop_vote_grace_ms"), t.VoteGraceMS)
	dst = jsonw.Int(jsonw.Key(append(dst, ','), "decision_ms"), t.DecisionMS)
	return append(dst, '}')
}

func (b *BoardView) appendJSON(dst []byte) []byte {
	dst = jsonw.Ints(jsonw.Key(append(dst, '{'), "values"), b.Values[:])
	dst = append(jsonw.Key(append(dst, ','), "icons"), '[')
	for i, icons := range b.Icons {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = jsonw.Strings(dst, icons)
	}
	dst = jsonw.Ints(jsonw.Key(append(dst, ']', ','), "active"), b.Active)
	return append(dst, '}')
}

func (p *PathView) appendJSON(dst []byte) []byte {
	dst = jsonw.String(jsonw.Key(append(dst, '{'), "id"), p.ID)
	dst = jsonw.List(jsonw.Key(append(dst, ','), "symbols"), p.Symbols, appendToken)
	if p.Antidote {
		dst = append(jsonw.Key(append(dst, ','), "antidote"), "true"...)
	}
	dst = jsonw.Strings(jsonw.Key(append(dst, ','), "trail"), p.Trail)
	return append(dst, '}')
}

func appendSeatView(dst []byte, sv *SeatView) []byte {
	dst = jsonw.String(jsonw.Key(append(dst, '{'), "character"), sv.Character)
	dst = jsonw.Int(jsonw.Key(append(dst, ','), "progress"), sv.Progress)
	if sv.Escaped {
		dst = append(jsonw.Key(append(dst, ','), "escaped"), "true"...)
	}
	dst = jsonw.Int(jsonw.Key(append(dst, ','), "position"), sv.Position)
	if sv.Infected {
		dst = append(jsonw.Key(append(dst, ','), "infected"), "true"...)
	}
	if sv.Immune {
		dst = append(jsonw.Key(append(dst, ','), "immune"), "true"...)
	}
	dst = jsonw.Int(jsonw.Key(append(dst, ','), "hand_count"), sv.HandCount)
	if len(sv.Hand) > 0 {
		dst = jsonw.List(jsonw.Key(append(dst, ','), "hand"), sv.Hand, appendCard)
	}
	dst = jsonw.List(jsonw.Key(append(dst, ','), "front"), sv.Front, appendCard)
	if sv.Submitted {
		dst = append(jsonw.Key(append(dst, ','), "submitted"), "true"...)
	}
	if sv.At != 0 {
		dst = jsonw.Int(jsonw.Key(append(dst, ','), "at"), sv.At)
	}
	if sv.Elapsed != 0 {
		dst = jsonw.Int(jsonw.Key(append(dst, ','), "elapsed"), sv.Elapsed)
	}
	if sv.Rank != 0 {
		dst = jsonw.Int(jsonw.Key(append(dst, ','), "rank"), sv.Rank)
	}
	if sv.VoteOpen {
		dst = append(jsonw.Key(append(dst, ','), "vote_open"), "true"...)
	}
	if sv.Voted {
		dst = append(jsonw.Key(append(dst, ','), "voted"), "true"...)
	}
	if len(sv.Cards) > 0 {
		dst = jsonw.List(jsonw.Key(append(dst, ','), "cards"), sv.Cards, appendToken)
	}
	if sv.Result != "" {
		dst = jsonw.String(jsonw.Key(append(dst, ','), "result"), sv.Result)
	}
	if len(sv.Canonical) > 0 {
		dst = jsonw.List(jsonw.Key(append(dst, ','), "canonical"), sv.Canonical, appendToken)
	}
	return append(dst, '}')
}

func (c *ChoiceView) appendJSON(dst []byte) []byte {
	dst = jsonw.String(jsonw.Key(append(dst, '{'), "kind"), c.Kind)
	dst = jsonw.Int(jsonw.Key(append(dst, ','), "seat"), c.Seat)
	if c.Position != 0 {
		dst = jsonw.Int(jsonw.Key(append(dst, ','), "position"), c.Position)
	}
	if len(c.Candidates) > 0 {
		dst = jsonw.Ints(jsonw.Key(append(dst, ','), "candidates"), c.Candidates)
	}
	return append(dst, '}')
}

// appendCard writes what Card.MarshalText writes, between quotes.
func appendCard(dst []byte, c *Card) []byte { return appendName(dst, cards[*c].ID) }

// appendToken writes what Token.MarshalText writes, between quotes.
func appendToken(dst []byte, t *Token) []byte { return appendName(dst, tokens[*t].ID) }

// appendName writes a component table's id, which needs no escaping (the
// ids are letters, digits and underscores).
func appendName(dst []byte, id string) []byte {
	dst = append(dst, '"')
	dst = append(dst, id...)
	return append(dst, '"')
}
