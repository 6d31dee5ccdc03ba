package mcpgo_test

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/assets/assetstest"
	"github.com/widgetd/widgetd/assets/audit"
	"github.com/widgetd/widgetd/assets/mcpgo"
)

// TestAdapter runs an mcp-go server built with the adapter behind real
// streamable HTTP and reads every kind of URI with mcp-go's client as Claude.
func TestAdapter(t *testing.T) {
	const connector = "https://mcp.example.com/mcp"
	reg, d := assetstest.Load(t, assetstest.Options{}, assets.WithConnectorURL(connector))
	s := server.NewMCPServer("test", "0.1.0", append(mcpgo.ServerOptions(reg, nil), server.WithToolCapabilities(false))...)
	mcpgo.AddResources(s, reg, nil)
	tool := mcp.NewTool("counter", mcp.WithDescription("show the counter"))
	if err := mcpgo.AttachWidget(&tool, reg, "counter", assets.ToolOptions{Invoking: "Counting"}); err != nil {
		t.Fatal(err)
	}
	s.AddTool(tool, func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultStructured(map[string]any{"n": 1}, "1"), nil
	})
	ctx, c, ir := connectHTTP(t, s, "claude-ai")
	if ir.Capabilities.Extensions[assets.ExtensionID] == nil {
		t.Errorf("extension not advertised: %+v", ir.Capabilities)
	}
	wantDomain := assets.ClaudeDomain(connector)
	lr, err := c.ListResources(ctx, mcp.ListResourcesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(lr.Resources) != 4 {
		t.Fatalf("%d resources listed, want 4", len(lr.Resources))
	}
	for _, r := range lr.Resources {
		if got := r.Meta.AdditionalFields["ui"].(map[string]any)["domain"]; got != wantDomain {
			t.Errorf("list %s: ui.domain %v, want %s", r.URI, got, wantDomain)
		}
	}
	uris := append([]string{"ui://widget/counter.html", "ui://widget/chart.skybridge.html"}, d.OldURIs...)
	for _, r := range lr.Resources {
		uris = append(uris, r.URI)
	}
	for _, uri := range uris {
		req := mcp.ReadResourceRequest{}
		req.Params.URI = uri
		res, err := c.ReadResource(ctx, req)
		if err != nil {
			t.Errorf("read %s: %v", uri, err)
			continue
		}
		tc, ok := mcp.AsTextResourceContents(res.Contents[0])
		if !ok || tc.URI != uri || tc.Text == "" {
			t.Errorf("read %s: %+v", uri, res.Contents[0])
			continue
		}
		wantMIME := assets.MIMETypeMCPApp
		if len(uri) > 15 && uri[len(uri)-15:] == ".skybridge.html" {
			wantMIME = assets.MIMETypeSkybridge
		}
		if tc.MIMEType != wantMIME {
			t.Errorf("read %s: mime %s, want %s", uri, tc.MIMEType, wantMIME)
		}
		if ui, _ := tc.Meta["ui"].(map[string]any); ui["domain"] != wantDomain {
			t.Errorf("read %s: ui.domain %v", uri, ui["domain"])
		}
	}
	req := mcp.ReadResourceRequest{}
	req.Params.URI = "ui://widget/nope.html"
	if _, err := c.ReadResource(ctx, req); err == nil {
		t.Error("unknown URI read succeeded")
	}
	tools, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	m := tools.Tools[0].Meta.AdditionalFields
	if m["openai/outputTemplate"] != d.Manifest.Widgets[1].Profiles[1].URI || m["openai/toolInvocation/invoking"] != "Counting" {
		t.Errorf("tool _meta = %v", m)
	}
}

func TestAudit(t *testing.T) {
	reg, _ := assetstest.Load(t, assetstest.Options{})
	good := mcp.NewTool("good", mcp.WithReadOnlyHintAnnotation(true), mcp.WithDestructiveHintAnnotation(false), mcp.WithOpenWorldHintAnnotation(false))
	if err := mcpgo.AttachWidget(&good, reg, "counter", assets.ToolOptions{Invoked: strings.Repeat("x", 65)}); err == nil {
		t.Fatal("AttachWidget accepted a 65-character status text")
	}
	if err := mcpgo.AttachWidget(&good, reg, "counter", assets.ToolOptions{Invoked: "Counted"}); err != nil {
		t.Fatal(err)
	}
	dangling := mcp.NewTool("dangling")
	dangling.Meta = mcp.NewMetaFromMap(map[string]any{"ui": map[string]any{"resourceUri": "ui://widget/nope.html"}})
	findings, err := mcpgo.Audit(reg, good, dangling)
	if err != nil {
		t.Fatal(err)
	}
	var rules []string
	for _, f := range findings {
		if f.Subject == "tool good" && f.Severity == audit.Error {
			t.Errorf("good tool: unexpected error %s", f)
		}
		rules = append(rules, f.Subject+":"+f.Rule)
	}
	if !strings.Contains(strings.Join(rules, " "), "tool dangling:"+audit.RuleToolResourceUnknown) {
		t.Errorf("dangling resourceUri not reported: %v", rules)
	}
}

// connectHTTP serves s over streamable HTTP on a test server and returns a
// context bounding the test's calls and an mcp-go client initialized as
// clientName, with what the server answered; all are closed at cleanup.
func connectHTTP(t *testing.T, s *server.MCPServer, clientName string) (context.Context, *client.Client, *mcp.InitializeResult) {
	t.Helper()
	srv := httptest.NewServer(server.NewStreamableHTTPServer(s))
	t.Cleanup(srv.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	c, err := client.NewStreamableHttpClient(srv.URL + "/mcp")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	if err := c.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	init.Params.ClientInfo = mcp.Implementation{Name: clientName, Version: "1.0"}
	ir, err := c.Initialize(ctx, init)
	if err != nil {
		t.Fatal(err)
	}
	return ctx, c, ir
}
