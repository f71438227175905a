package bot_test

import (
	"math/rand/v2"
	"slices"

	"sortie/bot"
	"sortie/engine"
	tg "sortie/engine/enginetest/testgames"
)

// duel is a tiny card game with hidden hands in which skill matters, made to
// test search bots: cards 1 to 12 are shuffled, each seat holds three; in
// each of four rounds every seat plays a card, the highest card takes the
// round (a tie takes nothing) and everyone draws. The leader plays first and
// the others answer in seat order, seeing the cards played; with the option
// "simultaneous" every seat plays face down at once. Most rounds wins.
type duel struct{}

func (duel) Info() engine.Info {
	return engine.Info{
		ID: "duel", Name: engine.Text{"en": "Duel", "fr": "Duel"}, MinPlayers: 2, MaxPlayers: 3,
		Timing: engine.TurnBased, MaxActions: 20,
		Options: []engine.Option{{Key: "simultaneous", Kind: engine.Bool, Default: "false"}},
	}
}

func (g duel) New(s engine.Setup) (engine.State, error) {
	opts, err := g.Info().Check(s)
	if err != nil {
		return nil, err
	}
	st := &duelState{rng: engine.NewRNG(s.Seed), simultaneous: opts.Bool("simultaneous"),
		hands: make([][]int, s.Players), table: make([]int, s.Players), points: make([]int, s.Players)}
	for c := 1; c <= 12; c++ {
		st.deck = append(st.deck, c)
	}
	st.rng.Shuffle(len(st.deck), func(i, j int) { st.deck[i], st.deck[j] = st.deck[j], st.deck[i] })
	for p := range st.hands {
		st.hands[p], st.deck = slices.Clone(st.deck[:3]), st.deck[3:]
	}
	return st, nil
}

func (duel) DecodeAction(b []byte) (engine.Action, error) {
	v, err := engine.DecodeTyped(b, func(k string) (any, bool) { return &playCard{}, k == "play" })
	if err != nil {
		return nil, err
	}
	return *v.(*playCard), nil
}

// playCard plays a card from the hand.
type playCard struct {
	Card int `json:"card"`
}

func (playCard) Kind() string { return "play" }

type duelState struct {
	rng          engine.RNG
	simultaneous bool
	deck         []int
	hands        [][]int
	table        []int // the card each seat played this round, 0 if none yet
	points       []int
	round        int
	over         bool
}

func (s *duelState) leader() engine.Seat { return engine.Seat(s.round % len(s.hands)) }

func (s *duelState) Actors() []engine.Seat {
	if s.over {
		return nil
	}
	if s.simultaneous {
		var a []engine.Seat
		for p, c := range s.table {
			if c == 0 {
				a = append(a, engine.Seat(p))
			}
		}
		return a
	}
	n := len(s.hands)
	for k := range n {
		p := (int(s.leader()) + k) % n
		if s.table[p] == 0 {
			return []engine.Seat{engine.Seat(p)}
		}
	}
	return nil
}

func (s *duelState) Legal(p engine.Seat) []engine.Action {
	if !slices.Contains(s.Actors(), p) {
		return nil
	}
	var as []engine.Action
	for _, c := range s.hands[p] {
		as = append(as, playCard{c})
	}
	return as
}

func (s *duelState) Apply(p engine.Seat, a engine.Action, _ engine.Millis) ([]engine.Event, error) {
	if s.over {
		return nil, engine.GameOver()
	}
	if !slices.Contains(s.Actors(), p) {
		return nil, engine.NotYourTurn(p)
	}
	pc, ok := a.(playCard)
	i := slices.Index(s.hands[p], pc.Card)
	if !ok || i < 0 {
		return nil, engine.Refuse("not_in_hand", "You do not hold that card.")
	}
	s.hands[p] = slices.Delete(s.hands[p], i, i+1)
	s.table[p] = pc.Card
	if slices.Contains(s.table, 0) {
		return nil, nil
	}
	best, winner := 0, -1
	for q, c := range s.table {
		switch {
		case c > best:
			best, winner = c, q
		case c == best:
			winner = -1
		}
	}
	if winner >= 0 {
		s.points[winner]++
	}
	clear(s.table)
	for q := range s.hands {
		if len(s.deck) > 0 {
			s.hands[q] = append(s.hands[q], s.deck[0])
			s.deck = s.deck[1:]
		}
	}
	s.round++
	s.over = s.round == 4
	return nil, nil
}

func (s *duelState) Advance(engine.Millis) []engine.Event { return nil }
func (s *duelState) Deadline() (engine.Millis, bool)      { return 0, false }

