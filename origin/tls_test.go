package origin

import (
	"context"
	"crypto/tls"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/assets/assetstest"
	"github.com/widgetd/widgetd/internal/syncbuf"
	"github.com/widgetd/widgetd/internal/testcert"
)

// startServe runs the origin for the dist/ in dir with opts (listening on
// 127.0.0.1:0 unless opts.Addr says otherwise, and with `widgetd serve`'s
// default connection cap and shutdown timeout unless opts set them) until
// the end of the test, as `widgetd serve` runs it: the registry loaded with
// the same options and logging to the same JSON log. It returns the main
// listener's URL, the redirect listener's URL ("" without one) and the log.
func startServe(t *testing.T, dir string, opts Options) (base, redirectURL string, stderr *syncbuf.Buffer) {
	t.Helper()
	stderr = &syncbuf.Buffer{}
	logger := slog.New(slog.NewJSONHandler(stderr, nil))
	reg, err := assets.Load(os.DirFS(dir), assets.WithLogger(logger), assets.WithBasePath("/"), assets.WithDev(""))
	if err != nil {
		t.Fatal(err)
	}
	opts.Registry, opts.Logger = reg, logger
	if opts.Addr == "" {
		opts.Addr = "127.0.0.1:0"
	}
	if opts.MaxConns == 0 {
		opts.MaxConns = DefaultMaxConns
	}
	if opts.ShutdownTimeout == 0 {
		opts.ShutdownTimeout = 10 * time.Second
	}
	ctx, cancel := context.WithCancel(context.Background())
	srv, err := Listen(ctx, opts)
	if err != nil {
		cancel()
		t.Fatalf("no startup: %v; stderr: %s", err, stderr.String())
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx) }()
	t.Cleanup(func() {
		cancel()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("serve: %v; stderr: %s", err, stderr.String())
			}
		case <-time.After(15 * time.Second):
			t.Error("serve did not stop after cancel")
		}
	})
	if ra := srv.RedirectAddr(); ra != nil {
		redirectURL = "http://" + ra.String()
	}
	return srv.Scheme() + "://" + srv.Addr().String(), redirectURL, stderr
}

