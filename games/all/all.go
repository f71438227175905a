// Package all is the registry of Sortie's games: it imports every game package
// and nothing else. The server, the bots, the simulator and the command line
// find games here and know nothing more about them.
//
// Adding a game is adding its package and one line in [games].
package all

import (
	"fmt"
	"strings"

	"sortie/engine"
	"sortie/games/evades"
	"sortie/games/outran"
	"sortie/games/plandesecours"
	"sortie/games/room25"
	"sortie/games/temple"
)

// games lists every game, in the order they are shown to players.
var games = []engine.Game{
	plandesecours.Game{},
	evades.Game{},
	room25.Game{},
	temple.Game{},
	outran.Game{},
}

// Games returns every registered game.
func Games() []engine.Game { return append([]engine.Game(nil), games...) }

// Find returns the game with the given id.
func Find(id string) (engine.Game, error) {
	ids := make([]string, len(games))
	for i, g := range games {
		if g.Info().ID == id {
			return g, nil
		}
		ids[i] = g.Info().ID
	}
	return nil, fmt.Errorf("there is no game %q (games: %s)", id, strings.Join(ids, ", "))
}
