package fastserve

import (
	"bufio"
	"bytes"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// handOff gives the connection, with the unconsumed bytes, to the net/http
// fallback server. It reports whether the fallback took it.
//
// The head being read keeps its deadline: net/http's first read deadline
// (its ReadHeaderTimeout, which would start over) is capped at it.
func (fc *conn) handOff(r *bufio.Reader) bool {
	pending, _ := r.Peek(r.Buffered())
	rc := &replayConn{Conn: fc.c, pending: bytes.Clone(pending), headDL: fc.headDL}
	_ = fc.c.SetDeadline(time.Time{})
	return fc.s.slowLn.deliver(rc)
}

// replayConn is a connection whose first reads return bytes the fast path
// already read from it. Its first read deadline is capped at headDL (the
// deadline of the head the fast path began to read), and it half-closes
// like the connection it wraps, so net/http ends it with FIN, not RST.
type replayConn struct {
	net.Conn
	pending []byte
	headDL  time.Time
	capped  bool
}

// SetReadDeadline caps the first deadline net/http sets (the header
// deadline of the handed-off request) at headDL.
func (c *replayConn) SetReadDeadline(t time.Time) error {
	if !c.capped {
		c.capped = true
		if !c.headDL.IsZero() && (t.IsZero() || t.After(c.headDL)) {
			t = c.headDL
		}
	}
	return c.Conn.SetReadDeadline(t)
}

// NetConn returns the connection the fast path handed off, so that a
// ConnState hook finds the connection it was given before the hand-off.
func (c *replayConn) NetConn() net.Conn { return c.Conn }

// CloseWrite half-closes the wrapped connection, if it can.
func (c *replayConn) CloseWrite() error {
	if cw, ok := c.Conn.(closeWriter); ok {
		return cw.CloseWrite()
	}
	return nil
}

func (c *replayConn) Read(p []byte) (int, error) {
	if len(c.pending) > 0 {
		n := copy(p, c.pending)
		c.pending = c.pending[n:]
		return n, nil
	}
	return c.Conn.Read(p)
}

// chanListener is the net.Listener of the net/http fallback: connections
// arrive from the fast path instead of a socket.
type chanListener struct {
	ch     chan net.Conn
	done   chan struct{}
	once   sync.Once
	closed atomic.Bool
}

func newChanListener() *chanListener {
	return &chanListener{ch: make(chan net.Conn), done: make(chan struct{})}
}

func (l *chanListener) deliver(c net.Conn) bool {
	select {
	case l.ch <- c:
		return true
	case <-l.done:
		return false
	}
}

func (l *chanListener) Accept() (net.Conn, error) {
	select {
	case c := <-l.ch:
		return c, nil
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *chanListener) Close() error {
	l.once.Do(func() { close(l.done) })
	return nil
}

func (l *chanListener) Addr() net.Addr { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)} }
