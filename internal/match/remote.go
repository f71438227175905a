// Across nodes: a client may reach any node, whichever runs its match. The
// node it reached forwards what the client asks to the node that runs the
// match, over the exchange (NATS), and the match's messages come back over
// the bus, in order, as they reach the match's own sockets.
//
// A socket that follows a match run elsewhere is a watch held here and
// owned there: the owner counts it as a connection of its seat (so the seat
// is "connected", its updates are encoded, no bot takes it over) and this
// node subscribes to the seat's topic. Each second the holder asks each
// owner whether its watches still stand; the owner drops those nobody has
// asked about for a while (their node died), and the holder has a watch
// whose owner is gone, or no longer knows it, take a fresh snapshot from
// wherever the match runs now.

package match

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"

	"sortie/engine"
	"sortie/internal/bus"
)

// Requests between nodes.
const (
	opPing     = "ping"
	opSummary  = "summary"
	opJoin     = "join"
	opClaim    = "claim"  // hold a seat for an account
	opForget   = "forget" // let go of a deleted account's seats
	opStart    = "start"
	opSnapshot = "snapshot"
	opWatch    = "watch"
	opUnwatch  = "unwatch"
	opAct      = "act"
	opSettle   = "settle" // what became of an action whose answer was lost?
	opChat     = "chat"
	opLeave    = "leave"
	opReturn   = "return"
	opClose    = "close" // end an open match (its host asked)
	opAdopt    = "adopt" // take this stored match's lease and run it
	opCheck    = "check" // which of these watches still stand?
	opEnded    = "ended" // these watches of yours have ended
	checkEvery = time.Second
	staleAfter = 5 * time.Second  // an owned watch nobody asked about for this long is dropped
	callLimit  = 30 * time.Second // the longest a forwarded request may take
	probeEvery = 2 * time.Second  // how often a node waiting on a long request checks that the other is alive
	// unknownGrace is how long a node waits for an answer once the node it
	// asked says it is not on the request: an answer sent just before the
	// ping's comes within it.
	unknownGrace = 500 * time.Millisecond
	replacedFor  = 30 * time.Second
)

// wireReq is a request from one node to another.
type wireReq struct {
	Op        string          `json:"op"`
	From      string          `json:"from,omitempty"`
	Match     string          `json:"match,omitempty"`
	Seat      engine.Seat     `json:"seat"`
	Seq       uint64          `json:"seq,omitempty"`
	Action    json.RawMessage `json:"action,omitempty"`
	Text      string          `json:"text,omitempty"`
	Team      bool            `json:"team,omitempty"`
	Name      string          `json:"name,omitempty"`
	Watch     uint64          `json:"watch,omitempty"`
	Watches   []uint64        `json:"watches,omitempty"`
	Replaced  bool            `json:"replaced,omitempty"`
	AutoStart bool            `json:"auto_start,omitempty"`
	Client    string          `json:"client,omitempty"`  // who joins
	Account   string          `json:"account,omitempty"` // the account that joins or claims
	// Ask numbers the request among those its node sent; a ping that
	// names it asks whether the node pinged is still on it.
	Ask uint64 `json:"ask,omitempty"`
}

// wireResp is its answer.
type wireResp struct {
	Error *Error `json:"error,omitempty"`
	// Moved: the match does not run on the node asked.
	Moved    bool            `json:"moved,omitempty"`
	Summary  *Summary        `json:"summary,omitempty"`
	State    json.RawMessage `json:"state,omitempty"`
	Seq      uint64          `json:"seq,omitempty"`
	Gone     []uint64        `json:"gone,omitempty"`
	Replaced []uint64        `json:"replaced,omitempty"`
	// Unknown answers a ping naming a request: the node is not on it (it
	// answered it already, or it never came here: the node that took it is
	// gone, and this one came up under its name).
	Unknown bool `json:"unknown,omitempty"`
}

// errUnwatched ends an owned watch whose holder asked for it: it need not
// be told.
var errUnwatched = errors.New("match: unwatched by its node")

// Remote is a match run by another node, as a [Handle]: each call goes to
// that node and back.
type Remote struct {
	n           *node
	id, owner   string
	hostHash    []byte
	tokenHashes [][]byte
	holders     []string // each seat's account when the handle was opened
	creator     string   // the account that created the match

	mu   sync.Mutex
	held map[engine.Seat]*heldWatch // the watches made through this handle
}

