package coach_test

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"testing"

	"sortie/coach"
	"sortie/engine"
)

// keys is a test game of three decisions: in each round seat 0 picks a
// door (the chances of odds), and a die of the state's generator says
// whether a key lies behind it; two keys of three win. Seat 1 never moves.
type keys struct{ odds }

func (keys) Info() engine.Info {
	return engine.Info{ID: "keys", Name: engine.Text{"en": "Keys", "fr": "Clés"}, MinPlayers: 2, MaxPlayers: 2,
		Timing: engine.TurnBased, MaxActions: 4}
}

func (keys) New(s engine.Setup) (engine.State, error) {
	return &keysState{rng: engine.NewRNG(s.Seed)}, nil
}

type keysState struct {
	rng         engine.RNG
	round, keys int
}

func (s *keysState) Actors() []engine.Seat {
	if s.round == 3 {
		return nil
	}
	return []engine.Seat{0}
}

func (s *keysState) Legal(p engine.Seat) []engine.Action {
	if s.round == 3 || p != 0 {
		return nil
	}
	return []engine.Action{door{0}, door{1}, door{2}, door{3}}
}

func (s *keysState) Apply(p engine.Seat, a engine.Action, _ engine.Millis) ([]engine.Event, error) {
	d, ok := a.(door)
	if s.round == 3 || p != 0 || !ok || d.N < 0 || d.N > 3 {
		return nil, engine.Refuse("no", "No.")
	}
	s.round++
	if float64(s.rng.IntN(1000)) < 1000*chances[d.N] {
		s.keys++
	}
	return nil, nil
}

func (s *keysState) Advance(engine.Millis) []engine.Event { return nil }
func (s *keysState) Deadline() (engine.Millis, bool)      { return 0, false }
func (s *keysState) View(engine.Seat) engine.View         { return [2]int{s.round, s.keys} }
func (s *keysState) Clone() engine.State                  { c := *s; return &c }

func (s *keysState) Outcome() (engine.Outcome, bool) {
	if s.round < 3 {
		return engine.Outcome{}, false
	}
	if s.keys >= 2 {
		return engine.OutcomeFromScores([]int{1, 0}, ""), true
	}
	return engine.OutcomeFromScores([]int{0, 1}, ""), true
}

func (s *keysState) Determinize(_ engine.Seat, r *rand.Rand) engine.State {
	c := *s
	c.rng = engine.NewRNG(r.Uint64())
	return &c
}

// playKeys plays the doors given and returns the log.
func playKeys(t *testing.T, seed uint64, doors ...int) []engine.Record {
	t.Helper()
	var log []engine.Record
	s, _ := keys{}.New(engine.Setup{Players: 2, Seed: seed})
	for _, d := range doors {
		r := engine.Record{Seat: 0, Action: door{d}}
		if _, err := engine.Play(s, r); err != nil {
			t.Fatal(err)
		}
		log = append(log, r)
	}
	return log
}

