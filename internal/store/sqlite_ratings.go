package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
)

var _ Ratings = (*SQLite)(nil)

// RecordRating writes a finished match's rating decision once. The one
// writer makes the checks and the writes one step: nothing can change a
// rating between them.
func (s *SQLite) RecordRating(ctx context.Context, r *MatchRating) error {
	if err := checkMatchRating(r); err != nil {
		return err
	}
	return s.q.write(ctx, "", func(tx *sql.Tx) error {
		done, err := exists(tx, `SELECT 1 FROM rated_matches WHERE match_id = ?`, r.Match)
		if err != nil || done {
			return err
		}
		for _, c := range r.Changes {
			var games int
			err := tx.QueryRow(`SELECT games FROM ratings WHERE player = ? AND game = ? AND family = ?`, c.Player, r.Game, r.Family).Scan(&games)
			switch {
			case errors.Is(err, sql.ErrNoRows):
				games = 0
			case err != nil:
				return err
			}
			if games != c.Before.Games {
				return moved(r.Match, c.Player)
			}
		}
		at := millis(r.At)
		if _, err := tx.Exec(`INSERT INTO rated_matches (match_id, rated, reason, game, family, at) VALUES (?, ?, ?, ?, ?, ?)`,
			r.Match, r.Rated, r.Reason, r.Game, r.Family, at); err != nil {
			return err
		}
		for _, c := range r.Changes {
			if _, err := tx.Exec(`INSERT INTO ratings (player, game, family, mu, sigma, games, updated) VALUES (?, ?, ?, ?, ?, 1, ?)
				ON CONFLICT (player, game, family) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma, games = games + 1, updated = excluded.updated`,
				c.Player, r.Game, r.Family, c.Mu, c.Sigma, at); err != nil {
				return err
			}
			if _, err := tx.Exec(`INSERT INTO rating_history (player, match_id, game, family, before_mu, before_sigma, mu, sigma, rank, games, at)
				VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
				c.Player, r.Match, r.Game, r.Family, c.Before.Mu, c.Before.Sigma, c.Mu, c.Sigma, c.Rank, c.Before.Games, at); err != nil {
				return err
			}
		}
		return nil
	})
}

// MatchRating returns a match's rating decision.
func (s *SQLite) MatchRating(ctx context.Context, match string) (*MatchRating, error) {
	r := MatchRating{Match: match}
	var at int64
	err := s.r.QueryRowContext(ctx, `SELECT rated, reason, game, family, at FROM rated_matches WHERE match_id = ?`, match).
		Scan(&r.Rated, &r.Reason, &r.Game, &r.Family, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("%w: %s has no rating decision", ErrNotFound, match)
	}
	if err != nil {
		return nil, s.fault(err)
	}
	r.At = fromMillis(at)
	rows, err := s.r.QueryContext(ctx, `SELECT h.player, h.before_mu, h.before_sigma, h.mu, h.sigma, h.rank, h.games
		FROM rating_history h WHERE h.match_id = ? ORDER BY h.rank, h.player`, match)
	if err != nil {
		return nil, s.fault(err)
	}
	defer rows.Close()
	for rows.Next() {
		var c RatingChange
		if err := rows.Scan(&c.Player, &c.Before.Mu, &c.Before.Sigma, &c.Mu, &c.Sigma, &c.Rank, &c.Before.Games); err != nil {
			return nil, s.fault(err)
		}
		c.Before.Player, c.Before.Game, c.Before.Family = c.Player, r.Game, r.Family
		r.Changes = append(r.Changes, c)
	}
	return &r, s.fault(rows.Err())
}

// Unrated returns finished matches not decided yet, oldest first.
// (The condition on the status lets the index of matches over serve.)
func (s *SQLite) Unrated(ctx context.Context, since time.Time, limit int) ([]string, error) {
	return s.ids(ctx, `SELECT id FROM matches m WHERE status NOT IN ('open', 'running') AND finished >= ? AND status = 'finished'
		AND NOT EXISTS (SELECT 1 FROM rated_matches r WHERE r.match_id = m.id) ORDER BY finished, id LIMIT ?`, millis(since), limitOr100(limit))
}

const ratingColumns = `player, game, family, mu, sigma, games, updated`

func (s *SQLite) ratings(ctx context.Context, q string, args ...any) ([]PlayerRating, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT `+ratingColumns+` FROM ratings WHERE `+q, args...)
	if err != nil {
		return nil, s.fault(err)
	}
	defer rows.Close()
	var out []PlayerRating
	for rows.Next() {
		var p PlayerRating
		var updated int64
		if err := rows.Scan(&p.Player, &p.Game, &p.Family, &p.Mu, &p.Sigma, &p.Games, &updated); err != nil {
			return nil, s.fault(err)
		}
		p.Updated = fromMillis(updated)
		out = append(out, p)
	}
	return out, s.fault(rows.Err())
}

// PlayerRatings returns the stored ratings of players in a game and family.
func (s *SQLite) PlayerRatings(ctx context.Context, game, family string, players []string) ([]PlayerRating, error) {
	var out []PlayerRating
	for _, p := range players {
		rs, err := s.ratings(ctx, `player = ? AND game = ? AND family = ?`, p, game, family)
		if err != nil {
			return nil, err
		}
		out = append(out, rs...)
	}
	return out, nil
}

// RatingsOf returns every rating of a player.
func (s *SQLite) RatingsOf(ctx context.Context, player string) ([]PlayerRating, error) {
	return s.ratings(ctx, `player = ? ORDER BY game, family`, player)
}

// RatingHistory returns a player's last rated matches, oldest first.
func (s *SQLite) RatingHistory(ctx context.Context, player string, limit int) ([]RatingEntry, error) {
	rows, err := s.r.QueryContext(ctx, `SELECT match_id, game, family, mu, sigma, rank, at FROM
		(SELECT * FROM rating_history WHERE player = ? ORDER BY at DESC, match_id DESC LIMIT ?) ORDER BY at, match_id`, player, limitOr100(limit))
	if err != nil {
		return nil, s.fault(err)
	}
	defer rows.Close()
	var out []RatingEntry
	for rows.Next() {
		var e RatingEntry
		var at int64
		if err := rows.Scan(&e.Match, &e.Game, &e.Family, &e.Mu, &e.Sigma, &e.Rank, &at); err != nil {
			return nil, s.fault(err)
		}
		e.At = fromMillis(at)
		out = append(out, e)
	}
	return out, s.fault(rows.Err())
}

// Leaderboard returns a board's ratings, best first.
func (s *SQLite) Leaderboard(ctx context.Context, b Board) ([]PlayerRating, error) {
	return s.ratings(ctx, `game = ? AND family = ? AND (? = 0 OR sigma <= ?)
		ORDER BY mu - 3 * sigma DESC, games DESC, player LIMIT ?`, b.Game, b.Family, b.MaxSigma, b.MaxSigma, limitOr100(b.Limit))
}
