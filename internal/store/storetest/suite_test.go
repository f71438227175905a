package storetest_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"sortie/engine"
	"sortie/internal/store"
	"sortie/internal/store/storetest"
)

// harness runs the suite on SQLite stores made flawed by wrap.
func harness(wrap func(store.Store) store.Store) storetest.Harness {
	return storetest.Harness{Open: func(t testing.TB, onCommit func(int, time.Duration)) func() (store.Store, error) {
		path := filepath.Join(t.TempDir(), "sortie.db")
		return func() (store.Store, error) {
			s, err := store.OpenSQLite(path, store.SQLiteOptions{Sync: "normal", OnCommit: onCommit})
			if err != nil {
				return nil, err
			}
			return wrap(s), nil
		}
	}}
}

// unfenced writes under whatever epoch the match is at now, as a store
// that never checked epochs would.
type unfenced struct{ store.Store }

func (u unfenced) Append(ctx context.Context, id string, _ store.Epoch, n int, rec []byte, at engine.Millis) error {
	m, err := u.Get(ctx, id)
	if err != nil {
		return err
	}
	return u.Store.Append(ctx, id, m.Lease.Epoch, n, rec, at)
}

// thief takes a lease that another node holds.
type thief struct{ store.Store }

func (th thief) Acquire(ctx context.Context, id, node string, ttl time.Duration) (store.Lease, error) {
	l, err := th.Store.Acquire(ctx, id, node, ttl)
	if errors.Is(err, store.ErrLeased) {
		m, _ := th.Get(ctx, id)
		th.Release(ctx, m.Lease)
		return th.Store.Acquire(ctx, id, node, ttl)
	}
	return l, err
}

// lenient takes a record out of order as if it had landed.
type lenient struct{ store.Store }

func (l lenient) Append(ctx context.Context, id string, e store.Epoch, n int, rec []byte, at engine.Millis) error {
	if err := l.Store.Append(ctx, id, e, n, rec, at); !errors.Is(err, store.ErrConflict) {
		return err
	}
	return nil
}

// forgetful acknowledges records it was too late to write.
type forgetful struct{ store.Store }

func (f forgetful) Append(ctx context.Context, id string, e store.Epoch, n int, rec []byte, at engine.Millis) error {
	if err := f.Store.Append(ctx, id, e, n, rec, at); !errors.Is(err, store.ErrClosed) {
		return err
	}
	return nil
}

// backwards lists the oldest matches first.
type backwards struct{ store.Store }

func (b backwards) List(ctx context.Context, f store.Filter) ([]*store.Match, error) {
	ms, err := b.Store.List(ctx, f)
	slices.Reverse(ms)
	return ms, err
}

// greedy prunes every match over, whatever the limit.
type greedy struct{ store.Store }

func (g greedy) Prune(ctx context.Context, before time.Time, _ int) (int, error) {
	return g.Store.Prune(ctx, before, 1000)
}

// careless keeps no reason for a match that ended.
type careless struct{ store.Store }

func (c careless) End(ctx context.Context, id string, e store.Epoch, st store.Status, _ string, clock engine.Millis, at time.Time) error {
	return c.Store.End(ctx, id, e, st, "", clock, at)
}

// TestSuiteCatchesFlaws plants one flaw at a time in a real store and
// expects the suite to name it.
// amnesiac lists every creation, whenever it was.
type amnesiac struct{ store.Store }

func (a amnesiac) Creations(ctx context.Context, _ time.Time) ([]store.Creation, error) {
	return a.Store.Creations(ctx, time.Time{})
}

// lateFinisher completes a job under whatever claim it has now, as a store
// that never checked the claim's epoch would.
type lateFinisher struct{ store.Store }

func (l lateFinisher) CompleteJob(ctx context.Context, j *store.Job, result []byte) error {
	cur, err := l.JobOf(ctx, j.Kind, j.Key)
	if err != nil {
		return err
	}
	if cur.Status != store.JobPending || cur.Node == "" {
		return l.Store.CompleteJob(ctx, j, result)
	}
	return l.Store.CompleteJob(ctx, cur, result)
}

