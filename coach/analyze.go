package coach

import (
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"time"

	"sortie/bot"
	"sortie/engine"
)

// Position is a decision to analyse: a seat that may act, what it sees, its
// legal actions and a sampler of the match from its point of view.
type Position struct {
	Game    engine.Game
	Seat    engine.Seat
	Players int
	// Options are the match's options, for the bots that play the
	// rollouts.
	Options engine.Options
	// View is the seat's view now; Legal its legal actions (never empty).
	View  engine.View
	Legal []engine.Action
	// Now is the match time of the decision.
	Now engine.Millis
	// Sample draws a state the seat cannot tell from the real one (see
	// bot.Sampler); the analysis calls it as often as it likes.
	Sample bot.Sampler
	// Past are the events the seat was told since the match began, in
	// order, if the driver has them: the guides that remember what they
	// saw (bot.Observer) are told those their own seat saw too before each
	// rollout, as a bot that sat at the table from the start would have.
	Past []engine.Event
}

// At returns the position of seat p in state s, whose sampler draws
// s.Determinize(p, r): the one way a driver that holds the state (a match,
// a replay) hands it to an analysis, as bot.Ask does to a bot. The state is
// never read again once At returns, but through the samples drawn from it;
// it must not change while the analysis runs. It reports false when s
// cannot be determinized, or when p has no legal action.
func At(g engine.Game, s engine.State, p engine.Seat, players int, opts engine.Options, now engine.Millis) (Position, bool) {
	d, ok := s.(engine.Determinizer)
	legal := s.Legal(p)
	if !ok || len(legal) == 0 {
		return Position{}, false
	}
	return Position{
		Game: g, Seat: p, Players: players, Options: opts, View: s.View(p), Legal: legal, Now: now,
		Sample: func(r *rand.Rand) engine.State { return d.Determinize(p, r) },
	}, true
}

// Options tune an analysis. The zero value takes the defaults.
type Options struct {
	// Rollouts is the budget: how many playouts in all, over every
	// candidate ([DefaultRollouts] when zero).
	Rollouts int
	// Moves, if positive, also bounds the moves the rollouts play in all:
	// a budget of work that stays deterministic, since a rollout of a long
	// game (the Temple's ten minutes) costs many times one of a short one.
	Moves int
	// Wall, if positive, also bounds the analysis's wall time; the answer
	// then depends on the machine's speed (see [Analysis.Cut]).
	Wall time.Duration
	// Guide plays every seat in the rollouts: the game's "heuristic" when
	// nil, else uniformly random play.
	Guide bot.Policy
	// Horizon, if positive, cuts rollouts after that many moves; the state
	// reached is then judged by its bot.Evaluator (even for every seat
	// without one). Zero (the default) cuts them where the seat's next
	// turn begins in a game whose states judge a position, as Les Évadés's
	// hard bot does (a long race whose rollouts to the end say little
	// more than the noise of its draws), and plays them to the end
	// otherwise; [ToTheEnd] always plays them to the end.
	Horizon int
	// Seed seeds the analysis's own randomness.
	Seed uint64
	// Keep are actions never dropped before the end: the move a player
	// made, the one they asked about. They are candidates even where Legal
	// does not list them (a game whose Legal is a representative set).
	Keep []engine.Action
	// Top is how many actions at least are played until the end (3 when
	// zero): a hint shows the top three.
	Top int
	// MaxCandidates bounds the actions compared ([DefaultMaxCandidates]
	// when zero): beyond it, the guide's own choice, the kept actions and
	// others drawn at random.
	MaxCandidates int
}

// Defaults of [Options].
const (
	DefaultRollouts      = 1200
	DefaultTop           = 3
	DefaultMaxCandidates = 256
)

// A hint's analysis: its budget of rollouts, and the wall time that cuts
// it, which leaves a fifth of the second a hint may take to what a round
// of rollouts under way adds after the cut (a round plays every candidate
// once: Room 25's overshoot up to 0.2 s) and to rebuilding the position.
const (
	HintRollouts = DefaultRollouts
	HintWall     = 800 * time.Millisecond
)

// ToTheEnd is the [Options.Horizon] that plays every rollout to the end.
const ToTheEnd = -1

// Value is what an analysis found of one action.
type Value struct {
	Action engine.Action `json:"action"`
	// Visits is the number of rollouts that played it.
	Visits int `json:"visits"`
	// Win is the share of them the seat won (its team, in a co-operative
	// game): the action's win chance, between 0 and 1.
	Win float64 `json:"win"`
	// Err is the standard error of Win.
	Err float64 `json:"err"`
}

