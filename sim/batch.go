package sim

import (
	"context"
	"fmt"
	"math"
	"runtime"
	"sync"
	"time"

	"sortie/bot"
	"sortie/engine"
)

// Config describes a batch of bot games.
type Config struct {
	Game    engine.Game
	Players int
	Options map[string]string
	// Policies gives each seat's policy, in seat order.
	Policies []bot.Policy
	// Games is the number of games to play.
	Games int
	// Seed is the batch seed: game i is played with seed Mix(Seed, i).
	Seed uint64
	// Workers is the number of games played at once: all cores when 0.
	Workers int
	// Rotate moves the policies one seat on at each game (game i puts
	// Policies[(p+i) mod n] in seat p), so that no policy keeps the
	// advantage or handicap of a seat.
	Rotate bool
	// Progress, if set, is called after each finished game with the number
	// finished so far (from several goroutines, one call at a time).
	Progress func(done int)
	// Each, if set, is called with each finished game's index in the batch
	// and its result, one call at a time, in the order games finish.
	Each func(i int, r Result)
	// Label names the batch in a sweep ("players=3 danger=true"); it is
	// copied to its Stats.
	Label string
}

// Stats sums up a batch. A shared victory counts as a win for each winner,
// so win rates of a batch may add up to more than one; in co-operative games
// every seat's rate is the team's success rate.
type Stats struct {
	Game string `json:"game"`
	// Label names the batch in a sweep.
	Label   string `json:"label,omitempty"`
	Players int    `json:"players"`
	// Options are the match options, every default filled in.
	Options map[string]string `json:"options"`
	// Bots are the policies' names in seat order before any rotation;
	// Rotated says whether they moved one seat on at each game.
	Bots     []string      `json:"bots"`
	Rotated  bool          `json:"rotated"`
	Games    int           `json:"games"`
	Seats    []SeatStats   `json:"seats"`
	Policies []PolicyStats `json:"policies"`
	// AllWon and NoneWon are the shares of games every seat won (a
	// co-operative success) and no seat won.
	AllWon  Interval `json:"all_won"`
	NoneWon Interval `json:"none_won"`
	// Actions is the mean number of actions per game, with its standard
	// deviation; Clock the mean match time at the end, in seconds.
	Actions        float64 `json:"mean_actions"`
	ActionsStdDev  float64 `json:"actions_stddev"`
	Clock          float64 `json:"mean_clock_seconds"`
	Seconds        float64 `json:"seconds"`
	GamesPerSecond float64 `json:"games_per_second"`
	// Lengths counts games by their number of actions; Clocks by their
	// match time at the end, in whole seconds (all zero in games without a
	// clock).
	Lengths Histogram `json:"lengths"`
	Clocks  Histogram `json:"clock_seconds"`
}

// EvenShare is the win rate every seat (and every bot) would have if none
// had an edge: the mean of the seats' win rates. It is one in the number of
// seats when every game has exactly one winner, more with shared victories.
func (s Stats) EvenShare() float64 {
	if s.Games == 0 || s.Players == 0 {
		return 0
	}
	wins := 0
	for _, st := range s.Seats {
		wins += st.Wins
	}
	return float64(wins) / float64(s.Games*s.Players)
}

// CoOperative reports whether every game of the batch was won by every seat
// or by none, as in a co-operative game (or a batch too small to tell).
func (s Stats) CoOperative() bool {
	return s.Games > 0 && s.Players > 1 && s.AllWon.P+s.NoneWon.P > 1-1e-9
}

// SeatStats is one seat's record over a batch.
type SeatStats struct {
	Seat      int      `json:"seat"`
	Wins      int      `json:"wins"`
	WinRate   Interval `json:"win_rate"`
	MeanScore float64  `json:"mean_score"`
	// Scores counts the seat's final scores.
	Scores Histogram `json:"scores"`
}

// PolicyStats is one policy's record over a batch, over every seat it sat in.
type PolicyStats struct {
	Policy   string `json:"policy"`
	Seatings int    `json:"seatings"`
	Wins     int    `json:"wins"`
	// WinRate is Wins over Seatings. Its interval counts games, not
	// seatings: a policy holding several seats of one game (a team of
	// three, say) wins or loses them together, and counting each seating
	// as a trial of its own would make the interval too narrow.
	WinRate   Interval `json:"win_rate"`
	MeanScore float64  `json:"mean_score"`
	// Scores counts the policy's final scores, one per seating.
	Scores Histogram `json:"scores"`
}

// SeatPolicies returns the policies of game i of a batch, seat by seat.
func (c Config) SeatPolicies(i int) []bot.Policy {
	n := len(c.Policies)
	ps := make([]bot.Policy, n)
	for p := range n {
		k := p
		if c.Rotate {
			k = (p + i) % n
		}
		ps[p] = c.Policies[k]
	}
	return ps
}

