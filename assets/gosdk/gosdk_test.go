package gosdk_test

import (
	"context"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/assets/assetstest"
	"github.com/widgetd/widgetd/assets/audit"
	"github.com/widgetd/widgetd/assets/gosdk"
)

// TestInMemory registers a dist on a server and reads alias and retained URIs
// through the SDK's in-memory transport; the example server's tests cover
// streamable HTTP.
func TestInMemory(t *testing.T) {
	reg, d := assetstest.Load(t, assetstest.Options{})
	s := mcp.NewServer(&mcp.Implementation{Name: "t", Version: "1"}, &mcp.ServerOptions{Capabilities: gosdk.AddExtension(nil)})
	gosdk.AddResources(s, reg, nil)
	tool := &mcp.Tool{Name: "counter", Meta: mcp.Meta{"mine": 1}}
	if err := gosdk.AttachWidget(tool, reg, "counter", assets.ToolOptions{}); err != nil {
		t.Fatal(err)
	}
	if tool.Meta["mine"] != 1 || tool.Meta["ui/resourceUri"] != d.Manifest.Widgets[1].Profiles[0].URI {
		t.Errorf("AttachWidget lost or missed keys: %v", tool.Meta)
	}
	if err := gosdk.AttachWidget(tool, reg, "nope", assets.ToolOptions{}); err == nil {
		t.Error("AttachWidget accepted an unknown widget")
	}
	ctx := context.Background()
	cs := connectInMemory(t, ctx, s)
	if cs.InitializeResult().Capabilities.Extensions[assets.ExtensionID] == nil {
		t.Error("extension not advertised")
	}
	for _, uri := range append([]string{"ui://widget/chart.html", "ui://widget/counter.skybridge.html"}, d.OldURIs...) {
		res, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			t.Errorf("read %s: %v", uri, err)
			continue
		}
		if res.Contents[0].URI != uri || res.Contents[0].Text == "" {
			t.Errorf("read %s: %+v", uri, res.Contents[0])
		}
	}
}

func TestAudit(t *testing.T) {
	reg, _ := assetstest.Load(t, assetstest.Options{})
	annotated := &mcp.ToolAnnotations{ReadOnlyHint: true, DestructiveHint: ptr(false), OpenWorldHint: ptr(false)}
	good := &mcp.Tool{Name: "good", InputSchema: map[string]any{"type": "object"}, Annotations: annotated}
	if err := gosdk.AttachWidget(good, reg, "counter", assets.ToolOptions{Invoking: "Counting…"}); err != nil {
		t.Fatal(err)
	}
	dangling := &mcp.Tool{Name: "dangling", InputSchema: map[string]any{"type": "object"}, Annotations: annotated,
		Meta: mcp.Meta{"ui": map[string]any{"resourceUri": "ui://widget/nope.html"}}}
	bare := &mcp.Tool{Name: "bare", InputSchema: map[string]any{"type": "object"}}
	if err := gosdk.AttachWidget(bare, reg, "counter", assets.ToolOptions{}); err != nil {
		t.Fatal(err)
	}
	findings, err := gosdk.Audit(reg, good, dangling, bare)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, f := range findings {
		got[f.Subject] = append(got[f.Subject], f.Rule)
		if f.Subject == "tool good" && f.Severity == audit.Error {
			t.Errorf("good tool: unexpected error %s", f)
		}
	}
	if !strings.Contains(strings.Join(got["tool dangling"], " "), audit.RuleToolResourceUnknown) {
		t.Errorf("dangling resourceUri not reported: %v", findings)
	}
	if !strings.Contains(strings.Join(got["tool bare"], " "), audit.RuleToolAnnotationsMissing) {
		t.Errorf("missing annotations not reported: %v", findings)
	}
}

func ptr[T any](v T) *T { return &v }

// connectInMemory connects a go-sdk client to s over the SDK's in-memory
// transport; both sessions close when t ends.
func connectInMemory(t *testing.T, ctx context.Context, s *mcp.Server) *mcp.ClientSession {
	t.Helper()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "c", Version: "1"}, nil).Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}
