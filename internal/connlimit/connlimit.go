// Package connlimit bounds how many connections a server holds open at once.
// At the limit, Accept waits (new connections queue in the kernel's listen
// backlog) until an open connection closes, and a log line says so; each
// engine's timeouts (header, idle) then free the slots that idle or
// slow clients hold.
package connlimit

import (
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// Listener is a net.Listener that keeps at most New's max connections open.
type Listener struct {
	net.Listener
	max    int
	name   string
	logger *slog.Logger
	slots  chan struct{}
	done   chan struct{}
	once   sync.Once
	// lastLog is the UnixNano of the last "limit reached" line, so a
	// sustained flood logs once per logEvery, not per connection.
	lastLog atomic.Int64
	waited  atomic.Int64 // accepts that waited for a slot since the last line
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
		slots: make(chan struct{}, max), done: make(chan struct{})}
}

// Accept waits for a free slot, then for a connection.
func (l *Listener) Accept() (net.Conn, error) {
	select {
	case l.slots <- struct{}{}:
	default:
		l.waited.Add(1)
		l.logLimit()
		select {
		case l.slots <- struct{}{}:
		case <-l.done:
			return nil, net.ErrClosed
		}
	}
	c, err := l.Listener.Accept()
	if err != nil {
		<-l.slots
		return nil, err
	}
	release := func() { <-l.slots }
	if tc, ok := c.(*net.TCPConn); ok {
		return &tcpConn{TCPConn: tc, slot: slot{release: release}}, nil
	}
	return &conn{Conn: c, slot: slot{release: release}}, nil
}

func (l *Listener) logLimit() {
	now := time.Now().UnixNano()
	last := l.lastLog.Load()
	if now-last < int64(logEvery) || !l.lastLog.CompareAndSwap(last, now) {
		return
	}
	l.logger.Warn("connection limit reached: new connections wait in the listen backlog until one closes; raise --max-conns if this is real traffic",
		"listener", l.name, "open", len(l.slots), "max_conns", l.max, "waited", l.waited.Swap(0))
}

// Close closes the listener and wakes an Accept waiting for a slot.
func (l *Listener) Close() error {
	l.once.Do(func() { close(l.done) })
	return l.Listener.Close()
}

// Open returns how many connections are open.
func (l *Listener) Open() int { return len(l.slots) }

// slot is a connection's place under the limit, given back once.
type slot struct {
	release func()
	once    sync.Once
}

func (s *slot) free() { s.once.Do(s.release) }

// tcpConn keeps *net.TCPConn's methods (CloseWrite, SyscallConn, ReadFrom)
// visible to the servers, which use them for half-close and sendfile.
type tcpConn struct {
	*net.TCPConn
	slot
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
	slot
}

// Close closes the connection and frees its slot (once, however often it
// is called).
func (c *conn) Close() error {
	defer c.free()
	return c.Conn.Close()
}
