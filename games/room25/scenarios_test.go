package room25

import (
	"slices"
	"testing"

	"sortie/engine"
)

// The scenarios of section 10 of the rules reference, one test each. In
// single-character modes seat i plays singleAssign[i]: A is the Scientist
// (seat 0), B the Geek (seat 1), C the Handsome (seat 2), D the Bimbo (seat
// 3), E the Colossus (seat 4), F the Little Girl (seat 5).

const (
	A = Scientist
	B = Geek
	C = Handsome
	D = Bimbo
	E = Colossus
	F = LittleGirl
)

// cellAt returns the cell of (row, col).
func cellAt(r, c int8) int8 { return r*size + c }

// R1. Push while alone is lost [RB p2].
func TestR1PushWhileAloneIsLost(t *testing.T) {
	f := newFixture(t, "cooperation", 4)
	f.line(A, B, C, D)
	f.room(cellAt(1, 1), RoomEmpty, true)
	f.at(A, cellAt(1, 1))
	f.plan(A, TokenPush, TokenLook)
	f.plan(B, TokenLook, TokenMove)
	f.idle()
	board := f.s.cellTile
	f.begin(1, A)
	if r := f.wantEvent("token_revealed").(TokenRevealed); r.Character != A || r.Token != TokenPush {
		t.Fatalf("revealed %+v", r)
	}
	if l := f.wantEvent("action_lost").(ActionLost); l.Reason != codeNoOneToPush {
		t.Fatalf("lost for %q", l.Reason)
	}
	if f.s.cellTile != board || f.cell(A) != cellAt(1, 1) {
		t.Fatal("the board changed")
	}
	f.wantDecision(pendToken, B)
}

// R2. Building the complex [RB p1; S].
func TestR2BuildingTheComplex(t *testing.T) {
	for _, set := range setNames {
		for seed := range uint64(40) {
			st, err := Game{}.New(engine.Setup{Players: 4, Options: map[string]string{optRoomSet: set}, Seed: seed})
			if err != nil {
				t.Fatal(err)
			}
			s := st.(*State)
			if s.room[s.tileAt(centreCell)] != RoomCentral || !s.isFaceUp(s.tileAt(centreCell)) {
				t.Fatal("(2,2) is not the face-up Central Room")
			}
			if s.faceDownCount() != numTiles-1 {
				t.Fatal("a tile other than the Central Room is face up")
			}
			count := map[Room]int{}
			for cell := range int8(numCells) {
				r := s.room[s.tileAt(cell)]
				count[r]++
				if (r == Room25 || r == RoomVision) && !isExitCell(cell) {
					t.Fatalf("%s/%d: %s on inner cell %d", set, seed, r, cell)
				}
			}
			for r := range numRooms {
				if want := rooms[r].inSet[s.set]; count[r] != want {
					t.Fatalf("%s: %d %s, want %d", set, count[r], r, want)
				}
			}
			for c := Scientist; c <= Bimbo; c++ {
				if s.cellOf(c) != centreCell {
					t.Fatalf("%s does not start on (2,2)", c)
				}
			}
		}
	}
}

// seedWithFirst returns a setup whose random first seat is first.
func seedWithFirst(t *testing.T, setup engine.Setup, first Character) *State {
	t.Helper()
	for seed := range uint64(1000) {
		setup.Seed = seed
		st, err := Game{}.New(setup)
		if err != nil {
			t.Fatal(err)
		}
		if s := st.(*State); s.line[0] == first {
			return s
		}
	}
	t.Fatal("no seed gives that first player")
	return nil
}

// R3. Marker line, 5 seats [RB p1–2].
func TestR3MarkerLineFiveSeats(t *testing.T) {
	s := seedWithFirst(t, engine.Setup{Players: 5, Options: map[string]string{optMode: "suspicion"}}, singleAssign[2])
	if want := []Character{C, D, E, A, B}; !slices.Equal(s.line, want) || s.turnsLeft != 10 {
		t.Fatalf("line %v turnsLeft %d", s.line, s.turnsLeft)
	}
	// Turn 1: nobody looks; everyone programs tokens lost in the Central
	// Room, so the turn plays itself out.
	for p := range 5 {
		if _, err := s.Apply(engine.Seat(p), SkipLook{}, 0); err != nil {
			t.Fatal(err)
		}
	}
	for p := range 5 {
		if _, err := s.Apply(engine.Seat(p), Program{singleAssign[p], TokenControl, TokenPush}, 0); err != nil {
			t.Fatal(err)
		}
	}
	if want := []Character{D, E, A, B, C}; !slices.Equal(s.line, want) || s.turnsLeft != 9 || s.turn != 2 {
		t.Fatalf("after turn 1: line %v turnsLeft %d turn %d", s.line, s.turnsLeft, s.turn)
	}
	if s.phase != phaseProgramming {
		t.Fatalf("turn 2 starts in phase %s", phaseNames[s.phase])
	}
}

// R4. Duo marker placement [RB p5].
func TestR4DuoMarkerPlacement(t *testing.T) {
	s := seedWithFirst(t, engine.Setup{Players: 3, Options: map[string]string{optMode: "cooperation"}}, Scientist)
	if want := []Character{Scientist, Handsome, Colossus, Geek, Bimbo, LittleGirl}; !slices.Equal(s.line, want) {
		t.Fatalf("line %v", s.line)
	}
	for i := range s.line {
		if s.owner(s.line[i]) == s.owner(s.line[(i+1)%len(s.line)]) {
			t.Fatalf("seat %d has two adjacent markers in %v", s.owner(s.line[i]), s.line)
		}
	}
	if a := s.Actors(); len(a) != 3 {
		t.Fatalf("start-look actors %v", a)
	}
	for p := range 3 {
		if _, err := s.Apply(engine.Seat(p), StartLook{tileID(startAdjacent[p])}, 0); err != nil {
			t.Fatal(err)
		}
	}
	if a := s.Actors(); s.phase != phaseStartHint || len(a) != 3 {
		t.Fatalf("phase %s, hint actors %v: want 3 looks", phaseNames[s.phase], a)
	}
}

// r5 plays R5 on a fixture and returns it: A at (1,3) slides row 1 right.
// B stands at (1,4) with Control, so that the wrap carries it to (1,0).
func r5(t *testing.T) (*fixture, [size]int8) {
	f := newFixture(t, "cooperation", 4)
	f.line(A, B, C, D)
	for col := range int8(size) {
		f.room(cellAt(1, col), RoomEmpty, true)
	}
	f.at(A, cellAt(1, 3))
	f.at(B, cellAt(1, 4))
	f.plan(A, TokenControl, TokenPush)
	f.plan(B, TokenControl, TokenPush)
	f.idle()
	var before [size]int8
	copy(before[:], f.s.cellTile[5:10])
	f.begin(1, A)
	f.do(0, Control{rowLine(1), Right})
	return f, before
}

