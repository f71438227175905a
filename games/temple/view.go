package temple

import (
	"math/rand/v2"
	"slices"

	"sortie/engine"
)

// View is what a seat or a spectator sees (§7): the whole table, which is
// public, except the order and identity of the undrawn tiles, the order of
// the curse deck and treasure stack, and the identity of face-down
// treasures. All seat views are equal but for You. After the end, Reveal
// adds what was hidden. A view shares parts with other views and the state
// (the chambers while none changes, the links, the tiers; README T12):
// readers must not modify it.
type View struct {
	// You is the seat the view belongs to; absent for a spectator.
	You *int `json:"you,omitempty"`
	// Now is the match clock when the view was made.
	Now     engine.Millis `json:"now"`
	Players int           `json:"players"`

	Difficulty   string        `json:"difficulty"`
	Curses       bool          `json:"curses"`
	Treasures    bool          `json:"treasures"`
	RollCooldown engine.Millis `json:"roll_cooldown_ms"`

	// Clock is the countdown state (§4.6, D44).
	Clock Clock `json:"clock"`

	Reserve    int `json:"reserve"`
	Side       int `json:"side"`
	EscapeCost int `json:"escape_cost"`
	// GemsActivated is initial reserve − reserve + (2 − side).
	GemsActivated int `json:"gems_activated"`

	StackLeft         int `json:"stack_left"`
	CurseDeckLeft     int `json:"curse_deck_left"`
	TreasureStackLeft int `json:"treasure_stack_left"`
	// BreachMode says that discovering may go through walls (§4.5.2).
	BreachMode bool `json:"breach_mode"`

	Chambers []ChamberView `json:"chambers"`
	Passages []Passage     `json:"passages"`
	Seats    []SeatView    `json:"seats"`
	Dice     []DieView     `json:"dice"`

	RemovedCurses  []string `json:"removed_curses"`
	UsedTreasures  []string `json:"used_treasures"`
	Over           bool     `json:"over"`
	Won            bool     `json:"won"`
	Reason         string   `json:"reason,omitempty"`
	Reveal         *Reveal  `json:"reveal,omitempty"`
	ExitDrawWindow [2]int   `json:"exit_draw_window"`
}

// Clock is the timer of a match and what is left of it.
type Clock struct {
	Timer string `json:"timer"`
	Track string `json:"track,omitempty"`
	// Schedule lists every countdown event with its time; Next indexes the
	// first one still to come (len(Schedule) once all have fired).
	Schedule []Cue `json:"schedule"`
	Next     int   `json:"next"`
	// End is when the temple collapses (or the untimed cap); TimeLeft is
	// End − Now.
	End      engine.Millis `json:"end"`
	TimeLeft engine.Millis `json:"time_left"`
	// NextSlam is the time of the next door slam or end of a sand run, 0 if
	// none is left; SlamLeft is the time until it.
	NextSlam engine.Millis `json:"next_slam,omitempty"`
	SlamLeft engine.Millis `json:"slam_left,omitempty"`
	// Countdown is the gong count of the countdown running now (1–3), 0
	// outside a countdown; with the hourglass, SandRun is the run (1–3).
	Countdown int           `json:"countdown,omitempty"`
	SandRun   int           `json:"sand_run,omitempty"`
	SandMs    engine.Millis `json:"sand_ms,omitempty"`
}

// ChamberTile is what a chamber tile shows whatever happens in the game:
// one value per tile and module setting, shared by every view (read-only).
type ChamberTile struct {
	ID     string   `json:"id"`
	Kind   TileKind `json:"kind"`
	Cost   [2]Face  `json:"cost"`
	Symbol Face     `json:"symbol"`
	Tiers  []Tier   `json:"tiers,omitempty"`
	// Mask and Chest are the module marks, shown when the module is on.
	Mask  bool `json:"mask,omitempty"`
	Chest bool `json:"chest,omitempty"`
}

// chamberTileViews holds the ChamberTile of each tile for each module
// setting (bit 0: curses, bit 1: treasures).
var chamberTileViews = func() (out [numTiles][4]ChamberTile) {
	for i, t := range tiles {
		for m := range 4 {
			out[i][m] = ChamberTile{
				ID: t.ID, Kind: t.Kind, Cost: t.Cost, Symbol: t.Symbol, Tiers: t.Tiers,
				Mask: t.Mask && m&1 != 0, Chest: t.Chest && m&2 != 0,
			}
		}
	}
	return
}()

