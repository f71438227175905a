package engine

import "fmt"

// RuleError is the refusal of an action: a stable code for clients and a
// sentence for the player ("You cannot pass while you hold a tile: play a
// tile or your LOST tile."). A refused action changes nothing.
type RuleError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *RuleError) Error() string { return e.Message }

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
	return Refuse(CodeNotYourTurn, "It is not your turn to act (you are %s).", p)
}

// GameOver is the refusal of an action after the game has ended.
func GameOver() *RuleError { return Refuse(CodeGameOver, "The game is over.") }
