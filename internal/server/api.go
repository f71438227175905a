package server

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	jsonv2 "github.com/go-json-experiment/json"

	"sortie/bot"
	"sortie/engine"
	"sortie/internal/match"
	"sortie/internal/store"
)

// Codes of the server's own refusals (the match package has the others).
const (
	CodeNotFound    = "not_found"              // no such endpoint
	CodeMalformed   = "malformed"              // the body or message is not the JSON expected
	CodeTooLarge    = "too_large"              // a body or message is over its limit
	CodeRateLimited = "rate_limited"           // too many messages on this socket
	CodeNoToken     = match.CodeNoToken        // the request needs a token
	CodeSpectator   = "spectator"              // spectators cannot act
	CodeUnsupported = "unsupported_msg"        // a binary socket message
	CodeMediaType   = "unsupported_media_type" // a request body that is not application/json
	CodeForbidden   = "forbidden"              // an operator's page asked without the right to read it
)

// statusOf maps refusal codes to HTTP statuses. Rule refusals of games (not
// listed) are 409 Conflict.
var statusOf = map[string]int{
	CodeNotFound:            http.StatusNotFound,
	CodeMalformed:           http.StatusBadRequest,
	CodeTooLarge:            http.StatusRequestEntityTooLarge,
	CodeRateLimited:         http.StatusTooManyRequests,
	CodeNoToken:             http.StatusUnauthorized,
	match.CodeUnknownGame:   http.StatusNotFound,
	match.CodeUnknownMatch:  http.StatusNotFound,
	match.CodeUnknownSeat:   http.StatusNotFound,
	match.CodeBadSetup:      http.StatusBadRequest,
	match.CodeUnknownBot:    http.StatusBadRequest,
	match.CodeBadName:       http.StatusBadRequest,
	match.CodeBadParameters: http.StatusBadRequest,
	match.CodeBadToken:      http.StatusForbidden,
	match.CodeNotHuman:      http.StatusConflict,
	match.CodeNotStarted:    http.StatusConflict,
	match.CodeStarted:       http.StatusConflict,
	match.CodeFinished:      http.StatusConflict,
	match.CodeNotFinished:   http.StatusConflict,
	match.CodeUnavailable:   http.StatusServiceUnavailable,
	match.CodePending:       http.StatusServiceUnavailable,
	match.CodeMatchFailed:   http.StatusConflict,
	match.CodeMatchClosed:   http.StatusConflict,
	match.CodeServerFull:    http.StatusServiceUnavailable,
	engine.CodeNotYourTurn:  http.StatusConflict,
	engine.CodeGameOver:     http.StatusConflict,
	match.CodeStaleSeq:      http.StatusConflict,
	match.CodeFutureSeq:     http.StatusConflict,
	CodeMediaType:           http.StatusUnsupportedMediaType,
	CodeTooManyMatches:      http.StatusTooManyRequests,
	CodeTooManySockets:      http.StatusTooManyRequests,
	CodeTooManyConns:        http.StatusTooManyRequests,
	CodeServerBusy:          http.StatusServiceUnavailable,
	CodeTimeout:             http.StatusRequestTimeout,
	CodeForbidden:           http.StatusForbidden,
	CodeUnknownTicket:       http.StatusNotFound,
	CodeTicketMatched:       http.StatusConflict,
	CodePlayOff:             http.StatusNotFound,
	match.CodeHintsOff:      http.StatusForbidden,
	match.CodeHintsClock:    http.StatusConflict,
	match.CodeHintBusy:      http.StatusTooManyRequests,
	match.CodeNoReview:      http.StatusConflict,

	match.CodeNoCorrespondence: http.StatusBadRequest,
}

// ErrorBody is the JSON of every refused request: {"error":{"code","message"}}.
type ErrorBody struct {
	Error *match.Error `json:"error"`
}

