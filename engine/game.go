package engine

import (
	"encoding/json"
	"math/rand/v2"

	"sortie/engine/jsonw"
)

// Game describes one game and builds its states. A Game value holds no match
// data and is safe for concurrent use.
type Game interface {
	// Info describes the game: its id, names, seat counts and options.
	Info() Info
	// New sets up a match. A bad player count or option gives an error that
	// says what is wrong (see [Info.Check]).
	New(s Setup) (State, error)
	// DecodeAction reads an action from its JSON form (an object with a
	// "type" field). Malformed input gives a *[RuleError] with code
	// [CodeMalformed]; a well-formed action may still be illegal in a state.
	DecodeAction(b []byte) (Action, error)
}

// State is one match in progress. It is a plain value owned by one goroutine:
// nothing in it is safe for concurrent use, and nothing in it refers to the
// outside world (no clock, no global random source, no I/O).
type State interface {
	// Actors returns the seats that may act now, in seat order: one seat in a
	// turn-based game, several during a simultaneous decision, every seat
	// still playing in real time, none when the game is over or when only the
	// passing of time can change anything. In a turn-based or simultaneous
	// game every actor has a legal action; in real time an actor may have
	// none for a moment (a cooldown) and must wait.
	Actors() []Seat
	// Legal returns every legal action of seat p now. A game whose actions
	// are too many to list (the orderings of a hand, say) may return a
	// representative set and accept other well-formed actions in Apply; its
	// README says so. Legal never returns an action that Apply refuses.
	Legal(p Seat) []Action
	// Apply plays action a for seat p at match time at. A refused action
	// returns a *[RuleError] and leaves the state exactly as it was. The
	// caller must first call Advance(at), so that what was due before the
	// action has happened.
	Apply(p Seat, a Action, at Millis) ([]Event, error)
	// Advance lets match time pass up to at, firing in order everything due
	// at or before it (a countdown's gong, a time limit). Calling it with a
	// time at or before the current one does nothing. Advance(a) then
	// Advance(b) gives the same state as Advance(b) alone.
	Advance(at Millis) []Event
	// Deadline returns when Advance is next due, if anything is scheduled.
	// Turn-based games return false.
	Deadline() (Millis, bool)
	// View returns what seat p (or [Spectator]) may know now, and nothing
	// more. It is the only part of a state that ever leaves the server. Once
	// the game is over, views reveal what the game's rules reveal at the end.
	View(p Seat) View
	// Outcome returns the result once the game is over.
	Outcome() (Outcome, bool)
	// Clone returns an independent deep copy, random generator included.
	Clone() State
}

// Determinizer is implemented by states that can stand in for what a seat
// cannot see, so that search bots (information-set MCTS) can play them.
type Determinizer interface {
	// Determinize returns a copy of the state in which everything seat p may
	// not know (others' hands, the order of face-down piles, face-down rooms)
	// is resampled with r, consistently with p's view: View(p) of the copy is
	// the same as View(p) of the original. The copy's own generator is
	// reseeded from r, so that search does not foresee future draws.
	Determinize(p Seat, r *rand.Rand) State
}

// View is what one seat may know of a state: a value of the game's own view
// type whose JSON form is what clients receive. Bots of a game may type-assert
// it to that type; generic code only encodes it.
type View any

// JSONAppender is implemented by views that write their own JSON without
// reflection, on the server's hot path (every action encodes a view for
// every audience). AppendJSON appends to dst exactly the bytes json.Marshal
// writes for the view — the conformance suite (enginetest) checks it on
// every state it visits — and returns the extended slice. The helpers of
// package engine/jsonw write values as encoding/json does.
type JSONAppender interface {
	AppendJSON(dst []byte) []byte
}

