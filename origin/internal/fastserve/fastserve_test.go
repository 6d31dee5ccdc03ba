package fastserve

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/assets/assetstest"
	"github.com/widgetd/widgetd/origin/internal/servetest"
)

// limits are the limits widgetd serve runs with (docs/serving.md).
var limits = Options{
	ReadHeaderTimeout: 5 * time.Second,
	ReadTimeout:       10 * time.Second,
	WriteTimeout:      30 * time.Second,
	IdleTimeout:       120 * time.Second,
	MaxHeaderBytes:    16 << 10,
}

// quiet is a logger for net/http's error log that drops everything.
var quiet = slog.New(slog.NewJSONHandler(io.Discard, nil))

// registryHandler loads d and returns the asset origin handler, the real
// handler the engine exists for.
func registryHandler(t testing.TB, d *assetstest.Dist) http.Handler {
	t.Helper()
	reg, err := assets.Load(os.DirFS(d.Dir), assets.WithLogger(quiet))
	if err != nil {
		t.Fatal(err)
	}
	return reg.Handler()
}

// start runs New(h, opts) on loopback until the end of the test.
func start(t *testing.T, h http.Handler, opts Options) (addr string, srv *Server) {
	t.Helper()
	if opts.Logger == nil {
		opts.Logger = quiet
	}
	srv = New(h, opts)
	return servetest.Serve(t, srv, nil), srv
}

// startNetHTTP runs h on a plain http.Server with opts' limits: the
// reference the engine must match.
func startNetHTTP(t *testing.T, h http.Handler, opts Options) string {
	t.Helper()
	srv := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: opts.ReadHeaderTimeout,
		ReadTimeout:       opts.ReadTimeout,
		WriteTimeout:      opts.WriteTimeout,
		IdleTimeout:       opts.IdleTimeout,
		MaxHeaderBytes:    opts.MaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(quiet.Handler(), slog.LevelWarn),
	}
	return servetest.Serve(t, srv, nil)
}

// wireResponse is a response as read off the wire, Date removed.
type wireResponse struct {
	status int
	header http.Header
	body   []byte
}

