package plandesecours

import (
	"encoding/json"
	"fmt"
	"strconv"

	"sortie/engine"
)

// This file is section 4 of the reference: the actions (4.3), laying a tile
// (4.4), DANGER effects (4.5), LOST and its chain (4.6), round end (4.7),
// reveal scoring (4.10), new rounds (4.11) and the end of the game (5).

// Actions. Their JSON forms are {"type":"play_tile","tile":"left_4"},
// {"type":"play_tile","tile":"right_4","facing":2}, {"type":"play_lost"},
// {"type":"pass_turn"}, {"type":"join_lost"} and {"type":"decline_lost"}.
type (
	// PlayTile lays a DIRECTION tile from the hand on the stack (4.4).
	// Facing is given when, and only when, the facing is free (D26).
	PlayTile struct {
		Tile   TileID    `json:"tile"`
		Facing OptFacing `json:"facing,omitempty"`
	}
	// PlayLost plays the seat's LOST tile and starts a LOST chain (4.6).
	PlayLost struct{}
	// PassTurn passes, allowed only with an empty hand (D18).
	PassTurn struct{}
	// JoinLost joins the LOST chain the seat is asked about.
	JoinLost struct{}
	// DeclineLost declines the LOST chain the seat is asked about.
	DeclineLost struct{}
)

// Kind returns "play_tile".
func (PlayTile) Kind() string { return "play_tile" }

// Kind returns "play_lost".
func (PlayLost) Kind() string { return "play_lost" }

// Kind returns "pass_turn".
func (PassTurn) Kind() string { return "pass_turn" }

// Kind returns "join_lost".
func (JoinLost) Kind() string { return "join_lost" }

// Kind returns "decline_lost".
func (DeclineLost) Kind() string { return "decline_lost" }

// OptFacing is the optional facing of a play_tile action: NoFacing (the zero
// value, absent from JSON) or FacingOf(f) for a facing f of 0 (up), 1
// (right), 2 (down) or 3 (left).
type OptFacing int8

// NoFacing is the absent facing.
const NoFacing OptFacing = 0

// FacingOf returns the facing f (0–3) as an optional facing.
func FacingOf(f int) OptFacing { return OptFacing(f + 1) }

// Value returns the facing and whether one is given.
func (o OptFacing) Value() (int, bool) { return int(o) - 1, o != NoFacing }

// MarshalJSON writes the facing as a number.
func (o OptFacing) MarshalJSON() ([]byte, error) {
	if o == NoFacing {
		return []byte("null"), nil
	}
	return strconv.AppendInt(nil, int64(o)-1, 10), nil
}

// UnmarshalJSON reads a facing 0–3 (null: none).
func (o *OptFacing) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		*o = NoFacing
		return nil
	}
	var f int
	if err := json.Unmarshal(b, &f); err != nil || f < 0 || f > 3 {
		return fmt.Errorf("facing must be a whole number from 0 to 3, not %s", b)
	}
	*o = FacingOf(f)
	return nil
}

// DecodeAction reads an action from its JSON form.
func (Game) DecodeAction(b []byte) (engine.Action, error) {
	v, err := engine.DecodeTyped(b, func(kind string) (any, bool) {
		switch kind {
		case "play_tile":
			return &PlayTile{}, true
		case "play_lost":
			return &PlayLost{}, true
		case "pass_turn":
			return &PassTurn{}, true
		case "join_lost":
			return &JoinLost{}, true
		case "decline_lost":
			return &DeclineLost{}, true
		}
		return nil, false
	})
	if err != nil {
		return nil, err
	}
	switch a := v.(type) {
	case *PlayTile:
		if a.Tile == StartTile {
			return nil, engine.Refuse(engine.CodeMalformed, "The play_tile action needs a \"tile\": the id of a DIRECTION tile in your hand.")
		}
		return *a, nil
	case *PlayLost:
		return *a, nil
	case *PassTurn:
		return *a, nil
	case *JoinLost:
		return *a, nil
	case *DeclineLost:
		return *a, nil
	}
	panic("unreachable")
}

// Rule error codes of this game.
const (
	CodeTileNotInHand  = "tile_not_in_hand"
	CodeFacingRequired = "facing_required"
	CodeFacingNotFree  = "facing_not_free"
	CodeBadFacing      = "bad_facing"
	CodeMustPlay       = "must_play"
	CodeNotAsked       = "not_asked"
)

