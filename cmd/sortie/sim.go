package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sort"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"golang.org/x/term"

	"sortie/bot"
	"sortie/engine"
	"sortie/sim"
)

func init() {
	var (
		sf       setupFlags
		games    int
		bots     []string
		versus   string
		sweeps   []string
		workers  int
		rotate   bool
		asJSON   bool
		asCSV    bool
		markdown bool
		report   string
	)
	cmd := &cobra.Command{
		Use:   "sim <game>",
		Short: "Play many bot games on every core: win rates with 95% intervals, sweeps, HTML reports",
		Long: `Plays --games bot games of one game on every core, and prints win rates per
seat and per bot with 95% Wilson intervals, game lengths and speed.

Bots: every seat plays the medium level unless --bots lists the seats' bots
in seat order, cycled when shorter than the number of seats: levels (easy,
medium, hard) or policy names (see 'sortie games'). Random play says little
about balance: a run where every seat plays random gets a warning. With
--rotate (the default) the bots move one seat on at each game, so that no bot
keeps a seat's advantage. A shared victory counts as a win for
each winner; in co-operative games every seat's rate is the team's.

The lab: --sweep key=values plays one batch per value, and several sweeps
play every combination: players=2..5, players=* (every count), an option
(danger=false,true, or danger=* for every value), or bots=a,b/c,d (lineups
separated by /). --bots given several times sweeps over those lineups;
--versus easy,medium,hard plays every level alone (a team of one kind) and
every pair against each other. Every batch uses the same seed, so batches
differ by their settings, not their luck.

Output: a table per batch (--markdown: one Markdown table row per batch),
--json, or --csv; --report out.html also writes a self-contained HTML report
with charts (win rates by seat and by bot with intervals, game length and
score distributions, the effect of each swept setting).`,
		Example: `  sortie sim plandesecours --games 10000
  sortie sim plandesecours --games 10000 --players 4 --bots medium,easy
  sortie sim plandesecours --games 2000 --sweep players=2..5 --sweep danger=false,true --report pds.html
  sortie sim evades --games 400 --versus easy,medium,hard --markdown
  sortie sim plandesecours --games 1000 --option danger=true --json`,
		Args: gameArg,
		RunE: func(cmd *cobra.Command, args []string) error {
			defer resetFlags(cmd)
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
			if games < 1 {
				return fmt.Errorf("--games must be at least 1")
			}
			if asJSON && asCSV || asJSON && markdown || asCSV && markdown {
				return fmt.Errorf("choose one of --json, --csv and --markdown")
			}
			info := g.Info()
			var axes []sim.Axis
			for _, spec := range sweeps {
				a, err := sim.ParseAxis(info, spec)
				if err != nil {
					return err
				}
				if a.Key == sim.AxisPlayers && cmd.Flags().Changed("players") {
					return fmt.Errorf("--players and --sweep players: choose one")
				}
				axes = append(axes, a)
			}
			lineups := bots
			if versus != "" {
				if cmd.Flags().Changed("bots") {
					return fmt.Errorf("--bots and --versus: choose one")
				}
				lineups = versusLineups(versus)
			}
			if len(lineups) == 0 {
				lineups = []string{"medium"}
			}
			if len(lineups) > 1 {
				axes = append([]sim.Axis{{Key: sim.AxisBots, Values: lineups}}, axes...)
			}
			base := sim.Config{
				Game: g, Players: setup.Players, Options: setup.Options,
				Games: games, Seed: setup.Seed, Workers: workers, Rotate: rotate,
			}
			cfgs, skipped, err := sim.Sweep(base, lineups[0], axes)
			if err != nil {
				return err
			}
			for _, s := range skipped {
				fmt.Fprintf(cmd.ErrOrStderr(), "left out: %s\n", s)
			}
			var played [][]string
			for _, c := range cfgs {
				played = append(played, policyNames(c.Policies))
			}
			if sim.RandomOnly(played...) {
				fmt.Fprintf(cmd.ErrOrStderr(), "warning: %s.\n", sim.RandomWarning)
			}
			if len(cfgs) == 0 {
				return fmt.Errorf("the game refuses every combination of the sweep")
			}
			var progress func(int)
			if term.IsTerminal(int(os.Stderr.Fd())) {
				bar := progressbar.NewOptions(games*len(cfgs),
					progressbar.OptionSetWriter(os.Stderr),
					progressbar.OptionSetDescription(info.ID),
					progressbar.OptionShowCount(),
					progressbar.OptionShowIts(),
					progressbar.OptionSetItsString("games"),
					progressbar.OptionThrottle(100_000_000),
					progressbar.OptionClearOnFinish(),
				)
				var mu sync.Mutex
				progress = func(int) { mu.Lock(); bar.Add(1); mu.Unlock() }
				defer bar.Finish()
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt)
			defer stop()
			runs, err := sim.RunAll(ctx, cfgs, progress)
			if err != nil && err != context.Canceled {
				return err
			}
			if len(runs) == 0 {
				return err
			}
			if report != "" {
				rep := sim.Report{Game: info, Command: commandLine(), Axes: axes, Runs: runs, Skipped: skipped}
				if err := writeReport(report, rep); err != nil {
					return err
				}
				fmt.Fprintf(cmd.ErrOrStderr(), "report written to %s\n", report)
			}
			out := cmd.OutOrStdout()
			switch {
			case asJSON:
				enc := json.NewEncoder(out)
				enc.SetIndent("", "  ")
				if len(runs) == 1 && len(axes) == 0 {
					return enc.Encode(runs[0])
				}
				return enc.Encode(runs)
			case asCSV:
				return writeCSV(out, runs)
			case markdown:
				writeMarkdown(out, runs)
				return nil
			}
			for i, st := range runs {
				if i > 0 {
					fmt.Fprintln(out)
				}
				printStats(out, st)
			}
			if len(runs) > 1 {
				fmt.Fprintln(out)
				printSummary(out, runs)
			}
			return nil
		},
	}
	sf.register(cmd)
	cmd.Flags().IntVar(&games, "games", 1000, "number of games per batch")
	cmd.Flags().StringArrayVar(&bots, "bots", nil, "comma-separated bots or levels by seat, cycled (default medium); repeat to compare lineups")
	cmd.Flags().StringVar(&versus, "versus", "", "comma-separated bots or levels, weakest first: play each as a team and every pair against each other")
	cmd.Flags().StringArrayVar(&sweeps, "sweep", nil, "key=values to sweep over: players=2..5, an option (danger=false,true or danger=*), bots=a,b/c,d (repeatable)")
	cmd.Flags().IntVar(&workers, "workers", 0, "games played at once (default: one per core)")
	cmd.Flags().BoolVar(&rotate, "rotate", true, "move the bots one seat on at each game")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the statistics as JSON (an array when there are several batches)")
	cmd.Flags().BoolVar(&asCSV, "csv", false, "print the statistics as CSV, one row per batch and seat or bot")
	cmd.Flags().BoolVar(&markdown, "markdown", false, "print one Markdown table row per batch")
	cmd.Flags().StringVar(&report, "report", "", "also write a self-contained HTML report with charts to this file")
	root.AddCommand(cmd)
}

