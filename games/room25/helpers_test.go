package room25

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"testing"

	"sortie/engine"
)

// fixture is a game set up by hand for a scenario: every tile but the
// Central Room is a face-down Empty Room until the test says otherwise, and
// the game is past the starting hint.
type fixture struct {
	t   *testing.T
	s   *State
	evs []engine.Event // events of the last step
}

// newFixture sets up a game of the given mode and seats on a blank complex.
func newFixture(t *testing.T, mode string, seats int) *fixture {
	t.Helper()
	st, err := Game{}.New(engine.Setup{Players: seats, Options: map[string]string{optMode: mode}, Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*State)
	for t := range int8(numTiles) {
		if t != centreCell {
			s.room[t] = RoomEmpty
		}
	}
	s.phase = phaseProgramming
	s.startTurnState()
	return &fixture{t: t, s: s}
}

// startTurnState prepares the characters as at the start of a turn,
// without events or phase change.
func (s *State) startTurnState() {
	saved := s.out
	s.startTurn()
	s.out = saved
}

// room sets the identity of the tile now on cell; up turns it face up.
func (f *fixture) room(cell int8, r Room, up bool) int8 {
	t := f.s.tileAt(cell)
	f.s.room[t] = r
	if up {
		f.s.faceUp |= 1 << uint(t)
	} else {
		f.s.faceUp &^= 1 << uint(t)
	}
	return t
}

// at puts character c on the tile now on cell (no entry).
func (f *fixture) at(c Character, cell int8) { f.s.place(c, f.s.tileAt(cell)) }

// cell returns the cell character c stands on.
func (f *fixture) cell(c Character) int8 { return f.s.cellOf(c) }

// line sets the marker line.
func (f *fixture) line(cs ...Character) { f.s.line = cs }

// plan programs a character (second may be NoToken for a single token).
func (f *fixture) plan(c Character, first, second Token) {
	ch := &f.s.chars[c]
	ch.programmed, ch.plan = true, [2]Token{first, second}
}

// idle programs every other living character not yet programmed with
// Control then Push: both are lost at once in the Central Room, so their
// slots play themselves out there.
func (f *fixture) idle(except ...Character) {
	for c := Scientist; c <= LittleGirl; c++ {
		ch := &f.s.chars[c]
		if ch.inPlay && ch.alive && !slices.Contains(except, c) && !ch.programmed {
			f.plan(c, TokenControl, TokenPush)
		}
	}
}

// begin starts the action phase (round, slot of c) and runs it to the next
// decision.
func (f *fixture) begin(round int, c Character) {
	f.t.Helper()
	s := f.s
	s.phase, s.round, s.inSlot, s.pend = phaseAction, round, false, pending{}
	s.slot = slices.Index(s.line, c)
	if s.slot < 0 {
		f.t.Fatalf("%s is not in the line %v", c, s.line)
	}
	s.out = nil
	s.proceed()
	f.evs, s.out = s.out, nil
}

// do applies an action that must be accepted.
func (f *fixture) do(p int, a engine.Action) {
	f.t.Helper()
	evs, err := f.s.Apply(engine.Seat(p), a, 0)
	if err != nil {
		f.t.Fatalf("%s by seat %d refused: %v", js(a), p, err)
	}
	f.evs = evs
}

// refuse applies an action that must be refused with the given code and
// leave the state unchanged.
func (f *fixture) refuse(p int, a engine.Action, code string) {
	f.t.Helper()
	before := fmt.Sprintf("%+v", *f.s)
	_, err := f.s.Apply(engine.Seat(p), a, 0)
	var re *engine.RuleError
	if !errors.As(err, &re) {
		f.t.Fatalf("%s by seat %d: want refusal %q, got %v", js(a), p, code, err)
	}
	if re.Code != code {
		f.t.Fatalf("%s by seat %d: want code %q, got %q (%s)", js(a), p, code, re.Code, re.Message)
	}
	if after := fmt.Sprintf("%+v", *f.s); after != before {
		f.t.Fatalf("%s by seat %d was refused but changed the state", js(a), p)
	}
}

// seat returns the seat of character c.
func (f *fixture) seat(c Character) int { return int(f.s.owner(c)) }

// decision returns the pending decision.
func (f *fixture) decision() pending { return f.s.pend }

// wantDecision checks who must decide what.
func (f *fixture) wantDecision(k pendKind, c Character) {
	f.t.Helper()
	if f.s.pend.kind != k || f.s.pend.char != c {
		f.t.Fatalf("want decision %s for %s, got %s for %s", pendNames[k], c, pendNames[f.s.pend.kind], f.s.pend.char)
	}
}

// event returns the first event of the last step with the given kind.
func (f *fixture) event(kind string) (engine.EventBody, bool) {
	for _, e := range f.evs {
		if e.Body.Kind() == kind {
			return e.Body, true
		}
	}
	return nil, false
}

// wantEvent checks the last step told an event of that kind.
func (f *fixture) wantEvent(kind string) engine.EventBody {
	f.t.Helper()
	b, ok := f.event(kind)
	if !ok {
		f.t.Fatalf("no %s event in %s", kind, js(f.evs))
	}
	return b
}

// lostOf returns the action_lost event of character c in the last step.
func (f *fixture) lostOf(c Character) ActionLost {
	f.t.Helper()
	for _, e := range f.evs {
		if l, ok := e.Body.(ActionLost); ok && l.Character == c {
			return l
		}
	}
	f.t.Fatalf("no action of %s was lost in %s", c, js(f.evs))
	return ActionLost{}
}

// noEvent checks the last step told no event of that kind.
func (f *fixture) noEvent(kind string) {
	f.t.Helper()
	if b, ok := f.event(kind); ok {
		f.t.Fatalf("unexpected %s event: %s", kind, js(b))
	}
}

// legalOf returns the legal actions of seat p whose kind is kind.
func (f *fixture) legalOf(p int, kind string) []string {
	var out []string
	for _, a := range f.s.Legal(engine.Seat(p)) {
		if a.Kind() == kind {
			out = append(out, js(a))
		}
	}
	return out
}

// view returns seat p's view.
func (f *fixture) view(p engine.Seat) View { return f.s.View(p).(View) }

func js(v any) string {
	if k, ok := v.(engine.Kinded); ok {
		b, _ := engine.MarshalTyped(k)
		return string(b)
	}
	b, _ := json.Marshal(v)
	return string(b)
}
