package ratinglab

import (
	"context"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync"

	"sortie/bot"
	"sortie/engine"
	"sortie/internal/rating"
	"sortie/sim"
)

// Population describes a population of bots of known strength rated over
// simulated matches of one game and mode family.
type Population struct {
	Game engine.Game
	// Setups are what a match is drawn from, uniformly (player counts and
	// options); their seeds are ignored. They must all be rated in one
	// family.
	Setups []engine.Setup
	// Levels are the bot levels of the population, weakest first
	// (bot.Levels when nil), each held by PerLevel members (3 when 0).
	Levels   []string
	PerLevel int
	// Matches is the number of matches; Seed draws their setups, seats and
	// games.
	Matches int
	Seed    uint64
	// Workers is the number of matches played at once: all cores when 0.
	// Matches are rated in order whatever the order they finish in.
	Workers int
	// Model and Data rate the matches (rating.Default and
	// rating.Measured when zero).
	Model rating.Model
	Data  *rating.Data
	// Betas, if set, are other performance spreads β to score: the same
	// matches are rated again from the start with each, and the report
	// gives each one's calibration (Report.ByBeta). The matches are played
	// once; rating them again is cheap.
	Betas []float64
	// CoopSum also scores each of Betas with co-op teams and their
	// benchmarks summed, as the paper's teams are (rating.Model.CoopSum).
	CoopSum bool
	// Progress, if set, is called after each rated match with the number
	// rated so far.
	Progress func(done int)
}

// Member is one bot of the population and where its rating ended.
type Member struct {
	Name    string        `json:"name"`
	Level   string        `json:"level"`
	Rating  rating.Rating `json:"rating"`
	Display float64       `json:"display"`
	Matches int           `json:"matches"`
}

// LevelSummary is one level's ratings at the end.
type LevelSummary struct {
	Level  string  `json:"level"`
	MeanMu float64 `json:"mean_mu"`
	MinMu  float64 `json:"min_mu"`
	MaxMu  float64 `json:"max_mu"`
	// MeanDisplay is the mean of μ − 3σ.
	MeanDisplay float64 `json:"mean_display"`
	MeanSigma   float64 `json:"mean_sigma"`
}

// Checkpoint is each level's mean μ after a number of matches.
type Checkpoint struct {
	After  int       `json:"after"`
	MeanMu []float64 `json:"mean_mu"` // by level, as in Population.Levels
}

// Bin is one row of a reliability table: the predictions that fell in
// [Lo, Hi), how many, their mean, and how often the side won.
type Bin struct {
	Lo        float64 `json:"lo"`
	Hi        float64 `json:"hi"`
	N         int     `json:"n"`
	Predicted float64 `json:"predicted"`
	Observed  float64 `json:"observed"`
}

// Calibration compares the chances predicted before each match (each
// side's chance of finishing first, or of succeeding against the game)
// with what happened, over the matches from From on (the first half
// rates a population that is still new, which predicts nothing).
type Calibration struct {
	From  int `json:"from"`
	Sides int `json:"sides"`
	// Brier is the mean squared error of the predictions; Baseline that of
	// the best prediction that knows no skill: each side's mean result in
	// its kind of match (same key, player count, number of sides and
	// role) over the other predictions of the run (leave one out: it knows
	// how often such sides won, not whether this one did). Skill is
	// 1 − Brier/Baseline: above zero, the ratings tell more than the
	// baseline.
	Brier    float64 `json:"brier"`
	Baseline float64 `json:"baseline"`
	Skill    float64 `json:"skill"`
	Bins     []Bin   `json:"bins"`
	// Thurstone is the same for the reference implementation's form of
	// the chances (rating.Model.Thurstone), on the same ratings, sides,
	// handicaps and benchmarks.
	Thurstone struct {
		Brier float64 `json:"brier"`
		Skill float64 `json:"skill"`
		Bins  []Bin   `json:"bins"`
	} `json:"thurstone"`
}

