package room25

import "sortie/engine"

// Rule-error codes (§8). Lost actions use the same codes as their reason.
const (
	codeNotAdjacent       = "not_adjacent"
	codeOffBoard          = "off_board"
	codeRoomInaccessible  = "room_inaccessible"
	codePrisonExit        = "prison_exit"
	codePushFromCentral   = "push_from_central"
	codeCentralRoomAction = "central_room_action"
	codeDarkRoom          = "dark_room"
	codeNoOneToPush       = "no_one_to_push"
	codeCentralLine       = "central_line_locked"
	codeDirectionLocked   = "direction_locked"
	codeNotYourLine       = "not_your_line"
	codeSameActionTwice   = "same_action_twice"
	codeColdRoomSingle    = "cold_room_single"
	codeBeaconInUse       = "beacon_in_use"
	codeTileFaceUp        = "tile_face_up"
	codeNotYourSlot       = "not_your_slot"

	// Our own codes.
	codeNotYourCharacter  = "not_your_character"
	codeAlreadyProgrammed = "already_programmed"
	codeImmediatePlay     = "immediate_play"
	codeWrongToken        = "not_your_token"
	codeWrongDirection    = "wrong_direction"
	codeNoLookTarget      = "nothing_to_look_at"
	codeNoDestination     = "no_destination"
	codeNoAction          = "no_action_possible"
	codeMustAct           = "must_act"
	codeNoBeacons         = "no_beacons"
	codeNotAGuard         = "not_a_guard"
	codeNotStartAdjacent  = "not_start_adjacent"
)

// Legal returns every legal action of seat p now. Frequent lists are
// shared by every state (the tables beside the pre-boxed actions, in
// actions.go), the others carved from the state's chunks: callers must not
// change a list they are given.
func (s *State) Legal(p engine.Seat) []engine.Action {
	if s.over || p < 0 || int(p) >= s.seats {
		return nil
	}
	switch s.phase {
	case phaseStartLook:
		if s.startLook[p] != -2 {
			return nil
		}
		for _, cell := range startAdjacent {
			if s.tileAt(cell) != cell {
				out := make([]engine.Action, 0, len(startAdjacent)+1)
				for _, cell := range startAdjacent {
					out = append(out, boxStartLook[s.tileAt(cell)])
				}
				return append(out, boxSkipLook)
			}
		}
		return startLookList // the tiles have not moved yet
	case phaseStartHint:
		if s.startLook[p] < 0 || s.startHint[p] != NoColour {
			return nil
		}
		return hintList
	case phaseProgramming:
		// The seat's characters still to program, in order, each with
		// whether it may program a single token only (Cold Room).
		var todo [maxChars]Character
		var cold [maxChars]bool
		n := 0
		for c := Scientist; c <= LittleGirl; c++ {
			ch := &s.chars[c]
			if ch.inPlay && ch.alive && int(ch.seat) == int(p) && !ch.immediate && !ch.programmed {
				todo[n], cold[n] = c, ch.cold
				n++
			}
		}
		switch n {
		case 0:
			return nil
		case 1:
			return programLists[todo[0]][b2i(cold[0])][NoCharacter][0]
		case 2:
			return programLists[todo[0]][b2i(cold[0])][todo[1]][b2i(cold[1])]
		}
		var out []engine.Action
		for i := range n {
			out = appendPrograms(out, todo[i], cold[i])
		}
		return out
	case phaseAction:
		if s.pend.kind == pendNone || int(s.pend.seat) != int(p) {
			return nil
		}
		// Legal is the hottest list of a playout: the frequent lists are
		// shared, the others carved from the state's chunk.
		free := s.hasFreeActs()
		if !free {
			if l := s.sharedDecision(); l != nil {
				return l
			}
		}
		room := decisionRoom[s.pend.kind]
		if free {
			room += numTiles + 1 // beacons and a reveal
		}
		return s.mem.actions.keep(s.legalDecision(s.mem.actions.open(room, s.chunkSize(actionsPerTurn, actionChunkMin, actionChunkMax))))
	}
	return nil
}

// decisionRoom is the most answers a pending decision can have: Push
// targets are the longest list of a revealed token (five others, four
// directions), and immediate play lists every action's targets and Wait or
// Pass.
var decisionRoom = [...]int{
	pendPlayWait:    2,
	pendToken:       (maxChars - 1) * 4,
	pendAct:         4 + 4 + (maxChars-1)*4 + 4 + 1,
	pendVision:      numTiles,
	pendMobile:      numTiles,
	pendIllusion:    numTiles,
	pendControlRoom: 2 * (numLines - 2),
	pendHint:        len(colourNames) - 1,
}

