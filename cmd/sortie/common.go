package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"sortie/engine"
	"sortie/games/all"
)

// setupFlags are the flags that say which match to set up, shared by play,
// sim and replay.
type setupFlags struct {
	players int
	seed    uint64
	options []string
}

func (f *setupFlags) register(cmd *cobra.Command) {
	cmd.Flags().IntVar(&f.players, "players", 0, "number of seats (default: the game's smallest count that makes sense, at least 2 where allowed)")
	cmd.Flags().Uint64Var(&f.seed, "seed", 0, "match seed (default: random for play, 1 for sim and replay)")
	cmd.Flags().StringArrayVar(&f.options, "option", nil, "a game option as key=value (repeatable); see 'sortie games'")
}

// setup builds the engine setup for game g from the flags, with defaults.
func (f *setupFlags) setup(g engine.Game) (engine.Setup, error) {
	info := g.Info()
	s := engine.Setup{Players: f.players, Seed: f.seed, Options: map[string]string{}}
	if s.Players == 0 {
		s.Players = max(info.MinPlayers, min(2, info.MaxPlayers))
	}
	for _, kv := range f.options {
		k, v, ok := strings.Cut(kv, "=")
		if !ok || k == "" {
			return s, fmt.Errorf("--option %q: write it as key=value", kv)
		}
		s.Options[k] = v
	}
	if _, err := info.Check(s); err != nil {
		return s, err
	}
	return s, nil
}

func findGame(id string) (engine.Game, error) { return all.Find(id) }

// gameArg completes and checks the <game> argument.
func gameArg(cmd *cobra.Command, args []string) error {
	if len(args) != 1 {
		ids := []string{}
		for _, g := range all.Games() {
			ids = append(ids, g.Info().ID)
		}
		return fmt.Errorf("name one game: %s", strings.Join(ids, ", "))
	}
	return nil
}

// text renders a view, action or event body for a person: its String method
// if it has one, else its JSON (a view one top-level field per line).
func text(v any) string {
	if s, ok := v.(fmt.Stringer); ok {
		return s.String()
	}
	if k, ok := v.(engine.Kinded); ok {
		b, err := engine.MarshalTyped(k)
		if err != nil {
			return fmt.Sprintf("%v", v)
		}
		return string(b)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%v", v)
	}
	return fieldLines(b)
}

// fieldLines writes a JSON object one top-level field per line, in order:
// "key: compact value".
func fieldLines(b []byte) string {
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return string(b)
	}
	var out strings.Builder
	for dec.More() {
		k, err := dec.Token()
		if err != nil {
			return string(b)
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return string(b)
		}
		fmt.Fprintf(&out, "  %v: %s\n", k, raw)
	}
	return strings.TrimRight(out.String(), "\n")
}
