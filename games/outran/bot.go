package outran

import (
	"math"
	"math/rand/v2"
	"slices"

	"sortie/bot"
	"sortie/engine"
)

// Bots (§8.4, D42). In the run a bot is a model of a person: it takes a time
// that grows with the number of tokens to lay and the cards that bend them,
// and sometimes forgets a card or swaps two tokens; how fast and how careful
// depends on its level. Outside the run it follows the reference's simple
// heuristics. A bot sees only its seat's view.

// Policy is one bot level of §8.4 as a bot.Policy.
type Policy struct {
	name  string
	level int // index in botLevels
}

// The levels. Heuristic is the reference's "normal" level, under the name
// every game gives its heuristic policy.
var (
	Easy      = Policy{"easy", 0}
	Heuristic = Policy{"heuristic", 1}
	Hard      = Policy{"hard", 2}
	Expert    = Policy{"expert", 3}
)

// Policies returns the bot levels: easy, heuristic (normal), hard, expert.
func (Game) Policies() []bot.Policy { return []bot.Policy{Easy, Heuristic, Hard, Expert} }

// Name returns the policy's name.
func (p Policy) Name() string { return p.name }

// NewBot returns a bot for one seat, with its own random stream from s.Seed.
func (p Policy) NewBot(_ engine.Game, s bot.Seating) bot.Bot {
	return &seatBot{
		seat:      s.Seat,
		lv:        &botLevels[p.level],
		rng:       rand.New(rand.NewPCG(s.Seed, engine.Mix(s.Seed, 0xb07))),
		planRound: -1,
		turnRound: -1,
	}
}

// seatBot plays one seat.
type seatBot struct {
	seat engine.Seat
	lv   *botLevel
	rng  *rand.Rand

	// The run's plan, made once per round so that asking again gives the
	// same answer at the same instant.
	planRound int
	planAt    engine.Millis
	planCards []Token

	// The interference turn: cards already considered this round.
	turnRound  int
	considered uint64
	toPlay     uint64 // easy: cards it decided to play
}

// Decide picks the seat's next action.
func (b *seatBot) Decide(ev engine.View, legal []engine.Action, now engine.Millis) bot.Decision {
	v, ok := ev.(*View)
	if !ok {
		if vv, ok2 := ev.(View); ok2 {
			v = &vv
		}
	}
	if v != nil && int(b.seat) < len(v.Seats) {
		switch v.Phase {
		case "run":
			if !v.Seats[b.seat].Submitted && v.Path != nil {
				b.plan(v)
				return bot.Decision{Action: Submit{Cards: slices.Clone(b.planCards)}, Delay: max(0, b.planAt-now)}
			}
			if slices.ContainsFunc(legal, func(a engine.Action) bool { return a.Kind() == "vote_stop" }) {
				return bot.Decision{Action: VoteStop{}, Delay: max(botThinkMS, v.RevealAt+votePatience(v.Round)-now)}
			}
		case "place_choice":
			return bot.Decision{Action: ChoosePlace{Leftmost: b.goLeft(v)}, Delay: botThinkMS}
		case "infect_choice":
			if a := b.infectWhom(v, legal); a != nil {
				return bot.Decision{Action: a, Delay: botThinkMS}
			}
		case "interference_turn":
			return bot.Decision{Action: b.interfere(v, legal), Delay: botThinkMS}
		}
	}
	return bot.Decision{Action: legal[0], Delay: botThinkMS}
}

// ---- The run ----

// votePatience is how long after the reveal a bot waits before it votes to
// stop a run: long enough for a person to read the card and lay their
// arrows, and longer in the first round, when the cards are new to everyone.
// A bot that voted at the first instant the rules allow (§8.4) stopped the
// first run before a person had read the card. Bot-only games never wait
// for it: a run ends when everyone has finished.
func votePatience(round int) engine.Millis {
	if round <= 1 {
		return 60_000
	}
	return 30_000
}

// botAnswer is the list a bot aims for (§8.4): [express] when an Express
// shortcut applies; otherwise the canonical answer, skipping the first item
// left after step 1 when a Shortcut applies, and ending with the antidote on
// a Zombie card with the icon when the bot is infected.
func botAnswer(card []Token, m mods, antidote bool) []Token {
	if m.Express {
		return []Token{Express}
	}
	skip := -1
	if m.Shortcut {
		skip = 0
	}
	l := arrange(nil, card, m, skip)
	if antidote {
		l = append(l, Antidote)
	}
	return l
}

