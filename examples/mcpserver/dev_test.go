package main

import (
	"bytes"
	"context"
	"crypto/sha256"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"fmt"
	"github.com/widgetd/widgetd/internal/nginxtest"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/devserver"
	"github.com/widgetd/widgetd/internal/browsertest"
	"github.com/widgetd/widgetd/internal/daemontest"
	"github.com/widgetd/widgetd/internal/syncbuf"
	"github.com/widgetd/widgetd/internal/testcert"
)

// publicDevHost is the public name the TLS reverse proxy answers to, standing
// in for a tunnel's name: not loopback, resolved to 127.0.0.1 only inside
// Chromium (--host-resolver-rules) and the test's own HTTP client.
const publicDevHost = "widgets-dev.example"

// TestDevModeLiveInHost is issue 23's dev loop end to end: the example
// server in dev mode (switched on by WIDGETD_DEV_URL alone, no code change),
// a real `widgetd dev` on a copy of the hello widget, the official go-sdk
// client reading the resource, and the real AppBridge host rendering what
// resources/read returned under the CSP built from its _meta. Every edit to
// the widget's source appears in the host's iframe without another
// resources/read, without a second ui/initialize reaching the host, and with
// the tool result the host sent once; the direct case also shows a build
// error over the last good widget and the skybridge resource live in the
// ChatGPT stand-in. The tls-proxy case puts nginx with TLS
// in front of widgetd dev under a public, non-loopback name (as a tunnel
// would) and measures edit-to-visible inside the host page.
func TestDevModeLiveInHost(t *testing.T) {
	for _, c := range []struct {
		name  string
		proxy bool
		edits int
	}{
		{"direct", false, 2},
		{"tls-proxy", true, 10},
	} {
		t.Run(c.name, func(t *testing.T) { testDevModeLive(t, c.proxy, c.edits) })
	}
}

func testDevModeLive(t *testing.T, proxy bool, edits int) {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	dev, src := startDevOnHello(t, proxy)
	devURL := dev.url
	var flags []chromedp.ExecAllocatorOption
	if proxy {
		devURL = dev.public
		flags = append(flags, chromedp.Flag("host-resolver-rules", "MAP "+publicDevHost+" 127.0.0.1"),
			chromedp.Flag("ignore-certificate-errors-spki-list", dev.spki))
		checkProxiedGuards(t, dev)
	}

	// The example server, unchanged: dev mode comes from the environment.
	t.Setenv(assets.DevURLEnv, devURL)
	h, reg, err := NewHandler(t.Context(), Dist(), Config{})
	if err != nil {
		t.Fatal(err)
	}
	if reg.DevURL() != devURL {
		t.Fatalf("registry DevURL = %q, want %q from %s", reg.DevURL(), devURL, assets.DevURLEnv)
	}
	reads := &readCounter{next: h}
	srv := httptest.NewServer(reads)
	t.Cleanup(srv.Close)
	cs := connectGoSDK(t, srv.URL, "widgetd-dev-test")

	uri := checkDevListUnchanged(t, ctx, cs)
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "hello", Arguments: map[string]any{"name": "Ada"}})
	if err != nil || res.IsError {
		t.Fatalf("tools/call hello: %v %v", err, res)
	}
	html, csp := readWidget(t, ctx, cs, uri, assets.MIMETypeMCPApp)
	if !strings.Contains(html, `name="widgetd-dev"`) || !strings.Contains(csp, devURL) {
		t.Fatalf("resources/read in dev mode: no dev shell or CSP without %s:\nCSP %s\n%s", devURL, csp, html)
	}

	browser, mux, host := startHosts(t, flags)
	mux.Handle("GET /w/hello", browsertest.WidgetHandler([]byte(html), csp))

	p := browser.NewPage(t)
	p.OpenHost(host.URL+browsertest.MCPHostPath, "/w/hello", map[string]any{"input": map[string]any{"name": "Ada"}, "result": toMap(t, res)})
	p.Wait(browsertest.W + `.document.getElementById("widgetd-dev").contentDocument.querySelector(".hello__title")?.textContent == "Hello, Ada!"`)
	p.Wait(`hostLog.some(e => e.t == "size" && e.p.height > 0)`)
	readsBefore := reads.n.Load()

	times := timeEdits(t, p, dev, src, edits)
	if n := reads.n.Load(); n != readsBefore {
		t.Errorf("the host's widget updated, but after %d more resources/read; want none", n-readsBefore)
	}
	if got := len(p.HostLog("initialized")); got != 1 {
		t.Errorf("host saw %d ui/notifications/initialized, want 1 (later documents are answered by the shell)", got)
	}
	if !proxy {
		checkBuildErrorShown(t, p, src, fmt.Sprintf("Edit %d, Ada!", edits))
		checkChatGPTLive(t, ctx, cs, browser, mux, host.URL, src, toMap(t, res), "Fixed, Ada!")
	}
	var gens int
	p.Eval(`+`+browsertest.W+`.document.documentElement.getAttribute("data-widgetd-dev-gen")`, &gens)
	if gens < edits+1 {
		t.Errorf("the shell loaded %d widget documents, want at least %d (the first and one per edit)", gens, edits+1)
	}
	p.NoErrors()
	med := func(d []time.Duration) time.Duration { slices.Sort(d); return d[len(d)/2] }
	t.Logf("edit-to-visible in the host page (proxy=%v), %d edits: median %v (min %v, max %v); new document in the frame after median %v; rebuild alone median %v",
		proxy, len(times.visible), med(times.visible), times.visible[0], times.visible[len(times.visible)-1], med(times.swapped), med(times.rebuilds))
}

