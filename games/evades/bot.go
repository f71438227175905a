package evades

import (
	"math"

	"sortie/bot"
	"sortie/engine"
)

// Heuristic is the game's own policy, "heuristic". It plans the cheapest
// route, given the faces the doors show now, from its pawn to a room holding
// an object of its plan and on to its exit; it draws the cards that route
// needs, walks it as far as its hand pays, and answers every effect to
// shorten its own route or slow the opponent who looks closest to escaping.
// It sees only its seat's view and legal actions.
type Heuristic struct{}

// Name returns "heuristic".
func (Heuristic) Name() string { return "heuristic" }

// NewBot returns a heuristic bot for one seat.
func (Heuristic) NewBot(_ engine.Game, s bot.Seating) bot.Bot {
	return &heuristicBot{seat: int(s.Seat)}
}

type heuristicBot struct {
	seat int
}

// Decide scores every legal action and plays the best; ties go to the first
// listed, so the bot is deterministic.
func (b *heuristicBot) Decide(v engine.View, legal []engine.Action, _ engine.Millis) bot.Decision {
	view := asView(v)
	if view == nil || len(legal) <= 1 || view.Seat != b.seat {
		return bot.Decision{Action: legal[0]}
	}
	pl := newPlanner(view, b.seat)
	best, bestScore := legal[0], math.Inf(-1)
	for _, a := range legal {
		if sc := pl.score(a); sc > bestScore {
			best, bestScore = a, sc
		}
	}
	return bot.Decision{Action: best}
}

// asView reads a view of this game, or nil.
func asView(v engine.View) *View {
	switch x := v.(type) {
	case *View:
		return x
	case View:
		return &x
	}
	return nil
}

// Tuning of the heuristic, in units of "one useful card".
const (
	warningRisk   = 0.4  // extra cost of a door with a Warning spot
	heldDiscount  = 0.3  // a door whose type we hold already is that much cheaper
	uselessCard   = 0.05 // value of a card no door on our route asks for
	jokerValue    = 1.3  // a joker fills any gap
	nextDoorBonus = 0.3  // a card for the very next door is worth a bit more
	skipTurnCost  = 2.5  // losing a turn to Chantage
	passPassBase  = 1.2  // average worth of a Pass-Pass card near the cell
)

// planner holds what the bot works out once per decision.
type planner struct {
	v       *View
	me      int
	area    Area
	held    hand
	face    [numDoors]Card
	cost    [numDoors]float64
	route   []Door // every door to cross until the escape, in order
	need    hand   // cards the route asks for, by type
	next    int    // route[0], or -1
	exit    Door
	exitTo  Area
	cellGap int       // doors between the pawn and the cell
	flips   []float64 // flipGain by door, worked out on first use
}

func newPlanner(v *View, me int) *planner {
	pl := &planner{v: v, me: me, next: -1}
	sv := v.Seats[me]
	pl.area = sv.Area
	for _, c := range sv.Hand {
		pl.held[c]++
	}
	for _, d := range v.Doors {
		pl.face[d.Door] = d.Face
	}
	if sv.Plan != nil {
		pl.exit = board.planDoor[*sv.Plan]
		pl.exitTo = board.planExit[*sv.Plan]
	}
	for d := range numDoors {
		pl.cost[d] = pl.doorCost(Door(d), pl.face[d])
	}
	pl.route = pl.plan(pl.area)
	pl.lookAhead(len(pl.route))
	if len(pl.route) > 0 {
		pl.next = int(pl.route[0])
	}
	pl.cellGap = pl.hops(pl.area, cellArea)
	return pl
}

// lookAhead makes the planner rate cards for the first n doors of its route
// only (the whole route for the heuristic): the cards the rest of the route
// asks for become useless to it.
func (pl *planner) lookAhead(n int) {
	pl.need = hand{}
	for _, d := range pl.route[:min(len(pl.route), n)] {
		pl.need[pl.face[d]] += uint8(cards[pl.face[d]].Level)
	}
}

// doorCost is how dear crossing door d showing face f looks now.
func (pl *planner) doorCost(d Door, f Card) float64 {
	if board.exitDoor[d] && d != pl.exit {
		return math.Inf(1)
	}
	n := cards[f].Level
	c := float64(n) - heldDiscount*float64(min(n, int(pl.held[f])))
	if board.warning[d] {
		c += warningRisk
	}
	return c
}

