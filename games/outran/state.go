// Package outran is the game Outran (Outrun, Good Looking Richard 2019): a
// real-time race in which every seat lays arrow cards in the order a path
// card shows, bent by interference cards, to outrun one of four monsters to
// the exit.
//
// The rules follow shared/rules/outran.md (section numbers §n and decision
// ids Dn in comments refer to it); every number of the game lives in
// components.go. The package is a deterministic state machine behind the
// engine contract: all randomness comes from the state's engine.RNG, the
// match clock comes in with each action, and View is the only door out.
// It must never read the wall clock, use a global random source, or let a
// view or an event tell a seat what it may not know (another seat's hand or
// submission before the check, the order of a deck).
package outran

import (
	"slices"
	"strconv"

	"sortie/bot"
	"sortie/engine"
)

// Game is Outran. The zero value is ready to use.
type Game struct{}

var (
	_ engine.Game         = Game{}
	_ bot.Provider        = Game{}
	_ engine.Determinizer = (*state)(nil)
	_ engine.Offerer      = (*state)(nil)
	_ engine.TextParser   = Game{}
)

// Info describes the game.
func (Game) Info() engine.Info {
	return engine.Info{
		ID:   "outran",
		Name: engine.Text{"fr": "Outran", "en": "Outrun"},
		Summary: engine.Text{
			"en": "A monster is loose in the horror-film museum. Each round a path card is revealed and everyone races to lay their arrow cards in its order, bent by interference cards; the fastest correct players move furthest towards the exit.",
			"fr": "Un monstre s’est échappé au musée du film d’horreur. À chaque tour une carte parcours est révélée et chacun aligne au plus vite ses cartes flèches dans son ordre, déformé par les cartes d’interférence\u00a0; les plus rapides sans erreur avancent le plus vers la sortie.",
		},
		MinPlayers: 2,
		MaxPlayers: 6,
		Timing:     engine.RealTime,
		Options:    slices.Clone(options),
		MaxActions: maxActions,
	}
}

// info is the game's Info, made once for New.
var info = Game{}.Info()

// DecodeAction reads an action from its JSON form.
func (Game) DecodeAction(b []byte) (engine.Action, error) { return decodeAction(b) }

// Phase is the step of a round the game is waiting in (§4.0).
type Phase uint8

// The phases.
const (
	PhaseCountdown Phase = iota
	PhaseRun
	PhasePlaceChoice
	PhaseInfectChoice
	PhaseInterferenceTurn
	PhaseOver
)

var phaseNames = [...]string{"countdown", "run", "place_choice", "infect_choice", "interference_turn", "over"}

// String returns the phase's name.
func (p Phase) String() string { return phaseNames[p] }

// Result is how a seat's run ended.
type Result uint8

// The results of a run.
const (
	Pending Result = iota // the run is not checked yet
	Correct
	Wrong
	Stopped
)

var resultNames = [...]string{"", "correct", "wrong", "stopped"}

// String returns the result's name.
func (r Result) String() string { return resultNames[r] }

// config holds the validated options.
type config struct {
	Monster    Monster
	ExitBoards int
	Countdown  engine.Millis
	RunLimit   engine.Millis
	StopVote   bool
	VoteGrace  engine.Millis
	Decision   engine.Millis
	MaxRounds  int
	PathLayout string
}

// held is a card in front of a holder, stamped with its arrival.
type held struct {
	Card  Card
	Stamp int
}

// handCard is a card in a hand, with the seats that know it is there (its
// holder, and the seats that saw it taken by a Thief).
type handCard struct {
	Card  Card
	Known uint8
}

// seatState is everything about one seat.
type seatState struct {
	Progress int
	Pos      int // monster-board position, 0 = the +0 box
	Infected bool
	Immune   bool
	Escaped  bool
	Hand     []handCard
	Front    []held

	// The run.
	Submitted bool
	Cards     []Token
	At        engine.Millis
	Elapsed   engine.Millis // At less the run's reveal, kept for the results shown after the run
	Arrival   int
	Voted     bool
	VoteOpen  bool
	Result    Result

	// What the seat had to lay this round, computed at the reveal from
	// public information. Never mutated: clones share them.
	Legal     []engine.Action // the run's representative submissions (§8.3), *Submit
	NAccepted int             // the first NAccepted of Legal are Accepted(X) (§4.3)
	Canonical []Token
	Palette   uint16
}

