package server

import (
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"strings"
	"sync"
	"time"

	"sortie/internal/match"
)

// Codes of the refusals by a limit on what one client, or everyone, may hold.
const (
	CodeTooManyMatches = "too_many_matches"     // the client has too many unfinished matches
	CodeTooManySockets = "too_many_sockets"     // the client has too many match sockets open
	CodeTooManyConns   = "too_many_connections" // the address has too many connections open
	CodeServerBusy     = "server_busy"          // the server has as many connections as it takes
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
// pick a new address in it at will).
type client string

// clientKey returns the client of an address.
func clientKey(a netip.Addr) client {
	a = a.Unmap()
	if a.Is6() {
		p, _ := a.Prefix(64)
		return client(p.String())
	}
	return client(a.String())
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
// sockets and connections, and its allowance of new matches. A client that
// holds nothing and has its full allowance is forgotten.
type clients struct {
	createRate  float64 // a second; 0: no limit
	createBurst int
	maxOpen     int // 0: no limit
	maxSockets  int
	maxConns    int // from one address
	maxTotal    int // connections in all

	mu    sync.Mutex
	by    map[client]*clientState
	total int // connections open
	sweep int // the size of by that triggers the next sweep
}

type clientState struct {
	create  *limiter // nil until the client creates a match
	open    int      // matches created and not ended, creations under way included
	sockets int
	conns   int
}

func newClients(c Config) *clients {
	return &clients{
		createRate: max(c.CreateRate, 0) / 60, createBurst: c.CreateBurst,
		maxOpen: max(c.OpenPerClient, 0), maxSockets: max(c.SocketsPerClient, 0), maxConns: max(c.ConnsPerClient, 0),
		maxTotal: c.MaxConns, by: map[client]*clientState{}, sweep: 1024,
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

// sweepIdle forgets the clients that hold nothing and have their full
// allowance back; the caller holds mu.
func (cs *clients) sweepIdle(now time.Time) {
	for c, st := range cs.by {
		if st.open == 0 && st.sockets == 0 && st.conns == 0 && (st.create == nil || st.create.full(now)) {
			delete(cs.by, c)
		}
	}
	cs.sweep = max(1024, 2*len(cs.by))
}

// release lowers one of c's counts, forgetting c if it holds nothing.
func (cs *clients) release(c client, count func(*clientState) *int) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	st := cs.by[c]
	if st == nil {
		return
	}
	if n := count(st); *n > 0 {
		*n--
	}
}

func openCount(st *clientState) *int   { return &st.open }
func socketCount(st *clientState) *int { return &st.sockets }
func connCount(st *clientState) *int   { return &st.conns }

// reserveMatch takes one of c's places for an unfinished match and one match
// of its allowance, or says why not and when to try again. The place is
// given back by matchEnded.
func (s *Server) reserveMatch(c client, now time.Time) error {
	cs := s.clients
	cs.mu.Lock()
	defer cs.mu.Unlock()
	st := cs.state(c)
	if cs.maxOpen > 0 && st.open >= cs.maxOpen {
		return s.refuseLimit(CodeTooManyMatches, time.Minute,
			"You have %d matches that are not finished, as many as this server allows; finish one before creating another.", st.open)
	}
	if cs.createRate > 0 {
		if st.create == nil {
			st.create = newLimiter(cs.createRate, cs.createBurst)
		}
		if ok, wait := st.create.take(now); !ok {
			return s.refuseLimit(CodeRateLimited, wait,
				"You are creating matches too quickly: at most %g a minute. Try again in %d seconds.", cs.createRate*60, retrySeconds(wait))
		}
	}
	st.open++
	return nil
}

// matchEnded gives back the place of a match of owner: it ended (the match
// manager's Ended hook), or its creation failed.
func (s *Server) matchEnded(_, owner string) { s.clients.release(client(owner), openCount) }

// reserveSocket counts a socket of c in, or refuses it; the socket gives its
// place back when it ends.
func (s *Server) reserveSocket(c client) error {
	cs := s.clients
	cs.mu.Lock()
	defer cs.mu.Unlock()
	st := cs.state(c)
	if cs.maxSockets > 0 && st.sockets >= cs.maxSockets {
		return s.refuseLimit(CodeTooManySockets, 10*time.Second,
			"You have %d match sockets open, as many as this server allows; close one first.", st.sockets)
	}
	st.sockets++
	return nil
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
