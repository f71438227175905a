package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"sortie/engine"
	"sortie/internal/rating"
	"sortie/internal/ratinglab"
	"sortie/sim"
)

// ratingDataFile is where the rating's measured data lives in the repository.
const ratingDataFile = "internal/rating/baselines.json"

func init() {
	lab := &cobra.Command{
		Use:   "lab",
		Short: "Measure what the rating needs (baselines, benchmarks) and how well it works",
		Long: `The rating's lab, with bots.

  sortie lab baselines <game>  hard bots on every seat measure each side's
                               baseline win rate (team family) and each
                               co-op team's success rate, per variant and
                               player count, into ` + ratingDataFile + `
  sortie lab ratings <game>    a population of easy, medium and hard bots
                               rated over simulated matches: how soon it
                               orders itself, how well the predicted chances
                               match the outcomes
  sortie lab matchmaking       a crowd arriving at Play now at random:
                               waits, rating gaps, tables filled with bots

docs/balance.md and docs/ratings.md give the commands behind the figures.`,
	}
	lab.AddCommand(labBaselinesCmd(), labRatingsCmd(), labMatchmakingCmd())
	root.AddCommand(lab)
}

// labSetups are the setups a lab command's flags and sweeps name, with the
// reasons of those the game refuses.
func labSetups(g engine.Game, sf setupFlags, sweeps []string, playersSet bool) ([]sim.Config, []string, error) {
	if sf.seed == 0 {
		sf.seed = 1
	}
	setup, err := sf.setup(g)
	if err != nil {
		return nil, nil, err
	}
	var axes []sim.Axis
	for _, spec := range sweeps {
		a, err := sim.ParseAxis(g.Info(), spec)
		if err != nil {
			return nil, nil, err
		}
		switch {
		case a.Key == sim.AxisBots:
			return nil, nil, errors.New("the lab chooses the bots: sweep players and options only")
		case a.Key == sim.AxisPlayers && playersSet:
			return nil, nil, errors.New("--players and --sweep players: choose one")
		}
		axes = append(axes, a)
	}
	base := sim.Config{Game: g, Players: setup.Players, Options: setup.Options, Seed: setup.Seed}
	return sim.Sweep(base, ratinglab.BaselineLevel, axes)
}

// labProgress returns a progress bar's callback on a terminal, nil
// elsewhere, and the function that ends the bar.
func labProgress(total int, what string) (func(int), func()) {
	if !term.IsTerminal(int(os.Stderr.Fd())) {
		return nil, func() {}
	}
	bar := progressbar.NewOptions(total,
		progressbar.OptionSetWriter(os.Stderr),
		progressbar.OptionSetDescription(what),
		progressbar.OptionShowCount(),
		progressbar.OptionThrottle(100_000_000),
		progressbar.OptionClearOnFinish(),
	)
	var mu sync.Mutex
	last := 0
	return func(done int) {
			mu.Lock()
			defer mu.Unlock()
			if done > last {
				bar.Add(done - last)
				last = done
			}
		}, func() {
			bar.Finish()
		}
}

// typedLine is the command as the flags were given to it, to stamp the
// data it measures with: its path, its arguments, then each flag that was
// set (a repeated flag once a value), leaving out --out and --date, which
// do not change what is measured.
func typedLine(cmd *cobra.Command, args []string) string {
	parts := append(strings.Fields(cmd.CommandPath()), args...)
	cmd.Flags().Visit(func(f *pflag.Flag) {
		if f.Name == "out" || f.Name == "date" {
			return
		}
		values := []string{f.Value.String()}
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			values = sv.GetSlice()
		}
		for _, v := range values {
			parts = append(parts, "--"+f.Name, v)
		}
	})
	for i, p := range parts {
		if strings.ContainsAny(p, " \t\"'*$&|;<>()") {
			parts[i] = strconv.Quote(p)
		}
	}
	return strings.Join(parts, " ")
}

