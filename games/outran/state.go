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
	"fmt"
	"slices"

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
			"fr": "Un monstre s'est échappé au musée du film d'horreur. À chaque tour une carte parcours est révélée et chacun aligne au plus vite ses cartes flèches dans son ordre, déformé par les cartes d'interférence ; les plus rapides sans erreur avancent le plus vers la sortie.",
		},
		MinPlayers: 2,
		MaxPlayers: 6,
		Timing:     engine.RealTime,
		Options:    slices.Clone(options),
		MaxActions: maxActions,
	}
}

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
	Arrival   int
	Voted     bool
	VoteOpen  bool
	Result    Result

	// What the seat had to lay this round, computed at the reveal from
	// public information. Never mutated: clones share them.
	Accepted  [][]Token
	Canonical []Token
	Palette   uint16
	Legal     []engine.Action // the run's representative submissions (§8.3)
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
	arrivals int

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
}

// New sets up a match (§3).
func (g Game) New(setup engine.Setup) (engine.State, error) {
	opts, err := g.Info().Check(setup)
	if err != nil {
		return nil, err
	}
	m, _ := monsterByID(opts.String(optMonster))
	cfg := config{
		Monster:    m,
		ExitBoards: opts.Int(optExitBoards),
		Countdown:  engine.Millis(opts.Int(optCountdown)),
		RunLimit:   engine.Millis(opts.Int(optRunLimit)),
		StopVote:   opts.Bool(optStopVote),
		VoteGrace:  engine.Millis(opts.Int(optVoteGrace)),
		Decision:   engine.Millis(opts.Int(optDecision)),
		MaxRounds:  opts.Int(optMaxRounds),
		PathLayout: opts.String(optPathLayout),
	}
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
	s.pathDeck = make([]uint8, len(pathCards))
	for i := range s.pathDeck {
		s.pathDeck[i] = uint8(i)
	}
	s.rng.Shuffle(len(s.pathDeck), func(i, j int) { s.pathDeck[i], s.pathDeck[j] = s.pathDeck[j], s.pathDeck[i] })
	s.deck = deckOf(boards[m].Deck)
	s.rng.Shuffle(len(s.deck), func(i, j int) { s.deck[i], s.deck[j] = s.deck[j], s.deck[i] })
	s.round = 1
	s.phase = PhaseCountdown
	s.revealAt = cfg.Countdown
	return s, nil
}

func (s *state) board() *boardSpec { return &boards[s.cfg.Monster] }

// pathLength is L = 9 × exit_boards (§2.6).
func (s *state) pathLength() int { return exitBoardSteps * s.cfg.ExitBoards }

// Clone returns an independent deep copy.
func (s *state) Clone() engine.State {
	c := *s
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
	if !s.cfg.StopVote {
		return false
	}
	k := 0
	for i := range s.seats {
		if s.seats[i].Submitted {
			k++
		}
	}
	return k >= (s.n+1)/2
}

// nextVoteOpen is the earliest instant a submitted seat's vote opens, if one
// is still to open.
func (s *state) nextVoteOpen() (engine.Millis, bool) {
	if !s.votesCanOpen() {
		return 0, false
	}
	var best engine.Millis
	found := false
	for i := range s.seats {
		st := &s.seats[i]
		if st.Submitted && !st.VoteOpen {
			if at := st.At + s.cfg.VoteGrace; !found || at < best {
				best, found = at, true
			}
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
	sum := fmt.Sprintf("%s escaped in round %d.", engine.Seat(s.winners[0]), s.round)
	if s.reason == "round_cap" {
		sum = fmt.Sprintf("Nobody escaped within %d rounds; %s got furthest.", s.cfg.MaxRounds, engine.Seat(s.winners[0]))
	}
	return engine.Outcome{
		Winners: slices.Clone(s.winners),
		Ranks:   slices.Clone(s.ranks),
		Scores:  scores,
		Summary: sum,
	}, true
}
