package widgettest

import (
	"context"
	"testing"
)

// TestRendersShippedBridge: widgetd test renders a widget with the bridge
// level `widgetd build` gives it, not the preview's full bridge. The widget
// reaches window.openai under a name widgetd cannot see, so a build gives
// it the handshake core, which has no window.openai polyfill: on the MCP
// Apps host the global is absent as it is in production, where the full
// bridge would have put one there; on ChatGPT the host provides it.
func TestRendersShippedBridge(t *testing.T) {
	root, widgets := project(t, map[string]string{
		"hidden/widget.json": `{}`,
		"hidden/index.ts": `const name = ["open", "ai"].join("");
document.body.innerHTML = "<p id=seen>" + (name in window ? "global present" : "global absent") + "</p>";`,
		"hidden/fixtures/mcp.json":     `{"expect": {"text": ["global absent"]}}`,
		"hidden/fixtures/chatgpt.json": `{"expect": {"text": ["global present"]}}`,
	})
	rep, err := RunReport(context.Background(), Options{Root: root, WidgetsDir: widgets, Hosts: []string{"mcp-apps", "chatgpt"}, CaseTimeout: DefaultCaseTimeout})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"hidden/mcp@mcp-apps", "hidden/chatgpt@chatgpt"} {
		if c := caseByName(t, rep, name); !c.Passed {
			t.Errorf("%s: %v", name, c.Failures)
		}
	}
}
