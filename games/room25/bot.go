package room25

import (
	"math"
	"math/rand/v2"

	"sortie/bot"
	"sortie/engine"
)

// Heuristic is the game's own bot policy, "heuristic". It reads everything
// from its seat's view (the view keeps the seat's memory of the rooms it
// has seen, D26) and:
//   - explores with Look, preferring face-down tiles that started in an exit
//     zone (where Room 25 is dealt), and trusts the hints of its side;
//   - rates every room by its danger (known rooms exactly, unknown ones by
//     the rooms still unaccounted for) and never walks into a known deadly
//     room when it has a choice;
//   - once Room 25 is located, walks its side's characters there by the
//     safest short path, keeps those inside still, slides Room 25 towards an
//     exit cell and makes it escape as soon as its side is all aboard;
//   - as a Suspicion Guard it lies in its hints, rushes to Room 25 to sound
//     the alarm, pushes Prisoners into known deadly rooms and slides Room 25
//     away from the exits; in Competition and Team it pushes and slides
//     against its opponents when it must choose.
type Heuristic struct{}

// Policies returns the game's own bot policies, one per level: "easy" (see
// Easy), "heuristic" (the medium level) and "hard" (see Hard).
func (Game) Policies() []bot.Policy { return []bot.Policy{Easy{}, Heuristic{}, Hard{}} }

// Name returns "heuristic".
func (Heuristic) Name() string { return "heuristic" }

// NewBot returns a heuristic bot for one seat.
func (Heuristic) NewBot(_ engine.Game, s bot.Seating) bot.Bot {
	return &heuristicBot{seat: int(s.Seat), rng: rand.New(rand.NewPCG(s.Seed, engine.Mix(s.Seed, 25)))}
}

type heuristicBot struct {
	seat int
	rng  *rand.Rand
	m    mind
}

// mind is what the bot makes of its view for one decision.
type mind struct {
	v        *View
	mode     Mode
	guard    bool                  // this seat is a Suspicion Guard
	room     [numCells]Room        // identity where known
	known    [numCells]bool        // identity known (face up, viewed, or trusted hint "blue")
	up       [numCells]bool        // face up
	wall     [numCells]bool        // face-up Flooded Room
	origin   [numCells]bool        // the tile started in an exit zone
	hint     [numCells]Colour      // a trusted hint on a face-down tile
	danger   [numCells]float64     // cost of entering, for this seat's characters
	trapP    [numCells]float64     // chance the room is a Trapped Room
	occ      [numCells][]Character // living characters
	cellOf   [maxChars + 1]int8    // -1 dead or absent
	mine     [maxChars + 1]bool    // played by this seat
	ally     [maxChars + 1]bool    // wins with this seat (as far as it knows)
	seatOf   [maxChars + 1]int
	r25      int8 // Room 25's cell, or -1
	marks    [numLines]Dir
	lastTurn bool

	distOK   bool // distMemo holds dist(distTo)
	distTo   int8
	distMemo [numCells]float64
}

var roomByID = func() map[string]Room {
	m := map[string]Room{}
	for r := range numRooms {
		m[rooms[r].id] = r
	}
	return m
}()

// baseDanger is how much the bot dreads entering each room.
var baseDanger = [numRooms]float64{
	RoomDeadly: 100, RoomVortex: 60, RoomFlooded: 25, RoomTrapped: 15, RoomIllusion: 10,
	RoomPrison: 8, RoomDark: 4, RoomCold: 8, RoomAcid: 2, RoomMobile: 1,
}

// Decide picks the bot's action.
func (b *heuristicBot) Decide(ev engine.View, legal []engine.Action, _ engine.Millis) bot.Decision {
	v, ok := ev.(View)
	if !ok {
		return bot.Decision{Action: legal[b.rng.IntN(len(legal))]}
	}
	return bot.Decision{Action: b.answer(&v, legal)}
}

