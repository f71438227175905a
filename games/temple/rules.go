package temple

import (
	"slices"

	"sortie/engine"
)

// Error codes of the temple, named after the rule that was broken (§4).
const (
	CodeNotRunning        = "not_running"
	CodeBadTime           = "bad_time"
	CodeNotInside         = "not_inside"
	CodeBadDice           = "bad_dice"
	CodeDieNotYours       = "die_not_yours"
	CodeDieNotLive        = "die_not_live"
	CodeDieLocked         = "die_locked"
	CodeDiePooled         = "die_pooled"
	CodeDieOnCard         = "die_on_card"
	CodeDieGone           = "die_gone"
	CodeCooldown          = "cooldown"
	CodeWrongSymbols      = "wrong_symbols"
	CodeIdleDice          = "idle_dice"
	CodeNotAGoldMask      = "not_a_gold_mask"
	CodeTooManyTargets    = "too_many_targets"
	CodeNotLocked         = "not_locked"
	CodeNotSameChamber    = "not_same_chamber"
	CodeOneOtherOnly      = "one_other_player_only"
	CodeTrapped           = "trapped"
	CodeNoSuchChamber     = "no_such_chamber"
	CodeNotConnected      = "not_connected"
	CodeStackEmpty        = "stack_empty"
	CodeNoOpenExit        = "no_open_exit"
	CodeNoGemField        = "no_gem_field"
	CodeAlreadyActivated  = "already_activated"
	CodeNothingToCommit   = "nothing_to_commit"
	CodeNoSuchTier        = "no_such_tier"
	CodeTierRequired      = "tier_required"
	CodeNotPooled         = "not_pooled"
	CodeNotInExit         = "not_in_exit"
	CodeNotEnoughKeys     = "not_enough_keys"
	CodeBadReceiver       = "bad_receiver"
	CodeNoGift            = "no_gift"
	CodeFateForbidden     = "fate_forbidden"
	CodeNoLockedDice      = "no_locked_dice"
	CodeNoGemThere        = "no_gem_there"
	CodeNoTreasureHere    = "no_treasure_here"
	CodeNotYourTreasure   = "not_your_treasure"
	CodeNoAdventurerThere = "no_adventurer_there"
	CodeNotAdjacent       = "not_adjacent"
	CodeAlreadyConnected  = "already_connected"
	CodeUseInPayment      = "use_in_payment"
	CodeNoSuchCurse       = "no_such_curse"
	CodeSilenced          = "silenced"
	CodeNoSuchSignal      = "no_such_signal"
)

var refuse = engine.Refuse

// Apply plays action a for seat p at match time at (§4). The caller has
// already called Advance(at). A refused action changes nothing.
func (s *State) Apply(p engine.Seat, a engine.Action, at engine.Millis) ([]engine.Event, error) {
	if s.over {
		return nil, engine.GameOver()
	}
	if p < 0 || int(p) >= len(s.players) {
		return nil, engine.NotYourTurn(p)
	}
	if at < 0 {
		return nil, refuse(CodeNotRunning, "The game has not started yet.")
	}
	if at < s.now {
		return nil, refuse(CodeBadTime, "The action is stamped %d ms, before the match clock (%d ms).", at, s.now)
	}
	if d, ok := s.Deadline(); ok && d <= at {
		return nil, refuse(CodeBadTime, "Time must first pass to %d ms, when the next countdown event is due.", d)
	}
	if a = deref(a); a == nil {
		return nil, refuse(engine.CodeMalformed, "There is no action.")
	}
	i := int(p)
	var evs []engine.Event
	var err *engine.RuleError
	switch a := a.(type) {
	case Roll:
		evs, err = s.roll(i, a, at)
	case Unlock:
		evs, err = s.unlock(i, a)
	case Enter:
		evs, err = s.enter(i, a)
	case Discover:
		evs, err = s.discover(i, a)
	case Commit:
		evs, err = s.commit(i, a)
	case Retarget:
		evs, err = s.retarget(i, a)
	case Withdraw:
		evs, err = s.withdraw(i, a)
	case Escape:
		evs, err = s.escape(i, a, at)
	case GiveDie:
		evs, err = s.giveDie(i, a)
	case ProvokeFate:
		evs, err = s.provokeFate(i, a)
	case ClaimTreasure:
		evs, err = s.claimTreasure(i, a)
	case UseTreasure:
		evs, err = s.useTreasure(i, a)
	case LiftCurse:
		evs, err = s.liftCurse(i, a)
	case Signal:
		evs, err = s.signal(i, a, at)
	default:
		return nil, refuse(engine.CodeMalformed, "There is no %q action in this game.", a.Kind())
	}
	if err != nil {
		return nil, err
	}
	s.now = at
	switch a.(type) {
	case Roll, Unlock, Signal, GiveDie:
		// Dice and seats only: no chamber changes.
	default:
		s.refreshChamberViews()
	}
	return append(evs, s.checkEnd(at)...), nil
}

// Advance lets match time pass to at, firing in order every gift time-out
// and countdown event due at or before it (§4.1, §4.6; at one millisecond:
// gifts, then the countdown, then the collapse).
func (s *State) Advance(at engine.Millis) []engine.Event {
	if s.over || at <= s.now {
		return nil
	}
	var evs []engine.Event
	for !s.over {
		d, _ := s.Deadline()
		if d > at {
			break
		}
		s.now = d
		for p := range s.players {
			if pl := &s.players[p]; pl.gifting && pl.giftDue == d {
				evs = append(evs, s.give(p, s.autoReceiver(p), true)...)
			}
		}
		if c := s.schedule[s.nextCue]; c.At == d {
			s.nextCue++
			evs = append(evs, s.fire(c)...)
		}
		evs = append(evs, s.checkEnd(d)...)
	}
	if !s.over {
		s.now = at
	}
	if len(evs) > 0 {
		s.refreshChamberViews()
	}
	return evs
}

// fire plays one countdown event (§4.6).
func (s *State) fire(c Cue) []engine.Event {
	switch c.Type {
	case "gong":
		return []engine.Event{engine.Tell(Gong{N: c.N})}
	case "door_slam":
		return []engine.Event{engine.Tell(DoorSlam{N: c.N, Losses: s.slam()})}
	case "sand_out":
		return []engine.Event{
			engine.Tell(SandOut{Run: c.N, Losses: s.slam()}),
			engine.Tell(SandTurned{Run: c.N + 1}), // D24: no gap
		}
	case "collapse":
		var in []int
		for p := range s.players {
			if s.inside(p) {
				in = append(in, p)
			}
		}
		ev := engine.Tell(Collapse{Inside: in})
		if len(in) == 0 {
			return append([]engine.Event{ev}, s.end(c.At, true, "all_escaped")...)
		}
		return append([]engine.Event{ev}, s.end(c.At, false, "collapse")...)
	case "time_cap":
		return s.end(c.At, false, "time_cap") // D43
	}
	return nil
}

