package origin

import (
	"bufio"
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/widgetd/widgetd/assets/assetstest"
	"github.com/widgetd/widgetd/internal/syncbuf"
	"github.com/widgetd/widgetd/internal/testcert"
	"github.com/widgetd/widgetd/origin/internal/connlimit"
	"github.com/widgetd/widgetd/origin/internal/fastserve"
	"github.com/widgetd/widgetd/origin/internal/servetest"
)

// TestServeMaxConns: with --max-conns 2, on either engine, two connections
// that have not sent a request yet hold the limit (their header timeout
// bounds them): a third waits (no answer), a log line says the limit was
// reached, and the third is served as soon as one of the two closes.
func TestServeMaxConns(t *testing.T) {
	d := assetstest.New(t, assetstest.Options{})
	for _, engine := range []Engine{EngineFast, EngineNetHTTP} {
		t.Run(string(engine), func(t *testing.T) {
			base, _, stderr := startServe(t, d.Dir, Options{Engine: engine, MaxConns: 2})
			addr := strings.TrimPrefix(base, "http://")
			dial := func() net.Conn { return servetest.Dial(t, addr, 20*time.Second) }
			c1, c2 := dial(), dial()
			c3 := dial()
			fmt.Fprintf(c3, "GET /manifest.json HTTP/1.1\r\nHost: x\r\n\r\n")
			r3 := bufio.NewReader(c3)
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
				t.Fatal("third connection answered while two new ones were open with --max-conns 2")
			}
			c1.Close()
			_ = c3.SetReadDeadline(time.Now().Add(10 * time.Second))
			resp, err := http.ReadResponse(r3, nil)
			if err != nil {
				t.Fatalf("third connection after one closed: %v", err)
			}
			resp.Body.Close()
			if resp.StatusCode != 200 {
				t.Errorf("third connection after one closed: %d", resp.StatusCode)
			}
			_ = c2
		})
	}
}

// watchedConn reports when the connection ends: a read on it fails (the
// server closed it) or the client closes it. The second matters over HTTP/2:
// a connection evicted with a GOAWAY may be closed by Go's client as soon as
// it reads the frame, before the server's close makes a read fail.
type watchedConn struct {
	net.Conn
	gone chan struct{}
	once sync.Once
}

func (c *watchedConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if err != nil {
		c.once.Do(func() { close(c.gone) })
	}
	return n, err
}

func (c *watchedConn) Close() error {
	c.once.Do(func() { close(c.gone) })
	return c.Conn.Close()
}

// closed reports whether c has ended (a failed read or the client's close).
func (c *watchedConn) closed() bool {
	select {
	case <-c.gone:
		return true
	default:
		return false
	}
}

// endedConns counts the connections the clients dialled and those of them
// that have ended.
func endedConns(clients []*keepAliveClient) (dials, ended int) {
	for _, kc := range clients {
		for _, c := range kc.dials() {
			dials++
			if c.closed() {
				ended++
			}
		}
	}
	return dials, ended
}

// keepAliveClient is a real HTTP client with a pool of its own, so it holds
// one keep-alive connection (HTTP/1.1 or, over TLS, HTTP/2), and counts the
// connections it dials.
type keepAliveClient struct {
	http *http.Client
	mu   sync.Mutex
	conn []*watchedConn
}

// newKeepAliveClient makes a client; roots nil means plain HTTP, otherwise
// HTTPS trusting roots, over HTTP/2 when h2 is set and HTTP/1.1 otherwise.
func newKeepAliveClient(t *testing.T, roots *x509.CertPool, h2 bool) *keepAliveClient {
	kc := &keepAliveClient{}
	tr := &http.Transport{MaxConnsPerHost: 1, DisableCompression: true, ForceAttemptHTTP2: h2}
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := (&net.Dialer{}).DialContext(ctx, network, addr)
		if err != nil {
			return nil, err
		}
		w := &watchedConn{Conn: c, gone: make(chan struct{})}
		kc.mu.Lock()
		kc.conn = append(kc.conn, w)
		kc.mu.Unlock()
		return w, nil
	}
	if roots != nil {
		tr.TLSClientConfig = &tls.Config{RootCAs: roots}
		if !h2 {
			tr.TLSNextProto = map[string]func(string, *tls.Conn) http.RoundTripper{}
			tr.TLSClientConfig.NextProtos = []string{"http/1.1"}
		}
	}
	t.Cleanup(tr.CloseIdleConnections)
	kc.http = &http.Client{Transport: tr, Timeout: 30 * time.Second}
	return kc
}

