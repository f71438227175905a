package coach

import (
	"math/rand/v2"
	"slices"

	"sortie/bot"
	"sortie/engine"
)

// roller plays a candidate and the rest of a sampled game for one analysis.
type roller struct {
	g        engine.Game
	seat     engine.Seat
	n        int
	opts     engine.Options
	guide    bot.Policy
	horizon  int
	realTime bool
	maxSteps int
	now      engine.Millis
	moves    int  // played by the rollouts so far
	ended    int  // rollouts that reached the end of the game
	split    bool // one of them ended with some seats winning, not all

	past []engine.Event // what the seat saw since the start (see Position.Past)

	// scratch, reused between rollouts
	bots    []bot.Bot
	obs     []bot.Observer // the guides that remember, by seat (nil: none)
	actors  []engine.Seat
	pend    []pending
	isActor []bool
}

func newRoller(p Position, o Options) *roller {
	info := p.Game.Info()
	r := &roller{
		g: p.Game, seat: p.Seat, n: p.Players, opts: p.Options, guide: o.Guide, horizon: o.Horizon,
		realTime: info.Timing == engine.RealTime, maxSteps: 4*max(info.MaxActions, 100) + 1000, now: p.Now,
		past: p.Past,
	}
	r.guide = guideOf(p.Game, o.Guide)
	r.bots = make([]bot.Bot, r.n)
	r.obs = make([]bot.Observer, r.n)
	r.isActor = make([]bool, r.n)
	r.pend = make([]pending, r.n)
	return r
}

// guideOf returns the policy that plays the rollouts: the one given, else
// the game's "heuristic", else random play.
func guideOf(g engine.Game, p bot.Policy) bot.Policy {
	if p != nil {
		return p
	}
	if pr, ok := g.(bot.Provider); ok {
		for _, pol := range pr.Policies() {
			if pol.Name() == "heuristic" {
				return pol
			}
		}
	}
	return bot.Random{}
}

// newGuide returns a fresh guide bot for seat q, seeded from seed.
func (r *roller) newGuide(q engine.Seat, seed uint64) bot.Bot {
	b := r.guide.NewBot(r.g, bot.Seating{Seat: q, Players: r.n, Options: r.opts, Seed: engine.Mix(seed, uint64(q)+1)})
	if b == nil {
		b = bot.Random{}.NewBot(r.g, bot.Seating{Seat: q, Players: r.n, Seed: engine.Mix(seed, uint64(q)+1)})
	}
	return b
}

// play applies action a for the seat on sample s, then plays s out with a
// guide at every seat, its random draws seeded by seed (the same for every
// candidate of a sample), and returns the seat's win (0 to 1) and a finer
// reward. ok is false when the sample refuses a.
func (r *roller) play(s engine.State, a engine.Action, seed uint64) (win, val float64, ok bool) {
	// Guides that remember what they saw (Plan de Secours's, the tiles
	// laid this round) are told what the seat saw that they saw too, and
	// their view of the sample: nothing the seat may not know.
	observing := false
	for q := range r.bots {
		b := r.newGuide(engine.Seat(q), seed)
		r.bots[q] = b
		r.obs[q], _ = b.(bot.Observer)
		if r.obs[q] != nil {
			observing = true
			var seen []engine.Event
			for _, e := range r.past {
				if e.To.Sees(engine.Seat(q)) {
					seen = append(seen, e)
				}
			}
			r.obs[q].Observe(s.View(engine.Seat(q)), seen)
		}
	}
	evs, err := s.Apply(r.seat, a, r.now)
	if err != nil {
		return 0, 0, false
	}
	if observing {
		r.tell(s, evs)
	}
	if r.realTime {
		r.playRealTime(s)
	} else {
		rng := rand.New(rand.NewPCG(seed, 0x7011))
		r.playTurns(s, rng)
	}
	win, val = r.reward(s)
	return win, val, true
}

// tell shows the guides that remember what happened: the events their
// seat may see, and its view after them.
func (r *roller) tell(s engine.State, evs []engine.Event) {
	for q, o := range r.obs {
		if o != nil {
			o.Observe(s.View(engine.Seat(q)), engine.Visible(nil, evs, engine.Seat(q)))
		}
	}
}

// limit is how many moves a rollout plays at most.
func (r *roller) limit() int {
	if r.horizon > 0 {
		return r.horizon
	}
	return r.maxSteps
}

// toNextTurn says whether a rollout of s stops where the seat's next turn
// begins (see Options.Horizon).
func (r *roller) toNextTurn(s engine.State) bool {
	if r.horizon != 0 {
		return false
	}
	_, ok := s.(bot.Evaluator)
	return ok
}

