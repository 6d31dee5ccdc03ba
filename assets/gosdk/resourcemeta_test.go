package gosdk_test

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/widgetd/widgetd/assets/assetstest"
	"github.com/widgetd/widgetd/assets/gosdk"
	"github.com/widgetd/widgetd/assets/internal/adaptertest"
)

// TestResourceMetaOnTheWire serves a dist whose resources declare every
// _meta field widgetd writes (base_uri_domains, ui.linkTrustedDomains, the
// drafts csp.wasmUnsafeEval and permissions.tools, …) and checks that a
// go-sdk client gets each on resources/list and resources/read.
func TestResourceMetaOnTheWire(t *testing.T) {
	reg, _ := assetstest.Load(t, assetstest.Options{EveryMetaField: true})
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ServerOptions{Capabilities: gosdk.AddExtension(nil)})
	gosdk.AddResources(s, reg, nil)
	ctx := context.Background()
	cs := connectInMemory(t, ctx, s)
	list, err := cs.ListResources(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var listed []adaptertest.Listed
	for _, r := range list.Resources {
		listed = append(listed, adaptertest.Listed{URI: r.URI, Meta: r.Meta})
	}
	adaptertest.CheckResourceMetaOnTheWire(t, listed, func(uri string) (map[string]any, error) {
		res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			return nil, err
		}
		return res.Contents[0].Meta, nil
	})
}