func (w wireResponse) String() string {
	keys := make([]string, 0, len(w.header))
	for k := range w.header {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var b strings.Builder
	fmt.Fprintf(&b, "%d", w.status)
	for _, k := range keys {
		fmt.Fprintf(&b, "\n  %s: %q", k, w.header[k])
	}
	fmt.Fprintf(&b, "\n  body %d bytes", len(w.body))
	return b.String()
}

func readWire(t *testing.T, r *bufio.Reader, method string) wireResponse {
	t.Helper()
	resp, err := http.ReadResponse(r, &http.Request{Method: method})
	if err != nil {
		t.Fatalf("read response: %v", err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatalf("read body: %v", err)
	}
	if resp.Header.Get("Date") == "" {
		t.Errorf("response without Date")
	}
	resp.Header.Del("Date")
	if resp.ContentLength >= 0 && method != "HEAD" && resp.StatusCode != 304 && int64(len(body)) != resp.ContentLength {
		t.Errorf("Content-Length %d, body %d bytes", resp.ContentLength, len(body))
	}
	return wireResponse{resp.StatusCode, resp.Header, body}
}

// assetTag is the tag in d.Asset's ETags: the first 16 hex digits of its
// SHA-256 in the manifest ("" when the manifest does not list it).
func assetTag(d *assetstest.Dist) string {
	for _, f := range d.Manifest.Files {
		if f.Path == d.Asset {
			return f.SHA256[:16]
		}
	}
	return ""
}

// fastCases are raw requests covering the handler's behaviour table: every
// one must be answered identically by both engines, the first time (the fast
// path fills its cache) and the second (served from the cache).
func fastCases(d *assetstest.Dist) []originCase {
	js := "/" + d.Asset
	html := "/" + d.Manifest.Widgets[1].HTML
	sum := assetTag(d)
	etags := []string{`"` + sum + `"`, `"` + sum + `-br"`, `"` + sum + `-gz"`}
	return []originCase{
		{"identity", "GET", js, ""},
		{"br browser", "GET", js, "Accept-Encoding: gzip, deflate, br, zstd\r\n"},
		{"br only", "GET", js, "Accept-Encoding: br\r\n"},
		{"gzip", "GET", js, "Accept-Encoding: gzip\r\n"},
		{"br q0", "GET", js, "Accept-Encoding: br;q=0, gzip\r\n"},
		{"q order", "GET", js, "Accept-Encoding: br;q=0.5, gzip;q=0.9\r\n"},
		{"x-gzip", "GET", js, "Accept-Encoding: x-gzip\r\n"},
		{"star", "GET", js, "Accept-Encoding: *\r\n"},
		{"empty AE", "GET", js, "Accept-Encoding: \r\n"},
		{"upper AE", "GET", js, "accept-encoding: BR;Q=1\r\n"},
		{"406", "GET", js, "Accept-Encoding: identity;q=0\r\n"},
		{"two AE lines", "GET", js, "Accept-Encoding: gzip\r\nAccept-Encoding: br\r\n"},
		{"HEAD identity", "HEAD", js, ""},
		{"HEAD br", "HEAD", js, "Accept-Encoding: br\r\n"},
		{"304", "GET", js, "Accept-Encoding: br\r\nIf-None-Match: " + etags[1] + "\r\n"},
		{"304 weak", "GET", js, "If-None-Match: W/" + etags[0] + "\r\n"},
		{"INM miss", "GET", js, "Accept-Encoding: gzip\r\nIf-None-Match: \"nope\"\r\n"},
		{"range", "GET", js, "Range: bytes=0-99\r\n"},
		{"range suffix", "GET", js, "Range: bytes=-10\r\n"},
		{"range 416", "GET", js, "Range: bytes=999999-\r\n"},
		{"range br", "GET", js, "Range: bytes=0-9\r\nAccept-Encoding: br\r\n"},
		{"if-range", "GET", js, "Range: bytes=0-9\r\nIf-Range: " + etags[0] + "\r\n"},
		{"image", "GET", "/" + d.Image, "Accept-Encoding: br, gzip\r\n"},
		{"hashed html", "GET", html, "Accept-Encoding: br\r\n"},
		{"old html", "GET", "/" + d.OldHTML, "Accept-Encoding: gzip\r\n"},
		{"alias", "GET", "/counter.html", "Accept-Encoding: br\r\n"},
		{"manifest", "GET", "/manifest.json", "Accept-Encoding: gzip, br\r\n"},
		{"manifest HEAD", "HEAD", "/manifest.json", ""},
		{"query string", "GET", js + "?v=1", "Accept-Encoding: br\r\n"},
		{"healthz", "GET", "/healthz", ""},
		{"404", "GET", "/assets/nope-ABCDEF12.js", "Accept-Encoding: br\r\n"},
		{"root", "GET", "/", ""},
		{"traversal", "GET", "/assets/../manifest.json", ""},
		{"encoded slash", "GET", "/assets%2fx.js", ""},
		{"dot segment", "GET", "/./manifest.json", ""},
		{"sidecar", "GET", js + ".br", ""},
		{"preflight", "OPTIONS", js, "Origin: null\r\nAccess-Control-Request-Method: GET\r\nAccess-Control-Request-Headers: range\r\n"},
		{"POST", "POST", js, "Content-Length: 3\r\n\r\nabc"},
		{"PUT unknown", "PUT", "/nope", "Content-Length: 0\r\n"},
		{"Connection keep-alive", "GET", js, "Connection: keep-alive\r\nAccept-Encoding: br\r\n"},
		{"user agent", "GET", js, "User-Agent: curl/8\r\nAccept: */*\r\nAccept-Encoding: gzip\r\n"},
	}
}

// observed returns Options with limits, an Observer and a Fallback that
// wraps h without changing what it sends, as widgetd serve configures the
// engine (access log and metrics on), and counters of what each saw.
func observed(h http.Handler) (opts Options, hits, fallbacks *atomic.Int64) {
	hits, fallbacks = new(atomic.Int64), new(atomic.Int64)
	opts = limits
	opts.Observer = func(Hit) { hits.Add(1) }
	opts.Fallback = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		fallbacks.Add(1)
		h.ServeHTTP(w, r)
	})
	return opts, hits, fallbacks
}