// playTurns plays s out, every actor moving by its guide (in a
// simultaneous decision, each from its own view, in seat order).
func (r *roller) playTurns(s engine.State, rng *rand.Rand) {
	now := r.now
	nextTurn, others := r.toNextTurn(s), false
	for steps := 0; steps < r.limit(); steps++ {
		if _, over := s.Outcome(); over {
			return
		}
		actors := s.Actors()
		if nextTurn && others && slices.Contains(actors, r.seat) {
			return
		}
		if len(actors) == 0 {
			dl, ok := s.Deadline()
			if !ok {
				return
			}
			r.tell(s, s.Advance(dl))
			now = max(now, dl)
			continue
		}
		r.actors = append(r.actors[:0], actors...)
		for _, p := range r.actors {
			legal := s.Legal(p)
			if len(legal) == 0 {
				continue
			}
			others = others || p != r.seat
			a := legal[0]
			if len(legal) > 1 {
				if a = r.bots[p].Decide(s.View(p), legal, now).Action; a == nil {
					a = legal[rng.IntN(len(legal))]
				}
			}
			evs, err := s.Apply(p, a, now)
			if err != nil {
				evs, _ = s.Apply(p, legal[rng.IntN(len(legal))], now)
			}
			r.moves++
			r.tell(s, evs)
		}
	}
}

// pending is a seat's decision waiting for its time in a real-time rollout.
type pending struct {
	action engine.Action
	at     engine.Millis
	set    bool
}

// pollEvery is how long a real-time seat with nothing to do waits before
// it looks again.
const pollEvery engine.Millis = 100

// playRealTime plays s out on a virtual clock as the simulator does: every
// actor's guide decides, and its action lands after the guide's reaction
// time; deadlines fire when due, and make every seat decide again.
func (r *roller) playRealTime(s engine.State) {
	now := r.now
	pend := r.pend
	clear(pend)
	for steps := 0; steps < r.limit(); steps++ {
		if _, over := s.Outcome(); over {
			return
		}
		actors := s.Actors()
		clear(r.isActor)
		for _, p := range actors {
			r.isActor[p] = true
			if pend[p].set {
				continue
			}
			legal := s.Legal(p)
			if len(legal) == 0 {
				pend[p] = pending{at: now + pollEvery, set: true}
				continue
			}
			d := r.bots[p].Decide(s.View(p), legal, now)
			pend[p] = pending{action: d.Action, at: now + max(d.Delay, 1), set: true}
		}
		who := -1
		for p := range pend {
			if !r.isActor[p] {
				pend[p] = pending{}
			} else if pend[p].set && (who < 0 || pend[p].at < pend[who].at) {
				who = p
			}
		}
		dl, hasDl := s.Deadline()
		if hasDl && (who < 0 || dl <= pend[who].at) {
			r.tell(s, s.Advance(dl))
			now = max(now, dl)
			clear(pend)
			continue
		}
		if who < 0 {
			return
		}
		w := pend[who]
		pend[who] = pending{}
		t := max(now, w.at)
		r.tell(s, s.Advance(t))
		now = t
		if w.action != nil {
			evs, _ := s.Apply(engine.Seat(who), w.action, t) // (refused: the seat decides again)
			r.moves++
			r.tell(s, evs)
		}
	}
}

// The weights of rank and score beside the win in the finer reward, as the
// search bots weigh them.
const (
	rankWeight  = 0.25
	scoreWeight = 0.1
)

// reward is the seat's result at the end of a rollout: whether it won (its
// team), and a finer reward that also counts its rank and score, to break
// ties between actions that win alike. A rollout cut short is judged by the
// state's bot.Evaluator, or as even.
func (r *roller) reward(s engine.State) (win, val float64) {
	out, over := s.Outcome()
	if !over {
		if e, ok := s.(bot.Evaluator); ok {
			if v := e.Evaluate(); len(v) == r.n {
				w := min(1, max(0, v[r.seat]))
				return w, w
			}
		}
		return 0.5, 0.5
	}
	p := int(r.seat)
	if out.Won(r.seat) {
		win = 1
	}
	r.ended++
	r.split = r.split || len(out.Winners) > 0 && len(out.Winners) < r.n
	rank, share := 0.5, 0.5
	if p < len(out.Ranks) && r.n > 1 {
		rank = float64(r.n-out.Ranks[p]) / float64(r.n-1)
	}
	if len(out.Scores) == r.n {
		lo, hi := slices.Min(out.Scores), slices.Max(out.Scores)
		if hi > lo {
			share = float64(out.Scores[p]-lo) / float64(hi-lo)
		}
	}
	return win, (win + rankWeight*rank + scoreWeight*share) / (1 + rankWeight + scoreWeight)
}
