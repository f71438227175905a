package plandesecours

import (
	"fmt"
	"strconv"
)

// This file holds every number and every piece of component data of the game.
// Values marked (R) in the rules reference (shared/rules/plandesecours.md)
// are reconstructions: they live here and nowhere else, so tuning them is an
// edit of one table.

// Counts and limits.
const (
	// MaxPlayers and MinPlayers bound the seats [RB: 5 LOST tiles].
	MinPlayers = 2
	MaxPlayers = 5
	// HandSize is the number of DIRECTION tiles a holder keeps in hand while
	// the draw pile lasts [RB].
	HandSize = 3
	// MaxRounds is the safety cap on the length of a game (D24).
	MaxRounds = 30
	// numTiles is the number of DIRECTION tiles, start included (D1).
	numTiles = 38
	// numPlayable is the number of DIRECTION tiles shuffled every round.
	numPlayable = numTiles - 1
	// maxStack is the most items the stack can hold: the start, every
	// playable tile and one LOST tile per seat.
	maxStack = 1 + numPlayable + MaxPlayers
)

// targetByPlayers is the score that wins, by number of players [RB].
var targetByPlayers = [MaxPlayers + 1]int{2: 3, 3: 3, 4: 2, 5: 2}

// Target returns the score that wins a game of n players.
func Target(n int) int { return targetByPlayers[n] }

// Move is a relative move of the path: straight, left or right (4.8.1).
type Move uint8

// The three moves. There is never a U-turn.
const (
	Straight Move = iota
	Left
	Right
)

var moveNames = [...]string{"straight", "left", "right"}

func (m Move) String() string { return moveNames[m] }

// MarshalText writes the move's name.
func (m Move) MarshalText() ([]byte, error) { return []byte(moveNames[m]), nil }

// UnmarshalText reads a move's name.
func (m *Move) UnmarshalText(b []byte) error { return parseName(moveNames[:], b, "move", (*uint8)(m)) }

// quarter is the number of clockwise quarter turns a move makes (used for
// headings and display arrows alike).
var quarter = [...]uint8{Straight: 0, Left: 3, Right: 1}

// TileType is the kind of a DIRECTION tile (2.2).
type TileType uint8

// The tile types.
const (
	TypeStart TileType = iota
	TypeStraight
	TypeLeft
	TypeRight
	TypeDoubleLeft
	TypeDoubleRight
	TypeCrossroads
	TypeRepetition
)

// tileTypes is the geometry of each tile type, in its own frame (entered
// from local south). secondary holds the two sides of the secondary route as
// quarter turns from local north (0 N, 1 E, 3 W); hasSecondary says whether
// there is one (D5).
var tileTypes = [...]struct {
	id           string
	move         Move // the primary route's move; a Repetition copies instead
	hasSecondary bool
	secondary    [2]uint8
}{
	TypeStart:       {id: "start", move: Straight},
	TypeStraight:    {id: "straight", move: Straight},
	TypeLeft:        {id: "left", move: Left},
	TypeRight:       {id: "right", move: Right},
	TypeDoubleLeft:  {id: "double_left", move: Left, hasSecondary: true, secondary: [2]uint8{0, 1}},
	TypeDoubleRight: {id: "double_right", move: Right, hasSecondary: true, secondary: [2]uint8{0, 3}},
	TypeCrossroads:  {id: "crossroads", move: Straight, hasSecondary: true, secondary: [2]uint8{1, 3}},
	TypeRepetition:  {id: "repetition", move: Straight},
}

func (t TileType) String() string { return tileTypes[t].id }

// MarshalText writes the type's id.
func (t TileType) MarshalText() ([]byte, error) { return []byte(tileTypes[t].id), nil }

// UnmarshalText reads a type's id.
func (t *TileType) UnmarshalText(b []byte) error {
	for i := range tileTypes {
		if tileTypes[i].id == string(b) {
			*t = TileType(i)
			return nil
		}
	}
	return fmt.Errorf("there is no tile type %q", b)
}

// Character is the pictogram printed on some tiles and on the DANGER cards
// (2.4, (R)). NoCharacter is the zero value.
type Character uint8