// observedEngine is the engine serving a generated dist's registry on
// loopback as widgetd serve configures it (observed), with its counters.
type observedEngine struct {
	d               *assetstest.Dist
	h               http.Handler
	addr            string
	srv             *Server
	hits, fallbacks *atomic.Int64
}

// startObserved generates a dist and serves its registry with observed
// options until the end of the test.
func startObserved(t *testing.T) *observedEngine {
	t.Helper()
	e := &observedEngine{d: assetstest.New(t, assetstest.Options{})}
	e.h = registryHandler(t, e.d)
	var opts Options
	opts, e.hits, e.fallbacks = observed(e.h)
	e.addr, e.srv = start(t, e.h, opts)
	return e
}

// awaitHits waits, for at most 5 s, until hits counts want: the Observer
// runs after the response is written, so the client may read it first.
func awaitHits(hits *atomic.Int64, want int64) {
	for deadline := time.Now().Add(5 * time.Second); hits.Load() < want && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
}

// sendRequest dials addr and writes one request for target with a Host
// field and the raw header lines hdr (which may carry a blank line and a
// body), for a test to read the answer from the returned connection within
// 10 seconds.
func sendRequest(t *testing.T, addr, method, target, hdr string) net.Conn {
	t.Helper()
	c := servetest.Dial(t, addr, 10*time.Second)
	raw := method + " " + target + " HTTP/1.1\r\nHost: origin.test\r\n" + hdr
	if !strings.Contains(hdr, "\r\n\r\n") {
		raw += "\r\n"
	}
	if _, err := io.WriteString(c, raw); err != nil {
		t.Fatal(err)
	}
	return c
}

// TestMatchesNetHTTP sends the behaviour table to the engine and to
// net/http running the same handler, each request three times on a fresh
// connection (the first fills the cache, the next are served from it), and
// requires identical status, headers (but Date) and body.
func TestMatchesNetHTTP(t *testing.T) {
	e := startObserved(t)
	d, fast, hits, fallbacks := e.d, e.addr, e.hits, e.fallbacks
	ref := startNetHTTP(t, e.h, limits)
	roundTrip := func(addr, method, target, hdr string) wireResponse {
		t.Helper()
		c := sendRequest(t, addr, method, target, hdr)
		defer c.Close()
		return readWire(t, bufio.NewReader(c), method)
	}
	for _, tc := range fastCases(d) {
		t.Run(tc.name, func(t *testing.T) {
			want := roundTrip(ref, tc.method, tc.target, tc.hdr)
			for i := range 3 {
				got := roundTrip(fast, tc.method, tc.target, tc.hdr)
				if got.String() != want.String() || !bytes.Equal(got.body, want.body) {
					t.Fatalf("request #%d: fast engine answered\n%s\nnet/http answered\n%s", i, got, want)
				}
			}
		})
	}
	// Both paths took part: the table has fast-path hits and requests only
	// net/http may answer.
	if hits.Load() == 0 || fallbacks.Load() == 0 {
		t.Errorf("fast-path hits %d, fallback requests %d: want both", hits.Load(), fallbacks.Load())
	}
}

