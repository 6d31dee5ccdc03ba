package origin

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/assets/assetstest"
	"github.com/widgetd/widgetd/internal/daemontest"
	"github.com/widgetd/widgetd/origin/internal/servetest"
)

// originRequest is one request as the origin saw it, with its answer.
type originRequest struct {
	method, path, acceptEncoding, ifNoneMatch string
	status                                    int
}

// recordingOrigin runs widgetd serve's origin on a loopback listener and
// records every request that reaches it, so tests can count what a proxy
// forwards. With engine "net/http" it wraps the serve handler and sees
// If-None-Match; with the fast engine (what serve runs by default) it reads
// the access log, which both the fast path and the fallback write.
type recordingOrigin struct {
	url      string
	seesINM  bool
	mu       sync.Mutex
	log      []originRequest
	inflight sync.WaitGroup
}

func startRecordingOrigin(t *testing.T, dist, engine string) *recordingOrigin {
	t.Helper()
	o := &recordingOrigin{seesINM: engine == "net/http"}
	quiet := slog.New(slog.NewJSONHandler(io.Discard, nil))
	reg := assetstest.LoadDir(t, dist)
	opts := Options{Registry: reg, AccessLog: true, Metrics: true, Engine: Engine(engine)}
	var srv originServer
	if engine == "net/http" {
		h := newServeHandler(reg, opts, quiet)
		rec := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			o.inflight.Add(1)
			defer o.inflight.Done()
			sw := &statusWriter{ResponseWriter: w, status: http.StatusOK}
			h.ServeHTTP(sw, r)
			o.mu.Lock()
			o.log = append(o.log, originRequest{r.Method, r.URL.Path, r.Header.Get("Accept-Encoding"), r.Header.Get("If-None-Match"), sw.status})
			o.mu.Unlock()
		})
		srv = newHTTPServer(context.Background(), rec, quiet, defaultServerLimits())
	} else {
		srv = newOriginServer(context.Background(), opts, slog.New(&accessLogRecorder{o: o}), defaultServerLimits())
	}
	o.url = "http://" + servetest.Serve(t, srv, nil)
	return o
}

// accessLogRecorder is a slog.Handler that appends serve's access-log
// records to a recordingOrigin.
type accessLogRecorder struct{ o *recordingOrigin }

func (h *accessLogRecorder) Enabled(context.Context, slog.Level) bool { return true }
func (h *accessLogRecorder) WithAttrs([]slog.Attr) slog.Handler       { return h }
func (h *accessLogRecorder) WithGroup(string) slog.Handler            { return h }
func (h *accessLogRecorder) Handle(_ context.Context, r slog.Record) error {
	if r.Message != "request" {
		return nil
	}
	var q originRequest
	r.Attrs(func(a slog.Attr) bool {
		switch a.Key {
		case "method":
			q.method = a.Value.String()
		case "path":
			q.path = a.Value.String()
		case "status":
			q.status = int(a.Value.Int64())
		}
		return true
	})
	h.o.mu.Lock()
	h.o.log = append(h.o.log, q)
	h.o.mu.Unlock()
	return nil
}

// requests returns a copy of the log once no request is in flight (a proxy
// may finish answering its client before the origin handler returns).
func (o *recordingOrigin) requests() []originRequest {
	o.inflight.Wait()
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]originRequest(nil), o.log...)
}

