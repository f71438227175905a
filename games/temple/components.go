package temple

import (
	"fmt"

	"sortie/engine"
)

// This file holds every number and table of the rules reference
// (shared/rules/temple.md): dice faces, gems per player count, the chamber
// tiles, curse cards, treasure tiles, soundtrack timings and the engine
// constants. Values marked (R) in the reference are reconstructed and tunable;
// each lives here once, and the rules refer to them by name.

// Face is a symbol on a die (§2.1). NoFace is the face of a die never rolled.
type Face int8

// The die faces.
const (
	NoFace Face = iota
	Adventurer
	Key
	Torch
	GoldMask
	BlackMask
	numFaces
)

var faceNames = [numFaces]string{"none", "adventurer", "key", "torch", "gold_mask", "black_mask"}

// rollFaces maps a draw of rng.IntN(6) to a face: two adventurers, one key,
// one torch, one gold mask, one black mask (§2.1).
var rollFaces = [6]Face{Adventurer, Adventurer, Key, Torch, GoldMask, BlackMask}

// String returns the face's JSON name.
func (f Face) String() string {
	if f < 0 || f >= numFaces {
		return fmt.Sprintf("face(%d)", int8(f))
	}
	return faceNames[f]
}

// MarshalText writes the face's name ("torch").
func (f Face) MarshalText() ([]byte, error) { return []byte(f.String()), nil }

// UnmarshalText reads a face's name.
func (f *Face) UnmarshalText(b []byte) error {
	for i, n := range faceNames {
		if n == string(b) {
			*f = Face(i)
			return nil
		}
	}
	return fmt.Errorf("%q is not a die face", b)
}

// DieStatus is what a die is doing (§2.1).
type DieStatus int8

// The die statuses.
const (
	Spent DieStatus = iota
	Live
	Locked
	Pooled
	OnCard
	Lost
	Out
	numStatuses
)

var statusNames = [numStatuses]string{"spent", "live", "locked", "pooled", "on_card", "lost", "out"}

// String returns the status's JSON name.
func (d DieStatus) String() string {
	if d < 0 || d >= numStatuses {
		return fmt.Sprintf("status(%d)", int8(d))
	}
	return statusNames[d]
}

// MarshalText writes the status's name ("locked").
func (d DieStatus) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText reads a status's name.
func (d *DieStatus) UnmarshalText(b []byte) error {
	for i, n := range statusNames {
		if n == string(b) {
			*d = DieStatus(i)
			return nil
		}
	}
	return fmt.Errorf("%q is not a die status", b)
}

// Dice per adventurer (§2.1): five each, seven for a solo player. The box
// holds maxDice.
const (
	dicePerPlayer = 5
	diceSolo      = 7
	maxDice       = 25
	maxPlayers    = 5
)

// Side is an absolute side of a cell on the grid (§2.4): x grows east, y
// grows south.
type Side int8

// The four sides, clockwise from north.
const (
	North Side = iota
	East
	South
	West
	noSide Side = -1
)

var sideNames = [4]string{"N", "E", "S", "W"}

// sideDX and sideDY are the neighbour offsets of each side.
var (
	sideDX = [4]int8{0, 1, 0, -1}
	sideDY = [4]int8{-1, 0, 1, 0}
)

func (s Side) opposite() Side  { return (s + 2) % 4 }
func (s Side) turnLeft() Side  { return (s + 3) % 4 }
func (s Side) turnRight() Side { return (s + 1) % 4 }

// String returns "N", "E", "S" or "W" ("" for no side).
func (s Side) String() string {
	if s < 0 || s > 3 {
		return ""
	}
	return sideNames[s]
}

// MarshalText writes the side's letter.
func (s Side) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a side's letter.
func (s *Side) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*s = noSide
		return nil
	}
	for i, n := range sideNames {
		if n == string(b) {
			*s = Side(i)
			return nil
		}
	}
	return fmt.Errorf("%q is not a side (N, E, S or W)", b)
}

// SideSet is a set of sides, written in JSON as their letters in the order
// N, E, S, W ("NES"; "" for none).
type SideSet uint8

// Has reports whether side d is in the set.
func (s SideSet) Has(d Side) bool { return d >= North && d <= West && s&(1<<d) != 0 }

