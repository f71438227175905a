package coach

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"time"

	"sortie/bot"
	"sortie/engine"
)

// Bands say how a decision compares with the best one, by the win chance it
// lost: under 2 points it was the best (or as good), under 5 good, then an
// inaccuracy, a mistake from 10 points and a blunder from 20, as lichess
// and chess.com judge moves. A loss no larger than twice the analysis's
// error is never worse than good: it cannot be told from the noise.
const (
	BandBest       = "best"
	BandGood       = "good"
	BandInaccuracy = "inaccuracy"
	BandMistake    = "mistake"
	BandBlunder    = "blunder"
)

// Bands lists the bands, best first.
var Bands = []string{BandBest, BandGood, BandInaccuracy, BandMistake, BandBlunder}

// The least loss of each band after "best", in points of win chance.
const (
	goodFrom       = 2
	inaccuracyFrom = 5
	mistakeFrom    = 10
	blunderFrom    = 20
)

// Band returns the band of a decision that lost loss points of win chance
// against the best (0 to 100), measured with a standard error of err
// points.
func Band(loss, err float64) string {
	switch {
	case loss < goodFrom:
		return BandBest
	case loss < inaccuracyFrom || loss <= 2*err:
		return BandGood
	case loss < mistakeFrom:
		return BandInaccuracy
	case loss < blunderFrom:
		return BandMistake
	}
	return BandBlunder
}

// Flagged reports whether a decision of this band is shown as an error.
func Flagged(band string) bool {
	return band == BandInaccuracy || band == BandMistake || band == BandBlunder
}

// MoveAccuracy is the accuracy of one decision, between 0 and 100, from
// the points of win chance it lost: lichess's curve (100 for the best move,
// about 80 for 5 points lost, 40 for 20, 10 for 40).
func MoveAccuracy(loss float64) float64 {
	a := 103.1668100711649*math.Exp(-0.04354415386753951*max(0, loss)) - 3.166924740191411
	return round(min(100, max(0, a)))
}

// ReviewOptions tune a review. The zero value takes the defaults.
type ReviewOptions struct {
	// Rollouts is the budget of each decision's analysis
	// ([DefaultReviewRollouts] when zero).
	Rollouts int
	// Moves bounds the moves each decision's rollouts play in all
	// ([DefaultReviewMoves] when zero; see [Options.Moves]).
	Moves int
	// Recheck is how many times the budget of a decision flagged at first
	// is given to search it again, to be sure ([DefaultRecheck] when
	// zero).
	Recheck int
	// Wall, if positive, bounds each analysis's wall time.
	Wall time.Duration
	// Seed seeds the analyses.
	Seed uint64
	// Guide and Horizon are the analyses' (see [Options]).
	Guide   bot.Policy
	Horizon int
	// Progress, if set, is told after each decision analysed how many are
	// done out of how many in all.
	Progress func(done, total int)
	// Around, if set, runs each decision's analysis (analyse) when it may:
	// a server takes a place of its budget of searches first. An error
	// stops the review, which returns it.
	Around func(analyse func()) error
}

// Defaults of [ReviewOptions]: the budget of a decision's analysis, and how
// many times more a flagged one is searched again with.
const (
	DefaultReviewRollouts = 200
	DefaultReviewMoves    = 40000
	DefaultRecheck        = 4
)

// Decision is one decision of a reviewed seat.
type Decision struct {
	// Seq is the number of the record of the move in the match's log,
	// counting from 1: the position is the one after Seq-1 records.
	Seq int           `json:"seq"`
	At  engine.Millis `json:"at"`
	// Played is the move made; Best the one the analysis preferred.
	Played json.RawMessage `json:"played"`
	Best   json.RawMessage `json:"best"`
	Band   string          `json:"band"`
	// Loss is how many points of win chance the move lost against the
	// best (0 to 100), and Err its standard error.
	Loss float64 `json:"loss"`
	Err  float64 `json:"err"`
	// Win is the seat's win chance before the move, with the best move;
	// After its chance after the move made (Win less Loss).
	Win   float64 `json:"win"`
	After float64 `json:"after"`
	// Rechecked says the decision was searched again with a larger
	// budget, its first loss being large enough to be flagged.
	Rechecked bool `json:"rechecked,omitempty"`
	// Choices are the candidates with their win chances, best first:
	// kept for the decisions flagged, for the player to try again.
	Choices []Choice `json:"choices,omitempty"`
}

