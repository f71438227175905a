package server

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gobwas/ws"
	"github.com/gobwas/ws/wsutil"
)

// closeTryAgain is the standard close code "try again later" (1013).
const closeTryAgain ws.StatusCode = 1013

// closeLinger bounds how long a socket that sent its close frame waits for
// the client's answer before the connection is closed anyway.
const closeLinger = 2 * time.Second

// errClosing is what a write gets once the close frame has gone.
var errClosing = errors.New("the socket is closing")

// errNoMessage: next answered control frames, and no message waits.
var errNoMessage = errors.New("no message waits")

// wsConn is the server's side of one WebSocket connection (RFC 6455), built
// on gobwas/ws's frame reader and header checks.
//
// It keeps as little as it can while nothing happens: its reader (a small
// buffer and the frame reader's state) goes back to a pool whenever no byte
// waits in it, and the frames it writes are gathered in a pooled buffer and
// go out in one system call each (or one for a batch, between hold and
// release). An idle connection thus holds the connection and this struct.
//
// Writes may come from any goroutine; reads from one at a time.
type wsConn struct {
	conn    net.Conn
	timeout time.Duration // bounds each write; 0: none
	// maxMessage bounds a message: its frames' headers tell when it is
	// over, and nothing more of it is read.
	maxMessage int64

	mu      sync.Mutex
	holders int
	buf     *[]byte // gathered frames, pooled; nil while nothing is gathered
	err     error   // the first write error: every later write fails with it
	closing bool    // the close frame went: nothing more is written

	// early is net/http's reader when the client sent bytes before the
	// handshake's answer: they are in it, so it serves the connection's
	// whole life.
	early *bufio.Reader
	rd    *wsReader // while a message is read or bytes wait in it

	// A connection read on readiness (rc set) reads what has come without
	// waiting; only a read that must wait for more of a message begun is
	// bound by due, the time the message must be whole by (see bound).
	rc    syscall.RawConn
	due   time.Time
	bound bool // the connection's read deadline is due
}

// wsReader is what reading a connection needs, lent by a pool.
type wsReader struct {
	c   *wsConn
	br  *bufio.Reader
	r   wsutil.Reader
	end bool // the message's payload was read to its end
	ctl [ws.MaxControlFramePayloadSize]byte
}

// wsReadBuffer is the size of a lent reader's buffer: a client message is
// short (an action).
const wsReadBuffer = 512

var wsReaders = sync.Pool{New: func() any { return newWSReader(bufio.NewReaderSize(nil, wsReadBuffer)) }}

// newWSReader returns a reader of frames from br, which a connection then
// takes.
func newWSReader(br *bufio.Reader) *wsReader {
	k := &wsReader{br: br}
	k.r = wsutil.Reader{State: ws.StateServerSide, CheckUTF8: true,
		OnIntermediate: func(h ws.Header, body io.Reader) error { return k.c.control(h, body, k.ctl[:]) }}
	return k
}

// frameBufs holds the buffers frames are gathered in.
var frameBufs = sync.Pool{New: func() any { b := make([]byte, 0, 4096); return &b }}

// upgrade checks the request's origin and answers the WebSocket handshake.
// On failure it has answered the request.
func upgrade(w http.ResponseWriter, r *http.Request, origins []string) (*wsConn, error) {
	if err := checkOrigin(r, origins); err != nil {
		http.Error(w, err.Error(), http.StatusForbidden)
		return nil, err
	}
	conn, rw, _, err := ws.HTTPUpgrader{}.Upgrade(r, w)
	if err != nil {
		if conn != nil {
			conn.Close()
		}
		return nil, err
	}
	c := &wsConn{conn: conn}
	if rw.Reader.Buffered() > 0 {
		c.early = rw.Reader
	}
	return c, nil
}

// checkOrigin lets a page of the server's own origin, or of one matching a
// pattern (filepath.Match on the origin's host, as in "*.example.org"),
// open a socket; a request without Origin comes from no browser page.
func checkOrigin(r *http.Request, patterns []string) error {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return nil
	}
	u, err := url.Parse(origin)
	if err != nil || u.Host == "" {
		return fmt.Errorf("the Origin %q is not a URL with a host", origin)
	}
	if strings.EqualFold(u.Host, r.Host) {
		return nil
	}
	for _, p := range patterns {
		if ok, err := filepath.Match(strings.ToLower(p), strings.ToLower(u.Host)); err == nil && ok {
			return nil
		}
	}
	return fmt.Errorf("pages of %q may not open sockets here", origin)
}

