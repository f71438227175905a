// Tutorials and the daily challenge (docs/api.md, "Tutorials" and "Daily
// challenge"): the teaching side's tables. A tutorial is a match on its
// script's deal (coach.Tutorial, the game's data), against bots that play
// it the same way every time, with no clock to beat; a daily challenge is
// one deal a game a day, the same for everyone, against the same bots, and
// the day's results in a table. Neither is rated, gives hints, or shows in
// the lobby's lists; a daily match shows to nobody but its player until
// its day is over (its deal is everyone's that day).

package server

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/binary"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	"sortie/coach"
	"sortie/engine"
	"sortie/internal/match"
	"sortie/internal/store"
)

// Codes of the teaching side's refusals.
const (
	CodeNoTutorial  = "no_tutorial"      // the game has no tutorial
	CodeDailyPlayed = "daily_played"     // an account plays a day's challenge once
	CodeDailyName   = "daily_name_taken" // a name is on the day's table already
	CodeDailySecret = "daily_secret"     // today's challenge is shown to its player alone
	CodeBadDay      = "bad_day"          // a day that is not YYYY-MM-DD, or to come
)

func init() {
	statusOf[CodeNoTutorial] = http.StatusNotFound
	statusOf[CodeDailyPlayed] = http.StatusConflict
	statusOf[CodeDailyName] = http.StatusConflict
	statusOf[CodeDailySecret] = http.StatusForbidden
	statusOf[CodeBadDay] = http.StatusBadRequest
}

// The daily challenge's table lists at most this many matches a game a day.
const dailyMax = 1000

func (s *Server) learnRoutes(mux *http.ServeMux) {
	mux.HandleFunc("GET /api/learn", s.listTutorials)
	mux.HandleFunc("GET /api/learn/{game}", s.getTutorial)
	mux.HandleFunc("POST /api/learn/{game}", s.startTutorial)
	mux.HandleFunc("GET /api/daily", s.reads(s.getDailies))
	mux.HandleFunc("GET /api/daily/{game}", s.reads(s.getDaily))
	mux.HandleFunc("POST /api/daily/{game}", s.enterDaily)
}

// tutorialOf returns the tutorial of game id, read and checked.
func (s *Server) tutorialOf(id string) (engine.Game, *coach.Tutorial, error) {
	g, err := s.mgr.Game(id)
	if err != nil {
		return nil, nil, err
	}
	tu, ok := g.(coach.Tutor)
	if !ok {
		return nil, nil, &match.Error{Code: CodeNoTutorial, Message: "This game has no tutorial."}
	}
	t, err := coach.ParseTutorial(g, tu.Tutorial())
	if err != nil {
		s.log.Error("a game's tutorial cannot be read", "game", id, "err", err)
		return nil, nil, &match.Error{Code: CodeNoTutorial, Message: "This game's tutorial cannot be read."}
	}
	return g, t, nil
}

func (s *Server) listTutorials(w http.ResponseWriter, r *http.Request) {
	type entry struct {
		Game  string `json:"game"`
		Steps int    `json:"steps"`
	}
	out := struct {
		Tutorials []entry `json:"tutorials"`
	}{Tutorials: []entry{}}
	for _, g := range s.mgr.Games() {
		if _, t, err := s.tutorialOf(g.Info().ID); err == nil {
			out.Tutorials = append(out.Tutorials, entry{Game: g.Info().ID, Steps: len(t.Steps)})
		}
	}
	writeJSON(w, http.StatusOK, out)
}

// tutorialScript is a tutorial as the page reads it: its steps and check,
// and its table without the deal.
type tutorialScript struct {
	Game    string            `json:"game"`
	Players int               `json:"players"`
	Options map[string]string `json:"options"`
	Seat    engine.Seat       `json:"seat"`
	Bot     string            `json:"bot,omitempty"`
	Steps   []coach.Step      `json:"steps"`
	Check   []coach.Question  `json:"check"`
}

func (s *Server) getTutorial(w http.ResponseWriter, r *http.Request) {
	g, t, err := s.tutorialOf(r.PathValue("game"))
	if err != nil {
		writeError(w, err)
		return
	}
	setup, _ := t.Setup(g)
	writeJSON(w, http.StatusOK, tutorialScript{Game: g.Info().ID, Players: t.Players, Options: setup.Options,
		Seat: t.Seat, Bot: t.Bot, Steps: t.Steps, Check: t.Check})
}

