// Ratings: each player's rating per game and mode family, its history (one
// row per rated match), and what each finished match counted for. [Ratings]
// is a third interface of the same stores ([SQLite] and [Postgres]
// implement it), in the same database as the matches it rates.
//
// A finished match is decided once: [Ratings.RecordRating] writes its
// decision (rated, or why not) with every player's new rating in one
// transaction, keyed by the match's id, so that the same match is never
// rated twice, whichever node tries and however often; a node killed before
// the commit left nothing, and [Ratings.Unrated] finds the match again.

package store

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
)

// BotPlayer is the prefix of a bot level's player id in the ratings
// ("bot:hard"): each bot level has one rated identity per game and family.
const BotPlayer = "bot:"

// PlayerRating is one player's rating in a game and family.
type PlayerRating struct {
	// Player is an account's id, or a bot level's ([BotPlayer] + level).
	Player string
	Game   string
	// Family is the mode family (engine.Family's values).
	Family    string
	Mu, Sigma float64
	// Games is how many rated matches made it.
	Games   int
	Updated time.Time
}

// RatingChange is what one rated match did to one player's rating.
type RatingChange struct {
	Player string
	// Before is the rating the match started from; Games in it is the
	// count of rated matches before this one (0 and the model's new
	// rating for a first match): [Ratings.RecordRating] writes the
	// change only if the stored rating still has that count.
	Before PlayerRating
	// Mu and Sigma are the rating after the match.
	Mu, Sigma float64
	// Rank is where the player's side finished (1 best); a leaver's is
	// the last.
	Rank int
}

// MatchRating is what a finished match counted for rating.
type MatchRating struct {
	Match string
	// Rated says the match changed ratings; Reason says why not otherwise
	// (a code of the server's), or which part it counted for (a leaver's
	// alone, say).
	Rated  bool
	Reason string
	Game   string
	Family string
	// Changes are the ratings it changed (none if not rated).
	Changes []RatingChange
	At      time.Time
}

// RatingEntry is one row of a player's history: a rated match and the
// rating it left.
type RatingEntry struct {
	Match     string
	Game      string
	Family    string
	Mu, Sigma float64
	Rank      int
	At        time.Time
}

// Board selects a leaderboard.
type Board struct {
	Game, Family string
	// MaxSigma keeps the ratings whose σ is at most this (the established
	// ones); 0 keeps all.
	MaxSigma float64
	// Limit bounds the answer; 0 means 100.
	Limit int
}

// Ratings keeps ratings. Every method is safe for concurrent use; a write
// that returned nil is durable, as for [Store].
type Ratings interface {
	// RecordRating writes what a finished match counted for, once: the
	// decision, each change's new rating and a row of each player's
	// history, in one transaction. A match decided already (by this node
	// or another) writes nothing and returns nil. A change whose player's
	// stored rating no longer has Before.Games matches (another match of
	// theirs was rated meanwhile; a first match and a stored rating) is an
	// [ErrConflict] that writes nothing: the caller reads the ratings again
	// and recomputes. A rated decision without changes, a change without
	// a player, twice the same player, or numbers that are not finite, are
	// an error and write nothing.
	RecordRating(ctx context.Context, r *MatchRating) error
	// MatchRating returns what a match counted for ([ErrNotFound] if it was
	// not decided), with its changes.
	MatchRating(ctx context.Context, match string) (*MatchRating, error)
	// Unrated returns up to limit (0: 100) matches finished at or after
	// since and not decided yet, the oldest finished first.
	Unrated(ctx context.Context, since time.Time, limit int) ([]string, error)
	// PlayerRatings returns the stored ratings of these players in a game
	// and family (a player without one is left out), in no set order.
	PlayerRatings(ctx context.Context, game, family string, players []string) ([]PlayerRating, error)
	// RatingsOf returns every rating of a player, by game then family.
	RatingsOf(ctx context.Context, player string) ([]PlayerRating, error)
	// RatingHistory returns a player's last limit (0: 100) rated matches,
	// oldest first.
	RatingHistory(ctx context.Context, player string, limit int) ([]RatingEntry, error)
	// Leaderboard returns the ratings the board keeps, best μ − 3σ first
	// (ties: more games first, then player id).
	Leaderboard(ctx context.Context, b Board) ([]PlayerRating, error)
}

// checkMatchRating refuses a decision that cannot be written.
func checkMatchRating(r *MatchRating) error {
	if r.Match == "" {
		return errors.New("store: a match rating names no match")
	}
	if r.Rated && len(r.Changes) == 0 {
		return fmt.Errorf("store: match %s is rated but changes no rating", r.Match)
	}
	if !r.Rated && len(r.Changes) > 0 {
		return fmt.Errorf("store: match %s is not rated but changes ratings", r.Match)
	}
	if r.Rated && (r.Game == "" || r.Family == "") {
		return fmt.Errorf("store: match %s is rated without its game and family", r.Match)
	}
	seen := make(map[string]bool, len(r.Changes))
	for _, c := range r.Changes {
		switch {
		case c.Player == "":
			return fmt.Errorf("store: a change of match %s names no player", r.Match)
		case seen[c.Player]:
			return fmt.Errorf("store: match %s changes %s twice", r.Match, c.Player)
		case c.Before.Games < 0:
			return fmt.Errorf("store: match %s: %s played %d games", r.Match, c.Player, c.Before.Games)
		}
		for _, x := range []float64{c.Mu, c.Sigma, c.Before.Mu, c.Before.Sigma} {
			if math.IsNaN(x) || math.IsInf(x, 0) {
				return fmt.Errorf("store: match %s: %s's rating is not a number", r.Match, c.Player)
			}
		}
		if c.Sigma <= 0 {
			return fmt.Errorf("store: match %s: %s's σ must be positive", r.Match, c.Player)
		}
		seen[c.Player] = true
	}
	return nil
}

// moved is the conflict of a player whose rating changed meanwhile.
func moved(match, player string) error {
	return fmt.Errorf("%w: %s's rating changed while match %s was rated", ErrConflict, player, match)
}

// IsBotPlayer reports whether a rating's player is a bot level.
func IsBotPlayer(player string) bool { return strings.HasPrefix(player, BotPlayer) }
