// Play now (docs/api.md, "Play now"): a signed-in player asks for a table
// of a game and is seated with strangers of near rating, or with bots after
// a wait, by the matchmaker (internal/matchmaker).
//
// A ticket is stored from the moment it is asked for, and only its hash: a
// node's death loses no waiting player. Every node runs the wave loop, but
// only the holder of the store's "matchmaker" lock pairs, so one node at a
// time seats players; another takes the lock over within a few waves of its
// holder's death. A table is created with every seat filled and joined, then
// its tickets are marked matched, all or none: a node killed in between
// leaves a table nobody plays (it expires) and tickets still waiting, which
// the next wave seats again.
//
// The seat's token is never stored: it is derived from the ticket's secret,
// which only the player holds, and the table is made with its hash. The
// player also holds the seat with their account, and may play it signed in.

package server

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"sortie/bot"
	"sortie/engine"
	"sortie/internal/match"
	"sortie/internal/matchmaker"
	"sortie/internal/rating"
	"sortie/internal/store"
)

// Codes of the refusals of Play now.
const (
	CodeUnknownTicket = "unknown_ticket" // no such ticket of the player's
	CodeTicketMatched = "ticket_matched" // the player was seated already
	CodePlayOff       = "play_off"       // the store keeps no tickets
)

// Limits of a Play now request.
const (
	defaultBotFill = 30 * time.Second
	maxBotFill     = 10 * time.Minute
)

// PlayRequest is the body of POST /api/play.
type PlayRequest struct {
	Game    string `json:"game"`
	Players int    `json:"players"`
	// PlayersMax, above Players, asks for a table of any number of players
	// from Players to it.
	PlayersMax int `json:"players_max,omitempty"`
	// Mode is the game's "mode" option ("" for its default, or a game
	// without modes).
	Mode string `json:"mode,omitempty"`
	// Rated defaults to true.
	Rated *bool `json:"rated,omitempty"`
	// BotFillAfterMs is how long the player waits before bots fill the
	// empty seats: 30,000 by default, at most ten minutes.
	BotFillAfterMs *int64 `json:"bot_fill_after_ms,omitempty"`
	HumansOnly     bool   `json:"humans_only,omitempty"`
	// Clock is "live" (the default) or "correspondence", for the games
	// played turn by turn; MoveLimitMs is then the correspondence table's
	// move limit, a day by default (as at POST /api/matches).
	Clock       string `json:"clock,omitempty"`
	MoveLimitMs *int64 `json:"move_limit_ms,omitempty"`
}

// TicketOut is a ticket as GET /api/play/{ticket} shows it.
type TicketOut struct {
	Ticket     string          `json:"ticket"`
	Status     string          `json:"status"`
	Pool       matchmaker.Pool `json:"pool"`
	HumansOnly bool            `json:"humans_only"`
	BotFillMs  int64           `json:"bot_fill_after_ms"`
	WaitedMs   int64           `json:"waited_ms"`
	// Waiting is how many players wait now who could sit at the ticket's
	// table (the same pool and a number of players they also asked for),
	// the player among them; 0 once the ticket stopped waiting.
	Waiting int `json:"waiting"`
	// Match, Seat and Token are set once matched: the seat's token acts
	// for the seat as an invite's would.
	Match string       `json:"match,omitempty"`
	Seat  *engine.Seat `json:"seat,omitempty"`
	Token string       `json:"token,omitempty"`
}

// PoolOut is one pool's waiting count.
type PoolOut struct {
	matchmaker.Pool
	Waiting int `json:"waiting"`
}

// playNode is Play now on this node.
type playNode struct {
	store   store.Tickets
	config  matchmaker.Config
	wave    time.Duration
	name    string
	kick    chan struct{}
	stop    chan struct{}
	done    chan struct{}
	started bool
	pruned  time.Time // when the tickets were last pruned
}

// openPlay sets Play now up when the server keeps accounts in a store that
// keeps tickets.
func (s *Server) openPlay() {
	st, ok := s.store.(store.Tickets)
	if s.acc == nil || !ok {
		return
	}
	wave := s.cfg.PlayWave
	if wave <= 0 {
		wave = time.Second
	}
	name := s.node
	if name == "" {
		name = "single"
	}
	s.play = &playNode{store: st, config: matchmaker.Defaults(), wave: wave, name: name,
		kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{})}
}

