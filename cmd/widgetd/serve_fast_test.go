package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/assets/assetstest"
)

// startEngine runs widgetd serve's origin server (newOriginServer) with the
// given engine and limits on loopback, access log and metrics on.
func startEngine(t *testing.T, d *assetstest.Dist, engine string, lim serverLimits) (addr string, srv originServer) {
	t.Helper()
	logger := slog.New(slog.NewJSONHandler(io.Discard, nil))
	reg, err := assets.Load(os.DirFS(d.Dir), assets.WithLogger(logger))
	if err != nil {
		t.Fatal(err)
	}
	cfg := serveConfig{dir: d.Dir, basePath: "/", accessLog: true, metrics: true, engine: engine}
	srv = newOriginServer(context.Background(), reg, cfg, logger, lim)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	return ln.Addr().String(), srv
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

// fastCases are raw requests covering the handler's behaviour table: every
// one must be answered identically by both engines, the first time (the fast
// path fills its cache) and the second (served from the cache).
func fastCases(d *assetstest.Dist) []struct{ name, method, target, hdr string } {
	js := "/" + d.Asset
	html := "/" + d.Manifest.Widgets[1].HTML
	var etags []string
	for _, f := range d.Manifest.Files {
		if "/"+f.Path == js {
			etags = []string{`"` + f.SHA256[:16] + `"`, `"` + f.SHA256[:16] + `-br"`, `"` + f.SHA256[:16] + `-gz"`}
		}
	}
	return []struct{ name, method, target, hdr string }{
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

// TestFastEngineMatchesNetHTTP sends the behaviour table to the fast engine
// and to net/http running the same handler, each request twice on a fresh
// connection, and requires identical status, headers (but Date) and body.
func TestFastEngineMatchesNetHTTP(t *testing.T) {
	d := assetstest.New(t, assetstest.Options{})
	fast, _ := startEngine(t, d, "fast", defaultServerLimits())
	ref, _ := startEngine(t, d, "net/http", defaultServerLimits())
	roundTrip := func(addr, method, target, hdr string) wireResponse {
		t.Helper()
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		_ = c.SetDeadline(time.Now().Add(10 * time.Second))
		raw := method + " " + target + " HTTP/1.1\r\nHost: origin.test\r\n" + hdr
		if !strings.Contains(hdr, "\r\n\r\n") {
			raw += "\r\n"
		}
		if _, err := io.WriteString(c, raw); err != nil {
			t.Fatal(err)
		}
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
}

// TestFastEnginePipelining writes many requests in one go, some for the fast
// path and some that hand the connection to net/http mid-way, and checks
// every response arrives in order and complete.
func TestFastEnginePipelining(t *testing.T) {
	d := assetstest.New(t, assetstest.Options{})
	fast, _ := startEngine(t, d, "fast", defaultServerLimits())
	ref, _ := startEngine(t, d, "net/http", defaultServerLimits())
	cases := fastCases(d)
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
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		_ = c.SetDeadline(time.Now().Add(20 * time.Second))
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

// TestFastEngineTimeouts: an idle keep-alive connection is closed after
// IdleTimeout, and a write that the client never reads is cut after
// WriteTimeout.
func TestFastEngineTimeouts(t *testing.T) {
	d := assetstest.New(t, assetstest.Options{})
	lim := defaultServerLimits()
	lim.idle = 400 * time.Millisecond
	addr, _ := startEngine(t, d, "fast", lim)
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprintf(c, "GET /%s HTTP/1.1\r\nHost: x\r\nAccept-Encoding: br\r\n\r\n", d.Asset)
	r := bufio.NewReader(c)
	if resp := readWire(t, r, "GET"); resp.status != 200 {
		t.Fatalf("status %d", resp.status)
	}
	start := time.Now()
	if _, err := r.ReadByte(); err == nil {
		t.Fatal("server sent bytes on an idle connection")
	}
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("idle connection closed after %s, want about %s", took, lim.idle)
	}
}

// TestFastEngineShutdown: Shutdown closes idle connections, answers every
// request a connection has already received (pipelined, not yet read by the
// client), closes it cleanly, then returns.
func TestFastEngineShutdown(t *testing.T) {
	dir := t.TempDir()
	d, err := assetstest.Write(dir, assetstest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	addr, srv := startEngine(t, d, "fast", defaultServerLimits())
	idle, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer idle.Close()
	fmt.Fprintf(idle, "GET /manifest.json HTTP/1.1\r\nHost: x\r\n\r\n")
	ir := bufio.NewReader(idle)
	readWire(t, ir, "GET")

	// A client that pipelines requests (all in the server's read buffer)
	// and does not read them yet.
	busy, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	const n = 80
	req := "GET /manifest.json HTTP/1.1\r\nHost: x\r\n\r\n"
	if n*len(req) > fastReadBuffer {
		t.Fatalf("%d requests do not fit the read buffer", n)
	}
	if _, err := io.WriteString(busy, strings.Repeat(req, n)); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond)
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
	br := bufio.NewReader(busy)
	_ = busy.SetReadDeadline(time.Now().Add(20 * time.Second))
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

// FuzzParseFastHead: whatever the fast path accepts, net/http must parse the
// same way — same method, target and Accept-Encoding, exactly one Host, no
// header that changes the response or the framing.
func FuzzParseFastHead(f *testing.F) {
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
		q, ok := parseFastHead(head)
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

// TestServeEngineFlag: --engine picks the server; anything else is a usage
// error. Both engines serve the same asset through runServe.
func TestServeEngineFlag(t *testing.T) {
	d := assetstest.New(t, assetstest.Options{})
	var out, errb bytes.Buffer
	if code := runServe(context.Background(), []string{"--dir", d.Dir, "--engine", "nginx"}, &out, &errb); code != exitUsage {
		t.Errorf("--engine nginx: exit %d, want %d; stderr %s", code, exitUsage, errb.String())
	}
	for _, engine := range []string{"fast", "net/http"} {
		ctx, cancel := context.WithCancel(context.Background())
		pr, pw := io.Pipe()
		done := make(chan int, 1)
		go func() {
			done <- runServe(ctx, []string{"--dir", d.Dir, "--addr", "127.0.0.1:0", "--access-log=false", "--engine", engine}, pw, io.Discard)
			pw.Close()
		}()
		line, err := bufio.NewReader(pr).ReadString('\n')
		if err != nil {
			t.Fatalf("%s: no startup line: %v", engine, err)
		}
		go io.Copy(io.Discard, pr)
		addr := line[strings.Index(line, "http://")+len("http://"):]
		addr = addr[:strings.IndexByte(addr, '/')]
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(c, "GET /%s HTTP/1.1\r\nHost: x\r\nAccept-Encoding: br\r\n\r\n", d.Asset)
		resp := readWire(t, bufio.NewReader(c), "GET")
		c.Close()
		if resp.status != 200 || resp.header.Get("Content-Encoding") != "br" {
			t.Errorf("%s: %s", engine, resp)
		}
		cancel()
		if code := <-done; code != exitOK {
			t.Errorf("%s: exit %d", engine, code)
		}
	}
}

// TestFastEngineWriteTimeout: a client that stops reading a large body is
// cut after WriteTimeout (on the sendfile path), and the connection is
// released.
func TestFastEngineWriteTimeout(t *testing.T) {
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
	lim := defaultServerLimits()
	lim.write = 300 * time.Millisecond
	srv := newFastServer(context.Background(), big, nil, big, slog.New(slog.NewJSONHandler(io.Discard, nil)), lim)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	defer srv.Close()

	c, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
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
			t.Fatalf("connection still open 10s after the client stopped reading (WriteTimeout %s; accepted: %v)", lim.write, seen)
		}
		time.Sleep(20 * time.Millisecond)
	}
	_ = c.SetReadDeadline(time.Now().Add(10 * time.Second))
	got, _ := io.Copy(io.Discard, c)
	if got >= int64(len(body)) {
		t.Errorf("client got %d bytes, want the response cut short", got)
	}

	// A client that reads gets the whole body, from sendfile.
	c2, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	_ = c2.SetDeadline(time.Now().Add(10 * time.Second))
	fmt.Fprintf(c2, "GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
	resp := readWire(t, bufio.NewReader(c2), "GET")
	if resp.status != 200 || !bytes.Equal(resp.body, body) {
		t.Errorf("full read: %s", resp)
	}
}