// ChamberView is a placed chamber: its tile and what happened there.
type ChamberView struct {
	*ChamberTile
	X      int8 `json:"x"`
	Y      int8 `json:"y"`
	Stairs Side `json:"stairs"`
	// Open is the set of open sides (stairs, exits, breaches); Breaches
	// those opened by a breach.
	Open     SideSet `json:"open"`
	Breaches SideSet `json:"breaches,omitempty"`
	// Links are the indexes in View.Chambers of the chambers connected to
	// this one; Discoverable the sides a tile can be discovered through.
	Links        []int8  `json:"links"`
	Discoverable SideSet `json:"discoverable,omitempty"`
	Activated    int8    `json:"activated,omitempty"`
	Gems         int8    `json:"gems,omitempty"`
	Target       int8    `json:"target,omitempty"`
	PoolValue    int8    `json:"pool_value,omitempty"`
	Pool         []Item  `json:"pool,omitempty"`
	// FaceDownTreasure says a treasure lies on the chest, not which.
	FaceDownTreasure bool `json:"face_down_treasure,omitempty"`
}

// Passage is a secret passage between two chambers.
type Passage struct {
	A string `json:"a"`
	B string `json:"b"`
}

// SeatView is one adventurer.
type SeatView struct {
	Seat   int    `json:"seat"`
	Colour string `json:"colour"`
	// Chamber is the index in View.Chambers of where the adventurer
	// stands, -1 once escaped; ChamberID its tile id.
	Chamber    int           `json:"chamber"`
	ChamberID  string        `json:"chamber_id,omitempty"`
	Escaped    bool          `json:"escaped"`
	EscapedAt  engine.Millis `json:"escaped_at,omitempty"`
	NextRollAt engine.Millis `json:"next_roll_at"`
	LastRollAt engine.Millis `json:"last_roll_at,omitempty"`
	Dice       int           `json:"dice"`
	Curses     []string      `json:"curses,omitempty"`
	Treasures  []string      `json:"treasures,omitempty"`
	GiftDue    engine.Millis `json:"gift_due,omitempty"`
	Gifting    bool          `json:"gifting,omitempty"`
	NextSignal engine.Millis `json:"next_signal_at,omitempty"`
}

// DieView is one die of the box.
type DieView struct {
	ID     int8      `json:"id"`
	Owner  int8      `json:"owner"`
	Face   Face      `json:"face"`
	Status DieStatus `json:"status"`
}

// Reveal is what the end of the game shows: the hidden orders and
// identities.
type Reveal struct {
	Stack         []string       `json:"stack"`
	CurseDeck     []string       `json:"curse_deck"`
	TreasureStack []string       `json:"treasure_stack"`
	FaceDown      []FaceDownView `json:"face_down"`
	ExitDraw      int            `json:"exit_draw"`
}

// FaceDownView names the treasure left face down on a chest.
type FaceDownView struct {
	Chamber  string `json:"chamber"`
	Treasure string `json:"treasure"`
}

// View returns what seat p (or engine.Spectator) may know (§7).
func (s *State) View(p engine.Seat) engine.View { return s.view(p) }

func (s *State) view(p engine.Seat) *View {
	// One allocation holds the view with its dice and seats, and the
	// chambers are shared while none changes (T12): a view is built for
	// every bot decision of a simulation.
	blk := &viewBlock{}
	v := &blk.v
	*v = View{
		Now:               s.now,
		Players:           len(s.players),
		Difficulty:        s.opt.difficulty,
		Curses:            s.opt.curses,
		Treasures:         s.opt.treasures,
		RollCooldown:      s.opt.cooldown,
		Reserve:           s.reserve,
		Side:              s.side,
		EscapeCost:        s.escapeCost(),
		GemsActivated:     s.gemsActivated(),
		StackLeft:         len(s.stack),
		CurseDeckLeft:     len(s.curseDeck),
		TreasureStackLeft: len(s.treasureStack),
		BreachMode:        s.topo.breachMode,
		Over:              s.over,
		Won:               s.won,
		Reason:            s.reason,
		ExitDrawWindow:    [2]int{12, 16},
	}
	if len(s.players) <= 2 {
		v.ExitDrawWindow = [2]int{6, 10}
	}
	if p >= 0 && int(p) < len(s.players) {
		blk.you = int(p)
		v.You = &blk.you
	}
	v.Clock = s.clockView()
	if s.chamberViewsCurrent() {
		v.Chambers = s.chamberViews
	} else {
		v.Chambers = s.buildChamberViews()
	}
	for _, pa := range s.passages {
		v.Passages = append(v.Passages, Passage{A: s.chamberID(int(pa[0])), B: s.chamberID(int(pa[1]))})
	}
	var owned [maxPlayers]int
	v.Dice = blk.dice[:len(s.dice):len(s.dice)]
	for i, d := range s.dice {
		v.Dice[i] = DieView{ID: int8(i), Owner: d.Owner, Face: d.Face, Status: d.Status}
		if d.Status != Lost && d.Status != Out {
			owned[d.Owner]++
		}
	}
	if n := len(s.players); n <= len(blk.seats) {
		v.Seats = blk.seats[:n:n]
	} else {
		v.Seats = make([]SeatView, n)
	}
	for i := range s.players {
		s.seatView(&v.Seats[i], i, owned[i])
	}
	for _, c := range s.removedCurses {
		v.RemovedCurses = append(v.RemovedCurses, curses[c].ID)
	}
	for _, t := range s.usedTreasures {
		v.UsedTreasures = append(v.UsedTreasures, treasures[t].ID)
	}
	if s.over {
		v.Reveal = s.reveal()
	}
	return v
}