// Boxed actions, made once: Legal fills a slice with these and allocates
// nothing else.
var (
	playTileActs [numTiles][5]engine.Action // [tile][0]: no facing; [tile][1+f]: facing f
	playLostAct  engine.Action              = PlayLost{}
	passTurnAct  engine.Action              = PassTurn{}
	joinLostAct  engine.Action              = JoinLost{}
	declineAct   engine.Action              = DeclineLost{}
)

func init() {
	for t := range playTileActs {
		for f := range playTileActs[t] {
			playTileActs[t][f] = PlayTile{Tile: TileID(t), Facing: OptFacing(f)}
		}
	}
}

// Legal returns every legal action of seat p, in a new slice: in a turn,
// each tile of the hand (with each facing 0–3 when the facing is free), then
// play_lost, then pass_turn if the hand is empty; in a LOST chain, join_lost
// and decline_lost.
func (s *State) Legal(p engine.Seat) []engine.Action {
	if s.phase == phaseOver || p != engine.Seat(s.actor) {
		return nil
	}
	if s.phase == phaseChain {
		return []engine.Action{joinLostAct, declineAct}
	}
	h := s.hands[p][:s.handLen[p]]
	if len(h) == 0 {
		return []engine.Action{playLostAct, passTurnAct}
	}
	if s.facingFree() {
		out := make([]engine.Action, 0, 4*len(h)+1)
		for _, t := range h {
			out = append(out, playTileActs[t][1:]...)
		}
		return append(out, playLostAct)
	}
	out := make([]engine.Action, len(h)+1)
	for i, t := range h {
		out[i] = playTileActs[t][0]
	}
	out[len(h)] = playLostAct
	return out
}

// Apply plays action a for seat p. A refused action changes nothing.
func (s *State) Apply(p engine.Seat, a engine.Action, _ engine.Millis) ([]engine.Event, error) {
	if s.phase == phaseOver {
		return nil, engine.GameOver()
	}
	if p != engine.Seat(s.actor) {
		return nil, engine.NotYourTurn(p)
	}
	switch a := a.(type) {
	case PlayTile:
		return s.playTile(a)
	case *PlayTile:
		if a != nil {
			return s.playTile(*a)
		}
	case PlayLost, *PlayLost:
		return s.playLost()
	case PassTurn, *PassTurn:
		return s.passTurn()
	case JoinLost, *JoinLost:
		return s.answerChain(true)
	case DeclineLost, *DeclineLost:
		return s.answerChain(false)
	}
	return nil, engine.Refuse(engine.CodeMalformed, "%T is not an action of Plan de Secours.", a)
}

func (s *State) refuseInChain() error {
	return engine.Refuse(engine.CodeWrongPhase, "You are asked whether to join the LOST chain: join it or decline.")
}

// playTile is 4.4: lay, draw, exhaustion check, DANGER, next actor.
func (s *State) playTile(a PlayTile) ([]engine.Event, error) {
	if s.phase != phaseTurn {
		return nil, s.refuseInChain()
	}
	p := s.actor
	hand := s.hands[p][:s.handLen[p]]
	at := -1
	for i, t := range hand {
		if t == a.Tile && a.Tile != StartTile {
			at = i
			break
		}
	}
	if at < 0 {
		return nil, engine.Refuse(CodeTileNotInHand, "You do not hold the tile %s.", a.Tile)
	}
	f, given := a.Facing.Value()
	free := s.facingFree()
	switch {
	case given && (f < 0 || f > 3):
		return nil, engine.Refuse(CodeBadFacing, "A facing is 0 (up), 1 (right), 2 (down) or 3 (left), not %d.", f)
	case free && !given:
		return nil, engine.Refuse(CodeFacingRequired, "The last tile shows no exit arrow (a Repetition or a face-down tile): choose the facing of your tile, 0 to 3.")
	case !free && given:
		return nil, engine.Refuse(CodeFacingNotFree, "Your tile must follow the exit arrow of the last tile: play it without a facing.")
	}
	if !free {
		f = int(s.nextFacing())
	}

	// 1. Lay.
	copy(hand[at:], hand[at+1:])
	s.handLen[p]--
	s.stack[s.stackLen] = item{tile: a.Tile, facing: uint8(f), seat: p}
	s.lastDir = s.stackLen
	s.stackLen++
	s.numDir++
	evs := make([]engine.Event, 0, 4)
	evs = append(evs, engine.Event{Body: tilePlayedBodies[p][a.Tile][f]})

	// 2. Draw [RB]: the round goes on when the draw pile is empty.
	if int(s.drawPos) < numPlayable {
		t := s.draw[s.drawPos]
		s.drawPos++
		s.hands[p][s.handLen[p]] = t
		s.handLen[p]++
		evs = append(evs,
			engine.Event{To: engine.Only(engine.Seat(p)), Body: tileDrawnBodies[p][t]},
			engine.Event{To: engine.AllBut(engine.Seat(p), int(s.n)), Body: tileDrawnBodies[p][0]})
	}

	// 3. Exhaustion: no DANGER effect when the tile ends the round (D15).
	if s.exhausted() {
		s.endRound(&evs, EndedByExhaustion)
		return evs, nil
	}

	// 4. DANGER, after the lay and the draw (D15), in reveal order.
	again, skip := false, false
	if ch := a.Tile.Character(); s.danger && ch != NoCharacter {
		for _, d := range s.revealedDangers() {
			if dangers[d].char == ch {
				evs = append(evs, engine.Tell(dangerBodies[p][d][a.Tile]))
				ag, sk := s.applyDanger(d, &evs)
				again, skip = again || ag, skip || sk
			}
		}
	}

	// 5. Next actor.
	switch {
	case again:
		s.actor = p
	case skip:
		q := s.nextHolder(p)
		evs = append(evs, engine.Tell(skippedBodies[q]))
		s.actor = s.nextHolder(q)
	default:
		s.actor = s.nextHolder(p)
	}
	return evs, nil
}