// TestPipelining writes many requests in one go, some for the fast path and
// some that hand the connection to net/http mid-way, and checks every
// response arrives in order and complete.
func TestPipelining(t *testing.T) {
	e := startObserved(t)
	fast := e.addr
	ref := startNetHTTP(t, e.h, limits)
	cases := fastCases(e.d)
	// Fast-path requests first (several rounds), then the rest.
	var order []int
	for round := 0; round < 3; round++ {
		for i, tc := range cases {
			if tc.method == "GET" && !strings.Contains(tc.hdr, "If-") && !strings.Contains(tc.hdr, "Range") && !strings.Contains(tc.target, "?") {
				order = append(order, i)
			}
		}
	}
	for i, tc := range cases {
		if tc.method != "POST" && tc.method != "PUT" { // bodies end pipelines in net/http too
			order = append(order, i)
		}
	}
	send := func(addr string) []wireResponse {
		c := servetest.Dial(t, addr, 20*time.Second)
		var all bytes.Buffer
		for _, i := range order {
			tc := cases[i]
			all.WriteString(tc.method + " " + tc.target + " HTTP/1.1\r\nHost: origin.test\r\n" + tc.hdr + "\r\n")
		}
		go c.Write(all.Bytes())
		r := bufio.NewReader(c)
		var out []wireResponse
		for _, i := range order {
			out = append(out, readWire(t, r, cases[i].method))
		}
		return out
	}
	want := send(ref)
	got := send(fast)
	for k, i := range order {
		if got[k].String() != want[k].String() || !bytes.Equal(got[k].body, want[k].body) {
			t.Fatalf("pipelined response %d (%s): fast engine answered\n%s\nnet/http answered\n%s", k, cases[i].name, got[k], want[k])
		}
	}
}

// TestIdleTimeout: an idle keep-alive connection is closed after
// IdleTimeout: not before 15/16 of it (the engine moves the deadline in
// sixteenths), and within ten times it, generous for a loaded machine.
func TestIdleTimeout(t *testing.T) {
	d := assetstest.New(t, assetstest.Options{})
	opts := limits
	opts.IdleTimeout = 400 * time.Millisecond
	addr, _ := start(t, registryHandler(t, d), opts)
	c := servetest.Dial(t, addr, 10*time.Second)
	// Timed from before the request: the idle deadline starts after the
	// response is written, so later than this.
	start := time.Now()
	fmt.Fprintf(c, "GET /%s HTTP/1.1\r\nHost: x\r\nAccept-Encoding: br\r\n\r\n", d.Asset)
	r := bufio.NewReader(c)
	if resp := readWire(t, r, "GET"); resp.status != 200 {
		t.Fatalf("status %d", resp.status)
	}
	_, err := r.ReadByte()
	if err == nil {
		t.Fatal("server sent bytes on an idle connection")
	}
	if took := time.Since(start); took < opts.IdleTimeout*15/16 || took > 10*opts.IdleTimeout || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("idle connection ended %s after the request (%v), want closed by the server between %s and %s", took, err, opts.IdleTimeout*15/16, 10*opts.IdleTimeout)
	}
}

