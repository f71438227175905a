package temple

import "sortie/engine"

// The events of §4.11. Everything in them is public: no event names a tile
// before it is face up or a treasure lying face down.

// Item is a die or a treasure in a pool, with its owner.
type Item struct {
	Seat     int    `json:"seat"`
	Die      *int   `json:"die,omitempty"`
	Treasure string `json:"treasure,omitempty"`
}

// RolledDie is one die of a roll and its new face.
type RolledDie struct {
	ID   int  `json:"id"`
	Face Face `json:"face"`
}

// Loss is a die lost at a door slam or the end of a sand run.
type Loss struct {
	Seat int `json:"seat"`
	Die  int `json:"die"`
}

// Rolled: a seat rolled some of its dice.
type Rolled struct {
	Seat int         `json:"seat"`
	Dice []RolledDie `json:"dice"`
}

// DieLost: a rushed roll under a lost_dice curse dropped a die (§4.9.3).
type DieLost struct {
	Seat  int    `json:"seat"`
	Die   int    `json:"die"`
	Cause string `json:"cause"`
}

// Unlocked: a gold mask freed locked dice.
type Unlocked struct {
	Seat    int   `json:"seat"`
	Gold    int   `json:"gold"`
	Targets []int `json:"targets"`
}

// Entered: an adventurer moved to another chamber.
type Entered struct {
	Seat int    `json:"seat"`
	From string `json:"from"`
	To   string `json:"to"`
}

// Discovered: a tile was drawn and placed face up.
type Discovered struct {
	Seat   int    `json:"seat"`
	Tile   string `json:"tile"`
	X      int    `json:"x"`
	Y      int    `json:"y"`
	Stairs Side   `json:"stairs"`
	Breach bool   `json:"breach"`
}

// CurseDrawn: the discoverer of a purple-mask chamber drew a curse.
type CurseDrawn struct {
	Seat      int    `json:"seat"`
	Card      string `json:"card"`
	DieOnCard *int   `json:"die_on_card,omitempty"`
}

// CurseDiscarded: a drawn curse was removed from the game.
type CurseDiscarded struct {
	Seat   int    `json:"seat"`
	Card   string `json:"card"`
	Reason string `json:"reason"`
}

// CurseLifted: a seat lifted one of its curses.
type CurseLifted struct {
	Seat int    `json:"seat"`
	Card string `json:"card"`
}

// TreasurePlaced: a treasure was laid face down on a chest.
type TreasurePlaced struct {
	Chamber string `json:"chamber"`
}

// TreasureClaimed: a seat took a treasure face up.
type TreasureClaimed struct {
	Seat     int    `json:"seat"`
	Chamber  string `json:"chamber"`
	Treasure string `json:"treasure"`
	// ExtraGem is where the gem of an extra_gem came from: "reserve",
	// "side" or "none".
	ExtraGem string `json:"extra_gem,omitempty"`
}

// TreasureUsed: a seat used a treasure by action.
type TreasureUsed struct {
	Seat     int    `json:"seat"`
	Treasure string `json:"treasure"`
	To       string `json:"to,omitempty"`
	A        string `json:"a,omitempty"`
	B        string `json:"b,omitempty"`
	Freed    []int  `json:"freed,omitempty"`
}

// Committed: items went into a gem pool.
type Committed struct {
	Seat    int    `json:"seat"`
	Chamber string `json:"chamber"`
	Items   []Item `json:"items"`
	Tier    int    `json:"tier"`
}

// Retargeted: a pool's target tier changed.
type Retargeted struct {
	Seat    int    `json:"seat"`
	Chamber string `json:"chamber"`
	Tier    int    `json:"tier"`
}

// Withdrawn: items came back out of a pool.
type Withdrawn struct {
	Seat    int    `json:"seat"`
	Chamber string `json:"chamber"`
	Items   []Item `json:"items"`
}

// Activated: a chamber's gem field was activated.
type Activated struct {
	Chamber     string `json:"chamber"`
	Tier        int    `json:"tier"`
	Gems        int    `json:"gems"`
	FromReserve int    `json:"from_reserve"`
	FromSide    int    `json:"from_side"`
	Consumed    []Item `json:"consumed"`
	Returned    []Item `json:"returned"`
}

