// Package evades is Les Évadés (Dujardin, 2022) for Sortie: two to four
// prisoners race through a prison of doors, paying each door's combination
// with Combines cards, to pick up an object of their secret escape plan and
// leave by the exit it names. Warning tokens and Pass-Pass cards help and
// hinder along the way.
//
// The rules follow shared/rules/evades.md; every reconstructed number lives in
// components.go. The package is a deterministic state machine behind the
// engine contract: all randomness comes from the state's engine.RNG, and a
// seat's View is the only thing that leaves it. It must never import another
// game, the server or anything that does I/O, and never let a view or an
// event tell a seat another seat's hand, plan or the order of a pile before
// the game ends.
package evades

import (
	"fmt"
	"strconv"

	"sortie/bot"
	"sortie/engine"
)

// Option keys (§6).
const (
	optObjects = "objects_required"
	optFirst   = "first_player"
)

// Game is Les Évadés. Its zero value is ready to use.
type Game struct{}

var (
	_ engine.Game         = Game{}
	_ bot.Provider        = Game{}
	_ bot.Evaluator       = (*State)(nil)
	_ engine.Determinizer = (*State)(nil)
	_ engine.Rated        = (*State)(nil)
	_ engine.Offerer      = (*State)(nil)
	_ engine.TextParser   = Game{}
)

// Info describes the game and its options.
func (Game) Info() engine.Info {
	first := []string{"random"}
	for p := range maxPlayers {
		first = append(first, strconv.Itoa(p))
	}
	return engine.Info{
		ID:   "evades",
		Name: engine.Text{"fr": "Les Évadés", "en": "The Escapees"},
		Summary: engine.Text{
			"en": "Race your fellow prisoners out of the prison: collect Combines cards to open doors, pick up an object of your secret escape plan, and be first through your exit.",
			"fr": "Soyez le premier détenu à vous évader\u00a0: réunissez les cartes Combines qui ouvrent les portes, récupérez un objet de votre plan d’évasion secret et franchissez votre sortie.",
		},
		MinPlayers: minPlayers,
		MaxPlayers: maxPlayers,
		Timing:     engine.TurnBased,
		Options: []engine.Option{
			{
				Key:     optObjects,
				Name:    engine.Text{"en": "Objects required", "fr": "Objets nécessaires"},
				Help:    engine.Text{"en": "2 is the longer variant: carry both objects of your plan.", "fr": "2\u00a0: la variante longue, il faut les deux objets de son plan."},
				Kind:    engine.Int,
				Default: "1",
				Min:     1,
				Max:     2,
			},
			{
				Key:     optFirst,
				Name:    engine.Text{"en": "First player", "fr": "Premier joueur"},
				Help:    engine.Text{"en": "A seat number, or random.", "fr": "Un numéro de place, ou au hasard."},
				Kind:    engine.Choice,
				Default: "random",
				Choices: first,
			},
		},
		// D29 bounds a game to 100 turns per seat; no turn reaches 200
		// actions (each crossing spends a card or a credit).
		MaxActions: turnLimitPerSeat * maxPlayers * 200,
	}
}

// New sets up a match (§3).
func (g Game) New(setup engine.Setup) (engine.State, error) {
	opts, err := g.Info().Check(setup)
	if err != nil {
		return nil, err
	}
	first := -1
	if f := opts.String(optFirst); f != "random" {
		first, _ = strconv.Atoi(f)
		if first >= setup.Players {
			return nil, fmt.Errorf("option %s: seat %d does not exist with %d players", optFirst, first, setup.Players)
		}
	}
	return newState(setup, opts.Int(optObjects), first), nil
}

// DecodeAction reads an action from its JSON form (see README.md). Lists of
// cards, slots and doors are sets or multisets and come back sorted.
func (Game) DecodeAction(b []byte) (engine.Action, error) { return decodeAction(b) }

// Policies returns the game's own bots: "easy" (the heuristic planning
// short and now and then hesitating), "heuristic" (the medium level) and
// "hard" (the heuristic looking a round ahead on determinizations).
func (Game) Policies() []bot.Policy { return []bot.Policy{Easy{}, Heuristic{}, Hard{}} }
