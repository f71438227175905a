package temple

import (
	"math/rand/v2"
	"slices"

	"sortie/bot"
	"sortie/engine"
)

// Policies returns the temple's own bot policies, one per level: the
// co-operative heuristic at the easy reaction level ("easy"), at the normal
// one ("heuristic", the medium level), and the hard level ("hard").
func (Game) Policies() []bot.Policy { return []bot.Policy{Easy(), Heuristic(), Hard()} }

// Easy returns the policy "easy", the easy level of §8.3: the heuristic
// reacting at the easy level's pace (1 500 – 2 500 ms).
func Easy() bot.Policy {
	p := HeuristicAt("easy").(heuristicPolicy)
	p.name = "easy"
	return p
}

// Hard returns the policy "hard": the heuristic with the refinements of the
// hard level (a gold mask kept in reserve, fate provoked rather than a
// deadlock, pooled dice left in the pool while a companion can help, one
// gold mask per locked die; see README), reacting at the hard level of §8.3.
func Hard() bot.Policy { return hardAt("hard") }

// hardAt is the hard policy at a reaction level.
func hardAt(level string) bot.Policy {
	p := HeuristicAt(level).(heuristicPolicy)
	p.name, p.hard = "hard", true
	return p
}

// Heuristic returns the co-operative heuristic policy "heuristic", which
// reacts at the normal level of §8.3.
func Heuristic() bot.Policy { return HeuristicAt("normal") }

// HeuristicAt returns the heuristic policy at a reaction level of §8.3:
// "easy", "normal" or "hard". Its name is "heuristic" at normal and
// "heuristic_<level>" otherwise.
func HeuristicAt(level string) bot.Policy {
	for _, r := range reactions {
		if r.Level == level {
			return heuristicPolicy{react: r}
		}
	}
	panic("temple: no bot level " + level)
}

// heuristicPolicy makes heuristic bots: the medium heuristic, or with hard
// set the hard level's.
type heuristicPolicy struct {
	react Reaction
	name  string // "" for heuristic[_level]
	hard  bool   // the refinements of the hard policy
}

func (p heuristicPolicy) Name() string {
	switch {
	case p.name != "":
		return p.name
	case p.react.Level == "normal":
		return "heuristic"
	}
	return "heuristic_" + p.react.Level
}

func (p heuristicPolicy) NewBot(_ engine.Game, s bot.Seating) bot.Bot {
	return &heuristicBot{
		seat:    int(s.Seat),
		rng:     rand.New(rand.NewPCG(s.Seed, engine.Mix(s.Seed, 7))),
		react:   p.react,
		hard:    p.hard,
		aloneAt: -1,
	}
}

// heuristicBot plays one adventurer co-operatively (§8.3): it explores,
// gathers with others in gem chambers and pools dice toward the tier the
// present adventurers can reach, runs back to the start chamber before each
// door slam, heads for the exit when it can pay the keys, escapes and gives
// its die to whoever has the fewest. It sees only its seat's view. With hard
// set it plays the hard level's refinements.
type heuristicBot struct {
	seat  int
	rng   *rand.Rand
	react Reaction
	hard  bool
	// stuckSince is when the bot last found all its dice locked with
	// nothing pooled (hard level), 0 when it is not.
	stuckSince engine.Millis
	// alone is when the bot started waiting alone at a big gem pool, and
	// where (-1: not waiting).
	aloneSince engine.Millis
	aloneAt    int
	k          knowledge // reused from one decision to the next
}

// reaction draws a human-like reaction time (§8.3, D45).
func (b *heuristicBot) reaction() engine.Millis {
	d := b.react.Min + engine.Millis(b.rng.Int64N(int64(b.react.Max-b.react.Min)+1))
	return max(d, reactionFloor)
}

// ViewOnly tells drivers that the bot never reads its legal actions (see
// bot.ViewOnly): listing them on every decision is a fifth of a simulated
// game's time.
func (b *heuristicBot) ViewOnly() {}