// answer picks the bot's action from its view.
func (b *heuristicBot) answer(v *View, legal []engine.Action) engine.Action {
	b.m.read(v, b.seat)
	a := b.choose(legal)
	if a == nil {
		a = legal[b.rng.IntN(len(legal))]
	}
	return a
}

// read builds the bot's picture of the board.
func (m *mind) read(v *View, seat int) {
	*m = mind{v: v, r25: -1}
	for i := range numModes {
		if modes[i].id == v.Mode {
			m.mode = i
		}
	}
	m.lastTurn = v.TurnsLeft == 1
	if m.mode == Suspicion {
		m.guard = v.Seats[seat].Role == Guard
	}
	for i := range m.cellOf {
		m.cellOf[i] = -1
	}
	for _, cv := range v.Characters {
		c := cv.ID
		m.seatOf[c] = cv.Seat
		m.mine[c] = cv.Seat == seat
		if cv.Alive {
			m.cellOf[c] = int8(cv.Cell)
		}
	}
	for _, cv := range v.Characters {
		m.ally[cv.ID] = m.isAlly(cv.ID, seat)
	}
	trusts := func(h HintView) bool {
		switch m.mode {
		case Cooperation, Solo:
			return true
		case Team:
			return v.Seats[h.Seat].Team == v.Seats[seat].Team
		case Suspicion:
			return !m.guard && v.Seats[h.Seat].Role != Guard
		}
		return h.Seat == seat
	}
	for i, cv := range v.Cells {
		m.up[i] = cv.FaceUp
		m.origin[i] = cv.Origin == "exit"
		if cv.Room != "" {
			m.room[i], m.known[i] = roomByID[cv.Room], true
		}
		m.wall[i] = cv.Flooded
		m.occ[i] = cv.Characters
		if !cv.FaceUp && !m.known[i] {
			for _, h := range cv.Hints {
				if trusts(h) {
					m.hint[i] = h.Colour
				}
			}
			if m.hint[i] == HintBlue {
				m.room[i], m.known[i] = Room25, true
			}
		}
		if m.known[i] && m.room[i] == Room25 {
			m.r25 = int8(i)
		}
	}
	for _, mk := range v.Marks {
		m.marks[mk.Line.idx()] = mk.Dir
	}
	m.rateDanger()
}

// isAlly reports whether character c wins with this seat, as far as the
// seat knows.
func (m *mind) isAlly(c Character, seat int) bool {
	v := m.v
	switch m.mode {
	case Cooperation, Solo:
		return true
	case Competition:
		return m.seatOf[c] == seat
	case Team:
		return v.Seats[m.seatOf[c]].Team == v.Seats[seat].Team
	case Suspicion:
		if m.guard {
			return m.seatOf[c] == seat
		}
		return v.Seats[m.seatOf[c]].Role != Guard
	}
	return false
}

