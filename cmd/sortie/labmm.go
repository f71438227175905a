package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"sortie/internal/matchmaker"
)

// labMatchmakingCmd is sortie lab matchmaking: a simulated crowd pressing
// Play now, through the server's matchmaker.
func labMatchmakingCmd() *cobra.Command {
	var (
		players       int
		rates         string
		botFill, wave time.Duration
		spread        float64
		leavers, solo float64
		seed          uint64
	)
	cmd := &cobra.Command{
		Use:   "matchmaking",
		Short: "Simulate players arriving at random at Play now: waits, rating gaps, tables with bots",
		Long: `Simulate a crowd pressing Play now: players arrive at random (a Poisson
process) at each rate given, ask for a mix of tables across the five games
(two-player tables most, some of four, co-op tables of three and four; four
in five rated), with ratings drawn around 25; the server's matchmaker seats
them, one wave a second. It prints, for each rate, the median and 95th
percentile of the wait, the rating gap inside tables of two people or more,
and the share of tables (and of players) filled with bots.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			pools, ws := matchmaker.DefaultPools()
			out := cmd.OutOrStdout()
			fmt.Fprintf(out, "%d players a rate, ratings N(25, %g), bots after %v, %g%% leavers, %g%% humans only, a wave every %v, seed %d\n\n",
				players, spread, botFill, 100*leavers, 100*solo, wave, seed)
			fmt.Fprintln(out, "| arrivals a minute | median wait | p95 wait | median gap (μ) | p95 gap (μ) | tables | with bots | players with bots |")
			fmt.Fprintln(out, "|---:|---:|---:|---:|---:|---:|---:|---:|")
			for _, s := range strings.Split(rates, ",") {
				rate, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
				if err != nil || rate <= 0 {
					return fmt.Errorf("--rates: %q is not a rate a minute", s)
				}
				r := matchmaker.Defaults().Simulate(matchmaker.SimConfig{Players: players, Rate: rate, Pools: pools, Weights: ws,
					Mu: 25, Spread: spread, BotFill: botFill, Leavers: leavers, HumansOnly: solo, Wave: wave, Seed: seed})
				fmt.Fprintf(out, "| %g | %.1f s | %.1f s | %.1f | %.1f | %d | %.0f%% | %.0f%% |\n", rate,
					r.MedianWait.Seconds(), r.P95Wait.Seconds(), r.MedianGap, r.P95Gap, r.Tables, 100*r.WithBots, 100*r.PlayersWithBots)
				if r.Unseated > 0 {
					fmt.Fprintf(out, "(%d players asking for humans only were still waiting at the end)\n", r.Unseated)
				}
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.IntVar(&players, "players", 1000, "players arriving at each rate")
	f.StringVar(&rates, "rates", "10,60,600", "arrival rates to simulate, players a minute, separated by commas")
	f.DurationVar(&botFill, "bot-fill", 30*time.Second, "each player's wait before bots fill the empty seats")
	f.DurationVar(&wave, "wave", time.Second, "time between two waves")
	f.Float64Var(&spread, "spread", 4, "standard deviation of the players' ratings (μ)")
	f.Float64Var(&leavers, "leavers", 0.05, "share of players who leave often")
	f.Float64Var(&solo, "humans-only", 0, "share of players who want no bots")
	f.Uint64Var(&seed, "seed", 1, "seed of the arrivals and ratings")
	return cmd
}
