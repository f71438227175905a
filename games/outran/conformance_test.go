package outran

import (
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"sortie/engine"
	"sortie/engine/enginetest"
)

// conformanceSetups are every player count × monster × number of exit
// boards, the other options at their defaults (sweeping the timer options'
// every value would be millions of setups).
func conformanceSetups() []engine.Setup {
	var out []engine.Setup
	for n := 2; n <= 6; n++ {
		for _, m := range []string{"bear", "vampire", "zombie", "dragon"} {
			for b := 1; b <= 3; b++ {
				out = append(out, engine.Setup{Players: n, Options: map[string]string{
					optMonster: m, optExitBoards: strconv.Itoa(b),
				}})
			}
		}
	}
	// The stop vote off, and a short round cap that games reach.
	out = append(out,
		engine.Setup{Players: 4, Options: map[string]string{optStopVote: "false"}},
		engine.Setup{Players: 3, Options: map[string]string{optMonster: "zombie", optMaxRounds: "10", optExitBoards: "3"}},
	)
	return out
}

// perturb changes everything seat p may not know: the order of both decks,
// the unseen cards of other hands (the current actors keep theirs), the other
// seats' submissions not yet checked, and the generator.
func perturb(s engine.State, p engine.Seat, r *rand.Rand) engine.State {
	st := s.(*state)
	return st.resample(p, r, st.Actors(), true)
}

// randomAction is any action of the game, legal or not.
func randomAction(r *rand.Rand) engine.Action {
	switch r.IntN(6) {
	case 0:
		n := r.IntN(14)
		cs := make([]Token, n)
		for i := range cs {
			cs[i] = Token(r.IntN(int(tokenCount)))
		}
		return Submit{Cards: cs}
	case 1:
		return VoteStop{}
	case 2:
		return ChoosePlace{Leftmost: r.IntN(2) == 0}
	case 3:
		return Infect{Target: engine.Seat(r.IntN(8) - 1)}
	case 4:
		return Play{Card: Card(r.IntN(cardCount)), Target: engine.Seat(r.IntN(8) - 1)}
	}
	return EndTurn{}
}

func TestConformance(t *testing.T) {
	// 62 setups: 20 playouts each by default, 4 with -short, 1,000 with
	// SORTIE_LONG=1; the expensive checks run at one step in ten.
	playouts := 20
	if testing.Short() {
		playouts = 4
	}
	if os.Getenv("SORTIE_LONG") == "1" {
		playouts = 1000
	}
	enginetest.Run(t, enginetest.Harness{
		Game:           Game{},
		Setups:         conformanceSetups(),
		Playouts:       playouts,
		Perturb:        perturb,
		RandomAction:   randomAction,
		LegalIsPartial: true,
		CheckEvery:     0.1,
	})
}
