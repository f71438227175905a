package room25

import (
	"fmt"
	"strconv"
	"strings"
)

// This file holds every number and every piece of component data of the game
// (rules reference /work/shared/rules/room25.md, §2 and §3). Values marked (R)
// in the reference are reconstructions: they live here and nowhere else, so
// tuning them is an edit of one table.

// The board: a 5×5 grid of room tiles. Cell (row, col) has index 5*row+col.
const (
	size     = 5
	numCells = size * size
	// centreCell is (2,2), where the Central Room stays for the whole game.
	centreCell = 2*size + 2
	// centralLine is the index of the row and of the column that never slide.
	centralLine = 2
	// numTiles is the number of tiles on the board: one per cell.
	numTiles = numCells
	// maxChars is the number of characters in the box.
	maxChars = 6
	// maxSeats is the largest table.
	maxSeats = 6
	// roundsPerTurn is the number of action rounds in a turn.
	roundsPerTurn = 2
	// alarmTurnsLeft is where the alarm puts the last marker (§4.13): the
	// alarm sounds on an entry into Room 25 while turnsLeft > alarmTurnsLeft.
	alarmTurnsLeft = 5
	// setSize is the number of rooms in a room set besides the Central Room
	// and Room 25 [RB p8].
	setSize = 23
)

// innerCells are the 12 cells of the cross around the centre, in the
// row-major order of the deal (§3.2 step 6.3).
var innerCells = [12]int8{2, 6, 7, 8, 10, 11, 13, 14, 16, 17, 18, 22}

// exitCells are the 12 exit-zone cells, three per corner, in the row-major
// order of the deal (§3.2 step 6.4). Exit zones are positions, not tiles.
var exitCells = [12]int8{0, 1, 3, 4, 5, 9, 15, 19, 20, 21, 23, 24}

// startAdjacent are the cells a seat may look at for the starting hint
// (§4.3): the four neighbours of the centre.
var startAdjacent = [4]int8{7, 11, 13, 17}

// Class is the colour code of a room tile's frame [RB p6], also the colour
// of a hint (§4.12).
type Class uint8

// The classes. Blue is our name for the pale frame of the Central Room and
// Room 25 (R).
const (
	Green Class = iota
	Yellow
	Red
	Blue
)

var classNames = [...]string{"green", "yellow", "red", "blue"}

// String returns the class name: green, yellow, red or blue.
func (c Class) String() string { return classNames[c] }

// Pool says where a room is dealt at setup (§3.2 step 6).
type Pool uint8

// The pools.
const (
	// PoolShuffled rooms are shuffled and dealt to the inner cells, the
	// leftovers to the exit cells.
	PoolShuffled Pool = iota
	// PoolExit rooms (Vision, Room 25) are always dealt to exit cells.
	PoolExit
	// PoolCentre is the Central Room, always at (2,2).
	PoolCentre
)

// Room is the identity of a room tile.
type Room uint8

// The 16 kinds of room in the base game (§2.2), in the order of the table.
const (
	RoomCentral Room = iota
	Room25
	RoomEmpty
	RoomVision
	RoomControl
	RoomMobile
	RoomTwin
	RoomVortex
	RoomPrison
	RoomCold
	RoomDark
	RoomTrapped
	RoomDeadly
	RoomIllusion
	RoomFlooded
	RoomAcid
	numRooms
)

// RoomSet is one of the rulebook's lists of 23 rooms [RB p8].
type RoomSet uint8

// The room sets.
const (
	SetBeginner RoomSet = iota
	SetExpertCompetition
	SetExpertSuspicion
	numSets
)

// SetCustom is the expert "choose your rooms" set [RB p8]: its rooms come
// from the custom_rooms option (D3).
const SetCustom = numSets

var setNames = [numSets]string{"beginner", "expert_competition", "expert_suspicion"}

// String returns the set's option value.
func (s RoomSet) String() string {
	if s == SetCustom {
		return "custom"
	}
	return setNames[s]
}

// roomSpec is one row of the room table.
type roomSpec struct {
	id      string // stable id in JSON
	english string
	french  string
	class   Class
	pool    Pool
	inBox   int
	inSet   [numSets]int // count in each room set, Central and Room 25 included
	effect  string       // the effect on entering, in one line (full rules: rules.go)
}

