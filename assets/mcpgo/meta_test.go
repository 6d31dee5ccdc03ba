package mcpgo_test

import (
	"context"
	"encoding/json"
	"flag"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/assets/assetstest"
	"github.com/widgetd/widgetd/assets/internal/adaptertest"
	"github.com/widgetd/widgetd/assets/mcpgo"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.json (a diff means the tools/list wire output changed)")

const fileInput = `{"type":"object","properties":{"q":{"type":"string"},"photo":{"type":"object","properties":{"download_url":{"type":"string"},"file_id":{"type":"string"},"mime_type":{"type":"string"},"file_name":{"type":"string"}},"required":["download_url","file_id"]}},"required":["q"]}`

func metaServer(t *testing.T) *server.MCPServer {
	t.Helper()
	reg, _ := assetstest.Load(t, assetstest.Options{})
	s := server.NewMCPServer("test", "0.1.0", append(mcpgo.ServerOptions(reg, nil), server.WithToolCapabilities(false))...)
	mcpgo.AddResources(s, reg, nil)
	ann := []mcp.ToolOption{mcp.WithReadOnlyHintAnnotation(true), mcp.WithDestructiveHintAnnotation(false), mcp.WithOpenWorldHintAnnotation(false)}
	search := mcp.NewToolWithRawSchema("search", "Search with a widget.", json.RawMessage(fileInput))
	for _, o := range append(ann, mcp.WithOutputSchema[adaptertest.HintsSeen]()) {
		o(&search)
	}
	if err := mcpgo.AttachWidget(&search, reg, "counter", adaptertest.EveryToolOption()); err != nil {
		t.Fatal(err)
	}
	s.AddTool(search, func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		h := mcpgo.ClientHints(req.Params.Meta)
		out := adaptertest.HintsSeen{Locale: h.Locale, UserAgent: h.UserAgent, Subject: h.Subject, Session: h.Session, Organization: h.Organization, UI: mcpgo.SupportsUI(ctx)}
		if h.Location != nil {
			out.City, out.Latitude = h.Location.City, h.Location.Latitude
		}
		return mcp.NewToolResultStructured(out, "searched"), nil
	})
	plain := mcp.NewTool("plain", append(ann, mcp.WithDescription("No widget, public."))...)
	if err := mcpgo.SetSecuritySchemes(&plain, assets.SecurityScheme{Type: assets.SecurityNoAuth}); err != nil {
		t.Fatal(err)
	}
	if err := mcpgo.SetSecuritySchemes(&plain, assets.SecurityScheme{Type: "basic"}); err == nil {
		t.Error("SetSecuritySchemes accepted an unknown scheme type")
	}
	s.AddTool(plain, func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("ok"), nil
	})
	forecast := mcp.NewTool("forecast", append(ann, mcp.WithDescription("Three tiers."), mcp.WithOutputSchema[map[string]any]())...)
	if err := mcpgo.AttachWidget(&forecast, reg, "counter", assets.ToolOptions{}); err != nil {
		t.Fatal(err)
	}
	s.AddTool(forecast, func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcpgo.Result("Lisbon: sunny.", map[string]any{"city": "Lisbon"},
			assets.ResultMeta{WidgetState: assets.WidgetState{PrivateContent: map[string]any{"tab": 2}}, Data: map[string]any{"hourly": []int{16, 24}}})
	})
	findings, err := mcpgo.AuditServer(reg, s)
	adaptertest.NoFindings(t, findings, err)
	return s
}

// TestToolsListGolden pins the exact tools/list JSON an mcp-go server with
// the adapter sends over real HTTP: every ToolMeta key, and securitySchemes
// at the top level (added by SecuritySchemesHandler) beside its _meta mirror.
func TestToolsListGolden(t *testing.T) {
	srv := httptest.NewServer(mcpgo.SecuritySchemesHandler(server.NewStreamableHTTPServer(metaServer(t), server.WithStateLess(true))))
	defer srv.Close()
	adaptertest.ToolsListGolden(t, srv.URL+"/mcp", *update)
}

// TestClientHintsAndSupportsUI calls a tool with a real mcp-go client over
// streamable HTTP under both protocol eras (capabilities from initialize,
// and per request in _meta from 2026-07-28), with and without MCP Apps.
func TestClientHintsAndSupportsUI(t *testing.T) {
	// Wrapped, so the sessions also show the wrapper leaves other traffic alone.
	srv := httptest.NewServer(mcpgo.SecuritySchemesHandler(server.NewStreamableHTTPServer(metaServer(t))))
	defer srv.Close()
	hints := map[string]any{
		"openai/locale": "pt-PT", "openai/userAgent": "ChatGPT/1.2025", "openai/subject": "anon-user",
		"openai/session": "anon-conv", "openai/organization": "anon-org",
		"openai/userLocation": map[string]any{"city": "Lisbon", "latitude": 38.72},
	}
	withUI := map[string]any{assets.ExtensionID: map[string]any{"mimeTypes": []any{assets.MIMETypeMCPApp}}}
	for _, version := range []string{"2025-06-18", mcp.LATEST_PROTOCOL_VERSION} {
		for _, tc := range []struct {
			name string
			ext  map[string]any
			meta map[string]any
			want adaptertest.HintsSeen
		}{
			{"ui client with hints", withUI, hints, adaptertest.HintsSeen{Locale: "pt-PT", UserAgent: "ChatGPT/1.2025", Subject: "anon-user", Session: "anon-conv", Organization: "anon-org", City: "Lisbon", Latitude: ptr(38.72), UI: true}},
			{"client without the extension", nil, nil, adaptertest.HintsSeen{}},
			{"extension without mimeTypes", map[string]any{assets.ExtensionID: map[string]any{}}, map[string]any{"openai/locale": 7}, adaptertest.HintsSeen{}},
		} {
			t.Run(version+"/"+tc.name, func(t *testing.T) {
				got := adaptertest.CallSearch(t, adaptertest.Call{URL: srv.URL + "/mcp", Version: version, Client: "openai-mcp",
					Extensions: tc.ext, Meta: tc.meta, Args: map[string]any{"q": "x"}})
				if a, b := adaptertest.MustJSON(t, got), adaptertest.MustJSON(t, tc.want); string(a) != string(b) {
					t.Errorf("handler saw %s, want %s", a, b)
				}
			})
		}
	}
}

// TestResult calls a tool answering with mcpgo.Result over real HTTP and
// finds each tier where hosts look for it.
func TestResult(t *testing.T) {
	srv := httptest.NewServer(server.NewStreamableHTTPServer(metaServer(t), server.WithStateLess(true)))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	raw, _, err := assetstest.PostRPC(ctx, srv.URL+"/mcp", nil, "tools/call", map[string]any{"name": "forecast", "arguments": map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	var res struct {
		Content           []map[string]any `json:"content"`
		StructuredContent map[string]any   `json:"structuredContent"`
		Meta              map[string]any   `json:"_meta"`
	}
	if err := json.Unmarshal(raw, &res); err != nil {
		t.Fatal(err)
	}
	state, _ := json.Marshal(res.Meta["openai/widgetState"])
	hourly, _ := json.Marshal(res.Meta["hourly"])
	if len(res.Content) != 1 || res.Content[0]["text"] != "Lisbon: sunny." || res.StructuredContent["city"] != "Lisbon" ||
		string(state) != `{"privateContent":{"tab":2}}` || string(hourly) != `[16,24]` {
		t.Errorf("tools/call result %s", raw)
	}
}

func ptr[T any](v T) *T { return &v }
