package outran

import (
	"math/bits"
	"slices"

	"sortie/engine"
)

// The rules of a round, in the order of the rulebook's seven steps (§1):
// reveal, run, check, placement, movement, monster effect, interference.
// Legal and Apply come first, one function per action; Advance fires what
// the clock makes due; the resolution steps follow in play order.

// Rule error codes of Outran, beside the engine's shared ones.
const (
	CodeAlreadySubmitted = "already_submitted"
	CodeTooManyTokens    = "too_many_tokens"
	CodeNotInPalette     = "token_not_in_palette"
	CodeRepeatedToken    = "repeated_token"
	CodeStopVoteOff      = "stop_vote_off"
	CodeSubmitFirst      = "submit_first"
	CodeAlreadyVoted     = "already_voted"
	CodeVoteTooEarly     = "vote_too_early"
	CodeNotANeighbour    = "not_a_neighbour"
	CodeNotInHand        = "not_in_hand"
	CodeNoSuchSeat       = "no_such_seat"
	CodeTargetYourself   = "target_must_be_you"
	CodeTargetOther      = "target_must_be_other"
	CodeTargetShielded   = "target_shielded"
	CodeAlreadyHasKind   = "already_has_kind"
	CodeNothingToRelease = "nothing_to_release"
	CodeNothingToSwap    = "nothing_to_swap"
	CodeNothingToGive    = "nothing_to_give"
	CodeEmptyHand        = "empty_hand"
)

// Audiences and holders.
const (
	centreHolder = -1 // the Vampire centre, as a holder in events
	outOfPlay    = -2 // an action card or a drawn Release leaving play
)

// ---- Legal ----

// Legal returns the legal actions of seat p. During the run it is a
// representative set (§8.3): one submission per accepted list, the literal
// path card when it is wrong, and the empty give-up; Apply accepts any
// well-formed submission. Every other phase is listed in full.
func (s *state) Legal(p engine.Seat) []engine.Action {
	if p < 0 || int(p) >= s.n {
		return nil
	}
	switch s.phase {
	case PhaseRun:
		st := &s.seats[p]
		if !st.Submitted {
			return st.Legal
		}
		if s.mayVote(p) {
			return voteLegal
		}
	case PhasePlaceChoice:
		if p == s.choiceSeat {
			return placeLegal
		}
	case PhaseInfectChoice:
		if p == s.choiceSeat {
			out := make([]engine.Action, len(s.candidates))
			for i, c := range s.candidates {
				out[i] = boxedInfect[c]
			}
			return out
		}
	case PhaseInterferenceTurn:
		if p == s.order[s.turn] {
			var facts [6]seatFacts
			for t := range s.n {
				facts[t] = s.factsOf(engine.Seat(t))
			}
			// The seats a card may be played on depend on its kind only:
			// by kind, those seats, with bit 7 set once worked out.
			var targets [kindCount]uint8
			hand := s.seats[p].Hand
			plays := 0
			for _, h := range hand {
				k := h.Card.Kind()
				if targets[k] == 0 {
					targets[k] = 1 << 7
					for t := range s.n {
						if targetVerdict(k, p, engine.Seat(t), &facts[p], &facts[t]) == canPlay {
							targets[k] |= 1 << t
						}
					}
				}
				plays += bits.OnesCount8(targets[k]) - 1
			}
			if plays == 0 {
				return endTurnLegal
			}
			l := make([]engine.Action, 0, plays+1)
			for _, h := range hand {
				for ts := targets[h.Card.Kind()] &^ (1 << 7); ts != 0; ts &= ts - 1 {
					l = append(l, boxedPlay[h.Card][bits.TrailingZeros8(ts)])
				}
			}
			return append(l, EndTurn{})
		}
	}
	return nil
}

// Actions boxed once, so that Legal does not allocate one per action.
var (
	boxedPlace   = [2]engine.Action{ChoosePlace{Leftmost: false}, ChoosePlace{Leftmost: true}}
	boxedInfect  [6]engine.Action
	boxedPlay    [cardCount][6]engine.Action
	placeLegal   = []engine.Action{boxedPlace[1], boxedPlace[0]}
	voteLegal    = []engine.Action{VoteStop{}}
	endTurnLegal = []engine.Action{EndTurn{}}
)

func init() {
	for t := range 6 {
		boxedInfect[t] = Infect{Target: engine.Seat(t)}
		for c := range cardCount {
			boxedPlay[c][t] = Play{Card: Card(c), Target: engine.Seat(t)}
		}
	}
}

// ---- Apply ----

// Apply plays action a for seat p at match time at. A refused action leaves
// the state untouched: every check comes before the first change.
func (s *state) Apply(p engine.Seat, a engine.Action, at engine.Millis) ([]engine.Event, error) {
	if s.phase == PhaseOver {
		return nil, engine.GameOver()
	}
	if p < 0 || int(p) >= s.n {
		return nil, engine.NotYourTurn(p)
	}
	evs, err := s.apply(p, a, at, s.events())
	if err != nil {
		return nil, err
	}
	return s.done(evs), nil
}

// apply dispatches an action to its rule, which appends its events to evs.
func (s *state) apply(p engine.Seat, a engine.Action, at engine.Millis, evs []engine.Event) ([]engine.Event, error) {
	switch a := a.(type) {
	case Submit:
		return s.submit(p, a, at, evs)
	case *Submit:
		if a != nil {
			return s.submit(p, *a, at, evs)
		}
	case VoteStop, *VoteStop:
		return s.voteStop(p, at, evs)
	case ChoosePlace:
		return s.choosePlace(p, a, at, evs)
	case *ChoosePlace:
		if a != nil {
			return s.choosePlace(p, *a, at, evs)
		}
	case Infect:
		return s.infect(p, a, at, evs)
	case *Infect:
		if a != nil {
			return s.infect(p, *a, at, evs)
		}
	case Play:
		return s.play(p, a, at, evs)
	case *Play:
		if a != nil {
			return s.play(p, *a, at, evs)
		}
	case EndTurn, *EndTurn:
		return s.endTurn(p, at, evs)
	}
	return nil, engine.Refuse(engine.CodeMalformed, "Outran has no such action.")
}