// rooms is the table of the 32 room tiles (§2.2): identity, colour class,
// setup pool, count in the box and in each room set, and effect.
var rooms = [numRooms]roomSpec{
	RoomCentral:  {"central", "Central Room", "Salle centrale", Blue /*(R)*/, PoolCentre, 1, [numSets]int{1, 1, 1}, "Start room; only Look and Move may be performed here; never moves."},
	Room25:       {"room25", "Room 25", "Room 25", Blue /*(R)*/, PoolExit, 1, [numSets]int{1, 1, 1}, "The exit; entering it early sounds the alarm in 10-turn modes."},
	RoomEmpty:    {"empty", "Empty Room", "Salle vide", Green, PoolShuffled, 8, [numSets]int{8, 4, 6}, "No effect."},
	RoomVision:   {"vision", "Vision Room", "Salle de vision", Green, PoolExit, 1, [numSets]int{1, 1, 1}, "Privately look at any face-down room."},
	RoomControl:  {"control_room", "Control Room", "Salle de contrôle", Green, PoolShuffled, 1, [numSets]int{1, 1, 1}, "Slide any non-central row or column one step."},
	RoomMobile:   {"mobile", "Mobile Room", "Salle mobile", Green, PoolShuffled, 1, [numSets]int{0, 0, 1}, "Swap this room, occupants included, with any face-down room."},
	RoomTwin:     {"twin", "Twin Room", "Salle jumelle", Green, PoolShuffled, 2, [numSets]int{0, 2, 0}, "If the other Twin is face up, go there."},
	RoomVortex:   {"vortex", "Vortex Room", "Salle vortex", Yellow, PoolShuffled, 2, [numSets]int{2, 1, 1}, "Go back to the Central Room."},
	RoomPrison:   {"prison", "Prison Cell", "Salle prison", Yellow, PoolShuffled, 2, [numSets]int{0, 2, 0}, "Move out only onto a room with a character, or the Central Room."},
	RoomCold:     {"cold", "Cold Room", "Chambre froide", Yellow, PoolShuffled, 2, [numSets]int{2, 2, 2}, "While here at programming, only one action."},
	RoomDark:     {"dark", "Dark Room", "Chambre noire", Yellow, PoolShuffled, 2, [numSets]int{2, 2, 2}, "While here, Look is impossible."},
	RoomTrapped:  {"trapped", "Trapped Room", "Salle piégée", Red, PoolShuffled, 2, [numSets]int{2, 2, 2}, "Leave it with your next action or die."},
	RoomDeadly:   {"deadly", "Deadly Room", "Salle mortelle", Red, PoolShuffled, 2, [numSets]int{1, 1, 2}, "You die."},
	RoomIllusion: {"illusion", "Illusion Room", "Salle des illusions", Red, PoolShuffled, 1, [numSets]int{0, 1, 1}, "Swap with a face-down room, go there and enter it."},
	RoomFlooded:  {"flooded", "Flooded Room", "Salle inondable", Red, PoolShuffled, 2, [numSets]int{2, 2, 2}, "Becomes inaccessible; drown at the end of your second action next turn."},
	RoomAcid:     {"acid", "Acid Bath", "Bain d'acide", Red, PoolShuffled, 2, [numSets]int{2, 2, 2}, "When a second figure arrives, the one already inside dies."},
}

// String returns the room's id.
func (r Room) String() string { return rooms[r].id }

// Class returns the colour class of the room.
func (r Room) Class() Class { return rooms[r].class }

// MarshalText writes the room's id.
func (r Room) MarshalText() ([]byte, error) {
	if r >= numRooms {
		return nil, fmt.Errorf("room %d does not exist", r)
	}
	return []byte(rooms[r].id), nil
}

// UnmarshalText reads a room's id.
func (r *Room) UnmarshalText(b []byte) error {
	for i := range rooms {
		if rooms[i].id == string(b) {
			*r = Room(i)
			return nil
		}
	}
	return fmt.Errorf("there is no room %q", b)
}

// setRooms returns the 25 rooms of a set in table order, each as many times
// as the set holds it.
func setRooms(set RoomSet) []Room {
	out := make([]Room, 0, numTiles)
	for r := range numRooms {
		for range rooms[r].inSet[set] {
			out = append(out, r)
		}
	}
	return out
}