// Report is what a population run found.
type Report struct {
	Game    string        `json:"game"`
	Family  engine.Family `json:"family"`
	Levels  []string      `json:"levels"`
	Matches int           `json:"matches"`
	// Unrated counts matches the rating refused (a variant the lab did not
	// measure); they change no rating.
	Unrated int `json:"unrated"`
	// Ordered is the number of matches after which the levels' mean μ
	// stood in order, strongest first, and stayed so to the end (0: not
	// ordered at the end). Separated is the same for every member: each
	// member of a level above every member of the levels below.
	Ordered   int `json:"ordered_after"`
	Separated int `json:"separated_after"`
	// OrderedPlayed and SeparatedPlayed are the mean number of matches a
	// member had played at those points.
	OrderedPlayed   float64        `json:"ordered_after_per_member"`
	SeparatedPlayed float64        `json:"separated_after_per_member"`
	Members         []Member       `json:"members"`
	Summary         []LevelSummary `json:"levels_at_end"`
	Checkpoints     []Checkpoint   `json:"checkpoints"`
	Calibration     Calibration    `json:"calibration"`
	// ByBeta is the calibration of the same matches rated with each of
	// Population.Betas in place of the model's β, with the levels' mean μ at
	// the end and the match from which they stood in order.
	ByBeta []BetaScore `json:"by_beta,omitempty"`
}

// BetaScore is the calibration of a population's matches rated with
// another β.
type BetaScore struct {
	Beta        float64     `json:"beta"`
	CoopSum     bool        `json:"coop_sum,omitempty"`
	Ordered     int         `json:"ordered_after"`
	Separated   int         `json:"separated_after"`
	MeanMu      []float64   `json:"mean_mu"`
	Calibration Calibration `json:"calibration"`
}

// match is one drawn match: its setup and the members at its seats.
type match struct {
	setup engine.Setup
	seats []int // member index by seat
}

// played is a match's result, or the error that stopped it.
type played struct {
	i   int
	res sim.Result
	err error
}