// slam takes one die from every adventurer inside and out of the start
// chamber (§4.6, §4.7).
func (s *State) slam() []Loss {
	losses := []Loss{}
	start := int8(s.where[tileStart])
	for p := range s.players {
		if !s.inside(p) || s.players[p].at == start {
			continue
		}
		if d := s.pickLoss(p, true); d >= 0 {
			s.loseDie(d)
			s.stats.DiceLost[p][0]++
			losses = append(losses, Loss{Seat: p, Die: d})
		}
	}
	return losses
}

// autoReceiver picks who gets a timed-out gift (§4.8): the inside adventurer
// owning the fewest dice, ties to the first after the giver in seat order.
func (s *State) autoReceiver(from int) int {
	best, bestN := -1, 1<<30
	n := len(s.players)
	for k := 1; k < n; k++ {
		q := (from + k) % n
		if !s.inside(q) {
			continue
		}
		if c := s.diceOwned(q); c < bestN {
			best, bestN = q, c
		}
	}
	return best
}

// give hands the giver's lowest-id die to seat to, rolled at once (§4.8,
// D18). The roll moves no cooldown.
func (s *State) give(from, to int, auto bool) []engine.Event {
	s.players[from].gifting = false
	if to < 0 {
		return nil
	}
	for i := range s.dice {
		d := &s.dice[i]
		if int(d.Owner) == from && d.Status == Out {
			d.Owner = int8(to)
			s.rollDie(i)
			return []engine.Event{engine.Tell(DieGiven{From: from, To: to, Die: i, Face: d.Face, Auto: auto})}
		}
	}
	return nil
}

// rollDie draws a new face for die i (§2.1).
func (s *State) rollDie(i int) {
	d := &s.dice[i]
	d.Face = rollFaces[s.rng.IntN(len(rollFaces))]
	if d.Face == BlackMask {
		d.Status = Locked
	} else {
		d.Status = Live
	}
}

// mustBeInside refuses an action of an escaped seat.
func (s *State) mustBeInside(p int) *engine.RuleError {
	if !s.inside(p) {
		return refuse(CodeNotInside, "You have escaped from the temple: only signals and giving your die remain.")
	}
	return nil
}

// checkDiceList refuses an empty list, duplicates and ids outside the box.
func (s *State) checkDiceList(ids []int) *engine.RuleError {
	if len(ids) == 0 {
		return refuse(CodeBadDice, "Name at least one die.")
	}
	for i, id := range ids {
		if id < 0 || id >= len(s.dice) {
			return refuse(CodeBadDice, "There is no die %d in this game.", id)
		}
		if slices.Contains(ids[:i], id) {
			return refuse(CodeBadDice, "Die %d is named twice.", id)
		}
	}
	return nil
}

// ownLive checks that every die is seat p's and live.
func (s *State) ownLive(p int, ids []int) *engine.RuleError {
	for _, id := range ids {
		d := s.dice[id]
		if int(d.Owner) != p || d.Status == Out {
			return refuse(CodeDieNotYours, "Die %d is not yours.", id)
		}
		if d.Status != Live {
			return refuse(CodeDieNotLive, "Die %d does not show a usable symbol now (it is %s).", id, d.Status)
		}
	}
	return nil
}

// payment is a validated set of items paying a requirement (§4.2).
type payment struct {
	dice      []int
	treasures []int8
	value     int
}

// pay validates that seat p's dice and treasures pay need exactly (§4.2):
// own live dice of needed symbols, own double treasures when allowed,
// covering the need, with no idle item. short is the code when they do not
// cover it.
func (s *State) pay(p int, dice []int, tre []string, need [numFaces]int, allowTreasures bool, short string) (payment, *engine.RuleError) {
	var pm payment
	if len(dice) > 0 {
		if err := s.checkDiceList(dice); err != nil {
			return pm, err
		}
	}
	if err := s.ownLive(p, dice); err != nil {
		return pm, err
	}
	var supply, nDice, nTre [numFaces]int
	for _, id := range dice {
		f := s.dice[id].Face
		if need[f] == 0 {
			return pm, refuse(CodeWrongSymbols, "Die %d shows a %s, which this does not need.", id, f)
		}
		supply[f]++
		nDice[f]++
	}
	if len(tre) > 0 && !allowTreasures {
		return pm, refuse(CodeWrongSymbols, "Treasures cannot pay for this.")
	}
	ts, err := s.heldTreasures(p, tre)
	if err != nil {
		return pm, err
	}
	for _, t := range ts {
		f := doubleFace(treasures[t].Kind)
		if f == NoFace || need[f] == 0 {
			return pm, refuse(CodeWrongSymbols, "%s is not worth a symbol this needs.", treasures[t].ID)
		}
		supply[f] += 2
		nTre[f]++
	}
	for f := range need {
		if supply[f] < need[f] {
			if short == CodeNotEnoughKeys {
				return pm, refuse(short, "You need %d keys to escape and offer %d.", need[Key], supply[Key]).With("need", need[Key]).With("offer", supply[Key])
			}
			return pm, refuse(short, "These dice do not show the symbols needed (%s).", needText(need))
		}
	}
	for f := range need {
		if (nDice[f] > 0 && supply[f]-1 >= need[f]) || (nTre[f] > 0 && supply[f]-2 >= need[f]) {
			return pm, refuse(CodeIdleDice, "You offer more %s symbols than needed: keep the spare dice.", Face(f))
		}
	}
	pm.dice, pm.treasures = dice, ts
	for f := range supply {
		pm.value += supply[f]
	}
	return pm, nil
}

// needText lists a requirement for messages.
func needText(need [numFaces]int) string {
	out := ""
	for f, n := range need {
		for range n {
			if out != "" {
				out += " + "
			}
			out += Face(f).String()
		}
	}
	return out
}

// spend marks a payment's dice spent and discards its treasures.
func (s *State) spend(p int, pm payment) {
	for _, id := range pm.dice {
		s.dice[id].Status = Spent
	}
	for _, t := range pm.treasures {
		s.dropTreasure(p, t)
		s.usedTreasures = append(s.usedTreasures, t)
		s.stats.TreasuresUsed++
	}
}

// dropTreasure takes treasure t out of seat p's hand.
func (s *State) dropTreasure(p int, t int8) {
	pl := &s.players[p]
	if i := slices.Index(pl.treasures, t); i >= 0 {
		pl.treasures = slices.Delete(pl.treasures, i, i+1)
	}
}

// heldTreasures resolves treasure ids that seat p holds, without duplicates.
func (s *State) heldTreasures(p int, ids []string) ([]int8, *engine.RuleError) {
	var out []int8
	for _, id := range ids {
		t := treasureIndex(id)
		if t < 0 || !slices.Contains(s.players[p].treasures, t) {
			return nil, refuse(CodeNotYourTreasure, "You do not hold the treasure %q.", id)
		}
		if slices.Contains(out, t) {
			return nil, refuse(CodeBadDice, "The treasure %s is named twice.", id)
		}
		out = append(out, t)
	}
	return out, nil
}