// sharedDecision returns the shared list of the answers to the pending
// decision when there is one (playWaitList, hintList, moveLists, pushLists,
// controlLists), else nil. It is only asked when no free act follows.
func (s *State) sharedDecision() []engine.Action {
	pd := s.pend
	switch pd.kind {
	case pendPlayWait:
		return playWaitList
	case pendHint:
		return hintList
	case pendToken:
		c := pd.char
		cell := s.cellOf(c)
		switch pd.token {
		case TokenMove:
			var mask uint8
			for d := Up; d <= Right; d++ {
				if s.moveCode(c, d) == "" {
					mask |= 1 << (d - Up)
				}
			}
			return moveLists[mask]
		case TokenPush:
			other := NoCharacter
			for o := Scientist; o <= LittleGirl; o++ {
				if o == c || !s.chars[o].inPlay || !s.chars[o].alive || s.chars[o].tile != s.chars[c].tile {
					continue
				}
				if other != NoCharacter {
					return nil // several to push: a list of its own
				}
				other = o
			}
			if other == NoCharacter || cell == centreCell {
				return nil
			}
			var mask uint8
			for d := Up; d <= Right; d++ {
				if s.destinationCode(cell, d) == "" {
					mask |= 1 << (d - Up)
				}
			}
			return pushLists[other][mask]
		case TokenControl:
			if cell == centreCell {
				return nil
			}
			var mask uint8
			for i, l := range [2]Line{rowLine(rowOf(cell)), colLine(colOf(cell))} {
				if l.pos() == centralLine {
					continue
				}
				for j, d := range lineDirs(l) {
					if m := s.marks[l.idx()]; m == NoDir || m == d {
						mask |= 1 << (2*i + j)
					}
				}
			}
			return controlLists[cell][mask]
		}
	}
	return nil
}

// appendPrograms appends the Program actions of character c: each first
// token alone, then (outside the Cold Room) followed by each other token.
func appendPrograms(out []engine.Action, c Character, cold bool) []engine.Action {
	for f := TokenLook; f <= TokenControl; f++ {
		out = append(out, boxProgram[c][f][NoToken])
		if cold {
			continue
		}
		for sec := TokenLook; sec <= TokenControl; sec++ {
			if sec != f {
				out = append(out, boxProgram[c][f][sec])
			}
		}
	}
	return out
}

// b2i is 1 for true, 0 for false.
func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// legalDecision lists the answers to the pending decision, then the free
// acts of the slot's seat.
func (s *State) legalDecision(out []engine.Action) []engine.Action {
	pd := s.pend
	ch := &s.chars[pd.char]
	switch pd.kind {
	case pendPlayWait:
		out = append(out, boxPlay, boxWait)
	case pendToken:
		out = s.targets(out, pd.char, pd.token, false)
	case pendAct:
		for t := TokenLook; t <= TokenControl; t++ {
			if s.round == 2 && t == ch.shown[0] {
				continue
			}
			out = s.targets(out, pd.char, t, true)
		}
		if s.round == 1 {
			out = append(out, boxWait)
		} else if ch.shown[0] != NoToken {
			out = append(out, boxPass)
		}
	case pendVision, pendMobile, pendIllusion:
		box := &boxVision
		if pd.kind == pendMobile {
			box = &boxMobile
		} else if pd.kind == pendIllusion {
			box = &boxIllusion
		}
		for t := range int8(numTiles) {
			if !s.isFaceUp(t) {
				out = append(out, box[t])
			}
		}
	case pendControlRoom:
		for l := Line(1); l <= numLines; l++ {
			if l.pos() == centralLine {
				continue
			}
			for _, d := range lineDirs(l) {
				if m := s.marks[l.idx()]; m == NoDir || m == d {
					out = append(out, boxControlRoom[l][d])
				}
			}
		}
	case pendHint:
		out = append(out, boxHint[HintNone:]...)
	}
	c, beacon, reveal := s.freeActs()
	if beacon {
		for t := range int8(numTiles) {
			if !s.isFaceUp(t) {
				out = append(out, boxBeacon[c][t])
			}
		}
	}
	if reveal {
		out = append(out, boxReveal)
	}
	return out
}

// freeActs returns the character whose seat may now act freely (see
// freeActsFor) and which free acts it has: placing its beacon (still in
// hand), revealing its role (a hidden Guard).
func (s *State) freeActs() (c Character, beacon, reveal bool) {
	if c = s.freeActsFor(); c == NoCharacter {
		return c, false, false
	}
	p := s.owner(c)
	return c, s.beacons && s.chars[c].beacon < 0, s.mode == Suspicion && s.role[p] == Guard && !s.roleShown[p]
}

// hasFreeActs reports whether legalDecision may list a free act after the
// answers to the decision.
func (s *State) hasFreeActs() bool {
	_, beacon, reveal := s.freeActs()
	return beacon || reveal
}

// freeActsFor returns the character whose seat may now place its beacon or
// reveal its role: the slot's character while its own seat holds the
// pending decision (§4.5).
func (s *State) freeActsFor() Character {
	if s.phase != phaseAction || !s.inSlot || s.pend.kind == pendNone {
		return NoCharacter
	}
	c := s.line[s.slot]
	if !s.chars[c].alive || s.owner(c) != s.pend.seat {
		return NoCharacter
	}
	return c
}

// lineDirs returns the two directions a line slides in.
func lineDirs(l Line) [2]Dir {
	if l.isRow() {
		return [2]Dir{Left, Right}
	}
	return [2]Dir{Up, Down}
}