// submit lays the seat's tokens and its Finish card (§4.2, D20, D37).
func (s *state) submit(p engine.Seat, a Submit, at engine.Millis, evs []engine.Event) ([]engine.Event, error) {
	if s.phase != PhaseRun {
		return nil, engine.Refuse(engine.CodeWrongPhase, "You can only lay your arrows while a path card is in play.")
	}
	st := &s.seats[p]
	if st.Submitted {
		return nil, engine.Refuse(CodeAlreadySubmitted, "Your Finish card is already down: a submission is final.")
	}
	cards, ok := st.offered(a.Cards)
	if !ok { // not one of the seat's own lists, which are well-formed
		if len(a.Cards) > maxSubmission {
			return nil, engine.Refuse(CodeTooManyTokens, "You laid %d cards; nobody holds more than %d.", len(a.Cards), maxSubmission).With("count", len(a.Cards)).With("max", maxSubmission)
		}
		var seen uint16
		for _, t := range a.Cards {
			bit := uint16(1) << (t & 15) // a token past the palette's bits fails below
			if t >= tokenCount || st.Palette&bit == 0 || seen&bit != 0 {
				return nil, badToken(t, st.Palette, seen)
			}
			seen |= bit
		}
		cards = keepCards(st, a.Cards)
	}
	s.arrivals++
	st.Submitted, st.Cards, st.At, st.Elapsed, st.Arrival = true, cards, at, at-s.revealAt, s.arrivals
	rank := 1
	for i := range s.seats {
		if q := engine.Seat(i); q != p && s.seats[i].Submitted && s.finishesBefore(q, p) {
			rank++
		}
	}
	// D38: the others learn when, not what; the seat's view shows its list.
	evs = append(evs, engine.Tell(s.mem.submitted.one(Submitted{Seat: p, At: at, Elapsed: at - s.revealAt, Rank: rank})))
	if s.allSubmitted() {
		return s.endRun(at, "all_submitted", evs), nil
	}
	return s.openVotes(at, evs), nil
}

// offered reports whether cards is one of the lists of the seat's
// representative submissions itself (not a copy), as Legal handed it out.
func (st *seatState) offered(cards []Token) ([]Token, bool) {
	if len(cards) == 0 {
		return []Token{}, true
	}
	for _, a := range st.Legal {
		if l := a.(*Submit).Cards; len(l) == len(cards) && &l[0] == &cards[0] {
			return l, true
		}
	}
	return nil, false
}

// keepCards returns a list equal to a seat's well-formed submission that
// nobody will change: the same list of the seat's representative
// submissions (never changed once made) when there is one, else a copy.
func keepCards(st *seatState, cards []Token) []Token {
	for _, a := range st.Legal {
		if l := a.(*Submit).Cards; sameTokens(l, cards) {
			return l
		}
	}
	return slices.Clone(cards)
}

// badToken says why token t may not be laid by a seat with this palette
// after the tokens seen.
func badToken(t Token, palette, seen uint16) *engine.RuleError {
	switch {
	case t >= tokenCount:
		return engine.Refuse(engine.CodeMalformed, "There is no token %d.", uint8(t))
	case palette&(1<<t) == 0 && t == Detour:
		return engine.Refuse(CodeNotInPalette, "You have no Detour \"+\" card to lay: no Detour applies to you.")
	case palette&(1<<t) == 0 && t == Antidote:
		return engine.Refuse(CodeNotInPalette, "The antidote is only laid on the Zombie board.")
	case palette&(1<<t) == 0:
		return engine.Refuse(CodeNotInPalette, "You have no Express shortcut to lay.")
	}
	return engine.Refuse(CodeRepeatedToken, "You hold only one %s card: it cannot be laid twice.", t)
}

func (s *state) allSubmitted() bool { return s.arrivals == s.n } // arrivals counts the seats that submitted

// voteStop is a finished seat's vote to stop the run (D22).
func (s *state) voteStop(p engine.Seat, at engine.Millis, evs []engine.Event) ([]engine.Event, error) {
	if s.phase != PhaseRun {
		return nil, engine.Refuse(engine.CodeWrongPhase, "There is no run to stop now.")
	}
	st := &s.seats[p]
	switch {
	case !s.cfg.StopVote:
		return nil, engine.Refuse(CodeStopVoteOff, "Stop votes are off in this match: only the time limit ends a run.")
	case !st.Submitted:
		return nil, engine.Refuse(CodeSubmitFirst, "Put your own Finish card down before voting to stop the run.")
	case st.Voted:
		return nil, engine.Refuse(CodeAlreadyVoted, "You have already voted to stop this run.")
	case !st.VoteOpen:
		return nil, engine.Refuse(CodeVoteTooEarly, "You may vote %g s after your own Finish, once half the players have finished.", float64(s.cfg.VoteGrace)/1000).With("grace_ms", s.cfg.VoteGrace)
	}
	st.Voted = true
	evs = append(evs, engine.Tell(&votedBodies[p]))
	for i := range s.seats {
		if o := &s.seats[i]; o.Submitted && !o.Voted {
			return evs, nil
		}
	}
	return s.endRun(at, "vote", evs), nil
}

// choosePlace is the last correct seat's choice (D24).
func (s *state) choosePlace(p engine.Seat, a ChoosePlace, at engine.Millis, evs []engine.Event) ([]engine.Event, error) {
	if s.phase != PhasePlaceChoice {
		return nil, engine.Refuse(engine.CodeWrongPhase, "No placement choice is open now.")
	}
	if p != s.choiceSeat {
		return nil, engine.NotYourTurn(p)
	}
	return s.settlePlace(a.Leftmost, false, at, evs), nil
}

