package evades

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"

	"sortie/bot"
	"sortie/engine"
	"sortie/sim"
)

// TestEasyPlaysWholeGames: easy bots finish games of every variant and
// table size, each with a winner, and the easy level is the game's own Easy.
func TestEasyPlaysWholeGames(t *testing.T) {
	g := Game{}
	p, err := bot.Level(g, "easy")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := p.(Easy); !ok {
		t.Fatalf("bot.Level(Game{}, \"easy\") is %T, not Easy", p)
	}
	games := 4
	if testing.Short() {
		games = 1
	}
	for _, objects := range []string{"1", "2"} {
		for players := minPlayers; players <= maxPlayers; players++ {
			pols := make([]bot.Policy, players)
			for i := range pols {
				pols[i] = Easy{}
			}
			for seed := range games {
				setup := engine.Setup{Players: players, Seed: uint64(seed), Options: map[string]string{optObjects: objects}}
				res, err := sim.PlayOne(g, setup, pols)
				if err != nil {
					t.Fatalf("objects_required=%s, %d players, seed %d: %v", objects, players, seed, err)
				}
				if len(res.Outcome.Winners) == 0 {
					t.Errorf("objects_required=%s, %d players, seed %d: no easy bot escaped in %d actions", objects, players, seed, res.Actions)
				}
			}
		}
	}
}

// TestEasyBetweenRandomAndMedium measures the easy level against the medium
// one and against random play in two-player games with the seats rotated,
// 1,000 games each unless SORTIE_GAMES says otherwise, and fails unless the
// 95% intervals show medium > easy > random (SORTIE_LONG=1 go test -run
// TestEasyBetweenRandomAndMedium -v ./games/evades/).
func TestEasyBetweenRandomAndMedium(t *testing.T) {
	if os.Getenv("SORTIE_LONG") != "1" {
		t.Skip("set SORTIE_LONG=1 to measure the easy level against medium and random")
	}
	games := 1000
	if n, err := strconv.Atoi(os.Getenv("SORTIE_GAMES")); err == nil {
		games = n
	}
	g := Game{}
	level := func(name string) bot.Policy {
		p, err := bot.Level(g, name)
		if err != nil {
			t.Fatal(err)
		}
		return p
	}
	var table strings.Builder
	table.WriteString("| table | first policy wins | 95% interval | games |\n|---|---|---|---|\n")
	for _, pair := range [][]bot.Policy{{level("medium"), level("easy")}, {level("easy"), bot.Random{}}} {
		st, err := sim.Run(context.Background(), sim.Config{
			Game: g, Players: 2, Policies: pair, Games: games, Seed: 1, Rotate: true,
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range st.Policies {
			if p.Policy != pair[0].Name() {
				continue
			}
			fmt.Fprintf(&table, "| 2 players, %s vs %s | %d (%.1f%%) | [%.1f, %.1f] | %d |\n",
				pair[0].Name(), pair[1].Name(), p.Wins, 100*p.WinRate.P, 100*p.WinRate.Lo, 100*p.WinRate.Hi, p.Seatings)
			if p.WinRate.Lo <= 0.5 {
				t.Errorf("%s won %.1f%% [%.1f, %.1f] against %s", p.Policy, 100*p.WinRate.P, 100*p.WinRate.Lo, 100*p.WinRate.Hi, pair[1].Name())
			}
		}
	}
	t.Log("\n" + table.String())
}