// Decide picks the bot's next action from its view.
func (b *heuristicBot) Decide(v engine.View, _ []engine.Action, now engine.Millis) bot.Decision {
	view, ok := v.(*View)
	if !ok || view.Over {
		return bot.Decision{Delay: b.reaction()}
	}
	k := &b.k
	k.read(view, b.seat)
	if k.rollable() > 0 || k.pooled > 0 {
		b.stuckSince = 0
	}
	k.keepGold = 0
	if b.hard && k.owned >= 3 && (k.here != k.exit || view.EscapeCost < k.escapeReach()) {
		// A gold mask kept frees the next black masks at once: a team
		// whose dice all lock up loses. Not in the exit when every die
		// must show a key.
		k.keepGold = 1
	}
	act, roll, wait := b.choose(k, now)
	if roll != nil {
		d := b.reaction()
		if ready := max(k.me.NextRollAt, k.safeRollAt()); now < ready {
			// The roll is decided; it goes out as soon as the cooldown
			// allows, at the reaction floor (the game accepts it then).
			d = ready - now + reactionFloor
		}
		return bot.Decision{Action: Roll{Dice: slices.Clone(roll)}, Delay: d}
	}
	if act == nil {
		if wait <= 0 {
			wait = b.reaction()
		}
		return bot.Decision{Delay: wait}
	}
	return bot.Decision{Action: detach(act), Delay: b.reaction()}
}

// detach copies the dice lists of an action, which may alias the bot's
// reused buffers: the match keeps actions in its log.
func detach(a engine.Action) engine.Action {
	switch a := a.(type) {
	case Unlock:
		a.Targets = slices.Clone(a.Targets)
		return a
	case Enter:
		a.Dice, a.Treasures = slices.Clone(a.Dice), slices.Clone(a.Treasures)
		return a
	case Discover:
		a.Dice = slices.Clone(a.Dice)
		return a
	case Commit:
		a.Dice, a.Treasures = slices.Clone(a.Dice), slices.Clone(a.Treasures)
		return a
	case Withdraw:
		a.Dice, a.Treasures = slices.Clone(a.Dice), slices.Clone(a.Treasures)
		return a
	case Escape:
		a.Dice, a.Treasures = slices.Clone(a.Dice), slices.Clone(a.Treasures)
		return a
	case ClaimTreasure:
		a.Dice = slices.Clone(a.Dice)
		return a
	case LiftCurse:
		a.Dice = slices.Clone(a.Dice)
		return a
	}
	return a
}

// knowledge is the bot's reading of its view.
type knowledge struct {
	v       *View
	seat    int
	me      *SeatView
	here    int           // chamber index, -1 once escaped
	dist    [numTiles]int // hops from here, -1 unreachable
	prev    [numTiles]int // BFS parent
	start   int
	exit    int
	live    [numFaces][]int // own live dice by face
	locked  []int
	spent   []int
	owned   int
	pooled  int                // own dice in a pool
	doubles [numFaces][]string // own double treasures by symbol
	// others and othersDice count, per chamber, the inside adventurers
	// other than the bot and the dice they own.
	others     [maxChambers]int
	othersDice [maxChambers]int
	// bfsFrom and bfsOf say where and on which chambers dist and prev
	// were measured: views share their chambers while nothing in them
	// changes, so an unchanged pair means an unchanged temple. bfsOf
	// keeps those chambers alive, so no other array can take its address.
	bfsFrom int
	bfsOf   *ChamberView
	bfsLen  int
	rollBuf []int // rollAllBut's result, reused
	// keepGold is how many gold masks rollAllBut keeps whatever it is
	// asked (the hard bot's insurance against black masks).
	keepGold int
}

