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
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/widgetd/widgetd/assets/assetstest"
	"github.com/widgetd/widgetd/internal/fastserve"
	"github.com/widgetd/widgetd/internal/syncbuf"
)

// TestServe runs `widgetd serve` on a free port over a generated dist, checks
// a few responses over real HTTP, /metrics and the access log, then cancels
// the context and expects a clean exit.
func TestServe(t *testing.T) {
	d := assetstest.New(t, assetstest.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	pr, pw := io.Pipe()
	var stderr syncbuf.Buffer
	done := make(chan int, 1)
	go func() {
		done <- runServe(ctx, []string{"--dir", d.Dir, "--addr", "127.0.0.1:0", "--metrics"}, pw, &stderr)
		pw.Close()
	}()
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil {
		t.Fatalf("no startup line: %v; stderr: %s", err, stderr.String())
	}
	go io.Copy(io.Discard, pr)
	base := regexp.MustCompile(`http://[0-9.:]+`).FindString(line)
	if base == "" {
		t.Fatalf("startup line %q has no URL", line)
	}
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
	cancel()
	select {
	case code := <-done:
		if code != exitOK {
			t.Errorf("exit code %d; stderr: %s", code, stderr.String())
		}
	case <-time.After(15 * time.Second):
		t.Fatal("serve did not stop after cancel")
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
		cancel()
		if code := <-done; code != exitOK {
			t.Errorf("%s: exit %d", engine, code)
		}
	}
}

// TestServeObserverHit: a fast-engine hit is logged with the same fields as
// a net/http request and counted in /metrics; with only metrics on it
// allocates nothing.
func TestServeObserverHit(t *testing.T) {
	hit := fastserve.Hit{
		Method: "GET", Target: []byte("/assets/a-X.js"), UserAgent: []byte("probe/1"),
		Remote: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 4242}, Status: 200, Bytes: 1234,
		Encoding: "br", Duration: 3 * time.Millisecond,
	}
	var logb syncbuf.Buffer
	both := &serveObserver{logger: slog.New(slog.NewJSONHandler(&logb, nil)), metrics: &serveMetrics{buildID: "b1"}}
	both.hit(hit)
	for _, want := range []string{`"msg":"request"`, `"method":"GET"`, `"path":"/assets/a-X.js"`, `"status":200`, `"bytes":1234`,
		`"encoding":"br"`, `"duration":3000000`, `"remote":"127.0.0.1:4242"`, `"ua":"probe/1"`} {
		if !strings.Contains(logb.String(), want) {
			t.Errorf("access log lacks %s: %s", want, logb.String())
		}
	}
	var m bytes.Buffer
	both.metrics.write(&m)
	if !strings.Contains(m.String(), `widgetd_http_requests_total{code="200",encoding="br"} 1`) ||
		!strings.Contains(m.String(), `widgetd_http_response_bytes_total{encoding="br"} 1234`) {
		t.Errorf("/metrics after one hit:\n%s", m.String())
	}

	metricsOnly := &serveObserver{metrics: &serveMetrics{buildID: "b1"}}
	if n := testing.AllocsPerRun(100, func() { metricsOnly.hit(hit) }); n != 0 {
		t.Errorf("metrics-only hit: %v allocations, want 0", n)
	}
}