// poacher claims, when nothing is free, a job another node holds (those it
// queued itself).
type poacher struct {
	store.Store
	mu     *sync.Mutex
	queued *[]string
}

func (p poacher) EnqueueJob(ctx context.Context, kind, key, match string, at time.Time) (bool, error) {
	p.mu.Lock()
	*p.queued = append(*p.queued, key)
	p.mu.Unlock()
	return p.Store.EnqueueJob(ctx, kind, key, match, at)
}

func (p poacher) ClaimJob(ctx context.Context, kind, node string, ttl time.Duration) (*store.Job, error) {
	j, err := p.Store.ClaimJob(ctx, kind, node, ttl)
	if !errors.Is(err, store.ErrNotFound) {
		return j, err
	}
	p.mu.Lock()
	keys := slices.Clone(*p.queued)
	p.mu.Unlock()
	for _, k := range keys {
		if cur, err := p.JobOf(ctx, kind, k); err == nil && cur.Status == store.JobPending && cur.Node != "" && cur.Node != node {
			return cur, nil
		}
	}
	return nil, err
}

// stubborn keeps the seeds it is given for a day's challenge, whatever
// another node set first.
type stubborn struct{ store.Store }

func (s stubborn) DailySeed(ctx context.Context, d store.Daily) (store.Daily, error) {
	if _, err := s.Store.DailySeed(ctx, d); err != nil {
		return store.Daily{}, err
	}
	return d, nil
}

// repeater counts a hint asked again at the same step as a new one.
type repeater struct {
	store.Store
	n *atomic.Int32
}

func (r repeater) AddHint(ctx context.Context, match string, h store.Hint) error {
	h.Step += 1000 * int(r.n.Add(1))
	return r.Store.AddHint(ctx, match, h)
}

func TestSuiteCatchesFlaws(t *testing.T) {
	for _, c := range []struct {
		name      string
		wrap      func(store.Store) store.Store
		scenarios []string
		want      string // what the failure names; alternatives separated by |
	}{
		{"appends that ignore the epoch", func(s store.Store) store.Store { return unfenced{s} },
			[]string{"FencingRace", "Leases"}, "FencingRace|append under A's first epoch"},
		{"a lease taken from its live holder", func(s store.Store) store.Store { return thief{s} },
			[]string{"Leases", "Takeover"}, "B acquires m1 while A holds it"},
		{"records taken out of order", func(s store.Store) store.Store { return lenient{s} },
			[]string{"AppendOrder"}, "append to an open match"},
		{"records acknowledged but not written", func(s store.Store) store.Store { return forgetful{s} },
			[]string{"CloseKeepsAcknowledged"}, "append after close"},
		{"a list in the wrong order", func(s store.Store) store.Store { return backwards{s} },
			[]string{"List"}, "List: list"},
		{"a prune past its limit", func(s store.Store) store.Store { return greedy{s} },
			[]string{"Prune"}, "pruned 4, want 2"},
		{"ends that forget why", func(s store.Store) store.Store { return careless{s} },
			[]string{"Ends"}, "abandoned reads back"},
		{"creations from the dawn of time", func(s store.Store) store.Store { return amnesiac{s} },
			[]string{"Creations"}, "creations since a minute in"},
		{"a job completed after its claim was taken over", func(s store.Store) store.Store { return lateFinisher{s} },
			[]string{"Jobs"}, "A completes j2 after B took it over"},
		{"a job claimed while another node holds it", func() func(store.Store) store.Store {
			var mu sync.Mutex
			var queued []string
			return func(s store.Store) store.Store { return poacher{s, &mu, &queued} }
		}(), []string{"Jobs"}, "B claims while A holds j2 and B j3"},
		{"a day's challenge set again by each node", func(s store.Store) store.Store { return stubborn{s} },
			[]string{"Daily"}, "B's challenge"},
		{"a hint counted each time it is asked", func() func(store.Store) store.Store {
			var n atomic.Int32
			return func(s store.Store) store.Store { return repeater{s, &n} }
		}(), []string{"Hints"}, "hints"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := storetest.Check(t, harness(c.wrap), c.scenarios...)
			if err == nil {
				t.Fatalf("the suite passed a store with %s", c.name)
			}
			if !slices.ContainsFunc(strings.Split(c.want, "|"), func(w string) bool { return strings.Contains(err.Error(), w) }) {
				t.Fatalf("the suite failed, but not on %q: %v", c.want, err)
			}
			t.Logf("caught: %v", strings.SplitN(err.Error(), "\n", 2)[0])
		})
	}
}

