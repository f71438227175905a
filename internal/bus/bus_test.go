package bus

import (
	"errors"
	"sync"
	"testing"

	"sortie/engine"
)

func seqs(ms []Message) []uint64 {
	var out []uint64
	for _, m := range ms {
		out = append(out, m.Seq)
	}
	return out
}

// Each audience gets its own messages, in order.
func TestFanOut(t *testing.T) {
	b := NewLocal()
	seat0 := Topic{Match: "m", Seat: 0}
	spec := Topic{Match: "m", Seat: engine.Spectator}
	a := b.Subscribe(seat0, 8)
	s1, s2 := b.Subscribe(spec, 8), b.Subscribe(spec, 8)
	other := b.Subscribe(Topic{Match: "n", Seat: 0}, 8)
	for i := range 3 {
		b.Publish(seat0, Message{Seq: uint64(i + 1), Data: []byte("seat")})
		b.Publish(spec, Message{Seq: uint64(i + 1), Data: []byte("spec")})
	}
	for _, sub := range []*Subscription{a, s1, s2} {
		if got := seqs(sub.Take(nil)); len(got) != 3 || got[0] != 1 || got[2] != 3 {
			t.Fatalf("got %v", got)
		}
		if sub.Len() != 0 {
			t.Fatal("Take left messages")
		}
	}
	if other.Len() != 0 {
		t.Fatal("another match's subscriber got messages")
	}
	if got := b.Subscribers(spec); got != 2 {
		t.Fatalf("%d spectators", got)
	}
	s1.Close(nil)
	if got := b.Subscribers(spec); got != 1 || !errors.Is(s1.Err(), ErrClosed) {
		t.Fatalf("after close: %d subscribers, err %v", got, s1.Err())
	}
}

// A consumer is told when a message arrives in an empty queue, and when the
// subscription ends; told late, it is told at once.
func TestReady(t *testing.T) {
	b := NewLocal()
	tp := Topic{Match: "m", Seat: 2}
	sub := b.Subscribe(tp, 8)
	b.Publish(tp, Message{Seq: 1})
	calls := 0
	sub.OnReady(func() { calls++ })
	if calls != 1 {
		t.Fatalf("a consumer arriving after a message was told %d times", calls)
	}
	b.Publish(tp, Message{Seq: 2}) // the queue was not empty: no call
	sub.Take(nil)
	b.Publish(tp, Message{Seq: 3})
	sub.Close(ErrReplaced)
	if calls != 3 {
		t.Fatalf("told %d times, want 3", calls)
	}
	ch := b.Subscribe(tp, 8).Ready()
	b.Publish(tp, Message{Seq: 4})
	select {
	case <-ch:
	default:
		t.Fatal("the Ready channel got nothing")
	}
}

// A subscriber that falls behind is ended with ErrSlow, and the others go on.
func TestSlowSubscriber(t *testing.T) {
	b := NewLocal()
	tp := Topic{Match: "m", Seat: 1}
	slow, fast := b.Subscribe(tp, 2), b.Subscribe(tp, 100)
	for i := range 5 {
		b.Publish(tp, Message{Seq: uint64(i + 1)})
	}
	select {
	case <-slow.Done():
	default:
		t.Fatal("the slow subscriber was not ended")
	}
	if !errors.Is(slow.Err(), ErrSlow) || fast.Err() != nil || fast.Len() != 5 {
		t.Fatalf("slow: %v, fast: %v with %d messages", slow.Err(), fast.Err(), fast.Len())
	}
	if b.Subscribers(tp) != 1 {
		t.Fatal("the slow subscriber is still subscribed")
	}
	// The first reason sticks.
	slow.Close(ErrReplaced)
	if !errors.Is(slow.Err(), ErrSlow) {
		t.Fatal(slow.Err())
	}
}

// Publishing and subscribing from many goroutines is safe.
func TestConcurrent(t *testing.T) {
	b := NewLocal()
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			tp := Topic{Match: string(rune('a' + i)), Seat: 0}
			for range 200 {
				s := b.Subscribe(tp, 4)
				ready := s.Ready()
				go b.Publish(tp, Message{Seq: 1})
				<-ready
				if len(s.Take(nil)) != 1 {
					t.Error("lost a message")
				}
				s.Close(nil)
			}
		}()
	}
	wg.Wait()
}
