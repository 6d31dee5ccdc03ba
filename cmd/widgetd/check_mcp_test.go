package main

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	mcpgomcp "github.com/mark3labs/mcp-go/mcp"
	mcpgoserver "github.com/mark3labs/mcp-go/server"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/assets/gosdk"
	"github.com/widgetd/widgetd/assets/mcpgo"
	"github.com/widgetd/widgetd/cmd/widgetd/internal/mcplist"
	"github.com/widgetd/widgetd/internal/exampleserver"
)

const exampleDist = "../../examples/mcpserver/dist"

// TestCheckMCP runs widgetd check --mcp against real servers on loopback:
// examples/mcpserver built and run as its own process, and test-local
// go-sdk servers with a widget tool that declares no outputSchema or links
// a resource of an earlier build. Exit codes and lines are asserted.
func TestCheckMCP(t *testing.T) {
	example := exampleserver.Start(t)
	noSchema := startWidgetToolServer(t, false)
	stale := startWidgetToolServer(t, true)
	mcpGo := startMCPGoServer(t)
	oldURI := staleURI(t)
	assertNoSchemaPremise(t, noSchema)
	for _, tc := range []struct {
		name     string
		args     []string
		code     int
		want     []string
		dontWant []string
	}{
		{"example against its dist", []string{"--dist", exampleDist, "--mcp", example, "--strict"}, exitOK,
			[]string{"3 widget(s) from dist, 3 tool(s) from " + example + ": 0 error(s), 0 warning(s)"}, []string{"tool "}},
		{"example against the sources", []string{"--root", "../..", "--mcp", example, "--strict"}, exitOK,
			[]string{"from sources, 3 tool(s) from " + example + ": 0 error(s), 0 warning(s)"}, []string{"tool "}},
		{"mcp-go server with OAuth", []string{"--dist", exampleDist, "--mcp", mcpGo, "--strict"}, exitOK,
			[]string{"1 tool(s) from " + mcpGo + ": 0 error(s), 0 warning(s)"}, []string{"tool "}},
		{"no outputSchema warns", []string{"--dist", exampleDist, "--mcp", noSchema}, exitOK,
			[]string{"tool hello: tool-output-schema-missing: warning: the tool shows a widget", "1 tool(s) from " + noSchema + ": 0 error(s), 1 warning(s)"},
			[]string{"tool-resource"}},
		{"no outputSchema fails strict", []string{"--dist", exampleDist, "--mcp", noSchema, "--strict"}, exitError,
			[]string{"tool hello: tool-output-schema-missing: warning:"}, nil},
		{"no outputSchema json", []string{"--dist", exampleDist, "--mcp", noSchema, "--json"}, exitOK,
			[]string{`"rule": "tool-output-schema-missing"`, `"endpoint": "` + noSchema + `"`, `"ok": true`}, nil},
		{"link to an earlier build", []string{"--dist", exampleDist, "--mcp", stale}, exitError,
			[]string{`tool hello: tool-resource-not-in-build: error: "` + oldURI + `" is a widget resource of the earlier build`},
			[]string{"tool-resource-unknown", "tool-output-schema-missing"}},
		{"nothing listening", []string{"--dist", exampleDist, "--mcp", "http://127.0.0.1:1/mcp"}, exitError,
			[]string{"widgetd check: --mcp: connecting to http://127.0.0.1:1/mcp", "is the server running"}, nil},
		{"not an http URL", []string{"--dist", exampleDist, "--mcp", "localhost:8000/mcp"}, exitUsage,
			[]string{`--mcp: "localhost:8000/mcp" is not an http:// or https:// URL`}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCLI(t, append([]string{"check"}, tc.args...)...)
			if code != tc.code {
				t.Errorf("exit %d, want %d", code, tc.code)
			}
			for _, w := range tc.want {
				if !strings.Contains(out+errs, w) {
					t.Errorf("output lacks %q", w)
				}
			}
			for _, w := range tc.dontWant {
				if strings.Contains(out, w) {
					t.Errorf("stdout has %q", w)
				}
			}
			if t.Failed() {
				t.Logf("stdout:\n%s\nstderr:\n%s", out, errs)
			}
		})
	}
}

