// Package store keeps matches and their action logs: what a match started from
// (game, setup, seats, settings), where it stands (status, clock, outcome) and
// every record of its log, in order.
//
// [Store] is the one interface the rest of the server uses; [SQLite] (an
// embedded file through modernc.org/sqlite, WAL) is the default, and a
// PostgreSQL implementation can be added behind the same interface. A store
// knows no game: records are the JSON forms that engine.Record.MarshalJSON
// writes, and settings are opaque bytes of the match package. It must never
// hold a secret in clear: seat tokens are kept only as SHA-256 hashes.
package store

import (
	"context"
	"errors"
	"time"

	"sortie/engine"
)

// Status is where a match stands.
type Status string

const (
	// Open matches wait for their players and for the start.
	Open Status = "open"
	// Running matches are being played.
	Running Status = "running"
	// Finished matches have an outcome; their log no longer changes.
	Finished Status = "finished"
)

// Valid reports whether s is one of the known statuses.
func (s Status) Valid() bool { return s == Open || s == Running || s == Finished }

// Seat is one seat of a match as it was set up and claimed.
type Seat struct {
	// Kind is "human" or "bot".
	Kind string `json:"kind"`
	// Bot is the policy that plays the seat (bot seats) or stands in for its
	// human when they are away (human seats).
	Bot string `json:"bot,omitempty"`
	// Name is the name the player gave when joining.
	Name string `json:"name,omitempty"`
	// Joined is set once the seat's human has joined with the invite token.
	Joined bool `json:"joined"`
	// Left is set while the seat's human has handed the seat to its bot for
	// the rest of the match (they may take it back).
	Left bool `json:"left,omitempty"`
	// TokenHash is the SHA-256 of the seat's token; nil for bot seats.
	TokenHash []byte `json:"-"`
}

// Match is a match as stored: everything needed to rebuild it by replaying
// its log from Setup.
type Match struct {
	ID    string
	Game  string
	Setup engine.Setup
	Seats []Seat
	// HostHash is the SHA-256 of the token that may start the match.
	HostHash []byte
	// Settings are the match package's own settings (timers, pace), opaque
	// here.
	Settings []byte
	Status   Status
	// Records is the number of records in the log.
	Records int
	// Clock is the match clock last saved (at shutdown, periodically in
	// real time, at the end): a running match resumes from the later of it
	// and its last record's time.
	Clock engine.Millis
	// Outcome is set once the match is finished.
	Outcome  *engine.Outcome
	Created  time.Time
	Started  time.Time // zero until started
	Finished time.Time // zero until finished
}

// Filter selects matches to list.
type Filter struct {
	// Status keeps matches of this status; empty keeps all.
	Status Status
	// Game keeps matches of this game; empty keeps all.
	Game string
	// Limit bounds the answer (newest first); 0 means 100.
	Limit int
}

// ErrNotFound is returned for a match id that the store does not hold.
var ErrNotFound = errors.New("store: no such match")

// ErrConflict is returned when a write does not fit what is stored: a log
// record out of order, a match id taken twice.
var ErrConflict = errors.New("store: conflicting write")

// ErrClosed is returned by a store after Close.
var ErrClosed = errors.New("store: closed")

// Store persists matches and their logs. Every method is safe for concurrent
// use. A write that returned nil is durable: it survives a crash of the
// process.
type Store interface {
	// Create stores a new match with an empty log.
	Create(ctx context.Context, m *Match) error
	// Append writes record number n (counting from 1) of running match
	// id's log, which must be the next one; at is the record's time.
	Append(ctx context.Context, id string, n int, rec []byte, at engine.Millis) error
	// AppendChat writes line number n (counting from 1) of match id's table
	// talk, which must be the next one. A line is the match package's JSON,
	// opaque here; a match of any status may talk.
	AppendChat(ctx context.Context, id string, n int, line []byte) error
	// Chat returns match id's lines of table talk, in order.
	Chat(ctx context.Context, id string) ([][]byte, error)
	// SetSeat replaces seat i of match id (a human joined, left or came
	// back).
	SetSeat(ctx context.Context, id string, i int, s Seat) error
	// Start marks match id running.
	Start(ctx context.Context, id string, at time.Time) error
	// Finish marks match id finished with its outcome and final clock.
	Finish(ctx context.Context, id string, o engine.Outcome, clock engine.Millis, at time.Time) error
	// SaveClock saves the match clock of a running match.
	SaveClock(ctx context.Context, id string, clock engine.Millis) error
	// Get returns match id without its log.
	Get(ctx context.Context, id string) (*Match, error)
	// Log returns match id's log records, in order.
	Log(ctx context.Context, id string) ([][]byte, error)
	// List returns the matches the filter keeps, newest first.
	List(ctx context.Context, f Filter) ([]*Match, error)
	// Unfinished returns the ids of every match that is open or running,
	// oldest first: those a server rebuilds when it starts.
	Unfinished(ctx context.Context) ([]string, error)
	// Ping checks that the store answers.
	Ping(ctx context.Context) error
	// Close finishes the writes under way and releases the store.
	Close() error
}
