package bus

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	neturl "net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"

	"sortie/engine"
)

// Exchange carries requests from one node to another: a node that holds a
// client's socket but not the client's match forwards the client's action to
// the node that runs the match and waits for its answer. What a request and
// its answer say is the caller's business; the exchange only carries bytes.
type Exchange interface {
	// Serve answers the requests addressed to node with h until stop is
	// called. Each request runs on a goroutine of its own; h must answer
	// (its answer may say that the request was refused). A node name is
	// letters, digits, '-' and '_'.
	Serve(node string, h Handler) (stop func(), err error)
	// Request sends req to node and waits for its answer until ctx ends.
	// [ErrNoNode] means that no node of that name listens (it died or
	// stopped), and [ErrNotSent] that this node could not send it (its
	// connection is down): either way the request was not carried out.
	// Any other error ([ErrUnavailable], ctx's) leaves unknown whether it
	// was: the caller must be able to find out, or to repeat it safely (a
	// client's action carries the seq it acted on, so a repeat is refused
	// rather than played twice).
	Request(ctx context.Context, node string, req []byte) ([]byte, error)
	// Announce tells every other node a short message about this one (its
	// load, say), at most once: nothing is kept for a node that is not
	// listening now.
	Announce(b []byte) error
	// Hear calls fn with each announcement of another node, one at a time,
	// until stop is called.
	Hear(fn func(b []byte)) (stop func(), err error)
}

// Handler answers one request that came from another node. ctx ends when the
// requester can no longer be waiting.
type Handler func(ctx context.Context, req []byte) []byte

var (
	// ErrUnavailable: the bus cannot reach the other nodes now.
	ErrUnavailable = errors.New("bus: the other nodes cannot be reached")
	// ErrNoNode: no node of that name answers requests.
	ErrNoNode = errors.New("bus: no such node listens")
	// ErrNotSent: a request was not sent (this node is cut off from the
	// others); it comes with ErrUnavailable.
	ErrNotSent = errors.New("bus: the request was not sent")
)

// NATSOptions tune a [NATS] bus. The zero value is the default.
type NATSOptions struct {
	// Node names this node in the NATS server's monitoring.
	Node string
	// Prefix starts every subject, so that several clusters may share one
	// NATS: "sortie" by default.
	Prefix string
	// Logger receives the bus's few log lines; nil means slog.Default().
	Logger *slog.Logger
	// HandlerTimeout bounds a request's handler: 30 s by default.
	HandlerTimeout time.Duration
	// PingInterval is how often the connection is checked when idle, so
	// that a silent server is found out: 5 s by default (two missed answers
	// drop the connection).
	PingInterval time.Duration
}

// NATS is a [Bus] and an [Exchange] across nodes, over one connection to a
// NATS server.
//
// A message published on a node reaches that node's own subscribers at once
// (as with [Local]) and the other nodes' through NATS, once per node that has
// subscribers. Messages of one topic arrive in the order of their publisher:
// one node runs a match at a time. When the connection drops, and again when
// it is back, the node's subscriptions to topics other nodes publish end
// with [ErrResync], since a subscriber may have missed messages: it takes a
// fresh snapshot. Subscriptions to the node's own topics (SubscribeLocal)
// go on. Nothing is queued while the connection is down: a publish is
// lost for the other nodes (whose subscriptions end anyway), and a request
// fails at once with [ErrNotSent] rather than reaching its node late; one
// that waits for its answer when the connection drops ends then, with
// [ErrUnavailable] (it may or may not have been carried out).
// The connection comes back by itself, and a node whose NATS is not there
// when it starts connects once it is.
type NATS struct {
	nc      *nats.Conn
	local   *Local
	prefix  string
	log     *slog.Logger
	timeout time.Duration

	mu     sync.Mutex
	topics map[Topic]*remote
	subs   map[*nats.Subscription]Topic
	asking map[*asked]struct{} // the requests waiting for their answers

	bufs      sync.Pool
	lostLarge atomic.Int64
	late      atomic.Bool // NATS was not there when the node started
}

