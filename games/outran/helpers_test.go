package outran

import (
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"sortie/bot"
	"sortie/engine"
)

// Seats of the scenarios (§10): A, B, C, D, E, F.
const (
	A engine.Seat = iota
	B
	C
	D
	E
	F
)

// newState sets up a match with the given options ("key=value").
func newState(t *testing.T, players int, monster string, opts ...string) *state {
	t.Helper()
	o := map[string]string{optMonster: monster}
	for _, kv := range opts {
		k, v, _ := strings.Cut(kv, "=")
		o[k] = v
	}
	st, err := Game{}.New(engine.Setup{Players: players, Options: o, Seed: 42})
	if err != nil {
		t.Fatal(err)
	}
	return st.(*state)
}

func cardOf(t *testing.T, id string) Card {
	t.Helper()
	c, ok := cardByID(id)
	if !ok {
		t.Fatalf("no card %q", id)
	}
	return c
}

func pathOf(t *testing.T, id string) int {
	t.Helper()
	for i := range pathCards {
		if pathCards[i].ID == id {
			return i
		}
	}
	t.Fatalf("no path card %q", id)
	return -1
}

// toks reads a list of token ids: "ne n detour se".
func toks(t *testing.T, s string) []Token {
	t.Helper()
	out := []Token{}
	for _, f := range strings.Fields(s) {
		tk, ok := tokenByID(f)
		if !ok {
			t.Fatalf("no token %q", f)
		}
		out = append(out, tk)
	}
	return out
}

func listString(l []Token) string {
	parts := make([]string, len(l))
	for i, t := range l {
		parts[i] = t.String()
	}
	return strings.Join(parts, " ")
}

func listsString(ls [][]Token) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = listString(l)
	}
	slices.Sort(out)
	return out
}

// stackPath puts path cards on top of the path deck, the first to be
// revealed first.
func (s *state) stackPath(t *testing.T, ids ...string) {
	t.Helper()
	for i := len(ids) - 1; i >= 0; i-- {
		c := uint8(pathOf(t, ids[i]))
		s.pathDeck = slices.DeleteFunc(s.pathDeck, func(x uint8) bool { return x == c })
		s.pathDiscard = slices.DeleteFunc(s.pathDiscard, func(x uint8) bool { return x == c })
		s.pathDeck = append(s.pathDeck, c)
	}
}

// takeCard removes an interference card from wherever it is.
func (s *state) takeCard(c Card) {
	not := func(x Card) bool { return x == c }
	s.deck = slices.DeleteFunc(s.deck, not)
	s.discard = slices.DeleteFunc(s.discard, not)
	s.centre = slices.DeleteFunc(s.centre, func(h held) bool { return h.Card == c })
	for i := range s.seats {
		s.seats[i].Front = slices.DeleteFunc(s.seats[i].Front, func(h held) bool { return h.Card == c })
		s.seats[i].Hand = slices.DeleteFunc(s.seats[i].Hand, func(h handCard) bool { return h.Card == c })
	}
}

// stackDeck puts interference cards on top of the deck, the first to be
// drawn first.
func (s *state) stackDeck(t *testing.T, ids ...string) {
	t.Helper()
	for i := len(ids) - 1; i >= 0; i-- {
		c := cardOf(t, ids[i])
		s.takeCard(c)
		s.deck = append(s.deck, c)
	}
}

// giveFront puts cards in front of a seat (or the centre, seat -1), in
// arrival order.
func (s *state) giveFront(t *testing.T, holder int, ids ...string) {
	t.Helper()
	for _, id := range ids {
		c := cardOf(t, id)
		s.takeCard(c)
		s.stamp++
		f := s.frontOf(holder)
		*f = append(*f, held{Card: c, Stamp: s.stamp})
	}
}

// giveHand puts cards in a seat's hand.
func (s *state) giveHand(t *testing.T, p engine.Seat, ids ...string) {
	t.Helper()
	for _, id := range ids {
		c := cardOf(t, id)
		s.takeCard(c)
		s.seats[p].Hand = append(s.seats[p].Hand, handCard{Card: c, Known: 1 << p})
	}
}

func frontIDs(f []held) []string {
	out := []string{}
	for _, h := range f {
		out = append(out, h.Card.String())
	}
	return out
}

func handIDs(h []handCard) []string {
	out := []string{}
	for _, c := range h {
		out = append(out, c.Card.String())
	}
	return out
}

