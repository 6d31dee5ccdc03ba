package connlimit

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/widgetd/widgetd/internal/syncbuf"
	"github.com/widgetd/widgetd/origin/internal/servetest"
)

// listenLimited returns a Listener of at most max connections on a free
// loopback port, logging JSON lines to logw; its port is closed when the
// test ends.
func listenLimited(tb testing.TB, max int, logw io.Writer) *Listener {
	tb.Helper()
	return New(servetest.Listen(tb), max, slog.New(slog.NewJSONHandler(logw, nil)), "test").(*Listener)
}

// TestConnLimit: with max 1, a second Accept waits until the first connection
// closes (logging once), a double Close frees one slot only, and Close of
// the listener wakes an Accept waiting for a slot.
func TestConnLimit(t *testing.T) {
	var logb syncbuf.Buffer
	ln := listenLimited(t, 1, &logb)
	for range 3 {
		servetest.Dial(t, ln.Addr().String(), 0)
	}
	first, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := first.(interface{ CloseWrite() error }); !ok {
		t.Error("accepted TCP connection lost CloseWrite")
	}
	got := make(chan net.Conn, 2)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				close(got)
				return
			}
			got <- c
		}
	}()
	// The log line says the second Accept is waiting for a slot: wait for
	// it (however late a loaded machine runs the goroutine), then for a
	// moment more in which the second connection must not be accepted.
	for deadline := time.Now().Add(20 * time.Second); !strings.Contains(logb.String(), "connection limit reached"); time.Sleep(5 * time.Millisecond) {
		select {
		case <-got:
			t.Fatal("second connection accepted while the first is open")
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("no log line about the limit after 20s: %s", logb.String())
		}
	}
	if !strings.Contains(logb.String(), `"max_conns":1`) {
		t.Errorf("log: %s", logb.String())
	}
	select {
	case <-got:
		t.Fatal("second connection accepted while the first is open")
	case <-time.After(300 * time.Millisecond):
	}
	first.Close()
	first.Close() // a second Close must not free a second slot
	second := <-got
	if second == nil {
		t.Fatal("second connection not accepted after the first closed")
	}
	select {
	case <-got:
		t.Fatal("third connection accepted: a double Close freed two slots")
	case <-time.After(300 * time.Millisecond):
	}
	if n := ln.Open(); n != 1 {
		t.Errorf("Open() = %d, want 1", n)
	}
	ln.Close()
	if _, ok := <-got; ok {
		t.Error("Accept did not return after Close")
	}
	if _, err := ln.Accept(); !errors.Is(err, net.ErrClosed) {
		t.Errorf("Accept after Close: %v", err)
	}
	second.Close()
}

// event is a connection state a test reports for its i-th accepted
// connection; closed means the server closes it instead.
type event struct {
	i      int
	state  http.ConnState
	closed bool
}

func idle(i int) event   { return event{i: i, state: http.StateIdle} }
func active(i int) event { return event{i: i, state: http.StateActive} }

// rig is a limited listener with max connections dialled and accepted in
// order: servers[i] is the accepted end of clients[i].
type rig struct {
	ln               *Listener
	clients, servers []net.Conn
	logb             *syncbuf.Buffer
}

func newRig(t *testing.T, max int) *rig {
	t.Helper()
	r := &rig{logb: &syncbuf.Buffer{}}
	r.ln = listenLimited(t, max, r.logb)
	t.Cleanup(func() { r.ln.Close() })
	for range max {
		c := r.dial(t)
		s, err := r.ln.Accept()
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		r.clients, r.servers = append(r.clients, c), append(r.servers, s)
	}
	return r
}

func (r *rig) dial(t *testing.T) net.Conn {
	t.Helper()
	return servetest.Dial(t, r.ln.Addr().String(), 0)
}

