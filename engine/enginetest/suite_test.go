package enginetest_test

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"sortie/engine"
	"sortie/engine/enginetest"
)

// The suite's own tests play "Draw", a tiny card game made for them: seats
// take turns drawing a hidden card from a shuffled deck or stopping; after six
// draws or two stops in a row the highest hand wins. Each flaw below plants
// one bug that the suite must catch.
type flaw int

const (
	sound            flaw = iota
	leakyView             // the view shows the top of the deck
	leakyEvent            // everyone is told which card was drawn
	outOfTurn             // a seat that may not act may still draw
	dirtyRefusal          // a refused action changes the state
	sharedClone           // Clone shares the hands with the original
	nondeterministic      // the first player comes from a global source
	endless               // the game never ends
)

type drawGame struct{ flaw flaw }

var globalRand = rand.New(rand.NewPCG(1, 2))

func (g drawGame) Info() engine.Info {
	return engine.Info{
		ID: "draw", Name: engine.Text{"en": "Draw", "fr": "Pioche"}, MinPlayers: 2, MaxPlayers: 3,
		Timing: engine.TurnBased, MaxActions: 20,
		Options: []engine.Option{{Key: "deck", Kind: engine.Int, Default: "8", Min: 8, Max: 9}},
	}
}

func (g drawGame) New(s engine.Setup) (engine.State, error) {
	opts, err := g.Info().Check(s)
	if err != nil {
		return nil, err
	}
	st := &drawState{flaw: g.flaw, rng: engine.NewRNG(s.Seed), hands: make([][]int, s.Players)}
	for c := 1; c <= opts.Int("deck"); c++ {
		st.deck = append(st.deck, c)
	}
	st.rng.Shuffle(len(st.deck), func(i, j int) { st.deck[i], st.deck[j] = st.deck[j], st.deck[i] })
	if g.flaw == nondeterministic {
		st.turn = engine.Seat(globalRand.IntN(s.Players))
	}
	return st, nil
}

type drawAction struct {
	Stop bool `json:"-"`
}

func (a drawAction) Kind() string {
	if a.Stop {
		return "stop"
	}
	return "draw"
}

func (g drawGame) DecodeAction(b []byte) (engine.Action, error) {
	v, err := engine.DecodeTyped(b, func(kind string) (any, bool) {
		switch kind {
		case "draw":
			return &struct{}{}, true
		case "stop":
			return &struct{}{}, true
		}
		return nil, false
	})
	if err != nil {
		return nil, err
	}
	_ = v
	if strings.Contains(string(b), `"stop"`) {
		return drawAction{Stop: true}, nil
	}
	return drawAction{}, nil
}

type drawn struct {
	Seat engine.Seat `json:"seat"`
	Card int         `json:"card,omitempty"`
}

func (drawn) Kind() string { return "drawn" }

type drawState struct {
	flaw  flaw
	rng   engine.RNG
	deck  []int
	hands [][]int
	turn  engine.Seat
	draws int
	stops int
	over  bool
}

func (s *drawState) Actors() []engine.Seat {
	if s.over {
		return nil
	}
	return []engine.Seat{s.turn}
}

func (s *drawState) Legal(p engine.Seat) []engine.Action {
	if s.over || p != s.turn {
		return nil
	}
	if len(s.deck) == 0 {
		return []engine.Action{drawAction{Stop: true}}
	}
	return []engine.Action{drawAction{}, drawAction{Stop: true}}
}

func (s *drawState) Apply(p engine.Seat, a engine.Action, _ engine.Millis) ([]engine.Event, error) {
	if s.over {
		return nil, engine.GameOver()
	}
	if s.flaw == dirtyRefusal && p != s.turn {
		s.draws++
	}
	if p != s.turn && !(s.flaw == outOfTurn && p >= 0) {
		return nil, engine.NotYourTurn(p)
	}
	act, ok := a.(drawAction)
	if !ok {
		return nil, engine.Refuse(engine.CodeMalformed, "not an action of Draw")
	}
	n := len(s.hands)
	var evs []engine.Event
	if !act.Stop && len(s.deck) == 0 {
		return nil, engine.Refuse("deck_empty", "The deck is empty.")
	}
	if act.Stop {
		s.stops++
	} else {
		c := s.deck[0]
		s.deck = s.deck[1:]
		s.hands[p] = append(s.hands[p], c)
		s.draws++
		s.stops = 0
		if s.flaw == leakyEvent {
			evs = append(evs, engine.Tell(drawn{p, c}))
		} else {
			evs = append(evs, engine.TellOnly(drawn{p, c}, p), engine.Event{To: engine.AllBut(p, n), Body: drawn{Seat: p}})
		}
	}
	s.turn = (p + 1) % engine.Seat(n)
	if s.flaw != endless && (s.draws == 6 || s.stops == 2) {
		s.over = true
	}
	return evs, nil
}

