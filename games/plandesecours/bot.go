package plandesecours

import (
	"math/rand/v2"

	"sortie/bot"
	"sortie/engine"
)

// Heuristic is the game's own bot policy, "heuristic". Its bots remember
// every tile and LOST tile they saw laid this round (public events: a tile is
// laid face up before any blackout), lay the path out with the FLOOR cards
// in force, and:
//   - call LOST (or join a chain) as soon as the remembered path has failed
//     and nobody has called since;
//   - otherwise decline chains and lay the tile that keeps the path valid
//     and leaves it the most room for the tiles still unseen;
//   - when every tile of the hand would break the path, lay one anyway: the
//     bot is then the first to know the path is lost.
//
// A bot that sits down in the middle of a round (a human replaced by a bot)
// does not know the path: until the next round it never calls and plays
// its tiles at random.
type Heuristic struct{}

// Name returns "heuristic".
func (Heuristic) Name() string { return "heuristic" }

// NewBot returns a heuristic bot for one seat.
func (Heuristic) NewBot(_ engine.Game, s bot.Seating) bot.Bot {
	return &heuristicBot{
		seat: int(s.Seat),
		rng:  rand.New(rand.NewPCG(s.Seed, engine.Mix(s.Seed, 2))),
	}
}

// memo is an item of the remembered stack.
type memo struct {
	tile  TileID
	lost  bool
	chain int
}

type heuristicBot struct {
	seat  int
	rng   *rand.Rand
	round int
	stack []memo // the remembered stack of this round, start excluded
	known bool   // the memory covers the whole round
}

// Observe remembers the tiles and LOST tiles laid.
func (b *heuristicBot) Observe(v engine.View, events []engine.Event) {
	for _, e := range events {
		switch e := e.Body.(type) {
		case RoundStarted:
			b.round, b.stack, b.known = e.Round, b.stack[:0], true
		case TilePlayed:
			b.stack = append(b.stack, memo{tile: e.Tile})
		case LostPlayed:
			b.stack = append(b.stack, memo{lost: true, chain: e.Chain})
		case ChainJoined:
			b.stack = append(b.stack, memo{lost: true, chain: e.Chain})
		}
	}
	if view, ok := asView(v); ok {
		b.sync(view)
	}
}

// sync checks the memory against the view's counts.
func (b *heuristicBot) sync(v *View) {
	if v.Round != b.round {
		// A round this bot did not see begin: known only if nothing is laid.
		b.round, b.stack = v.Round, b.stack[:0]
		b.known = v.StackTiles == 0 && len(v.Lost) == 0
	}
	tiles, losts := 0, 0
	for _, m := range b.stack {
		if m.lost {
			losts++
		} else {
			tiles++
		}
	}
	if tiles != v.StackTiles || losts != len(v.Lost) {
		b.known = false
	}
}

func asView(v engine.View) (*View, bool) {
	switch v := v.(type) {
	case View:
		return &v, true
	case *View:
		return v, v != nil
	}
	return nil, false
}

// Decide picks the seat's action.
func (b *heuristicBot) Decide(v engine.View, legal []engine.Action, _ engine.Millis) bot.Decision {
	view, ok := asView(v)
	if !ok {
		return bot.Decision{Action: legal[b.rng.IntN(len(legal))]}
	}
	b.sync(view)
	var tilesLegal []PlayTile
	var lost, pass, join, decline engine.Action
	for _, a := range legal {
		switch a := a.(type) {
		case PlayTile:
			tilesLegal = append(tilesLegal, a)
		case PlayLost:
			lost = a
		case PassTurn:
			pass = a
		case JoinLost:
			join = a
		case DeclineLost:
			decline = a
		}
	}
	pick := func(as ...engine.Action) bot.Decision {
		for _, a := range as {
			if a != nil {
				return bot.Decision{Action: a}
			}
		}
		return bot.Decision{Action: legal[0]}
	}

	if !b.known {
		if len(tilesLegal) > 0 {
			return bot.Decision{Action: tilesLegal[b.rng.IntN(len(tilesLegal))]}
		}
		return pick(decline, pass, lost, join)
	}

	w, scoringChain := b.path(view.Floors)

	if join != nil || decline != nil {
		// Asked in a chain: it scores if it is the first call after the
		// lost point.
		if w.lost() && view.Chain != nil && scoringChain == view.Chain.Chain {
			return pick(join)
		}
		return pick(decline)
	}
	if w.lost() && scoringChain == 0 {
		return pick(lost)
	}
	if len(tilesLegal) == 0 {
		return pick(pass, lost)
	}
	if w.lost() {
		// Nothing left to win this round: play any tile.
		return bot.Decision{Action: tilesLegal[b.rng.IntN(len(tilesLegal))]}
	}
	return bot.Decision{Action: b.chooseTile(&w, view, tilesLegal)}
}

// path lays out the remembered stack's tiles on the revealed floors, and
// returns it with the scoring chain: the first chain called after the lost
// point, 0 if none yet.
func (b *heuristicBot) path(floors []FloorID) (w walker, scoringChain int) {
	w = newWalker(floors)
	for _, m := range b.stack {
		switch {
		case !m.lost:
			w.lay(m.tile)
		case w.lost() && scoringChain == 0:
			scoringChain = m.chain
		}
	}
	return w, scoringChain
}

// chooseTile prefers a tile that keeps the path valid, and among those the
// one after which the most unseen tiles would keep it valid too.
func (b *heuristicBot) chooseTile(w *walker, v *View, choices []PlayTile) PlayTile {
	var seen [numTiles]bool
	for _, m := range b.stack {
		if !m.lost {
			seen[m.tile] = true
		}
	}
	for _, h := range v.Hand {
		seen[h.Tile] = true
	}
	var pool []TileID
	for t := TileID(1); t < numTiles; t++ {
		if !seen[t] {
			pool = append(pool, t)
		}
	}
	best, bestScore := -1, -1
	for i, c := range choices {
		if i > 0 && c.Tile == choices[i-1].Tile {
			continue // the same tile with another facing
		}
		w2 := *w
		if w2.lay(c.Tile) {
			continue
		}
		score := 1
		for _, u := range pool {
			w3 := w2
			if !w3.lay(u) {
				score++
			}
		}
		if score > bestScore || (score == bestScore && b.rng.IntN(2) == 0) {
			best, bestScore = i, score
		}
	}
	if best < 0 {
		best = b.rng.IntN(len(choices)) // every tile breaks the path: lay one
	}
	return choices[best]
}
