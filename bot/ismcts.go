package bot

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"sortie/engine"
)

// ISMCTS is the policy that plans by information-set Monte Carlo tree search
// (single-observer ISMCTS, Cowling, Powley and Whitehouse 2012). Each
// iteration draws a state consistent with the seat's view from the [Sampler]
// its driver hands it (see [Ask]), walks down one tree shared by every draw —
// each seat choosing by UCB1 with availability counts, so that an action
// that exists only in some draws (a card another seat may or may not hold)
// is judged by the draws in which it exists — then plays the game out to its
// end and credits every seat on the path with its result.
//
// Simultaneous decisions are decoupled: the seats acting at once each choose
// from their own statistics at the same node, so no seat's choice is
// informed by the others' hidden ones; the next node follows the joint
// choice. Real-time games are searched flat: the bot compares each legal
// action, and waiting, as played after its reaction time, by playouts that
// model every seat as the simulator does (a reaction time before each
// action, deadlines firing on a virtual clock); it never takes longer to
// think, on the wall clock, than the reaction time it claims.
//
// The bot never sees the true state: without a sampler (a driver that calls
// Decide, or a game without Determinize) it plays its Fallback's move.
type ISMCTS struct {
	// Label is the policy's name; "ismcts" when empty.
	Label string
	// Iterations is the number of playouts per decision: 1,000 when zero in
	// turn-based and simultaneous games, 200 in real time.
	Iterations int
	// Budget, if positive, also bounds one decision's wall time. Results
	// then depend on the machine's speed; simulations leave it zero.
	Budget time.Duration
	// Exploration is the UCB1 constant, for rewards between 0 and 1: 0.7
	// when zero.
	Exploration float64
	// Guide, if set, plays the playouts for every seat: a game's heuristic
	// makes playouts closer to real play, but each of its moves costs a view
	// and a decision, several times a random move.
	Guide Policy
	// Fallback plays the bot's moves when it has no sampler: the Guide when
	// nil, or else random.
	Fallback Policy
	// Epsilon is the share of playout moves played at random even with a
	// Guide, so that playouts keep exploring.
	Epsilon float64
	// Reaction is the modelled reaction time in real-time games, the
	// Decision's Delay. When zero, the bot takes the time its Fallback (or
	// Guide) would take for its own move — a game's heuristic models how
	// long a person needs for an action, and a search bot should think no
	// faster than a person acts — or 600 ms without either.
	Reaction engine.Millis
	// Horizon, if positive, cuts playouts after that many moves: the state
	// reached is then judged by its [Evaluator] if it has one, else as even
	// for every seat. Zero plays every playout to the end.
	Horizon int
}

// Evaluator is implemented by states that can judge a position short of the
// end, so that search bots may cut their playouts (see [ISMCTS.Horizon]).
// A search bot only ever evaluates states it sampled, never the match's.
type Evaluator interface {
	// Evaluate returns each seat's prospects, between 0 (lost) and 1 (won),
	// as the reward a finished game would give: mostly the chance of
	// winning.
	Evaluate() []float64
}

// Defaults of [ISMCTS].
const (
	DefaultIterations         = 1000
	DefaultRealTimeIterations = 200
	DefaultExploration        = 0.7
	DefaultReaction           = engine.Millis(600)
)

// Name returns Label, or "ismcts".
func (m ISMCTS) Name() string {
	if m.Label != "" {
		return m.Label
	}
	return "ismcts"
}

// NewBot returns a search bot for one seat, seeded from s.Seed.
func (m ISMCTS) NewBot(g engine.Game, s Seating) Bot {
	info := g.Info()
	b := &ismctsBot{
		cfg: m, g: g, seating: s, seat: s.Seat, n: s.Players,
		realTime: info.Timing == engine.RealTime,
		maxSteps: 4*max(info.MaxActions, 100) + 1000,
		rng:      rand.New(rand.NewPCG(s.Seed, engine.Mix(s.Seed, 2))),
	}
	if b.cfg.Iterations <= 0 {
		b.cfg.Iterations = DefaultIterations
		if b.realTime {
			b.cfg.Iterations = DefaultRealTimeIterations
		}
	}
	if b.cfg.Exploration <= 0 {
		b.cfg.Exploration = DefaultExploration
	}
	if b.cfg.Reaction <= 0 {
		b.cfg.Reaction = DefaultReaction
		b.paced = m.Fallback != nil || m.Guide != nil
	}
	fb := m.Fallback
	if fb == nil {
		fb = m.Guide
	}
	if fb == nil {
		fb = Random{}
	}
	b.fallback = fb.NewBot(g, Seating{Seat: s.Seat, Players: s.Players, Options: s.Options, Seed: engine.Mix(s.Seed, 3)})
	if b.fallback == nil {
		b.fallback = Random{}.NewBot(g, s)
	}
	if o, ok := b.fallback.(Observer); ok {
		return &observingISMCTSBot{b, o}
	}
	return b
}

