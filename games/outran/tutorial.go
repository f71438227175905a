package outran

import (
	_ "embed"

	"sortie/coach"
)

// The tutorial (coach.Tutor) is data: tutorial.json, its texts the web
// client's (learn.outran.*). Against one medium bot, with no vote to stop
// a run and three minutes a run: the learner lays the first path card as
// it shows, then the second backwards under the Reverse card the Vampire
// put in the centre.
//
//go:embed tutorial.json
var tutorial []byte

// Tutorial returns the game's tutorial script.
func (Game) Tutorial() []byte { return tutorial }

// DailyTable is the daily challenge's table: the player against two
// medium bots (coach.Challenger).
func (Game) DailyTable() coach.Table { return coach.Table{Players: 3, Seat: 0, Bot: "medium"} }