func labBaselinesCmd() *cobra.Command {
	var (
		sf      setupFlags
		games   int
		sweeps  []string
		workers int
		out     string
		date    string
	)
	cmd := &cobra.Command{
		Use:   "baselines <game>",
		Short: "Measure baseline win rates and co-op success rates with hard bots, into the rating's data",
		Long: `Plays --games games of each setup the flags and sweeps name (as 'sortie sim'
does: --players, --option, --sweep players=1..6, --sweep mode=*), with the
hard level on every seat, and keeps the setups rated in the team or co-op
family (a free for all needs no baseline). For each variant key, player
count and composition of sides (a Suspicion game deals one Guard or two) it
counts each side's wins (a shared top counts 1/m to each of m sides; in
co-op, the team's successes).

The cells are merged into --out (` + ratingDataFile + ` by default, run from the
repository's root) as each setup is measured (a run stopped halfway keeps
the setups it finished), replacing those of the same game, variant and
player count, each stamped with this command line and today's date, and printed
as a Markdown table with what the rating makes of them: each role's
handicap in μ, each co-op benchmark member's μ. The rating package embeds
the file: rebuild after measuring. --out - prints the JSON instead.`,
		Example: `  sortie lab baselines room25 --games 150 --sweep players=1..6 --sweep mode=cooperation,solo,suspicion,team
  sortie lab baselines temple --games 2000 --sweep players=* --sweep difficulty=* --sweep curses=* --sweep treasures=*`,
		Args: gameArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			defer resetFlags(cmd)
			g, err := findGame(args[0])
			if err != nil {
				return err
			}
			if games < 1 {
				return fmt.Errorf("--games must be at least 1")
			}
			if date == "" {
				date = time.Now().Format(time.DateOnly)
			} else if _, err := time.Parse(time.DateOnly, date); err != nil {
				return fmt.Errorf("--date %q: write it YYYY-MM-DD", date)
			}
			cfgs, skipped, err := labSetups(g, sf, sweeps, cmd.Flags().Changed("players"))
			if err != nil {
				return err
			}
			for _, s := range skipped {
				fmt.Fprintf(cmd.ErrOrStderr(), "left out: %s\n", s)
			}
			var old *rating.Data
			if out != "-" {
				f, err := os.Open(out)
				if err != nil {
					return fmt.Errorf("%v (run from the repository's root, or name the file with --out)", err)
				}
				old, err = rating.ReadData(f)
				f.Close()
				if err != nil {
					return fmt.Errorf("%s: %v", out, err)
				}
			}
			for i := range cfgs {
				cfgs[i].Games, cfgs[i].Workers = games, workers
			}
			progress, done := labProgress(games*len(cfgs), g.Info().ID)
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer stop()
			// One setup at a time, each written as soon as it is measured:
			// a long run stopped halfway keeps what it finished.
			var cells []rating.Cell
			before := 0
			for _, c := range cfgs {
				var step func(int)
				if progress != nil {
					offset := before
					step = func(n int) { progress(offset + n) }
				}
				measured, left, err := ratinglab.Baselines(ctx, []sim.Config{c}, typedLine(cmd, args), date, step)
				before += c.Games
				for _, s := range left {
					fmt.Fprintf(cmd.ErrOrStderr(), "left out: %s\n", s)
				}
				if err != nil {
					done()
					return err
				}
				if len(measured) == 0 {
					continue
				}
				cells = append(cells, measured...)
				old = ratinglab.Merge(old, measured)
				if out == "-" {
					continue
				}
				b, err := ratinglab.Encode(old)
				if err != nil {
					done()
					return err
				}
				if err := os.WriteFile(out, b, 0o644); err != nil {
					done()
					return err
				}
			}
			done()
			if len(cells) == 0 {
				return fmt.Errorf("no setup of %s is rated in the team or co-op family: nothing to measure", g.Info().ID)
			}
			if out == "-" {
				b, err := ratinglab.Encode(old)
				if err != nil {
					return err
				}
				_, err = cmd.OutOrStdout().Write(b)
				return err
			}
			ratinglab.WriteCells(cmd.OutOrStdout(), rating.Default(), cells)
			fmt.Fprintf(cmd.ErrOrStderr(), "%d cells written to %s\n", len(cells), out)
			return nil
		},
	}
	sf.register(cmd)
	cmd.Flags().IntVar(&games, "games", 1000, "games per setup")
	cmd.Flags().StringArrayVar(&sweeps, "sweep", nil, "key=values to sweep over: players=1..6, an option (mode=suspicion,team or difficulty=*) (repeatable)")
	cmd.Flags().IntVar(&workers, "workers", 0, "games played at once (default: one per core)")
	cmd.Flags().StringVar(&out, "out", ratingDataFile, "the data file to merge the cells into, or - to print them as JSON")
	cmd.Flags().StringVar(&date, "date", "", "the date to stamp the cells with, YYYY-MM-DD (default today)")
	return cmd
}

