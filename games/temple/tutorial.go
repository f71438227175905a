package temple

import (
	_ "embed"

	"sortie/coach"
)

// The tutorial (coach.Tutor) is data: tutorial.json, its texts the web
// client's (learn.temple.*). A solo adventurer with no countdown (the
// "none" timer: the gongs and the door slams are told, not played): roll,
// free a die with a gold mask, enter a gem chamber, discover a chamber
// with two adventurers, pool torches until a gem is activated.
//
//go:embed tutorial.json
var tutorial []byte

// Tutorial returns the game's tutorial script.
func (Game) Tutorial() []byte { return tutorial }

// DailyTable is the daily challenge's table: a solo adventurer against the
// soundtrack's ten minutes (coach.Challenger).
func (Game) DailyTable() coach.Table { return coach.Table{Players: 1, Seat: 0} }
