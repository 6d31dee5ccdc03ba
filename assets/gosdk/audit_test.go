package gosdk_test

import (
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/assets/assetstest"
	"github.com/widgetd/widgetd/assets/audit"
	"github.com/widgetd/widgetd/assets/gosdk"
)

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
