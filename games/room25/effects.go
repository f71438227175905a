package room25

import "sortie/engine"

// Entering a room (§4.7, §4.8), room effects, Control slides (§4.9) and the
// escape (§4.15).

// enter puts character c on tile t as an arrival and applies the room.
func (s *State) enter(c Character, t int8, how string, by Character) {
	revealed := !s.isFaceUp(t)
	if revealed {
		s.turnFaceUp(t)
	}
	s.arrive(c, t, how, by, revealed)
	ch := &s.chars[c]
	switch s.room[t] {
	case RoomDeadly:
		s.kill(c, "deadly")
	case RoomAcid:
		for o := Scientist; o <= LittleGirl; o++ {
			if o != c && s.chars[o].inPlay && s.chars[o].alive && s.chars[o].tile == t {
				s.kill(o, "acid")
				if s.check() {
					return
				}
			}
		}
	case RoomTrapped:
		ch.trap = t
		ch.trapFresh = s.inSlot && s.line[s.slot] == c // D20
		// Trapped{Character: c, Tile: t}, made once.
		s.tell(trappedBodies[c][t])
	case RoomFlooded:
		ch.flood, ch.floodTurn = t, s.turn
		s.tell(Flooding{Character: c, Tile: tileID(t), DrownsTurn: s.turn + 1})
	case RoomVortex:
		s.arrive(c, s.tileAt(centreCell), "vortex", NoCharacter, false)
	case RoomTwin:
		for o := range int8(numTiles) {
			if o != t && s.room[o] == RoomTwin && s.isFaceUp(o) {
				s.arrive(c, o, "twin", NoCharacter, false) // D15: no second jump
				break
			}
		}
	case RoomVision, RoomMobile, RoomIllusion:
		if s.faceDownCount() > 0 {
			k := pendVision
			if s.room[t] == RoomMobile {
				k = pendMobile
			} else if s.room[t] == RoomIllusion {
				k = pendIllusion
			}
			s.ask(k, c, NoToken) // D14: the entering character's seat chooses
		}
	case RoomControl:
		s.ask(pendControlRoom, c, NoToken)
	case Room25:
		if modes[s.mode].alarm && !s.alarm && s.turnsLeft > alarmTurnsLeft { // D27
			s.alarm = true
			s.turnsLeft = alarmTurnsLeft
			s.tell(Alarm{TurnsLeft: alarmTurnsLeft})
		}
	}
	s.check()
}

// arrive puts c on tile t without any room effect and tells it.
func (s *State) arrive(c Character, t int8, how string, by Character, revealed bool) {
	s.place(c, t)
	s.tell(Entered{Character: c, Tile: tileID(t), Cell: int(s.tilePos[t]), Room: s.room[t], Revealed: revealed, How: how, By: by})
}

// place moves c onto tile t; leaving a tile ends any trap or flood on it.
func (s *State) place(c Character, t int8) {
	ch := &s.chars[c]
	if ch.tile != t {
		ch.trap, ch.trapFresh, ch.flood = -1, false, -1
	}
	ch.tile = t
}

// turnFaceUp reveals tile t for the rest of the game; beacons on it go back
// to their owners, or out of the game for dead owners (§4.11).
func (s *State) turnFaceUp(t int8) {
	s.faceUp |= 1 << uint(t)
	for c := Scientist; c <= LittleGirl; c++ {
		ch := &s.chars[c]
		if ch.inPlay && ch.beacon == t {
			ch.beacon = -1
			s.tell(BeaconReturned{Character: c, Tile: tileID(t), Removed: !ch.alive})
		}
	}
}

// kill eliminates c (§4.16); the caller runs the checks.
func (s *State) kill(c Character, cause string) {
	ch := &s.chars[c]
	t := ch.tile
	ch.alive = false
	ch.tile, ch.trap, ch.trapFresh, ch.flood = -1, -1, false, -1
	ch.died = s.turn
	s.deaths = append(s.deaths, c)
	s.tell(Died{Character: c, Tile: tileID(t), Cause: cause})
}

// VisionView is the Vision Room's private view of any face-down tile.
func (s *State) VisionView(id TileID) *engine.RuleError {
	t, err := s.effectTile(pendVision, id)
	if err != nil {
		return err
	}
	c := s.pend.char
	s.pend = pending{}
	s.view(c, t, "vision")
	s.proceed()
	return nil
}

// MobileSwap swaps the Mobile Room, occupants included, with a face-down
// tile; nobody enters anything (D13, D17).
func (s *State) MobileSwap(id TileID) *engine.RuleError {
	t, err := s.effectTile(pendMobile, id)
	if err != nil {
		return err
	}
	c := s.pend.char
	s.pend = pending{}
	m := s.chars[c].tile
	s.swapTiles(m, t)
	s.tell(Swapped{By: RoomMobile, Tile: tileID(m), With: tileID(t), Cell: int(s.tilePos[m]), Other: int(s.tilePos[t])})
	s.check()
	s.proceed()
	return nil
}

// IllusionSwap swaps the Illusion Room with a face-down tile, which the
// character then enters with its full effect (D16).
func (s *State) IllusionSwap(id TileID) *engine.RuleError {
	t, err := s.effectTile(pendIllusion, id)
	if err != nil {
		return err
	}
	c := s.pend.char
	s.pend = pending{}
	i := s.chars[c].tile
	s.swapTiles(i, t)
	s.tell(Swapped{By: RoomIllusion, Tile: tileID(i), With: tileID(t), Cell: int(s.tilePos[i]), Other: int(s.tilePos[t])})
	s.enter(c, t, "illusion", NoCharacter)
	s.proceed()
	return nil
}