// remote returns a handle on the match another node runs.
func (n *node) remote(e *elsewhere) (Handle, error) {
	rec := e.rec
	switch {
	case n.ex == nil:
		return nil, refuse(CodeUnavailable, "This match runs on another server, which this one cannot reach.")
	case rec.Lease.Node == "" || rec.Lease.Node == n.name:
		return nil, refuse(CodeUnavailable, "The match is moving to another server; try again in a few seconds.")
	}
	r := &Remote{n: n, id: rec.ID, owner: rec.Lease.Node, hostHash: rec.HostHash, tokenHashes: make([][]byte, len(rec.Seats)),
		holders: make([]string, len(rec.Seats)), creator: rec.Account}
	for i, s := range rec.Seats {
		r.tokenHashes[i], r.holders[i] = s.TokenHash, s.Account
	}
	return r, nil
}

// ID returns the match id.
func (r *Remote) ID() string { return r.id }

// Node returns the node that runs the match.
func (r *Remote) Node() string { return r.owner }

// SeatOf returns the seat whose token this is.
func (r *Remote) SeatOf(token string) (engine.Seat, bool) {
	found := -1
	for i, h := range r.tokenHashes {
		if tokenMatches(token, h) {
			found = i
		}
	}
	return engine.Seat(found), found >= 0
}

// IsHost reports whether token is the match's host token.
func (r *Remote) IsHost(token string) bool { return tokenMatches(token, r.hostHash) }

func (r *Remote) call(ctx context.Context, req wireReq) (*wireResp, error) {
	req.Match = r.id
	return r.n.call(ctx, r.owner, req)
}

func (r *Remote) summaryOf(ctx context.Context, req wireReq) (Summary, error) {
	resp, err := r.call(ctx, req)
	if err != nil {
		return Summary{}, err
	}
	if resp.Summary == nil {
		return Summary{}, errMoved
	}
	return *resp.Summary, nil
}

// Summary returns the match as the lobby sees it.
func (r *Remote) Summary(ctx context.Context) (Summary, error) {
	return r.summaryOf(ctx, wireReq{Op: opSummary})
}

// Join records that the human of seat s has joined.
func (r *Remote) Join(ctx context.Context, s engine.Seat, j Joiner) (Summary, error) {
	return r.summaryOf(ctx, wireReq{Op: opJoin, Seat: s, Name: j.Name, Client: j.Client, Account: j.Account})
}

// Claim has account hold seat s.
func (r *Remote) Claim(ctx context.Context, s engine.Seat, account string) (Summary, error) {
	return r.summaryOf(ctx, wireReq{Op: opClaim, Seat: s, Account: account})
}

// Forget has the seats account holds held by nobody.
func (r *Remote) Forget(ctx context.Context, account string) error {
	_, err := r.call(ctx, wireReq{Op: opForget, Account: account})
	return err
}

// SeatsHeldBy returns the seats account held when the handle was opened.
func (r *Remote) SeatsHeldBy(account string) []engine.Seat { return seatsOf(r.holders, account) }

// CreatorAccount returns the account that created the match, or "".
func (r *Remote) CreatorAccount() string { return r.creator }

// Start starts an open match.
func (r *Remote) Start(ctx context.Context) (Summary, error) {
	return r.summaryOf(ctx, wireReq{Op: opStart})
}

// CloseOpen ends an open match.
func (r *Remote) CloseOpen(ctx context.Context) (Summary, error) {
	return r.summaryOf(ctx, wireReq{Op: opClose})
}

// Snapshot returns the state message of audience s.
func (r *Remote) Snapshot(ctx context.Context, s engine.Seat) ([]byte, error) {
	resp, err := r.call(ctx, wireReq{Op: opSnapshot, Seat: s})
	if err != nil {
		return nil, err
	}
	return resp.State, nil
}

