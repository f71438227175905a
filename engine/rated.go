package engine

// Family is how a game's results are rated: each account has one rating
// per game and family.
type Family string

const (
	// FreeForAll is every seat for itself: each side of a result is one
	// seat, ranked as the outcome ranks it (Plan de Secours, Les Évadés,
	// Outran, Room 25's Competition).
	FreeForAll Family = "free_for_all"
	// Team is sides of seats that win or lose together, possibly of
	// different sizes and roles (Room 25's Prisoners and hidden Guards in
	// Suspicion, its teams in Team mode). The rating compares them with a
	// handicap for each role, measured per variant.
	Team Family = "team"
	// Coop is every seat on one side, against the game (Temple, Room 25's
	// Cooperation and Solo). The rating sets the team against a benchmark
	// measured per variant and player count.
	Coop Family = "coop"
)

// Result is what a match is for rating. It holds no player and no rating:
// the server pairs its seats with accounts and bots, and package
// internal/rating does the rest.
type Result struct {
	// Family is the mode family the match is rated in.
	Family Family `json:"family"`
	// Key names the variant whose balance the lab measures, in the game's
	// words: its options that change how a side or the team fares, as
	// key=value pairs joined by commas ("mode=suspicion",
	// "difficulty=expert,curses=true"). Options that do not change the
	// play (a display setting, a chat) are left out. Free-for-all results
	// need no measure and may leave it empty.
	Key string `json:"key,omitempty"`
	// Sides are the seats that won or lost together, set once the match is
	// over: in a free for all one side a seat, in co-op one side of every
	// seat. Every seat is in exactly one side.
	Sides []Side `json:"sides,omitempty"`
}

// Side is seats that won or lost together.
type Side struct {
	// Role names the side's part, the same in every match of the variant
	// ("prisoners", "guards", "team_a"): the rating's handicaps are by
	// role. Free-for-all sides may leave it empty.
	Role string `json:"role,omitempty"`
	// Seats are the side's seats, in seat order.
	Seats []Seat `json:"seats"`
	// Rank is where the side finished, 1 for the best, equal ranks tying,
	// in the order the outcome ranks its seats. A lone side (co-op, or the
	// only side of a team match) has rank 1 when it won and 2 when it
	// lost against the game.
	Rank int `json:"rank"`
}

// Rated is implemented by states that say what a match is for rating.
// The conformance suite (enginetest) checks it on every playout of a game
// whose states implement it.
type Rated interface {
	// RatedResult returns the match's result for rating and true once
	// the game is over, consistent with its Outcome. Before the end it
	// returns false, with Family and Key set (they follow from the setup,
	// which everyone knows, and never change) and no sides: sides can
	// reveal a secret (who was a Guard) and must never be told early.
	RatedResult() (Result, bool)
}

// FreeForAllResult is the rated result of a free-for-all game over with
// outcome o: one side a seat, with the seat's rank.
func FreeForAllResult(o Outcome, key string) Result {
	r := Result{Family: FreeForAll, Key: key, Sides: make([]Side, len(o.Ranks))}
	for p, rank := range o.Ranks {
		r.Sides[p] = Side{Seats: []Seat{Seat(p)}, Rank: rank}
	}
	return r
}

// CoopResult is the rated result of a co-operative game over with outcome
// o, played by n seats: one side of every seat, rank 1 if they won.
func CoopResult(o Outcome, n int, key string) Result {
	s := Side{Role: "team", Seats: make([]Seat, n), Rank: 2}
	for p := range s.Seats {
		s.Seats[p] = Seat(p)
	}
	if len(o.Winners) > 0 {
		s.Rank = 1
	}
	return Result{Family: Coop, Key: key, Sides: []Side{s}}
}