// shortest runs Dijkstra from an area over the current door costs.
func (pl *planner) shortest(from Area, cost *[numDoors]float64) (dist [numAreas]float64, prev [numAreas]int8) {
	var done [numAreas]bool
	for i := range dist {
		dist[i], prev[i] = math.Inf(1), -1
	}
	dist[from] = 0
	for {
		u, best := -1, math.Inf(1)
		for a := range numAreas {
			if !done[a] && dist[a] < best {
				u, best = a, dist[a]
			}
		}
		if u < 0 {
			return dist, prev
		}
		done[u] = true
		if areas[u].Kind == kindExit {
			continue
		}
		for _, d := range board.adj[u] {
			w := board.other(d, Area(u))
			if nd := best + cost[d]; nd < dist[w] {
				dist[w], prev[w] = nd, int8(d)
			}
		}
	}
}

// path returns the doors from the start of a search to area to.
func path(prev *[numAreas]int8, from, to Area) []Door {
	var out []Door
	for a := to; a != from; {
		d := prev[a]
		if d < 0 {
			return nil
		}
		out = append(out, Door(d))
		a = board.other(Door(d), a)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// plan returns the cheapest route from area a: through rooms holding the
// objects still needed, then out through the plan's exit.
func (pl *planner) plan(a Area) []Door {
	r, _ := pl.planWith(a, &pl.cost)
	return r
}

func (pl *planner) planWith(a Area, cost *[numDoors]float64) ([]Door, float64) {
	sv := pl.v.Seats[pl.me]
	if sv.Plan == nil {
		return nil, 0
	}
	missing := pl.v.ObjectsRequired - len(sv.Carried)
	distA, prevA := pl.shortest(a, cost)
	if missing <= 0 {
		return path(&prevA, a, pl.exitTo), distA[pl.exitTo]
	}
	// Rooms holding an object type of the plan not carried yet.
	var carried [numObjectTypes]bool
	for _, o := range sv.Carried {
		carried[objects[o].Type] = true
	}
	type stop struct {
		room Area
		typ  ObjectType
	}
	var stops []stop
	for _, rv := range pl.v.Rooms {
		for _, o := range rv.Objects {
			t := objects[o].Type
			if onPlan(*sv.Plan, t) && !carried[t] {
				stops = append(stops, stop{rv.Room, t})
			}
		}
	}
	best, bestCost := []Door(nil), math.Inf(1)
	for i, s1 := range stops {
		d1, p1 := pl.shortest(s1.room, cost)
		if missing == 1 {
			if c := distA[s1.room] + d1[pl.exitTo]; c < bestCost {
				best, bestCost = append(path(&prevA, a, s1.room), path(&p1, s1.room, pl.exitTo)...), c
			}
			continue
		}
		for j, s2 := range stops {
			if i == j || s2.typ == s1.typ {
				continue
			}
			d2, p2 := pl.shortest(s2.room, cost)
			if c := distA[s1.room] + d1[s2.room] + d2[pl.exitTo]; c < bestCost {
				r := append(path(&prevA, a, s1.room), path(&p1, s1.room, s2.room)...)
				best, bestCost = append(r, path(&p2, s2.room, pl.exitTo)...), c
			}
		}
	}
	return best, bestCost
}

// hops is the fewest doors between two areas.
func (pl *planner) hops(from, to Area) int {
	var one [numDoors]float64
	for d := range one {
		one[d] = 1
		if board.exitDoor[d] {
			one[d] = math.Inf(1)
		}
	}
	dist, _ := pl.shortest(from, &one)
	return int(dist[to])
}

// cardValue is what one more card of type c is worth given the route and a
// hand h.
func (pl *planner) cardValue(h *hand, c Card) float64 {
	if c == Joker {
		gap := 0
		for t := range numCards {
			gap += max(0, int(pl.need[t])-int(h[t]))
		}
		if gap > int(h[Joker]) {
			return jokerValue
		}
		return 0.3
	}
	if int(h[c]) < int(pl.need[c]) {
		v := 1.0
		if pl.next >= 0 && pl.face[pl.next] == c {
			v += nextDoorBonus
		}
		return v
	}
	return uselessCard
}

// gain is the worth of adding cs to the hand (in order).
func (pl *planner) gain(cs ...Card) float64 {
	h := pl.held
	v := 0.0
	for _, c := range cs {
		v += pl.cardValue(&h, c)
		h[c]++
	}
	return v
}

// loss is the worth of giving up cs.
func (pl *planner) loss(cs Cards) float64 {
	h := pl.held
	v := 0.0
	for _, c := range cs.items() {
		h[c]--
		v += pl.cardValue(&h, c)
	}
	return v
}

// drawLoss is the worth of the cheapest discard a two-card draw needs now
// (none below 11 cards, D10): the draw is rated with the discard it opens.
func (pl *planner) drawLoss() float64 {
	k := max(0, pl.held.size()+takeCount-handLimit)
	if k == 0 {
		return 0
	}
	var buf [numCanonSets]int16
	best := math.Inf(1)
	for _, m := range canonSets(buf[:0], &pl.held, k) {
		best = min(best, pl.loss(canonSetCards[m]))
	}
	return best
}

// blindValue is the expected worth of one card from the draw pile.
func (pl *planner) blindValue() float64 {
	v, n := 0.0, 0
	for c := range numCards {
		v += float64(cards[c].Count) * pl.cardValue(&pl.held, c)
		n += cards[c].Count
	}
	return v / float64(n)
}

// passPassValue is the expected worth of revealing a Pass-Pass card: mostly
// good, but Derrière les barreaux sends the pawn back to the cell.
func (pl *planner) passPassValue() float64 {
	return passPassBase - 0.12*float64(pl.cellGap)
}

// threat rates how close an opponent looks to escaping.
func (pl *planner) threat(q int) float64 {
	sv := pl.v.Seats[q]
	t := 3 * float64(len(sv.Carried))
	if sv.Area != cellArea {
		t += 1
	}
	if areas[sv.Area].Kind == kindLobby {
		t += 3
	}
	return t
}

// score rates one legal action; the highest is played.
func (pl *planner) score(a engine.Action) float64 {
	switch a := a.(type) {
	case TakeFaceUp:
		return pl.gain(pl.v.Row[a.Slots[0]], pl.v.Row[a.Slots[1]]) - pl.drawLoss()
	case TakeBlind:
		return 2*pl.blindValue() - pl.drawLoss()
	case DrawPassPass:
		v := pl.passPassValue()
		if len(pl.v.Seats[pl.me].Hand) >= handLimit-1 {
			v += 0.3 // no discard needed
		}
		return v
	case CrossDoor:
		return pl.scoreCross(a)
	case TakeObject:
		return 100
	case EndTurn:
		return 0
	case ChooseVent:
		from := pl.area
		if a.Area != ventNone {
			from = mustArea(a.Area)
		}
		_, c := pl.planWith(from, &pl.cost)
		return -c
	case ChooseCodetainee:
		switch a.Source {
		case sourceFaceUp:
			i, _ := a.Slot.Get()
			return pl.gain(pl.v.Row[i])
		case sourceBlind:
			return pl.blindValue()
		}
		return pl.passPassValue() - 0.2
	case ChooseTarget:
		return pl.scoreTarget(a.Seat)
	case ChooseDoors:
		// Each flip is rated alone against the current route's cost, and a
		// pair by the sum of its two: 34 plans rather than 596.
		v := 0.0
		for _, d := range a.Doors.items() {
			v += pl.flipGain(d)
		}
		return v - 0.01*float64(a.Doors.Len())
	case GiveCards:
		return -pl.loss(a.Cards)
	case AnswerBlackmail:
		if a.Skip {
			return -skipTurnCost
		}
		return -pl.loss(a.Give)
	case Discard:
		return -pl.loss(a.Cards)
	}
	return -1
}

// flipGain is how much cheaper our route gets when door d is flipped.
func (pl *planner) flipGain(d Door) float64 {
	if pl.flips == nil {
		pl.flips = make([]float64, numDoors)
		_, base := pl.planWith(pl.area, &pl.cost)
		for _, e := range board.innerDoors {
			cost := pl.cost
			cost[e] = pl.doorCost(e, pl.v.Doors[e].Other)
			_, c := pl.planWith(pl.area, &cost)
			pl.flips[e] = base - c
		}
	}
	return pl.flips[d]
}

// scoreCross: go along the route, credits first, type cards before jokers;
// stay off every other door.
func (pl *planner) scoreCross(a CrossDoor) float64 {
	if int(a.Door) != pl.next {
		return -10
	}
	if a.Credit != NoCredit {
		v := 10 + float64(cards[pl.face[a.Door]].Level)
		if a.Credit == CorruptionCredit {
			v += 0.5 // corruption cannot open the exit: spend it first
		}
		return v
	}
	jokers := 0
	for _, c := range a.Pay.items() {
		if c == Joker {
			jokers++
		}
	}
	return 10 - 0.1*float64(a.Pay.Len()) - 0.6*float64(jokers)
}

func (pl *planner) scoreTarget(q int) float64 {
	sv := pl.v.Seats[q]
	var card PassPass
	if p := pl.v.Pending; p != nil && p.Card != nil {
		card = *p.Card
	}
	// Ties go to the opponent who plays soonest after us: a rule that
	// depends on seat numbers would pick on the low seats in self-play.
	tie := -0.001 * float64((q-pl.me+len(pl.v.Seats))%len(pl.v.Seats))
	switch card {
	case Vol:
		return float64(min(2, sv.HandSize)) + 0.1*pl.threat(q) + tie
	case Manigance:
		return float64(sv.HandSize) + 0.1*pl.threat(q) + tie
	case Chantage:
		return pl.threat(q) + 0.1*float64(sv.HandSize) + tie
	}
	return pl.threat(q) + tie
}
