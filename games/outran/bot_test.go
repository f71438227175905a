package outran

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"sortie/bot"
	"sortie/engine"
	"sortie/sim"
)

// TestBotDecisionsAreAccepted plays games in which every actor's bot
// decision is applied at once, and checks that the game accepts each one:
// bots only ever choose actions the rules allow.
func TestBotDecisionsAreAccepted(t *testing.T) {
	games := 40
	if testing.Short() {
		games = 8
	}
	g := Game{}
	pols := g.Policies()
	for _, m := range []string{"bear", "vampire", "zombie", "dragon"} {
		for i := range games {
			n := 2 + i%5
			s, err := g.New(engine.Setup{Players: n, Seed: uint64(i), Options: map[string]string{optMonster: m}})
			if err != nil {
				t.Fatal(err)
			}
			bots := make([]bot.Bot, n)
			for p := range n {
				bots[p] = pols[(p+i)%len(pols)].NewBot(g, bot.Seating{Seat: engine.Seat(p), Players: n, Seed: uint64(100*i + p)})
			}
			r := rand.New(rand.NewPCG(uint64(i), 7))
			var now engine.Millis
			for steps := 0; ; steps++ {
				if _, over := s.Outcome(); over {
					break
				}
				if steps > maxActions {
					t.Fatalf("%s game %d did not end", m, i)
				}
				actors := s.Actors()
				if len(actors) == 0 {
					dl, _ := s.Deadline()
					s.Advance(dl)
					now = dl
					continue
				}
				p := actors[r.IntN(len(actors))]
				d := bots[p].Decide(s.View(p), s.Legal(p), now)
				if d.Action == nil {
					t.Fatalf("%s game %d: %s's bot returned no action", m, i, p)
				}
				if _, err := s.Apply(p, d.Action, now); err != nil {
					t.Fatalf("%s game %d: %s's bot played %s, refused: %v", m, i, p, js(d.Action), err)
				}
			}
		}
	}
}

// TestBotGamesReplay plays bot games on the simulator's virtual clock and
// replays their logs: same seed and log, same outcome.
func TestBotGamesReplay(t *testing.T) {
	g := Game{}
	for i, m := range []string{"bear", "vampire", "zombie", "dragon"} {
		setup := engine.Setup{Players: 4, Seed: uint64(1000 + i), Options: map[string]string{optMonster: m}}
		res, err := sim.Play(g, setup, []bot.Policy{Easy, Heuristic, Hard, Expert}, true)
		if err != nil {
			t.Fatal(err)
		}
		s, err := engine.Replay(g, setup, res.Log)
		if err != nil {
			t.Fatal(err)
		}
		out, over := s.Outcome()
		if !over || js(out) != js(res.Outcome) {
			t.Fatalf("%s: the replay ends %s, the game ended %s", m, js(out), js(res.Outcome))
		}
	}
}

// TestLongBotLevels measures the bot levels against each other (four seats,
// one of each level, rotated) and the heuristic against random (heads-up),
// over 10,000 games per monster. Run with SORTIE_LONG=1.
func TestLongBotLevels(t *testing.T) {
	if os.Getenv("SORTIE_LONG") != "1" || testing.Short() {
		t.Skip("set SORTIE_LONG=1 to measure the bots over 10,000 games per monster")
	}
	games := 10000
	if n, err := strconv.Atoi(os.Getenv("SORTIE_GAMES")); err == nil && n > 0 {
		games = n // a quicker look while tuning
	}
	var report strings.Builder
	for _, m := range []string{"bear", "vampire", "zombie", "dragon"} {
		for _, b := range []struct {
			name string
			pols []bot.Policy
		}{
			{"levels", []bot.Policy{Easy, Heuristic, Hard, Expert}},
			{"heuristic vs random", []bot.Policy{Heuristic, bot.Random{}}},
		} {
			st, err := sim.Run(t.Context(), sim.Config{
				Game: Game{}, Players: len(b.pols), Options: map[string]string{optMonster: m},
				Policies: b.pols, Games: games, Seed: 2026, Rotate: true, Workers: 1,
			})
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&report, "%s, %s (%d games, %.1f actions, %.0f s of match time a game, %.0f games/s):\n",
				m, b.name, st.Games, st.Actions, st.Clock, st.GamesPerSecond)
			for _, ps := range st.Policies {
				fmt.Fprintf(&report, "  %-10s wins %s  mean progress %.1f\n", ps.Policy, ps.WinRate, ps.MeanScore)
			}
		}
	}
	t.Log("\n" + report.String())
}

// O14: a bot holding a Shield and a For you with a hindrance in front gives
// the hindrance away before it raises its Shield, so that the Shield, which
// For you would carry along (D12), stays in front of the bot.
func TestBotKeepsItsShield(t *testing.T) {
	s := newState(t, 3, "bear")
	s.giveFront(t, int(A), "reverse_1")
	s.giveHand(t, A, "shield_1", "for_you_1")
	s.giveHand(t, C, "reverse_2") // C plays later: a Shield is worth raising
	s.seats[B].Progress = 5       // B leads
	s.turnOf(A, A, B, C)
	b := Heuristic.NewBot(Game{}, bot.Seating{Seat: A, Players: 3, Seed: 1})
	for range 3 {
		d := b.Decide(s.View(A), s.Legal(A), s.phaseAt)
		if _, end := d.Action.(EndTurn); end {
			break
		}
		play(t, s, A, d.Action, s.phaseAt)
	}
	wantFront(t, s, int(A), "shield_1")
	wantFront(t, s, int(B), "reverse_1")
}

// O15: adjacent levels overlap. Two seats, one of each of two adjacent
// levels, rotated: the better level wins most games, and the other wins
// some, as a medium player beats a hard one now and then. With §8.4's
// jitter alone (±15–25 % a round) the better level won every game. The
// default monster here; every monster, ten times the games, with
// SORTIE_LONG=1.
func TestAdjacentLevelsOverlap(t *testing.T) {
	games, monsters := 400, []string{"vampire"}
	if os.Getenv("SORTIE_LONG") == "1" && !testing.Short() {
		games, monsters = 4000, []string{"bear", "vampire", "zombie", "dragon"}
	}
	var report strings.Builder
	for _, m := range monsters {
		for _, pair := range [][2]Policy{{Easy, Heuristic}, {Heuristic, Hard}, {Hard, Expert}} {
			st, err := sim.Run(t.Context(), sim.Config{
				Game: Game{}, Players: 2, Options: map[string]string{optMonster: m},
				Policies: []bot.Policy{pair[0], pair[1]}, Games: games, Seed: 15, Rotate: true,
			})
			if err != nil {
				t.Fatal(err)
			}
			rate := map[string]sim.PolicyStats{}
			for _, ps := range st.Policies {
				rate[ps.Policy] = ps
			}
			weak, strong := rate[pair[0].Name()], rate[pair[1].Name()]
			fmt.Fprintf(&report, "%s: %s wins %s, %s %s\n", m, strong.Policy, strong.WinRate, weak.Policy, weak.WinRate)
			// The weaker level wins at least one game in fifty; the
			// better at least three in four.
			if weak.Wins*50 < games || strong.Wins*4 < games*3 {
				t.Errorf("%s, %s against %s: %d and %d wins of %d", m, strong.Policy, weak.Policy, strong.Wins, weak.Wins, games)
			}
		}
	}
	t.Log("\n" + report.String())
}