// infect names the neighbour a spreading seat infects (D29).
func (s *state) infect(p engine.Seat, a Infect, at engine.Millis, evs []engine.Event) ([]engine.Event, error) {
	if s.phase != PhaseInfectChoice {
		return nil, engine.Refuse(engine.CodeWrongPhase, "No infection choice is open now.")
	}
	if p != s.choiceSeat {
		return nil, engine.NotYourTurn(p)
	}
	if !slices.Contains(s.candidates, a.Target) {
		return nil, engine.Refuse(CodeNotANeighbour, "You can only infect a healthy neighbour on the monster board (%s).", seatList(s.candidates))
	}
	return s.settleInfect(a.Target, at, evs), nil
}

// play plays a card from the hand in the seat's interference turn (§4.7.4).
func (s *state) play(p engine.Seat, a Play, at engine.Millis, evs []engine.Event) ([]engine.Event, error) {
	if s.phase != PhaseInterferenceTurn {
		return nil, engine.Refuse(engine.CodeWrongPhase, "Interference cards are played only in your interference turn.")
	}
	if p != s.order[s.turn] {
		return nil, engine.NotYourTurn(p)
	}
	if err := s.checkPlay(p, a.Card, a.Target); err != nil {
		return nil, err
	}
	return s.resolvePlay(p, a.Card, a.Target, evs), nil
}

// endTurn ends the seat's interference turn.
func (s *state) endTurn(p engine.Seat, at engine.Millis, evs []engine.Event) ([]engine.Event, error) {
	if s.phase != PhaseInterferenceTurn {
		return nil, engine.Refuse(engine.CodeWrongPhase, "It is not an interference turn.")
	}
	if p != s.order[s.turn] {
		return nil, engine.NotYourTurn(p)
	}
	evs = append(evs, engine.Tell(&turnEndedBodies[0][p]))
	s.turn++
	return s.nextTurn(at, evs), nil
}

// ---- Time ----

// Advance fires, in order, everything due at or before at: the reveal, a
// vote opening, the run's time limit, a choice's or a turn's timeout.
func (s *state) Advance(at engine.Millis) []engine.Event {
	evs := s.events()
	for {
		d, ok := s.Deadline()
		if !ok || d > at {
			return s.done(evs)
		}
		evs = s.fire(d, evs)
	}
}

func (s *state) fire(d engine.Millis, evs []engine.Event) []engine.Event {
	switch s.phase {
	case PhaseCountdown:
		return s.reveal(d, evs)
	case PhaseRun:
		if d >= s.runEnd() {
			return s.endRun(d, "time_limit", evs)
		}
		return s.openVotes(d, evs)
	case PhasePlaceChoice:
		return s.settlePlace(false, true, d, evs) // timeout: stay
	case PhaseInfectChoice:
		return s.settleInfect(s.candidates[0], d, evs) // timeout: the higher position
	case PhaseInterferenceTurn:
		evs = append(evs, engine.Tell(&turnEndedBodies[1][s.order[s.turn]]))
		s.turn++
		return s.nextTurn(d, evs)
	}
	return evs
}

// openVotes opens the stop vote of every finished seat whose grace time has
// passed, once half the seats have finished (D22).
func (s *state) openVotes(at engine.Millis, evs []engine.Event) []engine.Event {
	if !s.votesCanOpen() {
		return evs
	}
	for i := range s.seats {
		st := &s.seats[i]
		if st.Submitted && !st.VoteOpen && st.At+s.cfg.VoteGrace <= at {
			st.VoteOpen = true
			evs = append(evs, engine.Tell(&voteOpenBodies[i]))
		}
	}
	return evs
}

// ---- 1. Reveal (§4.1) ----

func (s *state) reveal(at engine.Millis, evs []engine.Event) []engine.Event {
	if len(s.pathDeck) == 0 { // D32
		s.pathDeck, s.pathDiscard = s.pathDiscard, s.pathDeck[:0]
		s.rng.Shuffle(len(s.pathDeck), func(i, j int) { s.pathDeck[i], s.pathDeck[j] = s.pathDeck[j], s.pathDeck[i] })
		evs = append(evs, engine.Tell(s.mem.reshuffled.one(Reshuffled{Pile: "path", Count: len(s.pathDeck)})))
	}
	top := len(s.pathDeck) - 1
	s.path = int(s.pathDeck[top])
	s.pathDeck = s.pathDeck[:top]
	s.phase, s.revealAt = PhaseRun, at
	s.arrivals, s.finish, s.fastest = 0, nil, -1
	card := &pathCards[s.path]
	zombie := s.cfg.Monster == Zombie
	var seen [6]mods
	for i := range s.seats {
		st := &s.seats[i]
		st.Submitted, st.Cards, st.At, st.Elapsed, st.Arrival = false, nil, 0, 0, 0
		st.Voted, st.VoteOpen, st.Result = false, false, Pending
		if i > 0 && s.cfg.Monster == Vampire { // the centre applies to everyone alike
			o := &s.seats[0]
			st.Legal, st.NAccepted, st.Canonical, st.Palette = o.Legal, o.NAccepted, o.Canonical, o.Palette
			continue
		}
		m := s.modsFor(engine.Seat(i))
		seen[i] = m
		if j := slices.Index(seen[:i], m); j >= 0 { // the same interference: the same answers
			o := &s.seats[j]
			st.Legal, st.NAccepted, st.Canonical, st.Palette = o.Legal, o.NAccepted, o.Canonical, o.Palette
			continue
		}
		ans := s.answersFor(m, zombie && card.Antidote)
		st.Legal, st.NAccepted = ans.Legal, ans.NAccepted
		st.Canonical = st.Legal[0].(*Submit).Cards // steps 1–5, no skip, no antidote
		st.Palette = paletteOf(m, zombie)
	}
	return append(evs, engine.Tell(s.mem.revealed.one(Revealed{
		Round: s.round, Card: card.ID, Symbols: card.Symbols,
		Antidote: card.Antidote, Ends: s.runEnd(),
	})))
}

