// Package connlimit bounds how many connections a server holds open at once,
// without letting idle keep-alive connections hold the bound.
//
// At the limit, a new connection first takes the place of the connection
// that has been idle longest, which is closed (as nginx and HAProxy do): a
// connection is idle when its server reports http.StateIdle through
// ConnState (an HTTP/1.1 connection waiting for its next request after
// answering one, an HTTP/2 connection with no open stream) and has not
// reported another state since. An HTTP/1.1 connection is closed at once;
// its client retries a request that raced the close, since no byte of an
// answer can precede it (a request arriving meanwhile waits in ConnState
// until the close is done). An HTTP/2 connection is told GOAWAY and closed
// once the answers it still owes are sent. Connections that are new (no
// request yet, TLS handshake included) or busy (a request in flight) are
// never closed here: when every connection is one of those, the new
// connection waits, accepted but not served, until one closes or goes
// idle, and further ones wait in the kernel's listen backlog; a log line
// says so. The engines' header and write timeouts bound how long new and
// busy connections last.
package connlimit

import (
	"crypto/tls"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Listener is a net.Listener that serves at most New's max connections at
// once. Its servers must report connection states to ConnState for idle
// connections to make room; without that it only waits, as a plain cap.
type Listener struct {
	net.Listener
	max    int
	name   string
	logger *slog.Logger
	slots  chan struct{}
	done   chan struct{}
	once   sync.Once

	mu sync.Mutex
	// open maps each open connection's tracker to the connection, so the
	// oldest idle one can be found and closed. It holds at most max
	// entries: one per slot taken.
	open map[*tracker]net.Conn
	// idleSeq numbers the moves to idle, so the smallest number is the
	// connection idle longest.
	idleSeq atomic.Int64
	// waiting counts Accepts waiting for a slot; while it is non-zero a
	// connection going idle wakes them through idleWake.
	waiting  atomic.Int32
	idleWake chan struct{}
	// closing counts evicted connections whose slot is not free yet (an
	// HTTP/2 one says GOAWAY first); while it is non-zero no other is
	// evicted, so one new connection closes one idle connection.
	closing atomic.Int32
	// grace is prefaceGrace; tests shorten it.
	grace time.Duration

	// lastLog is the UnixNano of the last "limit reached" line, so a
	// sustained flood logs once per logEvery, not per connection.
	lastLog atomic.Int64
	waited  atomic.Int64 // accepts that waited for a slot since the last line
	evicted atomic.Int64 // idle connections closed to make room since the last line
}

// logEvery bounds the "limit reached" log line's rate.
const logEvery = 10 * time.Second

// New returns ln limited to max open connections (max <= 0: no limit, ln
// itself is returned). name tells the log line which listener it is.
func New(ln net.Listener, max int, logger *slog.Logger, name string) net.Listener {
	if max <= 0 {
		return ln
	}
	return &Listener{Listener: ln, max: max, name: name, logger: logger,
		slots: make(chan struct{}, max), done: make(chan struct{}),
		open: make(map[*tracker]net.Conn, max), idleWake: make(chan struct{}, 1), grace: prefaceGrace}
}

// Accept waits for a connection, then for a place for it: a free slot, or
// the slot of the connection idle longest, which it closes. While no
// connection is idle it waits, holding the accepted connection unserved.
func (l *Listener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	if err := l.acquire(); err != nil {
		c.Close()
		return nil, err
	}
	var lc net.Conn
	var t *tracker
	if tc, ok := c.(*net.TCPConn); ok {
		w := &tcpConn{TCPConn: tc}
		lc, t = w, &w.tracker
	} else {
		w := &conn{Conn: c}
		lc, t = w, &w.tracker
	}
	t.l = l
	l.mu.Lock()
	l.open[t] = lc
	l.mu.Unlock()
	return lc, nil
}

// acquire takes a slot: a free one, else one an idle connection gives up,
// else the first that frees or goes idle. It fails when the listener is
// closed meanwhile.
func (l *Listener) acquire() error {
	counted := false
	for {
		select {
		case l.slots <- struct{}{}:
			return nil
		default:
		}
		if again, _ := l.evictOldestIdle(); again {
			continue
		}
		// Announce the wait before looking again, so a connection that
		// goes idle from now on wakes us, and one that went idle before is
		// found by the second look.
		l.waiting.Add(1)
		again, next := l.evictOldestIdle()
		if again {
			l.waiting.Add(-1)
			continue
		}
		if !counted {
			counted = true
			l.waited.Add(1)
			l.logLimit()
		}
		got, err := l.wait(next)
		l.waiting.Add(-1)
		if got || err != nil {
			return err
		}
	}
}

// wait takes a slot as soon as one frees (got true), or returns when a
// connection may have become evictable: one went idle, or next (when not
// zero) has come. It fails when the listener is closed.
func (l *Listener) wait(next time.Time) (got bool, err error) {
	var timeout <-chan time.Time
	if !next.IsZero() {
		t := time.NewTimer(time.Until(next))
		defer t.Stop()
		timeout = t.C
	}
	select {
	case l.slots <- struct{}{}:
		return true, nil
	case <-l.idleWake:
	case <-timeout:
	case <-l.done:
		return false, net.ErrClosed
	}
	return false, nil
}

// evicting marks a tracker whose connection is being closed to make room.
const evicting = -1

// evictOldestIdle closes the connection idle longest, if any. It reports
// whether the caller should look for a slot again (a connection was
// closed, or the chosen one stopped being idle meanwhile) and otherwise,
// when an idle connection is not evictable yet (see prefaceGrace), when
// the first one will be.
func (l *Listener) evictOldestIdle() (again bool, next time.Time) {
	if l.closing.Load() > 0 {
		return false, time.Time{} // its slot frees soon: wait for it
	}
	var oldest *tracker
	var c net.Conn
	var since, soonest int64
	now := time.Now().UnixNano()
	l.mu.Lock()
	for t, tc := range l.open {
		s := t.idleSince.Load()
		if s <= 0 || t.evicted.Load() {
			continue
		}
		if nb := t.notBefore.Load(); nb > now {
			if soonest == 0 || nb < soonest {
				soonest = nb
			}
			continue
		}
		if oldest == nil || s < since {
			oldest, c, since = t, tc, s
		}
	}
	l.mu.Unlock()
	if oldest == nil {
		if soonest != 0 {
			next = time.Unix(0, soonest)
		}
		return false, next
	}
	// Under oldest.mu, a request that arrives meanwhile waits in
	// ConnState until the close (or GOAWAY) is done, so no answer to it is
	// ever cut short: its client sees a close or a GOAWAY before any of
	// it, and retries.
	oldest.mu.Lock()
	if !oldest.idleSince.CompareAndSwap(since, evicting) {
		oldest.mu.Unlock()
		return true, time.Time{} // it went busy, or idle again: look again
	}
	oldest.evicted.Store(true)
	l.closing.Add(1)
	h2 := oldest.h2.Load()
	if h2 == nil {
		_ = c.Close() // frees its slot
	} else if !sendGoAway(h2) {
		h2 = nil
		_ = c.Close()
	}
	oldest.mu.Unlock()
	l.evicted.Add(1)
	l.logLimit()
	if h2 != nil {
		go drainAndClose(oldest, c)
		return false, time.Time{}
	}
	return true, time.Time{}
}

// goAwayDrain is how long an evicted HTTP/2 connection stays open after
// its GOAWAY: the server may still be flushing the end of its last answer
// (net/http reports HTTP/2 idle before it has flushed), and a request the
// client sent before it read the GOAWAY is answered. goAwayLinger bounds
// how much longer such a request may take.
const (
	goAwayDrain  = 500 * time.Millisecond
	goAwayLinger = 5 * time.Second
)

// goAway is an HTTP/2 GOAWAY frame (RFC 9113, section 6.8) that starts a
// graceful close: no error, last stream 2^31-1, so the client opens no new
// stream on the connection and every stream it has opened is answered.
// (Clients do not retry a request lost to a bare close.)
var goAway = [17]byte{0, 0, 8, 0x7, 0, 0, 0, 0, 0, 0x7f, 0xff, 0xff, 0xff}

// sendGoAway writes goAway on an idle HTTP/2 connection; it reports
// whether that worked.
func sendGoAway(h2 *tls.Conn) bool {
	_ = h2.SetWriteDeadline(time.Now().Add(time.Second))
	_, err := h2.Write(goAway[:])
	_ = h2.SetWriteDeadline(time.Time{})
	return err == nil
}

// drainAndClose closes an HTTP/2 connection told GOAWAY after goAwayDrain,
// or once a stream that raced the GOAWAY is answered, at most goAwayLinger
// later (the server closes it earlier when the client does). raw is the
// Listener's connection under the TLS one; closing it frees its slot.
func drainAndClose(t *tracker, raw net.Conn) {
	defer raw.Close()
	time.Sleep(goAwayDrain)
	const poll = 50 * time.Millisecond
	for waited := time.Duration(0); t.idleSince.Load() == 0 && waited < goAwayLinger; waited += poll {
		time.Sleep(poll)
	}
}

// release gives t's slot back; the connection is closed.
func (l *Listener) release(t *tracker) {
	l.mu.Lock()
	delete(l.open, t)
	l.mu.Unlock()
	if t.evicted.Load() {
		l.closing.Add(-1)
	}
	<-l.slots
}

func (l *Listener) logLimit() {
	now := time.Now().UnixNano()
	last := l.lastLog.Load()
	if now-last < int64(logEvery) || !l.lastLog.CompareAndSwap(last, now) {
		return
	}
	l.logger.Warn("connection limit reached: each new connection closes the one idle longest; with none idle, new connections wait in the listen backlog until one closes or goes idle; raise --max-conns if this is real traffic",
		"listener", l.name, "open", len(l.slots), "max_conns", l.max,
		"waited", l.waited.Swap(0), "closed_idle", l.evicted.Swap(0))
}

// Close closes the listener and wakes an Accept waiting for a slot.
func (l *Listener) Close() error {
	l.once.Do(func() { close(l.done) })
	return l.Listener.Close()
}

// Open returns how many connections are open.
func (l *Listener) Open() int { return len(l.slots) }

// prefaceGrace is how long an HTTP/2 connection that has sent its preface
// but no request yet is kept although idle: net/http reports it idle before
// its first request has arrived, and an HTTP/2 client does not retry a
// first request lost to a close. It is serve's ReadHeaderTimeout, the time
// an HTTP/1.1 connection has for its first request.
const prefaceGrace = 5 * time.Second

// ConnState records the state a server reports for c, a connection
// accepted from a Listener or one wrapping it (a *tls.Conn, or any
// connection with a NetConn method returning the one it wraps): after
// http.StateIdle the connection may be closed to make room, after any
// other state it may not. It is an http.Server's ConnState hook as is, and
// does nothing for connections of no Listener. One connection's states
// must be reported in order, as servers do. It allocates nothing.
func ConnState(c net.Conn, state http.ConnState) {
	t := trackerOf(c)
	if t == nil {
		return
	}
	if state != http.StateIdle {
		if t.idleSince.Swap(0) == evicting {
			// Chosen to make room: wait until that close (or GOAWAY)
			// is done, so nothing is answered before it.
			t.mu.Lock()
			t.mu.Unlock()
		}
		return
	}
	if !t.wasIdle.Load() {
		t.wasIdle.Store(true)
		if h2 := http2Conn(c); h2 != nil { // idle after the preface: no request yet
			t.h2.Store(h2)
			t.notBefore.Store(time.Now().Add(t.l.grace).UnixNano())
		}
	} else if t.notBefore.Load() != 0 {
		t.notBefore.Store(0) // idle after a stream
	}
	t.idleSince.Store(t.l.idleSeq.Add(1))
	if t.l.waiting.Load() > 0 {
		select {
		case t.l.idleWake <- struct{}{}:
		default:
		}
	}
}

// http2Conn returns c if it is a TLS connection that negotiated HTTP/2.
func http2Conn(c net.Conn) *tls.Conn {
	if tc, ok := c.(*tls.Conn); ok && tc.ConnectionState().NegotiatedProtocol == "h2" {
		return tc
	}
	return nil
}

// maxUnwrap bounds how many NetConn layers trackerOf looks through.
const maxUnwrap = 8

// trackerOf finds the tracker of the Listener connection c is or wraps.
func trackerOf(c net.Conn) *tracker {
	for range maxUnwrap {
		switch v := c.(type) {
		case *tcpConn:
			return &v.tracker
		case *conn:
			return &v.tracker
		case interface{ NetConn() net.Conn }:
			c = v.NetConn()
		default:
			return nil
		}
	}
	return nil
}

// tracker is a connection's place under the limit and its idle state.
type tracker struct {
	l *Listener
	// idleSince is 0 while the connection is new or busy, the idleSeq
	// number of its move to idle while idle, and evicting once chosen to
	// be closed.
	idleSince atomic.Int64
	// wasIdle is set at the first report of StateIdle.
	wasIdle atomic.Bool
	// notBefore, when not 0, is the UnixNano before which the connection
	// is kept although idle (see prefaceGrace).
	notBefore atomic.Int64
	// h2 is the TLS connection over this one when it speaks HTTP/2: an
	// evicted one gets a GOAWAY.
	h2 atomic.Pointer[tls.Conn]
	// evicted is set once the connection is chosen to make room.
	evicted atomic.Bool
	// mu is held while the connection is being evicted.
	mu   sync.Mutex
	once sync.Once
}

// free gives the slot back, once.
func (t *tracker) free() { t.once.Do(func() { t.l.release(t) }) }

// tcpConn keeps *net.TCPConn's methods (CloseWrite, SyscallConn, ReadFrom)
// visible to the servers, which use them for half-close and sendfile.
type tcpConn struct {
	*net.TCPConn
	tracker
}

// Close closes the connection and frees its slot (once, however often it
// is called).
func (c *tcpConn) Close() error {
	defer c.free()
	return c.TCPConn.Close()
}

// conn is a limited connection of any other type.
type conn struct {
	net.Conn
	tracker
}

// Close closes the connection and frees its slot (once, however often it
// is called).
func (c *conn) Close() error {
	defer c.free()
	return c.Conn.Close()
}