// Run plays and rates the population's matches and reports on them.
func (p Population) Run(ctx context.Context) (Report, error) {
	if p.Levels == nil {
		p.Levels = bot.Levels
	}
	if p.PerLevel == 0 {
		p.PerLevel = 3
	}
	if p.Model == (rating.Model{}) {
		p.Model = rating.Default()
	}
	if p.Data == nil {
		p.Data = rating.Measured()
	}
	if p.Matches < 1 || len(p.Setups) == 0 || len(p.Levels) < 2 {
		return Report{}, errors.New("a population needs matches, setups and two levels or more")
	}
	info := p.Game.Info()
	rep := Report{Game: info.ID, Levels: p.Levels, Matches: p.Matches}
	for _, s := range p.Setups {
		fam, _, err := variant(p.Game, s)
		if err != nil {
			return rep, err
		}
		if rep.Family == "" {
			rep.Family = fam
		} else if fam != rep.Family {
			return rep, fmt.Errorf("the setups mix the %s and %s families: rate one at a time", rep.Family, fam)
		}
		if s.Players > len(p.Levels)*p.PerLevel {
			return rep, fmt.Errorf("a setup of %d players needs more than the %d members", s.Players, len(p.Levels)*p.PerLevel)
		}
	}
	policies := make([]bot.Policy, len(p.Levels))
	for i, l := range p.Levels {
		pol, err := bot.Level(p.Game, l)
		if err != nil {
			return rep, err
		}
		policies[i] = pol
	}
	n := len(p.Levels) * p.PerLevel
	level := func(m int) int { return m / p.PerLevel }
	ratings := make([]rating.Rating, n)
	for i := range ratings {
		ratings[i] = p.Model.New()
	}
	played := make([]int, n)

	// Draw every match first: who plays is not chosen by rating, so the
	// matches can be played in parallel and rated in order.
	r := rand.New(rand.NewPCG(p.Seed, 0x1ab))
	matches := make([]match, p.Matches)
	for i := range matches {
		s := p.Setups[r.IntN(len(p.Setups))]
		s.Seed = engine.Mix(p.Seed, uint64(i))
		matches[i] = match{setup: s, seats: r.Perm(n)[:s.Players]}
	}
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	results := p.play(ctx, matches, policies, level)

	calFrom := p.Matches / 2
	rep.Calibration.From = calFrom + 1
	var preds []prediction
	pending := map[int]sim.Result{}
	all := make([]sim.Result, len(matches)) // kept to rate again with p.Betas
	next := 0
	conv := convergence{levels: len(p.Levels), level: level}
	var failed error
	fail := func(err error) {
		if failed == nil {
			failed = err
			stop()
		}
	}
	for d := range results {
		if failed != nil {
			continue // let the workers finish
		}
		if d.err != nil {
			fail(d.err)
			continue
		}
		pending[d.i] = d.res
		for failed == nil {
			res, ok := pending[next]
			if !ok {
				break
			}
			delete(pending, next)
			if len(p.Betas) > 0 {
				all[next] = res
			}
			mt := matches[next]
			rated, ps, err := p.rate(p.Model, mt, res, ratings)
			switch {
			case errors.Is(err, rating.ErrNotMeasured):
				rep.Unrated++
			case err != nil:
				fail(fmt.Errorf("match %d (%s, seed %d): %v", next, setupName(mt.setup), mt.setup.Seed, err))
				continue
			default:
				for seat, m := range mt.seats {
					ratings[m] = rated[seat]
					played[m]++
				}
				if next >= calFrom {
					preds = append(preds, ps...)
				}
			}
			next++
			means := conv.observe(next, ratings, played)
			if checkpoint(next, p.Matches) {
				rep.Checkpoints = append(rep.Checkpoints, Checkpoint{After: next, MeanMu: means})
			}
			if p.Progress != nil {
				p.Progress(next)
			}
		}
	}
	if failed != nil {
		return rep, failed
	}
	if next < p.Matches {
		return rep, ctx.Err()
	}
	rep.Ordered, rep.OrderedPlayed = conv.ordered, conv.orderedPlayed
	rep.Separated, rep.SeparatedPlayed = conv.separated, conv.separatedPlayed
	for m, rt := range ratings {
		rep.Members = append(rep.Members, Member{
			Name: fmt.Sprintf("%s %d", p.Levels[level(m)], m%p.PerLevel+1), Level: p.Levels[level(m)],
			Rating: rt, Display: rt.Display(), Matches: played[m],
		})
	}
	for l, name := range p.Levels {
		s := LevelSummary{Level: name, MinMu: math.Inf(1), MaxMu: math.Inf(-1)}
		for m := l * p.PerLevel; m < (l+1)*p.PerLevel; m++ {
			s.MeanMu += ratings[m].Mu / float64(p.PerLevel)
			s.MeanDisplay += ratings[m].Display() / float64(p.PerLevel)
			s.MeanSigma += ratings[m].Sigma / float64(p.PerLevel)
			s.MinMu, s.MaxMu = min(s.MinMu, ratings[m].Mu), max(s.MaxMu, ratings[m].Mu)
		}
		rep.Summary = append(rep.Summary, s)
	}
	rep.Calibration = calibrate(preds, rep.Calibration.From)
	for _, beta := range p.Betas {
		rep.ByBeta = append(rep.ByBeta, p.again(beta, false, matches, all))
		if p.CoopSum {
			rep.ByBeta = append(rep.ByBeta, p.again(beta, true, matches, all))
		}
	}
	return rep, nil
}

// again rates the played matches again, in order and from new ratings,
// with the performance spread beta (and co-op teams summed if coopSum).
func (p Population) again(beta float64, coopSum bool, matches []match, results []sim.Result) BetaScore {
	m := p.Model
	m.Beta = beta
	m.CoopSum = coopSum
	n := len(p.Levels) * p.PerLevel
	level := func(i int) int { return i / p.PerLevel }
	ratings := make([]rating.Rating, n)
	for i := range ratings {
		ratings[i] = m.New()
	}
	played := make([]int, n)
	conv := convergence{levels: len(p.Levels), level: level}
	calFrom := len(matches) / 2
	var preds []prediction
	var means []float64
	for i, mt := range matches {
		// The first pass rated every match or stopped: errors here are
		// only the unmeasured variants it skipped too.
		if rated, ps, err := p.rate(m, mt, results[i], ratings); err == nil {
			for seat, k := range mt.seats {
				ratings[k] = rated[seat]
				played[k]++
			}
			if i >= calFrom {
				preds = append(preds, ps...)
			}
		}
		means = conv.observe(i+1, ratings, played)
	}
	return BetaScore{Beta: beta, CoopSum: coopSum, Ordered: conv.ordered, Separated: conv.separated, MeanMu: means, Calibration: calibrate(preds, calFrom+1)}
}