// TestServeTLS: --tls-cert/--tls-key serve HTTPS with HTTP/2 (ALPN h2) and
// HTTP/1.1, the handler's exact headers and bytes over both, pick up a
// renewed certificate without a restart, and --redirect-addr redirects
// plain HTTP to HTTPS.
func TestServeTLS(t *testing.T) {
	d := assetstest.New(t, assetstest.Options{})
	ca := testcert.NewCA(t)
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	ca.Issue(t, 100, certFile, keyFile, "localhost", "127.0.0.1")
	base, redirectURL, stderr := startServe(t, d.Dir, Options{TLS: TLSOptions{CertFile: certFile, KeyFile: keyFile, RedirectAddr: "127.0.0.1:0"}})
	if !strings.HasPrefix(redirectURL, "http://") || !strings.HasPrefix(base, "https://") {
		t.Fatalf("main listener %q, redirect listener %q", base, redirectURL)
	}

	// The handler's own answer, for comparison.
	reg := assetstest.LoadDir(t, d.Dir)
	want := httptest.NewRecorder()
	wreq := httptest.NewRequest("GET", "/"+d.Asset, nil)
	wreq.Header.Set("Accept-Encoding", "br")
	reg.Handler().ServeHTTP(want, wreq)

	for _, tc := range []struct {
		name  string
		h2    bool
		proto string
	}{{"HTTP/2", true, "h2"}, {"HTTP/1.1", false, "http/1.1"}} {
		t.Run(tc.name, func(t *testing.T) {
			tr := &http.Transport{TLSClientConfig: &tls.Config{RootCAs: ca.Pool()}, DisableCompression: true, ForceAttemptHTTP2: tc.h2}
			if !tc.h2 {
				tr.TLSNextProto = map[string]func(string, *tls.Conn) http.RoundTripper{}
				tr.TLSClientConfig.NextProtos = []string{"http/1.1"}
			}
			defer tr.CloseIdleConnections()
			req, _ := http.NewRequest("GET", base+"/"+d.Asset, nil)
			req.Header.Set("Accept-Encoding", "br")
			resp, err := (&http.Client{Transport: tr, Timeout: 10 * time.Second}).Do(req)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.TLS == nil || resp.TLS.NegotiatedProtocol != tc.proto || (resp.ProtoMajor == 2) != tc.h2 {
				t.Fatalf("negotiated %q, proto %s; want %s", resp.TLS.NegotiatedProtocol, resp.Proto, tc.proto)
			}
			if resp.StatusCode != 200 || string(body) != want.Body.String() {
				t.Errorf("status %d, %d bytes; want 200, %d bytes", resp.StatusCode, len(body), want.Body.Len())
			}
			for k, v := range want.Header() {
				if got := resp.Header.Values(k); strings.Join(got, ",") != strings.Join(v, ",") {
					t.Errorf("%s: got %q, handler sends %q", k, got, v)
				}
			}
		})
	}

	serial := func() int64 {
		t.Helper()
		c, err := tls.Dial("tcp", strings.TrimPrefix(base, "https://"), &tls.Config{RootCAs: ca.Pool(), ServerName: "localhost"})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		return c.ConnectionState().PeerCertificates[0].SerialNumber.Int64()
	}
	if s := serial(); s != 100 {
		t.Fatalf("serial %d, want 100", s)
	}
	// Renew: new files, then a handshake after the check interval sees them.
	ca.Issue(t, 200, certFile, keyFile, "localhost", "127.0.0.1")
	later := time.Now().Add(2 * time.Second)
	_ = os.Chtimes(certFile, later, later)
	_ = os.Chtimes(keyFile, later, later)
	deadline := time.Now().Add(10 * time.Second)
	for serial() != 200 {
		if time.Now().After(deadline) {
			t.Fatalf("renewed certificate not served after 10s; stderr: %s", stderr.String())
		}
		time.Sleep(200 * time.Millisecond)
	}
	if !strings.Contains(stderr.String(), "TLS certificate reloaded") {
		t.Errorf("no reload log line: %s", stderr.String())
	}
	// A broken pair (a key that does not match) is logged and the loaded
	// certificate kept.
	other := filepath.Join(dir, "other-cert.pem")
	ca.Issue(t, 300, other, keyFile, "localhost", "127.0.0.1") // new key, certificate left at 200
	later = later.Add(2 * time.Second)
	_ = os.Chtimes(keyFile, later, later)
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(stderr.String(), "does not load"); {
		if time.Now().After(deadline) {
			t.Fatalf("no log line for a certificate that does not load: %s", stderr.String())
		}
		serial()
		time.Sleep(200 * time.Millisecond)
	}
	if s := serial(); s != 200 {
		t.Errorf("after a broken renewal: serial %d, want the loaded 200", s)
	}

	// Plain HTTP on the redirect listener: 308 to the same target on https.
	_, port, _ := net.SplitHostPort(strings.TrimPrefix(base, "https://"))
	noFollow := &http.Client{Timeout: 5 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, tc := range []struct{ host, status, location string }{
		{"widgets.example.com", "308", "https://widgets.example.com:" + port + "/" + d.Asset + "?v=1"},
		{"widgets.example.com:80", "308", "https://widgets.example.com:" + port + "/" + d.Asset + "?v=1"},
		{"evil.example/x", "400", ""},
	} {
		req, _ := http.NewRequest("GET", redirectURL+"/"+d.Asset+"?v=1", nil)
		req.Host = tc.host
		resp, err := noFollow.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if got := resp.Status[:3]; got != tc.status || resp.Header.Get("Location") != tc.location {
			t.Errorf("Host %s: %s Location %q; want %s %q", tc.host, resp.Status, resp.Header.Get("Location"), tc.status, tc.location)
		}
	}
}

// FuzzRedirectToHTTPS: whatever Host a client sends, the redirect listener
// answers 400 or a 308 to https on the same host name, the HTTPS port and
// the same target: never to another host or scheme.
func FuzzRedirectToHTTPS(f *testing.F) {
	for _, h := range []string{"widgets.example.com", "widgets.example.com:80", "[::1]:80", "127.0.0.1", "evil.example/x", "a@b", "", "x:y:z", "\x00"} {
		f.Add(h, "/assets/a.js?v=1")
	}
	h := redirectToHTTPS("8443")
	f.Fuzz(func(t *testing.T, host, target string) {
		req := httptest.NewRequest("GET", "/", nil)
		req.Host = host
		if u, err := url.ParseRequestURI(target); err == nil {
			req.URL = u
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code == http.StatusBadRequest {
			return
		}
		loc, err := url.Parse(rec.Header().Get("Location"))
		if rec.Code != http.StatusPermanentRedirect || err != nil {
			t.Fatalf("Host %q: %d, Location %q (%v)", host, rec.Code, rec.Header().Get("Location"), err)
		}
		name := host
		if hn, _, err := net.SplitHostPort(host); err == nil {
			name = hn
		}
		if loc.Scheme != "https" || loc.Hostname() != strings.Trim(name, "[]") || loc.Port() != "8443" || loc.User != nil {
			t.Fatalf("Host %q: redirected to %q", host, loc)
		}
	})
}
