package devserver

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/widgetd/widgetd/assets"
)

// boundsServer is a real go-sdk MCP server over loopback HTTP with more
// tools than the inspector lists and widget resources of every shape the
// sandbox must handle: CSP only on the resources/list entry, skybridge
// with openai/widgetCSP, a base64 blob, an invalid CSP, a non-HTML
// resource, and one larger than the inspector reads.
func boundsServer(t *testing.T) string {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "bounds", Version: "1"}, nil)
	noop := func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, struct{}, error) {
		return &mcp.CallToolResult{}, struct{}{}, nil
	}
	for i := range maxServerTools + 5 {
		mcp.AddTool(srv, &mcp.Tool{Name: fmt.Sprintf("t%04d", i)}, noop)
	}
	page := "<!doctype html><html><head><title>%s</title></head><body>%s</body></html>"
	add := func(uri, mime string, listMeta, readMeta mcp.Meta, text string, blob []byte) {
		srv.AddResource(&mcp.Resource{URI: uri, Name: uri, MIMEType: mime, Meta: listMeta}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: mime, Text: text, Blob: blob, Meta: readMeta}}}, nil
		})
	}
	uiCSP := func(k string, v ...string) mcp.Meta {
		return mcp.Meta{"ui": map[string]any{"csp": map[string]any{k: v}}}
	}
	add("ui://widget/listed.html", assets.MIMETypeMCPApp, uiCSP("connectDomains", "https://api.example.com"), nil, fmt.Sprintf(page, "listed", "L"), nil)
	add("ui://widget/sky.skybridge.html", assets.MIMETypeSkybridge, nil, mcp.Meta{"openai/widgetCSP": map[string]any{"resource_domains": []string{"https://cdn.example.com"}}, "ui": map[string]any{"csp": map[string]any{"resourceDomains": []string{"https://other.example.com"}}}}, fmt.Sprintf(page, "sky", "S"), nil)
	add("ui://widget/blob.html", assets.MIMETypeMCPApp, nil, uiCSP("frameDomains", "https://embed.example.com"), "", []byte(fmt.Sprintf(page, "blob", "from a blob")))
	add("ui://widget/bad.html", assets.MIMETypeMCPApp, nil, uiCSP("connectDomains", "'unsafe-eval'"), fmt.Sprintf(page, "bad", "B"), nil)
	add("ui://widget/plain.txt", "text/plain", nil, nil, "not html", nil)
	add("ui://widget/huge.html", assets.MIMETypeMCPApp, nil, nil, fmt.Sprintf(page, "huge", strings.Repeat("x", maxServerResponse)), nil)
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	t.Cleanup(hs.Close)
	return hs.URL
}

// TestMCPInspectBounds: the tool list stops at maxServerTools and says so;
// the sandbox serves each resource shape under the CSP its _meta declares
// (resources/list entry when the content has none; openai/widgetCSP for
// skybridge) and refuses, with a message, an invalid CSP, a non-HTML
// resource and one larger than the inspector reads.
func TestMCPInspectBounds(t *testing.T) {
	d := startDev(t, func(o *Options) { o.MCPURL = boundsServer(t) })
	var tools inspectTools
	if code, _, body := inspectReq(t, "GET", d.PreviewURL()+"_widgetd/mcp/tools", "", nil, &tools); code != 200 || len(tools.Tools) != maxServerTools || !tools.Truncated {
		t.Fatalf("tools: %d, %d listed, truncated %v; want %d and true (%.200s)", code, len(tools.Tools), tools.Truncated, maxServerTools, body)
	}
	for _, c := range []struct {
		uri       string
		code      int
		want      string // in the CSP header (200) or the error text
		body      string // in the document
		notInCSP  string
		cspHeader bool
	}{
		{uri: "ui://widget/listed.html", code: 200, want: "connect-src 'self' https://api.example.com", body: "<title>listed"},
		{uri: "ui://widget/sky.skybridge.html", code: 200, want: "script-src 'self' 'unsafe-inline' https://cdn.example.com", body: "<title>sky", notInCSP: "other.example.com"},
		{uri: "ui://widget/blob.html", code: 200, want: "frame-src https://embed.example.com", body: "from a blob"},
		{uri: "ui://widget/bad.html", code: 502, want: "connectDomains"},
		{uri: "ui://widget/plain.txt", code: 502, want: `gave no widget HTML`},
		{uri: "ui://widget/huge.html", code: 502, want: fmt.Sprintf("larger than widgetd dev reads (more than %d bytes)", maxServerResponse)},
		{uri: "ui://widget/missing.html", code: 502, want: "resources/read ui://widget/missing.html"},
		{uri: "https://example.com/x.html", code: 400, want: "not a ui:// widget resource"},
		{uri: "", code: 400, want: "uri is missing"},
		{uri: "ui://widget/" + strings.Repeat("a", maxResourceURI), code: 400, want: "at most 2048"},
		{uri: "ui://widget/a b.html", code: 400, want: "control character or space"},
	} {
		t.Run(c.uri[:min(len(c.uri), 40)], func(t *testing.T) {
			code, hdr, body := inspectReq(t, "GET", d.SandboxURL()+ServerWidgetPath+"?uri="+url.QueryEscape(c.uri), "", nil, nil)
			csp := hdr.Get("Content-Security-Policy")
			if code != c.code {
				t.Fatalf("%d, want %d: %.300s", code, c.code, body)
			}
			if code == 200 && (!strings.Contains(csp, c.want) || !strings.Contains(body, c.body) || (c.notInCSP != "" && strings.Contains(csp, c.notInCSP)) || !strings.HasPrefix(csp, "default-src 'none'")) {
				t.Errorf("CSP %q (want %q, not %q), document %.300s", csp, c.want, c.notInCSP, body)
			}
			if code != 200 && (!strings.Contains(body, c.want) || csp != "") {
				t.Errorf("refusal %q lacks %q (or carries a CSP %q)", body, c.want, csp)
			}
		})
	}
	var ans map[string]string
	if code, _, body := inspectReq(t, "GET", d.PreviewURL()+"_widgetd/mcp/resource?uri="+url.QueryEscape("ui://widget/huge.html"), "", nil, &ans); code != 502 || !strings.Contains(ans["error"], "larger than") {
		t.Errorf("huge resources/read through the API: %d %.200s", code, body)
	}
	if code, _, body := inspectReq(t, "POST", d.PreviewURL()+"_widgetd/mcp/call", `{"name":"t0001","arguments":{"pad":"`+strings.Repeat("x", maxCallBody)+`"}}`, nil, &ans); code != http.StatusRequestEntityTooLarge {
		t.Errorf("oversized call body: %d %.200s; want 413", code, body)
	}
}