// rateDanger sets the cost of entering every cell: known rooms by their
// danger, unknown ones by the average of the rooms unaccounted for.
func (m *mind) rateDanger() {
	var pool [numRooms]int
	set := SetBeginner
	for i := range numSets {
		if setNames[i] == m.v.RoomSet {
			set = i
		}
	}
	for r := range numRooms {
		pool[r] = rooms[r].inSet[set]
		if m.v.CustomRooms != nil {
			pool[r] = m.v.CustomRooms[rooms[r].id]
		}
	}
	for i := range numCells {
		if m.known[i] && (m.up[i] || m.hint[i] != HintBlue) {
			pool[m.room[i]]--
		}
	}
	avg := func(inner bool, class Colour) (float64, float64) {
		sum, n, traps := 0.0, 0, 0
		for r := range numRooms {
			if pool[r] <= 0 || (inner && rooms[r].pool == PoolExit) {
				continue
			}
			if class != NoColour && colourOf(r) != class {
				continue
			}
			sum += float64(pool[r]) * baseDanger[r]
			n += pool[r]
			if r == RoomTrapped {
				traps += pool[r]
			}
		}
		if n == 0 {
			return 10, 0
		}
		return sum / float64(n), float64(traps) / float64(n)
	}
	// The average over the unaccounted rooms depends only on the pool
	// (inner or exit) and the hinted class: computed once for each.
	var memo [2][len(colourNames)]struct {
		danger, trap float64
		ok           bool
	}
	avgFor := func(i int) (float64, float64) {
		inner, class := !m.origin[i], NoColour
		if m.hint[i] > HintNone {
			class = m.hint[i]
		}
		k := 0
		if inner {
			k = 1
		}
		e := &memo[k][class]
		if !e.ok {
			e.danger, e.trap = avg(inner, class)
			e.ok = true
		}
		return e.danger, e.trap
	}
	for i := range numCells {
		switch {
		case m.wall[i]:
			m.danger[i] = math.Inf(1)
		case m.known[i]:
			m.danger[i] = baseDanger[m.room[i]]
			if m.room[i] == RoomAcid && len(m.occ[i]) > 0 {
				m.danger[i] = 100
				if !m.ally[m.occ[i][0]] {
					m.danger[i] = 0
				}
			}
			if m.room[i] == Room25 && modes[m.mode].alarm && !m.v.Alarm && m.v.TurnsLeft > alarmTurnsLeft && !m.guard {
				m.danger[i] = 3 // entering early sounds the alarm
			}
		default:
			m.danger[i], m.trapP[i] = avgFor(i)
		}
		if m.known[i] && m.room[i] == RoomTrapped {
			m.trapP[i] = 1
		}
	}
}

// sideOutside counts the living allies not aboard Room 25 (every character
// not known to be a Guard, for a Prisoner), and how many of them may stay
// out of an escape: the hidden Guards a Prisoner cannot tell apart, and one
// more on the last turn of the 10-turn modes. A dead member of a
// Competition or Team side forbids escaping before the last turn.
func (m *mind) sideOutside() (outside int, allowed int) {
	for c := Scientist; c <= LittleGirl; c++ {
		if m.cellOf[c] >= 0 && m.ally[c] && m.cellOf[c] != m.r25 {
			outside++
		}
	}
	if m.mode == Suspicion && !m.guard {
		// Hidden Guards are counted as allies: up to this many may be
		// outside without harm.
		max := 1
		if len(m.v.Seats) >= 5 {
			max = 2
		}
		for _, s := range m.v.Seats {
			if s.Role == Guard && s.RoleRevealed {
				max--
			}
		}
		allowed = max
	}
	if m.lastTurn && (m.mode == Suspicion || m.mode == Competition || m.mode == Team) {
		allowed++
	}
	if !m.lastTurn && (m.mode == Competition || m.mode == Team) {
		for c := Scientist; c <= LittleGirl; c++ {
			if m.ally[c] && m.cellOf[c] < 0 {
				outside += maxChars // a dead member: no escape before the last turn (D39)
			}
		}
	}
	return outside, allowed
}

// dist returns the cheapest path cost from every cell to target (entering
// costs 1 plus danger/5), the target itself costing nothing to stand on.
// The last answer is kept: a decision asks for the same target many times.
func (m *mind) dist(target int8) [numCells]float64 {
	if !m.distOK || m.distTo != target {
		m.distMemo, m.distTo, m.distOK = m.distFrom(target), target, true
	}
	return m.distMemo
}

// distFrom computes dist.
func (m *mind) distFrom(target int8) [numCells]float64 {
	var d [numCells]float64
	var done [numCells]bool
	for i := range d {
		d[i] = math.Inf(1)
	}
	d[target] = 0
	for {
		u := int8(-1)
		for i := range int8(numCells) {
			if !done[i] && !math.IsInf(d[i], 1) && (u < 0 || d[i] < d[u]) {
				u = i
			}
		}
		if u < 0 {
			return d
		}
		done[u] = true
		// Reverse edges: from n into u costs entering u.
		step := 1 + m.danger[u]/5
		if u == target {
			step = 1 + math.Min(m.danger[u], 3)/5
		}
		for dd := Up; dd <= Right; dd++ {
			if n := neighbour(u, dd); n >= 0 && d[u]+step < d[n] {
				d[n] = d[u] + step
			}
		}
	}
}

