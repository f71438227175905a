package match

import "sortie/engine"

// Timers are a match's time controls, in milliseconds; 0 turns one off.
type Timers struct {
	// TakeoverAfterMs: how long a human seat may stay without a connection
	// before its bot plays it.
	TakeoverAfterMs int64 `json:"takeover_after_ms"`
	// MoveLimitMs: how long a human has for a move before their seat's bot
	// plays it (games that are not real-time).
	MoveLimitMs int64 `json:"move_limit_ms"`
}

// DefaultTimers are the time controls a match gets when its creator names
// none: what a club would agree on for a game of this timing, so that one
// absent or idle player never holds the others up for long.
//
//   - Turn-based games: 90 s for a move, about what a table waits before
//     nudging someone; the bot takes a seat over after 3 min without a
//     connection (a reload or a lost signal takes seconds).
//   - Simultaneous decisions (Room 25's programming) ask more of everyone at
//     once: 2 min each, the same 3 min before a takeover.
//   - Real-time games have no move limit (the game's own clock is the
//     limit), but cannot wait for anyone: an absent seat's bot plays after
//     30 s.
func DefaultTimers(t engine.Timing) Timers {
	switch t {
	case engine.RealTime:
		return Timers{TakeoverAfterMs: 30_000}
	case engine.Simultaneous:
		return Timers{TakeoverAfterMs: 180_000, MoveLimitMs: 120_000}
	default:
		return Timers{TakeoverAfterMs: 180_000, MoveLimitMs: 90_000}
	}
}
