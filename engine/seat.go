package engine

import "strconv"

// Seat is a player position in a match, numbered from 0 in turn order
// (clockwise at a physical table).
type Seat int

// Spectator is the audience of a view that belongs to no seat: it sees only the
// public part of a state.
const Spectator Seat = -1

// String returns "seat N" counting from 0, as the API's seat fields and a
// log's records number seats, or "spectator": for logs and diagnostics.
// A sentence for people names a seat with Name.
func (s Seat) String() string {
	if s == Spectator {
		return "spectator"
	}
	return "seat " + strconv.Itoa(int(s))
}

// Name returns how a sentence for people names the seat: "seat 1" for the
// first seat, counting from 1 as every screen does (outcome summaries,
// refusals, the replay command), or "a spectator".
func (s Seat) Name() string {
	if s == Spectator {
		return "a spectator"
	}
	return "seat " + strconv.Itoa(int(s)+1)
}

// Millis is the match clock: milliseconds since the match started. Turn-based
// games ignore it; real-time games are driven by it. In a simulation the clock
// is virtual, so a ten-minute game runs in microseconds.
type Millis int64

// Audience says who may see an [Event]. The zero value, [Public], is everyone,
// spectators included; any other value is a set of seats (at most 63) with or
// without the spectators.
type Audience uint64

// Public is the audience of an event everyone may see.
const Public Audience = 0

const spectatorBit Audience = 1 << 63

// Only returns the audience made of the given seats alone: no other seat and no
// spectator sees the event.
func Only(seats ...Seat) Audience {
	var a Audience
	for _, s := range seats {
		if s == Spectator {
			a |= spectatorBit
		} else {
			a |= 1 << uint(s)
		}
	}
	return a
}

// AllBut returns the audience of everyone in an n-seat match except seat s,
// spectators included: the public half of an event whose private half goes to
// s alone (for example "seat 2 drew a tile" beside "you drew the left turn").
func AllBut(s Seat, n int) Audience {
	return (Audience(1)<<uint(n)-1)&^Only(s) | spectatorBit
}

// Sees reports whether seat p (or [Spectator]) may see an event sent to a.
func (a Audience) Sees(p Seat) bool {
	switch {
	case a == Public:
		return true
	case p == Spectator:
		return a&spectatorBit != 0
	case p < 0 || p > 62:
		return false
	}
	return a&(1<<uint(p)) != 0
}