func writeError(w http.ResponseWriter, err error) {
	e := match.AsError(err)
	status, ok := statusOf[e.Code]
	if !ok {
		status = http.StatusConflict
	}
	var le *limitError
	switch {
	case errors.As(err, &le):
		retryAfter(w, le.retry)
	case e.Code == match.CodeServerFull:
		retryAfter(w, time.Minute)
	case status == http.StatusServiceUnavailable || status == http.StatusTooManyRequests:
		// Whatever made the server refuse for now (a store slow to commit,
		// a node between owners) says when to come back too.
		retryAfter(w, time.Second)
	}
	writeJSON(w, status, ErrorBody{Error: e})
}

// decodeBody reads a JSON body strictly into v. An empty body leaves v as it
// is when empty is allowed.
func (s *Server) decodeBody(w http.ResponseWriter, r *http.Request, v any, empty bool) error {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.cfg.MaxBody))
	if err != nil {
		var mb *http.MaxBytesError
		if errors.As(err, &mb) {
			return &match.Error{Code: CodeTooLarge, Message: fmt.Sprintf("The request body is over %d bytes.", s.cfg.MaxBody)}
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return &match.Error{Code: CodeTimeout, Message: fmt.Sprintf("The request body did not arrive within %v.", s.cfg.ReadTimeout)}
		}
		return &match.Error{Code: CodeMalformed, Message: "The request body could not be read."}
	}
	trimmed := bytes.TrimSpace(body)
	if len(trimmed) == 0 {
		if empty {
			return nil
		}
		return &match.Error{Code: CodeMalformed, Message: "The request needs a JSON body."}
	}
	// A JSON content type keeps other sites' plain HTML forms out: browsers
	// send those without asking the server first.
	if mt, _, _ := mime.ParseMediaType(r.Header.Get("Content-Type")); mt != "application/json" {
		return &match.Error{Code: CodeMediaType, Message: "The request body must be sent as application/json."}
	}
	// Every body is an object: null or a list would leave v as it was and
	// be answered as if its fields were missing.
	if trimmed[0] != '{' {
		return &match.Error{Code: CodeMalformed, Message: "The request body must be a JSON object."}
	}
	return decodeStrict(body, v)
}

// decodeStrict decodes one JSON value into v, as docs/api.md promises:
// unknown fields, names in another case ("GAME" for "game"), a name given
// twice, invalid UTF-8, wrong types and anything after the value are refused.
// (encoding/json would match "GAME" to "game"; its successor, which this
// uses, matches names exactly.)
func decodeStrict(b []byte, v any) error {
	if err := jsonv2.Unmarshal(b, v, jsonv2.RejectUnknownMembers(true)); err != nil {
		return &match.Error{Code: CodeMalformed, Message: "The JSON is not what was expected: " + jsonProblem(err) + "."}
	}
	return nil
}

// jsonProblem says what was wrong with some JSON without quoting it at length.
func jsonProblem(err error) string {
	msg := err.Error()
	for _, p := range []string{"json: ", "jsontext: "} {
		msg = strings.TrimPrefix(msg, p)
	}
	if len(msg) > 200 {
		msg = msg[:200] + "…"
	}
	return msg
}

// tokenOf returns the token of a request: "Authorization: Bearer …" (the
// scheme in any case, as RFC 7235 has it) or, for sockets opened by
// browsers, the token query parameter.
func tokenOf(r *http.Request) string {
	if h := r.Header.Get("Authorization"); h != "" {
		scheme, t, ok := strings.Cut(strings.TrimSpace(h), " ")
		if ok && strings.EqualFold(scheme, "Bearer") {
			return strings.TrimSpace(t)
		}
		return ""
	}
	return r.URL.Query().Get("token")
}

// GameInfo is a game as the lobby lists it: its description and option
// schema, and the bots that can play it.
type GameInfo struct {
	engine.Info
	// Bots are the names of the policies that can play the game.
	Bots []string `json:"bots"`
	// Levels are the difficulty levels a seat may ask for instead of a
	// policy, weakest first.
	Levels []string `json:"levels"`
	// DefaultTimers are the time controls of a match created without any.
	DefaultTimers match.Timers `json:"default_timers"`
	// Correspondence is what the game's correspondence tables may have;
	// absent for a real-time game, which has none.
	Correspondence *match.Correspondence `json:"correspondence,omitempty"`
}

// levelNames are the difficulty levels the bot package may know; a level is
// offered when bot.Find finds it for the game.
var levelNames = []string{"easy", "medium", "hard"}

