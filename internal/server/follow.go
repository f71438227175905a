// Following a match: a socket stays open when its match moves to another
// node (the node that ran it died, was paused past its lease, or drains) or
// when the connection between nodes drops and returns. Its subscription
// then ends with bus.ErrResync, or the socket sees a change missing from
// the sequence, and the socket's writer takes a fresh snapshot wherever the
// match runs now and sends it as a new "state"; until it can (the match is
// between nodes, NATS is down), the socket waits, answering its client's
// actions with "unavailable", and tries again every few hundred
// milliseconds.

package server

import (
	"context"
	"time"

	"sortie/internal/bus"
	"sortie/internal/match"
)

// Waits between tries to follow a match that cannot be reached.
const (
	followFirst = 250 * time.Millisecond
	followMost  = 2 * time.Second
	// maxHeld bounds the answers kept while a socket has no subscription.
	maxHeld = 64
)

// attachment returns what the socket follows now.
func (c *sockConn) attachment() (match.Handle, *match.Watch) {
	c.attMu.Lock()
	defer c.attMu.Unlock()
	return c.h, c.w
}

// watch connects the socket to its match through first, or wherever the
// match runs now if it moved (or if first is nil).
func (c *sockConn) watch(first match.Handle) (match.Handle, *match.Watch, error) {
	var h match.Handle
	var w *match.Watch
	try := func(one match.Handle) (err error) {
		if w, err = one.Watch(context.Background(), c.seat); err == nil {
			h = one
		}
		return err
	}
	if first != nil {
		if err := try(first); !match.Moved(err) {
			return h, w, err
		}
	}
	err := c.s.mgr.Use(context.Background(), c.id, try)
	return h, w, err
}

// attach connects a new socket to its match through h.
func (c *sockConn) attach(h match.Handle) error {
	h, w, err := c.watch(h)
	if err == nil {
		c.attMu.Lock()
		c.h, c.w = h, w
		c.attMu.Unlock()
	}
	return err
}

// use runs fn on the match, reaching it where it runs now if it moved.
func (c *sockConn) use(fn func(match.Handle) error) error {
	h, _ := c.attachment()
	if err := fn(h); !match.Moved(err) {
		return err
	}
	return c.s.mgr.Use(context.Background(), c.id, fn)
}

// refuse answers a refused socket message. The answer joins the socket's
// queue, so that a client gets the answers to its messages in the order it
// sent them, acknowledgements and refusals alike; while the socket follows
// its match again, answers wait for the fresh snapshot.
func (c *sockConn) refuse(re *uint64, e *match.Error) {
	c.s.metrics.refusedMsg.WithLabelValues(e.Code).Inc()
	b, _ := errorMessage(re, e)
	c.attMu.Lock()
	defer c.attMu.Unlock()
	fit, ended := c.w.Sub.Push(bus.Message{Data: b})
	switch {
	case ended != nil:
		if len(c.held) < maxHeld {
			c.held = append(c.held, b)
		}
	case !fit:
		c.w.Sub.Close(bus.ErrSlow)
	}
}

// follow connects the socket to its match again and sends the fresh
// snapshot (the writer calls it, holding mu). It reports false when that
// cannot be done now: the socket then waits and tries again.
func (c *sockConn) follow() bool {
	old, oldW := c.attachment()
	old.Unwatch(oldW)
	// Where the match runs is the store's to say: the node the socket
	// followed may be gone, or paused.
	h, w, err := c.watch(nil)
	if err != nil {
		if c.gone() {
			return false
		}
		c.s.log.Debug("a socket cannot follow its match now", "match", c.id, "seat", c.seat, "err", err)
		if e := match.AsError(err); e.Code != match.CodeUnavailable {
			// Not a matter of waiting.
			b, _ := errorMessage(nil, e)
			_ = c.send(b)
			c.ws.close(closeTryAgain, "the match is not available")
			c.end()
			return false
		}
		c.park(old)
		return false
	}
	c.attMu.Lock()
	c.h, c.w = h, w
	held := c.held
	c.held, c.wait = nil, 0
	c.attMu.Unlock()
	if c.gone() {
		// The socket ended while it found its match: its end may have let
		// go of the old watch only.
		h.Unwatch(w)
		return false
	}
	c.s.metrics.followed.Inc()
	c.s.log.Debug("a socket follows its match again", "match", c.id, "seat", c.seat, "seq", w.Seq)
	state := w.State
	w.State = nil
	c.seen = w.Seq
	for _, b := range append([][]byte{state}, held...) {
		if err := c.send(b); err != nil {
			c.end()
			return false
		}
	}
	w.Sub.OnReady(c.kick)
	return true
}

// park gives the socket a subscription of its own while its match cannot
// be reached: it holds the answers to the client's messages, and ends after
// a wait that grows at each try, which brings the writer back to follow.
func (c *sockConn) park(h match.Handle) {
	park := bus.NewSubscription(c.s.cfg.SocketBuffer, nil)
	c.attMu.Lock()
	c.wait = min(max(2*c.wait, followFirst), followMost)
	wait := c.wait
	c.h, c.w = h, &match.Watch{Seat: c.seat, Seq: c.seen, Sub: park}
	for _, b := range c.held {
		if !park.Offer(bus.Message{Data: b}) {
			park.Close(bus.ErrSlow) // a buffer set below maxHeld
			break
		}
	}
	c.held = nil
	c.attMu.Unlock()
	park.OnReady(c.kick)
	time.AfterFunc(wait, func() { park.Close(bus.ErrResync) })
}
