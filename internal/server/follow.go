// Following a match: a socket stays open when its match moves to another
// node (the node that ran it died, was paused past its lease, or drains) or
// when the connection between nodes drops and returns. Its subscription
// then ends with bus.ErrResync, or the socket sees a change missing from
// the sequence, and the socket's writer takes a fresh snapshot wherever the
// match runs now and sends it as a new "state"; until it can (the match is
// between nodes, NATS is down), the socket waits, answering its client's
// actions with "unavailable", and tries again every few hundred
// milliseconds. A socket that opens while its match is between nodes waits
// the same way for its first state.
//
// Whatever moves under it, a socket answers each action its client sends
// exactly once: with the seat's update that carries "ack", or with a
// refusal. The socket keeps what it owes (owedAction) until the answer
// goes out. An action played whose update the socket never sends (it was
// published where the socket could not hear it, or skipped after a gap)
// is acknowledged by the next state the socket sends, which carries "ack";
// an action whose answer was lost between nodes is settled
// (match.Handle.Settle) before that state, wherever the match runs now;
// and a socket that closes because its node stops answers what it owes
// before its close frame.

package server

import (
	"bytes"
	"context"
	"slices"
	"time"

	"sortie/internal/bus"
	"sortie/internal/match"
)

// How a socket follows its match, and waits for it.
const (
	followFirst = 250 * time.Millisecond
	followMost  = 2 * time.Second
	// maxHeld bounds the answers kept while a socket has no subscription.
	maxHeld = 64
	// waitFirstFor bounds the wait of a socket that has had no state yet
	// for its match (a takeover takes a lease and a second or two): it is
	// then closed with 1013, and its client connects again.
	waitFirstFor = 20 * time.Second
	// answerWait bounds how long a socket that closes waits for the answer
	// to the action its match is being asked about.
	answerWait = 5 * time.Second
	// lostWait bounds how long an action whose answer was lost waits to be
	// settled (a takeover takes a lease and a second or two; NATS may be
	// away longer): it is then refused as what may or may not have been
	// done, and the socket forgets it.
	lostWait = 10 * time.Second
)

// owedAction is an action a socket read and has not answered yet.
type owedAction struct {
	re    uint64    // the seq it named
	raw   []byte    // the action, kept while its fate is unknown
	lost  time.Time // when its answer was found lost
	fate  fate
	acked bool // its acknowledgement went out while its match was asked
}

// fate is what a socket knows of an action it owes an answer.
type fate uint8

