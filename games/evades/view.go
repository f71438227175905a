package evades

import (
	"slices"
	"sync"

	"sortie/engine"
)

// View is what one seat (or a spectator) may know (§7): the whole board, the
// face-up row and the discard piles, every hand's size, its own hand and plan.
// Once the game is over every hand, every plan and the order of every pile
// are revealed to all.
type View struct {
	Seat            int          `json:"seat"` // -1 for a spectator
	Players         int          `json:"players"`
	ObjectsRequired int          `json:"objects_required"`
	Turn            int          `json:"turn"` // turns begun so far
	TurnLimit       int          `json:"turn_limit"`
	Active          int          `json:"active"`
	Phase           string       `json:"phase"` // "action", "move" or "over"
	Pending         *PendingView `json:"pending,omitempty"`
	Direction       int          `json:"direction"` // +1 clockwise, -1 counter-clockwise
	ReverseAtEnd    bool         `json:"reverse_at_end"`
	BadgeCredits    int          `json:"badge_credits"`
	CorruptionCreds int          `json:"corruption_credits"`
	Doors           []DoorView   `json:"doors"`
	Seats           []SeatView   `json:"seats"`
	Rooms           []RoomView   `json:"rooms"`
	Row             []Card       `json:"row"`
	DrawPile        int          `json:"draw_pile"`
	Discard         []Card       `json:"discard"`
	PassPassPile    int          `json:"pass_pass_pile"`
	PassPassDiscard []PassPass   `json:"pass_pass_discard"`
	Warning         WarningView  `json:"warning"`
	Winner          int          `json:"winner"` // -1 while playing, or when nobody escaped
	Revealed        *RevealView  `json:"revealed,omitempty"`
}

// PendingView is the decision owed now (§4.12).
type PendingView struct {
	Decision string    `json:"decision"` // the action type that answers it
	Seat     int       `json:"seat"`     // who must answer
	Card     *PassPass `json:"card,omitempty"`
	Target   *int      `json:"target,omitempty"` // give_cards: who receives; answer_blackmail: who asked
	Count    int       `json:"count,omitempty"`  // give_cards, discard: how many cards
	Draw     string    `json:"draw,omitempty"`   // discard: the draw it comes before (take_face_up, take_blind), if any (I13)
	Slots    []int     `json:"slots,omitempty"`  // discard before take_face_up: the two slots
}

// DoorView is one door: the face its tab shows, how many cards that face
// asks for, and the face a flip would show (both faces of a tab are public).
// Where the door stands and whether it has a Warning spot is in BoardLayout.
type DoorView struct {
	Door  Door `json:"door"`
	Face  Card `json:"face"`
	Level int  `json:"level"`
	Other Card `json:"other"`
}

// SeatView is one seat as the viewer may see it.
type SeatView struct {
	Seat     int      `json:"seat"`
	Area     Area     `json:"area"`
	LastDoor *Door    `json:"last_door,omitempty"`
	HandSize int      `json:"hand_size"`
	Hand     []Card   `json:"hand,omitempty"` // own hand, or every hand at the end
	Plan     *Plan    `json:"plan,omitempty"` // own plan, or every plan at the end
	Carried  []Object `json:"carried,omitempty"`
	Skip     int      `json:"skip,omitempty"`
	Extra    int      `json:"extra,omitempty"`
}

// RoomView lists the object tokens still lying in a common room.
type RoomView struct {
	Room    Area     `json:"room"`
	Objects []Object `json:"objects"`
}

// WarningView is the public state of the Warning tokens.
type WarningView struct {
	Colour      string  `json:"colour"` // the current pile's colour
	Pile        int     `json:"pile"`   // tokens left in it
	OrangeAside []Token `json:"orange_aside"`
	BlackAside  []Token `json:"black_aside"`
}

