package devserver

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// do sends one request with a forged Host and extra headers and returns the
// status, header and body.
func do(t *testing.T, method, u, host string, hdr map[string]string, body io.Reader) (int, http.Header, string) {
	t.Helper()
	res, data := send(t, newRequest(t, method, u, host, hdr, body))
	return res.StatusCode, res.Header, data
}

// newRequest is a request with a forged Host (none when "") and extra
// headers.
func newRequest(t *testing.T, method, u, host string, hdr map[string]string, body io.Reader) *http.Request {
	t.Helper()
	req, err := http.NewRequest(method, u, body)
	if err != nil {
		t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	for k, v := range hdr {
		req.Header.Set(k, v)
	}
	return req
}

// send sends req and returns the answer with its whole body, read and
// closed.
func send(t *testing.T, req *http.Request) (*http.Response, string) {
	t.Helper()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	data, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res, string(data)
}

// countingMCP is a real Go SDK MCP server whose one tool counts its calls.
func countingMCP(t *testing.T) (string, *atomic.Int32) {
	var calls atomic.Int32
	srv := mcp.NewServer(&mcp.Implementation{Name: "count", Version: "1.0.0"}, nil)
	type none struct{}
	mcp.AddTool(srv, &mcp.Tool{Name: "delete-everything"}, func(ctx context.Context, req *mcp.CallToolRequest, _ none) (*mcp.CallToolResult, none, error) {
		calls.Add(1)
		return nil, none{}, nil
	})
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	t.Cleanup(hs.Close)
	return hs.URL, &calls
}

// TestDNSRebindingRefused forges the Host header a DNS-rebinding page
// sends: every endpoint of both origins answers 403, and no tools/call ever
// reaches the --mcp server; the names the server goes by still work.
func TestDNSRebindingRefused(t *testing.T) {
	mcpURL, calls := countingMCP(t)
	d := startDev(t, func(o *Options) {
		o.MCPURL = mcpURL
		o.AllowedHosts = []string{"Dev.Lan"}
	})
	preview, _ := url.Parse(d.PreviewURL())
	sandbox, _ := url.Parse(d.SandboxURL())
	pport, sport := preview.Port(), sandbox.Port()
	callBody := `{"name":"delete-everything","arguments":{}}`
	jsonHdr := func(origin string) map[string]string {
		return map[string]string{"Content-Type": "application/json", "Origin": origin, "Sec-Fetch-Site": "same-origin"}
	}

	for _, host := range []string{"rebind.evil.example", "rebind.evil.example:" + pport, "localhost.evil.example:" + pport, "127.0.0.1.nip.io:" + pport, "evil.example.:" + pport, "[::2]:" + pport, "10.0.0.1:" + pport} {
		t.Run("refused "+host, func(t *testing.T) {
			for _, p := range []string{"/", "/preview/hello", "/_widgetd/state", "/_widgetd/hostapp.js", "/manifest.json"} {
				if code, _, _ := do(t, "GET", d.PreviewURL()+strings.TrimPrefix(p, "/"), host, nil, nil); code != http.StatusForbidden {
					t.Errorf("preview GET %s with Host %q: %d, want 403", p, host, code)
				}
			}
			// The rebinding page is same-origin to itself: Origin matches Host.
			code, _, body := do(t, "POST", d.PreviewURL()+"_widgetd/call-tool", host, jsonHdr("http://"+host), strings.NewReader(callBody))
			if code != http.StatusForbidden {
				t.Errorf("call-tool with Host %q: %d %s, want 403", host, code, body)
			}
			if code, _, _ := do(t, "POST", d.PreviewURL()+"_widgetd/csp-report", host, jsonHdr("http://"+host), strings.NewReader(`{"widget":"hello"}`)); code != http.StatusForbidden {
				t.Errorf("csp-report with Host %q: %d, want 403", host, code)
			}
			if code, _, _ := do(t, "GET", d.SandboxURL()+"/widget/hello", host, nil, nil); code != http.StatusForbidden {
				t.Errorf("sandbox GET with Host %q: %d, want 403", host, code)
			}
		})
	}
	if n := calls.Load(); n != 0 {
		t.Fatalf("the MCP server got %d tools/call from forged hosts", n)
	}
	code, _, body := do(t, "GET", d.PreviewURL(), "rebind.evil.example:"+pport, nil, nil)
	if code != 403 || !strings.Contains(body, "--allowed-hosts rebind.evil.example") || !strings.Contains(body, "DNS rebinding") {
		t.Errorf("refusal does not say how to allow the host: %d %q", code, body)
	}
	if _, _, body := do(t, "GET", d.PreviewURL(), "a\x1b[31m.example", nil, nil); strings.ContainsRune(body, 0x1b) {
		t.Errorf("refusal echoes a raw escape: %q", body)
	}

	for _, host := range []string{"127.0.0.1:" + pport, "localhost:" + pport, "LOCALHOST.:" + pport, "app.localhost:" + pport, "[::1]:" + pport, "127.1.2.3:" + pport, "dev.lan:" + pport} {
		if code, _, body := do(t, "GET", d.PreviewURL(), host, nil, nil); code != 200 {
			t.Errorf("preview with Host %q: %d %s", host, code, body)
		}
		sh := strings.Replace(host, ":"+pport, ":"+sport, 1)
		if code, _, body := do(t, "GET", d.SandboxURL()+"/widget/hello", sh, nil, nil); code != 200 {
			t.Errorf("sandbox with Host %q: %d %s", sh, code, body)
		}
		code, _, body := do(t, "POST", d.PreviewURL()+"_widgetd/call-tool", host, jsonHdr("http://"+host), strings.NewReader(callBody))
		if code != 200 {
			t.Errorf("call-tool from the preview page at %s: %d %s", host, code, body)
		}
	}
	if n := calls.Load(); n != 7 {
		t.Errorf("the MCP server got %d calls from the 7 allowed hosts", n)
	}
}

func TestHostPolicy(t *testing.T) {
	wild := newHostPolicy([]string{"0.0.0.0:5173", ""}, []string{"https://abc.trycloudflare.com/dev"}, nil)
	named := newHostPolicy([]string{"my-laptop.local:5173", "192.168.1.5:5174"}, nil, []string{" Dev.Example. "})
	tests := []struct {
		p    hostPolicy
		host string
		want bool
	}{
		{wild, "192.168.1.5:5173", true},
		{wild, "[fe80::1]:5173", true},
		{wild, "abc.trycloudflare.com", true},
		{wild, "xyz.trycloudflare.com", false},
		{wild, "rebind.evil.example:5173", false},
		{named, "my-laptop.local:5173", true},
		{named, "MY-LAPTOP.LOCAL.:5173", true},
		{named, "192.168.1.5:5174", true},
		{named, "192.168.1.6:5174", false},
		{named, "dev.example", true},
		{named, "127.0.0.1", true},
		{named, "[::1]", true},
		{named, "localhost", true},
		{named, "x.localhost:1", true},
		{named, "localhostx:1", false},
		{named, "my-laptop.local.evil.example", false},
		{named, "", false},
		{named, ":5173", false},
	}
	for _, tc := range tests {
		if got := tc.p.allows(tc.host); got != tc.want {
			t.Errorf("allows(%q) = %v, want %v", tc.host, got, tc.want)
		}
	}
}

// TestStateChangingOriginChecks posts to both state-changing endpoints with
// forged Origin and Sec-Fetch-Site headers.
func TestStateChangingOriginChecks(t *testing.T) {
	mcpURL, calls := countingMCP(t)
	d := startDev(t, func(o *Options) { o.MCPURL = mcpURL })
	preview := strings.TrimSuffix(d.PreviewURL(), "/")
	pu, _ := url.Parse(preview)
	tests := []struct {
		name string
		hdr  map[string]string
		want int
	}{
		{"preview page", map[string]string{"Origin": preview, "Sec-Fetch-Site": "same-origin"}, 200},
		{"preview page via localhost", map[string]string{"Origin": "http://localhost:" + pu.Port()}, 403}, // Host is 127.0.0.1: another origin
		{"not a browser", nil, 200},
		{"evil origin", map[string]string{"Origin": "https://evil.example"}, 403},
		{"evil origin, no fetch metadata", map[string]string{"Origin": "http://evil.example:" + pu.Port()}, 403},
		{"sandbox origin", map[string]string{"Origin": d.SandboxURL()}, 403},
		{"opaque origin", map[string]string{"Origin": "null"}, 403},
		{"cross-site", map[string]string{"Sec-Fetch-Site": "cross-site"}, 403},
		{"same-site", map[string]string{"Sec-Fetch-Site": "same-site", "Origin": preview}, 403},
		{"https preview origin", map[string]string{"Origin": "https://" + pu.Host}, 403},
	}
	want := int32(0)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			hdr := map[string]string{"Content-Type": "application/json"}
			for k, v := range tc.hdr {
				hdr[k] = v
			}
			code, _, body := do(t, "POST", preview+"/_widgetd/call-tool", "", hdr, strings.NewReader(`{"name":"delete-everything","arguments":{}}`))
			if code != tc.want {
				t.Errorf("call-tool: %d %s, want %d", code, body, tc.want)
			}
			if code == 200 {
				want++
			}
			code, _, body = do(t, "POST", preview+"/_widgetd/csp-report", "", hdr, strings.NewReader(`{"widget":"hello","directive":"connect-src","blockedURI":"https://api.example.com/x"}`))
			if code != tc.want {
				t.Errorf("csp-report: %d %s, want %d", code, body, tc.want)
			}
			code, _, body = do(t, "POST", preview+"/_widgetd/error-report", "", hdr, strings.NewReader(`{"widget":"hello","message":"boom"}`))
			if code != tc.want {
				t.Errorf("error-report: %d %s, want %d", code, body, tc.want)
			}
		})
	}
	if got := calls.Load(); got != want {
		t.Errorf("MCP server got %d calls, want %d (only the allowed requests)", got, want)
	}
}

