package engine

// Info describes a game to players, servers and tools.
type Info struct {
	// ID is the stable identifier used in URLs, logs and the command line
	// (for example "plandesecours").
	ID string `json:"id"`
	// Name is the game's name by language ("fr", "en").
	Name Text `json:"name"`
	// Summary is a one-paragraph description by language.
	Summary Text `json:"summary"`
	// MinPlayers and MaxPlayers bound the number of seats. A game may refuse
	// some counts in between for some options (New says why).
	MinPlayers int `json:"min_players"`
	MaxPlayers int `json:"max_players"`
	// Timing says how the game uses time.
	Timing Timing `json:"timing"`
	// Options is the schema of the game's options, in display order.
	Options []Option `json:"options"`
	// MaxActions bounds the length of any game, in applied actions and
	// Advance calls that fired events: a playout longer than this is a bug.
	MaxActions int `json:"max_actions"`
}

// Text is a short text in several languages, keyed "fr" and "en".
type Text map[string]string

// Timing says how a game uses the match clock.
type Timing string

const (
	// TurnBased games have one actor at a time and no clock.
	TurnBased Timing = "turn_based"
	// Simultaneous games have decisions taken by several seats at once, and
	// no clock.
	Simultaneous Timing = "simultaneous"
	// RealTime games run on the match clock: speed matters, actions carry
	// their time, and Deadline/Advance fire timed events.
	RealTime Timing = "real_time"
)
