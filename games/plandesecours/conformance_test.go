package plandesecours

import (
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"sortie/coach/coachtest"
	"sortie/engine"
	"sortie/engine/enginetest"
)

// TestConformance runs the engine's conformance suite for 2–5 players, with
// and without DANGER mode: 300 playouts per setup (2,400 in all), 100 with
// -short (20 with -race -short), the suite's 1,000 with SORTIE_LONG=1.
func TestConformance(t *testing.T) {
	playouts := 300
	switch {
	case testing.Short() && raceEnabled:
		playouts = 20
	case testing.Short():
		playouts = 100
	case os.Getenv("SORTIE_LONG") == "1":
		playouts = 1000
	}
	var setups []engine.Setup
	for n := MinPlayers; n <= MaxPlayers; n++ {
		for _, danger := range []string{"false", "true"} {
			setups = append(setups, engine.Setup{Players: n, Options: map[string]string{"danger": danger}})
		}
	}
	enginetest.Run(t, enginetest.Harness{
		Game:         Game{},
		Setups:       setups,
		Playouts:     playouts,
		Perturb:      perturb,
		RandomAction: randomAction,
		// Hints remember the stack as the bots do (D33): they are
		// compared between states that differ in what Determinize deals
		// anew, the hands and the draw pile.
		Hint: coachtest.Hint(Game{}),
	})
}

// randomAction is any action of the game, legal or not.
func randomAction(r *rand.Rand) engine.Action {
	switch r.IntN(6) {
	case 0:
		return PlayLost{}
	case 1:
		return PassTurn{}
	case 2:
		return JoinLost{}
	case 3:
		return DeclineLost{}
	}
	return PlayTile{Tile: TileID(r.IntN(numTiles + 2)), Facing: OptFacing(r.IntN(7) - 1)}
}

// perturb changes everything seat p may not know, and nothing it may know:
// the order of the draw pile; the hands of the seats other than p and the
// current actor; the DIRECTION tiles below the top of the stack, which were
// seen but are hidden from every view (D27), and where the LOST tiles sit
// among them; the order of the unrevealed FLOOR and DANGER cards; and the
// generator. The top item stays, and so does the last DIRECTION tile under a
// LOST tile when it is face up (the next facing is derived from it). Counts
// are kept.
func perturb(es engine.State, p engine.Seat, r *rand.Rand) engine.State {
	s := es.(*State).Clone().(*State)
	top := int(s.stackLen) - 1

	// The hidden region of the stack: below the top, and below the top's
	// whole LOST chain when a LOST tile is on top (chains stay together).
	fixedFrom := top
	if s.stack[top].lost {
		for fixedFrom > 1 && s.stack[fixedFrom-1].lost && s.stack[fixedFrom-1].chain == s.stack[top].chain {
			fixedFrom--
		}
	}
	var dirs []item     // DIRECTION items of the region, in order
	var blocks [][]item // LOST chains of the region, in order
	for i := 1; i < fixedFrom; i++ {
		it := s.stack[i]
		switch {
		case !it.lost:
			dirs = append(dirs, it)
		case len(blocks) > 0 && i > 1 && s.stack[i-1].lost && s.stack[i-1].chain == it.chain:
			blocks[len(blocks)-1] = append(blocks[len(blocks)-1], it)
		default:
			blocks = append(blocks, []item{it})
		}
	}
	// keepLast: the last DIRECTION tile is under a LOST tile, face up.
	keepLast := s.stack[top].lost && len(dirs) > 0 && !dirs[len(dirs)-1].faceDown

	// Pool the tile identities p cannot know.
	var pool []TileID
	var slots []*TileID
	for i := range dirs {
		if keepLast && i == len(dirs)-1 {
			continue
		}
		slots = append(slots, &dirs[i].tile)
		dirs[i].facing = uint8(r.IntN(4))
	}
	if it := &s.stack[top]; !it.lost && it.faceDown {
		slots = append(slots, &it.tile)
	}
	for q := int8(0); q < s.n; q++ {
		if engine.Seat(q) != p && q != s.actor {
			for i := range s.handLen[q] {
				slots = append(slots, &s.hands[q][i])
			}
		}
	}
	for i := int(s.drawPos); i < numPlayable; i++ {
		slots = append(slots, &s.draw[i])
	}
	for _, sl := range slots {
		pool = append(pool, *sl)
	}
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	for i, sl := range slots {
		*sl = pool[i]
	}

	// Interleave the LOST chains among the DIRECTION tiles at random,
	// keeping the order of each.
	k := 1
	d, b := 0, 0
	for d < len(dirs) || b < len(blocks) {
		if b < len(blocks) && (d == len(dirs) || r.IntN(len(dirs)-d+len(blocks)-b) < len(blocks)-b) {
			for _, it := range blocks[b] {
				s.stack[k] = it
				k++
			}
			b++
		} else {
			s.stack[k] = dirs[d]
			k++
			d++
		}
	}
	s.lastDir = 0
	for i := top; i > 0; i-- {
		if !s.stack[i].lost {
			s.lastDir = uint8(i)
			break
		}
	}

	f := s.floorDeck[s.floorsRevealed:]
	r.Shuffle(len(f), func(i, j int) { f[i], f[j] = f[j], f[i] })
	if s.danger {
		dk := s.dangerDeck[s.dangersShown:]
		r.Shuffle(len(dk), func(i, j int) { dk[i], dk[j] = dk[j], dk[i] })
	}
	s.rng = engine.NewRNG(r.Uint64())
	return s
}

// TestConformanceCatchesStackLeak shows that the perturbation covers D27: a
// copy of the game whose views also show the tile just below the top of the
// stack is caught by the suite.
func TestConformanceCatchesStackLeak(t *testing.T) {
	err := enginetest.Check(enginetest.Harness{
		Game:     leakyGame{},
		Setups:   []engine.Setup{{Players: 3}},
		Playouts: 20,
		Perturb: func(s engine.State, p engine.Seat, r *rand.Rand) engine.State {
			return &leakyState{perturb(s.(*leakyState).State, p, r).(*State)}
		},
	})
	if err == nil || !strings.Contains(err.Error(), "leak") {
		t.Fatalf("the suite did not catch the leak: %v", err)
	}
	t.Log(err)
}

// leakyGame is Plan de Secours with views that leak the stack.
type leakyGame struct{ Game }

func (leakyGame) New(s engine.Setup) (engine.State, error) {
	st, err := Game{}.New(s)
	if err != nil {
		return nil, err
	}
	return &leakyState{st.(*State)}, nil
}

type leakyState struct{ *State }

// AppendView writes the leaky view, as the server would.
func (l *leakyState) AppendView(dst []byte, p engine.Seat) []byte {
	b, err := engine.MarshalView(dst, l.View(p))
	if err != nil {
		panic(err)
	}
	return b
}

// leakyView is a view with the tile below the top. It embeds the view as a
// plainView, which has no AppendJSON: View's own would leave Below out.
type leakyView struct {
	plainView
	Below TileID `json:"below,omitzero"`
}

type plainView View

func (l *leakyState) View(p engine.Seat) engine.View {
	v := leakyView{plainView: plainView(l.State.View(p).(View))}
	if n := l.stackLen; n > 2 && !l.stack[n-2].lost {
		v.Below = l.stack[n-2].tile
	}
	return v
}

func (l *leakyState) Clone() engine.State { return &leakyState{l.State.Clone().(*State)} }

func (l *leakyState) Determinize(p engine.Seat, r *rand.Rand) engine.State {
	return &leakyState{l.State.Determinize(p, r).(*State)}
}
