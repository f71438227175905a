// Package plandesecours is Plan de Secours (IELLO; in English Emergency Exit
// Only): 2 to 5 players lay DIRECTION tiles face up on a single stack, each
// one hiding the last, and call LOST when they believe the remembered path
// has gone wrong. At the end of a round the stack is laid out as a path on a
// grid, and the right calls (or, if the path held, the players who never
// called) score.
//
// The rules follow shared/rules/plandesecours.md section by section;
// decisions of that reference are cited by their ids (D1–D33) where the code
// makes them. The package holds the game (Game, State), its JSON actions,
// events and views, and its heuristic bot. It must never show anything below
// the top of the stack before the reveal, to any seat or spectator (D27), nor
// import another game.
package plandesecours

import (
	"math/rand/v2"
	"slices"

	"sortie/bot"
	"sortie/engine"
)

// Game is Plan de Secours. Its zero value is ready to use.
type Game struct{}

var info = engine.Info{
	ID: "plandesecours",
	Name: engine.Text{
		"fr": "Plan de Secours",
		"en": "Emergency Exit Only",
	},
	Summary: engine.Text{
		"fr": "Posez à tour de rôle des tuiles DIRECTION sur une pile unique\u00a0: seule la dernière reste visible, le chemin n’existe que dans votre mémoire. Criez PERDU quand vous pensez que le chemin a déraillé, ou gardez le silence s’il tient bon\u00a0: à la fin de la manche, la pile est dépliée et la vérité éclate.",
		"en": "Take turns laying DIRECTION tiles on a single stack where only the top tile shows, so the path lives only in your memory. Call LOST when you think the path has gone wrong, or keep quiet if it holds: at the end of the round the stack is laid out and the truth comes out.",
	},
	MinPlayers: MinPlayers,
	MaxPlayers: MaxPlayers,
	Timing:     engine.TurnBased,
	Options: []engine.Option{{
		Key:     "danger",
		Name:    engine.Text{"fr": "Mode DANGER", "en": "DANGER mode"},
		Help:    engine.Text{"fr": "Ajoute les cartes DANGER, déclenchées par les personnages des tuiles.", "en": "Adds the DANGER cards, triggered by the characters on the tiles."},
		Kind:    engine.Bool,
		Default: "false",
	}},
	// A round is at most 37 tiles, 5 LOST tiles, 4 chain answers per LOST
	// tile and, once the draw pile is empty, at most 4 passes before each
	// tile or LOST tile: well under 6 actions per tile plus 6 per seat.
	MaxActions: MaxRounds * (numPlayable*6 + MaxPlayers*6),
}

// Info describes the game.
func (Game) Info() engine.Info { return info }

// Policies returns the game's own bot policies: "heuristic" (the medium
// level) and "easy".
func (Game) Policies() []bot.Policy { return []bot.Policy{Heuristic{}, Easy{}} }

// phase is what the game waits for (4.1).
type phase uint8

const (
	phaseTurn  phase = iota // the actor plays a tile, its LOST tile or passes
	phaseChain              // the actor answers a LOST chain
	phaseOver               // the game has ended
)

var phaseNames = [...]string{"turn", "lost_chain", "game_over"}

// item is one item of the stack: a DIRECTION tile or a LOST tile.
type item struct {
	tile     TileID // DIRECTION tiles only
	facing   uint8  // display facing 0–3 (4.4.1), DIRECTION tiles only
	faceDown bool   // turned face down by danger_blackout
	lost     bool   // a LOST tile
	seat     int8   // who laid the tile, or the LOST tile's owner
	chain    uint8  // LOST tiles: the chain number, from 1
}