// targets appends every target of action t for character c, as target
// actions or (act) as immediate-play Acts.
func (s *State) targets(out []engine.Action, c Character, t Token, act bool) []engine.Action {
	cell := s.cellOf(c)
	switch t {
	case TokenLook:
		if s.room[s.chars[c].tile] == RoomDark {
			return out
		}
		for d := Up; d <= Right; d++ {
			if n := neighbour(cell, d); n >= 0 && !s.isFaceUp(s.tileAt(n)) {
				if act {
					out = append(out, boxActLook[s.tileAt(n)])
				} else {
					out = append(out, boxLook[s.tileAt(n)])
				}
			}
		}
	case TokenMove:
		for d := Up; d <= Right; d++ {
			if s.moveCode(c, d) == "" {
				if act {
					out = append(out, boxActMove[d])
				} else {
					out = append(out, boxMove[d])
				}
			}
		}
	case TokenPush:
		if cell == centreCell {
			return out
		}
		for o := Scientist; o <= LittleGirl; o++ {
			if o == c || !s.chars[o].inPlay || !s.chars[o].alive || s.chars[o].tile != s.chars[c].tile {
				continue
			}
			for d := Up; d <= Right; d++ {
				if s.destinationCode(cell, d) == "" {
					if act {
						out = append(out, boxActPush[o][d])
					} else {
						out = append(out, boxPush[o][d])
					}
				}
			}
		}
	case TokenControl:
		if cell == centreCell {
			return out
		}
		for _, l := range [2]Line{rowLine(rowOf(cell)), colLine(colOf(cell))} {
			if l.pos() == centralLine {
				continue
			}
			for _, d := range lineDirs(l) {
				if m := s.marks[l.idx()]; m == NoDir || m == d {
					if act {
						out = append(out, boxActControl[l][d])
					} else {
						out = append(out, boxControl[l][d])
					}
				}
			}
		}
	}
	return out
}

// lostReason returns why action t of character c cannot be performed now,
// or "" if it has at least one target (D10).
func (s *State) lostReason(c Character, t Token) string {
	cell := s.cellOf(c)
	switch t {
	case TokenLook:
		if s.room[s.chars[c].tile] == RoomDark {
			return codeDarkRoom
		}
		for d := Up; d <= Right; d++ {
			if n := neighbour(cell, d); n >= 0 && !s.isFaceUp(s.tileAt(n)) {
				return ""
			}
		}
		return codeNoLookTarget
	case TokenMove:
		reason := codeNoDestination
		for d := Up; d <= Right; d++ {
			code := s.moveCode(c, d)
			if code == "" {
				return ""
			}
			if code == codePrisonExit {
				reason = codePrisonExit
			}
		}
		return reason
	case TokenPush:
		if cell == centreCell {
			return codePushFromCentral
		}
		if !s.occupied(s.chars[c].tile, c) {
			return codeNoOneToPush
		}
		for d := Up; d <= Right; d++ {
			if s.destinationCode(cell, d) == "" {
				return ""
			}
		}
		return codeNoDestination
	case TokenControl:
		if cell == centreCell {
			return codeCentralRoomAction
		}
		return "" // a line with a mark still slides its own way
	}
	return codeNoAction
}

// checkDestination checks that a Move or Push from cell in direction d ends
// on the board and on an accessible room (D11, D21).
func (s *State) checkDestination(cell int8, d Dir) *engine.RuleError {
	switch s.destinationCode(cell, d) {
	case codeOffBoard:
		return engine.Refuse(codeOffBoard, "There is no room %s of this one: Move and Push never leave the board.", d)
	case codeRoomInaccessible:
		return engine.Refuse(codeRoomInaccessible, "The room %s is flooded: nobody may enter it any more.", d)
	}
	return nil
}

// destinationCode is checkDestination's code, "" when the destination is
// fine (Legal asks it often and wants no message).
func (s *State) destinationCode(cell int8, d Dir) string {
	n := neighbour(cell, d)
	if n < 0 {
		return codeOffBoard
	}
	if t := s.tileAt(n); s.isFaceUp(t) && s.room[t] == RoomFlooded {
		return codeRoomInaccessible
	}
	return ""
}

// checkMove checks a Move of c in direction d, the Prison Cell included
// (§4.8).
func (s *State) checkMove(c Character, d Dir) *engine.RuleError {
	if err := s.checkDestination(s.cellOf(c), d); err != nil {
		return err
	}
	if s.moveCode(c, d) == codePrisonExit {
		return engine.Refuse(codePrisonExit, "From the Prison Cell you may only move onto a room with a character in it, or the Central Room.")
	}
	return nil
}

// moveCode is checkMove's code, "" when the Move is legal.
func (s *State) moveCode(c Character, d Dir) string {
	cell := s.cellOf(c)
	if code := s.destinationCode(cell, d); code != "" {
		return code
	}
	if s.room[s.chars[c].tile] == RoomPrison {
		n := neighbour(cell, d)
		if n != centreCell && !s.occupied(s.tileAt(n), c) {
			return codePrisonExit
		}
	}
	return ""
}