// editTimes are the durations timeEdits measured, one per edit (rebuilds:
// one per build).
type editTimes struct {
	visible  []time.Duration // save to the new text in the host's iframe
	swapped  []time.Duration // save to the new document in the shell's frame
	rebuilds []time.Duration // widgetd dev's rebuild alone
}

// timeEdits saves edits changes to the widget's title and waits for each in
// the host page, timed on the page's clock (the same wall clock as the
// test's): when the shell swaps the document (its generation attribute
// changes) and when the new text shows.
func timeEdits(t *testing.T, p *browsertest.Page, dev *devUnderTest, src editable, edits int) editTimes {
	t.Helper()
	const title = browsertest.W + `.document.getElementById("widgetd-dev").contentDocument.querySelector(".hello__title")?.textContent`
	const gen = browsertest.W + `.document.documentElement.getAttribute("data-widgetd-dev-gen")`
	var out editTimes
	for i := 1; i <= edits; i++ {
		want := fmt.Sprintf("Edit %d, Ada!", i)
		p.Eval(`(window.__genAt = 0, window.__g0 = `+gen+`, (function pg() { if (`+gen+` != window.__g0) { window.__genAt = Date.now(); return } setTimeout(pg, 2) })(),
			window.__seen = 0, (function poll() { try { if (`+title+` == `+browsertest.JS(want)+`) { window.__seen = Date.now(); return } } catch {} setTimeout(poll, 2) })())`, nil)
		start := time.Now()
		edited := strings.Replace(src.text, "`Hello, ${", fmt.Sprintf("`Edit %d, ${", i), 1)
		if edited == src.text {
			t.Fatalf("%s has no `Hello, ${ to edit", src.path)
		}
		saveAtomically(t, src.path, edited)
		p.Wait(`window.__seen > 0`)
		var seen, swapped int64
		p.Eval(`window.__seen`, &seen)
		p.Eval(`window.__genAt`, &swapped)
		out.visible = append(out.visible, time.UnixMilli(seen).Sub(start))
		out.swapped = append(out.swapped, time.UnixMilli(swapped).Sub(start))
		out.rebuilds = append(out.rebuilds, dev.rebuildTimes()...)
	}
	return out
}

// saveAtomically replaces path's contents the way most editors save: a
// temporary file (dot-named, so the watcher ignores it) renamed over it.
func saveAtomically(t *testing.T, path, text string) {
	t.Helper()
	tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp")
	if err := os.WriteFile(tmp, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		t.Fatal(err)
	}
}

