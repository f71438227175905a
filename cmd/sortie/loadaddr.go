package main

import (
	"net"
	"net/http"
	"net/netip"
	"sync/atomic"
	"time"

	"sortie/internal/server/client"
)

// Where the load clients come from. A server limits what one client (one
// address) may hold and do: by default 10 new matches a minute in bursts of
// 20, 50 unfinished matches, 64 sockets, 256 connections. People create a
// match now and then; the load generator creates hundreds a minute. Against
// a server on this machine, each match slot therefore comes from a loopback
// address of its own (Linux routes the whole of 127.0.0.0/8 to the loopback
// interface), and moves to a fresh one after sourceMatches creations, so
// that no address comes near the server's limits with its default settings.
// Against another machine there is one address, and that server's limits
// must be raised.

// sourceMatches is how many matches a slot creates from one address before
// it moves to another: half the default burst of creations, so that an
// address never waits for its allowance even if it never refills.
const sourceMatches = 10

// loadSource is one address the load clients come from: an HTTP client
// whose connections, match sockets included, leave from it, and a client of
// each node through it.
type loadSource struct {
	http    *http.Client
	nodes   []*client.Client
	created atomic.Int32 // matches created from it
}

// loadSources hands out the addresses.
type loadSources struct {
	bases  []string    // the nodes' URLs
	shared *loadSource // every client's, when the server is not on 127.0.0.0/8
	next   atomic.Uint32
}

// newLoadSources gives each slot an address of its own when every node
// listens on an IPv4 loopback address (or localhost) and this machine lets
// a program use the loopback addresses beyond 127.0.0.1 (Linux does, macOS
// does not), else one address for all.
func newLoadSources(bases []string, hosts []string) *loadSources {
	ls := &loadSources{bases: bases}
	spread := loopbackBeyondOne()
	for _, h := range hosts {
		if a, err := netip.ParseAddr(h); h != "localhost" && (err != nil || !a.Is4() || !a.IsLoopback()) {
			spread = false
		}
	}
	if !spread {
		ls.shared = ls.source(nil, 256)
	}
	return ls
}

// loopbackBeyondOne reports whether the first source address can be used.
func loopbackBeyondOne() bool {
	ln, err := net.Listen("tcp", netip.AddrPortFrom(sourceAddr(0), 0).String())
	if err != nil {
		return false
	}
	ln.Close()
	return true
}

// spread reports whether slots come from addresses of their own.
func (ls *loadSources) spread() bool { return ls.shared == nil }

// source makes a source leaving from addr (nil: the system's choice).
func (ls *loadSources) source(addr net.Addr, idle int) *loadSource {
	d := &net.Dialer{LocalAddr: addr, Timeout: 10 * time.Second, KeepAlive: 30 * time.Second}
	tr := &http.Transport{DialContext: d.DialContext, MaxIdleConnsPerHost: idle, IdleConnTimeout: 30 * time.Second}
	src := &loadSource{http: &http.Client{Transport: tr, Timeout: 30 * time.Second}}
	for _, b := range ls.bases {
		src.nodes = append(src.nodes, &client.Client{Base: b, HTTP: src.http})
	}
	return src
}

// get returns the source a slot creates its next match from: cur if it
// has matches left, else a fresh address (cur's idle connections closed).
// A slot whose creation was refused by a per-client limit passes fresh.
func (ls *loadSources) get(cur *loadSource, fresh bool) *loadSource {
	if ls.shared != nil {
		return ls.shared
	}
	if cur != nil && !fresh && cur.created.Load() < sourceMatches {
		return cur
	}
	if cur != nil {
		cur.http.CloseIdleConnections()
	}
	return ls.source(&net.TCPAddr{IP: sourceAddr(ls.next.Add(1) - 1).AsSlice()}, 4)
}

// sourceAddr is the n-th address of 127.1.0.1 onwards, leaving out those
// ending in 0 and 255 (16 million in all): 127.0.0.1, which the server and
// other programs use, is never one of them.
func sourceAddr(n uint32) netip.Addr {
	host, net24 := n%254+1, n/254
	return netip.AddrFrom4([4]byte{127, byte(1 + net24>>8), byte(net24), byte(host)})
}
