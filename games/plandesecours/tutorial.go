package plandesecours

import (
	_ "embed"

	"sortie/coach"
)

// The tutorial (coach.Tutor) is data: tutorial.json, its texts the web
// client's (learn.plandesecours.*). Its deal has the bot, who starts, send
// the path back into the start on its second tile: the learner's LOST call
// right after scores, and the next round begins on a Repetition, whose
// free direction the learner chooses.
//
//go:embed tutorial.json
var tutorial []byte

// Tutorial returns the game's tutorial script.
func (Game) Tutorial() []byte { return tutorial }

// DailyTable is the daily challenge's table: the player against one
// medium bot (coach.Challenger).
func (Game) DailyTable() coach.Table { return coach.Table{Players: 2, Seat: 0, Bot: "medium"} }