// RevealView is what the end of the game uncovers: the plans set aside and
// the order of the piles (top first).
type RevealView struct {
	Aside       []Plan     `json:"aside"`
	DrawPile    []Card     `json:"draw_pile"`
	PassPass    []PassPass `json:"pass_pass_pile"`
	WarningPile []Token    `json:"warning_pile"`
}

// View returns what seat p (or engine.Spectator) may know now.
func (s *State) View(p engine.Seat) engine.View {
	v := &View{}
	s.fillView(v, p, false)
	return v
}

// AppendView appends the JSON of View(p) to dst (engine.ViewAppender),
// from a view built in room kept from the last one, lending the state's own
// slices: it is dropped once written.
func (s *State) AppendView(dst []byte, p engine.Seat) []byte {
	v := viewRoom.Get().(*View)
	s.fillView(v, p, true)
	dst = v.AppendJSON(dst)
	v.release()
	viewRoom.Put(v)
	return dst
}

// viewRoom holds views whose room AppendView reuses.
var viewRoom = sync.Pool{New: func() any { return new(View) }}

// release forgets what a view built by fillView(lent) borrowed from a state,
// keeping only its own room: the lists of doors, seats and rooms, and the
// lists of the objects in each room.
func (v *View) release() {
	for i := range v.Seats {
		v.Seats[i] = SeatView{Carried: v.Seats[i].Carried[:0]}
	}
	*v = View{Doors: v.Doors[:0], Seats: v.Seats[:0], Rooms: v.Rooms[:0]}
}

// fillView makes v what seat p may know now. lent: v is a view of
// AppendView's, whose room it reuses, and it may hold the state's own slices;
// else every slice of v is its own.
func (s *State) fillView(v *View, p engine.Seat, lent bool) {
	over := s.phase == phaseOver
	doors, seats, rooms := v.Doors[:0], v.Seats[:0], v.Rooms[:0]
	*v = View{
		Seat:            int(p),
		Players:         s.n,
		ObjectsRequired: s.objectsRequired,
		Turn:            s.turnsBegun,
		TurnLimit:       s.turnLimit,
		Active:          int(s.active),
		Phase:           phaseIDs[s.phase],
		Direction:       int(s.direction),
		ReverseAtEnd:    s.reverseAtEnd,
		BadgeCredits:    s.badge,
		CorruptionCreds: s.corruption,
		Row:             lend(s.row[:], lent),
		DrawPile:        len(s.pile),
		Discard:         lend(s.discard, lent),
		PassPassPile:    len(s.ppPile),
		PassPassDiscard: lend(s.ppDiscard, lent),
		Winner:          int(s.winner),
		Warning: WarningView{
			Colour:      colourIDs[s.warnColour],
			Pile:        len(s.warnPile),
			OrangeAside: lend(s.warnUsed[orange], lent),
			BlackAside:  lend(s.warnUsed[black], lent),
		},
	}
	if v.Discard == nil {
		v.Discard = []Card{}
	}
	if v.PassPassDiscard == nil {
		v.PassPassDiscard = []PassPass{}
	}
	if v.Warning.OrangeAside == nil {
		v.Warning.OrangeAside = []Token{}
	}
	if v.Warning.BlackAside == nil {
		v.Warning.BlackAside = []Token{}
	}
	if pd := s.pend; pd.kind != pendNone {
		pv := &PendingView{Decision: pendIDs[pd.kind], Seat: int(pd.seat)}
		switch pd.kind {
		case pendTarget:
			c := pd.card
			pv.Card = &c
		case pendGiveCards, pendBlackmail:
			t := int(pd.target)
			pv.Target = &t
		}
		if pd.kind == pendGiveCards || pd.kind == pendDiscard {
			pv.Count = int(pd.count)
		}
		switch pd.draw {
		case drawFaceUp:
			pr := slotPairs[pd.slots]
			pv.Draw, pv.Slots = kindTakeFaceUp, []int{int(pr[0]), int(pr[1])}
		case drawBlind:
			pv.Draw = kindTakeBlind
		}
		v.Pending = pv
	}
	if !lent {
		doors = make([]DoorView, 0, numDoors)
		seats = make([]SeatView, 0, s.n)
		rooms = make([]RoomView, 0, len(board.rooms))
	}
	for d := range numDoors {
		f := s.face(Door(d))
		doors = append(doors, DoorView{Door: Door(d), Face: f, Level: cards[f].Level, Other: s.otherFace(Door(d))})
	}
	v.Doors = doors
	for q := range s.n {
		st := &s.seats[q]
		var carried []Object
		if lent && q < cap(seats) {
			carried = seats[:q+1][q].Carried[:0] // room kept by release
		}
		sv := SeatView{Seat: q, Area: st.area, HandSize: st.hand.size(), Skip: st.skip, Extra: st.extra}
		if st.lastDoor >= 0 {
			d := Door(st.lastDoor)
			sv.LastDoor = &d
		}
		if over || q == int(p) {
			sv.Hand = st.hand.list()
			pl := st.plan
			sv.Plan = &pl
		}
		for o, h := range s.objHolder {
			if int(h) == q {
				carried = append(carried, Object(o))
			}
		}
		if len(carried) > 0 {
			sv.Carried = carried
		} else if lent {
			sv.Carried = carried[:0] // empty: left out, as nil is (omitempty)
		}
		seats = append(seats, sv)
	}
	v.Seats = seats
	for i, r := range board.rooms {
		var objects []Object
		if lent && i < cap(rooms) {
			objects = rooms[:i+1][i].Objects[:0]
		}
		if objects == nil {
			objects = []Object{}
		}
		for o, a := range s.objRoom {
			if int(a) == int(r) {
				objects = append(objects, Object(o))
			}
		}
		rooms = append(rooms, RoomView{Room: r, Objects: objects})
	}
	v.Rooms = rooms
	if over {
		v.Revealed = &RevealView{
			Aside:       append([]Plan{}, s.aside...),
			DrawPile:    reversed(s.pile),
			PassPass:    reversed(s.ppPile),
			WarningPile: reversed(s.warnPile),
		}
	}
}