// checkLook checks a Look of c at tile t.
func (s *State) checkLook(c Character, t int8) *engine.RuleError {
	if s.room[s.chars[c].tile] == RoomDark {
		return engine.Refuse(codeDarkRoom, "You cannot look from the Dark Room.")
	}
	if s.isFaceUp(t) {
		return engine.Refuse(codeTileFaceUp, "Tile %s is already face up.", tileID(t))
	}
	cell, at := s.cellOf(c), s.tilePos[t]
	if d := abs8(rowOf(cell)-rowOf(at)) + abs8(colOf(cell)-colOf(at)); d != 1 {
		return engine.Refuse(codeNotAdjacent, "Tile %s is not next to your room.", tileID(t))
	}
	return nil
}

func abs8(x int8) int8 {
	if x < 0 {
		return -x
	}
	return x
}

// checkPush checks a Push of o by c in direction d.
func (s *State) checkPush(c, o Character, d Dir) *engine.RuleError {
	cell := s.cellOf(c)
	if cell == centreCell {
		return engine.Refuse(codePushFromCentral, "Nobody can be pushed out of the Central Room.")
	}
	if o == c || !s.chars[o].inPlay || !s.chars[o].alive || s.chars[o].tile != s.chars[c].tile {
		return engine.Refuse(codeNoOneToPush, "%s is not in your room: you can only push someone who shares it.", o)
	}
	return s.checkDestination(cell, d)
}

// checkSlide checks a slide of line l in direction d against the locked
// central lines and the control marks (§4.9).
func (s *State) checkSlide(l Line, d Dir) *engine.RuleError {
	if l.pos() == centralLine {
		return engine.Refuse(codeCentralLine, "Row 2 and column 2 hold the Central Room and never slide.")
	}
	if dirs := lineDirs(l); d != dirs[0] && d != dirs[1] {
		return engine.Refuse(codeWrongDirection, "%s slides %s or %s, not %s.", l, dirs[0], dirs[1], d)
	}
	if m := s.marks[l.idx()]; m != NoDir && m != d {
		return engine.Refuse(codeDirectionLocked, "%s was already slid %s this turn: it may only slide %s again.", l, m, m)
	}
	return nil
}

// checkControl checks a Control action of c on line l in direction d.
func (s *State) checkControl(c Character, l Line, d Dir) *engine.RuleError {
	cell := s.cellOf(c)
	if cell == centreCell {
		return engine.Refuse(codeCentralRoomAction, "Control cannot be performed in the Central Room.")
	}
	if l.pos() == centralLine {
		return s.checkSlide(l, d)
	}
	if l != rowLine(rowOf(cell)) && l != colLine(colOf(cell)) {
		return engine.Refuse(codeNotYourLine, "You can only slide your own row or your own column.")
	}
	return s.checkSlide(l, d)
}

// checkTarget checks the target of action t by c given in the fields of an
// Act or a target action.
func (s *State) checkTarget(c Character, t Token, a Act) *engine.RuleError {
	missing := func(what string) *engine.RuleError {
		return engine.Refuse(engine.CodeMalformed, "The %s action needs a %s.", t, what)
	}
	extra := func() *engine.RuleError {
		return engine.Refuse(engine.CodeMalformed, "The %s action has a field it does not use.", t)
	}
	switch t {
	case TokenLook:
		if a.Character != NoCharacter || a.Line != 0 || a.Dir != NoDir {
			return extra()
		}
		if a.Tile.idx() < 0 || a.Tile.idx() >= numTiles {
			return missing("tile")
		}
		return s.checkLook(c, a.Tile.idx())
	case TokenMove:
		if a.Tile != 0 || a.Character != NoCharacter || a.Line != 0 {
			return extra()
		}
		if a.Dir == NoDir || a.Dir > Right {
			return missing("direction")
		}
		return s.checkMove(c, a.Dir)
	case TokenPush:
		if a.Tile != 0 || a.Line != 0 {
			return extra()
		}
		if a.Character == NoCharacter || a.Character > LittleGirl {
			return missing("character")
		}
		if a.Dir == NoDir || a.Dir > Right {
			return missing("direction")
		}
		return s.checkPush(c, a.Character, a.Dir)
	case TokenControl:
		if a.Tile != 0 || a.Character != NoCharacter {
			return extra()
		}
		if a.Line == 0 || a.Line > numLines {
			return missing("line")
		}
		if a.Dir == NoDir || a.Dir > Right {
			return missing("direction")
		}
		return s.checkControl(c, a.Line, a.Dir)
	}
	return missing("action")
}

