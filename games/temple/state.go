package temple

import (
	"slices"
	"strconv"

	"sortie/engine"
)

// settings are the validated options of a match.
type settings struct {
	players    int
	timer      string // "soundtrack", "sand", "none"
	track      int    // index into tracks, after a "random" draw
	sandMs     engine.Millis
	difficulty string
	curses     bool
	treasures  bool
	cooldown   engine.Millis
}

// Die is one die of the box (§2.1).
type Die struct {
	Owner  int8
	Face   Face
	Status DieStatus
}

// poolItem is one die or treasure committed to a gem pool (§4.4).
type poolItem struct {
	owner    int8
	die      int8 // -1 for a treasure
	treasure int8 // -1 for a die
}

// chamber is a placed tile.
type chamber struct {
	tile   int8
	x, y   int8
	stairs Side  // noSide for the start
	open   uint8 // open sides (stairs, exits, breaches) as bits 1<<Side
	breach uint8 // sides opened by a breach (§4.5.2)
	// activated is the activated tier (1-based), 0 while not activated.
	activated int8
	gems      int8
	target    int8 // the pool's target tier, 0 for none
	pool      []poolItem
	// chest is the face-down treasure on the chest, -1 for none.
	chest int8
}

// player is one adventurer.
type player struct {
	at         int8 // chamber index; -1 once escaped
	nextRollAt engine.Millis
	lastRollAt engine.Millis
	rolled     bool
	lastSignal engine.Millis
	signalled  bool
	curses     []int8 // held curse cards, in drawing order
	cardDie    int8   // the die on a held broken_die card, -1 for none
	treasures  []int8 // held treasure tiles, in claiming order
	giftDue    engine.Millis
	gifting    bool // a gift is pending until giftDue
	escapedAt  engine.Millis
	extraGems  int8
}

// Cue is one scheduled countdown event (§4.6): gong, door_slam, sand_out,
// collapse or time_cap, with its number.
type Cue struct {
	At   engine.Millis `json:"at"`
	Type string        `json:"type"` // gong, door_slam, sand_out, collapse, time_cap
	N    int           `json:"n,omitempty"`
}

// Stats are the figures of a game kept for simulations (§5).
type Stats struct {
	EndAt         engine.Millis   `json:"end_at"`
	EscapedAt     []engine.Millis `json:"escaped_at"` // -1 for a seat still inside
	GemsActivated int             `json:"gems_activated"`
	FinalReserve  int             `json:"final_reserve"`
	// DiceLost counts each seat's lost dice by cause: [0] door slams and
	// sand runs, [1] rushed rolls under lost_dice.
	DiceLost       [][2]int `json:"dice_lost"`
	TilesFound     int      `json:"tiles_discovered"`
	ExitDraw       int      `json:"exit_draw"`
	CursesDrawn    int      `json:"curses_drawn"`
	CursesLifted   int      `json:"curses_lifted"`
	TreasuresTaken int      `json:"treasures_claimed"`
	TreasuresUsed  int      `json:"treasures_used"`
	FateProvoked   int      `json:"fate_provoked"`
}

// State is one match of Escape: The Curse of the Temple. It holds everything,
// secrets included (the tile stack, the curse deck and the treasure stack),
// and shows each seat only its View.
type State struct {
	opt settings
	rng engine.RNG
	now engine.Millis

	over   bool
	won    bool
	reason string
	endAt  engine.Millis

	dice     []Die
	players  []player
	chambers []chamber
	where    [numTiles]int8 // chamber index of each placed tile, -1 if not placed
	// grid holds 1 + the chamber index of each cell, 0 for an empty cell.
	grid [gridSize * gridSize]int8

	stack    []int8 // undrawn tiles, top first
	drawn    int    // tiles drawn from the stack since the setup
	exitDraw int    // the exit's draw number, 1-based, setup tiles not counted

	reserve, side, initialReserve int

	curseDeck     []int8 // top first
	treasureStack []int8 // top first
	removedCurses []int8
	usedTreasures []int8
	passages      [][2]int8 // secret passages between chamber indexes

	schedule []Cue // shared, never modified after setup
	nextCue  int

	// topo is what the layout of the tiles decides (connections,
	// discoverable sides, breach mode), kept up to date by retopo.
	topo *topology
	// chamberViews are the chambers as views show them after the last
	// action or time step that changed one (refreshChamberViews). Views
	// share them while they are current; they are never modified once
	// built, so clones share them too.
	chamberViews []ChamberView

	stats Stats
}

