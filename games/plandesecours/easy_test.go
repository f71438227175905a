package plandesecours

import (
	"context"
	"fmt"
	"os"
	"slices"
	"testing"

	"sortie/bot"
	"sortie/engine"
	"sortie/sim"
)

// TestEasyLevel checks that the easy level of Plan de Secours is the game's
// own Easy policy, not random play.
func TestEasyLevel(t *testing.T) {
	p, err := bot.Level(Game{}, "easy")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := p.(Easy); !ok {
		t.Fatalf("the easy level is %T, want plandesecours.Easy", p)
	}
}

// TestEasyPlays plays whole games with easy bots for every player count,
// with and without DANGER, alone and beside the heuristic: every answer is
// one of the seat's legal actions and the game ends.
func TestEasyPlays(t *testing.T) {
	seeds := 10
	if testing.Short() {
		seeds = 3
	}
	for n := 2; n <= MaxPlayers; n++ {
		for _, danger := range []bool{false, true} {
			for mixed := range 2 {
				for k := range seeds {
					setup := engine.Setup{Players: n, Seed: uint64(1000*n + 100*k + 10*mixed), Options: map[string]string{"danger": boolText(danger)}}
					ps := make([]bot.Policy, n)
					for p := range ps {
						ps[p] = strictEasy{t}
						if mixed == 1 && p%2 == 1 {
							ps[p] = Heuristic{}
						}
					}
					r, err := sim.PlayOne(Game{}, setup, ps)
					if err != nil {
						t.Fatalf("%d players, danger %v, seed %d: %v", n, danger, setup.Seed, err)
					}
					if len(r.Outcome.Winners) == 0 {
						t.Errorf("%d players, danger %v, seed %d: the game ended with no winner", n, danger, setup.Seed)
					}
				}
			}
		}
	}
}

// strictEasy is the Easy policy whose bots fail the test when they answer
// anything but one of their legal actions.
type strictEasy struct{ t *testing.T }

func (strictEasy) Name() string { return "easy" }

func (s strictEasy) NewBot(g engine.Game, st bot.Seating) bot.Bot {
	return strictBot{Easy{}.NewBot(g, st).(*easyBot), s.t}
}

type strictBot struct {
	*easyBot
	t *testing.T
}

func (b strictBot) Decide(v engine.View, legal []engine.Action, now engine.Millis) bot.Decision {
	d := b.easyBot.Decide(v, legal, now)
	if !slices.Contains(legal, d.Action) {
		b.t.Errorf("seat %d (easy) answered %#v, not a legal action", b.h.seat, d.Action)
	}
	return d
}

// easyBatch plays 2,000 two-seat games between two policies (rotated one
// seat on at each game) as `sortie sim plandesecours --seed 1` does, and
// returns their win rates.
func easyBatch(t *testing.T, a, b bot.Policy) (sim.Interval, sim.Interval) {
	t.Helper()
	st, err := sim.Run(context.Background(), sim.Config{
		Game: Game{}, Players: 2, Policies: []bot.Policy{a, b},
		Games: 2000, Seed: 1, Rotate: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	rate := func(name string) sim.Interval {
		for _, p := range st.Policies {
			if p.Policy == name {
				return p.WinRate
			}
		}
		t.Fatalf("no policy %q in the batch", name)
		return sim.Interval{}
	}
	return rate(a.Name()), rate(b.Name())
}

// TestEasyRates measures the easy bot (SORTIE_LONG=1; the figures go in
// README.md) and fails unless the 95% intervals show medium beating easy
// and easy beating random head to head.
func TestEasyRates(t *testing.T) {
	if os.Getenv("SORTIE_LONG") == "" || testing.Short() {
		t.Skip("set SORTIE_LONG=1 to measure the easy bot")
	}
	medium, easy := easyBatch(t, Heuristic{}, Easy{})
	easy2, random := easyBatch(t, Easy{}, bot.Random{})
	pct := func(i sim.Interval) string {
		return fmt.Sprintf("%.1f%% [%.1f, %.1f]", 100*i.P, 100*i.Lo, 100*i.Hi)
	}
	fmt.Println("| 2 players, 2,000 games | Wins [95% interval] | Opponent wins |")
	fmt.Println("|---|---|---|")
	fmt.Printf("| medium vs easy | medium %s | easy %s |\n", pct(medium), pct(easy))
	fmt.Printf("| easy vs random | easy %s | random %s |\n", pct(easy2), pct(random))
	if medium.Lo <= easy.Hi {
		t.Errorf("medium %s does not clearly beat easy %s", pct(medium), pct(easy))
	}
	if easy2.Lo <= random.Hi {
		t.Errorf("easy %s does not clearly beat random %s", pct(easy2), pct(random))
	}
}