// applyDanger is one DANGER effect (4.5). It reports whether the player
// plays again and whether the next holder is skipped.
func (s *State) applyDanger(d DangerID, evs *[]engine.Event) (again, skip bool) {
	switch d {
	case DangerRotateCW, DangerRotateCCW, DangerRotateHalf:
		q := dangers[d].quarters
		for i := range s.stack[:s.stackLen] {
			s.stack[i].facing = (s.stack[i].facing + q) & 3
		}
		*evs = append(*evs, engine.Tell(rotatedBodies[q]))
	case DangerBlackout:
		s.stack[s.lastDir].faceDown = true
		*evs = append(*evs, engine.Tell(blackoutBodies[s.stack[s.lastDir].seat]))
	case DangerPlayAgain:
		again = true
	case DangerSkipNext:
		skip = true
	case DangerPassHands:
		s.passHands(evs)
	}
	return again, skip
}

// passHands gives every holder's hand to the next holder clockwise, all at
// once; seats out of the round keep theirs.
func (s *State) passHands(evs *[]engine.Event) {
	old, oldLen := s.hands, s.handLen
	for q := int8(0); q < s.n; q++ {
		if !s.isHolder(q) {
			continue
		}
		to := s.nextHolder(q)
		s.hands[to], s.handLen[to] = old[q], oldLen[q]
	}
	for q := int8(0); q < s.n; q++ {
		if !s.isHolder(q) {
			continue
		}
		from := int(s.prevHolder(q))
		*evs = append(*evs, engine.Event{To: engine.Only(engine.Seat(q)), Body: HandReceived{
			Seat: int(q), From: &from, Tiles: append([]TileID{}, s.hands[q][:s.handLen[q]]...),
		}})
	}
}

// prevHolder is the first holder counter-clockwise before seat p.
func (s *State) prevHolder(p int8) int8 {
	for k := int8(1); k <= s.n; k++ {
		if q := (p - k + s.n) % s.n; s.isHolder(q) {
			return q
		}
	}
	return -1
}

// playLost is 4.6 step 1, then the chain.
func (s *State) playLost() ([]engine.Event, error) {
	if s.phase != phaseTurn {
		return nil, s.refuseInChain()
	}
	p := s.actor
	s.chainNo++
	s.putLost(p)
	evs := make([]engine.Event, 0, 4)
	evs = append(evs, engine.Tell(lostPlayedBodies[p][s.chainNo]))
	s.chainStarter, s.chainJoined, s.chainDeclined = p, 0, 0
	s.continueChain((p+1)%s.n, &evs)
	return evs, nil
}

// putLost lays seat p's LOST tile with the current chain number and takes p
// out of the round.
func (s *State) putLost(p int8) {
	s.stack[s.stackLen] = item{lost: true, seat: p, chain: s.chainNo}
	s.stackLen++
	s.holders &^= 1 << uint(p)
	s.chainOf[p] = s.chainNo
	s.lostOrder[s.nLost] = p
	s.nLost++
	if s.firstLost < 0 {
		s.firstLost = p
	}
}

