package store

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"sortie/engine"
)

// errBadData marks stored data that do not read back as written (a row
// edited by hand): an error of the data, not of the connection.
var errBadData = errors.New("store: stored data do not read back")

// holding is what a store keeps of a match to judge a write to it.
type holding struct {
	found  bool
	epoch  Epoch
	owner  string
	status Status
}

// refusal says why a write to match id under epoch e that needs status
// need (empty: any) cannot be carried out, or nil if it can: a passed epoch
// first, since its writer must stop whatever else is wrong.
func (h holding) refusal(id string, e Epoch, need Status) error {
	switch {
	case !h.found:
		return fmt.Errorf("%w: %s", ErrNotFound, id)
	case h.epoch != e:
		return fmt.Errorf("%w: match %s is at epoch %d (node %q), not %d", ErrFenced, id, h.epoch, h.owner, e)
	case e != 0 && h.owner == "":
		return fmt.Errorf("%w: the lease of epoch %d on match %s was released", ErrFenced, e, id)
	case need != "" && h.status != need:
		return fmt.Errorf("%w: match %s is %s, not %s", ErrConflict, id, h.status, need)
	}
	return nil
}

// refused reports whether err is a write's own refusal, which writes nothing
// and leaves the rest of its batch to land.
func refused(err error) bool {
	return errors.Is(err, ErrConflict) || errors.Is(err, ErrFenced) || errors.Is(err, ErrNotFound) || errors.Is(err, ErrLeased) ||
		errors.Is(err, ErrNoAccount) || errors.Is(err, ErrTaken)
}

func leased(id, holder string, until time.Time) error {
	return fmt.Errorf("%w: match %s is leased to node %q until %s", ErrLeased, id, holder, until.Format(time.RFC3339Nano))
}

func outOfOrder(id string, n int) error {
	return fmt.Errorf("%w: record %d of match %s is not the next one", ErrConflict, n, id)
}

// repeated judges an append of record n that did not land, from what the
// store holds as its last record if that is n (err is noRow if it is not): the
// repeat of it, byte for byte, is done; anything else is out of order.
func repeated(id string, n int, rec, last []byte, err, noRow error) error {
	switch {
	case err == nil && string(last) == string(rec):
		return nil // the repeat of a write that landed
	case err != nil && !errors.Is(err, noRow):
		return err
	}
	return outOfOrder(id, n)
}

// canEnd says why match id, of status from, cannot end with status to
// (see [Store.End]), or returns nil if it can.
func canEnd(id string, from, to Status) error {
	allowed, ok := endsFrom[to]
	switch {
	case !ok:
		return fmt.Errorf("%w: %q is not a status a match ends with", ErrConflict, to)
	case !slices.Contains(allowed, from):
		return fmt.Errorf("%w: match %s is %s and cannot become %s", ErrConflict, id, from, to)
	}
	return nil
}

// endable lists the statuses a match may end with status to from, for a
// query.
func endable(to Status) []string {
	var out []string
	for _, s := range endsFrom[to] {
		out = append(out, string(s))
	}
	return out
}

// over selects the matches that are over, as the partial index on them
// says it.
const over = `status NOT IN ('open', 'running')`

// statusStrings lists statuses for a query.
func statusStrings(ss []Status) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = string(s)
	}
	return out
}

func badSeat(id string, i int) error {
	return fmt.Errorf("%w: match %s has no seat %d", ErrConflict, id, i)
}

func taken(id string) error { return fmt.Errorf("%w: match %s exists", ErrConflict, id) }

// seatJSON is a seat as kept in the seats column.
type seatJSON struct {
	Seat
	Hash string `json:"hash,omitempty"`
}

func encodeSeat(st Seat) seatJSON {
	j := seatJSON{Seat: st}
	if st.TokenHash != nil {
		j.Hash = hex.EncodeToString(st.TokenHash)
	}
	return j
}

func encodeSeats(seats []Seat) (string, error) {
	js := make([]seatJSON, len(seats))
	for i, st := range seats {
		js[i] = encodeSeat(st)
	}
	b, err := json.Marshal(js)
	return string(b), err
}

func decodeSeats(b string) ([]Seat, error) {
	var js []seatJSON
	if err := json.Unmarshal([]byte(b), &js); err != nil {
		return nil, err
	}
	seats := make([]Seat, len(js))
	for i, j := range js {
		seats[i] = j.Seat
		if j.Hash != "" {
			h, err := hex.DecodeString(j.Hash)
			if err != nil {
				return nil, err
			}
			seats[i].TokenHash = h
		}
	}
	return seats, nil
}

