package devserver

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/widgetd/widgetd/devserver/internal/hostbuild"
)

// TestHostAppBundleUpToDate rebuilds the preview host app from
// hostapp/node_modules and compares it with the committed, embedded bundle.
func TestHostAppBundleUpToDate(t *testing.T) {
	got, err := hostbuild.Build("hostapp")
	if errors.Is(err, hostbuild.ErrNoNodeModules) {
		t.Fatalf("%v; CI runs `npm ci` there before the tests", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("static/hostapp.js")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("static/hostapp.js is stale (%d bytes committed, %d built): run `go generate ./devserver` and commit it", len(want), len(got))
	}
	embedded, _ := static.ReadFile("static/hostapp.js")
	if !bytes.Equal(embedded, want) {
		t.Fatal("embedded hostapp.js differs from the file on disk")
	}
}

// get sends a GET with extra headers and returns the answer and its body.
func get(t *testing.T, u string, hdr map[string]string) (*http.Response, string) {
	t.Helper()
	return send(t, newRequest(t, http.MethodGet, u, "", hdr, nil))
}

// TestSandboxServesSpecCSP checks the sandbox origin: each widget document
// with exactly the CSP header cspgen built (dev origin added, nothing
// loosened), the reporter first, window.openai only for the two ChatGPT
// hosts, no CSP header only with csp=none, and nothing else on that origin.
func TestSandboxServesSpecCSP(t *testing.T) {
	d := startDev(t, nil)
	st := d.State()
	if len(st.Widgets) != 3 {
		t.Fatalf("widgets = %+v", st.Widgets)
	}
	preview := strings.TrimSuffix(d.PreviewURL(), "/")
	for _, w := range st.Widgets {
		t.Run(w.Name, func(t *testing.T) {
			res, body := get(t, d.SandboxURL()+"/widget/"+w.Name, nil)
			if res.StatusCode != 200 {
				t.Fatalf("status %d: %s", res.StatusCode, body)
			}
			csp := res.Header.Get("Content-Security-Policy")
			if csp != w.CSP {
				t.Errorf("CSP header %q, manifest %q", csp, w.CSP)
			}
			for _, want := range []string{"default-src 'none'", "connect-src 'self' " + preview, "frame-src 'none'", "object-src 'none'"} {
				if !strings.Contains(csp, want) {
					t.Errorf("CSP %q lacks %q", csp, want)
				}
			}
			if strings.Contains(csp, "unsafe-eval") || strings.Contains(csp, "*") {
				t.Errorf("CSP loosened: %q", csp)
			}
			if i := strings.Index(body, "securitypolicyviolation"); i < 0 || strings.Contains(body[:i], "<script type=\"module\"") {
				t.Errorf("reporter missing or not first")
			}
			if strings.Contains(body, "window.openai=o") {
				t.Errorf("MCP host document carries the window.openai shim")
			}
			for _, h := range []struct {
				query  string
				openai bool
			}{{"host=chatgpt", true}, {"host=chatgpt-legacy", true}, {"host=mcp-apps", false}, {"host=mcp", false}, {"host=claude", false}} {
				_, body = get(t, d.SandboxURL()+"/widget/"+w.Name+"?"+h.query, nil)
				if got := strings.Contains(body, "window.openai=o"); got != h.openai {
					t.Errorf("%s: window.openai shim %v, want %v", h.query, got, h.openai)
				}
			}
			// ChatGPT's developer mode applies no CSP; the toggle drops only the header.
			res, nocsp := get(t, d.SandboxURL()+"/widget/"+w.Name+"?host=chatgpt&csp=none", nil)
			if res.Header.Get("Content-Security-Policy") != "" || !strings.Contains(nocsp, "securitypolicyviolation") || !strings.Contains(nocsp, "window.openai=o") {
				t.Errorf("csp=none: CSP header %q, reporter and shim present %v", res.Header.Get("Content-Security-Policy"), strings.Contains(nocsp, "window.openai=o"))
			}
		})
	}
	for _, p := range []string{"/", "/manifest.json", "/_widgetd/hostapp.js", "/widget/nope"} {
		if res, _ := get(t, d.SandboxURL()+p, nil); res.StatusCode != 404 {
			t.Errorf("sandbox origin %s: status %d, want 404", p, res.StatusCode)
		}
	}
}

// readEvent reads the next "build" event from an SSE stream.
func readEvent(t *testing.T, r *bufio.Reader) *BuildEvent {
	t.Helper()
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			t.Fatalf("read event stream: %v", err)
		}
		if data, ok := strings.CutPrefix(line, "data: "); ok {
			var ev BuildEvent
			if err := json.Unmarshal([]byte(data), &ev); err != nil {
				t.Fatalf("bad event %q: %v", data, err)
			}
			return &ev
		}
	}
}

func names(ev *BuildEvent) string {
	var n []string
	for _, w := range ev.Widgets {
		n = append(n, w.Name)
	}
	return strings.Join(n, ",")
}