// applying returns the cards whose interference applies to seat p (§4.3):
// the Vampire centre for everyone, otherwise the cards in front of p.
func (s *state) applying(p engine.Seat) []held {
	if s.cfg.Monster == Vampire {
		return s.centre
	}
	return s.seats[p].Front
}

// modsFor returns the interference that applies to seat p.
func (s *state) modsFor(p engine.Seat) mods { return modsOf(s.applying(p)) }

// ---- 2–4. End of the run, check and placement (§4.2–§4.4) ----

func (s *state) endRun(at engine.Millis, reason string, evs []engine.Event) []engine.Event {
	// D20: finish order by match clock, then by arrival.
	s.finish = s.mem.seats.open(s.n, seatChunk)
	for i := range s.seats {
		if s.seats[i].Submitted {
			s.finish = append(s.finish, engine.Seat(i))
		}
	}
	for i := 1; i < len(s.finish); i++ { // insertion sort: a few seats, nearly always in order
		for j := i; j > 0 && s.finishesBefore(s.finish[j], s.finish[j-1]); j-- {
			s.finish[j], s.finish[j-1] = s.finish[j-1], s.finish[j]
		}
	}
	s.finish = s.mem.seats.keep(s.finish)
	results := s.mem.results.open(s.n, resultChunk)
	for _, p := range s.finish {
		st := &s.seats[p]
		st.Result = Wrong
		if st.accepts(st.Cards) {
			st.Result = Correct
			if s.fastest < 0 {
				s.fastest = p
			}
		}
		results = append(results, SeatResult{Seat: p, Result: st.Result.String(), Elapsed: st.At - s.revealAt, Cards: st.Cards, Canonical: st.Canonical})
	}
	for i := range s.seats {
		if st := &s.seats[i]; !st.Submitted {
			st.Result = Stopped // D23
			results = append(results, SeatResult{Seat: engine.Seat(i), Result: Stopped.String(), Cards: []Token{}, Canonical: st.Canonical})
		}
	}
	evs = append(evs, engine.Tell(s.mem.runEnded.one(RunEnded{Reason: reason, At: at, Results: s.mem.results.keep(results)})))
	// The antidote acts at the check, on correct lists only (§4.3, D19).
	for _, p := range s.finish {
		st := &s.seats[p]
		if st.Result == Correct && len(st.Cards) > 0 && st.Cards[len(st.Cards)-1] == Antidote {
			st.Infected, st.Immune = false, true
			evs = append(evs, engine.Tell(&curedBodies[p]))
			evs = s.discardFront(int(p), allKinds, "antidote", evs)
		}
	}
	return s.placeTokens(at, evs)
}

// finishesBefore reports whether seat a finished before seat b (D20).
func (s *state) finishesBefore(a, b engine.Seat) bool {
	x, y := &s.seats[a], &s.seats[b]
	return x.At < y.At || x.At == y.At && x.Arrival < y.Arrival
}

// placeTokens puts the correct seats on the monster board, fastest on the
// rightmost active position, and offers the last correct seat its choice
// (§4.4, D24, D41).
func (s *state) placeTokens(at engine.Millis, evs []engine.Event) []engine.Event {
	active := activePositions[s.n]
	next := len(active) - 1
	var last engine.Seat = -1
	for i := range s.seats {
		s.seats[i].Pos = zeroBox
	}
	for _, p := range s.finish {
		if s.seats[p].Result != Correct {
			continue
		}
		s.seats[p].Pos = active[next]
		next--
		last = p
	}
	pos := s.mem.ints.open(s.n, intChunk)
	for i := range s.seats {
		pos = append(pos, s.seats[i].Pos)
	}
	evs = append(evs, engine.Tell(s.mem.positions.one(Positions{Positions: s.mem.ints.keep(pos)})))
	if last >= 0 && next >= 0 {
		// D24: offered on every board, icon or not, as the rulebook gives it.
		f := active[0] // the lowest free active position: positions fill from the right
		if f < s.seats[last].Pos {
			s.phase, s.phaseAt = PhasePlaceChoice, at
			s.choiceSeat, s.choicePos = last, f
			return append(evs, engine.Tell(s.mem.placeOffered.one(PlaceOffered{Seat: last, Position: f, Until: at + s.cfg.Decision})))
		}
	}
	return s.move(at, evs)
}

// settlePlace applies the last correct seat's choice, then goes on with the
// round.
func (s *state) settlePlace(leftmost, timeout bool, at engine.Millis, evs []engine.Event) []engine.Event {
	p := s.choiceSeat
	if leftmost {
		s.seats[p].Pos = s.choicePos
	}
	evs = append(evs, engine.Tell(s.mem.chosePlace.one(ChosePlace{Seat: p, Leftmost: leftmost, Position: s.seats[p].Pos, Timeout: timeout})))
	return s.move(at, evs)
}

// ---- 5. Movement (§4.5, §4.9) ----