// remote is this node's NATS subscription to a topic that it has
// subscribers for.
type remote struct {
	sub   *nats.Subscription
	users int
	ready chan struct{} // closed once the server knows of sub
}

// ConnectNATS connects to the NATS server(s) at url (nats://host:4222, or
// several separated by commas).
func ConnectNATS(url string, o NATSOptions) (*NATS, error) {
	if o.Prefix == "" {
		o.Prefix = "sortie"
	}
	if !token.MatchString(o.Prefix) {
		return nil, fmt.Errorf("bus: the subject prefix %q must be letters, digits, '-' and '_'", o.Prefix)
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.HandlerTimeout <= 0 {
		o.HandlerTimeout = 30 * time.Second
	}
	if o.PingInterval <= 0 {
		o.PingInterval = 5 * time.Second
	}
	n := &NATS{local: NewLocal(), prefix: o.Prefix, log: o.Logger, timeout: o.HandlerTimeout,
		topics: make(map[Topic]*remote), subs: make(map[*nats.Subscription]Topic), asking: make(map[*asked]struct{})}
	nc, err := nats.Connect(url,
		nats.Name("sortie "+o.Node),
		nats.NoEcho(), // this node's own subscribers get its messages directly
		nats.RetryOnFailedConnect(true),
		nats.MaxReconnects(-1),
		nats.ReconnectWait(250*time.Millisecond),
		nats.ReconnectBufSize(-1), // nothing delivered late after an outage
		nats.PingInterval(o.PingInterval),
		nats.MaxPingsOutstanding(2),
		nats.DisconnectErrHandler(func(nc *nats.Conn, err error) {
			if nc.IsClosed() {
				return // Close ends the subscriptions itself
			}
			n.log.Warn("bus: lost the connection to NATS; other nodes are out of reach until it is back", "err", err)
			n.endRemote(ErrResync)
			n.dropAsking()
		}),
		nats.ConnectHandler(func(nc *nats.Conn) {
			// Subscribers made meanwhile missed nothing: no node could
			// reach this one.
			if n.late.Load() {
				n.log.Info("bus: connected to NATS", "server", nc.ConnectedUrlRedacted())
			}
		}),
		nats.ReconnectHandler(func(nc *nats.Conn) {
			n.log.Info("bus: connected to NATS again", "server", nc.ConnectedUrlRedacted())
			n.endRemote(ErrResync)
		}),
		nats.ErrorHandler(func(_ *nats.Conn, sub *nats.Subscription, err error) {
			if !errors.Is(err, nats.ErrSlowConsumer) || sub == nil {
				n.log.Warn("bus: NATS", "err", err)
				return
			}
			n.mu.Lock()
			t, ok := n.subs[sub]
			n.mu.Unlock()
			if ok {
				n.local.end(func(x Topic) bool { return x == t }, ErrSlow)
			}
		}),
	)
	if err != nil {
		return nil, fmt.Errorf("bus: NATS at %s: %v", url, err)
	}
	n.nc = nc
	if !nc.IsConnected() {
		n.late.Store(true)
		n.log.Warn("bus: NATS does not answer yet; this node runs its own matches and connects when it can", "url", redacted(url))
	}
	return n, nil
}

// redacted hides the passwords of NATS URLs, for logs.
func redacted(urls string) string {
	var out []string
	for _, one := range strings.Split(urls, ",") {
		if u, err := neturl.Parse(strings.TrimSpace(one)); err == nil {
			out = append(out, u.Redacted())
		}
	}
	return strings.Join(out, ",")
}

// token is what a subject token of ours may hold.
var token = regexp.MustCompile(`^[A-Za-z0-9_-]+$`)

func (n *NATS) subject(t Topic) string {
	seat := "s"
	if t.Seat != engine.Spectator {
		seat = strconv.Itoa(int(t.Seat))
	}
	return n.prefix + ".m." + t.Match + "." + seat
}

// PublishLocal gives m to this node's subscribers of t alone: no other node
// follows t now.
func (n *NATS) PublishLocal(t Topic, m Message) { n.local.Publish(t, m) }

// Publish gives m to t's subscribers on this node and sends it to the other
// nodes.
func (n *NATS) Publish(t Topic, m Message) {
	n.local.Publish(t, m)
	if !token.MatchString(t.Match) {
		return // not a match id of ours: it has no subject
	}
	b, _ := n.bufs.Get().(*[]byte)
	if b == nil {
		b = new([]byte)
	}
	*b = binary.BigEndian.AppendUint64((*b)[:0], m.Seq)
	*b = append(*b, m.Data...)
	err := n.nc.Publish(n.subject(t), *b)
	n.bufs.Put(b)
	if errors.Is(err, nats.ErrMaxPayload) && n.lostLarge.Add(1) == 1 {
		n.log.Error("bus: a message is larger than NATS takes; other nodes miss such messages", "bytes", len(m.Data))
	}
}

// Subscribe returns a subscription to t that gets the messages published on
// any node. It returns once the NATS server knows of this node's interest,
// so that a snapshot taken next misses nothing published after it.
func (n *NATS) Subscribe(t Topic, limit int) *Subscription {
	if !token.MatchString(t.Match) {
		return n.local.Subscribe(t, limit)
	}
	n.mu.Lock()
	r := n.topics[t]
	if r == nil {
		r = &remote{ready: make(chan struct{})}
		n.topics[t] = r
		r.users++
		n.mu.Unlock()
		sub, err := n.nc.Subscribe(n.subject(t), func(msg *nats.Msg) {
			if len(msg.Data) < 8 {
				return
			}
			n.local.Publish(t, Message{Seq: binary.BigEndian.Uint64(msg.Data), Data: msg.Data[8:]})
		})
		if err == nil {
			sub.SetPendingLimits(1<<16, 64<<20)
			if n.nc.IsConnected() {
				n.nc.FlushTimeout(5 * time.Second)
			}
		}
		n.mu.Lock()
		r.sub = sub
		if sub != nil {
			n.subs[sub] = t
		}
		close(r.ready)
	} else {
		r.users++
	}
	n.mu.Unlock()
	<-r.ready
	if r.sub == nil {
		// The connection is closed: nothing will come from other nodes.
		s := n.local.subscribe(t, limit, func() { n.release(t, r) })
		s.Close(ErrClosed)
		return s
	}
	return n.local.subscribe(t, limit, func() { n.release(t, r) })
}

// SubscribeLocal returns a subscription to t that gets this node's
// messages alone.
func (n *NATS) SubscribeLocal(t Topic, limit int) *Subscription {
	return n.local.Subscribe(t, limit)
}

// endRemote ends the subscriptions of the topics this node follows through
// NATS.
func (n *NATS) endRemote(reason error) {
	n.mu.Lock()
	remote := make(map[Topic]bool, len(n.topics))
	for t := range n.topics {
		remote[t] = true
	}
	n.mu.Unlock()
	n.local.end(func(t Topic) bool { return remote[t] }, reason)
}

// release drops one user of r, and the NATS subscription with the last.
func (n *NATS) release(t Topic, r *remote) {
	n.mu.Lock()
	defer n.mu.Unlock()
	r.users--
	if r.users > 0 {
		return
	}
	if n.topics[t] == r {
		delete(n.topics, t)
	}
	if r.sub != nil {
		delete(n.subs, r.sub)
		r.sub.Unsubscribe()
	}
}

// Subscribers returns how many subscribers t has on this node.
func (n *NATS) Subscribers(t Topic) int { return n.local.Subscribers(t) }

// Check returns nil while the bus is connected, [ErrUnavailable] otherwise.
func (n *NATS) Check() error {
	if n.nc.IsConnected() {
		return nil
	}
	return fmt.Errorf("%w: NATS is %s", ErrUnavailable, n.nc.Status())
}

// Close ends every subscription and closes the connection.
func (n *NATS) Close() {
	n.nc.Close()
	n.local.end(nil, ErrClosed)
}

func (n *NATS) nodeSubject(node string) (string, error) {
	if !token.MatchString(node) {
		return "", fmt.Errorf("bus: the node name %q must be letters, digits, '-' and '_'", node)
	}
	return n.prefix + ".node." + node, nil
}

// Serve answers the requests addressed to node.
func (n *NATS) Serve(node string, h Handler) (stop func(), err error) {
	subj, err := n.nodeSubject(node)
	if err != nil {
		return nil, err
	}
	sub, err := n.nc.Subscribe(subj, func(msg *nats.Msg) {
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), n.timeout)
			defer cancel()
			msg.Respond(h(ctx, msg.Data))
		}()
	})
	if err != nil {
		return nil, fmt.Errorf("bus: serve %s: %v", node, err)
	}
	// While NATS is away the subscription waits, and is made when it is
	// back.
	if n.nc.IsConnected() {
		if err := n.nc.FlushTimeout(5 * time.Second); err != nil && n.nc.IsConnected() {
			sub.Unsubscribe()
			return nil, fmt.Errorf("%w: serve %s: %v", ErrUnavailable, node, err)
		}
	}
	return func() {
		sub.Unsubscribe()
		n.nc.FlushTimeout(5 * time.Second) // the server forgets node before stop returns
	}, nil
}

