package room25

import (
	"sync"

	"sortie/engine"
)

// Where what a state hands out comes from. A search bot plays thousands of
// short games a decision, each on a fresh clone, so allocation was most of
// the cost of an action: every event list, legal list and event body was an
// allocation of its own. Now the lists are carved from per-state chunks,
// the most frequent event bodies and legal lists are made once for the
// whole program (tables below and in actions.go), and a clone is one
// allocation. None of this changes what is handed out: the same values in
// the same order.

// buildTables makes the shared legal lists (actions.go) and event bodies
// (events.go) once, when the first game is set up: some 6,000 small values
// that a program which never plays Room 25 need not make.
func buildTables() { tablesOnce.Do(func() { buildLegalLists(); buildEventBodies() }) }

var tablesOnce sync.Once

// chunks are the chunks that the lists a state hands out are carved from.
type chunks struct {
	events  chunk[engine.Event]
	actions chunk[engine.Action]
	chars   chunk[Character]
}

// chunk hands out lists carved one after the other from a larger array, so
// that many short lists cost one allocation between them. A list is opened
// with the room it will probably need, appended to, then closed by keep:
// the part it fills is never written again (whoever was given the list
// keeps it), and its capacity ends with it, so that appending to a kept
// list copies it. One list at a time is open in a chunk. The free part has
// length zero, so that an empty chunk and a used one look the same in a
// dump of the state.
type chunk[T any] struct{ free []T }

// open returns an empty list with room for at least room elements, in the
// current array or a new one of size elements.
func (c *chunk[T]) open(room, size int) []T {
	if cap(c.free) < room {
		c.free = make([]T, 0, max(room, size))
	}
	return c.free
}

// keep closes l, the list last opened (and appended to).
func (c *chunk[T]) keep(l []T) []T {
	if cap(l) == cap(c.free) { // still in the chunk: append never moved it
		c.free = l[len(l):len(l)]
	}
	return l[:len(l):len(l)]
}

// chunkSize is the size of a new chunk: what the rest of the game would
// need at perTurn elements per character and turn, within [lo, hi]. A
// search plays the game out on a fresh clone at every iteration, from
// anywhere in the game: a chunk that fits the rest of the game wastes
// little.
func (s *State) chunkSize(perTurn, lo, hi int) int {
	return min(hi, max(lo, perTurn*max(1, s.turnsLeft)*len(s.line)))
}

// The lists a character needs in a turn, roughly, and the bounds of a chunk
// of them: events of an action, and legal actions listed in the action
// phase.
const (
	eventsPerTurn  = 5
	eventChunkMin  = 32
	eventChunkMax  = 256
	actionsPerTurn = 6
	actionChunkMin = 64
	actionChunkMax = 256
)

// inline copies xs into buf, a state's own array (buf[:0]), when it fits:
// the state's short lists live in the state itself, so that a clone is one
// allocation. Longer lists get an array of their own.
func inline[T any](buf, xs []T) []T {
	if xs == nil {
		return nil
	}
	return append(buf[:0], xs...)
}