// get fetches url and reads the whole answer; it returns the status and
// the protocol.
func (kc *keepAliveClient) get(url string) (int, string, error) {
	resp, err := kc.http.Get(url)
	if err != nil {
		return 0, "", err
	}
	defer resp.Body.Close()
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		return resp.StatusCode, resp.Proto, fmt.Errorf("reading the body: %w", err)
	}
	return resp.StatusCode, resp.Proto, nil
}

// dials returns the connections the client has dialled.
func (kc *keepAliveClient) dials() []*watchedConn {
	kc.mu.Lock()
	defer kc.mu.Unlock()
	return append([]*watchedConn(nil), kc.conn...)
}

// connMode is one way widgetd serve speaks HTTP.
type connMode struct {
	name, engine string
	tls, h2      bool
	proto        string
}

// connModes are the ways widgetd serve speaks HTTP: the two plain-HTTP
// engines, and HTTPS (net/http) over HTTP/2 and HTTP/1.1.
var connModes = []connMode{
	{name: "fast", engine: "fast", proto: "HTTP/1.1"},
	{name: "net-http", engine: "net/http", proto: "HTTP/1.1"},
	{name: "https-h2", tls: true, h2: true, proto: "HTTP/2.0"},
	{name: "https-http1.1", tls: true, proto: "HTTP/1.1"},
}

// TestServeMaxConnsIdle (issue 19): with --max-conns N, N clients that each
// made one request and sit idle on keep-alive do not hold the limit: client
// N+1 is answered at once (before, it waited the whole idle timeout, 120 s),
// the connection closed for it is the one idle longest (the first client's,
// handed to net/http by the fast engine since /healthz is not memoised),
// and the other clients keep theirs. On both engines and over HTTPS with
// HTTP/2 and HTTP/1.1.
func TestServeMaxConnsIdle(t *testing.T) {
	const maxConns = 4
	srv := newLimitedServeFixture(t)
	for _, mode := range connModes {
		t.Run(mode.name, func(t *testing.T) {
			base, stderr, roots := srv.start(t, mode, maxConns)
			var idle []*keepAliveClient
			for i := range maxConns {
				kc := newKeepAliveClient(t, roots, mode.h2)
				path := "/" + srv.asset
				if i == 0 {
					path = "/healthz"
				}
				if status, proto, err := kc.get(base + path); err != nil || status != 200 || proto != mode.proto {
					t.Fatalf("client %d: %d %s %v, want 200 over %s", i, status, proto, err, mode.proto)
				}
				idle = append(idle, kc)
				// Ordering slack only: the server marks a connection idle
				// right after writing its answer.
				time.Sleep(100 * time.Millisecond)
			}

			start := time.Now()
			status, _, err := newKeepAliveClient(t, roots, mode.h2).get(base + "/manifest.json")
			took := time.Since(start)
			if err != nil || status != 200 {
				t.Fatalf("client %d with %d idle keep-alive connections open: %d %v after %s", maxConns+1, maxConns, status, err, took)
			}
			t.Logf("client %d answered after %s with %d idle connections open", maxConns+1, took.Round(time.Millisecond), maxConns)
			if took > 10*time.Second {
				t.Errorf("client %d answered after %s with %d idle connections open; want at once, not after the idle timeout", maxConns+1, took, maxConns)
			}
			select {
			case <-idle[0].dials()[0].gone:
			case <-time.After(10 * time.Second):
				t.Error("the connection idle longest (client 0) was not closed")
			}
			for i, kc := range idle[1:] {
				if kc.dials()[0].closed() {
					t.Errorf("client %d's connection was closed too; only the one idle longest should be", i+1)
				}
				if status, _, err := kc.get(base + "/" + srv.asset); err != nil || status != 200 {
					t.Errorf("client %d again: %d %v", i+1, status, err)
				}
				if n := len(kc.dials()); n != 1 {
					t.Errorf("client %d dialled %d connections, want its first one kept", i+1, n)
				}
			}
			if !strings.Contains(stderr.String(), `"closed_idle":1`) {
				t.Errorf("log does not count the closed idle connection: %s", stderr.String())
			}
		})
	}
}

// blockingHandler answers GET /slow?n=I only when release(I) is called,
// and everything else at once, with headers the fast engine memoises.
type blockingHandler struct {
	entered chan int
	gates   []chan struct{}
	opened  []sync.Once
}

func newBlockingHandler(n int) *blockingHandler {
	h := &blockingHandler{entered: make(chan int, n), opened: make([]sync.Once, n)}
	for range n {
		h.gates = append(h.gates, make(chan struct{}))
	}
	return h
}

// release lets slow request i finish (once; later calls do nothing).
func (h *blockingHandler) release(i int) { h.opened[i].Do(func() { close(h.gates[i]) }) }