// setupName names a setup: "players=3,mode=team".
func setupName(s engine.Setup) string {
	name := fmt.Sprintf("players=%d", s.Players)
	keys := make([]string, 0, len(s.Options))
	for k := range s.Options {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		name += "," + k + "=" + s.Options[k]
	}
	return name
}

// play plays the matches on the workers and hands their results over as
// they finish, until ctx is done; the caller reads every result.
func (p Population) play(ctx context.Context, matches []match, policies []bot.Policy, level func(int) int) <-chan played {
	workers := p.Workers
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	jobs := make(chan int)
	out := make(chan played, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for i := range jobs {
				mt := matches[i]
				pols := make([]bot.Policy, len(mt.seats))
				for seat, m := range mt.seats {
					pols[seat] = policies[level(m)]
				}
				res, err := sim.PlayOne(p.Game, mt.setup, pols)
				if err == nil && res.Rated == nil {
					err = fmt.Errorf("%s does not say what a match is for rating", p.Game.Info().ID)
				}
				if err != nil {
					err = fmt.Errorf("match %d (%s, seed %d): %w", i, setupName(mt.setup), mt.setup.Seed, err)
				}
				out <- played{i, res, err}
			}
		})
	}
	go func() {
		defer close(jobs)
		for i := range matches {
			select {
			case jobs <- i:
			case <-ctx.Done():
				return
			}
		}
	}()
	go func() { wg.Wait(); close(out) }()
	return out
}

// prediction is one side's chance before a match (in the model's own form
// and in the Thurstone form) and its result.
type prediction struct {
	group       string  // the kind of match and side, for the no-skill baseline
	even        float64 // the baseline's chance for a kind of side seen once: one over the sides
	p, ref, won float64
}

// rate rates one finished match from the members' ratings, returning each
// seat's new rating and each side's prediction.
func (p Population) rate(model rating.Model, mt match, res sim.Result, ratings []rating.Rating) ([]rating.Rating, []prediction, error) {
	r := res.Rated
	x := rating.Match{Game: p.Game.Info().ID, Key: r.Key, Family: rating.Family(r.Family)}
	for _, s := range r.Sides {
		side := rating.Side{Role: s.Role, Rank: s.Rank}
		for _, seat := range s.Seats {
			side.Players = append(side.Players, ratings[mt.seats[seat]])
		}
		x.Sides = append(x.Sides, side)
	}
	chances, err := model.Chances(p.Data, x)
	if err != nil {
		return nil, nil, err
	}
	// The Thurstone form's chances, on the very sides the model rates
	// (same handicaps and benchmark), so that the forms differ only by
	// how they turn strengths into chances.
	sides, by, err := model.Sides(p.Data, x)
	if err != nil {
		return nil, nil, err
	}
	thurstone := model
	thurstone.Thurstone = true
	other, err := thurstone.WinChances(sides, by)
	if err != nil {
		return nil, nil, err
	}
	after, err := model.RateMatch(p.Data, x)
	if err != nil {
		return nil, nil, err
	}
	out := make([]rating.Rating, len(mt.seats))
	for i, s := range r.Sides {
		for j, seat := range s.Seats {
			out[seat] = after[i][j]
		}
	}
	pts := points(*r)
	preds := make([]prediction, len(r.Sides))
	for i, s := range r.Sides {
		role := s.Role
		if r.Family == engine.FreeForAll {
			role = "" // free-for-all seats are alike
		}
		preds[i] = prediction{
			group: fmt.Sprintf("%s|%d|%d|%s", r.Key, mt.setup.Players, len(r.Sides), role),
			even:  1 / float64(max(len(r.Sides), 2)),
			p:     chances[i], ref: other[i], won: pts[s.Role],
		}
		if r.Family == engine.FreeForAll {
			preds[i].won = ffaPoints(r.Sides, i)
		}
	}
	return out, preds, nil
}

// ffaPoints is a free-for-all seat's share of the win: 1 first alone, 1/m
// among m first, else 0 (free-for-all sides have no roles to tell apart).
func ffaPoints(sides []engine.Side, i int) float64 {
	if sides[i].Rank != 1 {
		return 0
	}
	top := 0
	for _, s := range sides {
		if s.Rank == 1 {
			top++
		}
	}
	return 1 / float64(top)
}