// TestShutdown: Shutdown closes idle connections, answers every
// request a connection has already received (pipelined, not yet read by the
// client), closes it cleanly, then returns.
func TestShutdown(t *testing.T) {
	dir := t.TempDir()
	d, err := assetstest.Write(dir, assetstest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	addr, srv := start(t, registryHandler(t, d), limits)
	idle := servetest.Dial(t, addr, 0)
	fmt.Fprintf(idle, "GET /manifest.json HTTP/1.1\r\nHost: x\r\n\r\n")
	ir := bufio.NewReader(idle)
	readWire(t, ir, "GET")

	// A client that pipelines requests (all in the server's read buffer)
	// and does not read them yet.
	busy := servetest.Dial(t, addr, 0)
	const n = 80
	req := "GET /manifest.json HTTP/1.1\r\nHost: x\r\n\r\n"
	if n*len(req) > readBufferSize {
		t.Fatalf("%d requests do not fit the read buffer", n)
	}
	if _, err := io.WriteString(busy, strings.Repeat(req, n)); err != nil {
		t.Fatal(err)
	}
	// The first answer on busy shows the server has read the requests
	// (one write, one segment on loopback) before Shutdown begins.
	br := bufio.NewReader(busy)
	_ = busy.SetReadDeadline(time.Now().Add(20 * time.Second))
	if _, err := br.Peek(1); err != nil {
		t.Fatalf("no answer to the pipelined requests: %v", err)
	}
	done := make(chan error, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		done <- srv.Shutdown(ctx)
	}()
	_ = idle.SetReadDeadline(time.Now().Add(10 * time.Second))
	if _, err := ir.ReadByte(); err == nil {
		t.Error("idle connection got bytes after Shutdown")
	}
	for i := range n {
		resp, err := http.ReadResponse(br, nil)
		if err != nil {
			t.Fatalf("response %d of %d after Shutdown began: %v", i, n, err)
		}
		if _, err := io.Copy(io.Discard, resp.Body); err != nil || resp.StatusCode != 200 {
			t.Fatalf("response %d: status %d, body error %v", i, resp.StatusCode, err)
		}
		resp.Body.Close()
	}
	if _, err := br.ReadByte(); err != io.EOF {
		t.Errorf("after the last response: %v, want EOF", err)
	}
	if err := <-done; err != nil {
		t.Errorf("Shutdown: %v", err)
	}
	if _, err := net.DialTimeout("tcp", addr, time.Second); err == nil {
		t.Error("still accepting after Shutdown")
	}
}

// FuzzParseHead: whatever the fast path accepts, net/http must parse the
// same way — same method, target and Accept-Encoding, exactly one Host, no
// header that changes the response or the framing.
func FuzzParseHead(f *testing.F) {
	for _, s := range []string{
		"GET /assets/a-X.js HTTP/1.1\r\nHost: x\r\nAccept-Encoding: br\r\n\r\n",
		"HEAD /m.json HTTP/1.1\r\nHost: 127.0.0.1:80\r\n\r\n",
		"GET / HTTP/1.1\r\nHost: x\r\nConnection: keep-alive\r\nUser-Agent: wrk\r\n\r\n",
		"GET /a HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n",
		"GET /a HTTP/1.1\r\nHost: x\r\n Folded: y\r\n\r\n",
		"GET /a HTTP/1.1\r\nHost: x\r\nX : y\r\n\r\n",
		"GET /a HTTP/1.0\r\n\r\n",
		"GET /a HTTP/1.1\nHost: x\n\n",
		"GET /a HTTP/1.1\r\nHost: x\r\nAccept-Encoding:\tgzip \t\r\n\r\n",
		"GET /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n",
		"GET /a HTTP/1.1\r\nHost: x\r\nX: \x00\r\n\r\n",
		"GET /a HTTP/1.1\r\nHost: x\r\nX: \x80\xff\r\n\r\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, head []byte) {
		if !bytes.HasSuffix(head, []byte("\r\n\r\n")) || bytes.Count(head, []byte("\r\n\r\n")) != 1 {
			return
		}
		q, ok := parseHead(head)
		if !ok {
			return
		}
		req, err := http.ReadRequest(bufio.NewReader(bytes.NewReader(head)))
		if err != nil {
			t.Fatalf("fast path accepted %q, net/http rejects it: %v", head, err)
		}
		if req.Method != q.method() || req.RequestURI != string(q.target) || req.ProtoMinor != 1 {
			t.Fatalf("%q: fast %s %s, net/http %s %s", head, q.method(), q.target, req.Method, req.RequestURI)
		}
		if ae, ok := req.Header["Accept-Encoding"]; ok != q.hasAE || ok && (len(ae) != 1 || ae[0] != string(q.ae)) {
			t.Fatalf("%q: fast Accept-Encoding %v %q, net/http %q", head, q.hasAE, q.ae, ae)
		}
		for k := range req.Header {
			if strings.HasPrefix(k, "If-") || k == "Range" || k == "Content-Length" || k == "Transfer-Encoding" || k == "Expect" {
				t.Fatalf("%q: fast path accepted a request with %s", head, k)
			}
		}
		if req.Close || req.ContentLength > 0 || len(req.Header["Host"]) > 0 {
			t.Fatalf("%q: net/http sees close=%v length=%d extra Host %q", head, req.Close, req.ContentLength, req.Header["Host"])
		}
	})
}

