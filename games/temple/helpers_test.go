package temple

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"sortie/engine"
)

// newGame sets up a match; opts are option key/value pairs.
func newGame(t testing.TB, players int, seed uint64, opts ...string) *State {
	t.Helper()
	o := map[string]string{}
	for i := 0; i+1 < len(opts); i += 2 {
		o[opts[i]] = opts[i+1]
	}
	s, err := Game{}.New(engine.Setup{Players: players, Options: o, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return s.(*State)
}

// tileIdx finds a tile by id.
func tileIdx(t testing.TB, id string) int8 {
	t.Helper()
	for i, d := range tiles {
		if d.ID == id {
			return int8(i)
		}
	}
	t.Fatalf("no tile %q", id)
	return -1
}

// clearBoard leaves only the start chamber on the table, puts every other
// tile of the game's set (and the exit) back in the stack in table order,
// and sends everybody to the start chamber.
func (s *State) clearBoard(t testing.TB) {
	t.Helper()
	first := int8(firstBasic)
	if s.opt.curses || s.opt.treasures {
		first = firstMarked
	}
	s.chambers = s.chambers[:0]
	s.grid = [gridSize * gridSize]int8{}
	for i := range s.where {
		s.where[i] = -1
	}
	s.place(tileStart, 0, 0, noSide)
	s.stack = []int8{tileExit, firstGem, firstGem + 1, firstGem + 2, firstGem + 3}
	for i := range int8(13) {
		s.stack = append(s.stack, first+i)
	}
	for p := range s.players {
		s.players[p].at = 0
	}
	s.retopo()
}

// put places a tile from the stack on cell (x, y) with its stairs on side
// stairs and returns its chamber index.
func (s *State) put(t testing.TB, id string, x, y int8, stairs Side) int {
	t.Helper()
	ti := tileIdx(t, id)
	i := slices.Index(s.stack, ti)
	if i < 0 {
		t.Fatalf("tile %s is not in the stack", id)
	}
	s.stack = slices.Delete(s.stack, i, i+1)
	return s.place(ti, x, y, stairs)
}

// onTop puts the given tiles on top of the stack, in order.
func (s *State) onTop(t testing.TB, ids ...string) {
	t.Helper()
	for k := len(ids) - 1; k >= 0; k-- {
		ti := tileIdx(t, ids[k])
		i := slices.Index(s.stack, ti)
		if i < 0 {
			t.Fatalf("tile %s is not in the stack", ids[k])
		}
		s.stack = slices.Delete(s.stack, i, i+1)
		s.stack = slices.Insert(s.stack, 0, ti)
	}
}

// boardB1 is the shared board of §10: start (0,0), basic_01 (or marked_01)
// west with stairs E, basic_08 (or marked_08) east with stairs W.
func (s *State) boardB1(t testing.TB) {
	t.Helper()
	s.clearBoard(t)
	w, e := "basic_01", "basic_08"
	if s.opt.curses || s.opt.treasures {
		w, e = "marked_01", "marked_08"
	}
	s.put(t, w, -1, 0, East)
	s.put(t, e, 1, 0, West)
}

// at moves seat p to the chamber with the given tile id.
func (s *State) at(t testing.TB, p int, id string) {
	t.Helper()
	c := s.chamberByID(id)
	if c < 0 {
		t.Fatalf("chamber %s is not placed", id)
	}
	s.players[p].at = int8(c)
}

// dice sets faces and statuses: die ids get face f and status st.
func (s *State) setDice(st DieStatus, f Face, ids ...int) {
	for _, id := range ids {
		s.dice[id].Face, s.dice[id].Status = f, st
	}
}

// live sets dice live with face f (black masks become locked).
func (s *State) live(f Face, ids ...int) {
	st := Live
	if f == BlackMask {
		st = Locked
	}
	s.setDice(st, f, ids...)
}

// give gives seat p the named curse card.
func (s *State) curse(t testing.TB, p int, id string) {
	t.Helper()
	c := curseIndex(id)
	if c < 0 {
		t.Fatalf("no curse %s", id)
	}
	if i := slices.Index(s.curseDeck, c); i >= 0 {
		s.curseDeck = slices.Delete(s.curseDeck, i, i+1)
	}
	s.players[p].curses = append(s.players[p].curses, c)
}

// treasure gives seat p the named treasure.
func (s *State) treasure(t testing.TB, p int, id string) {
	t.Helper()
	tr := treasureIndex(id)
	if tr < 0 {
		t.Fatalf("no treasure %s", id)
	}
	if i := slices.Index(s.treasureStack, tr); i >= 0 {
		s.treasureStack = slices.Delete(s.treasureStack, i, i+1)
	}
	s.players[p].treasures = append(s.players[p].treasures, tr)
}

// apply plays a for seat p at time at (letting time pass first) and fails
// the test if it is refused.
func apply(t testing.TB, s *State, p int, a engine.Action, at engine.Millis) []engine.Event {
	t.Helper()
	evs, err := engine.Play(s, engine.Record{Seat: engine.Seat(p), Action: a, At: at})
	if err != nil {
		t.Fatalf("%s by seat %d at %d was refused: %v", a.Kind(), p, at, err)
	}
	return evs
}

// refused checks that a by seat p at time at (after time passed to at) is
// refused with code, leaving the state untouched.
func refused(t testing.TB, s *State, p int, a engine.Action, at engine.Millis, code string) {
	t.Helper()
	s.Advance(at)
	before := s.clone()
	_, err := s.Apply(engine.Seat(p), a, at)
	var re *engine.RuleError
	if !errors.As(err, &re) {
		t.Fatalf("%s by seat %d: want refusal %q, got %v", a.Kind(), p, code, err)
	}
	if re.Code != code {
		t.Fatalf("%s by seat %d: want refusal %q, got %q (%s)", a.Kind(), p, code, re.Code, re.Message)
	}
	if !reflect.DeepEqual(before, s) {
		t.Fatalf("the refused %s changed the state", a.Kind())
	}
}

// find returns the first event body of type T.
func find[T engine.EventBody](evs []engine.Event) (T, bool) {
	for _, e := range evs {
		if b, ok := e.Body.(T); ok {
			return b, true
		}
	}
	var zero T
	return zero, false
}

// must returns the first event body of type T or fails.
func must[T engine.EventBody](t testing.TB, evs []engine.Event) T {
	t.Helper()
	b, ok := find[T](evs)
	if !ok {
		var zero T
		t.Fatalf("no %s event in %v", zero.Kind(), evs)
	}
	return b
}

// legalOf lists seat p's legal actions of one kind.
func legalOf[T engine.Action](s *State, p int) []T {
	var out []T
	for _, a := range s.Legal(engine.Seat(p)) {
		if x, ok := a.(T); ok {
			out = append(out, x)
		}
	}
	return out
}

func status(s *State, ids ...int) []DieStatus {
	out := make([]DieStatus, len(ids))
	for i, id := range ids {
		out[i] = s.dice[id].Status
	}
	return out
}

func allStatus(n int, st DieStatus) []DieStatus {
	out := make([]DieStatus, n)
	for i := range out {
		out[i] = st
	}
	return out
}

func ip(v int) *int { return &v }

func newTestRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 1)) }

// equalStates compares two states field by field.
func equalStates(a, b *State) bool { return reflect.DeepEqual(a, b) }
