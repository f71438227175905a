package storetest

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"sortie/engine"
	"sortie/internal/store"
)

// The scenarios of background jobs, hints and daily challenges (see
// store/teach.go).

// A job is queued once, claimed by one node at a time (the oldest first),
// run to its end once: its result survives a restart, and a node whose
// claim expired is fenced once another took the job over.
func jobs(r *run) {
	a, b := r.store(), r.store()
	for i, id := range []string{"j1", "j2", "j3"} {
		r.ok(a.Create(r.ctx, newMatch(id, t0)), "create %s", id)
		added, err := a.EnqueueJob(r.ctx, "review", id, id, t0.Add(time.Duration(i)*time.Second))
		r.ok(err, "enqueue %s", id)
		if !added {
			r.fail("the first enqueue of %s added nothing", id)
		}
	}
	if added, err := b.EnqueueJob(r.ctx, "review", "j1", "j1", t0); err != nil || added {
		r.fail("a second enqueue of j1 added one: %v, %v", added, err)
	}
	if j, err := a.JobOf(r.ctx, "review", "j1"); err != nil || j.Status != store.JobPending || j.Tries != 0 || j.Node != "" || j.Match != "j1" {
		r.fail("a new job reads back as %+v, %v", j, err)
	}
	_, err := a.JobOf(r.ctx, "review", "nope")
	r.is(err, store.ErrNotFound, "the job of no key")
	_, err = a.ClaimJob(r.ctx, "reminder", "A", time.Minute)
	r.is(err, store.ErrNotFound, "claim a kind with no job")

	// The oldest first, one node at a time.
	ja, err := a.ClaimJob(r.ctx, "review", "A", time.Hour)
	r.ok(err, "A claims")
	if ja.Key != "j1" || ja.Node != "A" || ja.Tries != 1 || ja.Epoch == 0 || !ja.Until.After(time.Now().Add(50*time.Minute)) {
		r.fail("A's claim: %+v", ja)
	}
	jb, err := b.ClaimJob(r.ctx, "review", "B", time.Hour)
	r.ok(err, "B claims")
	if jb.Key != "j2" {
		r.fail("B claimed %s while A holds j1, not the next one, j2", jb.Key)
	}
	r.ok(a.ExtendJob(r.ctx, ja, time.Hour), "A extends its claim")
	r.ok(a.CompleteJob(r.ctx, ja, []byte(`{"by":"A"}`)), "A completes j1")
	r.is(a.CompleteJob(r.ctx, ja, []byte(`{"again":1}`)), store.ErrFenced, "A completes j1 twice")
	r.is(a.ExtendJob(r.ctx, ja, time.Hour), store.ErrFenced, "A extends a job done")

	// A claim that expires is taken over; its first holder is fenced.
	r.ok(b.ReleaseJob(r.ctx, jb, "", false), "B gives j2 back")
	short, err := a.ClaimJob(r.ctx, "review", "A", 50*time.Millisecond)
	r.ok(err, "A claims j2 for a moment")
	if short.Key != "j2" || short.Tries != 2 {
		r.fail("A's second claim: %+v", short)
	}
	held, err := b.ClaimJob(r.ctx, "review", "B", time.Hour)
	r.ok(err, "B claims while A holds j2")
	if held.Key != "j3" {
		r.fail("B claimed %s, not j3, while A holds j2", held.Key)
	}
	_, err = b.ClaimJob(r.ctx, "review", "B", time.Hour)
	r.is(err, store.ErrNotFound, "B claims while A holds j2 and B j3")
	var taken *store.Job
	r.eventually("B takes j2 over once A's claim expired", func() bool {
		taken, err = b.ClaimJob(r.ctx, "review", "B", time.Hour)
		return err == nil
	})
	if taken.Key != "j2" || taken.Node != "B" || taken.Epoch != short.Epoch+1 || taken.Tries != 3 {
		r.fail("B's takeover: %+v after A's %+v", taken, short)
	}
	r.is(a.CompleteJob(r.ctx, short, []byte(`{"by":"A"}`)), store.ErrFenced, "A completes j2 after B took it over")
	r.is(a.ExtendJob(r.ctx, short, time.Hour), store.ErrFenced, "A extends j2 after B took it over")
	r.is(a.ReleaseJob(r.ctx, short, "", false), store.ErrFenced, "A gives j2 back after B took it over")
	r.ok(b.CompleteJob(r.ctx, taken, []byte(`{"by":"B"}`)), "B completes j2")

	// Given back for another try, then failed for good.
	r.ok(b.ReleaseJob(r.ctx, held, "the disk was full", false), "B gives j3 back")
	if j, err := a.JobOf(r.ctx, "review", "j3"); err != nil || j.Status != store.JobPending || j.Node != "" || j.Error != "the disk was full" || j.Tries != 1 {
		r.fail("j3 given back reads as %+v, %v", j, err)
	}
	again, err := a.ClaimJob(r.ctx, "review", "A", time.Hour)
	r.ok(err, "A claims j3")
	r.ok(a.ReleaseJob(r.ctx, again, "its log does not replay", true), "A fails j3")
	_, err = b.ClaimJob(r.ctx, "review", "B", time.Hour)
	r.is(err, store.ErrNotFound, "claim after every job is done or failed")

	// Everything survives a restart.
	a.Close()
	c := r.store()
	for key, want := range map[string]string{"j1": `{"by":"A"}`, "j2": `{"by":"B"}`} {
		j, err := c.JobOf(r.ctx, "review", key)
		if err != nil || j.Status != store.JobDone || string(j.Result) != want || j.Node != "" {
			r.fail("%s after a restart: %+v, %v (want done with %s)", key, j, err, want)
		}
	}
	if j, err := c.JobOf(r.ctx, "review", "j3"); err != nil || j.Status != store.JobFailed || j.Error != "its log does not replay" || j.Tries != 2 {
		r.fail("j3 after a restart: %+v, %v", j, err)
	}
}

