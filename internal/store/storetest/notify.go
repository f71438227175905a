package storetest

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"sortie/internal/store"
)

// NotifyStore is a store that keeps notifications beside its matches and
// accounts, as every store of Sortie does.
type NotifyStore interface {
	AccountStore
	store.Notifications
}

// RunNotifications runs every scenario of [store.Notifications] and of the
// jobs notifications are (due times, groups claimed at once, put off,
// pruned, deleted with their account) as subtests of t. The harness's
// stores must be [NotifyStore]s.
func RunNotifications(t *testing.T, h Harness) { h.runAll(t, notifyScenarios) }

// CheckNotifications runs the notification scenarios named in only (all,
// if none is) and returns their failures, or nil.
func CheckNotifications(t testing.TB, h Harness, only ...string) error {
	return h.check(t, notifyScenarios, only)
}

var notifyScenarios = []scenario{
	{"DueJobs", dueJobs},
	{"PushSubscriptions", pushSubscriptions},
	{"Secrets", secrets},
	{"NotifySettings", notifySettings},
	{"DeleteAccountNotifications", deleteAccountNotifications},
}

// notifications opens one more handle, which must keep notifications.
func (r *run) notifications() NotifyStore {
	s := r.store()
	n, ok := s.(NotifyStore)
	if !ok {
		r.fail("the store (%T) keeps no notifications", s)
	}
	return n
}

func keysOf(js []*store.Job) string {
	var ks []string
	for _, j := range js {
		ks = append(ks, j.Key)
	}
	return strings.Join(ks, " ")
}

// A job queued for later is not claimed before its time; a group's jobs
// are claimed at once, due or not, but for those another node holds; a
// job put off waits again; jobs over for long are pruned.
func dueJobs(r *run) {
	a, b := r.notifications(), r.notifications()
	now := time.Now()
	for _, j := range []struct {
		key string
		due time.Time
	}{{"ana:turn:m1", now.Add(-2 * time.Second)}, {"ana:turn:m2", now.Add(time.Hour)}, {"ana:turn:m3", now.Add(-time.Second)},
		{"bob:turn:m1", now.Add(-3 * time.Second)}, {"ana:end:m1", now.Add(2 * time.Hour)}} {
		_, err := a.EnqueueJob(r.ctx, "notify", j.key, "", j.due)
		r.ok(err, "enqueue %s", j.key)
	}
	got, err := a.ClaimJob(r.ctx, "notify", "A", time.Minute)
	r.ok(err, "A claims the oldest due job")
	if got.Key != "bob:turn:m1" {
		r.fail("A claimed %s, not the oldest due job bob:turn:m1", got.Key)
	}
	held, err := b.ClaimJob(r.ctx, "notify", "B", time.Minute)
	r.ok(err, "B claims the next due job")
	if held.Key != "ana:turn:m1" {
		r.fail("B claimed %s, not ana:turn:m1", held.Key)
	}
	group, err := a.ClaimJobs(r.ctx, "notify", "ana:turn:", "A", time.Minute, 10)
	r.ok(err, "A claims ana's turns")
	if k := keysOf(group); k != "ana:turn:m3 ana:turn:m2" {
		r.fail("A claimed ana's turns %q, not the two B does not hold, due first (ana:turn:m3 ana:turn:m2)", k)
	}
	for _, j := range group {
		if j.Node != "A" || j.Epoch == 0 || j.Tries != 1 || !j.Until.After(now) {
			r.fail("a job claimed in a group reads %+v", j)
		}
	}
	if more, err := b.ClaimJobs(r.ctx, "notify", "ana:turn:", "B", time.Minute, 10); err != nil || len(more) != 0 {
		r.fail("B claimed ana's turns held by A: %q, %v", keysOf(more), err)
	}
	if _, err := b.ClaimJob(r.ctx, "notify", "B", time.Minute); !errors.Is(err, store.ErrNotFound) {
		r.fail("B claimed a job not yet due (or held): %v", err)
	}
	// A group's claim is fenced as any claim is.
	r.ok(a.CompleteJob(r.ctx, group[0], []byte("sent")), "A completes ana:turn:m3")
	// Put off: pending again, due later.
	r.ok(a.DeferJob(r.ctx, group[1], now.Add(-time.Millisecond)), "A puts ana:turn:m2 off to now")
	r.is(a.CompleteJob(r.ctx, group[1], nil), store.ErrFenced, "complete a job given up")
	again, err := b.ClaimJob(r.ctx, "notify", "B", time.Minute)
	r.ok(err, "B claims the job put off to now")
	if again.Key != "ana:turn:m2" || again.Tries != 2 {
		r.fail("B claimed %+v, not ana:turn:m2 on its second try", again)
	}
	r.ok(b.DeferJob(r.ctx, again, now.Add(time.Hour)), "B puts ana:turn:m2 off by an hour")
	if j, err := b.ClaimJob(r.ctx, "notify", "B", time.Minute); !errors.Is(err, store.ErrNotFound) {
		r.fail("a job put off by an hour was claimed at once: %+v %v", j, err)
	}
	if j, err := a.JobOf(r.ctx, "notify", "ana:turn:m2"); err != nil || j.Status != store.JobPending || j.Node != "" || j.Created.Before(now.Add(50*time.Minute)) {
		r.fail("a job put off reads %+v, %v", j, err)
	}
	// Pruned once over, never while pending.
	r.ok(a.CompleteJob(r.ctx, got, nil), "A completes bob:turn:m1")
	r.ok(b.CompleteJob(r.ctx, held, nil), "B completes ana:turn:m1")
	n, err := a.PruneJobs(r.ctx, "notify", time.Now().Add(time.Minute), 100)
	r.ok(err, "prune")
	if n != 3 {
		r.fail("pruned %d jobs, not the 3 done", n)
	}
	for key, kept := range map[string]bool{"ana:turn:m1": false, "ana:turn:m3": false, "ana:turn:m2": true, "ana:end:m1": true} {
		_, err := a.JobOf(r.ctx, "notify", key)
		if (err == nil) != kept {
			r.fail("after pruning, %s is there: %v (want %v)", key, err == nil, kept)
		}
	}
	if n, err := a.PruneJobs(r.ctx, "notify", time.Now().Add(-time.Hour), 100); err != nil || n != 0 {
		r.fail("pruned %d jobs done within the hour: %v", n, err)
	}
}