// postReport posts one CSP report body to the preview origin as the preview
// page does.
func postReport(t *testing.T, d *devServer, body io.Reader) int {
	t.Helper()
	preview := strings.TrimSuffix(d.PreviewURL(), "/")
	code, _, _ := do(t, "POST", preview+"/_widgetd/csp-report", "", map[string]string{"Content-Type": "application/json", "Origin": preview}, body)
	return code
}

func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestCSPReportFlood sends 200 reports of 1 MB each and then thousands of
// distinct small ones: oversized bodies are refused unread, the set of
// printed violations stays bounded, and memory does not grow with the flood.
func TestCSPReportFlood(t *testing.T) {
	d := startDev(t, nil)
	before := heapInUse()
	big := bytes.Repeat([]byte("A"), 1<<20)
	for i := range 200 {
		body := fmt.Sprintf(`{"widget":"hello","directive":"connect-src","blockedURI":"https://x%d.example/%s"}`, i, big)
		if code := postReport(t, d, strings.NewReader(body)); code != http.StatusRequestEntityTooLarge {
			t.Fatalf("1 MB report %d: status %d, want 413", i, code)
		}
	}
	// Distinct small reports, with the rate limit lifted for the test.
	d.reports.mu.Lock()
	d.reports.rate = tokenBucket{rate: 1e9, burst: 1e9}
	d.reports.mu.Unlock()
	for i := range 3 * maxReportsSeen {
		// Not a URL: the whole (clipped) value is part of the dedup key.
		body := fmt.Sprintf(`{"widget":"hello","directive":"connect-src","blockedURI":"h%d:%s"}`, i, big[:8<<10])
		if code := postReport(t, d, strings.NewReader(body)); code != 200 {
			t.Fatalf("report %d: status %d", i, code)
		}
	}
	if n := d.reports.size(); n > maxReportsSeen {
		t.Errorf("dedup set holds %d violations, bound %d", n, maxReportsSeen)
	}
	// The test's own terminal buffer holds every printed line; the server
	// must hold no more than its bounded set.
	grown := int64(heapInUse()) - int64(before) - int64(d.log.Cap())
	t.Logf("heap growth after 200 × 1 MB + %d × 8 KB reports, terminal buffer excluded: %d KB", 3*maxReportsSeen, grown/1024)
	if grown > 8<<20 {
		t.Errorf("heap grew by %d MB over the flood", grown>>20)
	}
	// A violation evicted from the set is printed again: the bound forgets
	// the oldest, never drops new reports silently.
	printed := strings.Count(d.log.String(), "CSP violation in widget hello")
	if printed != 3*maxReportsSeen {
		t.Errorf("printed %d violations, want %d", printed, 3*maxReportsSeen)
	}
	if code := postReport(t, d, strings.NewReader(fmt.Sprintf(`{"widget":"hello","directive":"connect-src","blockedURI":"h0:%s"}`, big[:8<<10]))); code != 200 {
		t.Fatal(code)
	}
	if got := strings.Count(d.log.String(), "CSP violation in widget hello"); got != printed+1 {
		t.Errorf("an evicted violation was not printed again (%d → %d)", printed, got)
	}
}

