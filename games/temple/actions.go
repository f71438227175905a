package temple

// The actions of §4.3. Dice are named by id (0–24); chambers by tile id
// ("gem_key_1"); treasures and curse cards by id ("teleport_1", "trap_2").
// DecodeAction returns the structs as values; Apply also accepts pointers.

// Roll rolls some of the seat's own unlocked, unpooled dice (§4.3.1).
type Roll struct {
	Dice []int `json:"dice"`
}

// Unlock spends a gold mask to free one or two locked dice of the seat and of
// at most one other adventurer in the same chamber (§4.3.2).
type Unlock struct {
	Gold    int   `json:"gold"`
	Targets []int `json:"targets"`
}

// Enter moves to a connected chamber, paying its entrance cost (§4.3.3).
type Enter struct {
	To        string   `json:"to"`
	Dice      []int    `json:"dice"`
	Treasures []string `json:"treasures,omitempty"`
}

// Discover draws the top tile of the stack and places it beyond a side of
// the seat's chamber, for two adventurers (§4.3.4).
type Discover struct {
	Side Side  `json:"side"`
	Dice []int `json:"dice"`
}

// Commit puts dice (and double treasures) into the gem pool of the seat's
// chamber, optionally setting the target tier (§4.4).
type Commit struct {
	Tier      int      `json:"tier,omitempty"`
	Dice      []int    `json:"dice"`
	Treasures []string `json:"treasures,omitempty"`
}

// Retarget sets the target tier of the pool of the seat's chamber (§4.4).
type Retarget struct {
	Tier int `json:"tier"`
}

// Withdraw takes some of the seat's own items back out of the pool (§4.4).
type Withdraw struct {
	Dice      []int    `json:"dice"`
	Treasures []string `json:"treasures,omitempty"`
}

// Escape leaves the temple from the exit chamber, paying reserve + 1 keys,
// and optionally names who receives a die (§4.8).
type Escape struct {
	Dice      []int    `json:"dice"`
	Treasures []string `json:"treasures,omitempty"`
	GiveTo    *int     `json:"give_to,omitempty"`
}

// GiveDie hands the escaped seat's die to an adventurer inside (§4.8).
type GiveDie struct {
	To int `json:"to"`
}

// ProvokeFate returns one activated gem of a chamber to the reserve and frees
// all the seat's locked dice (§4.3.5).
type ProvokeFate struct {
	Chamber string `json:"chamber"`
}

// ClaimTreasure takes the face-down treasure of the seat's chamber for two
// keys (§4.10).
type ClaimTreasure struct {
	Dice []int `json:"dice"`
}

// UseTreasure uses a held treasure: healing mask, teleport (To) or secret
// passage (A, B) (§4.10).
type UseTreasure struct {
	Treasure string `json:"treasure"`
	To       string `json:"to,omitempty"`
	A        string `json:"a,omitempty"`
	B        string `json:"b,omitempty"`
}

// LiftCurse lifts a held curse card with three of the seat's own dice
// (§4.9.2).
type LiftCurse struct {
	Card string `json:"card"`
	Dice []int  `json:"dice"`
}

// Signal is a public call with no rule effect (§8.6).
type Signal struct {
	Call string `json:"kind"`
}

// Kind returns "roll".
func (Roll) Kind() string { return "roll" }

// Kind returns "unlock".
func (Unlock) Kind() string { return "unlock" }

// Kind returns "enter".
func (Enter) Kind() string { return "enter" }

// Kind returns "discover".
func (Discover) Kind() string { return "discover" }

// Kind returns "commit".
func (Commit) Kind() string { return "commit" }

// Kind returns "retarget".
func (Retarget) Kind() string { return "retarget" }

// Kind returns "withdraw".
func (Withdraw) Kind() string { return "withdraw" }

// Kind returns "escape".
func (Escape) Kind() string { return "escape" }

// Kind returns "give_die".
func (GiveDie) Kind() string { return "give_die" }

// Kind returns "provoke_fate".
func (ProvokeFate) Kind() string { return "provoke_fate" }

// Kind returns "claim_treasure".
func (ClaimTreasure) Kind() string { return "claim_treasure" }

// Kind returns "use_treasure".
func (UseTreasure) Kind() string { return "use_treasure" }

// Kind returns "lift_curse".
func (LiftCurse) Kind() string { return "lift_curse" }

// Kind returns "signal".
func (Signal) Kind() string { return "signal" }