// The characters (R).
const (
	NoCharacter Character = iota
	Runner
	Firefighter
	Medic
	Wheelchair
	Child
	Elder
	Guard
	numCharacters
)

var characterNames = [numCharacters]string{"", "runner", "firefighter", "medic", "wheelchair", "child", "elder", "guard"}

func (c Character) String() string { return characterNames[c] }

// MarshalText writes the character's id ("" for none).
func (c Character) MarshalText() ([]byte, error) { return []byte(characterNames[c]), nil }

// UnmarshalText reads a character's id.
func (c *Character) UnmarshalText(b []byte) error {
	return parseName(characterNames[:], b, "character", (*uint8)(c))
}

// TileID is one of the 38 DIRECTION tiles: 0 is the start, then the playable
// tiles in canonical order (2.3). Its JSON form is the tile's stable id.
type TileID uint8

// StartTile is the start tile, always at the bottom of the stack.
const StartTile TileID = 0

// tiles is the table of the 38 DIRECTION tiles (2.3) in canonical order: the
// order of gathering before every shuffle (D30). Types and characters are (R).
var tiles = [numTiles]struct {
	id   string
	typ  TileType
	char Character
}{
	{"start", TypeStart, NoCharacter},
	{"straight_1", TypeStraight, Runner},
	{"straight_2", TypeStraight, Firefighter},
	{"straight_3", TypeStraight, Medic},
	{"straight_4", TypeStraight, Wheelchair},
	{"straight_5", TypeStraight, NoCharacter},
	{"straight_6", TypeStraight, NoCharacter},
	{"straight_7", TypeStraight, NoCharacter},
	{"straight_8", TypeStraight, NoCharacter},
	{"straight_9", TypeStraight, NoCharacter},
	{"left_1", TypeLeft, Child},
	{"left_2", TypeLeft, Elder},
	{"left_3", TypeLeft, Guard},
	{"left_4", TypeLeft, NoCharacter},
	{"left_5", TypeLeft, NoCharacter},
	{"left_6", TypeLeft, NoCharacter},
	{"left_7", TypeLeft, NoCharacter},
	{"right_1", TypeRight, Runner},
	{"right_2", TypeRight, Firefighter},
	{"right_3", TypeRight, Medic},
	{"right_4", TypeRight, NoCharacter},
	{"right_5", TypeRight, NoCharacter},
	{"right_6", TypeRight, NoCharacter},
	{"right_7", TypeRight, NoCharacter},
	{"double_left_1", TypeDoubleLeft, Wheelchair},
	{"double_left_2", TypeDoubleLeft, NoCharacter},
	{"double_left_3", TypeDoubleLeft, NoCharacter},
	{"double_right_1", TypeDoubleRight, Child},
	{"double_right_2", TypeDoubleRight, NoCharacter},
	{"double_right_3", TypeDoubleRight, NoCharacter},
	{"crossroads_1", TypeCrossroads, Elder},
	{"crossroads_2", TypeCrossroads, NoCharacter},
	{"crossroads_3", TypeCrossroads, NoCharacter},
	{"repetition_1", TypeRepetition, Guard},
	{"repetition_2", TypeRepetition, NoCharacter},
	{"repetition_3", TypeRepetition, NoCharacter},
	{"repetition_4", TypeRepetition, NoCharacter},
	{"repetition_5", TypeRepetition, NoCharacter},
}

// tileByName finds a tile by its id.
var tileByName = func() map[string]TileID {
	m := make(map[string]TileID, numTiles)
	for i, t := range tiles {
		m[t.id] = TileID(i)
	}
	return m
}()

// Tile returns the tile with the given id.
func Tile(id string) (TileID, bool) {
	t, ok := tileByName[id]
	return t, ok
}

func (t TileID) String() string {
	if int(t) < numTiles {
		return tiles[t].id
	}
	return "tile(" + strconv.Itoa(int(t)) + ")"
}

// Type returns the tile's type.
func (t TileID) Type() TileType { return tiles[t].typ }

// Character returns the tile's character, or NoCharacter.
func (t TileID) Character() Character { return tiles[t].char }