func (s *Server) startPlay() {
	if s.play == nil || s.play.started {
		return
	}
	s.play.started = true
	go s.playLoop()
}

func (s *Server) stopPlay() {
	p := s.play
	if p == nil || !p.started {
		return
	}
	select {
	case <-p.stop:
		return
	default:
	}
	close(p.stop)
	select {
	case <-p.done:
	case <-time.After(5 * time.Second):
	}
}

func (s *Server) kickPlay() {
	if s.play == nil {
		return
	}
	select {
	case s.play.kick <- struct{}{}:
	default:
	}
}

// playLoop runs a wave every PlayWave (and when a ticket comes) while this
// node holds the matchmaker's lock.
func (s *Server) playLoop() {
	p := s.play
	defer close(p.done)
	t := time.NewTicker(p.wave)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case <-t.C:
		case <-p.kick:
		}
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		held, err := p.store.TakeLock(ctx, "matchmaker", p.name, 3*p.wave+2*time.Second)
		if err != nil {
			s.log.Warn("cannot take the matchmaker's lock", "err", err)
		}
		if held {
			s.wave(ctx)
			if time.Since(p.pruned) > time.Minute {
				// Tickets a day past their end tell nobody anything more.
				p.pruned = time.Now()
				if _, err := p.store.PruneTickets(ctx, time.Now().Add(-24*time.Hour), 1000); err != nil {
					s.log.Warn("cannot prune Play now's tickets", "err", err)
				}
			}
		}
		cancel()
	}
}

// wave seats the players that can be seated now.
func (s *Server) wave(ctx context.Context) {
	p := s.play
	tickets, err := p.store.WaitingTickets(ctx)
	if err != nil || len(tickets) == 0 {
		return
	}
	byID := map[string]*store.Ticket{}
	var waiting []matchmaker.Player
	for _, t := range tickets {
		id := string(t.Hash)
		byID[id] = t
		waiting = append(waiting, matchmaker.Player{ID: id, Pool: poolOf(t), Mu: t.Mu, Since: t.Created,
			BotFill: t.BotFill, HumansOnly: t.HumansOnly, Leaver: t.Leaver})
	}
	levels := map[matchmaker.Pool][]matchmaker.Level{}
	for _, table := range p.config.Pair(waiting, func(pool matchmaker.Pool) []matchmaker.Level {
		if l, ok := levels[pool]; ok {
			return l
		}
		levels[pool] = s.botLevels(ctx, pool)
		return levels[pool]
	}, time.Now()) {
		if err := s.seat(ctx, table, byID); err != nil {
			s.log.Warn("cannot seat a Play now table", "game", table.Pool.Game, "err", err)
		}
	}
}

// botLevelPriors are the bot levels' μ for pairing while a level has no
// rating of its own in a game and family.
var botLevelPriors = map[string]float64{"easy": 18, "medium": 25, "hard": 31}

// botLevels returns the bot levels with their ratings in a pool's game and
// family (the priors for those not rated yet).
func (s *Server) botLevels(ctx context.Context, pool matchmaker.Pool) []matchmaker.Level {
	var out []matchmaker.Level
	rated := map[string]float64{}
	if v, ok := s.mgr.RatedVariant(pool.Game, setupOf(pool)); ok && s.rater != nil {
		var ids []string
		for _, l := range bot.Levels {
			ids = append(ids, store.BotPlayer+l)
		}
		if rs, err := s.rater.store.PlayerRatings(ctx, pool.Game, string(v.Family), ids); err == nil {
			for _, r := range rs {
				if !s.rater.model.IsUncertain(rating.Rating{Mu: r.Mu, Sigma: r.Sigma}) {
					rated[r.Player[len(store.BotPlayer):]] = r.Mu
				}
			}
		}
	}
	for _, l := range bot.Levels {
		mu, ok := rated[l]
		if !ok {
			mu = botLevelPriors[l]
		}
		out = append(out, matchmaker.Level{Name: l, Mu: mu})
	}
	return out
}

func poolOf(t *store.Ticket) matchmaker.Pool {
	p := matchmaker.Pool{Game: t.Game, Players: t.Players, PlayersMax: t.PlayersMax, Mode: t.Mode, Rated: t.Rated, Clock: match.ClockLive}
	if t.MoveLimitMs > 0 {
		p.Clock, p.MoveLimitMs = match.ClockCorrespondence, t.MoveLimitMs
	}
	return p
}

