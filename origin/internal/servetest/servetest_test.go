package servetest

import (
	"io"
	"net"
	"net/http"
	"sync/atomic"
	"testing"
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
