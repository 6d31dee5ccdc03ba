package mcplist

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/assets/assetstest"
	"github.com/widgetd/widgetd/assets/gosdk"
)

// serve runs s over real loopback streamable HTTP and returns its endpoint.
func serve(t *testing.T, s *mcp.Server) string {
	t.Helper()
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestList lists real go-sdk servers: every page of tools and resources
// (page size 1), a server without resources, and one with nothing at all.
func TestList(t *testing.T) {
	full := mcp.NewServer(&mcp.Implementation{Name: "full", Version: "1"}, &mcp.ServerOptions{PageSize: 1})
	toolsOnly := mcp.NewServer(&mcp.Implementation{Name: "tools-only", Version: "1"}, nil)
	for _, name := range []string{"a", "b", "c"} {
		handler := func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		}
		tool := &mcp.Tool{Name: name, InputSchema: map[string]any{"type": "object"}, OutputSchema: map[string]any{"type": "object"}}
		full.AddTool(tool, handler)
		toolsOnly.AddTool(tool, handler)
		full.AddResource(&mcp.Resource{URI: "ui://widget/" + name + ".html", Name: name}, func(context.Context, *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
			return &mcp.ReadResourceResult{}, nil
		})
	}
	empty := mcp.NewServer(&mcp.Implementation{Name: "empty", Version: "1"}, nil)
	for _, tc := range []struct {
		name             string
		s                *mcp.Server
		tools, resources string
	}{
		{"paged", full, "a b c", "ui://widget/a.html ui://widget/b.html ui://widget/c.html"},
		{"no resources", toolsOnly, "a b c", ""},
		{"nothing offered", empty, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			c, err := Connect(ctx, serve(t, tc.s)+"/mcp", "mcplist-test")
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			l, err := c.List(ctx)
			if err != nil {
				t.Fatal(err)
			}
			var tools, resources []string
			for _, raw := range l.Tools {
				var tool struct {
					Name         string
					OutputSchema map[string]any
				}
				if err := json.Unmarshal(raw, &tool); err != nil || tool.OutputSchema == nil {
					t.Errorf("tool %s: %v, outputSchema %v", raw, err, tool.OutputSchema)
				}
				tools = append(tools, tool.Name)
			}
			for _, r := range l.Resources {
				resources = append(resources, r.URI)
			}
			if got := strings.Join(tools, " "); got != tc.tools {
				t.Errorf("tools %q, want %q", got, tc.tools)
			}
			if got := strings.Join(resources, " "); got != tc.resources {
				t.Errorf("resources %q, want %q", got, tc.resources)
			}
		})
	}
}

// TestConnectErrors: an endpoint that is not MCP, nothing listening, and
// URLs the transport cannot dial each fail with a message that says what to
// pass.
func TestConnectErrors(t *testing.T) {
	notMCP := httptest.NewServer(http.NotFoundHandler())
	defer notMCP.Close()
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	for _, tc := range []struct{ endpoint, want string }{
		{notMCP.URL + "/mcp", "is this its MCP endpoint?"},
		{closed.URL + "/mcp", "is the server running"},
		{"localhost:8000/mcp", "is not an http:// or https:// URL"},
		{"ws://localhost:8000/mcp", "is not an http:// or https:// URL"},
		{"http:///mcp", "is not an http:// or https:// URL"},
		{"http://%zz", "is not an http:// or https:// URL"},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		c, err := Connect(ctx, tc.endpoint, "mcplist-test")
		cancel()
		if err == nil {
			c.Close()
			t.Errorf("Connect(%q) succeeded", tc.endpoint)
			continue
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Connect(%q): %v; want it to say %q", tc.endpoint, err, tc.want)
		}
	}
}

// FuzzValidateEndpoint: ValidateEndpoint never panics, and what it accepts
// net/http can send a request to: an http or https URL with a host.
func FuzzValidateEndpoint(f *testing.F) {
	for _, s := range []string{"http://localhost:8000/mcp", "https://a.example/mcp?x=1", "localhost:8000", "http:///x", "ftp://h/", "http://[::1]:80/mcp", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		if ValidateEndpoint(raw) != nil {
			return
		}
		req, err := http.NewRequest(http.MethodPost, raw, nil)
		if err != nil || req.URL.Host == "" || (req.URL.Scheme != "http" && req.URL.Scheme != "https") {
			t.Errorf("accepted %q, which net/http cannot send to: %v", raw, err)
		}
	})
}

// TestListKeepsWireFields lists a go-sdk server that sends securitySchemes
// at the top level of a tool (a field the SDK's Tool type drops) and reads
// it back from the Listing, over SSE answers and JSON answers.
func TestListKeepsWireFields(t *testing.T) {
	reg, _ := assetstest.Load(t, assetstest.Options{})
	s := mcp.NewServer(&mcp.Implementation{Name: "oauth", Version: "1"}, nil)
	tool := &mcp.Tool{Name: "search", InputSchema: map[string]any{"type": "object"}}
	opts := assets.ToolOptions{SecuritySchemes: []assets.SecurityScheme{{Type: assets.SecurityOAuth2, Scopes: []string{"search.read"}}}}
	if err := gosdk.AttachWidget(tool, reg, "counter", opts); err != nil {
		t.Fatal(err)
	}
	s.AddTool(tool, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{}, nil
	})
	gosdk.AddSecuritySchemes(s)
	const want = `[{"scopes":["search.read"],"type":"oauth2"}]` // as the server marshals it
	for _, jsonAnswers := range []bool{false, true} {
		srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, &mcp.StreamableHTTPOptions{JSONResponse: jsonAnswers}))
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		c, err := Connect(ctx, srv.URL, "mcplist-test")
		if err != nil {
			t.Fatal(err)
		}
		for range 2 { // a second List reads the same, not twice as much
			l, err := c.List(ctx)
			if err != nil || len(l.Tools) != 1 {
				t.Fatalf("JSON answers %v: %v, %d tools", jsonAnswers, err, len(l.Tools))
			}
			var got struct{ SecuritySchemes json.RawMessage }
			if err := json.Unmarshal(l.Tools[0], &got); err != nil || string(got.SecuritySchemes) != want {
				t.Errorf("JSON answers %v: top-level securitySchemes %s (%v), want %s", jsonAnswers, got.SecuritySchemes, err, want)
			}
		}
		c.Close()
		cancel()
		srv.Close()
	}
}

// TestSSEData splits SSE streams into their events' data.
func TestSSEData(t *testing.T) {
	for _, tc := range []struct{ stream, want string }{
		{"event: message\ndata: {\"a\":1}\n\n", `{"a":1}`},
		{"id: 1\ndata:{\"a\":1}\n\n: comment\ndata: x\ndata: y\n\n", "{\"a\":1}|x\ny"},
		{"data: unterminated", "unterminated"},
		{"event: ping\n\n", ""},
	} {
		if got := strings.Join(sseData(tc.stream), "|"); got != tc.want {
			t.Errorf("sseData(%q) = %q, want %q", tc.stream, got, tc.want)
		}
	}
}
