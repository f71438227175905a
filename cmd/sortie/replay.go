package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"sortie/engine"
)

func init() {
	var sf setupFlags
	cmd := &cobra.Command{
		Use:   "replay <game> < actions.jsonl",
		Short: "Apply a recorded action log and print the final public view and outcome as JSON",
		Long: `Reads an action log on standard input, one JSON record per line —
{"seat":0,"action":{"type":...},"at":0}, or {"at":N} for time passing alone —
applies it to a new match built from --seed, --players and --option, and prints
the spectator view and the outcome (null while the game is unfinished) as JSON.
A line that cannot be read or is refused is reported with its number.`,
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
			s, err := g.New(setup)
			if err != nil {
				return err
			}
			sc := bufio.NewScanner(cmd.InOrStdin())
			sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
			line := 0
			for sc.Scan() {
				line++
				b := sc.Bytes()
				if strings.TrimSpace(string(b)) == "" {
					continue
				}
				rec, err := engine.DecodeRecord(g, b)
				if err != nil {
					return fmt.Errorf("line %d: %v", line, err)
				}
				if _, err := engine.Play(s, rec); err != nil {
					return fmt.Errorf("line %d: %s's action was refused: %v", line, rec.Seat, err)
				}
			}
			if err := sc.Err(); err != nil {
				return fmt.Errorf("line %d: %v", line+1, err)
			}
			var result struct {
				View    engine.View     `json:"view"`
				Outcome *engine.Outcome `json:"outcome"`
			}
			result.View = s.View(engine.Spectator)
			if out, over := s.Outcome(); over {
				result.Outcome = &out
			}
			enc := json.NewEncoder(cmd.OutOrStdout())
			enc.SetIndent("", "  ")
			return enc.Encode(result)
		},
	}
	sf.register(cmd)
	root.AddCommand(cmd)
}