// customRooms reads the custom_rooms option, "room:count" pairs separated by
// commas ("empty:6,vision:1,vortex:2,..."), and checks it by D3: exactly 23
// rooms, none above its box count, neither the Central Room nor Room 25
// (they are added), exactly one Vision Room. It returns the 25 rooms of the
// set in table order, as setRooms does.
func customRooms(spec string) ([]Room, error) {
	var count [numRooms]int
	for _, part := range strings.Split(spec, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		id, n, ok := strings.Cut(part, ":")
		k, err := strconv.Atoi(strings.TrimSpace(n))
		if !ok || err != nil || k < 0 {
			return nil, fmt.Errorf("custom_rooms: write each room as id:count, not %q", part)
		}
		var r Room
		if err := r.UnmarshalText([]byte(strings.TrimSpace(id))); err != nil {
			return nil, fmt.Errorf("custom_rooms: %v", err)
		}
		count[r] += k
	}
	total := 0
	for r := range numRooms {
		switch {
		case (r == RoomCentral || r == Room25) && count[r] > 0:
			return nil, fmt.Errorf("custom_rooms: leave out %s, it is always in the complex", rooms[r].english)
		case count[r] > rooms[r].inBox:
			return nil, fmt.Errorf("custom_rooms: the box has %d %s, not %d", rooms[r].inBox, rooms[r].english, count[r])
		}
		total += count[r]
	}
	if total != numTiles-2 {
		return nil, fmt.Errorf("custom_rooms: choose exactly %d rooms besides the Central Room and Room 25, not %d", numTiles-2, total)
	}
	if count[RoomVision] != 1 {
		return nil, fmt.Errorf("custom_rooms: the complex needs exactly one Vision Room")
	}
	count[RoomCentral], count[Room25] = 1, 1
	out := make([]Room, 0, numTiles)
	for r := range numRooms {
		for range count[r] {
			out = append(out, r)
		}
	}
	return out, nil
}

// Mode is a way to play (§3.1).
type Mode uint8

// The modes.
const (
	Cooperation Mode = iota
	Solo
	Suspicion
	Competition
	Team
	numModes
)

// modeSpec is one row of the mode table.
type modeSpec struct {
	id         string
	minSeats   int
	maxSeats   int
	oddOK      bool // Team is played by 4 or 6 seats only
	counter    int  // the side of the turn counter: turns in the game
	alarm      bool // whether entering Room 25 early sounds the alarm
	defaultSet RoomSet
}

// modes is the table of modes (§3.1, §6 and D2).
var modes = [numModes]modeSpec{
	Cooperation: {"cooperation", 2, 6, true, 8, false, SetBeginner},
	Solo:        {"solo", 1, 1, true, 8, false, SetBeginner},
	Suspicion:   {"suspicion", 4, 6, true, 10, true, SetExpertSuspicion},
	Competition: {"competition", 2, 3, true, 10, true, SetExpertCompetition},
	Team:        {"team", 4, 6, false, 10, true, SetExpertCompetition},
}

// String returns the mode's option value.
func (m Mode) String() string { return modes[m].id }

// Character is one of the six figures; they have no abilities [RB p1].
// NoCharacter is the zero value (a missing field in an action).
type Character uint8

// The characters, in the order of the default seat assignment (§3.1).
const (
	NoCharacter Character = iota
	Scientist
	Geek
	Handsome
	Bimbo
	Colossus
	LittleGirl
)

// characters is the character table (§2.4): id, French name, duo partner and
// base shape (R).
var characters = [maxChars + 1]struct {
	id     string
	french string
	duo    Character
	shape  string
}{
	Scientist:  {"scientist", "le Savant", Geek, "square"},
	Geek:       {"geek", "le Geek", Scientist, "square"},
	Handsome:   {"handsome", "le Beau Gosse", Bimbo, "round"},
	Bimbo:      {"bimbo", "la Bimbo", Handsome, "round"},
	Colossus:   {"colossus", "le Colosse", LittleGirl, "cross"},
	LittleGirl: {"little_girl", "la Petite Fille", Colossus, "cross"},
}

// String returns the character's id, "" for none.
func (c Character) String() string {
	if c == NoCharacter || c > maxChars {
		return ""
	}
	return characters[c].id
}

// MarshalText writes the character's id ("" for none).
func (c Character) MarshalText() ([]byte, error) { return []byte(c.String()), nil }

// UnmarshalText reads a character's id.
func (c *Character) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*c = NoCharacter
		return nil
	}
	for i := Scientist; i <= LittleGirl; i++ {
		if characters[i].id == string(b) {
			*c = i
			return nil
		}
	}
	return fmt.Errorf("there is no character %q", b)
}