// doubleFace is the symbol a double treasure is worth twice, or NoFace.
func doubleFace(k TreasureKind) Face {
	switch k {
	case DoubleKey:
		return Key
	case DoubleTorch:
		return Torch
	}
	return NoFace
}

func treasureIndex(id string) int8 {
	for i, t := range treasures {
		if t.ID == id {
			return int8(i)
		}
	}
	return -1
}

func curseIndex(id string) int8 {
	for i, c := range curses {
		if c.ID == id {
			return int8(i)
		}
	}
	return -1
}

// chamberByID returns the chamber index of a placed tile id, or -1.
func (s *State) chamberByID(id string) int {
	for i := range s.chambers {
		if tiles[s.chambers[i].tile].ID == id {
			return i
		}
	}
	return -1
}

// chamberID is the tile id of chamber c.
func (s *State) chamberID(c int) string { return tiles[s.chambers[c].tile].ID }

// roll rolls some of the seat's dice (§4.3.1).
func (s *State) roll(p int, a Roll, at engine.Millis) ([]engine.Event, *engine.RuleError) {
	if err := s.mustBeInside(p); err != nil {
		return nil, err
	}
	if err := s.checkDiceList(a.Dice); err != nil {
		return nil, err
	}
	for _, id := range a.Dice {
		d := s.dice[id]
		switch {
		case int(d.Owner) != p || d.Status == Out:
			return nil, refuse(CodeDieNotYours, "Die %d is not yours.", id)
		case d.Status == Locked:
			return nil, refuse(CodeDieLocked, "Die %d shows a black mask: free it with a gold mask first.", id)
		case d.Status == Pooled:
			return nil, refuse(CodeDiePooled, "Die %d is in the gem pool: withdraw it first.", id)
		case d.Status == OnCard:
			return nil, refuse(CodeDieOnCard, "Die %d lies on your broken-die curse.", id)
		case d.Status == Lost:
			return nil, refuse(CodeDieGone, "Die %d is lost.", id)
		}
	}
	pl := &s.players[p]
	if at < pl.nextRollAt {
		return nil, refuse(CodeCooldown, "You rolled too recently: you may roll again at %d ms.", pl.nextRollAt).With("wait_ms", pl.nextRollAt-at)
	}
	ids := a.Dice
	if !slices.IsSorted(ids) {
		ids = slices.Clone(ids)
		slices.Sort(ids)
	}
	ev := Rolled{Seat: p, Dice: make([]RolledDie, len(ids))}
	for i, id := range ids {
		s.rollDie(id)
		ev.Dice[i] = RolledDie{ID: id, Face: s.dice[id].Face}
	}
	evs := []engine.Event{engine.Tell(ev)}
	// §4.9.3: a rushed roll under lost_dice may drop a die.
	if s.holds(p, LostDice) && pl.rolled && at < pl.lastRollAt+lostDiceRushFactor*s.opt.cooldown {
		if s.rng.IntN(lostDiceDropOneIn) == 0 {
			d := ids[s.rng.IntN(len(ids))]
			s.loseDie(d)
			s.stats.DiceLost[p][1]++
			evs = append(evs, engine.Tell(DieLost{Seat: p, Die: d, Cause: "lost_dice"}))
		}
	}
	cd := s.opt.cooldown
	if s.holds(p, CursedHand) {
		cd *= cursedHandFactor
	}
	pl.nextRollAt = at + cd
	pl.lastRollAt = at
	pl.rolled = true
	return evs, nil
}

// unlock spends a gold mask (§4.3.2, D12, D31).
func (s *State) unlock(p int, a Unlock) ([]engine.Event, *engine.RuleError) {
	if err := s.mustBeInside(p); err != nil {
		return nil, err
	}
	if a.Gold < 0 || a.Gold >= len(s.dice) {
		return nil, refuse(CodeBadDice, "There is no die %d in this game.", a.Gold)
	}
	g := s.dice[a.Gold]
	if int(g.Owner) != p || g.Status == Out {
		return nil, refuse(CodeDieNotYours, "Die %d is not yours: only its owner may spend a gold mask.", a.Gold)
	}
	if g.Status != Live || g.Face != GoldMask {
		return nil, refuse(CodeNotAGoldMask, "Die %d does not show a usable gold mask.", a.Gold)
	}
	limit := 2
	if s.holds(p, WeakMask) {
		limit = 1
	}
	if len(a.Targets) > limit {
		return nil, refuse(CodeTooManyTargets, "This gold mask frees at most %d dice.", limit).With("max", limit)
	}
	if err := s.checkDiceList(a.Targets); err != nil {
		return nil, err
	}
	other := -1
	for _, id := range a.Targets {
		d := s.dice[id]
		if d.Status != Locked {
			return nil, refuse(CodeNotLocked, "Die %d is not locked by a black mask.", id)
		}
		q := int(d.Owner)
		if !s.inside(q) || s.players[q].at != s.players[p].at {
			return nil, refuse(CodeNotSameChamber, "Die %d belongs to an adventurer in another chamber.", id)
		}
		if q != p {
			if other >= 0 && other != q {
				return nil, refuse(CodeOneOtherOnly, "A gold mask helps only one other adventurer.")
			}
			other = q
		}
	}
	s.dice[a.Gold].Status = Spent
	for _, id := range a.Targets {
		s.dice[id].Status = Spent
	}
	return []engine.Event{engine.Tell(Unlocked{Seat: p, Gold: a.Gold, Targets: slices.Clone(a.Targets)})}, nil
}

// enter moves to a connected chamber (§4.3.3).
func (s *State) enter(p int, a Enter) ([]engine.Event, *engine.RuleError) {
	if err := s.mustBeInside(p); err != nil {
		return nil, err
	}
	if s.holds(p, Trap) {
		return nil, refuse(CodeTrapped, "A trap holds you: lift the curse before moving.")
	}
	to := s.chamberByID(a.To)
	if to < 0 {
		return nil, refuse(CodeNoSuchChamber, "There is no chamber %q in the temple.", a.To)
	}
	from := int(s.players[p].at)
	if !s.connected(from, to) {
		return nil, refuse(CodeNotConnected, "You cannot go from %s to %s: no open passage joins them.", s.chamberID(from), a.To)
	}
	pm, err := s.pay(p, a.Dice, a.Treasures, costNeed(tiles[s.chambers[to].tile].Cost), true, CodeWrongSymbols)
	if err != nil {
		return nil, err
	}
	s.spend(p, pm)
	evs := s.withdrawEvent(p)
	s.players[p].at = int8(to)
	return append(evs, engine.Tell(Entered{Seat: p, From: s.chamberID(from), To: a.To})), nil
}

// withdrawEvent withdraws seat p's pool items before it leaves its chamber.
func (s *State) withdrawEvent(p int) []engine.Event {
	c := int(s.players[p].at)
	items := s.withdrawAll(p)
	if len(items) == 0 {
		return nil
	}
	return []engine.Event{engine.Tell(Withdrawn{Seat: p, Chamber: s.chamberID(c), Items: items})}
}

