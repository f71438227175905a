package plandesecours

// This file is the reveal's geometry (4.8–4.9): the stack laid out from the
// start as a path on a square grid, the lost point and its reasons. The rules
// (rules.go) use it at the end of each round; the heuristic bot (bot.go) uses
// it on the path it remembers.

// Heading is a direction on the grid and, as a side of a cell, the side
// facing that way: 0 N, 1 E, 2 S, 3 W (clockwise). The start points N (+y).
type Heading uint8

// The four headings.
const (
	North Heading = iota
	East
	South
	West
)

var headingNames = [4]string{"N", "E", "S", "W"}

func (h Heading) String() string { return headingNames[h&3] }

// MarshalText writes "N", "E", "S" or "W".
func (h Heading) MarshalText() ([]byte, error) { return []byte(headingNames[h&3]), nil }

// UnmarshalText reads "N", "E", "S" or "W".
func (h *Heading) UnmarshalText(b []byte) error {
	return parseName(headingNames[:], b, "heading", (*uint8)(h))
}

var (
	stepX = [4]int8{0, 1, 0, -1}
	stepY = [4]int8{1, 0, -1, 0}
)

func turn(h Heading, m Move) Heading { return (h + Heading(quarter[m])) & 3 }
func opposite(h Heading) Heading     { return (h + 2) & 3 }

// relative is the move that turns heading h into h2 (never a U-turn here).
func relative(h, h2 Heading) Move {
	switch (h2 - h) & 3 {
	case 0:
		return Straight
	case 1:
		return Right
	}
	return Left
}

// Label names why the way ahead is blocked (4.9.1, D9).
type Label uint8

// The labels of the initial FLOOR card; NoLabel when the way is open.
const (
	NoLabel Label = iota
	Loop
	Reverse
	DeadEnd
)

var labelNames = [...]string{"", "loop", "reverse", "dead_end"}

func (l Label) String() string { return labelNames[l] }

// route is a walked route of a cell: the side the path came in by and the
// side it left by.
type route struct{ in, out Heading }

// cell is a laid tile on the grid.
type cell struct {
	x, y    int8
	tile    TileID
	nRoutes uint8
	routes  [4]route // each pass enters by a side never touched before, so 4 suffice
	hasSec  bool     // an unused secondary route remains
	sec     [2]Heading
}

// walker lays DIRECTION tiles one by one along the path (4.8.3). Its zero
// value is not ready: use newWalker. It is a plain value: copying it forks
// the path, which the bot uses to try candidate tiles.
type walker struct {
	floors  [numFloors]FloorID // revealed cards in reveal order, floor_initial first
	nFloors uint8

	cells  [numTiles]cell // cells[0] is the start
	nCells uint8
	slots  [128]uint8 // open addressing on (x, y): cell index + 1

	x, y    int8
	heading Heading
	prev    Move // the move of the latest step
	k       uint8

	lostAt  uint8 // 1-based DIRECTION tile index, 0 while the path holds
	label   Label
	blocked struct {
		x, y int8
		side Heading
	}
	floorHit uint16 // bit f set: FLOOR card f holds at the lost point

	charMask  uint16
	charCount [numCharacters]uint8
	twin      bool
	far       bool
	behind    bool
	run       uint8 // straight moves in a row, passes included
	longest   uint8
	passes    uint8

	rec *[]Step // if set, every step is appended here
}

// newWalker returns a walker at the start of the path, judged by the given
// revealed FLOOR cards (in reveal order; floor_initial always applies).
func newWalker(revealed []FloorID) walker {
	var w walker
	for _, f := range revealed {
		if f != FloorInitial {
			w.floors[w.nFloors] = f
			w.nFloors++
		}
	}
	w.cells[0] = cell{tile: StartTile, nRoutes: 1, routes: [4]route{{in: South, out: North}}}
	w.nCells = 1
	w.slots[slotOf(0, 0)] = 1
	w.heading, w.prev = North, Straight
	return w
}

func slotOf(x, y int8) uint8 { return (uint8(x)*31 + uint8(y)*17) & 127 }

// find returns the index of the cell at (x, y), or -1.
func (w *walker) find(x, y int8) int {
	for s := slotOf(x, y); ; s = (s + 1) & 127 {
		i := w.slots[s]
		if i == 0 {
			return -1
		}
		if c := &w.cells[i-1]; c.x == x && c.y == y {
			return int(i - 1)
		}
	}
}

func (w *walker) put(x, y int8, t TileID) *cell {
	s := slotOf(x, y)
	for w.slots[s] != 0 {
		s = (s + 1) & 127
	}
	w.cells[w.nCells] = cell{x: x, y: y, tile: t}
	w.nCells++
	w.slots[s] = w.nCells
	return &w.cells[w.nCells-1]
}

// lost reports whether the path has failed.
func (w *walker) lost() bool { return w.lostAt != 0 }