// Apply plays action a for seat p. A refused action leaves the state as it
// was.
func (s *State) Apply(p engine.Seat, a engine.Action, _ engine.Millis) ([]engine.Event, error) {
	if s.over {
		return nil, engine.GameOver()
	}
	if !s.isActor(p) {
		return nil, engine.NotYourTurn(p)
	}
	var err *engine.RuleError
	s.out = s.mem.events.open(8, s.chunkSize(eventsPerTurn, eventChunkMin, eventChunkMax))
	switch a := a.(type) {
	case StartLook:
		err = s.StartLook(int8(p), a)
	case SkipLook:
		err = s.SkipLook(int8(p))
	case Hint:
		err = s.Hint(int8(p), a)
	case Program:
		err = s.Program(int8(p), a)
	case Play:
		err = s.Play()
	case Wait:
		err = s.Wait()
	case Pass:
		err = s.Pass()
	case Look:
		err = s.resolveToken(TokenLook, Act{Action: TokenLook, Tile: a.Tile})
	case Move:
		err = s.resolveToken(TokenMove, Act{Action: TokenMove, Dir: a.Dir})
	case Push:
		err = s.resolveToken(TokenPush, Act{Action: TokenPush, Character: a.Character, Dir: a.Dir})
	case Control:
		err = s.resolveToken(TokenControl, Act{Action: TokenControl, Line: a.Line, Dir: a.Dir})
	case Act:
		err = s.Act(a)
	case VisionView:
		err = s.VisionView(a.Tile)
	case MobileSwap:
		err = s.MobileSwap(a.Tile)
	case IllusionSwap:
		err = s.IllusionSwap(a.Tile)
	case ControlRoomSlide:
		err = s.ControlRoomSlide(a.Line, a.Dir)
	case PlaceBeacon:
		err = s.PlaceBeacon(int8(p), a)
	case RevealRole:
		err = s.RevealRole(int8(p))
	default:
		err = engine.Refuse(engine.CodeMalformed, "%T is not an action of Room 25.", a)
	}
	evs := s.out
	s.out = nil
	if err != nil {
		return nil, err
	}
	return s.mem.events.keep(evs), nil
}

func (s *State) isActor(p engine.Seat) bool {
	if p < 0 || int(p) >= s.seats {
		return false
	}
	switch s.phase {
	case phaseStartLook:
		return s.startLook[p] == -2
	case phaseStartHint:
		return s.startLook[p] >= 0 && s.startHint[p] == NoColour
	case phaseProgramming:
		return s.toProgram(int8(p)) != NoCharacter
	case phaseAction:
		return s.pend.kind != pendNone && int(s.pend.seat) == int(p)
	}
	return false
}

// Events.

func (s *State) tell(b engine.EventBody) { s.out = append(s.out, engine.Tell(b)) }

func (s *State) tellOnly(p int8, b engine.EventBody) {
	s.out = append(s.out, engine.TellOnly(b, engine.Seat(p)))
}

func (s *State) tellOthers(p int8, b engine.EventBody) {
	s.out = append(s.out, engine.Event{To: engine.AllBut(engine.Seat(p), s.seats), Body: b})
}

func wrongPhase(what string) *engine.RuleError {
	return engine.Refuse(engine.CodeWrongPhase, "%s is not what the game waits for now.", what)
}

// The starting hint (§4.3, D5).

// StartLook is seat p's secret look at a room next to the Central Room.
func (s *State) StartLook(p int8, a StartLook) *engine.RuleError {
	if s.phase != phaseStartLook {
		return wrongPhase("A starting look")
	}
	t := a.Tile.idx()
	ok := false
	for _, cell := range startAdjacent {
		ok = ok || s.tileAt(cell) == t
	}
	if !ok {
		return engine.Refuse(codeNotStartAdjacent, "The starting look is at one of the four rooms next to the Central Room (t07, t11, t13, t17).")
	}
	s.startLook[p] = t
	s.startChosen(p)
	return nil
}

// SkipLook is seat p's choice not to look at the start.
func (s *State) SkipLook(p int8) *engine.RuleError {
	if s.phase != phaseStartLook {
		return wrongPhase("Skipping the starting look")
	}
	s.startLook[p] = -1
	s.startChosen(p)
	return nil
}

// startChosen ends the look step once every seat has chosen: each seat that
// looked sees its room, then hints (none in Solo).
func (s *State) startChosen(p int8) {
	s.tell(StartLookChosen{Seat: int(p)})
	anyLook := false
	for q := range s.seats {
		if s.startLook[q] == -2 {
			return
		}
		anyLook = anyLook || s.startLook[q] >= 0
	}
	for q := range int8(s.seats) {
		if t := s.startLook[q]; t >= 0 {
			s.known[q] |= 1 << uint(t)
			s.tellOnly(q, seenBodies[t][s.room[t]])
		}
	}
	if !anyLook || s.mode == Solo {
		s.publishStart()
		return
	}
	s.phase = phaseStartHint
}

// publishStart makes every starting look and hint public and starts turn 1.
func (s *State) publishStart() {
	ev := StartLooks{Looks: make([]StartLookEntry, 0, s.seats)}
	for q := range int8(s.seats) {
		e := StartLookEntry{Seat: int(q)}
		if t := s.startLook[q]; t >= 0 {
			e.Tile = tileID(t)
			s.viewed[t] |= 1 << uint(q)
			if c := s.startHint[q]; c > HintNone {
				e.Colour = c
				s.hints = append(s.hints, hint{seat: q, tile: t, colour: c})
			}
		}
		ev.Looks = append(ev.Looks, e)
	}
	s.tell(ev)
	s.startTurn()
	s.proceed()
}