// state is one match of Outran.
type state struct {
	rng   engine.RNG
	n     int
	cfg   config
	phase Phase
	round int

	flipper  engine.Seat
	revealAt engine.Millis
	phaseAt  engine.Millis // start of a choice or turn phase

	path        int // index in pathCards of the revealed card, -1 before the first reveal
	pathDeck    []uint8
	pathDiscard []uint8
	deck        []Card // the top is the last element
	discard     []Card
	centre      []held // Vampire
	stamp       int

	seats    []seatState
	arrivals int // submissions this run: the last one's Arrival

	finish  []engine.Seat // submitted seats by (at, arrival), fixed at the end of the run
	order   []engine.Seat // round order (§4.9), fixed after placement
	fastest engine.Seat   // the fastest correct seat of the round, or -1

	choiceSeat engine.Seat // place_choice: the last correct seat; infect_choice: the spreader
	choicePos  int         // place_choice: the free position offered
	candidates []engine.Seat
	spreaders  []engine.Seat // Zombie: S in round order, still to spread
	turn       int           // interference turns: index in order

	winners []engine.Seat
	reason  string // "escaped" or "round_cap"
	ranks   []int

	mem chunks // where what the state hands out is carved from
}

// New sets up a match (§3).
func (g Game) New(setup engine.Setup) (engine.State, error) {
	cfg, ok := quickConfig(setup)
	if !ok {
		opts, err := info.Check(setup)
		if err != nil {
			return nil, err
		}
		var vals optionValues
		for i, key := range optionKeys {
			vals[i] = opts.String(key)
		}
		cfg = configFrom(&vals)
	}
	m := cfg.Monster
	s := &state{
		rng:     engine.NewRNG(setup.Seed),
		n:       setup.Players,
		cfg:     cfg,
		path:    -1,
		seats:   make([]seatState, setup.Players),
		fastest: -1,
	}
	// §3 step 4: the game RNG is used in exactly this order.
	s.flipper = engine.Seat(s.rng.IntN(s.n))
	// Each pile and its discard pile share one array: together they never
	// hold more than the whole deck.
	piles := make([]uint8, 2*len(pathCards))
	s.pathDeck, s.pathDiscard = piles[:len(pathCards):len(pathCards)], piles[len(pathCards):len(pathCards)]
	for i := range s.pathDeck {
		s.pathDeck[i] = uint8(i)
	}
	s.rng.Shuffle(len(s.pathDeck), func(i, j int) { s.pathDeck[i], s.pathDeck[j] = s.pathDeck[j], s.pathDeck[i] })
	deck := decks[boards[m].Deck]
	cards := make([]Card, 2*len(deck)) // the deck and its discard pile
	s.deck, s.discard = cards[:len(deck):len(deck)], cards[len(deck):len(deck)]
	copy(s.deck, deck)
	s.rng.Shuffle(len(s.deck), func(i, j int) { s.deck[i], s.deck[j] = s.deck[j], s.deck[i] })
	s.mem.full()
	s.round = 1
	s.phase = PhaseCountdown
	s.revealAt = cfg.Countdown
	return s, nil
}

func (s *state) board() *boardSpec { return &boards[s.cfg.Monster] }

// optionValues are the validated options of a match in text form, in the
// order of optionKeys.
type optionValues [len(optionKeys)]string

func (v *optionValues) get(key string) string { return v[slices.Index(optionKeys[:], key)] }

func (v *optionValues) num(key string) int {
	n, _ := strconv.Atoi(v.get(key))
	return n
}

