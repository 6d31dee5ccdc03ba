package devserver

import (
	"context"
	"maps"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestDevShellEndpoints checks what the dev shell of a registry in dev mode
// (assets.WithDev) reads: each widget's current document and the event
// stream, with CORS for a host on this machine but not for another site
// when there is no public URL.
func TestDevShellEndpoints(t *testing.T) {
	d := startDev(t, nil)
	d.mu.RLock()
	out := d.out
	d.mu.RUnlock()
	var hello string
	for _, w := range out.Manifest.Widgets {
		if w.Name == "hello" {
			hello = string(out.Files[w.HTML])
		}
	}
	const localHost = "http://127.0.0.1:8123"
	for _, tc := range []struct {
		name, path, origin string
		status             int
		acao               string
	}{
		{"doc for a local host", "_widgetd/doc/hello", localHost, 200, localHost},
		{"doc for localhost", "_widgetd/doc/hello", "http://localhost:3000", 200, "http://localhost:3000"},
		{"doc for another site", "_widgetd/doc/hello", "https://evil.example", 200, ""},
		{"rebinding name", "_widgetd/doc/hello", "http://rebind.evil.example:5173", 200, ""},
		{"unknown widget", "_widgetd/doc/nope", localHost, 404, localHost},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, body := get(t, d.PreviewURL()+tc.path, map[string]string{"Origin": tc.origin})
			if res.StatusCode != tc.status || res.Header.Get("Access-Control-Allow-Origin") != tc.acao {
				t.Fatalf("%s from %s: %d ACAO %q, want %d ACAO %q", tc.path, tc.origin, res.StatusCode, res.Header.Get("Access-Control-Allow-Origin"), tc.status, tc.acao)
			}
			if tc.status == 200 && body != hello {
				t.Errorf("%s is not the built document of hello", tc.path)
			}
			if res.Header.Get("Cache-Control") != "no-store" {
				t.Errorf("Cache-Control %q, want no-store", res.Header.Get("Cache-Control"))
			}
		})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, d.PreviewURL()+"_widgetd/events", nil)
	req.Header.Set("Origin", localHost)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if res.Header.Get("Access-Control-Allow-Origin") != localHost || res.Header.Get("Content-Type") != "text/event-stream" {
		t.Errorf("events for a local host: ACAO %q, Content-Type %q", res.Header.Get("Access-Control-Allow-Origin"), res.Header.Get("Content-Type"))
	}
}

// TestPublishMCPServer publishes a real go-sdk MCP server at /mcp of a dev
// server with a public URL: the official client works through it, a
// browser page of another origin cannot POST to it, and without a public
// URL nothing is published.
func TestPublishMCPServer(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "published", Version: "1.0.0"}, nil)
	mcp.AddTool(srv, &mcp.Tool{Name: "ping"}, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, struct{}, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "pong"}}}, struct{}{}, nil
	})
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	defer hs.Close()

	d := startDev(t, func(o *Options) { o.MCPURL = hs.URL + "/"; o.PublicURL = "https://tunnel.example.com" })
	if d.PublicMCPURL() != "https://tunnel.example.com/mcp" {
		t.Fatalf("PublicMCPURL = %q", d.PublicMCPURL())
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c := mcp.NewClient(&mcp.Implementation{Name: "chatgpt-backend", Version: "1"}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: d.PreviewURL() + "mcp"}, nil)
	if err != nil {
		t.Fatalf("connect through the published /mcp: %v", err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "ping", Arguments: map[string]any{}})
	if err != nil || len(res.Content) != 1 || res.Content[0].(*mcp.TextContent).Text != "pong" {
		t.Fatalf("tools/call through /mcp: %v %v", res, err)
	}
	post := func(extra map[string]string) int {
		hdr := map[string]string{"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
		maps.Copy(hdr, extra)
		code, _, _ := do(t, http.MethodPost, d.PreviewURL()+"mcp", "", hdr, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
		return code
	}
	if got := post(map[string]string{"Origin": "https://evil.example"}); got != http.StatusForbidden {
		t.Errorf("POST /mcp from another origin: %d, want 403", got)
	}
	if got := post(map[string]string{"Sec-Fetch-Site": "cross-site"}); got != http.StatusForbidden {
		t.Errorf("cross-site POST /mcp: %d, want 403", got)
	}

	local := startDev(t, func(o *Options) { o.MCPURL = hs.URL })
	if local.PublicMCPURL() != "" {
		t.Errorf("published without a public URL: %q", local.PublicMCPURL())
	}
	if got, _, _ := do(t, http.MethodPost, local.PreviewURL()+"mcp", "", nil, strings.NewReader(`{}`)); got != http.StatusMethodNotAllowed && got != http.StatusNotFound {
		t.Errorf("POST /mcp without a public URL: %d, want 404 or 405", got)
	}
}

// TestTrustForwardedOrigin posts a CSP report as the preview page would
// behind a TLS proxy named dev.lan (Origin https://dev.lan, the proxy's
// X-Forwarded-Proto/-Host): the origin the request was addressed to comes
// from those headers only with TrustForwarded.
func TestTrustForwardedOrigin(t *testing.T) {
	for _, tc := range []struct {
		name  string
		trust bool
		want  int
	}{
		{"trusted", true, http.StatusOK},
		{"not trusted", false, http.StatusForbidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := startDev(t, func(o *Options) { o.TrustForwarded = tc.trust; o.AllowedHosts = []string{"dev.lan"} })
			hdr := map[string]string{"Content-Type": "application/json", "Origin": "https://dev.lan", "X-Forwarded-Proto": "https", "X-Forwarded-Host": "dev.lan"}
			if code, _, _ := do(t, http.MethodPost, d.PreviewURL()+"_widgetd/csp-report", "dev.lan", hdr,
				strings.NewReader(`{"widget":"hello","directive":"connect-src","blockedURI":"https://x.example/a"}`)); code != tc.want {
				t.Errorf("POST from https://dev.lan via a proxy: %d, want %d", code, tc.want)
			}
		})
	}
}