// R5. Control slide with wrap [RB p3 diagram].
func TestR5ControlSlideWithWrap(t *testing.T) {
	f, b := r5(t)
	if got, want := f.s.cellTile[5:10], []int8{b[4], b[0], b[1], b[2], b[3]}; !slices.Equal(got, want) {
		t.Fatalf("row 1 reads %v, want %v", got, want)
	}
	if f.cell(A) != cellAt(1, 4) {
		t.Fatalf("A is at %d, want (1,4)", f.cell(A))
	}
	if f.cell(B) != cellAt(1, 0) {
		t.Fatalf("the wrapped tile did not carry B to (1,0)")
	}
	if f.s.marks[rowLine(1).idx()] != Right {
		t.Fatal("the mark on row 1 is not right")
	}
	f.noEvent("entered")
}

// R6. Same-direction rule [RB p3; S].
func TestR6SameDirectionRule(t *testing.T) {
	f, _ := r5(t)
	f.wantDecision(pendToken, B)
	f.refuse(1, Control{rowLine(1), Left}, codeDirectionLocked)
	f.do(1, Control{rowLine(1), Right})
	if f.cell(B) != cellAt(1, 1) {
		t.Fatalf("B is at %d, want (1,1)", f.cell(B))
	}
	// The rest of the turn plays itself out (lone pushes are lost).
	if f.s.phase != phaseProgramming || f.s.turn != 2 {
		t.Fatalf("phase %s turn %d", phaseNames[f.s.phase], f.s.turn)
	}
	f.plan(B, TokenControl, NoToken)
	f.plan(A, TokenPush, TokenLook)
	f.idle(A, B)
	f.line(B, A, C, D)
	f.begin(1, B)
	f.do(1, Play{})
	if l := f.legalOf(1, "control"); !slices.Contains(l, `{"type":"control","line":"row1","dir":"left"}`) {
		t.Fatalf("next turn row 1 may not slide left: %v", l)
	}
}

// die makes c move into a face-up Deadly Room from (1,1), in its own slot.
func (f *fixture) die(c Character) {
	f.t.Helper()
	f.room(cellAt(1, 1), RoomEmpty, true)
	f.room(cellAt(0, 1), RoomDeadly, true)
	f.at(c, cellAt(1, 1))
	f.plan(c, TokenMove, TokenLook)
	f.idle(c)
	f.begin(1, c)
	f.do(f.seat(c), Move{Up})
	if f.s.chars[c].alive {
		f.t.Fatalf("%s survived the Deadly Room", c)
	}
}

// R7. Suspicion death cascade [RB p4].
func TestR7SuspicionDeathCascade(t *testing.T) {
	cases := []struct {
		name       string
		roles      [5]Role
		shownA     bool
		shownB     bool
		over       bool
		overReason string
	}{
		{"A guard", [5]Role{Guard, Prisoner, Prisoner, Prisoner, Guard}, true, false, false, ""},
		{"A and B prisoners", [5]Role{Prisoner, Prisoner, Prisoner, Guard, Guard}, true, true, true, "two_prisoners_dead"},
		{"A prisoner, B guard", [5]Role{Prisoner, Guard, Prisoner, Prisoner, Guard}, true, true, false, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, "suspicion", 5)
			copy(f.s.role[:], tc.roles[:])
			f.line(A, B, C, D, E)
			f.die(A)
			if f.s.roleShown[0] {
				t.Fatal("the first death revealed a role")
			}
			f.die(B)
			if f.s.roleShown[0] != tc.shownA || f.s.roleShown[1] != tc.shownB || f.s.over != tc.over {
				t.Fatalf("shown A %v B %v, over %v", f.s.roleShown[0], f.s.roleShown[1], f.s.over)
			}
			if tc.over {
				if out, _ := f.s.Outcome(); f.s.reason != tc.overReason || !slices.Equal(out.Winners, []engine.Seat{3, 4}) {
					t.Fatalf("reason %s winners %v", f.s.reason, out.Winners)
				}
			}
		})
	}
}

// R8. Escape despite opponents inside [RB p2].
func TestR8EscapeDespiteOpponentsInside(t *testing.T) {
	f := newFixture(t, "competition", 2)
	f.line(Scientist, Handsome, Geek, Bimbo)
	f.room(cellAt(4, 4), Room25, true)
	for _, c := range []Character{Scientist, Geek, Handsome} {
		f.at(c, cellAt(4, 4))
	}
	f.plan(Scientist, TokenControl, TokenLook)
	f.idle(Scientist)
	f.begin(1, Scientist)
	f.do(0, Control{rowLine(4), Right})
	f.wantEvent("escaped")
	out, over := f.s.Outcome()
	if !over || f.s.reason != "escape" || !slices.Equal(out.Winners, []engine.Seat{0}) {
		t.Fatalf("over %v reason %s winners %v", over, f.s.reason, out.Winners)
	}
}

// S1. A slide carries a character out and back in.
func TestS1SlideCarriesOutAndBackIn(t *testing.T) {
	f := newFixture(t, "cooperation", 4)
	f.line(A, B, C, D)
	f.room(cellAt(0, 3), RoomEmpty, true)
	f.room(cellAt(3, 3), RoomEmpty, true)
	trap := f.room(cellAt(1, 3), RoomTrapped, false)
	f.at(B, cellAt(0, 3))
	f.at(A, cellAt(3, 3))
	f.plan(A, TokenControl, TokenPush)
	f.plan(B, TokenPush, TokenControl)
	f.idle()
	col := [size]int8{}
	for r := range int8(size) {
		col[r] = f.s.tileAt(cellAt(r, 3))
	}
	f.begin(1, A)
	f.do(0, Control{colLine(3), Up})
	for r := range int8(size) {
		if want := col[(r+1)%size]; f.s.tileAt(cellAt(r, 3)) != want {
			t.Fatalf("(%d,3) holds tile %d, want %d", r, f.s.tileAt(cellAt(r, 3)), want)
		}
	}
	if f.cell(B) != cellAt(4, 3) || f.cell(A) != cellAt(2, 3) {
		t.Fatalf("B at %d, A at %d", f.cell(B), f.cell(A))
	}
	if f.s.isFaceUp(trap) || f.s.chars[A].trap >= 0 {
		t.Fatal("a carried tile had an effect")
	}
	f.noEvent("entered")
	f.noEvent("alarm")
	if f.s.marks[colLine(3).idx()] != Up {
		t.Fatal("the mark on column 3 is not up")
	}
}

