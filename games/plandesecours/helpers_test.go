package plandesecours

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	"sortie/engine"
)

// Seats of the scenarios: A, B, C, … are seats 0, 1, 2, …
const (
	A engine.Seat = iota
	B
	C
	D
	E
)

// tid returns the tile with the given id, or panics.
func tid(id string) TileID {
	t, ok := Tile(id)
	if !ok {
		panic("no tile " + id)
	}
	return t
}

// game returns a new state of n seats whose round 1 is opened by first.
func game(n int, danger bool, first engine.Seat) *State {
	s := newState(n, danger, 1)
	s.startRound(1, int8(first))
	return s
}

// rig gives the seats the hands listed (seat 0 first; nil is an empty hand),
// the seats not listed the last 3 tiles in canonical order each, and puts
// every other playable tile not on the stack into the draw pile, in
// canonical order.
func rig(s *State, hands ...[]string) {
	used := map[TileID]bool{}
	for _, it := range s.stack[1:s.stackLen] {
		if !it.lost {
			used[it.tile] = true
		}
	}
	for p, h := range hands {
		s.handLen[p] = uint8(len(h))
		for i, id := range h {
			s.hands[p][i] = tid(id)
			used[tid(id)] = true
		}
	}
	var rest []TileID
	for t := TileID(1); t < numTiles; t++ {
		if !used[t] {
			rest = append(rest, t)
		}
	}
	for p := len(hands); p < int(s.n); p++ { // seats not listed: 3 tiles each
		copy(s.hands[p][:], rest[len(rest)-HandSize:])
		s.handLen[p] = HandSize
		rest = rest[:len(rest)-HandSize]
	}
	s.drawPos = uint8(numPlayable - len(rest))
	copy(s.draw[s.drawPos:], rest)
}

// reveal floors: set the revealed FLOOR cards (floor_initial first).
func setFloors(s *State, fs ...FloorID) {
	i := 0
	for _, f := range fs {
		if f == FloorInitial {
			continue
		}
		j := slices.Index(s.floorDeck[:], f)
		s.floorDeck[i], s.floorDeck[j] = s.floorDeck[j], s.floorDeck[i]
		i++
	}
	s.floorsRevealed = uint8(i)
}

// setDangers sets the revealed DANGER cards, in order.
func setDangers(s *State, ds ...DangerID) {
	for i, d := range ds {
		j := slices.Index(s.dangerDeck[:], d)
		s.dangerDeck[i], s.dangerDeck[j] = s.dangerDeck[j], s.dangerDeck[i]
	}
	s.dangersShown = uint8(len(ds))
}

// lay plays a tile for seat p (with a facing when one is given) and fails
// the test if it is refused.
func lay(t *testing.T, s *State, p engine.Seat, id string, facing ...int) []engine.Event {
	t.Helper()
	a := PlayTile{Tile: tid(id)}
	if len(facing) > 0 {
		a.Facing = FacingOf(facing[0])
	}
	return do(t, s, p, a)
}

// do applies an action and fails the test if it is refused.
func do(t *testing.T, s *State, p engine.Seat, a engine.Action) []engine.Event {
	t.Helper()
	evs, err := s.Apply(p, a, 0)
	if err != nil {
		t.Fatalf("%s: %s refused: %v", p, js(a), err)
	}
	return evs
}

// refused applies an action that must be refused with the given code and
// leave the state unchanged.
func refused(t *testing.T, s *State, p engine.Seat, a engine.Action, code string) {
	t.Helper()
	before := *s
	_, err := s.Apply(p, a, 0)
	re, ok := err.(*engine.RuleError)
	if !ok || re.Code != code {
		t.Fatalf("%s: %s gave %v, want a rule error %q", p, js(a), err, code)
	}
	if *s != before {
		t.Fatalf("%s: the refused %s changed the state", p, js(a))
	}
}

// T is a DIRECTION item for stacks built by hand (facing 0).
func T(id string) item { return item{tile: tid(id)} }

// L is seat p's LOST item in chain c.
func L(p engine.Seat, c int) item { return item{lost: true, seat: int8(p), chain: uint8(c)} }

// stacked returns an n-seat state whose stack is start + items, with the
// given FLOOR cards revealed; seats owning a LOST item are out of the round.
func stacked(n int, fs []FloorID, items ...item) *State {
	s := game(n, false, A)
	setFloors(s, fs...)
	for _, it := range items {
		s.stack[s.stackLen] = it
		s.stackLen++
		if it.lost {
			s.holders &^= 1 << uint(it.seat)
			s.chainOf[it.seat] = it.chain
			s.lostOrder[s.nLost] = it.seat
			s.nLost++
			s.chainNo = max(s.chainNo, it.chain)
		} else {
			s.lastDir = s.stackLen - 1
			s.numDir++
		}
	}
	return s
}

// revealOf lays out a stack built by hand.
func revealOf(n int, fs []FloorID, items ...item) *Reveal {
	return stacked(n, fs, items...).reveal(EndedByExhaustion)
}

// at is a tile step expected in a reveal.
type at struct {
	tile    string
	pass    bool
	x, y    int
	heading Heading
}

// checkSteps compares a reveal's steps with the expected ones.
func checkSteps(t *testing.T, r *Reveal, want ...at) {
	t.Helper()
	if len(r.Steps) != len(want) {
		t.Fatalf("%d steps, want %d: %s", len(r.Steps), len(want), js(r.Steps))
	}
	for i, w := range want {
		g := r.Steps[i]
		if g.Tile.String() != w.tile || g.Pass != w.pass || g.X != w.x || g.Y != w.y || g.Heading != w.heading {
			t.Errorf("step %d is %s, want %+v", i+1, js(g), w)
		}
	}
}

// checkLost checks the lost point and its reasons.
func checkLost(t *testing.T, r *Reveal, lostAt int, reasons ...string) {
	t.Helper()
	if reasons == nil {
		reasons = []string{}
	}
	if r.LostAt != lostAt || !slices.Equal(r.Reasons, reasons) {
		t.Fatalf("lost_at %d, reasons %v; want %d, %v", r.LostAt, r.Reasons, lostAt, reasons)
	}
}

func scores(s *State) []int { return append([]int{}, s.scores[:s.n]...) }

func checkScores(t *testing.T, s *State, want ...int) {
	t.Helper()
	if got := scores(s); !slices.Equal(got, want) {
		t.Fatalf("scores %v, want %v", got, want)
	}
}

func view(s *State, p engine.Seat) View { return s.View(p).(View) }

// kinds lists the kinds of the events p sees.
func kinds(evs []engine.Event, p engine.Seat) []string {
	var ks []string
	for _, e := range engine.Visible(nil, evs, p) {
		ks = append(ks, e.Body.Kind())
	}
	return ks
}

func js(v any) string {
	var b []byte
	var err error
	if k, ok := v.(engine.Kinded); ok {
		b, err = engine.MarshalTyped(k)
	} else {
		b, err = json.Marshal(v)
	}
	if err != nil {
		return fmt.Sprintf("<%v>", err)
	}
	return string(b)
}
