package outran

import (
	"math/rand/v2"
	"slices"

	"sortie/engine"
)

// View is what one seat (or a spectator) may know of a match (§7). Another
// seat's hand shows as a count, a deck as a count, another seat's submission
// only after the run's check. Once the game is over, hands and deck orders are
// revealed to all.
type View struct {
	Seat       int           `json:"seat"` // -1 for a spectator
	Players    int           `json:"players"`
	Monster    string        `json:"monster"`
	ExitBoards int           `json:"exit_boards"`
	PathLength int           `json:"path_length"`
	PathLayout string        `json:"path_layout"`
	MaxRounds  int           `json:"max_rounds"`
	Timers     TimersView    `json:"timers"`
	Board      BoardView     `json:"board"`
	Phase      string        `json:"phase"`
	Round      int           `json:"round"`
	Flipper    int           `json:"flipper"`
	RevealAt   engine.Millis `json:"reveal_at"`
	// Deadline is when the current phase ends by itself (reveal, time
	// limit, a vote opening, a choice's or turn's timeout).
	Deadline *engine.Millis `json:"deadline,omitempty"`
	// Path is the path card in play, or the last one played during a
	// countdown (its results stay on screen).
	Path        *PathView  `json:"path,omitempty"`
	PathDeck    int        `json:"path_deck"`
	PathDiscard []string   `json:"path_discard"`
	Deck        int        `json:"deck"`
	Discard     []Card     `json:"discard"`
	Centre      []Card     `json:"centre,omitempty"`
	Order       []int      `json:"order"`
	Seats       []SeatView `json:"seats"`
	// Hand is the seat's own hand (never another's).
	Hand []Card `json:"hand,omitempty"`
	// Palette is what the seat may lay in this run.
	Palette []Token     `json:"palette,omitempty"`
	Choice  *ChoiceView `json:"choice,omitempty"`
	// Turn is the seat whose interference turn it is.
	Turn    *int            `json:"turn,omitempty"`
	Outcome *engine.Outcome `json:"outcome,omitempty"`
	// Revealed holds the decks' orders, top first, once the game is over.
	Revealed *DecksView `json:"revealed,omitempty"`
}

// TimersView gives the match's timer options.
type TimersView struct {
	CountdownMS engine.Millis `json:"countdown_ms"`
	RunLimitMS  engine.Millis `json:"run_limit_ms"`
	StopVote    bool          `json:"stop_vote"`
	VoteGraceMS engine.Millis `json:"stop_vote_grace_ms"`
	DecisionMS  engine.Millis `json:"decision_ms"`
}

// BoardView is the monster board: steps and marks of the +0 box (index 0)
// and of positions 1–6, and the positions in use.
type BoardView struct {
	Values [positions + 1]int      `json:"values"`
	Icons  [positions + 1][]string `json:"icons"`
	Active []int                   `json:"active"`
}

// PathView is a revealed path card.
type PathView struct {
	ID       string   `json:"id"`
	Symbols  []Token  `json:"symbols"`
	Antidote bool     `json:"antidote,omitempty"`
	Trail    []string `json:"trail"`
}

// SeatView is what everyone sees of a seat, plus its own submission for
// the seat itself.
type SeatView struct {
	Character string `json:"character"`
	Progress  int    `json:"progress"`
	Escaped   bool   `json:"escaped,omitempty"`
	Position  int    `json:"position"`
	Infected  bool   `json:"infected,omitempty"`
	Immune    bool   `json:"immune,omitempty"`
	HandCount int    `json:"hand_count"`
	// Hand is shown to all once the game is over.
	Hand  []Card `json:"hand,omitempty"`
	Front []Card `json:"front"`
	// The run: who has finished, when, in which rank so far.
	Submitted bool          `json:"submitted,omitempty"`
	At        engine.Millis `json:"at,omitempty"`
	Elapsed   engine.Millis `json:"elapsed,omitempty"`
	Rank      int           `json:"rank,omitempty"`
	VoteOpen  bool          `json:"vote_open,omitempty"`
	Voted     bool          `json:"voted,omitempty"`
	// Cards is the submission: the seat's own at once, everyone's after
	// the check. Result and Canonical come with the check.
	Cards     []Token `json:"cards,omitempty"`
	Result    string  `json:"result,omitempty"`
	Canonical []Token `json:"canonical,omitempty"`
}

