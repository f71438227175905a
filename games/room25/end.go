package room25

import (
	"strconv"
	"strings"

	"sortie/engine"
)

// The global checks (§4.18), role reveals in Suspicion (§4.17) and the end
// of the game (§5).

// check runs the global checks after an atomic change and reports whether
// the game ended.
func (s *State) check() bool {
	if s.over {
		return true
	}
	switch s.mode {
	case Suspicion:
		if s.deathCascade() {
			return true
		}
	case Cooperation:
		if len(s.deaths) >= 2 {
			s.endAll(false, 0, "deaths", "A second prisoner died: everyone loses.")
			return true
		}
	case Solo:
		if len(s.deaths) >= 1 {
			s.endAll(false, 0, "deaths", "A prisoner died: the solo game is lost.")
			return true
		}
	case Competition, Team:
		first, several := int8(-1), false
		for c := Scientist; c <= LittleGirl; c++ {
			ch := &s.chars[c]
			if !ch.inPlay || !ch.alive {
				continue
			}
			if first < 0 {
				first = ch.seat
			} else if !s.sameSide(first, ch.seat) {
				several = true
			}
		}
		if first >= 0 && !several {
			s.endSide(first, "last_standing", "Only one side has characters left alive.")
			return true
		}
	}
	if s.mode == Suspicion {
		s.masksFall()
	}
	return false
}

// deathCascade reveals dead characters' roles while two dead Prisoners are
// still possible, and ends the game on two (§4.17, D34).
func (s *State) deathCascade() bool {
	known, hidden := 0, 0
	for _, c := range s.deaths {
		p := s.owner(c)
		if !s.roleShown[p] {
			hidden++
		} else if s.role[p] == Prisoner {
			known++
		}
	}
	for known < 2 && known+hidden >= 2 && hidden > 0 {
		for _, c := range s.deaths {
			if p := s.owner(c); !s.roleShown[p] {
				s.showRole(p, "death")
				hidden--
				if s.role[p] == Prisoner {
					known++
				}
				break
			}
		}
	}
	if known >= 2 {
		s.endGuards("two_prisoners_dead", "Two Prisoners died: the Guards win.")
		return true
	}
	return false
}

// masksFall reveals every living character outside Room 25 once Room 25
// holds more than half of the living (D33).
func (s *State) masksFall() {
	on, alive := 0, 0
	for c := Scientist; c <= LittleGirl; c++ {
		if s.chars[c].inPlay && s.chars[c].alive {
			alive++
			if s.onRoom25(c) {
				on++
			}
		}
	}
	if 2*on <= alive {
		return
	}
	for c := Scientist; c <= LittleGirl; c++ {
		if s.chars[c].inPlay && s.chars[c].alive && !s.onRoom25(c) && !s.roleShown[s.owner(c)] {
			s.showRole(s.owner(c), "masks_fall")
		}
	}
}

// showRole makes seat p's role public.
func (s *State) showRole(p int8, cause string) {
	s.roleShown[p] = true
	s.roleTurn[p] = s.turn
	var c Character
	for o := Scientist; o <= LittleGirl; o++ {
		if s.chars[o].inPlay && s.chars[o].seat == p {
			c = o
		}
	}
	s.tell(RoleRevealed{Seat: int(p), Character: c, Role: s.role[p], Cause: cause})
}