// read fills k from a view, reusing its buffers.
func (k *knowledge) read(v *View, seat int) {
	k.v, k.seat, k.me, k.here, k.start, k.exit = v, seat, &v.Seats[seat], v.Seats[seat].Chamber, 0, -1
	k.owned, k.pooled = 0, 0
	k.locked, k.spent = k.locked[:0], k.spent[:0]
	for f := range k.live {
		k.live[f] = k.live[f][:0]
		k.doubles[f] = k.doubles[f][:0]
	}
	for i := range v.Chambers {
		if v.Chambers[i].Kind == ExitTile {
			k.exit = i
		}
	}
	for _, d := range v.Dice {
		if int(d.Owner) != seat {
			continue
		}
		switch d.Status {
		case Live:
			k.live[d.Face] = append(k.live[d.Face], int(d.ID))
			k.owned++
		case Locked:
			k.locked = append(k.locked, int(d.ID))
			k.owned++
		case Spent:
			k.spent = append(k.spent, int(d.ID))
			k.owned++
		case Pooled:
			k.pooled++
			k.owned++
		case OnCard:
			k.owned++
		}
	}
	for _, t := range k.me.Treasures {
		if f := doubleFace(treasures[treasureIndex(t)].Kind); f != NoFace {
			k.doubles[f] = append(k.doubles[f], t)
		}
	}
	k.others, k.othersDice = [maxChambers]int{}, [maxChambers]int{}
	for i, s := range v.Seats {
		if i != seat && s.Chamber >= 0 {
			k.others[s.Chamber]++
			k.othersDice[s.Chamber] += s.Dice
		}
	}
	if k.here >= 0 && len(v.Chambers) > 0 {
		if k.bfsFrom != k.here || k.bfsOf != &v.Chambers[0] || k.bfsLen != len(v.Chambers) {
			k.bfs()
			k.bfsFrom, k.bfsOf, k.bfsLen = k.here, &v.Chambers[0], len(v.Chambers)
		}
	}
}

// bfs measures hops from the bot's chamber over the connections.
func (k *knowledge) bfs() {
	for i := range k.dist {
		k.dist[i], k.prev[i] = -1, -1
	}
	k.dist[k.here] = 0
	var queue [numTiles]int
	queue[0] = k.here
	for head, tail := 0, 1; head < tail; head++ {
		c := queue[head]
		for _, o8 := range k.v.Chambers[c].Links {
			if o := int(o8); k.dist[o] < 0 {
				k.dist[o] = k.dist[c] + 1
				k.prev[o] = c
				queue[tail] = o
				tail++
			}
		}
	}
}

// nextHop is the first chamber on the way to t.
func (k *knowledge) nextHop(t int) int {
	for k.prev[t] != k.here && k.prev[t] >= 0 {
		t = k.prev[t]
	}
	return t
}

func (k *knowledge) holds(kind CurseKind) bool {
	for _, c := range k.me.Curses {
		if curses[curseIndex(c)].Kind == kind {
			return true
		}
	}
	return false
}

// safeRollAt is when a roll is no longer rushed under lost_dice (§4.9.3).
func (k *knowledge) safeRollAt() engine.Millis {
	if !k.holds(LostDice) || k.me.LastRollAt == 0 {
		return 0
	}
	return k.me.LastRollAt + lostDiceRushFactor*k.v.RollCooldown
}

// pay finds the bot's payment of need with live dice and, if allowed,
// double treasures (as canonicalPay does on the state).
func (k *knowledge) pay(need [numFaces]int, allowTreasures bool) ([]int, []string, bool) {
	var dice []int
	var tre []string
	for f, n := range need {
		if n == 0 {
			continue
		}
		have := k.live[f]
		if len(have) >= n {
			dice = append(dice, have[:n]...)
			continue
		}
		if !allowTreasures {
			return nil, nil, false
		}
		t := (n - len(have) + 1) / 2
		if t > len(k.doubles[f]) {
			return nil, nil, false
		}
		tre = append(tre, k.doubles[f][:t]...)
		if m := n - 2*t; m > 0 {
			dice = append(dice, have[:m]...)
		}
	}
	slices.Sort(dice)
	return dice, tre, true
}