// ChoiceView is an open single-seat choice.
type ChoiceView struct {
	Kind       string `json:"kind"` // "place" or "infect"
	Seat       int    `json:"seat"`
	Position   int    `json:"position,omitempty"`
	Candidates []int  `json:"candidates,omitempty"`
}

// DecksView reveals the decks at the end.
type DecksView struct {
	PathDeck []string `json:"path_deck"`
	Deck     []Card   `json:"deck"`
}

// View returns what seat p may know now.
func (s *state) View(p engine.Seat) engine.View {
	b := s.board()
	over := s.phase == PhaseOver
	v := &View{
		Seat: int(p), Players: s.n, Monster: b.ID, ExitBoards: s.cfg.ExitBoards,
		PathLength: s.pathLength(), PathLayout: s.cfg.PathLayout, MaxRounds: s.cfg.MaxRounds,
		Timers: TimersView{s.cfg.Countdown, s.cfg.RunLimit, s.cfg.StopVote, s.cfg.VoteGrace, s.cfg.Decision},
		Board:  BoardView{Values: b.Value, Active: slices.Clone(activePositions[s.n])},
		Phase:  s.phase.String(), Round: s.round, Flipper: int(s.flipper), RevealAt: s.revealAt,
		PathDeck: len(s.pathDeck), Deck: len(s.deck),
		PathDiscard: make([]string, len(s.pathDiscard)),
		Discard:     append([]Card{}, s.discard...),
		Order:       make([]int, len(s.order)),
		Seats:       make([]SeatView, s.n),
	}
	for i := range b.Icons {
		v.Board.Icons[i] = iconList(b.Icons[i])
	}
	if d, ok := s.Deadline(); ok {
		v.Deadline = &d
	}
	if s.path >= 0 {
		c := &pathCards[s.path]
		v.Path = &PathView{ID: c.ID, Symbols: slices.Clone(c.Symbols), Antidote: c.Antidote, Trail: slices.Clone(c.Trail)}
	}
	for i, c := range s.pathDiscard {
		v.PathDiscard[i] = pathCards[c].ID
	}
	if s.cfg.Monster == Vampire {
		v.Centre = heldCards(s.centre)
	}
	for i, q := range s.order {
		v.Order[i] = int(q)
	}
	checked := s.phase != PhaseRun // after the run, submissions are public
	for i := range s.seats {
		st := &s.seats[i]
		sv := &v.Seats[i]
		*sv = SeatView{
			Character: characters[i].ID, Progress: st.Progress, Escaped: st.Escaped,
			Position: st.Pos, Infected: st.Infected, Immune: st.Immune,
			HandCount: len(st.Hand), Front: heldCards(st.Front),
		}
		if over {
			sv.Hand = handCards(st.Hand)
		}
		if st.Submitted {
			// The next round's countdown moves revealAt: the elapsed time of
			// the last run is the one kept at its submission.
			sv.Submitted, sv.At, sv.Elapsed, sv.Rank = true, st.At, st.Elapsed, s.finishRank(engine.Seat(i))
			sv.VoteOpen, sv.Voted = st.VoteOpen, st.Voted
			if checked || engine.Seat(i) == p {
				sv.Cards = slices.Clone(st.Cards)
			}
		}
		if checked && st.Result != Pending {
			sv.Result, sv.Canonical = st.Result.String(), slices.Clone(st.Canonical)
		}
	}
	if p >= 0 && int(p) < s.n {
		v.Hand = handCards(s.seats[p].Hand)
		if s.phase == PhaseRun {
			for t := range tokenCount {
				if s.seats[p].Palette&(1<<t) != 0 {
					v.Palette = append(v.Palette, t)
				}
			}
		}
	}
	switch s.phase {
	case PhasePlaceChoice:
		v.Choice = &ChoiceView{Kind: "place", Seat: int(s.choiceSeat), Position: s.choicePos}
	case PhaseInfectChoice:
		v.Choice = &ChoiceView{Kind: "infect", Seat: int(s.choiceSeat)}
		for _, c := range s.candidates {
			v.Choice.Candidates = append(v.Choice.Candidates, int(c))
		}
	case PhaseInterferenceTurn:
		t := int(s.order[s.turn])
		v.Turn = &t
	case PhaseOver:
		out, _ := s.Outcome()
		v.Outcome = &out
		v.Revealed = &DecksView{PathDeck: make([]string, len(s.pathDeck)), Deck: make([]Card, len(s.deck))}
		for i := range s.pathDeck {
			v.Revealed.PathDeck[i] = pathCards[s.pathDeck[len(s.pathDeck)-1-i]].ID
		}
		for i := range s.deck {
			v.Revealed.Deck[i] = s.deck[len(s.deck)-1-i]
		}
	}
	return v
}

