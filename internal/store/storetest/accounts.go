package storetest

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"sortie/engine"
	"sortie/internal/store"
)

// AccountStore is a store that keeps accounts beside its matches, as every
// store of Sortie does.
type AccountStore interface {
	store.Store
	store.Accounts
}

// RunAccounts runs every scenario of [store.Accounts] as a subtest of t. The
// harness's stores must be [AccountStore]s.
func RunAccounts(t *testing.T, h Harness) { h.runAll(t, accountScenarios) }

// CheckAccounts runs the accounts scenarios named in only (all, if none is)
// and returns their failures, or nil.
func CheckAccounts(t testing.TB, h Harness, only ...string) error {
	return h.check(t, accountScenarios, only)
}

var accountScenarios = []scenario{
	{"Accounts", accounts},
	{"Passkeys", passkeys},
	{"Sessions", sessions},
	{"PruneSessions", pruneSessions},
	{"SignInTokens", signInTokens},
	{"SignInTokenRace", signInTokenRace},
	{"HeldSeats", heldSeats},
	{"Invitations", invitations},
	{"Rematches", rematches},
	{"FindAccounts", findAccounts},
	{"PruneForgetsAccounts", pruneForgetsAccounts},
	{"Follows", follows},
	{"DeleteAccount", deleteAccount},
	{"AddressRace", addressRace},
	{"DeleteAccountRace", deleteAccountRace},
}

// accounts opens one more handle, which must keep accounts.
func (r *run) accounts() AccountStore {
	s := r.store()
	a, ok := s.(AccountStore)
	if !ok {
		r.fail("the store (%T) keeps no accounts", s)
	}
	return a
}

func newAccount(id, email string) *store.Account {
	return &store.Account{ID: id, Name: "Player " + id, Email: email, Lang: "fr", Handle: []byte("handle of " + id), Created: t0}
}

// create stores accounts of these ids, with no e-mail address.
func (r *run) create(s AccountStore, ids ...string) {
	for _, id := range ids {
		r.ok(s.CreateAccount(r.ctx, newAccount(id, "")), "create account %s", id)
	}
}

func (r *run) account(s AccountStore, id string) *store.Account {
	a, err := s.Account(r.ctx, id)
	r.ok(err, "account %s", id)
	return a
}

// Accounts read back by id, address (in any case) and handle, from another
// handle; an id, address or handle is one account's only; an update sets
// the name, address and language and nothing else.
func accounts(r *run) {
	s := r.accounts()
	ana := newAccount("ana", "Ana.Lima@Example.org")
	r.ok(s.CreateAccount(r.ctx, ana), "create ana")
	r.create(s, "bob", "cy") // two accounts without an address
	if err := s.CreateAccount(r.ctx, &store.Account{Name: "No id", Handle: []byte("h"), Created: t0}); err == nil {
		r.fail("an account without an id was taken")
	}
	s = r.accounts()
	same := func(got *store.Account, want *store.Account, email string) {
		if got.ID != want.ID || got.Name != want.Name || got.Email != email || got.Lang != want.Lang ||
			string(got.Handle) != string(want.Handle) || !got.Created.Equal(want.Created) {
			r.fail("account %s reads back as %+v, want %+v with address %q", want.ID, got, want, email)
		}
	}
	same(r.account(s, "ana"), ana, "ana.lima@example.org")
	for _, email := range []string{"ana.lima@example.org", "ANA.LIMA@EXAMPLE.ORG", "Ana.Lima@Example.org"} {
		a, err := s.AccountByEmail(r.ctx, email)
		r.ok(err, "ana by e-mail in another case (%s)", email)
		same(a, ana, "ana.lima@example.org")
	}
	a, err := s.AccountByHandle(r.ctx, []byte("handle of bob"))
	r.ok(err, "bob by handle")
	same(a, newAccount("bob", ""), "")
	for what, err := range map[string]error{
		"an unknown id":                     second(s.Account(r.ctx, "nope")),
		"an unknown address":                second(s.AccountByEmail(r.ctx, "nope@example.org")),
		"no address (bob and cy have none)": second(s.AccountByEmail(r.ctx, "")),
		"an unknown handle":                 second(s.AccountByHandle(r.ctx, []byte("handle of nope"))),
	} {
		r.is(err, store.ErrNoAccount, "an account by %s", what)
	}

	dup := func(id, email, handle string) *store.Account {
		return &store.Account{ID: id, Name: "Dup", Email: email, Lang: "en", Handle: []byte(handle), Created: t0.Add(time.Hour)}
	}
	r.is(s.CreateAccount(r.ctx, dup("ana", "", "new handle")), store.ErrTaken, "create an account with ana's id")
	r.is(s.CreateAccount(r.ctx, dup("dan", "ANA.LIMA@example.ORG", "new handle")), store.ErrTaken, "create an account with ana's address in another case")
	r.is(s.CreateAccount(r.ctx, dup("dan", "", "handle of bob")), store.ErrTaken, "create an account with bob's handle")
	same(r.account(s, "ana"), ana, "ana.lima@example.org")
	r.is(second(s.Account(r.ctx, "dan")), store.ErrNoAccount, "dan after refused creations")

	bob := r.account(s, "bob")
	bob.Email = "ana.lima@EXAMPLE.org"
	r.is(s.UpdateAccount(r.ctx, bob), store.ErrTaken, "bob takes ana's address")
	if b := r.account(s, "bob"); b.Email != "" {
		r.fail("a refused update gave bob the address %q", b.Email)
	}
	r.ok(s.UpdateAccount(r.ctx, &store.Account{ID: "bob", Name: "Bobby", Email: "Bob@Example.org", Lang: "en",
		Handle: []byte("another handle"), Created: t0.Add(time.Hour)}), "update bob")
	same(r.account(s, "bob"), &store.Account{ID: "bob", Name: "Bobby", Lang: "en", Handle: []byte("handle of bob"), Created: t0}, "bob@example.org")
	ana.Name = "Ana L."
	r.ok(s.UpdateAccount(r.ctx, ana), "ana renames herself, keeping her address")
	same(r.account(s, "ana"), ana, "ana.lima@example.org")
	r.is(s.UpdateAccount(r.ctx, newAccount("nope", "")), store.ErrNoAccount, "update an unknown account")
	ana.Email = ""
	r.ok(s.UpdateAccount(r.ctx, ana), "ana gives her address up")
	r.is(second(s.AccountByEmail(r.ctx, "ana.lima@example.org")), store.ErrNoAccount, "ana by the address she gave up")
	r.ok(s.CreateAccount(r.ctx, dup("dan", "ana.lima@example.org", "handle of dan")), "dan takes the address ana gave up")
	if a, err := s.AccountByEmail(r.ctx, "Ana.Lima@example.org"); err != nil || a.ID != "dan" {
		r.fail("the address ana gave up is %+v's, %v; want dan's", a, err)
	}
}