// ismctsBot is one seat's search bot. Its tree lives for one decision.
type ismctsBot struct {
	cfg      ISMCTS
	g        engine.Game
	seating  Seating
	seat     engine.Seat
	n        int
	realTime bool
	paced    bool // real time: take the fallback's time for each move
	maxSteps int
	rng      *rand.Rand
	fallback Bot
	guides   []Bot // playout bots by seat, made on first use

	// scratch, reused between iterations
	actors []engine.Seat
	path   []step
	cand   []int
	joint  []byte
	pend   []pending
}

// observingISMCTSBot passes what its seat sees on to a fallback that
// remembers it.
type observingISMCTSBot struct {
	*ismctsBot
	obs Observer
}

func (b *observingISMCTSBot) Observe(v engine.View, evs []engine.Event) { b.obs.Observe(v, evs) }

// Decide is called by drivers that hold no sampler: the bot plays its
// fallback's move, since it may not search a state it cannot see.
func (b *ismctsBot) Decide(v engine.View, legal []engine.Action, now engine.Millis) Decision {
	d := b.fallback.Decide(v, legal, now)
	if b.realTime && d.Delay <= 0 {
		d.Delay = b.cfg.Reaction
	}
	return d
}

// Search plays the iterations on samples and returns the most visited of
// the seat's legal actions.
func (b *ismctsBot) Search(v engine.View, legal []engine.Action, now engine.Millis, sample Sampler) Decision {
	if b.realTime {
		reaction := b.cfg.Reaction
		if b.paced {
			if d := b.fallback.Decide(v, legal, now); d.Delay > 0 {
				reaction = d.Delay
			}
		}
		return b.searchRealTime(legal, now, reaction, sample)
	}
	if len(legal) == 1 {
		return Decision{Action: legal[0]}
	}
	stop := b.stopper(0)
	root := &node{}
	for it := 0; it < b.cfg.Iterations && !stop(it); it++ {
		b.iterate(root, sample(b.rng), now)
	}
	best, bestVisits := -1, -1
	for _, a := range legal {
		i := root.find(b.seat, actionKey(a))
		if i >= 0 && root.edges[i].visits > bestVisits {
			best, bestVisits = i, root.edges[i].visits
		}
	}
	if best < 0 || bestVisits == 0 {
		return b.Decide(v, legal, now)
	}
	return Decision{Action: root.edges[best].action}
}

// stopper returns the test that ends a search early when its wall-time
// budget is spent (checked every few iterations, the clock being slow to
// read). In real time the budget is at most the reaction time.
func (b *ismctsBot) stopper(reaction engine.Millis) func(it int) bool {
	budget := b.cfg.Budget
	if b.realTime && (budget <= 0 || budget > time.Duration(reaction)*time.Millisecond) {
		budget = time.Duration(reaction) * time.Millisecond
	}
	if budget <= 0 {
		return func(int) bool { return false }
	}
	end := time.Now().Add(budget)
	return func(it int) bool { return it%8 == 7 && time.Now().After(end) }
}

// node is an information set of the tree: the edges leaving it are the
// actions of whichever seats act there, keyed by seat and action.
type node struct {
	edges []edge
	index map[edgeKey]int // once there are many edges
	joint map[string]*node
}

type edgeKey struct {
	seat engine.Seat
	key  any
}

// edge is one seat's action at a node with its statistics: visits, the
// number of iterations in which it was available, and the sum of the acting
// seat's rewards.
type edge struct {
	seat   engine.Seat
	key    any
	action engine.Action
	visits int
	avail  int
	reward float64
	child  *node
}

// step is one edge taken in an iteration.
type step struct {
	n *node
	i int
}

const indexFrom = 12

func (n *node) find(p engine.Seat, k any) int {
	if n.index != nil {
		if i, ok := n.index[edgeKey{p, k}]; ok {
			return i
		}
		return -1
	}
	for i := range n.edges {
		if e := &n.edges[i]; e.seat == p && e.key == k {
			return i
		}
	}
	return -1
}