// MarshalJSON writes the value with its action's "type".
func (v Value) MarshalJSON() ([]byte, error) {
	a, err := engine.MarshalTyped(v.Action)
	if err != nil {
		return nil, err
	}
	return json.Marshal(struct {
		Action json.RawMessage `json:"action"`
		Visits int             `json:"visits"`
		Win    float64         `json:"win"`
		Err    float64         `json:"err"`
	}{a, v.Visits, v.Win, v.Err})
}

// Analysis is the answer of [Analyze].
type Analysis struct {
	Seat engine.Seat
	// Values are the candidates, best first: those played until the end
	// (the most visits) by their win chance, then those dropped earlier.
	Values []Value
	// Rollouts is how many playouts were played, Moves how many moves
	// they played in all; Elapsed how long it took.
	Rollouts int
	Moves    int
	Elapsed  time.Duration
	// Cut says that the wall-time budget ended the analysis before its
	// rollouts.
	Cut bool
	// Team says that the seat wins or loses with every other seat: in
	// every rollout that reached the end, all seats won or none did (a
	// co-operative game), so the win chance is the team's.
	Team bool

	wins [][]float32 // by candidate of Values, the win of each sample (NaN: not played on it)
}

// Best returns the best action's value.
func (a *Analysis) Best() Value { return a.Values[0] }

// Find returns the value of action x, if it was a candidate.
func (a *Analysis) Find(x engine.Action) (Value, bool) {
	if i := a.index(x); i >= 0 {
		return a.Values[i], true
	}
	return Value{}, false
}

func (a *Analysis) index(x engine.Action) int {
	k := key(x)
	for i, v := range a.Values {
		if key(v.Action) == k {
			return i
		}
	}
	return -1
}

// Loss returns how much action x loses against the best, in win chance
// (0 to 1), and the standard error of that difference, measured on the
// samples both were played on (common random numbers make it far smaller
// than either action's own error). ok is false when x was no candidate.
func (a *Analysis) Loss(x engine.Action) (loss, err float64, ok bool) {
	i := a.index(x)
	if i < 0 {
		return 0, 0, false
	}
	if i == 0 {
		return 0, 0, true
	}
	d, e := a.diff(0, i)
	return d, e, true
}

// diff is the mean and standard error of the paired differences between
// candidates i and j.
func (a *Analysis) diff(i, j int) (mean, err float64) {
	var n int
	var sum, sq float64
	for k := range a.wins[i] {
		x, y := a.wins[i][k], a.wins[j][k]
		if math.IsNaN(float64(x)) || math.IsNaN(float64(y)) {
			continue
		}
		d := float64(x - y)
		n++
		sum += d
		sq += d * d
	}
	if n == 0 {
		return a.Values[i].Win - a.Values[j].Win, math.Hypot(a.Values[i].Err, a.Values[j].Err)
	}
	mean = sum / float64(n)
	if n < 2 {
		return mean, 0.5
	}
	v := (sq - float64(n)*mean*mean) / float64(n-1)
	return mean, math.Sqrt(max(0, v) / float64(n))
}

// arm is one candidate under analysis.
type arm struct {
	a      engine.Action
	key    string
	kept   bool
	alive  bool
	n      int
	win    float64 // sums over the samples played
	winSq  float64
	val    float64
	wins   []float32
	broken bool // refused on a sample: the action is not legal there
}

func (m *arm) mean() float64 { return m.win / float64(max(1, m.n)) }

// better orders arms: more visits first (those that survived), then the
// win chance, then the finer reward.
func better(x, y *arm) int {
	switch {
	case x.n != y.n:
		return y.n - x.n
	case x.mean() != y.mean():
		if x.mean() > y.mean() {
			return -1
		}
		return 1
	case x.val != y.val:
		if x.val > y.val {
			return -1
		}
		return 1
	}
	return 0
}

