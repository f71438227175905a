package evades

import (
	_ "embed"

	"sortie/coach"
)

// The tutorial (coach.Tutor) is data: tutorial.json, its texts the web
// client's (learn.evades.*). On its deal the learner, who starts, takes two
// cards of the row, crosses three doors (one with a joker, one of level
// two) into the north-east common room, picks up the gas mask their plan
// names, and ends the turn.
//
//go:embed tutorial.json
var tutorial []byte

// Tutorial returns the game's tutorial script.
func (Game) Tutorial() []byte { return tutorial }

// DailyTable is the daily challenge's table: the player against one
// medium bot (coach.Challenger).
func (Game) DailyTable() coach.Table {
	return coach.Table{Players: 2, Options: map[string]string{"first_player": "0"}, Seat: 0, Bot: "medium"}
}