// topology is what the layout of the tiles decides (§2.4, §4.5.2): each
// chamber's connections, in index order and secret passages included, the
// sides it can be discovered through now, and breach mode. Only placing a
// tile (with its draw from the stack and any breach) and building a secret
// passage change it, so the rules rebuild it then (retopo) rather than on
// every Legal and View. A topology is never modified once built: clones and
// views share it.
type topology struct {
	links        [maxChambers][]int8 // capped slices of one backing array
	discoverable [maxChambers]SideSet
	breachMode   bool
}

// retopo rebuilds s.topo from the chambers, the passages and the stack. It
// runs after every change of any of them.
func (s *State) retopo() {
	t := &topology{breachMode: s.breachMode()}
	backing := make([]int8, 0, 4*len(s.chambers)+2*len(s.passages))
	var buf [8]int
	for c := range s.chambers {
		from := len(backing)
		for _, o := range s.appendLinks(buf[:0], c) {
			backing = append(backing, int8(o))
		}
		t.links[c] = backing[from:len(backing):len(backing)]
		for d := North; d <= West; d++ {
			if ok, _ := s.discoverable(c, d, t.breachMode); ok {
				t.discoverable[c] |= 1 << d
			}
		}
	}
	s.topo = t
}

// The grid spans every cell the 19 tiles can reach from the start.
const (
	gridOffset = 19
	gridSize   = 2*gridOffset + 1
	// maxChambers is the start, the exit and the 17 tiles of §3 step 2.
	maxChambers = 19
)

// newState builds the setup of §3 from validated settings and a seed.
func newState(o settings, seed uint64) *State {
	s := &State{opt: o, rng: engine.NewRNG(seed)}
	if o.track < 0 { // step 1: a random track
		s.opt.track = s.rng.IntN(len(tracks))
	}
	for i := range s.where {
		s.where[i] = -1
	}
	// Step 2: the 17 tiles of the stack.
	first := int8(firstBasic)
	if o.curses || o.treasures {
		first = firstMarked
	}
	tilesIn := []int8{firstGem, firstGem + 1, firstGem + 2, firstGem + 3}
	for i := range int8(13) {
		tilesIn = append(tilesIn, first+i)
	}
	s.rng.Shuffle(len(tilesIn), func(i, j int) { tilesIn[i], tilesIn[j] = tilesIn[j], tilesIn[i] })
	// Step 3: the opening row.
	s.chambers = make([]chamber, 0, maxChambers)
	s.place(tileStart, 0, 0, noSide)
	s.place(tilesIn[0], -1, 0, East)
	s.place(tilesIn[1], 1, 0, West)
	rest := tilesIn[2:]
	// Step 4: the exit.
	var stack []int8
	if o.players >= 3 {
		bottom := append([]int8{tileExit}, rest[:4]...)
		s.rng.Shuffle(len(bottom), func(i, j int) { bottom[i], bottom[j] = bottom[j], bottom[i] })
		stack = append(append(stack, rest[4:]...), bottom...)
	} else {
		above := 5 + s.rng.IntN(5) // D2
		stack = append(append(append(stack, rest[:above]...), tileExit), rest[above:]...)
	}
	s.stack = stack
	s.exitDraw = slices.Index(stack, tileExit) + 1
	s.retopo()
	// Step 5: gems.
	s.reserve = reserveNormal[o.players] + difficultyBonus[o.difficulty]
	s.initialReserve = s.reserve
	s.side = sideSupply
	// Step 6: adventurers and dice (D8).
	n := dicePerPlayer * o.players
	if o.players == 1 {
		n = diceSolo
	}
	s.dice = make([]Die, n)
	for i := range s.dice {
		s.dice[i] = Die{Owner: int8(min(i/dicePerPlayer, o.players-1)), Face: NoFace, Status: Spent}
	}
	s.players = make([]player, o.players)
	for i := range s.players {
		s.players[i] = player{at: 0, cardDie: -1, escapedAt: -1}
	}
	// Step 7: modules.
	if o.curses {
		s.curseDeck = make([]int8, len(curses))
		for i := range s.curseDeck {
			s.curseDeck[i] = int8(i)
		}
		s.rng.Shuffle(len(s.curseDeck), func(i, j int) { s.curseDeck[i], s.curseDeck[j] = s.curseDeck[j], s.curseDeck[i] })
	}
	if o.treasures {
		s.treasureStack = make([]int8, len(treasures))
		for i := range s.treasureStack {
			s.treasureStack[i] = int8(i)
		}
		s.rng.Shuffle(len(s.treasureStack), func(i, j int) {
			s.treasureStack[i], s.treasureStack[j] = s.treasureStack[j], s.treasureStack[i]
		})
		for c := 1; c <= 2; c++ { // west setup tile first (D33)
			s.placeTreasure(c)
		}
	}
	// Step 8: the timer.
	s.schedule = scheduleFor(s.opt)
	s.stats = Stats{
		EscapedAt: make([]engine.Millis, o.players),
		DiceLost:  make([][2]int, o.players),
		ExitDraw:  s.exitDraw,
	}
	for i := range s.stats.EscapedAt {
		s.stats.EscapedAt[i] = -1
	}
	s.refreshChamberViews()
	return s
}