// goal returns where character c should head: Room 25, or next to the most
// promising unexplored exit-zone tile; ok is false when there is nothing to
// explore.
func (m *mind) goal(c Character) (int8, bool) {
	if m.r25 >= 0 {
		return m.r25, true
	}
	from := m.cellOf[c]
	// Each ally explores its own corner first: the k-th living ally takes
	// quadrant k%4, the same for every bot of the side.
	k, n := 0, 0
	for o := Scientist; o <= LittleGirl; o++ {
		if m.ally[o] && m.cellOf[o] >= 0 {
			if o < c {
				k++
			}
			n++
		}
	}
	area := func(cell int8) bool { // is cell in c's own area?
		switch {
		case n >= 3:
			return quadrantOf(cell) == k%4
		case n == 2:
			return (rowOf(cell) < centralLine) == (k == 0)
		}
		return true
	}
	best, bestD := int8(-1), math.Inf(1)
	for i := range int8(numCells) {
		if m.up[i] || m.known[i] {
			continue
		}
		score := float64(manhattan(from, i))
		if !m.origin[i] {
			score += 6
		}
		if m.hint[i] > HintNone { // a trusted hint other than blue: not Room 25
			score += 20
		}
		if !area(i) {
			score += quadrantWeight
		}
		if score < bestD {
			best, bestD = i, score
		}
	}
	return best, best >= 0
}

// Tuning of the bot, measured over cooperative games: the extra distance an
// ally gives to tiles outside its own area when exploring, and the
// gathering steps a slide must save for an ally to program a Control.
const (
	quadrantWeight = 3.0
	sliderGain     = 2
)

// quadrantOf returns 0 (north-west), 1 (north-east), 2 (south-west) or 3
// (south-east) for a cell off the central lines, -1 on them.
func quadrantOf(cell int8) int {
	r, c := rowOf(cell), colOf(cell)
	if r == centralLine || c == centralLine {
		return -1
	}
	q := 0
	if c > centralLine {
		q++
	}
	if r > centralLine {
		q += 2
	}
	return q
}

func manhattan(a, b int8) int {
	return int(abs8(rowOf(a)-rowOf(b)) + abs8(colOf(a)-colOf(b)))
}

// nearExit returns how many cells Room 25 is from the nearest exit cell.
func nearExit(cell int8) int {
	best := 9
	for _, e := range exitCells {
		best = min(best, manhattan(cell, e))
	}
	return best
}

// choose answers the decision the legal actions describe.
func (b *heuristicBot) choose(legal []engine.Action) engine.Action {
	m := &b.m
	switch legal[0].(type) {
	case StartLook, SkipLook:
		return legal[b.seat%4]
	case Hint:
		return Hint{b.hintFor()}
	case Program:
		return b.program(legal)
	}
	v := m.v
	if v.Decision == nil {
		return nil
	}
	c := v.Decision.Character
	switch v.Decision.Kind {
	case "play_or_wait":
		if b.plan(c)[0] == TokenControl && !b.canEscape(c) {
			return Wait{}
		}
		return Play{}
	case "target":
		return b.best(c, v.Decision.Token, legal, false)
	case "act":
		return b.act(c, legal)
	case "vision_view":
		return b.pickTile(legal)
	case "illusion_swap":
		return b.pickIllusion(legal)
	case "mobile_swap":
		return b.pickMobile(c, legal)
	case "control_room_slide":
		return b.bestSlide(c, legal, true)
	case "hint":
		return Hint{b.hintFor()}
	}
	return nil
}

// hintFor is the claim about the tile just viewed: honest, except a
// Guard's (and a competitor's, who says nothing).
func (b *heuristicBot) hintFor() Colour {
	m := &b.m
	t := int8(-1)
	if m.v.Decision != nil && m.v.Decision.Kind == "hint" {
		t = m.v.Decision.Tile.idx()
	} else if s := m.v.Seats[b.seat]; s.StartLook != 0 {
		t = s.StartLook.idx()
	}
	if t < 0 {
		return HintNone
	}
	var r Room
	for _, cv := range m.v.Cells {
		if cv.Tile.idx() == t {
			r = roomByID[cv.Room]
		}
	}
	return hintColour(m.mode, m.guard, r)
}