// accountsHarness runs the accounts suite on SQLite stores made flawed by
// wrap.
func accountsHarness(wrap func(storetest.AccountStore) storetest.AccountStore) storetest.Harness {
	return harness(func(s store.Store) store.Store { return wrap(s.(storetest.AccountStore)) })
}

// reusable leaves a sign-in token usable once taken.
type reusable struct{ storetest.AccountStore }

func (u reusable) TakeSignInToken(ctx context.Context, hash []byte, now time.Time) (string, error) {
	email, err := u.AccountStore.TakeSignInToken(ctx, hash, now)
	if err == nil {
		u.PutSignInToken(ctx, hash, email, now.Add(15*time.Minute))
	}
	return email, err
}

// lateUse uses a token up a moment after it answers, as a node that reads
// the token and deletes it afterwards would.
type lateUse struct{ storetest.AccountStore }

func (l lateUse) TakeSignInToken(ctx context.Context, hash []byte, now time.Time) (string, error) {
	email, err := l.AccountStore.TakeSignInToken(ctx, hash, now)
	if err == nil {
		l.PutSignInToken(ctx, hash, email, now.Add(time.Minute))
		time.AfterFunc(50*time.Millisecond, func() { l.AccountStore.TakeSignInToken(context.Background(), hash, now) })
	}
	return email, err
}

// caseSensitive finds an account only by its address in the case it was
// stored in.
type caseSensitive struct{ storetest.AccountStore }

func (c caseSensitive) AccountByEmail(ctx context.Context, email string) (*store.Account, error) {
	a, err := c.AccountStore.AccountByEmail(ctx, email)
	if err == nil && a.Email != email {
		return nil, store.ErrNoAccount
	}
	return a, err
}

// sessionLog remembers the sessions committed through every handle of one
// scenario.
type sessionLog struct {
	mu      sync.Mutex
	account map[string]string // by hash
	data    map[string][]byte
	expiry  map[string]time.Time
}

func newSessionLog() *sessionLog {
	return &sessionLog{account: map[string]string{}, data: map[string][]byte{}, expiry: map[string]time.Time{}}
}

// keptSessions deletes an account but not its sessions: it commits them
// again.
type keptSessions struct {
	storetest.AccountStore
	log *sessionLog
}

func (k keptSessions) CommitSession(ctx context.Context, hash, data []byte, account string, expiry time.Time) error {
	k.log.mu.Lock()
	k.log.account[string(hash)], k.log.data[string(hash)], k.log.expiry[string(hash)] = account, data, expiry
	k.log.mu.Unlock()
	return k.AccountStore.CommitSession(ctx, hash, data, account, expiry)
}

func (k keptSessions) DeleteAccount(ctx context.Context, id string) error {
	if err := k.AccountStore.DeleteAccount(ctx, id); err != nil {
		return err
	}
	k.log.mu.Lock()
	defer k.log.mu.Unlock()
	for h, a := range k.log.account {
		if a == id {
			k.AccountStore.CommitSession(ctx, []byte(h), k.log.data[h], a, k.log.expiry[h])
		}
	}
	return nil
}

// cachedSessions serves sessions from a cache of the node's own, which
// never looks at their expiry.
type cachedSessions struct {
	storetest.AccountStore
	log *sessionLog
}

