package match

import "sortie/engine"

// Notices: what a seat's player may want to be told while away (their
// turn, the end of the match), handed to [Config.Notice] for the server's
// notifications. The match only says what happened to a seat held by an
// account; whether and how to tell its player (after a delay, if they are
// still away, grouped, by push or e-mail) is the notifier's to decide, and
// it asks again when it sends.

// Kinds of [Notice].
const (
	// NoticeTurn: the seat is to act and no socket of its player is open
	// on it (its turn began while they were away, or they left on their
	// turn).
	NoticeTurn = "turn"
	// NoticeEnd: the match, which had started, is over.
	NoticeEnd = "end"
)

// Notice is something that happened to a seat held by an account.
type Notice struct {
	Kind    string
	Match   string
	Seat    engine.Seat
	Account string
	// Turn is the log's length when the seat's turn began (NoticeTurn), or
	// at the end (NoticeEnd): with the match and seat it names the notice,
	// the same however often it is told (the player leaving and coming
	// back within a turn, the match loaded again after a restart).
	Turn int
}

// noticeTurn tells Config.Notice that seat i waits for its player, who is
// away, if it does and they are.
func (x *Match) noticeTurn(i int) {
	st, h := x.seats[i], x.mgr.notice
	acc := x.rec.Seats[i].Account
	if h == nil || x.replaying || acc == "" || x.rec.Seats[i].Kind != Human || !st.isActor || st.byBot || st.sub != nil || x.rec.Status.Over() {
		return
	}
	h(Notice{Kind: NoticeTurn, Match: x.id, Seat: engine.Seat(i), Account: acc, Turn: st.turnSeq})
}

// noticeEnd tells Config.Notice that the match ended, for each seat held
// by an account, if it had started.
func (x *Match) noticeEnd() {
	h := x.mgr.notice
	if h == nil || x.rec.Started.IsZero() {
		return
	}
	for i, s := range x.rec.Seats {
		if s.Kind == Human && s.Account != "" {
			h(Notice{Kind: NoticeEnd, Match: x.id, Seat: engine.Seat(i), Account: s.Account, Turn: int(x.seq)})
		}
	}
}
