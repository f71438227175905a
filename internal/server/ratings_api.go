package server

import (
	"context"
	"math"
	"net/http"
	"strconv"
	"time"

	"sortie/engine"
	"sortie/internal/match"
	"sortie/internal/rating"
	"sortie/internal/store"
)

// The API of ratings (docs/api.md, "Ratings"): a player's ratings, history
// and reputation on their profile, and each game's leaderboards.

// RatingOut is one rating as the API shows it: the model's μ and σ, what
// people see (Display, μ − 3σ, rounded to a tenth), whether it is still
// provisional (shown "?", kept off leaderboards), and the rated matches
// that made it.
type RatingOut struct {
	Mu          float64 `json:"mu"`
	Sigma       float64 `json:"sigma"`
	Display     float64 `json:"display"`
	Provisional bool    `json:"provisional"`
	Games       int     `json:"games"`
}

// RatingPoint is one rated match of a player's history: the rating it
// left.
type RatingPoint struct {
	Match   string    `json:"match"`
	Game    string    `json:"game"`
	Family  string    `json:"family"`
	Mu      float64   `json:"mu"`
	Sigma   float64   `json:"sigma"`
	Display float64   `json:"display"`
	Rank    int       `json:"rank"`
	At      time.Time `json:"at"`
}

// Reputation is how often a player finishes the matches they sit down to,
// over the last ReputationDays: finished matches they played to the end,
// and those they left (handed to their bot for good).
type Reputation struct {
	Days     int `json:"days"`
	Finished int `json:"finished"`
	Left     int `json:"left"`
}

// ReputationDays is the span of a reputation.
const ReputationDays = 30

// LeaderboardEntry is one row of a leaderboard.
type LeaderboardEntry struct {
	Rank   int     `json:"rank"`
	Player string  `json:"player"`
	Name   string  `json:"name"`
	Rating float64 `json:"rating"`
	Mu     float64 `json:"mu"`
	Sigma  float64 `json:"sigma"`
	Games  int     `json:"games"`
	Bot    bool    `json:"bot"`
}

// Leaderboard is a game's leaderboard in one mode family.
type Leaderboard struct {
	Family  string             `json:"family"`
	Entries []LeaderboardEntry `json:"entries"`
}

// Leaderboards answers GET /api/leaderboard/{game}.
type Leaderboards struct {
	Game   string        `json:"game"`
	Boards []Leaderboard `json:"boards"`
}

// families are the mode families, in the order boards are listed.
var families = []engine.Family{engine.FreeForAll, engine.Team, engine.Coop}

func tenth(x float64) float64 { return math.Round(x*10) / 10 }

func (s *Server) ratingOut(r store.PlayerRating) RatingOut {
	return RatingOut{Mu: r.Mu, Sigma: r.Sigma, Display: tenth(rating.Rating{Mu: r.Mu, Sigma: r.Sigma}.Display()), Games: r.Games,
		Provisional: s.rater == nil || r.Sigma > s.rater.model.Uncertain}
}

// profileRatings fills a profile's ratings, history and reputation.
func (s *Server) profileRatings(ctx context.Context, p *Profile) error {
	p.Ratings, p.RatingHistory = map[string]map[string]RatingOut{}, []RatingPoint{}
	p.Reputation = Reputation{Days: ReputationDays}
	held, err := s.accounts.HeldSeats(ctx, p.ID, store.Filter{Statuses: []store.Status{store.Finished}, Limit: 2000})
	if err != nil {
		return err
	}
	since := time.Now().AddDate(0, 0, -ReputationDays)
	for _, h := range held {
		if h.Match.Finished.Before(since) || h.Seat >= len(h.Match.Seats) {
			continue
		}
		if h.Match.Seats[h.Seat].Left {
			p.Reputation.Left++
		} else {
			p.Reputation.Finished++
		}
	}
	if s.rater == nil {
		return nil
	}
	rs, err := s.rater.store.RatingsOf(ctx, p.ID)
	if err != nil {
		return err
	}
	for _, r := range rs {
		if p.Ratings[r.Game] == nil {
			p.Ratings[r.Game] = map[string]RatingOut{}
		}
		p.Ratings[r.Game][r.Family] = s.ratingOut(r)
	}
	hist, err := s.rater.store.RatingHistory(ctx, p.ID, 200)
	if err != nil {
		return err
	}
	for _, e := range hist {
		p.RatingHistory = append(p.RatingHistory, RatingPoint{Match: e.Match, Game: e.Game, Family: e.Family,
			Mu: e.Mu, Sigma: e.Sigma, Display: tenth(rating.Rating{Mu: e.Mu, Sigma: e.Sigma}.Display()), Rank: e.Rank, At: e.At})
	}
	return nil
}

// getLeaderboard serves GET /api/leaderboard/{game}: the established
// ratings of a game, best μ − 3σ first, per mode family (?family= one of
// them; ?limit= up to 500, 100 by default).
func (s *Server) getLeaderboard(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	game := r.PathValue("game")
	if _, err := s.mgr.Game(game); err != nil {
		writeError(w, err)
		return
	}
	q := r.URL.Query()
	fams := families
	if f := q.Get("family"); f != "" {
		fams = nil
		for _, k := range families {
			if string(k) == f {
				fams = []engine.Family{k}
			}
		}
		if fams == nil {
			writeError(w, &match.Error{Code: match.CodeBadParameters, Message: "family is free_for_all, team or coop."})
			return
		}
	}
	limit := 100
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 500 {
			writeError(w, &match.Error{Code: match.CodeBadParameters, Message: "limit is a whole number from 1 to 500."})
			return
		}
		limit = n
	}
	out := Leaderboards{Game: game, Boards: []Leaderboard{}}
	if s.rater == nil {
		writeJSON(w, http.StatusOK, out)
		return
	}
	for _, f := range fams {
		rs, err := s.rater.store.Leaderboard(ctx, store.Board{Game: game, Family: string(f), MaxSigma: s.rater.model.Uncertain, Limit: limit})
		if err != nil {
			writeError(w, &match.Error{Code: match.CodeUnavailable, Message: "The server could not read the ratings; try again."})
			return
		}
		b := Leaderboard{Family: string(f), Entries: []LeaderboardEntry{}}
		for i, p := range rs {
			e := LeaderboardEntry{Rank: i + 1, Player: p.Player, Rating: tenth(rating.Rating{Mu: p.Mu, Sigma: p.Sigma}.Display()), Mu: p.Mu, Sigma: p.Sigma, Games: p.Games,
				Bot: store.IsBotPlayer(p.Player)}
			if e.Bot {
				e.Name = p.Player[len(store.BotPlayer):]
			} else {
				e.Name = s.playerRef(ctx, p.Player).Name
			}
			b.Entries = append(b.Entries, e)
		}
		if len(b.Entries) > 0 || len(fams) == 1 {
			out.Boards = append(out.Boards, b)
		}
	}
	writeJSON(w, http.StatusOK, out)
}
