package server

import (
	"cmp"
	"context"
	"errors"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"sortie/engine"
	"sortie/internal/account"
	"sortie/internal/match"
	"sortie/internal/store"
)

// The API of accounts (docs/api.md, "Accounts"): signing in and out, the
// signed-in player's own pages (/api/me…), public profiles, and what an
// account does with matches (its seats, invitations, rematches). Guests need
// none of it: every other endpoint works as before without a session.

// Codes of the refusals about accounts (and the account package's).
const (
	CodeAccountsOff = "accounts_off" // this server keeps no accounts
	CodeBlocked     = "blocked"      // a player who blocked you, or whom you block
)

func init() {
	for code, status := range map[string]int{
		account.CodeSignedOut: http.StatusUnauthorized, account.CodeNoSuchPlayer: http.StatusNotFound,
		account.CodeBadEmail: http.StatusBadRequest, account.CodeNoMail: http.StatusNotImplemented,
		account.CodeBadPasskey: http.StatusBadRequest, account.CodeLastWayIn: http.StatusConflict,
		account.CodeTooFast: http.StatusTooManyRequests, match.CodeHeld: http.StatusConflict,
		CodeAccountsOff: http.StatusNotFound, CodeBlocked: http.StatusForbidden,
	} {
		statusOf[code] = status
	}
}

// accountRoutes adds the endpoints of accounts to mux.
func (s *Server) accountRoutes(mux *http.ServeMux) {
	auth := func(h http.HandlerFunc) http.HandlerFunc { return s.signIns(s.needAccounts(h)) }
	mux.HandleFunc("POST /api/auth/email", auth(s.authEmail))
	mux.HandleFunc("GET /auth/email", auth(s.authEmailLink))
	mux.HandleFunc("POST /api/auth/passkey/register", auth(s.passkeyRegister))
	mux.HandleFunc("POST /api/auth/passkey/register/finish", auth(s.passkeyRegisterFinish))
	mux.HandleFunc("POST /api/auth/passkey/signin", auth(s.passkeySignIn))
	mux.HandleFunc("POST /api/auth/passkey/signin/finish", auth(s.passkeySignInFinish))
	mux.HandleFunc("POST /api/auth/signout", s.needAccounts(s.signOut))
	mux.HandleFunc("POST /api/auth/signout/everywhere", s.needAccounts(s.signOutEverywhere))

	mux.HandleFunc("GET /api/me", s.needAccounts(s.getMe))
	mux.HandleFunc("PATCH /api/me", s.needAccounts(s.patchMe))
	mux.HandleFunc("DELETE /api/me", s.needAccounts(s.deleteMe))
	mux.HandleFunc("GET /api/me/export", s.needAccounts(s.exportMe))
	mux.HandleFunc("GET /api/me/passkeys", s.needAccounts(s.listPasskeys))
	mux.HandleFunc("PATCH /api/me/passkeys/{key}", s.needAccounts(s.renamePasskey))
	mux.HandleFunc("DELETE /api/me/passkeys/{key}", s.needAccounts(s.removePasskey))
	mux.HandleFunc("POST /api/me/seats", s.needAccounts(s.claimSeats))
	mux.HandleFunc("GET /api/me/matches", s.needAccounts(s.myMatches))
	mux.HandleFunc("GET /api/me/relations", s.needAccounts(s.myRelations))
	mux.HandleFunc("PUT /api/me/follows/{player}", s.needAccounts(s.relate(store.Accounts.Follow)))
	mux.HandleFunc("DELETE /api/me/follows/{player}", s.needAccounts(s.relate(store.Accounts.Unfollow)))
	mux.HandleFunc("PUT /api/me/blocks/{player}", s.needAccounts(s.relate(store.Accounts.Block)))
	mux.HandleFunc("DELETE /api/me/blocks/{player}", s.needAccounts(s.relate(store.Accounts.Unblock)))
	mux.HandleFunc("GET /api/players", s.needAccounts(s.reads(s.findPlayers)))
	mux.HandleFunc("GET /api/players/{player}", s.needAccounts(s.reads(s.getPlayer)))

	mux.HandleFunc("POST /api/matches/{id}/invite", s.needAccounts(s.invite))
	mux.HandleFunc("POST /api/matches/{id}/seats/{seat}/take", s.needAccounts(s.takeSeat))
	mux.HandleFunc("DELETE /api/matches/{id}/seats/{seat}/invitation", s.needAccounts(s.declineSeat))
	mux.HandleFunc("POST /api/matches/{id}/rematch", s.needAccounts(s.rematch))
	s.notifyRoutes(mux)
}