// second returns the error of a call that returns a value and an error.
func second[T any](_ T, err error) error { return err }

// An account's passkeys, oldest first; a passkey's id is one passkey's
// only; only its account renames, uses or removes it.
func passkeys(r *run) {
	s := r.accounts()
	r.create(s, "ana", "bob")
	phone := &store.Passkey{ID: []byte("phone\x00\xff"), Account: "ana", Name: "Phone", Credential: []byte(`{"pk":1}`), Created: t0.Add(2 * time.Minute)}
	laptop := &store.Passkey{ID: []byte("laptop"), Account: "ana", Name: "Laptop", Credential: []byte(`{"pk":2}`), Created: t0.Add(time.Minute)}
	r.ok(s.AddPasskey(r.ctx, phone), "add ana's phone")
	r.ok(s.AddPasskey(r.ctx, laptop), "add ana's laptop")
	r.is(s.AddPasskey(r.ctx, &store.Passkey{ID: []byte("phone\x00\xff"), Account: "bob", Name: "Stolen", Credential: []byte("x"), Created: t0}),
		store.ErrTaken, "bob adds ana's phone's passkey")
	r.is(s.AddPasskey(r.ctx, &store.Passkey{ID: []byte("k"), Account: "nope", Name: "K", Credential: []byte("x"), Created: t0}),
		store.ErrNoAccount, "a passkey of an unknown account")
	s = r.accounts()
	same := func(got, want *store.Passkey) {
		if string(got.ID) != string(want.ID) || got.Account != want.Account || got.Name != want.Name ||
			string(got.Credential) != string(want.Credential) || !got.Created.Equal(want.Created) || !got.Used.Equal(want.Used) {
			r.fail("passkey %q reads back as %+v, want %+v", want.ID, got, want)
		}
	}
	list := func(account string) []*store.Passkey {
		ps, err := s.Passkeys(r.ctx, account)
		r.ok(err, "%s's passkeys", account)
		return ps
	}
	if ps := list("ana"); len(ps) != 2 {
		r.fail("ana has %d passkeys, want 2", len(ps))
	} else {
		same(ps[0], laptop)
		same(ps[1], phone)
	}
	if ps := list("bob"); len(ps) != 0 {
		r.fail("bob has passkeys: %+v", ps)
	}
	p, err := s.PasskeyByID(r.ctx, []byte("phone\x00\xff"))
	r.ok(err, "the phone's passkey by id")
	same(p, phone)
	r.is(second(s.PasskeyByID(r.ctx, []byte("phone"))), store.ErrNoAccount, "an unknown passkey")

	used := *phone
	used.Name, used.Credential, used.Used, used.Created = "Old phone", []byte(`{"pk":1,"count":7}`), t0.Add(time.Hour), t0.Add(time.Hour)
	r.ok(s.UpdatePasskey(r.ctx, &used), "ana renames and uses her phone")
	used.Created = phone.Created // a passkey's creation stays
	same(r.passkey(s, phone.ID), &used)
	theft := used
	theft.Account, theft.Name = "bob", "Mine"
	r.is(s.UpdatePasskey(r.ctx, &theft), store.ErrNoAccount, "bob renames ana's passkey")
	r.is(s.DeletePasskey(r.ctx, "bob", phone.ID), store.ErrNoAccount, "bob removes ana's passkey")
	same(r.passkey(s, phone.ID), &used)
	r.ok(s.DeletePasskey(r.ctx, "ana", phone.ID), "ana removes her phone")
	r.is(s.DeletePasskey(r.ctx, "ana", phone.ID), store.ErrNoAccount, "ana removes her phone again")
	r.is(second(s.PasskeyByID(r.ctx, phone.ID)), store.ErrNoAccount, "a removed passkey")
	if ps := list("ana"); len(ps) != 1 || string(ps[0].ID) != "laptop" {
		r.fail("ana's passkeys after removing one: %+v", ps)
	}
	// A removed passkey's id may come back (the same authenticator
	// registered again).
	r.ok(s.AddPasskey(r.ctx, &store.Passkey{ID: phone.ID, Account: "bob", Name: "Phone", Credential: []byte("x"), Created: t0}), "bob adds the removed passkey")
}

func (r *run) passkey(s AccountStore, id []byte) *store.Passkey {
	p, err := s.PasskeyByID(r.ctx, id)
	r.ok(err, "passkey %q", id)
	return p
}

// session says whether s finds the session of hash h, and checks its data.
func (r *run) session(s AccountStore, h, want string) bool {
	data, found, err := s.FindSession(r.ctx, []byte(h))
	r.ok(err, "find session %s", h)
	if found && string(data) != want {
		r.fail("session %s holds %q, want %q", h, data, want)
	}
	return found
}

