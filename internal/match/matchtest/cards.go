// Package matchtest holds two small games made to test the match server
// before and beside the real ones: [Cards], turn-based with hidden hands and a
// hidden deck, and [Race], real-time with a countdown and private secrets —
// and [Logs], to count what a server logs. They are test fixtures, not games
// to play: nothing outside tests imports this package, and the server never
// does.
package matchtest

import (
	"fmt"
	"slices"

	"sortie/engine"
)

// Cards is a turn-based game: each seat holds a hidden hand dealt from a
// hidden shuffled deck; in turn, a seat plays a card face up (then draws one,
// seen only by itself) or, once per turn, discards its hand's lowest card
// face down. When every hand is empty the highest total of played cards
// wins.
type Cards struct{}

// Info describes Cards.
func (Cards) Info() engine.Info {
	return engine.Info{
		ID: "testcards", Name: engine.Text{"en": "Test cards", "fr": "Cartes de test"},
		Summary:    engine.Text{"en": "A test game with hidden hands.", "fr": "Un jeu de test aux mains cachées."},
		MinPlayers: 2, MaxPlayers: 4, Timing: engine.TurnBased, MaxActions: 200,
		Options: []engine.Option{{
			Key: "hand", Name: engine.Text{"en": "Hand size", "fr": "Taille de la main"},
			Kind: engine.Int, Default: "3", Min: 1, Max: 4,
		}},
	}
}

// Play plays a card of the hand face up.
type Play struct {
	Card int `json:"card"`
}

// Kind is "play".
func (Play) Kind() string { return "play" }

// Pass ends the turn without playing.
type Pass struct{}

// Kind is "pass".
func (Pass) Kind() string { return "pass" }

// Played is the public event of a card played.
type Played struct {
	Seat engine.Seat `json:"seat"`
	Card int         `json:"card"`
}

// Kind is "played".
func (Played) Kind() string { return "played" }

// Drew tells a seat which card it drew.
type Drew struct {
	Card int `json:"card"`
}

// Kind is "drew".
func (Drew) Kind() string { return "drew" }

// SomeoneDrew tells the others that a seat drew a card.
type SomeoneDrew struct {
	Seat engine.Seat `json:"seat"`
}

// Kind is "someone_drew".
func (SomeoneDrew) Kind() string { return "someone_drew" }

// Passed is the public event of a pass.
type Passed struct {
	Seat engine.Seat `json:"seat"`
}

// Kind is "passed".
func (Passed) Kind() string { return "passed" }

// DecodeAction reads a Cards action.
func (Cards) DecodeAction(b []byte) (engine.Action, error) {
	v, err := engine.DecodeTyped(b, func(kind string) (any, bool) {
		switch kind {
		case "play":
			return &Play{}, true
		case "pass":
			return &Pass{}, true
		}
		return nil, false
	})
	if err != nil {
		return nil, err
	}
	switch a := v.(type) {
	case *Play:
		return *a, nil
	case *Pass:
		return *a, nil
	}
	return nil, engine.Refuse(engine.CodeMalformed, "Unknown action.")
}

// maxPasses bounds the passes of a whole match, so that every match ends.
const maxPasses = 10

// CardsState is a Cards match.
type CardsState struct {
	rng    engine.RNG
	deck   []int
	hands  [][]int
	played [][]int
	passes int
	turn   engine.Seat
	over   bool
}

// New deals the hands.
func (g Cards) New(s engine.Setup) (engine.State, error) {
	opts, err := g.Info().Check(s)
	if err != nil {
		return nil, err
	}
	st := &CardsState{rng: engine.NewRNG(s.Seed)}
	for v := 1; v <= 12; v++ {
		st.deck = append(st.deck, v, v)
	}
	st.rng.Shuffle(len(st.deck), func(i, j int) { st.deck[i], st.deck[j] = st.deck[j], st.deck[i] })
	st.hands = make([][]int, s.Players)
	st.played = make([][]int, s.Players)
	for p := range s.Players {
		for range opts.Int("hand") {
			st.hands[p] = append(st.hands[p], st.draw())
		}
	}
	return st, nil
}

func (s *CardsState) draw() int {
	c := s.deck[len(s.deck)-1]
	s.deck = s.deck[:len(s.deck)-1]
	return c
}

// Actors is the seat in turn.
func (s *CardsState) Actors() []engine.Seat {
	if s.over {
		return nil
	}
	return []engine.Seat{s.turn}
}

