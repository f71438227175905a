// Ratings (docs/ratings.md, docs/api.md "Ratings"): which tables are rated,
// each side's chance before a rated match, and the rating of every finished
// match, decided once in the store.
//
// A match is rated when every seat is held by an account or played by a bot
// of a level (each level has a rated identity per game and family, its
// player id "bot:<level>"), at least one seat is an account, no account
// holds two seats, its clocks are on (a takeover delay, and a move limit
// unless the game runs in real time), its variant was measured by the
// lab where the family needs it (team and co-op), and it is neither a
// tutorial nor a match of a daily challenge; a table whose players may
// ask for hints is not rated either.
//
// A player who left (handed their seat to its bot for the rest of the
// match) counts as last, and the bot's play is not their result: the match
// then rates the leavers alone, as the last of its sides, and leaves
// everyone else's rating as it was (they did not play the match they sat
// down to).
//
// Every node sweeps the matches finished in the last day that have no
// decision yet, and decides each: the store writes a decision once by the
// match's id, and refuses a change computed from a rating that moved
// meanwhile (the node then computes it again). A node killed before its
// commit left nothing, and the next sweep finds the match again.

package server

import (
	"context"
	"errors"
	"slices"
	"time"

	"sortie/bot"
	"sortie/engine"
	"sortie/internal/match"
	"sortie/internal/rating"
	"sortie/internal/store"
)

// Why a table is not rated (Summary.Unrated, and the store's decisions).
const (
	UnratedOff         = "ratings_off"     // the server keeps no accounts
	UnratedGame        = "game_not_rated"  // the game says nothing for rating
	UnratedSeatOpen    = "seat_open"       // a seat is not held by an account yet (a guest's, or free)
	UnratedBot         = "bot_not_a_level" // a bot plays that is not one of the levels
	UnratedBotsOnly    = "bots_only"       // no account plays
	UnratedSamePlayer  = "same_player"     // an account holds two seats
	UnratedNoClock     = "no_clock"        // its clocks are off
	UnratedNotMeasured = "not_measured"    // the lab has no baseline for the variant
	UnratedUnreadable  = "log_unreadable"  // the log no longer replays
	UnratedLeavers     = "leavers_only"    // rated, for the players who left alone
	UnratedCasual      = "casual"          // a Play now table asked for casual
	UnratedHints       = "hints_on"        // its players may ask for hints
	UnratedTutorial    = "tutorial"        // a tutorial (/learn/<game>)
	UnratedDaily       = "daily"           // a match of a daily challenge
)

// ratingsSince is how far back a node looks for finished matches without
// a decision.
const ratingsSince = 24 * time.Hour

// rater rates finished matches.
type rater struct {
	store store.Ratings
	model rating.Model
	data  *rating.Data
	every time.Duration
	kick  chan struct{}
	stop  chan struct{}
	done  chan struct{}
}

// openRatings sets ratings up when the server keeps accounts in a store
// that keeps ratings.
func (s *Server) openRatings() {
	st, ok := s.store.(store.Ratings)
	if s.acc == nil || !ok {
		return
	}
	every := s.cfg.RateEvery
	if every <= 0 {
		every = 2 * time.Second
	}
	s.rater = &rater{store: st, model: rating.Default(), data: rating.Measured(), every: every,
		kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
}

// startRating starts the sweep (Resume calls it).
func (s *Server) startRating() {
	if s.rater == nil {
		return
	}
	go s.rateLoop()
}

// stopRating stops the sweep and waits for it.
func (s *Server) stopRating() {
	r := s.rater
	if r == nil {
		return
	}
	select {
	case <-r.stop:
		return
	default:
	}
	close(r.stop)
	select {
	case <-r.done:
	case <-time.After(5 * time.Second):
	}
}

// kickRating has the sweep look now (a match ended).
func (s *Server) kickRating() {
	if s.rater == nil {
		return
	}
	select {
	case s.rater.kick <- struct{}{}:
	default:
	}
}

func (s *Server) rateLoop() {
	r := s.rater
	defer close(r.done)
	t := time.NewTicker(r.every)
	defer t.Stop()
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		s.sweepRatings(ctx)
		cancel()
		select {
		case <-r.stop:
			return
		case <-t.C:
		case <-r.kick:
		}
	}
}

// sweepRatings decides the matches finished lately that have no decision.
func (s *Server) sweepRatings(ctx context.Context) {
	ids, err := s.rater.store.Unrated(ctx, time.Now().Add(-ratingsSince), 100)
	if err != nil {
		s.log.Warn("cannot list the matches to rate", "err", err)
		return
	}
	for _, id := range ids {
		if err := s.rateMatch(ctx, id); err != nil {
			s.log.Warn("cannot rate a match", "match", id, "err", err)
		}
	}
}