// Counted reports whether the decision's loss counts: larger than twice
// its error, so that the analysis can tell it from its noise.
func (d Decision) Counted() bool { return d.Loss > 2*d.Err }

// Accuracy is the decision's accuracy, 0 to 100: MoveAccuracy of its loss
// when it counts, else 100.
func (d Decision) Accuracy() float64 {
	if d.Counted() {
		return MoveAccuracy(d.Loss)
	}
	return 100
}

// Choice is one candidate of a decision.
type Choice struct {
	Action json.RawMessage `json:"action"`
	Win    float64         `json:"win"`
	Visits int             `json:"visits"`
}

// Point is the seat's win chance at a step of the log: after Seq records.
type Point struct {
	Seq int     `json:"seq"`
	Win float64 `json:"win"`
}

// Moment is one of the key moments of a match for a seat: a decision that
// cost much, or what happened between two of its decisions (the draws, the
// rolls, the others' moves: luck, as far as the seat is concerned).
type Moment struct {
	Kind string `json:"kind"` // "decision" or "luck"
	// Seq is the decision's record, or the record after which luck moved
	// the chance the most (the first decision after it, for luck).
	Seq int `json:"seq"`
	// Delta is the change of win chance in points: negative for a loss.
	Delta float64 `json:"delta"`
}

// Review is the review of one seat of a finished match.
type Review struct {
	Seat      engine.Seat `json:"seat"`
	Decisions []Decision  `json:"decisions"`
	// Series is the win chance over the match: before and after each
	// decision, and the result at the end.
	Series []Point `json:"series"`
	// Accuracy is the decisions' accuracies taken together as lichess
	// takes a game's moves (see [GameAccuracy]), 0 to 100: MoveAccuracy of
	// each loss larger than twice its error, 100 for the others (a loss the
	// analysis cannot tell from its noise is none).
	Accuracy float64 `json:"accuracy"`
	// Lost is the win chance the seat's decisions lost in all, in points
	// (the losses larger than twice their error);
	// Luck what the rest of the match (draws, rolls, the others' moves)
	// gave (positive) or took (negative) between its decisions. The
	// result is the first decision's chance, less Lost, plus Luck.
	Lost float64 `json:"lost"`
	Luck float64 `json:"luck"`
	// Result is 1 if the seat won (its team, in a co-operative game), else
	// 0; Start its win chance at its first decision.
	Result float64 `json:"result"`
	Start  float64 `json:"start"`
	// Team says the seat won or lost with every other seat (a
	// co-operative game): its chances are the team's.
	Team bool `json:"team"`
	// Counts are the decisions of each band.
	Counts map[string]int `json:"counts"`
	// Key are the three key moments, in the order of the match.
	Key []Moment `json:"key"`
	// Learn are the records of the decisions to try again (mistakes and
	// blunders, then inaccuracies when there are none), in order.
	Learn []int `json:"learn"`
	// Rollouts is how many playouts the review took, Elapsed how long.
	Rollouts int           `json:"rollouts"`
	Elapsed  time.Duration `json:"elapsed_ns"`
}