// TestWriteTimeout: a client that stops reading a large body is
// cut after WriteTimeout (on the sendfile path), and the connection is
// released.
func TestWriteTimeout(t *testing.T) {
	body := bytes.Repeat([]byte("0123456789abcdef"), 16<<20/16) // 16 MiB: more than loopback socket buffers take at once
	big := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Etag", `"big"`)
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
		h.Set("Content-Length", fmt.Sprint(len(body)))
		w.WriteHeader(200)
		if r.Method != "HEAD" {
			w.Write(body)
		}
	})
	opts := limits
	opts.WriteTimeout = 300 * time.Millisecond
	addr, srv := start(t, big, opts)

	c := servetest.Dial(t, addr, 0)
	_ = c.(*net.TCPConn).SetReadBuffer(16 << 10)
	fmt.Fprintf(c, "GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
	deadline := time.Now().Add(10 * time.Second)
	for seen := false; ; {
		srv.mu.Lock()
		n := len(srv.conns)
		srv.mu.Unlock()
		seen = seen || n > 0
		if seen && n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("connection still open 10s after the client stopped reading (WriteTimeout %s; accepted: %v)", opts.WriteTimeout, seen)
		}
		time.Sleep(20 * time.Millisecond)
	}
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	got, _ := io.Copy(io.Discard, c)
	if got >= int64(len(body)) {
		t.Errorf("client got %d bytes, want the response cut short", got)
	}

	// A client that reads gets the whole body, from sendfile: from a server
	// with widgetd serve's WriteTimeout, since on a loaded machine reading
	// 16 MiB can take longer than the 300 ms above.
	addr, _ = start(t, big, limits)
	c2 := servetest.Dial(t, addr, 20*time.Second)
	fmt.Fprintf(c2, "GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
	resp := readWire(t, bufio.NewReader(c2), "GET")
	if resp.status != 200 || !bytes.Equal(resp.body, body) {
		t.Errorf("full read: %s", resp)
	}
}

// TestHandOff: a request the fast path does not take goes, with the bytes
// already read, to Fallback, which then serves the rest of the connection —
// plain hits included — while hits before it were the fast path's. A head
// longer than the fast path's buffer but under MaxHeaderBytes is served by
// net/http too.
func TestHandOff(t *testing.T) {
	e := startObserved(t)
	d, addr, hits, fallbacks := e.d, e.addr, e.hits, e.fallbacks
	hit := "GET /" + d.Asset + " HTTP/1.1\r\nHost: x\r\nAccept-Encoding: br\r\n\r\n"
	steps := []struct {
		name, req         string
		hits, fallbacks   int64
		status            int
		wantEncodingEmpty bool
	}{
		{"hit", hit, 1, 0, 200, false},
		{"hit again", hit, 2, 0, 200, false},
		{"query string", "GET /" + d.Asset + "?v=1 HTTP/1.1\r\nHost: x\r\n\r\n", 2, 1, 200, true},
		{"hit after hand-off", hit, 2, 2, 200, false},
		{"404 after hand-off", "GET /nope HTTP/1.1\r\nHost: x\r\n\r\n", 2, 3, 404, true},
	}
	c := servetest.Dial(t, addr, 10*time.Second)
	r := bufio.NewReader(c)
	for _, st := range steps {
		if _, err := io.WriteString(c, st.req); err != nil {
			t.Fatalf("%s: %v", st.name, err)
		}
		resp := readWire(t, r, "GET")
		if resp.status != st.status || (resp.header.Get("Content-Encoding") == "") != st.wantEncodingEmpty {
			t.Errorf("%s: %s", st.name, resp)
		}
		awaitHits(hits, st.hits)
		if hits.Load() != st.hits || fallbacks.Load() != st.fallbacks {
			t.Errorf("%s: fast-path hits %d, fallback requests %d; want %d, %d", st.name, hits.Load(), fallbacks.Load(), st.hits, st.fallbacks)
		}
	}

	// A 6 KiB head does not fit the fast path's buffer.
	long := "GET /" + d.Asset + " HTTP/1.1\r\nHost: x\r\nX-Pad: " + strings.Repeat("a", 6<<10) + "\r\n\r\n"
	c2 := servetest.Dial(t, addr, 10*time.Second)
	before := fallbacks.Load()
	if _, err := io.WriteString(c2, long); err != nil {
		t.Fatal(err)
	}
	if resp := readWire(t, bufio.NewReader(c2), "GET"); resp.status != 200 || fallbacks.Load() != before+1 {
		t.Errorf("6 KiB head: %s; fallback requests %d, want %d", resp, fallbacks.Load(), before+1)
	}
}

