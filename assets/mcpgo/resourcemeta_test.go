package mcpgo_test

import (
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/widgetd/widgetd/assets/assetstest"
	"github.com/widgetd/widgetd/assets/mcpgo"
)

// TestResourceMetaOnTheWire serves, over real streamable HTTP, a dist whose
// resources declare every _meta field widgetd writes (base_uri_domains,
// ui.linkTrustedDomains, the drafts csp.wasmUnsafeEval and
// permissions.tools, …) and checks that mcp-go's client gets each on
// resources/list and resources/read.
func TestResourceMetaOnTheWire(t *testing.T) {
	reg, _ := assetstest.Load(t, assetstest.Options{EveryMetaField: true})
	s := server.NewMCPServer("test", "0.1.0", mcpgo.ServerOptions(reg, nil)...)
	mcpgo.AddResources(s, reg, nil)
	ctx, c, _ := connectHTTP(t, s, "c")
	list, err := c.ListResources(ctx, mcp.ListResourcesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Resources) == 0 {
		t.Fatal("no resources listed")
	}
	for _, r := range list.Resources {
		assetstest.CheckEveryMetaField(t, "list "+r.URI, r.Meta.AdditionalFields)
		req := mcp.ReadResourceRequest{}
		req.Params.URI = r.URI
		res, err := c.ReadResource(ctx, req)
		if err != nil {
			t.Fatalf("read %s: %v", r.URI, err)
		}
		tc, ok := mcp.AsTextResourceContents(res.Contents[0])
		if !ok {
			t.Fatalf("read %s: %+v", r.URI, res.Contents[0])
		}
		assetstest.CheckEveryMetaField(t, "read "+r.URI, tc.Meta)
	}
}
