package plandesecours

import (
	"encoding/json"
	"fmt"
	"strconv"

	"sortie/engine"
)

// This file is section 7: what each seat sees (View) and what it is told
// (events). Nothing below the top item of the stack ever leaves the state
// before the reveal, for any audience (D27).

// View is what one seat (or a spectator) may know (7.1).
type View struct {
	// Seat is the viewer, -1 for a spectator.
	Seat    int  `json:"seat"`
	Players int  `json:"players"`
	Danger  bool `json:"danger"`

	Round       int    `json:"round"`
	Target      int    `json:"target"`
	Scores      []int  `json:"scores"`
	FirstPlayer int    `json:"first_player"`
	Phase       string `json:"phase"` // "turn", "lost_chain" or "game_over"
	Actor       int    `json:"actor"` // -1 once the game is over

	// Hand is the viewer's own hand (absent for spectators).
	Hand      []HandTile `json:"hand,omitempty"`
	HandSizes []int      `json:"hand_sizes"`

	// Top is the top item of the stack, the only one anybody sees.
	Top        TopItem    `json:"top"`
	NextFacing NextFacing `json:"next_facing"`
	// StackTiles counts the DIRECTION tiles on the stack, start excluded.
	StackTiles int `json:"stack_tiles"`
	DrawPile   int `json:"draw_pile"`

	// Lost lists the LOST tiles played this round, in order.
	Lost  []LostTile `json:"lost"`
	Chain *ChainView `json:"chain,omitempty"`

	Floors     []FloorID  `json:"floors"`
	FloorDeck  int        `json:"floor_deck"`
	Dangers    []DangerID `json:"dangers,omitempty"`
	DangerDeck int        `json:"danger_deck,omitempty"`

	// LastReveal is the reveal of the latest round played, the final one at
	// the end of the game (D32). It is shared with the state: read only.
	LastReveal *Reveal         `json:"last_reveal,omitempty"`
	Outcome    *engine.Outcome `json:"outcome,omitempty"`
}

// HandTile is a tile of the viewer's hand.
type HandTile struct {
	Tile      TileID    `json:"tile"`
	Type      TileType  `json:"type"`
	Character Character `json:"character,omitempty"`
}

// TopItem is the top of the stack. Kind is "start", "tile", "face_down" or
// "lost"; tiles give their id, type, character and facing (the start its
// facing); a LOST tile gives its owner (Seat, otherwise -1).
type TopItem struct {
	Kind      string    `json:"kind"`
	Tile      TileID    `json:"tile,omitzero"`
	Type      TileType  `json:"type,omitzero"`
	Character Character `json:"character,omitzero"`
	Facing    int       `json:"facing"`
	Seat      int       `json:"seat"`
}

// LostTile is a LOST tile played this round: its owner and chain.
type LostTile struct {
	Seat  int `json:"seat"`
	Chain int `json:"chain"`
}

// ChainView is the LOST chain in progress.
type ChainView struct {
	Chain    int   `json:"chain"`
	Starter  int   `json:"starter"`
	Joined   []int `json:"joined"`
	Declined []int `json:"declined"`
	Asked    int   `json:"asked"`
}

// NextFacing is the facing the next DIRECTION tile will take (0–3), or
// FacingFree when its player chooses; its JSON is a number or "free".
type NextFacing int8

// FacingFree is the next facing after a Repetition or a face-down tile.
const FacingFree NextFacing = -1

// MarshalJSON writes a number or "free".
func (f NextFacing) MarshalJSON() ([]byte, error) {
	if f == FacingFree {
		return []byte(`"free"`), nil
	}
	return strconv.AppendInt(nil, int64(f), 10), nil
}

// UnmarshalJSON reads a number or "free".
func (f *NextFacing) UnmarshalJSON(b []byte) error {
	if string(b) == `"free"` {
		*f = FacingFree
		return nil
	}
	var n int
	if err := json.Unmarshal(b, &n); err != nil || n < 0 || n > 3 {
		return fmt.Errorf("next_facing must be 0 to 3 or \"free\", not %s", b)
	}
	*f = NextFacing(n)
	return nil
}

// View returns what seat p may know; engine.Spectator (or any seat not in
// the match) sees the public part.
func (s *State) View(p engine.Seat) engine.View {
	return s.view(p, nil)
}

// AppendView appends the JSON of View(p) to dst (engine.ViewAppender), from
// a view whose lists are built in room on the stack: it is dropped once
// written.
func (s *State) AppendView(dst []byte, p engine.Seat) []byte {
	var room viewRoom
	v := s.view(p, &room)
	return v.AppendJSON(dst)
}

// viewRoom is room for the lists of a view that is written and dropped.
type viewRoom struct {
	scores, sizes [MaxPlayers]int
	hand          [HandSize]HandTile
	lost          [MaxPlayers]LostTile
	floors        [numFloors]FloorID
}

