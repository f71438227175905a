package storetest

import (
	"crypto/sha256"
	"errors"
	"testing"
	"time"

	"sortie/internal/store"
)

// TicketStore is a store that keeps Play now's tickets, as every store of
// Sortie does.
type TicketStore interface {
	store.Store
	store.Tickets
}

// RunTickets runs every scenario of [store.Tickets] as a subtest of t.
func RunTickets(t *testing.T, h Harness) { h.runAll(t, ticketScenarios) }

// CheckTickets runs the tickets scenarios named in only (all, if none is)
// and returns their failures, or nil.
func CheckTickets(t testing.TB, h Harness, only ...string) error {
	return h.check(t, ticketScenarios, only)
}

var ticketScenarios = []scenario{
	{"Tickets", tickets},
	{"Locks", locks},
}

func (r *run) tickets() TicketStore {
	s := r.store()
	ts, ok := s.(TicketStore)
	if !ok {
		r.fail("the store (%T) keeps no tickets", s)
	}
	return ts
}

func hashOf(s string) []byte { h := sha256.Sum256([]byte(s)); return h[:] }

func ticket(secret, account string, created time.Time) *store.Ticket {
	return &store.Ticket{Hash: hashOf(secret), Account: account, Name: "Player " + account, Game: "testcards", Players: 2,
		Mode: "duel", Rated: true, BotFill: 30 * time.Second, Mu: 27.5, Sigma: 6.25, Leaver: account == "lea",
		TokenHash: hashOf("token of " + secret), Created: created}
}

func (r *run) waiting(s TicketStore) string {
	ts, err := s.WaitingTickets(r.ctx)
	r.ok(err, "waiting tickets")
	out := ""
	for _, t := range ts {
		out += t.Account + " "
	}
	return out
}

// A ticket reads back field for field from another handle; a player waits
// at one pool at a time; a cancel is the player's own and refused once
// matched; tickets are matched all or none; tickets done are pruned.
func tickets(r *run) {
	s, other := r.tickets(), r.tickets()
	ana := ticket("t-ana", "ana", t0)
	ana.MoveLimitMs = 2 * 86_400_000 // a correspondence table of two days a move
	ana.PlayersMax = 4               // of two to four players
	r.ok(s.PutTicket(r.ctx, ana), "put ana's ticket")
	r.is(s.PutTicket(r.ctx, ticket("t-ana", "bob", t0)), store.ErrConflict, "a ticket of a hash taken")
	got, err := other.Ticket(r.ctx, hashOf("t-ana"))
	r.ok(err, "ana's ticket")
	want := *ana
	want.Status = store.TicketWaiting
	if got.Account != want.Account || got.Name != want.Name || got.Game != want.Game || got.Players != 2 || got.Mode != "duel" ||
		!got.Rated || got.HumansOnly || got.BotFill != want.BotFill || got.Mu != 27.5 || got.Sigma != 6.25 || got.Leaver ||
		string(got.TokenHash) != string(want.TokenHash) || !got.Created.Equal(t0) || got.Status != store.TicketWaiting || !got.Done.IsZero() ||
		got.MoveLimitMs != ana.MoveLimitMs || got.PlayersMax != 4 {
		r.fail("ana's ticket reads back as %+v", got)
	}
	_, err = s.Ticket(r.ctx, hashOf("nope"))
	r.is(err, store.ErrNotFound, "an unknown ticket")
	for i, acc := range []string{"bob", "cyd", "lea"} {
		r.ok(s.PutTicket(r.ctx, ticket("t-"+acc, acc, t0.Add(time.Duration(i+1)*time.Second))), "put %s's ticket", acc)
	}
	// Ana asks again: her first ticket is cancelled.
	r.ok(s.PutTicket(r.ctx, ticket("t-ana2", "ana", t0.Add(time.Minute))), "ana asks again")
	if got := r.waiting(other); got != "bob cyd lea ana " {
		r.fail("waiting: %q", got)
	}
	if t, _ := other.Ticket(r.ctx, hashOf("t-ana")); t.Status != store.TicketCancelled || !t.Done.Equal(t0.Add(time.Minute)) {
		r.fail("ana's first ticket once she asked again: %+v", t)
	}
	r.is(s.CancelTicket(r.ctx, hashOf("t-bob"), "cyd", t0), store.ErrNotFound, "cyd cancels bob's ticket")
	r.ok(s.CancelTicket(r.ctx, hashOf("t-cyd"), "cyd", t0.Add(time.Hour)), "cyd cancels")
	r.ok(s.CancelTicket(r.ctx, hashOf("t-cyd"), "cyd", t0.Add(time.Hour)), "cyd cancels again")
	// A cancelled ticket in the group: nothing is matched.
	r.is(s.MatchTickets(r.ctx, "m1", [][]byte{hashOf("t-bob"), hashOf("t-cyd")}, []int{0, 1}, t0), store.ErrConflict, "match bob with cyd, who left")
	if got := r.waiting(other); got != "bob lea ana " {
		r.fail("waiting after a refused match: %q", got)
	}
	r.ok(s.MatchTickets(r.ctx, "m1", [][]byte{hashOf("t-bob"), hashOf("t-ana2")}, []int{1, 0}, t0.Add(2*time.Hour)), "match bob and ana")
	if t, _ := other.Ticket(r.ctx, hashOf("t-bob")); t.Status != store.TicketMatched || t.Match != "m1" || t.Seat != 1 {
		r.fail("bob's ticket once matched: %+v", t)
	}
	r.is(s.CancelTicket(r.ctx, hashOf("t-bob"), "bob", t0), store.ErrConflict, "bob cancels once matched")
	r.is(s.MatchTickets(r.ctx, "m2", [][]byte{hashOf("t-bob"), hashOf("t-lea")}, []int{0, 1}, t0), store.ErrConflict, "bob matched twice")
	if t, _ := other.Ticket(r.ctx, hashOf("t-lea")); t.Status != store.TicketWaiting || !t.Leaver || t.MoveLimitMs != 0 || t.PlayersMax != 0 {
		r.fail("lea's ticket after a refused match: %+v", t)
	}
	n, err := s.PruneTickets(r.ctx, t0.Add(90*time.Minute), 0)
	r.ok(err, "prune")
	if n != 2 { // ana's first and cyd's; not bob's (matched later) nor the waiting
		r.fail("pruned %d tickets, want 2", n)
	}
	if _, err := s.Ticket(r.ctx, hashOf("t-cyd")); !errors.Is(err, store.ErrNotFound) {
		r.fail("cyd's pruned ticket: %v", err)
	}
}

// One node holds a lock at a time: it renews it, another takes it only
// once it expired.
func locks(r *run) {
	a, b := r.tickets(), r.tickets()
	held := func(s TicketStore, node string, ttl time.Duration) bool {
		ok, err := s.TakeLock(r.ctx, "matchmaker", node, ttl)
		r.ok(err, "lock for %s", node)
		return ok
	}
	if !held(a, "A", 300*time.Millisecond) || held(b, "B", time.Second) || !held(a, "A", 300*time.Millisecond) {
		r.fail("A takes the lock, B may not, A renews it")
	}
	ok, err := b.TakeLock(r.ctx, "other", "B", time.Second)
	if err != nil || !ok {
		r.fail("another lock: %v %v", ok, err)
	}
	time.Sleep(400 * time.Millisecond)
	if !held(b, "B", time.Minute) || held(a, "A", time.Minute) {
		r.fail("once A's lock expired, B takes it and A may not")
	}
}