// Request sends req to node and waits for its answer.
func (n *NATS) Request(ctx context.Context, node string, req []byte) ([]byte, error) {
	subj, err := n.nodeSubject(node)
	if err != nil {
		return nil, err
	}
	if !n.nc.IsConnected() {
		return nil, fmt.Errorf("%w (%w): NATS is %s", ErrUnavailable, ErrNotSent, n.nc.Status())
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	a := &asked{cancel: cancel}
	n.mu.Lock()
	n.asking[a] = struct{}{}
	n.mu.Unlock()
	defer func() {
		n.mu.Lock()
		delete(n.asking, a)
		n.mu.Unlock()
	}()
	msg, err := n.nc.RequestWithContext(ctx, subj, req)
	switch {
	case err == nil:
		return msg.Data, nil
	case errors.Is(context.Cause(ctx), errDropped):
		return nil, fmt.Errorf("%w: the connection to NATS dropped while node %s was asked", ErrUnavailable, node)
	case errors.Is(err, nats.ErrNoResponders):
		return nil, fmt.Errorf("%w: %s", ErrNoNode, node)
	case errors.Is(err, nats.ErrReconnectBufExceeded):
		// The connection dropped before the request went out: with no
		// reconnection buffer, nothing is sent late.
		return nil, fmt.Errorf("%w (%w): request to node %s: %v", ErrUnavailable, ErrNotSent, node, err)
	case ctx.Err() != nil:
		return nil, fmt.Errorf("%w: no answer from node %s: %w", ErrUnavailable, node, ctx.Err())
	default:
		return nil, fmt.Errorf("%w: request to node %s: %v", ErrUnavailable, node, err)
	}
}

// asked is a request waiting for its answer.
type asked struct{ cancel context.CancelCauseFunc }

// errDropped ends the requests under way when the connection drops: an
// answer sent while this node was cut off is lost, and each may or may not
// have reached its node; the caller finds out which rather than wait.
var errDropped = errors.New("bus: the connection dropped")

// dropAsking ends the requests under way.
func (n *NATS) dropAsking() {
	n.mu.Lock()
	defer n.mu.Unlock()
	for a := range n.asking {
		a.cancel(errDropped)
	}
}

// Announce publishes b to the other nodes' Hear.
func (n *NATS) Announce(b []byte) error {
	if !n.nc.IsConnected() {
		return fmt.Errorf("%w: NATS is %s", ErrUnavailable, n.nc.Status())
	}
	if err := n.nc.Publish(n.prefix+".nodes", b); err != nil {
		return fmt.Errorf("%w: announce: %v", ErrUnavailable, err)
	}
	return nil
}

// Hear calls fn with the other nodes' announcements.
func (n *NATS) Hear(fn func(b []byte)) (stop func(), err error) {
	sub, err := n.nc.Subscribe(n.prefix+".nodes", func(msg *nats.Msg) { fn(msg.Data) })
	if err != nil {
		return nil, fmt.Errorf("bus: hear: %v", err)
	}
	return func() { sub.Unsubscribe() }, nil
}