// acceptAsync runs one Accept; the channel gets its connection (nil on
// error).
func (r *rig) acceptAsync() <-chan net.Conn {
	got := make(chan net.Conn, 1)
	go func() {
		c, err := r.ln.Accept()
		if err != nil {
			c = nil
		}
		got <- c
	}()
	return got
}

// closedByServer reports whether the server closed client i's connection:
// EOF or a reset within wait, as opposed to a read timeout (still open).
func (r *rig) closedByServer(t *testing.T, i int, wait time.Duration) bool {
	t.Helper()
	_ = r.clients[i].SetReadDeadline(time.Now().Add(wait))
	_, err := r.clients[i].Read(make([]byte, 1))
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return false
	}
	return err != nil
}

// TestConnEvictOldestIdle: at the limit, a new connection closes the
// connection idle longest, as the states reported to ConnState say; new
// and busy connections are never closed, and the new one waits until one
// goes idle.
func TestConnEvictOldestIdle(t *testing.T) {
	for _, tc := range []struct {
		name   string
		max    int
		events []event
		wrap   bool // report through a *tls.Conn around the accepted connection
		// evicted is the connection closed for the new one; -1: none (a
		// closed one's slot is free).
		evicted int
		// waitUntil, when not nil, are events without which the new
		// connection must wait; evicted is closed after them.
		waitUntil []event
	}{
		{name: "oldest idle closed", max: 3, events: []event{idle(2), idle(0)}, evicted: 2},
		{name: "idle again moves to the back", max: 2, events: []event{idle(0), idle(1), active(0), idle(0)}, evicted: 1},
		{name: "busy again is kept", max: 2, events: []event{idle(0), idle(1), active(1)}, evicted: 0},
		{name: "through a NetConn wrapper", max: 2, wrap: true, events: []event{idle(1), idle(0)}, evicted: 1},
		{name: "closed one's slot taken, idle kept", max: 2, events: []event{idle(0), {i: 1, closed: true}}, evicted: -1},
		{name: "new and busy kept until one goes idle", max: 2, events: []event{active(0)},
			waitUntil: []event{active(1), idle(1)}, evicted: 1},
		{name: "closed and hijacked are not idle", max: 2, events: []event{idle(0), {i: 0, state: http.StateClosed}, idle(1), {i: 1, state: http.StateHijacked}},
			waitUntil: []event{idle(0)}, evicted: 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := newRig(t, tc.max)
			apply := func(evs []event) {
				for _, ev := range evs {
					c := r.servers[ev.i]
					switch {
					case ev.closed:
						c.Close()
					case tc.wrap:
						ConnState(tls.Server(c, &tls.Config{}), ev.state)
					default:
						ConnState(c, ev.state)
					}
				}
			}
			apply(tc.events)
			r.dial(t)
			got := r.acceptAsync()
			if tc.waitUntil != nil {
				select {
				case <-got:
					t.Fatal("new connection accepted while none was idle")
				case <-time.After(300 * time.Millisecond):
				}
				apply(tc.waitUntil)
			}
			select {
			case c := <-got:
				if c == nil {
					t.Fatal("Accept failed")
				}
				defer c.Close()
			case <-time.After(10 * time.Second):
				t.Fatal("new connection not accepted at the limit")
			}
			for i := range r.servers {
				want := i == tc.evicted || tc.events[len(tc.events)-1] == (event{i: i, closed: true})
				if got := r.closedByServer(t, i, 200*time.Millisecond); got != want {
					t.Errorf("connection %d closed: %v, want %v", i, got, want)
				}
			}
			if n := r.ln.Open(); n != tc.max {
				t.Errorf("Open() = %d, want %d", n, tc.max)
			}
		})
	}
}