// viewBlock is a view with room for its dice and for the seats of up to
// four players (five get their own array: a smaller block is faster to
// allocate in the common games).
type viewBlock struct {
	v     View
	you   int
	dice  [maxDice]DieView
	seats [4]SeatView
}

// buildChamberViews returns the chambers as views show them, in a new
// array (pool items in one more).
func (s *State) buildChamberViews() []ChamberView {
	out := make([]ChamberView, len(s.chambers))
	pooled := 0
	for c := range s.chambers {
		pooled += len(s.chambers[c].pool)
	}
	var items []Item // every pool's items, one backing array
	if pooled > 0 {
		items = make([]Item, 0, pooled)
	}
	modules := s.modules()
	for c := range s.chambers {
		ch := &s.chambers[c]
		cv := &out[c]
		*cv = ChamberView{
			ChamberTile: &chamberTileViews[ch.tile][modules],
			X:           ch.x, Y: ch.y, Stairs: ch.stairs,
			Activated: ch.activated, Gems: ch.gems, Target: ch.target,
			PoolValue:        int8(poolValue(ch.pool)),
			FaceDownTreasure: ch.chest >= 0,
			Open:             SideSet(ch.open),
			Breaches:         SideSet(ch.breach),
			Links:            s.topo.links[c],
			Discoverable:     s.topo.discoverable[c],
		}
		if len(ch.pool) > 0 {
			from := len(items)
			for _, it := range ch.pool {
				items = append(items, s.itemOf(it))
			}
			cv.Pool = items[from:len(items):len(items)]
		}
	}
	return out
}

// chamberViewsCurrent reports whether s.chamberViews shows the chambers as
// they are now.
func (s *State) chamberViewsCurrent() bool {
	if len(s.chamberViews) != len(s.chambers) {
		return false
	}
	modules := s.modules()
	for c := range s.chambers {
		ch, cv := &s.chambers[c], &s.chamberViews[c]
		if cv.ChamberTile != &chamberTileViews[ch.tile][modules] ||
			cv.X != ch.x || cv.Y != ch.y || cv.Stairs != ch.stairs ||
			cv.Activated != ch.activated || cv.Gems != ch.gems || cv.Target != ch.target ||
			cv.FaceDownTreasure != (ch.chest >= 0) ||
			cv.Open != SideSet(ch.open) || cv.Breaches != SideSet(ch.breach) ||
			cv.Discoverable != s.topo.discoverable[c] ||
			!slices.Equal(cv.Links, s.topo.links[c]) ||
			len(cv.Pool) != len(ch.pool) || cv.PoolValue != int8(poolValue(ch.pool)) {
			return false
		}
		for i, it := range ch.pool {
			if cv.Pool[i] != s.itemOf(it) {
				return false
			}
		}
	}
	return true
}

// refreshChamberViews brings s.chamberViews up to date; the rules call it
// after every change that may touch a chamber.
func (s *State) refreshChamberViews() {
	if !s.chamberViewsCurrent() {
		s.chamberViews = s.buildChamberViews()
	}
}

// modules indexes chamberTileViews: bit 0 curses, bit 1 treasures.
func (s *State) modules() int {
	m := 0
	if s.opt.curses {
		m |= 1
	}
	if s.opt.treasures {
		m |= 2
	}
	return m
}

func (s *State) clockView() Clock {
	c := Clock{Timer: s.opt.timer, Schedule: s.schedule, Next: s.nextCue}
	if s.opt.timer == "soundtrack" {
		c.Track = tracks[s.opt.track].ID
	}
	if s.opt.timer == "sand" {
		c.SandMs = s.opt.sandMs
		c.SandRun = min(int(s.now/s.opt.sandMs)+1, sandRuns)
	}
	c.End = s.schedule[len(s.schedule)-1].At
	c.TimeLeft = max(0, c.End-s.now)
	for i := s.nextCue; i < len(s.schedule); i++ {
		if t := s.schedule[i].Type; t == "door_slam" || t == "sand_out" {
			c.NextSlam = s.schedule[i].At
			c.SlamLeft = c.NextSlam - s.now
			break
		}
	}
	// A countdown runs from its gong to its slam (or the collapse).
	for i := s.nextCue - 1; i >= 0; i-- {
		if s.schedule[i].Type == "gong" {
			c.Countdown = s.schedule[i].N
			break
		}
		if s.schedule[i].Type == "door_slam" {
			break
		}
	}
	return c
}