// Sessions are found on every node until they expire, replaced whole,
// deleted one by one or all of an account's at once (and none of
// nobody's).
func sessions(r *run) {
	nodeA, nodeB := r.accounts(), r.accounts()
	now := time.Now()
	for _, c := range []struct {
		hash, account string
		expiry        time.Time
	}{{"s1", "ana", now.Add(time.Hour)}, {"s2", "ana", now.Add(time.Hour)}, {"s3", "bob", now.Add(time.Hour)},
		{"guest", "", now.Add(time.Hour)}, {"old", "ana", now.Add(-time.Minute)}} {
		r.ok(nodeA.CommitSession(r.ctx, []byte(c.hash), []byte("data of "+c.hash), c.account, c.expiry), "commit %s", c.hash)
	}
	for _, s := range []AccountStore{nodeA, nodeB} {
		if r.session(s, "old", "data of old") {
			r.fail("an expired session is found")
		}
		for _, h := range []string{"s1", "s2", "s3", "guest"} {
			if !r.session(s, h, "data of "+h) {
				r.fail("session %s is not found", h)
			}
		}
		if r.session(s, "nope", "") {
			r.fail("an unknown session is found")
		}
	}
	// A session about to expire is found, then not.
	r.ok(nodeA.CommitSession(r.ctx, []byte("brief"), []byte("data of brief"), "ana", time.Now().Add(2*time.Second)), "commit a brief session")
	if !r.session(nodeA, "brief", "data of brief") {
		r.fail("a session two seconds from its expiry is not found")
	}
	r.eventually("the brief session expires", func() bool { return !r.session(nodeA, "brief", "data of brief") })

	r.ok(nodeB.CommitSession(r.ctx, []byte("s1"), []byte("s1 signed in to bob"), "bob", now.Add(2*time.Hour)), "replace s1")
	if !r.session(nodeA, "s1", "s1 signed in to bob") {
		r.fail("the replaced session s1 is not found")
	}
	n, err := nodeB.DeleteSessionsOf(r.ctx, "ana") // s2, brief and old: s1 is bob's now
	r.ok(err, "sign ana out everywhere")
	if n != 3 {
		r.fail("signing ana out everywhere deleted %d sessions, want 3", n)
	}
	if r.session(nodeA, "s2", "data of s2") {
		r.fail("ana's session s2 outlived her signing out everywhere")
	}
	if !r.session(nodeA, "s1", "s1 signed in to bob") || !r.session(nodeA, "s3", "data of s3") {
		r.fail("bob's sessions went with ana's")
	}
	if n, err := nodeA.DeleteSessionsOf(r.ctx, ""); err != nil || n != 0 || !r.session(nodeA, "guest", "data of guest") {
		r.fail("signing nobody out everywhere: %d deleted, %v", n, err)
	}
	r.ok(nodeA.DeleteSession(r.ctx, []byte("s1")), "delete s1")
	r.ok(nodeA.DeleteSession(r.ctx, []byte("s1")), "delete s1 again")
	if r.session(nodeB, "s1", "") {
		r.fail("a deleted session is found")
	}
	// Bytes are bytes.
	odd := "\x00\xff\x01"
	r.ok(nodeA.CommitSession(r.ctx, []byte(odd), []byte(odd), "", now.Add(time.Hour)), "commit odd bytes")
	if !r.session(nodeB, odd, odd) {
		r.fail("a session of odd bytes is not found")
	}
}

// Sessions and sign-in tokens past their time are deleted, as many as asked
// in all, and nothing live.
func pruneSessions(r *run) {
	s := r.accounts()
	now := time.Now()
	for i, ago := range []time.Duration{3 * time.Hour, 2 * time.Hour, time.Hour, -time.Hour} {
		r.ok(s.CommitSession(r.ctx, fmt.Appendf(nil, "s%d", i), []byte("x"), "ana", now.Add(-ago)), "commit s%d", i)
	}
	for i, ago := range []time.Duration{30 * time.Minute, 10 * time.Minute, -10 * time.Minute} {
		r.ok(s.PutSignInToken(r.ctx, fmt.Appendf(nil, "t%d", i), "ana@example.org", now.Add(-ago)), "put t%d", i)
	}
	n, err := s.PruneSessions(r.ctx, now, 2)
	r.ok(err, "prune 2")
	if n != 2 {
		r.fail("pruned %d sessions and tokens, want 2", n)
	}
	n, err = s.PruneSessions(r.ctx, now, 100)
	r.ok(err, "prune the rest")
	if n != 3 {
		r.fail("pruned %d more, want 3 (a session and two tokens)", n)
	}
	if n, err := s.PruneSessions(r.ctx, now, 100); err != nil || n != 0 {
		r.fail("a third prune: %d, %v", n, err)
	}
	if !r.session(s, "s3", "x") {
		r.fail("the live session was pruned")
	}
	if n, err := s.DeleteSessionsOf(r.ctx, "ana"); err != nil || n != 1 {
		r.fail("ana had %d sessions left after the prune (%v), want the live one", n, err)
	}
	if email, err := s.TakeSignInToken(r.ctx, []byte("t2"), now); err != nil || email != "ana@example.org" {
		r.fail("the live token after the prune: %q, %v", email, err)
	}
}

// A sign-in token gives its address once, before its time, on any node.
func signInTokens(r *run) {
	nodeA, nodeB := r.accounts(), r.accounts()
	now := time.Now()
	r.ok(nodeA.PutSignInToken(r.ctx, []byte("t1"), "Ana@Example.org", now.Add(15*time.Minute)), "put t1")
	r.ok(nodeA.PutSignInToken(r.ctx, []byte("t2"), "bob@example.org", now.Add(15*time.Minute)), "put t2")
	email, err := nodeB.TakeSignInToken(r.ctx, []byte("t1"), now)
	r.ok(err, "take t1")
	if email != "ana@example.org" {
		r.fail("t1 gave %q, want ana@example.org", email)
	}
	r.is(second(nodeB.TakeSignInToken(r.ctx, []byte("t1"), now)), store.ErrNoAccount, "take t1 a second time")
	r.is(second(nodeA.TakeSignInToken(r.ctx, []byte("t1"), now)), store.ErrNoAccount, "take t1 a second time, on another node")
	r.is(second(nodeA.TakeSignInToken(r.ctx, []byte("t2"), now.Add(15*time.Minute))), store.ErrNoAccount, "take t2 at its expiry")
	r.is(second(nodeA.TakeSignInToken(r.ctx, []byte("t2"), now.Add(time.Hour))), store.ErrNoAccount, "take t2 past its expiry")
	r.is(second(nodeA.TakeSignInToken(r.ctx, []byte("nope"), now)), store.ErrNoAccount, "take an unknown token")
	r.is(second(nodeA.TakeSignInToken(r.ctx, []byte("t"), now)), store.ErrNoAccount, "take a token by a part of its hash")
}

// Tokens taken at once by many callers on two nodes are each taken once:
// every caller tries every token, in the same order, so that they meet on
// each.
func signInTokenRace(r *run) {
	nodes := []AccountStore{r.accounts(), r.accounts()}
	const tokens, callers = 100, 4 // callers per node
	now := time.Now()
	for i := range tokens {
		r.ok(nodes[0].PutSignInToken(r.ctx, fmt.Appendf(nil, "t%d", i), fmt.Sprintf("p%d@example.org", i), now.Add(time.Hour)), "put t%d", i)
	}
	var (
		mu    sync.Mutex
		taken = map[string]int{}
		fs    []func() error
	)
	for _, s := range nodes {
		for range callers {
			fs = append(fs, func() error {
				for i := range tokens {
					email, err := s.TakeSignInToken(r.ctx, fmt.Appendf(nil, "t%d", i), now)
					switch {
					case err == nil:
						mu.Lock()
						taken[email]++
						mu.Unlock()
					case !errors.Is(err, store.ErrNoAccount):
						return err
					}
				}
				return nil
			})
		}
	}
	r.race("take tokens at once", fs...)
	for i := range tokens {
		if n := taken[fmt.Sprintf("p%d@example.org", i)]; n != 1 {
			r.fail("t%d was taken %d times by %d callers on two nodes, want once", i, n, 2*callers)
		}
	}
}

