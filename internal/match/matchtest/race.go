package matchtest

import (
	"fmt"
	"slices"

	"sortie/engine"
)

// Race is a real-time game: every seat steps forward as fast as it can (with
// a short cooldown after each step) until one reaches the goal or the gong
// ends the race. A bell rings every second, and with it each seat is whispered
// a secret number that only it hears; each seat also holds a secret lucky
// number. Both are revealed at the end.
type Race struct{}

// Race's timing, in match milliseconds.
const (
	RaceCooldown engine.Millis = 300
	RaceBell     engine.Millis = 1000
)

// Info describes Race.
func (Race) Info() engine.Info {
	return engine.Info{
		ID: "testrace", Name: engine.Text{"en": "Test race", "fr": "Course de test"},
		Summary:    engine.Text{"en": "A real-time test game.", "fr": "Un jeu de test en temps réel."},
		MinPlayers: 1, MaxPlayers: 4, Timing: engine.RealTime, MaxActions: 1000,
		Options: []engine.Option{
			{Key: "seconds", Name: engine.Text{"en": "Length", "fr": "Durée"}, Kind: engine.Int, Default: "10", Min: 2, Max: 600},
			{Key: "goal", Name: engine.Text{"en": "Goal", "fr": "But"}, Kind: engine.Int, Default: "15", Min: 1, Max: 100},
		},
	}
}

// Step moves the seat one step forward.
type Step struct{}

// Kind is "step".
func (Step) Kind() string { return "step" }

// Stepped is the public event of a step.
type Stepped struct {
	Seat engine.Seat `json:"seat"`
	At   int         `json:"at"`
}

// Kind is "stepped".
func (Stepped) Kind() string { return "stepped" }

// Bell rings every second.
type Bell struct {
	N int `json:"n"`
}

// Kind is "bell".
func (Bell) Kind() string { return "bell" }

// Whisper is a secret number told to one seat.
type Whisper struct {
	Number int `json:"number"`
}

// Kind is "whisper".
func (Whisper) Kind() string { return "whisper" }

// Gong ends the race.
type Gong struct{}

// Kind is "gong".
func (Gong) Kind() string { return "gong" }

// DecodeAction reads a Race action.
func (Race) DecodeAction(b []byte) (engine.Action, error) {
	v, err := engine.DecodeTyped(b, func(kind string) (any, bool) {
		if kind == "step" {
			return &Step{}, true
		}
		return nil, false
	})
	if err != nil {
		return nil, err
	}
	return *v.(*Step), nil
}

// RaceState is a Race match.
type RaceState struct {
	rng      engine.RNG
	now      engine.Millis
	end      engine.Millis
	goal     int
	bells    int
	pos      []int
	lucky    []int
	whispers []int
	ready    []engine.Millis // when each seat may step again
	over     bool
}

// New sets the race.
func (g Race) New(s engine.Setup) (engine.State, error) {
	opts, err := g.Info().Check(s)
	if err != nil {
		return nil, err
	}
	st := &RaceState{
		rng: engine.NewRNG(s.Seed), end: engine.Millis(opts.Int("seconds")) * 1000, goal: opts.Int("goal"),
		pos: make([]int, s.Players), lucky: make([]int, s.Players), whispers: make([]int, s.Players),
		ready: make([]engine.Millis, s.Players),
	}
	for p := range st.lucky {
		st.lucky[p] = 1 + st.rng.IntN(6)
	}
	return st, nil
}

// Actors is every seat while the race runs.
func (s *RaceState) Actors() []engine.Seat {
	if s.over {
		return nil
	}
	as := make([]engine.Seat, len(s.pos))
	for i := range as {
		as[i] = engine.Seat(i)
	}
	return as
}

// Legal is a step once the cooldown is over.
func (s *RaceState) Legal(p engine.Seat) []engine.Action {
	if s.over || p < 0 || int(p) >= len(s.pos) || s.now < s.ready[p] {
		return nil
	}
	return []engine.Action{Step{}}
}

