// Package bus carries what a match tells its audiences — each seat, and the
// spectators — from the goroutine that runs the match to the sockets that
// listen, wherever they are.
//
// [Local] is the in-process fan-out a single node uses. [NATS] carries the
// same [Bus] across nodes: a match publishes each audience's message once,
// already encoded, and every subscriber of that audience, on every node, gets
// it in order or is told it fell behind. NATS also carries requests from one
// node to another ([Exchange]), for the actions of clients connected to a
// node that does not run their match. A bus never looks inside a message and
// never decides who may see what: the match encodes a seat's message from that
// seat's view alone before it is published.
//
// A match encodes messages only for the audiences that listen, which it
// learns from match.Watch and Unwatch; a node holding sockets of a match that
// runs on another node forwards those calls (and the clients' actions) over
// the exchange, and follows each socket's topic before it takes the socket's
// first snapshot from the match, skipping messages whose Seq the snapshot
// already holds.
package bus

import (
	"context"
	"errors"
	"hash/maphash"
	"sync"

	"sortie/engine"
)

// Topic names one audience of one match: a seat, or [engine.Spectator] for
// everyone watching without a seat.
type Topic struct {
	Match string      // the match id
	Seat  engine.Seat // a seat, or engine.Spectator
}

// Message is one message for one audience.
type Message struct {
	// Seq is the match's sequence number after the change the message tells
	// of, or 0 for a message that is not a change of the match (who is
	// connected, say). A subscriber that took a snapshot at sequence k skips
	// changes up to k.
	Seq uint64
	// Data is the message as it goes on the wire.
	Data []byte
	// Answer marks a message that answers what one client sent (its
	// refusal): a subscriber that skips changes after a gap still sends it.
	// It never crosses nodes.
	Answer bool
}

// Bus delivers messages to the subscribers of a topic.
type Bus interface {
	// Publish gives m to every current subscriber of t without waiting: a
	// subscriber whose buffer is full is ended with [ErrSlow].
	Publish(t Topic, m Message)
	// PublishLocal is Publish for a topic that no other node follows now
	// (the publisher knows its followers): this node's subscribers get m,
	// and nothing goes between nodes.
	PublishLocal(t Topic, m Message)
	// Subscribe returns a subscription to t that may fall up to limit
	// messages behind.
	Subscribe(t Topic, limit int) *Subscription
	// SubscribeLocal is Subscribe for a topic this node publishes itself
	// (the match runs here): it gets this node's messages alone, costs
	// nothing between nodes, and is not ended when the connection between
	// nodes drops.
	SubscribeLocal(t Topic, limit int) *Subscription
}

// Reasons a subscription ends.
var (
	// ErrSlow: the subscriber did not keep up and missed messages; it should
	// take a fresh snapshot.
	ErrSlow = errors.New("bus: subscriber fell behind")
	// ErrReplaced: a newer subscriber took this one's place (a seat
	// reconnected elsewhere).
	ErrReplaced = errors.New("bus: replaced by a newer subscriber")
	// ErrClosed: the subscription or the match was closed.
	ErrClosed = errors.New("bus: closed")
	// ErrResync: the subscriber may have missed messages that were not its
	// fault (the connection between nodes dropped, or the match moved to
	// another node): it should take a fresh snapshot, wherever the match
	// runs now, and follow it again.
	ErrResync = errors.New("bus: messages may have been missed; take a fresh snapshot")
)

// Subscription is one subscriber's queue of messages. It holds nothing while
// it is empty, so that an idle subscriber costs next to nothing; a consumer
// is told when there is something to take. Implementations of [Bus] build it
// with [NewSubscription] and feed it with Offer.
type Subscription struct {
	mu      sync.Mutex
	queue   []Message
	limit   int
	ready   func()
	done    chan struct{}
	err     error
	cancel  func()
	readyCh chan struct{} // made by Ready, for consumers that wait on a channel
	seen    uint64        // the highest Seq offered
	seenCh  chan struct{} // made by WaitSeen, closed when seen grows
}

// NewSubscription returns a subscription that may hold up to limit messages
// not yet taken; cancel, if not nil, is called once when it ends (to forget
// the subscriber).
func NewSubscription(limit int, cancel func()) *Subscription {
	return &Subscription{limit: max(limit, 1), done: make(chan struct{}), cancel: cancel}
}

// OnReady sets fn to be called, without waiting and from the publisher's
// goroutine, whenever a message arrives in an empty queue and when the
// subscription ends; it is called at once if there is already something to
// take. fn must not block.
func (s *Subscription) OnReady(fn func()) {
	s.mu.Lock()
	s.ready = fn
	now := len(s.queue) > 0 || s.err != nil
	s.mu.Unlock()
	if now {
		fn()
	}
}

// Ready returns a channel that receives a value whenever OnReady would call
// its function: the channel form of OnReady, for consumers that wait in a
// select. Call it at most once, instead of OnReady.
func (s *Subscription) Ready() <-chan struct{} {
	s.mu.Lock()
	if s.readyCh == nil {
		s.readyCh = make(chan struct{}, 1)
	}
	ch := s.readyCh
	s.mu.Unlock()
	s.OnReady(func() {
		select {
		case ch <- struct{}{}:
		default:
		}
	})
	return ch
}

// Take appends the queued messages, oldest first, to dst and empties the
// queue.
func (s *Subscription) Take(dst []Message) []Message {
	s.mu.Lock()
	dst = append(dst, s.queue...)
	clear(s.queue)
	s.queue = s.queue[:0]
	if cap(s.queue) > 16 {
		s.queue = nil // a burst is over: give its memory back
	}
	s.mu.Unlock()
	return dst
}

// Len returns the number of messages waiting.
func (s *Subscription) Len() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.queue)
}