func gameInfo(g engine.Game) GameInfo {
	gi := GameInfo{Info: g.Info(), Bots: []string{}, Levels: []string{}}
	gi.DefaultTimers = match.DefaultTimers(gi.Timing)
	gi.Correspondence = match.CorrespondenceFor(gi.Timing)
	for _, p := range bot.Policies(g) {
		gi.Bots = append(gi.Bots, p.Name())
	}
	for _, l := range levelNames {
		if _, err := bot.Find(g, l); err == nil {
			gi.Levels = append(gi.Levels, l)
		}
	}
	return gi
}

func (s *Server) listGames(w http.ResponseWriter, r *http.Request) {
	out := struct {
		Games []GameInfo `json:"games"`
	}{Games: []GameInfo{}}
	for _, g := range s.mgr.Games() {
		out.Games = append(out.Games, gameInfo(g))
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) getGame(w http.ResponseWriter, r *http.Request) {
	g, err := s.mgr.Game(r.PathValue("game"))
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, gameInfo(g))
}

// CreatedSeat is one seat in the answer to a match creation.
type CreatedSeat struct {
	Seat engine.Seat `json:"seat"`
	Kind string      `json:"kind"`
	// Token is the seat's secret, shown only now; Invite is a link to send
	// to the seat's player, holding the token in its fragment (which
	// browsers never send to a server).
	Token  string `json:"token,omitempty"`
	Invite string `json:"invite,omitempty"`
}

// CreatedMatch is the answer to a match creation.
type CreatedMatch struct {
	Match     match.Summary `json:"match"`
	HostToken string        `json:"host_token"`
	Seats     []CreatedSeat `json:"seats"`
}

func (s *Server) createMatch(w http.ResponseWriter, r *http.Request) {
	// The client's limits come first: a throttled client costs no reading.
	who := s.clientOf(r)
	if err := s.reserveMatch(who, time.Now()); err != nil {
		writeError(w, err)
		return
	}
	req := match.CreateRequest{}
	err := s.decodeBody(w, r, &req, false)
	var c *match.Created
	if err == nil {
		req.Owner, req.Account = string(who), s.who(r)
		c, err = s.mgr.Create(r.Context(), req)
	}
	if err != nil {
		if c == nil { // not made: its place is free again
			s.matchEnded("", string(who))
		}
		writeError(w, err)
		return
	}
	s.metrics.created.Inc()
	if req.Account != "" {
		// Signed in, the host's seat, the first human one, is the
		// account's (held; the host joins it as before).
		for _, st := range c.Match.Seats {
			if st.Kind != match.Human {
				continue
			}
			_ = s.mgr.Use(r.Context(), c.Match.ID, func(x match.Handle) error {
				sum, err := x.Claim(r.Context(), st.Seat, req.Account)
				if err == nil {
					c.Match = sum
				}
				return err
			})
			break
		}
	}
	writeJSON(w, http.StatusCreated, createdOf(c))
}

// createdOf is the answer to a creation: the match, its host token, and
// each seat's token and invite link.
func createdOf(c *match.Created) CreatedMatch {
	out := CreatedMatch{Match: c.Match, HostToken: c.HostToken}
	for i, t := range c.Tokens {
		cs := CreatedSeat{Seat: engine.Seat(i), Kind: c.Match.Seats[i].Kind, Token: t}
		if t != "" {
			cs.Invite = "/play/" + c.Match.ID + "?seat=" + strconv.Itoa(i) + "#token=" + url.QueryEscape(t)
		}
		out.Seats = append(out.Seats, cs)
	}
	return out
}

// reads counts a read of matches against its client's allowance (see
// Config.ReadRate) before serving it, when it comes (see allowRead): reads
// rebuild states and read the store, and a client reading without pause
// would take the cores the matches under way need.
func (s *Server) reads(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		wait, err := s.allowRead(s.clientOf(r), time.Now())
		if err != nil {
			writeError(w, err)
			return
		}
		if wait > 0 {
			t := time.NewTimer(wait)
			select {
			case <-t.C:
			case <-r.Context().Done():
				t.Stop()
				return // the client left
			}
		}
		h(w, r)
	}
}