// TestMCPInspectRefusals: the inspector API answers only the preview page
// (Host allowlist, Origin and Sec-Fetch-Site as the other dev endpoints),
// says clearly when no server is configured or the server is down, and
// refuses malformed bodies.
func TestMCPInspectRefusals(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := "http://" + ln.Addr().String() + "/mcp"
	ln.Close() // nothing listens there any more
	d := startDev(t, func(o *Options) { o.MCPURL = down })
	none := startDev(t, nil)
	tools, call, res := "_widgetd/mcp/tools", "_widgetd/mcp/call", "_widgetd/mcp/resource?uri=ui%3A%2F%2Fwidget%2Fhello.html"
	info := "_widgetd/mcp/widget?uri=ui%3A%2F%2Fwidget%2Fhello.html"
	body := `{"name":"hello","arguments":{}}`
	for _, c := range []struct {
		name         string
		srv          *devServer
		method, path string
		body         string
		hdr          map[string]string
		code         int
		want         string
	}{
		{"foreign origin call", d, "POST", call, body, map[string]string{"Origin": "http://evil.example"}, 403, "cross-origin"},
		{"foreign origin, same-origin fetch", d, "POST", call, body, map[string]string{"Origin": "http://evil.example", "Sec-Fetch-Site": "same-origin"}, 403, "only the preview page"},
		{"cross-site tools", d, "GET", tools, "", map[string]string{"Sec-Fetch-Site": "cross-site"}, 403, "cross-origin"},
		{"cross-site resource", d, "GET", res, "", map[string]string{"Sec-Fetch-Site": "cross-site"}, 403, "cross-origin"},
		{"cross-site widget info", d, "GET", info, "", map[string]string{"Sec-Fetch-Site": "cross-site"}, 403, "cross-origin"},
		{"rebound host", d, "GET", tools, "", map[string]string{"Host": "rebind.evil.example"}, 403, "DNS rebinding"},
		{"not JSON", d, "POST", call, "name=hello", map[string]string{"Content-Type": "text/plain"}, 400, "Content-Type"},
		{"arguments not an object", d, "POST", call, `{"name":"hello","arguments":[1]}`, nil, 400, "request body"},
		{"no name", d, "POST", call, `{"arguments":{}}`, nil, 400, "name"},
		{"server down: tools", d, "GET", tools, "", nil, 502, "is the server running"},
		{"server down: call", d, "POST", call, body, nil, 502, down},
		{"server down: widget", d, "GET", "", "", nil, 502, down},
		{"server down: widget info", d, "GET", info, "", nil, 502, down},
		{"no --mcp: tools", none, "GET", tools, "", nil, 404, "--mcp"},
		{"no --mcp: call", none, "POST", call, body, nil, 404, "--mcp"},
		{"no --mcp: resource", none, "GET", res, "", nil, 404, "--mcp"},
		{"no --mcp: widget", none, "GET", "", "", nil, 404, "--mcp"},
		{"no --mcp: widget info", none, "GET", info, "", nil, 404, "--mcp"},
	} {
		t.Run(c.name, func(t *testing.T) {
			u := c.srv.PreviewURL() + c.path
			if c.path == "" {
				u = c.srv.SandboxURL() + ServerWidgetPath + "?uri=ui%3A%2F%2Fwidget%2Fhello.html"
			}
			code, _, got := inspectReq(t, c.method, u, c.body, c.hdr, nil)
			if code != c.code || !strings.Contains(got, c.want) {
				t.Errorf("%d %q; want %d with %q", code, got, c.code, c.want)
			}
		})
	}
}