// Watch connects an audience to the match: this node follows the
// audience's topic, and the owner counts the connection as its own.
func (r *Remote) Watch(ctx context.Context, s engine.Seat) (*Watch, error) {
	n := r.n
	hw := &heldWatch{match: r.id, seat: s, owner: r.owner}
	// Following the topic first: nothing published after the snapshot is
	// missed, and what came before it is skipped by its seq.
	hw.sub = n.m.bus.Subscribe(bus.Topic{Match: r.id, Seat: s}, n.m.buffer)
	n.w.hold(hw)
	resp, err := r.call(ctx, wireReq{Op: opWatch, Seat: s, Watch: hw.id})
	if err != nil {
		n.w.letGo(hw.id)
		hw.sub.Close(nil)
		return nil, err
	}
	r.mu.Lock()
	if r.held == nil {
		r.held = make(map[engine.Seat]*heldWatch)
	}
	r.held[s] = hw
	r.mu.Unlock()
	return &Watch{Seat: s, State: resp.State, Seq: resp.Seq, Sub: hw.sub}, nil
}

// Unwatch ends a connection made by Watch.
func (r *Remote) Unwatch(w *Watch) {
	w.Sub.Close(nil)
	r.mu.Lock()
	hw := r.held[w.Seat]
	if hw != nil && hw.sub == w.Sub {
		delete(r.held, w.Seat)
	} else {
		hw = nil
	}
	r.mu.Unlock()
	if hw == nil || !r.n.w.letGo(hw.id) {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_, _ = r.call(ctx, wireReq{Op: opUnwatch, Watch: hw.id})
	}()
}

// Act plays a client's action for seat s. On success it returns once this
// node has the update that acknowledges it (or a second has passed), so
// that the client's next answer cannot overtake it. An action whose answer
// was lost (the node that runs the match died, stalled or could not be
// heard from after it was sent) says [Lost]: [Remote.Settle] finds out
// what became of it.
func (r *Remote) Act(ctx context.Context, s engine.Seat, seq uint64, raw []byte) error {
	return r.act(ctx, opAct, s, seq, raw)
}

// Settle finds out what became of an action whose answer was lost, and
// makes it certain (see [Match.Settle]).
func (r *Remote) Settle(ctx context.Context, s engine.Seat, seq uint64, raw []byte) error {
	return r.act(ctx, opSettle, s, seq, raw)
}

func (r *Remote) act(ctx context.Context, op string, s engine.Seat, seq uint64, raw []byte) error {
	resp, err := r.call(ctx, wireReq{Op: op, Seat: s, Seq: seq, Action: raw})
	if err != nil {
		return err
	}
	r.mu.Lock()
	hw := r.held[s]
	r.mu.Unlock()
	if hw != nil && resp.Seq > 0 {
		wctx, cancel := context.WithTimeout(ctx, time.Second)
		hw.sub.WaitSeen(wctx, resp.Seq)
		cancel()
	}
	return nil
}

func (r *Remote) errOnly(ctx context.Context, req wireReq) error {
	_, err := r.call(ctx, req)
	return err
}

// Chat writes a line of seat s into the table talk.
func (r *Remote) Chat(ctx context.Context, s engine.Seat, text string, team bool) error {
	return r.errOnly(ctx, wireReq{Op: opChat, Seat: s, Text: text, Team: team})
}

// Leave hands seat s to its bot.
func (r *Remote) Leave(ctx context.Context, s engine.Seat) error {
	return r.errOnly(ctx, wireReq{Op: opLeave, Seat: s})
}

// Return gives seat s back to its human.
func (r *Remote) Return(ctx context.Context, s engine.Seat) error {
	return r.errOnly(ctx, wireReq{Op: opReturn, Seat: s})
}