// S2. Pushing into a deadly room.
func TestS2PushingIntoADeadlyRoom(t *testing.T) {
	for _, otherDead := range []bool{false, true} {
		f := newFixture(t, "competition", 2)
		X, Y := Scientist, Handsome
		f.line(X, Y, Geek, Bimbo)
		if otherDead {
			f.s.kill(Bimbo, "deadly")
		}
		f.room(cellAt(1, 1), RoomEmpty, true)
		deadly := f.room(cellAt(0, 1), RoomDeadly, false)
		f.at(X, cellAt(1, 1))
		f.at(Y, cellAt(1, 1))
		f.plan(X, TokenPush, TokenLook)
		f.plan(Y, TokenLook, TokenMove)
		f.idle(X, Y)
		f.begin(1, X)
		f.do(0, Push{Y, Up})
		if !f.s.isFaceUp(deadly) || f.s.chars[Y].alive {
			t.Fatal("the Deadly Room did not kill the pushed character")
		}
		if !slices.Contains(f.s.line, Y) {
			t.Fatal("the dead character's marker left the line")
		}
		out, over := f.s.Outcome()
		if over != otherDead {
			t.Fatalf("other dead %v: over %v", otherDead, over)
		}
		if over && (f.s.reason != "last_standing" || !slices.Equal(out.Winners, []engine.Seat{0})) {
			t.Fatalf("reason %s winners %v", f.s.reason, out.Winners)
		}
	}
}

// s3 moves A into a face-down Room 25 from (1,1).
func s3(t *testing.T, mode string, turn, turnsLeft int) *fixture {
	f := newFixture(t, mode, 5)
	f.s.turn, f.s.turnsLeft = turn, turnsLeft
	f.line(A, B, C, D, E)
	f.room(cellAt(1, 1), RoomEmpty, true)
	r25 := f.room(cellAt(1, 0), Room25, false)
	f.at(A, cellAt(1, 1))
	f.plan(A, TokenMove, TokenLook)
	f.idle(A)
	f.begin(1, A)
	f.do(0, Move{Left})
	if !f.s.isFaceUp(r25) || f.s.chars[A].tile != r25 {
		t.Fatal("A is not on the revealed Room 25")
	}
	return f
}

// S3. Entering Room 25 early in a 10-turn mode (alarm).
func TestS3EnteringRoom25EarlyAlarm(t *testing.T) {
	f := s3(t, "suspicion", 2, 9)
	if a := f.wantEvent("alarm").(Alarm); a.TurnsLeft != 5 || f.s.turnsLeft != 5 {
		t.Fatalf("alarm %+v, turnsLeft %d", a, f.s.turnsLeft)
	}
	if last := f.s.turn + f.s.turnsLeft - 1; last != 6 {
		t.Fatalf("the game now ends after turn %d, want 6", last)
	}
	f.noEvent("role_revealed")
	for _, v := range []struct {
		mode            string
		turn, turnsLeft int
	}{{"suspicion", 6, 5}, {"cooperation", 2, 7}} {
		f := s3(t, v.mode, v.turn, v.turnsLeft)
		f.noEvent("alarm")
		if f.s.turnsLeft != v.turnsLeft {
			t.Fatalf("%s: turnsLeft changed to %d", v.mode, f.s.turnsLeft)
		}
	}
}

// S4. Control on the central row is refused.
func TestS4ControlOnTheCentralRowIsRefused(t *testing.T) {
	f := newFixture(t, "cooperation", 4)
	f.line(A, B, C, D)
	f.room(cellAt(2, 1), RoomEmpty, true)
	f.at(A, cellAt(2, 1))
	f.plan(A, TokenControl, TokenLook)
	f.idle(A)
	f.begin(1, A)
	f.refuse(0, Control{rowLine(2), Left}, codeCentralLine)
	want := []string{`{"type":"control","line":"col1","dir":"up"}`, `{"type":"control","line":"col1","dir":"down"}`}
	if got := f.legalOf(0, "control"); !slices.Equal(got, want) {
		t.Fatalf("legal %v", got)
	}
	// Variant: in the Central Room the Control is lost.
	g := newFixture(t, "cooperation", 4)
	g.line(A, B, C, D)
	g.plan(A, TokenControl, TokenLook)
	g.idle(A)
	g.begin(1, A)
	if l := g.wantEvent("action_lost").(ActionLost); l.Reason != codeCentralRoomAction {
		t.Fatalf("lost for %q", l.Reason)
	}
}

// s5 sets Room 25 up at (0,1) in turn 6 of Cooperation with everyone alive
// on it, except dead characters.
func s5(t *testing.T, dead ...Character) *fixture {
	f := newFixture(t, "cooperation", 4)
	f.s.turn, f.s.turnsLeft = 6, 3
	f.line(A, B, C, D)
	f.room(cellAt(0, 1), Room25, true)
	for _, c := range []Character{A, B, C, D} {
		f.at(c, cellAt(0, 1))
	}
	for _, c := range dead {
		f.s.kill(c, "deadly")
	}
	f.plan(A, TokenControl, TokenLook)
	f.idle(A)
	f.begin(1, A)
	return f
}

// S5. The escape (Cooperation, total victory).
func TestS5TheEscape(t *testing.T) {
	f := s5(t)
	f.do(0, Control{colLine(1), Up})
	out, over := f.s.Outcome()
	if !over || f.s.reason != "escape" || len(out.Winners) != 4 || out.Scores[0] != 2 {
		t.Fatalf("over %v reason %s outcome %+v", over, f.s.reason, out)
	}
	// Variant: one dead, three escape: partial victory.
	f = s5(t, D)
	f.do(0, Control{colLine(1), Up})
	out, over = f.s.Outcome()
	if !over || f.s.reason != "partial_escape" || len(out.Winners) != 4 || out.Scores[0] != 1 {
		t.Fatalf("partial: over %v reason %s outcome %+v", over, f.s.reason, out)
	}
	// Variant: sliding along the top row is no escape.
	f = s5(t)
	f.do(0, Control{rowLine(0), Right})
	if f.s.over || f.s.room[f.s.tileAt(cellAt(0, 2))] != Room25 || f.s.marks[rowLine(0).idx()] != Right {
		t.Fatal("row 0 right did not just slide Room 25 to (0,2)")
	}
}

// s6 sets up Suspicion, 6 seats, turn 4: seats 0–3 Prisoners, 4–5 Guards;
// Room 25 at (0,1) holds the given characters.
func s6(t *testing.T, turnsLeft int, cell int8, inside ...Character) *fixture {
	f := newFixture(t, "suspicion", 6)
	f.s.turn, f.s.turnsLeft = 11-turnsLeft, turnsLeft
	f.s.role = [maxSeats]Role{Prisoner, Prisoner, Prisoner, Prisoner, Guard, Guard}
	f.line(A, B, C, D, E, F)
	f.room(cell, Room25, true)
	for _, c := range inside {
		f.at(c, cell)
	}
	f.s.check() // masks fall as they would have on the last entry
	return f
}