// configFrom reads the validated options.
func configFrom(v *optionValues) config {
	m, _ := monsterByID(v.get(optMonster))
	return config{
		Monster:    m,
		ExitBoards: v.num(optExitBoards),
		Countdown:  engine.Millis(v.num(optCountdown)),
		RunLimit:   engine.Millis(v.num(optRunLimit)),
		StopVote:   v.get(optStopVote) == "true",
		VoteGrace:  engine.Millis(v.num(optVoteGrace)),
		Decision:   engine.Millis(v.num(optDecision)),
		MaxRounds:  v.num(optMaxRounds),
		PathLayout: v.get(optPathLayout),
	}
}

// quickConfig reads the options of a setup whose options are all known and
// written in their normal form (as Info.Check would leave them), without
// building an engine.Options: New runs in every simulated game. Anything
// else is not ok, and New asks Info.Check, which explains what is wrong.
func quickConfig(setup engine.Setup) (config, bool) {
	if setup.Players < info.MinPlayers || setup.Players > info.MaxPlayers {
		return config{}, false
	}
	var vals optionValues
	given := 0
	for i := range options {
		o := &options[i]
		v, ok := setup.Options[o.Key]
		if !ok {
			vals[i] = o.Default
			continue
		}
		given++
		switch o.Kind {
		case engine.Int:
			n, err := strconv.Atoi(v)
			if err != nil || n < o.Min || n > o.Max || strconv.Itoa(n) != v {
				return config{}, false
			}
		case engine.Bool:
			if v != "true" && v != "false" {
				return config{}, false
			}
		case engine.Choice:
			if !slices.Contains(o.Choices, v) {
				return config{}, false
			}
		default:
			return config{}, false
		}
		vals[i] = v
	}
	if given != len(setup.Options) { // an option the game does not have
		return config{}, false
	}
	return configFrom(&vals), true
}

// pathLength is L = 9 × exit_boards (§2.6).
func (s *state) pathLength() int { return exitBoardSteps * s.cfg.ExitBoards }

// Clone returns an independent deep copy.
func (s *state) Clone() engine.State {
	c := *s
	c.mem = chunks{} // the clone carves what it hands out from chunks of its own
	c.pathDeck = slices.Clone(s.pathDeck)
	c.pathDiscard = slices.Clone(s.pathDiscard)
	c.deck = slices.Clone(s.deck)
	c.discard = slices.Clone(s.discard)
	c.centre = slices.Clone(s.centre)
	c.seats = slices.Clone(s.seats)
	for i := range c.seats {
		st := &c.seats[i]
		st.Hand = slices.Clone(st.Hand)
		st.Front = slices.Clone(st.Front)
	}
	// Submitted cards, the accepted lists, finish, order, candidates,
	// spreaders, winners and ranks are never changed in place once made:
	// the clone shares them.
	return &c
}

// Actors returns who may act now (§4.0).
func (s *state) Actors() []engine.Seat {
	switch s.phase {
	case PhaseRun:
		var mask uint8
		for i := range s.seats {
			if s.mayAct(engine.Seat(i)) {
				mask |= 1 << i
			}
		}
		return seatSets[mask]
	case PhasePlaceChoice, PhaseInfectChoice:
		return seatSets[1<<s.choiceSeat]
	case PhaseInterferenceTurn:
		return seatSets[1<<s.order[s.turn]]
	}
	return nil
}

// seatSets lists the seats of every set of up to six seats, in seat order,
// so that Actors does not allocate. Callers must not modify the lists.
var seatSets = func() (t [64][]engine.Seat) {
	for m := range t {
		for i := range 6 {
			if m&(1<<i) != 0 {
				t[m] = append(t[m], engine.Seat(i))
			}
		}
		t[m] = t[m][:len(t[m]):len(t[m])]
	}
	return t
}()

// mayAct reports whether seat p may submit or vote now, during the run.
func (s *state) mayAct(p engine.Seat) bool {
	st := &s.seats[p]
	return !st.Submitted || s.mayVote(p)
}

// mayVote reports whether seat p may vote to stop the run now (D22). The
// vote opens by an event (vote_open), so that a seat's turn to act is never
// a matter of when one looks.
func (s *state) mayVote(p engine.Seat) bool {
	st := &s.seats[p]
	return s.phase == PhaseRun && s.cfg.StopVote && st.Submitted && st.VoteOpen && !st.Voted
}

