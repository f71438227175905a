// Package testgames holds tiny games made for tests of the code that runs
// games (the conformance suite, the simulator, the match server): Draw, a
// turn-based card game with hidden hands into which a known bug can be
// planted, and Taps, a real-time game with deadlines. They are not games for
// players and are never registered.
package testgames

import (
	"math/rand/v2"
	"slices"

	"sortie/engine"
)

// Draw is a tiny card game for tests: seats
// take turns drawing a hidden card from a shuffled deck or stopping; after six
// draws or two stops in a row the highest hand wins. Each flaw below plants
// one bug that the suite must catch.
// Flaw is a bug planted in Draw, to prove that a test catches it.
type Flaw int

const (
	Sound            Flaw = iota
	LeakyView             // the view shows the top of the deck
	LeakyEvent            // everyone is told which card was drawn
	OutOfTurn             // a seat that may not act may still draw
	DirtyRefusal          // a refused action changes the state
	SharedClone           // Clone shares the hands with the original
	Nondeterministic      // the first player comes from a global source
	Endless               // the game never ends
	RatedEarly            // the rated result is told before the end
	RatedUpsideDown       // the rated result ranks the seats the other way round
	PeekingSampler        // Determinize (of SampledDraw) keeps the deck and the other hands as they are
)

// Draw is the game; its zero value is sound.
type Draw struct{ Flaw Flaw }

var globalRand = rand.New(rand.NewPCG(1, 2))

// Info describes Draw: 2 or 3 players, a deck of 8 or 9 cards.
func (g Draw) Info() engine.Info {
	return engine.Info{
		ID: "draw", Name: engine.Text{"en": "Draw", "fr": "Pioche"}, MinPlayers: 2, MaxPlayers: 3,
		Timing: engine.TurnBased, MaxActions: 20,
		Options: []engine.Option{{Key: "deck", Kind: engine.Int, Default: "8", Min: 8, Max: 9}},
	}
}

// New shuffles the deck; the first player is seat 0 (unless the flaw
// says otherwise).
func (g Draw) New(s engine.Setup) (engine.State, error) {
	opts, err := g.Info().Check(s)
	if err != nil {
		return nil, err
	}
	st := &drawState{flaw: g.Flaw, rng: engine.NewRNG(s.Seed), hands: make([][]int, s.Players)}
	for c := 1; c <= opts.Int("deck"); c++ {
		st.deck = append(st.deck, c)
	}
	st.rng.Shuffle(len(st.deck), func(i, j int) { st.deck[i], st.deck[j] = st.deck[j], st.deck[i] })
	if g.Flaw == Nondeterministic {
		st.turn = engine.Seat(globalRand.IntN(s.Players))
	}
	return st, nil
}

// DrawAction is Draw's one action: draw a card, or stop.
type DrawAction struct {
	Stop bool `json:"-"`
}

// Kind is "draw" or "stop".
func (a DrawAction) Kind() string {
	if a.Stop {
		return "stop"
	}
	return "draw"
}

// DecodeAction reads {"type":"draw"} or {"type":"stop"}.
func (g Draw) DecodeAction(b []byte) (engine.Action, error) {
	var kind string
	_, err := engine.DecodeTyped(b, func(k string) (any, bool) {
		kind = k
		return &struct{}{}, k == "draw" || k == "stop"
	})
	if err != nil {
		return nil, err
	}
	return DrawAction{Stop: kind == "stop"}, nil
}

type drawn struct {
	Seat engine.Seat `json:"seat"`
	Card int         `json:"card,omitempty"`
}

func (drawn) Kind() string { return "drawn" }

type drawState struct {
	flaw  Flaw
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
		return []engine.Action{DrawAction{Stop: true}}
	}
	return []engine.Action{DrawAction{}, DrawAction{Stop: true}}
}

