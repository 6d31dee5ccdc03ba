package mcpgo_test

import (
	"fmt"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/widgetd/widgetd/assets/assetstest"
	"github.com/widgetd/widgetd/assets/internal/adaptertest"
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
	var listed []adaptertest.Listed
	for _, r := range list.Resources {
		listed = append(listed, adaptertest.Listed{URI: r.URI, Meta: r.Meta.AdditionalFields})
	}
	adaptertest.CheckResourceMetaOnTheWire(t, listed, func(uri string) (map[string]any, error) {
		req := mcp.ReadResourceRequest{}
		req.Params.URI = uri
		res, err := c.ReadResource(ctx, req)
		if err != nil {
			return nil, err
		}
		tc, ok := mcp.AsTextResourceContents(res.Contents[0])
		if !ok {
			return nil, fmt.Errorf("not text contents: %+v", res.Contents[0])
		}
		return tc.Meta, nil
	})
}