// scheduleFor lists the countdown events of a timer (§4.6).
func scheduleFor(o settings) []Cue {
	switch o.timer {
	case "sand":
		return []Cue{
			{At: o.sandMs, Type: "sand_out", N: 1},
			{At: 2 * o.sandMs, Type: "sand_out", N: 2},
			{At: sandRuns * o.sandMs, Type: "collapse"},
		}
	case "none":
		return []Cue{{At: untimedCap, Type: "time_cap"}}
	}
	t := tracks[o.track]
	return []Cue{
		{At: t.Gongs[0], Type: "gong", N: 1},
		{At: t.Slams[0], Type: "door_slam", N: 1},
		{At: t.Gongs[1], Type: "gong", N: 2},
		{At: t.Slams[1], Type: "door_slam", N: 2},
		{At: t.Gongs[2], Type: "gong", N: 3},
		{At: t.Collapse, Type: "collapse"},
	}
}

// place puts a tile on cell (x, y) with its stairs on side stairs. The
// caller has already drawn it from the stack and opened any breach.
func (s *State) place(t int8, x, y int8, stairs Side) int {
	c := chamber{tile: t, x: x, y: y, stairs: stairs, chest: -1}
	if t == tileStart {
		c.open = startOpen
	} else {
		c.open = 1 << stairs
		for _, r := range tiles[t].Exits {
			c.open |= 1 << r.absolute(stairs)
		}
	}
	s.chambers = append(s.chambers, c)
	s.where[t] = int8(len(s.chambers) - 1)
	s.grid[(int(y)+gridOffset)*gridSize+int(x)+gridOffset] = int8(len(s.chambers))
	s.retopo()
	return len(s.chambers) - 1
}

// placeTreasure lays the top treasure face down on chamber c's chest, if the
// module is on, the tile has a chest and the stack is not empty. It reports
// whether a treasure was placed.
func (s *State) placeTreasure(c int) bool {
	if !s.opt.treasures || !tiles[s.chambers[c].tile].Chest || len(s.treasureStack) == 0 {
		return false
	}
	s.chambers[c].chest = s.treasureStack[0]
	s.treasureStack = s.treasureStack[1:]
	return true
}

// cellAt returns the chamber index on cell (x, y), or -1.
func (s *State) cellAt(x, y int8) int {
	gx, gy := int(x)+gridOffset, int(y)+gridOffset
	if gx < 0 || gy < 0 || gx >= gridSize || gy >= gridSize {
		return -1
	}
	return int(s.grid[gy*gridSize+gx]) - 1
}

// neighbour returns the chamber beside chamber c on side d, or -1.
func (s *State) neighbour(c int, d Side) int {
	ch := &s.chambers[c]
	return s.cellAt(ch.x+sideDX[d], ch.y+sideDY[d])
}

