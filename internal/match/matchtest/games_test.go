package matchtest

import (
	"math/rand/v2"
	"testing"

	"sortie/engine"
	"sortie/engine/enginetest"
)

// The test games keep the engine's contract, so that what the server tests
// find is the server's doing.
func TestConformance(t *testing.T) {
	cards, race := 40, 10
	if testing.Short() {
		cards, race = 6, 2
	}
	enginetest.Run(t, enginetest.Harness{Game: Cards{}, Playouts: cards, Perturb: perturbCards})
	enginetest.Run(t, enginetest.Harness{Game: Race{}, Playouts: race, Perturb: perturbRace,
		Setups: []engine.Setup{{Players: 1}, {Players: 3}, {Players: 4, Options: map[string]string{"seconds": "5", "goal": "30"}}}})
}

// perturbCards redeals what p cannot see: the deck and the other hands.
func perturbCards(s engine.State, p engine.Seat, r *rand.Rand) engine.State {
	c := s.Clone().(*CardsState)
	if c.over {
		return c
	}
	pool := append([]int(nil), c.deck...)
	for i, h := range c.hands {
		if engine.Seat(i) != p {
			pool = append(pool, h...)
		}
	}
	r.Shuffle(len(pool), func(i, j int) { pool[i], pool[j] = pool[j], pool[i] })
	for i, h := range c.hands {
		if engine.Seat(i) == p {
			continue
		}
		for k := range h {
			h[k], pool = pool[0], pool[1:]
		}
	}
	copy(c.deck, pool)
	c.rng = engine.NewRNG(r.Uint64())
	return c
}

// perturbRace changes the others' secrets.
func perturbRace(s engine.State, p engine.Seat, r *rand.Rand) engine.State {
	c := s.Clone().(*RaceState)
	if c.over {
		return c
	}
	for i := range c.lucky {
		if engine.Seat(i) != p {
			c.lucky[i], c.whispers[i] = 1+r.IntN(6), r.IntN(1000)
		}
	}
	c.rng = engine.NewRNG(r.Uint64())
	return c
}
