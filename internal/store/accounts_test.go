package store_test

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"sortie/internal/store"
	"sortie/internal/store/storetest"
)

// accountCalls are one of each of the accounts' writes and of their reads,
// on what fillAccounts wrote.
func accountCalls(s storetest.AccountStore) (writes, reads map[string]func(context.Context) error) {
	now := time.Now()
	writes = map[string]func(context.Context) error{
		"CreateAccount": func(ctx context.Context) error {
			return s.CreateAccount(ctx, &store.Account{ID: "cy", Handle: []byte("cy"), Created: now})
		},
		"UpdateAccount": func(ctx context.Context) error { return s.UpdateAccount(ctx, &store.Account{ID: "bob", Name: "Bobby"}) },
		"DeleteAccount": func(ctx context.Context) error { return s.DeleteAccount(ctx, "ana") },
		"AddPasskey": func(ctx context.Context) error {
			return s.AddPasskey(ctx, &store.Passkey{ID: []byte("k2"), Account: "bob", Created: now})
		},
		"CommitSession": func(ctx context.Context) error {
			return s.CommitSession(ctx, []byte("s2"), []byte("d"), "bob", now.Add(time.Hour))
		},
		"DeleteSessionsOf": func(ctx context.Context) error { _, err := s.DeleteSessionsOf(ctx, "ana"); return err },
		"PruneSessions":    func(ctx context.Context) error { _, err := s.PruneSessions(ctx, now, 10); return err },
		"TakeSignInToken":  func(ctx context.Context) error { _, err := s.TakeSignInToken(ctx, []byte("t1"), now); return err },
		"Follow":           func(ctx context.Context) error { return s.Follow(ctx, "bob", "ana") },
		"Block":            func(ctx context.Context) error { return s.Block(ctx, "bob", "ana") },
		"Invite": func(ctx context.Context) error {
			return s.Invite(ctx, store.Invitation{Match: "m", Seat: 1, Account: "bob", From: "ana", Created: now})
		},
		"SetSeat": func(ctx context.Context) error {
			return s.SetSeat(ctx, "m", 0, 1, store.Seat{Kind: "human", Account: "bob"})
		},
	}
	reads = map[string]func(context.Context) error{
		"Account":        func(ctx context.Context) error { _, err := s.Account(ctx, "ana"); return err },
		"AccountByEmail": func(ctx context.Context) error { _, err := s.AccountByEmail(ctx, "ana@example.org"); return err },
		"Passkeys":       func(ctx context.Context) error { _, err := s.Passkeys(ctx, "ana"); return err },
		"FindSession":    func(ctx context.Context) error { _, _, err := s.FindSession(ctx, []byte("s1")); return err },
		"HeldSeats":      func(ctx context.Context) error { _, err := s.HeldSeats(ctx, "ana", store.Filter{}); return err },
		"Invitations":    func(ctx context.Context) error { _, err := s.Invitations(ctx, "bob"); return err },
		"Relations":      func(ctx context.Context) error { _, err := s.Relations(ctx, "ana"); return err },
		"Blocks":         func(ctx context.Context) error { _, err := s.Blocks(ctx, "ana", "bob"); return err },
	}
	return writes, reads
}

// fillAccounts writes what accountCalls work on.
func fillAccounts(t *testing.T, s storetest.AccountStore) {
	t.Helper()
	ctx := context.Background()
	now := time.Now()
	for _, err := range []error{
		s.CreateAccount(ctx, &store.Account{ID: "ana", Email: "ana@example.org", Handle: []byte("ana"), Created: now}),
		s.CreateAccount(ctx, &store.Account{ID: "bob", Handle: []byte("bob"), Created: now}),
		s.AddPasskey(ctx, &store.Passkey{ID: []byte("k1"), Account: "ana", Created: now}),
		s.CommitSession(ctx, []byte("s1"), []byte("d"), "ana", now.Add(time.Hour)),
		s.CommitSession(ctx, []byte("old"), []byte("d"), "", now.Add(-time.Hour)), // for PruneSessions
		s.PutSignInToken(ctx, []byte("t1"), "ana@example.org", now.Add(time.Hour)),
		s.Create(ctx, &store.Match{ID: "m", Game: "g", Seats: []store.Seat{{Kind: "human", Account: "ana"}, {Kind: "human"}}, Created: now}),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
}

// checkUnavailable runs calls at once and expects each to say the store is
// unavailable, within a while.
func checkUnavailable(t *testing.T, calls map[string]func(context.Context) error) {
	t.Helper()
	start := time.Now()
	var wg sync.WaitGroup
	var mu sync.Mutex
	for name, call := range calls {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			if err := call(ctx); !errors.Is(err, store.ErrUnavailable) {
				mu.Lock()
				t.Errorf("%s while the store is down: %v, want unavailable", name, err)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if d := time.Since(start); d > 15*time.Second {
		t.Errorf("calls while the store is down took %v", d)
	}
}

// While PostgreSQL is down, every call of the accounts says unavailable
// within the store's timeout (DeleteAccount, which has a transaction of its
// own, too); once it is back, they work again.
func TestPostgresAccountsUnavailable(t *testing.T) {
	srv, u := pgDatabase(t)
	if !srv.Throwaway() {
		t.Skip("SORTIE_TEST_POSTGRES names a server the tests may not stop")
	}
	s := openPostgres(t, u, store.PostgresOptions{Timeout: 3 * time.Second})
	fillAccounts(t, s)
	writes, reads := accountCalls(s)
	srv.Kill()
	up := false
	defer func() {
		if !up {
			srv.Restart()
		}
	}()
	checkUnavailable(t, writes)
	checkUnavailable(t, reads)
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	up = true
	waitFor(t, "the check passing again", func() bool { return s.Check(context.Background()) == nil })
	for name, call := range reads {
		if err := call(context.Background()); err != nil {
			t.Errorf("%s once PostgreSQL is back: %v", name, err)
		}
	}
	if err := writes["DeleteAccount"](context.Background()); err != nil {
		t.Errorf("delete an account once PostgreSQL is back: %v", err)
	}
}

// When the SQLite file cannot be written, every write of the accounts says
// unavailable, while reads go on.
func TestSQLiteAccountsUnavailable(t *testing.T) {
	path := filepath.Join(t.TempDir(), "sortie.db")
	s := openSQLite(t, path)
	fill(t, s, 1, 1)
	fillAccounts(t, s)
	writes, reads := accountCalls(s)
	writable := storetest.Immutable(t, path)
	checkBecomes(t, s, false, "with immutable files")
	checkUnavailable(t, writes)
	for name, call := range reads {
		if err := call(context.Background()); err != nil {
			t.Errorf("%s while the file cannot be written: %v", name, err)
		}
	}
	writable()
	checkBecomes(t, s, true, "once the files are writable again")
	if err := writes["DeleteAccount"](context.Background()); err != nil {
		t.Errorf("delete an account once the file is writable: %v", err)
	}
}
