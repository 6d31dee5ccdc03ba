package connlimit

import (
	"errors"
	"log/slog"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/widgetd/widgetd/internal/syncbuf"
)

// TestLimit: with max 1, a second Accept waits until the first connection
// closes (logging once), a double Close frees one slot only, and Close of
// the listener wakes an Accept waiting for a slot.
func TestLimit(t *testing.T) {
	raw, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var logb syncbuf.Buffer
	ln := New(raw, 1, slog.New(slog.NewJSONHandler(&logb, nil)), "test").(*Listener)
	for range 3 {
		c, err := net.Dial("tcp", raw.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
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