type duelView struct {
	Hand      []int `json:"hand"`
	HandSizes []int `json:"hand_sizes"`
	Table     []int `json:"table"` // 0 for no card, -1 for a face-down card
	Points    []int `json:"points"`
	Round     int   `json:"round"`
	Deck      int   `json:"deck"`
}

func (s *duelState) View(p engine.Seat) engine.View {
	v := duelView{Points: slices.Clone(s.points), Round: s.round, Deck: len(s.deck)}
	if p >= 0 {
		v.Hand = slices.Clone(s.hands[p])
	}
	for q, c := range s.table {
		v.HandSizes = append(v.HandSizes, len(s.hands[q]))
		if c != 0 && s.simultaneous && engine.Seat(q) != p {
			c = -1
		}
		v.Table = append(v.Table, c)
	}
	return v
}

func (s *duelState) Outcome() (engine.Outcome, bool) {
	if !s.over {
		return engine.Outcome{}, false
	}
	return engine.OutcomeFromScores(slices.Clone(s.points), ""), true
}

func (s *duelState) Clone() engine.State {
	c := *s
	c.deck, c.table, c.points = slices.Clone(s.deck), slices.Clone(s.table), slices.Clone(s.points)
	c.hands = make([][]int, len(s.hands))
	for p, h := range s.hands {
		c.hands[p] = slices.Clone(h)
	}
	return &c
}

// Determinize deals what p cannot see (the deck, the other hands and the
// others' face-down cards) anew from r. The unseen cards are sorted before
// the shuffle, so the sample depends on p's view and r alone, never on
// where the hidden cards really are.
func (s *duelState) Determinize(p engine.Seat, r *rand.Rand) engine.State {
	c := s.Clone().(*duelState)
	pool := slices.Clone(c.deck)
	hidden := func(q int) bool { return c.simultaneous && engine.Seat(q) != p && c.table[q] != 0 }
	for q := range c.hands {
		if engine.Seat(q) != p {
			pool = append(pool, c.hands[q]...)
			if hidden(q) {
				pool = append(pool, c.table[q])
			}
		}
	}
	slices.Sort(pool)
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	take := func(k int) []int { t := slices.Clone(pool[:k]); pool = pool[k:]; return t }
	c.deck = take(len(c.deck))
	for q := range c.hands {
		if engine.Seat(q) != p {
			c.hands[q] = take(len(c.hands[q]))
			if hidden(q) {
				c.table[q] = take(1)[0]
			}
		}
	}
	c.rng = engine.NewRNG(r.Uint64())
	return c
}

// duelHeuristic plays the lowest card that beats the table, else its lowest.
type duelHeuristic struct{}

func (duelHeuristic) Name() string { return "heuristic" }

func (duelHeuristic) NewBot(engine.Game, bot.Seating) bot.Bot { return duelHeuristicBot{} }

type duelHeuristicBot struct{}

func (duelHeuristicBot) Decide(v engine.View, legal []engine.Action, _ engine.Millis) bot.Decision {
	dv := v.(duelView)
	top := slices.Max(dv.Table)
	var low, beat engine.Action
	for _, a := range legal {
		c := a.(playCard).Card
		if low == nil || c < low.(playCard).Card {
			low = a
		}
		if c > top && (beat == nil || c < beat.(playCard).Card) {
			beat = a
		}
	}
	if beat != nil {
		return bot.Decision{Action: beat}
	}
	return bot.Decision{Action: low}
}

// duelWithHeuristic is duel bringing its heuristic (bot.Provider).
type duelWithHeuristic struct{ duel }

func (duelWithHeuristic) Policies() []bot.Policy { return []bot.Policy{duelHeuristic{}} }

// detDraw is the Draw test game made searchable: its Determinize is the
// testgames' own perturbation.
type detDraw struct{ tg.Draw }

func (g detDraw) New(s engine.Setup) (engine.State, error) {
	st, err := g.Draw.New(s)
	if err != nil {
		return nil, err
	}
	return detDrawState{st}, nil
}

type detDrawState struct{ engine.State }

func (s detDrawState) Clone() engine.State { return detDrawState{s.State.Clone()} }

func (s detDrawState) Determinize(p engine.Seat, r *rand.Rand) engine.State {
	return detDrawState{tg.PerturbDraw(s.State, p, r)}
}

// detTaps is the real-time Taps test game, which hides nothing, made
// searchable.
type detTaps struct{ tg.Taps }

func (g detTaps) New(s engine.Setup) (engine.State, error) {
	st, err := g.Taps.New(s)
	if err != nil {
		return nil, err
	}
	return detTapsState{st}, nil
}

type detTapsState struct{ engine.State }

func (s detTapsState) Clone() engine.State { return detTapsState{s.State.Clone()} }

func (s detTapsState) Determinize(engine.Seat, *rand.Rand) engine.State { return s.Clone() }