// String returns the letters of the sides in the set.
func (s SideSet) String() string {
	out := ""
	for d := North; d <= West; d++ {
		if s.Has(d) {
			out += sideNames[d]
		}
	}
	return out
}

// MarshalText writes the set's letters.
func (s SideSet) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a set's letters.
func (s *SideSet) UnmarshalText(b []byte) error {
	var set SideSet
	for _, c := range b {
		var d Side
		if err := d.UnmarshalText([]byte{c}); err != nil {
			return err
		}
		set |= 1 << d
	}
	*s = set
	return nil
}

// Rel is an exit of a tile relative to its stairs (§2.4).
type Rel int8

// The relative exits: left, forward (opposite the stairs), right.
const (
	L Rel = iota
	F
	R
)

// absolute turns a relative exit into a side given the stairs side.
func (r Rel) absolute(stairs Side) Side {
	facing := stairs.opposite()
	switch r {
	case L:
		return facing.turnLeft()
	case R:
		return facing.turnRight()
	}
	return facing
}

// TileKind sorts the chamber tiles (§2.3).
type TileKind int8

// The tile kinds.
const (
	StartTile TileKind = iota
	ExitTile
	GemTile
	BasicTile
	MarkedTile
)

var tileKindNames = [...]string{"start", "exit", "gem", "basic", "marked"}

// String returns the kind's JSON name.
func (k TileKind) String() string { return tileKindNames[k] }