// move fixes the round order and moves the seats, fastest first; the first
// to reach the exit wins at once (D26).
func (s *state) move(at engine.Millis, evs []engine.Event) []engine.Event {
	s.order = s.mem.seats.open(s.n, seatChunk)
	var on [positions + 1]int8 // the seat on each position (one at most: §4.4), plus one
	for i := range s.seats {
		on[s.seats[i].Pos] = int8(i) + 1
	}
	for pos := positions; pos >= 1; pos-- {
		if on[pos] > 0 {
			s.order = append(s.order, engine.Seat(on[pos]-1))
		}
	}
	for _, p := range s.finish { // D23: wrong submitters in finish order
		if s.seats[p].Result == Wrong {
			s.order = append(s.order, p)
		}
	}
	for i := range s.seats { // then stopped seats by seat index
		if s.seats[i].Result == Stopped {
			s.order = append(s.order, engine.Seat(i))
		}
	}
	s.order = s.mem.seats.keep(s.order)
	l := s.pathLength()
	both := s.mem.ints.keep(s.mem.ints.open(2*s.n, intChunk)[:2*s.n]) // steps and progress
	clear(both)
	mv := Moved{Order: s.order, Steps: both[:s.n:s.n], Progress: both[s.n:], Escaped: -1}
	for _, p := range s.order {
		st := &s.seats[p]
		if st.Pos == zeroBox {
			continue
		}
		steps := s.board().Value[st.Pos]
		if hasKind(s.applying(p), KindBoost) { // D44
			steps *= 2
		}
		st.Progress += steps
		mv.Steps[p] = steps
		if st.Progress >= l { // D26: the first to escape wins at once
			st.Escaped, mv.Escaped = true, p
			break
		}
	}
	for i := range s.seats {
		mv.Progress[i] = s.seats[i].Progress
	}
	evs = append(evs, engine.Tell(s.mem.moved.one(mv)))
	if mv.Escaped >= 0 {
		return s.endGame("escaped", evs)
	}
	return s.monsterEffect(at, evs)
}

// ---- 6. Monster effects (§4.6) ----

func (s *state) monsterEffect(at engine.Millis, evs []engine.Event) []engine.Event {
	icons := &s.board().Icons
	switch s.cfg.Monster {
	case Bear: // D31: only the seat on pos1
		for _, p := range s.order {
			if s.seats[p].Pos != zeroBox && icons[s.seats[p].Pos]&IconClaw != 0 {
				evs = append(evs, engine.Tell(&clawedBodies[p]))
				evs = s.discardFront(int(p), hindranceKinds, "claw", evs)
			}
		}
	case Dragon:
		for _, p := range s.order {
			if s.seats[p].Pos != zeroBox && icons[s.seats[p].Pos]&IconFire != 0 {
				evs = append(evs, engine.Tell(&burnedBodies[p]))
				evs = s.discardFront(int(p), hindranceKinds, "fire", evs)
			}
		}
	case Zombie:
		// D29: snapshot, landing, then spreading in round order.
		spreaders := s.mem.seats.open(s.n, seatChunk)
		for _, p := range s.order {
			if st := &s.seats[p]; st.Infected && icons[st.Pos]&IconBiohazard != 0 {
				spreaders = append(spreaders, p)
			}
		}
		for _, p := range s.order {
			st := &s.seats[p]
			if icons[st.Pos]&IconBiohazard != 0 && !st.Infected && !st.Immune {
				st.Infected = true
				evs = append(evs, engine.Tell(s.mem.infected.one(Infected{Seat: p, By: "biohazard"})))
			}
		}
		s.spreaders = s.mem.seats.keep(spreaders)
		return s.spread(at, evs)
	}
	return s.endOfRound(at, evs)
}

// spread lets each infected seat standing on a biohazard infect one eligible
// neighbour, stopping for a choice when there are two (D29).
func (s *state) spread(at engine.Millis, evs []engine.Event) []engine.Event {
	for len(s.spreaders) > 0 {
		p := s.spreaders[0]
		s.spreaders = s.spreaders[1:]
		near, k := s.eligibleNeighbours(p)
		switch k {
		case 0:
		case 1:
			evs = s.infectSeat(near[0], p, evs)
		default:
			cands := []engine.Seat{near[0], near[1]}
			s.phase, s.phaseAt = PhaseInfectChoice, at
			s.choiceSeat, s.candidates = p, cands
			return append(evs, engine.Tell(&InfectOffered{Seat: p, Candidates: cands, Until: at + s.cfg.Decision}))
		}
	}
	return s.endOfRound(at, evs)
}

// settleInfect infects the chosen neighbour and goes on spreading.
func (s *state) settleInfect(target engine.Seat, at engine.Millis, evs []engine.Event) []engine.Event {
	evs = s.infectSeat(target, s.choiceSeat, evs)
	s.candidates = nil
	return s.spread(at, evs)
}

func (s *state) infectSeat(p, by engine.Seat, evs []engine.Event) []engine.Event {
	s.seats[p].Infected = true
	return append(evs, engine.Tell(s.mem.infected.one(Infected{Seat: p, By: "neighbour", Spreader: &seatNumbers[by]})))
}

// eligibleNeighbours returns the occupants of the nearest occupied position
// on each side of p that are neither infected nor immune, the higher
// position first: the first k of out. The +0 box has no neighbours and is
// nobody's neighbour.
func (s *state) eligibleNeighbours(p engine.Seat) (out [2]engine.Seat, k int) {
	pos := s.seats[p].Pos
	if pos == zeroBox {
		return out, 0
	}
	for _, dir := range [2]int{1, -1} {
		for q := pos + dir; q >= 1 && q <= positions; q += dir {
			if o := s.occupant(q); o >= 0 {
				if st := &s.seats[o]; !st.Infected && !st.Immune {
					out[k] = o
					k++
				}
				break
			}
		}
	}
	return out, k
}

// seatNumbers holds each seat number, for events that point at one. Nobody
// may change them.
var seatNumbers = [6]engine.Seat{0, 1, 2, 3, 4, 5}

func (s *state) occupant(pos int) engine.Seat {
	for i := range s.seats {
		if s.seats[i].Pos == pos {
			return engine.Seat(i)
		}
	}
	return -1
}

// ---- 7. Interference (§4.7) ----