// MarshalView appends a view's JSON to dst: by its own AppendJSON when it
// has one, else with encoding/json.
func MarshalView(dst []byte, v View) ([]byte, error) {
	if a, ok := v.(JSONAppender); ok {
		return a.AppendJSON(dst), nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return append(dst, b...), nil
}

// ViewAppender is implemented by states that write a seat's view without
// keeping it: AppendView appends to dst exactly what MarshalView appends for
// View(p), and may build the view in room it reuses and from the state's own
// slices, since nothing holds it once written. The server encodes a view for
// every audience of every action; the conformance suite (enginetest) checks
// the bytes against View's on every state it visits, for every audience in
// turn (so that room reused from one audience never shows in another's).
type ViewAppender interface {
	AppendView(dst []byte, p Seat) []byte
}

// AppendView appends the JSON of seat p's view of st to dst: by the state's
// own AppendView when it has one, else by MarshalView of View(p).
func AppendView(dst []byte, st State, p Seat) ([]byte, error) {
	if a, ok := st.(ViewAppender); ok {
		return a.AppendView(dst, p), nil
	}
	return MarshalView(dst, st.View(p))
}

// Setup is everything a match starts from. With the same Setup and the same
// action log, a game always reaches the same state.
type Setup struct {
	// Players is the number of seats.
	Players int `json:"players"`
	// Options maps option keys of [Info.Options] to values in their text
	// form ("true", "3", "expert"); missing keys take their defaults.
	Options map[string]string `json:"options,omitempty"`
	// Seed seeds the state's random generator.
	Seed uint64 `json:"seed"`
}

// Outcome is the result of a finished game.
type Outcome struct {
	// Winners are the seats that won, in seat order. A shared victory lists
	// several seats; a co-operative game lists every seat or none.
	Winners []Seat `json:"winners"`
	// Ranks gives each seat's rank, 1 for the best; equal results share a
	// rank.
	Ranks []int `json:"ranks"`
	// Scores gives each seat's final score in the game's own unit (points,
	// squares ahead, gems); games without scores give 1 to winners and 0 to
	// others.
	Scores []int `json:"scores"`
	// Summary says in a sentence how the game ended, in English.
	Summary string `json:"summary,omitempty"`
}

// AppendJSON appends the outcome's JSON, as json.Marshal writes it, for views
// that write their own (see JSONAppender).
func (o *Outcome) AppendJSON(dst []byte) []byte {
	dst = jsonw.Ints(jsonw.Key(append(dst, '{'), "winners"), o.Winners)
	dst = jsonw.Ints(jsonw.Key(append(dst, ','), "ranks"), o.Ranks)
	dst = jsonw.Ints(jsonw.Key(append(dst, ','), "scores"), o.Scores)
	if o.Summary != "" {
		dst = jsonw.String(jsonw.Key(append(dst, ','), "summary"), o.Summary)
	}
	return append(dst, '}')
}

// Won reports whether seat p is among the winners.
func (o Outcome) Won(p Seat) bool {
	for _, w := range o.Winners {
		if w == p {
			return true
		}
	}
	return false
}

// OutcomeFromScores is the outcome of a game won by the highest score: seats
// ranked by score (see [RanksFromScores]), every seat of rank 1 a winner.
// The scores slice is kept, not copied.
func OutcomeFromScores(scores []int, summary string) Outcome {
	o := Outcome{Scores: scores, Ranks: RanksFromScores(scores), Summary: summary}
	for p, r := range o.Ranks {
		if r == 1 {
			o.Winners = append(o.Winners, Seat(p))
		}
	}
	return o
}

// RanksFromScores ranks seats by score, highest first; equal scores share a
// rank (scores 5, 7, 7, 2 give ranks 3, 1, 1, 4).
func RanksFromScores(scores []int) []int {
	ranks := make([]int, len(scores))
	for i, si := range scores {
		r := 1
		for _, sj := range scores {
			if sj > si {
				r++
			}
		}
		ranks[i] = r
	}
	return ranks
}

// Offerer is implemented by states in which listing a seat's legal actions
// would give a puzzle away: in Outran the legal arrow sequences are the
// answers. Offer returns the actions a client may show seat p as choices;
// what it leaves out, the person composes from the view (and may type, see
// [TextParser]), and Apply judges it. Bots still choose from Legal.
type Offerer interface {
	Offer(p Seat) []Action
}

// Offer returns the actions to show a person at seat p as choices: s.Offer(p)
// where the state is an [Offerer], else s.Legal(p).
func Offer(s State, p Seat) []Action {
	if o, ok := s.(Offerer); ok {
		return o.Offer(p)
	}
	return s.Legal(p)
}

// TextParser is implemented by games whose actions a person may type in a
// terminal in a short form ("98+3" for a sequence of arrows).
type TextParser interface {
	ParseAction(line string) (Action, error)
}