func labRatingsCmd() *cobra.Command {
	var (
		sf       setupFlags
		sweeps   []string
		family   string
		matches  int
		perLevel int
		workers  int
		betas    []float64
		coopSum  bool
		asJSON   bool
	)
	cmd := &cobra.Command{
		Use:   "ratings <game>",
		Short: "Rate a population of easy, medium and hard bots over simulated matches: convergence and calibration",
		Long: `Rates a population of bots of known strength — --per-level members of each
level, easy, medium and hard — over --matches simulated matches of one game
and mode family, with the rating model and the measured data the server
uses. Each match is drawn at random from the setups the flags and sweeps
name (--family keeps those rated in one family when they mix), its seats
from the population; matches are played on every core and rated in order.

It prints (Markdown, or --json):
- convergence: the match from which the levels' mean μ stand ordered, hard >
  medium > easy, to the end, and the match from which every member does;
  the levels' mean μ along the run and at the end;
- calibration, over the second half of the run: the Brier score of the
  chances predicted before each match (each side's chance of finishing
  first, or a co-op team's of succeeding) against the outcomes, beside the
  no-skill baseline's (each side's mean result in its kind of match, over
  the other matches), and a reliability table;
- with --betas, the same matches rated again from the start with each of
  those performance spreads β (and with --coop-sum, with co-op teams
  summed too), each one's levels' order and calibration.`,
		Example: `  sortie lab ratings outran --matches 2000 --sweep players=2..6
  sortie lab ratings room25 --matches 300 --sweep players=4..6 --sweep mode=suspicion,team
  sortie lab ratings temple --matches 1000 --sweep players=* --sweep difficulty=* --betas 3,6 --coop-sum`,
		Args: gameArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			defer resetFlags(cmd)
			g, err := findGame(args[0])
			if err != nil {
				return err
			}
			if matches < 2 || perLevel < 1 {
				return fmt.Errorf("--matches must be at least 2 and --per-level at least 1")
			}
			cfgs, skipped, err := labSetups(g, sf, sweeps, cmd.Flags().Changed("players"))
			if err != nil {
				return err
			}
			for _, s := range skipped {
				fmt.Fprintf(cmd.ErrOrStderr(), "left out: %s\n", s)
			}
			pop := ratinglab.Population{Game: g, PerLevel: perLevel, Matches: matches, Seed: cfgs[0].Seed, Workers: workers, Betas: betas, CoopSum: coopSum}
			families := map[engine.Family]bool{}
			for _, c := range cfgs {
				s := engine.Setup{Players: c.Players, Options: c.Options}
				st, err := g.New(s)
				if err != nil {
					return err
				}
				rs, ok := st.(engine.Rated)
				if !ok {
					return fmt.Errorf("%s does not say what a match is for rating", g.Info().ID)
				}
				r, _ := rs.RatedResult()
				families[r.Family] = true
				if family == "" || string(r.Family) == family {
					pop.Setups = append(pop.Setups, s)
				}
			}
			if len(pop.Setups) == 0 {
				return fmt.Errorf("no setup is rated in the family %q", family)
			}
			if family == "" && len(families) > 1 {
				return fmt.Errorf("the setups are rated in several families: choose one with --family")
			}
			progress, done := labProgress(matches, g.Info().ID)
			pop.Progress = progress
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer stop()
			rep, err := pop.Run(ctx)
			done()
			if err != nil {
				return err
			}
			if asJSON {
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(rep)
			}
			ratinglab.WriteMarkdown(cmd.OutOrStdout(), rep)
			return nil
		},
	}
	sf.register(cmd)
	cmd.Flags().StringArrayVar(&sweeps, "sweep", nil, "key=values the matches are drawn from: players=2..6, an option (mode=suspicion,team) (repeatable)")
	cmd.Flags().StringVar(&family, "family", "", "keep the setups rated in this family: free_for_all, team or coop")
	cmd.Flags().IntVar(&matches, "matches", 1000, "matches to play and rate")
	cmd.Flags().IntVar(&perLevel, "per-level", 3, "members of each level")
	cmd.Flags().IntVar(&workers, "workers", 0, "matches played at once (default: one per core)")
	cmd.Flags().Float64SliceVar(&betas, "betas", nil, "also rate the same matches with each of these β (performance spreads), for their calibration")
	cmd.Flags().BoolVar(&coopSum, "coop-sum", false, "with --betas, also rate co-op teams against their benchmark summed, as the paper's teams (the model weighs them by their mean)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the report as JSON")
	return cmd
}