func (c cachedSessions) CommitSession(ctx context.Context, hash, data []byte, account string, expiry time.Time) error {
	c.log.mu.Lock()
	c.log.data[string(hash)] = data
	c.log.mu.Unlock()
	return c.AccountStore.CommitSession(ctx, hash, data, account, expiry)
}

func (c cachedSessions) DeleteSession(ctx context.Context, hash []byte) error {
	c.log.mu.Lock()
	delete(c.log.data, string(hash))
	c.log.mu.Unlock()
	return c.AccountStore.DeleteSession(ctx, hash)
}

func (c cachedSessions) FindSession(ctx context.Context, hash []byte) ([]byte, bool, error) {
	c.log.mu.Lock()
	data, ok := c.log.data[string(hash)]
	c.log.mu.Unlock()
	if ok {
		return data, true, nil
	}
	return c.AccountStore.FindSession(ctx, hash)
}

// namedSeats deletes an account but leaves its seats' names.
type namedSeats struct{ storetest.AccountStore }

func (n namedSeats) DeleteAccount(ctx context.Context, id string) error {
	held, err := n.HeldSeats(ctx, id, store.Filter{Limit: 1000})
	if err != nil {
		return err
	}
	if err := n.AccountStore.DeleteAccount(ctx, id); err != nil {
		return err
	}
	for _, h := range held {
		m, err := n.Get(ctx, h.Match.ID)
		if err != nil {
			return err
		}
		st := m.Seats[h.Seat]
		st.Name = h.Match.Seats[h.Seat].Name
		if err := n.SetSeat(ctx, m.ID, m.Lease.Epoch, h.Seat, st); err != nil {
			return err
		}
	}
	return nil
}

// stillFollowing blocks but leaves the blocked one following.
type stillFollowing struct{ storetest.AccountStore }

func (s stillFollowing) Block(ctx context.Context, from, to string) error {
	rel, err := s.Relations(ctx, to)
	if err != nil {
		return err
	}
	if err := s.AccountStore.Block(ctx, from, to); err != nil {
		return err
	}
	if slices.Contains(rel.Following, from) {
		return s.Follow(ctx, to, from)
	}
	return nil
}

// heldOldestFirst lists held seats the oldest match first.
type heldOldestFirst struct{ storetest.AccountStore }

func (h heldOldestFirst) HeldSeats(ctx context.Context, account string, f store.Filter) ([]store.HeldSeat, error) {
	hs, err := h.AccountStore.HeldSeats(ctx, account, f)
	slices.Reverse(hs)
	return hs, err
}

// heldAnyStatus lists held seats whatever their matches' status.
type heldAnyStatus struct{ storetest.AccountStore }

func (h heldAnyStatus) HeldSeats(ctx context.Context, account string, f store.Filter) ([]store.HeldSeat, error) {
	f.Statuses = nil
	return h.AccountStore.HeldSeats(ctx, account, f)
}

// greedySessionPrune prunes every session past its time, whatever the
// limit.
type greedySessionPrune struct{ storetest.AccountStore }

func (g greedySessionPrune) PruneSessions(ctx context.Context, now time.Time, _ int) (int, error) {
	return g.AccountStore.PruneSessions(ctx, now, 1000)
}

// quietTaken says an update that found the address taken was done.
type quietTaken struct{ storetest.AccountStore }

func (q quietTaken) UpdateAccount(ctx context.Context, a *store.Account) error {
	if err := q.AccountStore.UpdateAccount(ctx, a); !errors.Is(err, store.ErrTaken) {
		return err
	}
	return nil
}

// anyonesPasskey removes a passkey whoever asks.
type anyonesPasskey struct{ storetest.AccountStore }

func (a anyonesPasskey) DeletePasskey(ctx context.Context, _ string, id []byte) error {
	p, err := a.PasskeyByID(ctx, id)
	if err != nil {
		return err
	}
	return a.AccountStore.DeletePasskey(ctx, p.Account, id)
}