// answerChain is join_lost or decline_lost.
func (s *State) answerChain(join bool) ([]engine.Event, error) {
	if s.phase != phaseChain {
		return nil, engine.Refuse(CodeNotAsked, "Nobody is asking you to join a LOST chain: play a tile or your LOST tile.")
	}
	q := s.actor
	evs := make([]engine.Event, 0, 4)
	if join {
		s.putLost(q)
		s.chainJoined |= 1 << uint(q)
		evs = append(evs, engine.Tell(chainBodies[chainJoined][q][s.chainNo]))
	} else {
		s.chainDeclined |= 1 << uint(q)
		evs = append(evs, engine.Tell(chainBodies[chainDeclined][q][s.chainNo]))
	}
	s.continueChain((q+1)%s.n, &evs)
	return evs, nil
}

// continueChain asks the next holder clockwise from seat `from`, up to the
// starter, or ends the chain (4.6 step 2).
func (s *State) continueChain(from int8, evs *[]engine.Event) {
	for q := from; q != s.chainStarter; q = (q + 1) % s.n {
		if !s.isHolder(q) {
			continue
		}
		if s.numHolders() == 1 {
			break // D20: the last holder is never asked
		}
		s.phase, s.actor = phaseChain, q
		*evs = append(*evs, engine.Tell(chainBodies[chainAsked][q][s.chainNo]))
		return
	}
	starter := s.chainStarter
	s.phase = phaseTurn
	s.chainStarter, s.chainJoined, s.chainDeclined = -1, 0, 0
	switch {
	case s.numHolders() == 1:
		s.endRound(evs, EndedByLastHolder)
	case s.exhausted():
		s.endRound(evs, EndedByExhaustion)
	default:
		s.actor = s.nextHolder(starter) // D21
	}
}

// passTurn is D18: a holder with an empty hand may pass.
func (s *State) passTurn() ([]engine.Event, error) {
	if s.phase != phaseTurn {
		return nil, s.refuseInChain()
	}
	p := s.actor
	if s.handLen[p] > 0 {
		return nil, engine.Refuse(CodeMustPlay, "You hold a DIRECTION tile: play a tile or your LOST tile (you may pass only with an empty hand).")
	}
	s.actor = s.nextHolder(p)
	return []engine.Event{engine.Tell(turnPassedBodies[p])}, nil
}

// How a round ended (4.7).
const (
	EndedByLastHolder = "last_holder" // (a) one holder left after a chain
	EndedByExhaustion = "exhaustion"  // (b) no DIRECTION tile left to play
)

// endRound is 4.7 then: the reveal, its scoring, the end of the game or a
// new round.
func (s *State) endRound(evs *[]engine.Event, endedBy string) {
	r := s.reveal(endedBy)
	for p, pts := range r.Points {
		s.scores[p] += pts
	}
	s.lastReveal = r
	*evs = append(*evs, engine.Tell(RoundRevealed{Reveal: r}))
	if s.gameEnds() {
		s.endGame(evs)
		return
	}
	s.newRound(evs)
}

