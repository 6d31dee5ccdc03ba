package gosdk_test

import (
	"context"
	"encoding/json"
	"flag"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	mcpgomcp "github.com/mark3labs/mcp-go/mcp"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/assets/assetstest"
	"github.com/widgetd/widgetd/assets/audit"
	"github.com/widgetd/widgetd/assets/gosdk"
	"github.com/widgetd/widgetd/assets/internal/adaptertest"
)

var update = flag.Bool("update", false, "rewrite testdata/*.golden.json (a diff means the tools/list wire output changed)")

// fileRef is the file object ChatGPT passes in an openai/fileParams field.
type fileRef struct {
	DownloadURL string `json:"download_url"`
	FileID      string `json:"file_id"`
	MimeType    string `json:"mime_type,omitempty"`
	FileName    string `json:"file_name,omitempty"`
}

type searchIn struct {
	Q     string  `json:"q"`
	Photo fileRef `json:"photo"`
}

func metaServer(t *testing.T) *mcp.Server {
	t.Helper()
	reg, _ := assetstest.Load(t, assetstest.Options{})
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ServerOptions{Capabilities: gosdk.AddExtension(nil)})
	gosdk.AddResources(s, reg, nil)
	gosdk.AddSecuritySchemes(s)
	ann := &mcp.ToolAnnotations{ReadOnlyHint: true, DestructiveHint: ptr(false), OpenWorldHint: ptr(false)}
	search := &mcp.Tool{Name: "search", Description: "Search with a widget.", Annotations: ann}
	if err := gosdk.AttachWidget(search, reg, "counter", adaptertest.EveryToolOption()); err != nil {
		t.Fatal(err)
	}
	mcp.AddTool(s, search, func(_ context.Context, req *mcp.CallToolRequest, in searchIn) (*mcp.CallToolResult, adaptertest.HintsSeen, error) {
		h := gosdk.ClientHints(req)
		out := adaptertest.HintsSeen{Locale: h.Locale, UserAgent: h.UserAgent, Subject: h.Subject, Session: h.Session, Organization: h.Organization, UI: gosdk.SupportsUI(req)}
		if h.Location != nil {
			out.City, out.Latitude = h.Location.City, h.Location.Latitude
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "searched " + in.Q}}}, out, nil
	})
	plain := &mcp.Tool{Name: "plain", Description: "No widget, public.", Annotations: ann}
	if err := gosdk.SetSecuritySchemes(plain, assets.SecurityScheme{Type: assets.SecurityNoAuth}); err != nil {
		t.Fatal(err)
	}
	mcp.AddTool(s, plain, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
	})
	bare := &mcp.Tool{Name: "bare", Description: "No securitySchemes at all.", Annotations: ann}
	mcp.AddTool(s, bare, func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
	})
	// Audit over the pointers misses what AddTool inferred on its copies.
	findings, err := gosdk.Audit(reg, search)
	if err != nil || !hasRule(findings, audit.RuleToolOutputSchemaMissing) {
		t.Errorf("Audit over the tool as written: %v, want %s (AddTool infers outputSchema on a copy): %v", err, audit.RuleToolOutputSchemaMissing, findings)
	}
	findings, err = gosdk.AuditServer(context.Background(), reg, s)
	adaptertest.NoFindings(t, findings, err)
	return s
}

// TestToolsListGolden pins the exact tools/list JSON a go-sdk server with
// the adapter sends over real HTTP: every ToolMeta key, the go-sdk-inferred
// outputSchema, and securitySchemes at the top level beside its _meta mirror.
func TestToolsListGolden(t *testing.T) {
	s := metaServer(t)
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}))
	defer srv.Close()
	adaptertest.ToolsListGolden(t, srv.URL, *update)
}

func hasRule(fs []audit.Finding, rule string) bool {
	for _, f := range fs {
		if f.Rule == rule {
			return true
		}
	}
	return false
}