func costNeed(c [2]Face) [numFaces]int {
	var n [numFaces]int
	n[c[0]]++
	n[c[1]]++
	return n
}

// discover draws the top tile and places it (§4.3.4, §4.5.2).
func (s *State) discover(p int, a Discover) ([]engine.Event, *engine.RuleError) {
	if err := s.mustBeInside(p); err != nil {
		return nil, err
	}
	if s.holds(p, Trap) {
		return nil, refuse(CodeTrapped, "A trap holds you: lift the curse before discovering.")
	}
	if len(s.stack) == 0 {
		return nil, refuse(CodeStackEmpty, "Every chamber has been discovered.")
	}
	c := int(s.players[p].at)
	ok, breach := s.discoverable(c, a.Side, s.breachMode())
	if !ok {
		return nil, refuse(CodeNoOpenExit, "Side %q of your chamber is not an open exit onto unexplored rock.", a.Side.String())
	}
	var need [numFaces]int
	need[Adventurer] = 2
	if len(a.Dice) != 2 {
		return nil, refuse(CodeWrongSymbols, "Discovering takes exactly two adventurer symbols.")
	}
	pm, err := s.pay(p, a.Dice, nil, need, false, CodeWrongSymbols)
	if err != nil {
		return nil, err
	}
	s.spend(p, pm)
	if breach {
		s.chambers[c].open |= 1 << a.Side
		s.chambers[c].breach |= 1 << a.Side
	}
	t := s.stack[0]
	s.stack = s.stack[1:]
	s.drawn++
	s.stats.TilesFound++
	ch := s.chambers[c]
	x, y := ch.x+sideDX[a.Side], ch.y+sideDY[a.Side]
	nc := s.place(t, x, y, a.Side.opposite())
	evs := []engine.Event{engine.Tell(Discovered{Seat: p, Tile: tiles[t].ID, X: int(x), Y: int(y), Stairs: a.Side.opposite(), Breach: breach})}
	if s.opt.curses && tiles[t].Mask {
		evs = append(evs, s.drawCurse(p)...)
	}
	if s.placeTreasure(nc) {
		evs = append(evs, engine.Tell(TreasurePlaced{Chamber: tiles[t].ID}))
	}
	return evs, nil
}

// drawCurse gives seat p the top curse card (§4.9.1).
func (s *State) drawCurse(p int) []engine.Event {
	if len(s.curseDeck) == 0 {
		return nil // D27
	}
	card := s.curseDeck[0]
	s.curseDeck = s.curseDeck[1:]
	if s.holds(p, curses[card].Kind) {
		s.removedCurses = append(s.removedCurses, card)
		return []engine.Event{engine.Tell(CurseDiscarded{Seat: p, Card: curses[card].ID, Reason: "duplicate"})}
	}
	pl := &s.players[p]
	pl.curses = append(pl.curses, card)
	s.stats.CursesDrawn++
	ev := CurseDrawn{Seat: p, Card: curses[card].ID}
	if curses[card].Kind == BrokenDie {
		if d := s.pickLoss(p, false); d >= 0 { // D30
			if s.dice[d].Status == Pooled {
				s.unpool(int(pl.at), int8(d), -1)
			}
			s.dice[d].Status = OnCard
			pl.cardDie = int8(d)
			ev.DieOnCard = intp(d)
		}
	}
	return []engine.Event{engine.Tell(ev)}
}

// gemChamber checks that seat p stands in a chamber whose pool is open.
func (s *State) gemChamber(p int) (int, *engine.RuleError) {
	c := int(s.players[p].at)
	t := tiles[s.chambers[c].tile]
	if len(t.Tiers) == 0 {
		return c, refuse(CodeNoGemField, "There is no gem field in %s.", t.ID)
	}
	if s.chambers[c].activated > 0 {
		return c, refuse(CodeAlreadyActivated, "The gems of %s have already been activated.", t.ID)
	}
	return c, nil
}

// commit puts items into the chamber's gem pool (§4.4, D13).
func (s *State) commit(p int, a Commit) ([]engine.Event, *engine.RuleError) {
	if err := s.mustBeInside(p); err != nil {
		return nil, err
	}
	c, err := s.gemChamber(p)
	if err != nil {
		return nil, err
	}
	if len(a.Dice) == 0 && len(a.Treasures) == 0 {
		return nil, refuse(CodeNothingToCommit, "Commit at least one die or treasure.")
	}
	t := tiles[s.chambers[c].tile]
	if len(a.Dice) > 0 {
		if err := s.checkDiceList(a.Dice); err != nil {
			return nil, err
		}
	}
	if err := s.ownLive(p, a.Dice); err != nil {
		return nil, err
	}
	for _, id := range a.Dice {
		if s.dice[id].Face != t.Symbol {
			return nil, refuse(CodeWrongSymbols, "Die %d shows a %s; the gems of %s need %s symbols.", id, s.dice[id].Face, t.ID, t.Symbol)
		}
	}
	ts, err := s.heldTreasures(p, a.Treasures)
	if err != nil {
		return nil, err
	}
	for _, tr := range ts {
		if doubleFace(treasures[tr].Kind) != t.Symbol {
			return nil, refuse(CodeWrongSymbols, "%s is not worth %s symbols.", treasures[tr].ID, t.Symbol)
		}
	}
	if a.Tier < 0 || a.Tier > len(t.Tiers) {
		return nil, refuse(CodeNoSuchTier, "%s has no gem field %d.", t.ID, a.Tier)
	}
	ch := &s.chambers[c]
	if a.Tier == 0 && ch.target == 0 {
		return nil, refuse(CodeTierRequired, "Say which gem field the pool aims at.")
	}
	ids := a.Dice
	if !slices.IsSorted(ids) {
		ids = slices.Clone(ids)
		slices.Sort(ids)
	}
	ev := Committed{Seat: p, Chamber: t.ID}
	for _, id := range ids {
		s.dice[id].Status = Pooled
		it := poolItem{owner: int8(p), die: int8(id), treasure: -1}
		ch.pool = append(ch.pool, it)
		ev.Items = append(ev.Items, s.itemOf(it))
	}
	for _, tr := range ts {
		s.dropTreasure(p, tr)
		it := poolItem{owner: int8(p), die: -1, treasure: tr}
		ch.pool = append(ch.pool, it)
		ev.Items = append(ev.Items, s.itemOf(it))
	}
	if a.Tier > 0 {
		ch.target = int8(a.Tier)
	}
	ev.Tier = int(ch.target)
	return append([]engine.Event{engine.Tell(ev)}, s.activationCheck(c)...), nil
}

