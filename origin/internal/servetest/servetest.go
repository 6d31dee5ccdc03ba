// Package servetest runs the origin's HTTP servers in tests on loopback:
// listen on a free 127.0.0.1 port and serve there until the test ends. The
// tests of origin and of its engines (fastserve) start servers this way
// many times; one copy keeps every start failing the test the same way and
// every server closed at its end.
package servetest

import (
	"net"
	"testing"
	"time"
)

// Server serves connections from a listener until it is closed, as
// net/http's *http.Server and fastserve's *Server do.
type Server interface {
	Serve(net.Listener) error
	Close() error
}

// Listen returns a listener on a free loopback port, closed when the test
// ends. It fails the test when no port can be had.
func Listen(tb testing.TB) net.Listener {
	tb.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatalf("listen on loopback: %v", err)
	}
	tb.Cleanup(func() { ln.Close() })
	return ln
}

// Dial connects to addr, closed when the test ends, with a deadline d from
// now for every read and write (none when d is 0), so a server that never
// answers fails the test instead of hanging it.
func Dial(tb testing.TB, addr string, d time.Duration) net.Conn {
	tb.Helper()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		tb.Fatalf("dial %s: %v", addr, err)
	}
	tb.Cleanup(func() { c.Close() })
	if d > 0 {
		_ = c.SetDeadline(time.Now().Add(d))
	}
	return c
}

// Serve runs srv on a new loopback listener until the test ends and returns
// the listener's address (127.0.0.1:port). wrap, when not nil, is applied to
// the listener first (a connection limit, as serve wires it).
func Serve(tb testing.TB, srv Server, wrap func(net.Listener) net.Listener) string {
	tb.Helper()
	ln := Listen(tb)
	served := ln
	if wrap != nil {
		served = wrap(ln)
	}
	go srv.Serve(served)
	tb.Cleanup(func() { srv.Close() })
	return ln.Addr().String()
}