// held lists an account's held seats as "match:seat" words.
func (r *run) held(s AccountStore, account string, f store.Filter) string {
	hs, err := s.HeldSeats(r.ctx, account, f)
	r.ok(err, "%s's seats %+v", account, f)
	var words []string
	for _, h := range hs {
		words = append(words, fmt.Sprintf("%s:%d", h.Match.ID, h.Seat))
	}
	return strings.Join(words, " ")
}

// withAccounts is a new match whose seats are held by these accounts ("" for
// a guest's), created by the first.
func withAccounts(id string, created time.Time, holders ...string) *store.Match {
	m := newMatch(id, created)
	m.Seats = nil
	for i, a := range holders {
		m.Seats = append(m.Seats, store.Seat{Kind: "human", Bot: "random", Name: fmt.Sprintf("%s at %d", a, i), Joined: a != "",
			Account: a, TokenHash: []byte{byte(i + 1)}})
	}
	m.Setup.Players = len(holders)
	if len(holders) > 0 {
		m.Account = holders[0]
	}
	return m
}

// The seats an account holds, as Create and SetSeat leave them, in the
// matches a filter keeps, newest first, each with its match; a match's
// creating account reads back.
func heldSeats(r *run) {
	s := r.accounts()
	r.ok(s.Create(r.ctx, withAccounts("m1", t0, "ana", "")), "create m1")
	m2 := withAccounts("m2", t0.Add(time.Minute), "bob", "")
	m2.Game = "other"
	r.ok(s.Create(r.ctx, m2), "create m2")
	r.ok(s.Create(r.ctx, withAccounts("m3", t0.Add(2*time.Minute), "bob", "ana")), "create m3")
	r.ok(s.Create(r.ctx, withAccounts("m4", t0.Add(3*time.Minute), "ana", "ana", "")), "create m4")
	r.ok(s.Create(r.ctx, withAccounts("m5", t0.Add(4*time.Minute), "", "")), "create m5")
	for _, id := range []string{"m3", "m4"} {
		r.ok(s.Start(r.ctx, id, 0, t0), "start %s", id)
	}
	r.ok(s.Finish(r.ctx, "m4", 0, engine.Outcome{Winners: []engine.Seat{0}}, 10, t0.Add(time.Hour)), "finish m4")
	// ana joins m2 and m5 signed in.
	for _, id := range []string{"m2", "m5"} {
		r.ok(s.SetSeat(r.ctx, id, 0, 1, store.Seat{Kind: "human", Name: "Ana", Joined: true, Account: "ana", TokenHash: []byte{2}}), "ana joins %s", id)
	}
	s = r.accounts()
	if m := r.get(s, "m3"); m.Account != "bob" || m.Seats[0].Account != "bob" || m.Seats[1].Account != "ana" {
		r.fail("m3 reads back created by %q with seats %+v", m.Account, m.Seats)
	}
	if m := r.get(s, "m5"); m.Account != "" || m.Seats[1].Account != "ana" || m.Seats[0].Account != "" {
		r.fail("m5 reads back created by %q with seats %+v", m.Account, m.Seats)
	}
	if ms, err := s.List(r.ctx, store.Filter{Game: "other"}); err != nil || len(ms) != 1 || ms[0].Account != "bob" {
		r.fail("List does not read a match's account back: %+v %v", ms, err)
	}
	for _, c := range []struct {
		account string
		f       store.Filter
		want    string
	}{
		{"ana", store.Filter{}, "m5:1 m4:0 m4:1 m3:1 m2:1 m1:0"},
		{"ana", store.Filter{Statuses: []store.Status{store.Running, store.Finished}}, "m4:0 m4:1 m3:1"},
		{"ana", store.Filter{Statuses: []store.Status{store.Open}}, "m5:1 m2:1 m1:0"},
		{"ana", store.Filter{Game: "other"}, "m2:1"},
		{"ana", store.Filter{Game: "testcards", Statuses: []store.Status{store.Open}}, "m5:1 m1:0"},
		{"ana", store.Filter{Limit: 2}, "m5:1 m4:0"},
		{"bob", store.Filter{}, "m3:0 m2:0"},
		{"cy", store.Filter{}, ""},
		{"", store.Filter{}, ""},
	} {
		if got := r.held(s, c.account, c.f); got != c.want {
			r.fail("%s's seats %+v: %q, want %q", c.account, c.f, got, c.want)
		}
	}
	hs, err := s.HeldSeats(r.ctx, "ana", store.Filter{Game: "testcards", Statuses: []store.Status{store.Finished}})
	r.ok(err, "ana's finished seats")
	if len(hs) != 2 || hs[0].Match.ID != "m4" || hs[0].Match.Status != store.Finished || hs[0].Match.Outcome == nil ||
		hs[0].Match.Setup.Seed != 42 || hs[0].Match.Account != "ana" || hs[1].Match.Seats[1].Account != "ana" {
		r.fail("ana's finished seats lack their matches' fields: %+v", hs)
	}

	// A seat changes hands, or becomes a guest's.
	r.ok(s.SetSeat(r.ctx, "m3", 0, 1, store.Seat{Kind: "human", Name: "Bob again", Joined: true, Account: "bob"}), "bob takes m3's seat 1")
	r.ok(s.SetSeat(r.ctx, "m1", 0, 0, store.Seat{Kind: "human", Name: "Guest", Joined: true}), "m1's seat 0 becomes a guest's")
	if got := r.held(s, "ana", store.Filter{}); got != "m5:1 m4:0 m4:1 m2:1" {
		r.fail("ana's seats after losing two: %q", got)
	}
	if got := r.held(s, "bob", store.Filter{}); got != "m3:0 m3:1 m2:0" {
		r.fail("bob's seats after taking one: %q", got)
	}
	// A refused seat writes nothing, in the index either.
	l, err := s.Acquire(r.ctx, "m5", "A", time.Minute)
	r.ok(err, "acquire m5")
	r.is(s.SetSeat(r.ctx, "m5", 0, 0, store.Seat{Kind: "human", Account: "cy"}), store.ErrFenced, "cy takes a seat of m5 under a passed epoch")
	r.is(s.SetSeat(r.ctx, "m5", l.Epoch, 2, store.Seat{Kind: "human", Account: "cy"}), store.ErrConflict, "cy takes seat 2 of 2")
	r.is(s.Create(r.ctx, withAccounts("m1", t0, "cy")), store.ErrConflict, "cy creates a second m1")
	if got := r.held(s, "cy", store.Filter{}); got != "" {
		r.fail("refused writes gave cy seats: %q", got)
	}
	r.ok(s.SetSeat(r.ctx, "m5", l.Epoch, 0, store.Seat{Kind: "human", Account: "cy"}), "cy takes a seat of m5 under its lease")
	if got := r.held(s, "cy", store.Filter{}); got != "m5:0" {
		r.fail("cy's seats: %q", got)
	}
}