// Default seat assignments (§3.1, D1).
var (
	// singleAssign gives seat i its character in modes with one character
	// per seat (Cooperation 4–6, Suspicion).
	singleAssign = [maxSeats]Character{Scientist, Geek, Handsome, Bimbo, Colossus, LittleGirl}
	// duoAssign gives seat i its duo in Cooperation 2–3 and Competition; the
	// first of each pair is its "1" marker.
	duoAssign = [3][2]Character{{Scientist, Geek}, {Handsome, Bimbo}, {Colossus, LittleGirl}}
	// teamAssign gives seat i its character in Team mode, by seat count;
	// even seats are team A, odd seats team B.
	teamAssign = [maxSeats + 1][]Character{
		4: {Scientist, Handsome, Geek, Bimbo},
		6: {Scientist, Geek, Handsome, Bimbo, Colossus, LittleGirl},
	}
	// soloAssign are the four characters of Solo, in marker-line order (R).
	soloAssign = [4]Character{Scientist, Geek, Handsome, Bimbo}
)

// Role is a Suspicion role tile.
type Role uint8

// The roles. NoRole is every character outside Suspicion.
const (
	NoRole Role = iota
	Prisoner
	Guard
)

var roleNames = [...]string{"", "prisoner", "guard"}

// String returns "prisoner", "guard" or "".
func (r Role) String() string { return roleNames[r] }

// MarshalText writes the role's name.
func (r Role) MarshalText() ([]byte, error) { return []byte(roleNames[r]), nil }

// UnmarshalText reads a role's name.
func (r *Role) UnmarshalText(b []byte) error { return parseName(roleNames[:], b, "role", (*uint8)(r)) }

// Role tiles dealt in Suspicion [RB p4]: 4 Prisoners and 1 Guard for 4
// seats, 4 Prisoners and 2 Guards for 5 or 6.
const (
	prisonerTiles = 4
	guardTiles    = 2
)

// guardsFor returns how many Guard tiles are shuffled for n seats.
func guardsFor(n int) int {
	if n == 4 {
		return 1
	}
	return guardTiles
}

// Token is an action token; NoToken is the zero value.
type Token uint8

// The four actions [RB p3].
const (
	NoToken Token = iota
	TokenLook
	TokenMove
	TokenPush
	TokenControl
)

// numTokens is the number of token values, NoToken included.
const numTokens = 5

var tokenNames = [...]string{"", "look", "move", "push", "control"}

// String returns the action's name, "" for none.
func (t Token) String() string { return tokenNames[t] }

// MarshalText writes the token's name ("" for none).
func (t Token) MarshalText() ([]byte, error) { return []byte(tokenNames[t]), nil }

// UnmarshalText reads a token's name.
func (t *Token) UnmarshalText(b []byte) error {
	return parseName(tokenNames[:], b, "action", (*uint8)(t))
}

// Dir is a direction on the grid; NoDir is the zero value.
type Dir uint8

// The directions.
const (
	NoDir Dir = iota
	Up
	Down
	Left
	Right
)

var dirNames = [...]string{"", "up", "down", "left", "right"}

// dirDelta gives the row and column step of each direction.
var dirDelta = [...][2]int8{{0, 0}, {-1, 0}, {1, 0}, {0, -1}, {0, 1}}

// String returns the direction's name, "" for none.
func (d Dir) String() string { return dirNames[d] }

// MarshalText writes the direction's name.
func (d Dir) MarshalText() ([]byte, error) { return []byte(dirNames[d]), nil }

// UnmarshalText reads a direction's name.
func (d *Dir) UnmarshalText(b []byte) error {
	return parseName(dirNames[:], b, "direction", (*uint8)(d))
}

// Colour is a hint's claim about a room (§4.12): one of the four frame
// colours, or none. The zero value is a missing field.
type Colour uint8

// The hint colours.
const (
	NoColour Colour = iota
	HintNone
	HintGreen
	HintYellow
	HintRed
	HintBlue
)

var colourNames = [...]string{"", "none", "green", "yellow", "red", "blue"}

// colourOf is the honest hint for a room.
func colourOf(r Room) Colour { return HintGreen + Colour(rooms[r].class) }

// String returns the colour's name, "" for a missing one.
func (c Colour) String() string { return colourNames[c] }

// MarshalText writes the colour's name.
func (c Colour) MarshalText() ([]byte, error) { return []byte(colourNames[c]), nil }

// UnmarshalText reads a colour's name.
func (c *Colour) UnmarshalText(b []byte) error {
	return parseName(colourNames[:], b, "colour", (*uint8)(c))
}