// startTutorial makes a tutorial's match: the learner's seat joined, the
// others the script's bots, on the script's deal, with no clock to beat
// (no move limit, no takeover), and starting as the learner opens it.
func (s *Server) startTutorial(w http.ResponseWriter, r *http.Request) {
	g, t, err := s.tutorialOf(r.PathValue("game"))
	if err != nil {
		writeError(w, err)
		return
	}
	var body struct {
		Name string `json:"name"`
	}
	if err := s.decodeBody(w, r, &body, true); err != nil {
		writeError(w, err)
		return
	}
	seats := make([]match.SeatRequest, t.Players)
	for i := range seats {
		seats[i] = match.SeatRequest{Kind: match.Bot, Bot: t.Bot}
	}
	seats[t.Seat] = match.SeatRequest{Kind: match.Human, Name: body.Name, Joined: true}
	off := int64(0)
	seed, botSeed := t.Seed, t.BotSeed
	req := match.CreateRequest{Game: g.Info().ID, Players: t.Players, Options: t.Options, Seats: seats,
		TakeoverAfterMs: &off, MoveLimitMs: &off, BotDelayMs: t.BotDelayMs, AutoStart: true,
		Purpose: match.PurposeTutorial, Seed: &seed, BotSeed: &botSeed}
	s.createTeaching(w, r, req, "", "")
}

// createTeaching creates a table of the teaching side for the request's
// client, as createMatch does, and answers it; day, if set, enters it in
// that day's challenge under name.
func (s *Server) createTeaching(w http.ResponseWriter, r *http.Request, req match.CreateRequest, day, name string) {
	who := s.clientOf(r)
	if err := s.reserveMatch(who, time.Now()); err != nil {
		writeError(w, err)
		return
	}
	req.Owner = string(who)
	c, err := s.mgr.Create(r.Context(), req)
	if err == nil && day != "" {
		if err = s.store.AddDailyEntry(r.Context(), day, req.Game, c.Match.ID, name, time.Now()); err != nil {
			s.log.Error("cannot enter a match in the daily challenge", "match", c.Match.ID, "err", err)
			err = &match.Error{Code: match.CodeUnavailable, Message: "The server could not enter the match in the day's challenge; try again."}
		}
	}
	if err != nil {
		if c == nil {
			s.matchEnded("", string(who))
		}
		writeError(w, err)
		return
	}
	s.metrics.created.Inc()
	writeJSON(w, http.StatusCreated, createdOf(c))
}

// today is the day of the daily challenge now: the date in UTC.
func today() string {
	return time.Now().Add(time.Duration(dailyShift.Load())).UTC().Format(time.DateOnly)
}

// dailyShift moves the daily challenge's clock (the tests go to the next
// day with it).
var dailyShift atomic.Int64

// dailyTable is the table of game g's daily challenge.
func dailyTable(g engine.Game) coach.Table {
	if c, ok := g.(coach.Challenger); ok {
		return c.DailyTable()
	}
	return coach.Table{Players: g.Info().MinPlayers, Seat: 0, Bot: "medium"}
}

// dailyOf returns the day's challenge of game g, drawing its deal if it
// has none yet (the first node to ask sets it for everyone).
func (s *Server) dailyOf(ctx context.Context, g engine.Game, day string) (store.Daily, error) {
	var b [16]byte
	_, _ = rand.Read(b[:])
	d, err := s.store.DailySeed(ctx, store.Daily{Day: day, Game: g.Info().ID,
		Seed: binary.LittleEndian.Uint64(b[:8]), BotSeed: binary.LittleEndian.Uint64(b[8:])})
	if err != nil {
		s.log.Error("cannot read the daily challenge", "game", g.Info().ID, "err", err)
		return d, &match.Error{Code: match.CodeUnavailable, Message: "The server could not read the day's challenge; try again."}
	}
	return d, nil
}

// DailyChallenge is one game's challenge of the day, as GET /api/daily
// lists it.
type DailyChallenge struct {
	Game    string            `json:"game"`
	Players int               `json:"players"`
	Options map[string]string `json:"options"`
	Seat    engine.Seat       `json:"seat"`
	Bot     string            `json:"bot,omitempty"`
	Entries int               `json:"entries"`
}

func (s *Server) getDailies(w http.ResponseWriter, r *http.Request) {
	day := today()
	out := struct {
		Day        string           `json:"day"`
		Challenges []DailyChallenge `json:"challenges"`
	}{Day: day, Challenges: []DailyChallenge{}}
	for _, g := range s.mgr.Games() {
		t := dailyTable(g)
		opts, err := g.Info().Check(engine.Setup{Players: t.Players, Options: t.Options})
		if err != nil {
			continue
		}
		es, err := s.store.DailyEntries(r.Context(), day, g.Info().ID, dailyMax)
		if err != nil {
			writeError(w, &match.Error{Code: match.CodeUnavailable, Message: "The server could not read the day's challenge; try again."})
			return
		}
		out.Challenges = append(out.Challenges, DailyChallenge{Game: g.Info().ID, Players: t.Players, Options: opts,
			Seat: t.Seat, Bot: t.Bot, Entries: len(es)})
	}
	writeJSON(w, http.StatusOK, out)
}