func (s *Server) listMatches(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := store.Filter{Game: q.Get("game"), Limit: 50}
	if v := q.Get("status"); v != "" {
		for _, st := range strings.Split(v, ",") {
			if !store.Status(st).Valid() || len(f.Statuses) == len(store.Statuses) {
				writeError(w, &match.Error{Code: match.CodeBadParameters,
					Message: "status is one of open, running, finished, expired, abandoned, failed and closed, or several separated by commas."})
				return
			}
			f.Statuses = append(f.Statuses, store.Status(st))
		}
	}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 500 {
			writeError(w, &match.Error{Code: match.CodeBadParameters, Message: "limit is a whole number from 1 to 500."})
			return
		}
		f.Limit = n
	}
	ms, err := s.mgr.List(r.Context(), f)
	if err != nil {
		writeError(w, err)
		return
	}
	// Tutorials and daily challenges are their players' own.
	ms = slices.DeleteFunc(ms, func(m match.Summary) bool { return m.Settings.Purpose != "" })
	for i := range ms {
		s.rateSummary(r.Context(), &ms[i], false)
	}
	writeJSON(w, http.StatusOK, struct {
		Matches []match.Summary `json:"matches"`
	}{append([]match.Summary{}, ms...)})
}

func (s *Server) getMatch(w http.ResponseWriter, r *http.Request) {
	sum, err := s.mgr.Summary(r.Context(), r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	s.rateSummary(r.Context(), &sum, true)
	// The account that created the match hosts it from any device: its
	// page offers to start, close and invite without the host token.
	out := struct {
		match.Summary
		YouHost bool `json:"you_host,omitempty"`
	}{Summary: sum}
	if me := s.who(r); me != "" && sum.Status == store.Open {
		_ = s.mgr.Use(r.Context(), sum.ID, func(x match.Handle) error {
			out.YouHost = x.CreatorAccount() == me
			return nil
		})
	}
	writeJSON(w, http.StatusOK, out)
}

// seatOf returns the seat of the request's token in match x, or, without
// a token, the seat that account who (the request's, "" for none) holds:
// the one ?seat= names, or its only one.
func seatOf(r *http.Request, x match.Handle, who string) (engine.Seat, error) {
	t := tokenOf(r)
	if t == "" && who != "" {
		held := x.SeatsHeldBy(who)
		v := r.URL.Query().Get("seat")
		for _, seat := range held {
			if v == strconv.Itoa(int(seat)) || v == "" && len(held) == 1 {
				return seat, nil
			}
		}
	}
	if t == "" {
		return 0, &match.Error{Code: CodeNoToken, Message: "This needs the seat's token (Authorization: Bearer <token>), or to be signed in to the account that holds it."}
	}
	seat, ok := x.SeatOf(t)
	if !ok {
		return 0, &match.Error{Code: match.CodeBadToken, Message: "This token holds no seat of this match."}
	}
	if v := r.URL.Query().Get("seat"); v != "" && v != strconv.Itoa(int(seat)) {
		return 0, &match.Error{Code: match.CodeBadToken, Message: "This token does not hold seat " + v + " of this match."}
	}
	return seat, nil
}

func (s *Server) joinMatch(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Name string `json:"name"`
	}
	if err := s.decodeBody(w, r, &body, true); err != nil {
		writeError(w, err)
		return
	}
	var out struct {
		Seat  engine.Seat   `json:"seat"`
		Match match.Summary `json:"match"`
	}
	me := s.who(r)
	if body.Name == "" && me != "" {
		// Signed in, a player is seated under their account's name.
		if a, err := s.acc.Player(r.Context(), me); err == nil {
			body.Name = a.Name
		}
	}
	err := s.mgr.Use(r.Context(), r.PathValue("id"), func(x match.Handle) error {
		seat, err := seatOf(r, x, me)
		if err != nil {
			return err
		}
		if err := s.notBlocked(r, x.CreatorAccount(), me); err != nil {
			return err
		}
		out.Seat = seat
		out.Match, err = x.Join(r.Context(), seat, match.Joiner{Name: body.Name, Client: string(s.clientOf(r)), Account: me})
		return err
	})
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) startMatch(w http.ResponseWriter, r *http.Request) {
	var sum match.Summary
	err := s.mgr.Use(r.Context(), r.PathValue("id"), func(x match.Handle) (err error) {
		if tokenOf(r) == "" && s.who(r) == "" {
			return &match.Error{Code: CodeNoToken, Message: "Starting a match needs its host token (Authorization: Bearer <token>)."}
		}
		if !s.hosts(r, x) {
			return &match.Error{Code: match.CodeBadToken, Message: "This is not the host token of this match."}
		}
		sum, err = x.Start(r.Context())
		return err
	})
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, sum)
}