// view returns what seat p may know, its lists built in room when it is
// given (a view dropped once written), else in room of its own.
func (s *State) view(p engine.Seat, room *viewRoom) View {
	n := int(s.n)
	if room == nil {
		room = &viewRoom{}
	}
	v := View{
		Seat:        -1,
		Players:     n,
		Danger:      s.danger,
		Round:       s.round,
		Target:      Target(n),
		Scores:      append(room.scores[:0:n], s.scores[:n]...),
		FirstPlayer: int(s.first),
		Phase:       phaseNames[s.phase],
		Actor:       int(s.actor),
		HandSizes:   room.sizes[:n:n],
		StackTiles:  int(s.numDir),
		DrawPile:    numPlayable - int(s.drawPos),
		Lost:        room.lost[:s.nLost:s.nLost],
		Floors:      s.revealedFloors(room.floors[: 0 : 1+s.floorsRevealed]),
		FloorDeck:   len(s.floorDeck) - int(s.floorsRevealed),
		LastReveal:  s.lastReveal,
	}
	if p >= 0 && int(p) < n {
		v.Seat = int(p)
		v.Hand = room.hand[:s.handLen[p]:s.handLen[p]]
		for i, t := range s.hands[p][:s.handLen[p]] {
			v.Hand[i] = HandTile{Tile: t, Type: t.Type(), Character: t.Character()}
		}
	}
	for q := range n {
		v.HandSizes[q] = int(s.handLen[q])
	}
	v.Top = s.topItem()
	v.NextFacing = NextFacing(s.nextFacing())
	if s.facingFree() {
		v.NextFacing = FacingFree
	}
	for i, q := range s.lostOrder[:s.nLost] {
		v.Lost[i] = LostTile{Seat: int(q), Chain: int(s.chainOf[q])}
	}
	if s.phase == phaseChain {
		c := &ChainView{Chain: int(s.chainNo), Starter: int(s.chainStarter), Asked: int(s.actor), Joined: []int{}, Declined: []int{}}
		for q := range n {
			if s.chainJoined&(1<<q) != 0 {
				c.Joined = append(c.Joined, q)
			}
			if s.chainDeclined&(1<<q) != 0 {
				c.Declined = append(c.Declined, q)
			}
		}
		v.Chain = c
	}
	if s.danger {
		v.Dangers = append([]DangerID{}, s.revealedDangers()...)
		v.DangerDeck = len(s.dangerDeck) - int(s.dangersShown)
	}
	if s.outcome != nil {
		o := *s.outcome
		v.Outcome = &o
	}
	return v
}

// topItem is the only item of the stack a view shows.
func (s *State) topItem() TopItem {
	it := &s.stack[s.stackLen-1]
	switch {
	case it.lost:
		return TopItem{Kind: "lost", Seat: int(it.seat)}
	case it.faceDown:
		return TopItem{Kind: "face_down", Seat: -1}
	case it.tile == StartTile:
		return TopItem{Kind: "start", Facing: int(it.facing), Seat: -1}
	}
	return TopItem{Kind: "tile", Tile: it.tile, Type: it.tile.Type(), Character: it.tile.Character(), Facing: int(it.facing), Seat: -1}
}

// Events (7.1). Each has a Kind and a JSON form made by engine.MarshalTyped.
type (
	// TilePlayed: a seat laid a DIRECTION tile with a display facing
	// (public: it is laid face up).
	TilePlayed struct {
		Seat   int    `json:"seat"`
		Tile   TileID `json:"tile"`
		Facing int    `json:"facing"`
	}
	// TileDrawn: a seat drew a tile; the tile is named only to the drawer.
	TileDrawn struct {
		Seat int    `json:"seat"`
		Tile TileID `json:"tile,omitzero"`
	}
	// HandReceived: the seat's new hand, told to that seat alone: dealt at
	// a new round, or passed by From (danger_pass_hands).
	HandReceived struct {
		Seat  int      `json:"seat"`
		From  *int     `json:"from,omitempty"`
		Tiles []TileID `json:"tiles"`
	}
	// DangerTriggered: the tile a seat laid matched a revealed DANGER card.
	DangerTriggered struct {
		Seat int      `json:"seat"`
		Card DangerID `json:"card"`
		Tile TileID   `json:"tile"`
	}
	// StackRotated: the stack turned clockwise by this many quarter turns.
	StackRotated struct {
		QuarterTurns int `json:"quarter_turns"`
	}
	// TileTurnedDown: the tile just laid by Seat was turned face down
	// (danger_blackout).
	TileTurnedDown struct {
		Seat int `json:"seat"`
	}
	// TurnSkipped: the holder loses its turn (danger_skip_next).
	TurnSkipped struct {
		Seat int `json:"seat"`
	}
	// TurnPassed: a holder with an empty hand passed.
	TurnPassed struct {
		Seat int `json:"seat"`
	}
	// LostPlayed: a seat played its LOST tile and started chain Chain.
	LostPlayed struct {
		Seat  int `json:"seat"`
		Chain int `json:"chain"`
	}
	// ChainAsked: a holder is asked whether to join the chain.
	ChainAsked struct {
		Seat  int `json:"seat"`
		Chain int `json:"chain"`
	}
	// ChainJoined: the asked holder played its LOST tile in the chain.
	ChainJoined struct {
		Seat  int `json:"seat"`
		Chain int `json:"chain"`
	}
	// ChainDeclined: the asked holder kept its LOST tile.
	ChainDeclined struct {
		Seat  int `json:"seat"`
		Chain int `json:"chain"`
	}
	// RoundRevealed: the round ended; the whole reveal.
	RoundRevealed struct {
		Reveal *Reveal `json:"reveal"`
	}
	// RoundStarted: a new round, its first player and the cards revealed
	// for it.
	RoundStarted struct {
		Round       int       `json:"round"`
		FirstPlayer int       `json:"first_player"`
		Floor       *FloorID  `json:"floor_revealed,omitempty"`
		Danger      *DangerID `json:"danger_revealed,omitempty"`
	}
	// GameOver: the game ended.
	GameOver struct {
		Winners []int `json:"winners"`
		Scores  []int `json:"scores"`
		Rounds  int   `json:"rounds"`
	}
)

