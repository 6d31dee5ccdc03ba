package servetest

import (
	"errors"
	"io"
	"net"
	"net/http"
	"sync/atomic"
	"testing"
	"time"
)

// countingListener counts the connections accepted through it.
type countingListener struct {
	net.Listener
	accepted *atomic.Int64
}

func (l countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.accepted.Add(1)
	}
	return c, err
}

// TestServe: the server answers on the returned loopback address, through
// the wrapped listener, and is closed when the test ends.
func TestServe(t *testing.T) {
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "served")
	})}
	var accepted atomic.Int64
	var addr string
	t.Run("serve", func(t *testing.T) {
		addr = Serve(t, srv, func(ln net.Listener) net.Listener { return countingListener{ln, &accepted} })
		if host, _, err := net.SplitHostPort(addr); err != nil || host != "127.0.0.1" {
			t.Fatalf("address %q (%v); want 127.0.0.1:port", addr, err)
		}
		tr := &http.Transport{}
		defer tr.CloseIdleConnections()
		resp, err := (&http.Client{Transport: tr}).Get("http://" + addr + "/")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(body) != "served" || accepted.Load() != 1 {
			t.Errorf("body %q after %d accepted connections; want served after 1", body, accepted.Load())
		}
	})
	if err := srv.Serve(Listen(t)); err != http.ErrServerClosed {
		t.Errorf("server still open after its test ended: Serve = %v", err)
	}
	if c, err := net.Dial("tcp", addr); err == nil {
		c.Close()
		t.Errorf("%s still accepts connections after its test ended", addr)
	}
}

// TestDial: the connection reaches the listener, and a read from a server
// that never answers ends at the deadline instead of hanging.
func TestDial(t *testing.T) {
	ln := Listen(t)
	c := Dial(t, ln.Addr().String(), 200*time.Millisecond)
	s, err := ln.Accept()
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if s.RemoteAddr().String() != c.LocalAddr().String() {
		t.Errorf("accepted %s, dialled from %s", s.RemoteAddr(), c.LocalAddr())
	}
	start := time.Now()
	_, err = c.Read(make([]byte, 1))
	var ne net.Error
	if !errors.As(err, &ne) || !ne.Timeout() {
		t.Fatalf("read from a silent server: %v; want a timeout", err)
	}
	if waited := time.Since(start); waited > 30*time.Second {
		t.Errorf("deadline of 200ms took %s", waited)
	}
}