// ReviewMatch reviews the given seats of a finished match: its setup and
// its whole log. Each decision of a seat (a move among several) is
// analysed from the seat's point of view at that moment, as a hint would
// have been: samples of the state drawn for that seat, never the state. A
// decision whose first loss is flagged is searched again with a larger
// budget, its move and the best kept to the end, and flagged only if its
// loss is still more than twice the error.
func ReviewMatch(g engine.Game, setup engine.Setup, log []engine.Record, seats []engine.Seat, o ReviewOptions) ([]*Review, error) {
	start := time.Now()
	if o.Rollouts <= 0 {
		o.Rollouts = DefaultReviewRollouts
	}
	if o.Moves <= 0 {
		o.Moves = DefaultReviewMoves
	}
	if o.Recheck <= 0 {
		o.Recheck = DefaultRecheck
	}
	opts, err := g.Info().Check(setup)
	if err != nil {
		return nil, err
	}
	s, err := g.New(setup)
	if err != nil {
		return nil, err
	}
	out := make([]*Review, len(seats))
	index := map[engine.Seat]int{}
	for i, p := range seats {
		if p < 0 || int(p) >= setup.Players {
			return nil, fmt.Errorf("coach: the match has no seat %d", p)
		}
		out[i] = &Review{Seat: p, Counts: map[string]int{}}
		index[p] = i
	}
	total := 0
	for _, r := range log {
		if _, ok := index[r.Seat]; ok && r.Action != nil {
			total++
		}
	}
	past := make([][]engine.Event, setup.Players)
	done := 0
	for n, r := range log {
		i, reviewed := index[r.Seat]
		if reviewed && r.Action != nil {
			c := s.Clone()
			c.Advance(r.At)
			if pos, ok := At(g, c, r.Seat, setup.Players, opts, r.At); ok {
				pos.Past = past[r.Seat]
				analyse := func() {
					d, ro, team := decide(pos, r.Action, n+1, o)
					out[i].Rollouts += ro
					out[i].Team = out[i].Team || team
					if d != nil {
						out[i].Decisions = append(out[i].Decisions, *d)
					}
				}
				if o.Around == nil {
					analyse()
				} else if err := o.Around(analyse); err != nil {
					return nil, err
				}
			}
			done++
			if o.Progress != nil {
				o.Progress(done, total)
			}
		}
		evs, err := engine.Play(s, r)
		if err != nil {
			return nil, fmt.Errorf("coach: record %d does not replay: %v", n+1, err)
		}
		for q := range past {
			past[q] = engine.Visible(past[q], evs, engine.Seat(q))
		}
	}
	outcome, over := s.Outcome()
	if !over {
		return nil, fmt.Errorf("coach: the match is not over after its %d records", len(log))
	}
	for _, rv := range out {
		if outcome.Won(rv.Seat) {
			rv.Result = 1
		}
		rv.sum(len(log))
		rv.Elapsed = time.Since(start)
	}
	return out, nil
}

// decide analyses one decision: the move played at record seq in
// position pos. It returns nil for a move without choice.
func decide(pos Position, played engine.Action, seq int, o ReviewOptions) (*Decision, int, bool) {
	if len(pos.Legal) < 2 && (len(pos.Legal) == 0 || key(pos.Legal[0]) == key(played)) {
		return nil, 0, false
	}
	seed := engine.Mix(o.Seed, uint64(seq))
	ao := Options{Rollouts: o.Rollouts, Moves: o.Moves, Wall: o.Wall, Guide: o.Guide, Horizon: o.Horizon, Seed: seed, Keep: []engine.Action{played}, Top: 2}
	a := Analyze(pos, ao)
	rollouts := a.Rollouts
	loss, err, _ := a.Loss(played)
	d := &Decision{Seq: seq, At: pos.Now}
	first := a
	if Flagged(Band(100*loss, 100*err)) {
		// Search again, the move and the best kept to the end.
		ao.Rollouts, ao.Moves, ao.Seed = o.Recheck*o.Rollouts, o.Recheck*o.Moves, engine.Mix(seed, 1)
		ao.Keep = []engine.Action{played, a.Best().Action}
		again := Analyze(pos, ao)
		rollouts += again.Rollouts
		a = again
		loss, err, _ = a.Loss(played)
		d.Rechecked = true
	}
	loss = max(0, loss)
	d.Played, _ = engine.MarshalTyped(played)
	d.Best, _ = engine.MarshalTyped(a.Best().Action)
	d.Loss, d.Err = round(100*loss), round(100*err)
	d.Band = Band(100*loss, 100*err)
	if d.Band == BandBest {
		d.Best = d.Played // as good as the best: the move itself is shown
	}
	d.Win = a.Best().Win
	d.After = max(0, d.Win-loss)
	if Flagged(d.Band) {
		for _, v := range first.Values {
			b, _ := engine.MarshalTyped(v.Action)
			w := v.Win
			if fresh, ok := a.Find(v.Action); ok {
				w = fresh.Win // the second search's, for the move and the best
			}
			d.Choices = append(d.Choices, Choice{Action: b, Win: w, Visits: v.Visits})
		}
		slices.SortStableFunc(d.Choices, func(x, y Choice) int {
			switch {
			case x.Win > y.Win:
				return -1
			case x.Win < y.Win:
				return 1
			}
			return 0
		})
	}
	return d, rollouts, first.Team
}

