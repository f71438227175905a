package bot

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"

	"sortie/engine"
)

// Levels are the difficulty levels every game offers, weakest first.
var Levels = []string{"easy", "medium", "hard"}

// Level returns the policy that plays g at a difficulty level, named after
// the level. A game that provides a policy with the level's name (see
// [Provider]) plays it; otherwise easy is [Random], medium is the game's
// "heuristic" (random if it has none), and hard is [HardSearch]. A game whose
// states cannot be determinized cannot be searched, nor can a real-time game
// whose states cannot judge a position short of the end (an [Evaluator]:
// playing every playout to the end of a ten-minute game does not fit in a
// reaction time): the hard level of such a game is its medium one.
func Level(g engine.Game, level string) (Policy, error) {
	own := map[string]Policy{}
	if pr, ok := g.(Provider); ok {
		for _, p := range pr.Policies() {
			own[p.Name()] = p
		}
	}
	if p, ok := own[level]; ok {
		return p, nil
	}
	medium := Policy(Random{})
	if h, ok := own["heuristic"]; ok {
		medium = h
	}
	switch level {
	case "easy":
		return named{Random{}, level}, nil
	case "medium":
		return named{medium, level}, nil
	case "hard":
		if !Searchable(g) || g.Info().Timing == engine.RealTime && !evaluates(g) {
			return named{medium, level}, nil
		}
		return HardSearch(g, level), nil
	}
	return nil, fmt.Errorf("%q is not a level (levels: %s)", level, strings.Join(Levels, ", "))
}

// HardSearch is the search policy of the hard level, under the given name:
// ISMCTS with 1,000 iterations of random playouts, cut at [HardHorizon]
// moves where the game's states can judge a position (an [Evaluator]); g's
// heuristic plays where the bot cannot search. Where random play almost
// never wins (a co-operative game, say) and in real time, the heuristic
// also plays the playouts, [GuidedIterations] of them, and in real time it
// sets the pace (see [ISMCTS.Reaction]).
//
// Playouts are random rather than guided by the heuristic because a guided
// move costs a view and a decision: in Plan de Secours guided playouts made
// each decision about five times slower for a gain that 40 games could not
// tell from noise (57.5% [42.2, 71.5] against unguided). A game whose
// heuristic pays for itself provides its own "hard" policy.
func HardSearch(g engine.Game, name string) ISMCTS {
	m := ISMCTS{Label: name}
	if pr, ok := g.(Provider); ok {
		for _, p := range pr.Policies() {
			if p.Name() == "heuristic" {
				m.Fallback = p
			}
		}
	}
	if evaluates(g) {
		m.Horizon = HardHorizon
	}
	if m.Fallback != nil && (g.Info().Timing == engine.RealTime || !randomPlayoutsTell(g)) {
		// Random playouts that (almost) never end in a win tell the
		// search nothing: in Room 25's co-operative mode random teams
		// never escape, and a search on them lost every game. Let the
		// heuristic play the playouts then, with fewer of them, since each
		// costs several random ones.
		m.Guide, m.Epsilon, m.Iterations = m.Fallback, 0.2, GuidedIterations
	}
	return m
}

// GuidedIterations is the number of iterations of the hard level when its
// playouts are guided by the heuristic.
const GuidedIterations = 200

// randomPlayoutsTell reports whether random play of g ends with a winner
// often enough (one game in twenty) for random playouts to tell the search
// something. It plays forty random games with the fewest players.
func randomPlayoutsTell(g engine.Game) bool {
	const games = 40
	info := g.Info()
	r := rand.New(rand.NewPCG(1, 2))
	won := 0
	for i := range games {
		s, err := g.New(engine.Setup{Players: max(info.MinPlayers, min(2, info.MaxPlayers)), Seed: uint64(i)})
		if err != nil {
			return true
		}
		for steps := 0; steps < 4*info.MaxActions+1000; steps++ {
			actors := s.Actors()
			if len(actors) == 0 {
				if dl, ok := s.Deadline(); ok {
					s.Advance(dl)
					continue
				}
				break
			}
			for _, p := range actors {
				if legal := s.Legal(p); len(legal) > 0 {
					s.Apply(p, legal[r.IntN(len(legal))], 0)
				}
			}
		}
		if out, over := s.Outcome(); over && len(out.Winners) > 0 {
			won++
		}
	}
	return won*20 >= games
}

// evaluates reports whether g's states are [Evaluator]s.
func evaluates(g engine.Game) bool {
	s, err := newState(g)
	if err != nil {
		return false
	}
	_, ok := s.(Evaluator)
	return ok
}

// newState sets up a match of g with the fewest players (two where allowed).
func newState(g engine.Game) (engine.State, error) {
	info := g.Info()
	return g.New(engine.Setup{Players: max(info.MinPlayers, min(2, info.MaxPlayers)), Seed: 1})
}

// HardHorizon is the playout length of the hard level in games that can
// judge a position short of the end.
const HardHorizon = 40

// Searchable reports whether g's states can be determinized, which search
// bots need. It sets up a match with the fewest players to find out.
func Searchable(g engine.Game) bool {
	s, err := newState(g)
	if err != nil {
		return false
	}
	_, ok := s.(engine.Determinizer)
	return ok
}

// named is a policy under another name: a level.
type named struct {
	Policy
	name string
}

func (n named) Name() string { return n.name }

// isLevel reports whether name is one of [Levels].
func isLevel(name string) bool { return slices.Contains(Levels, name) }
