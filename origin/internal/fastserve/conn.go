package fastserve

import (
	"bufio"
	"bytes"
	"net"
	"net/http"
	"sync/atomic"
	"syscall"
	"time"
)

// conn is one client connection served by the fast path.
type conn struct {
	s    *Server
	c    net.Conn
	idle atomic.Bool
	rdl  time.Time // current read deadline
	wdl  time.Time // current write deadline
	bufs [3][]byte
	// out is the writev list over bufs. It lives here, not on the stack,
	// because WriteTo's pointer receiver would move it to the heap on every
	// response.
	out  net.Buffers
	send *sendState // nil when the connection has no raw fd
	hbuf []byte     // head + Date for the sendfile path
	// headDL is when the current request head must be complete:
	// ReadHeaderTimeout from accept for the first request, from its first
	// byte for later ones. It holds across a hand-off to net/http.
	headDL time.Time
}

func (fc *conn) serve() {
	s := fc.s
	handedOff, graceful := false, false
	defer func() {
		s.mu.Lock()
		delete(s.conns, fc)
		s.mu.Unlock()
		if graceful {
			fc.closeGracefully()
		} else if !handedOff {
			fc.c.Close()
		}
		if !handedOff {
			fc.setState(http.StateClosed)
		}
		s.wg.Done()
	}()
	fc.setState(http.StateNew)
	r := bufio.NewReaderSize(fc.c, readBufferSize)
	if sc, ok := fc.c.(syscall.Conn); ok {
		if raw, err := sc.SyscallConn(); err == nil {
			fc.send = newSendState(raw)
		}
	}
	// The first request must arrive within ReadHeaderTimeout of accept.
	fc.headDL = deadline(time.Now(), s.readHeader)
	fc.setReadDeadline(fc.headDL)
	first := true
	for {
		if s.closing.Load() && r.Buffered() == 0 {
			graceful = true
			return
		}
		if r.Buffered() == 0 && !fc.awaitRequest(r, first) {
			return
		}
		first = false
		head, err := fc.readHead(r)
		if err != nil {
			return
		}
		if head == nil {
			// Not for the fast path: net/http serves the rest of the
			// connection, starting with the bytes already read.
			handedOff = fc.handOff(r)
			return
		}
		req, ok := parseHead(head)
		if !ok {
			handedOff = fc.handOff(r)
			return
		}
		start := time.Now()
		resp := s.lookup(&req)
		if resp == nil {
			handedOff = fc.handOff(r)
			return
		}
		_, _ = r.Discard(len(head))
		if err := fc.write(resp, start); err != nil {
			return
		}
		if s.observe != nil {
			fc.report(&req, resp, start)
		}
	}
}

// report tells the Observer about a response the fast path sent for req,
// whose head was parsed at start.
func (fc *conn) report(req *request, resp *response, start time.Time) {
	n := int64(len(resp.body))
	if resp.head {
		n = 0
	}
	fc.s.observe(Hit{
		Method:    req.method(),
		Target:    req.target,
		UserAgent: req.userAgent,
		Remote:    fc.c.RemoteAddr(),
		Status:    http.StatusOK,
		Bytes:     n,
		Encoding:  resp.encoding,
		Duration:  time.Since(start),
	})
}

// awaitRequest waits for the first byte of the next request: under
// ReadHeaderTimeout from accept for the first one (its deadline is already
// set), under IdleTimeout for later ones, whose head deadline then starts.
// The idle deadline is moved only when more than a sixteenth of it has
// passed (see extendReadDeadline), to keep timer work off the hot path.
// Options.ConnState hears StateIdle while it waits for a later request and
// StateActive once a byte has arrived. It reports false when the connection
// should end: the server is closing, the client went away, the deadline
// passed, or connlimit closed the idle connection to make room.
func (fc *conn) awaitRequest(r *bufio.Reader, first bool) bool {
	s := fc.s
	if !first {
		fc.extendReadDeadline(s.idle)
		fc.setState(http.StateIdle)
	}
	fc.idle.Store(true)
	if s.closing.Load() {
		return false
	}
	_, err := r.Peek(1)
	fc.idle.Store(false)
	if err != nil {
		return false
	}
	fc.setState(http.StateActive)
	if !first {
		fc.headDL = deadline(time.Now(), s.readHeader)
	}
	return true
}

// setState tells Options.ConnState, if set, the connection's new state.
func (fc *conn) setState(state http.ConnState) {
	if h := fc.s.connState; h != nil {
		h(fc.c, state)
	}
}