// appendLinks appends the chambers connected to c, in index order.
func (s *State) appendLinks(links []int, c int) []int {
	from := len(links)
	for d := North; d <= West; d++ {
		if o := s.neighbour(c, d); o >= 0 && s.connected(c, o) {
			links = append(links, o)
		}
	}
	for _, p := range s.passages {
		o := -1
		if int(p[0]) == c {
			o = int(p[1])
		} else if int(p[1]) == c {
			o = int(p[0])
		}
		if o >= 0 && !slices.Contains(links[from:], o) {
			links = append(links, o)
		}
	}
	slices.Sort(links[from:])
	return links
}

// seatView fills sv with seat i, which owns dice dice still in play.
func (s *State) seatView(sv *SeatView, i, dice int) {
	pl := &s.players[i]
	*sv = SeatView{
		Seat: i, Colour: colours[i], Chamber: int(pl.at), Escaped: pl.at < 0,
		NextRollAt: pl.nextRollAt, Dice: dice,
	}
	if pl.rolled {
		sv.LastRollAt = pl.lastRollAt
	}
	if pl.at >= 0 {
		sv.ChamberID = s.chamberID(int(pl.at))
	} else {
		sv.EscapedAt = pl.escapedAt
	}
	if pl.signalled {
		sv.NextSignal = pl.lastSignal + signalCooldown
	}
	if pl.gifting {
		sv.Gifting, sv.GiftDue = true, pl.giftDue
	}
	for _, c := range pl.curses {
		sv.Curses = append(sv.Curses, curses[c].ID)
	}
	for _, t := range pl.treasures {
		sv.Treasures = append(sv.Treasures, treasures[t].ID)
	}
}

func (s *State) reveal() *Reveal {
	r := &Reveal{ExitDraw: s.exitDraw}
	for _, t := range s.stack {
		r.Stack = append(r.Stack, tiles[t].ID)
	}
	for _, c := range s.curseDeck {
		r.CurseDeck = append(r.CurseDeck, curses[c].ID)
	}
	for _, t := range s.treasureStack {
		r.TreasureStack = append(r.TreasureStack, treasures[t].ID)
	}
	for c := range s.chambers {
		if t := s.chambers[c].chest; t >= 0 {
			r.FaceDown = append(r.FaceDown, FaceDownView{Chamber: s.chamberID(c), Treasure: treasures[t].ID})
		}
	}
	return r
}

// Determinize returns a copy in which what no seat may know is resampled
// with r (§7): the undrawn tiles (the exit kept in its draw window), the
// curse deck, the treasure stack and the face-down treasures; the copy's
// generator is reseeded from r, so future dice are unknown too. The game has
// no private information, so every seat's view is unchanged.
func (s *State) Determinize(p engine.Seat, r *rand.Rand) engine.State {
	return s.resample(r)
}

// resample is Determinize for any seat.
func (s *State) resample(r *rand.Rand) *State {
	c := s.clone()
	c.rng = engine.NewRNG(r.Uint64())
	// The tile stack: shuffle the unseen tiles, then put the exit back at a
	// uniform draw number of its window that is still to come (§3 step 4).
	var others []int8
	exitIn := false
	for _, t := range c.stack {
		if t == tileExit {
			exitIn = true
		} else {
			others = append(others, t)
		}
	}
	r.Shuffle(len(others), func(i, j int) { others[i], others[j] = others[j], others[i] })
	if exitIn {
		lo, hi := 12, 16
		if len(c.players) <= 2 {
			lo, hi = 6, 10
		}
		lo = max(lo, c.drawn+1)
		draw := lo + r.IntN(hi-lo+1)
		k := draw - c.drawn - 1
		others = slices.Insert(others, k, int8(tileExit))
		c.exitDraw = draw
		c.stats.ExitDraw = draw
	}
	c.stack = others
	r.Shuffle(len(c.curseDeck), func(i, j int) { c.curseDeck[i], c.curseDeck[j] = c.curseDeck[j], c.curseDeck[i] })
	// Face-down treasures and the treasure stack are one unseen pool.
	var unseen []int8
	unseen = append(unseen, c.treasureStack...)
	for i := range c.chambers {
		if c.chambers[i].chest >= 0 {
			unseen = append(unseen, c.chambers[i].chest)
		}
	}
	r.Shuffle(len(unseen), func(i, j int) { unseen[i], unseen[j] = unseen[j], unseen[i] })
	k := 0
	for i := range c.chambers {
		if c.chambers[i].chest >= 0 {
			c.chambers[i].chest = unseen[k]
			k++
		}
	}
	c.treasureStack = append(c.treasureStack[:0], unseen[k:]...)
	return c
}
