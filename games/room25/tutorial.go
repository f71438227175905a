package room25

import (
	_ "embed"

	"sortie/coach"
)

// The tutorial (coach.Tutor) is data: tutorial.json, its texts the web
// client's (learn.room25.*). Four prisoners in Cooperation, the learner's
// Scientist and three medium bots: the learner looks at a deadly room
// before the start and says so with a red hint, programs Look then Move,
// looks at a room and walks into it.
//
//go:embed tutorial.json
var tutorial []byte

// Tutorial returns the game's tutorial script.
func (Game) Tutorial() []byte { return tutorial }

// DailyTable is the daily challenge's table: the player's Scientist and
// three medium bots in Cooperation (coach.Challenger).
func (Game) DailyTable() coach.Table { return coach.Table{Players: 4, Seat: 0, Bot: "medium"} }