func TestCSPReportRateLimited(t *testing.T) {
	d := startDev(t, nil)
	d.reports.mu.Lock()
	d.reports.rate = tokenBucket{rate: 0.001, burst: 5}
	d.reports.mu.Unlock()
	codes := map[int]int{}
	for i := range 12 {
		codes[postReport(t, d, strings.NewReader(fmt.Sprintf(`{"widget":"hello","directive":"img-src","blockedURI":"https://r%d.example/"}`, i)))]++
	}
	if codes[200] != 5 || codes[http.StatusTooManyRequests] != 7 {
		t.Errorf("statuses %v, want 5 × 200 and 7 × 429", codes)
	}
	if n := strings.Count(d.log.String(), "CSP violation"); n != 5 {
		t.Errorf("printed %d violations, want 5", n)
	}
}

func TestTokenBucket(t *testing.T) {
	b := tokenBucket{rate: 2, burst: 3}
	t0 := time.Unix(1000, 0)
	var got []bool
	for _, dt := range []time.Duration{0, 0, 0, 0, 400 * time.Millisecond, 500 * time.Millisecond, 500 * time.Millisecond, 10 * time.Second} {
		t0 = t0.Add(dt)
		got = append(got, b.take(t0))
	}
	want := []bool{true, true, true, false, false, true, true, true}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("take = %v, want %v", got, want)
	}
	if b.tokens > b.burst {
		t.Errorf("tokens %v above burst", b.tokens)
	}
}