func sub(account, id, endpoint string, at time.Time) *store.PushSubscription {
	return &store.PushSubscription{ID: id, Account: account, Endpoint: endpoint, P256dh: "key-" + id, Auth: "auth-" + id, Label: "device " + id, Created: at}
}

func (r *run) subs(s NotifyStore, account string) string {
	ps, err := s.PushSubscriptions(r.ctx, account)
	r.ok(err, "%s's subscriptions", account)
	var out []string
	for _, p := range ps {
		if p.Account != account {
			r.fail("%s's list holds %s's subscription %s", account, p.Account, p.ID)
		}
		out = append(out, p.ID+"="+p.Endpoint)
	}
	return strings.Join(out, " ")
}

// Subscriptions are kept per account, oldest first; an endpoint is one
// subscription (a browser signed in to another account hands it over); an
// account keeps at most the max newest; each is deleted by its account
// only, or by its endpoint when its push service says it is gone.
func pushSubscriptions(r *run) {
	s := r.notifications()
	r.create(s, "ana", "bob")
	r.is(s.AddPushSubscription(r.ctx, sub("nobody", "s0", "https://p/0", t0), 5), store.ErrNoAccount, "subscribe an unknown account")
	for i, id := range []string{"s1", "s2", "s3"} {
		r.ok(s.AddPushSubscription(r.ctx, sub("ana", id, "https://p/"+id, t0.Add(time.Duration(i)*time.Second)), 3), "add %s", id)
	}
	if got := r.subs(s, "ana"); got != "s1=https://p/s1 s2=https://p/s2 s3=https://p/s3" {
		r.fail("ana's subscriptions: %q", got)
	}
	ps, _ := s.PushSubscriptions(r.ctx, "ana")
	if len(ps) > 0 && (ps[0].P256dh != "key-s1" || ps[0].Auth != "auth-s1" || ps[0].Label != "device s1" || !ps[0].Created.Equal(t0)) {
		r.fail("a subscription reads back as %+v", ps[0])
	}
	// A fourth: the oldest goes.
	r.ok(s.AddPushSubscription(r.ctx, sub("ana", "s4", "https://p/s4", t0.Add(time.Hour)), 3), "add s4")
	if got := r.subs(s, "ana"); got != "s2=https://p/s2 s3=https://p/s3 s4=https://p/s4" {
		r.fail("past 3 subscriptions, ana's are %q (the oldest should have gone)", got)
	}
	// The same browser, now signed in to bob.
	r.ok(s.AddPushSubscription(r.ctx, sub("bob", "b1", "https://p/s3", t0.Add(2*time.Hour)), 3), "bob subscribes s3's endpoint")
	if got := r.subs(s, "ana"); got != "s2=https://p/s2 s4=https://p/s4" {
		r.fail("after bob took s3's endpoint, ana's are %q", got)
	}
	if got := r.subs(s, "bob"); got != "b1=https://p/s3" {
		r.fail("bob's subscriptions: %q", got)
	}
	r.is(s.DeletePushSubscription(r.ctx, "bob", "s2"), store.ErrNotFound, "bob deletes ana's subscription")
	r.ok(s.DeletePushSubscription(r.ctx, "ana", "s2"), "ana deletes s2")
	r.is(s.DeletePushSubscription(r.ctx, "ana", "s2"), store.ErrNotFound, "ana deletes s2 again")
	r.ok(s.DropPushEndpoint(r.ctx, "https://p/s4"), "the push service says s4 is gone")
	r.ok(s.DropPushEndpoint(r.ctx, "https://p/none"), "drop an endpoint nobody has")
	if got := r.subs(s, "ana"); got != "" {
		r.fail("ana's subscriptions after deleting both: %q", got)
	}
}

