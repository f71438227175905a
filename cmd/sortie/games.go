package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"text/tabwriter"

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
			w := tabwriter.NewWriter(cmd.OutOrStdout(), 0, 4, 2, ' ', 0)
			for _, g := range all.Games() {
				i := g.Info()
				fmt.Fprintf(w, "%s\t%s\t%d–%d players\t%s\n", i.ID, i.Name["en"], i.MinPlayers, i.MaxPlayers, strings.ReplaceAll(string(i.Timing), "_", "-"))
				for _, o := range i.Options {
					vals := o.Choices
					switch o.Kind {
					case engine.Bool:
						vals = []string{"true", "false"}
					case engine.Int:
						vals = []string{fmt.Sprintf("%d..%d", o.Min, o.Max)}
					case engine.String:
						vals = []string{"text"}
					}
					list := strings.Join(vals, "|")
					if len(list) > 48 {
						list = list[:strings.LastIndex(list[:45], "|")+1] + "…"
					}
					def := o.Default
					if def == "" {
						def = `""`
					}
					fmt.Fprintf(w, "\t  --option %s=…\t%s (default %s)\t%s\n", o.Key, list, def, o.Name["en"])
				}
				var bots []string
				for _, p := range bot.Policies(g) {
					bots = append(bots, p.Name())
				}
				fmt.Fprintf(w, "\t  bots\t%s\t\n", strings.Join(bots, ", "))
			}
			return w.Flush()
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the games' full descriptions as JSON")
	root.AddCommand(cmd)
}