// rollAllBut lists the rollable dice (spent, or live and not kept), in a
// buffer the next call reuses.
func (k *knowledge) rollAllBut(keep [numFaces]int) []int {
	keep[GoldMask] = max(keep[GoldMask], k.keepGold)
	out := append(k.rollBuf[:0], k.spent...)
	for f := range k.live {
		ids := k.live[f]
		if n := min(keep[f], len(ids)); n < len(ids) {
			out = append(out, ids[n:]...)
		}
	}
	slices.Sort(out)
	k.rollBuf = out
	return out
}

// othersIn counts inside adventurers other than the bot in chamber c, and
// the dice they own.
func (k *knowledge) othersIn(c int) (n, dice int) {
	return k.others[c], k.othersDice[c]
}

// margin is how long before a door slam the bot heads back from d hops
// away.
func margin(d int) engine.Millis { return 6_000 + 6_500*engine.Millis(d) }

// choose returns an action, or dice to roll, or how long to wait.
func (b *heuristicBot) choose(k *knowledge, now engine.Millis) (engine.Action, []int, engine.Millis) {
	v := k.v
	if k.here < 0 {
		if k.me.Gifting {
			return GiveDie{To: b.receiver(k)}, nil, 0
		}
		return nil, nil, 5_000
	}
	if k.owned == 0 {
		return nil, nil, 2_000
	}
	if a := b.freeDice(k, now); a != nil {
		return a, nil, 0
	}
	if a := b.liftCurses(k); a != nil {
		return a, nil, 0
	}
	here := &v.Chambers[k.here]
	// Claim a treasure lying here with two spare keys.
	if here.FaceDownTreasure && len(k.live[Key]) >= 2 && k.here != k.exit {
		return ClaimTreasure{Dice: k.live[Key][:2]}, nil, 0
	}
	target := b.goal(k, now)
	var keep [numFaces]int
	if k.holds(Trap) {
		// Trapped: gather the symbols of the trap's lift.
		for _, c := range k.me.Curses {
			if cd := curses[curseIndex(c)]; cd.Kind == Trap {
				for _, f := range cd.Lift {
					keep[f]++
				}
			}
		}
		if target == k.here && here.Kind == ExitTile {
			a, kp := b.atExit(k)
			if a != nil {
				return a, nil, 0
			}
			for f := range kp {
				keep[f] = max(keep[f], kp[f])
			}
		}
		return nil, b.rollOrNil(k, keep), 0
	}
	if target == k.here {
		switch {
		case here.Kind == StartTile && target == k.start && v.Clock.SlamLeft > 0 && v.Clock.SlamLeft <= margin(1)+4_000:
			// Safe in the start chamber: wait for the slam, dice ready
			// for what comes after.
			keep[Adventurer] = 2
			if r := k.rollAllBut(keep); len(r) > 0 && len(k.spent) > 0 {
				return nil, r, 0
			}
			return nil, nil, min(v.Clock.SlamLeft+1, 3_000)
		case here.Kind == ExitTile:
			a, kp := b.atExit(k)
			if a != nil {
				return a, nil, 0
			}
			return nil, b.rollOrNil(k, kp), 0
		case len(here.Tiers) > 0 && here.Activated == 0:
			return b.pool(k, now)
		case here.Discoverable != 0:
			if advs := k.live[Adventurer]; len(advs) >= 2 {
				return Discover{Side: b.pickSide(here.Discoverable), Dice: advs[:2]}, nil, 0
			}
			keep[Adventurer] = 2
			return nil, b.rollOrNil(k, keep), 0
		}
		return nil, nil, 0
	}
	hop := k.nextHop(target)
	need := costNeed(v.Chambers[hop].Cost)
	if dice, tre, ok := k.pay(need, true); ok {
		return Enter{To: v.Chambers[hop].ID, Dice: dice, Treasures: tre}, nil, 0
	}
	return nil, b.rollOrNil(k, need), 0
}