// TestAccountsSuiteCatchesFlaws plants one flaw at a time in a real store
// and expects the accounts suite to name it.
func TestAccountsSuiteCatchesFlaws(t *testing.T) {
	for _, c := range []struct {
		name      string
		wrap      func() func(storetest.AccountStore) storetest.AccountStore
		scenarios []string
		want      string // what the failure names; alternatives separated by |
	}{
		{"a sign-in token left usable once taken", wrapWith(func(s storetest.AccountStore) storetest.AccountStore { return reusable{s} }),
			[]string{"SignInTokens"}, "take t1 a second time"},
		{"a sign-in token used up a moment late", wrapWith(func(s storetest.AccountStore) storetest.AccountStore { return lateUse{s} }),
			[]string{"SignInTokenRace"}, "times by 8 callers on two nodes, want once"},
		{"an address compared in its case", wrapWith(func(s storetest.AccountStore) storetest.AccountStore { return caseSensitive{s} }),
			[]string{"Accounts"}, "ana by e-mail in another case"},
		{"sessions that outlive their account", func() func(storetest.AccountStore) storetest.AccountStore {
			log := newSessionLog()
			return func(s storetest.AccountStore) storetest.AccountStore { return keptSessions{s, log} }
		}, []string{"DeleteAccount"}, "ana's session sa1 outlived her|ana's session sa2 outlived her"},
		{"expired sessions found in a node's cache", func() func(storetest.AccountStore) storetest.AccountStore {
			return func(s storetest.AccountStore) storetest.AccountStore { return cachedSessions{s, newSessionLog()} }
		}, []string{"Sessions"}, "an expired session is found"},
		{"a deleted player's seats keeping their names", wrapWith(func(s storetest.AccountStore) storetest.AccountStore { return namedSeats{s} }),
			[]string{"DeleteAccount"}, "once ana was deleted: {Kind:human"},
		{"a block that leaves the blocked following", wrapWith(func(s storetest.AccountStore) storetest.AccountStore { return stillFollowing{s} }),
			[]string{"Follows"}, "after ana blocks bob, her relations: following [], followers [bob]"},
		{"held seats the oldest first", wrapWith(func(s storetest.AccountStore) storetest.AccountStore { return heldOldestFirst{s} }),
			[]string{"HeldSeats"}, `ana's seats {Statuses:[] Game: Limit:0}: "m1:0 m2:1`},
		{"held seats of any status", wrapWith(func(s storetest.AccountStore) storetest.AccountStore { return heldAnyStatus{s} }),
			[]string{"HeldSeats"}, "ana's seats {Statuses:[running finished]"},
		{"a session prune past its limit", wrapWith(func(s storetest.AccountStore) storetest.AccountStore { return greedySessionPrune{s} }),
			[]string{"PruneSessions"}, "pruned 5 sessions and tokens, want 2"},
		{"an address taken without a word", wrapWith(func(s storetest.AccountStore) storetest.AccountStore { return quietTaken{s} }),
			[]string{"Accounts"}, "bob takes ana's address"},
		{"a passkey removed by another account", wrapWith(func(s storetest.AccountStore) storetest.AccountStore { return anyonesPasskey{s} }),
			[]string{"Passkeys"}, "bob removes ana's passkey"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := storetest.CheckAccounts(t, accountsHarness(c.wrap()), c.scenarios...)
			if err == nil {
				t.Fatalf("the suite passed a store with %s", c.name)
			}
			if !slices.ContainsFunc(strings.Split(c.want, "|"), func(w string) bool { return strings.Contains(err.Error(), w) }) {
				t.Fatalf("the suite failed, but not on %q: %v", c.want, err)
			}
			t.Logf("caught: %v", strings.SplitN(err.Error(), "\n", 2)[0])
		})
	}
	// And the suite passes the store as it is.
	if err := storetest.CheckAccounts(t, accountsHarness(func(s storetest.AccountStore) storetest.AccountStore { return s })); err != nil {
		t.Fatalf("the suite fails the store as it is: %v", err)
	}
}

// wrapWith makes a wrapper that keeps no state between handles.
func wrapWith(w func(storetest.AccountStore) storetest.AccountStore) func() func(storetest.AccountStore) storetest.AccountStore {
	return func() func(storetest.AccountStore) storetest.AccountStore { return w }
}

