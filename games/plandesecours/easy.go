package plandesecours

import (
	"math/rand/v2"

	"sortie/bot"
	"sortie/engine"
)

// Easy is the game's "easy" bot policy: the heuristic played the way a
// beginner plays, weaker but never careless on purpose. It remembers the
// round and lays out the path as the heuristic does, but:
//   - its attention lapses: each tile another seat lays slips past it with
//     chance easyLapse, and it has then lost the path until the next round
//     (it plays as the heuristic does when it sits down mid-round: random
//     tiles, no calls);
//   - it is slow to see that the path has failed: at each decision where
//     the heuristic would call LOST (or join the scoring chain) it notices
//     with chance easyNotice only; otherwise it plays on as if the path
//     held (declines the chain, lays any tile, or passes);
//   - it plans less far: with chance easySlip the tile it lays is any tile
//     that keeps the path valid rather than the one leaving the most room.
//     It never breaks a path it could keep.
type Easy struct{}

// The handicaps of the easy bot, measured over games of two seats
// (README.md).
const (
	// easyLapse is the chance that a tile laid by another seat slips past
	// the bot, which then loses the path for the rest of the round.
	easyLapse = 0.03
	// easyNotice is the chance that the bot sees, at a decision, that its
	// remembered path has failed.
	easyNotice = 0.75
	// easySlip is the chance that a tile laid is a lesser one.
	easySlip = 0.3
)

// Name returns "easy".
func (Easy) Name() string { return "easy" }

// NewBot returns an easy bot for one seat.
func (Easy) NewBot(g engine.Game, s bot.Seating) bot.Bot {
	return &easyBot{
		h:   Heuristic{}.NewBot(g, s).(*heuristicBot),
		rng: rand.New(rand.NewPCG(s.Seed, engine.Mix(s.Seed, 0xea5e))),
	}
}

// easyBot is one seat's easy bot: a heuristic bot with lapses of
// attention and unsteady judgement.
type easyBot struct {
	h   *heuristicBot
	rng *rand.Rand
}

// Observe remembers what the heuristic remembers, except after a lapse:
// then the bot knows it has lost the path, until the next round starts.
func (b *easyBot) Observe(v engine.View, events []engine.Event) {
	lapsed := false
	for _, e := range events {
		switch e := e.Body.(type) {
		case RoundStarted:
			lapsed = false
		case TilePlayed:
			if e.Seat != b.h.seat && b.rng.Float64() < easyLapse {
				lapsed = true
			}
		}
	}
	b.h.Observe(v, events)
	if lapsed {
		b.h.known = false
	}
}

// Decide picks the heuristic's action, unless the bot fails to notice that
// the path has failed, then perhaps lays a lesser tile.
func (b *easyBot) Decide(v engine.View, legal []engine.Action, now engine.Millis) bot.Decision {
	view, ok := asView(v)
	if !ok {
		return b.h.Decide(v, legal, now)
	}
	d := b.h.Decide(v, legal, now) // syncs the memory with the view
	if !b.h.known {
		return d
	}
	switch d.Action.(type) {
	case PlayLost, JoinLost:
		if b.rng.Float64() >= easyNotice {
			return bot.Decision{Action: b.playOn(legal)}
		}
	case PlayTile:
		if w, _ := b.h.path(view.Floors); !w.lost() && b.rng.Float64() < easySlip {
			return bot.Decision{Action: b.lesserTile(&w, legal, d.Action)}
		}
	}
	return d
}

// playOn is what the bot does when it misses that the path has failed:
// decline the chain, or lay any tile, or pass with an empty hand.
func (b *easyBot) playOn(legal []engine.Action) engine.Action {
	var tiles []engine.Action
	for _, a := range legal {
		switch a.(type) {
		case DeclineLost, PassTurn:
			return a
		case PlayTile:
			tiles = append(tiles, a)
		}
	}
	if len(tiles) == 0 {
		return legal[0]
	}
	return tiles[b.rng.IntN(len(tiles))]
}

// lesserTile returns any legal tile that keeps the path w valid, or chosen
// when there is none.
func (b *easyBot) lesserTile(w *walker, legal []engine.Action, chosen engine.Action) engine.Action {
	var keep []engine.Action
	for _, a := range legal {
		if t, ok := a.(PlayTile); ok {
			w2 := *w
			if !w2.lay(t.Tile) {
				keep = append(keep, a)
			}
		}
	}
	if len(keep) == 0 {
		return chosen
	}
	return keep[b.rng.IntN(len(keep))]
}