// TileID names a tile by the cell it was dealt to (D4): "t00" to "t24". Its
// value is that cell plus one, so that the zero value is a missing field.
type TileID uint8

// tileID returns the id of tile t (0..24).
func tileID(t int8) TileID { return TileID(t + 1) }

// idx returns the tile's index 0..24, or -1 for a missing id.
func (t TileID) idx() int8 { return int8(t) - 1 }

// String returns "t00".."t24", "" for a missing tile.
func (t TileID) String() string {
	if t == 0 || t > numTiles {
		return ""
	}
	i := t - 1
	return string([]byte{'t', '0' + byte(i/10), '0' + byte(i%10)})
}

// MarshalText writes "tNN".
func (t TileID) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// UnmarshalText reads "tNN".
func (t *TileID) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*t = 0
		return nil
	}
	if len(b) == 3 && b[0] == 't' && b[1] >= '0' && b[1] <= '9' && b[2] >= '0' && b[2] <= '9' {
		if n := int(b[1]-'0')*10 + int(b[2]-'0'); n < numTiles {
			*t = TileID(n + 1)
			return nil
		}
	}
	return fmt.Errorf("there is no tile %q (tiles are t00 to t24)", b)
}

// Line names a row or a column: "row0".."row4", "col0".."col4". Its value
// is the line's index (rows 0–4, then columns 5–9) plus one.
type Line uint8

const numLines = 2 * size

// lineOf returns the line of index i (0..9).
func lineOf(i int) Line { return Line(i + 1) }

// rowLine and colLine return the line of a row or of a column.
func rowLine(r int8) Line { return Line(r + 1) }
func colLine(c int8) Line { return Line(size + c + 1) }

// idx returns the line's index 0..9, or -1 for a missing line.
func (l Line) idx() int { return int(l) - 1 }

// isRow reports whether the line is a row.
func (l Line) isRow() bool { return l >= 1 && l <= size }

// pos returns the row or column number of the line.
func (l Line) pos() int8 {
	if l.isRow() {
		return int8(l - 1)
	}
	return int8(l - 1 - size)
}

// String returns "row0".."col4", "" for a missing line.
func (l Line) String() string {
	if l == 0 || l > numLines {
		return ""
	}
	if l.isRow() {
		return "row" + string('0'+byte(l.pos()))
	}
	return "col" + string('0'+byte(l.pos()))
}

// MarshalText writes "rowN" or "colN".
func (l Line) MarshalText() ([]byte, error) { return []byte(l.String()), nil }

// UnmarshalText reads "rowN" or "colN".
func (l *Line) UnmarshalText(b []byte) error {
	if len(b) == 0 {
		*l = 0
		return nil
	}
	if len(b) == 4 && b[3] >= '0' && b[3] < '0'+size {
		n := int8(b[3] - '0')
		switch string(b[:3]) {
		case "row":
			*l = rowLine(n)
			return nil
		case "col":
			*l = colLine(n)
			return nil
		}
	}
	return fmt.Errorf("there is no line %q (lines are row0..row4 and col0..col4)", b)
}

// parseName reads one of names into dst; the empty string is the zero value
// (a missing field, which Apply refuses where a value is needed).
func parseName(names []string, b []byte, what string, dst *uint8) error {
	if len(b) == 0 {
		*dst = 0
		return nil
	}
	for i, n := range names {
		if n != "" && n == string(b) {
			*dst = uint8(i)
			return nil
		}
	}
	return fmt.Errorf("there is no %s %q", what, b)
}

// Cell helpers.
func rowOf(cell int8) int8 { return cell / size }
func colOf(cell int8) int8 { return cell % size }

// neighbour returns the cell next to cell in direction d, or -1 off the
// board: nothing wraps for Look, Move and Push (D11).
func neighbour(cell int8, d Dir) int8 {
	r, c := rowOf(cell)+dirDelta[d][0], colOf(cell)+dirDelta[d][1]
	if r < 0 || r >= size || c < 0 || c >= size {
		return -1
	}
	return r*size + c
}

// origin returns the setup pool of the cell a tile was dealt to (D4).
func origin(t int8) string {
	switch {
	case t == centreCell:
		return "centre"
	case isExitCell(t):
		return "exit"
	}
	return "inner"
}

func isExitCell(cell int8) bool { return cell >= 0 && exitCellSet&(1<<uint(cell)) != 0 }

// exitCellSet has bit c set for each exit cell c.
var exitCellSet = func() (set uint32) {
	for _, e := range exitCells {
		set |= 1 << uint(e)
	}
	return set
}()