// reveal builds the round's reveal (4.8) and its scoring (4.10).
func (s *State) reveal(endedBy string) *Reveal {
	// One allocation for the reveal and its small parts.
	b := new(struct {
		r       Reveal
		floors  [numFloors]FloorID
		points  [MaxPlayers]int
		holders [MaxPlayers]int
		reasons [1 + numFloors]string
		blocked Blocked
	})
	r := &b.r
	*r = Reveal{
		Round:   s.round,
		EndedBy: endedBy,
		Floors:  s.revealedFloors(b.floors[:0]),
		Stack:   make([]RevealItem, 0, s.stackLen-1),
		Steps:   make([]Step, 0, s.numDir+4),
		Points:  b.points[:s.n:s.n],
		Holders: b.holders[:0:s.n],
	}
	w := newWalker(r.Floors)
	w.rec = &r.Steps
	lostPos := -1 // position in r.Stack of the lost point's tile
	k := 0
	for _, it := range s.stack[1:s.stackLen] {
		if it.lost {
			r.Stack = append(r.Stack, RevealItem{Kind: LostItem, Seat: int(it.seat), Chain: int(it.chain)})
			continue
		}
		k++
		r.Stack = append(r.Stack, RevealItem{Kind: TileItem, Seat: int(it.seat), Tile: it.tile, Index: k, Facing: int(it.facing), FaceDown: it.faceDown})
		if !w.lost() && w.lay(it.tile) {
			lostPos = len(r.Stack) - 1
		}
	}
	r.LostAt, r.Reasons = int(w.lostAt), w.reasons(b.reasons[:0:len(b.reasons)])
	if w.label != NoLabel {
		b.blocked = Blocked{X: int(w.blocked.x), Y: int(w.blocked.y), Side: w.blocked.side}
		r.Blocked = &b.blocked
	}
	for p := int8(0); p < s.n; p++ {
		if s.isHolder(p) {
			r.Holders = append(r.Holders, int(p))
		}
	}
	if r.LostAt == 0 {
		// Valid to the end: every holder scores [RB].
		for _, p := range r.Holders {
			r.Points[p] = 1
		}
		for i := range r.Stack {
			if r.Stack[i].Kind == LostItem {
				r.Stack[i].Status = LostEarly
			}
		}
		return r
	}
	// The first chain after the lost point scores, all of it [RB]; D22:
	// nobody scores when no LOST tile follows.
	for i := range r.Stack {
		it := &r.Stack[i]
		if it.Kind != LostItem {
			continue
		}
		switch {
		case i < lostPos:
			it.Status = LostEarly
		case r.ScoringChain == 0 || r.ScoringChain == it.Chain:
			r.ScoringChain = it.Chain
			it.Status = LostScoring
			r.Points[it.Seat] = 1
		default:
			it.Status = LostAfter
		}
	}
	return r
}

// gameEnds is section 5: a seat reached the target, or the round cap (D24).
func (s *State) gameEnds() bool {
	t := Target(int(s.n))
	for _, sc := range s.scores[:s.n] {
		if sc >= t {
			return true
		}
	}
	return s.round >= MaxRounds
}

// endGame ranks the seats: every seat at the target wins (D23); at the
// round cap the highest score wins, ties shared (D24).
func (s *State) endGame(evs *[]engine.Event) {
	scores := append([]int{}, s.scores[:s.n]...)
	best := 0
	for _, sc := range scores {
		best = max(best, sc)
	}
	t := Target(int(s.n))
	var winners []engine.Seat
	for p, sc := range scores {
		if sc >= t || (best < t && sc == best) {
			winners = append(winners, engine.Seat(p))
		}
	}
	summary := fmt.Sprintf("Reached %d points after %d rounds.", t, s.round)
	if best < t {
		summary = fmt.Sprintf("The %d-round cap was reached; the highest score (%d) wins.", MaxRounds, best)
	}
	s.outcome = &engine.Outcome{Winners: winners, Ranks: engine.RanksFromScores(scores), Scores: scores, Summary: summary}
	s.phase, s.actor = phaseOver, -1
	ws := make([]int, len(winners))
	for i, w := range winners {
		ws[i] = int(w)
	}
	*evs = append(*evs, engine.Tell(GameOver{Winners: ws, Scores: scores, Rounds: s.round}))
}

// Every card id, for events to point at without allocating (read only).
var (
	floorValues  = [numFloors]FloorID{0, 1, 2, 3, 4, 5, 6}
	dangerValues = [numDangers]DangerID{0, 1, 2, 3, 4, 5, 6}
)

// newRound is 4.11.
func (s *State) newRound(evs *[]engine.Event) {
	first := s.firstLost // the first LOST played, right or wrong [RB]
	if first < 0 {
		first = (s.first + 1) % s.n // D17
	}
	started := RoundStarted{Round: s.round + 1, FirstPlayer: int(first)}
	if int(s.floorsRevealed) < len(s.floorDeck) { // D11
		started.Floor = &floorValues[s.floorDeck[s.floorsRevealed]]
		s.floorsRevealed++
	}
	if s.danger && int(s.dangersShown) < len(s.dangerDeck) {
		started.Danger = &dangerValues[s.dangerDeck[s.dangersShown]]
		s.dangersShown++
	}
	s.startRound(s.round+1, first)
	*evs = append(*evs, engine.Tell(started))
	tiles := make([]TileID, int(s.n)*HandSize) // one array for every hand
	for q := int8(0); q < s.n; q++ {
		h := tiles[int(q)*HandSize : int(q+1)*HandSize : int(q+1)*HandSize]
		copy(h, s.hands[q][:])
		*evs = append(*evs, engine.Event{To: engine.Only(engine.Seat(q)), Body: HandReceived{Seat: int(q), Tiles: h}})
	}
}