// connected reports whether chambers a and b are joined (§2.4, D4): adjacent
// with both facing sides open, or joined by a secret passage.
func (s *State) connected(a, b int) bool {
	if a == b {
		return false
	}
	for _, p := range s.passages {
		if (int(p[0]) == a && int(p[1]) == b) || (int(p[0]) == b && int(p[1]) == a) {
			return true
		}
	}
	ca, cb := &s.chambers[a], &s.chambers[b]
	for d := North; d <= West; d++ {
		if ca.x+sideDX[d] == cb.x && ca.y+sideDY[d] == cb.y {
			return ca.open&(1<<d) != 0 && cb.open&(1<<d.opposite()) != 0
		}
	}
	return false
}

// adjacent reports whether chambers a and b are on orthogonally adjacent
// cells.
func (s *State) adjacent(a, b int) bool {
	ca, cb := &s.chambers[a], &s.chambers[b]
	dx, dy := int(ca.x)-int(cb.x), int(ca.y)-int(cb.y)
	return dx*dx+dy*dy == 1
}

// frontier reports whether side d of chamber c is open and faces an empty
// cell (§2.4).
func (s *State) frontier(c int, d Side) bool {
	return s.chambers[c].open&(1<<d) != 0 && s.neighbour(c, d) < 0
}

// breachMode reports whether the temple has no frontier side left while
// tiles remain (§4.5.2, D6).
func (s *State) breachMode() bool {
	if len(s.stack) == 0 {
		return false
	}
	for c := range s.chambers {
		for d := North; d <= West; d++ {
			if s.frontier(c, d) {
				return false
			}
		}
	}
	return true
}

// discoverable reports whether a seat in chamber c may discover through side
// d, and whether that would be a breach; bm is s.breachMode().
func (s *State) discoverable(c int, d Side, bm bool) (ok, breach bool) {
	if len(s.stack) == 0 || d < North || d > West {
		return false, false
	}
	if s.frontier(c, d) {
		return true, false
	}
	if bm && s.neighbour(c, d) < 0 {
		return true, true
	}
	return false, false
}

// inside reports whether seat p is still in the temple.
func (s *State) inside(p int) bool { return s.players[p].at >= 0 }

// holds reports whether seat p holds a curse of kind k.
func (s *State) holds(p int, k CurseKind) bool {
	for _, c := range s.players[p].curses {
		if curses[c].Kind == k {
			return true
		}
	}
	return false
}

// escapeCost is the number of keys an escape needs now (§2.2).
func (s *State) escapeCost() int { return s.reserve + 1 }

// takeGem takes one gem for a field (§4.5.1) and says where from: 1 reserve,
// 2 side supply, 0 nothing.
func (s *State) takeGem() int {
	switch {
	case s.reserve > 0:
		s.reserve--
		return 1
	case s.side > 0:
		s.side--
		return 2
	}
	return 0
}

// returnGem puts one gem back (§4.5.1) and says where: "side" or "reserve".
func (s *State) returnGem() string {
	if s.side < sideSupply {
		s.side++
		return "side"
	}
	s.reserve++
	return "reserve"
}

// diceOwned counts the dice seat p owns that are still in play.
func (s *State) diceOwned(p int) int {
	n := 0
	for _, d := range s.dice {
		if int(d.Owner) == p && d.Status != Lost && d.Status != Out {
			n++
		}
	}
	return n
}

// lossRank orders dice for losing (§4.7, D20): lower is lost first.
func lossRank(d Die) int {
	switch d.Status {
	case Locked:
		return 0
	case Spent:
		return 1
	case Live:
		switch d.Face {
		case Adventurer:
			return 2
		case Torch:
			return 3
		case Key:
			return 4
		}
		return 5
	case Pooled:
		return 6
	case OnCard:
		return 7
	}
	return -1
}

// pickLoss returns the die seat p loses first (§4.7), or -1. With
// includeCard false, a die on a curse card is never picked.
func (s *State) pickLoss(p int, includeCard bool) int {
	best, bestRank := -1, 99
	for i, d := range s.dice {
		if int(d.Owner) != p {
			continue
		}
		r := lossRank(d)
		if r < 0 || (!includeCard && d.Status == OnCard) {
			continue
		}
		if r < bestRank || (r == bestRank && i > best) {
			best, bestRank = i, r
		}
	}
	return best
}