// retarget sets the pool's target tier (§4.4).
func (s *State) retarget(p int, a Retarget) ([]engine.Event, *engine.RuleError) {
	if err := s.mustBeInside(p); err != nil {
		return nil, err
	}
	c, err := s.gemChamber(p)
	if err != nil {
		return nil, err
	}
	t := tiles[s.chambers[c].tile]
	if a.Tier < 1 || a.Tier > len(t.Tiers) {
		return nil, refuse(CodeNoSuchTier, "%s has no gem field %d.", t.ID, a.Tier)
	}
	s.chambers[c].target = int8(a.Tier)
	ev := engine.Tell(Retargeted{Seat: p, Chamber: t.ID, Tier: a.Tier})
	return append([]engine.Event{ev}, s.activationCheck(c)...), nil
}

// poolValue is the symbols in a pool: dice 1, treasures 2.
func poolValue(pool []poolItem) int {
	v := 0
	for _, it := range pool {
		v += itemValue(it)
	}
	return v
}

func itemValue(it poolItem) int {
	if it.die >= 0 {
		return 1
	}
	return 2
}

// activationCheck activates chamber c when its pool reaches the target
// (§4.4): the first items in commit order pay, the rest come back.
func (s *State) activationCheck(c int) []engine.Event {
	ch := &s.chambers[c]
	if ch.target == 0 {
		return nil
	}
	tier := tiles[ch.tile].Tiers[ch.target-1]
	if poolValue(ch.pool) < tier.Cost {
		return nil
	}
	ev := Activated{Chamber: tiles[ch.tile].ID, Tier: int(ch.target), Consumed: []Item{}, Returned: []Item{}}
	acc := 0
	for _, it := range ch.pool {
		if acc < tier.Cost {
			acc += itemValue(it)
			ev.Consumed = append(ev.Consumed, s.itemOf(it))
			if it.die >= 0 {
				s.dice[it.die].Status = Spent
			} else {
				s.usedTreasures = append(s.usedTreasures, it.treasure)
				s.stats.TreasuresUsed++
			}
			continue
		}
		ev.Returned = append(ev.Returned, s.itemOf(it))
		s.giveBack(it)
	}
	for range tier.Gems {
		switch s.takeGem() {
		case 1:
			ev.FromReserve++
		case 2:
			ev.FromSide++
		}
	}
	ev.Gems = ev.FromReserve + ev.FromSide
	ch.gems += int8(ev.Gems)
	ch.activated = ch.target
	ch.target = 0
	ch.pool = nil
	return []engine.Event{engine.Tell(ev)}
}

// withdraw takes own items back out of the pool (§4.4).
func (s *State) withdraw(p int, a Withdraw) ([]engine.Event, *engine.RuleError) {
	if err := s.mustBeInside(p); err != nil {
		return nil, err
	}
	if len(a.Dice) == 0 && len(a.Treasures) == 0 {
		return nil, refuse(CodeNotPooled, "Name at least one of your items in the pool.")
	}
	if len(a.Dice) > 0 {
		if err := s.checkDiceList(a.Dice); err != nil {
			return nil, err
		}
	}
	for _, id := range a.Dice {
		d := s.dice[id]
		if int(d.Owner) != p || d.Status == Out {
			return nil, refuse(CodeDieNotYours, "Die %d is not yours.", id)
		}
		if d.Status != Pooled {
			return nil, refuse(CodeNotPooled, "Die %d is not in the pool.", id)
		}
	}
	c := int(s.players[p].at)
	ch := &s.chambers[c]
	var ts []int8
	for _, id := range a.Treasures {
		t := treasureIndex(id)
		found := false
		for _, it := range ch.pool {
			if it.treasure == t && t >= 0 && int(it.owner) == p {
				found = true
			}
		}
		if !found || slices.Contains(ts, t) {
			return nil, refuse(CodeNotPooled, "You have no treasure %q in the pool.", id)
		}
		ts = append(ts, t)
	}
	ev := Withdrawn{Seat: p, Chamber: s.chamberID(c)}
	for _, id := range a.Dice {
		ev.Items = append(ev.Items, Item{Seat: p, Die: intp(id)})
		s.unpool(c, int8(id), -1)
		s.dice[id].Status = Live
	}
	for _, t := range ts {
		ev.Items = append(ev.Items, Item{Seat: p, Treasure: treasures[t].ID})
		s.unpool(c, -1, t)
		s.players[p].treasures = append(s.players[p].treasures, t)
	}
	return []engine.Event{engine.Tell(ev)}, nil
}

// escape leaves the temple (§4.8, D17–D19).
func (s *State) escape(p int, a Escape, at engine.Millis) ([]engine.Event, *engine.RuleError) {
	if err := s.mustBeInside(p); err != nil {
		return nil, err
	}
	if s.players[p].at != s.where[tileExit] {
		return nil, refuse(CodeNotInExit, "You can only escape from the exit chamber.")
	}
	if a.GiveTo != nil {
		q := *a.GiveTo
		if q < 0 || q >= len(s.players) || q == p || !s.inside(q) {
			return nil, refuse(CodeBadReceiver, "Your die can only go to another adventurer still inside.")
		}
	}
	cost := s.escapeCost()
	var need [numFaces]int
	need[Key] = cost
	pm, err := s.pay(p, a.Dice, a.Treasures, need, true, CodeNotEnoughKeys)
	if err != nil {
		return nil, err
	}
	s.spend(p, pm)
	pl := &s.players[p]
	// D19: curses and unused treasures go; the extra gem stays activated.
	if pl.cardDie >= 0 {
		s.dice[pl.cardDie].Status = Spent
		pl.cardDie = -1
	}
	s.removedCurses = append(s.removedCurses, pl.curses...)
	pl.curses = nil
	kept := pl.treasures[:0]
	for _, t := range pl.treasures {
		if treasures[t].Kind == ExtraGem {
			kept = append(kept, t)
		} else {
			s.usedTreasures = append(s.usedTreasures, t)
		}
	}
	pl.treasures = kept
	owned := false
	for i := range s.dice {
		d := &s.dice[i]
		if int(d.Owner) == p && d.Status != Lost {
			d.Status = Out
			owned = true
		}
	}
	pl.at = -1
	pl.escapedAt = at
	s.stats.EscapedAt[p] = at
	evs := []engine.Event{engine.Tell(Escaped{Seat: p, Paid: pm.value, Cost: cost})}
	if end := s.checkEnd(at); end != nil {
		return append(evs, end...), nil
	}
	if len(s.players) > 1 && owned {
		if a.GiveTo != nil {
			evs = append(evs, s.give(p, *a.GiveTo, false)...)
		} else {
			pl.gifting = true
			pl.giftDue = at + giftWindow
		}
	}
	return evs, nil
}

// giveDie hands the pending gift to an adventurer inside (§4.8, D18).
func (s *State) giveDie(p int, a GiveDie) ([]engine.Event, *engine.RuleError) {
	if !s.players[p].gifting {
		return nil, refuse(CodeNoGift, "You have no die to give.")
	}
	if a.To < 0 || a.To >= len(s.players) || a.To == p || !s.inside(a.To) {
		return nil, refuse(CodeBadReceiver, "Your die can only go to another adventurer still inside.")
	}
	return s.give(p, a.To, false), nil
}