// S6. A failed escape wraps.
func TestS6AFailedEscapeWraps(t *testing.T) {
	f := s6(t, 7, cellAt(0, 1), A, B, C, E)
	r25 := f.s.tileAt(cellAt(0, 1))
	f.plan(A, TokenControl, TokenLook)
	f.idle(A, B, C, E)
	f.plan(B, TokenLook, TokenMove)
	f.begin(1, A)
	f.do(0, Control{colLine(1), Up})
	if f.s.over || f.s.tilePos[r25] != cellAt(4, 1) || f.cell(B) != cellAt(4, 1) {
		t.Fatal("Room 25 did not wrap to (4,1) with its riders")
	}
	f.wantEvent("slid")
	f.noEvent("role_revealed")
	f.noEvent("escaped")
	// Variant: a Guard slides out with every Prisoner inside: it wraps too.
	g := s6(t, 7, cellAt(0, 1), A, B, C, D, E)
	g.plan(E, TokenControl, TokenLook)
	g.idle(A, B, C, D, E)
	for _, c := range []Character{A, B, C, D} {
		g.plan(c, TokenLook, TokenMove)
	}
	g.line(E, A, B, C, D, F)
	g.begin(1, E)
	g.do(4, Control{colLine(1), Up})
	if g.s.over || g.s.tilePos[r25] != cellAt(4, 1) {
		t.Fatal("a Guard's slide made Room 25 escape")
	}
}

// S7. Last-turn escape with one Prisoner missing.
func TestS7LastTurnEscapeWithOnePrisonerMissing(t *testing.T) {
	for _, turnsLeft := range []int{1, 2} {
		f := s6(t, turnsLeft, cellAt(3, 4), A, B, C)
		r25 := f.s.tileAt(cellAt(3, 4))
		f.plan(A, TokenControl, TokenLook)
		f.idle(A, B, C)
		f.plan(B, TokenLook, TokenMove)
		f.plan(C, TokenLook, TokenMove)
		f.begin(1, A)
		f.do(0, Control{rowLine(3), Right})
		out, over := f.s.Outcome()
		if turnsLeft == 1 && (!over || !slices.Equal(out.Winners, []engine.Seat{0, 1, 2, 3})) {
			t.Fatalf("last turn: over %v winners %v", over, out.Winners)
		}
		if turnsLeft == 2 && (over || f.s.tilePos[r25] != cellAt(3, 0)) {
			t.Fatal("turnsLeft 2: Room 25 did not wrap to (3,0)")
		}
	}
}

// s8 lets A enter the Trapped Room at (3,1) from (3,2) with its first
// action.
func s8(t *testing.T, second Token, withB bool) *fixture {
	f := newFixture(t, "cooperation", 4)
	f.line(A, B, C, D)
	f.room(cellAt(3, 2), RoomEmpty, true)
	f.room(cellAt(3, 1), RoomTrapped, false)
	f.at(A, cellAt(3, 2))
	f.plan(A, TokenMove, second)
	if withB {
		f.room(cellAt(3, 0), RoomEmpty, true)
		f.plan(B, TokenPush, TokenControl)
	}
	f.idle(A)
	if withB {
		f.at(B, cellAt(3, 1))
	}
	f.begin(1, A)
	f.do(0, Move{Left})
	if f.s.chars[A].alive && f.s.chars[A].trap < 0 {
		t.Fatal("A is not trapped")
	}
	return f
}

// S8. Trapped Room and a slide.
func TestS8TrappedRoomAndASlide(t *testing.T) {
	f := s8(t, TokenControl, false)
	f.wantDecision(pendToken, A)
	if f.s.round != 2 {
		t.Fatal("A's Control did not wait for round 2")
	}
	f.do(0, Control{colLine(1), Down})
	if f.s.chars[A].alive {
		t.Fatal("A rode the trap and survived")
	}
	if d := f.wantEvent("died").(Died); d.Cause != "trap" || f.s.tilePos[d.Tile.idx()] != cellAt(4, 1) {
		t.Fatalf("died %+v", d)
	}

	// Variant: B pushes A out before A's second slot.
	f = s8(t, TokenControl, true)
	f.wantDecision(pendToken, B)
	f.do(1, Push{A, Left})
	f.wantDecision(pendToken, A)
	if f.cell(A) != cellAt(3, 0) || f.s.chars[A].trap >= 0 {
		t.Fatal("A was not pushed out of the trap")
	}
	f.do(0, Control{colLine(0), Down})
	if !f.s.chars[A].alive || f.cell(A) != cellAt(4, 0) {
		t.Fatal("A's Control from (3,0) went wrong")
	}

	// Variant: a lone Push is lost, and A dies at the end of the slot.
	f = s8(t, TokenPush, false)
	if f.s.chars[A].alive {
		t.Fatal("A survived a lost action in the trap")
	}
	if l := f.lostOf(A); l.Reason != codeNoOneToPush {
		t.Fatalf("lost for %q", l.Reason)
	}

	// Variant: a single token played in round 1: the check waits for A's
	// first action of the next turn, and a wait does not count.
	g := newFixture(t, "cooperation", 4)
	g.line(A, B, C, D)
	g.room(cellAt(3, 2), RoomEmpty, true)
	g.room(cellAt(3, 1), RoomTrapped, false)
	g.at(A, cellAt(3, 2))
	g.plan(A, TokenMove, NoToken)
	g.idle(A)
	g.begin(1, A)
	g.do(0, Play{})
	g.do(0, Move{Left})
	if !g.s.chars[A].alive || g.s.turn != 2 || g.s.phase != phaseProgramming {
		t.Fatal("turn 1 did not end with A alive in the trap")
	}
	g.plan(A, TokenLook, NoToken)
	g.idle(A)
	g.line(A, B, C, D)
	g.begin(1, A)
	g.do(0, Wait{})
	if !g.s.chars[A].alive {
		t.Fatal("a wait counted as A's next action")
	}
	g.wantDecision(pendToken, A) // round 2: the Look
	g.do(0, Look{tileID(g.s.tileAt(cellAt(2, 1)))})
	g.do(0, Hint{HintNone})
	if g.s.chars[A].alive {
		t.Fatal("A survived its next action in the trap")
	}
}