// Run plays a batch on every core and sums it up. It stops at the first game
// that fails, with the seed that reproduces it.
func Run(ctx context.Context, c Config) (Stats, error) {
	if len(c.Policies) != c.Players {
		return Stats{}, fmt.Errorf("%d bots for %d seats", len(c.Policies), c.Players)
	}
	workers := c.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	type done struct {
		i   int
		res Result
		err error
	}
	jobs := make(chan int)
	results := make(chan done, workers)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range jobs {
				setup := engine.Setup{Players: c.Players, Options: c.Options, Seed: engine.Mix(c.Seed, uint64(i))}
				res, err := PlayOne(c.Game, setup, c.SeatPolicies(i))
				if err != nil {
					err = fmt.Errorf("game %d (seed %d): %w", i, setup.Seed, err)
				}
				results <- done{i, res, err}
			}
		})
	}
	go func() {
		defer close(jobs)
		for i := range c.Games {
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(results) }()

	start := time.Now()
	acc := newAccumulator(c)
	var firstErr error
	finished := 0
	for d := range results {
		if d.err != nil {
			if firstErr == nil {
				firstErr = d.err
				cancel()
			}
			continue
		}
		acc.add(d.i, d.res)
		if c.Each != nil {
			c.Each(d.i, d.res)
		}
		finished++
		if c.Progress != nil {
			c.Progress(finished)
		}
	}
	if firstErr == nil {
		firstErr = ctx.Err()
	}
	st := acc.stats(time.Since(start))
	return st, firstErr
}

type accumulator struct {
	c                  Config
	games              int
	seatWins           []int
	seatScore          []float64
	seatHist           []Histogram
	polIndex           map[string]int
	polName            []string
	polSeat, polWin    []int
	polScore           []float64
	polHist            []Histogram
	allWon, noneWon    int
	actions, actionsSq float64
	clock              float64
	lengths, clocks    Histogram
}

func newAccumulator(c Config) *accumulator {
	a := &accumulator{c: c, seatWins: make([]int, c.Players), seatScore: make([]float64, c.Players),
		seatHist: make([]Histogram, c.Players), polIndex: map[string]int{}}
	for _, p := range c.Policies {
		if _, ok := a.polIndex[p.Name()]; !ok {
			a.polIndex[p.Name()] = len(a.polName)
			a.polName = append(a.polName, p.Name())
		}
	}
	a.polSeat = make([]int, len(a.polName))
	a.polWin = make([]int, len(a.polName))
	a.polScore = make([]float64, len(a.polName))
	a.polHist = make([]Histogram, len(a.polName))
	return a
}

func (a *accumulator) add(i int, r Result) {
	a.games++
	pols := a.c.SeatPolicies(i)
	for p := range a.c.Players {
		k := a.polIndex[pols[p].Name()]
		a.polSeat[k]++
		score := 0.0
		if p < len(r.Outcome.Scores) {
			score = float64(r.Outcome.Scores[p])
		}
		a.seatScore[p] += score
		a.polScore[k] += score
		a.seatHist[p].Add(int(score))
		a.polHist[k].Add(int(score))
		if r.Outcome.Won(engine.Seat(p)) {
			a.seatWins[p]++
			a.polWin[k]++
		}
	}
	switch len(r.Outcome.Winners) {
	case a.c.Players:
		a.allWon++
	case 0:
		a.noneWon++
	}
	a.actions += float64(r.Actions)
	a.actionsSq += float64(r.Actions) * float64(r.Actions)
	a.clock += float64(r.Clock) / 1000
	a.lengths.Add(r.Actions)
	a.clocks.Add(int(r.Clock / 1000))
}

func (a *accumulator) stats(elapsed time.Duration) Stats {
	n := float64(a.games)
	info := a.c.Game.Info()
	opts, err := info.Check(engine.Setup{Players: a.c.Players, Options: a.c.Options})
	if err != nil {
		opts = a.c.Options
	}
	st := Stats{
		Game: info.ID, Label: a.c.Label, Players: a.c.Players, Options: opts, Games: a.games,
		Rotated: a.c.Rotate,
		AllWon:  Wilson(float64(a.allWon), n), NoneWon: Wilson(float64(a.noneWon), n),
		Seconds: elapsed.Seconds(), Lengths: a.lengths, Clocks: a.clocks,
	}
	for _, p := range a.c.Policies {
		st.Bots = append(st.Bots, p.Name())
	}
	if a.games > 0 {
		st.Actions = a.actions / n
		st.ActionsStdDev = math.Sqrt(max(0, a.actionsSq/n-st.Actions*st.Actions))
		st.Clock = a.clock / n
	}
	if s := elapsed.Seconds(); s > 0 {
		st.GamesPerSecond = n / s
	}
	for p := range a.c.Players {
		st.Seats = append(st.Seats, SeatStats{
			Seat: p, Wins: a.seatWins[p], WinRate: Wilson(float64(a.seatWins[p]), n),
			MeanScore: safeDiv(a.seatScore[p], n), Scores: a.seatHist[p],
		})
	}
	for k, name := range a.polName {
		m := float64(a.polSeat[k])
		perGame := safeDiv(m, n) // the same in every game: rotation keeps the lineup
		st.Policies = append(st.Policies, PolicyStats{
			Policy: name, Seatings: a.polSeat[k], Wins: a.polWin[k],
			WinRate: Wilson(safeDiv(float64(a.polWin[k]), perGame), n), MeanScore: safeDiv(a.polScore[k], m),
			Scores: a.polHist[k],
		})
	}
	return st
}

func safeDiv(a, b float64) float64 {
	if b == 0 {
		return 0
	}
	return a / b
}