// TestClientHintsAndSupportsUI calls a tool with a real go-sdk client over
// streamable HTTP, once as a client advertising MCP Apps and once as one
// without it, and checks what the handler read.
func TestClientHintsAndSupportsUI(t *testing.T) {
	s := metaServer(t)
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	hints := mcp.Meta{
		"openai/locale": "pt-PT", "openai/userAgent": "ChatGPT/1.2025", "openai/subject": "anon-user",
		"openai/session": "anon-conv", "openai/organization": "anon-org",
		"openai/userLocation": map[string]any{"city": "Lisbon", "country": "PT", "latitude": "38.72", "longitude": -9.14},
	}
	uiCaps := &mcp.ClientCapabilities{}
	uiCaps.AddExtension(assets.ExtensionID, map[string]any{"mimeTypes": []string{assets.MIMETypeMCPApp}})
	otherCaps := &mcp.ClientCapabilities{}
	otherCaps.AddExtension(assets.ExtensionID, map[string]any{"mimeTypes": []string{"text/uri-list"}})
	for _, tc := range []struct {
		name   string
		caps   *mcp.ClientCapabilities
		meta   mcp.Meta
		wantUI bool
		want   adaptertest.HintsSeen
	}{
		{"ui client with hints", uiCaps, hints, true, adaptertest.HintsSeen{Locale: "pt-PT", UserAgent: "ChatGPT/1.2025", Subject: "anon-user", Session: "anon-conv", Organization: "anon-org", City: "Lisbon", Latitude: ptr(38.72)}},
		{"client without the extension", &mcp.ClientCapabilities{}, nil, false, adaptertest.HintsSeen{}},
		{"extension without the mcp-app type", otherCaps, mcp.Meta{"webplus/i18n": "fr-FR", "openai/userLocation": "Paris"}, false, adaptertest.HintsSeen{Locale: "fr-FR"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := mcp.NewClient(&mcp.Implementation{Name: "openai-mcp", Version: "1"}, &mcp.ClientOptions{Capabilities: tc.caps})
			cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: srv.URL, DisableStandaloneSSE: true}, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer cs.Close()
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search", Arguments: map[string]any{"q": "x", "photo": map[string]any{"download_url": "https://f.example/1", "file_id": "f1"}}, Meta: tc.meta})
			if err != nil || res.IsError {
				t.Fatalf("call: %v %+v", err, res)
			}
			var got adaptertest.HintsSeen
			if err := json.Unmarshal(adaptertest.MustJSON(t, res.StructuredContent), &got); err != nil {
				t.Fatal(err)
			}
			tc.want.UI = tc.wantUI
			if string(adaptertest.MustJSON(t, got)) != string(adaptertest.MustJSON(t, tc.want)) {
				t.Errorf("handler saw %s, want %s", adaptertest.MustJSON(t, got), adaptertest.MustJSON(t, tc.want))
			}
		})
	}
}

// TestSupportsUIBothProtocols drives the go-sdk server with mcp-go's client,
// which can pin the protocol: before 2026-07-28 the capabilities come from
// initialize (a stateful handler), from then on in each request's _meta
// (go-sdk serves the sessionless protocol from a stateless handler).
func TestSupportsUIBothProtocols(t *testing.T) {
	s := metaServer(t)
	stateful := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	defer stateful.Close()
	stateless := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{Stateless: true}))
	defer stateless.Close()
	withUI := map[string]any{assets.ExtensionID: map[string]any{"mimeTypes": []any{assets.MIMETypeMCPApp}}}
	for version, url := range map[string]string{"2025-06-18": stateful.URL, mcpgomcp.LATEST_PROTOCOL_VERSION: stateless.URL} {
		for _, ext := range []map[string]any{withUI, nil} {
			got := adaptertest.CallSearch(t, adaptertest.Call{URL: url, Version: version, Client: "c", Extensions: ext,
				Args: map[string]any{"q": "x", "photo": map[string]any{"download_url": "u", "file_id": "f"}}})
			if got.UI != (ext != nil) {
				t.Errorf("protocol %s, extensions %v: SupportsUI = %v", version, ext, got.UI)
			}
		}
	}
}

// TestClientHintsLocaleFromInitialize: ChatGPT sends openai/locale with
// initialize too; a tool call without it gets that one. Raw JSON-RPC over a
// real session, since neither SDK client sends initialize _meta.
func TestClientHintsLocaleFromInitialize(t *testing.T) {
	s := metaServer(t)
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	_, h, err := assetstest.PostRPC(ctx, srv.URL, nil, "initialize", map[string]any{
		"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "openai-mcp", "version": "1"},
		"_meta": map[string]any{"openai/locale": "ja-JP"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := assetstest.PostRPC(ctx, srv.URL, h, "notifications/initialized", map[string]any{}); err != nil {
		t.Fatal(err)
	}
	args := map[string]any{"q": "x", "photo": map[string]any{"download_url": "u", "file_id": "f"}}
	for _, tc := range []struct {
		meta map[string]any
		want string
	}{
		{nil, "ja-JP"},
		{map[string]any{"openai/locale": "ko-KR"}, "ko-KR"},
	} {
		raw, _, err := assetstest.PostRPC(ctx, srv.URL, h, "tools/call", map[string]any{"name": "search", "arguments": args, "_meta": tc.meta})
		if err != nil {
			t.Fatal(err)
		}
		var res struct {
			StructuredContent adaptertest.HintsSeen `json:"structuredContent"`
		}
		if err := json.Unmarshal(raw, &res); err != nil || res.StructuredContent.Locale != tc.want {
			t.Errorf("call _meta %v: locale %q, want %q (%v, %s)", tc.meta, res.StructuredContent.Locale, tc.want, err, raw)
		}
	}
}