// call sends req to node to and returns its answer: a refusal as an
// *Error, [errMoved] when the match does not run there (or the node is
// gone: nothing was done), [CodeUnavailable] when the node cannot be
// reached, and [ErrLost] when a request that changes the match went out
// but its answer never came (it may or may not have been carried out).
func (n *node) call(ctx context.Context, to string, req wireReq) (*wireResp, error) {
	if n.ex == nil {
		return nil, refuse(CodeUnavailable, "This match runs on another server, which this one cannot reach.")
	}
	req.From = n.name
	req.Ask = n.asks.Add(1)
	b, err := json.Marshal(req)
	if err != nil {
		return nil, refuse(engine.CodeMalformed, "The request could not be encoded: %v.", err)
	}
	start := time.Now()
	out, err := n.request(ctx, to, req.Ask, b)
	result := "ok"
	defer func() {
		if h := n.m.hooks.Forwarded; h != nil {
			h(req.Op, result, time.Since(start))
		}
	}()
	if err != nil {
		switch {
		case errors.Is(err, bus.ErrNoNode):
			result = "gone"
			return nil, errMoved
		case errors.Is(err, bus.ErrNotSent):
			result = "unreachable"
			return nil, refuse(CodeUnavailable, "The server that runs this match cannot be reached now; nothing was done: try again.")
		}
		result = "unreachable"
		if changes(req.Op) {
			return nil, ErrLost
		}
		return nil, refuse(CodeUnavailable, "The server that runs this match cannot be reached now; try again.")
	}
	var resp wireResp
	if err := json.Unmarshal(out, &resp); err != nil {
		result = "unreadable"
		if changes(req.Op) {
			return nil, ErrLost
		}
		return nil, refuse(CodeUnavailable, "The server that runs this match gave an answer this one cannot read.")
	}
	switch {
	case resp.Moved:
		result = "moved"
		return nil, errMoved
	case resp.Error != nil:
		result = "refused"
		return &resp, resp.Error
	}
	return &resp, nil
}

// ErrLost says that a request that changes the match went to the node
// that runs it and its answer never came back: it may or may not have been
// carried out. For an action, [Handle.Settle] finds out which.
var ErrLost = refuse(CodeUnavailable, "The server that runs this match did not answer in time: what you sent may or may not have been done; look at the match again.")

// Lost reports whether err is [ErrLost].
func Lost(err error) bool { return err == ErrLost }

// changes reports whether a request changes the match (so that one left
// without an answer may or may not have been carried out).
func changes(op string) bool {
	switch op {
	case opJoin, opClaim, opForget, opStart, opAct, opSettle, opChat, opLeave, opReturn, opAdopt, opClose:
		return true
	}
	return false
}

// request sends b, the request numbered ask, to node to and waits for the
// answer, at most callLimit; while it waits, it checks every probeEvery
// that the node is alive and still on the request, and gives up when it is
// gone, has not answered twice, or answers that it is not on the request:
// the process that took it died and another came up under its name (which
// answers pings, but never this request). Only an error of the request
// itself says [bus.ErrNoNode] or [bus.ErrNotSent] (nothing was done): a
// node that dies while it is asked may have done it.
func (n *node) request(ctx context.Context, to string, ask uint64, b []byte) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, callLimit)
	defer cancel()
	type result struct {
		b   []byte
		err error
	}
	done := make(chan result, 1)
	go func() {
		b, err := n.ex.Request(ctx, to, b)
		done <- result{b, err}
	}()
	probe := time.NewTimer(probeEvery)
	defer probe.Stop()
	ping, _ := json.Marshal(wireReq{Op: opPing, From: n.name, Ask: ask})
	misses := 0
	for {
		select {
		case r := <-done:
			return r.b, r.err
		case <-probe.C:
			pctx, pcancel := context.WithTimeout(ctx, probeEvery)
			out, err := n.ex.Request(pctx, to, ping)
			pcancel()
			var resp wireResp
			switch {
			case errors.Is(err, bus.ErrNoNode):
				return nil, fmt.Errorf("%w: node %s is gone", bus.ErrUnavailable, to)
			case err != nil:
				if misses++; misses >= 2 {
					return nil, fmt.Errorf("%w: node %s does not answer", bus.ErrUnavailable, to)
				}
			case json.Unmarshal(out, &resp) == nil && resp.Unknown:
				// Not on it: answered just now (the answer, sent before the
				// ping's, is on its way), or never taken by this process.
				select {
				case r := <-done:
					return r.b, r.err
				case <-time.After(unknownGrace):
					return nil, fmt.Errorf("%w: node %s is not on the request (it came up again since)", bus.ErrUnavailable, to)
				}
			default:
				misses = 0
			}
			probe.Reset(probeEvery)
		}
	}
}

