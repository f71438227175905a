package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"sortie/bot"
	"sortie/engine"
	"sortie/sim"
)

func init() {
	var (
		sf      setupFlags
		games   int
		bots    string
		workers int
		rotate  bool
		asJSON  bool
	)
	cmd := &cobra.Command{
		Use:   "sim <game>",
		Short: "Play many bot games on every core and print win rates with 95% intervals",
		Long: `Plays --games bot games of one game, all cores at once, and prints win rates
per seat and per bot with 95% Wilson intervals, the mean game length and the
speed. --bots lists the seats' bots in seat order (cycled when shorter than the
number of seats); with --rotate (the default) the bots move one seat on at each
game so that no bot keeps a seat's advantage. A shared victory counts as a win
for each winner; in co-operative games every seat's rate is the team's.`,
		Example: `  sortie sim plandesecours --games 10000
  sortie sim plandesecours --games 10000 --players 4 --bots heuristic,random
  sortie sim plandesecours --games 1000 --option danger=true --json`,
		Args: gameArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			g, err := findGame(args[0])
			if err != nil {
				return err
			}
			if sf.seed == 0 {
				sf.seed = 1
			}
			setup, err := sf.setup(g)
			if err != nil {
				return err
			}
			pols, err := seatPolicies(g, bots, setup.Players)
			if err != nil {
				return err
			}
			if games < 1 {
				return fmt.Errorf("--games must be at least 1")
			}
			cfg := sim.Config{
				Game: g, Players: setup.Players, Options: setup.Options, Policies: pols,
				Games: games, Seed: setup.Seed, Workers: workers, Rotate: rotate,
			}
			if term.IsTerminal(int(os.Stderr.Fd())) {
				bar := progressbar.NewOptions(games,
					progressbar.OptionSetWriter(os.Stderr),
					progressbar.OptionSetDescription(g.Info().ID),
					progressbar.OptionShowCount(),
					progressbar.OptionShowIts(),
					progressbar.OptionSetItsString("games"),
					progressbar.OptionThrottle(100_000_000),
					progressbar.OptionClearOnFinish(),
				)
				var mu sync.Mutex
				cfg.Progress = func(int) { mu.Lock(); bar.Add(1); mu.Unlock() }
				defer bar.Finish()
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer stop()
			st, err := sim.Run(ctx, cfg)
			if err != nil && err != context.Canceled {
				return err
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(st)
			}
			printStats(cmd.OutOrStdout(), st, rotate)
			return nil
		},
	}
	sf.register(cmd)
	cmd.Flags().IntVar(&games, "games", 1000, "number of games")
	cmd.Flags().StringVar(&bots, "bots", "random", "comma-separated bots by seat, cycled (see 'sortie games')")
	cmd.Flags().IntVar(&workers, "workers", 0, "games played at once (default: one per core)")
	cmd.Flags().BoolVar(&rotate, "rotate", true, "move the bots one seat on at each game")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the statistics as JSON")
	root.AddCommand(cmd)
}

// seatPolicies reads --bots: names by seat, cycled to n seats.
func seatPolicies(g engine.Game, names string, n int) ([]bot.Policy, error) {
	list := strings.Split(names, ",")
	pols := make([]bot.Policy, n)
	for p := range n {
		name := strings.TrimSpace(list[p%len(list)])
		pol, err := bot.Find(g, name)
		if err != nil {
			return nil, err
		}
		pols[p] = pol
	}
	return pols, nil
}

func printStats(out io.Writer, st sim.Stats, rotated bool) {
	fmt.Fprintf(out, "%s, %d players", st.Game, st.Players)
	for k, v := range st.Options {
		fmt.Fprintf(out, ", %s=%s", k, v)
	}
	fmt.Fprintf(out, ": %d games in %.1f s (%.0f games/s)\n\n", st.Games, st.Seconds, st.GamesPerSecond)
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "bot\tseatings\twins\twin rate [95% interval]\tmean score\t")
	for _, p := range st.Policies {
		fmt.Fprintf(w, "%s\t%d\t%d\t%s\t%.2f\t\n", p.Policy, p.Seatings, p.Wins, p.WinRate, p.MeanScore)
	}
	w.Flush()
	fmt.Fprintln(out)
	w = tabwriter.NewWriter(out, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(w, "seat\twins\twin rate [95% interval]\tmean score\t")
	for _, s := range st.Seats {
		fmt.Fprintf(w, "%d\t%d\t%s\t%.2f\t\n", s.Seat, s.Wins, s.WinRate, s.MeanScore)
	}
	w.Flush()
	fmt.Fprintf(out, "\nfair share per seat: %.1f%%", 100/float64(st.Players))
	if rotated {
		fmt.Fprint(out, " (bots rotated through the seats)")
	}
	fmt.Fprintf(out, "\nall seats won: %s   no seat won: %s\n", st.AllWon, st.NoneWon)
	fmt.Fprintf(out, "mean game length: %.1f actions (sd %.1f)", st.Actions, st.ActionsStdDev)
	if st.Clock > 0 {
		fmt.Fprintf(out, ", %.1f s of match time", st.Clock)
	}
	fmt.Fprintln(out)
}
