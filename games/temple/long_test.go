package temple

import (
	"context"
	"fmt"
	"os"
	"strings"
	"testing"

	"sortie/bot"
	"sortie/engine"
	"sortie/sim"
)

// TestLongSuccessRates measures the success rate of teams of 1–5 heuristic
// bots at each difficulty over 10,000 games each (and with both modules
// over 2,000, teams of hard bots over 2,000 and teams of random bots over
// 1,000), on the virtual clock.
// It takes tens of minutes: run it with SORTIE_LONG=1; it prints a
// Markdown table for README.md.
func TestLongSuccessRates(t *testing.T) {
	if testing.Short() || os.Getenv("SORTIE_LONG") != "1" {
		t.Skip("set SORTIE_LONG=1 to measure the bots' success rates")
	}
	type cell struct {
		label string
		opts  map[string]string
		games int
		pol   bot.Policy
	}
	rows := []cell{
		{"heuristic, normal", map[string]string{OptDifficulty: "normal"}, 10_000, Heuristic()},
		{"heuristic, advanced", map[string]string{OptDifficulty: "advanced"}, 10_000, Heuristic()},
		{"heuristic, expert", map[string]string{OptDifficulty: "expert"}, 10_000, Heuristic()},
		{"heuristic, normal, curses + treasures", map[string]string{OptCurses: "true", OptTreasures: "true"}, 2_000, Heuristic()},
		{"heuristic, advanced, curses + treasures", map[string]string{OptDifficulty: "advanced", OptCurses: "true", OptTreasures: "true"}, 2_000, Heuristic()},
		{"heuristic, expert, curses + treasures", map[string]string{OptDifficulty: "expert", OptCurses: "true", OptTreasures: "true"}, 2_000, Heuristic()},
		{"heuristic, normal, Sand of Fortune", map[string]string{OptTimer: "sand"}, 2_000, Heuristic()},
		{"hard, normal", map[string]string{OptDifficulty: "normal"}, 2_000, Hard()},
		{"hard, advanced", map[string]string{OptDifficulty: "advanced"}, 2_000, Hard()},
		{"hard, expert", map[string]string{OptDifficulty: "expert"}, 2_000, Hard()},
		{"hard, normal, curses + treasures", map[string]string{OptCurses: "true", OptTreasures: "true"}, 2_000, Hard()},
		{"random, normal", map[string]string{}, 1_000, bot.Random{}},
	}
	if only := os.Getenv("SORTIE_LONG_ROWS"); only != "" {
		var keep []cell
		for _, r := range rows {
			if strings.Contains(r.label, only) {
				keep = append(keep, r)
			}
		}
		rows = keep
	}
	var b strings.Builder
	b.WriteString("| Team | 1 player | 2 players | 3 players | 4 players | 5 players |\n|---|---|---|---|---|---|\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s (%d games) |", r.label, r.games)
		for n := 1; n <= maxPlayers; n++ {
			st, err := sim.Run(context.Background(), sim.Config{
				Game: Game{}, Players: n, Options: r.opts, Policies: team(r.pol, n),
				Games: r.games, Seed: engine.Mix(uint64(n), 0x7e3b1e), Workers: 1,
			})
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, " %.1f %% [%.1f, %.1f] |", 100*st.AllWon.P, 100*st.AllWon.Lo, 100*st.AllWon.Hi)
			t.Logf("%s, %d players: %s, %.0f games/s", r.label, n, st.AllWon, st.GamesPerSecond)
		}
		b.WriteString("\n")
	}
	fmt.Println(b.String())
	if out := os.Getenv("SORTIE_LONG_OUT"); out != "" {
		os.WriteFile(out, []byte(b.String()), 0o644)
	}
}

// TestLongLevels measures the bot levels of the co-operative temple as team
// success rates (issue 10): teams of 2–4 easy, medium ("heuristic") or hard
// bots at normal difficulty, 2,000 games each, and the hard strategy at the
// medium's reaction time to tell the strategy's share from the pace's.
// Medium must beat easy, and hard medium, with 95 % intervals apart. Run it with SORTIE_LONG=1 (minutes); it
// prints a Markdown table for README.md.
func TestLongLevels(t *testing.T) {
	if testing.Short() || os.Getenv("SORTIE_LONG") != "1" {
		t.Skip("set SORTIE_LONG=1 to measure the bot levels")
	}
	const games = 2_000
	levels := []struct {
		label string
		pol   bot.Policy
	}{
		{"easy (`easy`, the heuristic at 1 500–2 500 ms)", Easy()},
		{"medium (`heuristic`)", Heuristic()},
		{"hard strategy at the medium's reaction (1 000–1 600 ms)", hardAt("normal")},
		{"hard (`hard`, 600–1 000 ms)", Hard()},
	}
	var b strings.Builder
	b.WriteString("| Level | 2 players | 3 players | 4 players |\n|---|---|---|---|\n")
	rates := make([][]sim.Interval, len(levels))
	for i, l := range levels {
		fmt.Fprintf(&b, "| %s |", l.label)
		for n := 2; n <= 4; n++ {
			st, err := sim.Run(context.Background(), sim.Config{
				Game: Game{}, Players: n, Policies: team(l.pol, n),
				Games: games, Seed: engine.Mix(uint64(n), 0x1e7e15), Workers: 1,
			})
			if err != nil {
				t.Fatal(err)
			}
			rates[i] = append(rates[i], st.AllWon)
			fmt.Fprintf(&b, " %.1f %% [%.1f, %.1f] |", 100*st.AllWon.P, 100*st.AllWon.Lo, 100*st.AllWon.Hi)
			t.Logf("%s, %d players: %s, %.0f games/s", l.label, n, st.AllWon, st.GamesPerSecond)
		}
		b.WriteString("\n")
	}
	fmt.Println(b.String())
	for k, n := range []int{2, 3, 4} {
		easy, med, hard := rates[0][k], rates[1][k], rates[len(levels)-1][k]
		if med.Lo <= easy.Hi {
			t.Errorf("%d players: medium %s does not beat easy %s", n, med, easy)
		}
		if hard.Lo <= med.Hi {
			t.Errorf("%d players: hard %s does not beat medium %s", n, hard, med)
		}
	}
	if out := os.Getenv("SORTIE_LONG_OUT"); out != "" {
		os.WriteFile(out, []byte(b.String()), 0o644)
	}
}