// changers returns the applying cards that change the answer to this card:
// the m of §8.4, as the mods without each of them.
func changers(card []Token, m mods) []mods {
	if m.Express {
		return nil
	}
	var out []mods
	if m.NotThisWay != noToken && slices.Contains(card, m.NotThisWay) {
		w := m
		w.NotThisWay = noToken
		out = append(out, w)
	}
	if m.SwapA != noToken && (slices.Contains(card, m.SwapA) || slices.Contains(card, m.SwapB)) {
		w := m
		w.SwapA, w.SwapB = noToken, noToken
		out = append(out, w)
	}
	if m.Reorder != kindCount {
		w := m
		w.Reorder = kindCount
		out = append(out, w)
	}
	if m.Detour > 0 {
		w := m
		w.Detour = 0
		out = append(out, w)
	}
	return out
}

// layTime is T of §8.4 for n tokens and m bending cards, at pace f (1:
// the level's median pace, 1.2: a fifth slower).
func layTime(lv *botLevel, n, m int, f float64) engine.Millis {
	return engine.Millis(math.Round((lv.ReadMS + float64(n)*lv.CardMS + float64(m)*lv.ModMS) * f))
}

// paceOf draws the round's pace of a bot whose level has spread s (O15):
// e^(s·z − s²/2), z standard normal from the bot's own stream, so that the
// level's mean time stays §8.4's T; z is kept within −2 and +3 standard
// deviations: no round absurdly quick for a person's hands, none that
// takes a whole run.
func paceOf(r *rand.Rand, s float64) float64 {
	z := max(-2, min(3, r.NormFloat64()))
	return math.Exp(s*z - s*s/2)
}

// plan makes the run's plan once per round: what to lay and when.
func (b *seatBot) plan(v *View) {
	if b.planRound == v.Round {
		return
	}
	b.planRound = v.Round
	card := v.Path.Symbols
	applying := v.Seats[b.seat].Front
	if v.Monster == "vampire" {
		applying = v.Centre
	}
	m := modsOfCards(applying)
	zombie := v.Monster == "zombie"
	antidote := zombie && v.Path.Antidote && v.Seats[b.seat].Infected
	answer := botAnswer(card, m, antidote)
	bend := changers(card, m)
	b.planAt = v.RevealAt + layTime(b.lv, len(answer), len(bend), paceOf(b.rng, b.lv.Spread))

	accepted := acceptedLists(card, m, zombie && v.Path.Antidote)
	mistake := false
	if len(bend) > 0 && b.rng.Float64() < 1-math.Pow(1-b.lv.ModErr, float64(len(bend))) {
		answer = botAnswer(card, bend[b.rng.IntN(len(bend))], antidote) // forgets one card
		mistake = true
	} else if n := len(answer); n >= 2 && b.rng.Float64() < 1-math.Pow(1-b.lv.CardErr, float64(n)) {
		i := b.rng.IntN(n - 1)
		answer[i], answer[i+1] = answer[i+1], answer[i]
		mistake = true
	}
	if mistake && isAccepted(answer, accepted) {
		answer = answer[:len(answer)-1]
		if isAccepted(answer, accepted) {
			answer = []Token{}
		}
	}
	b.planCards = answer
}

// ---- Choices ----

// goLeft is the last correct seat's choice (§8.4): on Bear and Dragon, go
// left when it has at least as many hindrances in front as the steps it would
// give up; on Zombie, only when already infected and giving up at most one
// step.
func (b *seatBot) goLeft(v *View) bool {
	me := &v.Seats[b.seat]
	if v.Choice == nil {
		return false
	}
	lost := v.Board.Values[me.Position] - v.Board.Values[v.Choice.Position]
	applying := me.Front
	if v.Monster == "vampire" {
		applying = v.Centre
	}
	if modsOfCards(applying).Boost {
		lost *= 2
	}
	switch v.Monster {
	case "bear", "dragon":
		h := 0
		for _, c := range me.Front {
			if isHindrance(c) {
				h++
			}
		}
		return h >= lost
	case "zombie":
		return me.Infected && lost <= 1
	}
	return false
}

// infectWhom picks the eligible neighbour with the higher progress (ties:
// the higher position).
func (b *seatBot) infectWhom(v *View, legal []engine.Action) engine.Action {
	var best engine.Action
	bp, bpos := -1, -1
	for _, a := range legal {
		in, ok := a.(Infect)
		if !ok {
			continue
		}
		sv := &v.Seats[in.Target]
		if sv.Progress > bp || sv.Progress == bp && sv.Position > bpos {
			best, bp, bpos = a, sv.Progress, sv.Position
		}
	}
	return best
}

// ---- Interference turns ----