// pickSide picks one side of a set at random.
func (b *heuristicBot) pickSide(set SideSet) Side {
	var sides [4]Side
	n := 0
	for d := North; d <= West; d++ {
		if set.Has(d) {
			sides[n] = d
			n++
		}
	}
	return sides[b.rng.IntN(n)]
}

// rollOrNil returns the dice to roll keeping keep, or nil. When every
// rollable die is kept yet black masks lock the rest, it rolls them all to
// fish for a gold mask rather than wait forever.
func (b *heuristicBot) rollOrNil(k *knowledge, keep [numFaces]int) []int {
	if r := k.rollAllBut(keep); len(r) > 0 {
		return r
	}
	if len(k.locked) > 0 {
		if r := k.rollAllBut([numFaces]int{}); len(r) > 0 {
			return r
		}
	}
	return nil
}

// freeDice spends gold masks and, when stuck, treasures or fate.
func (b *heuristicBot) freeDice(k *knowledge, now engine.Millis) engine.Action {
	v := k.v
	limit := 2
	if k.holds(WeakMask) {
		limit = 1
	}
	if golds := k.live[GoldMask]; len(golds) > 0 {
		targets := slices.Clone(k.locked[:min(limit, len(k.locked))])
		if len(targets) < limit {
			// Help the adventurer here with the most locked dice.
			best, bestIDs := -1, []int(nil)
			for q, s := range v.Seats {
				if q == k.seat || s.Chamber != k.here || b.hard && b.otherFrees(k, q) {
					continue
				}
				var ids []int
				for _, d := range v.Dice {
					if int(d.Owner) == q && d.Status == Locked {
						ids = append(ids, int(d.ID))
					}
				}
				if len(ids) > len(bestIDs) {
					best, bestIDs = q, ids
				}
			}
			if best >= 0 {
				targets = append(targets, bestIDs[:min(limit-len(targets), len(bestIDs))]...)
			}
		}
		if len(targets) > 0 {
			return Unlock{Gold: golds[0], Targets: targets}
		}
	}
	if len(k.locked) == 0 {
		return nil
	}
	rollable := k.rollable()
	for _, t := range k.me.Treasures {
		if treasures[treasureIndex(t)].Kind == HealingMask && (len(k.locked) >= 2 || rollable == 0) {
			return UseTreasure{Treasure: t}
		}
	}
	// Provoking fate puts a gem back: free while the side supply has room,
	// otherwise one more key for everybody. Only when stuck.
	stuck := rollable == 0 && k.pooled == 0
	if v.Difficulty != "expert" && ((v.Side < sideSupply && len(k.locked) >= 2) || stuck) {
		// A helper is a companion here who owns a die; for the hard bot,
		// one who can roll it, hence roll a gold mask.
		helper := false
		for q, s := range v.Seats {
			if q != k.seat && s.Chamber == k.here && s.Dice > 0 && (!b.hard || b.canHelp(k, q)) {
				helper = true
			}
		}
		if b.hard && stuck {
			// Wait a little for a helper's gold mask, not forever.
			if b.stuckSince == 0 {
				b.stuckSince = max(now, 1)
			}
			if now-b.stuckSince > hardStuckWait {
				helper = false
			}
		}
		if !helper || v.Side < sideSupply {
			for _, c := range v.Chambers {
				if c.Gems > 0 {
					return ProvokeFate{Chamber: c.ID}
				}
			}
		}
	}
	return nil
}

// hardStuckWait is how long the hard bot, all its dice locked, waits for
// a helper's gold mask before it provokes fate.
const hardStuckWait engine.Millis = 6_000

// helperHere reports whether another adventurer in the bot's chamber can
// roll a die, hence a gold mask.
func (b *heuristicBot) helperHere(k *knowledge) bool {
	for q, s := range k.v.Seats {
		if q != k.seat && s.Chamber == k.here && b.canHelp(k, q) {
			return true
		}
	}
	return false
}