// Hint is seat p's claim about the room it has just viewed (§4.12).
func (s *State) Hint(p int8, a Hint) *engine.RuleError {
	if a.Colour == NoColour || a.Colour > HintBlue {
		return engine.Refuse(engine.CodeMalformed, "A hint needs a colour: none, green, yellow, red or blue.")
	}
	switch {
	case s.phase == phaseStartHint:
		s.startHint[p] = a.Colour
		s.tell(StartHintChosen{Seat: int(p)})
		for q := range s.seats {
			if s.startLook[q] >= 0 && s.startHint[q] == NoColour {
				return nil
			}
		}
		s.publishStart()
	case s.phase == phaseAction && s.pend.kind == pendHint:
		t := s.pend.tile
		s.pend = pending{}
		if a.Colour != HintNone {
			s.hints = append(s.hints, hint{seat: p, tile: t, colour: a.Colour})
		}
		s.tell(hintedBodies[p][t][a.Colour]) // Hinted{Seat: p, Tile: t, Colour: a.Colour}
		s.proceed()
	default:
		return wrongPhase("A hint")
	}
	return nil
}

// Turns (§4.2, §4.14).

// startTurn prepares the characters for a turn and opens programming, or
// the action phase when nobody programs.
func (s *State) startTurn() {
	program := false
	for c := Scientist; c <= LittleGirl; c++ {
		ch := &s.chars[c]
		if !ch.inPlay || !ch.alive {
			continue
		}
		ch.cold = s.room[ch.tile] == RoomCold // D9
		p := ch.seat
		ch.immediate = s.mode == Solo || (s.mode == Suspicion && s.role[p] == Guard && s.roleShown[p] && s.roleTurn[p] < s.turn) // D8, D32
		program = program || !ch.immediate
	}
	line := s.mem.chars.open(len(s.line), s.turnsLeft*len(s.line)) // the lines of the turns left
	s.tell(TurnStarted{Turn: s.turn, TurnsLeft: s.turnsLeft, Line: s.mem.chars.keep(append(line, s.line...))})
	if program {
		s.phase = phaseProgramming
		return
	}
	s.startActions()
}

// startActions opens action round 1.
func (s *State) startActions() {
	s.phase = phaseAction
	s.round, s.slot, s.inSlot = 1, 0, false
	s.tell(RoundStarted{Round: 1})
}

// Program secretly gives a character of seat p its tokens (§4.4).
func (s *State) Program(p int8, a Program) *engine.RuleError {
	if s.phase != phaseProgramming {
		return wrongPhase("Programming")
	}
	c := a.Character
	if c == NoCharacter || c > LittleGirl {
		return engine.Refuse(engine.CodeMalformed, "Say which character you program.")
	}
	ch := &s.chars[c]
	switch {
	case !ch.inPlay || ch.seat != p:
		return engine.Refuse(codeNotYourCharacter, "%s is not one of your characters.", c)
	case !ch.alive:
		return engine.Refuse(codeNotYourCharacter, "%s has been eliminated.", c)
	case ch.immediate:
		return engine.Refuse(codeImmediatePlay, "%s plays its actions freely this turn and does not program.", c)
	case ch.programmed:
		return engine.Refuse(codeAlreadyProgrammed, "%s is already programmed for this turn.", c)
	case a.First == NoToken || a.First > TokenControl || a.Second > TokenControl:
		return engine.Refuse(engine.CodeMalformed, "Program one or two of look, move, push and control.")
	case a.First == a.Second:
		return engine.Refuse(codeSameActionTwice, "A character cannot use the same action twice in a turn.")
	case ch.cold && a.Second != NoToken:
		return engine.Refuse(codeColdRoomSingle, "%s is in the Cold Room: it may program only one action this turn.", c)
	}
	ch.programmed = true
	ch.plan = [2]Token{a.First, a.Second}
	n := 1
	if a.Second != NoToken {
		n = 2
	}
	s.tellOnly(p, programmedBodies[c][a.First][a.Second]) // Programmed{Character: c, Tokens: n, First: a.First, Second: a.Second}
	s.tellOthers(p, programmedCounts[c][n])               // Programmed{Character: c, Tokens: n}
	for q := range int8(s.seats) {
		if s.toProgram(q) != NoCharacter {
			return nil
		}
	}
	s.startActions()
	s.proceed()
	return nil
}

// The action phase (§4.5).