// unpool takes die or treasure item out of chamber c's pool, resetting the
// target when the pool empties. It does not change the item's status.
func (s *State) unpool(c int, die, treasure int8) {
	ch := &s.chambers[c]
	for i, it := range ch.pool {
		if (die >= 0 && it.die == die) || (treasure >= 0 && it.treasure == treasure) {
			ch.pool = slices.Delete(ch.pool, i, i+1)
			break
		}
	}
	if len(ch.pool) == 0 {
		ch.target = 0
	}
}

// loseDie sends die d to the box (§4.7).
func (s *State) loseDie(d int) {
	die := &s.dice[d]
	if die.Status == Pooled {
		s.unpool(int(s.players[die.Owner].at), int8(d), -1)
	}
	if die.Status == OnCard {
		s.players[die.Owner].cardDie = -1
	}
	die.Status = Lost
}

// withdrawAll returns every item of seat p from the pool of its chamber
// (§4.4, automatic withdrawal) and lists them.
func (s *State) withdrawAll(p int) []Item {
	c := int(s.players[p].at)
	if c < 0 || len(s.chambers[c].pool) == 0 {
		return nil
	}
	var out []Item
	ch := &s.chambers[c]
	kept := ch.pool[:0]
	for _, it := range ch.pool {
		if int(it.owner) != p {
			kept = append(kept, it)
			continue
		}
		out = append(out, s.itemOf(it))
		s.giveBack(it)
	}
	ch.pool = kept
	if len(ch.pool) == 0 {
		ch.target = 0
	}
	return out
}

// giveBack returns a pool item to its owner: a die live with its face, a
// treasure to the hand.
func (s *State) giveBack(it poolItem) {
	if it.die >= 0 {
		s.dice[it.die].Status = Live
		return
	}
	pl := &s.players[it.owner]
	pl.treasures = append(pl.treasures, it.treasure)
}

// itemOf describes a pool item for events and views.
func (s *State) itemOf(it poolItem) Item {
	if it.die >= 0 {
		return Item{Seat: int(it.owner), Die: &dieIDs[it.die]}
	}
	return Item{Seat: int(it.owner), Treasure: treasures[it.treasure].ID}
}

func intp(v int) *int { return &v }

// dieIDs are the die ids, for items that point at one without allocating.
// They are never written.
var dieIDs = func() (ids [maxDice]int) {
	for i := range ids {
		ids[i] = i
	}
	return
}()

// checkEnd ends the game if nobody is inside (won) or nobody inside can ever
// roll again (§5, D22). It returns the game_over event, if any.
func (s *State) checkEnd(at engine.Millis) []engine.Event {
	if s.over {
		return nil
	}
	anyInside, anyDie := false, false
	for p := range s.players {
		if !s.inside(p) {
			if s.players[p].gifting {
				anyDie = true
			}
			continue
		}
		anyInside = true
	}
	if !anyInside {
		return s.end(at, true, "all_escaped")
	}
	for _, d := range s.dice {
		if s.inside(int(d.Owner)) && (d.Status == Spent || d.Status == Live || d.Status == Locked || d.Status == Pooled) {
			anyDie = true
			break
		}
	}
	if !anyDie {
		return s.end(at, false, "no_dice")
	}
	return nil
}

// end finishes the game.
func (s *State) end(at engine.Millis, won bool, reason string) []engine.Event {
	s.over, s.won, s.reason, s.endAt = true, won, reason, at
	s.now = at
	for p := range s.players {
		s.players[p].gifting = false
	}
	s.stats.EndAt = at
	s.stats.FinalReserve = s.reserve
	s.stats.GemsActivated = s.gemsActivated()
	return []engine.Event{engine.Tell(GameOver{Won: won, Reason: reason})}
}

// gemsActivated is initial_reserve − reserve + (2 − side) (§4.5.1).
func (s *State) gemsActivated() int { return s.initialReserve - s.reserve + sideSupply - s.side }

// Clone returns an independent deep copy.
func (s *State) Clone() engine.State { return s.clone() }

