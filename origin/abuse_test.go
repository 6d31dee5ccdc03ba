package origin

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/widgetd/widgetd/assets/assetstest"
	"github.com/widgetd/widgetd/origin/internal/servetest"
)

// startEngine runs the origin's plain-HTTP server (newOriginServer) with the
// given engine and limits on loopback, access log and metrics on.
func startEngine(t *testing.T, d *assetstest.Dist, engine string, lim serverLimits) (addr string, srv originServer) {
	t.Helper()
	logger := slog.New(slog.NewJSONHandler(io.Discard, nil))
	opts := Options{Registry: assetstest.LoadDir(t, d.Dir), AccessLog: true, Metrics: true, Engine: Engine(engine)}
	srv = newOriginServer(context.Background(), opts, logger, lim)
	return servetest.Serve(t, srv, nil), srv
}

// startAbuseServer runs the origin's plain-HTTP server (newOriginServer, the
// fast engine unless engine says net/http) with the given limits on
// loopback, access log and metrics on as in production.
func startAbuseServer(t *testing.T, lim serverLimits, engine string) (addr string, d *assetstest.Dist) {
	t.Helper()
	d = assetstest.New(t, assetstest.Options{})
	addr, _ = startEngine(t, d, engine, lim)
	return addr, d
}

// engines runs f once per serve engine.
func engines(t *testing.T, f func(t *testing.T, engine string)) {
	for _, e := range []string{"fast", "net/http"} {
		t.Run(strings.ReplaceAll(e, "/", "-"), func(t *testing.T) { f(t, e) })
	}
}