func (h *blockingHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path == "/slow" {
		i, err := strconv.Atoi(r.URL.Query().Get("n"))
		if err != nil || i < 0 || i >= len(h.gates) {
			http.Error(w, "bad n", http.StatusBadRequest)
			return
		}
		h.entered <- i
		select {
		case <-h.gates[i]:
		case <-r.Context().Done():
			return
		}
	}
	w.Header().Set("Etag", `"x"`)
	w.Header().Set("Cache-Control", "public, max-age=60")
	w.Header().Set("Content-Length", "2")
	w.WriteHeader(http.StatusOK)
	io.WriteString(w, "ok")
}

// startWiredServer runs h as Listen wires its servers (newHTTPServer,
// fastOptions, tlsServer) on a loopback listener limited to maxConns. It
// returns the base URL and the server's log.
func startWiredServer(t *testing.T, engine string, tlsCfg *tls.Config, h http.Handler, maxConns int) (string, *syncbuf.Buffer) {
	t.Helper()
	var logb syncbuf.Buffer
	logger := slog.New(slog.NewJSONHandler(&logb, nil))
	ctx := context.Background()
	lim := defaultServerLimits()
	var srv originServer
	scheme := "http"
	switch {
	case tlsCfg != nil:
		hs := newHTTPServer(ctx, h, logger, lim)
		hs.TLSConfig = tlsCfg
		srv, scheme = tlsServer{hs}, "https"
	case engine == "fast":
		srv = fastserve.New(h, fastOptions(ctx, h, nil, logger, lim))
	default:
		srv = newHTTPServer(ctx, h, logger, lim)
	}
	limit := func(ln net.Listener) net.Listener { return connlimit.New(ln, maxConns, logger, "main") }
	return scheme + "://" + servetest.Serve(t, srv, limit), &logb
}

// testTLSConfig is serve's TLS setup with a certificate of ca.
func testTLSConfig(t *testing.T, ca *testcert.CA) *tls.Config {
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	ca.Issue(t, 101, certFile, keyFile, "localhost", "127.0.0.1")
	setup, err := newHTTPSSetup(TLSOptions{CertFile: certFile, KeyFile: keyFile}, slog.New(slog.NewJSONHandler(io.Discard, nil)))
	if err != nil {
		t.Fatal(err)
	}
	return setup.config
}

// startSlowRequests sends GET /slow?n=I from clients[I], each on its own
// connection, and returns once all are in h; each one's outcome (nil for a
// 200 over proto) arrives on the channel once h releases it.
func startSlowRequests(t *testing.T, h *blockingHandler, base string, clients []*keepAliveClient, proto string) <-chan error {
	t.Helper()
	errs := make(chan error, len(clients))
	for i, kc := range clients {
		go func() {
			status, got, err := kc.get(fmt.Sprintf("%s/slow?n=%d", base, i))
			if err == nil && (status != 200 || got != proto) {
				err = fmt.Errorf("%d over %s, want 200 over %s", status, got, proto)
			}
			errs <- err
		}()
		select {
		case <-h.entered:
		case <-time.After(10 * time.Second):
			t.Fatalf("slow request %d did not reach the handler", i)
		}
	}
	return errs
}

// TestServeMaxConnsBusy: connections with a request in flight are never
// closed to make room. With --max-conns 2 and both connections waiting for
// a slow handler (handed to net/http by the fast engine: the query string
// keeps it off the fast path), a third client waits, and a log line says
// so; both slow requests are answered in full once released, and the
// third client is served as soon as the first of them is idle, taking its
// place. On both engines and over HTTPS with HTTP/2 and HTTP/1.1.
func TestServeMaxConnsBusy(t *testing.T) {
	ca := testcert.NewCA(t)
	tlsCfg := testTLSConfig(t, ca)
	for _, mode := range connModes {
		t.Run(mode.name, func(t *testing.T) {
			h := newBlockingHandler(2)
			var cfg *tls.Config
			var roots *x509.CertPool
			if mode.tls {
				cfg, roots = tlsCfg.Clone(), ca.Pool()
			}
			base, logb := startWiredServer(t, mode.engine, cfg, h, 2)
			busy := []*keepAliveClient{newKeepAliveClient(t, roots, mode.h2), newKeepAliveClient(t, roots, mode.h2)}
			busyErr := startSlowRequests(t, h, base, busy, mode.proto)
			defer h.release(1)

			third := make(chan error, 1)
			go func() {
				status, _, err := newKeepAliveClient(t, roots, mode.h2).get(base + "/other")
				if err == nil && status != 200 {
					err = fmt.Errorf("status %d", status)
				}
				third <- err
			}()
			select {
			case err := <-third:
				t.Fatalf("third client answered (err %v) while both connections had a request in flight", err)
			case <-time.After(700 * time.Millisecond):
			}
			if !strings.Contains(logb.String(), "connection limit reached") {
				t.Errorf("no log line about the limit: %s", logb.String())
			}
			for i, kc := range busy {
				if kc.dials()[0].closed() {
					t.Errorf("busy connection %d was closed", i)
				}
			}

			h.release(0)
			if err := <-busyErr; err != nil {
				t.Errorf("released slow request: %v", err)
			}
			select {
			case err := <-third:
				if err != nil {
					t.Errorf("third client: %v", err)
				}
			case <-time.After(10 * time.Second):
				t.Fatal("third client not served after a busy connection went idle")
			}
			select {
			case <-busy[0].dials()[0].gone:
			case <-time.After(10 * time.Second):
				t.Error("the connection that went idle was not the one closed for the third client")
			}
			if busy[1].dials()[0].closed() {
				t.Error("the connection still busy was closed")
			}
			h.release(1)
			if err := <-busyErr; err != nil {
				t.Errorf("second slow request: %v", err)
			}
		})
	}
}

