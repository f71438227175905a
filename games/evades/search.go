package evades

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"

	"sortie/bot"
	"sortie/engine"
)

// This file serves the search bots: Evaluate judges a position short of the
// end (bot.Evaluator), so that playouts can stop after a few moves. A search
// bot only ever evaluates states it sampled with Determinize, never the
// match's own: Evaluate may read every hand and plan.

// Tuning of Evaluate.
const (
	evalCardsPerTurn = 2.0 // cards a seat gains in a turn (§4.3)
	evalWarningCost  = 4   // a door with a Warning spot, in tenths of a card
	evalHeldDiscount = 3   // a door whose cards are in hand, in tenths of a card each
	evalSharpness    = 1.2 // how much one turn ahead weighs in the odds
	evalNoRoute      = 40  // turns charged to a seat with no object left to take
	evalHeldShare    = 0.8 // a useful card in hand, against one already spent on a door
	evalWarningTurns = 0.3 // turns a Warning spot ahead costs on average (Guzman, detector, speaker)
)

// Evaluate returns each seat's chance of escaping first, judged from how
// many cards it still lacks for its cheapest route (through a room holding an
// object its plan needs, then out through its exit, with the faces the doors
// show now) and from where it sits in the order of play.
func (s *State) Evaluate() []float64 {
	out := make([]float64, s.n)
	if s.phase == phaseOver {
		if s.winner != noSeat {
			out[s.winner] = 1
		}
		return out
	}
	var turns [maxPlayers]float64
	best := math.Inf(1)
	for q := range s.n {
		turns[q] = s.turnsToEscape(q)
		best = min(best, turns[q])
	}
	sum := 0.0
	for q := range s.n {
		out[q] = math.Exp(-evalSharpness * (turns[q] - best))
		sum += out[q]
	}
	for q := range out {
		out[q] /= sum
	}
	return out
}

// turnsToEscape estimates how many turns seat q needs to escape: the cards
// its cheapest route lacks (jokers filling gaps) at two a turn, its skips
// and extra turns, and how far it sits from the next turn in play order.
func (s *State) turnsToEscape(q int) float64 {
	me := &s.seats[q]
	var need hand
	warnings, ok := s.routeNeeds(q, &need)
	if !ok {
		return evalNoRoute
	}
	route, lack := 0, 0
	for t := range numCards {
		route += int(need[t])
		lack += max(0, int(need[t])-int(me.hand[t]))
	}
	lack = max(0, lack-int(me.hand[Joker]))
	// Cards in hand are worth a little less than doors behind the pawn:
	// they can still be lost, and crossing is what ends the game.
	left := float64(lack) + (1-evalHeldShare)*float64(route-lack)
	order := 0 // seats that play before q's next draw
	for p := int(s.active); p != q; p = s.nextSeat(p) {
		order++
	}
	if q == int(s.active) && s.phase == phaseMove {
		if lack == 0 {
			return 0 // it may walk out now
		}
		order = s.n // its next draw comes after a round
	}
	return left/evalCardsPerTurn + evalWarningTurns*float64(warnings) + float64(order)/float64(s.n) + float64(me.skip) - float64(me.extra)
}

