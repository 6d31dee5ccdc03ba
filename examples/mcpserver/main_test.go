package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	mcpgoclient "github.com/mark3labs/mcp-go/client"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/assets/assetstest"
	"github.com/widgetd/widgetd/assets/gosdk"
)

const connector = "https://mcp.example.com/mcp"

// serve starts the example on a real loopback HTTP server over the embedded
// (real, widgetd-built) dist or over fsysDir when given.
func serve(t *testing.T, fsysDir string) (*httptest.Server, *assets.Registry) {
	t.Helper()
	dist := Dist()
	if fsysDir != "" {
		dist = os.DirFS(fsysDir)
	}
	h, reg, err := NewHandler(context.Background(), dist, Config{ConnectorURL: connector})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv, reg
}

func connectGoSDK(t *testing.T, url, clientName string) *mcp.ClientSession {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	c := mcp.NewClient(&mcp.Implementation{Name: clientName, Version: "1.0"}, nil)
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url + "/mcp", DisableStandaloneSSE: true}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

// TestGoSDKClient drives the example over real streamable HTTP with the
// official SDK client: list, read (hashed and alias), tool _meta, tools/call,
// and the widget files on the same mux.
func TestGoSDKClient(t *testing.T) {
	srv, reg := serve(t, "")
	ctx := context.Background()
	cs := connectGoSDK(t, srv.URL, "some-host")

	if ext := cs.InitializeResult().Capabilities.Extensions; ext == nil || ext[assets.ExtensionID] == nil {
		t.Errorf("server does not advertise %s: %v", assets.ExtensionID, cs.InitializeResult().Capabilities)
	}
	lr, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	man := reg.Manifest()
	if want := 2 * len(man.Widgets); len(lr.Resources) != want {
		t.Fatalf("resources/list gave %d resources, want %d", len(lr.Resources), want)
	}
	listed := map[string]*mcp.Resource{}
	for _, r := range lr.Resources {
		listed[r.URI] = r
		checkMeta(t, "list "+r.URI, r.Meta)
	}
	for _, w := range man.Widgets {
		for _, p := range w.Profiles {
			r := listed[p.URI]
			if r == nil {
				t.Errorf("%s not listed", p.URI)
				continue
			}
			if r.MIMEType != p.MIMEType {
				t.Errorf("%s: mimeType %q, want %q", p.URI, r.MIMEType, p.MIMEType)
			}
			html, err := os.ReadFile("dist/" + w.HTML)
			if err != nil {
				t.Fatal(err)
			}
			for _, uri := range []string{p.URI, p.AliasURI} {
				res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
				if err != nil {
					t.Errorf("read %s: %v", uri, err)
					continue
				}
				if len(res.Contents) != 1 {
					t.Fatalf("read %s: %d contents", uri, len(res.Contents))
				}
				c := res.Contents[0]
				if c.URI != uri || c.MIMEType != p.MIMEType || c.Text != string(html) {
					t.Errorf("read %s: uri %s mime %s, text matches: %v", uri, c.URI, c.MIMEType, c.Text == string(html))
				}
				checkMeta(t, "read "+uri, c.Meta)
			}
		}
	}
	if _, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "ui://widget/nope.html"}); err == nil {
		t.Error("reading an unknown URI succeeded")
	}

	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tools.Tools) != len(man.Widgets) {
		t.Errorf("%d tools for %d widgets", len(tools.Tools), len(man.Widgets))
	}
	for _, tool := range tools.Tools {
		for _, key := range []string{"ui/resourceUri", "openai/outputTemplate"} {
			uri, _ := tool.Meta[key].(string)
			if _, ok := listed[uri]; !ok {
				t.Errorf("tool %s: _meta[%q] = %q is not a listed resource", tool.Name, key, uri)
			}
		}
		ui, _ := tool.Meta["ui"].(map[string]any)
		if uri, _ := ui["resourceUri"].(string); listed[uri] == nil || listed[uri].MIMEType != assets.MIMETypeMCPApp {
			t.Errorf("tool %s: ui.resourceUri %q is not a listed mcp-app resource", tool.Name, uri)
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool.Name, Arguments: map[string]any{}})
		if err != nil || res.IsError {
			t.Errorf("call %s: %v %v", tool.Name, err, res)
			continue
		}
		if res.StructuredContent == nil || len(res.Content) == 0 {
			t.Errorf("call %s: structuredContent %v, content %v", tool.Name, res.StructuredContent, res.Content)
		}
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "hello", Arguments: map[string]any{"name": "Ada"}})
	if err == nil {
		b, _ := json.Marshal(res.StructuredContent)
		if !strings.Contains(string(b), `"name":"Ada"`) {
			t.Errorf("hello structuredContent = %s", b)
		}
	}

	// The widget files are on the same mux.
	w := man.Widgets[0]
	req, _ := http.NewRequest("GET", srv.URL+"/widgets/"+w.HTML, nil)
	req.Header.Set("Accept-Encoding", "br")
	resp, err := (&http.Client{Transport: &http.Transport{DisableCompression: true}}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Encoding") != "br" || resp.Header.Get("Cache-Control") != assets.CacheImmutable {
		t.Errorf("GET /widgets/%s: %d %v", w.HTML, resp.StatusCode, resp.Header)
	}
}

// checkMeta asserts both metadata shapes are present.
func checkMeta(t *testing.T, what string, m map[string]any) {
	t.Helper()
	ui, _ := m["ui"].(map[string]any)
	if ui == nil || ui["csp"] == nil {
		t.Errorf("%s: _meta.ui.csp missing: %v", what, m)
	}
	if m["openai/widgetCSP"] == nil {
		t.Errorf("%s: openai/widgetCSP missing: %v", what, m)
	}
}