func (n *node) add(p engine.Seat, k any, a engine.Action) int {
	n.edges = append(n.edges, edge{seat: p, key: k, action: a})
	i := len(n.edges) - 1
	switch {
	case n.index != nil:
		n.index[edgeKey{p, k}] = i
	case len(n.edges) >= indexFrom:
		n.index = make(map[edgeKey]int, 2*len(n.edges))
		for j, e := range n.edges {
			n.index[edgeKey{e.seat, e.key}] = j
		}
	}
	return i
}

// choose picks seat p's edge among its legal actions: an untried one at
// random if any (fresh reports so), else the best by UCB1 with availability
// counts.
func (b *ismctsBot) choose(n *node, p engine.Seat, legal []engine.Action) (i int, fresh bool) {
	b.cand = b.cand[:0]
	untried := 0
	for _, a := range legal {
		k := actionKey(a)
		j := n.find(p, k)
		if j < 0 {
			j = n.add(p, k, a)
		}
		e := &n.edges[j]
		e.avail++
		b.cand = append(b.cand, j)
		if e.visits == 0 {
			untried++
		}
	}
	if untried > 0 {
		k := b.rng.IntN(untried)
		for _, j := range b.cand {
			if n.edges[j].visits == 0 {
				if k == 0 {
					return j, true
				}
				k--
			}
		}
	}
	best, bestScore := b.cand[0], math.Inf(-1)
	c := b.cfg.Exploration
	for _, j := range b.cand {
		e := &n.edges[j]
		score := e.reward/float64(e.visits) + c*math.Sqrt(math.Log(float64(e.avail))/float64(e.visits))
		if score > bestScore {
			best, bestScore = j, score
		}
	}
	return best, false
}

// waitForDeadline lets time pass to s's next deadline when nobody may act,
// and reports whether it did: false when the game is over or nothing is
// scheduled.
func waitForDeadline(s engine.State, now engine.Millis) (engine.Millis, bool) {
	if _, over := s.Outcome(); over {
		return now, false
	}
	dl, ok := s.Deadline()
	if !ok {
		return now, false
	}
	s.Advance(dl)
	return max(now, dl), true
}

// iterate plays one iteration on the sample s: selection and expansion down
// the tree, a playout to the end, and the backing up of every seat's reward.
func (b *ismctsBot) iterate(root *node, s engine.State, now engine.Millis) {
	b.path = b.path[:0]
	n := root
	expanded := false
	for steps := 0; !expanded && steps < b.maxSteps; steps++ {
		actors := s.Actors()
		if len(actors) == 0 {
			var waited bool
			if now, waited = waitForDeadline(s, now); !waited {
				break
			}
			continue
		}
		if len(actors) == 1 {
			p := actors[0]
			legal := s.Legal(p)
			if len(legal) == 0 {
				break
			}
			i, fresh := b.choose(n, p, legal)
			if _, err := s.Apply(p, n.edges[i].action, now); err != nil {
				break
			}
			b.path = append(b.path, step{n, i})
			expanded = fresh
			e := &n.edges[i]
			if e.child == nil {
				e.child = &node{}
			}
			n = e.child
			continue
		}
		// Several seats decide at once: each chooses from its own edges
		// here, none seeing the others' choices; the next node is that of
		// the joint choice. (A game may hand out its own slice of actors
		// and change it as actions apply: keep a copy.)
		b.joint = b.joint[:0]
		b.actors = append(b.actors[:0], actors...)
		for _, p := range b.actors {
			legal := s.Legal(p)
			if len(legal) == 0 {
				continue
			}
			i, fresh := b.choose(n, p, legal)
			if _, err := s.Apply(p, n.edges[i].action, now); err != nil {
				continue
			}
			b.path = append(b.path, step{n, i})
			expanded = expanded || fresh
			b.joint = strconv.AppendInt(b.joint, int64(i), 36)
			b.joint = append(b.joint, ',')
		}
		if len(b.joint) == 0 {
			break
		}
		if n.joint == nil {
			n.joint = map[string]*node{}
		}
		next := n.joint[string(b.joint)]
		if next == nil {
			next = &node{}
			n.joint[string(b.joint)] = next
		}
		n = next
	}
	b.playout(s, now)
	rewards := b.rewards(s)
	for _, st := range b.path {
		e := &st.n.edges[st.i]
		e.visits++
		e.reward += rewards[e.seat]
	}
}

