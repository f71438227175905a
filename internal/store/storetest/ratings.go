package storetest

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"sortie/engine"
	"sortie/internal/store"
)

// RatingStore is a store that keeps ratings beside its matches and
// accounts, as every store of Sortie does.
type RatingStore interface {
	AccountStore
	store.Ratings
}

// RunRatings runs every scenario of [store.Ratings] as a subtest of t. The
// harness's stores must be [RatingStore]s.
func RunRatings(t *testing.T, h Harness) { h.runAll(t, ratingScenarios) }

// CheckRatings runs the ratings scenarios named in only (all, if none is)
// and returns their failures, or nil.
func CheckRatings(t testing.TB, h Harness, only ...string) error {
	return h.check(t, ratingScenarios, only)
}

var ratingScenarios = []scenario{
	{"RecordRating", recordRating},
	{"RatingConflicts", ratingConflicts},
	{"Leaderboard", leaderboard},
	{"RatingRace", ratingRace},
	{"DeleteAccountRatings", deleteAccountRatings},
}

// ratings opens one more handle, which must keep ratings.
func (r *run) ratings() RatingStore {
	s := r.store()
	rs, ok := s.(RatingStore)
	if !ok {
		r.fail("the store (%T) keeps no ratings", s)
	}
	return rs
}

// finished creates match id, runs and finishes it.
func (r *run) finished(s store.Store, id string, at time.Time) {
	r.running(s, id, at)
	r.ok(s.Finish(r.ctx, id, 0, engine.Outcome{Ranks: []int{1, 2}, Winners: []engine.Seat{0}}, 100, at), "finish %s", id)
}

// change is player's change from (mu, sigma, games) to (mu2, sigma2).
func change(player string, games int, mu, sigma, mu2, sigma2 float64, rank int) store.RatingChange {
	return store.RatingChange{Player: player, Before: store.PlayerRating{Player: player, Mu: mu, Sigma: sigma, Games: games},
		Mu: mu2, Sigma: sigma2, Rank: rank}
}

func rated(match string, at time.Time, changes ...store.RatingChange) *store.MatchRating {
	return &store.MatchRating{Match: match, Rated: true, Game: "testcards", Family: "free_for_all", Changes: changes, At: at}
}

// board formats ratings as "player mu/sigma×games ...".
func board(rs []store.PlayerRating) string {
	var b strings.Builder
	for _, p := range rs {
		fmt.Fprintf(&b, "%s %g/%g×%d ", p.Player, p.Mu, p.Sigma, p.Games)
	}
	return strings.TrimSpace(b.String())
}

func (r *run) ratingsOf(s RatingStore, player string) string {
	rs, err := s.RatingsOf(r.ctx, player)
	r.ok(err, "ratings of %s", player)
	return board(rs)
}

func (r *run) unrated(s RatingStore) string {
	ids, err := s.Unrated(r.ctx, t0, 0)
	r.ok(err, "unrated")
	return strings.Join(ids, " ")
}