// Apply steps.
func (s *RaceState) Apply(p engine.Seat, a engine.Action, at engine.Millis) ([]engine.Event, error) {
	if s.over {
		return nil, engine.GameOver()
	}
	if p < 0 || int(p) >= len(s.pos) {
		return nil, engine.NotYourTurn(p)
	}
	if _, ok := a.(Step); !ok {
		return nil, engine.Refuse(engine.CodeMalformed, "Unknown action %T.", a)
	}
	at = max(at, s.now)
	if at < s.ready[p] {
		return nil, engine.Refuse("cooling_down", "You must catch your breath until %d ms.", s.ready[p])
	}
	s.now = at
	s.pos[p]++
	s.ready[p] = at + RaceCooldown
	evs := []engine.Event{engine.Tell(Stepped{Seat: p, At: s.pos[p]})}
	if s.pos[p] >= s.goal {
		s.over = true
		evs = append(evs, engine.Tell(Gong{}))
	}
	return evs, nil
}

// Advance rings the bells that are due, and the gong.
func (s *RaceState) Advance(at engine.Millis) []engine.Event {
	if s.over || at <= s.now {
		return nil
	}
	var evs []engine.Event
	for !s.over {
		next := engine.Millis(s.bells+1) * RaceBell
		if s.end <= next {
			next = s.end
		}
		if next > at {
			break
		}
		s.now = next
		if next == s.end {
			s.over = true
			evs = append(evs, engine.Tell(Gong{}))
			break
		}
		s.bells++
		evs = append(evs, engine.Tell(Bell{N: s.bells}))
		for p := range s.whispers {
			s.whispers[p] = s.rng.IntN(1000)
			evs = append(evs, engine.TellOnly(Whisper{Number: s.whispers[p]}, engine.Seat(p)))
		}
	}
	s.now = max(s.now, at)
	return evs
}

// Deadline is the next bell or the gong.
func (s *RaceState) Deadline() (engine.Millis, bool) {
	if s.over {
		return 0, false
	}
	return min(engine.Millis(s.bells+1)*RaceBell, s.end), true
}

// RaceView is what a seat sees.
type RaceView struct {
	Now     engine.Millis `json:"now"`
	End     engine.Millis `json:"end"`
	Pos     []int         `json:"pos"`
	Bells   int           `json:"bells"`
	Lucky   int           `json:"lucky,omitempty"`
	Whisper int           `json:"whisper,omitempty"`
	Ready   engine.Millis `json:"ready,omitempty"`
	Over    bool          `json:"over"`
	// Revealed at the end.
	AllLucky []int `json:"all_lucky,omitempty"`
}

// View shows the seat its secrets and everything public.
func (s *RaceState) View(p engine.Seat) engine.View {
	v := RaceView{Now: s.now, End: s.end, Pos: slices.Clone(s.pos), Bells: s.bells, Over: s.over}
	if p >= 0 && int(p) < len(s.pos) {
		v.Lucky, v.Whisper, v.Ready = s.lucky[p], s.whispers[p], s.ready[p]
	}
	if s.over {
		v.AllLucky = slices.Clone(s.lucky)
	}
	return v
}

// Outcome ranks by position.
func (s *RaceState) Outcome() (engine.Outcome, bool) {
	if !s.over {
		return engine.Outcome{}, false
	}
	scores := slices.Clone(s.pos)
	return engine.OutcomeFromScores(scores, fmt.Sprintf("Positions %v", scores)), true
}

// Clone copies the state.
func (s *RaceState) Clone() engine.State {
	c := *s
	c.pos, c.lucky, c.whispers, c.ready = slices.Clone(s.pos), slices.Clone(s.lucky), slices.Clone(s.whispers), slices.Clone(s.ready)
	return &c
}

// Games returns both test games.
func Games() []engine.Game { return []engine.Game{Cards{}, Race{}} }