func (s *drawState) Advance(engine.Millis) []engine.Event { return nil }
func (s *drawState) Deadline() (engine.Millis, bool)      { return 0, false }

type drawView struct {
	Hand      []int `json:"hand,omitempty"`
	HandSizes []int `json:"hand_sizes"`
	Deck      int   `json:"deck"`
	Top       int   `json:"top,omitempty"`
	Turn      int   `json:"turn"`
}

func (s *drawState) View(p engine.Seat) engine.View {
	v := drawView{Deck: len(s.deck), Turn: int(s.turn)}
	for q, h := range s.hands {
		v.HandSizes = append(v.HandSizes, len(h))
		if engine.Seat(q) == p || s.over {
			v.Hand = append(v.Hand, h...)
		}
	}
	if s.flaw == leakyView {
		v.Top = s.deck[0]
	}
	return v
}

func (s *drawState) Outcome() (engine.Outcome, bool) {
	if !s.over {
		return engine.Outcome{}, false
	}
	scores := make([]int, len(s.hands))
	for p, h := range s.hands {
		for _, c := range h {
			scores[p] += c
		}
	}
	ranks := engine.RanksFromScores(scores)
	var w []engine.Seat
	for p, r := range ranks {
		if r == 1 {
			w = append(w, engine.Seat(p))
		}
	}
	return engine.Outcome{Winners: w, Ranks: ranks, Scores: scores}, true
}

func (s *drawState) Clone() engine.State {
	c := *s
	c.deck = slices.Clone(s.deck)
	if s.flaw == sharedClone {
		return &c
	}
	c.hands = make([][]int, len(s.hands))
	for i, h := range s.hands {
		c.hands[i] = slices.Clone(h)
	}
	return &c
}

// perturb shuffles the deck with the hands p may not see, keeping the sizes.
func perturb(st engine.State, p engine.Seat, r *rand.Rand) engine.State {
	s := st.Clone().(*drawState)
	pool := slices.Clone(s.deck)
	for q, h := range s.hands {
		if engine.Seat(q) != p {
			pool = append(pool, h...)
		}
	}
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	s.deck, pool = pool[:len(s.deck)], pool[len(s.deck):]
	for q := range s.hands {
		if engine.Seat(q) != p {
			s.hands[q], pool = slices.Clone(pool[:len(s.hands[q])]), pool[len(s.hands[q]):]
		}
	}
	return s
}

func harness(f flaw) enginetest.Harness {
	return enginetest.Harness{
		Game: drawGame{flaw: f}, Playouts: 50, Perturb: perturb,
		RandomAction: func(r *rand.Rand) engine.Action { return drawAction{Stop: r.IntN(2) == 0} },
	}
}

func TestSoundGamePasses(t *testing.T) {
	enginetest.Run(t, harness(sound))
}

// TestSuiteCatchesFlaws plants one bug at a time and expects the suite to
// name it.
func TestSuiteCatchesFlaws(t *testing.T) {
	for _, c := range []struct {
		name string
		flaw flaw
		want string
	}{
		{"a view that leaks the deck", leakyView, "leak: the view"},
		{"an event that leaks a drawn card", leakyEvent, "leak: the events"},
		{"an action out of turn", outOfTurn, "may not act"},
		{"a refusal that changes the state", dirtyRefusal, "changed the state"},
		{"a clone that shares memory", sharedClone, "Clone"},
		{"a global random source", nondeterministic, "nondeterminism"},
		{"a game that never ends", endless, "MaxActions"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := enginetest.Check(harness(c.flaw))
			if err == nil {
				t.Fatalf("the suite passed a game with %s", c.name)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("the suite failed, but not on %q: %v", c.want, err)
			}
			t.Logf("caught: %v", err)
		})
	}
}