// endOfRound ends the game at the round cap, or runs the interference step.
func (s *state) endOfRound(at engine.Millis, evs []engine.Event) []engine.Event {
	if s.round >= s.cfg.MaxRounds {
		return s.endGame("round_cap", evs)
	}
	// §4.7.1: one-round cards go first; immunity ends with the round.
	for i := range s.seats {
		s.seats[i].Immune = false
		evs = s.discardFront(i, roundKinds, "round_over", evs)
	}
	evs = s.discardFront(centreHolder, roundKinds, "round_over", evs)
	switch s.cfg.Monster {
	case Bear:
		for _, p := range s.order {
			evs = s.drawToHand(p, boards[Bear].Draws, evs)
		}
	case Dragon: // D30: seats on a turret draw two
		for _, p := range s.order {
			if pos := s.seats[p].Pos; pos != zeroBox && boards[Dragon].Icons[pos]&IconTurret != 0 {
				evs = s.drawToHand(p, boards[Dragon].Draws, evs)
			}
		}
	case Vampire:
		var c Card
		var ok bool
		if c, ok, evs = s.draw(evs); ok {
			evs = append(evs, engine.Tell(s.mem.drewFaceUp.one(DrewFaceUp{Seat: centreHolder, Card: c})))
			evs = s.place(centreHolder, c, evs)
		}
	case Zombie:
		for _, p := range s.order {
			if !s.seats[p].Infected {
				continue
			}
			var c Card
			var ok bool
			if c, ok, evs = s.draw(evs); !ok {
				break
			}
			evs = append(evs, engine.Tell(s.mem.drewFaceUp.one(DrewFaceUp{Seat: int(p), Card: c})))
			if c.Kind() == KindRelease { // a drawn Release resolves at once
				evs = s.discardFront(int(p), allKinds, "release", evs)
				s.discard = append(s.discard, c)
				evs = append(evs, engine.Tell(s.mem.discarded.one(Discarded{From: outOfPlay, Cards: oneCard[c], Reason: "release"})))
				continue
			}
			evs = s.place(int(p), c, evs)
		}
	}
	if s.cfg.Monster == Bear || s.cfg.Monster == Dragon {
		s.turn = 0
		return s.nextTurn(at, evs)
	}
	return s.nextRound(at, evs)
}

// nextTurn gives the interference turn to the next seat in round order that
// holds cards (D27), or starts the next round.
func (s *state) nextTurn(at engine.Millis, evs []engine.Event) []engine.Event {
	for s.turn < len(s.order) && len(s.seats[s.order[s.turn]].Hand) == 0 {
		s.turn++
	}
	if s.turn == len(s.order) {
		return s.nextRound(at, evs)
	}
	s.phase, s.phaseAt = PhaseInterferenceTurn, at
	return append(evs, engine.Tell(s.mem.turnStarted.one(TurnStarted{Seat: s.order[s.turn], Until: at + s.cfg.Decision})))
}

// nextRound starts the next round's countdown (§4.8).
func (s *state) nextRound(at engine.Millis, evs []engine.Event) []engine.Event {
	s.pathDiscard = append(s.pathDiscard, uint8(s.path))
	if s.fastest >= 0 { // D33: the fastest correct seat flips next
		s.flipper = s.fastest
	}
	s.round++
	s.phase, s.revealAt = PhaseCountdown, at+s.cfg.Countdown
	return append(evs, engine.Tell(s.mem.countdown.one(Countdown{Round: s.round, RevealAt: s.revealAt, Flipper: s.flipper})))
}

// endGame ranks the seats (§5, D26): the escaped seat first, the others by
// progress, ties by the final round order.
func (s *state) endGame(reason string, evs []engine.Event) []engine.Event {
	s.phase, s.reason = PhaseOver, reason
	rank := slices.Clone(s.order)
	slices.SortStableFunc(rank, func(a, b engine.Seat) int {
		x, y := &s.seats[a], &s.seats[b]
		if x.Escaped != y.Escaped {
			if x.Escaped {
				return -1
			}
			return 1
		}
		return y.Progress - x.Progress
	})
	s.ranks = make([]int, s.n)
	for i, p := range rank {
		s.ranks[p] = i + 1
	}
	s.winners = []engine.Seat{rank[0]}
	return append(evs, engine.Tell(&GameOver{Reason: reason, Winners: s.winners, Ranks: s.ranks}))
}

// ---- Cards: drawing, placing, discarding ----

// draw takes the top interference card, reshuffling the discard pile into a
// new deck when the deck is empty (D32).
func (s *state) draw(evs []engine.Event) (Card, bool, []engine.Event) {
	if len(s.deck) == 0 {
		if len(s.discard) == 0 {
			return 0, false, evs
		}
		s.deck, s.discard = s.discard, s.deck[:0]
		s.rng.Shuffle(len(s.deck), func(i, j int) { s.deck[i], s.deck[j] = s.deck[j], s.deck[i] })
		evs = append(evs, engine.Tell(s.mem.reshuffled.one(Reshuffled{Pile: "interference", Count: len(s.deck)})))
	}
	top := len(s.deck) - 1
	c := s.deck[top]
	s.deck = s.deck[:top]
	return c, true, evs
}

// drawToHand draws k cards into p's hand: p is told which, the others how
// many.
func (s *state) drawToHand(p engine.Seat, k int, evs []engine.Event) []engine.Event {
	got := s.mem.cards.open(k, cardChunk)
	for range k {
		var c Card
		var ok bool
		if c, ok, evs = s.draw(evs); !ok {
			break
		}
		got = append(got, c)
		s.seats[p].Hand = append(s.seats[p].Hand, handCard{Card: c, Known: 1 << p})
	}
	if len(got) == 0 {
		return evs
	}
	got = s.mem.cards.keep(got)
	return append(evs,
		engine.Event{To: engine.Only(p), Body: s.mem.drew.one(Drew{Seat: p, Count: len(got), Cards: got})},
		engine.Event{To: engine.AllBut(p, s.n), Body: &drewSome[len(got)][p]})
}

