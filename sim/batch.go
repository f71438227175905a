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
}

// Stats sums up a batch. A shared victory counts as a win for each winner,
// so win rates of a batch may add up to more than one; in co-operative games
// every seat's rate is the team's success rate.
type Stats struct {
	Game     string            `json:"game"`
	Players  int               `json:"players"`
	Options  map[string]string `json:"options"`
	Games    int               `json:"games"`
	Seats    []SeatStats       `json:"seats"`
	Policies []PolicyStats     `json:"policies"`
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
}

// SeatStats is one seat's record over a batch.
type SeatStats struct {
	Seat      int      `json:"seat"`
	Wins      int      `json:"wins"`
	WinRate   Interval `json:"win_rate"`
	MeanScore float64  `json:"mean_score"`
}

// PolicyStats is one policy's record over a batch, over every seat it sat in.
type PolicyStats struct {
	Policy    string   `json:"policy"`
	Seatings  int      `json:"seatings"`
	Wins      int      `json:"wins"`
	WinRate   Interval `json:"win_rate"`
	MeanScore float64  `json:"mean_score"`
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
	polIndex           map[string]int
	polName            []string
	polSeat, polWin    []int
	polScore           []float64
	allWon, noneWon    int
	actions, actionsSq float64
	clock              float64
}

func newAccumulator(c Config) *accumulator {
	a := &accumulator{c: c, seatWins: make([]int, c.Players), seatScore: make([]float64, c.Players), polIndex: map[string]int{}}
	for _, p := range c.Policies {
		if _, ok := a.polIndex[p.Name()]; !ok {
			a.polIndex[p.Name()] = len(a.polName)
			a.polName = append(a.polName, p.Name())
		}
	}
	a.polSeat = make([]int, len(a.polName))
	a.polWin = make([]int, len(a.polName))
	a.polScore = make([]float64, len(a.polName))
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
}

func (a *accumulator) stats(elapsed time.Duration) Stats {
	n := float64(a.games)
	st := Stats{
		Game: a.c.Game.Info().ID, Players: a.c.Players, Options: a.c.Options, Games: a.games,
		AllWon: Wilson(float64(a.allWon), n), NoneWon: Wilson(float64(a.noneWon), n),
		Seconds: elapsed.Seconds(),
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
			MeanScore: safeDiv(a.seatScore[p], n),
		})
	}
	for k, name := range a.polName {
		m := float64(a.polSeat[k])
		st.Policies = append(st.Policies, PolicyStats{
			Policy: name, Seatings: a.polSeat[k], Wins: a.polWin[k],
			WinRate: Wilson(float64(a.polWin[k]), m), MeanScore: safeDiv(a.polScore[k], m),
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