// TestServeMaxConnsChurn: more keep-alive clients than --max-conns, all
// requesting at once, are all answered, every request: idle connections
// are closed to make room, and a request racing with such a close is
// retried by the client (HTTP/1.1 clients retry an idempotent request on a
// reused connection; HTTP/2 ones retry what a GOAWAY did not cover).
func TestServeMaxConnsChurn(t *testing.T) {
	const maxConns, clients, requests = 3, 9, 20
	srv := newLimitedServeFixture(t)
	for _, mode := range connModes {
		t.Run(mode.name, func(t *testing.T) {
			base, stderr, roots := srv.start(t, mode, maxConns)
			errs := make(chan error, clients*requests)
			var wg sync.WaitGroup
			var all []*keepAliveClient
			for i := range clients {
				kc := newKeepAliveClient(t, roots, mode.h2)
				all = append(all, kc)
				wg.Go(func() {
					for j := range requests {
						if status, _, err := kc.get(base + "/" + srv.asset); err != nil || status != 200 {
							errs <- fmt.Errorf("client %d request %d: %d %v", i, j, status, err)
						}
					}
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
			// Closing idle connections is what let them all through. The
			// clients never close a connection themselves before the test
			// ends (an HTTP/2 one does after a GOAWAY, which is the server
			// closing it), and at most maxConns are open at once, so of the
			// connections dialled all but maxConns must have been ended by
			// the server. The client notices a close a little after it, so
			// the count is awaited. (The log's "closed_idle" count cannot
			// tell: its line is written at most every 10 s, and the first
			// is written when the limit is first reached, before any close.)
			dials, ended := endedConns(all)
			for deadline := time.Now().Add(10 * time.Second); ended < dials-maxConns && time.Now().Before(deadline); {
				time.Sleep(20 * time.Millisecond)
				dials, ended = endedConns(all)
			}
			if ended < dials-maxConns {
				t.Errorf("%d connections dialled by %d clients with --max-conns %d, but only %d ended: no room was made by closing idle ones; log: %s", dials, clients, maxConns, ended, stderr.String())
			}
			if !strings.Contains(stderr.String(), "connection limit reached") {
				t.Errorf("the log does not say the connection limit was reached: %s", stderr.String())
			}
			t.Logf("%d requests over %d connections", clients*requests, dials)
		})
	}
}

// limitedServeFixture is what the --max-conns tests share: a dist/ and a
// certificate for the TLS modes.
type limitedServeFixture struct {
	dir, certFile, keyFile string
	asset                  string // a hashed file of the dist/, served from /asset
	ca                     *testcert.CA
}

func newLimitedServeFixture(t *testing.T) *limitedServeFixture {
	d := assetstest.New(t, assetstest.Options{})
	f := &limitedServeFixture{dir: d.Dir, asset: d.Asset, ca: testcert.NewCA(t)}
	f.certFile, f.keyFile = filepath.Join(t.TempDir(), "cert.pem"), filepath.Join(t.TempDir(), "key.pem")
	f.ca.Issue(t, 100, f.certFile, f.keyFile, "localhost", "127.0.0.1")
	return f
}

// start runs widgetd serve in mode with --max-conns maxConns, returning
// its base URL, its log and the roots a TLS client trusts (nil otherwise).
func (f *limitedServeFixture) start(t *testing.T, mode connMode, maxConns int) (string, *syncbuf.Buffer, *x509.CertPool) {
	t.Helper()
	opts := Options{MaxConns: maxConns}
	var roots *x509.CertPool
	if mode.tls {
		opts.TLS, roots = TLSOptions{CertFile: f.certFile, KeyFile: f.keyFile}, f.ca.Pool()
	} else {
		opts.Engine = Engine(mode.engine)
	}
	base, _, stderr := startServe(t, f.dir, opts)
	return base, stderr, roots
}