// routeNeeds adds to need, by type, the cards of seat q's cheapest route: to
// a room holding an object its plan still needs (both in the two-object
// variant), then through its exit, and returns how many Warning spots the
// route crosses; ok is false if no object is left to take.
func (s *State) routeNeeds(q int, need *hand) (warnings int, ok bool) {
	me := &s.seats[q]
	pl := me.plan
	exit := board.planDoor[pl]
	lobby := board.other(exit, board.planExit[pl])
	var w [numDoors]int32
	for d := range numDoors {
		w[d] = s.doorWeight(Door(d), &me.hand)
	}
	fromPawn := searchFrom(me.area, &w)
	addDoor := func(d Door) {
		need[s.face(d)] += uint8(cards[s.face(d)].Level)
		if board.warning[d] {
			warnings++
		}
	}
	carried, hasType := 0, [numObjectTypes]bool{}
	for o, h := range s.objHolder {
		if int(h) == q {
			carried++
			hasType[objects[o].Type] = true
		}
	}
	missing := s.objectsRequired - carried
	if missing <= 0 {
		fromPawn.walk(lobby, addDoor)
		addDoor(exit)
		return warnings, true
	}
	toLobby := searchFrom(lobby, &w)
	// Rooms holding a type of the plan not carried yet.
	var rooms [numObjects]Area
	var types [numObjects]ObjectType
	k := 0
	for o, r := range s.objRoom {
		t := objects[o].Type
		if r >= 0 && onPlan(pl, t) && !hasType[t] {
			rooms[k], types[k] = Area(r), t
			k++
		}
	}
	bestCost, first, second := int32(math.MaxInt32), -1, -1
	for i := range k {
		if missing == 1 {
			if c := fromPawn.dist[rooms[i]] + toLobby.dist[rooms[i]]; c < bestCost {
				bestCost, first = c, i
			}
			continue
		}
		fromRoom := searchFrom(rooms[i], &w)
		for j := range k {
			if types[j] == types[i] {
				continue
			}
			if c := fromPawn.dist[rooms[i]] + fromRoom.dist[rooms[j]] + toLobby.dist[rooms[j]]; c < bestCost {
				bestCost, first, second = c, i, j
			}
		}
	}
	if first < 0 || bestCost >= unreachable {
		return 0, false
	}
	fromPawn.walk(rooms[first], addDoor)
	last := rooms[first]
	if second >= 0 {
		fromRoom := searchFrom(rooms[first], &w)
		fromRoom.walk(rooms[second], addDoor)
		last = rooms[second]
	}
	toLobby.walk(last, addDoor)
	addDoor(exit)
	return warnings, true
}

// doorWeight is what crossing inner door d costs the route of a seat
// holding h, in tenths of a card: its level, a little less for the cards of
// its type in hand, and a little more with a Warning spot. Exits are never
// crossed on the way.
func (s *State) doorWeight(d Door, h *hand) int32 {
	if board.exitDoor[d] {
		return unreachable
	}
	f := s.face(d)
	n := cards[f].Level
	w := int32(10*n - evalHeldDiscount*min(n, int(h[f])))
	if board.warning[d] {
		w += evalWarningCost
	}
	return w
}

// unreachable is the distance of an area no route reaches.
const unreachable = math.MaxInt32 / 4

// shortestPaths is the result of a search from one area: the distance to
// every area and the door through which each was reached.
type shortestPaths struct {
	from Area
	dist [numAreas]int32
	via  [numAreas]int8
}

// searchFrom runs Dijkstra from an area over door weights w. The graph is
// small and its frontier narrow: a scan of the frontier beats a heap.
func searchFrom(from Area, w *[numDoors]int32) (sp shortestPaths) {
	sp.from = from
	for a := range sp.dist {
		sp.dist[a], sp.via[a] = unreachable, -1
	}
	sp.dist[from] = 0
	var frontier [numAreas]Area
	frontier[0] = from
	open := 1
	for open > 0 {
		k := 0
		for i := 1; i < open; i++ {
			if sp.dist[frontier[i]] < sp.dist[frontier[k]] {
				k = i
			}
		}
		u := frontier[k]
		open--
		frontier[k] = frontier[open]
		du := sp.dist[u]
		for _, d := range board.adj[u] {
			if w[d] >= unreachable {
				continue
			}
			v := board.other(d, u)
			if nd := du + w[d]; nd < sp.dist[v] {
				if sp.dist[v] == unreachable {
					frontier[open] = v
					open++
				}
				sp.dist[v], sp.via[v] = nd, int8(d)
			}
		}
	}
	return
}

// walk calls fn with each door on the path between the search's start and
// area to.
func (sp *shortestPaths) walk(to Area, fn func(Door)) {
	for a := to; a != sp.from && sp.via[a] >= 0; {
		d := Door(sp.via[a])
		fn(d)
		a = board.other(d, a)
	}
}

