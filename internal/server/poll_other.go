//go:build !linux

package server

import (
	"errors"
	"net"
	"syscall"
)

// poller is Linux's readiness watch (poll_linux.go); elsewhere every socket
// keeps a reader goroutine.
type poller struct{}

func newPoller(func(func())) (*poller, error) {
	return nil, errors.New("no readiness poller on this system")
}

func rawConn(net.Conn) (syscall.RawConn, bool) { return nil, false }

func (p *poller) add(syscall.RawConn, func()) (uint64, error) {
	return 0, errors.New("no readiness poller on this system")
}

func (p *poller) arm(syscall.RawConn, uint64) error { return errors.New("no readiness poller") }

func (p *poller) remove(syscall.RawConn, uint64) {}

func (p *poller) close() {}

func tryRead(syscall.RawConn, []byte) (int, bool, error) { return 0, true, nil }
