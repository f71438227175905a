package main

import (
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"sortie/bot"
	"sortie/engine"
	"sortie/games/all"
)

func init() {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "games",
		Short: "List the games with their player counts, options and bots",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if asJSON {
				var infos []engine.Info
				for _, g := range all.Games() {
					infos = append(infos, g.Info())
				}
				enc := json.NewEncoder(cmd.OutOrStdout())
				enc.SetIndent("", "  ")
				return enc.Encode(infos)
			}
			return listGames(cmd.OutOrStdout(), all.Games())
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the games' full descriptions as JSON")
	root.AddCommand(cmd)
}

// listWidth is the width the list of games fits in: a terminal's.
const listWidth = 80

// listGames prints each game: its id, name, player count and timing; its
// options, each as it is set (key=default, the form --option takes) with
// its name and the values it takes, aligned over every game; and its bots
// the way the lobby offers them: the levels, then the game's other
// policies.
func listGames(w io.Writer, games []engine.Game) error {
	type row struct{ set, name, values string }
	rows := make([][]row, len(games))
	setW := len("option=default")
	for i, g := range games {
		for _, o := range g.Info().Options {
			def := o.Default
			if def == "" {
				def = `""`
			}
			r := row{set: o.Key + "=" + def, name: o.Name["en"], values: optionValues(o)}
			setW = max(setW, utf8.RuneCountInString(r.set))
			rows[i] = append(rows[i], r)
		}
	}
	room := listWidth - (4 + setW + 2)
	var b strings.Builder
	for i, g := range games {
		info := g.Info()
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%s — %s, %d–%d players, %s\n", info.ID, info.Name["en"], info.MinPlayers, info.MaxPlayers, strings.ReplaceAll(string(info.Timing), "_", "-"))
		if len(rows[i]) > 0 {
			fmt.Fprintf(&b, "    %-*s  %s\n", setW, "option=default", "name: values")
		}
		for _, r := range rows[i] {
			pad := strings.Repeat(" ", setW-utf8.RuneCountInString(r.set))
			fmt.Fprintf(&b, "    %s%s  %s\n", r.set, pad, fitValues(r.name+": ", r.values, room))
		}
		fmt.Fprintf(&b, "    bots: %s\n", botsLine(g))
	}
	// Only a game's line starts with a small letter (scripts/bots-tables.sh
	// reads the ids so).
	b.WriteString("\nSet an option with --option key=value; sortie games --json gives every value.\nGive each seat a bot with --bots: a level, or another bot by name.\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// optionValues writes the values an option takes, separated by "|".
func optionValues(o engine.Option) string {
	switch o.Kind {
	case engine.Bool:
		return "true|false"
	case engine.Int:
		return fmt.Sprintf("%d..%d", o.Min, o.Max)
	case engine.String:
		return "text"
	}
	return strings.Join(o.Choices, "|")
}

// fitValues writes an option's name and its values in n columns: the
// values that do not fit give way to an ellipsis after the last whole one,
// and a name too long for even one value is cut.
func fitValues(name, values string, n int) string {
	s := name + values
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(values)
	room := min(n-utf8.RuneCountInString(name)-1, len(r)) // 1: the ellipsis
	for i := room - 1; i > 0; i-- {
		if r[i] == '|' {
			return name + string(r[:i+1]) + "…"
		}
	}
	return clip(s, n)
}

// botsLine names g's bots as the lobby does: the levels every game has,
// then the game's other policies by name.
func botsLine(g engine.Game) string {
	var others []string
	for _, p := range bot.Policies(g) {
		if !slices.Contains(bot.Levels, p.Name()) {
			others = append(others, p.Name())
		}
	}
	s := strings.Join(bot.Levels, ", ")
	if len(others) > 0 {
		s += "; also " + strings.Join(others, ", ")
	}
	return s
}

// clip shortens s to n characters, with an ellipsis.
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n || n < 2 {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}