// invited lists an account's invitations as "match:seat<from" words.
func (r *run) invited(s AccountStore, account string) string {
	invs, err := s.Invitations(r.ctx, account)
	r.ok(err, "%s's invitations", account)
	var words []string
	for _, inv := range invs {
		if inv.Account != account {
			r.fail("an invitation of %s's is for %s", account, inv.Account)
		}
		words = append(words, fmt.Sprintf("%s:%d<%s", inv.Match, inv.Seat, inv.From))
	}
	return strings.Join(words, " ")
}

// Seats are kept for accounts, one invitation a seat, newest first; an
// invitation to no match, no seat or no account writes nothing.
func invitations(r *run) {
	s := r.accounts()
	r.create(s, "ana", "bob", "cy")
	r.ok(s.Create(r.ctx, withAccounts("m1", t0, "ana", "", "")), "create m1")
	r.ok(s.Create(r.ctx, withAccounts("m2", t0, "cy", "")), "create m2")
	inv := func(match string, seat int, account, from string, at time.Duration) store.Invitation {
		return store.Invitation{Match: match, Seat: seat, Account: account, From: from, Created: t0.Add(at)}
	}
	r.ok(s.Invite(r.ctx, inv("m1", 1, "bob", "ana", time.Minute)), "ana invites bob to m1")
	r.ok(s.Invite(r.ctx, inv("m2", 1, "bob", "cy", 2*time.Minute)), "cy invites bob to m2")
	r.ok(s.Invite(r.ctx, inv("m1", 2, "cy", "ana", 3*time.Minute)), "ana invites cy to m1")
	s = r.accounts()
	invs, err := s.Invitations(r.ctx, "bob")
	r.ok(err, "bob's invitations")
	if len(invs) != 2 || invs[0].Match != "m2" || invs[0].Seat != 1 || invs[0].Account != "bob" || invs[0].From != "cy" ||
		!invs[0].Created.Equal(t0.Add(2*time.Minute)) || invs[1].Match != "m1" || !invs[1].Created.Equal(t0.Add(time.Minute)) {
		r.fail("bob's invitations read back as %+v", invs)
	}
	for _, c := range []struct {
		inv  store.Invitation
		want error
		what string
	}{
		{inv("nope", 0, "bob", "ana", 0), store.ErrNotFound, "to an unknown match"},
		{inv("m2", 2, "bob", "cy", 0), store.ErrConflict, "to seat 2 of 2"},
		{inv("m2", -1, "bob", "cy", 0), store.ErrConflict, "to seat -1"},
		{inv("m2", 0, "nope", "cy", 0), store.ErrNoAccount, "of an unknown account"},
		{inv("m2", 0, "bob", "nope", 0), store.ErrNoAccount, "from an unknown account"},
	} {
		r.is(s.Invite(r.ctx, c.inv), c.want, "an invitation %s", c.what)
	}
	if err := s.Invite(r.ctx, inv("m2", 0, "", "cy", 0)); err == nil {
		r.fail("an invitation of nobody was taken")
	}
	if got := r.invited(s, "bob"); got != "m2:1<cy m1:1<ana" {
		r.fail("bob's invitations after refused ones: %q", got)
	}
	// An invitation of the same seat replaces the one before.
	r.ok(s.Invite(r.ctx, inv("m1", 1, "cy", "ana", 4*time.Minute)), "ana invites cy to bob's seat")
	if got := r.invited(s, "cy"); got != "m1:1<ana m1:2<ana" {
		r.fail("cy's invitations: %q", got)
	}
	if got := r.invited(s, "bob"); got != "m2:1<cy" {
		r.fail("bob's invitations once his seat was kept for cy: %q", got)
	}
	r.ok(s.Uninvite(r.ctx, "m2", 1), "cy takes bob's invitation back")
	r.ok(s.Uninvite(r.ctx, "m2", 1), "cy takes it back again")
	r.ok(s.Uninvite(r.ctx, "nope", 0), "take back an invitation to an unknown match")
	if got := r.invited(s, "bob"); got != "" {
		r.fail("bob's invitations after they were taken back: %q", got)
	}
	if got := r.invited(s, "ana"); got != "" {
		r.fail("ana, who invited, is invited: %q", got)
	}
}

// A search finds names whatever their case and accents, those that start
// with the query first, and gives nothing private; a renamed player is
// found by the new name only.
func findAccounts(r *run) {
	s := r.accounts()
	for id, name := range map[string]string{"a1": "Émile", "a2": "Amélie", "a3": "Mel", "a4": "emilie", "a5": "Zoé"} {
		a := newAccount(id, id+"@example.org")
		a.Name = name
		r.ok(s.CreateAccount(r.ctx, a), "create %s", name)
	}
	names := func(query string, limit int) string {
		found, err := r.accounts().FindAccounts(r.ctx, query, limit)
		r.ok(err, "find %q", query)
		var out []string
		for _, a := range found {
			out = append(out, a.ID+" "+a.Name)
		}
		return strings.Join(out, ", ")
	}
	for _, c := range []struct {
		query string
		limit int
		want  string
	}{
		{"EMI", 10, "a1 Émile, a4 emilie"},
		{"mel", 10, "a3 Mel, a2 Amélie"},
		{"mél", 1, "a3 Mel"},
		{"zoe", 10, "a5 Zoé"},
		{"example", 10, ""},
		{"nobody", 10, ""},
	} {
		if got := names(c.query, c.limit); got != c.want {
			r.fail("find %q: %q, want %q", c.query, got, c.want)
		}
	}
	a := r.account(s, "a5")
	a.Name = "Zélie"
	r.ok(s.UpdateAccount(r.ctx, a), "rename Zoé")
	if got := names("zoe", 10) + "|" + names("zel", 10); got != "|a5 Zélie" {
		r.fail("after the rename: %q", got)
	}
}