// lend returns a slice of the state for a view: itself for a lent view,
// else a copy.
func lend[T any](s []T, lent bool) []T {
	if lent {
		return s
	}
	return slices.Clone(s)
}

// reversed returns a pile top first, never nil.
func reversed[T any](pile []T) []T {
	out := make([]T, len(pile))
	for i, x := range pile {
		out[len(pile)-1-i] = x
	}
	return out
}

// Layout is the board as the client draws it: every area and door of the
// data table with its coordinates on the 0–24 grid (x right, y down).
type Layout struct {
	Areas []LayoutArea `json:"areas"`
	Doors []LayoutDoor `json:"doors"`
}

// LayoutArea is one area of the board drawing.
type LayoutArea struct {
	Area Area    `json:"area"`
	Kind string  `json:"kind"`
	En   string  `json:"en"`
	Fr   string  `json:"fr"`
	X    float64 `json:"x"`
	Y    float64 `json:"y"`
	Vent bool    `json:"vent,omitempty"`
}

// LayoutDoor is one door of the board drawing, across the line joining its
// two areas.
type LayoutDoor struct {
	Door    Door    `json:"door"`
	A       Area    `json:"a"`
	B       Area    `json:"b"`
	X       float64 `json:"x"`
	Y       float64 `json:"y"`
	Warning bool    `json:"warning,omitempty"`
	Exit    bool    `json:"exit,omitempty"`
}

// BoardLayout returns the static board drawing data.
func BoardLayout() Layout {
	var l Layout
	for i, a := range areas {
		l.Areas = append(l.Areas, LayoutArea{Area(i), a.Kind, a.En, a.Fr, a.X, a.Y, a.Vent})
	}
	for i, d := range doors {
		l.Doors = append(l.Doors, LayoutDoor{Door(i), board.doorA[i], board.doorB[i], d.X, d.Y, d.Warning, d.Exit})
	}
	return l
}