// S9. Flooded Room timing and blocking.
func TestS9FloodedRoomTimingAndBlocking(t *testing.T) {
	setup := func() (*fixture, int8) {
		f := newFixture(t, "cooperation", 4)
		f.s.turn, f.s.turnsLeft = 3, 6
		f.line(A, B, C, D)
		f.room(cellAt(0, 3), RoomEmpty, true)
		f.room(cellAt(1, 2), RoomEmpty, true)
		flooded := f.room(cellAt(1, 3), RoomFlooded, false)
		f.at(A, cellAt(0, 3))
		f.at(B, cellAt(1, 2))
		f.at(C, cellAt(1, 2))
		f.plan(A, TokenMove, TokenLook)
		f.plan(B, TokenPush, TokenMove)
		f.plan(C, TokenLook, TokenPush)
		f.idle()
		f.begin(1, A)
		f.do(0, Move{Down})
		if f.s.chars[A].flood != flooded {
			t.Fatal("A did not flood the room")
		}
		// Round 1: B may not push C into the flood.
		f.wantDecision(pendToken, B)
		f.refuse(1, Push{C, Right}, codeRoomInaccessible)
		f.do(1, Push{C, Up})
		f.wantDecision(pendToken, C)
		f.do(2, Look{tileID(f.s.tileAt(cellAt(0, 1)))})
		f.do(2, Hint{HintNone})
		// Round 2: A looks and survives; B may not move into the flood.
		f.wantDecision(pendToken, A)
		f.do(0, Look{tileID(f.s.tileAt(cellAt(1, 4)))})
		f.do(0, Hint{HintNone})
		f.wantDecision(pendToken, B)
		f.refuse(1, Move{Right}, codeRoomInaccessible)
		f.do(1, Move{Left})
		return f, flooded
	}
	f, flooded := setup()
	if !f.s.chars[A].alive || f.s.turn != 4 {
		t.Fatal("A did not survive turn 3")
	}
	// Turn 4: a single Look played in round 1; A drowns after its round-2
	// slot.
	f.at(B, centreCell)
	f.at(C, centreCell)
	f.plan(A, TokenLook, NoToken)
	f.idle(A)
	f.line(A, B, C, D)
	f.begin(1, A)
	f.do(0, Play{})
	f.do(0, Look{tileID(f.s.tileAt(cellAt(1, 4)))})
	f.do(0, Hint{HintNone})
	if f.s.chars[A].alive {
		t.Fatal("A did not drown at the end of its round-2 slot of turn 4")
	}
	if err := f.s.checkDestination(f.s.tilePos[flooded]-1, Right); err == nil || err.Code != codeRoomInaccessible {
		t.Fatal("the flooded room became accessible again")
	}

	// Variant: A moves out in turn 4 and survives, never to come back.
	f, _ = setup()
	f.at(B, centreCell)
	f.at(C, centreCell)
	f.plan(A, TokenMove, NoToken)
	f.idle(A)
	f.line(A, B, C, D)
	f.begin(1, A)
	f.do(0, Play{})
	f.do(0, Move{Right})
	if !f.s.chars[A].alive || f.s.turn != 5 {
		t.Fatal("A did not survive leaving the flood")
	}
	if err := f.s.checkMove(A, Left); err == nil || err.Code != codeRoomInaccessible {
		t.Fatal("A may enter the flooded room again")
	}
}

// S10. Twin Rooms.
func TestS10TwinRooms(t *testing.T) {
	for _, firstUp := range []bool{true, false} {
		f := newFixture(t, "cooperation", 4)
		f.line(A, B, C, D)
		twin := f.room(cellAt(0, 0), RoomTwin, firstUp)
		other := f.room(cellAt(2, 3), RoomTwin, false)
		f.room(cellAt(1, 3), RoomEmpty, true)
		f.at(A, cellAt(1, 3))
		f.plan(A, TokenMove, TokenLook)
		f.idle(A)
		f.begin(1, A)
		f.do(0, Move{Down})
		if !f.s.isFaceUp(other) {
			t.Fatal("the entered Twin was not revealed")
		}
		if firstUp && f.s.chars[A].tile != twin {
			t.Fatal("A did not jump to the face-up Twin")
		}
		if !firstUp && f.s.chars[A].tile != other {
			t.Fatal("A jumped although the other Twin is face down")
		}
	}
}

// S11. Illusion into Room 25.
func TestS11IllusionIntoRoom25(t *testing.T) {
	f := newFixture(t, "suspicion", 5)
	f.s.turn, f.s.turnsLeft = 3, 8
	f.line(A, B, C, D, E)
	f.room(cellAt(1, 1), RoomEmpty, true)
	illusion := f.room(cellAt(1, 2), RoomIllusion, false)
	r25 := f.room(cellAt(4, 3), Room25, false)
	f.at(A, cellAt(1, 1))
	f.at(B, cellAt(1, 1))
	f.plan(A, TokenPush, TokenLook)
	f.plan(B, TokenLook, TokenMove)
	f.idle(A, B)
	f.begin(1, A)
	f.do(0, Push{B, Right})
	f.wantDecision(pendIllusion, B)
	if f.decision().seat != 1 {
		t.Fatal("the pushed character's seat does not choose (D14)")
	}
	f.do(1, IllusionSwap{tileID(r25)})
	if f.s.tilePos[illusion] != cellAt(4, 3) || !f.s.isFaceUp(illusion) {
		t.Fatal("the Illusion Room did not go to (4,3) face up")
	}
	if f.s.tilePos[r25] != cellAt(1, 2) || !f.s.isFaceUp(r25) || f.s.chars[B].tile != r25 {
		t.Fatal("B is not on the revealed Room 25 at (1,2)")
	}
	if a := f.wantEvent("alarm").(Alarm); a.TurnsLeft != 5 {
		t.Fatalf("alarm %+v", a)
	}
}

// S12. Mobile Room with occupants.
func TestS12MobileRoomWithOccupants(t *testing.T) {
	f := newFixture(t, "cooperation", 5)
	f.line(E, A, B, C, D)
	mobile := f.room(cellAt(1, 1), RoomMobile, true)
	f.room(cellAt(1, 2), RoomEmpty, true)
	tt := f.room(cellAt(4, 4), RoomDeadly, false)
	f.s.chars[C].beacon = tt
	f.at(A, cellAt(1, 1))
	f.at(B, cellAt(1, 1))
	f.at(E, cellAt(1, 2))
	f.plan(E, TokenMove, TokenLook)
	f.plan(A, TokenLook, TokenMove)
	f.plan(B, TokenLook, TokenMove)
	f.idle(E, A, B)
	f.begin(1, E)
	f.do(4, Move{Left})
	f.wantDecision(pendMobile, E)
	f.do(4, MobileSwap{tileID(tt)})
	for _, c := range []Character{A, B, E} {
		if f.cell(c) != cellAt(4, 4) || f.s.chars[c].tile != mobile {
			t.Fatalf("%s did not ride the Mobile Room to (4,4)", c)
		}
	}
	if f.s.tilePos[tt] != cellAt(1, 1) || f.s.isFaceUp(tt) || f.s.chars[C].beacon != tt {
		t.Fatal("T is not face down at (1,1) with C's beacon")
	}
	for _, e := range f.evs {
		if en, ok := e.Body.(Entered); ok && (en.Character == A || en.Character == B) {
			t.Fatalf("%s entered something in the swap", en.Character)
		}
	}
}

