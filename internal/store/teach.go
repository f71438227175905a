package store

import (
	"context"
	"time"
)

// Background work and teaching: the jobs a node runs aside from the
// matches (a match's review), the hints each seat used, and the daily
// challenge's deals and entries. Both stores keep them beside the matches,
// and delete them with the match they are about (Prune).

// JobStatus is where a job stands.
type JobStatus string

const (
	// JobPending jobs wait to be run, or are being run by the node that
	// holds their claim.
	JobPending JobStatus = "pending"
	// JobDone jobs ran to their end; their result is kept.
	JobDone JobStatus = "done"
	// JobFailed jobs will not be tried again; Error says why.
	JobFailed JobStatus = "failed"
)

// Job is one piece of background work, named by its kind and its key (a
// review's key is its match's id): there is at most one job of a kind and
// key. A job about an account has a key that begins with the account's id
// and ':', and is deleted with the account. A node runs a job while it holds the job's claim, under an epoch as
// a match's lease is held: a claim that expired may be taken by another
// node, and the first node's writes to the job are then refused
// ([ErrFenced]), so that a job's result is written once, whichever nodes
// died on the way.
type Job struct {
	Kind string
	Key  string
	// Match is the match the job is about, deleted with it; "" if none.
	Match  string
	Status JobStatus
	// Tries counts the claims taken on the job.
	Tries int
	// Node holds the claim until Until (by the store's clock), under
	// Epoch; Node is "" when nobody holds it.
	Node  string
	Epoch Epoch
	Until time.Time
	// Result is what the job made, once done; Error why it failed.
	Result []byte
	Error  string
	// Created is when the job is due: no claim takes it before (when it
	// was queued, or the time it was put off to).
	Created time.Time
	Updated time.Time
}

// Jobs keeps background work: each job is run by one node at a time, and
// done once.
type Jobs interface {
	// EnqueueJob adds a pending job of the kind and key, about match (""
	// for none), due at at, unless one exists; it reports whether it added
	// it.
	EnqueueJob(ctx context.Context, kind, key, match string, at time.Time) (bool, error)
	// ClaimJob gives node the oldest pending job of the kind that is due
	// and that nobody holds, or whose claim has expired, under the job's
	// next epoch and for ttl, and counts a try; [ErrNotFound] when there is
	// none. Two nodes never hold the same job at once.
	ClaimJob(ctx context.Context, kind, node string, ttl time.Duration) (*Job, error)
	// ClaimJobs gives node, as ClaimJob would, up to limit pending jobs of
	// the kind whose key begins with prefix, due or not, that nobody holds
	// (a job held by another node is left to it), oldest first; none is
	// no error. A node that holds one job claims the others of a group with
	// it (a player's "your turn" of several matches, sent at once).
	ClaimJobs(ctx context.Context, kind, prefix, node string, ttl time.Duration, limit int) ([]*Job, error)
	// DeferJob gives j's claim up and puts the job off until due, under
	// its claim (else [ErrFenced]).
	DeferJob(ctx context.Context, j *Job, due time.Time) error
	// PruneJobs deletes up to limit jobs of the kind done or failed before
	// before, and returns how many.
	PruneJobs(ctx context.Context, kind string, before time.Time, limit int) (int, error)
	// ExtendJob renews j's claim for ttl from now. A claim taken over since
	// (another epoch), or a job no longer pending, is [ErrFenced].
	ExtendJob(ctx context.Context, j *Job, ttl time.Duration) error
	// CompleteJob keeps j's result and marks it done, under j's claim (else
	// [ErrFenced]).
	CompleteJob(ctx context.Context, j *Job, result []byte) error
	// ReleaseJob gives j's claim up, under it (else [ErrFenced]): the job is
	// pending again for another try, or, if failed, failed for good with
	// why.
	ReleaseJob(ctx context.Context, j *Job, why string, failed bool) error
	// JobOf returns the job of the kind and key, or [ErrNotFound].
	JobOf(ctx context.Context, kind, key string) (*Job, error)
	// FinishedWithout returns the ids of up to limit matches finished at
	// or after since that have no job of the kind keyed by their id,
	// oldest first: a node's sweep for the jobs a crash kept from being
	// queued.
	FinishedWithout(ctx context.Context, kind string, since time.Time, limit int) ([]string, error)
}

// Hint is one hint a seat asked for: its level, at a step of the log (the
// number of records then).
type Hint struct {
	Seat  int
	Step  int
	Level int
	At    time.Time
}

// Daily is the daily challenge of one game on one day: the seeds every
// match of it is played with.
type Daily struct {
	Day     string // YYYY-MM-DD, in UTC
	Game    string
	Seed    uint64
	BotSeed uint64
}

// DailyEntry is one match played in a daily challenge, by the name its
// player gave.
type DailyEntry struct {
	Match *Match
	Name  string
}

// Teaching keeps what the teaching side of the server needs beside the
// matches: the hints used, and the daily challenges.
type Teaching interface {
	// AddHint notes a hint of match's seat; the same seat, step and level
	// count once.
	AddHint(ctx context.Context, match string, h Hint) error
	// Hints returns match's hints, by seat, step and level.
	Hints(ctx context.Context, match string) ([]Hint, error)
	// DailySeed returns the day's challenge of the game, storing d as it
	// if there is none yet: the first node to ask sets it for everyone.
	DailySeed(ctx context.Context, d Daily) (Daily, error)
	// AddDailyEntry notes that match is played in the day's challenge of
	// the game by the name given; a match enters once (else
	// [ErrConflict]).
	AddDailyEntry(ctx context.Context, day, game, match, name string, at time.Time) error
	// DailyEntries returns up to limit matches of the day's challenge of
	// the game, with their players' names, in the order they entered.
	DailyEntries(ctx context.Context, day, game string, limit int) ([]DailyEntry, error)
}