// serve answers a request from another node.
func (n *node) serve(ctx context.Context, b []byte) []byte {
	var req wireReq
	var resp *wireResp
	if err := json.Unmarshal(b, &req); err != nil {
		resp = &wireResp{Error: refuse(engine.CodeMalformed, "This node cannot read the request: %v.", err)}
	} else {
		if req.Ask != 0 && req.Op != opPing {
			defer n.on(askKey{req.From, req.Ask})()
		}
		resp = n.answer(ctx, &req)
	}
	out, err := json.Marshal(resp)
	if err != nil {
		out, _ = json.Marshal(&wireResp{Error: refuse(CodeUnavailable, "The answer could not be encoded.")})
	}
	return out
}

func (n *node) answer(ctx context.Context, req *wireReq) *wireResp {
	resp := &wireResp{}
	switch req.Op {
	case opPing:
		if req.Ask != 0 {
			n.servingMu.Lock()
			_, on := n.serving[askKey{req.From, req.Ask}]
			n.servingMu.Unlock()
			resp.Unknown = !on
		}
		return resp
	case opCheck:
		resp.Gone, resp.Replaced = n.w.check(req.From, req.Watches)
		return resp
	case opEnded:
		n.w.ended(req.Watches, req.Replaced)
		return resp
	case opUnwatch:
		n.w.unwatch(req.From, req.Watch)
		return resp
	}
	if !validID(req.Match) {
		resp.Error = refuse(CodeUnknownMatch, "There is no match %q.", req.Match)
		return resp
	}
	x, err := n.m.Get(ctx, req.Match)
	var e *elsewhere
	if req.Op == opAdopt && errors.As(err, &e) {
		// The node that asks gave the lease up before it asked; a load
		// begun here before that (a socket following the match) may have
		// found the lease still held, and Get shares its answer. Look
		// again, with a load of our own.
		x, err = n.m.Get(ctx, req.Match)
	}
	switch {
	case errors.As(err, &e):
		resp.Moved = true
		return resp
	case err != nil:
		resp.Error = AsError(err)
		return resp
	}
	err = n.onMatch(ctx, x, req, resp)
	switch {
	case Moved(err):
		resp.Moved = true
	case err != nil:
		resp.Error = AsError(err)
	}
	return resp
}

// onMatch does what req asks of match x, which runs here.
func (n *node) onMatch(ctx context.Context, x *Match, req *wireReq, resp *wireResp) error {
	var sum Summary
	var err error
	switch req.Op {
	case opSummary:
		sum, err = x.Summary(ctx)
	case opJoin:
		sum, err = x.Join(ctx, req.Seat, Joiner{Name: req.Name, Client: req.Client, Account: req.Account})
	case opClaim:
		sum, err = x.Claim(ctx, req.Seat, req.Account)
	case opForget:
		return x.Forget(ctx, req.Account)
	case opStart:
		sum, err = x.Start(ctx)
	case opClose:
		sum, err = x.CloseOpen(ctx)
	case opAdopt:
		if req.AutoStart && x.everyoneHereNow() {
			if _, err := x.Start(ctx); err != nil {
				return err
			}
		}
		sum, err = x.Summary(ctx)
	case opSnapshot:
		resp.State, err = x.Snapshot(ctx, req.Seat)
		return err
	case opWatch:
		w, err := n.w.own(ctx, x, req.Seat, watchKey{req.From, req.Watch})
		if err != nil {
			return err
		}
		resp.State, resp.Seq = w.State, w.Seq
		return nil
	case opAct:
		resp.Seq, err = x.actSeq(ctx, req.Seat, req.Seq, req.Action)
		return err
	case opSettle:
		resp.Seq, err = x.settleSeq(ctx, req.Seat, req.Seq, req.Action)
		return err
	case opChat:
		return x.Chat(ctx, req.Seat, req.Text, req.Team)
	case opLeave:
		return x.Leave(ctx, req.Seat)
	case opReturn:
		return x.Return(ctx, req.Seat)
	default:
		return refuse(engine.CodeMalformed, "There is no request %q between nodes.", req.Op)
	}
	if err == nil {
		resp.Summary = &sum
	}
	return err
}

// askKey names a request another node sent this one: the node, and the
// request's number there.
type askKey struct {
	node string
	ask  uint64
}

