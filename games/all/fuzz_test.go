package all_test

import (
	"bytes"
	"errors"
	"testing"

	"sortie/engine"
	"sortie/games/all"
)

// FuzzParseAction types any line at every game that reads typed actions
// (engine.TextParser): it is refused with a rule error, or read as an action
// whose JSON form decodes to itself, as the terminal sends it on.
func FuzzParseAction(f *testing.F) {
	var games []engine.Game
	for _, g := range all.Games() {
		if _, ok := g.(engine.TextParser); ok {
			games = append(games, g)
		}
	}
	if len(games) == 0 {
		f.Skip("no game reads typed actions")
	}
	f.Fuzz(func(t *testing.T, game uint8, line string) {
		g := games[int(game)%len(games)]
		a, err := g.(engine.TextParser).ParseAction(line)
		if err != nil {
			var re *engine.RuleError
			if !errors.As(err, &re) || re.Code == "" || re.Message == "" {
				t.Fatalf("%s: %q refused with %T %v, not a rule error with a code and a message", g.Info().ID, line, err, err)
			}
			return
		}
		if a == nil {
			t.Fatalf("%s: %q read as no action and no error", g.Info().ID, line)
		}
		b, err := engine.MarshalTyped(a)
		if err != nil {
			t.Fatalf("%s: %q read as %#v, which does not encode: %v", g.Info().ID, line, a, err)
		}
		back, err := g.DecodeAction(b)
		if err != nil {
			t.Fatalf("%s: %q read as %s, which does not decode: %v", g.Info().ID, line, b, err)
		}
		if again, _ := engine.MarshalTyped(back); !bytes.Equal(again, b) {
			t.Fatalf("%s: %q read as %s, which decodes to %s", g.Info().ID, line, b, again)
		}
	})
}
