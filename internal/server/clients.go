package server

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"slices"
	"strings"
	"sync"
	"time"

	"sortie/engine"
	"sortie/internal/match"
	"sortie/internal/store"
)

// Codes of the refusals by a limit on what one client, or everyone, may hold.
const (
	CodeTooManyMatches = "too_many_matches"     // the client has too many unfinished matches
	CodeTooManySockets = "too_many_sockets"     // the client has too many match sockets open
	CodeTooManyConns   = "too_many_connections" // the address has too many connections open
	CodeServerBusy     = "server_busy"          // the server has as many connections (or spectators) as it takes
	CodeSpectatorsFull = "spectators_full"      // the match has as many spectators as the server takes
	CodeTimeout        = "request_timeout"      // the request (its body) came too slowly
)

// limitError is a refusal by a limit: it says when to try again, which the
// answer tells in its Retry-After header.
type limitError struct {
	err   *match.Error
	retry time.Duration
}

func (l *limitError) Error() string { return l.err.Message }
func (l *limitError) Unwrap() error { return l.err }

// refuseLimit returns a limitError, and counts it in the metrics.
func (s *Server) refuseLimit(code string, retry time.Duration, format string, args ...any) *limitError {
	s.metrics.limited.WithLabelValues(code).Inc()
	return &limitError{err: &match.Error{Code: code, Message: fmt.Sprintf(format, args...)}, retry: retry}
}

// A client is who the limits count for: the address a request comes from,
// or, when it comes from a trusted proxy, the address the proxy names. An
// IPv6 client is its /64 (one subscriber's network gets a whole /64, and can
// pick a new address in it at will); what the clients of one /48 (one site,
// which may hand out many /64s) hold together is bounded too, at
// networkShare times what one client may hold.
type client string

// networkShare is how many clients' allowance the clients of one IPv6 /48
// have together.
const networkShare = 4

// clientKey returns the client of an address.
func clientKey(a netip.Addr) client {
	a = a.Unmap()
	if a.Is6() {
		p, _ := a.Prefix(64)
		return client(p.String())
	}
	return client(a.String())
}

// network returns the /48 an IPv6 client is part of, or "" for an IPv4
// client (or a key that is no prefix).
func (c client) network() client {
	p, err := netip.ParsePrefix(string(c))
	if err != nil || !p.Addr().Is6() || p.Bits() <= 48 {
		return ""
	}
	w, _ := p.Addr().Prefix(48)
	return client(w.String())
}

// addrOf parses "host:port" or a bare address, with or without brackets.
func addrOf(s string) (netip.Addr, bool) {
	s = strings.TrimSpace(s)
	if ap, err := netip.ParseAddrPort(s); err == nil {
		return ap.Addr().Unmap(), true
	}
	a, err := netip.ParseAddr(strings.TrimSuffix(strings.TrimPrefix(s, "["), "]"))
	return a.Unmap(), err == nil
}

// trusted reports whether a is one of the proxies whose forwarded header is
// believed.
func (s *Server) trusted(a netip.Addr) bool {
	for _, p := range s.cfg.TrustedProxies {
		if p.Contains(a) {
			return true
		}
	}
	return false
}

// clientOf returns the client a request counts for. Behind trusted proxies
// it is the nearest address of the forwarded chain that is not a trusted
// proxy: what a client writes in the header itself lies further left and is
// never reached.
func (s *Server) clientOf(r *http.Request) client {
	peer, ok := addrOf(r.RemoteAddr)
	if !ok {
		return client(r.RemoteAddr)
	}
	if !s.trusted(peer) {
		return clientKey(peer)
	}
	hops := forwardedFor(r.Header, s.cfg.ClientIPHeader)
	for i := len(hops) - 1; i >= 0; i-- {
		a, ok := addrOf(hops[i])
		if !ok {
			break // "unknown" or a hidden name: the client is the proxy's
		}
		peer = a
		if !s.trusted(a) {
			break
		}
	}
	return clientKey(peer)
}

// forwardedFor returns the addresses a forwarded header lists, the client
// first and the nearest proxy last: X-Forwarded-For's list, or the for=
// parameters of Forwarded (RFC 7239). Several lines of the header read as one
// list, in order.
func forwardedFor(h http.Header, name string) []string {
	var hops []string
	std := http.CanonicalHeaderKey(name) == "Forwarded"
	for _, line := range h.Values(name) {
		for _, elem := range strings.Split(line, ",") {
			if !std {
				hops = append(hops, strings.TrimSpace(elem))
				continue
			}
			for _, pair := range strings.Split(elem, ";") {
				k, v, _ := strings.Cut(strings.TrimSpace(pair), "=")
				if strings.EqualFold(k, "for") {
					hops = append(hops, strings.Trim(v, `"`))
				}
			}
		}
	}
	return hops
}

