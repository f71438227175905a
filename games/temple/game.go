// Package temple is Escape: The Curse of the Temple (Queen Games, 2012) for
// Sortie: a co-operative real-time dice game for 1–5 adventurers who explore a
// temple of chamber tiles, activate magic gems together, run back to the start
// chamber before each door slam, and must all leave through the exit before the
// temple collapses. It follows shared/rules/temple.md, the authority for every
// rule and decision (Dn) quoted in the code.
//
// Everything random (dice, the tile stack, the curse deck, the treasure
// stack) comes from the engine.RNG held in the State; the match clock comes
// only from the `at` of each action and from Advance. The package must never
// read the wall clock or a global random source, and a View must never show
// the order of the tile stack, the curse deck or the treasure stack, nor the
// identity of a face-down treasure, before the game ends.
package temple

import (
	"fmt"
	"strconv"

	"sortie/bot"
	"sortie/engine"
)

// Game is Escape: The Curse of the Temple. Its zero value is ready to use.
type Game struct{}

var (
	_ engine.Game         = Game{}
	_ bot.Provider        = Game{}
	_ engine.Determinizer = (*State)(nil)
	_ engine.Rated        = (*State)(nil)
)

// Option keys.
const (
	OptTimer      = "timer"
	OptTrack      = "track"
	OptSandMs     = "sand_ms"
	OptDifficulty = "difficulty"
	OptCurses     = "curses"
	OptTreasures  = "treasures"
	OptCooldown   = "roll_cooldown_ms"
)

func stepChoices(lo, hi, step engine.Millis) []string {
	var out []string
	for v := lo; v <= hi; v += step {
		out = append(out, strconv.FormatInt(int64(v), 10))
	}
	return out
}

var info = engine.Info{
	ID:   "temple",
	Name: engine.Text{"fr": "Escape\u00a0: La Malédiction du Temple", "en": "Escape: The Curse of the Temple"},
	Summary: engine.Text{
		"fr": "Jeu coopératif en temps réel\u00a0: explorez le temple aux dés, activez les joyaux ensemble, revenez à la salle de départ avant que les portes ne claquent et sortez tous avant l’effondrement.",
		"en": "Co-operative real-time dice game: explore the temple, activate the magic gems together, run back to the start chamber before the doors slam, and all get out before the temple collapses.",
	},
	MinPlayers: 1,
	MaxPlayers: maxPlayers,
	Timing:     engine.RealTime,
	Options: []engine.Option{
		{Key: OptTimer, Kind: engine.Choice, Default: "soundtrack", Choices: []string{"soundtrack", "sand", "none"},
			Name: engine.Text{"fr": "Minuterie", "en": "Timer"},
			Help: engine.Text{"fr": "Bande sonore (10 min), Sable de la Fortune (sablier) ou sans minuterie.", "en": "Soundtrack (10 min), Sand of Fortune hourglass, or untimed."}},
		{Key: OptTrack, Kind: engine.Choice, Default: "track_1", Choices: []string{"track_1", "track_2", "random"},
			Name: engine.Text{"fr": "Piste", "en": "Track"}},
		{Key: OptSandMs, Kind: engine.Choice, Default: "200000", Choices: stepChoices(sandMsMin, sandMsMax, sandMsStep),
			Name: engine.Text{"fr": "Durée du sablier (ms)", "en": "Hourglass run (ms)"}},
		{Key: OptDifficulty, Kind: engine.Choice, Default: "normal", Choices: []string{"normal", "advanced", "expert"},
			Name: engine.Text{"fr": "Difficulté", "en": "Difficulty"},
			Help: engine.Text{"fr": "+3 ou +6 joyaux\u00a0; expert interdit le coup de pouce du destin.", "en": "+3 or +6 gems; expert forbids provoking fate."}},
		{Key: OptCurses, Kind: engine.Bool, Default: "false", Name: engine.Text{"fr": "Malédictions", "en": "Curses"}},
		{Key: OptTreasures, Kind: engine.Bool, Default: "false", Name: engine.Text{"fr": "Trésors", "en": "Treasures"}},
		{Key: OptCooldown, Kind: engine.Choice, Default: "1500", Choices: stepChoices(cooldownMin, cooldownMax, cooldownStep),
			Name: engine.Text{"fr": "Délai entre deux lancers (ms)", "en": "Roll cooldown (ms)"}},
	},
	MaxActions: maxActionsPerGameBound,
}

// Info describes the game and its options (§6).
func (Game) Info() engine.Info { return info }

// New sets up a match (§3).
func (Game) New(setup engine.Setup) (engine.State, error) {
	o, err := info.Check(setup)
	if err != nil {
		return nil, err
	}
	st := settings{
		players:    setup.Players,
		timer:      o.String(OptTimer),
		difficulty: o.String(OptDifficulty),
		curses:     o.Bool(OptCurses),
		treasures:  o.Bool(OptTreasures),
		sandMs:     engine.Millis(o.Int(OptSandMs)),
		cooldown:   engine.Millis(o.Int(OptCooldown)),
		track:      -1,
	}
	if st.sandMs == 0 || st.cooldown == 0 {
		return nil, fmt.Errorf("temple: bad numeric option")
	}
	for i, t := range tracks {
		if t.ID == o.String(OptTrack) {
			st.track = i
		}
	}
	if st.timer != "soundtrack" && st.track < 0 {
		st.track = 0 // the track is ignored without the soundtrack: no draw
	}
	return newState(st, setup.Seed), nil
}

// DecodeAction reads an action from its JSON form (README.md).
func (Game) DecodeAction(b []byte) (engine.Action, error) {
	v, err := engine.DecodeTyped(b, newAction)
	if err != nil {
		return nil, err
	}
	return deref(v.(engine.Action)), nil
}

// val dereferences an action pointer; a nil pointer is no action.
func val[T engine.Action](p *T) engine.Action {
	if p == nil {
		return nil
	}
	return *p
}

// deref turns a pointer to an action struct into the struct, so that actions
// are plain values everywhere.
func deref(a engine.Action) engine.Action {
	switch v := a.(type) {
	case *Roll:
		return val(v)
	case *Unlock:
		return val(v)
	case *Enter:
		return val(v)
	case *Discover:
		return val(v)
	case *Commit:
		return val(v)
	case *Retarget:
		return val(v)
	case *Withdraw:
		return val(v)
	case *Escape:
		return val(v)
	case *GiveDie:
		return val(v)
	case *ProvokeFate:
		return val(v)
	case *ClaimTreasure:
		return val(v)
	case *UseTreasure:
		return val(v)
	case *LiftCurse:
		return val(v)
	case *Signal:
		return val(v)
	}
	return a
}

func newAction(kind string) (any, bool) {
	switch kind {
	case "roll":
		return &Roll{}, true
	case "unlock":
		return &Unlock{}, true
	case "enter":
		return &Enter{}, true
	case "discover":
		return &Discover{Side: noSide}, true
	case "commit":
		return &Commit{}, true
	case "retarget":
		return &Retarget{}, true
	case "withdraw":
		return &Withdraw{}, true
	case "escape":
		return &Escape{}, true
	case "give_die":
		return &GiveDie{}, true
	case "provoke_fate":
		return &ProvokeFate{}, true
	case "claim_treasure":
		return &ClaimTreasure{}, true
	case "use_treasure":
		return &UseTreasure{}, true
	case "lift_curse":
		return &LiftCurse{}, true
	case "signal":
		return &Signal{}, true
	}
	return nil, false
}