// Players asking for a match's rematch at once on two nodes: one rematch
// is recorded, every caller is told the same, and a read finds it; another
// match's rematch is its own.
func rematches(r *run) {
	nodes := []AccountStore{r.accounts(), r.accounts()}
	got, err := nodes[0].Rematch(r.ctx, "m1", "")
	r.ok(err, "read m1's rematch before any")
	if got != "" {
		r.fail("m1 has a rematch before anyone asked: %q", got)
	}
	var (
		mu   sync.Mutex
		seen = map[string]int{}
		fs   []func() error
	)
	for n, s := range nodes {
		for c := range 4 {
			fs = append(fs, func() error {
				held, err := s.Rematch(r.ctx, "m1", fmt.Sprintf("r%d-%d", n, c))
				mu.Lock()
				seen[held]++
				mu.Unlock()
				return err
			})
		}
	}
	r.race("ask for m1's rematch at once", fs...)
	if len(seen) != 1 || seen[""] != 0 {
		r.fail("the callers were told of rematches %v", seen)
	}
	var first string
	for id := range seen {
		first = id
	}
	if got, err := nodes[1].Rematch(r.ctx, "m1", ""); err != nil || got != first {
		r.fail("m1's rematch reads %q (%v), the callers were told %q", got, err, first)
	}
	if got, err := nodes[1].Rematch(r.ctx, "m1", "late"); err != nil || got != first {
		r.fail("a late rematch of m1: %q (%v), want %q", got, err, first)
	}
	if got, err := nodes[0].Rematch(r.ctx, "m2", "r2"); err != nil || got != "r2" {
		r.fail("m2's rematch: %q (%v)", got, err)
	}
}

// A match pruned takes its held seats and invitations with it: its id taken
// again starts with neither.
func pruneForgetsAccounts(r *run) {
	s := r.accounts()
	r.create(s, "ana", "bob")
	r.running(s, "old", t0)
	r.ok(s.SetSeat(r.ctx, "old", 0, 0, store.Seat{Kind: "human", Name: "Ana", Joined: true, Account: "ana"}), "ana joins old")
	r.ok(s.Invite(r.ctx, store.Invitation{Match: "old", Seat: 1, Account: "bob", From: "ana", Created: t0}), "ana invites bob to old")
	r.ok(s.Finish(r.ctx, "old", 0, engine.Outcome{}, 0, t0), "finish old")
	r.ok(s.Create(r.ctx, withAccounts("kept", t0, "ana", "")), "create kept")
	r.ok(s.Invite(r.ctx, store.Invitation{Match: "kept", Seat: 1, Account: "bob", From: "ana", Created: t0}), "ana invites bob to kept")
	if n, err := s.Prune(r.ctx, t0.Add(time.Hour), 10); err != nil || n != 1 {
		r.fail("prune: %d, %v", n, err)
	}
	if got := r.held(s, "ana", store.Filter{}); got != "kept:0" {
		r.fail("ana's seats after old was pruned: %q", got)
	}
	if got := r.invited(s, "bob"); got != "kept:1<ana" {
		r.fail("bob's invitations after old was pruned: %q", got)
	}
	r.ok(s.Create(r.ctx, withAccounts("old", t0.Add(2*time.Hour), "", "")), "create old again, for guests")
	if got := r.held(s, "ana", store.Filter{}); got != "kept:0" {
		r.fail("ana holds a seat of the new old: %q", got)
	}
	if got := r.invited(s, "bob"); got != "kept:1<ana" {
		r.fail("bob is invited to the new old: %q", got)
	}
}

// relations returns an account's relations as one line.
func (r *run) relations(s AccountStore, account string) string {
	rel, err := s.Relations(r.ctx, account)
	r.ok(err, "%s's relations", account)
	return fmt.Sprintf("following %v, followers %v, blocked %v", rel.Following, rel.Followers, rel.Blocked)
}

// Follows and blocks: done twice is done once, a block ends the follows
// both ways, and only accounts follow or block accounts.
func follows(r *run) {
	s := r.accounts()
	r.create(s, "ana", "bob", "cy")
	r.ok(s.Follow(r.ctx, "ana", "bob"), "ana follows bob")
	r.ok(s.Follow(r.ctx, "ana", "bob"), "ana follows bob again")
	r.ok(s.Follow(r.ctx, "bob", "ana"), "bob follows ana back")
	r.ok(s.Follow(r.ctx, "cy", "ana"), "cy follows ana")
	r.is(s.Follow(r.ctx, "ana", "nope"), store.ErrNoAccount, "ana follows an unknown account")
	r.is(s.Follow(r.ctx, "nope", "ana"), store.ErrNoAccount, "an unknown account follows ana")
	if err := s.Follow(r.ctx, "ana", "ana"); err == nil {
		r.fail("ana follows herself")
	}
	s = r.accounts()
	for account, want := range map[string]string{
		"ana": "following [bob], followers [bob cy], blocked []",
		"bob": "following [ana], followers [ana], blocked []",
		"cy":  "following [ana], followers [], blocked []",
		"dan": "following [], followers [], blocked []",
	} {
		if got := r.relations(s, account); got != want {
			r.fail("%s's relations: %s, want %s", account, got, want)
		}
	}
	r.ok(s.Unfollow(r.ctx, "cy", "ana"), "cy unfollows ana")
	r.ok(s.Unfollow(r.ctx, "cy", "ana"), "cy unfollows ana again")
	r.ok(s.Block(r.ctx, "ana", "bob"), "ana blocks bob")
	r.ok(s.Block(r.ctx, "ana", "bob"), "ana blocks bob again")
	r.is(s.Block(r.ctx, "ana", "nope"), store.ErrNoAccount, "ana blocks an unknown account")
	if err := s.Block(r.ctx, "ana", "ana"); err == nil {
		r.fail("ana blocks herself")
	}
	if got, want := r.relations(s, "ana"), "following [], followers [], blocked [bob]"; got != want {
		r.fail("after ana blocks bob, her relations: %s, want %s", got, want)
	}
	if got, want := r.relations(s, "bob"), "following [], followers [], blocked []"; got != want {
		r.fail("after ana blocks bob, his relations: %s, want %s", got, want)
	}
	blocks := func(from, to string) bool {
		b, err := s.Blocks(r.ctx, from, to)
		r.ok(err, "does %s block %s", from, to)
		return b
	}
	if !blocks("ana", "bob") || blocks("bob", "ana") || blocks("ana", "cy") {
		r.fail("blocks: ana-bob %v, bob-ana %v, ana-cy %v; want only ana blocking bob", blocks("ana", "bob"), blocks("bob", "ana"), blocks("ana", "cy"))
	}
	r.ok(s.Unblock(r.ctx, "ana", "bob"), "ana unblocks bob")
	r.ok(s.Unblock(r.ctx, "ana", "bob"), "ana unblocks bob again")
	if blocks("ana", "bob") {
		r.fail("ana still blocks bob after unblocking him")
	}
	if got, want := r.relations(s, "ana"), "following [], followers [], blocked []"; got != want {
		r.fail("after ana unblocks bob, her relations: %s, want %s (an unblock follows nobody back)", got, want)
	}
}