// convergence follows, match after match, since when the levels have
// stood in order.
type convergence struct {
	levels int
	level  func(member int) int
	// ordered and separated are the number of matches after which the
	// levels' means, and every member, have stood in order since (0: not
	// in order now); the played fields, the mean matches a member had
	// played then.
	ordered, separated             int
	orderedPlayed, separatedPlayed float64
}

// observe looks at the ratings after done matches and returns the levels'
// mean μ.
func (c *convergence) observe(done int, ratings []rating.Rating, played []int) []float64 {
	total := 0
	for _, k := range played {
		total += k
	}
	perMember := float64(total) / float64(len(played))
	means := levelMeans(ratings, c.levels, c.level)
	switch {
	case !ordered(means):
		c.ordered, c.orderedPlayed = 0, 0
	case c.ordered == 0:
		c.ordered, c.orderedPlayed = done, perMember
	}
	switch {
	case !separated(ratings, c.levels, c.level):
		c.separated, c.separatedPlayed = 0, 0
	case c.separated == 0:
		c.separated, c.separatedPlayed = done, perMember
	}
	return means
}

func levelMeans(ratings []rating.Rating, levels int, level func(int) int) []float64 {
	means := make([]float64, levels)
	per := len(ratings) / levels
	for m, r := range ratings {
		means[level(m)] += r.Mu / float64(per)
	}
	return means
}

// ordered reports whether each level's mean is above the one before it.
func ordered(means []float64) bool {
	for l := 1; l < len(means); l++ {
		if means[l] <= means[l-1] {
			return false
		}
	}
	return true
}

// separated reports whether every member of each level is above every
// member of the level before it.
func separated(ratings []rating.Rating, levels int, level func(int) int) bool {
	lo := make([]float64, levels)
	hi := make([]float64, levels)
	for l := range levels {
		lo[l], hi[l] = math.Inf(1), math.Inf(-1)
	}
	for m, r := range ratings {
		l := level(m)
		lo[l], hi[l] = min(lo[l], r.Mu), max(hi[l], r.Mu)
	}
	for l := 1; l < levels; l++ {
		if lo[l] <= hi[l-1] {
			return false
		}
	}
	return true
}

// checkpoint says whether the level means after done of total matches go
// in the report: ten times in a run, and at the end.
func checkpoint(done, total int) bool {
	step := max(total/10, 1)
	return done%step == 0 || done == total
}

// calibrate sums predictions up: the Brier score, the no-skill baseline's
// and a reliability table of ten bins, for both forms of the chances.
func calibrate(preds []prediction, from int) Calibration {
	c := Calibration{From: from, Sides: len(preds)}
	if len(preds) == 0 {
		return c
	}
	mean := map[string][2]float64{} // sum of results, count
	for _, p := range preds {
		m := mean[p.group]
		mean[p.group] = [2]float64{m[0] + p.won, m[1] + 1}
	}
	for _, p := range preds {
		// Leave one out: the baseline may know how often such sides won,
		// but not whether this one did.
		m := mean[p.group]
		base := p.even
		if m[1] > 1 {
			base = (m[0] - p.won) / (m[1] - 1)
		}
		c.Baseline += (base - p.won) * (base - p.won)
	}
	c.Baseline /= float64(len(preds))
	c.Brier, c.Skill, c.Bins = score(preds, c.Baseline, func(p prediction) float64 { return p.p })
	c.Thurstone.Brier, c.Thurstone.Skill, c.Thurstone.Bins = score(preds, c.Baseline, func(p prediction) float64 { return p.ref })
	return c
}

// score returns the Brier score of one form of the predictions, its skill
// against the baseline's score, and its reliability table.
func score(preds []prediction, baseline float64, chance func(prediction) float64) (brier, skill float64, bins []Bin) {
	bins = make([]Bin, 10)
	for i := range bins {
		bins[i].Lo, bins[i].Hi = float64(i)/10, float64(i+1)/10
	}
	for _, p := range preds {
		x := chance(p)
		brier += (x - p.won) * (x - p.won)
		b := &bins[min(int(x*10), 9)]
		b.N++
		b.Predicted += x
		b.Observed += p.won
	}
	brier /= float64(len(preds))
	if baseline > 0 {
		skill = 1 - brier/baseline
	}
	for i := range bins {
		if b := &bins[i]; b.N > 0 {
			b.Predicted /= float64(b.N)
			b.Observed /= float64(b.N)
		}
	}
	return brier, skill, bins
}