// withSessions loads the session of the requests that may use one: the
// API's but sockets (which read theirs when they open), and the sign-in
// link's. Static files and sockets read no session.
func (s *Server) withSessions(h http.Handler) http.Handler {
	loaded := s.acc.Sessions(h)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p := r.URL.Path
		if p == "/auth/email" || strings.HasPrefix(p, "/api/") && !strings.HasSuffix(p, "/ws") {
			loaded.ServeHTTP(w, r)
			return
		}
		h.ServeHTTP(w, r)
	})
}

// needAccounts refuses the request on a server without accounts.
func (s *Server) needAccounts(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.acc == nil {
			writeError(w, &match.Error{Code: CodeAccountsOff, Message: "This server keeps no accounts: play as a guest."})
			return
		}
		h(w, r)
	}
}

// signIns counts a request to sign in against its client's allowance.
func (s *Server) signIns(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if err := s.allowSignIn(s.clientOf(r), time.Now()); err != nil && !s.cfg.flaws.noSignInRate {
			writeError(w, err)
			return
		}
		h(w, r)
	}
}

// who returns the account the request is signed in to, or "": from the
// session its route loaded, or else from its cookie (a socket's upgrade).
func (s *Server) who(r *http.Request) string {
	if s.acc == nil {
		return ""
	}
	if id := s.acc.Who(r.Context()); id != "" {
		return id
	}
	return s.acc.WhoOf(r)
}

// accountError turns the account package's refusals into the API's.
func accountError(err error) error {
	var ae *account.Error
	if errors.As(err, &ae) {
		e := &match.Error{Code: ae.Code, Message: ae.Message}
		if ae.Retry > 0 {
			return &limitError{err: e, retry: ae.Retry}
		}
		return e
	}
	if errors.Is(err, store.ErrUnavailable) {
		return &match.Error{Code: match.CodeUnavailable, Message: "The server cannot reach its store now; try again."}
	}
	if err != nil && match.AsError(err).Code == "" {
		return &match.Error{Code: match.CodeUnavailable, Message: "The server could not do it; try again."}
	}
	return err
}

// Me is the signed-in player's own account, as /api/me shows it.
type Me struct {
	ID      string    `json:"id"`
	Name    string    `json:"name"`
	Email   string    `json:"email,omitempty"`
	Lang    string    `json:"lang"`
	Created time.Time `json:"created"`
}

func meOf(a *store.Account) Me {
	return Me{ID: a.ID, Name: a.Name, Email: a.Email, Lang: a.Lang, Created: a.Created}
}

func (s *Server) authEmail(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Email string `json:"email"`
		Lang  string `json:"lang"`
	}
	if err := s.decodeBody(w, r, &body, false); err != nil {
		writeError(w, err)
		return
	}
	if err := s.acc.RequestLink(r.Context(), body.Email, body.Lang); err != nil {
		writeError(w, accountError(err))
		return
	}
	writeJSON(w, http.StatusAccepted, struct{}{})
}

// authEmailLink serves GET /auth/email?token=…: the link of a sign-in mail.
// It answers 303, to the lobby signed in, or to the lobby saying the link
// is spent.
func (s *Server) authEmailLink(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	_, created, err := s.acc.TakeLink(r.Context(), q.Get("token"), q.Get("lang"))
	to := "/?signed_in=1"
	switch {
	case err != nil:
		to = "/?sign_in=spent"
		if match.AsError(accountError(err)).Code == match.CodeUnavailable {
			to = "/?sign_in=unavailable"
		}
	case created:
		to = "/?signed_in=new"
	}
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, to, http.StatusSeeOther)
}

func (s *Server) passkeyRegister(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Name string `json:"name"`
		Lang string `json:"lang"`
	}
	if err := s.decodeBody(w, r, &body, true); err != nil {
		writeError(w, err)
		return
	}
	name, err := match.CheckName(body.Name)
	if err != nil {
		writeError(w, err)
		return
	}
	opts, err := s.acc.BeginRegistration(r.Context(), name, body.Lang)
	if err != nil {
		writeError(w, accountError(err))
		return
	}
	writeJSON(w, http.StatusOK, opts)
}

func (s *Server) passkeyRegisterFinish(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBody)
	a, err := s.acc.FinishRegistration(r.Context(), r, r.URL.Query().Get("name"))
	if err != nil {
		writeError(w, accountError(err))
		return
	}
	writeJSON(w, http.StatusOK, meOf(a))
}

func (s *Server) passkeySignIn(w http.ResponseWriter, r *http.Request) {
	opts, err := s.acc.BeginSignIn(r.Context())
	if err != nil {
		writeError(w, accountError(err))
		return
	}
	writeJSON(w, http.StatusOK, opts)
}

func (s *Server) passkeySignInFinish(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBody)
	a, err := s.acc.FinishSignIn(r.Context(), r)
	if err != nil {
		writeError(w, accountError(err))
		return
	}
	writeJSON(w, http.StatusOK, meOf(a))
}