// enterDaily makes the caller's match of the day's challenge of a game:
// signed in, under their account's name, once a day; a guest under the
// name they give, which must not be on the day's table yet.
func (s *Server) enterDaily(w http.ResponseWriter, r *http.Request) {
	g, err := s.mgr.Game(r.PathValue("game"))
	if err != nil {
		writeError(w, err)
		return
	}
	var body struct {
		Name string `json:"name"`
	}
	if err := s.decodeBody(w, r, &body, true); err != nil {
		writeError(w, err)
		return
	}
	me := s.who(r)
	if me != "" {
		a, err := s.acc.Player(r.Context(), me)
		if err != nil {
			writeError(w, accountError(err))
			return
		}
		body.Name = a.Name
	}
	name, err := match.CheckName(body.Name)
	if err == nil && name == "" {
		err = &match.Error{Code: match.CodeBadName, Message: "The day's table lists its players by name: give one."}
	}
	if err != nil {
		writeError(w, err)
		return
	}
	day := today()
	es, err := s.store.DailyEntries(r.Context(), day, g.Info().ID, dailyMax)
	if err != nil {
		writeError(w, &match.Error{Code: match.CodeUnavailable, Message: "The server could not read the day's challenge; try again."})
		return
	}
	for _, e := range es {
		if me != "" && slices.ContainsFunc(e.Match.Seats, func(st store.Seat) bool { return st.Account == me }) {
			writeError(w, &match.Error{Code: CodeDailyPlayed, Message: "You have played today's challenge of this game already: a new deal comes tomorrow."})
			return
		}
		if strings.EqualFold(e.Name, name) {
			writeError(w, &match.Error{Code: CodeDailyName, Message: "This name is on today's table already: choose another."})
			return
		}
	}
	d, err := s.dailyOf(r.Context(), g, day)
	if err != nil {
		writeError(w, err)
		return
	}
	t := dailyTable(g)
	seats := make([]match.SeatRequest, t.Players)
	for i := range seats {
		seats[i] = match.SeatRequest{Kind: match.Bot, Bot: t.Bot}
	}
	seats[t.Seat] = match.SeatRequest{Kind: match.Human, Name: name, Joined: true, Account: me}
	req := match.CreateRequest{Game: g.Info().ID, Players: t.Players, Options: t.Options, Seats: seats,
		BotDelayMs: dailyBotDelay(g), AutoStart: true, Purpose: match.PurposeDaily, Day: day,
		Seed: &d.Seed, BotSeed: &d.BotSeed, Account: me}
	s.createTeaching(w, r, req, day, name)
}

// dailyBotDelay is how long the daily challenge's bots wait before each
// move: what the lobby's tables against bots wait, so that the player sees
// them play (real-time bots keep their own pace).
func dailyBotDelay(g engine.Game) int64 {
	if g.Info().Timing == engine.RealTime {
		return 0
	}
	return 1000
}

// DailyEntry is one match of a day's challenge, as its table shows it.
type DailyEntry struct {
	// Rank is the entry's place on the table, from 1 (equal results
	// share it); 0 for a match not finished.
	Rank    int          `json:"rank"`
	Name    string       `json:"name"`
	Account string       `json:"account,omitempty"`
	Match   string       `json:"match"`
	Status  store.Status `json:"status"`
	// Won, Place and Score are the player's in the outcome; Moves the
	// match's records and ClockMs its match time at the end.
	Won     bool          `json:"won"`
	Place   int           `json:"place,omitempty"`
	Score   int           `json:"score"`
	Moves   int           `json:"moves"`
	ClockMs engine.Millis `json:"clock_ms"`
}

