package store

import "github.com/jackc/pgx/v5/pgxpool"

// PoolOf returns the connections of s, for tests that play a node stopped
// in the middle of a commit.
func PoolOf(s *Postgres) *pgxpool.Pool { return s.pool }