// resetFlags puts cmd's flags back to their defaults, so that a command run
// twice in one process (as tests do) does not keep the first run's values;
// repeated flags would otherwise add to them.
func resetFlags(cmd *cobra.Command) {
	cmd.Flags().VisitAll(func(f *pflag.Flag) {
		if sv, ok := f.Value.(pflag.SliceValue); ok {
			sv.Replace(nil)
		} else {
			f.Value.Set(f.DefValue)
		}
		f.Changed = false
	})
}

// versusLineups turns "easy,medium,hard" into the lineups of --versus:
// each bot as a team of its own kind, then every pair, the stronger (later)
// one first.
func versusLineups(list string) []string {
	var names []string
	for _, n := range strings.Split(list, ",") {
		if n = strings.TrimSpace(n); n != "" {
			names = append(names, n)
		}
	}
	var out []string
	out = append(out, names...)
	for j := range names {
		for i := range j {
			out = append(out, names[j]+","+names[i])
		}
	}
	return out
}

// seatPolicies reads --bots: names by seat, cycled to n seats.
func seatPolicies(g engine.Game, names string, n int) ([]bot.Policy, error) {
	return sim.Lineup(g, names, n)
}

func policyNames(ps []bot.Policy) []string {
	names := make([]string, len(ps))
	for i, p := range ps {
		names[i] = p.Name()
	}
	return names
}

// commandLine is the command as typed, quoted where needed, to reproduce a
// report.
func commandLine() string {
	parts := []string{"sortie"}
	for _, a := range os.Args[1:] {
		if strings.ContainsAny(a, " \t\"'*$&|;<>()") {
			a = strconv.Quote(a)
		}
		parts = append(parts, a)
	}
	return strings.Join(parts, " ")
}