// Legal lists the cards of the hand, and the pass.
func (s *CardsState) Legal(p engine.Seat) []engine.Action {
	if s.over || p != s.turn {
		return nil
	}
	var as []engine.Action
	for _, c := range s.hands[p] {
		as = append(as, Play{Card: c})
	}
	if len(s.deck) > 0 && s.passes < maxPasses {
		as = append(as, Pass{})
	}
	return as
}

// Apply plays an action.
func (s *CardsState) Apply(p engine.Seat, a engine.Action, _ engine.Millis) ([]engine.Event, error) {
	if s.over {
		return nil, engine.GameOver()
	}
	if p != s.turn {
		return nil, engine.NotYourTurn(p)
	}
	n := engine.Seat(len(s.hands))
	switch a := a.(type) {
	case Play:
		i := slices.Index(s.hands[p], a.Card)
		if i < 0 {
			return nil, engine.Refuse("not_in_hand", "You do not hold a %d.", a.Card)
		}
		s.hands[p] = slices.Delete(s.hands[p], i, i+1)
		s.played[p] = append(s.played[p], a.Card)
		evs := []engine.Event{engine.Tell(Played{Seat: p, Card: a.Card})}
		if len(s.deck) > 0 {
			c := s.draw()
			s.hands[p] = append(s.hands[p], c)
			evs = append(evs, engine.TellOnly(Drew{Card: c}, p),
				engine.Event{To: engine.AllBut(p, int(n)), Body: SomeoneDrew{Seat: p}})
		}
		s.next()
		return evs, nil
	case Pass:
		if len(s.deck) == 0 || s.passes >= maxPasses {
			return nil, engine.Refuse("no_pass", "You cannot pass once the deck is empty, nor more than %d times in all.", maxPasses)
		}
		s.passes++
		s.next()
		return []engine.Event{engine.Tell(Passed{Seat: p})}, nil
	}
	return nil, engine.Refuse(engine.CodeMalformed, "Unknown action %T.", a)
}

func (s *CardsState) next() {
	empty := true
	for _, h := range s.hands {
		if len(h) > 0 {
			empty = false
		}
	}
	if empty {
		s.over = true
		return
	}
	n := engine.Seat(len(s.hands))
	for {
		s.turn = (s.turn + 1) % n
		if len(s.hands[s.turn]) > 0 {
			return
		}
	}
}

// Advance does nothing: Cards has no clock.
func (s *CardsState) Advance(engine.Millis) []engine.Event { return nil }

// Deadline is never.
func (s *CardsState) Deadline() (engine.Millis, bool) { return 0, false }

// CardsView is what a seat sees.
type CardsView struct {
	Turn      engine.Seat `json:"turn"`
	Hand      []int       `json:"hand,omitempty"`
	HandSizes []int       `json:"hand_sizes"`
	Played    [][]int     `json:"played"`
	Deck      int         `json:"deck"`
	Over      bool        `json:"over"`
	// Hands are revealed at the end.
	Hands [][]int `json:"hands,omitempty"`
}

// View shows the seat its hand and everything public.
func (s *CardsState) View(p engine.Seat) engine.View {
	v := CardsView{Turn: s.turn, Deck: len(s.deck), Over: s.over}
	for i, h := range s.hands {
		v.HandSizes = append(v.HandSizes, len(h))
		v.Played = append(v.Played, slices.Clone(s.played[i]))
	}
	if p >= 0 && !s.over {
		v.Hand = slices.Clone(s.hands[p])
	}
	if s.over {
		for _, h := range s.hands {
			v.Hands = append(v.Hands, slices.Clone(h))
		}
	}
	return v
}

// Outcome ranks by total played.
func (s *CardsState) Outcome() (engine.Outcome, bool) {
	if !s.over {
		return engine.Outcome{}, false
	}
	scores := make([]int, len(s.played))
	for i, pl := range s.played {
		for _, c := range pl {
			scores[i] += c
		}
	}
	return engine.OutcomeFromScores(scores, fmt.Sprintf("Best total: %v", scores)), true
}

// Clone copies the state.
func (s *CardsState) Clone() engine.State {
	c := *s
	c.deck = slices.Clone(s.deck)
	c.hands = make([][]int, len(s.hands))
	c.played = make([][]int, len(s.played))
	for i := range s.hands {
		c.hands[i] = slices.Clone(s.hands[i])
		c.played[i] = slices.Clone(s.played[i])
	}
	return &c
}

// RatedResult says every seat plays for itself (engine.Rated).
func (s *CardsState) RatedResult() (engine.Result, bool) {
	o, over := s.Outcome()
	if !over {
		return engine.Result{Family: engine.FreeForAll}, false
	}
	return engine.FreeForAllResult(o, ""), true
}
