package fastserve

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/widgetd/widgetd/assets/assetstest"
	"github.com/widgetd/widgetd/internal/syncbuf"
	"github.com/widgetd/widgetd/origin/internal/servetest"
)

// panicky wraps h with a path whose handler panics, as a buggy handler
// would.
func panicky(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/panic" {
			panic("handler bug")
		}
		h.ServeHTTP(w, r)
	})
}

// exchange is what a client saw on one connection: every response (Date
// removed) and how the connection ended.
type exchange struct {
	responses []string
	end       string // "EOF", "reset", "timeout" or another error
}

func (e exchange) String() string {
	return fmt.Sprintf("%d responses:\n%s\nthen %s", len(e.responses), strings.Join(e.responses, "\n"), e.end)
}

// summary is the statuses and the end, for the abuse table (go test -v).
func (e exchange) summary() string {
	var codes []string
	for _, r := range e.responses {
		codes = append(codes, strings.SplitN(r, "\n", 2)[0])
	}
	if len(codes) == 0 {
		codes = []string{"no response"}
	}
	return strings.Join(codes, ", ") + ", then " + e.end
}

// converse sends raw on a fresh connection (half-closing the client side
// after it unless keepOpen), reads everything the server sends until it
// closes or wait passes, and returns what was seen.
func converse(t *testing.T, addr string, raw []byte, keepOpen bool, wait time.Duration) exchange {
	t.Helper()
	c := servetest.Dial(t, addr, 0)
	if _, err := c.Write(raw); err != nil {
		t.Fatal(err)
	}
	if !keepOpen {
		_ = c.(*net.TCPConn).CloseWrite()
	} else {
		time.Sleep(100 * time.Millisecond) // let the server answer and close first
	}
	_ = c.SetReadDeadline(time.Now().Add(wait))
	all, err := io.ReadAll(c)
	var ex exchange
	switch {
	case err == nil:
		ex.end = "EOF"
	case errors.Is(err, syscall.ECONNRESET):
		ex.end = "reset"
	case errors.Is(err, os.ErrDeadlineExceeded):
		ex.end = "timeout"
	default:
		ex.end = err.Error()
	}
	r := bufio.NewReader(bytes.NewReader(all))
	for {
		resp, err := http.ReadResponse(r, nil)
		if err != nil {
			break
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		resp.Header.Del("Date")
		ex.responses = append(ex.responses, wireResponse{resp.StatusCode, resp.Header, body}.String())
	}
	return ex
}

// abuseCases are requests a hostile or broken client sends. The fast engine
// must answer each exactly as net/http does, with the same end of
// connection.
func abuseCases(d *assetstest.Dist) []struct {
	name     string
	raw      string
	keepOpen bool
} {
	js := "/" + d.Asset
	hit := "GET " + js + " HTTP/1.1\r\nHost: x\r\nAccept-Encoding: br\r\n\r\n"
	return []struct {
		name     string
		raw      string
		keepOpen bool
	}{
		{"bare LF head", "GET " + js + " HTTP/1.1\nHost: x\nAccept-Encoding: br\n\n", false},
		{"bare LF in one field", "GET " + js + " HTTP/1.1\r\nHost: x\nAccept-Encoding: br\r\n\r\n", false},
		{"bare LF after a hit", hit + "GET " + js + " HTTP/1.1\nHost: x\n\n", false},
		{"HTTP/0.9 line", "GET " + js + "\r\n", false},
		{"HTTP/0.9 line and blank line", "GET " + js + "\r\n\r\n", false},
		{"HTTP/1.0", "GET " + js + " HTTP/1.0\r\n\r\n", false},
		{"HTTP/2 preface (h2c prior knowledge)", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", false},
		{"leading blank line", "\r\n" + hit, false},
		{"NUL in a field", "GET " + js + " HTTP/1.1\r\nHost: x\r\nX: a\x00b\r\n\r\n", false},
		{"obs-fold", "GET " + js + " HTTP/1.1\r\nHost: x\r\nX: a\r\n b\r\n\r\n", false},
		{"two Hosts", "GET " + js + " HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n", false},
		{"no Host", "GET " + js + " HTTP/1.1\r\n\r\n", false},
		{"space before colon", "GET " + js + " HTTP/1.1\r\nHost : x\r\n\r\n", false},
		{"CL and TE (smuggling)", "GET " + js + " HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n" + hit, false},
		{"6 KiB head", "GET " + js + " HTTP/1.1\r\nHost: x\r\nX-Pad: " + strings.Repeat("a", 6<<10) + "\r\n\r\n", false},
		{"20 KiB head (431, then FIN: net/http half-closes)", "GET " + js + " HTTP/1.1\r\nHost: x\r\nX-Pad: " + strings.Repeat("a", 20<<10) + "\r\n\r\n", false},
		{"junk Accept-Encoding", "GET " + js + " HTTP/1.1\r\nHost: x\r\nAccept-Encoding: ;;,q=,br;q=2,\xff\r\n\r\n", false},
		{"handler panic", "GET /panic HTTP/1.1\r\nHost: x\r\n\r\n", false},
		{"handler panic after a hit", hit + "GET /panic HTTP/1.1\r\nHost: x\r\n\r\n", false},
		{"binary line", "\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03\r\n\r\n", false},
		// The server closes while the client still has bytes in flight: a
		// half-close (FIN) lets the client read the response, a reset
		// may destroy it.
		{"HTTP/1.0 with trailing bytes", "GET " + js + " HTTP/1.0\r\n\r\n" + strings.Repeat("z", 64<<10), true},
		{"Connection: close with trailing bytes", "GET " + js + " HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n" + strings.Repeat("z", 64<<10), true},
		{"bad request with trailing bytes", "GET " + js + " HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n" + strings.Repeat("z", 64<<10), true},
	}
}

// TestAbuseMatchesNetHTTP sends every abuse case to both engines running
// the same handler (a path of which panics) and requires the same
// responses and the same end of connection.
func TestAbuseMatchesNetHTTP(t *testing.T) {
	d := assetstest.New(t, assetstest.Options{})
	h := panicky(registryHandler(t, d))
	opts := limits
	opts.Logger = quiet
	fast, _ := start(t, h, opts)
	ref := startNetHTTP(t, h, limits)
	for _, tc := range abuseCases(d) {
		t.Run(tc.name, func(t *testing.T) {
			want := converse(t, ref, []byte(tc.raw), tc.keepOpen, 3*time.Second)
			got := converse(t, fast, []byte(tc.raw), tc.keepOpen, 3*time.Second)
			if got.String() != want.String() {
				t.Errorf("fast engine:\n%s\nnet/http:\n%s", got, want)
			}
			t.Logf("| %s | %s | %s |", tc.name, got.summary(), want.summary())
			if want.end == "timeout" {
				t.Errorf("net/http did not close the connection: the case needs a bounded end")
			}
		})
	}
}

// TestHeadDeadlineAcrossHandOff: a head trickled slowly is cut
// ReadHeaderTimeout after it began, even when it is handed to net/http
// mid-way (a slowloris client held a connection about three times longer
// when each side restarted the deadline).
//
// The head crosses the fast path's buffer at 3 s of a 4 s timeout. A
// deadline that starts over at the hand-off cannot fire before 3 s + 4 s,
// so a cut before 7 s proves the deadline carried over, and leaves a loaded
// machine 3 s to notice the cut (a whole-process stall of 2 s was seen
// beside a CPU hog). Heads without a hand-off get 10 s.
func TestHeadDeadlineAcrossHandOff(t *testing.T) {
	d := assetstest.New(t, assetstest.Options{})
	h := registryHandler(t, d)
	opts := limits
	opts.ReadHeaderTimeout = 4 * time.Second
	const burstAt, stillOpen = 3 * time.Second, 10 * time.Second
	fast, _ := start(t, h, opts)
	ref := startNetHTTP(t, h, opts)
	js := "/" + d.Asset
	for _, tc := range []struct {
		name          string
		before, burst string
	}{
		{"fast-looking head", "GET " + js + " HTTP/1.1\r\nHost: x\r\nX-", ""},
		{"past the fast path's buffer", "GET " + js + " HTTP/1.1\r\nHost: x\r\nX-", "Pad: " + strings.Repeat("a", 5<<10) + "\r\nX-"},
		{"HTTP/1.0 line", "GET " + js + " HTTP/1.0\r\nX-", ""},
	} {
		for _, eng := range []struct{ name, addr string }{{"fast", fast}, {"net/http", ref}} {
			t.Run(tc.name+"/"+eng.name, func(t *testing.T) {
				t.Parallel()
				// begin is taken before the dial, so before the server
				// starts the head's deadline: the cut comes no earlier than
				// ReadHeaderTimeout after it.
				begin := time.Now()
				c := servetest.Dial(t, eng.addr, 0)
				closed := make(chan time.Duration, 1)
				go func() {
					_, _ = io.Copy(io.Discard, c)
					closed <- time.Since(begin)
				}()
				io.WriteString(c, tc.before)
				// Trickle until burstAt, then (maybe) cross the fast path's
				// buffer, then keep trickling.
				burst := tc.burst
				limit := stillOpen
				if burst != "" {
					limit = burstAt + opts.ReadHeaderTimeout
				}
				for {
					select {
					case took := <-closed:
						t.Logf("| slowloris, %s | %s | closed after %s |", tc.name, eng.name, took.Round(10*time.Millisecond))
						if took < opts.ReadHeaderTimeout || took >= limit {
							t.Errorf("connection held %s, want from ReadHeaderTimeout (%s) to under %s", took, opts.ReadHeaderTimeout, limit)
						}
						if burst != "" {
							t.Logf("cut before the burst was sent (the machine is slow): the hand-off was not exercised")
						}
						return
					case <-time.After(100 * time.Millisecond):
					}
					if burst != "" && time.Since(begin) >= burstAt {
						io.WriteString(c, burst)
						burst = ""
					} else if _, err := io.WriteString(c, "a"); err != nil {
						continue
					}
					if time.Since(begin) > stillOpen {
						t.Fatalf("connection still open after %s", stillOpen)
					}
				}
			})
		}
	}
}

// TestEncodingClassMemo: the memo is keyed on what Accept-Encoding means,
// so hundreds of junk spellings neither fill it nor push a browser's value
// off the fast path, and equivalent spellings share one entry.
func TestEncodingClassMemo(t *testing.T) {
	e := startObserved(t)
	d, hits, srv := e.d, e.hits, e.srv
	c := servetest.Dial(t, e.addr, 30*time.Second)
	r := bufio.NewReader(c)
	get := func(ae string) wireResponse {
		fmt.Fprintf(c, "GET /%s HTTP/1.1\r\nHost: x\r\nAccept-Encoding: %s\r\n\r\n", d.Asset, ae)
		return readWire(t, r, "GET")
	}
	for i := range 300 {
		if resp := get(fmt.Sprintf("junk-%d, gzip;q=0.%d", i, 1+i%9)); resp.header.Get("Content-Encoding") != "gzip" {
			t.Fatalf("junk %d: %s", i, resp)
		}
	}
	before := hits.Load()
	if resp := get("gzip, deflate, br, zstd"); resp.header.Get("Content-Encoding") != "br" {
		t.Fatalf("browser value: %s", resp)
	}
	awaitHits(hits, before+1)
	if hits.Load() != before+1 {
		t.Errorf("after 300 junk values, a browser's Accept-Encoding was not a fast-path hit")
	}
	tc := (*srv.cache.Load())["/"+d.Asset]
	if n := len(*tc.entries.Load()); n != 2 {
		t.Errorf("%d memoised responses for one path after 301 spellings of 2 meanings, want 2", n)
	}
}

// FuzzClassOf: two Accept-Encoding values of the same class get the same
// answer from assets' handler, for files with br+gzip and with identity
// only; the class's canonical spelling stands for all of them.
func FuzzClassOf(f *testing.F) {
	for _, s := range []string{"", "br", "gzip, deflate, br, zstd", "br;q=0, gzip", "*;q=0", "identity;q=0", "x-gzip;q=0.5, *;q=0.6",
		"BR;Q=1", "br;q=1.0001", "gzip;q=0.", " \tbr ; q = 0.5", "br\u00a0", "*", "\u212a"} {
		f.Add(s, true)
	}
	f.Add("", false)
	d := assetstest.New(f, assetstest.Options{})
	h := registryHandler(f, d)
	f.Fuzz(func(t *testing.T, ae string, present bool) {
		class := classOf([]byte(ae), present)
		for _, target := range []string{"/" + d.Asset, "/" + d.Image} {
			answer := func(v string, has bool) string {
				req := httptest.NewRequest("GET", target, nil)
				if has {
					req.Header["Accept-Encoding"] = []string{v}
				}
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				return fmt.Sprint(rec.Code, rec.Header().Get("Content-Encoding"), rec.Header().Get("Etag"))
			}
			if got, want := answer(ae, present), answer(class.acceptEncoding(), true); got != want {
				t.Fatalf("%s: Accept-Encoding %q (present %v, class %q) answered %s; the class's spelling answered %s",
					target, ae, present, class.acceptEncoding(), got, want)
			}
		}
	})
}

// errListener fails its first n Accepts with the error a process out of
// file descriptors gets, then accepts normally.
type errListener struct {
	net.Listener
	mu sync.Mutex
	n  int
}

func (l *errListener) Accept() (net.Conn, error) {
	l.mu.Lock()
	if l.n > 0 {
		l.n--
		l.mu.Unlock()
		return nil, &net.OpError{Op: "accept", Net: "tcp", Err: os.NewSyscallError("accept4", syscall.EMFILE)}
	}
	l.mu.Unlock()
	return l.Listener.Accept()
}

// TestAcceptEMFILE: running out of descriptors on accept is logged and
// retried with backoff, and the server keeps serving.
func TestAcceptEMFILE(t *testing.T) {
	d := assetstest.New(t, assetstest.Options{})
	// serveAfterEMFILE serves on a listener whose first three Accepts fail
	// with EMFILE and checks the server then answers and logged each failure.
	serveAfterEMFILE := func(name string, serve func(net.Listener), logb *syncbuf.Buffer) {
		t.Helper()
		ln := &errListener{Listener: servetest.Listen(t), n: 3}
		go serve(ln)
		c := servetest.Dial(t, ln.Addr().String(), 10*time.Second)
		fmt.Fprintf(c, "GET /manifest.json HTTP/1.1\r\nHost: x\r\n\r\n")
		if resp := readWire(t, bufio.NewReader(c), "GET"); resp.status != 200 {
			t.Fatalf("%s after EMFILE: %s", name, resp)
		}
		if n := strings.Count(logb.String(), "too many open files"); n != 3 {
			t.Errorf("%s: %d log lines about EMFILE, want 3:\n%s", name, n, logb.String())
		}
	}
	var logb syncbuf.Buffer
	opts := limits
	opts.Logger = slog.New(slog.NewJSONHandler(&logb, nil))
	srv := New(registryHandler(t, d), opts)
	t.Cleanup(func() { srv.Close() })
	serveAfterEMFILE("fast engine", func(ln net.Listener) { _ = srv.Serve(ln) }, &logb)

	// net/http, the reference, logs and retries the same way.
	var refLog syncbuf.Buffer
	ref := &http.Server{Handler: registryHandler(t, d), ErrorLog: slog.NewLogLogger(slog.NewJSONHandler(&refLog, nil), slog.LevelWarn)}
	t.Cleanup(func() { ref.Close() })
	serveAfterEMFILE("net/http", func(ln net.Listener) { _ = ref.Serve(ln) }, &refLog)
}