// lay is one tile step followed by the passes it leads to (4.8.3). It
// reports whether the path fails at this tile. Once the path has failed,
// nothing more is laid.
func (w *walker) lay(t TileID) bool {
	if w.lostAt != 0 {
		return true
	}
	w.k++
	h := w.heading
	x, y := w.x+stepX[h], w.y+stepY[h]
	typ := t.Type()
	move := tileTypes[typ].move
	if typ == TypeRepetition {
		move = w.prev // D6: copy the move of the previous step
	}
	out := turn(h, move)
	c := w.put(x, y, t)
	c.routes[0] = route{in: opposite(h), out: out}
	c.nRoutes = 1
	if tt := &tileTypes[typ]; tt.hasSecondary {
		c.hasSec = true
		c.sec = [2]Heading{(h + Heading(tt.secondary[0])) & 3, (h + Heading(tt.secondary[1])) & 3}
	}
	if ch := t.Character(); ch != NoCharacter {
		w.charMask |= 1 << ch
		w.charCount[ch]++
		if int(w.charCount[ch]) >= floors[FloorTwinCharacters].param {
			w.twin = true
		}
	}
	if d := int(floors[FloorFar].param); abs8(x) >= d || abs8(y) >= d {
		w.far = true
	}
	if int(y) < floors[FloorBehind].param {
		w.behind = true
	}
	w.x, w.y, w.heading = x, y, out
	w.step(move)
	if w.rec != nil {
		*w.rec = append(*w.rec, Step{Index: int(w.k), Tile: t, X: int(x), Y: int(y), Move: move, Heading: out})
	}
	w.follow()
	w.judge()
	return w.lostAt != 0
}

// step records a step's move for the corridor count and for Repetitions.
func (w *walker) step(m Move) {
	w.prev = m
	if m == Straight {
		w.run++
		w.longest = max(w.longest, w.run)
	} else {
		w.run = 0
	}
}

// follow makes the passes through cells already laid until the path needs a
// new tile (the cell ahead is empty) or is blocked.
func (w *walker) follow() {
	for {
		h := w.heading
		nx, ny := w.x+stepX[h], w.y+stepY[h]
		i := w.find(nx, ny)
		if i < 0 {
			return
		}
		c := &w.cells[i]
		s := opposite(h) // the side of the next cell we enter by
		for _, r := range c.routes[:c.nRoutes] {
			if s == r.in {
				w.block(Loop, nx, ny, s)
				return
			}
		}
		for _, r := range c.routes[:c.nRoutes] {
			if s == r.out {
				w.block(Reverse, nx, ny, s)
				return
			}
		}
		var out Heading
		var move Move
		switch {
		case c.hasSec && (s == c.sec[0] || s == c.sec[1]):
			out = c.sec[0]
			if s == c.sec[0] {
				out = c.sec[1]
			}
			c.hasSec = false // D5: each secondary route is used once
			move = relative(h, out)
		case c.tile.Type() == TypeRepetition:
			move = w.prev // D7: crossed again, it copies the step that led into it
			out = turn(h, move)
		default:
			w.block(DeadEnd, nx, ny, s)
			return
		}
		c.routes[c.nRoutes] = route{in: s, out: out}
		c.nRoutes++
		w.x, w.y, w.heading = nx, ny, out
		w.passes++
		w.step(move)
		if w.rec != nil {
			*w.rec = append(*w.rec, Step{Tile: c.tile, Pass: true, X: int(nx), Y: int(ny), Move: move, Heading: out})
		}
	}
}

func (w *walker) block(l Label, x, y int8, side Heading) {
	w.label = l
	w.blocked.x, w.blocked.y, w.blocked.side = x, y, side
}

// judge checks the revealed FLOOR cards after a tile step and its passes
// (4.9.2) and sets the lost point if anything fails.
func (w *walker) judge() {
	for _, f := range w.floors[:w.nFloors] {
		if w.holds(f) {
			w.floorHit |= 1 << f
		}
	}
	if w.label != NoLabel || w.floorHit != 0 {
		w.lostAt = w.k
	}
}

func (w *walker) holds(f FloorID) bool {
	p := floors[f].param
	switch f {
	case FloorFiveCharacters:
		n := 0
		for m := w.charMask; m != 0; m &= m - 1 {
			n++
		}
		return n >= p
	case FloorTwinCharacters:
		return w.twin
	case FloorFar:
		return w.far
	case FloorBehind:
		return w.behind
	case FloorCorridor:
		return int(w.longest) >= p
	case FloorCrossing:
		return int(w.passes) >= p
	}
	return false
}

// reasons lists why the path failed: the block label first, then the FLOOR
// cards that hold, in reveal order (D10). They are appended to dst.
func (w *walker) reasons(dst []string) []string {
	if w.lostAt == 0 {
		return dst
	}
	if w.label != NoLabel {
		dst = append(dst, w.label.String())
	}
	for _, f := range w.floors[:w.nFloors] {
		if w.floorHit&(1<<f) != 0 {
			dst = append(dst, f.String())
		}
	}
	return dst
}

func abs8(v int8) int {
	if v < 0 {
		return -int(v)
	}
	return int(v)
}