// closeGracefully ends a connection the server chose to close while the
// client may still be sending (shutdown with pipelined requests in flight):
// like net/http, it sends FIN after the responses already written, drains
// input for a moment, then closes, so the client does not get a reset that
// would discard responses it has not read yet.
func (fc *conn) closeGracefully() {
	defer fc.c.Close()
	tc, ok := fc.c.(closeWriter)
	if !ok || tc.CloseWrite() != nil {
		return
	}
	_ = fc.c.SetReadDeadline(time.Now().Add(500 * time.Millisecond))
	var buf [512]byte
	for {
		if _, err := fc.c.Read(buf[:]); err != nil {
			return
		}
	}
}

// readHead returns the bytes of the next request head (through the blank
// line) without consuming them, reading more until the head's deadline if
// it is not complete yet. It returns nil, at once, when the head cannot be
// one the fast path answers — a bare LF line end, a request line that is
// not HTTP/1.1 (HTTP/0.9, HTTP/1.0, h2c's preface) — or does not fit the
// buffer, so net/http decides (and answers 431 when it is too large).
func (fc *conn) readHead(r *bufio.Reader) ([]byte, error) {
	buf, _ := r.Peek(r.Buffered())
	if i := bytes.Index(buf, crlfcrlf); i >= 0 {
		return buf[:i+4], nil
	}
	if notFastHead(buf) {
		return nil, nil
	}
	// Incomplete head: the rest must arrive by the head's deadline.
	fc.setReadDeadline(fc.headDL)
	defer fc.setReadDeadline(deadline(time.Now(), fc.s.idle))
	for {
		n := r.Buffered()
		if n >= readBufferSize {
			return nil, nil
		}
		if _, err := r.Peek(n + 1); err != nil { // blocks until more bytes arrive
			return nil, err
		}
		buf, _ := r.Peek(r.Buffered())
		if i := bytes.Index(buf[max(0, n-3):], crlfcrlf); i >= 0 {
			return buf[:max(0, n-3)+i+4], nil
		}
		if notFastHead(buf) {
			return nil, nil
		}
	}
}

// notFastHead reports whether the start of a head already rules the fast
// path out: a line ending in a bare LF, or a complete request line that
// does not end in " HTTP/1.1".
func notFastHead(buf []byte) bool {
	i := bytes.IndexByte(buf, '\n')
	if i < 0 {
		return false
	}
	if i == 0 || buf[i-1] != '\r' || !bytes.HasSuffix(buf[:i-1], []byte(" HTTP/1.1")) {
		return true
	}
	for j := i + 1; j < len(buf); j++ {
		if buf[j] == '\n' && buf[j-1] != '\r' {
			return true
		}
	}
	return false
}

// closeWriter is a connection that can half-close (send FIN) while still
// reading, as *net.TCPConn can.
type closeWriter interface{ CloseWrite() error }

var crlfcrlf = []byte("\r\n\r\n")

func (fc *conn) setReadDeadline(t time.Time) {
	fc.rdl = t
	_ = fc.c.SetReadDeadline(t)
}

// extendReadDeadline sets the read deadline to now+d, but skips the timer
// work while the current deadline is already within d/16 of that: the
// effective timeout is between 15/16·d and d. d 0 means no deadline.
func (fc *conn) extendReadDeadline(d time.Duration) {
	if d <= 0 {
		if !fc.rdl.IsZero() {
			fc.setReadDeadline(time.Time{})
		}
		return
	}
	now := time.Now()
	if left := fc.rdl.Sub(now); left < d-d/16 || left > d {
		fc.setReadDeadline(now.Add(d))
	}
}

// write sends one memoised response with Date in a single writev (or
// send+sendfile). Like the read deadline, the write deadline is between
// 15/16 and all of WriteTimeout from the start of the response.
func (fc *conn) write(resp *response, now time.Time) error {
	if d := fc.s.write; d > 0 {
		if left := fc.wdl.Sub(now); left < d-d/16 || left > d {
			fc.wdl = now.Add(d)
			_ = fc.c.SetWriteDeadline(fc.wdl)
		}
	}
	if resp.file != nil && !resp.head && fc.send != nil {
		fc.hbuf = append(append(fc.hbuf[:0], resp.header...), *fc.s.date.Load()...)
		return fc.send.send(fc.hbuf, resp.file, len(resp.body))
	}
	fc.bufs[0] = resp.header
	fc.bufs[1] = *fc.s.date.Load()
	fc.bufs[2] = resp.body
	fc.out = fc.bufs[:]
	if resp.head {
		fc.out = fc.bufs[:2]
	}
	_, err := fc.out.WriteTo(fc.c)
	return err
}