// startWidgetToolServer serves, over real loopback HTTP, a go-sdk server
// with the example dist's resources and one widget tool "hello" added with
// Server.AddTool, so it declares no outputSchema although it returns
// structuredContent. With stale, the tool instead declares an outputSchema
// and links the hello resource of the dist's retained earlier build (which
// the server reads, through its resource template, but does not list).
func startWidgetToolServer(t *testing.T, stale bool) string {
	t.Helper()
	reg, err := assets.Load(os.DirFS(exampleDist))
	if err != nil {
		t.Fatal(err)
	}
	s := mcp.NewServer(&mcp.Implementation{Name: "bad-example", Version: "1"}, &mcp.ServerOptions{Capabilities: gosdk.AddExtension(nil)})
	gosdk.AddResources(s, reg, nil)
	no := false
	tool := &mcp.Tool{Name: "hello", Description: "Greets.", InputSchema: map[string]any{"type": "object"},
		Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true, DestructiveHint: &no, OpenWorldHint: &no}}
	if err := gosdk.AttachWidget(tool, reg, "hello", assets.ToolOptions{}); err != nil {
		t.Fatal(err)
	}
	if stale {
		tool.OutputSchema = map[string]any{"type": "object"}
		uri := staleURI(t)
		tool.Meta["ui"] = map[string]any{"resourceUri": uri}
		tool.Meta["ui/resourceUri"], tool.Meta["openai/outputTemplate"] = uri, uri
	}
	s.AddTool(tool, func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "Hi."}}, StructuredContent: map[string]any{"name": "world"}}, nil
	})
	srv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	t.Cleanup(srv.Close)
	return srv.URL
}

// staleURI is the hello widget's MCP Apps resource URI in the example dist's
// retained earlier build.
func staleURI(t *testing.T) string {
	t.Helper()
	reg, err := assets.Load(os.DirFS(exampleDist))
	if err != nil {
		t.Fatal(err)
	}
	builds := reg.Manifest().Builds
	if len(builds) < 2 {
		t.Fatalf("%s retains %d builds; go generate ./examples/mcpserver builds with --retain 2", exampleDist, len(builds))
	}
	return builds[1].Widgets["hello"].URIs[0]
}

// assertNoSchemaPremise makes sure the server at endpoint is what the
// warning is about: its hello tool lists no outputSchema yet answers a call
// with structuredContent.
func assertNoSchemaPremise(t *testing.T, endpoint string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	c, err := mcplist.Connect(ctx, endpoint, "premise")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	l, err := c.List(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if len(l.Tools) != 1 || strings.Contains(string(l.Tools[0]), `"outputSchema"`) {
		t.Fatalf("tools/list sent %s; want hello without outputSchema", l.Tools)
	}
	res, err := c.Session.CallTool(ctx, &mcp.CallToolParams{Name: "hello", Arguments: map[string]any{}})
	if err != nil || res.StructuredContent == nil {
		t.Fatalf("call hello: %v; structuredContent %v", err, res)
	}
}

// startMCPGoServer serves, over real loopback HTTP, an mcp-go server with the
// example dist's resources and one OAuth widget tool with an outputSchema,
// whose securitySchemes go out at the top level (SecuritySchemesHandler)
// and in the _meta mirror: a server check --mcp finds nothing on.
func startMCPGoServer(t *testing.T) string {
	t.Helper()
	reg, err := assets.Load(os.DirFS(exampleDist))
	if err != nil {
		t.Fatal(err)
	}
	s := mcpgoserver.NewMCPServer("oauth-example", "1", mcpgo.ServerOptions(reg, nil)...)
	mcpgo.AddResources(s, reg, nil)
	tool := mcpgomcp.NewTool("hello", mcpgomcp.WithDescription("Greets."), mcpgomcp.WithOutputSchema[map[string]any](),
		mcpgomcp.WithReadOnlyHintAnnotation(true), mcpgomcp.WithDestructiveHintAnnotation(false), mcpgomcp.WithOpenWorldHintAnnotation(false))
	oauth := assets.ToolOptions{SecuritySchemes: []assets.SecurityScheme{{Type: assets.SecurityOAuth2, Scopes: []string{"greet"}}}}
	if err := mcpgo.AttachWidget(&tool, reg, "hello", oauth); err != nil {
		t.Fatal(err)
	}
	s.AddTool(tool, func(context.Context, mcpgomcp.CallToolRequest) (*mcpgomcp.CallToolResult, error) {
		return mcpgomcp.NewToolResultStructured(map[string]any{"name": "world"}, "Hi."), nil
	})
	srv := httptest.NewServer(mcpgo.SecuritySchemesHandler(mcpgoserver.NewStreamableHTTPServer(s)))
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}