// s13 puts A in a face-up Prison Cell at (1,2), B on an Empty Room at (1,1).
func s13(t *testing.T) *fixture {
	f := newFixture(t, "cooperation", 4)
	f.line(A, B, C, D)
	f.room(cellAt(1, 2), RoomPrison, true)
	f.room(cellAt(1, 1), RoomEmpty, true)
	f.room(cellAt(0, 2), RoomEmpty, true)
	f.at(A, cellAt(1, 2))
	f.at(B, cellAt(1, 1))
	return f
}

// S13. Prison Cell exits.
func TestS13PrisonCellExits(t *testing.T) {
	f := s13(t)
	f.plan(A, TokenMove, TokenLook)
	f.plan(B, TokenLook, TokenMove)
	f.idle(A, B)
	f.begin(1, A)
	want := []string{`{"type":"move","dir":"down"}`, `{"type":"move","dir":"left"}`}
	if got := f.legalOf(0, "move"); !slices.Equal(got, want) {
		t.Fatalf("legal moves %v", got)
	}
	f.refuse(0, Move{Up}, codePrisonExit)
	f.refuse(0, Move{Right}, codePrisonExit)

	// Variant: row 1 carried the Prison to (1,3) and B has left.
	g := s13(t)
	g.s.slide(rowLine(1), Right)
	g.at(B, centreCell)
	g.plan(A, TokenMove, TokenLook)
	g.idle(A)
	g.begin(1, A)
	if l := g.wantEvent("action_lost").(ActionLost); l.Character != A || l.Reason != codePrisonExit {
		t.Fatalf("lost %+v", l)
	}

	// Variant: C shares the Prison and pushes A out.
	h := s13(t)
	h.at(C, cellAt(1, 2))
	h.line(C, A, B, D)
	h.plan(C, TokenPush, TokenLook)
	h.plan(A, TokenLook, TokenMove)
	h.plan(B, TokenLook, TokenMove)
	h.idle(A, B, C)
	h.begin(1, C)
	h.do(2, Push{A, Up})
	if h.cell(A) != cellAt(0, 2) || h.cell(C) != cellAt(1, 2) {
		t.Fatal("C could not push A out of the Prison")
	}
}

// S14. Acid Bath.
func TestS14AcidBath(t *testing.T) {
	f := newFixture(t, "cooperation", 4)
	f.line(B, A, C, D)
	acid := f.room(cellAt(3, 3), RoomAcid, true)
	f.room(cellAt(3, 4), RoomEmpty, true)
	f.at(A, cellAt(3, 3))
	f.at(B, cellAt(3, 4))
	f.plan(B, TokenMove, TokenLook)
	f.idle(B, A)
	f.plan(A, TokenLook, TokenMove)
	f.begin(1, B)
	f.do(1, Move{Left})
	if f.s.chars[A].alive || f.s.chars[B].tile != acid || !f.s.chars[B].alive {
		t.Fatal("the arrival did not kill the earlier occupant")
	}
	// Variant: a slide carries the Acid Bath next to B: nothing happens.
	g := newFixture(t, "cooperation", 4)
	g.line(C, A, B, D)
	g.room(cellAt(3, 3), RoomAcid, true)
	g.room(cellAt(4, 4), RoomEmpty, true)
	g.room(cellAt(3, 1), RoomEmpty, true)
	g.at(A, cellAt(3, 3))
	g.at(B, cellAt(4, 4))
	g.at(C, cellAt(3, 1))
	g.plan(C, TokenControl, TokenLook)
	g.plan(A, TokenLook, TokenMove)
	g.plan(B, TokenLook, TokenMove)
	g.idle(A, B, C)
	g.begin(1, C)
	g.do(2, Control{rowLine(3), Right})
	if !g.s.chars[A].alive || !g.s.chars[B].alive || g.cell(A) != cellAt(3, 4) {
		t.Fatal("carrying the Acid Bath had an effect")
	}
}

// S15. Control Room obeys marks.
func TestS15ControlRoomObeysMarks(t *testing.T) {
	f := newFixture(t, "cooperation", 4)
	f.line(A, B, C, D)
	f.s.marks[rowLine(3).idx()] = Left
	f.room(cellAt(1, 1), RoomEmpty, true)
	f.room(cellAt(1, 2), RoomControl, false)
	r25 := f.room(cellAt(0, 0), Room25, true)
	f.at(A, cellAt(1, 1))
	f.plan(A, TokenMove, TokenLook)
	f.idle(A)
	f.begin(1, A)
	f.do(0, Move{Right})
	f.wantDecision(pendControlRoom, A)
	got := f.legalOf(0, "control_room_slide")
	if len(got) != 15 {
		t.Fatalf("%d slides offered: %v", len(got), got)
	}
	for _, g := range got {
		for _, bad := range []string{`"row2"`, `"col2"`, `"line":"row3","dir":"right"`} {
			if contains(g, bad) {
				t.Fatalf("offered %s", g)
			}
		}
	}
	f.refuse(0, ControlRoomSlide{rowLine(3), Right}, codeDirectionLocked)
	f.refuse(0, ControlRoomSlide{colLine(2), Up}, codeCentralLine)
	f.do(0, ControlRoomSlide{rowLine(0), Left})
	if f.s.over || f.s.tilePos[r25] != cellAt(0, 4) || f.s.marks[0] != Left {
		t.Fatal("the Control Room slide did not wrap Room 25 and set the mark")
	}
}

func contains(s, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			return true
		}
	}
	return false
}

// S16. Vortex and the Central Room.
func TestS16VortexAndTheCentralRoom(t *testing.T) {
	f := newFixture(t, "cooperation", 4)
	f.line(A, B, C, D)
	f.room(cellAt(1, 1), RoomEmpty, true)
	vortex := f.room(cellAt(0, 1), RoomVortex, false)
	f.at(A, cellAt(1, 1))
	f.at(B, cellAt(1, 1))
	f.plan(A, TokenPush, TokenLook)
	f.plan(B, TokenPush, TokenLook)
	f.room(cellAt(1, 2), RoomEmpty, true)
	f.at(C, cellAt(1, 2))
	f.at(D, cellAt(1, 2))
	f.plan(C, TokenPush, TokenLook)
	f.plan(D, TokenLook, TokenMove)
	f.begin(1, A)
	f.do(0, Push{B, Up})
	if !f.s.isFaceUp(vortex) || f.cell(B) != centreCell {
		t.Fatal("B did not go back to the Central Room")
	}
	// B's Push in the Central Room is lost.
	if l := f.wantEvent("action_lost").(ActionLost); l.Character != B || l.Reason != codePushFromCentral {
		t.Fatalf("lost %+v", l)
	}
	// C at (1,2) pushes D into the Central Room.
	f.wantDecision(pendToken, C)
	f.do(2, Push{D, Down})
	if f.cell(D) != centreCell {
		t.Fatal("D was not pushed into the Central Room")
	}
}