func setupOf(p matchmaker.Pool) engine.Setup {
	su := engine.Setup{Players: p.Players}
	if p.Mode != "" {
		su.Options = map[string]string{"mode": p.Mode}
	}
	return su
}

// seat creates a wave's table and marks its tickets matched.
func (s *Server) seat(ctx context.Context, table matchmaker.Table, byID map[string]*store.Ticket) error {
	req := match.CreateRequest{Game: table.Pool.Game, Players: table.Pool.Players, AutoStart: true}
	if table.Pool.Rated {
		off := false
		req.Hints = &off // (never hints in a rated match, even against bots)
	}
	if table.Pool.Mode != "" {
		req.Options = map[string]string{"mode": table.Pool.Mode}
	}
	if table.Pool.Clock == match.ClockCorrespondence {
		limit := table.Pool.MoveLimitMs
		req.Clock, req.MoveLimitMs = match.ClockCorrespondence, &limit
	}
	var hashes [][]byte
	var seats []int
	for i, pl := range table.Players {
		t := byID[pl.ID]
		req.Seats = append(req.Seats, match.SeatRequest{Kind: match.Human, Name: t.Name, Account: t.Account, TokenHash: t.TokenHash, Joined: true})
		hashes, seats = append(hashes, t.Hash), append(seats, i)
	}
	for range table.Bots {
		req.Seats = append(req.Seats, match.SeatRequest{Kind: match.Bot, Bot: table.Level})
	}
	c, err := s.mgr.Create(ctx, req)
	if err != nil {
		return err
	}
	id := c.Match.ID
	if !table.Pool.Rated && s.rater != nil {
		err = s.rater.store.RecordRating(ctx, &store.MatchRating{Match: id, Reason: UnratedCasual, Game: table.Pool.Game, At: time.Now()})
	}
	if err == nil {
		err = s.play.store.MatchTickets(ctx, id, hashes, seats, time.Now())
	}
	if err != nil {
		// A player cancelled meanwhile (or the store failed): nobody
		// plays this table, and the others wait for the next wave.
		_, _ = s.mgr.Close(ctx, id, c.HostToken, "")
		if errors.Is(err, store.ErrConflict) {
			return nil
		}
		return err
	}
	return nil
}

// newTicket returns a ticket's secret and its hash.
func newTicket() (string, []byte) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic("server: no randomness: " + err.Error())
	}
	t := base64.RawURLEncoding.EncodeToString(b[:])
	return t, match.HashToken(t)
}

// seatToken is the token of the seat a ticket's player gets: derived from
// the ticket's secret, so that only its holder knows it.
func seatToken(ticket string) string {
	h := sha256.Sum256([]byte("sortie play now seat\x00" + ticket))
	return base64.RawURLEncoding.EncodeToString(h[:16])
}

// needPlay refuses the request on a server without Play now.
func (s *Server) needPlay(h http.HandlerFunc) http.HandlerFunc {
	return s.needAccounts(func(w http.ResponseWriter, r *http.Request) {
		if s.play == nil {
			writeError(w, &match.Error{Code: CodePlayOff, Message: "This server offers no Play now."})
			return
		}
		h(w, r)
	})
}

// postPlay serves POST /api/play.
func (s *Server) postPlay(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	a, err := s.acc.Me(ctx)
	if err != nil {
		writeError(w, accountError(err))
		return
	}
	var req PlayRequest
	if err := s.decodeBody(w, r, &req, false); err != nil {
		writeError(w, err)
		return
	}
	g, err := s.mgr.Game(req.Game)
	if err != nil {
		writeError(w, err)
		return
	}
	pool := matchmaker.Pool{Game: req.Game, Players: req.Players, Mode: req.Mode, Rated: req.Rated == nil || *req.Rated, Clock: match.ClockLive}
	if req.PlayersMax > req.Players {
		pool.PlayersMax = req.PlayersMax
	}
	if err := playPlayers(g.Info(), req, pool); err != nil {
		writeError(w, err)
		return
	}
	if err := playClock(g.Info(), req, &pool); err != nil {
		writeError(w, err)
		return
	}
	fill := defaultBotFill
	if req.BotFillAfterMs != nil {
		if *req.BotFillAfterMs < 0 || time.Duration(*req.BotFillAfterMs)*time.Millisecond > maxBotFill {
			writeError(w, &match.Error{Code: match.CodeBadParameters, Message: "bot_fill_after_ms is between 0 and 600000 (ten minutes)."})
			return
		}
		fill = time.Duration(*req.BotFillAfterMs) * time.Millisecond
	}
	secret, hash := newTicket()
	t := &store.Ticket{Hash: hash, Account: a.ID, Name: a.Name, Game: req.Game, Players: req.Players, Mode: req.Mode,
		PlayersMax: pool.PlayersMax, Rated: pool.Rated, HumansOnly: req.HumansOnly, BotFill: fill, MoveLimitMs: pool.MoveLimitMs,
		TokenHash: match.HashToken(seatToken(secret)), Created: time.Now()}
	t.Mu, t.Sigma = s.ratingFor(ctx, a.ID, pool)
	t.Leaver = s.leaves(ctx, a.ID)
	if err := s.play.store.PutTicket(ctx, t); err != nil {
		writeError(w, accountError(err))
		return
	}
	s.kickPlay()
	out, err := s.ticketOut(ctx, secret, t)
	if err != nil {
		writeError(w, accountError(err))
		return
	}
	writeJSON(w, http.StatusAccepted, out)
}