// provokeFate returns a gem and frees the seat's locked dice (§4.3.5, D16).
func (s *State) provokeFate(p int, a ProvokeFate) ([]engine.Event, *engine.RuleError) {
	if s.opt.difficulty == "expert" {
		return nil, refuse(CodeFateForbidden, "Provoking fate is not allowed at expert difficulty.")
	}
	if err := s.mustBeInside(p); err != nil {
		return nil, err
	}
	var freed []int
	for i, d := range s.dice {
		if int(d.Owner) == p && d.Status == Locked {
			freed = append(freed, i)
		}
	}
	if len(freed) == 0 {
		return nil, refuse(CodeNoLockedDice, "You have no black mask to free.")
	}
	c := s.chamberByID(a.Chamber)
	if c < 0 || s.chambers[c].gems == 0 {
		return nil, refuse(CodeNoGemThere, "There is no activated gem in %q to give back.", a.Chamber)
	}
	s.chambers[c].gems--
	to := s.returnGem()
	for _, i := range freed {
		s.dice[i].Status = Spent
	}
	s.stats.FateProvoked++
	return []engine.Event{engine.Tell(FateProvoked{Seat: p, Chamber: a.Chamber, To: to, Freed: freed})}, nil
}

// claimTreasure takes the face-down treasure of the seat's chamber (§4.10,
// D34, D36).
func (s *State) claimTreasure(p int, a ClaimTreasure) ([]engine.Event, *engine.RuleError) {
	if err := s.mustBeInside(p); err != nil {
		return nil, err
	}
	c := int(s.players[p].at)
	if s.chambers[c].chest < 0 {
		return nil, refuse(CodeNoTreasureHere, "There is no treasure to claim in this chamber.")
	}
	var need [numFaces]int
	need[Key] = 2
	if len(a.Dice) != 2 {
		return nil, refuse(CodeWrongSymbols, "Claiming a treasure takes exactly two of your keys.")
	}
	pm, err := s.pay(p, a.Dice, nil, need, false, CodeWrongSymbols)
	if err != nil {
		return nil, err
	}
	s.spend(p, pm)
	t := s.chambers[c].chest
	s.chambers[c].chest = -1
	pl := &s.players[p]
	pl.treasures = append(pl.treasures, t)
	s.stats.TreasuresTaken++
	ev := TreasureClaimed{Seat: p, Chamber: s.chamberID(c), Treasure: treasures[t].ID}
	if treasures[t].Kind == ExtraGem {
		pl.extraGems++
		switch s.takeGem() {
		case 1:
			ev.ExtraGem = "reserve"
		case 2:
			ev.ExtraGem = "side"
		default:
			ev.ExtraGem = "none"
		}
	}
	return []engine.Event{engine.Tell(ev)}, nil
}

// useTreasure uses a held treasure (§4.10, D29, D37–D39).
func (s *State) useTreasure(p int, a UseTreasure) ([]engine.Event, *engine.RuleError) {
	if err := s.mustBeInside(p); err != nil {
		return nil, err
	}
	ts, err := s.heldTreasures(p, []string{a.Treasure})
	if err != nil {
		return nil, err
	}
	t := ts[0]
	ev := TreasureUsed{Seat: p, Treasure: a.Treasure}
	var evs []engine.Event
	switch treasures[t].Kind {
	case HealingMask:
		for i := range s.dice {
			if d := &s.dice[i]; d.Status == Locked && s.inside(int(d.Owner)) {
				d.Status = Spent
				ev.Freed = append(ev.Freed, i)
			}
		}
	case Teleport:
		if s.holds(p, Trap) {
			return nil, refuse(CodeTrapped, "A trap holds you: lift the curse before teleporting.")
		}
		to := s.chamberByID(a.To)
		if to < 0 {
			return nil, refuse(CodeNoSuchChamber, "There is no chamber %q in the temple.", a.To)
		}
		if to == int(s.players[p].at) || !s.occupiedByOther(to, p) {
			return nil, refuse(CodeNoAdventurerThere, "You can only teleport to another chamber where an adventurer stands.")
		}
		evs = s.withdrawEvent(p)
		s.players[p].at = int8(to)
		ev.To = a.To
	case SecretPassage:
		ca, cb := s.chamberByID(a.A), s.chamberByID(a.B)
		if ca < 0 || cb < 0 {
			return nil, refuse(CodeNoSuchChamber, "A secret passage joins two chambers of the temple.")
		}
		if !s.adjacent(ca, cb) {
			return nil, refuse(CodeNotAdjacent, "A secret passage joins two chambers side by side.")
		}
		if s.connected(ca, cb) {
			return nil, refuse(CodeAlreadyConnected, "%s and %s are already connected.", a.A, a.B)
		}
		s.passages = append(s.passages, [2]int8{int8(ca), int8(cb)})
		s.retopo()
		ev.A, ev.B = a.A, a.B
		s.dropTreasure(p, t)
		s.stats.TreasuresUsed++
		return []engine.Event{engine.Tell(ev)}, nil
	case DoubleKey, DoubleTorch:
		return nil, refuse(CodeUseInPayment, "%s counts as two symbols inside a payment; it is not used alone.", a.Treasure)
	case ExtraGem:
		return nil, refuse(CodeUseInPayment, "%s already laid its gem when it was claimed.", a.Treasure)
	}
	s.dropTreasure(p, t)
	s.usedTreasures = append(s.usedTreasures, t)
	s.stats.TreasuresUsed++
	return append(evs, engine.Tell(ev)), nil
}

// occupiedByOther reports whether someone other than p stands in chamber c.
func (s *State) occupiedByOther(c, p int) bool {
	for q := range s.players {
		if q != p && int(s.players[q].at) == c {
			return true
		}
	}
	return false
}

// liftCurse lifts a held curse with three own dice (§4.9.2, D26).
func (s *State) liftCurse(p int, a LiftCurse) ([]engine.Event, *engine.RuleError) {
	if err := s.mustBeInside(p); err != nil {
		return nil, err
	}
	card := curseIndex(a.Card)
	pl := &s.players[p]
	k := slices.Index(pl.curses, card)
	if card < 0 || k < 0 {
		return nil, refuse(CodeNoSuchCurse, "You do not hold the curse %q.", a.Card)
	}
	if err := s.checkDiceList(a.Dice); err != nil {
		return nil, err
	}
	if err := s.ownLive(p, a.Dice); err != nil {
		return nil, err
	}
	var want, got [numFaces]int
	for _, f := range curses[card].Lift {
		want[f]++
	}
	for _, id := range a.Dice {
		got[s.dice[id].Face]++
	}
	if want != got {
		return nil, refuse(CodeWrongSymbols, "Lifting %s takes exactly %s.", a.Card, needText(want))
	}
	for _, id := range a.Dice {
		s.dice[id].Status = Spent
	}
	pl.curses = slices.Delete(pl.curses, k, k+1)
	s.removedCurses = append(s.removedCurses, card)
	if curses[card].Kind == BrokenDie && pl.cardDie >= 0 {
		s.dice[pl.cardDie].Status = Spent
		pl.cardDie = -1
	}
	s.stats.CursesLifted++
	return []engine.Event{engine.Tell(CurseLifted{Seat: p, Card: a.Card})}, nil
}