// proceed runs the action phase until a decision is needed or the game
// ends: it ends slots, skips the dead, resolves lost actions and empty
// slots, and runs the countdown between turns.
func (s *State) proceed() {
	for !s.over && s.phase == phaseAction && s.pend.kind == pendNone {
		if s.inSlot {
			s.endSlot()
			s.inSlot = false
			if s.over {
				return
			}
			s.slot++
		}
		if s.slot >= len(s.line) {
			if s.round == 1 {
				s.round, s.slot = 2, 0
				s.tell(RoundStarted{Round: 2})
				continue
			}
			s.countdown()
			continue
		}
		c := s.line[s.slot]
		if !s.chars[c].alive {
			s.slot++ // D28: dead characters' markers stay but they never act
			continue
		}
		s.inSlot, s.slotActed = true, false
		s.beginSlot(c)
	}
}

// ask sets the pending decision.
func (s *State) ask(k pendKind, c Character, t Token) {
	s.pend = pending{kind: k, seat: s.owner(c), char: c, token: t}
}

// beginSlot starts character c's slot in the current round.
func (s *State) beginSlot(c Character) {
	ch := &s.chars[c]
	switch {
	case ch.immediate: // D8
		switch {
		case s.round == 1:
			s.ask(pendAct, c, NoToken)
		case ch.shown[0] != NoToken:
			if !ch.cold { // D9: one action only in the Cold Room
				s.ask(pendAct, c, NoToken)
			}
		case s.hasAct(c):
			s.ask(pendAct, c, NoToken)
		default: // it waited and can do nothing: a lost action (D8)
			s.slotActed = true
			s.tell(actionLost(c, NoToken, codeNoAction))
		}
	case ch.plan[1] == NoToken: // a single token (D7)
		if s.round == 1 {
			s.ask(pendPlayWait, c, NoToken)
		} else if ch.waited {
			s.reveal(c, ch.plan[0])
		}
	default:
		s.reveal(c, ch.plan[s.round-1])
	}
}

// hasAct reports whether immediate-play character c can perform any action
// other than the one it played this turn.
func (s *State) hasAct(c Character) bool {
	for t := TokenLook; t <= TokenControl; t++ {
		if t != s.chars[c].shown[0] && s.lostReason(c, t) == "" {
			return true
		}
	}
	return false
}

// reveal turns a programmed token face up; with no legal target the action
// is lost at once (D10), otherwise the seat must choose a target.
func (s *State) reveal(c Character, t Token) {
	s.chars[c].shown[s.round-1] = t
	s.tell(revealedBodies[c][s.round][t]) // TokenRevealed{Character: c, Round: s.round, Token: t}
	if reason := s.lostReason(c, t); reason != "" {
		s.slotActed = true
		s.tell(actionLost(c, t, reason))
		return
	}
	s.ask(pendToken, c, t)
}

// endSlot runs the end-of-slot checks (§4.5): the Trapped Room, then in
// round 2 the Flooded Room.
func (s *State) endSlot() {
	c := s.line[s.slot]
	ch := &s.chars[c]
	if ch.alive && s.slotActed && ch.trap >= 0 {
		if ch.trapFresh { // D20: the entering action is not the next one
			ch.trapFresh = false
		} else if ch.tile == ch.trap {
			s.kill(c, "trap")
			if s.check() {
				return
			}
		}
	}
	if s.round == 2 && ch.alive && ch.flood >= 0 && ch.floodTurn == s.turn-1 && ch.tile == ch.flood { // D22
		s.kill(c, "drowned")
		s.check()
	}
}

// countdown ends a turn (§4.14): tokens back, marks cleared, the head marker
// to the tail, or the end of the game after the last turn.
func (s *State) countdown() {
	s.inSlot = false
	if s.turnsLeft <= 1 {
		s.endOfCountdown()
		return
	}
	for c := Scientist; c <= LittleGirl; c++ {
		ch := &s.chars[c]
		ch.prev = ch.shown
		ch.shown = [2]Token{}
		ch.waited = false
		if ch.alive { // D30: a dead character's unplayed tokens wait for the end
			ch.plan = [2]Token{}
			ch.programmed = false
		}
	}
	s.marks = [numLines]Dir{}
	s.turnsLeft--
	s.turn++
	head := s.line[0]
	copy(s.line, s.line[1:])
	s.line[len(s.line)-1] = head
	s.startTurn()
}

// Play plays a single token in round 1 (D7).
func (s *State) Play() *engine.RuleError {
	if s.phase != phaseAction || s.pend.kind != pendPlayWait {
		return wrongPhase("Play")
	}
	c := s.pend.char
	s.pend = pending{}
	s.reveal(c, s.chars[c].plan[0])
	s.proceed()
	return nil
}

// Wait keeps a single token for round 2 (D7), or lets round 1 go by in
// immediate play (D8).
func (s *State) Wait() *engine.RuleError {
	if s.phase != phaseAction || (s.pend.kind != pendPlayWait && !(s.pend.kind == pendAct && s.round == 1)) {
		return wrongPhase("Wait")
	}
	c := s.pend.char
	s.pend = pending{}
	s.chars[c].waited = true
	s.tell(waitedBodies[c])
	s.proceed()
	return nil
}