// checkBuildErrorShown saves a syntax error: the shell shows the
// diagnostic above the last good widget, which keeps showing current; the
// fix clears it and the fixed code shows.
func checkBuildErrorShown(t *testing.T, p *browsertest.Page, src editable, current string) {
	t.Helper()
	const shell = browsertest.W + `.document`
	const title = shell + `.getElementById("widgetd-dev").contentDocument.querySelector(".hello__title")?.textContent`
	saveAtomically(t, src.path, src.text+"\nconst broken = ;\n")
	p.Wait(shell + `.getElementById("widgetd-dev-status").textContent.includes("index.ts") && !` + shell + `.getElementById("widgetd-dev-status").hidden`)
	p.Wait(title + ` == ` + browsertest.JS(current))
	saveAtomically(t, src.path, strings.Replace(src.text, "`Hello, ${", "`Fixed, ${", 1))
	p.Wait(title + ` == "Fixed, Ada!" && ` + shell + `.getElementById("widgetd-dev-status").hidden`)
}

// startHosts serves the test host pages on a loopback origin (widget routes
// are added to mux) and launches Chromium with flags.
func startHosts(t *testing.T, flags []chromedp.ExecAllocatorOption) (*browsertest.Browser, *http.ServeMux, *httptest.Server) {
	t.Helper()
	hosts, err := browsertest.LoadHosts()
	if err != nil {
		t.Fatal(err)
	}
	browser, err := browsertest.LaunchWith(context.Background(), flags...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(browser.Close)
	mux := http.NewServeMux()
	mux.Handle("/", hosts.Handler())
	host := httptest.NewServer(mux)
	t.Cleanup(host.Close)
	return browser, mux, host
}

// checkChatGPTLive renders the openai/outputTemplate resource, read in dev
// mode, in the ChatGPT stand-in (window.openai in the document the host
// loads): the shell hands window.openai to the widget, which shows the
// current dev build (showing, after the earlier edits, current), then an
// edit.
func checkChatGPTLive(t *testing.T, ctx context.Context, cs *mcp.ClientSession, browser *browsertest.Browser, mux *http.ServeMux, hostURL string, src editable, result map[string]any, current string) {
	t.Helper()
	lt, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var uri string
	for _, tl := range lt.Tools {
		if tl.Name == "hello" {
			uri, _ = tl.Meta["openai/outputTemplate"].(string)
		}
	}
	html, csp := readWidget(t, ctx, cs, uri, assets.MIMETypeSkybridge)
	mux.Handle("GET /w/hello.skybridge", browsertest.WidgetHandler([]byte(html), csp))
	p := browser.NewPage(t)
	globals := map[string]any{"toolInput": map[string]any{"name": "Ada"}, "toolOutput": result["structuredContent"]}
	p.OpenHost(hostURL+browsertest.ChatGPTHostPath, "/w/hello.skybridge?"+browsertest.ChatGPTQuery, globals, map[string]any{})
	const title = browsertest.W + `.document.getElementById("widgetd-dev").contentDocument.querySelector(".hello__title")?.textContent`
	p.Wait(title + ` == ` + browsertest.JS(current))
	saveAtomically(t, src.path, strings.Replace(src.text, "`Hello, ${", "`Live in ChatGPT, ${", 1))
	p.Wait(title + ` == "Live in ChatGPT, Ada!"`)
	p.NoErrors()
}

// checkDevListUnchanged checks that dev mode leaves resources/list and the
// tool _meta exactly as the embedded dist gives them, and returns the hello
// tool's resource URI.
func checkDevListUnchanged(t *testing.T, ctx context.Context, cs *mcp.ClientSession) string {
	t.Helper()
	plain, err := assets.Load(Dist(), assets.WithDev(""))
	if err != nil {
		t.Fatal(err)
	}
	lr, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := plain.Resources(assets.Client{Name: "widgetd-dev-test"})
	if len(lr.Resources) != len(want) {
		t.Fatalf("resources/list: %d entries, want %d", len(lr.Resources), len(want))
	}
	for i, r := range lr.Resources {
		if r.URI != want[i].URI || browsertest.JS(map[string]any(r.Meta)) != browsertest.JS(want[i].Meta) {
			t.Errorf("resources/list[%d] = %s %s, want the embedded %s %s", i, r.URI, browsertest.JS(r.Meta), want[i].URI, browsertest.JS(want[i].Meta))
		}
	}
	lt, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tl := range lt.Tools {
		if tl.Name != "hello" {
			continue
		}
		wantMeta, err := plain.ToolMeta("hello", assets.ToolOptions{})
		if err != nil {
			t.Fatal(err)
		}
		ui, _ := tl.Meta["ui"].(map[string]any)
		if uri, _ := ui["resourceUri"].(string); uri != wantMeta["ui"].(map[string]any)["resourceUri"] {
			t.Fatalf("hello tool resourceUri %q, want the embedded %v", uri, wantMeta["ui"])
		}
		return ui["resourceUri"].(string)
	}
	t.Fatal("no hello tool")
	return ""
}

// readCounter counts the resources/read requests reaching the MCP endpoint.
type readCounter struct {
	next http.Handler
	n    atomic.Int32
}

func (c *readCounter) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		if bytes.Contains(body, []byte(`"resources/read"`)) {
			c.n.Add(1)
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
	}
	c.next.ServeHTTP(w, r)
}