// signal sends a public call (§8.6, D40).
func (s *State) signal(p int, a Signal, at engine.Millis) ([]engine.Event, *engine.RuleError) {
	if !slices.Contains(signalKinds, a.Call) {
		return nil, refuse(CodeNoSuchSignal, "There is no signal %q.", a.Call)
	}
	if s.holds(p, Silence) {
		return nil, refuse(CodeSilenced, "A curse of silence is on you.")
	}
	pl := &s.players[p]
	if pl.signalled && at < pl.lastSignal+signalCooldown {
		return nil, refuse(CodeCooldown, "You signalled too recently.").With("wait_ms", pl.lastSignal+signalCooldown-at)
	}
	pl.signalled, pl.lastSignal = true, at
	return []engine.Event{engine.Tell(SignalSent{Seat: p, Call: a.Call})}, nil
}

// Legal lists seat p's legal actions now (§4.12, D42, D57): a canonical set
// that covers every distinct effect, dice chosen by lowest id. Apply accepts
// any other valid choice of dice too.
func (s *State) Legal(p engine.Seat) []engine.Action {
	if s.over || p < 0 || int(p) >= len(s.players) {
		return nil
	}
	i := int(p)
	blk := &legalBlock{}
	l := legalLister{s: s, p: i, out: blk.actions[:0:len(blk.actions)], ints: blk.ints[:0:len(blk.ints)]}
	if s.inside(i) {
		l.indexDice()
		l.rolls()
		l.unlocks()
		l.moves()
		l.pool()
		l.escape()
		l.fate()
		l.treasures()
		l.lifts()
	} else if s.players[i].gifting {
		for q := range s.players {
			if s.inside(q) {
				l.out = append(l.out, GiveDie{To: q})
			}
		}
	}
	if !s.holds(i, Silence) && (!s.players[i].signalled || s.now >= s.players[i].lastSignal+signalCooldown) {
		l.out = append(l.out, signalActions...)
	}
	return l.out
}

// signalActions are the signal actions, boxed once.
var signalActions = func() []engine.Action {
	var out []engine.Action
	for _, k := range signalKinds {
		out = append(out, Signal{Call: k})
	}
	return out
}()

// fateActions are the provoke_fate actions of each tile, boxed once.
var fateActions = func() (out [numTiles]engine.Action) {
	for t := range out {
		out[t] = ProvokeFate{Chamber: tiles[t].ID}
	}
	return
}()

// legalBlock holds room for a typical Legal: the actions and their dice
// lists in one allocation (Legal runs before every bot decision of a
// simulation).
type legalBlock struct {
	actions [16]engine.Action
	ints    [24]int
}

// legalLister builds one seat's legal actions. Every dice list of the
// actions it lists is carved from ints, capped so that appending to it
// copies.
type legalLister struct {
	s    *State
	p    int
	out  []engine.Action
	ints []int
	// own are the seat's rollable dice (spent or live) in id order.
	own  [maxDice]ownDie
	nOwn int
	// live is the seat's live dice by face, lowest id first; every list is
	// nil when the seat has no live die.
	live [numFaces][]int
}

// ownDie is one rollable die of the seat.
type ownDie struct {
	id    int
	face  Face
	spent bool
}

// take returns an empty list with room for n dice.
func (l *legalLister) take(n int) []int {
	if cap(l.ints)-len(l.ints) < n {
		l.ints = make([]int, 0, max(n, 24))
	}
	at := len(l.ints)
	l.ints = l.ints[:at+n]
	return l.ints[at : at : at+n]
}

// indexDice fills l.own and l.live.
func (l *legalLister) indexDice() {
	var count [numFaces]int
	live := 0
	for i, d := range l.s.dice {
		if int(d.Owner) != l.p || d.Status != Live && d.Status != Spent {
			continue
		}
		l.own[l.nOwn] = ownDie{id: i, face: d.Face, spent: d.Status == Spent}
		l.nOwn++
		if d.Status == Live {
			count[d.Face]++
			live++
		}
	}
	if live == 0 {
		return
	}
	for f := range l.live {
		l.live[f] = l.take(count[f])
	}
	for _, d := range l.own[:l.nOwn] {
		if !d.spent {
			l.live[d.face] = append(l.live[d.face], d.id)
		}
	}
}

// rolls lists all rollable dice, all but those showing each face present,
// and only the spent ones (if some are live too).
func (l *legalLister) rolls() {
	s, p := l.s, l.p
	if s.now < s.players[p].nextRollAt || l.nOwn == 0 {
		return
	}
	own := l.own[:l.nOwn]
	nSpent := 0
	for _, d := range own {
		if d.spent {
			nSpent++
		}
	}
	// except is the face left out, NoFace for none, numFaces for every
	// live die.
	variant := func(n int, except Face) {
		if n == 0 {
			return
		}
		ids := l.take(n)
		for _, d := range own {
			if d.spent || except != numFaces && d.face != except {
				ids = append(ids, d.id)
			}
		}
		l.out = append(l.out, Roll{Dice: ids})
	}
	variant(len(own), NoFace)
	for f := range l.live {
		if n := len(l.live[f]); n > 0 {
			variant(len(own)-n, Face(f))
		}
	}
	if nSpent > 0 && nSpent < len(own) {
		variant(nSpent, numFaces)
	}
}