// ParseTrustedProxies reads a list of addresses and CIDR prefixes
// ("127.0.0.1, 10.0.0.0/8, ::1").
func ParseTrustedProxies(list []string) ([]netip.Prefix, error) {
	var out []netip.Prefix
	for _, item := range list {
		for _, f := range strings.FieldsFunc(item, func(r rune) bool { return r == ',' || r == ' ' }) {
			if p, err := netip.ParsePrefix(f); err == nil {
				out = append(out, p.Masked())
				continue
			}
			a, err := netip.ParseAddr(f)
			if err != nil {
				return nil, fmt.Errorf("%q is neither an address nor a CIDR prefix", f)
			}
			out = append(out, netip.PrefixFrom(a.Unmap(), a.Unmap().BitLen()))
		}
	}
	return out, nil
}

// clients keeps what each client holds now: its matches under way, its
// sockets and connections, and its allowances of new matches, reads and
// sockets; and what everyone holds: connections, spectators in all and by
// match. A client that holds nothing and has its full allowances is
// forgotten.
type clients struct {
	// Allowances, each a rate a second and a burst; a rate of 0: no limit.
	createRate, readRate, dialRate, signInRate float64
	createBurst, readBurst, dialBurst          int
	// Per client; 0: no limit.
	maxOpen, maxSockets, maxSpectators int
	maxConns                           int // from one address
	// In all.
	maxTotal     int // connections
	maxOverflow  int // connections over a cap let in for /healthz and /metrics
	maxSpecTotal int // spectator sockets
	maxSpecMatch int // spectator sockets of one match; 0: no limit

	mu          sync.Mutex
	by          map[client]*clientState
	idle        map[*guardedConn]idleConn // connections between requests, or silent since they came
	total       int                       // connections open, but those let in over a cap
	overflow    int                       // connections let in over a cap
	shedding    int                       // spectator sockets told to go, not gone yet
	specTotal   int
	specByMatch map[string]int
	sweep       int // the size of by that triggers the next sweep
}

type clientState struct {
	create, read, dial, signIn *limiter // nil until first used
	open                       int      // matches created and not ended, creations under way included
	sockets                    int
	spectators                 int
	conns                      int
	overflow                   int         // connections let in over a cap
	watching                   []*sockConn // its spectator sockets not told to go, oldest first
}

// held is a state a client's holdings count in, with the number of
// clients' allowances it has.
type held struct {
	st    *clientState
	share int
}

func newClients(c Config) *clients {
	return &clients{
		createRate: max(c.CreateRate, 0) / 60, createBurst: c.CreateBurst,
		readRate: max(c.ReadRate, 0), readBurst: c.ReadBurst,
		dialRate: max(c.SocketRate, 0) / 60, dialBurst: c.SocketBurst, signInRate: max(c.SignInRate, 0) / 60,
		maxOpen: max(c.OpenPerClient, 0), maxSockets: max(c.SocketsPerClient, 0), maxSpectators: max(c.SpectatorsPerClient, 0),
		maxConns: max(c.ConnsPerClient, 0), maxTotal: c.MaxConns, maxOverflow: c.overflowConns,
		maxSpecTotal: c.MaxSpectators, maxSpecMatch: max(c.SpectatorsPerMatch, 0),
		by: map[client]*clientState{}, specByMatch: map[string]int{}, sweep: 1024, idle: map[*guardedConn]idleConn{},
	}
}

// state returns c's state, made if new; the caller holds mu.
func (cs *clients) state(c client) *clientState {
	st := cs.by[c]
	if st == nil {
		if len(cs.by) >= cs.sweep {
			cs.sweepIdle(time.Now())
		}
		st = &clientState{}
		cs.by[c] = st
	}
	return st
}

// holders returns the states c's holdings count in: its own, and its
// network's for an IPv6 client; the caller holds mu.
func (cs *clients) holders(c client) []held {
	hs := []held{{cs.state(c), 1}}
	if n := c.network(); n != "" {
		hs = append(hs, held{cs.state(n), networkShare})
	}
	return hs
}