// Kind returns "tile_played".
func (TilePlayed) Kind() string { return "tile_played" }

// Kind returns "tile_drawn".
func (TileDrawn) Kind() string { return "tile_drawn" }

// Kind returns "hand_received".
func (HandReceived) Kind() string { return "hand_received" }

// Kind returns "danger_triggered".
func (DangerTriggered) Kind() string { return "danger_triggered" }

// Kind returns "stack_rotated".
func (StackRotated) Kind() string { return "stack_rotated" }

// Kind returns "blackout".
func (TileTurnedDown) Kind() string { return "blackout" }

// Kind returns "turn_skipped".
func (TurnSkipped) Kind() string { return "turn_skipped" }

// Kind returns "turn_passed".
func (TurnPassed) Kind() string { return "turn_passed" }

// Kind returns "lost_played".
func (LostPlayed) Kind() string { return "lost_played" }

// Kind returns "chain_asked".
func (ChainAsked) Kind() string { return "chain_asked" }

// Kind returns "chain_joined".
func (ChainJoined) Kind() string { return "chain_joined" }

// Kind returns "chain_declined".
func (ChainDeclined) Kind() string { return "chain_declined" }

// Kind returns "round_revealed".
func (RoundRevealed) Kind() string { return "round_revealed" }

// Kind returns "round_started".
func (RoundStarted) Kind() string { return "round_started" }

// Kind returns "game_over".
func (GameOver) Kind() string { return "game_over" }

// Event bodies of every tile play, draw, chain step and DANGER effect, boxed
// once so that most actions allocate only their event slice.
var (
	tilePlayedBodies [MaxPlayers][numTiles][4]engine.EventBody
	tileDrawnBodies  [MaxPlayers][numTiles]engine.EventBody // [seat][0]: the redacted copy
	lostPlayedBodies [MaxPlayers][MaxPlayers + 1]engine.EventBody
	chainBodies      [3][MaxPlayers][MaxPlayers + 1]engine.EventBody // asked, joined, declined
	turnPassedBodies [MaxPlayers]engine.EventBody
	skippedBodies    [MaxPlayers]engine.EventBody
	blackoutBodies   [MaxPlayers]engine.EventBody
	rotatedBodies    [4]engine.EventBody
	dangerBodies     [MaxPlayers][numDangers][numTiles]engine.EventBody
)

const (
	chainAsked = iota
	chainJoined
	chainDeclined
)

func init() {
	for p := range MaxPlayers {
		for t := range numTiles {
			for f := range 4 {
				tilePlayedBodies[p][t][f] = TilePlayed{Seat: p, Tile: TileID(t), Facing: f}
			}
			tileDrawnBodies[p][t] = TileDrawn{Seat: p, Tile: TileID(t)}
			for d := range numDangers {
				dangerBodies[p][d][t] = DangerTriggered{Seat: p, Card: DangerID(d), Tile: TileID(t)}
			}
		}
		for c := range MaxPlayers + 1 {
			lostPlayedBodies[p][c] = LostPlayed{Seat: p, Chain: c}
			chainBodies[chainAsked][p][c] = ChainAsked{Seat: p, Chain: c}
			chainBodies[chainJoined][p][c] = ChainJoined{Seat: p, Chain: c}
			chainBodies[chainDeclined][p][c] = ChainDeclined{Seat: p, Chain: c}
		}
		turnPassedBodies[p] = TurnPassed{Seat: p}
		skippedBodies[p] = TurnSkipped{Seat: p}
		blackoutBodies[p] = TileTurnedDown{Seat: p}
	}
	for q := range 4 {
		rotatedBodies[q] = StackRotated{QuarterTurns: q}
	}
}