// Analyze plays the candidates of position p on samples and says what each
// is worth to its seat (see the package's documentation).
func Analyze(p Position, o Options) *Analysis {
	start := time.Now()
	if o.Rollouts <= 0 {
		o.Rollouts = DefaultRollouts
	}
	if o.Top <= 0 {
		o.Top = DefaultTop
	}
	if o.MaxCandidates <= 0 {
		o.MaxCandidates = DefaultMaxCandidates
	}
	rng := rand.New(rand.NewPCG(o.Seed, engine.Mix(o.Seed, 0xc0ac)))
	r := newRoller(p, o)
	arms := candidates(p, o, r, rng)
	res := &Analysis{Seat: p.Seat}
	if len(arms) == 1 {
		arms[0].n = 0
		res.Values = []Value{{Action: arms[0].a}}
		res.wins = [][]float32{nil}
		res.Elapsed = time.Since(start)
		return res
	}
	var end time.Time
	if o.Wall > 0 {
		end = start.Add(o.Wall)
	}
	alive := len(arms)
	phases := 1
	for k := alive; k > o.Top; k = max(o.Top, (k+1)/2) {
		phases++
	}
	left := o.Rollouts
	samples := 0
	for phase := 0; phase < phases; phase++ {
		if o.Moves > 0 && res.Rollouts > 0 {
			// What the moves left pay for, at the pace so far.
			left = min(left, (o.Moves-r.moves)*res.Rollouts/max(1, r.moves))
		}
		per := max(1, left/((phases-phase)*alive))
		for range per {
			if !end.IsZero() && time.Now().After(end) && samples > 0 {
				res.Cut = true
				break
			}
			if o.Moves > 0 && r.moves >= o.Moves && samples > 0 {
				break
			}
			seed := rng.Uint64()
			base := p.Sample(rand.New(rand.NewPCG(seed, 0x5a4e)))
			for _, m := range arms {
				m.wins = append(m.wins, float32(math.NaN()))
			}
			last := -1
			for i, m := range arms {
				if m.alive {
					last = i
				}
			}
			for i, m := range arms {
				if !m.alive {
					continue
				}
				s := base
				if i != last {
					s = base.Clone()
				}
				win, val, ok := r.play(s, m.a, seed)
				if !ok {
					m.broken = true
					continue
				}
				m.n++
				m.win += win
				m.winSq += win * win
				m.val += val
				m.wins[samples] = float32(win)
				res.Rollouts++
				left--
			}
			samples++
		}
		if res.Cut || phase == phases-1 {
			break
		}
		// Keep the better half (and the kept actions); an action refused
		// on every sample is dropped.
		var order []*arm
		for _, m := range arms {
			if m.alive {
				order = append(order, m)
			}
		}
		slices.SortStableFunc(order, better)
		keep := max(o.Top, (alive+1)/2)
		alive = 0
		for k, m := range order {
			m.alive = (k < keep || m.kept) && (m.n > 0 || !m.broken)
			if m.alive {
				alive++
			}
		}
	}
	res.Moves = r.moves
	res.Team = p.Players > 1 && r.ended > 0 && !r.split
	slices.SortStableFunc(arms, better)
	for _, m := range arms {
		if m.n == 0 && m.broken {
			continue
		}
		v := Value{Action: m.a, Visits: m.n, Win: m.mean(), Err: 0.5}
		if m.n > 1 {
			mean := m.mean()
			v.Err = math.Sqrt(max(0, (m.winSq-float64(m.n)*mean*mean)/float64(m.n-1)) / float64(m.n))
		}
		res.Values = append(res.Values, v)
		res.wins = append(res.wins, m.wins)
	}
	if len(res.Values) == 0 { // every candidate refused on every sample: never with a sound game
		res.Values = []Value{{Action: p.Legal[0]}}
		res.wins = [][]float32{nil}
	}
	res.Elapsed = time.Since(start)
	return res
}

// candidates returns the arms: the legal actions (those kept first),
// without repeats, at most o.MaxCandidates of them.
func candidates(p Position, o Options, r *roller, rng *rand.Rand) []*arm {
	var arms []*arm
	seen := map[string]bool{}
	add := func(a engine.Action, kept bool) {
		if a == nil {
			return
		}
		k := key(a)
		if seen[k] {
			for _, m := range arms {
				if m.key == k {
					m.kept = m.kept || kept
				}
			}
			return
		}
		seen[k] = true
		arms = append(arms, &arm{a: a, key: k, kept: kept, alive: true})
	}
	for _, a := range o.Keep {
		add(a, true)
	}
	if len(p.Legal)+len(arms) > o.MaxCandidates {
		// The guide's own choice, then others at random.
		if d := r.newGuide(p.Seat, o.Seed).Decide(p.View, p.Legal, p.Now); d.Action != nil {
			add(d.Action, false)
		}
		for _, i := range rng.Perm(len(p.Legal)) {
			if len(arms) >= o.MaxCandidates {
				break
			}
			add(p.Legal[i], false)
		}
		return arms
	}
	for _, a := range p.Legal {
		add(a, false)
	}
	return arms
}

// key is an action's identity: its JSON form.
func key(a engine.Action) string {
	b, err := engine.MarshalTyped(a)
	if err != nil {
		return ""
	}
	return string(b)
}