// Done is closed when the subscription ends; [Subscription.Err] then says
// why. Messages already queued may still be taken.
func (s *Subscription) Done() <-chan struct{} { return s.done }

// Err returns why the subscription ended, nil while it lasts.
func (s *Subscription) Err() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// Close ends the subscription with a reason (nil means [ErrClosed]). Only the
// first reason counts.
func (s *Subscription) Close(reason error) {
	if reason == nil {
		reason = ErrClosed
	}
	s.mu.Lock()
	if s.err != nil {
		s.mu.Unlock()
		return
	}
	s.err = reason
	close(s.done)
	ready := s.ready
	s.mu.Unlock()
	if s.cancel != nil {
		s.cancel()
	}
	if ready != nil {
		ready()
	}
}

// Offer queues m without waiting and reports whether it fit. A subscription
// that has ended takes nothing (and loses nothing: nobody listens).
func (s *Subscription) Offer(m Message) bool {
	fit, _ := s.Push(m)
	return fit
}

// Push is Offer for a message that must not be dropped unseen: it also says
// whether the subscription had ended, in which case m was not queued and
// ended is the reason (fit is then true, as for Offer).
func (s *Subscription) Push(m Message) (fit bool, ended error) {
	s.mu.Lock()
	if s.err != nil {
		err := s.err
		s.mu.Unlock()
		return true, err
	}
	if len(s.queue) >= s.limit {
		s.mu.Unlock()
		return false, nil
	}
	s.queue = append(s.queue, m)
	var ready func()
	if len(s.queue) == 1 {
		ready = s.ready
	}
	if m.Seq > s.seen {
		s.seen = m.Seq
		if s.seenCh != nil {
			close(s.seenCh)
			s.seenCh = nil
		}
	}
	s.mu.Unlock()
	if ready != nil {
		ready()
	}
	return true, nil
}

// WaitSeen waits until a message numbered seq or later has been queued
// (taken or not), the subscription has ended, or ctx has: it reports
// whether seq was reached. A node that forwards a client's action waits so
// for the action's own update before it answers the client's next message,
// which keeps the answers in the order the client sent its messages.
func (s *Subscription) WaitSeen(ctx context.Context, seq uint64) bool {
	for {
		s.mu.Lock()
		if s.seen >= seq {
			s.mu.Unlock()
			return true
		}
		if s.err != nil {
			s.mu.Unlock()
			return false
		}
		if s.seenCh == nil {
			s.seenCh = make(chan struct{})
		}
		ch := s.seenCh
		s.mu.Unlock()
		select {
		case <-ch:
		case <-s.done:
		case <-ctx.Done():
			return false
		}
	}
}

// Local is the in-process [Bus]. Its zero value is not usable; call
// [NewLocal].
type Local struct {
	shards [64]shard
	seed   maphash.Seed
}

type shard struct {
	mu   sync.RWMutex
	subs map[Topic][]*Subscription
}

// NewLocal returns an empty in-process bus.
func NewLocal() *Local {
	l := &Local{seed: maphash.MakeSeed()}
	for i := range l.shards {
		l.shards[i].subs = make(map[Topic][]*Subscription)
	}
	return l
}

func (l *Local) shard(t Topic) *shard {
	return &l.shards[maphash.String(l.seed, t.Match)%uint64(len(l.shards))]
}

// Subscribe adds a subscriber to t.
func (l *Local) Subscribe(t Topic, limit int) *Subscription {
	return l.subscribe(t, limit, nil)
}

// SubscribeLocal is Subscribe: everything is local here.
func (l *Local) SubscribeLocal(t Topic, limit int) *Subscription {
	return l.subscribe(t, limit, nil)
}

// subscribe adds a subscriber to t; ended, if not nil, is called once it has
// left.
func (l *Local) subscribe(t Topic, limit int, ended func()) *Subscription {
	sh := l.shard(t)
	var sub *Subscription
	sub = NewSubscription(limit, func() {
		if ended != nil {
			defer ended()
		}
		sh.mu.Lock()
		defer sh.mu.Unlock()
		list := sh.subs[t]
		for i, x := range list {
			if x == sub {
				list = append(list[:i:i], list[i+1:]...)
				break
			}
		}
		if len(list) == 0 {
			delete(sh.subs, t)
		} else {
			sh.subs[t] = list
		}
	})
	sh.mu.Lock()
	sh.subs[t] = append(sh.subs[t], sub)
	sh.mu.Unlock()
	return sub
}

// PublishLocal is Publish: a Local bus has no other node.
func (l *Local) PublishLocal(t Topic, m Message) { l.Publish(t, m) }

// Publish gives m to t's subscribers; those that are full are ended with
// [ErrSlow].
func (l *Local) Publish(t Topic, m Message) {
	sh := l.shard(t)
	var slow []*Subscription
	sh.mu.RLock()
	for _, s := range sh.subs[t] {
		if !s.Offer(m) {
			slow = append(slow, s)
		}
	}
	sh.mu.RUnlock()
	for _, s := range slow {
		s.Close(ErrSlow)
	}
}

// end ends the subscriptions of every topic that keep keeps (nil: all) with
// reason.
func (l *Local) end(keep func(Topic) bool, reason error) {
	var subs []*Subscription
	for i := range l.shards {
		sh := &l.shards[i]
		sh.mu.RLock()
		for t, list := range sh.subs {
			if keep == nil || keep(t) {
				subs = append(subs, list...)
			}
		}
		sh.mu.RUnlock()
	}
	for _, s := range subs {
		s.Close(reason)
	}
}

// Subscribers returns how many subscribers t has now.
func (l *Local) Subscribers(t Topic) int {
	sh := l.shard(t)
	sh.mu.RLock()
	defer sh.mu.RUnlock()
	return len(sh.subs[t])
}