// otherFrees reports whether the hard bot leaves seat q's locked dice to
// someone else: q itself, if it shows a gold mask, or a companion in the
// chamber with a lower seat that shows one. Two masks on the same die
// waste a reaction: the second is refused.
func (b *heuristicBot) otherFrees(k *knowledge, q int) bool {
	if b.holdsGold(k, q) {
		return true
	}
	for r, s := range k.v.Seats {
		if r < k.seat && r != q && s.Chamber == k.here && b.holdsGold(k, r) {
			return true
		}
	}
	return false
}

// holdsGold reports whether seat q shows a live gold mask.
func (b *heuristicBot) holdsGold(k *knowledge, q int) bool {
	for _, d := range k.v.Dice {
		if int(d.Owner) == q && d.Status == Live && d.Face == GoldMask {
			return true
		}
	}
	return false
}

// canHelp reports whether seat q can roll a die, hence a gold mask.
func (b *heuristicBot) canHelp(k *knowledge, q int) bool {
	for _, d := range k.v.Dice {
		if int(d.Owner) == q && (d.Status == Live || d.Status == Spent) {
			return true
		}
	}
	return false
}

// liftCurses lifts a curse whose symbols the bot shows (silence is
// harmless to bots and never lifted).
func (b *heuristicBot) liftCurses(k *knowledge) engine.Action {
	for _, c := range k.me.Curses {
		cd := curses[curseIndex(c)]
		if cd.Kind == Silence {
			continue
		}
		var need [numFaces]int
		for _, f := range cd.Lift {
			need[f]++
		}
		if dice, _, ok := k.pay(need, false); ok {
			return LiftCurse{Card: c, Dice: dice}
		}
	}
	return nil
}

// receiver is the inside adventurer with the fewest dice, first after the
// bot in seat order.
func (b *heuristicBot) receiver(k *knowledge) int {
	n := len(k.v.Seats)
	best, bestN := -1, 1<<30
	for i := 1; i < n; i++ {
		q := (k.seat + i) % n
		if s := k.v.Seats[q]; !s.Escaped && s.Dice < bestN {
			best, bestN = q, s.Dice
		}
	}
	return best
}

// atExit escapes if the keys are there, or says which keys to keep.
func (b *heuristicBot) atExit(k *knowledge) (engine.Action, [numFaces]int) {
	var need [numFaces]int
	need[Key] = k.v.EscapeCost
	if dice, tre, ok := k.pay(need, true); ok {
		a := Escape{Dice: dice, Treasures: tre}
		if r := b.receiver(k); r >= 0 && len(k.v.Seats) > 1 {
			a.GiveTo = &r
		}
		return a, need
	}
	return nil, need
}

// rollable counts the bot's dice it may roll (spent or live).
func (k *knowledge) rollable() int {
	n := len(k.spent)
	for f := range k.live {
		n += len(k.live[f])
	}
	return n
}

// escapeReach is how many keys the bot can hope to show.
func (k *knowledge) escapeReach() int { return k.owned + 2*len(k.doubles[Key]) }

// goal picks the chamber the bot works toward now.
func (b *heuristicBot) goal(k *knowledge, now engine.Millis) int {
	v := k.v
	clock := v.Clock
	if clock.SlamLeft > 0 && k.dist[k.start] >= 0 && clock.SlamLeft <= margin(k.dist[k.start])+4_000 {
		return k.start
	}
	lastSlamGone := clock.SlamLeft == 0
	if k.exit >= 0 && k.dist[k.exit] >= 0 {
		d := k.dist[k.exit]
		late := lastSlamGone && clock.TimeLeft <= 30_000+margin(d)+engine.Millis(v.EscapeCost)*6_000
		slack := 2
		if lastSlamGone {
			slack = 1
		}
		if late || v.EscapeCost <= k.escapeReach()-slack || (lastSlamGone && !b.gemsLeft(k)) {
			return k.exit
		}
	}
	best, bestScore := -1, -1.0
	for c := range v.Chambers {
		d := k.dist[c]
		if d < 0 {
			continue
		}
		ch := &v.Chambers[c]
		val := 0.0
		if len(ch.Tiers) > 0 && ch.Activated == 0 && v.Reserve+v.Side > 0 {
			others, dice := k.othersIn(c)
			pow := dice + k.owned
			t := tierFor(ch.Tiers, pow)
			val = 4 * float64(ch.Tiers[max(t, 1)-1].Gems)
			if others > 0 {
				val += 3
			}
			if len(ch.Pool) > 0 {
				val += 2
			}
		}
		if ch.Discoverable != 0 {
			e := 3.0
			if k.exit < 0 {
				e = 5
			}
			val = max(val, e)
		}
		if val == 0 {
			continue
		}
		score := val/(float64(d)+1.5) + b.rng.Float64()*0.3
		if score > bestScore {
			best, bestScore = c, score
		}
	}
	if best < 0 {
		if k.exit >= 0 && k.dist[k.exit] >= 0 {
			return k.exit
		}
		return k.here
	}
	return best
}

