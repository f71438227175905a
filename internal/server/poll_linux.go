//go:build linux

package server

import (
	"errors"
	"io"
	"net"
	"os"
	"sync"
	"syscall"
)

// poller tells when idle sockets have something to read, so that an idle
// socket needs no goroutine blocked in a read: one epoll set watches every
// socket, each registered one-shot, and a reader goroutine runs only while
// there is something to read (see sockConn.read).
//
// The sockets' descriptors stay under the Go runtime's own poller, which
// does the reads; this set only reports readiness. A descriptor closed by the
// runtime leaves the set by itself, and events are keyed by registration,
// not by descriptor, so that a reused descriptor number cannot wake the
// wrong socket.
type poller struct {
	epfd int
	wake int // an eventfd that ends the wait loop

	run func(func()) // runs a callback off the wait loop

	mu     sync.Mutex
	ready  map[uint64]func()
	next   uint64
	closed bool
	done   chan struct{}
}

const pollEvents = syscall.EPOLLIN | syscall.EPOLLRDHUP | syscall.EPOLLONESHOT

// newPoller starts a poller whose callbacks run through run; nil (and an
// error) where the system refuses.
func newPoller(run func(func())) (*poller, error) {
	epfd, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		return nil, err
	}
	wake, _, errno := syscall.Syscall(syscall.SYS_EVENTFD2, 0, syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
	if errno != 0 {
		syscall.Close(epfd)
		return nil, errno
	}
	p := &poller{epfd: epfd, wake: int(wake), run: run, ready: map[uint64]func(){}, done: make(chan struct{})}
	ev := syscall.EpollEvent{Events: syscall.EPOLLIN}
	if err := syscall.EpollCtl(epfd, syscall.EPOLL_CTL_ADD, p.wake, &ev); err != nil {
		syscall.Close(epfd)
		syscall.Close(p.wake)
		return nil, err
	}
	go p.loop()
	return p, nil
}

// rawConn returns the descriptor handle of a plain TCP connection (counted
// by Guard or not); other connections (TLS, pipes in tests) cannot be
// watched.
func rawConn(c net.Conn) (syscall.RawConn, bool) {
	if g, ok := c.(*guardedConn); ok {
		c = g.Conn
	}
	tc, ok := c.(*net.TCPConn)
	if !ok {
		return nil, false
	}
	rc, err := tc.SyscallConn()
	return rc, err == nil
}

// add watches rc, calling fn on a new goroutine once it has something to
// read; then the watch rests until [poller.arm].
func (p *poller) add(rc syscall.RawConn, fn func()) (uint64, error) {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return 0, errors.New("poller closed")
	}
	p.next++
	id := p.next
	p.ready[id] = fn
	p.mu.Unlock()
	if err := p.ctl(rc, syscall.EPOLL_CTL_ADD, id); err != nil {
		p.forget(id)
		return 0, err
	}
	return id, nil
}

// arm watches rc again after its callback ran.
func (p *poller) arm(rc syscall.RawConn, id uint64) error {
	// Taking the lock orders what the reader did before arming before what
	// the next reader, started by the wait loop under the same lock, does.
	p.mu.Lock()
	closed := p.closed
	p.mu.Unlock()
	if closed {
		return errors.New("poller closed")
	}
	return p.ctl(rc, syscall.EPOLL_CTL_MOD, id)
}

// remove stops watching rc (if it is still open) and forgets its callback.
func (p *poller) remove(rc syscall.RawConn, id uint64) {
	p.forget(id)
	_ = rc.Control(func(fd uintptr) {
		_ = syscall.EpollCtl(p.epfd, syscall.EPOLL_CTL_DEL, int(fd), &syscall.EpollEvent{})
	})
}

func (p *poller) forget(id uint64) {
	p.mu.Lock()
	delete(p.ready, id)
	p.mu.Unlock()
}

// ctl runs an epoll_ctl on rc's descriptor while the runtime keeps it open.
func (p *poller) ctl(rc syscall.RawConn, op int, id uint64) error {
	ev := syscall.EpollEvent{Events: pollEvents, Fd: int32(uint32(id)), Pad: int32(uint32(id >> 32))}
	var err error
	if cerr := rc.Control(func(fd uintptr) { err = syscall.EpollCtl(p.epfd, op, int(fd), &ev) }); cerr != nil {
		return cerr
	}
	return err
}

// loop waits for readiness and runs the callbacks, until close.
func (p *poller) loop() {
	defer close(p.done)
	events := make([]syscall.EpollEvent, 256)
	for {
		n, err := syscall.EpollWait(p.epfd, events, -1)
		if err != nil {
			if err == syscall.EINTR {
				continue
			}
			return
		}
		for _, ev := range events[:n] {
			id := uint64(uint32(ev.Fd)) | uint64(uint32(ev.Pad))<<32
			if id == 0 {
				continue // the wake-up descriptor, registered with zero data
			}
			p.mu.Lock()
			fn, closed := p.ready[id], p.closed
			p.mu.Unlock()
			if closed {
				return
			}
			if fn != nil {
				p.run(fn)
			}
		}
		p.mu.Lock()
		closed := p.closed
		p.mu.Unlock()
		if closed {
			return
		}
	}
}

// close ends the wait loop; sockets still registered are left to their own
// ends (their callbacks are not called any more).
func (p *poller) close() {
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return
	}
	p.closed = true
	clear(p.ready)
	p.mu.Unlock()
	one := [8]byte{1}
	_, _ = syscall.Write(p.wake, one[:])
	<-p.done
	syscall.Close(p.epfd)
	syscall.Close(p.wake)
}

// tryRead reads what the connection rc holds into p without waiting for
// more: waits is set, and nothing read, when it holds nothing now.
func tryRead(rc syscall.RawConn, p []byte) (n int, waits bool, err error) {
	var rerr error
	if err := rc.Read(func(fd uintptr) bool {
		for {
			n, rerr = syscall.Read(int(fd), p)
			if rerr != syscall.EINTR {
				return true // done, whatever came: never wait here
			}
		}
	}); err != nil {
		return 0, false, err
	}
	switch {
	case rerr == syscall.EAGAIN:
		return 0, true, nil
	case rerr != nil:
		return 0, false, os.NewSyscallError("read", rerr)
	case n == 0 && len(p) > 0:
		return 0, false, io.EOF
	}
	return n, false, nil
}