// A secret is set once, by the first node to ask, whatever the others
// propose at once.
func secrets(r *run) {
	a, b := r.notifications(), r.notifications()
	var wg sync.WaitGroup
	got := make([][]byte, 8)
	for i := range got {
		wg.Add(1)
		go func() {
			defer wg.Done()
			s := a
			if i%2 == 1 {
				s = b
			}
			v, err := s.Secret(r.ctx, "vapid", fmt.Appendf(nil, "proposal %d", i))
			if err != nil {
				r.fail("secret %d: %v", i, err)
			}
			got[i] = v
		}()
	}
	wg.Wait()
	for i := range got {
		if !bytes.Equal(got[i], got[0]) || !bytes.HasPrefix(got[0], []byte("proposal ")) {
			r.fail("node %d was told the secret is %q, node 0 %q", i, got[i], got[0])
		}
	}
	if v, err := b.Secret(r.ctx, "other", []byte("x")); err != nil || string(v) != "x" {
		r.fail("another secret: %q %v", v, err)
	}
	if v, err := a.Secret(r.ctx, "vapid", []byte("later")); err != nil || !bytes.Equal(v, got[0]) {
		r.fail("a later proposal changed the secret: %q %v", v, err)
	}
}

// Settings are nil until saved, then what was saved last.
func notifySettings(r *run) {
	s := r.notifications()
	r.create(s, "ana")
	if v, err := s.NotifySettings(r.ctx, "ana"); err != nil || v != nil {
		r.fail("settings never saved read %q, %v", v, err)
	}
	r.is(s.PutNotifySettings(r.ctx, "nobody", []byte(`{}`)), store.ErrNoAccount, "settings of an unknown account")
	r.ok(s.PutNotifySettings(r.ctx, "ana", []byte(`{"a":1}`)), "save")
	r.ok(s.PutNotifySettings(r.ctx, "ana", []byte(`{"a":2}`)), "save again")
	if v, err := s.NotifySettings(r.ctx, "ana"); err != nil || string(v) != `{"a":2}` {
		r.fail("settings read %q, %v", v, err)
	}
}

// An account's subscriptions, settings and notification jobs go with it;
// another's stay.
func deleteAccountNotifications(r *run) {
	s := r.notifications()
	r.create(s, "ana", "anb")
	r.ok(s.AddPushSubscription(r.ctx, sub("ana", "s1", "https://p/1", t0), 5), "ana subscribes")
	r.ok(s.AddPushSubscription(r.ctx, sub("anb", "s2", "https://p/2", t0), 5), "anb subscribes")
	r.ok(s.PutNotifySettings(r.ctx, "ana", []byte(`{}`)), "ana's settings")
	r.ok(s.PutNotifySettings(r.ctx, "anb", []byte(`{}`)), "anb's settings")
	for _, k := range []string{"ana:turn:m1", "anb:turn:m1", "ana"} {
		_, err := s.EnqueueJob(r.ctx, "notify", k, "", t0)
		r.ok(err, "enqueue %s", k)
	}
	r.ok(s.DeleteAccount(r.ctx, "ana"), "delete ana")
	if ps, err := s.PushSubscriptions(r.ctx, "ana"); err != nil || len(ps) != 0 {
		r.fail("a deleted account keeps %d subscriptions (%v)", len(ps), err)
	}
	if v, err := s.NotifySettings(r.ctx, "ana"); err != nil || v != nil {
		r.fail("a deleted account keeps its settings %q (%v)", v, err)
	}
	if _, err := s.JobOf(r.ctx, "notify", "ana:turn:m1"); !errors.Is(err, store.ErrNotFound) {
		r.fail("a deleted account keeps its notification jobs: %v", err)
	}
	for _, k := range []string{"anb:turn:m1", "ana"} {
		if _, err := s.JobOf(r.ctx, "notify", k); err != nil {
			r.fail("deleting ana deleted job %s: %v", k, err)
		}
	}
	if got := r.subs(s, "anb"); got != "s2=https://p/2" {
		r.fail("deleting ana deleted anb's subscription: %q", got)
	}
}
