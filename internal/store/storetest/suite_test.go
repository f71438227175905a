package storetest_test

import (
	"context"
	"errors"
	"path/filepath"
	"slices"
	"strings"
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