// Pass ends an immediate-play round-2 slot without a second action (D8).
func (s *State) Pass() *engine.RuleError {
	if s.phase != phaseAction || s.pend.kind != pendAct || s.round != 2 {
		return wrongPhase("Pass")
	}
	c := s.pend.char
	if s.chars[c].shown[0] == NoToken {
		return engine.Refuse(codeMustAct, "%s waited in round 1: it must act now.", c)
	}
	s.pend = pending{}
	s.tell(passedBodies[c])
	s.proceed()
	return nil
}

// resolveToken performs a revealed token with the chosen target.
func (s *State) resolveToken(t Token, a Act) *engine.RuleError {
	if s.phase != phaseAction || s.pend.kind != pendToken {
		return wrongPhase("A " + t.String() + " target")
	}
	if s.pend.token != t {
		return engine.Refuse(codeWrongToken, "Your revealed token is %s, not %s.", s.pend.token, t)
	}
	c := s.pend.char
	if err := s.checkTarget(c, t, a); err != nil {
		return err
	}
	s.pend = pending{}
	s.slotActed = true
	s.perform(c, a)
	s.proceed()
	return nil
}

// Act is an immediate-play action: any action not yet used this turn, with
// its target (D8).
func (s *State) Act(a Act) *engine.RuleError {
	if s.phase != phaseAction || s.pend.kind != pendAct {
		return wrongPhase("Act")
	}
	c := s.pend.char
	ch := &s.chars[c]
	if a.Action == NoToken || a.Action > TokenControl {
		return engine.Refuse(engine.CodeMalformed, "Say which action: look, move, push or control.")
	}
	if s.round == 2 && a.Action == ch.shown[0] {
		return engine.Refuse(codeSameActionTwice, "%s already used %s this turn.", c, a.Action)
	}
	if err := s.checkTarget(c, a.Action, a); err != nil {
		return err
	}
	s.pend = pending{}
	s.slotActed = true
	ch.shown[s.round-1] = a.Action
	s.tell(revealedBodies[c][s.round][a.Action]) // TokenRevealed{Character: c, Round: s.round, Token: a.Action}
	s.perform(c, a)
	s.proceed()
	return nil
}

// perform resolves a checked action of c (§4.6).
func (s *State) perform(c Character, a Act) {
	switch a.Action {
	case TokenLook:
		s.view(c, a.Tile.idx(), "look")
	case TokenMove:
		n := neighbour(s.cellOf(c), a.Dir)
		s.enter(c, s.tileAt(n), "move", NoCharacter)
	case TokenPush:
		n := neighbour(s.cellOf(c), a.Dir)
		s.enter(a.Character, s.tileAt(n), "push", c)
	case TokenControl:
		s.control(c, a.Line, a.Dir, false)
	}
}

// view lets the seat of c privately see face-down tile t (Look, Vision),
// publicly records that it did, then asks for a hint (none in Solo).
func (s *State) view(c Character, t int8, via string) {
	p := s.owner(c)
	s.known[p] |= 1 << uint(t)
	s.viewed[t] |= 1 << uint(p)
	s.tell(looked(p, c, t, via))
	s.tellOnly(p, seenBodies[t][s.room[t]]) // Seen{Tile: t, Room: s.room[t]}
	if s.mode != Solo {
		s.pend = pending{kind: pendHint, seat: p, char: c, tile: t}
	}
}

// RevealRole turns a Guard's role face up during its own slot (D32).
func (s *State) RevealRole(p int8) *engine.RuleError {
	if s.mode != Suspicion || s.role[p] != Guard || s.roleShown[p] {
		return engine.Refuse(codeNotAGuard, "Only a Guard whose role is still secret may reveal it.")
	}
	c := s.freeActsFor()
	if c == NoCharacter || s.owner(c) != p {
		return engine.Refuse(codeNotYourSlot, "You may reveal your role only during your own slot.")
	}
	s.showRole(p, "reveal")
	return nil
}

// PlaceBeacon puts a character's beacon on a face-down tile during its
// slot (§4.11, D24).
func (s *State) PlaceBeacon(p int8, a PlaceBeacon) *engine.RuleError {
	if !s.beacons {
		return engine.Refuse(codeNoBeacons, "This game is played without memory beacons.")
	}
	if a.Character == NoCharacter || a.Character > LittleGirl || a.Tile.idx() < 0 || a.Tile.idx() >= numTiles {
		return engine.Refuse(engine.CodeMalformed, "Say which character's beacon and which tile.")
	}
	c := s.freeActsFor()
	if c == NoCharacter || c != a.Character || s.owner(c) != p {
		return engine.Refuse(codeNotYourSlot, "You may place a character's beacon only during that character's slot.")
	}
	t := a.Tile.idx()
	if s.chars[c].beacon >= 0 {
		return engine.Refuse(codeBeaconInUse, "%s's beacon is already on tile %s.", c, tileID(s.chars[c].beacon))
	}
	if s.isFaceUp(t) {
		return engine.Refuse(codeTileFaceUp, "A beacon goes on a face-down tile.")
	}
	s.chars[c].beacon = t
	s.tell(beaconPlacedBodies[c][t]) // BeaconPlaced{Character: c, Tile: a.Tile}
	return nil
}
