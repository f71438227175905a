package room25

import (
	"sync"

	"sortie/engine"
)

// View is what one seat (or a spectator) may know of a game (§7). It never
// holds the identity of a face-down tile the seat has not viewed itself,
// another seat's programmed tokens before they are revealed, or a role that
// is neither the seat's own nor public. Once the game is over everything is
// revealed.
type View struct {
	// Seat is the viewer, -1 for a spectator.
	Seat    int    `json:"seat"`
	Mode    string `json:"mode"`
	RoomSet string `json:"room_set"`
	// CustomRooms counts the rooms of a custom set by id (public: the set
	// is chosen at setup); absent for the rulebook's sets.
	CustomRooms map[string]int `json:"custom_rooms,omitempty"`
	Beacons     bool           `json:"beacons"`
	Phase       string         `json:"phase"`
	Turn        int            `json:"turn"`
	TurnsLeft   int            `json:"turns_left"`
	// Counter is the side of the turn counter: 8 or 10.
	Counter int  `json:"counter"`
	Alarm   bool `json:"alarm"`
	// Round is 1 or 2 during the action phase.
	Round int `json:"round,omitempty"`
	// Line is the marker line, head (first to act) first.
	Line []Character `json:"line"`
	// Slot is the character whose slot it is, during the action phase.
	Slot Character `json:"slot,omitempty"`
	// Decision is the decision the action phase waits for.
	Decision *DecisionView `json:"decision,omitempty"`
	// Cells are the 25 cells, index 5*row+col.
	Cells      []CellView      `json:"cells"`
	Characters []CharacterView `json:"characters"`
	// Marks are the control marks of this turn.
	Marks  []MarkView  `json:"marks"`
	Seats  []SeatView  `json:"seats"`
	Deaths []Character `json:"deaths"`
	// Aside are the role tiles set aside, shown at the end (Suspicion).
	Aside  []Role      `json:"aside,omitempty"`
	Result *ResultView `json:"result,omitempty"`
}

// DecisionView says who must decide what in the action phase (public).
type DecisionView struct {
	// Kind is play_or_wait, target, act, vision_view, mobile_swap,
	// illusion_swap, control_room_slide or hint.
	Kind      string    `json:"kind"`
	Seat      int       `json:"seat"`
	Character Character `json:"character"`
	// Token is the revealed token whose target is chosen (kind target).
	Token Token `json:"token,omitempty"`
	// Tile is the tile just viewed (kind hint).
	Tile TileID `json:"tile,omitempty"`
}

// CellView is one cell of the complex and the tile on it.
type CellView struct {
	Cell   int    `json:"cell"`
	Tile   TileID `json:"tile"`
	Origin string `json:"origin"`
	FaceUp bool   `json:"face_up"`
	// Room is the tile's identity: face up, viewed by this seat (Known), or
	// at the end.
	Room  string `json:"room,omitempty"`
	Known bool   `json:"known,omitempty"`
	// Flooded is set on a face-up Flooded Room: nobody may enter it.
	Flooded    bool        `json:"flooded,omitempty"`
	Characters []Character `json:"characters,omitempty"`
	Beacons    []Character `json:"beacons,omitempty"`
	Hints      []HintView  `json:"hints,omitempty"`
	// ViewedBy are the seats that have looked at this tile (public).
	ViewedBy []int `json:"viewed_by,omitempty"`
}

// HintView is a public claim on a tile.
type HintView struct {
	Seat   int    `json:"seat"`
	Colour Colour `json:"colour"`
}

// CharacterView is one character.
type CharacterView struct {
	ID    Character `json:"id"`
	Seat  int       `json:"seat"`
	Team  string    `json:"team,omitempty"`
	Alive bool      `json:"alive"`
	// Cell and Tile are where it stands; -1 and absent once dead.
	Cell int    `json:"cell"`
	Tile TileID `json:"tile,omitempty"`
	// Trapped is set while it must leave a Trapped Room with its next
	// action; DrownsTurn while it stands in a room it flooded.
	Trapped    bool   `json:"trapped,omitempty"`
	DrownsTurn int    `json:"drowns_turn,omitempty"`
	Beacon     TileID `json:"beacon,omitempty"`
	// Programmed and Tokens (1 or 2) are public; Program, the tokens in
	// order, only to the owner and at the end.
	Programmed bool     `json:"programmed"`
	Tokens     int      `json:"tokens,omitempty"`
	Program    []Token  `json:"program,omitempty"`
	Immediate  bool     `json:"immediate,omitempty"`
	Cold       bool     `json:"cold,omitempty"`
	Waited     bool     `json:"waited,omitempty"`
	Shown      [2]Token `json:"shown"`
	Previous   [2]Token `json:"previous"`
}