// An account deleted leaves nothing of it: its passkeys, sessions, pending
// sign-in tokens, follows, blocks and invitations go, both ways; the
// matches it created forget it; the seats it held stay, held by nobody,
// marked as a deleted player's, nameless. Everything else stays.
func deleteAccount(r *run) {
	nodeA, nodeB := r.accounts(), r.accounts()
	s := nodeA
	ana := newAccount("ana", "ana@example.org")
	r.ok(s.CreateAccount(r.ctx, ana), "create ana")
	r.create(s, "bob", "cy", "dan")
	for i, id := range []string{"k1", "k2"} {
		r.ok(s.AddPasskey(r.ctx, &store.Passkey{ID: []byte(id), Account: "ana", Name: id, Credential: []byte("c"), Created: t0.Add(time.Duration(i))}), "add %s", id)
	}
	r.ok(s.AddPasskey(r.ctx, &store.Passkey{ID: []byte("kb"), Account: "bob", Name: "kb", Credential: []byte("c"), Created: t0}), "add bob's passkey")
	now := time.Now()
	for _, c := range []struct{ hash, account string }{{"sa1", "ana"}, {"sa2", "ana"}, {"sb", "bob"}, {"guest", ""}} {
		r.ok(s.CommitSession(r.ctx, []byte(c.hash), []byte(c.hash), c.account, now.Add(time.Hour)), "commit %s", c.hash)
	}
	r.ok(s.PutSignInToken(r.ctx, []byte("ta"), "ana@example.org", now.Add(15*time.Minute)), "put ana's token")
	r.ok(s.PutSignInToken(r.ctx, []byte("tb"), "bob@example.org", now.Add(15*time.Minute)), "put bob's token")
	for _, f := range [][2]string{{"ana", "bob"}, {"bob", "ana"}, {"bob", "cy"}} {
		r.ok(s.Follow(r.ctx, f[0], f[1]), "%s follows %s", f[0], f[1])
	}
	for _, b := range [][2]string{{"ana", "cy"}, {"cy", "ana"}, {"dan", "cy"}} {
		r.ok(s.Block(r.ctx, b[0], b[1]), "%s blocks %s", b[0], b[1])
	}
	// m1: ana's, bob at her table; m2: bob's, finished, ana in it; m3: ana
	// holds two seats; m4: bob's alone.
	r.ok(s.Create(r.ctx, withAccounts("m1", t0, "ana", "bob", "", "")), "create m1")
	r.running(s, "m2", t0.Add(time.Minute))
	r.ok(s.SetSeat(r.ctx, "m2", 0, 0, store.Seat{Kind: "human", Name: "Bob", Joined: true, Account: "bob", TokenHash: []byte{1}}), "bob joins m2")
	r.ok(s.SetSeat(r.ctx, "m2", 0, 1, store.Seat{Kind: "human", Name: "Ana", Joined: true, Account: "ana", TokenHash: []byte{2}}), "ana joins m2")
	r.ok(s.Finish(r.ctx, "m2", 0, engine.Outcome{Winners: []engine.Seat{1}}, 10, t0.Add(time.Hour)), "finish m2")
	r.ok(s.Create(r.ctx, withAccounts("m3", t0.Add(2*time.Minute), "ana", "ana")), "create m3")
	r.ok(s.Create(r.ctx, withAccounts("m4", t0.Add(3*time.Minute), "bob", "")), "create m4")
	r.ok(s.Invite(r.ctx, store.Invitation{Match: "m1", Seat: 2, Account: "cy", From: "ana", Created: t0}), "ana invites cy")
	r.ok(s.Invite(r.ctx, store.Invitation{Match: "m4", Seat: 1, Account: "ana", From: "bob", Created: t0}), "bob invites ana")
	r.ok(s.Invite(r.ctx, store.Invitation{Match: "m1", Seat: 3, Account: "bob", From: "cy", Created: t0}), "cy invites bob")
	before := map[string]*store.Match{}
	for _, id := range []string{"m1", "m2", "m3", "m4"} {
		before[id] = r.get(s, id)
	}

	r.ok(nodeB.DeleteAccount(r.ctx, "ana"), "delete ana")
	r.is(nodeB.DeleteAccount(r.ctx, "ana"), store.ErrNoAccount, "delete ana again")
	r.is(nodeB.DeleteAccount(r.ctx, "nope"), store.ErrNoAccount, "delete an unknown account")

	// The account, and all that was its.
	r.is(second(s.Account(r.ctx, "ana")), store.ErrNoAccount, "ana by id")
	r.is(second(s.AccountByEmail(r.ctx, "ana@example.org")), store.ErrNoAccount, "ana by e-mail")
	r.is(second(s.AccountByHandle(r.ctx, ana.Handle)), store.ErrNoAccount, "ana by handle")
	if ps, err := s.Passkeys(r.ctx, "ana"); err != nil || len(ps) != 0 {
		r.fail("ana's passkeys outlived her: %+v %v", ps, err)
	}
	for _, id := range []string{"k1", "k2"} {
		r.is(second(s.PasskeyByID(r.ctx, []byte(id))), store.ErrNoAccount, "ana's passkey %s", id)
	}
	for _, h := range []string{"sa1", "sa2"} {
		if r.session(s, h, h) {
			r.fail("ana's session %s outlived her", h)
		}
	}
	if n, err := s.DeleteSessionsOf(r.ctx, "ana"); err != nil || n != 0 {
		r.fail("ana had %d sessions left (%v)", n, err)
	}
	r.is(second(s.TakeSignInToken(r.ctx, []byte("ta"), now)), store.ErrNoAccount, "ana's pending sign-in token")
	for account, want := range map[string]string{
		"ana": "following [], followers [], blocked []",
		"bob": "following [cy], followers [], blocked []",
		"cy":  "following [], followers [bob], blocked []",
		"dan": "following [], followers [], blocked [cy]",
	} {
		if got := r.relations(s, account); got != want {
			r.fail("%s's relations once ana was deleted: %s, want %s", account, got, want)
		}
	}
	if got := r.invited(s, "cy") + "|" + r.invited(s, "ana") + "|" + r.invited(s, "bob"); got != "||m1:3<cy" {
		r.fail("invitations once ana was deleted (cy's|ana's|bob's): %q", got)
	}
	if got := r.held(s, "ana", store.Filter{}); got != "" {
		r.fail("ana still holds %q", got)
	}

	// Her seats stay, a deleted player's; everything else of the matches
	// stays as it was.
	for id, deleted := range map[string][]int{"m1": {0}, "m2": {1}, "m3": {0, 1}, "m4": nil} {
		m := r.get(s, id)
		want := before[id]
		if want.Account == "ana" {
			want.Account = ""
		}
		if m.Account != want.Account {
			r.fail("%s's creating account is %q, want %q", id, m.Account, want.Account)
		}
		for i := range want.Seats {
			w := want.Seats[i]
			if slices.Contains(deleted, i) {
				w.Account, w.Name, w.Deleted = "", "", true
			}
			got := m.Seats[i]
			if got.Kind != w.Kind || got.Bot != w.Bot || got.Name != w.Name || got.Joined != w.Joined || got.Left != w.Left ||
				got.Account != w.Account || got.Deleted != w.Deleted || string(got.TokenHash) != string(w.TokenHash) {
				r.fail("%s's seat %d once ana was deleted: %+v, want %+v", id, i, got, w)
			}
		}
		if m.Status != want.Status || m.Records != want.Records {
			r.fail("%s changed: %+v, was %+v", id, m, want)
		}
	}
	if got := r.held(s, "bob", store.Filter{}); got != "m4:0 m2:0 m1:1" {
		r.fail("bob's seats once ana was deleted: %q", got)
	}

	// The others' things stay.
	if !r.session(s, "sb", "sb") || !r.session(s, "guest", "guest") {
		r.fail("bob's or a guest's session went with ana")
	}
	if ps, err := s.Passkeys(r.ctx, "bob"); err != nil || len(ps) != 1 {
		r.fail("bob's passkeys once ana was deleted: %+v %v", ps, err)
	}
	if email, err := s.TakeSignInToken(r.ctx, []byte("tb"), now); err != nil || email != "bob@example.org" {
		r.fail("bob's token once ana was deleted: %q %v", email, err)
	}
	// Her address and handle are free: she may come back as a new player.
	r.ok(s.CreateAccount(r.ctx, newAccount("ana2", "ana@example.org")), "a new account with ana's address")
	r.ok(s.CreateAccount(r.ctx, &store.Account{ID: "ana3", Handle: ana.Handle, Created: t0}), "a new account with ana's handle")
	if got := r.held(s, "ana2", store.Filter{}); got != "" {
		r.fail("the new account holds ana's seats: %q", got)
	}
}