// Deadline returns when Advance is next due (§8.3).
func (s *state) Deadline() (engine.Millis, bool) {
	switch s.phase {
	case PhaseCountdown:
		return s.revealAt, true
	case PhaseRun:
		d := s.runEnd()
		if at, ok := s.nextVoteOpen(); ok && at < d {
			d = at
		}
		return d, true
	case PhasePlaceChoice, PhaseInfectChoice, PhaseInterferenceTurn:
		return s.phaseAt + s.cfg.Decision, true
	}
	return 0, false
}

// runEnd is the forced end of the run (D21).
func (s *state) runEnd() engine.Millis { return s.revealAt + s.cfg.RunLimit }

// votesCanOpen reports whether enough seats have submitted for a stop vote:
// at least half of them, rounded up (D22).
func (s *state) votesCanOpen() bool {
	return s.cfg.StopVote && s.arrivals >= (s.n+1)/2 // arrivals counts the seats that submitted
}

// nextVoteOpen is the earliest instant a submitted seat's vote opens, if one
// is still to open (see votesCanOpen).
func (s *state) nextVoteOpen() (engine.Millis, bool) {
	if !s.votesCanOpen() {
		return 0, false
	}
	var best engine.Millis
	found := false
	for i := range s.seats {
		st := &s.seats[i]
		if at := st.At + s.cfg.VoteGrace; st.Submitted && !st.VoteOpen && (!found || at < best) {
			best, found = at, true
		}
	}
	return best, found
}

// Outcome returns the result once the game is over (§5).
func (s *state) Outcome() (engine.Outcome, bool) {
	if s.phase != PhaseOver {
		return engine.Outcome{}, false
	}
	scores := make([]int, s.n)
	for i := range s.seats {
		scores[i] = s.seats[i].Progress
	}
	sum := "The winner, " + s.winners[0].Name() + ", escaped in round " + strconv.Itoa(s.round) + "."
	if s.reason == "round_cap" {
		sum = "Nobody escaped within " + strconv.Itoa(s.cfg.MaxRounds) + " rounds; " + s.winners[0].Name() + " got furthest."
	}
	return engine.Outcome{
		Winners: slices.Clone(s.winners),
		Ranks:   slices.Clone(s.ranks),
		Scores:  scores,
		Summary: sum,
	}, true
}

var _ engine.Rated = (*state)(nil)

// RatedResult says what the match is for rating: every runner for
// themselves, ranked as the outcome ranks them.
func (s *state) RatedResult() (engine.Result, bool) {
	if s.phase != PhaseOver {
		return engine.Result{Family: engine.FreeForAll}, false
	}
	return engine.FreeForAllResult(engine.Outcome{Ranks: s.ranks}, ""), true
}

// ---- Memory: what the state hands out is carved from chunks ----
//
// Events, their bodies and the lists in them are kept by whoever receives
// them, so they cannot be reused; carving them from chunks makes a few
// allocations a game of what used to be several an action.

// chunks are the chunks that what a state hands out is carved from (see
// chunk): events, the lists in them and in the state, the answers of a run
// under interference (see answersFor), and event bodies, so that an event
// does not cost an allocation of its own.
type chunks struct {
	events  chunk[engine.Event]
	seats   chunk[engine.Seat]
	ints    chunk[int]
	results chunk[SeatResult]
	cards   chunk[Card]
	tokens  chunk[Token]
	submits chunk[Submit]
	actions chunk[engine.Action]

	countdown    chunk[Countdown]
	revealed     chunk[Revealed]
	submitted    chunk[Submitted]
	runEnded     chunk[RunEnded]
	positions    chunk[Positions]
	placeOffered chunk[PlaceOffered]
	chosePlace   chunk[ChosePlace]
	moved        chunk[Moved]
	infected     chunk[Infected]
	drew         chunk[Drew]
	drewFaceUp   chunk[DrewFaceUp]
	placed       chunk[Placed]
	discarded    chunk[Discarded]
	turnStarted  chunk[TurnStarted]
	played       chunk[Played]
	reshuffled   chunk[Reshuffled]
}