func TestBoundedSet(t *testing.T) {
	s := boundedSet{max: 3}
	for _, k := range []string{"a", "b", "c", "a", "d", "e"} {
		s.add(k)
	}
	if len(s.m) != 3 || s.add("e") || !s.add("a") {
		t.Errorf("set %v: want the three newest (c, d, e) and a evicted", s.m)
	}
}

// TestCSPReportEscaped posts a report full of ANSI escapes, a bidi override
// and invalid UTF-8: the terminal line shows them as escapes.
func TestCSPReportEscaped(t *testing.T) {
	d := startDev(t, nil)
	v := map[string]any{
		"widget":     "hello\x1b[2J\x1b[31m",
		"directive":  "connect-src\x1b]0;pwned\x07",
		"blockedURI": "https://api.example.com/\x1b[1A\r\nwidgetd dev: rebuilt OK",
		"sourceFile": "x\u202egnp.js",
		"line":       1,
		"column":     2,
	}
	body, _ := json.Marshal(v)
	body = bytes.Replace(body, []byte("hello"), []byte("hel\xfflo"), 1)
	if code := postReport(t, d, bytes.NewReader(body)); code != 200 {
		t.Fatalf("status %d", code)
	}
	log := d.log.String()
	i := strings.Index(log, "CSP violation in widget")
	if i < 0 {
		t.Fatalf("no violation printed:\n%s", log)
	}
	line := log[i:]
	line = line[:strings.IndexByte(line, '\n')]
	for _, bad := range []string{"\x1b", "\x07", "\r", "\u202e", "\xff"} {
		if strings.Contains(line, bad) {
			t.Errorf("printed line holds raw %q: %q", bad, line)
		}
	}
	for _, want := range []string{`\x1b[2J`, `\x1b]0;pwned\a`, `\r\nwidgetd dev: rebuilt OK`, `\u202e`} {
		if !strings.Contains(line, want) {
			t.Errorf("printed line lacks escaped %s: %q", want, line)
		}
	}
	if strings.Count(log[i:], "\n") != 1 {
		t.Errorf("one report printed more than one line:\n%q", log[i:])
	}
}

