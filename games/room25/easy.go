package room25

import (
	"math"
	"math/rand/v2"

	"sortie/bot"
	"sortie/engine"
)

// Easy is the game's "easy" bot policy: the heuristic played the way a
// beginner plays, weaker but never careless on purpose. It decides from its
// seat's view alone, as the heuristic does, but:
//   - it forgets: the rooms it viewed face down and the hints on the board
//     slip its mind easyMemory turns after it learnt them (face-up rooms
//     stay in sight);
//   - it programs less well: one program in ten (easyProgramSlip) is
//     another one made of the heuristic's tokens, Look and Move: the same
//     tokens in the other order, one of them alone, or a Look or Move
//     instead;
//   - it aims less well: one target in ten (easyTargetSlip) is another one
//     within easyTargetMargin of the best by the heuristic's own score, so
//     a known deadly room, a missed escape or an ally pushed to its death
//     is never among its slips;
//   - it steers clear of death: a Move of its character, or a Push of an
//     ally, into a room it dreads as deadly (see mind.movable: a Deadly
//     Room or a Vortex it sees or still remembers, an Acid Room with an
//     ally in it) becomes the best other one where there is one. The
//     heuristic itself may prefer a known Deadly Room to a long detour.
//
// Hints, the starting look, effect choices and Play/Wait are the
// heuristic's.
type Easy struct{}

// The handicaps of the easy bot, measured over cooperative games of two
// seats (README.md).
const (
	// easyMemory is how many turns a viewed room or a hint stays known.
	easyMemory = 1
	// easyProgramSlip is the chance that a character gets a lesser program.
	easyProgramSlip = 0.1
	// easyTargetSlip is the chance that a target is a lesser one.
	easyTargetSlip = 0.1
	// easyTargetMargin is how far below the best score a lesser target may
	// be (a known deadly room costs 20 more than an empty one).
	easyTargetMargin = 3.0
)

// Name returns "easy".
func (Easy) Name() string { return "easy" }

// NewBot returns an easy bot for one seat.
func (Easy) NewBot(_ engine.Game, s bot.Seating) bot.Bot {
	return &easyBot{
		h:   heuristicBot{seat: int(s.Seat), rng: rand.New(rand.NewPCG(s.Seed, engine.Mix(s.Seed, 25)))},
		rng: rand.New(rand.NewPCG(s.Seed, engine.Mix(s.Seed, 0xea5e))),
	}
}

// easyBot is one seat's easy bot: a heuristic bot with a short memory and
// unsteady hands.
type easyBot struct {
	h     heuristicBot
	rng   *rand.Rand
	cells []CellView // the bot's copy of the view's cells, with what it forgot removed
	// learnt is the turn the seat came to know a face-down tile's identity,
	// heard the turn it first saw each seat's hint on a tile (0: not yet).
	learnt [numTiles]int
	heard  [numTiles][maxSeats]int
}

// Decide picks the heuristic's action on what the bot remembers, then
// perhaps a lesser one.
func (b *easyBot) Decide(ev engine.View, legal []engine.Action, now engine.Millis) bot.Decision {
	v, ok := ev.(View)
	if !ok {
		return b.h.Decide(ev, legal, now)
	}
	b.forget(&v)
	a := b.h.answer(&v, legal)
	switch x := a.(type) {
	case Program:
		if b.rng.Float64() < easyProgramSlip {
			a = b.lesserProgram(x, legal)
		}
	case Look, Move, Push, Control, Act:
		if b.rng.Float64() < easyTargetSlip {
			a = b.lesserTarget(a, legal)
		}
		a = b.steerClear(a, legal)
	}
	return bot.Decision{Action: a}
}

// forget removes from v what the bot no longer remembers: the identity of
// face-down tiles it learnt, and the hints it heard, more than easyMemory
// turns ago. v's cells are replaced by the bot's own copy.
func (b *easyBot) forget(v *View) {
	b.cells = append(b.cells[:0], v.Cells...)
	v.Cells = b.cells
	for i := range v.Cells {
		cv := &v.Cells[i]
		t := cv.Tile.idx()
		if cv.FaceUp {
			continue
		}
		if cv.Room != "" {
			if b.learnt[t] == 0 {
				b.learnt[t] = v.Turn
			}
			if v.Turn-b.learnt[t] > easyMemory {
				cv.Room, cv.Known = "", false
			}
		}
		if len(cv.Hints) == 0 {
			continue
		}
		kept := cv.Hints[:0:0]
		for _, h := range cv.Hints {
			if b.heard[t][h.Seat] == 0 {
				b.heard[t][h.Seat] = v.Turn
			}
			if v.Turn-b.heard[t][h.Seat] <= easyMemory {
				kept = append(kept, h)
			}
		}
		cv.Hints = kept
	}
}

// lesserProgram returns another program for p's character made of the
// tokens a beginner thinks of (the plan's own, Look and Move), or p when
// there is none.
func (b *easyBot) lesserProgram(p Program, legal []engine.Action) engine.Action {
	plausible := func(t Token) bool {
		return t == NoToken || t == TokenLook || t == TokenMove || t == p.First || t == p.Second
	}
	var opts []engine.Action
	for _, a := range legal {
		if x, ok := a.(Program); ok && x.Character == p.Character && x != p && plausible(x.First) && plausible(x.Second) {
			opts = append(opts, a)
		}
	}
	if len(opts) == 0 {
		return p
	}
	return opts[b.rng.IntN(len(opts))]
}

// lesserTarget returns another target of the same action as a, scored by
// the heuristic within easyTargetMargin of a's, or a when there is none.
func (b *easyBot) lesserTarget(a engine.Action, legal []engine.Action) engine.Action {
	c := b.decider()
	chosen, ok := asAct(a)
	if !ok || c == NoCharacter {
		return a
	}
	floor := b.h.score(c, chosen) - easyTargetMargin
	var opts []engine.Action
	for _, o := range legal {
		x, ok := asAct(o)
		if ok && o != a && x.Action == chosen.Action && b.h.score(c, x) >= floor {
			opts = append(opts, o)
		}
	}
	if len(opts) == 0 {
		return a
	}
	return opts[b.rng.IntN(len(opts))]
}

// steerClear returns, in place of a Move or an ally's Push into a room the
// bot dreads as deadly (see mind.movable), the best-scoring Move or Push of
// the same character into a room it does not; a itself when there is none.
func (b *easyBot) steerClear(a engine.Action, legal []engine.Action) engine.Action {
	m := &b.h.m
	c := b.decider()
	if c == NoCharacter || m.cellOf[c] < 0 {
		return a
	}
	deadly := func(x Act) bool {
		mover := c
		switch {
		case x.Action == TokenPush && m.ally[x.Character]:
			mover = x.Character
		case x.Action != TokenMove:
			return false
		}
		n := neighbour(m.cellOf[c], x.Dir)
		return n >= 0 && !m.movable(mover, n)
	}
	chosen, ok := asAct(a)
	if !ok || !deadly(chosen) {
		return a
	}
	best, bestS := a, math.Inf(-1)
	for _, o := range legal {
		x, ok := asAct(o)
		if !ok || x.Action != chosen.Action || x.Character != chosen.Character || deadly(x) {
			continue
		}
		if s := b.h.score(c, x); s > bestS {
			best, bestS = o, s
		}
	}
	return best
}

// decider returns the character whose action the pending decision is
// about, NoCharacter outside the action phase.
func (b *easyBot) decider() Character {
	if d := b.h.m.v.Decision; d != nil {
		return d.Character
	}
	return NoCharacter
}