// sweepIdle forgets the clients that hold nothing and have their full
// allowances back; the caller holds mu.
func (cs *clients) sweepIdle(now time.Time) {
	for c, st := range cs.by {
		if st.open == 0 && st.sockets == 0 && st.conns == 0 && st.overflow == 0 &&
			st.create.fullOrNil(now) && st.read.fullOrNil(now) && st.dial.fullOrNil(now) && st.signIn.fullOrNil(now) {
			delete(cs.by, c)
		}
	}
	cs.sweep = max(1024, 2*len(cs.by))
}

// within reports whether every holder may hold one more of count, whose
// limit for one client is limit (0: none).
func within(hs []held, limit int, count func(*clientState) int) bool {
	if limit <= 0 {
		return true
	}
	for _, h := range hs {
		if count(h.st) >= limit*h.share {
			return false
		}
	}
	return true
}

// add changes count by d in every holder.
func add(hs []held, count func(*clientState) *int, d int) {
	for _, h := range hs {
		if n := count(h.st); *n+d >= 0 {
			*n += d
		}
	}
}

// allow takes one of the allowance an every holder keeps at which (made at
// rate and burst times its share if new), or, if one has none left, takes
// none and says how long until it has.
func allow(hs []held, which func(*clientState) **limiter, rate float64, burst int, now time.Time) (bool, time.Duration) {
	if rate <= 0 {
		return true, 0
	}
	for _, h := range hs {
		if *which(h.st) == nil {
			*which(h.st) = newLimiter(rate*float64(h.share), burst*h.share)
		}
		if ok, wait := (*which(h.st)).ready(now); !ok {
			return false, wait
		}
	}
	for _, h := range hs {
		(*which(h.st)).take(now)
	}
	return true, 0
}

func openCount(st *clientState) *int            { return &st.open }
func socketCount(st *clientState) *int          { return &st.sockets }
func specCount(st *clientState) *int            { return &st.spectators }
func connCount(st *clientState) *int            { return &st.conns }
func createAllowance(st *clientState) **limiter { return &st.create }
func dialAllowance(st *clientState) **limiter   { return &st.dial }
func signInAllowance(st *clientState) **limiter { return &st.signIn }

// signInBurst is the burst of the allowance of requests to sign in.
const signInBurst = 10

// allowSignIn takes one request to sign in of c's allowance, or says when
// to try again.
func (s *Server) allowSignIn(c client, now time.Time) error {
	cs := s.clients
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if ok, wait := allow(cs.holders(c), signInAllowance, cs.signInRate, signInBurst, now); !ok {
		return s.refuseLimit(CodeRateLimited, wait,
			"You are asking to sign in too often: at most %g times a minute. Try again in %d seconds.", cs.signInRate*60, retrySeconds(wait))
	}
	return nil
}

// release lowers one of c's counts (and its network's).
func (cs *clients) release(c client, count func(*clientState) *int) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	add(cs.holders(c), count, -1)
}

// reserveMatch takes one of c's places for an unfinished match and one match
// of its allowance, or says why not and when to try again. The place is
// given back by matchEnded.
func (s *Server) reserveMatch(c client, now time.Time) error {
	cs := s.clients
	cs.mu.Lock()
	defer cs.mu.Unlock()
	hs := cs.holders(c)
	if !within(hs, cs.maxOpen, func(st *clientState) int { return st.open }) {
		return s.refuseLimit(CodeTooManyMatches, time.Minute,
			"You have %d matches that are not finished, as many as this server allows; finish one before creating another.", hs[0].st.open)
	}
	if ok, wait := allow(hs, createAllowance, cs.createRate, cs.createBurst, now); !ok {
		return s.refuseLimit(CodeRateLimited, wait,
			"You are creating matches too quickly: at most %g a minute. Try again in %d seconds.", cs.createRate*60, retrySeconds(wait))
	}
	add(hs, openCount, 1)
	return nil
}

// matchEnded gives back the place of a match of owner: it ended, left this
// node, or its creation failed (the match manager's Ended hook).
func (s *Server) matchEnded(_, owner string) { s.clients.release(client(owner), openCount) }

// ended is the match manager's Ended hook: the client's count, and a
// match to rate, perhaps.
func (s *Server) ended(id, owner string) {
	s.matchEnded(id, owner)
	s.kickRating()
}

