package fastserve

import (
	"bufio"
	"bytes"
	"fmt"
	"net"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/widgetd/widgetd/origin/internal/connlimit"
	"github.com/widgetd/widgetd/origin/internal/servetest"
)

// stateLog records the states Options.ConnState is told, per accepted
// connection (a handed-off connection counted as the one it wraps).
type stateLog struct {
	mu     sync.Mutex
	states map[net.Conn][]http.ConnState
}

func (l *stateLog) hook(c net.Conn, s http.ConnState) {
	if w, ok := c.(interface{ NetConn() net.Conn }); ok {
		c = w.NetConn()
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	l.states[c] = append(l.states[c], s)
}

func (l *stateLog) get() map[net.Conn][]http.ConnState {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := map[net.Conn][]http.ConnState{}
	for c, s := range l.states {
		out[c] = slices.Clone(s)
	}
	return out
}

// TestConnState: the fast path reports a connection's states as
// http.Server does (new, active per request, idle between requests,
// closed), and after a hand-off net/http reports them on a connection
// whose NetConn is the accepted one: the contract connlimit relies on to
// close idle connections at the limit.
func TestConnState(t *testing.T) {
	log := &stateLog{states: map[net.Conn][]http.ConnState{}}
	opts := limits
	opts.ConnState = log.hook
	addr, _ := start(t, staticHandler([]byte("hello")), opts)
	c := servetest.Dial(t, addr, 10*time.Second)
	r := bufio.NewReader(c)
	for _, target := range []string{"/static", "/static", "/static?handed-off"} {
		fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: x\r\n\r\n", target)
		resp, err := http.ReadResponse(r, nil)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d", target, resp.StatusCode)
		}
	}
	c.Close()
	want := []http.ConnState{
		http.StateNew, http.StateActive, http.StateIdle, http.StateActive, http.StateIdle, http.StateActive, // fast path
		http.StateNew, http.StateActive, http.StateIdle, http.StateClosed, // net/http after the hand-off
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		got := log.get()
		if len(got) == 1 {
			for _, states := range got {
				if slices.Equal(states, want) {
					return
				}
				if time.Now().After(deadline) {
					t.Fatalf("states %v, want %v", states, want)
				}
			}
		} else if time.Now().After(deadline) {
			t.Fatalf("states of %d connections, want 1: %v", len(got), got)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// startLimited runs New(h, opts) on a loopback listener under
// connlimit, reporting states to it, as widgetd serve does.
func startLimited(tb testing.TB, h http.Handler, opts Options) string {
	tb.Helper()
	opts.Logger = quiet
	opts.ConnState = connlimit.ConnState
	srv := New(h, opts)
	return servetest.Serve(tb, srv, func(ln net.Listener) net.Listener { return connlimit.New(ln, 64, quiet, "test") })
}

// TestHitAllocsLimited: under connlimit, with states reported to it, a hit
// still allocates nothing.
func TestHitAllocsLimited(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates; run without -race")
	}
	for _, tc := range hitCases {
		t.Run(tc.name, func(t *testing.T) {
			hc := newHitClient(t, startLimited(t, staticHandler(bytes.Repeat([]byte("x"), tc.size)), limits), tc.method)
			assertNoAllocsPerHit(t, hc)
		})
	}
}

// BenchmarkHitLimited is BenchmarkHit under connlimit with states reported
// to it, as widgetd serve runs (--max-conns defaults to 4096).
func BenchmarkHitLimited(b *testing.B) {
	for _, tc := range hitCases {
		b.Run(tc.name, func(b *testing.B) {
			hc := newHitClient(b, startLimited(b, staticHandler(bytes.Repeat([]byte("x"), tc.size)), Options{}), tc.method)
			b.ReportAllocs()
			b.SetBytes(int64(len(hc.resp)))
			for b.Loop() {
				if err := hc.do(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