// devUnderTest is a running widgetd dev, optionally behind nginx with TLS.
type devUnderTest struct {
	url    string // the preview origin on loopback
	public string // https://publicDevHost:port behind nginx, or ""
	spki   string // base64 SHA-256 of nginx's certificate key (Chromium's pin)
	client *http.Client
	events <-chan *devserver.BuildEvent
}

// rebuildTimes drains the build events that arrived so far and returns
// their durations.
func (d *devUnderTest) rebuildTimes() []time.Duration {
	var out []time.Duration
	for {
		select {
		case ev := <-d.events:
			out = append(out, time.Duration(ev.DurationMs*float64(time.Millisecond)))
		default:
			return out
		}
	}
}

// editable is the widget source file the test edits.
type editable struct{ path, text string }

// startDevOnHello copies the hello example widget into a fresh project and
// runs widgetd dev on it, behind nginx with TLS under publicDevHost when
// proxy is set.
func startDevOnHello(t *testing.T, proxy bool) (*devUnderTest, editable) {
	t.Helper()
	root := t.TempDir()
	dir := filepath.Join(root, "widgets", "hello")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var src editable
	for _, f := range []string{"widget.json", "index.ts", "hello.css"} {
		b, err := os.ReadFile(browsertest.RepoPath(t, "widgets/hello/"+f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), b, 0o644); err != nil {
			t.Fatal(err)
		}
		if f == "index.ts" {
			src = editable{path: filepath.Join(dir, f), text: string(b)}
		}
	}
	d := &devUnderTest{client: http.DefaultClient}
	opts := devserver.Options{Root: root, WidgetsDir: filepath.Join(root, "widgets"), Addr: "127.0.0.1:0", Log: &syncbuf.Buffer{}, PollInterval: 20 * time.Millisecond}
	nginxPort := 0
	if proxy {
		nginxPort = daemontest.FreePort(t)
		d.public = fmt.Sprintf("https://%s:%d", publicDevHost, nginxPort)
		opts.PublicURL = d.public
	}
	s, err := devserver.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	events, unsub := s.Subscribe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	t.Cleanup(func() { cancel(); unsub(); <-done })
	select {
	case ev := <-events:
		if !ev.OK {
			t.Fatalf("first dev build failed: %+v\n%s", ev.Diagnostics, opts.Log)
		}
	case <-time.After(60 * time.Second):
		t.Fatalf("no first dev build:\n%s", opts.Log)
	}
	d.url = strings.TrimSuffix(s.PreviewURL(), "/")
	d.events = events
	if proxy {
		d.spki, d.client = startTLSProxy(t, nginxPort, strings.TrimPrefix(d.url, "http://"))
	}
	return d, src
}

// startTLSProxy runs nginx with a certificate for publicDevHost on port,
// proxying to backend (host:port) as a tunnel's edge would; it returns the
// certificate's SPKI pin and an HTTP client that reaches publicDevHost.
func startTLSProxy(t *testing.T, port int, backend string) (spki string, client *http.Client) {
	t.Helper()
	certDir := t.TempDir()
	spki, pool := writeCert(t, certDir)
	conf := strings.NewReplacer("{{certs}}", certDir, "{{port}}", fmt.Sprint(port),
		"{{host}}", publicDevHost, "{{backend}}", backend).Replace(devProxyConf)
	nginxtest.Start(t, conf, port)
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	dial := &net.Dialer{Timeout: 5 * time.Second}
	client = &http.Client{Timeout: 20 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{RootCAs: pool},
		DialContext: func(ctx context.Context, network, a string) (net.Conn, error) {
			return dial.DialContext(ctx, network, addr) // the test's host-resolver rule
		},
	}}
	t.Cleanup(client.CloseIdleConnections)
	return spki, client
}