// race runs each of fs in a goroutine of its own, all starting at once,
// and fails the scenario with the errors they return.
func (r *run) race(what string, fs ...func() error) {
	var (
		wg    sync.WaitGroup
		start = make(chan struct{})
		errs  = make([]error, len(fs))
	)
	for i, f := range fs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			errs[i] = f()
		}()
	}
	close(start)
	wg.Wait()
	r.ok(errors.Join(errs...), "%s", what)
}

// One address given at once to several accounts, on two nodes, in new
// accounts and in updates, is one account's: the others are told it is
// taken.
func addressRace(r *run) {
	nodes := []AccountStore{r.accounts(), r.accounts()}
	const rounds, callers = 5, 6
	for round := range rounds {
		email := fmt.Sprintf("p%d@example.org", round)
		var mu sync.Mutex
		won := 0
		var fs []func() error
		for c := range callers {
			s := nodes[c%2]
			id := fmt.Sprintf("r%d-%d", round, c)
			if c%3 == 2 { // an account made before, given the address
				r.ok(s.CreateAccount(r.ctx, newAccount(id, "")), "create %s", id)
			}
			fs = append(fs, func() error {
				a := newAccount(id, email)
				var err error
				if c%3 == 2 {
					err = s.UpdateAccount(r.ctx, a)
				} else {
					err = s.CreateAccount(r.ctx, a)
				}
				switch {
				case err == nil:
					mu.Lock()
					won++
					mu.Unlock()
					return nil
				case errors.Is(err, store.ErrTaken):
					return nil
				}
				return fmt.Errorf("%s takes %s: %w", id, email, err)
			})
		}
		r.race("give one address to several accounts at once", fs...)
		if won != 1 {
			r.fail("%s was given to %d accounts at once, want 1", email, won)
		}
		if _, err := nodes[0].AccountByEmail(r.ctx, email); err != nil {
			r.fail("the account of %s: %v", email, err)
		}
	}
}

// Writes that need an account, racing on one node with its deletion on
// another, are refused once it is gone, and leave nothing of it behind.
func deleteAccountRace(r *run) {
	nodeA, nodeB := r.accounts(), r.accounts()
	r.create(nodeA, "bob", "cy")
	r.ok(nodeA.Create(r.ctx, withAccounts("m", t0, "bob", "", "", "")), "create m")
	for round := range 4 {
		id := fmt.Sprint("ana", round)
		r.create(nodeA, id)
		// Each writer writes until the account is gone; deletion comes
		// after a few writes of each.
		var wrote sync.WaitGroup
		writer := func(write func(n int) error) func() error {
			wrote.Add(1)
			return func() error {
				var once sync.Once
				defer once.Do(wrote.Done)
				for n := 0; ; n++ {
					if n == 3 {
						once.Do(wrote.Done)
					}
					err := write(n)
					if errors.Is(err, store.ErrNoAccount) {
						return nil
					}
					if err != nil {
						return err
					}
				}
			}
		}
		r.race("writes for "+id+" while it is deleted",
			writer(func(int) error { return nodeA.Follow(r.ctx, "bob", id) }),
			writer(func(int) error { return nodeA.Follow(r.ctx, id, "cy") }),
			writer(func(int) error { return nodeA.Block(r.ctx, "cy", id) }),
			writer(func(n int) error {
				return nodeA.AddPasskey(r.ctx, &store.Passkey{ID: fmt.Appendf(nil, "%s-%d", id, n), Account: id, Name: "k", Credential: []byte("c"), Created: t0})
			}),
			writer(func(n int) error {
				return nodeA.Invite(r.ctx, store.Invitation{Match: "m", Seat: 1 + n%3, Account: id, From: "bob", Created: t0})
			}),
			func() error {
				wrote.Wait()
				return nodeB.DeleteAccount(r.ctx, id)
			})
		for _, other := range []string{"bob", "cy"} {
			rel, err := nodeA.Relations(r.ctx, other)
			r.ok(err, "%s's relations", other)
			if slices.Contains(rel.Following, id) || slices.Contains(rel.Followers, id) || slices.Contains(rel.Blocked, id) {
				r.fail("%s's relations keep the deleted %s: %+v", other, id, rel)
			}
		}
		if ps, err := nodeA.Passkeys(r.ctx, id); err != nil || len(ps) != 0 {
			r.fail("passkeys of the deleted %s: %d, %v", id, len(ps), err)
		}
		if got := r.invited(nodeA, id); got != "" {
			r.fail("invitations of the deleted %s: %q", id, got)
		}
	}
}