const (
	asked  fate = iota // its match is being asked
	played             // played as record re+1: its acknowledgement is due
	kept               // kept until the store can save it ("pending"): its update acknowledges it
	lost               // its answer was lost between nodes: settled when the socket follows its match again
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

// waitFirst has a new socket whose match cannot be reached now (err) wait
// for it, as a socket that follows its match does, rather than close: it
// gets its first state once the match runs somewhere again. It reports
// false when err is not a matter of waiting.
func (c *sockConn) waitFirst(h match.Handle, err error) bool {
	if match.AsError(err).Code != match.CodeUnavailable {
		return false
	}
	c.s.log.Debug("a new socket waits for its match", "match", c.id, "seat", c.seat, "err", err)
	c.waitSince = time.Now()
	c.park(h)
	return true
}

// use runs fn on the match, reaching it where it runs now if it moved.
func (c *sockConn) use(fn func(match.Handle) error) error {
	h, _ := c.attachment()
	if err := fn(h); !match.Moved(err) {
		return err
	}
	return c.s.mgr.Use(context.Background(), c.id, fn)
}

// act plays a client's action, chosen on state seq, and sees that it gets
// its answer.
func (c *sockConn) act(seq uint64, raw []byte) {
	o, refusal := c.owe(seq)
	if refusal != nil {
		c.refuse(&seq, refusal)
		return
	}
	err := c.use(func(h match.Handle) error { return h.Act(context.Background(), c.seat, seq, raw) })
	c.attMu.Lock()
	resync := c.judged(o, raw, err, false)
	c.attMu.Unlock()
	if resync {
		_, w := c.attachment()
		w.Sub.Close(bus.ErrResync)
	}
}

// owe notes an action the socket is about to ask its match to play, or
// refuses it: the socket closes, or an action before it has not been
// settled yet (the client cannot know the state it acts on).
func (c *sockConn) owe(seq uint64) (*owedAction, *match.Error) {
	c.attMu.Lock()
	defer c.attMu.Unlock()
	if c.closing {
		return nil, &match.Error{Code: match.CodeUnavailable, Message: "The server is stopping: connect again, and act on the state you get."}
	}
	for _, o := range c.owed {
		if o.fate == lost {
			return nil, &match.Error{Code: match.CodeUnavailable,
				Message: "The answer to your last action is still on its way between servers; this one was not played: try again in a moment."}
		}
	}
	o := &owedAction{re: seq}
	c.owed = append(c.owed, o)
	c.owing.Store(true)
	return o, nil
}

// judged takes what the match said of action o (raw), holding attMu:
// nil, it was played; a refusal, it is answered now; "pending", the store
// keeps it; lost between nodes, it is settled once the socket follows its
// match again. held says whether the socket has no subscription to answer
// through (it is following its match), so that a refusal waits for the
// state. It reports whether the socket must take a fresh state for the
// client to learn its action's fate: its answer was lost, or the action was
// played and the socket has already sent what came after it without the
// acknowledgement.
func (c *sockConn) judged(o *owedAction, raw []byte, err error, held bool) (resync bool) {
	switch {
	case err == nil:
		if o.acked {
			c.forget(o)
			return false
		}
		o.fate = played
		return c.shown.Load() > o.re
	case match.Lost(err):
		if o.fate != lost {
			o.fate, o.raw, o.lost = lost, bytes.Clone(raw), time.Now()
		}
		return !held
	}
	e := match.AsError(err)
	if e.Code == match.CodePending {
		if o.acked {
			c.forget(o) // landed already: the notice would come after the answer
			return false
		}
		o.fate, o.raw = kept, bytes.Clone(raw)
		if !held {
			c.queue(&o.re, e) // a notice, not the answer: the update comes once it lands
		}
		return false
	}
	c.forget(o)
	if held {
		c.hold(&o.re, e)
	} else {
		c.queue(&o.re, e)
	}
	return false
}

// forget drops o from what the socket owes (attMu held).
func (c *sockConn) forget(o *owedAction) {
	for i, one := range c.owed {
		if one == o {
			c.owed = append(c.owed[:i], c.owed[i+1:]...)
			break
		}
	}
	if len(c.owed) == 0 {
		c.owed = nil
		c.owing.Store(false)
	}
}

// sending notes that the writer sends m, a change of the match: the newest
// the client has seen, and perhaps the acknowledgement of an action the
// socket owes.
func (c *sockConn) sending(m bus.Message) {
	if !c.owing.Load() {
		c.shown.Store(m.Seq)
		return
	}
	c.attMu.Lock()
	defer c.attMu.Unlock()
	c.shown.Store(m.Seq)
	ack, ok := match.AckOf(m.Data)
	if !ok {
		return
	}
	var asking *owedAction
	for _, o := range c.owed {
		switch {
		case o.re != ack:
		case o.fate == asked:
			asking = o
		default:
			c.forget(o)
			return
		}
	}
	if asking != nil {
		asking.acked = true // the reader forgets it when its match answers
	}
}

// refuse answers a refused socket message. The answer joins the socket's
// queue, so that a client gets the answers to its messages in the order it
// sent them, acknowledgements and refusals alike; while the socket follows
// its match again, answers wait for the fresh snapshot.
func (c *sockConn) refuse(re *uint64, e *match.Error) {
	c.attMu.Lock()
	defer c.attMu.Unlock()
	c.queue(re, e)
}

// queue is refuse, holding attMu.
func (c *sockConn) queue(re *uint64, e *match.Error) {
	c.s.metrics.refusedMsg.WithLabelValues(e.Code).Inc()
	b, _ := errorMessage(re, e)
	fit, ended := c.w.Sub.Push(bus.Message{Data: b, Answer: true})
	switch {
	case ended != nil:
		if len(c.held) < maxHeld {
			c.held = append(c.held, b)
		}
	case !fit:
		c.w.Sub.Close(bus.ErrSlow)
	}
}

// hold keeps a refusal to send after the next state (attMu held).
func (c *sockConn) hold(re *uint64, e *match.Error) {
	c.s.metrics.refusedMsg.WithLabelValues(e.Code).Inc()
	b, _ := errorMessage(re, e)
	if len(c.held) < maxHeld {
		c.held = append(c.held, b)
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
	if err == nil {
		err = c.settle(h)
		if err != nil {
			h.Unwatch(w)
		}
	}
	if err != nil {
		if c.gone() {
			return false
		}
		c.s.log.Debug("a socket cannot follow its match now", "match", c.id, "seat", c.seat, "err", err)
		c.giveUpLost()
		e := match.AsError(err)
		if e.Code != match.CodeUnavailable || !c.waitSince.IsZero() && time.Since(c.waitSince) > waitFirstFor {
			// Not a matter of waiting (or the socket has waited long
			// enough for a first state: its client connects again).
			c.answerHeld()
			b, _ := errorMessage(nil, e)
			_ = c.send(b)
			c.ws.close(closeTryAgain, "the match is not available")
			c.end()
			return false
		}
		c.park(old)
		return false
	}
	state, more := c.acknowledge(h, w)
	if c.gone() {
		// The socket ended while it found its match: its end may have let
		// go of the old watch only.
		h.Unwatch(w)
		return false
	}
	c.s.metrics.followed.Inc()
	c.s.log.Debug("a socket follows its match again", "match", c.id, "seat", c.seat, "seq", w.Seq)
	c.seen = w.Seq
	if !c.sendState(state) {
		return false
	}
	w.Sub.OnReady(c.kick)
	if more {
		w.Sub.Close(bus.ErrResync) // the next state acknowledges the next
	}
	return true
}

// settle asks the match, through h, what became of each action the socket
// sent whose answer was lost or that the store kept: it plays it now if it
// was not, and says which. It fails while the match cannot tell (the socket
// tries again at its next follow).
func (c *sockConn) settle(h match.Handle) error {
	c.attMu.Lock()
	var todo []*owedAction
	for _, o := range c.owed {
		if o.fate == lost || o.fate == kept {
			todo = append(todo, o)
		}
	}
	c.attMu.Unlock()
	for _, o := range todo {
		err := h.Settle(context.Background(), c.seat, o.re, o.raw)
		if match.Lost(err) || match.Moved(err) {
			return err
		}
		c.attMu.Lock()
		c.judged(o, o.raw, err, true)
		c.attMu.Unlock()
	}
	return nil
}

// giveUpLost refuses the actions whose answer was lost and that could not
// be settled for lostWait, as what may or may not have been done: the
// client looks at the match when it is back, and may send them again (a
// repeat of one that was played is refused as stale).
func (c *sockConn) giveUpLost() {
	c.attMu.Lock()
	defer c.attMu.Unlock()
	for _, o := range slices.Clone(c.owed) {
		if o.fate == lost && time.Since(o.lost) >= lostWait {
			c.forget(o)
			c.hold(&o.re, match.AsError(match.ErrLost))
		}
	}
}

// acknowledge makes w, the socket's new watch through h, the one it
// follows, and returns the state to send first: w's snapshot, carrying
// the acknowledgement of the latest action it shows played that the
// client was not told of; more says that another such action waits for
// the next state.
func (c *sockConn) acknowledge(h match.Handle, w *match.Watch) (state []byte, more bool) {
	c.attMu.Lock()
	defer c.attMu.Unlock()
	state = w.State
	w.State = nil
	var ack *owedAction
	for _, o := range c.owed {
		if o.fate != played || o.re >= w.Seq {
			continue
		}
		if ack != nil {
			more = true
			if o.re < ack.re {
				continue
			}
		}
		ack = o
	}
	if ack != nil {
		state = match.WithAck(state, ack.re)
		c.forget(ack)
	}
	c.shown.Store(w.Seq)
	c.h, c.w = h, w
	c.wait, c.waitSince = 0, time.Time{}
	return state, more
}

// sendState sends a fresh state, then the answers held while the socket
// had no subscription.
func (c *sockConn) sendState(state []byte) bool {
	c.attMu.Lock()
	held := c.held
	c.held = nil
	c.attMu.Unlock()
	for _, b := range append([][]byte{state}, held...) {
		if err := c.send(b); err != nil {
			c.end()
			return false
		}
	}
	return true
}

// answerHeld sends the answers held while the socket had no subscription.
func (c *sockConn) answerHeld() {
	c.attMu.Lock()
	held := c.held
	c.held = nil
	c.attMu.Unlock()
	for _, b := range held {
		if c.send(b) != nil {
			return
		}
	}
}

// answerAll answers, before the socket closes because its node stops or
// its match left, the actions it read: it takes no more, waits a while for
// the answer to the one its match is asked about, and, if it owes more than
// refusals, sends a fresh state from wherever the match runs now, which
// acknowledges what was played (the client connects again anyway).
func (c *sockConn) answerAll() {
	c.attMu.Lock()
	c.closing = true
	c.attMu.Unlock()
	for deadline := time.Now().Add(answerWait); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if !c.asking() {
			break
		}
	}
	if c.owing.Load() {
		// Through the match's node first: a node that stops still reaches
		// the others until its sockets have closed.
		h, _ := c.attachment()
		if h, w, err := c.watch(h); err == nil {
			if c.settle(h) != nil {
				h.Unwatch(w)
			} else {
				// (The socket's end lets go of the watch.)
				state, _ := c.acknowledge(h, w)
				c.seen = w.Seq
				c.refuseOwed()
				c.sendState(state)
				return
			}
		}
	}
	c.refuseOwed()
	c.answerHeld()
}

// refuseOwed refuses, as what may or may not have been done, what the
// socket still owes as it closes: an answer it waited for in vain, a match
// it could not reach, a second action played that its last state does not
// acknowledge. The client looks at the match again when it connects.
func (c *sockConn) refuseOwed() {
	c.attMu.Lock()
	defer c.attMu.Unlock()
	for _, o := range slices.Clone(c.owed) {
		c.forget(o)
		c.hold(&o.re, match.AsError(match.ErrLost))
	}
}

// asking reports whether the socket waits for its match's answer to an
// action.
func (c *sockConn) asking() bool {
	c.attMu.Lock()
	defer c.attMu.Unlock()
	for _, o := range c.owed {
		if o.fate == asked {
			return true
		}
	}
	return false
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
		if !park.Offer(bus.Message{Data: b, Answer: true}) {
			park.Close(bus.ErrSlow) // a buffer set below maxHeld
			break
		}
	}
	c.held = nil
	c.attMu.Unlock()
	park.OnReady(c.kick)
	time.AfterFunc(wait, func() { park.Close(bus.ErrResync) })
}