func (s *State) clone() *State {
	c := *s
	c.dice = slices.Clone(s.dice)
	c.players = slices.Clone(s.players)
	for i := range c.players {
		c.players[i].curses = slices.Clone(s.players[i].curses)
		c.players[i].treasures = slices.Clone(s.players[i].treasures)
	}
	c.chambers = slices.Clone(s.chambers)
	for i := range c.chambers {
		c.chambers[i].pool = slices.Clone(s.chambers[i].pool)
	}
	c.stack = slices.Clone(s.stack)
	c.curseDeck = slices.Clone(s.curseDeck)
	c.treasureStack = slices.Clone(s.treasureStack)
	c.removedCurses = slices.Clone(s.removedCurses)
	c.usedTreasures = slices.Clone(s.usedTreasures)
	c.passages = slices.Clone(s.passages)
	c.stats.EscapedAt = slices.Clone(s.stats.EscapedAt)
	c.stats.DiceLost = slices.Clone(s.stats.DiceLost)
	return &c
}

// Actors returns every seat while the game runs (§4.1): real time has no
// turns, and escaped seats may still signal and give their die.
func (s *State) Actors() []engine.Seat {
	if s.over {
		return nil
	}
	out := make([]engine.Seat, len(s.players))
	for i := range out {
		out[i] = engine.Seat(i)
	}
	return out
}

// Deadline is the earliest pending gift time-out or countdown event (§4.1).
// Cooldown ends are not deadlines.
func (s *State) Deadline() (engine.Millis, bool) {
	if s.over {
		return 0, false
	}
	t := s.schedule[s.nextCue].At
	for _, pl := range s.players {
		if pl.gifting && pl.giftDue < t {
			t = pl.giftDue
		}
	}
	return t, true
}

// Now returns the match clock as the state last saw it (D57).
func (s *State) Now() engine.Millis { return s.now }

// Outcome returns the shared result once the game is over (§5).
func (s *State) Outcome() (engine.Outcome, bool) {
	if !s.over {
		return engine.Outcome{}, false
	}
	n := len(s.players)
	o := engine.Outcome{Ranks: make([]int, n), Scores: make([]int, n)}
	for i := range n {
		o.Ranks[i] = 1
		if s.won {
			o.Scores[i] = 1
			o.Winners = append(o.Winners, engine.Seat(i))
		}
	}
	switch s.reason {
	case "all_escaped":
		o.Summary = "Every adventurer escaped from the temple."
	case "collapse":
		o.Summary = "The temple collapsed with adventurers still inside."
	case "no_dice":
		o.Summary = "No adventurer inside had a die left to roll."
	case "time_cap":
		o.Summary = "The untimed game reached its one-hour limit."
	}
	return o, true
}

// RatedResult says what the match is for rating: co-op, the team against
// the game, in the variant its options make. The key names the difficulty
// always and the other options that change the team's chances when they
// are not at their defaults: the modules, the timer (with the hourglass's
// run), the roll cooldown. The track is left out: both share one schedule
// (D23).
func (s *State) RatedResult() (engine.Result, bool) {
	o := s.opt
	key := OptDifficulty + "=" + o.difficulty
	if o.curses {
		key += "," + OptCurses + "=true"
	}
	if o.treasures {
		key += "," + OptTreasures + "=true"
	}
	if o.timer != "soundtrack" {
		key += "," + OptTimer + "=" + o.timer
		if o.timer == "sand" {
			key += "," + OptSandMs + "=" + strconv.FormatInt(int64(o.sandMs), 10)
		}
	}
	if o.cooldown != defaultRollCooldown {
		key += "," + OptCooldown + "=" + strconv.FormatInt(int64(o.cooldown), 10)
	}
	out, over := s.Outcome()
	if !over {
		return engine.Result{Family: engine.Coop, Key: key}, false
	}
	return engine.CoopResult(out, len(s.players), key), true
}

// Stats returns the figures of the game so far (§5), for simulations.
func (s *State) Stats() Stats {
	st := s.stats
	st.EscapedAt = slices.Clone(s.stats.EscapedAt)
	st.DiceLost = slices.Clone(s.stats.DiceLost)
	st.GemsActivated = s.gemsActivated()
	st.FinalReserve = s.reserve
	return st
}

// Muted reports whether seat p's chat is muted by a silence curse (§8.6).
func (s *State) Muted(p engine.Seat) bool {
	return int(p) >= 0 && int(p) < len(s.players) && s.holds(int(p), Silence)
}