func (s *Server) signOut(w http.ResponseWriter, r *http.Request) {
	if err := s.acc.SignOut(r.Context()); err != nil {
		writeError(w, accountError(err))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) signOutEverywhere(w http.ResponseWriter, r *http.Request) {
	if err := s.acc.SignOutEverywhere(r.Context()); err != nil {
		writeError(w, accountError(err))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) getMe(w http.ResponseWriter, r *http.Request) {
	a, err := s.acc.Me(r.Context())
	if err != nil {
		writeError(w, accountError(err))
		return
	}
	writeJSON(w, http.StatusOK, meOf(a))
}

func (s *Server) patchMe(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Name string `json:"name"`
		Lang string `json:"lang"`
	}
	if err := s.decodeBody(w, r, &body, false); err != nil {
		writeError(w, err)
		return
	}
	name, err := match.CheckName(body.Name)
	if err != nil {
		writeError(w, err)
		return
	}
	if body.Lang != "" && body.Lang != "fr" && body.Lang != "en" {
		writeError(w, &match.Error{Code: match.CodeBadParameters, Message: `lang is "fr" or "en".`})
		return
	}
	a, err := s.acc.Update(r.Context(), name, body.Lang)
	if err != nil {
		writeError(w, accountError(err))
		return
	}
	writeJSON(w, http.StatusOK, meOf(a))
}

func (s *Server) deleteMe(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	me, ok := s.meOrRefuse(w, r)
	if !ok {
		return
	}
	// The matches first, each by the node that runs it (the store's copy of
	// a match in memory is that match's to write); the store then takes
	// care of the rest.
	held, err := s.accounts.HeldSeats(ctx, me, store.Filter{Limit: 100000})
	if err == nil {
		for _, m := range groupSeats(held) {
			err = s.mgr.Use(ctx, m.Match.ID, func(x match.Handle) error { return x.Forget(ctx, me) })
			if c := match.AsError(err).Code; err != nil && (c == match.CodeMatchFailed || c == match.CodeMatchClosed || c == match.CodeUnknownMatch) {
				err = nil // nothing runs it: the store's cascade does
			}
			if err != nil {
				break
			}
		}
	}
	if err == nil {
		err = s.acc.Delete(ctx)
	}
	if err != nil {
		writeError(w, accountError(err))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) listPasskeys(w http.ResponseWriter, r *http.Request) {
	ps, err := s.acc.Passkeys(r.Context())
	if err != nil {
		writeError(w, accountError(err))
		return
	}
	writeJSON(w, http.StatusOK, struct {
		Passkeys []account.PasskeyInfo `json:"passkeys"`
	}{ps})
}

func (s *Server) renamePasskey(w http.ResponseWriter, r *http.Request) {
	var body struct {
		Name string `json:"name"`
	}
	if err := s.decodeBody(w, r, &body, false); err != nil {
		writeError(w, err)
		return
	}
	if err := s.acc.RenamePasskey(r.Context(), r.PathValue("key"), body.Name); err != nil {
		writeError(w, accountError(err))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (s *Server) removePasskey(w http.ResponseWriter, r *http.Request) {
	if err := s.acc.RemovePasskey(r.Context(), r.PathValue("key")); err != nil {
		writeError(w, accountError(err))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// meOrRefuse returns the request's account id, or writes the refusal.
func (s *Server) meOrRefuse(w http.ResponseWriter, r *http.Request) (string, bool) {
	id := s.acc.Who(r.Context())
	if id == "" {
		writeError(w, &match.Error{Code: account.CodeSignedOut, Message: "You are not signed in."})
		return "", false
	}
	return id, true
}

// claimSeats serves POST /api/me/seats: "save my progress". The seats a
// browser holds the tokens of become the signed-in account's, whatever
// their matches' status; each is answered on its own.
func (s *Server) claimSeats(w http.ResponseWriter, r *http.Request) {
	me, ok := s.meOrRefuse(w, r)
	if !ok {
		return
	}
	var body struct {
		Seats []struct {
			Match string `json:"match"`
			Token string `json:"token"`
		} `json:"seats"`
	}
	if err := s.decodeBody(w, r, &body, false); err != nil {
		writeError(w, err)
		return
	}
	if len(body.Seats) > 200 {
		writeError(w, &match.Error{Code: match.CodeBadParameters, Message: "At most 200 seats at once."})
		return
	}
	type claimed struct {
		Match string       `json:"match"`
		Seat  *engine.Seat `json:"seat,omitempty"`
		Error *match.Error `json:"error,omitempty"`
	}
	out := struct {
		Seats []claimed `json:"seats"`
	}{Seats: []claimed{}}
	for _, c := range body.Seats {
		var seat engine.Seat
		err := s.mgr.Use(r.Context(), c.Match, func(x match.Handle) error {
			var ok bool
			if seat, ok = x.SeatOf(c.Token); !ok {
				return &match.Error{Code: match.CodeBadToken, Message: "This token holds no seat of this match."}
			}
			_, err := x.Claim(r.Context(), seat, me)
			return err
		})
		if err != nil {
			out.Seats = append(out.Seats, claimed{Match: c.Match, Error: match.AsError(err)})
			continue
		}
		out.Seats = append(out.Seats, claimed{Match: c.Match, Seat: &seat})
	}
	writeJSON(w, http.StatusOK, out)
}

// MyMatch is a match of "My games": its summary, the seats the player holds
// in it, and whether one of them may act now.
type MyMatch struct {
	Match    match.Summary `json:"match"`
	Seats    []engine.Seat `json:"seats"`
	YourTurn bool          `json:"your_turn"`
}

// Invited is a seat kept for the player by another.
type Invited struct {
	Match match.Summary `json:"match"`
	Seat  engine.Seat   `json:"seat"`
	From  PlayerRef     `json:"from"`
}

// PlayerRef names an account.
type PlayerRef struct {
	ID   string `json:"id"`
	Name string `json:"name"`
}

// myMatches serves GET /api/me/matches: the matches under way the player
// holds a seat of (those where it is their turn first), the seats others
// keep for them, and their finished matches, newest first.
func (s *Server) myMatches(w http.ResponseWriter, r *http.Request) {
	me, ok := s.meOrRefuse(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	st := s.accounts
	out := struct {
		Playing  []MyMatch `json:"playing"`
		Invited  []Invited `json:"invited"`
		Finished []MyMatch `json:"finished"`
	}{Playing: []MyMatch{}, Invited: []Invited{}, Finished: []MyMatch{}}
	under, err := st.HeldSeats(ctx, me, store.Filter{Statuses: []store.Status{store.Open, store.Running}, Limit: 100})
	if err == nil {
		for _, m := range groupSeats(under) {
			sum, err := s.mgr.Summary(ctx, m.Match.ID)
			if err != nil {
				continue // gone meanwhile
			}
			mm := MyMatch{Match: sum, Seats: m.Seats}
			for _, a := range sum.Actors {
				if slices.Contains(m.Seats, a) {
					mm.YourTurn = true
				}
			}
			out.Playing = append(out.Playing, mm)
		}
		slices.SortStableFunc(out.Playing, func(a, b MyMatch) int {
			switch {
			case a.YourTurn == b.YourTurn:
				return 0
			case a.YourTurn:
				return -1
			}
			return 1
		})
	}
	var over []store.HeldSeat
	if err == nil {
		over, err = st.HeldSeats(ctx, me, store.Filter{Statuses: store.Statuses[2:], Limit: 30})
	}
	if err == nil {
		for _, m := range groupSeats(over) {
			out.Finished = append(out.Finished, MyMatch{Match: summaryOf(m.Match), Seats: m.Seats})
		}
	}
	var invs []store.Invitation
	if err == nil {
		invs, err = st.Invitations(ctx, me)
	}
	if err != nil {
		writeError(w, accountError(err))
		return
	}
	for _, inv := range invs {
		sum, err := s.mgr.Summary(ctx, inv.Match)
		if err != nil || sum.Status.Over() {
			continue
		}
		out.Invited = append(out.Invited, Invited{Match: sum, Seat: engine.Seat(inv.Seat), From: s.playerRef(ctx, inv.From)})
	}
	writeJSON(w, http.StatusOK, out)
}

// heldMatch is a match with the seats one account holds in it.
type heldMatch struct {
	Match *store.Match
	Seats []engine.Seat
}

// groupSeats gathers held seats by match, in the order of their matches.
func groupSeats(hs []store.HeldSeat) []heldMatch {
	var out []heldMatch
	for _, h := range hs {
		if n := len(out); n > 0 && out[n-1].Match.ID == h.Match.ID {
			out[n-1].Seats = append(out[n-1].Seats, engine.Seat(h.Seat))
			continue
		}
		out = append(out, heldMatch{Match: h.Match, Seats: []engine.Seat{engine.Seat(h.Seat)}})
	}
	return out
}

// summaryOf is a stored match's summary, as the lobby lists it.
func summaryOf(m *store.Match) match.Summary { return match.Summarize(m) }

// playerRef names account id, or a deleted player.
func (s *Server) playerRef(ctx context.Context, id string) PlayerRef {
	if a, err := s.accounts.Account(ctx, id); err == nil {
		return PlayerRef{ID: a.ID, Name: a.Name}
	}
	return PlayerRef{ID: id}
}

// myRelations serves GET /api/me/relations.
func (s *Server) myRelations(w http.ResponseWriter, r *http.Request) {
	me, ok := s.meOrRefuse(w, r)
	if !ok {
		return
	}
	rel, err := s.accounts.Relations(r.Context(), me)
	if err != nil {
		writeError(w, accountError(err))
		return
	}
	refs := func(ids []string) []PlayerRef {
		out := []PlayerRef{}
		for _, id := range ids {
			out = append(out, s.playerRef(r.Context(), id))
		}
		return out
	}
	var friends []string
	for _, id := range rel.Following {
		if slices.Contains(rel.Followers, id) {
			friends = append(friends, id)
		}
	}
	writeJSON(w, http.StatusOK, struct {
		Following []PlayerRef `json:"following"`
		Followers []PlayerRef `json:"followers"`
		Friends   []PlayerRef `json:"friends"`
		Blocked   []PlayerRef `json:"blocked"`
	}{refs(rel.Following), refs(rel.Followers), refs(friends), refs(rel.Blocked)})
}

// relate serves PUT and DELETE of /api/me/follows/{player} and
// /api/me/blocks/{player} with do.
func (s *Server) relate(do func(st store.Accounts, ctx context.Context, from, to string) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		me, ok := s.meOrRefuse(w, r)
		if !ok {
			return
		}
		to := r.PathValue("player")
		if _, err := s.acc.Player(r.Context(), to); err != nil || to == me {
			if err == nil {
				err = &match.Error{Code: match.CodeBadParameters, Message: "You cannot follow or block yourself."}
			}
			writeError(w, accountError(err))
			return
		}
		if err := do(s.accounts, r.Context(), me, to); err != nil {
			writeError(w, accountError(err))
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}
}

// Profile is a player's public page: never their e-mail address.
type Profile struct {
	ID      string               `json:"id"`
	Name    string               `json:"name"`
	Created time.Time            `json:"created"`
	Stats   map[string]GameStats `json:"stats"`
	Recent  []MyMatch            `json:"recent"`
	// Ratings are the player's ratings by game and mode family, their
	// last rated matches (RatingHistory, oldest first), and how often
	// they finish what they start (see ratings_api.go).
	Ratings       map[string]map[string]RatingOut `json:"ratings"`
	RatingHistory []RatingPoint                   `json:"rating_history"`
	Reputation    Reputation                      `json:"reputation"`
}

// GameStats are a player's figures in one game.
type GameStats struct {
	Matches int `json:"matches"`
	Wins    int `json:"wins"`
	// By splits them by number of players and mode (the game's "mode"
	// option, where it has one).
	By []StatsBy `json:"by"`
	// MeanMs is a match's mean length, PlayedMs their sum (from the
	// start to the end of each).
	MeanMs   int64 `json:"mean_ms"`
	PlayedMs int64 `json:"played_ms"`
}

// StatsBy is one line of GameStats.By.
type StatsBy struct {
	Players int    `json:"players"`
	Mode    string `json:"mode,omitempty"`
	Matches int    `json:"matches"`
	Wins    int    `json:"wins"`
}

// getPlayer serves GET /api/players/{player}: a player's profile, their
// figures per game over their finished matches, and their last ones.
// findPlayers serves GET /api/players?q=…: the players whose name holds
// q, whatever its case and accents (2 to 40 characters), those whose name
// starts with it first; at most 20, each an id and a name.
func (s *Server) findPlayers(w http.ResponseWriter, r *http.Request) {
	q := strings.TrimSpace(r.URL.Query().Get("q"))
	if n := utf8.RuneCountInString(q); n < 2 || n > 40 {
		writeError(w, &match.Error{Code: match.CodeBadParameters, Message: "Search for 2 to 40 characters of a name: ?q=…"})
		return
	}
	found, err := s.accounts.FindAccounts(r.Context(), q, 20)
	if err != nil {
		writeError(w, accountError(err))
		return
	}
	out := struct {
		Players []PlayerRef `json:"players"`
	}{[]PlayerRef{}}
	for _, a := range found {
		out.Players = append(out.Players, PlayerRef{ID: a.ID, Name: a.Name})
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) getPlayer(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	a, err := s.acc.Player(ctx, r.PathValue("player"))
	if err != nil {
		writeError(w, accountError(err))
		return
	}
	held, err := s.accounts.HeldSeats(ctx, a.ID, store.Filter{Statuses: []store.Status{store.Finished}, Limit: 500})
	if err != nil {
		writeError(w, accountError(err))
		return
	}
	p := Profile{ID: a.ID, Name: a.Name, Created: a.Created, Stats: map[string]GameStats{}, Recent: []MyMatch{}}
	for i, m := range groupSeats(held) {
		g := p.Stats[m.Match.Game]
		won := false
		if o := m.Match.Outcome; o != nil {
			for _, seat := range m.Seats {
				if slices.Contains(o.Winners, seat) {
					won = true
				}
			}
		}
		g.Matches++
		if won {
			g.Wins++
		}
		mode := m.Match.Setup.Options["mode"]
		k := slices.IndexFunc(g.By, func(b StatsBy) bool { return b.Players == m.Match.Setup.Players && b.Mode == mode })
		if k < 0 {
			g.By = append(g.By, StatsBy{Players: m.Match.Setup.Players, Mode: mode})
			k = len(g.By) - 1
		}
		g.By[k].Matches++
		if won {
			g.By[k].Wins++
		}
		if !m.Match.Started.IsZero() && m.Match.Finished.After(m.Match.Started) {
			g.PlayedMs += m.Match.Finished.Sub(m.Match.Started).Milliseconds()
		}
		g.MeanMs = g.PlayedMs / int64(g.Matches)
		p.Stats[m.Match.Game] = g
		if i < 10 {
			p.Recent = append(p.Recent, MyMatch{Match: summaryOf(m.Match), Seats: m.Seats})
		}
	}
	for k, g := range p.Stats {
		slices.SortFunc(g.By, func(a, b StatsBy) int { return cmp.Or(cmp.Compare(a.Players, b.Players), cmp.Compare(a.Mode, b.Mode)) })
		p.Stats[k] = g
	}
	if err := s.profileRatings(ctx, &p); err != nil {
		writeError(w, accountError(err))
		return
	}
	writeJSON(w, http.StatusOK, p)
}

// exportMe serves GET /api/me/export: everything the server keeps of the
// player, as one JSON document to download.
func (s *Server) exportMe(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	a, err := s.acc.Me(ctx)
	if err != nil {
		writeError(w, accountError(err))
		return
	}
	ps, err := s.acc.Passkeys(ctx)
	var rel store.Relations
	var held []store.HeldSeat
	var invs []store.Invitation
	if err == nil {
		rel, err = s.accounts.Relations(ctx, a.ID)
	}
	if err == nil {
		held, err = s.accounts.HeldSeats(ctx, a.ID, store.Filter{Limit: 100000})
	}
	if err == nil {
		invs, err = s.accounts.Invitations(ctx, a.ID)
	}
	if err != nil {
		writeError(w, accountError(err))
		return
	}
	type seat struct {
		Match match.Summary `json:"match"`
		Seat  int           `json:"seat"`
	}
	var notifications NotificationSettings
	if n := s.notifier.Load(); n != nil {
		set, err := n.Settings(ctx, a.ID)
		if err == nil {
			notifications, err = s.notificationSettings(ctx, a.ID, set)
		}
		if err != nil {
			writeError(w, accountError(err))
			return
		}
	}
	out := struct {
		Exported      time.Time             `json:"exported"`
		Account       Me                    `json:"account"`
		Passkeys      []account.PasskeyInfo `json:"passkeys"`
		Relations     store.Relations       `json:"relations"`
		Invitations   []store.Invitation    `json:"invitations"`
		Seats         []seat                `json:"seats"`
		Notifications NotificationSettings  `json:"notifications"`
	}{Exported: time.Now().UTC(), Account: meOf(a), Passkeys: ps, Relations: rel, Invitations: invs, Seats: []seat{}, Notifications: notifications}
	for _, h := range held {
		out.Seats = append(out.Seats, seat{Match: summaryOf(h.Match), Seat: h.Seat})
	}
	w.Header().Set("Content-Disposition", `attachment; filename="sortie-`+a.ID+`.json"`)
	writeJSON(w, http.StatusOK, out)
}

// hosts reports whether the request may act as match x's host: with its
// host token, or signed in to the account that created it.
func (s *Server) hosts(r *http.Request, x match.Handle) bool {
	if t := tokenOf(r); t != "" {
		return x.IsHost(t)
	}
	me := s.who(r)
	return me != "" && me == x.CreatorAccount()
}

// seatParam reads the {seat} of a path.
func seatParam(r *http.Request) (engine.Seat, error) {
	n, err := strconv.Atoi(r.PathValue("seat"))
	if err != nil || n < 0 {
		return 0, &match.Error{Code: match.CodeBadParameters, Message: "The seat is a number."}
	}
	return engine.Seat(n), nil
}

// invite serves POST /api/matches/{id}/invite {"seat", "player"}: the
// match's host keeps a seat nobody joined for a player, who finds it in
// "My games" — unless they block the host, which the host is not told: the
// invitation is answered as made, and dropped.
func (s *Server) invite(w http.ResponseWriter, r *http.Request) {
	me, ok := s.meOrRefuse(w, r)
	if !ok {
		return
	}
	var body struct {
		Seat   engine.Seat `json:"seat"`
		Player string      `json:"player"`
	}
	if err := s.decodeBody(w, r, &body, false); err != nil {
		writeError(w, err)
		return
	}
	ctx := r.Context()
	if _, err := s.acc.Player(ctx, body.Player); err != nil {
		writeError(w, accountError(err))
		return
	}
	blocked, err := s.accounts.Blocks(ctx, body.Player, me)
	if err != nil {
		writeError(w, accountError(err))
		return
	}
	err = s.mgr.Use(ctx, r.PathValue("id"), func(x match.Handle) error {
		if !s.hosts(r, x) {
			return &match.Error{Code: match.CodeBadToken, Message: "Only the match's host invites players to it."}
		}
		sum, err := x.Summary(ctx)
		if err != nil {
			return err
		}
		switch {
		case sum.Status.Over():
			return &match.Error{Code: match.CodeFinished, Message: "The match is over."}
		case body.Seat < 0 || int(body.Seat) >= len(sum.Seats):
			return &match.Error{Code: match.CodeUnknownSeat, Message: "This match has no such seat."}
		case sum.Seats[body.Seat].Kind != match.Human:
			return &match.Error{Code: match.CodeNotHuman, Message: "A bot plays this seat."}
		case sum.Seats[body.Seat].Joined || sum.Seats[body.Seat].Account != "" && sum.Seats[body.Seat].Account != body.Player:
			return &match.Error{Code: match.CodeHeld, Message: "Somebody sits in this seat already."}
		}
		if blocked {
			return nil // said as done, kept silent: a block is not told to whom it blocks
		}
		inv := store.Invitation{Match: x.ID(), Seat: int(body.Seat), Account: body.Player, From: me, Created: time.Now()}
		if err := s.accounts.Invite(ctx, inv); err != nil {
			return err
		}
		s.invited(inv)
		return nil
	})
	if err != nil {
		writeError(w, accountError(err))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// seatInvitation reads a request about a seat kept for the signed-in player
// (/api/matches/{id}/seats/{seat}/…): the player, the match, the seat, and
// whether an invitation to it is theirs. It answers the refusal itself, and
// then reports !ok.
func (s *Server) seatInvitation(w http.ResponseWriter, r *http.Request) (me, id string, seat engine.Seat, invited, ok bool) {
	if me, ok = s.meOrRefuse(w, r); !ok {
		return
	}
	seat, err := seatParam(r)
	if err != nil {
		writeError(w, err)
		return me, "", 0, false, false
	}
	id = r.PathValue("id")
	invs, err := s.accounts.Invitations(r.Context(), me)
	if err != nil {
		writeError(w, accountError(err))
		return me, "", 0, false, false
	}
	invited = slices.ContainsFunc(invs, func(i store.Invitation) bool { return i.Match == id && i.Seat == int(seat) })
	return me, id, seat, invited, true
}

// takeSeat serves POST /api/matches/{id}/seats/{seat}/take: a seat kept for
// the player (invited, or held by their account) becomes theirs, joined.
func (s *Server) takeSeat(w http.ResponseWriter, r *http.Request) {
	_, id, seat, invited, ok := s.seatInvitation(w, r)
	if !ok {
		return
	}
	s.sitKept(w, r, id, seat, invited, "This seat is not kept for you.")
}

// sitKept seats the signed-in player in a seat of match id kept for them
// (invited, or held by their account; else refused with notKept), joined,
// and answers the seat and the match.
func (s *Server) sitKept(w http.ResponseWriter, r *http.Request, id string, seat engine.Seat, invited bool, notKept string) {
	ctx := r.Context()
	a, err := s.acc.Me(ctx)
	if err != nil {
		writeError(w, accountError(err))
		return
	}
	var sum match.Summary
	err = s.mgr.Use(ctx, id, func(x match.Handle) error {
		if !invited && !slices.Contains(x.SeatsHeldBy(a.ID), seat) {
			return &match.Error{Code: match.CodeHeld, Message: notKept}
		}
		if _, err := x.Claim(ctx, seat, a.ID); err != nil {
			return err
		}
		sum, err = x.Join(ctx, seat, match.Joiner{Name: a.Name, Client: string(s.clientOf(r)), Account: a.ID})
		return err
	})
	if err != nil {
		writeError(w, accountError(err))
		return
	}
	_ = s.accounts.Uninvite(ctx, id, int(seat))
	writeJSON(w, http.StatusOK, struct {
		Seat  engine.Seat   `json:"seat"`
		Match match.Summary `json:"match"`
	}{seat, sum})
}

// declineSeat serves DELETE /api/matches/{id}/seats/{seat}/invitation: the
// invited player declines, or the host takes the invitation back.
func (s *Server) declineSeat(w http.ResponseWriter, r *http.Request) {
	_, id, seat, mine, ok := s.seatInvitation(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	var err error
	if !mine {
		err = s.mgr.Use(ctx, id, func(x match.Handle) error {
			if !s.hosts(r, x) {
				return &match.Error{Code: match.CodeHeld, Message: "This invitation is neither yours nor one you made."}
			}
			return nil
		})
	}
	if err == nil {
		err = s.accounts.Uninvite(ctx, id, int(seat))
	}
	if err != nil {
		writeError(w, accountError(err))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// rematch serves POST /api/matches/{id}/rematch: a new match of the same
// game, options, seats and time controls; the player who asks sits in the
// same seat, the seats of other accounts are kept for them and they are
// invited, guests' seats get invite links as a new match's do. A match has
// one rematch: a player who asks once another player did (or at the same
// moment, on any node) takes their seat at that one instead (200, the
// seat and the match, as taking a kept seat answers).
func (s *Server) rematch(w http.ResponseWriter, r *http.Request) {
	me, ok := s.meOrRefuse(w, r)
	if !ok {
		return
	}
	ctx := r.Context()
	old, err := s.mgr.Summary(ctx, r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	mine := -1
	for i, st := range old.Seats {
		if st.Account == me {
			mine = i
		}
	}
	switch {
	case mine < 0:
		writeError(w, &match.Error{Code: match.CodeBadToken, Message: "Only a player of the match asks for a rematch."})
		return
	case !old.Status.Over():
		writeError(w, &match.Error{Code: match.CodeNotFinished, Message: "A rematch is asked for once the match is over."})
		return
	}
	if held, err := s.accounts.Rematch(ctx, old.ID, ""); err != nil {
		writeError(w, accountError(err))
		return
	} else if held != "" {
		s.sitKept(w, r, held, engine.Seat(mine), false, "Another player asked for this rematch, and your seat there is not kept for you.")
		return
	}
	req := match.CreateRequest{Game: old.Game, Players: old.Players, Options: old.Options, BotDelayMs: old.Settings.BotDelayMs,
		TakeoverAfterMs: &old.Settings.TakeoverAfterMs, MoveLimitMs: &old.Settings.MoveLimitMs, AutoStart: true,
		Owner: string(s.clientOf(r)), Account: me}
	if old.Settings.Clock == match.ClockCorrespondence {
		req.Clock, req.DaysOff = old.Settings.Clock, &old.Settings.DaysOff
	}
	for _, st := range old.Seats {
		sr := match.SeatRequest{Kind: st.Kind, Bot: st.Bot, Name: st.Name}
		if st.Kind == match.Human && !st.Deleted {
			sr.Account = st.Account
		}
		if st.Kind == match.Human && st.Account == "" {
			sr.Name = "" // a guest's name is theirs to give again
		}
		req.Seats = append(req.Seats, sr)
	}
	if err := s.reserveMatch(s.clientOf(r), time.Now()); err != nil {
		writeError(w, err)
		return
	}
	c, err := s.mgr.Create(ctx, req)
	if err != nil {
		if c == nil {
			s.matchEnded("", string(s.clientOf(r)))
		}
		writeError(w, err)
		return
	}
	s.metrics.created.Inc()
	// Of players asking at once, the first rematch recorded holds: the
	// others close theirs and sit at it.
	held, err := s.accounts.Rematch(ctx, old.ID, c.Match.ID)
	if err != nil || held != c.Match.ID {
		if _, cerr := s.mgr.Close(ctx, c.Match.ID, c.HostToken, ""); cerr != nil {
			s.log.Warn("cannot close a rematch asked for twice", "match", c.Match.ID, "err", cerr)
		}
		if err != nil {
			writeError(w, accountError(err))
			return
		}
		s.sitKept(w, r, held, engine.Seat(mine), false, "Another player asked for this rematch, and your seat there is not kept for you.")
		return
	}
	for i, st := range req.Seats {
		if st.Account != "" && st.Account != me {
			if blocked, err := s.accounts.Blocks(ctx, st.Account, me); err == nil && !blocked {
				inv := store.Invitation{Match: c.Match.ID, Seat: i, Account: st.Account, From: me, Created: time.Now()}
				if s.accounts.Invite(ctx, inv) == nil {
					s.invited(inv)
				}
			}
		}
	}
	out := createdOf(c)
	// The asker sits at once.
	if a, err := s.acc.Me(ctx); err == nil {
		_ = s.mgr.Use(ctx, c.Match.ID, func(x match.Handle) error {
			out.Match, err = x.Join(ctx, engine.Seat(mine), match.Joiner{Name: a.Name, Client: string(s.clientOf(r)), Account: me})
			return err
		})
	}
	writeJSON(w, http.StatusCreated, out)
}

// publicURL reads the server's public address, if any.
func publicURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, errors.New("the public URL is http(s)://host[:port], where players reach the server")
	}
	return u, nil
}
