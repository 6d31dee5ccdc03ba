package main

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/widgetd/widgetd/assets/assetstest"
	"github.com/widgetd/widgetd/internal/syncbuf"
)

// servingCLI is one `widgetd serve` a test runs in process (runServe).
type servingCLI struct {
	// base is the http://host:port its startup line gives.
	base   string
	stderr *syncbuf.Buffer
	cancel context.CancelFunc
	done   chan int
}

// startServeCLI runs runServe with args and returns once it has printed its
// startup line, which must give the URL it serves.
func startServeCLI(t *testing.T, args ...string) *servingCLI {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	s := &servingCLI{stderr: &syncbuf.Buffer{}, cancel: cancel, done: make(chan int, 1)}
	go func() {
		s.done <- runServe(ctx, args, pw, s.stderr)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "widgetd serve:") {
		cancel()
		t.Fatalf("widgetd serve %s: no startup line: %v %q; stderr: %s", strings.Join(args, " "), err, line, s.stderr.String())
	}
	go io.Copy(io.Discard, pr)
	if s.base = regexp.MustCompile(`http://[0-9.:]+`).FindString(line); s.base == "" {
		cancel()
		t.Fatalf("startup line %q has no URL", line)
	}
	return s
}

// stop cancels serve's context, as SIGINT or SIGTERM do, and returns its
// exit code; it fails the test when serve does not stop within 15 s.
func (s *servingCLI) stop(t *testing.T) int {
	t.Helper()
	s.cancel()
	select {
	case code := <-s.done:
		return code
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not stop after cancel")
		return 0
	}
}

// TestServe runs `widgetd serve` on a free port over a generated dist, checks
// a few responses over real HTTP, /metrics and the access log, then cancels
// the context and expects a clean exit.
func TestServe(t *testing.T) {
	d := assetstest.New(t, assetstest.Options{})
	srv := startServeCLI(t, "--dir", d.Dir, "--addr", "127.0.0.1:0", "--metrics")
	defer srv.cancel()
	base, stderr := srv.base, srv.stderr
	tr := &http.Transport{DisableCompression: true}
	defer tr.CloseIdleConnections()
	c := &http.Client{Transport: tr, Timeout: 5 * time.Second}
	get := func(p string, hdr ...string) *http.Response {
		t.Helper()
		req, _ := http.NewRequest("GET", base+p, nil)
		for i := 0; i+1 < len(hdr); i += 2 {
			req.Header.Set(hdr[i], hdr[i+1])
		}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp
	}
	if r := get("/"+d.Asset, "Accept-Encoding", "br"); r.StatusCode != 200 || r.Header.Get("Content-Encoding") != "br" || r.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" {
		t.Errorf("asset: %d %v", r.StatusCode, r.Header)
	}
	if r := get("/healthz"); r.StatusCode != 200 {
		t.Errorf("healthz: %d", r.StatusCode)
	}
	if r := get("/nope"); r.StatusCode != 404 {
		t.Errorf("nope: %d", r.StatusCode)
	}
	req, _ := http.NewRequest("GET", base+"/metrics", nil)
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{`widgetd_http_requests_total{code="200",encoding="br"} 1`, `widgetd_http_requests_total{code="404",encoding="identity"} 1`, "widgetd_build_info{build_id="} {
		if !strings.Contains(string(body), want) {
			t.Errorf("/metrics lacks %q:\n%s", want, body)
		}
	}
	if code := srv.stop(t); code != exitOK {
		t.Errorf("exit code %d; stderr: %s", code, stderr.String())
	}
	if !strings.Contains(stderr.String(), `"msg":"request"`) || !strings.Contains(stderr.String(), `"status":404`) {
		t.Errorf("access log missing request lines:\n%s", stderr.String())
	}
}

func TestServeUsage(t *testing.T) {
	for _, tc := range []struct {
		args []string
		code int
	}{
		{[]string{"--nope"}, exitUsage},
		{[]string{"extra"}, exitUsage},
		{[]string{"-h"}, exitOK},
		{[]string{"--dir", t.TempDir(), "--addr", "127.0.0.1:0"}, exitError}, // no manifest
	} {
		var out, errb bytes.Buffer
		if got := runServe(context.Background(), tc.args, &out, &errb); got != tc.code {
			t.Errorf("serve %v: exit %d, want %d; stderr %s", tc.args, got, tc.code, errb.String())
		}
	}
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
		srv := startServeCLI(t, "--dir", d.Dir, "--addr", "127.0.0.1:0", "--access-log=false", "--engine", engine)
		c, err := net.Dial("tcp", strings.TrimPrefix(srv.base, "http://"))
		if err != nil {
			t.Fatal(err)
		}
		_ = c.SetDeadline(time.Now().Add(10 * time.Second))
		fmt.Fprintf(c, "GET /%s HTTP/1.1\r\nHost: x\r\nAccept-Encoding: br\r\n\r\n", d.Asset)
		resp, err := http.ReadResponse(bufio.NewReader(c), nil)
		if err != nil {
			t.Fatalf("%s: %v", engine, err)
		}
		body, err := io.ReadAll(resp.Body)
		c.Close()
		if err != nil || resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "br" ||
			resp.Header.Get("Date") == "" || resp.ContentLength != int64(len(body)) {
			t.Errorf("%s: %d %v, %d bytes, %v", engine, resp.StatusCode, resp.Header, len(body), err)
		}
		if code := srv.stop(t); code != exitOK {
			t.Errorf("%s: exit %d", engine, code)
		}
	}
}

// TestServeTLSFlags: HTTPS flag combinations that cannot work are usage
// errors, and an unreadable certificate is a runtime error.
func TestServeTLSFlags(t *testing.T) {
	d := assetstest.New(t, assetstest.Options{})
	for _, tc := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--tls-cert", "c.pem"}, exitUsage, "go together"},
		{[]string{"--tls-cert", "c.pem", "--tls-key", "k.pem", "--acme-host", "a.example"}, exitUsage, "exclude each other"},
		{[]string{"--acme-cache", "x"}, exitUsage, "need --acme-host"},
		{[]string{"--redirect-addr", ":0"}, exitUsage, "needs --tls-cert"},
		{[]string{"--acme-host", "*.example.com"}, exitUsage, "no ports, wildcards"},
		{[]string{"--acme-host", "127.0.0.1"}, exitUsage, "no ports, wildcards"},
		{[]string{"--tls-cert", "/nonexistent/c.pem", "--tls-key", "/nonexistent/k.pem"}, exitError, "TLS certificate"},
	} {
		var out, errb syncbuf.Buffer
		args := append([]string{"--dir", d.Dir, "--addr", "127.0.0.1:0"}, tc.args...)
		if got := runServe(context.Background(), args, &out, &errb); got != tc.code || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("serve %v: exit %d, stderr %q; want exit %d and %q", tc.args, got, errb.String(), tc.code, tc.want)
		}
	}
}

// TestServeDefaultAddrLoopback: without --addr, serve listens on loopback
// only, and its help says so.
func TestServeDefaultAddrLoopback(t *testing.T) {
	var out, errb syncbuf.Buffer
	if code := runServe(context.Background(), []string{"-h"}, &out, &errb); code != exitOK {
		t.Fatalf("-h: exit %d", code)
	}
	if !strings.Contains(out.String(), `(default "127.0.0.1:8080")`) {
		t.Errorf("help does not show the loopback default:\n%s", out.String())
	}
}