// playPlayers checks the number of players a Play now request asks for:
// each number of its range is a table the game accepts.
func playPlayers(info engine.Info, req PlayRequest, pool matchmaker.Pool) error {
	bad := func(err error) error {
		return &match.Error{Code: match.CodeBadSetup, Message: "That table does not fit the game: " + errText(err, "give a number of players") + "."}
	}
	if req.Players == 0 {
		return bad(nil)
	}
	if req.PlayersMax != 0 && req.PlayersMax < req.Players {
		return bad(fmt.Errorf("players_max (%d) is below players (%d)", req.PlayersMax, req.Players))
	}
	lo, hi := pool.Span()
	for n := lo; n <= hi; n++ {
		at := pool
		at.Players = n
		if _, err := info.Check(setupOf(at)); err != nil {
			return bad(err)
		}
	}
	return nil
}

// playClock checks the clock a Play now request asks for and sets it in
// pool: a correspondence table has the move limits and the games of
// POST /api/matches.
func playClock(info engine.Info, req PlayRequest, pool *matchmaker.Pool) error {
	switch req.Clock {
	case "", match.ClockLive:
		if req.MoveLimitMs != nil {
			return &match.Error{Code: match.CodeBadParameters, Message: "A live Play now table has the game's own move limit: move_limit_ms is for \"clock\": \"correspondence\"."}
		}
		return nil
	case match.ClockCorrespondence:
	default:
		return &match.Error{Code: match.CodeBadParameters, Message: fmt.Sprintf("The clock is %q or %q, not %q.", match.ClockLive, match.ClockCorrespondence, req.Clock)}
	}
	c := match.CorrespondenceFor(info.Timing)
	if c == nil {
		return &match.Error{Code: match.CodeNoCorrespondence, Message: info.Name["en"] + " is played in real time: it has no correspondence tables."}
	}
	pool.Clock, pool.MoveLimitMs = match.ClockCorrespondence, c.MoveLimitsMs[0]
	if req.MoveLimitMs != nil {
		if !slices.Contains(c.MoveLimitsMs, *req.MoveLimitMs) {
			return &match.Error{Code: match.CodeBadParameters, Message: "A correspondence table gives 1, 2, 3 or 7 days a move: move_limit_ms is 86400000, 172800000, 259200000 or 604800000."}
		}
		pool.MoveLimitMs = *req.MoveLimitMs
	}
	return nil
}

func errText(err error, otherwise string) string {
	if err != nil {
		return err.Error()
	}
	return otherwise
}

// ratingFor is a player's rating in a pool's game and family, or a new
// one's.
func (s *Server) ratingFor(ctx context.Context, account string, pool matchmaker.Pool) (float64, float64) {
	m := rating.Default()
	if s.rater == nil {
		return m.Mu0, m.Sigma0
	}
	if v, ok := s.mgr.RatedVariant(pool.Game, setupOf(pool)); ok {
		if rs, err := s.rater.store.PlayerRatings(ctx, pool.Game, string(v.Family), []string{account}); err == nil && len(rs) == 1 {
			return rs[0].Mu, rs[0].Sigma
		}
	}
	return m.Mu0, m.Sigma0
}