// FateProvoked: a gem went back and a seat's locked dice were freed.
type FateProvoked struct {
	Seat    int    `json:"seat"`
	Chamber string `json:"chamber"`
	To      string `json:"to"`
	Freed   []int  `json:"freed"`
}

// Escaped: an adventurer left the temple.
type Escaped struct {
	Seat int `json:"seat"`
	Paid int `json:"paid"`
	Cost int `json:"cost"`
}

// DieGiven: an escaped adventurer's die went to one inside, rolled.
type DieGiven struct {
	From int  `json:"from"`
	To   int  `json:"to"`
	Die  int  `json:"die"`
	Face Face `json:"face"`
	Auto bool `json:"auto"`
}

// Gong: a countdown started.
type Gong struct {
	N int `json:"n"`
}

// DoorSlam: the start chamber's door slammed.
type DoorSlam struct {
	N      int    `json:"n"`
	Losses []Loss `json:"losses"`
}

// SandOut: an hourglass run ended.
type SandOut struct {
	Run    int    `json:"run"`
	Losses []Loss `json:"losses"`
}

// SandTurned: the hourglass was turned for a new run.
type SandTurned struct {
	Run int `json:"run"`
}

// Collapse: the temple collapsed.
type Collapse struct {
	Inside []int `json:"inside"`
}

// SignalSent: a public call.
type SignalSent struct {
	Seat int    `json:"seat"`
	Call string `json:"kind"`
}

// GameOver: the game ended.
type GameOver struct {
	Won    bool   `json:"won"`
	Reason string `json:"reason"`
}

// Kind returns "rolled".
func (Rolled) Kind() string { return "rolled" }

// Kind returns "die_lost".
func (DieLost) Kind() string { return "die_lost" }

// Kind returns "unlocked".
func (Unlocked) Kind() string { return "unlocked" }

// Kind returns "entered".
func (Entered) Kind() string { return "entered" }

// Kind returns "discovered".
func (Discovered) Kind() string { return "discovered" }

// Kind returns "curse_drawn".
func (CurseDrawn) Kind() string { return "curse_drawn" }

// Kind returns "curse_discarded".
func (CurseDiscarded) Kind() string { return "curse_discarded" }

// Kind returns "curse_lifted".
func (CurseLifted) Kind() string { return "curse_lifted" }

// Kind returns "treasure_placed".
func (TreasurePlaced) Kind() string { return "treasure_placed" }

// Kind returns "treasure_claimed".
func (TreasureClaimed) Kind() string { return "treasure_claimed" }

// Kind returns "treasure_used".
func (TreasureUsed) Kind() string { return "treasure_used" }

// Kind returns "committed".
func (Committed) Kind() string { return "committed" }

// Kind returns "retargeted".
func (Retargeted) Kind() string { return "retargeted" }

// Kind returns "withdrawn".
func (Withdrawn) Kind() string { return "withdrawn" }

// Kind returns "activated".
func (Activated) Kind() string { return "activated" }

// Kind returns "fate_provoked".
func (FateProvoked) Kind() string { return "fate_provoked" }

// Kind returns "escaped".
func (Escaped) Kind() string { return "escaped" }

// Kind returns "die_given".
func (DieGiven) Kind() string { return "die_given" }

// Kind returns "gong".
func (Gong) Kind() string { return "gong" }

// Kind returns "door_slam".
func (DoorSlam) Kind() string { return "door_slam" }

// Kind returns "sand_out".
func (SandOut) Kind() string { return "sand_out" }

// Kind returns "sand_turned".
func (SandTurned) Kind() string { return "sand_turned" }

// Kind returns "collapse".
func (Collapse) Kind() string { return "collapse" }

// Kind returns "signal".
func (SignalSent) Kind() string { return "signal" }

// Kind returns "game_over".
func (GameOver) Kind() string { return "game_over" }

var _ []engine.EventBody = []engine.EventBody{
	Rolled{}, DieLost{}, Unlocked{}, Entered{}, Discovered{}, CurseDrawn{}, CurseDiscarded{},
	CurseLifted{}, TreasurePlaced{}, TreasureClaimed{}, TreasureUsed{}, Committed{}, Retargeted{},
	Withdrawn{}, Activated{}, FateProvoked{}, Escaped{}, DieGiven{}, Gong{}, DoorSlam{}, SandOut{},
	SandTurned{}, Collapse{}, SignalSent{}, GameOver{},
}