// rateMatch decides finished match id, computing it again while another
// match of one of its players is rated meanwhile.
func (s *Server) rateMatch(ctx context.Context, id string) error {
	var err error
	for range 8 {
		var d *store.MatchRating
		if d, err = s.decide(ctx, id); err != nil {
			return err
		}
		if err = s.rater.store.RecordRating(ctx, d); !errors.Is(err, store.ErrConflict) {
			return err
		}
	}
	return err
}

// decide computes what finished match id counts for.
func (s *Server) decide(ctx context.Context, id string) (*store.MatchRating, error) {
	rec, res, ok, err := s.mgr.RatedResult(ctx, id)
	if rec == nil {
		return nil, err
	}
	d := &store.MatchRating{Match: id, Game: rec.Game, At: rec.Finished}
	if err != nil {
		if c := match.AsError(err).Code; c != match.CodeMatchFailed && c != match.CodeNotFinished && c != match.CodeUnknownGame {
			return nil, err
		}
		d.Reason = UnratedUnreadable
		return d, nil
	}
	if !ok {
		d.Reason = UnratedGame
		return d, nil
	}
	d.Family = string(res.Family)
	sum := match.Summarize(rec)
	players, why := s.seatPlayers(sum, res)
	if why != "" {
		d.Reason = why
		return d, nil
	}
	x, before, err := s.ratingMatch(ctx, rec.Game, res, players)
	if err != nil {
		return nil, err
	}
	var leavers []bool
	for _, st := range sum.Seats {
		leavers = append(leavers, st.Left)
	}
	anyLeft := slices.Contains(leavers, true)
	if anyLeft {
		lastAfterLeavers(x, res, leavers)
	}
	after, err := s.rater.model.RateMatch(s.rater.data, x)
	if errors.Is(err, rating.ErrNotMeasured) {
		d.Reason = UnratedNotMeasured
		return d, nil
	}
	if err != nil {
		return nil, err
	}
	count := map[string]int{}
	for _, p := range players {
		count[p]++
	}
	for i, side := range res.Sides {
		for j, seat := range side.Seats {
			p := players[seat]
			if count[p] > 1 || anyLeft && !leavers[seat] {
				continue // a bot level on several seats is not moved by the match; nor, when someone left, the others
			}
			d.Changes = append(d.Changes, store.RatingChange{Player: p, Before: before[p],
				Mu: after[i][j].Mu, Sigma: after[i][j].Sigma, Rank: x.Sides[i].Rank})
		}
	}
	d.Rated = len(d.Changes) > 0
	if anyLeft {
		d.Reason = UnratedLeavers
	}
	if !d.Rated {
		d.Reason = UnratedBotsOnly
	}
	return d, nil
}

// lastAfterLeavers ranks every side with a seat that left after all the
// others, tied among themselves (a co-op team with a leaver lost); the
// others keep their order, ranked among themselves.
func lastAfterLeavers(x rating.Match, res engine.Result, leavers []bool) {
	if len(x.Sides) == 1 {
		x.Sides[0].Rank = 2
		return
	}
	left := make([]bool, len(x.Sides))
	stayed := 0
	for i, side := range res.Sides {
		left[i] = slices.ContainsFunc(side.Seats, func(s engine.Seat) bool { return leavers[s] })
		if !left[i] {
			stayed++
		}
	}
	ranks := make([]int, len(x.Sides))
	for i := range x.Sides {
		if left[i] {
			ranks[i] = stayed + 1
			continue
		}
		ranks[i] = 1
		for j := range x.Sides {
			if !left[j] && x.Sides[j].Rank < x.Sides[i].Rank {
				ranks[i]++
			}
		}
	}
	for i := range x.Sides {
		x.Sides[i].Rank = ranks[i]
	}
}