// drewSome holds, by count and seat, what the others are told of a draw
// into a hand (at most a board's Draws cards). Nobody may change them.
var drewSome = func() [][6]Drew {
	most := 0
	for _, b := range boards {
		most = max(most, b.Draws)
	}
	t := make([][6]Drew, most+1)
	for k := range t {
		t[k] = perSeat(func(p engine.Seat) Drew { return Drew{Seat: p, Count: k} })
	}
	return t
}()

// frontOf returns the cards in front of a holder (a seat, or the centre).
func (s *state) frontOf(holder int) *[]held {
	if holder == centreHolder {
		return &s.centre
	}
	return &s.seats[holder].Front
}

// place puts card c in front of a holder (§4.7.2): the holder's card of the
// same kind goes (D9: a play that would duplicate is refused before this), a
// single replaces the holder's other single (D10), and the Vampire centre
// keeps its two latest cards (D28).
func (s *state) place(holder int, c Card, evs []engine.Event) []engine.Event {
	f := s.frontOf(holder)
	k := c.Kind()
	single := kinds[k].Duration == Single
	gone := s.mem.cards.open(len(*f), cardChunk)
	kept := (*f)[:0]
	for _, h := range *f {
		hk := h.Card.Kind()
		if hk == k || single && kinds[hk].Duration == Single {
			gone = append(gone, h.Card)
			continue
		}
		kept = append(kept, h)
	}
	s.stamp++
	kept = append(kept, held{Card: c, Stamp: s.stamp})
	if len(gone) > 0 {
		gone = s.mem.cards.keep(gone)
		s.discard = append(s.discard, gone...)
		evs = append(evs, engine.Tell(s.mem.discarded.one(Discarded{From: holder, Cards: gone, Reason: "replaced"})))
	}
	evs = append(evs, engine.Tell(s.mem.placed.one(Placed{Holder: holder, Card: c})))
	if holder == centreHolder {
		for len(kept) > vampireCentreCapacity {
			old := kept[0] // the centre only ever grows by appending: the first arrived earliest
			kept = append(kept[:0], kept[1:]...)
			s.discard = append(s.discard, old.Card)
			evs = append(evs, engine.Tell(s.mem.discarded.one(Discarded{From: holder, Cards: oneCard[old.Card], Reason: "capacity"})))
		}
	}
	*f = kept
	return evs
}

func isHindrance(c Card) bool { return kinds[c.Kind()].Category == Hindrance }

// kindSet is a set of kinds of cards, for discarding.
type kindSet uint16

// has reports whether card c is of a kind in the set.
func (k kindSet) has(c Card) bool { return k&(1<<c.Kind()) != 0 }

// The sets of kinds the rules discard at once.
var (
	allKinds       = kindSet(1)<<kindCount - 1
	hindranceKinds = kindsWhere(func(k *kindSpec) bool { return k.Category == Hindrance })
	roundKinds     = kindsWhere(func(k *kindSpec) bool { return k.Duration == Round })
)

func kindsWhere(f func(*kindSpec) bool) (set kindSet) {
	for k := range kinds {
		if f(&kinds[k]) {
			set |= 1 << k
		}
	}
	return set
}

// discardFront discards the cards in front of a holder (a seat, or the
// centre) whose kind is in match.
func (s *state) discardFront(holder int, match kindSet, reason string, evs []engine.Event) []engine.Event {
	f := s.frontOf(holder)
	if len(*f) == 0 {
		return evs
	}
	var gone []Card
	*f, gone = filterHeld(*f, match, s.mem.cards.open(len(*f), cardChunk))
	if len(gone) == 0 {
		return evs
	}
	gone = s.mem.cards.keep(gone)
	s.discard = append(s.discard, gone...)
	return append(evs, engine.Tell(s.mem.discarded.one(Discarded{From: holder, Cards: gone, Reason: reason})))
}

// filterHeld removes the cards whose kind is in match and returns what is
// kept and what went, in arrival order, appended to gone.
func filterHeld(f []held, match kindSet, gone []Card) (kept []held, _ []Card) {
	kept = f[:0]
	for _, h := range f {
		if match.has(h.Card) {
			gone = append(gone, h.Card)
		} else {
			kept = append(kept, h)
		}
	}
	return kept, gone
}

func hasKind(f []held, k Kind) bool {
	for _, h := range f {
		if h.Card.Kind() == k {
			return true
		}
	}
	return false
}

// ---- Playing a card (§4.7.4) ----

// verdict is why a card may not be played, or canPlay.
type verdict uint8

const (
	canPlay verdict = iota
	noSuchCard
	notInHand
	noSuchSeat
	mustBeYou
	mustBeOther
	shielded
	nothingToSwap
	nothingToGive
	nothingToRelease
	emptyHand
	duplicate
)

// playVerdict says whether seat p may play card c on target now
// (§4.7.4, D9, D11, D12–D14, D36).
func (s *state) playVerdict(p engine.Seat, c Card, target engine.Seat) verdict {
	if int(c) >= cardCount {
		return noSuchCard
	}
	if !slices.ContainsFunc(s.seats[p].Hand, func(h handCard) bool { return h.Card == c }) {
		return notInHand
	}
	if target < 0 || int(target) >= s.n {
		return noSuchSeat
	}
	own, tf := s.factsOf(p), s.factsOf(target)
	return targetVerdict(c.Kind(), p, target, &own, &tf)
}

// seatFacts is what the rules of play look at in front of a seat and in its
// hand.
type seatFacts struct {
	kinds kindSet // the kinds of the cards in front
	front int     // the cards in front
	hand  int     // the cards in hand
}

func (s *state) factsOf(q engine.Seat) (f seatFacts) {
	st := &s.seats[q]
	for _, h := range st.Front {
		f.kinds |= 1 << h.Card.Kind()
	}
	f.front, f.hand = len(st.Front), len(st.Hand)
	return f
}