// matchLoaded counts a match of owner that came into memory under way
// otherwise than by its creation here (the node started, or took it over):
// it holds a place, whatever the limit (the match manager's Loaded hook).
func (s *Server) matchLoaded(_, owner string) {
	cs := s.clients
	cs.mu.Lock()
	defer cs.mu.Unlock()
	add(cs.holders(client(owner)), openCount, 1)
}

// rebuildCreations counts the creations the store lists against each
// creator's allowance, as if this node had served them: a restart hands out
// no fresh allowance.
func (s *Server) rebuildCreations(list []store.Creation) {
	cs := s.clients
	if cs.createRate <= 0 {
		return
	}
	cs.mu.Lock()
	defer cs.mu.Unlock()
	for _, c := range list {
		for _, h := range cs.holders(client(c.Creator)) {
			if h.st.create == nil {
				h.st.create = newLimiter(cs.createRate*float64(h.share), cs.createBurst*h.share)
			}
			h.st.create.spend(c.Created)
		}
	}
}

// creationWindow is how far back the creations count against an allowance
// that a restart rebuilds: the time an empty allowance takes to fill again.
func (cs *clients) creationWindow() time.Duration {
	if cs.createRate <= 0 {
		return 0
	}
	return time.Duration(float64(cs.createBurst*networkShare) / cs.createRate * float64(time.Second))
}

// maxReadWait is how long a read over its client's allowance may wait for
// it rather than be refused: a client that reads in bursts is served a
// little later, and one that reads without pause is slowed to its rate,
// each of its requests costing the server a parked request rather than a
// refusal answered at once and asked again.
const maxReadWait = time.Second

// allowRead takes one read of c's allowance, and says how long the read
// must wait for it (at most maxReadWait), or refuses it and says when to
// try again.
func (s *Server) allowRead(c client, now time.Time) (time.Duration, error) {
	cs := s.clients
	if cs.readRate <= 0 {
		return 0, nil
	}
	cs.mu.Lock()
	defer cs.mu.Unlock()
	hs := cs.holders(c)
	most := time.Duration(0)
	for _, h := range hs {
		if h.st.read == nil {
			h.st.read = newLimiter(cs.readRate*float64(h.share), cs.readBurst*h.share)
		}
		if ok, wait := h.st.read.ready(now); !ok {
			if wait > maxReadWait {
				return 0, s.refuseLimit(CodeRateLimited, wait,
					"You are reading too quickly: at most %g requests a second. Try again in %d seconds.", cs.readRate, retrySeconds(wait))
			}
			most = max(most, wait)
		}
	}
	for _, h := range hs {
		h.st.read.reserve(now, maxReadWait)
	}
	return most, nil
}

// reserveSocket counts a socket of c to match id in (a spectator's if
// spectator), or refuses it: every socket asked for counts against c's
// allowance of new sockets, then the caps on sockets, and on spectators for
// c, for the match and in all. The socket gives its places back when it
// ends (releaseSocket).
func (s *Server) reserveSocket(c client, id string, spectator bool, now time.Time) error {
	cs := s.clients
	cs.mu.Lock()
	defer cs.mu.Unlock()
	hs := cs.holders(c)
	if ok, wait := allow(hs, dialAllowance, cs.dialRate, cs.dialBurst, now); !ok {
		return s.refuseLimit(CodeRateLimited, wait,
			"You are opening match sockets too quickly: at most %g a minute. Try again in %d seconds.", cs.dialRate*60, retrySeconds(wait))
	}
	if !within(hs, cs.maxSockets, func(st *clientState) int { return st.sockets }) {
		return s.refuseLimit(CodeTooManySockets, 10*time.Second,
			"You have %d match sockets open, as many as this server allows; close one first.", hs[0].st.sockets)
	}
	if spectator {
		switch {
		case !within(hs, cs.maxSpectators, func(st *clientState) int { return st.spectators }):
			return s.refuseLimit(CodeTooManySockets, 10*time.Second,
				"You watch %d matches, as many as this server allows; close one first.", hs[0].st.spectators)
		case cs.maxSpecMatch > 0 && cs.specByMatch[id] >= cs.maxSpecMatch:
			return s.refuseLimit(CodeSpectatorsFull, time.Minute,
				"This match has %d spectators, as many as this server takes; try again later.", cs.specByMatch[id])
		case cs.specTotal >= cs.maxSpecTotal:
			// The rest of the connections are kept for the players.
			return s.refuseLimit(CodeServerBusy, time.Minute,
				"The server has as many spectators as it takes; the players come first. Try again later.")
		}
		add(hs, specCount, 1)
		cs.specTotal++
		cs.specByMatch[id]++
	}
	add(hs, socketCount, 1)
	return nil
}