// seatPlayers returns each seat's rated player, or why the table is not
// rated.
func (s *Server) seatPlayers(sum match.Summary, res engine.Result) ([]string, string) {
	if s.rater == nil {
		return nil, UnratedOff
	}
	switch sum.Settings.Purpose {
	case match.PurposeTutorial:
		return nil, UnratedTutorial
	case match.PurposeDaily:
		return nil, UnratedDaily // (its deal is everyone's that day)
	}
	players := make([]string, len(sum.Seats))
	accounts := 0
	for i, st := range sum.Seats {
		switch {
		case st.Kind == match.Bot && slices.Contains(bot.Levels, st.Bot):
			players[i] = store.BotPlayer + st.Bot
		case st.Kind == match.Bot:
			return nil, UnratedBot
		case st.Account == "" || st.Deleted:
			return nil, UnratedSeatOpen
		case slices.Contains(players[:i], st.Account):
			return nil, UnratedSamePlayer
		default:
			players[i] = st.Account
			accounts++
		}
	}
	if accounts == 0 {
		return nil, UnratedBotsOnly
	}
	g, err := s.mgr.Game(sum.Game)
	if err != nil {
		return nil, UnratedGame
	}
	// (A correspondence table hands no seat to its bot for a closed page:
	// its move limit, in days, is its clock.)
	corr := sum.Settings.Clock == match.ClockCorrespondence
	if !corr && sum.Settings.TakeoverAfterMs <= 0 || g.Info().Timing != engine.RealTime && sum.Settings.MoveLimitMs <= 0 {
		return nil, UnratedNoClock
	}
	if sum.Settings.Hints {
		return nil, UnratedHints // hints are for tables that are not rated
	}
	if res.Family != engine.FreeForAll && !s.rater.data.Has(sum.Game, res.Key, sum.Players) {
		return nil, UnratedNotMeasured
	}
	return players, ""
}

// ratingMatch builds the rating's match of res with the players' ratings
// now (a new rating for one who has none), and returns those ratings by
// player.
func (s *Server) ratingMatch(ctx context.Context, game string, res engine.Result, players []string) (rating.Match, map[string]store.PlayerRating, error) {
	x := rating.Match{Game: game, Key: res.Key, Family: rating.Family(res.Family)}
	stored, err := s.rater.store.PlayerRatings(ctx, game, string(res.Family), uniq(players))
	if err != nil {
		return x, nil, err
	}
	before := map[string]store.PlayerRating{}
	for _, p := range players {
		n := s.rater.model.New()
		before[p] = store.PlayerRating{Player: p, Game: game, Family: string(res.Family), Mu: n.Mu, Sigma: n.Sigma}
	}
	for _, r := range stored {
		before[r.Player] = r
	}
	for _, side := range res.Sides {
		sd := rating.Side{Role: side.Role, Rank: side.Rank}
		for _, seat := range side.Seats {
			b := before[players[seat]]
			sd.Players = append(sd.Players, rating.Rating{Mu: b.Mu, Sigma: b.Sigma})
		}
		x.Sides = append(x.Sides, sd)
	}
	return x, before, nil
}

func uniq(xs []string) []string {
	out := slices.Clone(xs)
	slices.Sort(out)
	return slices.Compact(out)
}

// rateSummary says in sum whether its table is rated (or was) and why not,
// and, if chances, before a rated match, each side's chance where its sides
// are known (free for all: each seat; co-op: the team).
func (s *Server) rateSummary(ctx context.Context, sum *match.Summary, chances bool) {
	sum.Rated, sum.Unrated, sum.Chances = false, "", nil
	if s.rater == nil {
		sum.Unrated = UnratedOff
		return
	}
	if sum.Status.Over() && sum.Status != store.Finished {
		sum.Unrated = string(sum.Status)
		return
	}
	// A decision taken (a finished match's, or a casual table's from its
	// creation) stands.
	if d, err := s.rater.store.MatchRating(ctx, sum.ID); err == nil {
		sum.Rated, sum.Unrated = d.Rated, d.Reason
		return
	}
	v, ok := s.mgr.RatedVariant(sum.Game, engine.Setup{Players: sum.Players, Options: sum.Options})
	if !ok {
		sum.Unrated = UnratedGame
		return
	}
	players, why := s.seatPlayers(*sum, v)
	if why != "" {
		sum.Unrated = why
		return
	}
	sum.Rated = true
	if sum.Status.Over() || !chances {
		return
	}
	switch v.Family {
	case engine.FreeForAll:
		v.Sides = make([]engine.Side, len(players))
		for i := range players {
			v.Sides[i] = engine.Side{Seats: []engine.Seat{engine.Seat(i)}, Rank: 1}
		}
	case engine.Coop:
		team := engine.Side{Role: "team", Rank: 1}
		for i := range players {
			team.Seats = append(team.Seats, engine.Seat(i))
		}
		v.Sides = []engine.Side{team}
	default:
		return // the sides are known at the end only
	}
	x, _, err := s.ratingMatch(ctx, sum.Game, v, players)
	if err != nil {
		return
	}
	p, err := s.rater.model.Chances(s.rater.data, x)
	if err != nil {
		return
	}
	for i, side := range v.Sides {
		sum.Chances = append(sum.Chances, match.Chance{Seats: side.Seats, Chance: p[i]})
	}
}