// GameAccuracy takes the accuracies of a seat's decisions (0 to 100 each)
// together as lichess takes a game's moves: the mean of two means, one of
// them weighted by how much the win chance moved around each decision,
// the other harmonic. wins are the seat's win chances in points (0 to 100)
// at each decision and, last, its result: one more than accs.
//
// The weight of a decision is the standard deviation of the win chances
// over a window that ends just after it, a tenth of the match long (2 to 8
// points): a decision where everything was at stake weighs up to 24 times
// one where nothing moved (the deviation is kept within 0.5 and 12
// points), so a match mostly decided early is judged on the decisions
// that decided it. The harmonic mean lets one blunder pull the figure down
// further than a plain mean would (each accuracy counts as at least 1 in
// it). A seat that plays many harmless moves and a few ruinous ones is
// told so.
func GameAccuracy(accs, wins []float64) float64 {
	n := len(accs)
	if n == 0 {
		return 100
	}
	w := min(8, max(2, len(wins)/10))
	var sw, swa, inv float64
	for k, a := range accs {
		hi := min(len(wins), k+2) // the window ends at the position after decision k
		lo := max(0, hi-w)
		hi = min(len(wins), lo+w)
		weight := min(12, max(0.5, deviation(wins[lo:hi])))
		sw += weight
		swa += weight * a
		inv += 1 / max(1, a)
	}
	return (swa/sw + float64(n)/inv) / 2
}

// deviation is the standard deviation of xs, taken as the whole
// population.
func deviation(xs []float64) float64 {
	var mean, ss float64
	for _, x := range xs {
		mean += x
	}
	mean /= float64(len(xs))
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return math.Sqrt(ss / float64(len(xs)))
}

// round keeps a tenth of a point.
func round(x float64) float64 { return math.Round(10*x) / 10 }

// keyMoments is how many key moments a review shows.
const keyMoments = 3

// sum fills in what follows from the decisions: the series, accuracy,
// lost and luck, the counts, the key moments and what to try again. last
// is the number of records.
func (rv *Review) sum(last int) {
	for _, b := range Bands {
		rv.Counts[b] = 0
	}
	var moments []Moment
	accs := make([]float64, 0, len(rv.Decisions))
	wins := make([]float64, 0, len(rv.Decisions)+1)
	prev := -1.0
	for k, d := range rv.Decisions {
		rv.Counts[d.Band]++
		wins = append(wins, 100*d.Win)
		real := d.Counted()
		accs = append(accs, d.Accuracy())
		if real {
			rv.Lost += d.Loss
			moments = append(moments, Moment{Kind: "decision", Seq: d.Seq, Delta: -d.Loss})
		}
		if k == 0 {
			rv.Start = d.Win
		} else {
			luck := 100 * (d.Win - prev)
			rv.Luck += luck
			moments = append(moments, Moment{Kind: "luck", Seq: d.Seq, Delta: round(luck)})
		}
		prev = d.After
		if !real {
			prev = d.Win // a loss within the noise: none
		}
		rv.Series = append(rv.Series, Point{Seq: d.Seq - 1, Win: d.Win}, Point{Seq: d.Seq, Win: prev})
	}
	if len(rv.Decisions) > 0 {
		luck := 100 * (rv.Result - prev)
		rv.Luck += luck
		moments = append(moments, Moment{Kind: "luck", Seq: last, Delta: round(luck)})
		rv.Accuracy = round(GameAccuracy(accs, append(wins, 100*rv.Result)))
	} else {
		rv.Accuracy = 100
	}
	rv.Series = append(rv.Series, Point{Seq: last, Win: rv.Result})
	rv.Lost, rv.Luck = round(rv.Lost), round(rv.Luck)
	// The key moments: the largest changes, decisions and luck alike, of at
	// least an inaccuracy's size.
	slices.SortStableFunc(moments, func(x, y Moment) int {
		switch ax, ay := math.Abs(x.Delta), math.Abs(y.Delta); {
		case ax > ay:
			return -1
		case ax < ay:
			return 1
		}
		return 0
	})
	rv.Key = []Moment{}
	for _, m := range moments {
		if len(rv.Key) < keyMoments && math.Abs(m.Delta) >= inaccuracyFrom {
			rv.Key = append(rv.Key, m)
		}
	}
	slices.SortStableFunc(rv.Key, func(x, y Moment) int { return x.Seq - y.Seq })
	rv.Learn = []int{}
	for _, d := range rv.Decisions {
		if d.Band == BandMistake || d.Band == BandBlunder {
			rv.Learn = append(rv.Learn, d.Seq)
		}
	}
	if len(rv.Learn) == 0 {
		for _, d := range rv.Decisions {
			if d.Band == BandInaccuracy {
				rv.Learn = append(rv.Learn, d.Seq)
			}
		}
	}
}