// on notes that the node is on request k until the returned func is
// called.
func (n *node) on(k askKey) (off func()) {
	n.servingMu.Lock()
	n.serving[k] = struct{}{}
	n.servingMu.Unlock()
	return func() {
		n.servingMu.Lock()
		delete(n.serving, k)
		n.servingMu.Unlock()
	}
}

// watchKey names a watch: the node that holds it and its number there.
type watchKey struct {
	node string
	id   uint64
}

// ownedWatch is a connection of another node to a match of this one.
type ownedWatch struct {
	x       *Match
	w       *Watch
	checked time.Time
}

// heldWatch is a connection of this node to a match of another.
type heldWatch struct {
	id    uint64
	match string
	seat  engine.Seat
	owner string
	sub   *bus.Subscription
}

// watches are a node's watches across nodes, both ways.
type watches struct {
	n        *node
	mu       sync.Mutex
	next     uint64
	owned    map[watchKey]*ownedWatch
	replaced map[watchKey]time.Time // owned watches a newer connection replaced lately
	held     map[uint64]*heldWatch
	misses   map[string]int // checks an owner left unanswered in a row
}

func (ws *watches) init(n *node) {
	ws.n = n
	ws.owned = make(map[watchKey]*ownedWatch)
	ws.replaced = make(map[watchKey]time.Time)
	ws.held = make(map[uint64]*heldWatch)
	ws.misses = make(map[string]int)
}

// own connects another node's watch k to audience s of match x.
func (ws *watches) own(ctx context.Context, x *Match, s engine.Seat, k watchKey) (*Watch, error) {
	if !nodeName.MatchString(k.node) || k.id == 0 {
		return nil, refuse(engine.CodeMalformed, "A watch needs its node and number.")
	}
	var sub *bus.Subscription
	w, err := x.watch(ctx, s, true, func() *bus.Subscription {
		// The owner's side of the connection: nothing goes through it (the
		// messages go through the bus to the other node); it counts as the
		// seat's connection, and its end is told to the other node.
		sub = bus.NewSubscription(1, func() { ws.ownedEnded(k, sub) })
		return sub
	})
	if err != nil {
		return nil, err
	}
	ws.mu.Lock()
	ws.owned[k] = &ownedWatch{x: x, w: w, checked: time.Now()}
	ws.mu.Unlock()
	if sub.Err() != nil { // ended before it was known here
		ws.ownedEnded(k, sub)
	}
	return w, nil
}

// ownedEnded forgets an owned watch that ended, and tells its node unless
// the node asked for it.
func (ws *watches) ownedEnded(k watchKey, sub *bus.Subscription) {
	ws.mu.Lock()
	ow := ws.owned[k]
	if ow == nil || ow.w.Sub != sub {
		ws.mu.Unlock()
		return
	}
	delete(ws.owned, k)
	reason := sub.Err()
	replaced := errors.Is(reason, bus.ErrReplaced)
	if replaced {
		ws.replaced[k] = time.Now()
	}
	ws.mu.Unlock()
	if errors.Is(reason, errUnwatched) {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_, _ = ws.n.call(ctx, k.node, wireReq{Op: opEnded, Watches: []uint64{k.id}, Replaced: replaced})
	}()
}

// unwatch ends owned watch k, at its node's request.
func (ws *watches) unwatch(node string, id uint64) {
	k := watchKey{node, id}
	ws.mu.Lock()
	ow := ws.owned[k]
	ws.mu.Unlock()
	if ow == nil {
		return
	}
	ow.w.Sub.Close(errUnwatched)
	go ow.x.Unwatch(ow.w)
}

// check notes that node still holds the watches ids, and returns those
// this node no longer owns, and those of them a newer connection replaced.
func (ws *watches) check(node string, ids []uint64) (gone, replaced []uint64) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	now := time.Now()
	for _, id := range ids {
		k := watchKey{node, id}
		if ow := ws.owned[k]; ow != nil {
			ow.checked = now
			continue
		}
		if _, ok := ws.replaced[k]; ok {
			replaced = append(replaced, id)
		} else {
			gone = append(gone, id)
		}
	}
	return gone, replaced
}