// closeMatch closes a match that never started, or that failed, for its
// host (see match.Manager.Close).
func (s *Server) closeMatch(w http.ResponseWriter, r *http.Request) {
	t, me := tokenOf(r), s.who(r)
	if t == "" && me == "" {
		writeError(w, &match.Error{Code: CodeNoToken, Message: "Closing a match needs its host token (Authorization: Bearer <token>)."})
		return
	}
	sum, err := s.mgr.Close(r.Context(), r.PathValue("id"), t, me)
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, sum)
}

// audience returns the seat a request may see: its token's seat (or, signed
// in to account who, the seat ?seat= names that it holds), or the
// spectators without either.
func audience(r *http.Request, x match.Handle, who string) (engine.Seat, error) {
	if tokenOf(r) == "" && r.Header.Get("Authorization") == "" {
		if !r.URL.Query().Has("seat") {
			return engine.Spectator, nil
		}
		if who == "" {
			return 0, &match.Error{Code: CodeNoToken, Message: "Seeing a seat's view needs the seat's token."}
		}
	}
	return seatOf(r, x, who)
}

// notBlocked refuses account who a seat at a table whose creating account
// blocks it.
func (s *Server) notBlocked(r *http.Request, creator, who string) error {
	if s.accounts == nil || creator == "" || who == "" || creator == who {
		return nil
	}
	blocked, err := s.accounts.Blocks(r.Context(), creator, who)
	if err != nil {
		return accountError(err)
	}
	if blocked {
		return &match.Error{Code: CodeBlocked, Message: "The host of this match does not take you at their table."}
	}
	return nil
}

func (s *Server) matchState(w http.ResponseWriter, r *http.Request) {
	var b []byte
	me := s.who(r)
	err := s.mgr.Use(r.Context(), r.PathValue("id"), func(x match.Handle) error {
		seat, err := audience(r, x, me)
		if err == nil && seat == engine.Spectator {
			err = s.dailyGate(r, x.ID())
		}
		if err != nil {
			return err
		}
		b, err = x.Snapshot(r.Context(), seat)
		return err
	})
	if err != nil {
		writeError(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_, _ = w.Write(append(b, '\n'))
}

func (s *Server) matchReplay(w http.ResponseWriter, r *http.Request) {
	if err := s.dailyGate(r, r.PathValue("id")); err != nil {
		writeError(w, err)
		return
	}
	rp, err := s.mgr.Replay(r.Context(), r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, hideDailySeed(rp))
}

// matchView serves GET /api/matches/{id}/view?seat=S&step=K: what seat S
// (or "spectator") saw after record K (see match.Manager.View).
func (s *Server) matchView(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	seat := engine.Spectator
	if v := q.Get("seat"); v != "" && v != "spectator" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			writeError(w, &match.Error{Code: match.CodeBadParameters, Message: "seat is a seat number or spectator."})
			return
		}
		seat = engine.Seat(n)
	}
	step, err := strconv.Atoi(q.Get("step"))
	if err != nil || step < 0 {
		writeError(w, &match.Error{Code: match.CodeBadParameters, Message: "step is the number of records replayed: 0 for the start, and up to the length of the log."})
		return
	}
	if err := s.dailyGate(r, r.PathValue("id")); err != nil {
		writeError(w, err)
		return
	}
	v, err := s.mgr.View(r.Context(), r.PathValue("id"), seat, step, tokenOf(r), s.who(r))
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}
