package room25

import (
	"math/rand/v2"
	"testing"

	"sortie/bot"
	"sortie/coach/coachtest"
	"sortie/engine"
	"sortie/engine/enginetest"
	"sortie/sim"
)

// modeSeats lists every valid player count of every mode (§3.1).
var modeSeats = []struct {
	mode  string
	seats []int
}{
	{"cooperation", []int{2, 3, 4, 5, 6}},
	{"solo", []int{1}},
	{"suspicion", []int{4, 5, 6}},
	{"competition", []int{2, 3}},
	{"team", []int{4, 6}},
}

// conformanceSetups is every mode × room set × valid player count, plus
// the no-beacon variant of each mode.
func conformanceSetups() []engine.Setup {
	var out []engine.Setup
	for _, m := range modeSeats {
		for _, n := range m.seats {
			for _, set := range setNames {
				out = append(out, engine.Setup{Players: n, Options: map[string]string{optMode: m.mode, optRoomSet: set}})
			}
		}
		out = append(out, engine.Setup{Players: m.seats[0], Options: map[string]string{optMode: m.mode, optBeacons: "off"}})
		out = append(out, engine.Setup{Players: m.seats[0], Options: map[string]string{optMode: m.mode, optRoomSet: "custom", optCustom: exampleCustom}})
	}
	return out
}

// perturb changes everything seat p may not know, keeping the roles of the
// current actors so that their actions still apply.
func perturb(s engine.State, p engine.Seat, r *rand.Rand) engine.State {
	st := s.(*State)
	d := st.resample(p, r, st.Actors())
	d.rng = engine.NewRNG(r.Uint64())
	return d
}

func TestConformance(t *testing.T) {
	// 44 setups: the suite's heavy checks make a playout cost about 0.1 s
	// of CPU, so these counts keep the default run near a minute and -short
	// near ten seconds on two idle cores.
	playouts := 15
	if testing.Short() {
		playouts = 2
	}
	enginetest.Run(t, enginetest.Harness{
		Game:        Game{},
		Setups:      conformanceSetups(),
		Playouts:    playouts,
		Perturb:     perturb,
		Hint:        coachtest.Hint(Game{}),
		HintPerturb: perturb,
		RandomAction: func(r *rand.Rand) engine.Action {
			return randomAction(r)
		},
	})
}

// randomAction returns an arbitrary action, legal or not.
func randomAction(r *rand.Rand) engine.Action {
	tile := TileID(r.IntN(numTiles + 1))
	dir := Dir(r.IntN(5))
	ch := Character(r.IntN(maxChars + 1))
	line := Line(r.IntN(numLines + 1))
	tok := Token(r.IntN(numTokens))
	switch r.IntN(18) {
	case 0:
		return StartLook{tile}
	case 1:
		return SkipLook{}
	case 2:
		return Hint{Colour(r.IntN(6))}
	case 3:
		return Program{ch, tok, Token(r.IntN(numTokens))}
	case 4:
		return Play{}
	case 5:
		return Wait{}
	case 6:
		return Pass{}
	case 7:
		return Look{tile}
	case 8:
		return Move{dir}
	case 9:
		return Push{ch, dir}
	case 10:
		return Control{line, dir}
	case 11:
		return Act{Action: tok, Tile: tile, Character: ch, Line: line, Dir: dir}
	case 12:
		return VisionView{tile}
	case 13:
		return MobileSwap{tile}
	case 14:
		return IllusionSwap{tile}
	case 15:
		return ControlRoomSlide{line, dir}
	case 16:
		return PlaceBeacon{ch, tile}
	}
	return RevealRole{}
}

// TestDeterminize checks, on random states of every mode, that
// Determinize keeps the seat's view, keeps the room multiset, puts Room 25
// and the Vision Room on tiles dealt to exit cells, and does change what
// the seat cannot see.
func TestDeterminize(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	changed := 0
	for i, setup := range conformanceSetups() {
		setup.Seed = uint64(i)
		st, _ := Game{}.New(setup)
		s := st.(*State)
		steps := r.IntN(60)
		for range steps {
			if s.over {
				break
			}
			actors := s.Actors()
			p := actors[r.IntN(len(actors))]
			legal := s.Legal(p)
			if _, err := s.Apply(p, legal[r.IntN(len(legal))], 0); err != nil {
				t.Fatal(err)
			}
		}
		for p := range engine.Seat(s.seats) {
			d := s.Determinize(p, r).(*State)
			if js(s.View(p)) != js(d.View(p)) {
				t.Fatalf("%v: Determinize(%s) changed the view", setup, p)
			}
			var a, b [numRooms]int
			for tile := range int8(numTiles) {
				a[s.room[tile]]++
				b[d.room[tile]]++
				if rm := d.room[tile]; (rm == Room25 || rm == RoomVision) && origin(tile) != "exit" {
					t.Fatalf("%v: %s on tile %s, not dealt to an exit cell", setup, rm, tileID(tile))
				}
			}
			if a != b {
				t.Fatalf("%v: the room multiset changed", setup)
			}
			if d.room != s.room || d.role != s.role {
				changed++
			}
		}
	}
	if changed == 0 {
		t.Fatal("Determinize never changed anything")
	}
}

// TestHeuristicPlayouts plays heuristic games (which, unlike random ones,
// reach the late game: alarms, masks falling, Guards in immediate play,
// escapes, the end of the countdown) in every setup and checks on the way
// that perturbing what each seat may not know keeps its view, that every
// legal action of the actor applies on a clone, and that the log replays
// to the same end.
func TestHeuristicPlayouts(t *testing.T) {
	games, every := 4, 1
	if testing.Short() {
		games, every = 1, 4
	}
	r := rand.New(rand.NewPCG(7, 8))
	for i, setup := range conformanceSetups() {
		if i%every != 0 {
			continue
		}
		for g := range games {
			setup.Seed = uint64(1000*i + g)
			ps := make([]bot.Policy, setup.Players)
			for p := range ps {
				ps[p] = Heuristic{}
				if (p+g)%3 == 2 {
					ps[p] = bot.Random{}
				}
			}
			res, err := sim.Play(Game{}, setup, ps, true)
			if err != nil {
				t.Fatal(err)
			}
			st, _ := Game{}.New(setup)
			s := st.(*State)
			for k, rec := range res.Log {
				if k%3 == 0 {
					for p := engine.Spectator; p < engine.Seat(setup.Players); p++ {
						alt := perturb(s, p, r)
						if a, b := js(s.View(p)), js(alt.View(p)); a != b {
							t.Fatalf("%v record %d: perturbing changed %s's view", setup, k, p)
						}
					}
					for _, q := range s.Actors() {
						for _, a := range s.Legal(q) {
							if _, err := s.clone().Apply(q, a, 0); err != nil {
								t.Fatalf("%v record %d: legal %s refused: %v", setup, k, js(a), err)
							}
						}
					}
				}
				if _, err := engine.Play(s, rec); err != nil {
					t.Fatalf("%v record %d: %v", setup, k, err)
				}
			}
			out, over := s.Outcome()
			if !over || js(out) != js(res.Outcome) {
				t.Fatalf("%v: the replay ends with %v %s, the game with %s", setup, over, js(out), js(res.Outcome))
			}
		}
	}
}
