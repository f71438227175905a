package store

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"
)

// queue is the group commit both stores share: one goroutine takes every
// write queued meanwhile and commits them in one transaction, so that a match
// waits for its own write to be durable while a thousand matches share each
// flush. A write is answered only after its transaction has committed.
//
// Under load a transaction lingers: it starts no sooner than linger after
// the previous one ended (if that one held several writes), gathering what
// comes meanwhile, so that a busy
// node commits a few hundred times a second with many writes each rather
// than thousands of times with two or three (see DefaultLinger).
//
// P is a store's form of one write. commit runs a batch in one transaction
// and returns each write's own refusal (a write that found the match not as
// it needs it wrote nothing, and the others of the batch still land), or an
// error that failed the whole transaction.
type queue[P any] struct {
	ops      chan *op[P]
	commit   func(batch []P) ([]error, error)
	onCommit func(writes int, d time.Duration)
	max      int
	linger   time.Duration
	lastEnd  time.Time // when the previous transaction ended
	lastSize int       // and how many writes it held

	mu     sync.RWMutex // guards closed against sends on ops
	closed bool
	done   chan struct{}

	health sync.Mutex
	lastOK time.Time // the last transaction that committed
	failed error     // why the last transaction failed, nil after a success
	since  time.Time // when the transaction under way began, zero between them

	batch []*op[P]
	ps    []P
}

// op is one queued write; match orders the batch (see run).
type op[P any] struct {
	match string
	p     P
	done  chan error
}

// DefaultLinger is how long after a transaction the next waits for more
// writes while they keep coming. At 4,000 writes a second it turns about
// 1,600 transactions of 2.5 writes into fewer than 1,000 of 4 or more, for
// at most a millisecond more before an acknowledgement.
const DefaultLinger = time.Millisecond

func newQueue[P any](max int, linger time.Duration, commit func([]P) ([]error, error), onCommit func(int, time.Duration)) *queue[P] {
	if linger == 0 {
		linger = DefaultLinger
	}
	q := &queue[P]{ops: make(chan *op[P], 4096), commit: commit, onCommit: onCommit, max: max, linger: linger, done: make(chan struct{})}
	go q.run()
	return q
}

// run commits queued writes, as many as are waiting, in one transaction.
func (q *queue[P]) run() {
	defer close(q.done)
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	for first := range q.ops {
		q.batch = append(q.batch[:0], first)
	fill:
		for len(q.batch) < q.max {
			select {
			case o, ok := <-q.ops:
				if !ok {
					break fill
				}
				q.batch = append(q.batch, o)
			default:
				break fill
			}
		}
		q.gather(timer)
		// Writes lock their match's row: taking the rows in one order on
		// every node keeps two nodes' batches from waiting on each other.
		// The sort is stable, so one match's writes keep their order.
		slices.SortStableFunc(q.batch, func(a, b *op[P]) int { return strings.Compare(a.match, b.match) })
		start := time.Now()
		q.began(start)
		errs, err := q.commitBatch(q.batch)
		switch {
		case err == nil:
		case errors.Is(err, ErrUnavailable):
			// Every write would fail alike, one after the other.
			errs = make([]error, len(q.batch))
			for i := range errs {
				errs[i] = err
			}
		default:
			// One write failed in a way that aborted the transaction: give
			// each its own, so that the others still land and the faulty
			// one gets its own error.
			errs = make([]error, len(q.batch))
			for i, o := range q.batch {
				one, err := q.commitBatch([]*op[P]{o})
				if err == nil {
					err = one[0]
				}
				errs[i] = err
			}
		}
		q.ended(err)
		q.lastEnd, q.lastSize = time.Now(), len(q.batch)
		if q.onCommit != nil {
			q.onCommit(len(q.batch), time.Since(start))
		}
		for i, o := range q.batch {
			o.done <- errs[i]
		}
		clear(q.batch)
	}
}

// gather adds to the batch what comes until linger after the previous
// transaction, if writes keep coming from several matches: that one held
// more than one and ended less than linger ago. (One client alone, however
// fast, never waits.)
func (q *queue[P]) gather(timer *time.Timer) {
	if q.linger <= 0 || len(q.batch) >= q.max || q.lastSize < 2 {
		return
	}
	wait := q.linger - time.Since(q.lastEnd)
	if wait <= 0 {
		return
	}
	timer.Reset(wait)
	defer timer.Stop()
	for len(q.batch) < q.max {
		select {
		case o, ok := <-q.ops:
			if !ok {
				return
			}
			q.batch = append(q.batch, o)
		case <-timer.C:
			return
		}
	}
}

func (q *queue[P]) commitBatch(batch []*op[P]) ([]error, error) {
	q.ps = q.ps[:0]
	for _, o := range batch {
		q.ps = append(q.ps, o.p)
	}
	errs, err := q.commit(q.ps)
	clear(q.ps)
	return errs, err
}

func (q *queue[P]) began(t time.Time) {
	q.health.Lock()
	q.since = t
	q.health.Unlock()
}

func (q *queue[P]) ended(err error) {
	q.health.Lock()
	defer q.health.Unlock()
	q.since = time.Time{}
	if err != nil && errors.Is(err, ErrUnavailable) {
		q.failed = err
		return
	}
	q.failed, q.lastOK = nil, time.Now()
}

// write queues p and waits until it is committed. ctx bounds only the wait
// for a place in the queue: once queued, a write is carried out and waited
// for, so that its caller never mistakes a durable write for a lost one.
func (q *queue[P]) write(ctx context.Context, match string, p P) error {
	o, err := q.enqueue(ctx, match, p)
	if err != nil {
		return err
	}
	return <-o.done
}

func (q *queue[P]) enqueue(ctx context.Context, match string, p P) (*op[P], error) {
	o := &op[P]{match: match, p: p, done: make(chan error, 1)}
	q.mu.RLock()
	defer q.mu.RUnlock()
	if q.closed {
		return nil, ErrClosed
	}
	select {
	case q.ops <- o:
		return o, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// recentWrite is how recent a committed transaction must be for check to
// trust it rather than write.
const recentWrite = time.Second

// check returns nil if a transaction committed lately and none has been
// stuck since; otherwise it commits probe, waiting no longer than ctx allows
// (an abandoned probe lands or fails on its own).
func (q *queue[P]) check(ctx context.Context, probe P) error {
	q.mu.RLock()
	closed := q.closed
	q.mu.RUnlock()
	if closed {
		return ErrClosed
	}
	q.health.Lock()
	now := time.Now()
	fresh := q.failed == nil && now.Sub(q.lastOK) < recentWrite && (q.since.IsZero() || now.Sub(q.since) < recentWrite)
	q.health.Unlock()
	if fresh {
		return nil
	}
	o, err := q.enqueue(ctx, "", probe)
	if err != nil {
		return unavailable("no write could be queued", err)
	}
	select {
	case err := <-o.done:
		return err
	case <-ctx.Done():
		return unavailable("no write has committed in time", ctx.Err())
	}
}

// close refuses new writes, waits for those queued and stops the goroutine.
func (q *queue[P]) close() bool {
	q.mu.Lock()
	if q.closed {
		q.mu.Unlock()
		return false
	}
	q.closed = true
	close(q.ops)
	q.mu.Unlock()
	<-q.done
	return true
}

// unavailable wraps the cause of a failure to reach or write the store.
func unavailable(what string, cause error) error {
	if cause == nil {
		return fmt.Errorf("%w: %s", ErrUnavailable, what)
	}
	return fmt.Errorf("%w: %s: %w", ErrUnavailable, what, cause)
}