// Hard is the game's own "hard" level: the heuristic, looking one round
// ahead. At each decision it takes the heuristic's few best actions and plays
// each out on the same determinizations of the match (common random
// numbers): the action, then every seat playing the heuristic until the bot's
// next turn begins, and judges where that leaves it with Evaluate (or the
// outcome, if the game ended). The action with the best mean wins. It sees
// only its seat's view and the samples its driver hands it (bot.Searcher);
// without a sampler it plays the heuristic.
type Hard struct {
	// Candidates is how many of the heuristic's best actions are compared:
	// 6 when zero.
	Candidates int
	// Rounds is how many determinizations each candidate is played on: 24
	// when zero.
	Rounds int
}

// Defaults of Hard.
const (
	hardCandidates = 6
	hardRounds     = 24
	hardMaxActions = 200 // a rollout never plays more than this many actions
)

// Name returns "hard".
func (Hard) Name() string { return "hard" }

// NewBot returns a hard bot for one seat, seeded from s.Seed.
func (h Hard) NewBot(_ engine.Game, s bot.Seating) bot.Bot {
	if h.Candidates <= 0 {
		h.Candidates = hardCandidates
	}
	if h.Rounds <= 0 {
		h.Rounds = hardRounds
	}
	return &hardBot{cfg: h, seat: int(s.Seat), rng: rand.New(rand.NewPCG(s.Seed, engine.Mix(s.Seed, 7)))}
}

type hardBot struct {
	cfg  Hard
	seat int
	rng  *rand.Rand
}

// Decide plays the heuristic: without samples there is nothing to look at.
func (b *hardBot) Decide(v engine.View, legal []engine.Action, now engine.Millis) bot.Decision {
	return (&heuristicBot{seat: b.seat}).Decide(v, legal, now)
}

// Search compares the heuristic's best actions by their rollouts.
func (b *hardBot) Search(v engine.View, legal []engine.Action, now engine.Millis, sample bot.Sampler) bot.Decision {
	view := asView(v)
	if view == nil || len(legal) <= 1 || view.Seat != b.seat {
		return b.Decide(v, legal, now)
	}
	pl := newPlanner(view, b.seat)
	order := make([]int, len(legal))
	score := make([]float64, len(legal))
	for i, a := range legal {
		order[i], score[i] = i, pl.score(a)
	}
	slices.SortStableFunc(order, func(i, j int) int { return cmp.Compare(score[j], score[i]) })
	cand := order[:min(len(order), b.cfg.Candidates)]
	total := make([]float64, len(cand))
	for range b.cfg.Rounds {
		seed := b.rng.Uint64()
		for k, i := range cand {
			s, ok := sample(rand.New(rand.NewPCG(seed, 0x5eed))).(*State)
			if !ok {
				return b.Decide(v, legal, now)
			}
			if _, err := s.Apply(engine.Seat(b.seat), legal[i], now); err != nil {
				continue
			}
			total[k] += s.rollout(b.seat, now)
		}
	}
	best := 0
	for k := range cand {
		if total[k] > total[best] {
			best = k
		}
	}
	return bot.Decision{Action: legal[cand[best]]}
}

// rollout plays every seat by the heuristic until seat me's next turn begins
// (or the game ends) and returns me's prospects then.
func (s *State) rollout(me int, now engine.Millis) float64 {
	for range hardMaxActions {
		if s.phase == phaseOver {
			break
		}
		if int(s.active) == me && s.phase == phaseAction && s.pend.kind == pendNone {
			break
		}
		p := s.actor()
		legal := s.Legal(engine.Seat(p))
		a := legal[0]
		if len(legal) > 1 {
			a = (&heuristicBot{seat: p}).Decide(s.View(engine.Seat(p)), legal, now).Action
		}
		if _, err := s.Apply(engine.Seat(p), a, now); err != nil {
			break
		}
	}
	if s.phase == phaseOver {
		if int(s.winner) == me {
			return 1
		}
		return 0
	}
	return s.Evaluate()[me]
}