// rawRequest writes req on a new connection and reads one response.
func rawRequest(t *testing.T, addr, req string) (*http.Response, string) {
	t.Helper()
	c, err := net.DialTimeout("tcp", addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	if _, err := io.WriteString(c, req); err != nil {
		t.Fatalf("write %q: %v", firstLine(req), err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("%q: reading response: %v", firstLine(req), err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, string(body)
}

func firstLine(s string) string {
	if i := strings.Index(s, "\r\n"); i >= 0 {
		return s[:i]
	}
	return s
}

// TestServeDefaultLimits pins the limits docs/serving.md documents, since the
// abuse tests below run with shorter timeouts.
func TestServeDefaultLimits(t *testing.T) {
	want := serverLimits{readHeader: 5 * time.Second, read: 10 * time.Second, write: 30 * time.Second, idle: 120 * time.Second, maxHeaderBytes: 16 << 10}
	if got := defaultServerLimits(); got != want {
		t.Errorf("defaultServerLimits() = %+v, want %+v (update docs/serving.md with the change)", got, want)
	}
	srv := newHTTPServer(context.Background(), http.NotFoundHandler(), slog.New(slog.NewJSONHandler(io.Discard, nil)), want)
	if srv.ReadHeaderTimeout != want.readHeader || srv.ReadTimeout != want.read || srv.WriteTimeout != want.write ||
		srv.IdleTimeout != want.idle || srv.MaxHeaderBytes != want.maxHeaderBytes {
		t.Errorf("newHTTPServer does not apply the limits: %+v", srv)
	}
	o := fastOptions(context.Background(), http.NotFoundHandler(), nil, slog.New(slog.NewJSONHandler(io.Discard, nil)), want)
	if o.ReadHeaderTimeout != want.readHeader || o.ReadTimeout != want.read || o.WriteTimeout != want.write ||
		o.IdleTimeout != want.idle || o.MaxHeaderBytes != want.maxHeaderBytes || o.Fallback == nil || o.Logger == nil || o.BaseContext == nil {
		t.Errorf("fastOptions does not apply the limits: %+v", o)
	}
	if o.Observer != nil {
		t.Errorf("fastOptions sets an Observer with the access log and metrics off")
	}
}

// TestServeSlowHeaders opens many connections that send a header's value one
// byte at a time. A normal client must still be served while they hang
// (before the first of them is cut), and ReadHeaderTimeout must cut every
// slow one: not before it, and not much later (see slowCutBound). The
// timeout is 3 s so that a loaded machine has time to serve the normal
// client in between (whole-process stalls of 2 s were seen beside a CPU hog).
func TestServeSlowHeaders(t *testing.T) { engines(t, testServeSlowHeaders) }

// slowCutBound is how long after ReadHeaderTimeout a slow client may still
// be open in TestServeSlowHeaders: ten times the timeout, so that a loaded
// machine (a CPU hog beside a parallel go test ./...) that wakes the server
// late does not fail the test, while a deadline that never fires still does.
const slowCutBound = 10

func testServeSlowHeaders(t *testing.T, engine string) {
	lim := defaultServerLimits()
	lim.readHeader = 3 * time.Second
	addr, d := startAbuseServer(t, lim, engine)

	const slowClients = 64
	type outcome struct {
		cutAfter time.Duration
		err      error
	}
	results := make(chan outcome, slowClients)
	ready := make(chan struct{}, slowClients)
	var cut atomic.Int32 // slow clients that have seen the server close
	bound := slowCutBound * lim.readHeader
	var wg sync.WaitGroup
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	for i := 0; i < slowClients; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			// Taken before the dial, so before the server accepts and
			// starts its header deadline: the cut can then be no earlier
			// than ReadHeaderTimeout after start, however late this
			// goroutine runs.
			start := time.Now()
			c, err := net.DialTimeout("tcp", addr, 5*time.Second)
			if err != nil {
				results <- outcome{err: err}
				ready <- struct{}{}
				return
			}
			defer c.Close()
			// The reader notices when the server closes the connection.
			closed := make(chan error, 1)
			go func() {
				_ = c.SetReadDeadline(start.Add(bound + 5*time.Second))
				b, err := io.ReadAll(c)
				cut.Add(1)
				if errors.Is(err, syscall.ECONNRESET) {
					// The server closed with our unread header bytes in its
					// receive buffer, so the kernel reset the connection:
					// cut, as wanted.
					err = nil
				}
				if err == nil && len(b) > 0 && !strings.HasPrefix(string(b), "HTTP/1.1 408") {
					err = fmt.Errorf("server answered a request it never finished reading: %q", b)
				}
				closed <- err
			}()
			// The request line, Host and a field name arrive at once, then
			// the field's value one byte every 50ms: the server has started
			// reading the request and is waiting for the end of its header.
			// (The name is sent whole because net/http answers 400 to a
			// head cut by its deadline mid-name, where bufio.ReadLine hands
			// the fragment up as a line without a colon; a loaded machine
			// could send that few bytes of a trickled name in time.)
			if _, err := fmt.Fprintf(c, "GET /%s HTTP/1.1\r\nHost: origin.test\r\nX-Slow-%d: ", d.Asset, i); err != nil {
				ready <- struct{}{}
				results <- outcome{err: err}
				return
			}
			ready <- struct{}{}
			for {
				if _, err := c.Write([]byte{'a'}); err != nil {
					break // the server closed the connection
				}
				select {
				case err := <-closed:
					results <- outcome{cutAfter: time.Since(start), err: err}
					return
				case <-ctx.Done():
					results <- outcome{err: errors.New("test ended")}
					return
				case <-time.After(50 * time.Millisecond):
				}
				if time.Since(start) > bound {
					results <- outcome{err: fmt.Errorf("still open after %s", bound)}
					return
				}
			}
			results <- outcome{cutAfter: time.Since(start), err: <-closed}
		}(i)
	}
	for i := 0; i < slowClients; i++ {
		<-ready
	}

	// While every slow client is mid-header, a normal client is served:
	// its answers come before the first slow client is cut.
	tr := &http.Transport{DisableCompression: true}
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: tr, Timeout: 10 * time.Second}
	for i := 0; i < 5; i++ {
		req, _ := http.NewRequest("GET", "http://"+addr+"/"+d.Asset, nil)
		req.Header.Set("Accept-Encoding", "br")
		resp, err := c.Do(req)
		if err != nil {
			t.Fatalf("normal request while %d slow clients hang: %v", slowClients, err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if n := cut.Load(); resp.StatusCode != 200 || n > 0 {
			t.Errorf("normal request %d while slow clients hang: %d, answered after %d slow clients were cut; want 200 while all %d still hang", i, resp.StatusCode, n, slowClients)
		}
	}

	wg.Wait()
	close(results)
	n := 0
	for r := range results {
		n++
		if r.err != nil {
			t.Errorf("slow client: %v", r.err)
			continue
		}
		if r.cutAfter < lim.readHeader || r.cutAfter > bound {
			t.Errorf("slow client cut %s after it dialled, want between ReadHeaderTimeout (%s) and %s", r.cutAfter, lim.readHeader, bound)
		}
	}
	if n != slowClients {
		t.Errorf("%d slow client results, want %d", n, slowClients)
	}
}

// TestServeOversizedHeaders: headers past MaxHeaderBytes get 431, headers
// under it are served.
func TestServeOversizedHeaders(t *testing.T) { engines(t, testServeOversizedHeaders) }

func testServeOversizedHeaders(t *testing.T, engine string) {
	addr, d := startAbuseServer(t, defaultServerLimits(), engine)
	for _, tc := range []struct {
		name string
		hdr  string
		want int
	}{
		{"12KiB header", "X-Pad: " + strings.Repeat("a", 12<<10) + "\r\n", 200},
		{"64KiB header", "X-Pad: " + strings.Repeat("a", 64<<10) + "\r\n", 431},
		{"1MiB header", "X-Pad: " + strings.Repeat("a", 1<<20) + "\r\n", 431},
		{"2000 small headers", strings.Repeat("X-Many: abcdefghijklmnop\r\n", 2000), 431},
		{"64KiB request line", "", 431},
	} {
		t.Run(tc.name, func(t *testing.T) {
			target := "/" + d.Asset
			if tc.name == "64KiB request line" {
				target += "?" + strings.Repeat("q", 64<<10)
			}
			resp, _ := rawRequest(t, addr, "GET "+target+" HTTP/1.1\r\nHost: origin.test\r\n"+tc.hdr+"\r\n")
			if resp.StatusCode != tc.want {
				t.Errorf("status %d, want %d", resp.StatusCode, tc.want)
			}
		})
	}
}

// TestServeOddMethods: only GET, HEAD and OPTIONS are served; other methods
// get 405 with Allow, malformed request lines and method tokens get 400.
func TestServeOddMethods(t *testing.T) { engines(t, testServeOddMethods) }

func testServeOddMethods(t *testing.T, engine string) {
	addr, d := startAbuseServer(t, defaultServerLimits(), engine)
	const allow = "GET, HEAD, OPTIONS"
	for _, tc := range []struct {
		name, line string
		want       int
	}{
		{"PUT", "PUT /" + d.Asset + " HTTP/1.1", 405},
		{"DELETE", "DELETE /" + d.Asset + " HTTP/1.1", 405},
		{"PATCH", "PATCH /manifest.json HTTP/1.1", 405},
		{"POST", "POST /counter.html HTTP/1.1", 405},
		{"TRACE", "TRACE /" + d.Asset + " HTTP/1.1", 405},
		{"CONNECT path", "CONNECT /" + d.Asset + " HTTP/1.1", 405},
		{"PROPFIND", "PROPFIND /" + d.Asset + " HTTP/1.1", 405},
		{"unknown token", "BREW /" + d.Asset + " HTTP/1.1", 405},
		{"lower-case get", "get /" + d.Asset + " HTTP/1.1", 405},
		{"CONNECT authority", "CONNECT origin.test:443 HTTP/1.1", 405},
		{"PUT unknown path", "PUT /nope HTTP/1.1", 405},
		{"garbage method", "G@T /" + d.Asset + " HTTP/1.1", 400},
		{"method with control byte", "GE\x01T /" + d.Asset + " HTTP/1.1", 400},
		{"no version", "GET /" + d.Asset, 400},
		{"bad version", "GET /" + d.Asset + " HTTP/9.x", 400},
		{"binary line", "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03", 400},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := ""
			if strings.HasPrefix(tc.line, "PUT /a") || strings.HasPrefix(tc.line, "PATCH") || strings.HasPrefix(tc.line, "POST") {
				body = "Content-Length: 5\r\n\r\nhello"
			} else {
				body = "\r\n"
			}
			resp, _ := rawRequest(t, addr, tc.line+"\r\nHost: origin.test\r\n"+body)
			if resp.StatusCode != tc.want {
				t.Errorf("%q: status %d, want %d", tc.line, resp.StatusCode, tc.want)
			}
			if tc.want == 405 && resp.Header.Get("Allow") != allow {
				t.Errorf("%q: Allow %q, want %q", tc.line, resp.Header.Get("Allow"), allow)
			}
			if resp.StatusCode < 400 {
				t.Errorf("%q was served", tc.line)
			}
		})
	}
}
