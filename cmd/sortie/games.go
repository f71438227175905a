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

// listWidth is the width the list of games fits in.
const listWidth = 100

// listGames prints each game: its id, name, player count and timing, its
// options (key, values, default, name) aligned over every game, and its
// bots the way the lobby offers them: the levels, then the game's other
// policies.
func listGames(w io.Writer, games []engine.Game) error {
	type row struct{ key, values, def, name string }
	rows := make([][]row, len(games))
	keyW, valW, defW := len("option"), len("values"), len("default")
	for i, g := range games {
		for _, o := range g.Info().Options {
			r := row{key: o.Key, values: optionValues(o), def: o.Default, name: o.Name["en"]}
			if r.def == "" {
				r.def = `""`
			}
			keyW, valW, defW = max(keyW, len(r.key)), max(valW, utf8.RuneCountInString(r.values)), max(defW, len(r.def))
			rows[i] = append(rows[i], r)
		}
	}
	nameW := listWidth - (4 + keyW + 2 + valW + 2 + defW + 2)
	var b strings.Builder
	for i, g := range games {
		info := g.Info()
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%s — %s, %d–%d players, %s\n", info.ID, info.Name["en"], info.MinPlayers, info.MaxPlayers, strings.ReplaceAll(string(info.Timing), "_", "-"))
		if len(rows[i]) > 0 {
			fmt.Fprintf(&b, "    %-*s  %-*s  default\n", keyW, "option", valW, "values")
		}
		for _, r := range rows[i] {
			fmt.Fprintf(&b, "    %-*s  %s%s  %-*s  %s\n", keyW, r.key, r.values, strings.Repeat(" ", valW-utf8.RuneCountInString(r.values)), defW, r.def, clip(r.name, nameW))
		}
		fmt.Fprintf(&b, "    bots: %s\n", botsLine(g))
	}
	b.WriteString("\nSet an option with --option key=value; a seat's bot with --bots (a level, or another bot by name).\n")
	_, err := io.WriteString(w, b.String())
	return err
}

// optionValues writes the values an option takes, short enough for the
// list.
func optionValues(o engine.Option) string {
	vals := o.Choices
	switch o.Kind {
	case engine.Bool:
		vals = []string{"true", "false"}
	case engine.Int:
		return fmt.Sprintf("%d..%d", o.Min, o.Max)
	case engine.String:
		return "text"
	}
	list := strings.Join(vals, "|")
	const most = 36
	if len(list) > most {
		list = list[:strings.LastIndex(list[:most-1], "|")+1] + "…"
	}
	return list
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