func writeReport(path string, rep sim.Report) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := rep.WriteHTML(f); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// optionsText lists options sorted by key.
func optionsText(opts map[string]string) string {
	keys := make([]string, 0, len(opts))
	for k := range opts {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var parts []string
	for _, k := range keys {
		parts = append(parts, k+"="+opts[k])
	}
	return strings.Join(parts, " ")
}

func printStats(out io.Writer, st sim.Stats) {
	if st.Label != "" {
		fmt.Fprintf(out, "── %s ──\n", st.Label)
	}
	fmt.Fprintf(out, "%s, %d players, bots %s", st.Game, st.Players, strings.Join(st.Bots, ","))
	if o := optionsText(st.Options); o != "" {
		fmt.Fprintf(out, ", %s", o)
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
	fmt.Fprintf(out, "\neven share per seat: %.1f%% (the mean of the seats' rates)", 100*st.EvenShare())
	if st.Rotated {
		fmt.Fprint(out, " (bots rotated through the seats)")
	}
	fmt.Fprintf(out, "\nall seats won: %s   no seat won: %s\n", st.AllWon, st.NoneWon)
	fmt.Fprintf(out, "game length: mean %.1f actions (sd %.1f), median %d, 90th percentile %d",
		st.Actions, st.ActionsStdDev, st.Lengths.Quantile(0.5), st.Lengths.Quantile(0.9))
	if st.Clock > 0 {
		fmt.Fprintf(out, "; %.1f s of match time", st.Clock)
	}
	fmt.Fprintln(out)
}

// printSummary prints one line per batch of a sweep.
func printSummary(out io.Writer, runs []sim.Stats) {
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "batch\tgames\twin rate by bot [95%]\tseat 0 [95%]\tall won [95%]\tmean actions\t")
	for _, st := range runs {
		fmt.Fprintf(w, "%s\t%d\t%s\t%s\t%s\t%.1f\t\n", st.Label, st.Games, botRates(st, "; "), st.Seats[0].WinRate, st.AllWon, st.Actions)
	}
	w.Flush()
}

func botRates(st sim.Stats, sep string) string {
	var parts []string
	for _, p := range st.Policies {
		parts = append(parts, fmt.Sprintf("%s %s", p.Policy, pctInterval(p.WinRate)))
	}
	return strings.Join(parts, sep)
}

func pctInterval(i sim.Interval) string {
	return fmt.Sprintf("%.1f%% [%.1f, %.1f]", 100*i.P, 100*i.Lo, 100*i.Hi)
}

// writeMarkdown prints a Markdown table with a row per batch.
func writeMarkdown(out io.Writer, runs []sim.Stats) {
	fmt.Fprintln(out, "| batch | players | games | win rate by bot [95% interval] | even share | seat 0 [95%] | all seats won [95%] | mean actions |")
	fmt.Fprintln(out, "|---|---:|---:|---|---:|---:|---:|---:|")
	for _, st := range runs {
		label := st.Label
		if label == "" {
			label = "bots=" + strings.Join(st.Bots, ",")
		}
		fmt.Fprintf(out, "| %s | %d | %d | %s | %.1f%% | %s | %s | %.1f |\n", label, st.Players, st.Games,
			botRates(st, "<br>"), 100*st.EvenShare(), pctInterval(st.Seats[0].WinRate), pctInterval(st.AllWon), st.Actions)
	}
}

// writeCSV prints one row per batch and bot, and per batch and seat.
func writeCSV(out io.Writer, runs []sim.Stats) error {
	w := csv.NewWriter(out)
	w.Write([]string{"game", "batch", "players", "options", "bots", "games", "kind", "name", "seatings", "wins",
		"win_rate", "lo", "hi", "mean_score", "mean_actions", "actions_sd", "mean_clock_seconds", "all_won", "none_won"})
	f := func(x float64) string { return strconv.FormatFloat(x, 'f', 4, 64) }
	for _, st := range runs {
		common := []string{st.Game, st.Label, strconv.Itoa(st.Players), optionsText(st.Options), strings.Join(st.Bots, ","), strconv.Itoa(st.Games)}
		tail := []string{f(st.Actions), f(st.ActionsStdDev), f(st.Clock), f(st.AllWon.P), f(st.NoneWon.P)}
		for _, p := range st.Policies {
			row := append(append([]string{}, common...), "bot", p.Policy, strconv.Itoa(p.Seatings), strconv.Itoa(p.Wins),
				f(p.WinRate.P), f(p.WinRate.Lo), f(p.WinRate.Hi), f(p.MeanScore))
			w.Write(append(row, tail...))
		}
		for _, s := range st.Seats {
			row := append(append([]string{}, common...), "seat", strconv.Itoa(s.Seat), strconv.Itoa(st.Games), strconv.Itoa(s.Wins),
				f(s.WinRate.P), f(s.WinRate.Lo), f(s.WinRate.Hi), f(s.MeanScore))
			w.Write(append(row, tail...))
		}
	}
	w.Flush()
	return w.Error()
}