// MarshalText writes the tile's stable id.
func (t TileID) MarshalText() ([]byte, error) {
	if int(t) >= numTiles {
		return nil, fmt.Errorf("there is no tile number %d", t)
	}
	return []byte(tiles[t].id), nil
}

// UnmarshalText reads a tile's stable id.
func (t *TileID) UnmarshalText(b []byte) error {
	id, ok := tileByName[string(b)]
	if !ok {
		return fmt.Errorf("there is no tile %q", b)
	}
	*t = id
	return nil
}

// FloorID is one of the 7 FLOOR cards (2.5).
type FloorID uint8

// The FLOOR cards. Each condition is computed in reveal.go.
const (
	FloorInitial FloorID = iota
	FloorFiveCharacters
	FloorTwinCharacters
	FloorFar
	FloorBehind
	FloorCorridor
	FloorCrossing
	numFloors
)

// floors is the table of FLOOR cards: id and parameter. Parameters of cards
// 3–7 are (R) (D12, D13).
var floors = [numFloors]struct {
	id    string
	param int
}{
	FloorInitial:        {"floor_initial", 0},
	FloorFiveCharacters: {"floor_five_characters", 5}, // distinct characters
	FloorTwinCharacters: {"floor_twin_characters", 2}, // copies of one character
	FloorFar:            {"floor_far", 5},             // |x| or |y| at least this
	FloorBehind:         {"floor_behind", 0},          // y below this
	FloorCorridor:       {"floor_corridor", 4},        // straight moves in a row
	FloorCrossing:       {"floor_crossing", 1},        // passes
}

func (f FloorID) String() string { return floors[f].id }

// MarshalText writes the card's id.
func (f FloorID) MarshalText() ([]byte, error) {
	if f >= numFloors {
		return nil, fmt.Errorf("there is no FLOOR card number %d", f)
	}
	return []byte(floors[f].id), nil
}

// UnmarshalText reads a card's id.
func (f *FloorID) UnmarshalText(b []byte) error {
	for i := range floors {
		if floors[i].id == string(b) {
			*f = FloorID(i)
			return nil
		}
	}
	return fmt.Errorf("there is no FLOOR card %q", b)
}

// DangerID is one of the 7 DANGER cards (2.6).
type DangerID uint8

// The DANGER cards.
const (
	DangerRotateCW DangerID = iota
	DangerRotateCCW
	DangerRotateHalf
	DangerBlackout
	DangerPlayAgain
	DangerSkipNext
	DangerPassHands
	numDangers
)

// dangers is the table of DANGER cards: id, the character that triggers it
// and, for rotations, the clockwise quarter turns. Characters and effects of
// cards 2–7 are (R) (D14).
var dangers = [numDangers]struct {
	id       string
	char     Character
	quarters uint8
}{
	DangerRotateCW:   {"danger_rotate_cw", Child, 1},
	DangerRotateCCW:  {"danger_rotate_ccw", Elder, 3},
	DangerRotateHalf: {"danger_rotate_half", Guard, 2},
	DangerBlackout:   {"danger_blackout", Runner, 0},
	DangerPlayAgain:  {"danger_play_again", Firefighter, 0},
	DangerSkipNext:   {"danger_skip_next", Medic, 0},
	DangerPassHands:  {"danger_pass_hands", Wheelchair, 0},
}

func (d DangerID) String() string { return dangers[d].id }

// MarshalText writes the card's id.
func (d DangerID) MarshalText() ([]byte, error) {
	if d >= numDangers {
		return nil, fmt.Errorf("there is no DANGER card number %d", d)
	}
	return []byte(dangers[d].id), nil
}

// UnmarshalText reads a card's id.
func (d *DangerID) UnmarshalText(b []byte) error {
	for i := range dangers {
		if dangers[i].id == string(b) {
			*d = DangerID(i)
			return nil
		}
	}
	return fmt.Errorf("there is no DANGER card %q", b)
}

func parseName(names []string, b []byte, what string, dst *uint8) error {
	for i, n := range names {
		if n == string(b) {
			*dst = uint8(i)
			return nil
		}
	}
	return fmt.Errorf("there is no %s %q", what, b)
}
