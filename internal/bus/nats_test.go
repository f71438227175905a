package bus

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"sortie/engine"
	"sortie/internal/bus/natstest"
)

// node connects one more node to the NATS server.
func node(t *testing.T, srv *natstest.Server, name string) *NATS {
	t.Helper()
	n, err := ConnectNATS(srv.URL(), NATSOptions{Node: name, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), PingInterval: time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(n.Close)
	return n
}

// waitUntil retries f until it returns true, for up to 30 s.
func waitUntil(t *testing.T, what string, f func() bool) {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for !f() {
		if time.Now().After(deadline) {
			t.Fatalf("%s: not after 30 s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// collect waits until sub holds n messages and returns them.
func collect(t *testing.T, sub *Subscription, n int) []Message {
	t.Helper()
	var got []Message
	waitUntil(t, fmt.Sprintf("%d messages", n), func() bool {
		got = sub.Take(got)
		return len(got) >= n || sub.Err() != nil
	})
	return got
}

func inOrder(t *testing.T, got []Message, n int, data string) {
	t.Helper()
	if len(got) != n {
		t.Fatalf("got %d messages, want %d", len(got), n)
	}
	for i, m := range got {
		if m.Seq != uint64(i+1) || string(m.Data) != fmt.Sprintf("%s %d", data, i+1) {
			t.Fatalf("message %d is %d %q", i, m.Seq, m.Data)
		}
	}
}

// A match on node A publishes each audience's messages once; the
// subscribers of each audience on every node get them in order, and nobody
// else does.
func TestNATSAcrossNodes(t *testing.T) {
	srv := natstest.Start(t)
	a, b, c := node(t, srv, "a"), node(t, srv, "b"), node(t, srv, "c")
	seat0 := Topic{Match: "m1", Seat: 0}
	spec := Topic{Match: "m1", Seat: engine.Spectator}
	onA := a.Subscribe(seat0, 1000)
	onB, specB := b.Subscribe(seat0, 1000), b.Subscribe(spec, 1000)
	onC, specC := c.Subscribe(seat0, 1000), c.Subscribe(spec, 1000)
	elsewhere := b.Subscribe(Topic{Match: "m2", Seat: 0}, 1000)
	before := srv.Published()
	const n = 200
	for i := 1; i <= n; i++ {
		a.Publish(seat0, Message{Seq: uint64(i), Data: fmt.Appendf(nil, "seat0 %d", i)})
		a.Publish(spec, Message{Seq: uint64(i), Data: fmt.Appendf(nil, "spec %d", i)})
	}
	for _, sub := range []*Subscription{onA, onB, onC} {
		inOrder(t, collect(t, sub, n), n, "seat0")
	}
	for _, sub := range []*Subscription{specB, specC} {
		inOrder(t, collect(t, sub, n), n, "spec")
	}
	if got := srv.Published() - before; got != 2*n {
		t.Fatalf("NATS received %d messages for %d published", got, 2*n)
	}
	if elsewhere.Len() != 0 || onA.Len() != 0 {
		t.Fatal("a subscriber got messages of another topic, or twice")
	}
	// Another node publishes the next ones (the match moved).
	b.Publish(seat0, Message{Seq: n + 1, Data: []byte("from b")})
	if got := collect(t, onA, 1); len(got) != 1 || got[0].Seq != n+1 || string(got[0].Data) != "from b" {
		t.Fatalf("node a got %v", got)
	}
	if got := collect(t, onB, 1); len(got) != 1 || got[0].Seq != n+1 {
		t.Fatalf("node b's own subscriber got %v", got)
	}
	// Subscribers that leave stop the node's interest.
	onC.Close(nil)
	specC.Close(nil)
	if c.Subscribers(seat0) != 0 {
		t.Fatal("a closed subscriber is still counted")
	}
	c.mu.Lock()
	left := len(c.topics)
	c.mu.Unlock()
	if left != 0 {
		t.Fatalf("node c keeps %d NATS subscriptions without subscribers", left)
	}
}

// A subscriber that falls behind is ended with ErrSlow on its node; the
// others, on that node and elsewhere, go on.
func TestNATSSlowSubscriber(t *testing.T) {
	srv := natstest.Start(t)
	a, b := node(t, srv, "a"), node(t, srv, "b")
	tp := Topic{Match: "m", Seat: 1}
	slow, fast := b.Subscribe(tp, 2), b.Subscribe(tp, 100)
	for i := 1; i <= 5; i++ {
		a.Publish(tp, Message{Seq: uint64(i), Data: fmt.Appendf(nil, "x %d", i)})
	}
	inOrder(t, collect(t, fast, 5), 5, "x")
	<-slow.Done()
	if !errors.Is(slow.Err(), ErrSlow) || fast.Err() != nil {
		t.Fatalf("slow: %v, fast: %v", slow.Err(), fast.Err())
	}
}

// Once Subscribe returns, a message another node publishes reaches the
// subscriber: a snapshot taken after subscribing misses nothing.
func TestNATSSubscribeIsInPlaceWhenItReturns(t *testing.T) {
	srv := natstest.Start(t)
	a, b := node(t, srv, "a"), node(t, srv, "b")
	for i := range 50 {
		tp := Topic{Match: fmt.Sprint("m", i), Seat: 0}
		sub := b.Subscribe(tp, 10)
		a.Publish(tp, Message{Seq: 1, Data: []byte("first")})
		if got := collect(t, sub, 1); len(got) != 1 {
			t.Fatalf("match %d: the first message after subscribing was lost", i)
		}
		sub.Close(nil)
	}
}

// A node answers the requests addressed to it, several at once; a request
// to a node that does not listen fails at once with ErrNoNode.
func TestNATSRequest(t *testing.T) {
	srv := natstest.Start(t)
	a, b := node(t, srv, "a"), node(t, srv, "b")
	var arrived sync.WaitGroup
	arrived.Add(2)
	stop, err := a.Serve("node-a", func(ctx context.Context, req []byte) []byte {
		if string(req) == "wait" {
			arrived.Done()
			arrived.Wait() // answers only once both requests are in
		}
		return append([]byte("a says "), req...)
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	got, err := b.Request(ctx, "node-a", []byte("hello"))
	if err != nil || string(got) != "a says hello" {
		t.Fatalf("request: %q %v", got, err)
	}
	var wg sync.WaitGroup
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if got, err := b.Request(ctx, "node-a", []byte("wait")); err != nil || string(got) != "a says wait" {
				t.Errorf("concurrent request: %q %v", got, err)
			}
		}()
	}
	wg.Wait()
	start := time.Now()
	if _, err := b.Request(ctx, "node-z", []byte("hello")); !errors.Is(err, ErrNoNode) {
		t.Fatalf("request to a node nobody serves: %v", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("a request to a missing node took %v", d)
	}
	stop()
	if _, err := b.Request(ctx, "node-a", []byte("hello")); !errors.Is(err, ErrNoNode) {
		t.Fatalf("request after the node stopped serving: %v", err)
	}
	if _, err := b.Request(ctx, "bad.name", nil); err == nil {
		t.Fatal("a node name with a dot was taken")
	}
	if _, err := a.Serve("bad name", nil); err == nil {
		t.Fatal("a node name with a space was taken")
	}
}

// NATS goes down and comes back: the bus says it is unavailable, requests
// fail at once rather than late, subscribers are told they may have missed
// messages, a node's own subscribers still get its messages, and everything
// works again without a restart.
func TestNATSDownAndBack(t *testing.T) {
	srv := natstest.Start(t)
	a, b := node(t, srv, "a"), node(t, srv, "b")
	stop, err := a.Serve("a", func(_ context.Context, req []byte) []byte { return req })
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	tp := Topic{Match: "m", Seat: engine.Spectator}
	remoteSub, localSub := b.Subscribe(tp, 100), a.Subscribe(tp, 100)
	// A socket of a match that runs on a: it needs nothing from NATS.
	own := a.SubscribeLocal(Topic{Match: "mine", Seat: 0}, 100)
	if a.Check() != nil || b.Check() != nil {
		t.Fatal("a connected bus is not healthy")
	}

	srv.Shutdown()
	waitUntil(t, "both nodes unavailable", func() bool {
		return errors.Is(a.Check(), ErrUnavailable) && errors.Is(b.Check(), ErrUnavailable)
	})
	for _, sub := range []*Subscription{remoteSub, localSub} {
		<-sub.Done()
		if !errors.Is(sub.Err(), ErrResync) {
			t.Fatalf("a subscription ended with %v when NATS went down, want ErrResync", sub.Err())
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	start := time.Now()
	if _, err := b.Request(ctx, "a", []byte("x")); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("request while NATS is down: %v", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Fatalf("a request while NATS is down took %v", d)
	}
	during := a.Subscribe(tp, 100)
	a.Publish(tp, Message{Seq: 7, Data: []byte("local")}) // must not block
	if got := collect(t, during, 1); len(got) != 1 || got[0].Seq != 7 {
		t.Fatalf("a node's own subscriber during the outage got %v", got)
	}

	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "both nodes connected again", func() bool { return a.Check() == nil && b.Check() == nil })
	<-during.Done() // it may have missed other nodes' messages meanwhile
	if !errors.Is(during.Err(), ErrResync) {
		t.Fatalf("a subscription made during the outage ended with %v", during.Err())
	}
	if own.Err() != nil {
		t.Fatalf("a subscription to the node's own topic ended with the connection: %v", own.Err())
	}
	again := b.Subscribe(tp, 100)
	waitUntil(t, "a message across nodes again", func() bool {
		a.Publish(tp, Message{Seq: 8, Data: []byte("back")})
		return again.Len() > 0
	})
	waitUntil(t, "a request across nodes again", func() bool {
		rctx, cancel := context.WithTimeout(ctx, time.Second)
		defer cancel()
		got, err := b.Request(rctx, "a", []byte("ping"))
		return err == nil && string(got) == "ping"
	})
}

// A request under way when the connection drops ends at once, as one whose
// fate is unknown (it reached its node, which did it, and its answer was
// lost), not as one that was not sent; one made while the connection is
// down says that it was not sent.
func TestNATSRequestUnderWayWhenNATSDrops(t *testing.T) {
	srv := natstest.Start(t)
	a, b := node(t, srv, "a"), node(t, srv, "b")
	got := make(chan struct{})
	release := make(chan struct{})
	defer close(release)
	stop, err := a.Serve("a", func(_ context.Context, req []byte) []byte {
		close(got)
		<-release
		return req
	})
	if err != nil {
		t.Fatal(err)
	}
	defer stop()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() {
		_, err := b.Request(ctx, "a", []byte("x"))
		done <- err
	}()
	<-got // node a has it, and does it
	srv.Shutdown()
	start := time.Now()
	select {
	case err := <-done:
		if !errors.Is(err, ErrUnavailable) || errors.Is(err, ErrNotSent) || errors.Is(err, ErrNoNode) {
			t.Fatalf("a request under way when NATS went down: %v, want unavailable (its fate unknown)", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("a request under way when NATS went down still waits 10 s later")
	}
	t.Logf("ended %v after NATS went down", time.Since(start).Round(time.Millisecond))
	waitUntil(t, "node b cut off", func() bool { return b.Check() != nil })
	if _, err := b.Request(ctx, "a", []byte("y")); !errors.Is(err, ErrNotSent) {
		t.Fatalf("a request while NATS is down: %v, want ErrNotSent", err)
	}
}

// A node whose NATS is not there yet starts anyway: its own subscribers get
// its messages, requests fail at once, and once NATS comes the node serves
// and hears the others without a restart.
func TestNATSComesAfterTheNode(t *testing.T) {
	srv := natstest.Start(t)
	url := srv.URL()
	srv.Shutdown()
	early := node(t, srv, "early")
	if !errors.Is(early.Check(), ErrUnavailable) {
		t.Fatal("a node without NATS says it is connected")
	}
	stop, err := early.Serve("early", func(_ context.Context, req []byte) []byte { return append([]byte("early: "), req...) })
	if err != nil {
		t.Fatalf("serving before NATS is there: %v", err)
	}
	defer stop()
	var heard sync.Map
	stopHear, err := early.Hear(func(b []byte) { heard.Store(string(b), true) })
	if err != nil {
		t.Fatal(err)
	}
	defer stopHear()
	tp := Topic{Match: "m", Seat: 0}
	own := early.Subscribe(tp, 10)
	early.Publish(tp, Message{Seq: 1, Data: []byte("mine")})
	if got := collect(t, own, 1); len(got) != 1 {
		t.Fatalf("a node's own subscriber without NATS got %v", got)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := early.Request(ctx, "other", nil); !errors.Is(err, ErrUnavailable) {
		t.Fatalf("a request without NATS: %v", err)
	}

	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	if srv.URL() != url {
		t.Fatalf("the NATS server moved from %s to %s", url, srv.URL())
	}
	late := node(t, srv, "late")
	waitUntil(t, "the early node connected", func() bool { return early.Check() == nil })
	waitUntil(t, "a request to the early node", func() bool {
		rctx, cancel := context.WithTimeout(ctx, time.Second)
		defer cancel()
		got, err := late.Request(rctx, "early", []byte("hi"))
		return err == nil && string(got) == "early: hi"
	})
	waitUntil(t, "an announcement heard", func() bool {
		late.Announce([]byte("late is here"))
		_, ok := heard.Load("late is here")
		return ok
	})
	if own.Err() != nil {
		t.Fatalf("a subscriber of the node's own topic was ended when NATS came: %v", own.Err())
	}
}

// A subscription tells how far its messages have gone, and Push says when
// it has ended rather than dropping a message unseen.
func TestSubscriptionSeenAndPush(t *testing.T) {
	l := NewLocal()
	tp := Topic{Match: "m", Seat: 0}
	sub := l.Subscribe(tp, 10)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	reached := make(chan bool)
	go func() { reached <- sub.WaitSeen(ctx, 3) }()
	l.Publish(tp, Message{Seq: 2})
	l.Publish(tp, Message{Data: []byte("not a change")})
	select {
	case <-reached:
		t.Fatal("WaitSeen returned before message 3")
	case <-time.After(20 * time.Millisecond):
	}
	l.Publish(tp, Message{Seq: 3})
	if !<-reached {
		t.Fatal("WaitSeen did not see message 3")
	}
	if fit, ended := sub.Push(Message{Data: []byte("x")}); !fit || ended != nil {
		t.Fatalf("push to a live subscription: %v %v", fit, ended)
	}
	sub.Close(ErrResync)
	if fit, ended := sub.Push(Message{Data: []byte("y")}); !fit || !errors.Is(ended, ErrResync) {
		t.Fatalf("push to an ended subscription: %v %v", fit, ended)
	}
	if sub.WaitSeen(ctx, 9) {
		t.Fatal("WaitSeen on an ended subscription reached a message that never came")
	}
}