// locked lists up to limit locked dice of seat q, or nil.
func (l *legalLister) locked(q, limit int) []int {
	n := 0
	for _, d := range l.s.dice {
		if int(d.Owner) == q && d.Status == Locked {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	ids := l.take(min(n, limit))
	for i, d := range l.s.dice {
		if int(d.Owner) == q && d.Status == Locked && len(ids) < limit {
			ids = append(ids, i)
		}
	}
	return ids
}

func (l *legalLister) unlocks() {
	s, p := l.s, l.p
	golds := l.live[GoldMask]
	if len(golds) == 0 {
		return
	}
	limit := 2
	if s.holds(p, WeakMask) {
		limit = 1
	}
	c := s.players[p].at
	own := l.locked(p, limit)
	if len(own) > 0 {
		l.out = append(l.out, Unlock{Gold: golds[0], Targets: own})
	}
	for q := range s.players {
		if q == p || s.players[q].at != c {
			continue
		}
		theirs := l.locked(q, limit)
		if len(theirs) == 0 {
			continue
		}
		l.out = append(l.out, Unlock{Gold: golds[0], Targets: theirs})
		if limit == 2 && len(own) > 0 {
			l.out = append(l.out, Unlock{Gold: golds[0], Targets: append(l.take(2), own[0], theirs[0])})
		}
	}
}

// pay finds the seat's canonical payment of need (§4.12): the lowest live
// dice, with double treasures only where dice fall short. ok is false when
// the seat cannot pay. dice is nil when treasures pay everything.
func (l *legalLister) pay(need [numFaces]int, allowTreasures bool) (dice []int, tre []string, ok bool) {
	var fromDice, fromTre [numFaces]int
	total := 0
	for f, n := range need {
		if n == 0 {
			continue
		}
		have := len(l.live[f])
		if have >= n {
			fromDice[f] = n
			total += n
			continue
		}
		if !allowTreasures {
			return nil, nil, false
		}
		doubles := 0
		for _, t := range l.s.players[l.p].treasures {
			if doubleFace(treasures[t].Kind) == Face(f) {
				doubles++
			}
		}
		k := (n - have + 1) / 2
		if k > doubles {
			return nil, nil, false
		}
		fromTre[f] = k
		fromDice[f] = max(n-2*k, 0)
		total += fromDice[f]
	}
	if total > 0 {
		dice = l.take(total)
	}
	for f := range need {
		dice = append(dice, l.live[f][:fromDice[f]]...)
		for _, t := range l.s.players[l.p].treasures {
			if fromTre[f] == 0 {
				break
			}
			if doubleFace(treasures[t].Kind) == Face(f) {
				tre = append(tre, treasures[t].ID)
				fromTre[f]--
			}
		}
	}
	slices.Sort(dice)
	return dice, tre, true
}

// moves lists each connected chamber the seat can pay to enter (dice only,
// or with treasures if dice alone fall short) and each side it can discover
// through.
func (l *legalLister) moves() {
	s, p := l.s, l.p
	if s.holds(p, Trap) {
		return
	}
	c := int(s.players[p].at)
	for _, to := range s.topo.links[c] {
		need := costNeed(tiles[s.chambers[to].tile].Cost)
		if dice, _, ok := l.pay(need, false); ok {
			l.out = append(l.out, Enter{To: s.chamberID(int(to)), Dice: dice})
		} else if dice, tre, ok := l.pay(need, true); ok {
			l.out = append(l.out, Enter{To: s.chamberID(int(to)), Dice: dice, Treasures: tre})
		}
	}
	if advs := l.live[Adventurer]; len(advs) >= 2 {
		for d := North; d <= West; d++ {
			if s.topo.discoverable[c].Has(d) {
				l.out = append(l.out, Discover{Side: d, Dice: advs[:2:2]})
			}
		}
	}
}

// pool lists per tier the commits of all live dice of the symbol (and with
// the matching treasures), each other tier as a retarget, and the
// withdrawal of all own pooled items.
func (l *legalLister) pool() {
	s, p := l.s, l.p
	c := int(s.players[p].at)
	ch := &s.chambers[c]
	t := &tiles[ch.tile]
	if len(t.Tiers) == 0 || ch.activated > 0 {
		return
	}
	dice := l.live[t.Symbol]
	var tre []string
	for _, tr := range s.players[p].treasures {
		if doubleFace(treasures[tr].Kind) == t.Symbol {
			tre = append(tre, treasures[tr].ID)
		}
	}
	for tier := 1; tier <= len(t.Tiers); tier++ {
		if len(dice) > 0 {
			l.out = append(l.out, Commit{Tier: tier, Dice: dice})
		}
		if len(tre) > 0 {
			l.out = append(l.out, Commit{Tier: tier, Dice: dice, Treasures: tre})
		}
		if tier != int(ch.target) {
			l.out = append(l.out, Retarget{Tier: tier})
		}
	}
	nDice := 0
	var mineT []string
	for _, it := range ch.pool {
		if int(it.owner) != p {
			continue
		}
		if it.die >= 0 {
			nDice++
		} else {
			mineT = append(mineT, treasures[it.treasure].ID)
		}
	}
	var mine []int
	if nDice > 0 {
		mine = l.take(nDice)
		for _, it := range ch.pool {
			if int(it.owner) == p && it.die >= 0 {
				mine = append(mine, int(it.die))
			}
		}
	}
	if len(mine) > 0 || len(mineT) > 0 {
		l.out = append(l.out, Withdraw{Dice: mine, Treasures: mineT})
	}
}

// escape lists the canonical payment of the escape, in the exit.
func (l *legalLister) escape() {
	s := l.s
	if s.players[l.p].at != s.where[tileExit] {
		return
	}
	var need [numFaces]int
	need[Key] = s.escapeCost()
	if dice, tre, ok := l.pay(need, true); ok {
		l.out = append(l.out, Escape{Dice: dice, Treasures: tre})
	}
}

// fate lists each chamber holding gems, for a seat with a locked die.
func (l *legalLister) fate() {
	s := l.s
	if s.opt.difficulty == "expert" {
		return
	}
	locked := false
	for _, d := range s.dice {
		if int(d.Owner) == l.p && d.Status == Locked {
			locked = true
			break
		}
	}
	if !locked {
		return
	}
	for c := range s.chambers {
		if s.chambers[c].gems > 0 {
			l.out = append(l.out, fateActions[s.chambers[c].tile])
		}
	}
}

// treasures lists the claim of a face-down treasure here and the uses of
// the seat's treasures: healing; each teleport target; each passage pair.
func (l *legalLister) treasures() {
	s, p := l.s, l.p
	c := int(s.players[p].at)
	if s.chambers[c].chest >= 0 {
		if keys := l.live[Key]; len(keys) >= 2 {
			l.out = append(l.out, ClaimTreasure{Dice: keys[:2:2]})
		}
	}
	var seen [6]bool
	for _, t := range s.players[p].treasures {
		k := treasures[t].Kind
		if seen[k] {
			continue
		}
		seen[k] = true
		id := treasures[t].ID
		switch k {
		case HealingMask:
			l.out = append(l.out, UseTreasure{Treasure: id})
		case Teleport:
			if s.holds(p, Trap) {
				continue
			}
			for to := range s.chambers {
				if to != c && s.occupiedByOther(to, p) {
					l.out = append(l.out, UseTreasure{Treasure: id, To: s.chamberID(to)})
				}
			}
		case SecretPassage:
			for a := range s.chambers {
				for b := a + 1; b < len(s.chambers); b++ {
					if s.adjacent(a, b) && !s.connected(a, b) {
						l.out = append(l.out, UseTreasure{Treasure: id, A: s.chamberID(a), B: s.chamberID(b)})
					}
				}
			}
		}
	}
}

// lifts lists the canonical payment of each held curse's lift.
func (l *legalLister) lifts() {
	for _, card := range l.s.players[l.p].curses {
		var need [numFaces]int
		for _, f := range curses[card].Lift {
			need[f]++
		}
		if dice, _, ok := l.pay(need, false); ok {
			l.out = append(l.out, LiftCurse{Card: curses[card].ID, Dice: dice})
		}
	}
}
