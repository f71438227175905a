package match

import (
	"errors"
	"fmt"

	"sortie/engine"
)

// Error is a refusal the server tells a client: a stable code and a sentence
// a player understands. A refused request changes nothing.
type Error struct {
	Code    string `json:"code"`
	Message string `json:"message"`
	// Params are what the message mentions, for clients that say it in
	// their own words (see engine.RuleError.Params).
	Params map[string]any `json:"params,omitempty"`
}

// Error returns the message.
func (e *Error) Error() string { return e.Message }

// Codes of the refusals of the match package. Rule refusals of the games keep
// the game's own codes ([engine.CodeMalformed], [engine.CodeNotYourTurn],
// [engine.CodeGameOver] and the games' rule codes).
const (
	CodeUnknownGame   = "unknown_game"  // no registered game has this id
	CodeBadSetup      = "bad_setup"     // player count, options or seats do not fit the game
	CodeUnknownBot    = "unknown_bot"   // the game has no bot of this name
	CodeUnknownMatch  = "unknown_match" // no match has this id
	CodeUnknownSeat   = "unknown_seat"  // the match has no such seat
	CodeBadToken      = "bad_token"     // the token holds no seat of this match (or not this one)
	CodeNotHuman      = "not_human"     // a bot seat cannot be joined
	CodeHeld          = "seat_held"     // the seat is kept for another account
	CodeNotStarted    = "not_started"   // the match has not started
	CodeStarted       = "already_started"
	CodeFinished      = "match_finished" // the match is over: nothing more can be done in it
	CodeNotFinished   = "not_finished"   // the replay is kept until the end
	CodeStaleSeq      = "stale_seq"      // the action was chosen on an older state (or sent twice)
	CodeFutureSeq     = "future_seq"     // the action names a state that does not exist yet
	CodeUnavailable   = "unavailable"    // the match cannot be served now (store failure, shutting down)
	CodeServerFull    = "server_full"    // too many matches are live
	CodeBadName       = "bad_name"       // a player name is empty, too long or has control characters
	CodeBadParameters = "bad_parameters" // a timer or pace is out of range, a bad seat or step of a view
	CodeSeatLeft      = "seat_left"      // the seat's human handed it to its bot: they take it back first

	// Table talk.
	CodeChatSpectator = "chat_spectator" // spectators read the table talk; only seats write in it
	CodeChatEmpty     = "chat_empty"     // a line with nothing but spaces
	CodeChatTooLong   = "chat_too_long"  // a line over the length limit (params: max)
	CodeChatBadText   = "chat_bad_text"  // a line with control characters (line breaks, tabs…)
	CodeChatTooFast   = "chat_too_fast"  // lines faster than the rate limit (params: wait_ms)
	CodeChatFull      = "chat_full"      // the match holds as many lines as it keeps
	CodeNoTeamChat    = "no_team_chat"   // a team line from a seat that has no team channel
)

func refuse(code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// with adds a parameter to e and returns e.
func (e *Error) with(key string, v any) *Error {
	if e.Params == nil {
		e.Params = make(map[string]any, 2)
	}
	e.Params[key] = v
	return e
}

// AsError returns err as an *Error: match refusals as they are, rule errors of
// the games with their code and message, anything else as [CodeUnavailable].
func AsError(err error) *Error {
	var me *Error
	if errors.As(err, &me) {
		return me
	}
	var re *engine.RuleError
	if errors.As(err, &re) {
		return &Error{Code: re.Code, Message: re.Message, Params: re.Params}
	}
	return &Error{Code: CodeUnavailable, Message: "The server cannot do this now; try again in a moment."}
}

// errGone is returned by a match that has ended (it was unloaded
// or the server is stopping); the manager loads it again if it can.
var errGone = refuse(CodeUnavailable, "The match is not running on this server now; try again.")
