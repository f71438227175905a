package testgames

import (
	"slices"

	"sortie/engine"
)

// Taps is a tiny real-time game for tests: for ten seconds
// every seat may tap, at most once per half second; a gong sounds at five
// seconds; whoever tapped most wins.
// Taps is the game.
type Taps struct{}

// Info describes Taps: 1 to 3 players in real time.
func (Taps) Info() engine.Info {
	return engine.Info{
		ID: "taps", Name: engine.Text{"en": "Taps", "fr": "Tapes"}, MinPlayers: 1, MaxPlayers: 3,
		Timing: engine.RealTime, MaxActions: 200,
	}
}

// New starts a game at match time 0.
func (g Taps) New(s engine.Setup) (engine.State, error) {
	if _, err := g.Info().Check(s); err != nil {
		return nil, err
	}
	return &tapsState{taps: make([]int, s.Players), last: make([]engine.Millis, s.Players)}, nil
}

// Tap is Taps' one action.
type Tap struct{}

// Kind is "tap".
func (Tap) Kind() string { return "tap" }

// DecodeAction reads {"type":"tap"}.
func (Taps) DecodeAction(b []byte) (engine.Action, error) {
	_, err := engine.DecodeTyped(b, func(k string) (any, bool) { return &Tap{}, k == "tap" })
	if err != nil {
		return nil, err
	}
	return Tap{}, nil
}

type gong struct {
	At engine.Millis `json:"at"`
}

func (gong) Kind() string { return "gong" }

type tapsState struct {
	now   engine.Millis
	gong  bool
	over  bool
	taps  []int
	last  []engine.Millis
	count int
}

const (
	gongAt   = 5000
	endAt    = 10000
	cooldown = 500
)

func (s *tapsState) Actors() []engine.Seat {
	if s.over {
		return nil
	}
	var a []engine.Seat
	for p := range s.taps {
		a = append(a, engine.Seat(p))
	}
	return a
}

func (s *tapsState) Legal(p engine.Seat) []engine.Action {
	if s.over || p < 0 || int(p) >= len(s.taps) || (s.taps[p] > 0 && s.now-s.last[p] < cooldown) {
		return nil
	}
	return []engine.Action{Tap{}}
}

func (s *tapsState) Apply(p engine.Seat, a engine.Action, at engine.Millis) ([]engine.Event, error) {
	if s.over {
		return nil, engine.GameOver()
	}
	if !slices.ContainsFunc(s.Legal(p), func(b engine.Action) bool { return b == a }) {
		return nil, engine.Refuse("too_soon", "You may tap once every half second.")
	}
	s.taps[p]++
	s.last[p] = at
	s.count++
	return nil, nil
}

func (s *tapsState) Advance(at engine.Millis) []engine.Event {
	var evs []engine.Event
	if at <= s.now || s.over {
		return nil
	}
	if !s.gong && at >= gongAt {
		s.gong = true
		evs = append(evs, engine.Tell(gong{gongAt}))
	}
	if at >= endAt {
		s.over = true
		evs = append(evs, engine.Tell(gong{endAt}))
	}
	s.now = at
	return evs
}

func (s *tapsState) Deadline() (engine.Millis, bool) {
	switch {
	case s.over:
		return 0, false
	case !s.gong:
		return gongAt, true
	}
	return endAt, true
}

type tapsView struct {
	Now  engine.Millis `json:"now"`
	Taps []int         `json:"taps"`
}

func (s *tapsState) View(engine.Seat) engine.View {
	return tapsView{Now: s.now, Taps: slices.Clone(s.taps)}
}

func (s *tapsState) Outcome() (engine.Outcome, bool) {
	if !s.over {
		return engine.Outcome{}, false
	}
	return engine.OutcomeFromScores(slices.Clone(s.taps), ""), true
}

func (s *tapsState) Clone() engine.State {
	c := *s
	c.taps, c.last = slices.Clone(s.taps), slices.Clone(s.last)
	return &c
}