// reader is the connection's reader, lent from the pool if need be.
func (c *wsConn) reader() *wsReader {
	if c.rd == nil {
		if c.early != nil {
			c.rd = newWSReader(c.early)
		} else {
			c.rd = wsReaders.Get().(*wsReader)
			c.rd.br.Reset(c)
		}
		c.rd.c = c
		c.rd.r.Source = c.rd.br
		c.rd.r.MaxMessageSize = c.maxMessage
	}
	return c.rd
}

// rest reports whether no byte waits in the reader, and gives a lent one
// back then: the connection may wait for readiness.
func (c *wsConn) rest() bool {
	if c.rd == nil {
		return true
	}
	if c.rd.br.Buffered() > 0 {
		return false
	}
	if c.early == nil {
		k := c.rd
		c.rd = nil
		k.c, k.r.Source = nil, nil
		k.br.Reset(nil)
		wsReaders.Put(k)
	}
	return true
}

// Read is what a lent reader reads from. On readiness, with a message due,
// it takes what the connection holds without waiting, and sets the
// connection's read deadline only when it must wait for more: most messages
// come whole, and need no timer.
func (c *wsConn) Read(p []byte) (int, error) {
	if c.rc != nil && !c.bound && !c.due.IsZero() {
		n, waits, err := tryRead(c.rc, p)
		if !waits {
			return n, err
		}
		c.bound = true
		_ = c.conn.SetReadDeadline(c.due)
	}
	return c.conn.Read(p)
}

// bind says that the message read next must be whole by due (zero: no
// bound): it applies on readiness only (see Read).
func (c *wsConn) bind(due time.Time) {
	c.due = due
	if due.IsZero() && c.bound {
		c.bound = false
		_ = c.conn.SetReadDeadline(time.Time{})
	}
}

// next reads up to the next message and returns its type and its payload
// (unmasked, across its fragments). Control frames on the way are answered:
// a ping with a pong, a close with a close, after which next says io.EOF;
// unless wait is set, next says errNoMessage rather than wait for a
// message after them. A message over maxMessage, whose frame's header says
// so, is errTooLarge, and nothing more of it is read. A frame breaking the
// protocol, a text that is not UTF-8 or a read past its deadline closes the
// socket with the code that says so.
func (c *wsConn) next(wait bool) (ws.OpCode, io.Reader, error) {
	k := c.reader()
	for {
		h, err := k.r.NextFrame()
		if errors.Is(err, wsutil.ErrMessageTooLarge) || errors.Is(err, wsutil.ErrFrameTooLarge) {
			return 0, nil, errTooLarge
		}
		if err != nil {
			return 0, nil, c.failed(err)
		}
		if !h.OpCode.IsControl() {
			k.end = false
			return h.OpCode, k, nil
		}
		if err := c.control(h, &k.r, k.ctl[:]); err != nil {
			return 0, nil, err
		}
		if !wait && k.br.Buffered() == 0 {
			return 0, nil, errNoMessage
		}
	}
}

// Read reads the payload of the message next returned; at its end, and
// after, it says io.EOF.
func (k *wsReader) Read(p []byte) (int, error) {
	if k.end {
		return 0, io.EOF
	}
	n, err := k.r.Read(p)
	switch {
	case err == io.EOF:
		k.end = true
	case err != nil:
		err = k.c.failed(err)
	}
	return n, err
}

// control answers a control frame whose body is body.
func (c *wsConn) control(h ws.Header, body io.Reader, buf []byte) error {
	p := buf[:h.Length] // the header check bounds it by the buffer
	if _, err := io.ReadFull(body, p); err != nil {
		return err
	}
	switch h.OpCode {
	case ws.OpPing:
		return c.write(ws.OpPong, p)
	case ws.OpClose:
		code, reason := ws.ParseCloseFrameData(p)
		if err := ws.CheckCloseFrameData(code, reason); err != nil {
			return c.failed(err)
		}
		if code.Empty() {
			code = ws.StatusNormalClosure
		}
		c.close(code, "")
		return io.EOF
	}
	return nil // a pong
}