// decodeMatch fills m's encoded columns in. What does not read back is left
// zero, and m.Damaged says why (the first fault found).
func decodeMatch(m *Match, setup, seats string, outcome *string) {
	damaged := func(what string, err error) {
		if m.Damaged == "" {
			m.Damaged = fmt.Sprintf("the stored %s of match %s does not read back: %v", what, m.ID, err)
		}
	}
	if err := json.Unmarshal([]byte(setup), &m.Setup); err != nil {
		m.Setup = engine.Setup{}
		damaged("setup", err)
	}
	var err error
	if m.Seats, err = decodeSeats(seats); err != nil {
		m.Seats = nil
		damaged("seats", err)
	}
	if outcome != nil {
		m.Outcome = new(engine.Outcome)
		if err := json.Unmarshal([]byte(*outcome), m.Outcome); err != nil {
			m.Outcome = nil
			damaged("outcome", err)
		}
	}
	m.Lease.Match = m.ID
	if m.Lease.Node == "" {
		m.Lease.Expires = time.Time{}
	}
}

func millis(t time.Time) int64 {
	if t.IsZero() {
		return 0
	}
	return t.UnixMilli()
}

func fromMillis(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms)
}

func limitOr100(n int) int {
	if n <= 0 {
		return 100
	}
	return n
}

// rows is what both drivers' result sets offer.
type rows interface {
	Next() bool
	Scan(dest ...any) error
	Err() error
}

// readLog reads a match's records (n, rec) in order, checking that none is
// missing; fault turns the driver's errors into the store's.
func readLog(id string, rs rows, fault func(error) error) ([][]byte, error) {
	var log [][]byte
	for rs.Next() {
		var n int
		var rec []byte
		if err := rs.Scan(&n, &rec); err != nil {
			return nil, fault(err)
		}
		if n != len(log)+1 {
			return nil, fmt.Errorf("%w: match %s: record %d is missing", errBadData, id, len(log)+1)
		}
		log = append(log, rec)
	}
	return log, fault(rs.Err())
}

// readIDs reads a column of ids.
func readIDs(rs rows, fault func(error) error) ([]string, error) {
	var ids []string
	for rs.Next() {
		var id string
		if err := rs.Scan(&id); err != nil {
			return nil, fault(err)
		}
		ids = append(ids, id)
	}
	return ids, fault(rs.Err())
}

// canonicalEmail is an e-mail address as the store keeps and compares it:
// in lower case, by Go's rules, so that both databases agree on it whatever
// their collation.
func canonicalEmail(email string) string { return strings.ToLower(email) }

func noAccount(id string) error { return fmt.Errorf("%w: %s", ErrNoAccount, id) }

func takenAccount(id string) error {
	return fmt.Errorf("%w: the id, e-mail address or handle of account %s", ErrTaken, id)
}

func noPasskey(account string) error {
	return fmt.Errorf("%w: account %s has no such passkey", ErrNoAccount, account)
}

func takenPasskey(account string) error {
	return fmt.Errorf("%w: the passkey added to account %s", ErrTaken, account)
}

var errNoToken = fmt.Errorf("%w: the sign-in token is not held (used, past its time, or never given)", ErrNoAccount)

// checkAccount refuses an account that cannot be stored.
func checkAccount(a *Account) error {
	if a.ID == "" || len(a.Handle) == 0 {
		return errors.New("store: an account needs an id and a handle")
	}
	return nil
}

// checkPasskey refuses a passkey that cannot be stored.
func checkPasskey(p *Passkey) error {
	if len(p.ID) == 0 || p.Account == "" {
		return errors.New("store: a passkey needs an id and an account")
	}
	return nil
}

// checkPair refuses a follow or block that is not between two accounts.
func checkPair(verb, from, to string) error {
	switch {
	case from == "" || to == "":
		return fmt.Errorf("store: %s needs two accounts", verb)
	case from == to:
		return fmt.Errorf("store: account %s cannot %s itself", from, verb)
	}
	return nil
}

// checkInvitation refuses an invitation that names no match or account.
func checkInvitation(inv Invitation) error {
	if inv.Match == "" || inv.Account == "" || inv.From == "" {
		return errors.New("store: an invitation needs a match, the account invited and the account inviting")
	}
	return nil
}

// heldSeats lists the seats that accounts hold, by seat index, for the
// seat_accounts table.
func heldSeats(seats []Seat) (index []int32, account []string) {
	for i, st := range seats {
		if st.Account != "" {
			index, account = append(index, int32(i)), append(account, st.Account)
		}
	}
	return index, account
}

// forgetAccount leaves the seats that account held to nobody, marked as a
// deleted player's, with their names cleared ([Accounts.DeleteAccount]),
// and reports whether there was one.
func forgetAccount(seats []Seat, account string) bool {
	changed := false
	for i := range seats {
		if seats[i].Account == account {
			seats[i].Account, seats[i].Name, seats[i].Deleted = "", "", true
			changed = true
		}
	}
	return changed
}

// relationKinds are the kinds of [Relations] rows, as the queries name them.
const (
	relFollowing = "following"
	relFollower  = "follower"
	relBlocked   = "blocked"
)

func (r *Relations) add(kind, id string) {
	switch kind {
	case relFollowing:
		r.Following = append(r.Following, id)
	case relFollower:
		r.Followers = append(r.Followers, id)
	case relBlocked:
		r.Blocked = append(r.Blocked, id)
	}
}