// MarkView is a line's control mark.
type MarkView struct {
	Line Line `json:"line"`
	Dir  Dir  `json:"dir"`
}

// SeatView is one seat.
type SeatView struct {
	Seat       int         `json:"seat"`
	Characters []Character `json:"characters"`
	Team       string      `json:"team,omitempty"`
	// Role is shown to its own seat, once public, and at the end.
	Role         Role `json:"role,omitempty"`
	RoleRevealed bool `json:"role_revealed,omitempty"`
	// StartReady says the seat made its choice in the current start step;
	// StartLook and StartHint are its own choices (or everyone's once
	// published).
	StartReady bool   `json:"start_ready,omitempty"`
	StartLook  TileID `json:"start_look,omitempty"`
	StartHint  Colour `json:"start_hint,omitempty"`
}

// ResultView is the end of the game.
type ResultView struct {
	Reason  string `json:"reason"`
	Winners []int  `json:"winners"`
	Scores  []int  `json:"scores"`
	Ranks   []int  `json:"ranks"`
	Summary string `json:"summary"`
}

var teamNames = [...]string{"A", "B"}

// View returns what seat p (or engine.Spectator) may know now.
func (s *State) View(p engine.Seat) engine.View {
	var v View
	s.viewInto(&v, p)
	return v
}

// AppendView appends the JSON of View(p) to dst (engine.ViewAppender), from
// a view filled in room kept from the last one (see viewInto): the server
// writes a view for every audience of every action and drops it.
func (s *State) AppendView(dst []byte, p engine.Seat) []byte {
	v := viewRoom.Get().(*View)
	s.viewInto(v, p)
	dst = v.AppendJSON(dst)
	viewRoom.Put(v)
	return dst
}

// viewRoom holds the views whose room AppendView reuses.
var viewRoom = sync.Pool{New: func() any { return new(View) }}