// interfere plays the seat's interference turn, one card a call.
func (b *seatBot) interfere(v *View, legal []engine.Action) engine.Action {
	if b.turnRound != v.Round {
		b.turnRound, b.considered, b.toPlay = v.Round, 0, 0
		if !b.lv.PlayInterferenceSmart {
			for _, c := range v.Hand {
				if b.rng.IntN(2) == 0 {
					b.toPlay |= 1 << c
				}
			}
		}
	}
	can := func(c Card, t int) bool {
		return slices.ContainsFunc(legal, func(a engine.Action) bool {
			p, ok := a.(Play)
			return ok && p.Card == c && int(p.Target) == t
		})
	}
	if !b.lv.PlayInterferenceSmart {
		for _, c := range v.Hand {
			if b.toPlay&(1<<c) == 0 || b.considered&(1<<c) != 0 {
				continue
			}
			b.considered |= 1 << c
			var targets []int
			for t := range v.Players {
				if can(c, t) {
					targets = append(targets, t)
				}
			}
			if len(targets) > 0 {
				return Play{Card: c, Target: engine.Seat(targets[b.rng.IntN(len(targets))])}
			}
		}
		return EndTurn{}
	}
	me := int(b.seat)
	front := v.Seats[me].Front
	hindrances := 0
	for _, c := range front {
		if isHindrance(c) {
			hindrances++
		}
	}
	shielded := func(q int) bool {
		return slices.ContainsFunc(v.Seats[q].Front, func(c Card) bool { return c.Kind() == KindShield })
	}
	// The others, unshielded, by progress (ties by round order): the first
	// is the leader.
	rankOf := func(q int) int {
		if i := slices.Index(v.Order, q); i >= 0 {
			return i
		}
		return len(v.Order) + q
	}
	var others []int
	for q := range v.Players {
		if q != me && !shielded(q) {
			others = append(others, q)
		}
	}
	slices.SortStableFunc(others, func(a, c int) int {
		if d := v.Seats[c].Progress - v.Seats[a].Progress; d != 0 {
			return d
		}
		return rankOf(a) - rankOf(c)
	})
	first := func(k Kind) (Card, bool) {
		for _, c := range v.Hand {
			if c.Kind() == k && b.considered&(1<<c) == 0 {
				return c, true
			}
		}
		return 0, false
	}
	try := func(k Kind, target int, when bool) engine.Action {
		c, ok := first(k)
		if !ok || !when {
			return nil
		}
		b.considered |= 1 << c
		if target >= 0 && can(c, target) {
			return Play{Card: c, Target: engine.Seat(target)}
		}
		return nil
	}
	// 2. Release two or more hindrances.
	if a := try(KindRelease, me, hindrances >= 2); a != nil {
		return a
	}
	leader := -1
	if len(others) > 0 {
		leader = others[0]
	}
	// 3. For you: hand one's hindrances to the leader.
	if a := try(KindForYou, leader, hindrances >= 1); a != nil {
		return a
	}
	// 4. Swap with the seat with the fewest hindrances, if fewer.
	fewest, fewN := -1, hindrances
	for _, q := range v.Order {
		if q == me || shielded(q) {
			continue
		}
		h := 0
		for _, c := range v.Seats[q].Front {
			if isHindrance(c) {
				h++
			}
		}
		if h < fewN {
			fewest, fewN = q, h
		}
	}
	if a := try(KindSwap, fewest, fewest >= 0); a != nil {
		return a
	}
	// 1. Shield, if a seat with cards takes its turn later. O14: after For
	// you and Swap, which would carry it to their target (D12).
	later := false
	if i := slices.Index(v.Order, me); i >= 0 {
		for _, q := range v.Order[i+1:] {
			if v.Seats[q].HandCount > 0 {
				later = true
			}
		}
	}
	if a := try(KindShield, me, later); a != nil {
		return a
	}
	// 5. Thief on the seat with the most hand cards, if two or more.
	most, mostN := -1, 1
	for _, q := range v.Order {
		if q != me && !shielded(q) && v.Seats[q].HandCount > mostN {
			most, mostN = q, v.Seats[q].HandCount
		}
	}
	if a := try(KindThief, most, most >= 0); a != nil {
		return a
	}
	// 6. Boons on itself.
	for _, k := range []Kind{KindBoost, KindExpress, KindShortcut} {
		if a := try(k, me, true); a != nil {
			return a
		}
	}
	// 7. Each hindrance onto the leader, else the next seat by progress.
	for _, c := range v.Hand {
		if !isHindrance(c) || b.considered&(1<<c) != 0 {
			continue
		}
		b.considered |= 1 << c
		for _, q := range others {
			if can(c, q) {
				return Play{Card: c, Target: engine.Seat(q)}
			}
		}
	}
	return EndTurn{}
}
