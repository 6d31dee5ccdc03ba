package main

import (
	"bufio"
	"fmt"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/widgetd/widgetd/assets/assetstest"
)

// TestServeMaxConns: with --max-conns 2, on either engine, a third
// connection waits (no answer) while two are held open, a log line says
// the limit was reached, and the third is served as soon as one of the two
// closes — also when the one that closes was handed to net/http by the
// fast engine.
func TestServeMaxConns(t *testing.T) {
	d := assetstest.New(t, assetstest.Options{})
	for _, engine := range []string{"fast", "net/http"} {
		t.Run(engine, func(t *testing.T) {
			lines, stderr := startServeCLI(t, "--dir", d.Dir, "--addr", "127.0.0.1:0", "--access-log=false", "--engine", engine, "--max-conns", "2")
			addr := strings.TrimPrefix(urlRE.FindString(lines[len(lines)-1]), "http://")
			open := func(path string) (net.Conn, *bufio.Reader) {
				t.Helper()
				c, err := net.Dial("tcp", addr)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { c.Close() })
				_ = c.SetDeadline(time.Now().Add(20 * time.Second))
				fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: x\r\n\r\n", path)
				return c, bufio.NewReader(c)
			}
			status := func(r *bufio.Reader) int {
				t.Helper()
				resp, err := http.ReadResponse(r, nil)
				if err != nil {
					t.Fatal(err)
				}
				resp.Body.Close()
				return resp.StatusCode
			}
			c1, r1 := open("/healthz") // the fast engine hands this one to net/http
			c2, r2 := open("/" + d.Asset)
			if status(r1) != 200 || status(r2) != 200 {
				t.Fatal("first two connections not served")
			}
			c3, r3 := open("/manifest.json")
			// The log line says the server waits for a slot: wait for it
			// (however slow the machine), then check the third connection
			// gets no answer for a moment.
			for deadline := time.Now().Add(20 * time.Second); !strings.Contains(stderr.String(), "connection limit reached"); time.Sleep(10 * time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatalf("no log line about the limit after 20s: %s", stderr.String())
				}
			}
			if !strings.Contains(stderr.String(), `"max_conns":2`) {
				t.Errorf("log line about the limit without max_conns: %s", stderr.String())
			}
			_ = c3.SetReadDeadline(time.Now().Add(700 * time.Millisecond))
			if _, err := r3.Peek(1); err == nil {
				t.Fatal("third connection answered while two were open with --max-conns 2")
			}
			c1.Close()
			_ = c3.SetReadDeadline(time.Now().Add(10 * time.Second))
			if s := status(r3); s != 200 {
				t.Errorf("third connection after one closed: %d", s)
			}
			_ = c2
		})
	}
}