// watching notes c's spectator socket sc, open now, as one that may be told
// to go when the connections run short.
func (cs *clients) watching(c client, sc *sockConn) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	st := cs.state(c)
	st.watching = append(st.watching, sc)
}

// releaseSocket gives back the places of a socket of c to match id (see
// reserveSocket); sc is the socket, once open.
func (cs *clients) releaseSocket(c client, id string, spectator bool, sc *sockConn) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	hs := cs.holders(c)
	add(hs, socketCount, -1)
	if !spectator {
		return
	}
	add(hs, specCount, -1)
	cs.specTotal--
	if cs.specByMatch[id]--; cs.specByMatch[id] <= 0 {
		delete(cs.specByMatch, id)
	}
	if sc == nil {
		return
	}
	st := hs[0].st
	if i := slices.Index(st.watching, sc); i >= 0 {
		st.watching = slices.Delete(st.watching, i, i+1)
	} else if sc.shed {
		cs.shedding--
	}
}

// maxShedding bounds the connections and spectator sockets told to go and
// not gone yet: the connections let in for them overshoot the cap by at
// most that.
const maxShedding = 64

// idleConn is a connection that holds a place and does nothing: a
// keep-alive connection between requests, or one that has sent nothing
// since it came.
type idleConn struct {
	since time.Time
	fresh bool // it has sent nothing yet
}

// silentGrace is how long a new connection may send nothing before it may
// be closed to make room: a client sends its request at once.
const silentGrace = 2 * time.Second

// connState follows what the server's connections do (http.Server's
// ConnState), for shedIdle.
func (cs *clients) connState(c net.Conn, state http.ConnState) {
	gc, ok := c.(*guardedConn)
	if !ok || gc.over != nil {
		return
	}
	cs.mu.Lock()
	defer cs.mu.Unlock()
	switch state {
	case http.StateNew, http.StateIdle:
		cs.idle[gc] = idleConn{since: time.Now(), fresh: state == http.StateNew}
	default:
		delete(cs.idle, gc)
	}
}

// shedIdle picks the connection idle the longest (a keep-alive connection
// between requests, or one silent past silentGrace) and takes it out of
// the idle ones: the caller closes it once it has let mu go. It returns nil
// if there is none, or too many are going. The caller holds mu.
func (cs *clients) shedIdle(now time.Time) *guardedConn {
	if cs.shedding >= maxShedding {
		return nil
	}
	var oldest *guardedConn
	var since time.Time
	for c, ic := range cs.idle {
		if ic.fresh && now.Sub(ic.since) < silentGrace {
			continue
		}
		if oldest == nil || ic.since.Before(since) {
			oldest, since = c, ic.since
		}
	}
	if oldest != nil {
		delete(cs.idle, oldest)
		oldest.shed = true
		cs.shedding++
	}
	return oldest
}

// shedSpectator picks the oldest spectator socket of the client that
// watches the most, and marks it told to go: the caller tells it once it
// has let mu go. It returns nil if there is none, or too many are going.
// The caller holds mu.
func (cs *clients) shedSpectator() *sockConn {
	if cs.shedding >= maxShedding {
		return nil
	}
	var most *clientState
	for _, st := range cs.by {
		if len(st.watching) > 0 && (most == nil || len(st.watching) > len(most.watching)) {
			most = st
		}
	}
	if most == nil {
		return nil
	}
	sc := most.watching[0]
	most.watching = slices.Delete(most.watching, 0, 1)
	sc.shed = true
	cs.shedding++
	return sc
}

// retrySeconds is a wait in whole seconds, rounded up, at least one.
func retrySeconds(d time.Duration) int {
	return max(1, int((d+time.Second-1)/time.Second))
}

// remoteAddr is the address of a connection's peer.
func remoteAddr(c net.Conn) (netip.Addr, bool) {
	if ta, ok := c.RemoteAddr().(*net.TCPAddr); ok {
		return ta.AddrPort().Addr().Unmap(), true
	}
	return addrOf(c.RemoteAddr().String())
}

// isSpectator reports whether seat is the spectators' audience.
func isSpectator(seat engine.Seat) bool { return seat == engine.Spectator }