// hintColour is the bot's claim about a room it viewed: honest, except a
// Guard's (red for a harmless room, green for a dangerous one) and a
// competitor's (nothing).
func hintColour(mode Mode, guard bool, r Room) Colour {
	switch {
	case mode == Competition:
		return HintNone
	case guard:
		if colourOf(r) == HintRed {
			return HintGreen
		}
		return HintRed
	}
	return colourOf(r)
}

// plan returns the two tokens character c should play this turn.
func (b *heuristicBot) plan(c Character) [2]Token {
	m := &b.m
	at := m.cellOf[c]
	var ch *CharacterView
	for i := range m.v.Characters {
		if m.v.Characters[i].ID == c {
			ch = &m.v.Characters[i]
		}
	}
	// Leave a trap or a flood first.
	if ch != nil && (ch.Trapped || ch.DrownsTurn > 0) {
		return [2]Token{TokenMove, TokenLook}
	}
	if m.guard && b.canPushIntoDeath(c) {
		return [2]Token{TokenPush, TokenLook}
	}
	if m.r25 >= 0 && at == m.r25 {
		if m.guard {
			if nearExit(at) == 0 && len(m.occ[at]) > 1 {
				return [2]Token{TokenControl, TokenLook}
			}
			return [2]Token{TokenLook, NoToken}
		}
		outside, allowed := m.sideOutside()
		if outside <= allowed {
			return [2]Token{TokenControl, TokenLook}
		}
		if b.sideArrivesSoon() {
			return [2]Token{TokenLook, TokenControl}
		}
		return [2]Token{TokenLook, NoToken}
	}
	if m.r25 >= 0 && !m.guard && b.slider() == c {
		if at == m.r25 {
			return [2]Token{TokenControl, TokenLook}
		}
		return [2]Token{TokenControl, TokenMove}
	}
	target, ok := m.goal(c)
	if !ok {
		return [2]Token{TokenLook, TokenMove}
	}
	d := m.dist(target)
	best, bestN := math.Inf(1), int8(-1)
	for dd := Up; dd <= Right; dd++ {
		if n := neighbour(at, dd); n >= 0 && m.movable(c, n) && d[n] < best {
			best, bestN = d[n], n
		}
	}
	// A Move into an unknown room goes last: a trap there must be left
	// with the next action (D20).
	moveFirst := best < d[at] && bestN >= 0 && m.known[bestN] && m.danger[bestN] < 5
	lookFirst := false
	if m.r25 < 0 {
		// Exploring: look first when a promising tile is next door.
		for dd := Up; dd <= Right; dd++ {
			if n := neighbour(at, dd); n >= 0 && !m.up[n] && !m.known[n] && m.origin[n] {
				lookFirst = true
			}
		}
	}
	if ch != nil && ch.Cold { // one action only: the one that gets somewhere
		if lookFirst || bestN < 0 {
			return [2]Token{TokenLook, NoToken}
		}
		return [2]Token{TokenMove, NoToken}
	}
	if moveFirst && !lookFirst {
		return [2]Token{TokenMove, TokenLook}
	}
	return [2]Token{TokenLook, TokenMove}
}

// slider returns the ally that should spend its first action on a Control
// this turn: the first, in character order, whose own row or column slides
// Room 25 (or the side) to gather the side at least two steps sooner. Every
// bot of the side computes the same answer from the same view.
func (b *heuristicBot) slider() Character {
	m := &b.m
	base := m.gatherCost(NoDir, 0)
	for c := Scientist; c <= LittleGirl; c++ {
		at := m.cellOf[c]
		if !m.ally[c] || at < 0 || at == centreCell {
			continue
		}
		for _, l := range [2]Line{rowLine(rowOf(at)), colLine(colOf(at))} {
			if l.pos() == centralLine {
				continue
			}
			for _, d := range lineDirs(l) {
				if mk := m.marks[l.idx()]; mk != NoDir && mk != d {
					continue
				}
				if m.gatherCost(d, l) <= base-sliderGain {
					return c
				}
			}
		}
	}
	return NoCharacter
}