func ratingsHarness(wrap func(storetest.RatingStore) storetest.RatingStore) storetest.Harness {
	return harness(func(s store.Store) store.Store { return wrap(s.(storetest.RatingStore)) })
}

// blindRatings computes every change from the rating stored now, as a
// store that never checked what a change was computed from would.
type blindRatings struct{ storetest.RatingStore }

func (b blindRatings) RecordRating(ctx context.Context, r *store.MatchRating) error {
	for i, c := range r.Changes {
		rs, _ := b.PlayerRatings(ctx, r.Game, r.Family, []string{c.Player})
		r.Changes[i].Before.Games = 0
		if len(rs) == 1 {
			r.Changes[i].Before.Games = rs[0].Games
		}
	}
	return b.RatingStore.RecordRating(ctx, r)
}

// boardOfAll ranks every rating, established or not.
type boardOfAll struct{ storetest.RatingStore }

func (a boardOfAll) Leaderboard(ctx context.Context, b store.Board) ([]store.PlayerRating, error) {
	b.MaxSigma = 0
	return a.RatingStore.Leaderboard(ctx, b)
}

// keptRatings keeps an account's ratings when it is deleted.
type keptRatings struct{ storetest.RatingStore }

func (k keptRatings) DeleteAccount(ctx context.Context, id string) error {
	rs, _ := k.RatingsOf(ctx, id)
	if err := k.RatingStore.DeleteAccount(ctx, id); err != nil || len(rs) == 0 {
		return err
	}
	return k.RecordRating(ctx, &store.MatchRating{Match: "kept", Rated: true, Game: rs[0].Game, Family: rs[0].Family,
		Changes: []store.RatingChange{{Player: id, Mu: rs[0].Mu, Sigma: rs[0].Sigma}}})
}

// TestRatingsSuiteCatchesFlaws plants one flaw at a time in a real store
// and expects the ratings suite to name it.
func TestRatingsSuiteCatchesFlaws(t *testing.T) {
	for _, c := range []struct {
		name      string
		wrap      func(storetest.RatingStore) storetest.RatingStore
		scenarios []string
		want      string
	}{
		{"changes written whatever rating they start from", func(s storetest.RatingStore) storetest.RatingStore { return blindRatings{s} },
			[]string{"RatingConflicts"}, "a change from ana's first rating"},
		{"a leaderboard of uncertain ratings", func(s storetest.RatingStore) storetest.RatingStore { return boardOfAll{s} },
			[]string{"Leaderboard"}, "the established two best"},
		{"ratings kept past their account", func(s storetest.RatingStore) storetest.RatingStore { return keptRatings{s} },
			[]string{"DeleteAccountRatings"}, "a deleted account keeps its ratings"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := storetest.CheckRatings(t, ratingsHarness(c.wrap), c.scenarios...)
			if err == nil {
				t.Fatalf("the suite passed a store with %s", c.name)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("the suite failed, but not on %q: %v", c.want, err)
			}
			t.Logf("caught: %v", strings.SplitN(err.Error(), "\n", 2)[0])
		})
	}
	if err := storetest.CheckRatings(t, ratingsHarness(func(s storetest.RatingStore) storetest.RatingStore { return s })); err != nil {
		t.Fatalf("the suite fails the store as it is: %v", err)
	}
}

func ticketsHarness(wrap func(storetest.TicketStore) storetest.TicketStore) storetest.Harness {
	return harness(func(s store.Store) store.Store { return wrap(s.(storetest.TicketStore)) })
}

// sharedLock gives a lock to whoever asks.
type sharedLock struct{ storetest.TicketStore }

func (sharedLock) TakeLock(context.Context, string, string, time.Duration) (bool, error) {
	return true, nil
}

// anyonesTicket cancels a ticket whoever asks.
type anyonesTicket struct{ storetest.TicketStore }