// Nodes that claim at once never take the same job: every job is claimed
// exactly once.
func jobRace(r *run) {
	const jobsN, nodes = 30, 3
	seed := r.store()
	for i := range jobsN {
		_, err := seed.EnqueueJob(r.ctx, "review", fmt.Sprint("k", i), "", t0.Add(time.Duration(i)*time.Millisecond))
		r.ok(err, "enqueue")
	}
	var mu sync.Mutex
	claims := map[string][]string{}
	var wg sync.WaitGroup
	errc := make(chan error, 2*nodes)
	for n := range nodes {
		s := r.store()
		for w := range 2 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				node := fmt.Sprintf("N%d", n)
				for {
					j, err := s.ClaimJob(r.ctx, "review", node, time.Hour)
					if errors.Is(err, store.ErrNotFound) {
						return
					}
					if err != nil {
						errc <- err
						return
					}
					mu.Lock()
					claims[j.Key] = append(claims[j.Key], fmt.Sprint(node, "/", w))
					mu.Unlock()
					if err := s.CompleteJob(r.ctx, j, []byte(node)); err != nil {
						errc <- fmt.Errorf("%s completes %s: %v", node, j.Key, err)
						return
					}
				}
			}()
		}
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		r.fail("claim: %v", err)
	}
	if len(claims) != jobsN {
		r.fail("%d jobs claimed, not %d", len(claims), jobsN)
	}
	for k, who := range claims {
		if len(who) != 1 {
			r.fail("job %s was claimed %d times: %v", k, len(who), who)
		}
	}
}

// The finished matches that have no job of a kind are listed, oldest
// first, until one is queued.
func finishedWithout(r *run) {
	s := r.store()
	for i, id := range []string{"f1", "f2", "f3"} {
		r.running(s, id, t0)
		r.ok(s.Finish(r.ctx, id, 0, engine.Outcome{}, 0, t0.Add(time.Duration(3-i)*time.Minute)), "finish %s", id)
	}
	r.running(s, "playing", t0)
	r.ok(s.Create(r.ctx, newMatch("open", t0)), "create")
	r.ok(s.Create(r.ctx, newMatch("gone", t0)), "create")
	r.ok(s.End(r.ctx, "gone", 0, store.Expired, "", 0, t0.Add(time.Minute)), "expire")
	got, err := s.FinishedWithout(r.ctx, "review", t0, 10)
	r.ok(err, "finished without a review")
	if !slices.Equal(got, []string{"f3", "f2", "f1"}) {
		r.fail("finished without a review: %v, want f3 f2 f1 (the first finished first)", got)
	}
	_, err = s.EnqueueJob(r.ctx, "review", "f2", "f2", t0)
	r.ok(err, "enqueue f2")
	_, err = s.EnqueueJob(r.ctx, "other", "f1", "f1", t0)
	r.ok(err, "enqueue another kind of job about f1")
	got, err = s.FinishedWithout(r.ctx, "review", t0.Add(90*time.Second), 10)
	r.ok(err, "finished without a review since 90 s")
	if !slices.Equal(got, []string{"f1"}) {
		r.fail("finished since 90 s without a review: %v, want f1", got)
	}
	if got, _ := s.FinishedWithout(r.ctx, "review", t0, 1); len(got) != 1 {
		r.fail("a limit of one gave %v", got)
	}
}