// gatherCost is how far the side is from escaping after sliding line l in
// direction d (NoDir: as it stands): the allies' distances to Room 25 plus
// three per step Room 25 is from an exit cell.
func (m *mind) gatherCost(d Dir, l Line) int {
	r := slidCell(m.r25, l, d)
	cost := 3 * nearExit(r)
	for c := Scientist; c <= LittleGirl; c++ {
		if at := m.cellOf[c]; at >= 0 && m.ally[c] {
			cost += manhattan(slidCell(at, l, d), r)
		}
	}
	return cost
}

// slidCell returns where the tile on cell goes when line l slides d.
func slidCell(cell int8, l Line, d Dir) int8 {
	if d == NoDir || cell < 0 {
		return cell
	}
	cells := lineCells(l)
	for i, x := range cells {
		if x == cell {
			if d == Right || d == Down {
				return cells[(i+1)%size]
			}
			return cells[(i+size-1)%size]
		}
	}
	return cell
}

// movable reports whether c may move onto cell n (ignoring the Prison).
func (m *mind) movable(c Character, n int8) bool {
	return !m.wall[n] && m.danger[n] < 50
}

// sideArrivesSoon reports whether every ally outside Room 25 stands next
// to it, so that a round-2 Control may find everyone aboard.
func (b *heuristicBot) sideArrivesSoon() bool {
	m := &b.m
	for c := Scientist; c <= LittleGirl; c++ {
		if at := m.cellOf[c]; at >= 0 && m.ally[c] && at != m.r25 && manhattan(at, m.r25) != 1 {
			return false
		}
	}
	return nearExit(m.r25) == 0
}

// canEscape reports whether c's Control could make Room 25 escape now.
func (b *heuristicBot) canEscape(c Character) bool {
	m := &b.m
	if m.r25 < 0 || m.cellOf[c] != m.r25 || m.guard {
		return false
	}
	outside, allowed := m.sideOutside()
	return outside <= allowed && len(escapeSlides(m.r25, m.marks)) > 0
}

// escapeSlides returns the slides that push the tile on cell off the board.
func escapeSlides(cell int8, marks [numLines]Dir) []Control {
	var out []Control
	r, c := rowOf(cell), colOf(cell)
	try := func(l Line, d Dir) {
		if l.pos() != centralLine && (marks[l.idx()] == NoDir || marks[l.idx()] == d) {
			out = append(out, Control{l, d})
		}
	}
	if c == 0 {
		try(rowLine(r), Left)
	}
	if c == size-1 {
		try(rowLine(r), Right)
	}
	if r == 0 {
		try(colLine(c), Up)
	}
	if r == size-1 {
		try(colLine(c), Down)
	}
	return out
}

// canPushIntoDeath reports whether c shares its room with a victim next to
// a known deadly room.
func (b *heuristicBot) canPushIntoDeath(c Character) bool {
	m := &b.m
	at := m.cellOf[c]
	if at == centreCell {
		return false
	}
	for _, o := range m.occ[at] {
		if o != c && !m.ally[o] {
			for dd := Up; dd <= Right; dd++ {
				if n := neighbour(at, dd); n >= 0 && m.known[n] && m.room[n] == RoomDeadly {
					return true
				}
			}
		}
	}
	return false
}

// program answers the programming phase for one character.
func (b *heuristicBot) program(legal []engine.Action) engine.Action {
	first := legal[0].(Program).Character
	p := b.plan(first)
	single := true
	for _, a := range legal {
		if pr := a.(Program); pr.Character == first && pr.Second != NoToken {
			single = false
		}
	}
	if single || p[1] == NoToken {
		return Program{first, p[0], NoToken}
	}
	return Program{first, p[0], p[1]}
}