// finishRank is a submitted seat's rank among the submissions so far.
func (s *state) finishRank(p engine.Seat) int {
	st := &s.seats[p]
	r := 1
	for i := range s.seats {
		o := &s.seats[i]
		if engine.Seat(i) != p && o.Submitted && (o.At < st.At || o.At == st.At && o.Arrival < st.Arrival) {
			r++
		}
	}
	return r
}

func iconList(ic Icon) []string {
	out := []string{}
	for i, name := range iconNames {
		if ic&(1<<i) != 0 {
			out = append(out, name)
		}
	}
	return out
}

func handCards(h []handCard) []Card {
	if len(h) == 0 {
		return nil
	}
	out := make([]Card, len(h))
	for i, c := range h {
		out[i] = c.Card
	}
	return out
}

// ---- Hidden information ----

// Determinize returns a copy in which everything seat p cannot see is
// resampled (§8.3): the order of both decks, the cards of other hands that p
// has not seen, and the other seats' submissions not yet checked (blanked).
// The copy's generator is reseeded from r.
func (s *state) Determinize(p engine.Seat, r *rand.Rand) engine.State {
	return s.resample(p, r, nil, false)
}

// resample is Determinize with two knobs for the conformance suite: the
// hands of the seats in keep stay as they are, and when randomSubs is set
// the hidden submissions are redrawn at random rather than blanked.
func (s *state) resample(p engine.Seat, r *rand.Rand, keep []engine.Seat, randomSubs bool) *state {
	c := s.Clone().(*state)
	c.rng = engine.NewRNG(r.Uint64())
	if c.phase == PhaseOver {
		return c // everything is revealed at the end
	}
	kept := func(q engine.Seat) bool { return q == p || slices.Contains(keep, q) }
	known := func(h handCard) bool { return p >= 0 && h.Known&(1<<p) != 0 }
	// The deck and the unseen hand cards form one pool of cards p cannot
	// tell apart: deal it again into the same places.
	pool := slices.Clone(c.deck)
	for q := range c.seats {
		if !kept(engine.Seat(q)) {
			for _, h := range c.seats[q].Hand {
				if !known(h) {
					pool = append(pool, h.Card)
				}
			}
		}
	}
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	k := copy(c.deck, pool)
	for q := range c.seats {
		if kept(engine.Seat(q)) {
			continue
		}
		for i, h := range c.seats[q].Hand {
			if !known(h) {
				c.seats[q].Hand[i].Card = pool[k]
				k++
			}
		}
	}
	r.Shuffle(len(c.pathDeck), func(i, j int) { c.pathDeck[i], c.pathDeck[j] = c.pathDeck[j], c.pathDeck[i] })
	if c.phase == PhaseRun {
		for q := range c.seats {
			st := &c.seats[q]
			if engine.Seat(q) == p || !st.Submitted {
				continue
			}
			st.Cards = []Token{}
			if randomSubs {
				st.Cards = randomSubmission(st, r)
			}
		}
	}
	return c
}

// randomSubmission draws a well-formed submission for a seat: its canonical
// answer, an accepted list, or a random arrangement of its palette.
func randomSubmission(st *seatState, r *rand.Rand) []Token {
	switch r.IntN(3) {
	case 0:
		return slices.Clone(st.Legal[r.IntN(st.NAccepted)].(*Submit).Cards)
	case 1:
		return slices.Clone(st.Canonical)
	}
	var pal []Token
	for t := range tokenCount {
		if st.Palette&(1<<t) != 0 {
			pal = append(pal, t)
		}
	}
	r.Shuffle(len(pal), func(i, j int) { pal[i], pal[j] = pal[j], pal[i] })
	return pal[:r.IntN(len(pal)+1)]
}
