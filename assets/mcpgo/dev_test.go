package mcpgo_test

import (
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/assets/assetstest"
	"github.com/widgetd/widgetd/assets/mcpgo"
)

// TestDevMode runs an mcp-go server whose registry is in dev mode, switched
// on by WIDGETD_DEV_URL alone, behind real streamable HTTP: mcp-go's client
// reads the dev shell with the dev origin in the read _meta CSP, while the
// listed URIs are the embedded build's.
func TestDevMode(t *testing.T) {
	const dev = "http://127.0.0.1:5173"
	t.Setenv(assets.DevURLEnv, dev)
	reg, d := assetstest.Load(t, assetstest.Options{})
	s := server.NewMCPServer("test", "0.1.0", mcpgo.ServerOptions(reg, nil)...)
	mcpgo.AddResources(s, reg, nil)
	ctx, c, _ := connectHTTP(t, s, "some-host")
	lr, err := c.ListResources(ctx, mcp.ListResourcesRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, r := range lr.Resources {
		listed = append(listed, r.URI)
	}
	for _, w := range d.Manifest.Widgets {
		for _, p := range w.Profiles {
			if !slices.Contains(listed, p.URI) {
				t.Errorf("embedded URI %s not listed in dev mode: %v", p.URI, listed)
			}
			req := mcp.ReadResourceRequest{}
			req.Params.URI = p.URI
			res, err := c.ReadResource(ctx, req)
			if err != nil {
				t.Fatalf("read %s: %v", p.URI, err)
			}
			tc, ok := mcp.AsTextResourceContents(res.Contents[0])
			if !ok || !strings.Contains(tc.Text, `name="widgetd-dev"`) || !strings.Contains(tc.Text, dev) {
				t.Errorf("read %s: not the dev shell: %.200s", p.URI, tc.Text)
				continue
			}
			ui, _ := tc.Meta["ui"].(map[string]any)
			csp, _ := ui["csp"].(map[string]any)
			if list, _ := csp["connectDomains"].([]any); !slices.Contains(list, any(dev)) {
				t.Errorf("read %s: _meta.ui.csp.connectDomains %v lacks %s", p.URI, csp["connectDomains"], dev)
			}
		}
	}
}