// requestsAtLeast is requests once the log holds n of them, or after 10 s
// (the caller then reports the shortfall): the fast engine writes its
// access-log record, which this origin records, just after the answer, so
// the proxy can pass the answer on before the record exists.
func (o *recordingOrigin) requestsAtLeast(n int) []originRequest {
	deadline := time.Now().Add(10 * time.Second)
	for {
		r := o.requests()
		if len(r) >= n || time.Now().After(deadline) {
			return r
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// varnishVCL is a CDN-style config: Accept-Encoding normalised to br, gzip or
// nothing (so Vary splits the cache into at most three variants), hashed
// assets cached by their Cache-Control, and no-cache files stored with ttl 0
// and a keep window so every request revalidates with If-None-Match instead
// of refetching the body (the builtin VCL would not store them at all). The
// ttl is 1ms, not 0: Varnish's lookup ignores objects with ttl <= 0, so they
// would never be used for revalidation.
const varnishVCL = `vcl 4.1;

backend origin {
    .host = "127.0.0.1";
    .port = "%d";
}

sub vcl_recv {
    if (req.http.Accept-Encoding ~ "(^|[ ,])br([ ,;]|$)") {
        set req.http.Accept-Encoding = "br";
    } elsif (req.http.Accept-Encoding ~ "(^|[ ,])gzip([ ,;]|$)") {
        set req.http.Accept-Encoding = "gzip";
    } else {
        unset req.http.Accept-Encoding;
    }
}

sub vcl_backend_response {
    if (beresp.http.Cache-Control ~ "no-cache") {
        set beresp.ttl = 1ms;
        set beresp.grace = 0s;
        set beresp.keep = 1h;
        return (deliver);
    }
}
`

// startVarnish runs varnishd in the foreground in front of backendPort with
// its working directory, VCL and storage under t.TempDir(). Compression
// support is off so Varnish passes Accept-Encoding through and caches the
// origin's precompressed variants by Vary.
func startVarnish(t *testing.T, backendPort int) string {
	t.Helper()
	bin := daemontest.Lookup(t, "varnishd", "apt-get install -y varnish")
	dir := t.TempDir()
	vcl := filepath.Join(dir, "origin.vcl")
	if err := os.WriteFile(vcl, []byte(fmt.Sprintf(varnishVCL, backendPort)), 0o644); err != nil {
		t.Fatal(err)
	}
	port := daemontest.FreePort(t)
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, bin, "-F", "-j", "none",
		"-n", filepath.Join(dir, "work"), "-f", vcl,
		"-a", fmt.Sprintf("127.0.0.1:%d", port), "-T", "127.0.0.1:0",
		"-s", "malloc,32m", "-l", "16m",
		"-p", "http_gzip_support=off")
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	daemontest.Start(t, cmd, cancel).WaitListening(t, addr, nil)
	return "http://" + addr
}

// proxyClient is a client of the caching proxy with a realistic
// Accept-Encoding; want is the coding the origin must pick for it when the
// file has that variant.
type proxyClient struct {
	name, acceptEncoding, want string
}

var proxyClients = []proxyClient{
	{"br", "gzip, deflate, br, zstd", "br"},
	{"gzip", "gzip, deflate", "gzip"},
	{"identity", "", ""},
}

// TestServeBehindVarnish puts a real Varnish in front of widgetd serve's
// handler and server config and checks that a CDN caches it correctly:
// hashed files are fetched once per encoding and then never again, the
// encodings are not mixed up by the cache (Vary: Accept-Encoding),
// Content-Encoding, Content-Length and ETag survive the proxy, and the
// no-cache files (manifest.json, the /<name>.html alias) are revalidated with
// If-None-Match and get 304 from the origin while clients get full bodies.
func TestServeBehindVarnish(t *testing.T) {
	for _, engine := range []string{"fast", "net/http"} {
		t.Run(strings.ReplaceAll(engine, "/", "-"), func(t *testing.T) { testServeBehindVarnish(t, engine) })
	}
}

func testServeBehindVarnish(t *testing.T, engine string) {
	d := assetstest.New(t, assetstest.Options{})
	origin := startRecordingOrigin(t, d.Dir, engine)
	port, _ := strconv.Atoi(origin.url[strings.LastIndexByte(origin.url, ':')+1:])
	proxy := startVarnish(t, port)

	tr := &http.Transport{DisableCompression: true}
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: tr, Timeout: 10 * time.Second}
	get := func(path, ae, inm string) (*http.Response, []byte) {
		t.Helper()
		req, _ := http.NewRequest("GET", proxy+path, nil)
		if ae != "" {
			req.Header.Set("Accept-Encoding", ae)
		}
		if inm != "" {
			req.Header.Set("If-None-Match", inm)
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatalf("GET %s via varnish: %v", path, err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatalf("GET %s via varnish: body: %v", path, err)
		}
		return resp, body
	}
	// expected returns the bytes and ETag the origin serves for a file under
	// a coding, from the dist on disk and the manifest.
	expected := func(f assets.File, coding string) (body []byte, etag string) {
		t.Helper()
		p := f.Path
		for _, e := range f.Encodings {
			if e.Name == coding {
				p = e.Path
			}
		}
		if p == f.Path {
			coding = ""
		}
		b, err := os.ReadFile(filepath.Join(d.Dir, filepath.FromSlash(p)))
		if err != nil {
			t.Fatal(err)
		}
		etag = `"` + f.SHA256[:16]
		switch coding {
		case "br":
			etag += "-br"
		case "gzip":
			etag += "-gz"
		}
		return b, etag + `"`
	}
	check := func(what string, resp *http.Response, body []byte, f assets.File, cl proxyClient) {
		t.Helper()
		want, etag := expected(f, cl.want)
		enc := cl.want
		if len(f.Encodings) == 0 {
			enc = ""
		}
		if resp.StatusCode != 200 || !bytes.Equal(body, want) ||
			resp.Header.Get("Content-Encoding") != enc ||
			resp.Header.Get("Content-Length") != strconv.Itoa(len(want)) ||
			resp.Header.Get("Etag") != etag ||
			resp.Header.Get("Vary") != "Accept-Encoding" {
			t.Errorf("%s %s (%s client): %d, %d bytes (want %d, same bytes %v), Content-Encoding %q (want %q), Content-Length %q, ETag %q (want %s), Vary %q",
				what, f.Path, cl.name, resp.StatusCode, len(body), len(want), bytes.Equal(body, want),
				resp.Header.Get("Content-Encoding"), enc, resp.Header.Get("Content-Length"), resp.Header.Get("Etag"), etag, resp.Header.Get("Vary"))
		}
	}

	var hashed []assets.File
	for _, f := range d.Manifest.Files {
		if f.Immutable {
			hashed = append(hashed, f)
		}
	}
	if len(hashed) < 4 {
		t.Fatalf("fixture has %d hashed files", len(hashed))
	}

	// Round 1: one request per hashed file per client class: all misses.
	for _, f := range hashed {
		for _, cl := range proxyClients {
			resp, body := get("/"+f.Path, cl.acceptEncoding, "")
			check("miss", resp, body, f, cl)
		}
	}
	first := origin.requestsAtLeast(len(hashed) * len(proxyClients))
	if len(first) != len(hashed)*len(proxyClients) {
		t.Errorf("origin saw %d requests for %d hashed files × %d client classes, want one each: %+v",
			len(first), len(hashed), len(proxyClients), first)
	}
	perFile := map[string]int{}
	for _, r := range first {
		perFile[r.path]++
		if r.status != 200 || origin.seesINM && r.ifNoneMatch != "" {
			t.Errorf("origin request %+v: want an unconditional 200", r)
		}
	}
	for _, f := range hashed {
		if perFile["/"+f.Path] != len(proxyClients) {
			t.Errorf("origin saw %d requests for %s, want %d (one per Accept-Encoding variant)", perFile["/"+f.Path], f.Path, len(proxyClients))
		}
	}

	// Rounds 2-4: every hashed request is a cache hit with the right variant;
	// a client revalidating gets 304 from the proxy itself.
	for range 3 {
		for _, f := range hashed {
			for _, cl := range proxyClients {
				resp, body := get("/"+f.Path, cl.acceptEncoding, "")
				check("hit", resp, body, f, cl)
				if resp.Header.Get("Age") == "" {
					t.Errorf("hit %s (%s): no Age header, not served from cache", f.Path, cl.name)
				}
				_, etag := expected(f, cl.want)
				resp, body = get("/"+f.Path, cl.acceptEncoding, etag)
				if resp.StatusCode != 304 || len(body) != 0 || resp.Header.Get("Etag") != etag {
					t.Errorf("conditional hit %s (%s): %d, %d bytes, ETag %q; want 304 with %s", f.Path, cl.name, resp.StatusCode, len(body), resp.Header.Get("Etag"), etag)
				}
			}
		}
	}
	if after := origin.requests(); len(after) != len(first) {
		t.Errorf("repeated requests for hashed files reached the origin: %+v", after[len(first):])
	}

	// Mutable files: manifest.json and the unhashed alias of a widget's HTML.
	man, err := os.ReadFile(filepath.Join(d.Dir, "manifest.json"))
	if err != nil {
		t.Fatal(err)
	}
	counter := d.Manifest.Widgets[1]
	var counterFile assets.File
	for _, f := range d.Manifest.Files {
		if f.Path == counter.HTML {
			counterFile = f
		}
	}
	mutable := []struct {
		path string
		file assets.File
	}{
		{"/manifest.json", assets.File{Path: "manifest.json", SHA256: sha256hex(man)}},
		{"/" + counter.Name + ".html", counterFile},
	}
	for _, m := range mutable {
		for _, cl := range proxyClients {
			before := len(origin.requests())
			for i := range 3 {
				resp, body := get(m.path, cl.acceptEncoding, "")
				check(fmt.Sprintf("%s request #%d", m.path, i), resp, body, m.file, cl)
				time.Sleep(20 * time.Millisecond) // past the 1ms ttl: the next request revalidates
				if cc := resp.Header.Get("Cache-Control"); cc != "no-cache" {
					t.Errorf("%s: Cache-Control %q through the proxy, want no-cache", m.path, cc)
				}
			}
			seen := origin.requestsAtLeast(before + 3)[before:]
			_, etag := expected(m.file, cl.want)
			if len(seen) != 3 {
				t.Errorf("%s (%s): origin saw %d requests for 3 client requests, want every one revalidated: %+v", m.path, cl.name, len(seen), seen)
				continue
			}
			if seen[0].status != 200 || origin.seesINM && seen[0].ifNoneMatch != "" {
				t.Errorf("%s (%s): first origin request %+v, want an unconditional 200", m.path, cl.name, seen[0])
			}
			// The handler answers 304 only to a matching If-None-Match, so
			// the status alone proves the tag where the INM is not visible.
			for _, r := range seen[1:] {
				if r.status != 304 || origin.seesINM && r.ifNoneMatch != etag {
					t.Errorf("%s (%s): revalidation %+v, want If-None-Match %s answered 304", m.path, cl.name, r, etag)
				}
			}
		}
	}
}

func sha256hex(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}