// A hint counts once for its seat, step and level, reads back after a
// restart, and is pruned with its match; so are its match's jobs and daily
// entry.
func hints(r *run) {
	s := r.store()
	r.running(s, "m", t0)
	r.ok(s.Finish(r.ctx, "m", 0, engine.Outcome{}, 0, t0), "finish")
	r.running(s, "other", t0)
	for _, h := range []store.Hint{{Seat: 1, Step: 4, Level: 2}, {Seat: 0, Step: 4, Level: 1}, {Seat: 0, Step: 4, Level: 1}, {Seat: 0, Step: 2, Level: 3}} {
		h.At = t0
		r.ok(s.AddHint(r.ctx, "m", h), "hint %+v", h)
	}
	r.ok(s.AddHint(r.ctx, "other", store.Hint{Seat: 0, Step: 1, Level: 1, At: t0}), "hint of another match")
	s.Close()
	s = r.store()
	got, err := s.Hints(r.ctx, "m")
	r.ok(err, "hints")
	want := []store.Hint{{Seat: 0, Step: 2, Level: 3}, {Seat: 0, Step: 4, Level: 1}, {Seat: 1, Step: 4, Level: 2}}
	if len(got) != len(want) {
		r.fail("hints %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i].Seat != want[i].Seat || got[i].Step != want[i].Step || got[i].Level != want[i].Level || !got[i].At.Equal(t0) {
			r.fail("hint %d: %+v, want %+v", i, got[i], want[i])
		}
	}
	_, err = s.EnqueueJob(r.ctx, "review", "m", "m", t0)
	r.ok(err, "enqueue")
	r.ok(s.AddDailyEntry(r.ctx, "2025-03-01", "testcards", "m", "Ana", t0), "enter m")
	n, err := s.Prune(r.ctx, t0.Add(time.Hour), 10)
	if err != nil || n != 1 {
		r.fail("prune: %d, %v", n, err)
	}
	if got, err := s.Hints(r.ctx, "m"); err != nil || len(got) != 0 {
		r.fail("m's hints outlived it: %+v, %v", got, err)
	}
	if _, err := s.JobOf(r.ctx, "review", "m"); !errors.Is(err, store.ErrNotFound) {
		r.fail("m's review outlived it: %v", err)
	}
	if es, err := s.DailyEntries(r.ctx, "2025-03-01", "testcards", 10); err != nil || len(es) != 0 {
		r.fail("m's daily entry outlived it: %+v, %v", es, err)
	}
	if got, err := s.Hints(r.ctx, "other"); err != nil || len(got) != 1 {
		r.fail("the hints of a match not pruned: %+v, %v", got, err)
	}
}

// A day's challenge of a game is set by the first node that asks, for
// every node; its entries are listed in the order they came, with their
// matches as they stand and their players' names.
func daily(r *run) {
	a, b := r.store(), r.store()
	d, err := a.DailySeed(r.ctx, store.Daily{Day: "2025-03-01", Game: "testcards", Seed: 11, BotSeed: 12})
	r.ok(err, "A sets the day's challenge")
	if d.Seed != 11 || d.BotSeed != 12 || d.Day != "2025-03-01" || d.Game != "testcards" {
		r.fail("A's challenge: %+v", d)
	}
	d, err = b.DailySeed(r.ctx, store.Daily{Day: "2025-03-01", Game: "testcards", Seed: 21, BotSeed: 22})
	r.ok(err, "B asks for the day's challenge")
	if d.Seed != 11 || d.BotSeed != 12 {
		r.fail("B's challenge: %+v, not A's (11, 12)", d)
	}
	if d, _ := b.DailySeed(r.ctx, store.Daily{Day: "2025-03-02", Game: "testcards", Seed: 31, BotSeed: 32}); d.Seed != 31 {
		r.fail("the next day's challenge: %+v", d)
	}
	if d, _ := b.DailySeed(r.ctx, store.Daily{Day: "2025-03-01", Game: "other", Seed: 41, BotSeed: 42}); d.Seed != 41 || d.BotSeed != 42 {
		r.fail("another game's challenge: %+v", d)
	}
	for i, e := range []struct{ id, name string }{{"d2", "Émile"}, {"d1", "Ana"}, {"d3", ""}} {
		r.running(a, e.id, t0)
		r.ok(a.AddDailyEntry(r.ctx, "2025-03-01", "testcards", e.id, e.name, t0.Add(time.Duration(i)*time.Second)), "enter %s", e.id)
	}
	r.running(a, "x", t0)
	r.ok(a.AddDailyEntry(r.ctx, "2025-03-02", "testcards", "x", "Zoé", t0), "enter x the next day")
	r.is(b.AddDailyEntry(r.ctx, "2025-03-01", "testcards", "d1", "Ana", t0), store.ErrConflict, "enter d1 twice")
	out := engine.Outcome{Winners: []engine.Seat{0}, Ranks: []int{1, 2}, Scores: []int{3, 1}}
	r.ok(a.Finish(r.ctx, "d1", 0, out, 40, t0.Add(time.Minute)), "finish d1")
	es, err := b.DailyEntries(r.ctx, "2025-03-01", "testcards", 10)
	r.ok(err, "entries")
	if len(es) != 3 || es[0].Match.ID != "d2" || es[0].Name != "Émile" || es[1].Match.ID != "d1" || es[2].Name != "" {
		r.fail("entries: %+v", es)
	}
	if m := es[1].Match; m.Status != store.Finished || m.Outcome == nil || m.Outcome.Scores[0] != 3 || m.Clock != 40 || m.Game != "testcards" {
		r.fail("d1 as entered: %+v", m)
	}
	if es, _ := b.DailyEntries(r.ctx, "2025-03-01", "testcards", 2); len(es) != 2 {
		r.fail("a limit of two gave %d entries", len(es))
	}
}