// playout plays s to its end (or its horizon), every seat moving at random
// or by the guide.
func (b *ismctsBot) playout(s engine.State, now engine.Millis) {
	limit := b.maxSteps
	if b.cfg.Horizon > 0 {
		limit = b.cfg.Horizon
	}
	for steps := 0; steps < limit; steps++ {
		actors := s.Actors()
		if len(actors) == 0 {
			var waited bool
			if now, waited = waitForDeadline(s, now); !waited {
				return
			}
			continue
		}
		if len(actors) > 1 {
			b.actors = append(b.actors[:0], actors...)
			actors = b.actors
		}
		for _, p := range actors {
			legal := s.Legal(p)
			if len(legal) == 0 {
				continue
			}
			s.Apply(p, b.playoutMove(s, p, legal, now).Action, now)
		}
	}
}

// playoutMove is what seat p plays in a playout: the guide's move, or a
// random one.
func (b *ismctsBot) playoutMove(s engine.State, p engine.Seat, legal []engine.Action, now engine.Millis) Decision {
	if b.cfg.Guide == nil || (b.cfg.Epsilon > 0 && b.rng.Float64() < b.cfg.Epsilon) {
		return Decision{Action: legal[b.rng.IntN(len(legal))], Delay: RandomMinDelay + engine.Millis(b.rng.Int64N(int64(RandomMaxDelay-RandomMinDelay)+1))}
	}
	if b.guides == nil {
		b.guides = make([]Bot, b.n)
		for q := range b.n {
			b.guides[q] = b.cfg.Guide.NewBot(b.g, Seating{Seat: engine.Seat(q), Players: b.n, Options: b.seating.Options, Seed: b.rng.Uint64()})
			if b.guides[q] == nil {
				b.guides[q] = Random{}.NewBot(b.g, Seating{Seat: engine.Seat(q), Players: b.n, Seed: b.rng.Uint64()})
			}
		}
	}
	d := b.guides[p].Decide(s.View(p), legal, now)
	if d.Action == nil && !b.realTime {
		d.Action = legal[b.rng.IntN(len(legal))]
	}
	return d
}

// rewards gives each seat's reward for the end of s, between 0 and 1:
// mostly whether it won, a little its rank and less its score against the
// others', so that among lines that win (or lose) alike the search still
// prefers the better ones. A game that did not end is judged by its
// Evaluator, or gives every seat the same middling reward.
func (b *ismctsBot) rewards(s engine.State) []float64 {
	r := make([]float64, b.n)
	out, over := s.Outcome()
	if !over {
		if e, ok := s.(Evaluator); ok {
			if v := e.Evaluate(); len(v) == b.n {
				for p := range r {
					r[p] = min(1, max(0, v[p]))
				}
				return r
			}
		}
	}
	lo, hi := 0, 0
	if over && len(out.Scores) == b.n {
		lo, hi = slices.Min(out.Scores), slices.Max(out.Scores)
	}
	for p := range r {
		rank, share, won := 0.5, 0.5, 0.0
		if over {
			if p < len(out.Ranks) && b.n > 1 {
				rank = float64(b.n-out.Ranks[p]) / float64(b.n-1)
			}
			if hi > lo {
				share = float64(out.Scores[p]-lo) / float64(hi-lo)
			}
			if out.Won(engine.Seat(p)) {
				won = 1
			}
		}
		r[p] = (won + rankWeight*rank + scoreWeight*share) / (1 + rankWeight + scoreWeight)
	}
	return r
}

// The weights of rank and score beside the win in a reward.
const (
	rankWeight  = 0.25
	scoreWeight = 0.1
)

// searchRealTime compares the seat's legal actions and waiting, each
// played after the reaction time. The difference between two of them is
// often one action's worth of time, far smaller than the noise of a
// playout, so every round plays all of them on the same sample with the
// same random draws (common random numbers), and the best mean wins; ties
// go to acting rather than waiting.
func (b *ismctsBot) searchRealTime(legal []engine.Action, now, reaction engine.Millis, sample Sampler) Decision {
	actions := append(slices.Clone(legal), nil) // nil: wait
	reward := make([]float64, len(actions))
	at := now + reaction
	stop := b.stopper(reaction)
	own := b.rng
	defer func() { b.rng = own }()
	it := 0
	for round := 0; it < b.cfg.Iterations && !stop(it); round++ {
		seed := own.Uint64()
		for k, a := range actions {
			b.rng = rand.New(rand.NewPCG(seed, 0x7ea1))
			s := sample(b.rng)
			b.playoutRealTime(s, now, at, a)
			reward[k] += b.rewards(s)[b.seat]
			it++
		}
	}
	best := 0
	for k := range actions {
		if reward[k] > reward[best] {
			best = k
		}
	}
	return Decision{Action: actions[best], Delay: reaction}
}