// A finished match is decided once: its changes make and update ratings,
// with a row of history each, read back from another handle; the same
// decision again writes nothing; a match not rated is decided too and
// leaves the unrated list; bad decisions are refused and write nothing.
func recordRating(r *run) {
	s, other := r.ratings(), r.ratings()
	r.create(s, "ana", "bob")
	r.finished(s, "m1", t0)
	r.finished(s, "m2", t0.Add(time.Minute))
	r.finished(s, "m3", t0.Add(2*time.Minute))
	r.running(s, "m4", t0)
	if got := r.unrated(other); got != "m1 m2 m3" {
		r.fail("unrated before any decision: %q, want the three finished matches oldest first", got)
	}
	if ids, err := other.Unrated(r.ctx, t0.Add(time.Minute), 1); err != nil || strings.Join(ids, " ") != "m2" {
		r.fail("the first unrated match since m2 finished: %q %v", ids, err)
	}
	m1 := rated("m1", t0, change("ana", 0, 25, 8, 27, 7.5, 1), change("bot:hard", 0, 25, 8, 23, 7.5, 2))
	r.ok(s.RecordRating(r.ctx, m1), "rate m1")
	r.ok(s.RecordRating(r.ctx, rated("m1", t0, change("ana", 0, 25, 8, 99, 1, 1), change("bot:hard", 0, 25, 8, 1, 1, 2))),
		"rate m1 again")
	if got := r.ratingsOf(other, "ana"); got != "ana 27/7.5×1" {
		r.fail("ana after m1 (rated twice): %q", got)
	}
	r.ok(other.RecordRating(r.ctx, rated("m2", t0.Add(time.Minute), change("ana", 1, 27, 7.5, 28, 7, 1))), "rate m2")
	r.ok(s.RecordRating(r.ctx, &store.MatchRating{Match: "m3", Reason: "casual", Game: "testcards", At: t0}), "decide m3 unrated")
	if got := r.unrated(s); got != "" {
		r.fail("unrated after every decision: %q", got)
	}
	if got := r.ratingsOf(s, "ana"); got != "ana 28/7×2" {
		r.fail("ana after m2: %q", got)
	}
	d, err := other.MatchRating(r.ctx, "m1")
	r.ok(err, "m1's decision")
	want := change("ana", 0, 25, 8, 27, 7.5, 1)
	want.Before.Game, want.Before.Family = "testcards", "free_for_all"
	if !d.Rated || d.Game != "testcards" || d.Family != "free_for_all" || len(d.Changes) != 2 || d.Changes[0] != want {
		r.fail("m1's decision reads back as %+v", d)
	}
	if c := d.Changes[1]; c.Player != "bot:hard" || c.Mu != 23 || c.Rank != 2 || c.Before.Mu != 25 || c.Before.Games != 0 {
		r.fail("m1's second change reads back as %+v", c)
	}
	d, err = s.MatchRating(r.ctx, "m3")
	r.ok(err, "m3's decision")
	if d.Rated || d.Reason != "casual" || len(d.Changes) != 0 {
		r.fail("m3's decision reads back as %+v", d)
	}
	_, err = s.MatchRating(r.ctx, "m4")
	r.is(err, store.ErrNotFound, "the decision of a match not decided")
	h, err := other.RatingHistory(r.ctx, "ana", 0)
	r.ok(err, "ana's history")
	if len(h) != 2 || h[0].Match != "m1" || h[0].Mu != 27 || h[0].Rank != 1 || h[1].Match != "m2" || h[1].Sigma != 7 ||
		!h[1].At.Equal(t0.Add(time.Minute)) || h[1].Game != "testcards" || h[1].Family != "free_for_all" {
		r.fail("ana's history: %+v", h)
	}
	if h, _ := other.RatingHistory(r.ctx, "ana", 1); len(h) != 1 || h[0].Match != "m2" {
		r.fail("ana's last match of history: %+v", h)
	}
	ps, err := s.PlayerRatings(r.ctx, "testcards", "free_for_all", []string{"ana", "bot:hard", "bob"})
	r.ok(err, "player ratings")
	if len(ps) != 2 {
		r.fail("ratings of ana, bot:hard and bob (never rated): %s", board(ps))
	}
	for _, bad := range []*store.MatchRating{
		{Match: "m4", Rated: true, Game: "testcards", Family: "free_for_all", At: t0},
		rated("m4", t0, change("", 0, 25, 8, 26, 7, 1)),
		rated("m4", t0, change("bob", 0, 25, 8, 26, 7, 1), change("bob", 0, 25, 8, 26, 7, 2)),
		rated("m4", t0, change("bob", 0, 25, 8, 26, 0, 1)),
		rated("m4", t0, change("bob", 0, 25, 8, nan(), 7, 1)),
		{Match: "", Reason: "casual"},
	} {
		if err := s.RecordRating(r.ctx, bad); err == nil {
			r.fail("a bad decision was taken: %+v", bad)
		}
	}
	if got := r.ratingsOf(s, "bob"); got != "" {
		r.fail("bad decisions wrote bob's ratings: %q", got)
	}
	if _, err := s.MatchRating(r.ctx, "m4"); !errors.Is(err, store.ErrNotFound) {
		r.fail("a bad decision was kept: %v", err)
	}
}

func nan() float64 { var z float64; return z / z }

// A change computed from a rating that moved since (another match of the
// player was rated) is a conflict that writes nothing, not even the
// decision; computed again, it lands.
func ratingConflicts(r *run) {
	s := r.ratings()
	r.create(s, "ana")
	r.finished(s, "m1", t0)
	r.finished(s, "m2", t0.Add(time.Minute))
	r.ok(s.RecordRating(r.ctx, rated("m1", t0, change("ana", 0, 25, 8, 27, 7.5, 1), change("bot:easy", 0, 25, 8, 23, 7.5, 2))), "rate m1")
	stale := rated("m2", t0.Add(time.Minute), change("bot:medium", 0, 25, 8, 26, 7.5, 1), change("ana", 0, 25, 8, 24, 7.5, 2))
	r.is(s.RecordRating(r.ctx, stale), store.ErrConflict, "a change from ana's first rating, once she has one")
	if got := r.ratingsOf(s, "bot:medium") + "|" + r.unrated(s); got != "|m2" {
		r.fail("a conflict wrote something: %q", got)
	}
	r.is(s.RecordRating(r.ctx, rated("m2", t0, change("ana", 3, 27, 7.5, 24, 7.5, 2))), store.ErrConflict,
		"a change from 3 games when ana played 1")
	r.ok(s.RecordRating(r.ctx, rated("m2", t0.Add(time.Minute), change("bot:medium", 0, 25, 8, 26, 7.5, 1), change("ana", 1, 27, 7.5, 26, 7.2, 2))),
		"rate m2 again, from ana's rating now")
	if got := r.ratingsOf(s, "ana") + "|" + r.ratingsOf(s, "bot:medium"); got != "ana 26/7.2×2|bot:medium 26/7.5×1" {
		r.fail("after m2: %q", got)
	}
}