func TestQuoteForTerminal(t *testing.T) {
	for in, want := range map[string]string{
		"plain https://a.example/ é": "plain https://a.example/ é",
		"\x1b[31mred":                `\x1b[31mred`,
		"a\nb\tc":                    `a\nb\tc`,
		"\u009b2J":                   `\u009b2J`,
		"rtl\u202eoverride":          `rtl\u202eoverride`,
		"bad\xffbyte":                `bad\xffbyte`,
		"ls\u2028sep":                `ls\u2028sep`,
	} {
		if got := quoteForTerminal(in); got != want {
			t.Errorf("quoteForTerminal(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestCORSLimitedToPreview fetches a built file with several Origin headers:
// only the sandbox and preview origins get Access-Control-Allow-Origin, and
// never "*".
func TestCORSLimitedToPreview(t *testing.T) {
	d := startDev(t, nil)
	d.mu.RLock()
	html := d.out.Manifest.Widgets[0].HTML
	d.mu.RUnlock()
	preview := strings.TrimSuffix(d.PreviewURL(), "/")
	for _, p := range []string{html, "manifest.json"} {
		for origin, want := range map[string]string{
			d.SandboxURL():                  d.SandboxURL(),
			preview:                         preview,
			"":                              "",
			"https://evil.example":          "",
			"null":                          "",
			"http://127.0.0.1.evil.example": "",
		} {
			hdr := map[string]string{}
			if origin != "" {
				hdr["Origin"] = origin
			}
			code, h, _ := do(t, "GET", preview+"/"+p, "", hdr, nil)
			if code != 200 || h.Get("Access-Control-Allow-Origin") != want || !strings.Contains(h.Get("Vary"), "Origin") {
				t.Errorf("GET %s Origin %q: %d ACAO %q Vary %q, want ACAO %q", p, origin, code, h.Get("Access-Control-Allow-Origin"), h.Get("Vary"), want)
			}
		}
	}
}

func TestLiveStreamsBounded(t *testing.T) {
	var h hub
	var chans []chan []byte
	for range maxLiveStreams {
		ch, ok := h.addStream()
		if !ok {
			t.Fatalf("stream %d refused", len(chans))
		}
		chans = append(chans, ch)
	}
	if _, ok := h.addStream(); ok {
		t.Fatalf("stream %d accepted", maxLiveStreams+1)
	}
	h.removeStream(chans[0])
	if _, ok := h.addStream(); !ok {
		t.Fatal("a freed slot is not reused")
	}
}

// TestPublicOriginMayPost: behind --public-url (a tunnel), the preview page
// posts from the public URL's origin, which both origin checks accept; an
// origin that only starts like it does not pass.
func TestPublicOriginMayPost(t *testing.T) {
	d := startDev(t, func(o *Options) { o.PublicURL = "https://tunnel.example.com/dev/" })
	preview := strings.TrimSuffix(d.PreviewURL(), "/")
	for _, tc := range []struct {
		origin string
		want   int
	}{
		{"https://tunnel.example.com", 200},
		{"https://tunnel.example.com.evil.example", 403},
		{"https://tunnel.example.com:8443", 403},
		{"http://tunnel.example.com", 403},
	} {
		hdr := map[string]string{"Content-Type": "application/json", "Origin": tc.origin}
		code, _, body := do(t, "POST", preview+"/_widgetd/csp-report", "", hdr, strings.NewReader(`{"widget":"hello","directive":"connect-src","blockedURI":"https://api.example.com/x"}`))
		if code != tc.want {
			t.Errorf("Origin %s: %d %s, want %d", tc.origin, code, body, tc.want)
		}
	}
}