// leaves reports whether a player left at least two of their matches over
// the last 30 days, and at least one in five.
func (s *Server) leaves(ctx context.Context, account string) bool {
	p := Profile{ID: account}
	if err := s.profileRatings(ctx, &p); err != nil {
		return false
	}
	r := p.Reputation
	return r.Left >= 2 && 5*r.Left >= r.Left+r.Finished
}

// ticketOf reads the request's ticket, the signed-in player's.
func (s *Server) ticketOf(r *http.Request) (string, *store.Ticket, error) {
	me := s.who(r)
	if me == "" {
		_, err := s.acc.Me(r.Context())
		return "", nil, accountError(err)
	}
	secret := r.PathValue("ticket")
	t, err := s.play.store.Ticket(r.Context(), match.HashToken(secret))
	if errors.Is(err, store.ErrNotFound) || err == nil && t.Account != me {
		return "", nil, &match.Error{Code: CodeUnknownTicket, Message: "You have no such ticket."}
	}
	if err != nil {
		return "", nil, accountError(err)
	}
	return secret, t, nil
}

// ticketOut is a ticket as the API shows it.
func (s *Server) ticketOut(ctx context.Context, secret string, t *store.Ticket) (TicketOut, error) {
	out := TicketOut{Ticket: secret, Status: t.Status, Pool: poolOf(t), HumansOnly: t.HumansOnly, BotFillMs: t.BotFill.Milliseconds()}
	if out.Status == "" {
		out.Status = store.TicketWaiting
	}
	end := time.Now()
	if !t.Done.IsZero() {
		end = t.Done
	}
	out.WaitedMs = max(0, end.Sub(t.Created).Milliseconds())
	if t.Status == store.TicketMatched {
		seat := engine.Seat(t.Seat)
		out.Match, out.Seat, out.Token = t.Match, &seat, seatToken(secret)
	}
	if out.Status == store.TicketWaiting {
		ts, err := s.play.store.WaitingTickets(ctx)
		if err != nil {
			return out, err
		}
		for _, o := range ts {
			if poolOf(o).Meets(out.Pool) {
				out.Waiting++
			}
		}
	}
	return out, nil
}

// pools counts the players waiting in each pool.
func (s *Server) pools(ctx context.Context) ([]PoolOut, error) {
	ts, err := s.play.store.WaitingTickets(ctx)
	if err != nil {
		return nil, err
	}
	out := []PoolOut{}
	for _, t := range ts {
		p := poolOf(t)
		if i := slices.IndexFunc(out, func(o PoolOut) bool { return o.Pool == p }); i >= 0 {
			out[i].Waiting++
			continue
		}
		out = append(out, PoolOut{Pool: p, Waiting: 1})
	}
	return out, nil
}

// getTicket serves GET /api/play/{ticket}.
func (s *Server) getTicket(w http.ResponseWriter, r *http.Request) {
	secret, t, err := s.ticketOf(r)
	if err != nil {
		writeError(w, err)
		return
	}
	out, err := s.ticketOut(r.Context(), secret, t)
	if err != nil {
		writeError(w, accountError(err))
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// deleteTicket serves DELETE /api/play/{ticket}: the player stops waiting.
func (s *Server) deleteTicket(w http.ResponseWriter, r *http.Request) {
	secret, t, err := s.ticketOf(r)
	if err != nil {
		writeError(w, err)
		return
	}
	err = s.play.store.CancelTicket(r.Context(), t.Hash, t.Account, time.Now())
	if errors.Is(err, store.ErrConflict) {
		writeError(w, &match.Error{Code: CodeTicketMatched, Message: "You were seated already: the table waits for you."})
		return
	}
	if err != nil {
		writeError(w, accountError(err))
		return
	}
	if t, err = s.play.store.Ticket(r.Context(), t.Hash); err != nil {
		writeError(w, accountError(err))
		return
	}
	out, err := s.ticketOut(r.Context(), secret, t)
	if err != nil {
		writeError(w, accountError(err))
		return
	}
	writeJSON(w, http.StatusOK, out)
}

// getPools serves GET /api/play/pools: how many wait in each pool.
func (s *Server) getPools(w http.ResponseWriter, r *http.Request) {
	ps, err := s.pools(r.Context())
	if err != nil {
		writeError(w, accountError(err))
		return
	}
	writeJSON(w, http.StatusOK, struct {
		Pools []PoolOut `json:"pools"`
	}{ps})
}
