package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
)

var _ Ratings = (*Postgres)(nil)

// errDecided ends the transaction of a match decided already.
var errDecided = errors.New("store: decided already")

// RecordRating writes a finished match's rating decision once, in a
// transaction of its own. The decision's row is taken first: a node deciding
// the same match at once waits for it, then finds it taken. Each rating is
// then written only where it still has the count of games the change was
// computed from, under the row's lock, so that two matches of one player
// rated at once on two nodes cannot both start from the same rating.
func (s *Postgres) RecordRating(ctx context.Context, r *MatchRating) error {
	if err := checkMatchRating(r); err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	err := pgx.BeginFunc(ctx, s.pool, func(tx pgx.Tx) error {
		tag, err := tx.Exec(ctx, `INSERT INTO rated_matches (match_id, rated, reason, game, family, at) VALUES ($1, $2, $3, $4, $5, $6)
			ON CONFLICT (match_id) DO NOTHING`, r.Match, r.Rated, r.Reason, r.Game, r.Family, r.At)
		if err != nil {
			return err
		}
		if tag.RowsAffected() == 0 {
			return errDecided
		}
		for _, c := range r.Changes {
			var tag pgconn.CommandTag
			if c.Before.Games == 0 {
				tag, err = tx.Exec(ctx, `INSERT INTO ratings (player, game, family, mu, sigma, games, updated) VALUES ($1, $2, $3, $4, $5, 1, $6)
					ON CONFLICT (player, game, family) DO NOTHING`, c.Player, r.Game, r.Family, c.Mu, c.Sigma, r.At)
			} else {
				tag, err = tx.Exec(ctx, `UPDATE ratings SET mu = $4, sigma = $5, games = games + 1, updated = $6
					WHERE player = $1 AND game = $2 AND family = $3 AND games = $7`, c.Player, r.Game, r.Family, c.Mu, c.Sigma, r.At, c.Before.Games)
			}
			if err != nil {
				return err
			}
			if tag.RowsAffected() != 1 {
				return moved(r.Match, c.Player)
			}
			if _, err := tx.Exec(ctx, `INSERT INTO rating_history (player, match_id, game, family, before_mu, before_sigma, mu, sigma, rank, games, at)
				VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)`,
				c.Player, r.Match, r.Game, r.Family, c.Before.Mu, c.Before.Sigma, c.Mu, c.Sigma, c.Rank, c.Before.Games, r.At); err != nil {
				return err
			}
		}
		return nil
	})
	if errors.Is(err, errDecided) {
		return nil
	}
	return s.fault(err)
}

// MatchRating returns a match's rating decision.
func (s *Postgres) MatchRating(ctx context.Context, match string) (*MatchRating, error) {
	ctx, cancel := s.read(ctx)
	defer cancel()
	r := MatchRating{Match: match}
	err := s.pool.QueryRow(ctx, `SELECT rated, reason, game, family, at FROM rated_matches WHERE match_id = $1`, match).
		Scan(&r.Rated, &r.Reason, &r.Game, &r.Family, &r.At)
	if errors.Is(err, pgx.ErrNoRows) {
		return nil, fmt.Errorf("%w: %s has no rating decision", ErrNotFound, match)
	}
	if err != nil {
		return nil, s.fault(err)
	}
	rows, err := s.pool.Query(ctx, `SELECT player, before_mu, before_sigma, mu, sigma, rank, games
		FROM rating_history WHERE match_id = $1 ORDER BY rank, player`, match)
	if err != nil {
		return nil, s.fault(err)
	}
	r.Changes, err = pgx.CollectRows(rows, func(row pgx.CollectableRow) (RatingChange, error) {
		var c RatingChange
		err := row.Scan(&c.Player, &c.Before.Mu, &c.Before.Sigma, &c.Mu, &c.Sigma, &c.Rank, &c.Before.Games)
		c.Before.Player, c.Before.Game, c.Before.Family = c.Player, r.Game, r.Family
		return c, err
	})
	if err != nil {
		return nil, s.fault(err)
	}
	return &r, nil
}

// Unrated returns finished matches not decided yet, oldest first.
func (s *Postgres) Unrated(ctx context.Context, since time.Time, limit int) ([]string, error) {
	return s.ids(ctx, `SELECT id FROM matches m WHERE status = 'finished' AND finished >= $1
		AND NOT EXISTS (SELECT 1 FROM rated_matches r WHERE r.match_id = m.id) ORDER BY finished, id LIMIT $2`, since, limitOr100(limit))
}

func (s *Postgres) ratings(ctx context.Context, q string, args ...any) ([]PlayerRating, error) {
	ctx, cancel := s.read(ctx)
	defer cancel()
	rows, err := s.pool.Query(ctx, `SELECT `+ratingColumns+` FROM ratings WHERE `+q, args...)
	if err != nil {
		return nil, s.fault(err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (PlayerRating, error) {
		var p PlayerRating
		err := row.Scan(&p.Player, &p.Game, &p.Family, &p.Mu, &p.Sigma, &p.Games, &p.Updated)
		return p, err
	})
	return out, s.fault(err)
}

// PlayerRatings returns the stored ratings of players in a game and family.
func (s *Postgres) PlayerRatings(ctx context.Context, game, family string, players []string) ([]PlayerRating, error) {
	return s.ratings(ctx, `game = $1 AND family = $2 AND player = ANY($3::text[])`, game, family, players)
}

// RatingsOf returns every rating of a player.
func (s *Postgres) RatingsOf(ctx context.Context, player string) ([]PlayerRating, error) {
	return s.ratings(ctx, `player = $1 ORDER BY game, family`, player)
}

// RatingHistory returns a player's last rated matches, oldest first.
func (s *Postgres) RatingHistory(ctx context.Context, player string, limit int) ([]RatingEntry, error) {
	ctx, cancel := s.read(ctx)
	defer cancel()
	rows, err := s.pool.Query(ctx, `SELECT match_id, game, family, mu, sigma, rank, at FROM
		(SELECT * FROM rating_history WHERE player = $1 ORDER BY at DESC, match_id DESC LIMIT $2) h ORDER BY at, match_id`, player, limitOr100(limit))
	if err != nil {
		return nil, s.fault(err)
	}
	out, err := pgx.CollectRows(rows, func(row pgx.CollectableRow) (RatingEntry, error) {
		var e RatingEntry
		err := row.Scan(&e.Match, &e.Game, &e.Family, &e.Mu, &e.Sigma, &e.Rank, &e.At)
		return e, err
	})
	return out, s.fault(err)
}

// Leaderboard returns a board's ratings, best first.
func (s *Postgres) Leaderboard(ctx context.Context, b Board) ([]PlayerRating, error) {
	return s.ratings(ctx, `game = $1 AND family = $2 AND ($3::float8 = 0 OR sigma <= $3::float8)
		ORDER BY mu - 3 * sigma DESC, games DESC, player LIMIT $4`, b.Game, b.Family, b.MaxSigma, limitOr100(b.Limit))
}