// A leaderboard ranks a game and family's ratings by μ − 3σ, keeps only
// those σ allows, and bounds its answer.
func leaderboard(r *run) {
	s := r.ratings()
	r.create(s, "ana", "bob", "cyd")
	r.finished(s, "m1", t0)
	r.finished(s, "m2", t0)
	r.ok(s.RecordRating(r.ctx, rated("m1", t0,
		change("ana", 0, 25, 8, 30, 4, 1),      // 18
		change("bob", 0, 25, 8, 40, 6, 2),      // 22, uncertain
		change("cyd", 0, 25, 8, 21, 1, 3),      // 18, fewer games
		change("bot:hard", 0, 25, 8, 26, 2, 4), // 20
	)), "rate m1")
	m2 := rated("m2", t0, change("ana", 0, 25, 8, 30, 4, 1))
	m2.Family = "team"
	r.ok(s.RecordRating(r.ctx, m2), "rate m2 in another family")
	get := func(b store.Board) string {
		rs, err := s.Leaderboard(r.ctx, b)
		r.ok(err, "leaderboard %+v", b)
		return board(rs)
	}
	if got := get(store.Board{Game: "testcards", Family: "free_for_all"}); got != "bob 40/6×1 bot:hard 26/2×1 ana 30/4×1 cyd 21/1×1" {
		r.fail("the whole board: %q", got)
	}
	if got := get(store.Board{Game: "testcards", Family: "free_for_all", MaxSigma: 5, Limit: 2}); got != "bot:hard 26/2×1 ana 30/4×1" {
		r.fail("the established two best: %q", got)
	}
	if got := get(store.Board{Game: "testcards", Family: "team"}); got != "ana 30/4×1" {
		r.fail("the team board: %q", got)
	}
	if got := get(store.Board{Game: "other", Family: "free_for_all"}); got != "" {
		r.fail("another game's board: %q", got)
	}
}

// Two nodes deciding one match at once write it once; two matches of one
// player rated at once from the same rating: one lands, the other is a
// conflict.
func ratingRace(r *run) {
	a, b := r.ratings(), r.ratings()
	r.create(a, "ana")
	for i := range 10 {
		r.finished(a, fmt.Sprintf("m%d", i), t0)
	}
	for i := range 5 {
		// The same match, from the same rating, on two nodes.
		id := fmt.Sprintf("m%d", i)
		var wg sync.WaitGroup
		errs := make([]error, 2)
		for k, s := range []RatingStore{a, b} {
			wg.Add(1)
			go func() {
				defer wg.Done()
				rs, _ := s.PlayerRatings(r.ctx, "testcards", "free_for_all", []string{"ana"})
				games, mu := 0, 25.0
				if len(rs) == 1 {
					games, mu = rs[0].Games, rs[0].Mu
				}
				errs[k] = s.RecordRating(r.ctx, rated(id, t0, change("ana", games, mu, 8, mu+1, 7, 1)))
			}()
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil && !errors.Is(err, store.ErrConflict) {
				r.fail("deciding %s on two nodes at once: %v", id, err)
			}
		}
	}
	if got := r.ratingsOf(a, "ana"); got != "ana 30/7×5" {
		r.fail("after five matches each decided on two nodes at once: %q", got)
	}
	// Two matches from the same rating at once.
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for k, s := range []RatingStore{a, b} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[k] = s.RecordRating(r.ctx, rated(fmt.Sprintf("m%d", 5+k), t0, change("ana", 5, 30, 7, 31, 6.5, 1)))
		}()
	}
	wg.Wait()
	if (errs[0] == nil) == (errs[1] == nil) || !errors.Is(errors.Join(errs...), store.ErrConflict) {
		r.fail("two matches rated at once from one rating: %v, %v; want one conflict", errs[0], errs[1])
	}
	if got := r.ratingsOf(b, "ana") + "|" + r.unrated(b); !strings.HasPrefix(got, "ana 31/6.5×6|") || strings.Count(got, " m")+strings.Count(got, "|m") != 4 {
		r.fail("after the race of two matches: %q", got)
	}
	h, err := b.RatingHistory(r.ctx, "ana", 0)
	r.ok(err, "ana's history")
	if len(h) != 6 {
		r.fail("ana's history holds %d matches, want 6", len(h))
	}
}

// An account deleted takes its ratings and history with it; a bot's and
// the match's decision stay.
func deleteAccountRatings(r *run) {
	s := r.ratings()
	r.create(s, "ana")
	r.finished(s, "m1", t0)
	r.ok(s.RecordRating(r.ctx, rated("m1", t0, change("ana", 0, 25, 8, 27, 7.5, 1), change("bot:hard", 0, 25, 8, 23, 7.5, 2))), "rate m1")
	r.ok(s.DeleteAccount(r.ctx, "ana"), "delete ana")
	h, err := s.RatingHistory(r.ctx, "ana", 0)
	r.ok(err, "history of a deleted account")
	if got := r.ratingsOf(s, "ana"); got != "" || len(h) != 0 {
		r.fail("a deleted account keeps its ratings %q and history %+v", got, h)
	}
	if got := r.ratingsOf(s, "bot:hard") + "|" + r.unrated(s); got != "bot:hard 23/7.5×1|" {
		r.fail("after ana's deletion: %q", got)
	}
}
