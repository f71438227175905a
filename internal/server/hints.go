package server

import (
	"net/http"
	"strconv"

	"sortie/engine"
	"sortie/internal/match"
)

// matchHint serves GET /api/matches/{id}/hint?level=L[&action=A]: a hint
// for the decision the seat of the request's token (or the signed-in
// account's seat, ?seat= naming it) has to make now — 1 a nudge, 2 the
// bot's choice with its win chance and the top three, 3 what action A (its
// JSON) is worth against the best (see match.Manager.Hint).
func (s *Server) matchHint(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	level, err := strconv.Atoi(q.Get("level"))
	if err != nil {
		writeError(w, &match.Error{Code: match.CodeBadParameters, Message: "level is 1 (a nudge), 2 (the bot's choice) or 3 (check an action)."})
		return
	}
	id, me := r.PathValue("id"), s.who(r)
	var seat engine.Seat
	err = s.mgr.Use(r.Context(), id, func(x match.Handle) error {
		var err error
		seat, err = seatOf(r, x, me)
		return err
	})
	if err != nil {
		writeError(w, err)
		return
	}
	h, err := s.mgr.Hint(r.Context(), id, match.HintRequest{
		Seat: seat, Level: level, Action: []byte(q.Get("action")), Token: tokenOf(r), Account: me,
	})
	if err != nil {
		writeError(w, err)
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, h)
}

// matchHints serves GET /api/matches/{id}/hints: the hints each human seat
// asked for, by level.
func (s *Server) matchHints(w http.ResponseWriter, r *http.Request) {
	used, err := s.mgr.HintsUsed(r.Context(), r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		Seats []match.HintsUsed `json:"seats"`
	}{used})
}

// matchReview serves GET /api/matches/{id}/review?seat=S: the review of
// seat S of a finished match, "ready" or "working" (see
// match.Manager.Review).
func (s *Server) matchReview(w http.ResponseWriter, r *http.Request) {
	n, err := strconv.Atoi(r.URL.Query().Get("seat"))
	if err != nil || n < 0 {
		writeError(w, &match.Error{Code: match.CodeBadParameters, Message: "seat is the number of a human seat of the match."})
		return
	}
	// (A review of today's challenge would show its deal's best moves.)
	if err := s.dailyGate(r, r.PathValue("id")); err != nil {
		writeError(w, err)
		return
	}
	rv, err := s.mgr.Review(r.Context(), r.PathValue("id"), engine.Seat(n))
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, rv)
}