func (a anyonesTicket) CancelTicket(ctx context.Context, hash []byte, _ string, at time.Time) error {
	t, err := a.Ticket(ctx, hash)
	if err != nil {
		return err
	}
	return a.TicketStore.CancelTicket(ctx, hash, t.Account, at)
}

// TestTicketsSuiteCatchesFlaws plants one flaw at a time in a real store
// and expects the tickets suite to name it.
func TestTicketsSuiteCatchesFlaws(t *testing.T) {
	for _, c := range []struct {
		name, scenario, want string
		wrap                 func(storetest.TicketStore) storetest.TicketStore
	}{
		{"a lock held by two nodes", "Locks", "B may not", func(s storetest.TicketStore) storetest.TicketStore { return sharedLock{s} }},
		{"a ticket cancelled by another account", "Tickets", "cyd cancels bob's ticket",
			func(s storetest.TicketStore) storetest.TicketStore { return anyonesTicket{s} }},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := storetest.CheckTickets(t, ticketsHarness(c.wrap), c.scenario)
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("the suite did not catch %s on %q: %v", c.name, c.want, err)
			}
			t.Logf("caught: %v", err)
		})
	}
	if err := storetest.CheckTickets(t, ticketsHarness(func(s storetest.TicketStore) storetest.TicketStore { return s })); err != nil {
		t.Fatalf("the suite fails the store as it is: %v", err)
	}
}

func notifyHarness(wrap func(storetest.NotifyStore) storetest.NotifyStore) storetest.Harness {
	return harness(func(s store.Store) store.Store { return wrap(s.(storetest.NotifyStore)) })
}

// eagerJobs claims jobs before they are due.
type eagerJobs struct{ storetest.NotifyStore }

func (e eagerJobs) ClaimJob(ctx context.Context, kind, node string, ttl time.Duration) (*store.Job, error) {
	js, err := e.ClaimJobs(ctx, kind, "", node, ttl, 1)
	if err == nil && len(js) == 0 {
		err = store.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	return js[0], nil
}

// ownSecret tells each node the secret it proposed.
type ownSecret struct{ storetest.NotifyStore }

func (o ownSecret) Secret(ctx context.Context, name string, value []byte) ([]byte, error) {
	if _, err := o.NotifyStore.Secret(ctx, name, value); err != nil {
		return nil, err
	}
	return value, nil
}

// endlessDevices keeps every subscription an account makes.
type endlessDevices struct{ storetest.NotifyStore }

func (e endlessDevices) AddPushSubscription(ctx context.Context, p *store.PushSubscription, _ int) error {
	return e.NotifyStore.AddPushSubscription(ctx, p, 0)
}

// TestNotificationsSuiteCatchesFlaws plants one flaw at a time in a real
// store and expects the notifications suite to name it.
func TestNotificationsSuiteCatchesFlaws(t *testing.T) {
	for _, c := range []struct {
		name, scenario, want string
		wrap                 func(storetest.NotifyStore) storetest.NotifyStore
	}{
		{"jobs claimed before they are due", "DueJobs", "not yet due", func(s storetest.NotifyStore) storetest.NotifyStore { return eagerJobs{s} }},
		{"a secret each node sets for itself", "Secrets", "was told the secret", func(s storetest.NotifyStore) storetest.NotifyStore { return ownSecret{s} }},
		{"no bound on an account's devices", "PushSubscriptions", "the oldest should have gone", func(s storetest.NotifyStore) storetest.NotifyStore { return endlessDevices{s} }},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := storetest.CheckNotifications(t, notifyHarness(c.wrap), c.scenario)
			if err == nil {
				t.Fatalf("the suite passed a store with %s", c.name)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Fatalf("the suite failed, but not on %q: %v", c.want, err)
			}
			t.Logf("caught: %v", strings.SplitN(err.Error(), "\n", 2)[0])
		})
	}
	if err := storetest.CheckNotifications(t, notifyHarness(func(s storetest.NotifyStore) storetest.NotifyStore { return s })); err != nil {
		t.Fatalf("the suite fails the store as it is: %v", err)
	}
}