func (s *drawState) Apply(p engine.Seat, a engine.Action, _ engine.Millis) ([]engine.Event, error) {
	if s.over {
		return nil, engine.GameOver()
	}
	if s.flaw == DirtyRefusal && p != s.turn {
		s.draws++
	}
	if p != s.turn && !(s.flaw == OutOfTurn && p >= 0) {
		return nil, engine.NotYourTurn(p)
	}
	act, ok := a.(DrawAction)
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
		if s.flaw == LeakyEvent {
			evs = append(evs, engine.Tell(drawn{p, c}))
		} else {
			evs = append(evs, engine.TellOnly(drawn{p, c}, p), engine.Event{To: engine.AllBut(p, n), Body: drawn{Seat: p}})
		}
	}
	s.turn = (p + 1) % engine.Seat(n)
	if s.flaw != Endless && (s.draws == 6 || s.stops == 2) {
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
	if s.flaw == LeakyView {
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
	return engine.OutcomeFromScores(scores, ""), true
}

// RatedResult: every seat for itself, ranked as the outcome ranks it.
func (s *drawState) RatedResult() (engine.Result, bool) {
	o, over := s.Outcome()
	if !over && s.flaw == RatedEarly && s.draws > 0 {
		o, over = engine.OutcomeFromScores(make([]int, len(s.hands)), ""), true
	}
	if !over {
		return engine.Result{Family: engine.FreeForAll}, false
	}
	r := engine.FreeForAllResult(o, "")
	if s.flaw == RatedUpsideDown {
		for i := range r.Sides {
			r.Sides[i].Rank = len(r.Sides) + 1 - r.Sides[i].Rank
		}
	}
	return r, true
}

func (s *drawState) Clone() engine.State {
	c := *s
	c.deck = slices.Clone(s.deck)
	if s.flaw == SharedClone {
		return &c
	}
	c.hands = make([][]int, len(s.hands))
	for i, h := range s.hands {
		c.hands[i] = slices.Clone(h)
	}
	return &c
}

// SampledDraw is Draw made searchable: its states can be determinized, so
// that search bots and hints can play it.
type SampledDraw struct{ Draw }

// New sets up a match of Draw whose states can be determinized.
func (g SampledDraw) New(s engine.Setup) (engine.State, error) {
	st, err := g.Draw.New(s)
	if err != nil {
		return nil, err
	}
	return &sampledState{st.(*drawState)}, nil
}

type sampledState struct{ *drawState }

func (s *sampledState) Clone() engine.State { return &sampledState{s.drawState.Clone().(*drawState)} }

// Determinize deals the deck and the hands p may not see anew from r,
// keeping their sizes. The unseen cards are sorted first, so that the copy
// depends on p's view and r alone (what a fair hint needs); with the flaw
// PeekingSampler it keeps them where they are, as a sampler that peeks
// would.
func (st *sampledState) Determinize(p engine.Seat, r *rand.Rand) engine.State {
	s := st.drawState
	c := *s // (a copy of its own, whatever flaw Clone has)
	c.deck = slices.Clone(s.deck)
	c.hands = make([][]int, len(s.hands))
	for i, h := range s.hands {
		c.hands[i] = slices.Clone(h)
	}
	c.rng = engine.NewRNG(r.Uint64())
	if s.flaw == PeekingSampler || s.over {
		return &sampledState{&c}
	}
	pool := slices.Clone(c.deck)
	for q, h := range c.hands {
		if engine.Seat(q) != p {
			pool = append(pool, h...)
		}
	}
	slices.Sort(pool)
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	c.deck, pool = pool[:len(c.deck)], pool[len(c.deck):]
	for q := range c.hands {
		if engine.Seat(q) != p {
			c.hands[q], pool = slices.Clone(pool[:len(c.hands[q])]), pool[len(c.hands[q]):]
		}
	}
	return &sampledState{&c}
}

// PerturbDraw shuffles the deck with the hands p may not see, keeping the sizes.
func PerturbDraw(st engine.State, p engine.Seat, r *rand.Rand) engine.State {
	if ss, ok := st.(*sampledState); ok {
		return &sampledState{PerturbDraw(ss.drawState, p, r).(*drawState)}
	}
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