// S17. Single token and waiting.
func TestS17SingleTokenAndWaiting(t *testing.T) {
	for _, trapped := range []bool{false, true} {
		f := newFixture(t, "cooperation", 4)
		f.line(A, B, C, D)
		if trapped {
			tr := f.room(cellAt(1, 2), RoomTrapped, true)
			f.at(A, cellAt(1, 2))
			f.s.chars[A].trap = tr
		}
		f.plan(A, TokenMove, NoToken)
		f.plan(B, TokenLook, TokenPush)
		f.idle(A, B)
		f.begin(1, A)
		f.wantDecision(pendPlayWait, A)
		f.do(0, Wait{})
		f.wantEvent("waited")
		for _, e := range f.evs {
			if r, ok := e.Body.(TokenRevealed); ok && r.Character == A {
				t.Fatal("A's waiting token was revealed")
			}
		}
		for _, p := range []engine.Seat{1, engine.Spectator} {
			cv := f.view(p).Characters[0]
			if cv.Program != nil || cv.Tokens != 1 || cv.Shown != [2]Token{} || !cv.Waited {
				t.Fatalf("%s sees %+v", p, cv)
			}
		}
		f.wantDecision(pendToken, B)
		f.do(1, Look{tileID(f.s.tileAt(cellAt(2, 1)))})
		f.do(1, Hint{HintNone})
		f.wantDecision(pendToken, A)
		if !f.s.chars[A].alive || f.s.round != 2 {
			t.Fatal("the wait counted as an action")
		}
		if got := f.legalOf(0, "move"); len(got) == 0 || len(f.legalOf(0, "pass"))+len(f.legalOf(0, "wait")) != 0 {
			t.Fatalf("round 2 must resolve the Move: %v", got)
		}
		f.do(0, Move{Up})
		if !f.s.chars[A].alive {
			t.Fatal("moving out of the trap killed A")
		}
	}
}

// S18. Cold Room programming.
func TestS18ColdRoomProgramming(t *testing.T) {
	f := newFixture(t, "cooperation", 4)
	f.line(A, B, C, D)
	f.room(cellAt(1, 2), RoomCold, true)
	f.at(A, cellAt(1, 2))
	f.s.startTurnState()
	f.refuse(0, Program{A, TokenMove, TokenLook}, codeColdRoomSingle)
	f.do(0, Program{A, TokenMove, NoToken})
	// A character entering a Cold Room in round 1 keeps its second token.
	g := newFixture(t, "cooperation", 4)
	g.line(B, A, C, D)
	g.room(cellAt(1, 2), RoomCold, false)
	g.plan(B, TokenMove, TokenLook)
	g.idle(B)
	g.begin(1, B)
	g.do(1, Move{Up})
	for g.s.pend.kind == pendNone || g.s.round == 1 {
		t.Fatal("B's second token was not revealed")
	}
	g.wantDecision(pendToken, B)
	if g.s.pend.token != TokenLook {
		t.Fatal("B's round-2 token is not its Look")
	}
}

// S19. Masks fall.
func TestS19MasksFall(t *testing.T) {
	f := newFixture(t, "suspicion", 5)
	f.s.role = [maxSeats]Role{Prisoner, Prisoner, Prisoner, Guard, Prisoner}
	f.line(C, A, B, D, E)
	f.room(cellAt(0, 2), Room25, true)
	f.at(A, cellAt(0, 2))
	f.at(B, cellAt(0, 2))
	f.room(cellAt(1, 2), RoomEmpty, true)
	f.at(C, cellAt(1, 2))
	f.plan(C, TokenMove, TokenLook)
	f.plan(A, TokenLook, TokenMove)
	f.plan(B, TokenLook, TokenMove)
	f.idle(A, B, C)
	f.begin(1, C)
	f.do(2, Move{Up})
	if !f.s.roleShown[3] || !f.s.roleShown[4] || f.s.roleShown[0] || f.s.roleShown[1] || f.s.roleShown[2] {
		t.Fatalf("shown roles %v", f.s.roleShown)
	}
	// D, a Guard, plays immediately from the next turn.
	f.s.turn++
	f.s.startTurnState()
	if !f.s.chars[D].immediate || f.s.chars[E].immediate {
		t.Fatal("the revealed Guard does not switch to immediate play")
	}
}

// S20. Revealed Guard's immediate play.
func TestS20RevealedGuardsImmediatePlay(t *testing.T) {
	for _, cold := range []bool{false, true} {
		f := newFixture(t, "suspicion", 5)
		f.s.role = [maxSeats]Role{Guard, Prisoner, Prisoner, Prisoner, Prisoner}
		f.s.turn, f.s.turnsLeft = 4, 7
		f.line(A, B, C, D, E)
		f.plan(A, TokenLook, TokenMove)
		f.idle(A)
		f.begin(1, A)
		f.do(0, RevealRole{})
		f.do(0, Look{tileID(f.s.tileAt(cellAt(1, 2)))})
		f.do(0, Hint{HintRed})
		f.wantDecision(pendToken, A)
		f.do(0, Move{Up})
		if f.s.turn != 5 || f.s.phase != phaseProgramming {
			t.Fatal("turn 4 did not end")
		}
		if cold {
			f.room(cellAt(1, 2), RoomCold, true)
		}
		f.at(B, cellAt(1, 2))
		f.s.startTurnState()
		if slices.Contains(f.s.Actors(), 0) {
			t.Fatal("the revealed Guard programs")
		}
		f.idle(A)
		f.line(A, B, C, D, E)
		f.begin(1, A)
		f.wantDecision(pendAct, A)
		f.do(0, Act{Action: TokenPush, Character: B, Dir: Up})
		f.wantDecision(pendToken, B)
		f.do(1, Control{rowLine(0), Left})
		if cold {
			if f.s.turn != 6 {
				t.Fatal("a Guard in the Cold Room got a second action")
			}
			continue
		}
		f.wantDecision(pendAct, A)
		f.refuse(0, Act{Action: TokenPush, Character: B, Dir: Up}, codeSameActionTwice)
		f.do(0, Pass{})
	}
}