// TestObserver: every fast-path response is reported once with what was
// sent; requests net/http answers are not.
func TestObserver(t *testing.T) {
	d := assetstest.New(t, assetstest.Options{})
	h := registryHandler(t, d)
	type seen struct {
		method, target, ua, remote, encoding string
		status                               int
		bytes                                int64
		positive                             bool
	}
	var mu sync.Mutex
	var got []seen
	opts := limits
	opts.Observer = func(h Hit) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, seen{h.Method, string(h.Target), string(h.UserAgent), h.Remote.String(), h.Encoding, h.Status, h.Bytes, h.Duration > 0})
	}
	addr, _ := start(t, h, opts)
	c := servetest.Dial(t, addr, 10*time.Second)
	r := bufio.NewReader(c)
	var want []seen
	for _, tc := range []struct {
		method, target, ae, ua string
		fast                   bool
	}{
		{"GET", "/" + d.Asset, "br", "probe/1", true},
		{"GET", "/" + d.Asset, "", "", true},
		{"HEAD", "/" + d.Asset, "gzip", "", true},
		{"GET", "/manifest.json", "gzip", "curl/8", true},
		{"GET", "/healthz", "", "", false}, // no-store: net/http, not reported
	} {
		hdr := ""
		if tc.ae != "" {
			hdr += "Accept-Encoding: " + tc.ae + "\r\n"
		}
		if tc.ua != "" {
			hdr += "User-Agent: " + tc.ua + "\r\n"
		}
		fmt.Fprintf(c, "%s %s HTTP/1.1\r\nHost: x\r\n%s\r\n", tc.method, tc.target, hdr)
		resp := readWire(t, r, tc.method)
		if tc.fast {
			want = append(want, seen{tc.method, tc.target, tc.ua, c.LocalAddr().String(),
				resp.header.Get("Content-Encoding"), resp.status, int64(len(resp.body)), true})
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("observed\n%+v\nwant\n%+v", got, want)
	}
}

// TestZeroOptions: the limits mean what they mean for http.Server. Zero
// Options set no timeout (a connection idle for a while is still served),
// and ReadTimeout alone also bounds the wait between requests.
func TestZeroOptions(t *testing.T) {
	d := assetstest.New(t, assetstest.Options{})
	h := registryHandler(t, d)
	req := "GET /" + d.Asset + " HTTP/1.1\r\nHost: x\r\nAccept-Encoding: br\r\n\r\n"

	addr, _ := start(t, h, Options{})
	c := servetest.Dial(t, addr, 10*time.Second)
	r := bufio.NewReader(c)
	for i := range 2 {
		time.Sleep(300 * time.Millisecond) // before the first request, then idle
		io.WriteString(c, req)
		if resp := readWire(t, r, "GET"); resp.status != 200 {
			t.Fatalf("request %d after 300ms without timeouts: %s", i, resp)
		}
	}

	// ReadTimeout also bounds the first request from accept: 1s leaves a
	// loaded machine time to write it after the dial.
	addr, _ = start(t, h, Options{ReadTimeout: time.Second})
	c2 := servetest.Dial(t, addr, 10*time.Second)
	io.WriteString(c2, req)
	r2 := bufio.NewReader(c2)
	if resp := readWire(t, r2, "GET"); resp.status != 200 {
		t.Fatalf("status %d", resp.status)
	}
	if _, err := r2.ReadByte(); err == nil || errors.Is(err, os.ErrDeadlineExceeded) {
		t.Errorf("idle connection with ReadTimeout 1s: %v, want it closed by the server", err)
	}
}