// gemsLeft reports whether a reachable chamber still has gems to activate.
func (b *heuristicBot) gemsLeft(k *knowledge) bool {
	if k.v.Reserve == 0 {
		return false
	}
	for c, ch := range k.v.Chambers {
		if len(ch.Tiers) > 0 && ch.Activated == 0 && k.dist[c] >= 0 {
			return true
		}
	}
	return false
}

// tierFor is the highest tier that dice dice can be expected to reach
// together, 0 if none.
func tierFor(tiers []Tier, dice int) int {
	t := 0
	for i, tr := range tiers {
		if tr.Cost <= dice-(dice+4)/5 {
			t = i + 1
		}
	}
	return t
}

// pool plays the gem pool of the bot's chamber (§4.4).
func (b *heuristicBot) pool(k *knowledge, now engine.Millis) (engine.Action, []int, engine.Millis) {
	v := k.v
	ch := &v.Chambers[k.here]
	others, dice := k.othersIn(k.here)
	pow := dice + k.owned
	want := max(tierFor(ch.Tiers, pow), 1)
	mine := k.live[ch.Symbol]
	inside := 0
	for _, s := range v.Seats {
		if !s.Escaped {
			inside++
		}
	}
	// Alone at a big pool with company elsewhere: aim higher for a while
	// and call them.
	if others == 0 && len(ch.Tiers) > 1 && inside > 1 {
		if b.aloneAt != k.here {
			b.aloneAt, b.aloneSince = k.here, now
		}
		if now-b.aloneSince < 25_000 {
			want = max(want, 2)
		}
	} else {
		b.aloneAt = -1
	}
	// A slam is near: take what the pool can pay now.
	if v.Clock.SlamLeft > 0 && v.Clock.SlamLeft <= margin(k.dist[k.start])+10_000 {
		have := int(ch.PoolValue) + len(mine)
		for t := len(ch.Tiers); t >= 1; t-- {
			if ch.Tiers[t-1].Cost <= have {
				want = t
				break
			}
		}
	}
	// Black masks lock everything else: take the pooled dice back and roll
	// for a gold mask.
	spare := len(k.spent)
	for f := range k.live {
		if Face(f) != ch.Symbol {
			spare += len(k.live[f])
		}
	}
	if len(k.locked) > 0 && spare == 0 && !(b.hard && b.helperHere(k)) {
		var back []int
		for _, it := range ch.Pool {
			if it.Seat == k.seat && it.Die != nil {
				back = append(back, *it.Die)
			}
		}
		if len(back) > 0 {
			return Withdraw{Dice: back}, nil, 0
		}
		if len(mine) > 0 {
			return nil, slices.Clone(mine), 0
		}
	}
	if len(mine) > 0 {
		return Commit{Tier: want, Dice: mine}, nil, 0
	}
	if int(ch.Target) != want {
		return Retarget{Tier: want}, nil, 0
	}
	if r := k.rollAllBut([numFaces]int{}); len(r) > 0 {
		return nil, r, 0
	}
	return nil, nil, 0
}
