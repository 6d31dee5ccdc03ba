// Package adaptertest holds what the SDK adapters' tests (assets/gosdk and
// assets/mcpgo) share: the tool options every golden pins, the value a test
// tool echoes, the mcp-go client call both drive their servers with, the
// tools/list golden, the clean-audit check and the resources' _meta check.
// Each adapter test builds its own server and lists and reads with its own
// SDK's client; this package only calls it and checks what came back.
package adaptertest

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/assets/assetstest"
	"github.com/widgetd/widgetd/assets/audit"
)

// EveryToolOption returns ToolOptions with every field set, so an adapter's
// tools/list golden holds each key the adapters write.
func EveryToolOption() assets.ToolOptions {
	return assets.ToolOptions{
		Visibility: []string{assets.VisibilityModel, assets.VisibilityApp},
		Invoking:   "Searching…", Invoked: "Results ready",
		FileParams:      []string{"photo"},
		SecuritySchemes: []assets.SecurityScheme{{Type: assets.SecurityNoAuth}, {Type: assets.SecurityOAuth2, Scopes: []string{"search.read"}}},
	}
}

// HintsSeen is what a test tool's handler read from a call: the client
// hints and whether the client renders MCP Apps. The handler echoes it as
// its structured content, so the test asserts the adapter end to end
// through a real client.
type HintsSeen struct {
	Locale, UserAgent, Subject, Session, Organization, City string
	Latitude                                                *float64
	UI                                                      bool
}

// Call is one call of the test server's "search" tool by mcp-go's client.
type Call struct {
	// URL is the server's streamable HTTP endpoint.
	URL string
	// Version is the protocol the client asks for; the call fails the test
	// when the server negotiates another (the era would go untested).
	Version string
	// Client is the clientInfo name sent with initialize.
	Client string
	// Extensions are the client's capability extensions.
	Extensions map[string]any
	// Meta is the tools/call _meta (nil: none); Args its arguments.
	Meta, Args map[string]any
}

// CallSearch initializes a fresh mcp-go client as c says, calls search and
// returns what the handler echoed.
func CallSearch(t testing.TB, c Call) HintsSeen {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cl, err := client.NewStreamableHttpClient(c.URL)
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	if err := cl.Start(ctx); err != nil {
		t.Fatal(err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ProtocolVersion = c.Version
	init.Params.ClientInfo = mcp.Implementation{Name: c.Client, Version: "1"}
	init.Params.Capabilities.Extensions = c.Extensions
	ir, err := cl.Initialize(ctx, init)
	if err != nil {
		t.Fatal(err)
	}
	if ir.ProtocolVersion != c.Version {
		t.Fatalf("asked for protocol %s, negotiated %s: the test would not cover that era", c.Version, ir.ProtocolVersion)
	}
	req := mcp.CallToolRequest{}
	req.Params.Name = "search"
	req.Params.Arguments = c.Args
	if c.Meta != nil {
		req.Params.Meta = mcp.NewMetaFromMap(c.Meta)
	}
	res, err := cl.CallTool(ctx, req)
	if err != nil || res.IsError {
		t.Fatalf("%s: call: %v %+v", c.Version, err, res)
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var out HintsSeen
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// ToolsListGolden posts tools/list to the adapter's stateless streamable
// HTTP endpoint url and checks the raw answer with
// assetstest.ToolsListGolden against testdata/tools-list.golden.json (the
// three tools of each adapter's meta server; rewritten with update).
func ToolsListGolden(t testing.TB, url string, update bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	raw, _, err := assetstest.PostRPC(ctx, url, nil, "tools/list", map[string]any{})
	if err != nil {
		t.Fatal(err)
	}
	assetstest.ToolsListGolden(t, raw, 3, filepath.Join("testdata", "tools-list.golden.json"), update)
}

// Listed is one resources/list entry as an SDK client decoded it: its URI
// and its _meta.
type Listed struct {
	URI  string
	Meta map[string]any
}

// CheckResourceMetaOnTheWire checks that every listed resource (there must
// be one at least) carries every _meta field widgetd writes
// (assetstest.CheckEveryMetaField), on its resources/list entry and on the
// content item that read (the SDK client's resources/read of a URI) gives.
func CheckResourceMetaOnTheWire(t testing.TB, listed []Listed, read func(uri string) (map[string]any, error)) {
	t.Helper()
	if len(listed) == 0 {
		t.Fatal("no resources listed")
	}
	for _, r := range listed {
		assetstest.CheckEveryMetaField(t, "list "+r.URI, r.Meta)
		meta, err := read(r.URI)
		if err != nil {
			t.Fatalf("read %s: %v", r.URI, err)
		}
		assetstest.CheckEveryMetaField(t, "read "+r.URI, meta)
	}
}

// MustJSON is json.Marshal failing t on error, for comparing what a
// handler saw with what the test wants as JSON text.
func MustJSON(t testing.TB, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// NoFindings fails t when the adapter's AuditServer over the test's server
// failed or found anything: the tools a test server adds are all valid.
func NoFindings(t testing.TB, findings []audit.Finding, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range findings {
		t.Errorf("AuditServer: %s", f)
	}
}