// MarshalText writes the kind's name.
func (k TileKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// UnmarshalText reads a kind's name.
func (k *TileKind) UnmarshalText(b []byte) error {
	for i, n := range tileKindNames {
		if n == string(b) {
			*k = TileKind(i)
			return nil
		}
	}
	return fmt.Errorf("%q is not a tile kind", b)
}

// Tier is one gem field of a chamber: Cost symbols activate it and lay Gems
// gems on the chamber (D47).
type Tier struct {
	Cost int `json:"cost"`
	Gems int `json:"gems"`
}

// TileDef is one chamber tile (§2.5). All data are (R) except the counts.
type TileDef struct {
	ID   string
	Kind TileKind
	// Cost is the entrance cost, paid from any side (D7).
	Cost [2]Face
	// Exits are relative to the stairs; the start tile's are absolute W, E.
	Exits []Rel
	// Symbol is the gem fields' symbol (D14), NoFace without fields.
	Symbol Face
	Tiers  []Tier
	// Mask and Chest are the module marks of a marked chamber.
	Mask, Chest bool
}

var (
	gemTiers  = []Tier{{4, 1}, {7, 2}, {10, 3}}
	basicTier = []Tier{{4, 1}}
)

// chamberTiles is the table of every chamber tile but the marked ones
// (§2.5, all data (R) but the counts): the start, the exit, the four gem
// chambers and the 13 basic chambers. The 13 marked chambers copy the basic
// chambers' geometry, cost and gems (D48) and add the marks of markedMarks.
var chamberTiles = [firstMarked]TileDef{
	{ID: "start", Kind: StartTile, Cost: [2]Face{Adventurer, Adventurer}},
	{ID: "exit", Kind: ExitTile, Cost: [2]Face{Adventurer, Key}},
	{ID: "gem_torch_1", Kind: GemTile, Cost: [2]Face{Adventurer, Torch}, Exits: []Rel{L, R}, Symbol: Torch, Tiers: gemTiers},
	{ID: "gem_torch_2", Kind: GemTile, Cost: [2]Face{Adventurer, Torch}, Exits: []Rel{L, R}, Symbol: Torch, Tiers: gemTiers},
	{ID: "gem_key_1", Kind: GemTile, Cost: [2]Face{Adventurer, Key}, Exits: []Rel{L, F}, Symbol: Key, Tiers: gemTiers},
	{ID: "gem_key_2", Kind: GemTile, Cost: [2]Face{Adventurer, Key}, Exits: []Rel{L, F}, Symbol: Key, Tiers: gemTiers},
	{ID: "basic_01", Kind: BasicTile, Cost: [2]Face{Adventurer, Adventurer}, Exits: []Rel{F}},
	{ID: "basic_02", Kind: BasicTile, Cost: [2]Face{Adventurer, Adventurer}, Exits: []Rel{L, F, R}},
	{ID: "basic_03", Kind: BasicTile, Cost: [2]Face{Adventurer, Adventurer}, Exits: []Rel{L, R}, Symbol: Torch, Tiers: basicTier},
	{ID: "basic_04", Kind: BasicTile, Cost: [2]Face{Adventurer, Key}, Exits: []Rel{L, F}},
	{ID: "basic_05", Kind: BasicTile, Cost: [2]Face{Adventurer, Key}, Exits: []Rel{F, R}, Symbol: Key, Tiers: basicTier},
	{ID: "basic_06", Kind: BasicTile, Cost: [2]Face{Adventurer, Key}, Exits: []Rel{L, F, R}, Symbol: Key, Tiers: basicTier},
	{ID: "basic_07", Kind: BasicTile, Cost: [2]Face{Adventurer, Torch}, Exits: []Rel{L, F}, Symbol: Torch, Tiers: basicTier},
	{ID: "basic_08", Kind: BasicTile, Cost: [2]Face{Adventurer, Torch}, Exits: []Rel{F, R}},
	{ID: "basic_09", Kind: BasicTile, Cost: [2]Face{Adventurer, Torch}, Exits: []Rel{L, F, R}, Symbol: Torch, Tiers: basicTier},
	{ID: "basic_10", Kind: BasicTile, Cost: [2]Face{Key, Torch}, Exits: []Rel{L}, Symbol: Key, Tiers: basicTier},
	{ID: "basic_11", Kind: BasicTile, Cost: [2]Face{Key, Torch}, Exits: []Rel{L, F, R}},
	{ID: "basic_12", Kind: BasicTile, Cost: [2]Face{Key, Key}, Exits: []Rel{R}, Symbol: Key, Tiers: basicTier},
	{ID: "basic_13", Kind: BasicTile, Cost: [2]Face{Torch, Torch}, Exits: []Rel{L, R}, Symbol: Torch, Tiers: basicTier},
}

// markedMarks gives the purple mask and chest of marked_01 … marked_13 (§2.5,
// (R)): 9 masks, 8 chests, 4 tiles with both.
var markedMarks = [13]struct{ Mask, Chest bool }{
	{true, false}, {false, true}, {true, false}, {true, true}, {false, true},
	{true, false}, {false, true}, {true, true}, {true, false}, {false, true},
	{true, true}, {true, false}, {true, true},
}

// tiles is every chamber tile, indexed by tile index: chamberTiles, then
// the 13 marked chambers.
var tiles = buildTiles()

// Tile indexes of the fixed tiles and the first of each group.
const (
	tileStart   = 0
	tileExit    = 1
	firstGem    = 2
	firstBasic  = 6
	firstMarked = 19
	numTiles    = 32
)

func buildTiles() []TileDef {
	ts := append(make([]TileDef, 0, numTiles), chamberTiles[:]...)
	for i, m := range markedMarks {
		b := chamberTiles[firstBasic+i]
		b.Kind = MarkedTile
		b.ID = fmt.Sprintf("marked_%02d", i+1)
		b.Mask, b.Chest = m.Mask, m.Chest
		ts = append(ts, b)
	}
	return ts
}

// startOpen is the start chamber's open sides, W and E (D3).
const startOpen = 1<<West | 1<<East

// Reserve gems by player count at normal difficulty (§2.2, D1), the bonus of
// each difficulty, and the side supply (D15).
var (
	reserveNormal   = [maxPlayers + 1]int{0, 7, 7, 11, 14, 16}
	difficultyBonus = map[string]int{"normal": 0, "advanced": 3, "expert": 6}
)

const sideSupply = 2

// CurseKind is a kind of curse card (§2.6).
type CurseKind int8

// The curse kinds.
const (
	Trap CurseKind = iota
	BrokenDie
	WeakMask
	Silence
	LostDice
	CursedHand
)

// CurseDef is one curse card: its kind and the three symbols that lift it.
type CurseDef struct {
	ID   string
	Kind CurseKind
	Lift [3]Face
}

// curses is the curse deck (§2.6, D25): counts printed, lifts (R).
var curses = []CurseDef{
	{"trap_1", Trap, [3]Face{Adventurer, Adventurer, Key}},
	{"trap_2", Trap, [3]Face{Adventurer, Adventurer, Torch}},
	{"trap_3", Trap, [3]Face{Adventurer, Key, Torch}},
	{"broken_die_1", BrokenDie, [3]Face{Adventurer, Key, Key}},
	{"broken_die_2", BrokenDie, [3]Face{Adventurer, Torch, Torch}},
	{"weak_mask_1", WeakMask, [3]Face{Adventurer, Adventurer, Adventurer}},
	{"weak_mask_2", WeakMask, [3]Face{Key, Key, Torch}},
	{"weak_mask_3", WeakMask, [3]Face{Key, Torch, Torch}},
	{"silence_1", Silence, [3]Face{Adventurer, Adventurer, Key}},
	{"silence_2", Silence, [3]Face{Adventurer, Adventurer, Torch}},
	{"lost_dice_1", LostDice, [3]Face{Adventurer, Key, Torch}},
	{"lost_dice_2", LostDice, [3]Face{Adventurer, Adventurer, Adventurer}},
	{"cursed_hand_1", CursedHand, [3]Face{Adventurer, Key, Key}},
	{"cursed_hand_2", CursedHand, [3]Face{Adventurer, Torch, Torch}},
}

// TreasureKind is a kind of treasure tile (§2.7).
type TreasureKind int8

// The treasure kinds.
const (
	HealingMask TreasureKind = iota
	DoubleTorch
	DoubleKey
	Teleport
	ExtraGem
	SecretPassage
)

// TreasureDef is one treasure tile.
type TreasureDef struct {
	ID   string
	Kind TreasureKind
}

// treasures is the treasure stack (§2.7, D32): counts printed, kinds (R).
var treasures = []TreasureDef{
	{"healing_mask_1", HealingMask}, {"healing_mask_2", HealingMask},
	{"double_torch_1", DoubleTorch}, {"double_torch_2", DoubleTorch},
	{"double_key_1", DoubleKey}, {"double_key_2", DoubleKey},
	{"teleport_1", Teleport}, {"teleport_2", Teleport},
	{"extra_gem_1", ExtraGem}, {"extra_gem_2", ExtraGem},
	{"secret_passage_1", SecretPassage}, {"secret_passage_2", SecretPassage}, {"secret_passage_3", SecretPassage},
}

// Track is the countdown schedule of one soundtrack version (§2.8, D23, (R)).
type Track struct {
	ID       string
	Gongs    [3]engine.Millis
	Slams    [2]engine.Millis
	Collapse engine.Millis
}

// tracks are the two soundtrack versions; the rulebook says the choice does
// not change play, so both share one schedule.
var tracks = []Track{
	{"track_1", [3]engine.Millis{170_000, 370_000, 540_000}, [2]engine.Millis{210_000, 410_000}, 600_000},
	{"track_2", [3]engine.Millis{170_000, 370_000, 540_000}, [2]engine.Millis{210_000, 410_000}, 600_000},
}

// Engine constants (§2.8, (R)).
const (
	defaultSandMs          engine.Millis = 200_000
	defaultRollCooldown    engine.Millis = 1_500
	cursedHandFactor                     = 2
	lostDiceRushFactor                   = 2
	lostDiceDropOneIn                    = 3 // a rushed roll drops a die when rng.IntN(3) == 0
	giftWindow             engine.Millis = 10_000
	signalCooldown         engine.Millis = 1_000
	untimedCap             engine.Millis = 3_600_000
	sandRuns                             = 3
	sandMsMin, sandMsMax   engine.Millis = 60_000, 300_000
	sandMsStep             engine.Millis = 10_000
	cooldownMin            engine.Millis = 1_000
	cooldownMax            engine.Millis = 3_000
	cooldownStep           engine.Millis = 250
	maxActionsPerGameBound               = 200_000
)

// signalKinds are the public calls of §8.6 (D40).
var signalKinds = []string{"help_gold", "come_here", "pool_here", "go_start", "exit_found", "ok"}

// colours are the adventurers' colours by seat (display only, §2.9).
var colours = [maxPlayers]string{"red", "blue", "green", "yellow", "purple"}

// Reaction is the range of a bot level's reaction time, uniform in
// [Min, Max] and never under the floor (§8.3, D10, D45).
type Reaction struct {
	Level    string
	Min, Max engine.Millis
}

// reactions are the bot levels of §8.3.
var reactions = []Reaction{
	{"easy", 1_500, 2_500},
	{"normal", 1_000, 1_600},
	{"hard", 600, 1_000},
}

// reactionFloor is the fastest any bot reacts (D10).
const reactionFloor engine.Millis = 400
