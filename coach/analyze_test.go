package coach_test

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"

	"sortie/bot"
	"sortie/coach"
	"sortie/engine"
)

// odds is a one-decision game made to test analyses: seat 0 picks one of
// four doors, then a die rolled from the state's generator (which the
// sampler reseeds: the future is unknown) says whether it escapes. Door k
// lets it out with chance chances[k]; seat 1 wins otherwise. The best door
// is 2, then 1, 3 and 0.
type odds struct{}

var chances = []float64{0.2, 0.5, 0.8, 0.35}

func (odds) Info() engine.Info {
	return engine.Info{ID: "odds", Name: engine.Text{"en": "Odds", "fr": "Chances"}, MinPlayers: 2, MaxPlayers: 2,
		Timing: engine.TurnBased, MaxActions: 2}
}

func (odds) New(s engine.Setup) (engine.State, error) {
	return &oddsState{rng: engine.NewRNG(s.Seed)}, nil
}

func (odds) DecodeAction(b []byte) (engine.Action, error) {
	v, err := engine.DecodeTyped(b, func(k string) (any, bool) { return &door{}, k == "door" })
	if err != nil {
		return nil, err
	}
	return *v.(*door), nil
}

type door struct {
	N int `json:"n"`
}

func (door) Kind() string { return "door" }

type oddsState struct {
	rng  engine.RNG
	over bool
	out  bool
}

func (s *oddsState) Actors() []engine.Seat {
	if s.over {
		return nil
	}
	return []engine.Seat{0}
}

func (s *oddsState) Legal(p engine.Seat) []engine.Action {
	if s.over || p != 0 {
		return nil
	}
	return []engine.Action{door{0}, door{1}, door{2}, door{3}}
}

func (s *oddsState) Apply(p engine.Seat, a engine.Action, _ engine.Millis) ([]engine.Event, error) {
	d, ok := a.(door)
	if s.over || p != 0 || !ok || d.N < 0 || d.N > 3 {
		return nil, engine.Refuse("no", "No.")
	}
	s.over = true
	s.out = float64(s.rng.IntN(1000)) < 1000*chances[d.N]
	return nil, nil
}

func (s *oddsState) Advance(engine.Millis) []engine.Event { return nil }
func (s *oddsState) Deadline() (engine.Millis, bool)      { return 0, false }
func (s *oddsState) View(engine.Seat) engine.View         { return s.over }
func (s *oddsState) Clone() engine.State                  { c := *s; return &c }

func (s *oddsState) Outcome() (engine.Outcome, bool) {
	if !s.over {
		return engine.Outcome{}, false
	}
	if s.out {
		return engine.OutcomeFromScores([]int{1, 0}, ""), true
	}
	return engine.OutcomeFromScores([]int{0, 1}, ""), true
}

func (s *oddsState) Determinize(_ engine.Seat, r *rand.Rand) engine.State {
	c := *s
	c.rng = engine.NewRNG(r.Uint64())
	return &c
}

func oddsPosition(t *testing.T) coach.Position {
	t.Helper()
	s, _ := odds{}.New(engine.Setup{Players: 2, Seed: 1})
	pos, ok := coach.At(odds{}, s, 0, 2, nil, 0)
	if !ok {
		t.Fatal("no position")
	}
	return pos
}

// Given doors whose chances are known, when the analysis plays them, then
// it puts the best first and finds each door's chance within its error.
func TestAnalysisFindsTheChances(t *testing.T) {
	a := coach.Analyze(oddsPosition(t), coach.Options{Rollouts: 4000, Top: 4, Seed: 3})
	want := []int{2, 1, 3, 0}
	for i, v := range a.Values {
		d := v.Action.(door).N
		if d != want[i] {
			t.Fatalf("door %d is %d-th; want the order %v: %+v", d, i+1, want, a.Values)
		}
		if math.Abs(v.Win-chances[d]) > 3*v.Err+0.01 || v.Err > 0.03 {
			t.Errorf("door %d: win chance %.3f ± %.3f, really %.2f", d, v.Win, v.Err, chances[d])
		}
		if v.Visits != 1000 {
			t.Errorf("door %d was played %d times, not 1,000 (every door kept)", d, v.Visits)
		}
	}
	if a.Rollouts != 4000 || a.Cut {
		t.Fatalf("%d rollouts (cut: %v), not 4,000", a.Rollouts, a.Cut)
	}
}