// act answers an immediate-play slot: the first token of the plan if it can
// be played, else a Look, else wait or pass.
func (b *heuristicBot) act(c Character, legal []engine.Action) engine.Action {
	var used Token
	for _, cv := range b.m.v.Characters {
		if cv.ID == c {
			used = cv.Shown[0]
		}
	}
	p := b.plan(c)
	for _, t := range []Token{p[0], p[1], TokenLook} {
		if t == NoToken || t == used {
			continue
		}
		if t == TokenControl && b.m.r25 >= 0 && b.m.cellOf[c] == b.m.r25 && !b.canEscape(c) && !b.m.guard {
			continue
		}
		var opts []engine.Action
		for _, a := range legal {
			if ac, ok := a.(Act); ok && ac.Action == t {
				opts = append(opts, a)
			}
		}
		if len(opts) > 0 {
			return b.best(c, t, opts, true)
		}
	}
	for _, a := range legal {
		switch a.(type) {
		case Wait, Pass:
			return a
		}
	}
	return nil
}

// best picks the best target for action t among the options.
func (b *heuristicBot) best(c Character, t Token, opts []engine.Action, act bool) engine.Action {
	var bestA engine.Action
	bestS := math.Inf(-1)
	for _, a := range opts {
		target, ok := asAct(a)
		if !ok || target.Action != t {
			continue
		}
		s := b.score(c, target) + b.rng.Float64()*0.01
		if s > bestS {
			bestA, bestS = a, s
		}
	}
	return bestA
}

// asAct returns a target action (Look, Move, Push, Control or Act) as the
// Act that the heuristic scores.
func asAct(a engine.Action) (Act, bool) {
	switch x := a.(type) {
	case Act:
		return x, true
	case Look:
		return Act{Action: TokenLook, Tile: x.Tile}, true
	case Move:
		return Act{Action: TokenMove, Dir: x.Dir}, true
	case Push:
		return Act{Action: TokenPush, Character: x.Character, Dir: x.Dir}, true
	case Control:
		return Act{Action: TokenControl, Line: x.Line, Dir: x.Dir}, true
	}
	return Act{}, false
}

// score rates one action with its target for character c.
func (b *heuristicBot) score(c Character, a Act) float64 {
	m := &b.m
	at := m.cellOf[c]
	switch a.Action {
	case TokenLook:
		cell := m.tileCell(a.Tile)
		s := 0.0
		if m.known[cell] {
			s -= 10
		}
		if m.origin[cell] {
			s += 2
		}
		if m.hint[cell] > HintNone {
			s -= 5
		}
		if g, ok := m.goal(c); ok {
			s -= float64(manhattan(cell, g)) * 0.3
		}
		return s
	case TokenMove:
		n := neighbour(at, a.Dir)
		return b.moveScore(c, n) - b.trapRisk(c, n)
	case TokenPush:
		n := neighbour(at, a.Dir)
		if !m.ally[a.Character] {
			return m.danger[n] + b.trapRisk(a.Character, n)
		}
		return b.moveScore(a.Character, n) - b.trapRisk(a.Character, n)
	case TokenControl:
		return b.slideScore(c, a.Line, a.Dir, false)
	}
	return 0
}

// trapRisk is the cost of c arriving on cell n now because of a Trapped
// Room there: deadly if c has a programmed action left this turn (D20).
func (b *heuristicBot) trapRisk(c Character, n int8) float64 {
	m := &b.m
	for _, cv := range m.v.Characters {
		if cv.ID == c && cv.Programmed && cv.Tokens == 2 && m.v.Round == 1 {
			return 100 * m.trapP[n]
		}
	}
	return 0
}

// moveScore rates character c arriving on cell n.
func (b *heuristicBot) moveScore(c Character, n int8) float64 {
	m := &b.m
	if g, ok := m.goal(c); ok {
		d := m.dist(g)
		if m.guard && m.r25 >= 0 && n == m.r25 {
			return 10
		}
		return -d[n] - m.danger[n]/5
	}
	return -m.danger[n]
}