// staticHandler serves body with the headers that make it memoisable.
func staticHandler(body []byte) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Etag", `"static"`)
		h.Set("Cache-Control", "public, max-age=31536000, immutable")
		h.Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(http.StatusOK) // the recorder memoises an explicit 200 only
		if r.Method != http.MethodHead {
			w.Write(body)
		}
	})
}

// hitClient sends one fixed request at a time on a keep-alive connection
// and reads the response by its known size, allocating nothing itself.
type hitClient struct {
	c    net.Conn
	req  []byte
	resp []byte
}

func newHitClient(tb testing.TB, addr, method string) *hitClient {
	tb.Helper()
	c := servetest.Dial(tb, addr, 0)
	hc := &hitClient{c: c, req: []byte(method + " /static HTTP/1.1\r\nHost: x\r\nAccept-Encoding: br\r\n\r\n")}
	// The first response fills the cache and tells its size (Date has a
	// fixed length).
	c.Write(hc.req)
	var raw bytes.Buffer
	resp, err := http.ReadResponse(bufio.NewReader(io.TeeReader(c, &raw)), &http.Request{Method: method})
	if err != nil {
		tb.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	if resp.StatusCode != 200 || raw.Len() == 0 {
		tb.Fatalf("first response: %d", resp.StatusCode)
	}
	hc.resp = make([]byte, raw.Len())
	return hc
}

func (hc *hitClient) do() error {
	if _, err := hc.c.Write(hc.req); err != nil {
		return err
	}
	_, err := io.ReadFull(hc.c, hc.resp)
	return err
}

// hitCases are the three output paths of a hit: writev of a small body,
// sendfile of a large one (on Linux), and HEAD.
var hitCases = []struct {
	name, method string
	size         int
}{
	{"writev 2KiB", "GET", 2 << 10},
	{"sendfile 60KiB", "GET", 60 << 10},
	{"HEAD", "HEAD", 60 << 10},
}

// TestHitAllocs: a fast-path hit, with an Observer, allocates nothing — on
// the server or in this client — once its response is memoised.
func TestHitAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates; run without -race")
	}
	for _, tc := range hitCases {
		t.Run(tc.name, func(t *testing.T) {
			var n atomic.Int64
			opts := limits
			opts.Observer = func(h Hit) { n.Add(h.Bytes) }
			addr, _ := start(t, staticHandler(bytes.Repeat([]byte("x"), tc.size)), opts)
			hc := newHitClient(t, addr, tc.method)
			assertNoAllocsPerHit(t, hc)
		})
	}
}

// assertNoAllocsPerHit fails t when a hit by hc allocates or fails.
func assertNoAllocsPerHit(t *testing.T, hc *hitClient) {
	t.Helper()
	var err error
	allocs := testing.AllocsPerRun(1000, func() {
		if e := hc.do(); e != nil {
			err = e
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if allocs != 0 {
		t.Errorf("%v allocations per hit, want 0", allocs)
	}
}

// BenchmarkHit measures one fast-path hit on a loopback keep-alive
// connection, client included: round-trip latency, not server throughput
// (bench/origin measures that against nginx).
func BenchmarkHit(b *testing.B) {
	for _, tc := range hitCases {
		b.Run(tc.name, func(b *testing.B) {
			srv := New(staticHandler(bytes.Repeat([]byte("x"), tc.size)), Options{Logger: quiet})
			hc := newHitClient(b, servetest.Serve(b, srv, nil), tc.method)
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