// full makes every chunk of a new game take full-size arrays from the
// start. A clone's chunks start with a quarter (see open): a clone is often
// played on for a few steps only.
func (m *chunks) full() {
	m.events.full()
	m.seats.full()
	m.ints.full()
	m.results.full()
	m.cards.full()
	m.tokens.full()
	m.submits.full()
	m.actions.full()
	m.countdown.full()
	m.revealed.full()
	m.submitted.full()
	m.runEnded.full()
	m.positions.full()
	m.placeOffered.full()
	m.chosePlace.full()
	m.moved.full()
	m.infected.full()
	m.drew.full()
	m.drewFaceUp.full()
	m.placed.full()
	m.discarded.full()
	m.turnStarted.full()
	m.played.full()
	m.reshuffled.full()
}

// The bodies of the events that only name a seat, made once. Nobody may
// change them.
var (
	voteOpenBodies  = perSeat(func(p engine.Seat) VoteOpen { return VoteOpen{Seat: p} })
	votedBodies     = perSeat(func(p engine.Seat) Voted { return Voted{Seat: p} })
	curedBodies     = perSeat(func(p engine.Seat) Cured { return Cured{Seat: p} })
	clawedBodies    = perSeat(func(p engine.Seat) Clawed { return Clawed{Seat: p} })
	burnedBodies    = perSeat(func(p engine.Seat) Burned { return Burned{Seat: p} })
	turnEndedBodies = [2][6]TurnEnded{ // by timeout, then seat
		perSeat(func(p engine.Seat) TurnEnded { return TurnEnded{Seat: p} }),
		perSeat(func(p engine.Seat) TurnEnded { return TurnEnded{Seat: p, Timeout: true} }),
	}
)

func perSeat[T any](f func(engine.Seat) T) (t [6]T) {
	for i := range t {
		t[i] = f(engine.Seat(i))
	}
	return t
}

// chunk hands out lists carved one after the other from a larger array, so
// that many short lists cost one allocation between them. A list is opened
// with the room it will probably need, appended to, then closed by keep:
// the part it fills is never written again (the state, its clones and
// whoever was given an event keep their lists), and its capacity ends with
// it, so that appending to a kept list copies it. One list at a time is open
// in a chunk. The free part has length zero, so that an empty chunk and a
// used one look the same in a state's dump; it is nil until the chunk's
// first array unless full was called.
type chunk[T any] struct{ free []T }

// full makes the chunk's first array a full-size one.
func (c *chunk[T]) full() { c.free = []T{} }

// open returns an empty list with room for at least room elements; a new
// array holds size (a quarter of it for the first, unless full was called).
func (c *chunk[T]) open(room, size int) []T {
	if cap(c.free) < room {
		if c.free == nil {
			size /= 4
		}
		c.free = make([]T, 0, max(room, size))
	}
	return c.free
}

// one returns a copy of v carved from the chunk.
func (c *chunk[T]) one(v T) *T {
	if cap(c.free) == 0 {
		size := bodyChunk
		if c.free == nil {
			size /= 4
		}
		c.free = make([]T, 0, size)
	}
	l := append(c.free, v)
	c.free = l[1:1]
	return &l[0]
}

// keep closes l, the list last opened (and appended to).
func (c *chunk[T]) keep(l []T) []T {
	if cap(l) == cap(c.free) { // still in the chunk: append never moved it
		c.free = l[len(l):len(l)]
	}
	return l[:len(l):len(l)]
}

// Chunk sizes, in elements.
const (
	eventChunk  = 64
	seatChunk   = 64
	intChunk    = 64
	resultChunk = 24
	cardChunk   = 128
	bodyChunk   = 8
	tokenChunk  = 256
	submitChunk = 32
	actionChunk = 32
)

// events returns an empty list to append the events of one Apply or Advance
// to; done closes it.
func (s *state) events() []engine.Event { return s.mem.events.open(8, eventChunk) }

// done closes a list opened by events; no events is nil.
func (s *state) done(evs []engine.Event) []engine.Event {
	if len(evs) == 0 {
		return nil
	}
	return s.mem.events.keep(evs)
}
