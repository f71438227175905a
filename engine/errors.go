package engine

import "fmt"

// RuleError is the refusal of an action: a stable code for clients and a
// sentence for the player ("You cannot pass while you hold a tile: play a
// tile or your LOST tile."). A refused action changes nothing.
type RuleError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	// Params are the values the message mentions that a client needs to
	// say the refusal in its own words and language: times in
	// milliseconds under keys ending in "_ms" (a wait, "wait_ms", counts
	// from the action's time), seats under "seat" or "target", counts and
	// ids as they are. Nil when the code says it all.
	Params map[string]any `json:"params,omitempty"`
}

func (e *RuleError) Error() string { return e.Message }

// With adds a parameter to e and returns e, for chaining after Refuse:
// Refuse(code, "…at %d ms", at).With("wait_ms", at-now).
func (e *RuleError) With(key string, v any) *RuleError {
	if e.Params == nil {
		e.Params = make(map[string]any, 2)
	}
	e.Params[key] = v
	return e
}

// Refuse returns a *RuleError with the given code and a message formatted as
// by fmt.Sprintf.
func Refuse(code, format string, args ...any) *RuleError {
	return &RuleError{Code: code, Message: fmt.Sprintf(format, args...)}
}

// Codes shared by every game. Games add their own, named after the rule.
const (
	// CodeMalformed: the action could not be read (bad JSON, unknown type,
	// unknown field, value out of range).
	CodeMalformed = "malformed"
	// CodeNotYourTurn: the seat is not among the actors now.
	CodeNotYourTurn = "not_your_turn"
	// CodeGameOver: the game has ended.
	CodeGameOver = "game_over"
	// CodeWrongPhase: this kind of action is not played at this point.
	CodeWrongPhase = "wrong_phase"
)

// NotYourTurn is the refusal of an action by a seat that may not act now.
func NotYourTurn(p Seat) *RuleError {
	if p == Spectator {
		return Refuse(CodeNotYourTurn, "Spectators cannot act.")
	}
	return Refuse(CodeNotYourTurn, "It is not your turn to act (you are %s).", p.Name())
}

// GameOver is the refusal of an action after the game has ended.
func GameOver() *RuleError { return Refuse(CodeGameOver, "The game is over.") }