// Given the same seed and budget, the analysis gives the same answer; with
// another seed, other draws.
func TestAnalysisIsDeterministic(t *testing.T) {
	pos := oddsPosition(t)
	a := coach.Analyze(pos, coach.Options{Rollouts: 300, Seed: 5})
	b := coach.Analyze(pos, coach.Options{Rollouts: 300, Seed: 5})
	c := coach.Analyze(pos, coach.Options{Rollouts: 300, Seed: 6})
	for i := range a.Values {
		if a.Values[i] != b.Values[i] {
			t.Fatalf("two analyses with the same seed differ: %+v and %+v", a.Values, b.Values)
		}
	}
	same := true
	for i := range a.Values {
		same = same && a.Values[i] == c.Values[i]
	}
	if same {
		t.Fatal("another seed gave the very same rollouts")
	}
}

// Given a kept action (the move a player made), sequential halving drops
// the weaker doors but never that one, and the loss against the best is
// measured on the same samples: its error is far below either chance's.
func TestAnalysisKeepsThePlayedMove(t *testing.T) {
	a := coach.Analyze(oddsPosition(t), coach.Options{Rollouts: 2000, Top: 1, Keep: []engine.Action{door{0}}, Seed: 7})
	best := a.Best()
	played, _ := a.Find(door{0})
	if best.Action != (door{2}) {
		t.Fatalf("best %v, not door 2: %+v", best.Action, a.Values)
	}
	if played.Visits != best.Visits {
		t.Fatalf("the kept door was played %d times, the best %d: %+v", played.Visits, best.Visits, a.Values)
	}
	if v, _ := a.Find(door{3}); v.Visits >= best.Visits {
		t.Fatalf("door 3, neither kept nor among the best, was not dropped: %+v", a.Values)
	}
	loss, err, ok := a.Loss(door{0})
	if !ok || math.Abs(loss-0.6) > 3*err || err > 0.03 {
		t.Fatalf("loss %.3f ± %.3f (ok %v), really 0.60", loss, err, ok)
	}
	// Common random numbers: one die for every door of a sample, so a
	// door that lets out at 20% is out whenever the 80% one is not.
	if naive := math.Hypot(best.Err, played.Err); err >= naive {
		t.Errorf("the paired error %.4f is not below the unpaired %.4f", err, naive)
	}
	if _, _, ok := a.Loss(door{9}); ok {
		t.Fatal("a loss for an action that was no candidate")
	}
}

// Given a wall-time budget far below the rollouts', the analysis stops in
// time and says it was cut.
func TestAnalysisKeepsItsWallTime(t *testing.T) {
	pos := oddsPosition(t)
	slow := pos.Sample
	pos.Sample = func(r *rand.Rand) engine.State { time.Sleep(time.Millisecond); return slow(r) }
	start := time.Now()
	a := coach.Analyze(pos, coach.Options{Rollouts: 1 << 20, Wall: 30 * time.Millisecond})
	if el := time.Since(start); el > 300*time.Millisecond || !a.Cut || a.Rollouts == 0 {
		t.Fatalf("%d rollouts in %v (cut: %v) with 30 ms", a.Rollouts, el, a.Cut)
	}
}

// Given a single legal action, the analysis plays nothing.
func TestAnalysisOfAForcedMove(t *testing.T) {
	pos := oddsPosition(t)
	pos.Legal = pos.Legal[:1]
	a := coach.Analyze(pos, coach.Options{})
	if a.Rollouts != 0 || len(a.Values) != 1 || a.Best().Action != (door{0}) {
		t.Fatalf("%+v", a)
	}
}

// Given the coach as a bot, it takes the best door far more often than a
// random bot would.
func TestCoachPolicyPlaysTheBestDoor(t *testing.T) {
	b := coach.Policy{Options: coach.Options{Rollouts: 400}}.NewBot(odds{}, bot.Seating{Seat: 0, Players: 2, Seed: 3})
	for seed := range uint64(10) {
		s, _ := odds{}.New(engine.Setup{Players: 2, Seed: seed})
		if d := bot.Ask(b, s, 0, s.Legal(0), 0); d.Action != (door{2}) {
			t.Fatalf("seed %d: the coach played %v", seed, d.Action)
		}
	}
}