// State is a match of Plan de Secours. It is a plain value (fixed arrays, no
// slices into shared memory except immutable reveals), so Clone is a copy.
type State struct {
	n      int8
	danger bool
	rng    engine.RNG

	round  int
	first  int8 // the first player of this round
	phase  phase
	actor  int8 // -1 when the game is over
	scores [MaxPlayers]int

	stack    [maxStack]item // stack[0] is the start
	stackLen uint8
	lastDir  uint8 // index of the last DIRECTION item (the start counts)
	numDir   uint8 // DIRECTION tiles on the stack, start excluded

	hands   [MaxPlayers][HandSize]TileID
	handLen [MaxPlayers]uint8
	draw    [numPlayable]TileID // the draw pile; its top is draw[drawPos]
	drawPos uint8

	holders   uint8 // bit s: seat s still holds its LOST tile
	chainOf   [MaxPlayers]uint8
	lostOrder [MaxPlayers]int8 // seats in the order they played LOST
	nLost     uint8
	chainNo   uint8
	firstLost int8 // the first seat to play LOST this round, or -1

	// The LOST chain in progress (phase lost_chain).
	chainStarter  int8
	chainJoined   uint8 // seat bits
	chainDeclined uint8

	floorDeck      [numFloors - 1]FloorID // face down, top first
	floorsRevealed uint8                  // cards of floorDeck revealed
	dangerDeck     [numDangers]DangerID
	dangersShown   uint8 // cards of dangerDeck revealed (DANGER mode)

	lastReveal *Reveal // immutable once made
	outcome    *engine.Outcome
}

// New sets up a match (section 3).
func (Game) New(setup engine.Setup) (engine.State, error) {
	opts, err := info.Check(setup)
	if err != nil {
		return nil, err
	}
	return newState(setup.Players, opts.Bool("danger"), setup.Seed), nil
}

// newState is setup steps 1–9, with the random calls in the order of
// section 3 (D30): FLOOR shuffle, DANGER shuffle, first player, DIRECTION
// shuffle.
func newState(n int, danger bool, seed uint64) *State {
	s := &State{n: int8(n), danger: danger, rng: engine.NewRNG(seed)}
	for i := range s.floorDeck {
		s.floorDeck[i] = FloorID(i + 1)
	}
	s.rng.Shuffle(len(s.floorDeck), func(i, j int) { s.floorDeck[i], s.floorDeck[j] = s.floorDeck[j], s.floorDeck[i] })
	for i := range s.dangerDeck {
		s.dangerDeck[i] = DangerID(i)
	}
	if danger {
		s.rng.Shuffle(len(s.dangerDeck), func(i, j int) { s.dangerDeck[i], s.dangerDeck[j] = s.dangerDeck[j], s.dangerDeck[i] })
		s.dangersShown = 1
	}
	s.startRound(1, int8(s.rng.IntN(n))) // D16
	return s
}

// startRound gathers, shuffles and deals the DIRECTION tiles and resets the
// round's state (3 steps 6–9, 4.11 steps 1, 2, 5, 6). Revealing the new
// FLOOR and DANGER cards is the caller's.
func (s *State) startRound(round int, first int8) {
	s.round, s.first = round, first
	s.phase, s.actor = phaseTurn, first
	s.stack[0] = item{tile: StartTile, seat: -1} // D25: facing 0
	s.stackLen, s.lastDir, s.numDir = 1, 0, 0
	// D30: gather in canonical order, then Fisher–Yates.
	for i := range s.draw {
		s.draw[i] = TileID(i + 1)
	}
	s.rng.Shuffle(len(s.draw), func(i, j int) { s.draw[i], s.draw[j] = s.draw[j], s.draw[i] })
	s.drawPos = 0
	for k := int8(0); k < s.n; k++ {
		p := (first + k) % s.n
		copy(s.hands[p][:], s.draw[s.drawPos:s.drawPos+HandSize])
		s.handLen[p] = HandSize
		s.drawPos += HandSize
	}
	s.holders = 1<<uint(s.n) - 1
	s.chainOf = [MaxPlayers]uint8{}
	s.nLost, s.chainNo, s.firstLost = 0, 0, -1
	s.chainStarter, s.chainJoined, s.chainDeclined = -1, 0, 0
}

// revealedFloors returns the FLOOR cards in force, in reveal order.
func (s *State) revealedFloors(dst []FloorID) []FloorID {
	dst = append(dst, FloorInitial)
	return append(dst, s.floorDeck[:s.floorsRevealed]...)
}

// revealedDangers returns the DANGER cards in force, in reveal order.
func (s *State) revealedDangers() []DangerID { return s.dangerDeck[:s.dangersShown] }