// targetVerdict says whether seat p, holding a card of kind k, may play it
// on target, given what is in front of them (own, tf) (§4.7.4, D9, D11,
// D12–D14, D36). Legal asks it for every card and seat.
func targetVerdict(k Kind, p, target engine.Seat, own, tf *seatFacts) verdict {
	switch kinds[k].Target { // D36
	case Yourself:
		if target != p {
			return mustBeYou
		}
	case OtherSeat:
		if target == p {
			return mustBeOther
		}
	}
	if target != p && tf.kinds&(1<<KindShield) != 0 { // D11
		return shielded
	}
	switch k {
	case KindSwap:
		if own.front == 0 && tf.front == 0 {
			return nothingToSwap
		}
	case KindForYou:
		if own.front == 0 {
			return nothingToGive
		}
	case KindRelease:
		if own.front == 0 {
			return nothingToRelease
		}
	case KindThief:
		if tf.hand == 0 {
			return emptyHand
		}
	default: // D9: no duplicates, when played
		if tf.kinds&(1<<k) != 0 {
			return duplicate
		}
	}
	return canPlay
}

// checkPlay says, in a player's words, why seat p may not play card c on
// target now, or nil.
func (s *state) checkPlay(p engine.Seat, c Card, target engine.Seat) *engine.RuleError {
	v := s.playVerdict(p, c, target)
	if v == canPlay {
		return nil
	}
	var spec *kindSpec
	if int(c) < cardCount {
		spec = &kinds[c.Kind()]
	}
	switch v {
	case noSuchCard:
		return engine.Refuse(engine.CodeMalformed, "There is no such interference card.")
	case notInHand:
		return engine.Refuse(CodeNotInHand, "You do not hold %s.", c)
	case noSuchSeat:
		return engine.Refuse(CodeNoSuchSeat, "There is no %s in this game.", target.Name())
	case mustBeYou:
		return engine.Refuse(CodeTargetYourself, "A %s card can only be played on yourself.", spec.EN)
	case mustBeOther:
		return engine.Refuse(CodeTargetOther, "A %s card must be played on another player.", spec.EN)
	case shielded:
		return engine.Refuse(CodeTargetShielded, "A Shield protects %s: no card can be played against them this round.", target.Name()).With("target", target)
	case nothingToSwap:
		return engine.Refuse(CodeNothingToSwap, "Neither you nor %s has a card in front to swap.", target.Name()).With("target", target)
	case nothingToGive:
		return engine.Refuse(CodeNothingToGive, "You have no card in front of you to give away.")
	case nothingToRelease:
		return engine.Refuse(CodeNothingToRelease, "There is no card in front of you to release.")
	case emptyHand:
		return engine.Refuse(CodeEmptyHand, "There is no card to steal from %s.", target.Name()).With("target", target)
	}
	if target == p {
		return engine.Refuse(CodeAlreadyHasKind, "You already have a %s in front of you.", spec.EN)
	}
	return engine.Refuse(CodeAlreadyHasKind, "There is already a %s in front of %s.", spec.EN, target.Name()).With("target", target)
}

// resolvePlay plays a card already checked by checkPlay.
func (s *state) resolvePlay(p engine.Seat, c Card, target engine.Seat, evs []engine.Event) []engine.Event {
	st := &s.seats[p]
	i := slices.IndexFunc(st.Hand, func(h handCard) bool { return h.Card == c })
	st.Hand = slices.Delete(st.Hand, i, i+1)
	evs = append(evs, engine.Tell(s.mem.played.one(Played{Seat: p, Card: c, Target: target})))
	if kinds[c.Kind()].Duration != Instant {
		return s.place(int(target), c, evs)
	}
	switch c.Kind() {
	case KindRelease: // D13
		evs = s.discardFront(int(p), allKinds, "release", evs)
	case KindSwap: // D12: every card in front changes owner, the player's Shield too
		ts := &s.seats[target]
		evs = append(evs, engine.Tell(&Swapped{Seat: p, Target: target, Gave: heldCards(st.Front), Took: heldCards(ts.Front)}))
		st.Front, ts.Front = ts.Front, st.Front
	case KindForYou: // D12: yours, the Shield too, replace theirs where they clash
		mine := st.Front
		st.Front = nil
		for _, h := range mine {
			evs = s.place(int(target), h.Card, evs)
		}
	case KindThief: // D14: the whole hand, playable at once
		ts := &s.seats[target]
		taken := s.mem.cards.open(len(ts.Hand), cardChunk)
		for _, h := range ts.Hand {
			taken = append(taken, h.Card)
			st.Hand = append(st.Hand, handCard{Card: h.Card, Known: h.Known | 1<<p | 1<<target})
		}
		taken = s.mem.cards.keep(taken)
		ts.Hand = ts.Hand[:0]
		pub := &Stolen{From: target, To: p, Count: len(taken)}
		full := &Stolen{From: target, To: p, Count: len(taken), Cards: taken}
		evs = append(evs,
			engine.Event{To: engine.Only(p, target), Body: full},
			engine.Event{To: engine.AllBut(p, s.n) &^ engine.Only(target), Body: pub})
	}
	s.discard = append(s.discard, c)
	return append(evs, engine.Tell(s.mem.discarded.one(Discarded{From: outOfPlay, Cards: oneCard[c], Reason: "played"})))
}

func heldCards(f []held) []Card {
	out := make([]Card, len(f))
	for i, h := range f {
		out[i] = h.Card
	}
	return out
}

func seatList(ss []engine.Seat) string {
	out := ""
	for i, p := range ss {
		if i > 0 {
			out += " or "
		}
		out += p.Name()
	}
	return out
}

// Offer is what a person is shown as choices (engine.Offerer): everything
// legal except the submissions of a run, which are the answers to the
// puzzle; a person composes the arrow sequence from the view.
func (s *state) Offer(p engine.Seat) []engine.Action {
	if s.phase == PhaseRun && p >= 0 && int(p) < s.n && !s.seats[p].Submitted {
		return nil
	}
	return s.Legal(p)
}