// TestConnHTTP2PrefaceGrace: net/http reports an HTTP/2 connection idle as soon
// as its preface is read, before any request. Such a connection is kept for
// the listener's grace (a first request on it may be on its way, and an
// HTTP/2 client does not retry it), then closed to make room like any idle
// HTTP/2 connection: GOAWAY first, then the close.
func TestConnHTTP2PrefaceGrace(t *testing.T) {
	var logb syncbuf.Buffer
	ln := listenLimited(t, 1, &logb)
	ln.grace = 3 * time.Second
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, r.Proto)
	}))
	srv.Listener = ln
	srv.EnableHTTP2 = true
	srv.Config.ConnState = ConnState
	srv.StartTLS()
	defer srv.Close()

	quiet := dialHTTP2Preface(t, srv)

	done := make(chan error, 1)
	go func() {
		resp, err := srv.Client().Get(srv.URL)
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if string(body) != "HTTP/2.0" {
				err = fmt.Errorf("answered %q, want over HTTP/2.0", body)
			}
		}
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("request answered (err %v) while the only connection was within its preface grace", err)
	case <-time.After(500 * time.Millisecond):
	}
	select {
	case err := <-done:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("request not answered after the preface grace")
	}
	// It was told GOAWAY (no error, last stream 2^31-1: a graceful close
	// that answers every stream the client opened) before the close.
	goAways, err := readGoAways(quiet)
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		t.Error("the connection in its grace was not the one closed")
	}
	if len(goAways) != 1 || goAways[0] != "\x7f\xff\xff\xff\x00\x00\x00\x00" {
		t.Errorf("GOAWAY payloads before the close: %q, want one: last stream 2^31-1, NO_ERROR", goAways)
	}
}

// dialHTTP2Preface opens a TLS connection to srv that sends the HTTP/2
// preface and settings, and no request. Once the server acknowledges the
// settings, it has been reported idle.
func dialHTTP2Preface(t *testing.T, srv *httptest.Server) *tls.Conn {
	t.Helper()
	pool := x509.NewCertPool()
	pool.AddCert(srv.Certificate())
	c, err := tls.Dial("tcp", srv.Listener.Addr().String(), &tls.Config{RootCAs: pool, NextProtos: []string{"h2"}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if p := c.ConnectionState().NegotiatedProtocol; p != "h2" {
		t.Fatalf("negotiated %q, want h2", p)
	}
	_ = c.SetDeadline(time.Now().Add(20 * time.Second))
	if _, err := io.WriteString(c, "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n\x00\x00\x00\x04\x00\x00\x00\x00\x00"); err != nil {
		t.Fatal(err)
	}
	for { // frames until the SETTINGS ACK
		typ, flags, _, err := readFrame(c)
		if err != nil {
			t.Fatal(err)
		}
		if typ == 0x4 && flags&0x1 != 0 {
			return c
		}
	}
}

// readFrame reads one HTTP/2 frame.
func readFrame(c net.Conn) (typ, flags byte, payload []byte, err error) {
	var h [9]byte
	if _, err := io.ReadFull(c, h[:]); err != nil {
		return 0, 0, nil, err
	}
	payload = make([]byte, int(h[0])<<16|int(h[1])<<8|int(h[2]))
	_, err = io.ReadFull(c, payload)
	return h[3], h[4], payload, err
}

// readGoAways reads frames for up to 10 s until the connection ends and
// returns the GOAWAY payloads among them, with the error that ended it.
func readGoAways(c net.Conn) ([]string, error) {
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	var out []string
	for {
		typ, _, payload, err := readFrame(c)
		if err != nil {
			return out, err
		}
		if typ == 0x7 {
			out = append(out, string(payload))
		}
	}
}

// BenchmarkConnState measures what a keep-alive request adds on the hot
// path: reporting StateActive and StateIdle for a limited connection.
func BenchmarkConnState(b *testing.B) {
	ln := listenLimited(b, 4, io.Discard)
	defer ln.Close()
	servetest.Dial(b, ln.Addr().String(), 0)
	s, err := ln.Accept()
	if err != nil {
		b.Fatal(err)
	}
	defer s.Close()
	b.ReportAllocs()
	for b.Loop() {
		ConnState(s, http.StateActive)
		ConnState(s, http.StateIdle)
	}
}