func (s *State) isHolder(p int8) bool { return s.holders&(1<<uint(p)) != 0 }

func (s *State) numHolders() int {
	c := 0
	for m := s.holders; m != 0; m &= m - 1 {
		c++
	}
	return c
}

// nextHolder is the first holder clockwise after seat p: p itself when it
// is the only holder, -1 when there is none.
func (s *State) nextHolder(p int8) int8 {
	for k := int8(1); k <= s.n; k++ {
		if q := (p + k) % s.n; s.isHolder(q) {
			return q
		}
	}
	return -1
}

// facingFree reports whether the next DIRECTION tile's facing is the
// player's choice: the last DIRECTION tile is a Repetition or face down
// (D26; LOST tiles above it do not count).
func (s *State) facingFree() bool {
	it := &s.stack[s.lastDir]
	return it.faceDown || it.tile.Type() == TypeRepetition
}

// nextFacing is the derived facing of the next tile: the displayed exit
// arrow of the last DIRECTION tile (4.4.1). Meaningless when facingFree.
func (s *State) nextFacing() uint8 {
	it := &s.stack[s.lastDir]
	return (it.facing + quarter[tileTypes[it.tile.Type()].move]) & 3
}

// exhausted is round end (b): the draw pile is empty and no holder holds a
// DIRECTION tile (D19).
func (s *State) exhausted() bool {
	if int(s.drawPos) < numPlayable {
		return false
	}
	for p := int8(0); p < s.n; p++ {
		if s.isHolder(p) && s.handLen[p] > 0 {
			return false
		}
	}
	return true
}

// Actors returns the seat that may act, or none once the game is over. The
// returned slice is shared and must not be modified.
func (s *State) Actors() []engine.Seat {
	if s.phase == phaseOver {
		return nil
	}
	return actorSlices[s.actor]
}

var actorSlices = [MaxPlayers][]engine.Seat{{0}, {1}, {2}, {3}, {4}}

// Advance does nothing: the game has no clock.
func (s *State) Advance(engine.Millis) []engine.Event { return nil }

// Deadline is never set: the game has no clock.
func (s *State) Deadline() (engine.Millis, bool) { return 0, false }

// Outcome returns the result once the game is over (section 5).
func (s *State) Outcome() (engine.Outcome, bool) {
	if s.outcome == nil {
		return engine.Outcome{}, false
	}
	return *s.outcome, true
}

var _ engine.Rated = (*State)(nil)

// RatedResult says what the match is for rating: every player for
// themselves, ranked as the outcome ranks them (shared victories tie).
func (s *State) RatedResult() (engine.Result, bool) {
	if s.outcome == nil {
		return engine.Result{Family: engine.FreeForAll}, false
	}
	return engine.FreeForAllResult(*s.outcome, ""), true
}

// Clone returns an independent copy. Reveals and the outcome are never
// changed once made, so the copy shares them.
func (s *State) Clone() engine.State {
	c := *s
	return &c
}

// Determinize returns a copy in which the hands of the other seats and the
// order of the draw pile are resampled (D33), and whose generator is reseeded
// from r. The stack counts as known: every tile was shown face up when laid.
// The unseen tiles are sorted before they are dealt again, so that the copy
// depends on what p may know and on r alone, never on where the unseen
// tiles really are: hints drawn from it are the same for two states p cannot
// tell apart (coach).
func (s *State) Determinize(p engine.Seat, r *rand.Rand) engine.State {
	c := *s
	var pool [numPlayable]TileID
	n := 0
	for q := int8(0); q < s.n; q++ {
		if engine.Seat(q) != p {
			n += copy(pool[n:], c.hands[q][:c.handLen[q]])
		}
	}
	n += copy(pool[n:], c.draw[c.drawPos:])
	slices.Sort(pool[:n])
	r.Shuffle(n, func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	n = 0
	for q := int8(0); q < s.n; q++ {
		if engine.Seat(q) != p {
			n += copy(c.hands[q][:c.handLen[q]], pool[n:])
		}
	}
	copy(c.draw[c.drawPos:], pool[n:])
	c.rng = engine.NewRNG(r.Uint64())
	return &c
}