// pending is a seat's decision waiting for its time in a real-time playout.
type pending struct {
	action engine.Action
	at     engine.Millis
	set    bool
}

// playoutRealTime plays s on a virtual clock as the simulator does: every
// seat decides (randomly or by the guide) and acts after its reaction time;
// deadlines fire when due and make every seat decide again. The bot's own
// seat first plays first (nil: nothing) at time at.
func (b *ismctsBot) playoutRealTime(s engine.State, now, at engine.Millis, first engine.Action) {
	if cap(b.pend) < b.n {
		b.pend = make([]pending, b.n)
	}
	pend := b.pend[:b.n]
	clear(pend)
	pend[b.seat] = pending{action: first, at: at, set: true}
	isActor := make([]bool, b.n)
	limit := b.maxSteps
	if b.cfg.Horizon > 0 {
		limit = b.cfg.Horizon
	}
	for steps := 0; steps < limit; steps++ {
		actors := s.Actors()
		if len(actors) == 0 {
			if _, over := s.Outcome(); over {
				return
			}
		}
		clear(isActor)
		for _, p := range actors {
			isActor[p] = true
			if pend[p].set {
				continue
			}
			legal := s.Legal(p)
			if len(legal) == 0 {
				pend[p] = pending{at: now + 100, set: true}
				continue
			}
			d := b.playoutMove(s, p, legal, now)
			if p == b.seat && !b.paced {
				d.Delay = b.cfg.Reaction
			}
			pend[p] = pending{action: d.Action, at: now + max(d.Delay, 1), set: true}
		}
		who := -1
		for p := range pend {
			if !isActor[p] {
				pend[p] = pending{}
			} else if pend[p].set && (who < 0 || pend[p].at < pend[who].at) {
				who = p
			}
		}
		dl, hasDl := s.Deadline()
		if hasDl && (who < 0 || dl <= pend[who].at) {
			s.Advance(dl)
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
		s.Advance(t)
		now = t
		if w.action != nil {
			s.Apply(engine.Seat(who), w.action, t)
		}
	}
}

// parseISMCTS reads a search policy written "ismcts:" followed by settings
// separated by colons: a bare number of iterations, or key=value with keys
// iter, guide (a policy of g: playouts by it, one move in five at random
// unless eps says otherwise), eps, horizon and reaction (ms). For example
// "ismcts:200" or "ismcts:500:guide=heuristic:horizon=40".
func parseISMCTS(g engine.Game, name string) (Policy, error) {
	m := ISMCTS{Label: name}
	epsSet := false
	for _, kv := range strings.Split(strings.TrimPrefix(name, "ismcts:"), ":") {
		k, v, ok := strings.Cut(kv, "=")
		if !ok {
			k, v = "iter", kv
		}
		var err error
		switch k {
		case "iter":
			m.Iterations, err = strconv.Atoi(v)
		case "eps":
			m.Epsilon, err = strconv.ParseFloat(v, 64)
			epsSet = true
		case "horizon":
			m.Horizon, err = strconv.Atoi(v)
		case "reaction":
			var ms int
			ms, err = strconv.Atoi(v)
			m.Reaction = engine.Millis(ms)
		case "guide":
			for _, p := range Policies(g) {
				if p.Name() == v {
					m.Guide = p
				}
			}
			if m.Guide == nil {
				err = fmt.Errorf("no policy %q", v)
			}
		default:
			err = fmt.Errorf("unknown setting %q (iter, guide, eps, horizon, reaction)", k)
		}
		if err != nil {
			return nil, fmt.Errorf("bot %q: %v", name, err)
		}
	}
	if m.Guide != nil && !epsSet {
		m.Epsilon = 0.2
	}
	return m, nil
}

// actionKey returns a comparable key that is equal for equal actions: the
// action itself when its type compares by value, else its JSON form.
func actionKey(a engine.Action) any {
	t := reflect.TypeOf(a)
	byValue, ok := keyByValue.Load(t)
	if !ok {
		byValue = comparesByValue(t)
		keyByValue.Store(t, byValue)
	}
	if byValue.(bool) {
		return a
	}
	b, err := engine.MarshalTyped(a)
	if err != nil {
		return a
	}
	return string(b)
}

var keyByValue sync.Map // reflect.Type → bool

// comparesByValue reports whether == on values of t compares their contents:
// no pointers, interfaces, slices, maps, functions or channels inside.
func comparesByValue(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128, reflect.String:
		return true
	case reflect.Array:
		return comparesByValue(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if !comparesByValue(t.Field(i).Type) {
				return false
			}
		}
		return true
	}
	return false
}
