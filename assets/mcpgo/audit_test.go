package mcpgo_test

import (
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/assets/assetstest"
	"github.com/widgetd/widgetd/assets/audit"
	"github.com/widgetd/widgetd/assets/mcpgo"
)

func TestAudit(t *testing.T) {
	reg, _ := assetstest.Load(t, assetstest.Options{})
	good := mcp.NewTool("good", mcp.WithReadOnlyHintAnnotation(true), mcp.WithDestructiveHintAnnotation(false), mcp.WithOpenWorldHintAnnotation(false))
	if err := mcpgo.AttachWidget(&good, reg, "counter", assets.ToolOptions{Invoked: strings.Repeat("x", 65)}); err == nil {
		t.Fatal("AttachWidget accepted a 65-character status text")
	}
	if err := mcpgo.AttachWidget(&good, reg, "counter", assets.ToolOptions{Invoked: "Counted"}); err != nil {
		t.Fatal(err)
	}
	dangling := mcp.NewTool("dangling")
	dangling.Meta = mcp.NewMetaFromMap(map[string]any{"ui": map[string]any{"resourceUri": "ui://widget/nope.html"}})
	findings, err := mcpgo.Audit(reg, good, dangling)
	if err != nil {
		t.Fatal(err)
	}
	var rules []string
	for _, f := range findings {
		if f.Subject == "tool good" && f.Severity == audit.Error {
			t.Errorf("good tool: unexpected error %s", f)
		}
		rules = append(rules, f.Subject+":"+f.Rule)
	}
	if !strings.Contains(strings.Join(rules, " "), "tool dangling:"+audit.RuleToolResourceUnknown) {
		t.Errorf("dangling resourceUri not reported: %v", rules)
	}
}