// endOfCountdown scores a game whose last turn ended without an escape.
func (s *State) endOfCountdown() {
	switch s.mode {
	case Cooperation, Solo:
		s.endAll(false, 0, "countdown", "Time ran out before Room 25 left the complex.")
	case Suspicion:
		s.endGuards("countdown", "Time ran out: the Guards win.")
	case Competition, Team:
		// D37, D38: the most living characters on Room 25.
		counts := make([]int, s.seats)
		for c := Scientist; c <= LittleGirl; c++ {
			if s.onRoom25(c) {
				for q := range int8(s.seats) {
					if s.sameSide(q, s.owner(c)) {
						counts[q]++
					}
				}
			}
		}
		top := 0
		for _, k := range counts {
			top = max(top, k)
		}
		if top == 0 {
			s.finish("countdown", nil, make([]int, s.seats), engine.RanksFromScores(counts), "Time ran out with nobody on Room 25: everyone loses.")
			return
		}
		leaders := 0 // sides at the top
		for q := range int8(s.seats) {
			if counts[q] == top && s.firstOfSide(q) {
				leaders++
			}
		}
		scores := make([]int, s.seats)
		var winners []engine.Seat
		for q, k := range counts {
			if k != top {
				continue
			}
			if leaders == 1 {
				scores[q] = winScore
				winners = append(winners, engine.Seat(q))
			} else {
				scores[q] = drawScore
			}
		}
		summary := "Time ran out: the most characters on Room 25 win."
		if leaders > 1 {
			summary = "Time ran out: the sides with the most characters on Room 25 draw."
		}
		s.finish("room25_majority", winners, scores, engine.RanksFromScores(counts), summary)
	}
}

// Scores of Competition and Team, in half points (a draw is worth half a
// win and scores are whole numbers).
const (
	winScore  = 2
	drawScore = 1
)

// firstOfSide reports whether seat q is the lowest seat of its side.
func (s *State) firstOfSide(q int8) bool {
	for o := range q {
		if s.sameSide(o, q) {
			return false
		}
	}
	return true
}

// escape ends the game with Room 25 leaving the complex, performed by c.
func (s *State) escape(c Character) {
	p := s.owner(c)
	switch s.mode {
	case Cooperation:
		if len(s.deaths) == 0 {
			s.endAll(true, 2, "escape", "Everyone escaped with Room 25: total victory.")
		} else {
			s.endAll(true, 1, "partial_escape", "The survivors escaped with Room 25: partial victory.")
		}
	case Solo:
		s.endAll(true, 1, "escape", "All four prisoners escaped with Room 25.")
	case Suspicion:
		var winners []engine.Seat
		scores := make([]int, s.seats)
		for q := range s.seats {
			if s.role[q] == Prisoner {
				winners = append(winners, engine.Seat(q))
				scores[q] = 1
			}
		}
		s.finish("escape", winners, scores, engine.RanksFromScores(scores), "The Prisoners escaped with Room 25.")
	case Competition, Team:
		s.endSide(p, "escape", "Room 25 left the complex with the winners inside.")
	}
}

// endAll ends a game that every seat wins or loses together.
func (s *State) endAll(won bool, score int, reason, summary string) {
	n := s.seats
	ints := make([]int, 2*n) // a search ends a game every playout
	scores, ranks := ints[:n:n], ints[n:]
	var winners []engine.Seat
	if won {
		winners = make([]engine.Seat, 0, n)
	}
	for q := range n {
		scores[q] = score
		if won {
			winners = append(winners, engine.Seat(q))
		}
	}
	for q := range ranks {
		ranks[q] = 1
	}
	s.finish(reason, winners, scores, ranks, summary)
}

// endGuards ends a Suspicion game won by the Guards; without a Guard in
// play everyone loses (D35).
func (s *State) endGuards(reason, summary string) {
	scores := make([]int, s.seats)
	var winners []engine.Seat
	for q := range s.seats {
		if s.role[q] == Guard {
			scores[q] = 1
			winners = append(winners, engine.Seat(q))
		}
	}
	if winners == nil {
		summary += " There was no Guard in play: everyone loses."
	}
	s.finish(reason, winners, scores, engine.RanksFromScores(scores), summary)
}

// endSide ends a Competition or Team game won by seat p's side.
func (s *State) endSide(p int8, reason, summary string) {
	scores := make([]int, s.seats)
	var winners []engine.Seat
	for q := range int8(s.seats) {
		if s.sameSide(q, p) {
			scores[q] = winScore
			winners = append(winners, engine.Seat(q))
		}
	}
	s.finish(reason, winners, scores, engine.RanksFromScores(scores), summary)
}