// reveal lets the countdown run out and returns the reveal's events.
func reveal(t *testing.T, s *state) []engine.Event {
	t.Helper()
	if s.phase != PhaseCountdown {
		t.Fatalf("phase %s, want countdown", s.phase)
	}
	evs := s.Advance(s.revealAt)
	if s.phase != PhaseRun {
		t.Fatalf("phase %s after the reveal", s.phase)
	}
	return evs
}

// at returns the match time elapsed ms after the reveal.
func (s *state) at(elapsed engine.Millis) engine.Millis { return s.revealAt + elapsed }

// play applies an action after letting time pass to at; it must succeed.
func play(t *testing.T, s *state, p engine.Seat, a engine.Action, at engine.Millis) []engine.Event {
	t.Helper()
	evs := s.Advance(at)
	more, err := s.Apply(p, a, at)
	if err != nil {
		t.Fatalf("%s %s at %d: %v", p, js(a), at, err)
	}
	return append(evs, more...)
}

// refuse checks that an action is refused with the code and changes nothing.
func refuse(t *testing.T, s *state, p engine.Seat, a engine.Action, at engine.Millis, code string) {
	t.Helper()
	before := s.Clone()
	_, err := s.Apply(p, a, at)
	var re *engine.RuleError
	if !errors.As(err, &re) || re.Code != code {
		t.Fatalf("%s %s: got %v, want a refusal %q", p, js(a), err, code)
	}
	if js(s.View(engine.Spectator)) != js(before.View(engine.Spectator)) || !sameState(s, before.(*state)) {
		t.Fatalf("%s %s was refused but changed the state", p, js(a))
	}
}

// sameState compares two states through every seat's view and the hidden
// parts that views do not show.
func sameState(a, b *state) bool {
	for p := engine.Seat(-1); int(p) < a.n; p++ {
		if js(a.View(p)) != js(b.View(p)) {
			return false
		}
	}
	return slices.Equal(a.deck, b.deck) && slices.Equal(a.pathDeck, b.pathDeck) && a.rng == b.rng
}

// submit lays a list for seat p, elapsed ms after the reveal.
func submit(t *testing.T, s *state, p engine.Seat, elapsed engine.Millis, list string) []engine.Event {
	t.Helper()
	return play(t, s, p, Submit{Cards: toks(t, list)}, s.at(elapsed))
}

// answer is the canonical correct list of seat p this run.
func answer(s *state, p engine.Seat) string { return listString(s.seats[p].Canonical) }

// submitCorrect lays seat p's canonical answer.
func submitCorrect(t *testing.T, s *state, p engine.Seat, elapsed engine.Millis) []engine.Event {
	t.Helper()
	return submit(t, s, p, elapsed, answer(s, p))
}

// positionsOf returns the seats' positions.
func positionsOf(s *state) []int {
	out := make([]int, s.n)
	for i := range s.seats {
		out[i] = s.seats[i].Pos
	}
	return out
}

func progressOf(s *state) []int {
	out := make([]int, s.n)
	for i := range s.seats {
		out[i] = s.seats[i].Progress
	}
	return out
}

// eventsOf returns the bodies of the events of one kind, in order. Event
// bodies are pointers (*T).
func eventsOf[T any, P interface {
	*T
	engine.EventBody
}](evs []engine.Event) []T {
	var out []T
	for _, e := range evs {
		if b, ok := e.Body.(P); ok {
			out = append(out, *b)
		}
	}
	return out
}

// drawOrder returns the seats that drew, in order (public events only).
func drawOrder(evs []engine.Event) []engine.Seat {
	var out []engine.Seat
	for _, e := range evs {
		switch b := e.Body.(type) {
		case *Drew:
			if e.To.Sees(engine.Spectator) {
				out = append(out, b.Seat)
			}
		case *DrewFaceUp:
			out = append(out, engine.Seat(b.Seat))
		}
	}
	return out
}

// turnOf opens seat p's interference turn with the given round order.
func (s *state) turnOf(p engine.Seat, order ...engine.Seat) {
	s.order = order
	s.turn = slices.Index(order, p)
	s.phase, s.phaseAt = PhaseInterferenceTurn, s.revealAt
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
		return "<" + err.Error() + ">"
	}
	return string(b)
}

func seats(ss ...engine.Seat) []engine.Seat { return ss }

func botSeating(p engine.Seat, seed uint64) bot.Seating {
	return bot.Seating{Seat: p, Players: 2, Seed: seed}
}