// sweep drops the owned watches whose node has not asked about them
// lately: it died, or cannot reach this one.
func (ws *watches) sweep() {
	now := time.Now()
	var stale []*ownedWatch
	ws.mu.Lock()
	for _, ow := range ws.owned {
		if now.Sub(ow.checked) > staleAfter {
			stale = append(stale, ow)
		}
	}
	for k, at := range ws.replaced {
		if now.Sub(at) > replacedFor {
			delete(ws.replaced, k)
		}
	}
	ws.mu.Unlock()
	for _, ow := range stale {
		go ow.x.Unwatch(ow.w)
	}
}

// hold numbers a watch of this node and keeps it.
func (ws *watches) hold(hw *heldWatch) {
	ws.mu.Lock()
	ws.next++
	hw.id = ws.next
	ws.held[hw.id] = hw
	ws.mu.Unlock()
}

// letGo forgets held watch id, and reports whether it was held.
func (ws *watches) letGo(id uint64) bool {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	_, ok := ws.held[id]
	delete(ws.held, id)
	return ok
}

// ended ends held watches that their owner ended: replaced by a newer
// connection of the seat, or for any other reason, after which the socket
// takes a fresh snapshot wherever the match runs now.
func (ws *watches) ended(ids []uint64, replaced bool) {
	reason := bus.ErrResync
	if replaced {
		reason = bus.ErrReplaced
	}
	ws.endHeld(func(hw *heldWatch) bool {
		for _, id := range ids {
			if hw.id == id {
				return true
			}
		}
		return false
	}, reason)
}

// endHeld ends the held watches that pick chooses with reason.
func (ws *watches) endHeld(pick func(*heldWatch) bool, reason error) {
	var end []*heldWatch
	ws.mu.Lock()
	for id, hw := range ws.held {
		if pick(hw) {
			end = append(end, hw)
			delete(ws.held, id)
		}
	}
	ws.mu.Unlock()
	for _, hw := range end {
		hw.sub.Close(reason)
	}
}

// checkAll asks each owner whether this node's watches still stand, and
// ends those that do not (a fresh snapshot follows), or all of an owner's
// when it is gone or has not answered twice in a row.
func (ws *watches) checkAll() {
	byOwner := make(map[string][]uint64)
	ws.mu.Lock()
	for id, hw := range ws.held {
		byOwner[hw.owner] = append(byOwner[hw.owner], id)
	}
	ws.mu.Unlock()
	var wg sync.WaitGroup
	for owner, ids := range byOwner {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ws.checkOwner(owner, ids)
		}()
	}
	wg.Wait()
}

func (ws *watches) checkOwner(owner string, ids []uint64) {
	n := ws.n
	b, _ := json.Marshal(wireReq{Op: opCheck, From: n.name, Watches: ids})
	ctx, cancel := context.WithTimeout(context.Background(), 2*checkEvery)
	defer cancel()
	out, err := n.ex.Request(ctx, owner, b)
	ofOwner := func(hw *heldWatch) bool { return hw.owner == owner }
	var resp wireResp
	switch {
	case errors.Is(err, bus.ErrNoNode):
		ws.endHeld(ofOwner, bus.ErrResync)
		return
	case err != nil || json.Unmarshal(out, &resp) != nil:
		if busDown(n.ex) {
			return // this node's own connection is down: the bus has told its subscribers
		}
		ws.mu.Lock()
		ws.misses[owner]++
		twice := ws.misses[owner] >= 2
		ws.mu.Unlock()
		if twice {
			ws.endHeld(ofOwner, bus.ErrResync)
		}
		return
	}
	ws.mu.Lock()
	delete(ws.misses, owner)
	ws.mu.Unlock()
	if len(resp.Gone) > 0 {
		ws.ended(resp.Gone, false)
	}
	if len(resp.Replaced) > 0 {
		ws.ended(resp.Replaced, true)
	}
}

// busDown reports whether the exchange says that this node cannot reach
// the others now.
func busDown(ex bus.Exchange) bool {
	c, ok := ex.(interface{ Check() error })
	return ok && c.Check() != nil
}

// closeHeld ends every watch this node holds (it is stopping).
func (ws *watches) closeHeld() {
	ws.endHeld(func(*heldWatch) bool { return true }, bus.ErrClosed)
}

// checkWatches and sweepWatches are the node's part of keep.
func (n *node) checkWatches() { n.w.checkAll() }
func (n *node) sweepWatches() { n.w.sweep() }
