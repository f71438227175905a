// Reviews: after a match finishes, each of its human seats is reviewed
// (coach.ReviewMatch: every decision analysed from the seat's point of
// view, its band, the accuracy, the key moments, what to try again). A
// review is a durable background job of the store (kind "review", keyed by
// the match's id): queued for every finished match, claimed by one node at
// a time under an epoch, renewed while it runs, its result kept; a node
// that dies mid-review leaves its claim to expire, and another node (or the
// same one, restarted) takes the job again. Each decision's analysis takes
// a place of the node's budget of searches (budget.go) as a bot's search
// does, so that reviews never take the cores the matches under way need.

package match

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"sortie/coach"
	"sortie/engine"
	"sortie/internal/store"
)

// JobReview is the kind of the reviews' jobs.
const JobReview = "review"

// Review statuses.
const (
	ReviewReady   = "ready"
	ReviewWorking = "working"
)

// Timings of the reviews' worker: how often it looks for work, how long a
// claim lasts (renewed at a third of it while the review runs), how far
// back it looks for finished matches without a review, and how many times
// a job is tried before it is failed for good.
var (
	reviewPoll    = 2 * time.Second
	reviewClaim   = 2 * time.Minute
	reviewSince   = 7 * 24 * time.Hour
	reviewTries   = 3
	reviewOptions = coach.ReviewOptions{Seed: 1}
)

// ReviewAnswer is what GET /api/matches/{id}/review answers: the review of
// one seat, once ready.
type ReviewAnswer struct {
	Status string `json:"status"`
	*coach.Review
}

// reviewResult is a review job's result: every human seat's review, or
// none for a game whose states cannot be sampled from a seat's view, or
// for a tutorial.
type reviewResult struct {
	Seats []*coach.Review `json:"seats"`
	None  bool            `json:"none,omitempty"`
}

// CodeNoReview refuses the review of a match of a game that has none, or
// of a tutorial.
const CodeNoReview = "no_review"

// startReviews starts the node's reviews' worker, once.
func (m *Manager) startReviews() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.reviewing || m.closing {
		return
	}
	m.reviewing = true
	go m.reviewLoop()
}

// kickReviews wakes the reviews' worker up.
func (m *Manager) kickReviews() {
	select {
	case m.reviewKick <- struct{}{}:
	default:
	}
}

// nodeName names this node in the jobs it claims.
func (m *Manager) nodeName() string {
	if m.node != nil {
		return m.node.name
	}
	return "local"
}

// reviewLoop queues a review for each finished match that has none, and
// runs the reviews it can claim, until the manager shuts down.
func (m *Manager) reviewLoop() {
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-m.done
		cancel()
	}()
	t := time.NewTimer(0)
	defer t.Stop()
	for {
		select {
		case <-m.done:
			return
		case <-t.C:
		case <-m.reviewKick:
		}
		m.queueReviews(ctx)
		for ctx.Err() == nil {
			j, err := m.store.ClaimJob(ctx, JobReview, m.nodeName(), reviewClaim)
			if err != nil {
				if !errors.Is(err, store.ErrNotFound) && ctx.Err() == nil {
					m.log.Error("cannot claim a review", "err", err)
				}
				break
			}
			m.runReview(ctx, j)
		}
		t.Reset(reviewPoll)
	}
}

// queueReviews queues the reviews of the matches finished lately that have
// none yet.
func (m *Manager) queueReviews(ctx context.Context) {
	ids, err := m.store.FinishedWithout(ctx, JobReview, time.Now().Add(-reviewSince), 100)
	if err != nil {
		if ctx.Err() == nil {
			m.log.Error("cannot list the matches to review", "err", err)
		}
		return
	}
	for _, id := range ids {
		if _, err := m.store.EnqueueJob(ctx, JobReview, id, id, time.Now()); err != nil && ctx.Err() == nil {
			m.log.Error("cannot queue a review", "match", id, "err", err)
		}
	}
}

// runReview runs the review job j under its claim, renewing it meanwhile,
// and keeps its result; a review that fails is tried again by a later
// claim, and failed for good after reviewTries.
func (m *Manager) runReview(ctx context.Context, j *store.Job) {
	start := time.Now()
	renewed := time.Now()
	o := reviewOptions
	o.Around = func(analyse func()) error {
		if time.Since(renewed) > reviewClaim/3 {
			if err := m.store.ExtendJob(ctx, j, reviewClaim); err != nil {
				return err // taken over, or the store is down: another claim will do it
			}
			renewed = time.Now()
		}
		// Only a free place: the bots of people's matches waiting for one
		// are handed the places given back first.
		for !m.budget.take(0, m.done) {
			select {
			case <-ctx.Done():
				return ctx.Err()
			case <-time.After(100 * time.Millisecond):
			}
		}
		defer m.budget.give()
		analyse()
		return nil
	}
	res, err := m.review(ctx, j.Key, o)
	if err == nil {
		var b []byte
		if b, err = json.Marshal(res); err == nil {
			err = m.store.CompleteJob(ctx, j, b)
		}
		if err == nil {
			m.log.Info("match reviewed", "match", j.Key, "took", time.Since(start))
			return
		}
	}
	if ctx.Err() != nil || errors.Is(err, store.ErrFenced) {
		return // shutting down, or another node holds it now
	}
	m.log.Error("cannot review a match", "match", j.Key, "try", j.Tries, "err", err)
	if err := m.store.ReleaseJob(ctx, j, err.Error(), j.Tries >= reviewTries); err != nil && !errors.Is(err, store.ErrFenced) {
		m.log.Error("cannot give a review back", "match", j.Key, "err", err)
	}
}

