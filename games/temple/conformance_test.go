package temple

import (
	"math/rand/v2"
	"testing"

	"sortie/engine"
	"sortie/engine/enginetest"
)

// conformanceSetups are the player counts 1–5 with the option values that
// change the rules: difficulty, each module, the timer and the track.
func conformanceSetups() []engine.Setup {
	variants := []map[string]string{
		{},
		{OptDifficulty: "advanced"},
		{OptDifficulty: "expert"},
		{OptCurses: "true"},
		{OptTreasures: "true"},
		{OptCurses: "true", OptTreasures: "true", OptDifficulty: "expert"},
		{OptTimer: "sand", OptSandMs: "60000"},
		{OptTrack: "random"},
	}
	var out []engine.Setup
	for n := 1; n <= maxPlayers; n++ {
		for _, v := range variants {
			out = append(out, engine.Setup{Players: n, Options: v})
		}
	}
	return out
}

// untimedSetups are untimed games, which last an hour of match time.
func untimedSetups() []engine.Setup {
	return []engine.Setup{
		{Players: 2, Options: map[string]string{OptTimer: "none", OptCurses: "true"}},
		{Players: 4, Options: map[string]string{OptTimer: "none", OptTreasures: "true", OptCooldown: "1000"}},
	}
}

// perturb changes what nobody may know: the order of the undrawn tiles (the
// exit kept in its window), the curse deck, the treasure stack with the
// face-down treasures, and the seed of future dice.
func perturb(s engine.State, _ engine.Seat, r *rand.Rand) engine.State {
	return s.(*State).resample(r)
}

// randomAction is any action, legal or not, for the refusal checks.
func randomAction(r *rand.Rand) engine.Action {
	dice := func() []int {
		n := r.IntN(4)
		out := make([]int, n)
		for i := range out {
			out[i] = r.IntN(27) - 1
		}
		return out
	}
	tile := func() string { return tiles[r.IntN(len(tiles))].ID }
	tre := func() string { return treasures[r.IntN(len(treasures))].ID }
	switch r.IntN(14) {
	case 0:
		return Roll{Dice: dice()}
	case 1:
		return Unlock{Gold: r.IntN(26) - 1, Targets: dice()}
	case 2:
		return Enter{To: tile(), Dice: dice()}
	case 3:
		return Discover{Side: Side(r.IntN(5) - 1), Dice: dice()}
	case 4:
		return Commit{Tier: r.IntN(5) - 1, Dice: dice()}
	case 5:
		return Retarget{Tier: r.IntN(5) - 1}
	case 6:
		return Withdraw{Dice: dice(), Treasures: []string{tre()}}
	case 7:
		g := r.IntN(6) - 1
		return Escape{Dice: dice(), GiveTo: &g}
	case 8:
		return GiveDie{To: r.IntN(6) - 1}
	case 9:
		return ProvokeFate{Chamber: tile()}
	case 10:
		return ClaimTreasure{Dice: dice()}
	case 11:
		return UseTreasure{Treasure: tre(), To: tile(), A: tile(), B: tile()}
	case 12:
		return LiftCurse{Card: curses[r.IntN(len(curses))].ID, Dice: dice()}
	}
	return Signal{Call: signalKinds[r.IntN(len(signalKinds))]}
}

// TestConformance runs the engine's suite on the virtual clock. A random
// ten-minute game is some 600 steps, so the playouts per setup are fewer
// than the suite's default: 10 (3 with -short) over 40 timed setups, and 2
// (1) over the untimed ones.
func TestConformance(t *testing.T) {
	playouts, untimed := 10, 2
	if testing.Short() {
		playouts, untimed = 3, 1
	}
	h := enginetest.Harness{
		Game:           Game{},
		Setups:         conformanceSetups(),
		Playouts:       playouts,
		Perturb:        perturb,
		RandomAction:   randomAction,
		LegalIsPartial: true,
		CheckEvery:     0.15,
	}
	enginetest.Run(t, h)
	h.Setups, h.Playouts = untimedSetups(), untimed
	enginetest.Run(t, h)
}