// Given a seat that takes the best door, then the worst, then a fair one,
// the review calls the first best, the second a blunder and the third an
// inaccuracy or worse, and asks to try the blunder again.
func TestReviewBandsTheDecisions(t *testing.T) {
	log := playKeys(t, 4, 2, 0, 3)
	rvs, err := coach.ReviewMatch(keys{}, engine.Setup{Players: 2, Seed: 4}, log, []engine.Seat{0}, coach.ReviewOptions{Rollouts: 800, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	rv := rvs[0]
	if len(rv.Decisions) != 3 {
		t.Fatalf("%d decisions, not 3", len(rv.Decisions))
	}
	want := []string{coach.BandBest, coach.BandBlunder}
	for i, d := range rv.Decisions[:2] {
		if d.Band != want[i] {
			t.Errorf("decision %d (record %d) is %s (loss %.1f ± %.1f), not %s", i+1, d.Seq, d.Band, d.Loss, d.Err, want[i])
		}
	}
	if third := rv.Decisions[2]; !coach.Flagged(third.Band) || !third.Rechecked {
		t.Errorf("the third door (35%% against 80%%) is %s (loss %.1f ± %.1f, searched again: %v)", third.Band, third.Loss, third.Err, third.Rechecked)
	}
	blunder := rv.Decisions[1]
	var best door
	json.Unmarshal(blunder.Best, &best)
	if best.N != 2 || !blunder.Rechecked || len(blunder.Choices) != 4 {
		t.Errorf("the blunder's best door is %d (searched again: %v, %d choices)", best.N, blunder.Rechecked, len(blunder.Choices))
	}
	if len(rv.Learn) == 0 || rv.Learn[0] != 2 {
		t.Errorf("to try again: %v, not the blunder at record 2 first", rv.Learn)
	}
	if rv.Accuracy >= 80 || rv.Accuracy <= 20 {
		t.Errorf("accuracy %.1f for one best move, a blunder and a mistake", rv.Accuracy)
	}
	if got := rv.Start - rv.Lost/100 + rv.Luck/100; math.Abs(got-rv.Result) > 0.002 {
		t.Errorf("start %.3f less lost %.1f plus luck %.1f is %.3f, not the result %.0f", rv.Start, rv.Lost, rv.Luck, got, rv.Result)
	}
	if n := len(rv.Series); n != 7 || rv.Series[n-1].Win != rv.Result || rv.Series[0].Seq != 0 {
		t.Errorf("series %+v", rv.Series)
	}
	if len(rv.Key) == 0 || len(rv.Key) > 3 {
		t.Errorf("key moments %+v", rv.Key)
	}
}

// Given the same match, the same options give the same review.
func TestReviewIsDeterministic(t *testing.T) {
	log := playKeys(t, 5, 1, 2, 0)
	o := coach.ReviewOptions{Rollouts: 100, Seed: 9}
	a, _ := coach.ReviewMatch(keys{}, engine.Setup{Players: 2, Seed: 5}, log, []engine.Seat{0}, o)
	b, _ := coach.ReviewMatch(keys{}, engine.Setup{Players: 2, Seed: 5}, log, []engine.Seat{0}, o)
	a[0].Elapsed, b[0].Elapsed = 0, 0
	ja, _ := json.Marshal(a[0])
	jb, _ := json.Marshal(b[0])
	if string(ja) != string(jb) {
		t.Fatalf("two reviews differ:\n%s\n%s", ja, jb)
	}
}

// Given a match that is not over, or a seat the match has not, the review
// says so.
func TestReviewRefusesWhatItCannotReview(t *testing.T) {
	log := playKeys(t, 5, 1, 2)
	if _, err := coach.ReviewMatch(keys{}, engine.Setup{Players: 2, Seed: 5}, log, []engine.Seat{0}, coach.ReviewOptions{Rollouts: 20}); err == nil {
		t.Fatal("a match under way was reviewed")
	}
	if _, err := coach.ReviewMatch(keys{}, engine.Setup{Players: 2, Seed: 5}, playKeys(t, 5, 1, 2, 3), []engine.Seat{2}, coach.ReviewOptions{}); err == nil {
		t.Fatal("seat 2 of two was reviewed")
	}
}

func TestBands(t *testing.T) {
	for _, c := range []struct {
		loss, err float64
		want      string
	}{
		{0, 0, coach.BandBest}, {1.9, 0, coach.BandBest}, {3, 0.5, coach.BandGood}, {7, 1, coach.BandInaccuracy},
		{7, 4, coach.BandGood}, {12, 2, coach.BandMistake}, {25, 3, coach.BandBlunder}, {25, 13, coach.BandGood},
	} {
		if got := coach.Band(c.loss, c.err); got != c.want {
			t.Errorf("Band(%v, %v) = %s, want %s", c.loss, c.err, got, c.want)
		}
	}
	if a := coach.MoveAccuracy(0); a != 100 {
		t.Errorf("the best move's accuracy is %v", a)
	}
	if a := coach.MoveAccuracy(20); a < 35 || a > 45 {
		t.Errorf("a 20-point loss's accuracy is %v", a)
	}
}

// Given a seat's decisions, the review's accuracy takes them as lichess
// takes a game's moves: a blunder where the match was at stake costs more
// than the plain mean says, and one made where nothing moved any more
// costs less than that one.
func TestGameAccuracy(t *testing.T) {
	flat := func(n int, at float64) []float64 {
		w := make([]float64, n)
		for i := range w {
			w[i] = at
		}
		return w
	}
	accs := flat(20, 100)
	if a := coach.GameAccuracy(accs, flat(21, 50)); a != 100 {
		t.Errorf("twenty best moves: accuracy %v", a)
	}
	if a := coach.GameAccuracy(nil, []float64{100}); a != 100 {
		t.Errorf("no decision: accuracy %v", a)
	}
	// One blunder (accuracy 40) in the middle of twenty decisions.
	accs[10] = 40
	plain := (19*100 + 40) / 20.0
	swing := flat(21, 60)
	for i := 11; i < 21; i++ {
		swing[i] = 20 // the blunder threw the match away
	}
	atStake := coach.GameAccuracy(accs, swing)
	if atStake >= plain {
		t.Errorf("a blunder that lost the match: accuracy %.1f, the plain mean is %.1f", atStake, plain)
	}
	// The same blunder where the match was already lost.
	accs[10], accs[3] = 100, 40
	swing = flat(21, 60)
	for i := 3; i < 21; i++ {
		swing[i] = 0
	}
	swing[3] = 60
	early := coach.GameAccuracy(accs, swing)
	accs[3], accs[15] = 100, 40
	late := coach.GameAccuracy(accs, swing)
	if late <= early {
		t.Errorf("a blunder once the match was lost (accuracy %.1f) weighs as much as the one that lost it (%.1f)", late, early)
	}
}
