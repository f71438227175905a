package evades

import (
	"context"
	"os"
	"strconv"
	"testing"

	"sortie/bot"
	"sortie/engine"
	"sortie/sim"
)

// playBots plays one game with one policy per seat and returns its outcome,
// the number of actions and the number of turns begun.
func playBots(t testing.TB, setup engine.Setup, policies []bot.Policy) (engine.Outcome, int, int) {
	t.Helper()
	g := Game{}
	st, err := g.New(setup)
	if err != nil {
		t.Fatal(err)
	}
	bots := make([]bot.Bot, setup.Players)
	for p := range bots {
		opts, _ := g.Info().Check(setup)
		bots[p] = policies[p].NewBot(g, bot.Seating{Seat: engine.Seat(p), Players: setup.Players, Options: opts, Seed: engine.Mix(setup.Seed, uint64(p)+100)})
	}
	n := 0
	for {
		if out, over := st.Outcome(); over {
			return out, n, st.(*State).turnsBegun
		}
		p := st.Actors()[0]
		legal := st.Legal(p)
		d := bots[p].Decide(st.View(p), legal, 0)
		if _, err := st.Apply(p, d.Action, 0); err != nil {
			t.Fatalf("seed %d: %s played %v: %v", setup.Seed, p, d.Action, err)
		}
		n++
	}
}

// TestHeuristicBeatsRandom is a quick check that the heuristic wins most
// two-player games against random play.
func TestHeuristicBeatsRandom(t *testing.T) {
	games := 200
	if testing.Short() {
		games = 40
	}
	wins := 0
	for i := range games {
		pols := []bot.Policy{Heuristic{}, bot.Random{}}
		h := i % 2
		if h == 1 {
			pols[0], pols[1] = pols[1], pols[0]
		}
		out, _, _ := playBots(t, engine.Setup{Players: 2, Seed: uint64(i)}, pols)
		if out.Won(engine.Seat(h)) {
			wins++
		}
	}
	if wins*10 < games*8 {
		t.Fatalf("the heuristic won %d of %d games against random", wins, games)
	}
	t.Logf("heuristic won %d of %d", wins, games)
}

// TestHeuristicWinRate measures the heuristic over 10,000 games per table
// (SORTIE_LONG=1 go test -run TestHeuristicWinRate -v ./games/evades/).
func TestHeuristicWinRate(t *testing.T) {
	if os.Getenv("SORTIE_LONG") != "1" {
		t.Skip("set SORTIE_LONG=1 to measure the heuristic over 10,000 games")
	}
	games := 10000
	if n, err := strconv.Atoi(os.Getenv("SORTIE_GAMES")); err == nil {
		games = n
	}
	for _, tc := range []struct {
		name    string
		players int
		objects string
	}{
		{"2p_heuristic_vs_random", 2, "1"},
		{"4p_heuristic_vs_3_random", 4, "1"},
		{"2p_two_objects_heuristic_vs_random", 2, "2"},
		{"4p_heuristic_self_play", 4, "1"},
	} {
		wins, actions, turns := 0, 0, 0
		var seatWins [maxPlayers]int
		for i := range games {
			pols := make([]bot.Policy, tc.players)
			h := i % tc.players
			for p := range pols {
				pols[p] = bot.Random{}
				if p == h || tc.name == "4p_heuristic_self_play" {
					pols[p] = Heuristic{}
				}
			}
			setup := engine.Setup{Players: tc.players, Seed: uint64(i), Options: map[string]string{optObjects: tc.objects}}
			out, n, tb := playBots(t, setup, pols)
			actions, turns = actions+n, turns+tb
			if out.Won(engine.Seat(h)) {
				wins++
			}
			for _, w := range out.Winners {
				seatWins[w]++
			}
		}
		t.Logf("%s: heuristic seat won %d of %d (%.1f%%); %.1f rounds and %.0f actions per game; wins by seat %v",
			tc.name, wins, games, 100*float64(wins)/float64(games), float64(turns)/float64(games*tc.players),
			float64(actions)/float64(games), seatWins[:tc.players])
	}
}

// TestHardBeatsMedium measures the hard level against the medium one
// (the heuristic) in two-player games with the seats rotated, 400 games
// unless SORTIE_GAMES says otherwise, and fails unless the 95% interval of
// hard's win rate lies above one half (SORTIE_LONG=1 go test -run
// TestHardBeatsMedium -v ./games/evades/).
func TestHardBeatsMedium(t *testing.T) {
	if os.Getenv("SORTIE_LONG") != "1" {
		t.Skip("set SORTIE_LONG=1 to measure the hard level against the medium one")
	}
	games := 400
	if n, err := strconv.Atoi(os.Getenv("SORTIE_GAMES")); err == nil {
		games = n
	}
	g := Game{}
	hard, err := bot.Level(g, "hard")
	if err != nil {
		t.Fatal(err)
	}
	medium, err := bot.Level(g, "medium")
	if err != nil {
		t.Fatal(err)
	}
	for _, objects := range []string{"1", "2"} {
		st, err := sim.Run(context.Background(), sim.Config{
			Game: g, Players: 2, Options: map[string]string{optObjects: objects},
			Policies: []bot.Policy{hard, medium}, Games: games, Seed: 1, Rotate: true,
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range st.Policies {
			t.Logf("objects_required=%s: %s won %d of %d, %.1f%% [%.1f, %.1f]", objects, p.Policy, p.Wins, p.Seatings, 100*p.WinRate.P, 100*p.WinRate.Lo, 100*p.WinRate.Hi)
			if p.Policy == "hard" && p.WinRate.Lo <= 0.5 {
				t.Errorf("objects_required=%s: hard won %.1f%% [%.1f, %.1f] against medium", objects, 100*p.WinRate.P, 100*p.WinRate.Lo, 100*p.WinRate.Hi)
			}
		}
	}
}