// review reviews every human seat of finished match id.
func (m *Manager) review(ctx context.Context, id string, o coach.ReviewOptions) (*reviewResult, error) {
	rec, err := m.store.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	if rec.Status != store.Finished {
		return nil, fmt.Errorf("the match is %s, not finished", rec.Status)
	}
	g, err := m.Game(rec.Game)
	if err != nil {
		return nil, err
	}
	raw, err := m.logRecords(ctx, id, rec.Records)
	if err != nil {
		return nil, err
	}
	log := make([]engine.Record, len(raw))
	for i, b := range raw {
		if log[i], err = engine.DecodeRecord(g, b); err != nil {
			return nil, fmt.Errorf("record %d: %v", i+1, err)
		}
	}
	var seats []engine.Seat
	for i, st := range rec.Seats {
		if st.Kind == Human {
			seats = append(seats, engine.Seat(i))
		}
	}
	res := &reviewResult{Seats: []*coach.Review{}}
	var set settings
	if json.Unmarshal(rec.Settings, &set) == nil && set.Purpose == PurposeTutorial {
		res.None = true // a tutorial's moves were the script's, not the learner's choices
		return res, nil
	}
	if st, err := g.New(rec.Setup); err != nil {
		return nil, err
	} else if _, ok := st.(engine.Determinizer); !ok {
		res.None = true
		return res, nil
	}
	if len(seats) == 0 {
		return res, nil
	}
	rvs, err := coach.ReviewMatch(g, rec.Setup, log, seats, o)
	if err != nil {
		return nil, err
	}
	res.Seats = rvs
	return res, nil
}

// Review returns the review of seat of match id: ready, or being made
// (queued at once if it was not yet). The match must be finished: before
// its end a review would tell what a seat may not know.
func (m *Manager) Review(ctx context.Context, id string, seat engine.Seat) (*ReviewAnswer, error) {
	rec, err := m.overOrStored(ctx, id)
	if err != nil {
		return nil, err
	}
	if seat < 0 || int(seat) >= len(rec.Seats) {
		return nil, refuse(CodeUnknownSeat, "This match has no seat %d.", seat)
	}
	switch {
	case rec.Status == store.Failed || rec.Status == store.Closed:
		return nil, overRefusal(rec)
	case rec.Status != store.Finished:
		return nil, refuse(CodeNotFinished, "A match is reviewed once it is finished.")
	case rec.Seats[seat].Kind != Human:
		return nil, refuse(CodeNotHuman, "Seat %d is a bot's: reviews are for the people who played.", seat)
	case summarize(rec, nil).Settings.Purpose == PurposeTutorial:
		return nil, refuse(CodeNoReview, "A tutorial is not reviewed: its moves were the tutorial's.")
	}
	j, err := m.store.JobOf(ctx, JobReview, id)
	if errors.Is(err, store.ErrNotFound) {
		if _, err := m.store.EnqueueJob(ctx, JobReview, id, id, time.Now()); err != nil {
			return nil, refuse(CodeUnavailable, "The review cannot be queued now; try again in a moment.")
		}
		m.kickReviews()
		return &ReviewAnswer{Status: ReviewWorking}, nil
	}
	if err != nil {
		return nil, refuse(CodeUnavailable, "The review cannot be read now; try again in a moment.")
	}
	switch j.Status {
	case store.JobPending:
		m.kickReviews()
		return &ReviewAnswer{Status: ReviewWorking}, nil
	case store.JobFailed:
		return nil, refuse(CodeUnavailable, "This match could not be reviewed.")
	}
	var res reviewResult
	if err := json.Unmarshal(j.Result, &res); err != nil {
		return nil, refuse(CodeUnavailable, "This match's review cannot be read.")
	}
	if res.None {
		return nil, refuse(CodeNoReview, "The matches of this game are not reviewed.")
	}
	for _, rv := range res.Seats {
		if rv.Seat == seat {
			return &ReviewAnswer{Status: ReviewReady, Review: rv}, nil
		}
	}
	return nil, refuse(CodeUnavailable, "This match's review has no seat %d.", seat)
}