// effectTile checks the face-down tile chosen for a room effect.
func (s *State) effectTile(k pendKind, id TileID) (int8, *engine.RuleError) {
	if s.phase != phaseAction || s.pend.kind != k {
		return 0, wrongPhase("A " + pendNames[k] + " choice")
	}
	t := id.idx()
	if t < 0 || t >= numTiles {
		return 0, engine.Refuse(engine.CodeMalformed, "Say which tile.")
	}
	if s.isFaceUp(t) {
		return 0, engine.Refuse(codeTileFaceUp, "Tile %s is face up: choose a face-down tile.", id)
	}
	return t, nil
}

// ControlRoomSlide is the Control Room's slide of any non-central line
// (D18): it obeys and sets control marks, and never makes Room 25 escape.
func (s *State) ControlRoomSlide(l Line, d Dir) *engine.RuleError {
	if s.phase != phaseAction || s.pend.kind != pendControlRoom {
		return wrongPhase("A Control Room slide")
	}
	if l == 0 || l > numLines || d == NoDir || d > Right {
		return engine.Refuse(engine.CodeMalformed, "Say which line and which direction.")
	}
	if err := s.checkSlide(l, d); err != nil {
		return err
	}
	c := s.pend.char
	s.pend = pending{}
	s.control(c, l, d, true)
	s.proceed()
	return nil
}

// Control slides (§4.9) and the escape (§4.15).

// lineCells returns the cells of line l in order (left to right, top to
// bottom).
func lineCells(l Line) [size]int8 {
	var cells [size]int8
	k := l.pos()
	for i := range int8(size) {
		if l.isRow() {
			cells[i] = k*size + i
		} else {
			cells[i] = i*size + k
		}
	}
	return cells
}

// leadingTile returns the tile that leaves the board when line l slides d.
func (s *State) leadingTile(l Line, d Dir) int8 {
	cells := lineCells(l)
	if d == Right || d == Down {
		return s.cellTile[cells[size-1]]
	}
	return s.cellTile[cells[0]]
}

// slide moves every tile of line l one cell in direction d; the leading tile
// wraps to the trailing end. Everything rides with its tile (D13).
func (s *State) slide(l Line, d Dir) {
	cells := lineCells(l)
	var old [size]int8
	for i, cell := range cells {
		old[i] = s.cellTile[cell]
	}
	for i, cell := range cells {
		var t int8
		if d == Right || d == Down {
			t = old[(i+size-1)%size]
		} else {
			t = old[(i+1)%size]
		}
		s.cellTile[cell] = t
		s.tilePos[t] = cell
	}
}

// swapTiles exchanges the cells of tiles a and b.
func (s *State) swapTiles(a, b int8) {
	ca, cb := s.tilePos[a], s.tilePos[b]
	s.cellTile[ca], s.cellTile[cb] = b, a
	s.tilePos[a], s.tilePos[b] = cb, ca
}

// control slides line l in direction d for character c, by its Control
// action or by the Control Room; a Control action may make Room 25 escape.
func (s *State) control(c Character, l Line, d Dir, byRoom bool) {
	lead := s.leadingTile(l, d)
	if !byRoom && s.room[lead] == Room25 && s.chars[c].tile == lead && s.canEscape(c) { // D29
		s.tell(Escaped{Character: c, Line: l, Dir: d})
		s.escape(c)
		return
	}
	s.slide(l, d)
	if s.marks[l.idx()] == NoDir {
		s.marks[l.idx()] = d
	}
	s.tell(slid(l, d, c, byRoom))
	s.check()
}

// onRoom25 reports whether c is alive on the Room 25 tile.
func (s *State) onRoom25(c Character) bool {
	ch := &s.chars[c]
	return ch.inPlay && ch.alive && s.room[ch.tile] == Room25
}

// canEscape reports whether c's side may leave with Room 25 now (§4.15).
func (s *State) canEscape(c Character) bool {
	last := s.turnsLeft == 1
	p := s.owner(c)
	switch s.mode {
	case Cooperation, Solo:
		for o := Scientist; o <= LittleGirl; o++ {
			if s.chars[o].inPlay && s.chars[o].alive && !s.onRoom25(o) {
				return false
			}
		}
		return s.mode == Cooperation || len(s.deaths) == 0
	case Suspicion:
		if s.role[p] != Prisoner {
			return false
		}
		out := 0
		for o := Scientist; o <= LittleGirl; o++ {
			if s.chars[o].inPlay && s.role[s.owner(o)] == Prisoner && !s.onRoom25(o) {
				out++
			}
		}
		return out == 0 || (last && out == 1)
	case Competition, Team:
		dead := false
		for o := Scientist; o <= LittleGirl; o++ {
			if !s.chars[o].inPlay || !s.sameSide(s.owner(o), p) {
				continue
			}
			if !s.chars[o].alive {
				dead = true
			} else if !s.onRoom25(o) {
				return false
			}
		}
		return !dead || last // D39
	}
	return false
}

// sameSide reports whether seats p and q win together in Competition or
// Team mode.
func (s *State) sameSide(p, q int8) bool {
	if s.mode == Team {
		return s.team[p] == s.team[q]
	}
	return p == q
}