func (s *Server) getDaily(w http.ResponseWriter, r *http.Request) {
	g, err := s.mgr.Game(r.PathValue("game"))
	if err != nil {
		writeError(w, err)
		return
	}
	day := r.URL.Query().Get("day")
	if day == "" {
		day = today()
	}
	if d, err := time.Parse(time.DateOnly, day); err != nil || d.Format(time.DateOnly) != day || day > today() {
		writeError(w, &match.Error{Code: CodeBadDay, Message: "day is a date as YYYY-MM-DD, today or before."})
		return
	}
	es, err := s.store.DailyEntries(r.Context(), day, g.Info().ID, dailyMax)
	if err != nil {
		writeError(w, &match.Error{Code: match.CodeUnavailable, Message: "The server could not read the day's challenge; try again."})
		return
	}
	t := dailyTable(g)
	out := struct {
		Day     string       `json:"day"`
		Game    string       `json:"game"`
		By      string       `json:"by"`
		Entries []DailyEntry `json:"entries"`
	}{Day: day, Game: g.Info().ID, By: "moves", Entries: []DailyEntry{}}
	if g.Info().Timing == engine.RealTime {
		out.By = "clock"
	}
	for _, e := range es {
		m := e.Match
		de := DailyEntry{Name: e.Name, Match: m.ID, Status: m.Status, Moves: m.Records, ClockMs: m.Clock}
		if int(t.Seat) < len(m.Seats) && !m.Seats[t.Seat].Deleted {
			de.Account = m.Seats[t.Seat].Account
		}
		if o := m.Outcome; o != nil && m.Status == store.Finished {
			de.Won = o.Won(t.Seat)
			if int(t.Seat) < len(o.Ranks) {
				de.Place = o.Ranks[t.Seat]
			}
			if int(t.Seat) < len(o.Scores) {
				de.Score = o.Scores[t.Seat]
			}
		}
		out.Entries = append(out.Entries, de)
	}
	rankDaily(out.Entries, out.By == "clock")
	writeJSON(w, http.StatusOK, out)
}

// rankDaily orders a day's table and ranks its finished matches: a win
// before a loss; among wins, more points (a total victory before a
// partial one), then the quicker (match time in real time, fewer moves
// otherwise); among losses, the better place, then more points, then the
// longer held out. Equal results share a rank; matches not finished come
// last, unranked, in the order they entered.
func rankDaily(es []DailyEntry, clock bool) {
	length := func(e DailyEntry) int64 {
		if clock {
			return int64(e.ClockMs)
		}
		return int64(e.Moves)
	}
	cmp := func(a, b DailyEntry) int {
		af, bf := a.Status == store.Finished, b.Status == store.Finished
		switch {
		case af != bf:
			if af {
				return -1
			}
			return 1
		case !af:
			return 0
		case a.Won != b.Won:
			if a.Won {
				return -1
			}
			return 1
		case a.Won && a.Score != b.Score:
			return compare(int64(b.Score), int64(a.Score))
		case a.Won:
			return compare(length(a), length(b))
		case a.Place != b.Place:
			return compare(int64(a.Place), int64(b.Place))
		case a.Score != b.Score:
			return compare(int64(b.Score), int64(a.Score))
		}
		return compare(length(b), length(a))
	}
	slices.SortStableFunc(es, cmp)
	for i := range es {
		switch {
		case es[i].Status != store.Finished:
		case i > 0 && cmp(es[i-1], es[i]) == 0:
			es[i].Rank = es[i-1].Rank
		default:
			es[i].Rank = i + 1
		}
	}
}

func compare(a, b int64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// dailyGate refuses a read of match id that would show a deal of today's
// challenge (its views, its log, its seed) to anyone but the match's
// player: their seat's token, or their account. Other matches pass.
func (s *Server) dailyGate(r *http.Request, id string) error {
	rec, err := s.store.Get(r.Context(), id)
	if err != nil {
		return nil // (the handler says what is wrong)
	}
	if set := match.Summarize(rec).Settings; set.Purpose != match.PurposeDaily || set.Day < today() {
		return nil
	}
	t, me := tokenOf(r), s.who(r)
	for _, st := range rec.Seats {
		if st.Kind != match.Human {
			continue
		}
		if t != "" && len(st.TokenHash) > 0 && subtle.ConstantTimeCompare(match.HashToken(t), st.TokenHash) == 1 || me != "" && st.Account == me {
			return nil
		}
	}
	return &match.Error{Code: CodeDailySecret, Message: "This match belongs to today's challenge: until the day is over, only its player sees it."}
}

// hideDailySeed takes the seed out of a replay of today's challenge: its
// player sees the match, and the deal stays the day's secret.
func hideDailySeed(rp *match.Replay) any {
	if set := rp.Match.Settings; set.Purpose != match.PurposeDaily || set.Day < today() {
		return rp
	}
	type setup struct {
		Players int               `json:"players"`
		Options map[string]string `json:"options,omitempty"`
	}
	return struct {
		*match.Replay
		Setup setup `json:"setup"`
	}{rp, setup{rp.Setup.Players, rp.Setup.Options}}
}