// slideScore rates sliding line l in direction d: escaping is best; then
// Room 25 near an exit with the side close to it (or, for a Guard or
// against opponents, the reverse).
func (b *heuristicBot) slideScore(c Character, l Line, d Dir, byRoom bool) float64 {
	m := &b.m
	if !byRoom && m.r25 >= 0 && m.cellOf[c] == m.r25 && !m.guard && b.canEscape(c) {
		for _, e := range escapeSlides(m.r25, m.marks) {
			if e.Line == l && e.Dir == d {
				return 1000
			}
		}
	}
	moved := func(cell int8) int8 { return slidCell(cell, l, d) }
	if m.r25 < 0 {
		return 0
	}
	r := moved(m.r25)
	s := 0.0
	for o := Scientist; o <= LittleGirl; o++ {
		if at := m.cellOf[o]; at >= 0 {
			dd := float64(manhattan(moved(at), r))
			if m.ally[o] {
				s -= dd
			} else {
				s += dd * 0.5
			}
		}
	}
	s -= 3 * float64(nearExit(r))
	if m.guard {
		return -s
	}
	return s
}

// bestSlide picks a Control Room slide.
func (b *heuristicBot) bestSlide(c Character, legal []engine.Action, byRoom bool) engine.Action {
	var bestA engine.Action
	bestS := math.Inf(-1)
	for _, a := range legal {
		x, ok := a.(ControlRoomSlide)
		if !ok {
			continue
		}
		if s := b.slideScore(c, x.Line, x.Dir, byRoom) + b.rng.Float64()*0.01; s > bestS {
			bestA, bestS = a, s
		}
	}
	return bestA
}

// tileCell returns the cell of a tile in the view.
func (m *mind) tileCell(t TileID) int8 {
	for i, cv := range m.v.Cells {
		if cv.Tile == t {
			return int8(i)
		}
	}
	return 0
}

// pickTile chooses a face-down tile to view: a likely Room 25 first.
func (b *heuristicBot) pickTile(legal []engine.Action) engine.Action {
	m := &b.m
	var bestA engine.Action
	bestS := math.Inf(-1)
	for _, a := range legal {
		x, ok := a.(VisionView)
		if !ok {
			continue
		}
		cell := m.tileCell(x.Tile)
		s := b.rng.Float64()
		if m.known[cell] {
			s -= 10
		}
		if m.origin[cell] {
			s += 5
		}
		if s > bestS {
			bestA, bestS = a, s
		}
	}
	return bestA
}

// pickIllusion chooses where the Illusion sends the character: a known
// Room 25 or safe room, else the least dreaded unknown tile.
func (b *heuristicBot) pickIllusion(legal []engine.Action) engine.Action {
	m := &b.m
	var bestA engine.Action
	bestS := math.Inf(-1)
	for _, a := range legal {
		x, ok := a.(IllusionSwap)
		if !ok {
			continue
		}
		cell := m.tileCell(x.Tile)
		s := -m.danger[cell] + b.rng.Float64()
		if m.known[cell] && m.room[cell] == Room25 && !m.guard {
			s += 50
		}
		if s > bestS {
			bestA, bestS = a, s
		}
	}
	return bestA
}

// pickMobile chooses where the Mobile Room goes: close to the goal.
func (b *heuristicBot) pickMobile(c Character, legal []engine.Action) engine.Action {
	m := &b.m
	g, ok := m.goal(c)
	var bestA engine.Action
	bestS := math.Inf(-1)
	for _, a := range legal {
		x, isSwap := a.(MobileSwap)
		if !isSwap {
			continue
		}
		cell := m.tileCell(x.Tile)
		s := b.rng.Float64()
		if ok && cell != g {
			s -= float64(manhattan(cell, g))
		}
		if s > bestS {
			bestA, bestS = a, s
		}
	}
	return bestA
}