// TestRetainedURIs reads old hashed URIs through the example server over a
// dist with a retained previous build.
func TestRetainedURIs(t *testing.T) {
	d := assetstest.New(t, assetstest.Options{})
	srv, _ := serve(t, d.Dir)
	cs := connectGoSDK(t, srv.URL, "some-host")
	for _, uri := range d.OldURIs {
		res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			t.Errorf("read retained %s: %v", uri, err)
			continue
		}
		old, _ := os.ReadFile(d.Dir + "/" + d.OldHTML)
		if res.Contents[0].Text != string(old) || res.Contents[0].URI != uri {
			t.Errorf("read retained %s: wrong contents", uri)
		}
	}
}

// TestPerHostDomain checks that a Claude client gets the hash domain on both
// list and read, through the real SDK.
func TestPerHostDomain(t *testing.T) {
	d := assetstest.New(t, assetstest.Options{})
	srv, _ := serve(t, d.Dir)
	cs := connectGoSDK(t, srv.URL, "claude-ai")
	want := assets.ClaudeDomain(connector)
	lr, err := cs.ListResources(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range lr.Resources {
		if got := r.Meta["ui"].(map[string]any)["domain"]; got != want {
			t.Errorf("list %s: ui.domain %v, want %s", r.URI, got, want)
		}
		res, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: r.URI})
		if err != nil {
			t.Fatal(err)
		}
		if got := res.Contents[0].Meta["ui"].(map[string]any)["domain"]; got != want {
			t.Errorf("read %s: ui.domain %v, want %s", r.URI, got, want)
		}
	}
	// A second client with another name on the same server is unaffected.
	other := connectGoSDK(t, srv.URL, "openai-mcp")
	lr, _ = other.ListResources(context.Background(), nil)
	for _, r := range lr.Resources {
		if got := r.Meta["ui"].(map[string]any)["domain"]; got == want {
			t.Errorf("openai client got Claude's domain on %s", r.URI)
		}
	}
}

// TestMCPGoClient drives the example with mark3labs/mcp-go's streamable HTTP
// client.
func TestMCPGoClient(t *testing.T) {
	srv, reg := serve(t, "")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := mcpgoclient.NewStreamableHttpClient(srv.URL + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcpgo.InitializeRequest{}
	init.Params.ProtocolVersion = "2025-11-25" // the newest version both SDKs speak
	init.Params.ClientInfo = mcpgo.Implementation{Name: "mcp-go-test", Version: "1.0"}
	if _, err := c.Initialize(ctx, init); err != nil {
		t.Fatalf("initialize: %v", err)
	}
	lr, err := c.ListResources(ctx, mcpgo.ListResourcesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(lr.Resources) != 2*len(reg.Manifest().Widgets) {
		t.Fatalf("%d resources", len(lr.Resources))
	}
	for _, r := range lr.Resources {
		if r.Meta == nil {
			t.Fatalf("%s: no _meta", r.URI)
		}
		checkMeta(t, "mcp-go list "+r.URI, r.Meta.AdditionalFields)
		req := mcpgo.ReadResourceRequest{}
		req.Params.URI = r.URI
		res, err := c.ReadResource(ctx, req)
		if err != nil {
			t.Fatalf("read %s: %v", r.URI, err)
		}
		tc, ok := mcpgo.AsTextResourceContents(res.Contents[0])
		if !ok || tc.MIMEType != r.MIMEType || tc.URI != r.URI || !strings.HasPrefix(strings.ToLower(tc.Text), "<!doctype html") {
			t.Errorf("read %s: %+v", r.URI, res.Contents[0])
			continue
		}
		checkMeta(t, "mcp-go read "+r.URI, tc.Meta)
	}
	for _, w := range reg.Manifest().Widgets {
		for _, p := range w.Profiles {
			req := mcpgo.ReadResourceRequest{}
			req.Params.URI = p.AliasURI
			if _, err := c.ReadResource(ctx, req); err != nil {
				t.Errorf("read alias %s: %v", p.AliasURI, err)
			}
		}
	}
	tools, err := c.ListTools(ctx, mcpgo.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range tools.Tools {
		if tool.Meta == nil || tool.Meta.AdditionalFields["openai/outputTemplate"] == nil {
			t.Errorf("tool %s: no widget _meta", tool.Name)
		}
		call := mcpgo.CallToolRequest{}
		call.Params.Name = tool.Name
		res, err := c.CallTool(ctx, call)
		if err != nil || res.IsError || res.StructuredContent == nil {
			t.Errorf("call %s: %v %+v", tool.Name, err, res)
		}
	}
}

// TestToolsAuditClean lists the example's tools over real HTTP and audits
// them as a client (and widgetd check --mcp) sees them: every tool declares
// the outputSchema go-sdk infers from its output type, so no rule fires, not
// even a warning.
func TestToolsAuditClean(t *testing.T) {
	srv, reg := serve(t, "")
	cs := connectGoSDK(t, srv.URL, "some-host")
	lt, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(lt.Tools) == 0 {
		t.Fatal("no tools listed")
	}
	for _, tool := range lt.Tools {
		if schema, _ := tool.OutputSchema.(map[string]any); schema["type"] != "object" {
			t.Errorf("tool %s: outputSchema %v, want an object schema", tool.Name, tool.OutputSchema)
		}
	}
	findings, err := gosdk.Audit(reg, lt.Tools...)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range findings {
		t.Errorf("finding: %s", f)
	}
}