// finish records the outcome and ends the game.
func (s *State) finish(reason string, winners []engine.Seat, scores, ranks []int, summary string) {
	s.over = true
	s.phase = phaseOver
	s.pend = pending{}
	s.reason = reason
	s.outcome = engine.Outcome{Winners: winners, Ranks: ranks, Scores: scores, Summary: summary}
	nw := len(winners)
	ints := make([]int, nw, nw+len(scores)) // the event's winners, then its scores
	for i, q := range winners {
		ints[i] = int(q)
	}
	w, sc := ints[:nw:nw], nilIfEmpty(append(ints[nw:], scores...))
	s.tell(GameOver{Reason: reason, Winners: w, Scores: sc, Summary: summary})
}

var _ engine.Rated = (*State)(nil)

// RatedResult says what the match is for rating (engine.Rated). Cooperation
// and Solo are co-op; Competition is free for all; Suspicion and Team are
// the team family: the Prisoners against the Guards dealt (a Suspicion game
// dealt no Guard is the Prisoners alone against the game, D35), team A (the
// even seats) against team B. The key is the mode, with the room set when it
// is not the mode's own and the beacons when they are off; the team chat
// changes nothing (O17) and is left out.
func (s *State) RatedResult() (engine.Result, bool) {
	r := engine.Result{Key: s.ratedKey()}
	switch s.mode {
	case Cooperation, Solo:
		r.Family = engine.Coop
	case Competition:
		r.Family = engine.FreeForAll
	default:
		r.Family = engine.Team
	}
	if !s.over {
		return r, false
	}
	o := s.outcome
	switch s.mode {
	case Cooperation, Solo:
		return engine.CoopResult(o, s.seats, r.Key), true
	case Competition:
		return engine.FreeForAllResult(o, r.Key), true
	}
	var groups [2][]engine.Seat
	var roles [2]string
	if s.mode == Suspicion {
		roles = [2]string{"prisoners", "guards"}
		for q := range s.seats {
			g := 0
			if s.role[q] == Guard {
				g = 1
			}
			groups[g] = append(groups[g], engine.Seat(q))
		}
	} else {
		roles = [2]string{"team_a", "team_b"}
		for q := range s.seats {
			groups[s.team[q]] = append(groups[s.team[q]], engine.Seat(q))
		}
	}
	for g, seats := range groups {
		if len(seats) > 0 {
			r.Sides = append(r.Sides, engine.Side{Role: roles[g], Seats: seats})
		}
	}
	if len(r.Sides) == 1 {
		r.Sides[0].Rank = 2
		if o.Won(r.Sides[0].Seats[0]) {
			r.Sides[0].Rank = 1
		}
		return r, true
	}
	for i, a := range r.Sides {
		rank := 1
		for _, b := range r.Sides {
			if o.Ranks[b.Seats[0]] < o.Ranks[a.Seats[0]] {
				rank++
			}
		}
		r.Sides[i].Rank = rank
	}
	return r, true
}

// ratedKey names the variant: mode=…, then room_set=… when the set is not
// the mode's default (with a custom set's rooms, joined by "+"), then
// beacons=off.
func (s *State) ratedKey() string {
	key := optMode + "=" + s.mode.String()
	if s.set != modes[s.mode].defaultSet {
		key += "," + optRoomSet + "=" + s.set.String()
		if s.set == SetCustom {
			var parts []string
			for r, k := range s.custom {
				if k > 0 && Room(r) != RoomCentral && Room(r) != Room25 { // in every set
					parts = append(parts, Room(r).String()+":"+strconv.Itoa(int(k)))
				}
			}
			key += "," + optCustom + "=" + strings.Join(parts, "+")
		}
	}
	if !s.beacons {
		key += "," + optBeacons + "=off"
	}
	return key
}