// failed closes the socket with the code a reading error calls for, and
// returns the error.
func (c *wsConn) failed(err error) error {
	var pe ws.ProtocolError
	switch {
	case errors.Is(err, wsutil.ErrMessageTooLarge), errors.Is(err, wsutil.ErrFrameTooLarge):
		c.close(ws.StatusMessageTooBig, fmt.Sprintf("a message may hold at most %d bytes", c.maxMessage))
	case errors.Is(err, wsutil.ErrInvalidUTF8):
		c.close(ws.StatusInvalidFramePayloadData, "text that is not UTF-8")
	case errors.As(err, &pe):
		c.close(ws.StatusProtocolError, pe.Error())
	case errors.Is(err, os.ErrDeadlineExceeded):
		c.close(ws.StatusPolicyViolation, "a message must come whole in the time allowed")
	}
	return err
}

// writeText sends one text message.
func (c *wsConn) writeText(p []byte) error { return c.write(ws.OpText, p) }

// write sends one frame: at once, or with the batch being gathered.
func (c *wsConn) write(op ws.OpCode, p []byte) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return c.err
	}
	if c.closing {
		return errClosing
	}
	c.gather(op, p)
	if c.holders > 0 {
		return nil
	}
	return c.flush()
}

// gather appends a frame to the gathered ones.
func (c *wsConn) gather(op ws.OpCode, p []byte) {
	if c.buf == nil {
		c.buf = frameBufs.Get().(*[]byte)
	}
	b := append(*c.buf, 0x80|byte(op)) // the final frame of its message
	switch n := len(p); {
	case n < 126:
		b = append(b, byte(n))
	case n <= 0xffff:
		b = append(b, 126)
		b = binary.BigEndian.AppendUint16(b, uint16(n))
	default:
		b = append(b, 127)
		b = binary.BigEndian.AppendUint64(b, uint64(n))
	}
	*c.buf = append(b, p...)
}

// flush writes what was gathered, within the write timeout.
func (c *wsConn) flush() error {
	b := c.buf
	if b == nil {
		return c.err
	}
	c.buf = nil
	if c.err == nil {
		if c.timeout > 0 {
			_ = c.conn.SetWriteDeadline(time.Now().Add(c.timeout))
		}
		if _, err := c.conn.Write(*b); err != nil {
			c.err = err
		}
	}
	if cap(*b) <= 64<<10 {
		*b = (*b)[:0]
		frameBufs.Put(b)
	}
	return c.err
}

// hold gathers the frames written until the matching release, which sends
// them in one system call.
func (c *wsConn) hold() {
	c.mu.Lock()
	c.holders++
	c.mu.Unlock()
}

// release ends a hold; the last one out writes what was gathered.
func (c *wsConn) release() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.holders--
	if c.holders > 0 {
		return c.err
	}
	return c.flush()
}

// close sends the close frame with code and reason (at most 123 bytes),
// after what was gathered, and ends the sending side of the connection.
// Only the first call does anything.
func (c *wsConn) close(code ws.StatusCode, reason string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closing || c.err != nil {
		return
	}
	c.gather(ws.OpClose, ws.NewCloseFrameBody(code, reason))
	c.closing = true
	if c.flush() == nil {
		if cw, ok := c.conn.(interface{ CloseWrite() error }); ok {
			_ = cw.CloseWrite()
		}
	}
}

// shut closes the connection and then calls done. A connection that sent
// its close frame first reads (and drops) what the client still sends, up to
// its own close, for at most closeLinger: closing a connection with unread
// bytes resets it, which could lose the close frame on its way.
func (c *wsConn) shut(done func()) {
	c.mu.Lock()
	closing := c.closing && c.err == nil
	c.mu.Unlock()
	if !closing {
		c.conn.Close()
		done()
		return
	}
	go func() {
		_ = c.conn.SetReadDeadline(time.Now().Add(closeLinger))
		_, _ = io.Copy(io.Discard, c.conn)
		c.conn.Close()
		done()
	}()
}