// Step is one step of the revealed path: a tile step (Index > 0, the tile's
// number among the DIRECTION tiles of the stack) or a pass through a cell
// already laid (Pass).
type Step struct {
	Index   int     `json:"index,omitempty"`
	Tile    TileID  `json:"tile"`
	Pass    bool    `json:"pass,omitempty"`
	X       int     `json:"x"`
	Y       int     `json:"y"`
	Move    Move    `json:"move"`
	Heading Heading `json:"heading"` // the heading on leaving the cell
}

// Blocked is where the path ran into a cell it could not enter: the cell and
// the side it would have entered by.
type Blocked struct {
	X    int     `json:"x"`
	Y    int     `json:"y"`
	Side Heading `json:"side"`
}

// PathResult is the outcome of laying out a sequence of DIRECTION tiles.
type PathResult struct {
	// LostAt is the 1-based index of the tile at which the path fails, or 0
	// when it is valid to the end.
	LostAt int
	// Reasons says why, as in the reveal (empty when valid).
	Reasons []string
}

// WalkPath lays out DIRECTION tiles (start excluded, bottom to top) under
// the revealed FLOOR cards and says where the path fails. It is the reveal's
// geometry alone, for tools and tests.
func WalkPath(seq []TileID, revealed []FloorID) PathResult {
	w := newWalker(revealed)
	for _, t := range seq {
		if w.lay(t) {
			break
		}
	}
	return PathResult{LostAt: int(w.lostAt), Reasons: w.reasons([]string{})}
}

// Reveal is everything shown at the end of a round (7.2, D28): the whole
// stack in order, the computed path up to the lost point, why it failed,
// how each LOST tile is judged and the points awarded.
type Reveal struct {
	Round   int    `json:"round"`
	EndedBy string `json:"ended_by"` // "last_holder" or "exhaustion" (4.7)
	// Floors are the FLOOR cards in force, in reveal order.
	Floors []FloorID `json:"floors"`
	// Stack is the stack from bottom to top, start excluded.
	Stack []RevealItem `json:"stack"`
	// Steps is the path from the start: tile steps and passes, up to and
	// including the lost point's passes.
	Steps []Step `json:"steps"`
	// LostAt is the 1-based index of the failing DIRECTION tile; 0 when the
	// path is valid to the end of the stack.
	LostAt int `json:"lost_at"`
	// Reasons: the block label ("loop", "reverse", "dead_end") first, then
	// the FLOOR cards that hold, in reveal order (D10).
	Reasons []string `json:"reasons"`
	// Blocked is the cell the path could not enter, when it was blocked.
	Blocked *Blocked `json:"blocked,omitempty"`
	// ScoringChain is the LOST chain that scored, 0 if none.
	ScoringChain int `json:"scoring_chain,omitempty"`
	// Holders are the seats that kept their LOST tile.
	Holders []int `json:"holders"`
	// Points are the points each seat scored this round.
	Points []int `json:"points"`
}

// RevealItem is one item of the revealed stack. Absent numbers are 0.
type RevealItem struct {
	Kind ItemKind `json:"kind"` // "tile" or "lost"
	// Seat is who laid the tile, or the LOST tile's owner.
	Seat int `json:"seat"`
	// Tiles: the tile, its number among the DIRECTION tiles (from 1), its
	// display facing and whether danger_blackout turned it face down.
	Tile     TileID `json:"tile,omitzero"`
	Index    int    `json:"index,omitempty"`
	Facing   int    `json:"facing,omitempty"`
	FaceDown bool   `json:"face_down,omitempty"`
	// LOST tiles: the chain number and the judgement (4.10).
	Chain  int        `json:"chain,omitempty"`
	Status LostStatus `json:"status,omitempty"`
}

// ItemKind says whether a stack item is a DIRECTION tile or a LOST tile.
type ItemKind uint8

// The kinds of stack items.
const (
	TileItem ItemKind = iota
	LostItem
)

var itemKindNames = [...]string{"tile", "lost"}

// MarshalText writes "tile" or "lost".
func (k ItemKind) MarshalText() ([]byte, error) { return []byte(itemKindNames[k&1]), nil }

// UnmarshalText reads "tile" or "lost".
func (k *ItemKind) UnmarshalText(b []byte) error {
	return parseName(itemKindNames[:], b, "stack item kind", (*uint8)(k))
}

// LostStatus is the judgement of a LOST tile at the reveal (4.10).
type LostStatus uint8

// The judgements; NoStatus is only for DIRECTION tiles.
const (
	NoStatus    LostStatus = iota
	LostEarly              // "early": before the lost point (or the path held), 0 points
	LostScoring            // "scoring": the first chain after the lost point, 1 point
	LostAfter              // "after": a later chain, 0 points
)

var lostStatusNames = [...]string{"", "early", "scoring", "after"}

func (st LostStatus) String() string { return lostStatusNames[st&3] }

// MarshalText writes "early", "scoring" or "after".
func (st LostStatus) MarshalText() ([]byte, error) { return []byte(lostStatusNames[st&3]), nil }

// UnmarshalText reads "early", "scoring" or "after".
func (st *LostStatus) UnmarshalText(b []byte) error {
	return parseName(lostStatusNames[:], b, "LOST judgement", (*uint8)(st))
}