// TestEventsFollowNewAndDeletedWidgets adds, breaks and deletes widgets and
// reads the live-reload stream the preview pages read.
func TestEventsFollowNewAndDeletedWidgets(t *testing.T) {
	d := startDev(t, nil)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, d.PreviewURL()+"_widgetd/events", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q", ct)
	}
	r := bufio.NewReader(res.Body)
	if ev := readEvent(t, r); !ev.OK || names(ev) != "get-time,hello,weather" {
		t.Fatalf("initial state %+v", ev)
	}

	dir := filepath.Join(d.widgets, "zeta")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(dir, "index.ts"), []byte("document.body.textContent = 'zeta';\n"), 0o644)
	// Written whole (rename), so the watcher never sees it half-written.
	tmp := filepath.Join(d.root, "widget.json.tmp")
	os.WriteFile(tmp, []byte(`{"title":"Zeta"}`), 0o644)
	if err := os.Rename(tmp, filepath.Join(dir, "widget.json")); err != nil {
		t.Fatal(err)
	}
	for ev := readEvent(t, r); names(ev) != "get-time,hello,weather,zeta"; ev = readEvent(t, r) {
		if !ev.OK {
			t.Fatalf("build failed: %+v", ev.Diagnostics)
		}
	}

	os.WriteFile(filepath.Join(dir, "widget.json"), []byte(`{"title": }`), 0o644)
	// The watcher may have split the writes above into more than one build
	// (inotify wakes it per write), so skip those until the broken one.
	ev := readEvent(t, r)
	for ev.OK && names(ev) == "get-time,hello,weather,zeta" {
		ev = readEvent(t, r)
	}
	if ev.OK || len(ev.Diagnostics) == 0 || !strings.Contains(ev.Diagnostics[0].Text, "zeta/widget.json:1:") {
		t.Fatalf("broken widget.json: %+v", ev)
	}
	if err := os.RemoveAll(dir); err != nil {
		t.Fatal(err)
	}
	if ev := readEvent(t, r); !ev.OK || names(ev) != "get-time,hello,weather" {
		t.Fatalf("after delete: ok=%v widgets=%s diags=%+v", ev.OK, names(ev), ev.Diagnostics)
	}
	if !strings.Contains(d.log.String(), "widget zeta removed") {
		t.Errorf("terminal:\n%s", d.log)
	}
}

// TestReverseProxy serves the preview through a reverse proxy that mounts
// it under /dev and checks every link honours X-Forwarded-Prefix (trusted
// with TrustForwarded), built files carry CORS headers, and cross-site POSTs
// are refused.
func TestReverseProxy(t *testing.T) {
	d := startDev(t, func(o *Options) { o.TrustForwarded = true })
	target, _ := url.Parse(strings.TrimSuffix(d.PreviewURL(), "/"))
	rp := &httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) {
		pr.Out.URL.Path = strings.TrimPrefix(pr.In.URL.Path, "/dev")
		pr.SetURL(target)
		pr.SetXForwarded()
		pr.Out.Header.Set("X-Forwarded-Prefix", "/dev")
	}, FlushInterval: -1}
	proxy := httptest.NewServer(rp)
	defer proxy.Close()

	res, body := get(t, proxy.URL+"/dev/preview/hello", nil)
	if res.StatusCode != 200 || !strings.Contains(body, `src="/dev/_widgetd/hostapp.js"`) || !strings.Contains(body, `&#34;base&#34;:&#34;/dev&#34;`) {
		t.Fatalf("preview through proxy: %d\n%s", res.StatusCode, body)
	}
	res, body = get(t, proxy.URL+"/dev/", nil)
	if res.StatusCode != 200 || !strings.Contains(body, `href="/dev/preview/weather"`) {
		t.Fatalf("index through proxy: %d\n%s", res.StatusCode, body)
	}
	if res, _ := get(t, proxy.URL+"/dev/_widgetd/hostapp.js", nil); res.StatusCode != 200 {
		t.Fatalf("hostapp.js through proxy: %d", res.StatusCode)
	}
	res, body = get(t, proxy.URL+"/dev/manifest.json", nil)
	var m struct {
		Widgets []struct{ Name, HTML string }
	}
	if res.StatusCode != 200 || json.Unmarshal([]byte(body), &m) != nil || len(m.Widgets) != 3 {
		t.Fatalf("manifest through proxy: %d %s", res.StatusCode, body)
	}
	res, body = get(t, proxy.URL+"/dev/"+m.Widgets[0].HTML, map[string]string{"Origin": d.SandboxURL()})
	if res.StatusCode != 200 || res.Header.Get("Access-Control-Allow-Origin") != d.SandboxURL() || !strings.Contains(body, "<") {
		t.Fatalf("built HTML through proxy: %d %v", res.StatusCode, res.Header)
	}

	post := func(site string) int {
		code, _, _ := do(t, http.MethodPost, proxy.URL+"/dev/_widgetd/csp-report", "", map[string]string{"Content-Type": "application/json", "Sec-Fetch-Site": site},
			strings.NewReader(`{"widget":"hello","directive":"connect-src","blockedURI":"https://x.example/a"}`))
		return code
	}
	if got := post("same-origin"); got != 200 {
		t.Errorf("same-origin report through proxy: %d", got)
	}
	if got := post("cross-site"); got != http.StatusForbidden {
		t.Errorf("cross-site report: %d, want 403", got)
	}
}