// S21. Competition lone survivor.
func TestS21CompetitionLoneSurvivor(t *testing.T) {
	for _, turnsLeft := range []int{3, 1} {
		f := newFixture(t, "competition", 2)
		f.s.turnsLeft = turnsLeft
		f.line(Geek, Handsome, Scientist, Bimbo)
		f.s.kill(Scientist, "deadly")
		r25 := f.room(cellAt(0, 0), Room25, true)
		f.at(Geek, cellAt(0, 0))
		f.plan(Geek, TokenControl, TokenLook)
		f.idle(Geek)
		f.begin(1, Geek)
		f.do(0, Control{rowLine(0), Left})
		out, over := f.s.Outcome()
		if turnsLeft == 3 && (over || f.s.tilePos[r25] != cellAt(0, 4)) {
			t.Fatal("turnsLeft 3: Room 25 did not wrap to (0,4)")
		}
		if turnsLeft == 1 && (!over || !slices.Equal(out.Winners, []engine.Seat{0})) {
			t.Fatalf("last turn: over %v winners %v", over, out.Winners)
		}
	}
}

// S22. Team end of countdown.
func TestS22TeamEndOfCountdown(t *testing.T) {
	// Team A: seats 0, 2 (Scientist, Geek); team B: seats 1, 3 (Handsome,
	// Bimbo).
	cases := []struct {
		on      []Character
		winners []engine.Seat
		scores  []int
	}{
		{[]Character{Scientist, Handsome}, nil, []int{drawScore, drawScore, drawScore, drawScore}},
		{[]Character{Scientist, Geek, Handsome}, []engine.Seat{0, 2}, []int{winScore, 0, winScore, 0}},
		{nil, nil, []int{0, 0, 0, 0}},
	}
	for _, tc := range cases {
		f := newFixture(t, "team", 4)
		f.s.turnsLeft = 1
		f.room(cellAt(4, 4), Room25, true)
		for _, c := range tc.on {
			f.at(c, cellAt(4, 4))
		}
		f.s.countdown()
		out, over := f.s.Outcome()
		if !over || !slices.Equal(out.Winners, tc.winners) || !slices.Equal(out.Scores, tc.scores) {
			t.Fatalf("on %v: over %v outcome %+v", tc.on, over, out)
		}
	}
}

// S23. Dead markers keep rotating.
func TestS23DeadMarkersKeepRotating(t *testing.T) {
	f := newFixture(t, "cooperation", 4)
	f.line(A, B, C, D)
	f.s.kill(A, "deadly")
	f.plan(B, TokenLook, TokenControl)
	f.idle(B)
	f.begin(1, A)
	f.wantDecision(pendToken, B)
	f.do(1, Look{tileID(f.s.tileAt(cellAt(1, 2)))})
	f.do(1, Hint{HintNone})
	left := f.s.turnsLeft
	if !slices.Equal(f.s.line, []Character{B, C, D, A}) || left != 7 {
		t.Fatalf("line %v turnsLeft %d", f.s.line, left)
	}
}

// S24. Knowledge follows the tile; hints may lie.
func TestS24KnowledgeFollowsTheTile(t *testing.T) {
	f := newFixture(t, "cooperation", 4)
	f.line(A, B, C, D)
	f.room(cellAt(1, 1), RoomEmpty, true)
	f.room(cellAt(1, 3), RoomEmpty, true)
	deadly := f.room(cellAt(1, 0), RoomDeadly, false)
	f.at(A, cellAt(1, 1))
	f.at(B, cellAt(1, 3))
	f.plan(A, TokenLook, TokenPush)
	f.plan(B, TokenControl, TokenPush)
	f.idle(A, B)
	f.begin(1, A)
	f.do(0, Look{tileID(deadly)})
	f.do(0, Hint{HintGreen})
	f.do(1, Control{rowLine(1), Right})
	for _, p := range []engine.Seat{0, 1, 2, engine.Spectator} {
		cv := f.view(p).Cells[cellAt(1, 1)]
		if cv.Tile != tileID(deadly) || len(cv.Hints) != 1 || cv.Hints[0] != (HintView{Seat: 0, Colour: HintGreen}) {
			t.Fatalf("%s sees %+v", p, cv)
		}
		if (p == 0) != (cv.Room == "deadly" && cv.Known) {
			t.Fatalf("%s sees room %q", p, cv.Room)
		}
	}
	// Entering it shows everyone the hint was false.
	f.at(C, cellAt(1, 2))
	f.s.enter(C, deadly, "move", NoCharacter)
	if cv := f.view(2).Cells[cellAt(1, 1)]; cv.Room != "deadly" || cv.Hints[0].Colour != HintGreen {
		t.Fatalf("after the entry: %+v", cv)
	}
}

// S25. Starting hint with duos and Solo.
func TestS25StartingHintWithDuosAndSolo(t *testing.T) {
	st, _ := Game{}.New(engine.Setup{Players: 2, Seed: 3})
	s := st.(*State)
	if a := s.Actors(); len(a) != 2 {
		t.Fatalf("actors %v", a)
	}
	var looks []string
	for _, a := range s.Legal(0) {
		looks = append(looks, js(a))
	}
	want := []string{`{"type":"start_look","tile":"t07"}`, `{"type":"start_look","tile":"t11"}`, `{"type":"start_look","tile":"t13"}`, `{"type":"start_look","tile":"t17"}`, `{"type":"skip_look"}`}
	if !slices.Equal(looks, want) {
		t.Fatalf("start looks %v", looks)
	}
	s.Apply(0, StartLook{tileID(7)}, 0)
	s.Apply(1, StartLook{tileID(17)}, 0)
	s.Apply(0, Hint{HintRed}, 0)
	evs, _ := s.Apply(1, Hint{HintNone}, 0)
	var pub StartLooks
	for _, e := range evs {
		if b, ok := e.Body.(StartLooks); ok {
			pub = b
		}
	}
	if len(pub.Looks) != 2 || pub.Looks[0].Tile != tileID(7) || pub.Looks[1].Tile != tileID(17) || len(s.hints) != 1 {
		t.Fatalf("published %+v, hints %v", pub, s.hints)
	}
	// Solo: one look, no hint step.
	st, _ = Game{}.New(engine.Setup{Players: 1, Seed: 3})
	s = st.(*State)
	s.Apply(0, StartLook{tileID(11)}, 0)
	if s.phase != phaseAction || s.known[0] != 1<<11 {
		t.Fatalf("solo after the look: phase %s", phaseNames[s.phase])
	}
}

// S26. Cooperation loss on the second death.
func TestS26CooperationLossOnTheSecondDeath(t *testing.T) {
	f := newFixture(t, "cooperation", 4)
	f.line(A, B, C, D)
	f.s.kill(D, "deadly")
	f.die(A)
	out, over := f.s.Outcome()
	if !over || f.s.reason != "deaths" || len(out.Winners) != 0 || out.Scores[0] != 0 {
		t.Fatalf("over %v reason %s outcome %+v", over, f.s.reason, out)
	}
}