// viewInto fills v with View(p), reusing the slices v already holds: the
// hard bot's playouts build a view at every move, and a fresh one costs
// dozens of allocations. Filling a zero View gives exactly View(p).
func (s *State) viewInto(v *View, p engine.Seat) {
	me := int8(-1)
	if p >= 0 && int(p) < s.seats {
		me = int8(p)
	}
	mine := func(q int8) bool { return s.over || (me >= 0 && q == me) }
	v.Seat, v.Mode, v.RoomSet, v.Beacons = int(me), s.mode.String(), s.set.String(), s.beacons
	v.CustomRooms = s.customRooms()
	v.Phase, v.Turn, v.TurnsLeft = phaseNames[s.phase], s.turn, s.turnsLeft
	v.Counter, v.Alarm = modes[s.mode].counter, s.alarm
	v.Line = append(v.Line[:0], s.line...)
	v.Deaths = append(emptyIfNil(v.Deaths), s.deaths...)
	v.Marks = emptyIfNil(v.Marks)
	v.Round, v.Slot = 0, NoCharacter
	decision := v.Decision
	v.Decision = nil
	v.Aside, v.Result = nil, nil
	if s.phase == phaseAction {
		v.Round = s.round
		if s.inSlot {
			v.Slot = s.line[s.slot]
		}
		if pd := s.pend; pd.kind != pendNone {
			v.Decision = decision
			if v.Decision == nil {
				v.Decision = new(DecisionView)
			}
			*v.Decision = DecisionView{Kind: pendNames[pd.kind], Seat: int(pd.seat), Character: pd.char, Token: pd.token}
			if pd.kind == pendHint {
				v.Decision.Tile = tileID(pd.tile)
			}
		}
	}

	var knownTiles uint32
	if me >= 0 {
		knownTiles = s.known[me]
	}
	if len(v.Cells) != numCells {
		v.Cells = make([]CellView, numCells)
	}
	for cell := range int8(numCells) {
		t := s.cellTile[cell]
		cv := &v.Cells[cell]
		cv.Cell, cv.Tile, cv.Origin, cv.FaceUp = int(cell), tileID(t), origin(t), s.isFaceUp(t)
		cv.Room, cv.Known = "", false
		switch {
		case cv.FaceUp || s.over:
			cv.Room = s.room[t].String()
		case knownTiles&(1<<uint(t)) != 0:
			cv.Room, cv.Known = s.room[t].String(), true
		}
		cv.Flooded = cv.FaceUp && s.room[t] == RoomFlooded
		cv.Characters, cv.Beacons, cv.Hints, cv.ViewedBy = cv.Characters[:0], cv.Beacons[:0], cv.Hints[:0], cv.ViewedBy[:0]
		if w := s.viewed[t]; w != 0 {
			for q := range s.seats {
				if w&(1<<uint(q)) != 0 {
					cv.ViewedBy = append(cv.ViewedBy, q)
				}
			}
		}
	}
	// Who and what stands on each tile, in character (and hint) order.
	for c := Scientist; c <= LittleGirl; c++ {
		ch := &s.chars[c]
		if !ch.inPlay {
			continue
		}
		if ch.alive {
			cv := &v.Cells[s.tilePos[ch.tile]]
			cv.Characters = append(cv.Characters, c)
		}
		if ch.beacon >= 0 {
			cv := &v.Cells[s.tilePos[ch.beacon]]
			cv.Beacons = append(cv.Beacons, c)
		}
	}
	for _, h := range s.hints {
		cv := &v.Cells[s.tilePos[h.tile]]
		cv.Hints = append(cv.Hints, HintView{Seat: int(h.seat), Colour: h.colour})
	}

	v.Characters = v.Characters[:0]
	for c := Scientist; c <= LittleGirl; c++ {
		ch := &s.chars[c]
		if !ch.inPlay {
			continue
		}
		cv := CharacterView{
			ID: c, Seat: int(ch.seat), Alive: ch.alive, Cell: -1,
			Trapped: ch.trap >= 0, Immediate: ch.immediate, Cold: ch.cold, Waited: ch.waited,
			Programmed: ch.programmed, Shown: ch.shown, Previous: ch.prev,
		}
		if k := len(v.Characters); k < cap(v.Characters) {
			cv.Program = v.Characters[:k+1][k].Program[:0]
		}
		if s.team[ch.seat] >= 0 {
			cv.Team = teamNames[s.team[ch.seat]]
		}
		if ch.alive {
			cv.Cell = int(s.tilePos[ch.tile])
			cv.Tile = tileID(ch.tile)
		}
		if ch.flood >= 0 {
			cv.DrownsTurn = ch.floodTurn + 1
		}
		if ch.beacon >= 0 {
			cv.Beacon = tileID(ch.beacon)
		}
		if ch.programmed {
			cv.Tokens = 1
			if ch.plan[1] != NoToken {
				cv.Tokens = 2
			}
			if mine(ch.seat) {
				cv.Program = append(cv.Program, ch.plan[0])
				if ch.plan[1] != NoToken {
					cv.Program = append(cv.Program, ch.plan[1])
				}
			}
		}
		if len(cv.Program) == 0 {
			cv.Program = nil
		}
		v.Characters = append(v.Characters, cv)
	}

	for l := range numLines {
		if d := s.marks[l]; d != NoDir {
			v.Marks = append(v.Marks, MarkView{Line: lineOf(l), Dir: d})
		}
	}

	published := s.phase > phaseStartHint
	v.Seats = v.Seats[:0]
	for q := range int8(s.seats) {
		sv := SeatView{Seat: int(q)}
		if k := len(v.Seats); k < cap(v.Seats) {
			sv.Characters = v.Seats[:k+1][k].Characters[:0]
		}
		for c := Scientist; c <= LittleGirl; c++ {
			if s.chars[c].inPlay && s.chars[c].seat == q {
				sv.Characters = append(sv.Characters, c)
			}
		}
		if s.team[q] >= 0 {
			sv.Team = teamNames[s.team[q]]
		}
		if s.mode == Suspicion && (mine(q) || s.roleShown[q]) {
			sv.Role = s.role[q]
			sv.RoleRevealed = s.roleShown[q]
		}
		switch s.phase {
		case phaseStartLook:
			sv.StartReady = s.startLook[q] != -2
		case phaseStartHint:
			sv.StartReady = s.startLook[q] < 0 || s.startHint[q] != NoColour
		}
		if published || mine(q) {
			if t := s.startLook[q]; t >= 0 {
				sv.StartLook = tileID(t)
			}
			sv.StartHint = s.startHint[q]
		}
		v.Seats = append(v.Seats, sv)
	}

	if s.over {
		v.Aside = append([]Role(nil), s.aside...)
		o := s.outcome
		r := &ResultView{Reason: s.reason, Scores: append([]int(nil), o.Scores...), Ranks: append([]int(nil), o.Ranks...), Summary: o.Summary, Winners: []int{}}
		for _, w := range o.Winners {
			r.Winners = append(r.Winners, int(w))
		}
		v.Result = r
	}
}

// emptyIfNil returns xs emptied, or a new empty slice when xs is nil: the
// view's lists that are never absent from its JSON.
func emptyIfNil[T any](xs []T) []T {
	if xs == nil {
		return []T{}
	}
	return xs[:0]
}

// customRooms returns the rooms of a custom set by id, or nil.
func (s *State) customRooms() map[string]int {
	if s.set != SetCustom {
		return nil
	}
	m := make(map[string]int, numRooms)
	for r := range numRooms {
		if s.custom[r] > 0 {
			m[rooms[r].id] = int(s.custom[r])
		}
	}
	return m
}