// TestForwardCallTool forwards a widget's tools/call to a real Go SDK MCP
// server over Streamable HTTP.
func TestForwardCallTool(t *testing.T) {
	type in struct {
		Zone string `json:"zone"`
	}
	type out struct {
		Time string `json:"time"`
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "time", Version: "1.0.0"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "get-time"}, func(ctx context.Context, req *mcp.CallToolRequest, a in) (*mcp.CallToolResult, out, error) {
		return nil, out{Time: "12:00 " + a.Zone}, nil
	})
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	defer hs.Close()

	d := startDev(t, func(o *Options) { o.MCPURL = hs.URL })
	call := func(body string) (int, map[string]any) {
		req, _ := http.NewRequest(http.MethodPost, d.PreviewURL()+"_widgetd/call-tool", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		var m map[string]any
		_ = json.NewDecoder(res.Body).Decode(&m)
		return res.StatusCode, m
	}
	code, res := call(`{"name":"get-time","arguments":{"zone":"UTC"}}`)
	sc, _ := res["structuredContent"].(map[string]any)
	if code != 200 || sc["time"] != "12:00 UTC" {
		t.Fatalf("forwarded call: %d %v", code, res)
	}
	code, res = call(`{"name":"no-such-tool","arguments":{}}`)
	if code == 200 && res["isError"] != true {
		t.Fatalf("unknown tool: %d %v", code, res)
	}
	if code, _ := call(`{"arguments":{}}`); code != 400 {
		t.Errorf("missing name: %d", code)
	}
}

// TestPublicURLExternalMode builds with --public-url: widgets load their
// JS/CSS from that URL, which the dev server serves; page links follow the
// public URL's path, not an untrusted X-Forwarded-Prefix.
func TestPublicURLExternalMode(t *testing.T) {
	d := startDev(t, func(o *Options) { o.PublicURL = "https://tunnel.example.com/dev/" })
	d.mu.RLock()
	out := d.out
	d.mu.RUnlock()
	for _, w := range out.Manifest.Widgets {
		if w.Inline || len(w.Files) == 0 {
			t.Fatalf("widget %s: inline=%v files=%v, want external", w.Name, w.Inline, w.Files)
		}
		if !strings.Contains(w.CSP, "https://tunnel.example.com") {
			t.Errorf("widget %s CSP lacks the public origin: %s", w.Name, w.CSP)
		}
		html := string(out.Files[w.HTML])
		if !strings.Contains(html, "https://tunnel.example.com/dev/"+w.Files[0]) && !strings.Contains(html, "https://tunnel.example.com/dev/assets/") {
			t.Errorf("widget %s HTML does not load from the public URL", w.Name)
		}
		// Published through the tunnel, the build is loaded by remote hosts
		// from their own sandbox origins: the Origin is echoed, never "*".
		const remote = "https://abc123.web-sandbox.oaiusercontent.com"
		res, _ := get(t, d.PreviewURL()+w.Files[0], map[string]string{"Origin": remote})
		if res.StatusCode != 200 || res.Header.Get("Access-Control-Allow-Origin") != remote {
			t.Errorf("built file %s: %d %v", w.Files[0], res.StatusCode, res.Header)
		}
	}
	if _, body := get(t, d.PreviewURL()+"preview/hello", nil); !strings.Contains(body, `src="/_widgetd/hostapp.js"`) {
		t.Errorf("direct preview links carry a prefix:\n%s", body)
	}
	// Forwarded headers are not trusted unless told: the prefix comes from
	// the public URL for a request addressed to its host, and a client's
	// own X-Forwarded-Prefix changes nothing.
	if _, body := get(t, d.PreviewURL()+"preview/hello", map[string]string{"X-Forwarded-Prefix": "/evil"}); !strings.Contains(body, `src="/_widgetd/hostapp.js"`) {
		t.Errorf("an untrusted X-Forwarded-Prefix changed the links:\n%s", body)
	}
	code, _, body := do(t, http.MethodGet, d.PreviewURL()+"preview/hello", "tunnel.example.com", nil, nil)
	if code != 200 || !strings.Contains(body, `src="/dev/_widgetd/hostapp.js"`) {
		t.Errorf("preview addressed to the public host: %d, links without the public URL's /dev:\n%s", code, body)
	}
}