// devProxyConf is nginx as a tunnel's edge: TLS for the public name, the
// public Host passed on, the event stream unbuffered.
const devProxyConf = `worker_processes 1;
{{user}}
pid {{prefix}}/nginx.pid;
error_log {{prefix}}/error.log warn;
events { worker_connections 256; }
http {
  access_log off;
  {{temp_paths}}
  server {
    listen 127.0.0.1:{{port}} ssl;
    server_name {{host}};
    ssl_certificate {{certs}}/cert.pem;
    ssl_certificate_key {{certs}}/key.pem;
    location / {
      proxy_pass http://{{backend}};
      proxy_http_version 1.1;
      proxy_set_header Host $http_host;
      proxy_set_header Connection "";
      proxy_set_header X-Forwarded-Proto https;
      proxy_set_header X-Forwarded-Host $http_host;
      proxy_buffering off;
      proxy_read_timeout 1h;
    }
  }
}
`

// writeCert writes a certificate for publicDevHost, issued by a CA made
// for the test, to dir/cert.pem and its key to dir/key.pem, and returns the
// key's SPKI pin and a pool trusting the certificate.
func writeCert(t *testing.T, dir string) (string, *x509.CertPool) {
	t.Helper()
	ca := testcert.NewCA(t)
	cert := ca.Issue(t, 1, filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem"), publicDevHost)
	sum := sha256.Sum256(cert.RawSubjectPublicKeyInfo)
	return base64.StdEncoding.EncodeToString(sum[:]), ca.Pool()
}

// checkProxiedGuards checks widgetd dev's guards under the public name:
// the name is allowed, the shell's read-only endpoints answer a host's
// sandbox origin with CORS, and a state-changing POST from another origin is
// refused while the preview's own public origin may post.
func checkProxiedGuards(t *testing.T, d *devUnderTest) {
	t.Helper()
	do := func(method, path, origin string) *http.Response {
		var body io.Reader
		if method == http.MethodPost {
			body = strings.NewReader(`{"widget":"hello","directive":"connect-src","blockedURI":"https://x.example/a"}`)
		}
		req, err := http.NewRequest(method, d.public+path, body)
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("Content-Type", "application/json")
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		res, err := d.client.Do(req)
		if err != nil {
			t.Fatalf("%s %s through nginx: %v", method, path, err)
		}
		_, _ = io.Copy(io.Discard, res.Body)
		res.Body.Close()
		return res
	}
	const sandbox = "https://abc123.claudemcpcontent.com"
	if res := do(http.MethodGet, "/_widgetd/doc/hello", sandbox); res.StatusCode != 200 || res.Header.Get("Access-Control-Allow-Origin") != sandbox {
		t.Errorf("GET /_widgetd/doc/hello from a host sandbox through nginx: %d, ACAO %q", res.StatusCode, res.Header.Get("Access-Control-Allow-Origin"))
	}
	if res := do(http.MethodPost, "/_widgetd/csp-report", "https://evil.example"); res.StatusCode != http.StatusForbidden {
		t.Errorf("cross-origin POST through nginx: %d, want 403", res.StatusCode)
	}
	if res := do(http.MethodPost, "/_widgetd/csp-report", sandbox); res.StatusCode != http.StatusForbidden || res.Header.Get("Access-Control-Allow-Origin") != "" {
		t.Errorf("POST from a host sandbox through nginx: %d (ACAO %q), want 403 without CORS", res.StatusCode, res.Header.Get("Access-Control-Allow-Origin"))
	}
	if res := do(http.MethodPost, "/_widgetd/csp-report", d.public); res.StatusCode != http.StatusOK {
		t.Errorf("POST from the public preview origin through nginx: %d, want 200", res.StatusCode)
	}
}
