package devserver

import (
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestPreviewServerSource renders, in real Chromium, the widgets of the
// real examples/mcpserver from its own resources/read answers
// (?source=server&uri=…): the local hello is edited to greet differently,
// so only the server's document shows "Hello, Ada!"; and the get-time
// widget's own tools/call is answered by the server (its current time,
// neither of the preview's canned answers). A server widget with no local
// widget of its name renders as well.
func TestPreviewServerSource(t *testing.T) {
	d := startDevOnExampleServer(t)
	var tools inspectTools
	if code, _, body := inspectReq(t, "GET", d.PreviewURL()+"_widgetd/mcp/tools", "", nil, &tools); code != 200 {
		t.Fatalf("tools: %d %s", code, body)
	}
	uris := map[string]string{}
	for _, tl := range tools.Tools {
		uris[tl.Name] = tl.ResourceURI
	}

	local := openPage(t, d.PreviewURL()+"preview/hello?host=mcp-apps")
	local.waitFrameText("Local, Ada!", 30*time.Second)

	t.Run("hello", func(t *testing.T) {
		p := openPage(t, d.PreviewURL()+"preview/hello?host=mcp-apps&source=server&uri="+url.QueryEscape(uris["hello"]))
		p.waitFrameText("Hello, Ada!", 30*time.Second)
		var src string
		if err := p.eval(`document.getElementById("widget-frame").src`, &src); err != nil || !strings.HasPrefix(src, d.SandboxURL()+ServerWidgetPath+"?uri="+url.QueryEscape(uris["hello"])) {
			t.Errorf("frame src %q (%v), want the sandbox's server widget", src, err)
		}
		var violations []any
		if _ = p.eval(`widgetdDev.violations`, &violations); len(violations) > 0 {
			t.Errorf("the server's widget caused CSP violations: %v", violations)
		}
	})
	// A server widget with no local widget of that name renders too.
	t.Run("server-only", func(t *testing.T) {
		p := openPage(t, d.PreviewURL()+"preview/not-local?host=mcp-apps&source=server&uri="+url.QueryEscape(uris["hello"]))
		if text := p.waitFrameText("Hello, ", 30*time.Second); strings.Contains(text, "Local") {
			t.Errorf("server-only preview shows the local widget: %q", text)
		}
	})
	for _, host := range []string{"mcp-apps", "chatgpt-legacy"} {
		t.Run("get-time/"+host, func(t *testing.T) {
			p := openPage(t, d.PreviewURL()+"preview/get-time?host="+host+"&source=server&uri="+url.QueryEscape(uris["get-time"]))
			p.waitFrameText("2026-01-02T03:04:05Z", 30*time.Second)
			p.clickInFrame("#get-time-btn")
			stamp := regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ`)
			p.waitFor("the server's time in the widget", 20*time.Second, func() string {
				text := p.frameText()
				for _, m := range stamp.FindAllString(text, -1) {
					if at, err := time.Parse(time.RFC3339, m); err == nil && time.Since(at).Abs() < 10*time.Minute {
						return ""
					}
				}
				return "frame text is " + text
			})
			var calls []struct{ Name string }
			if err := p.eval(`widgetdDev.calls`, &calls); err != nil || len(calls) != 1 || calls[0].Name != "get-time" {
				t.Errorf("widget calls %v (%v), want one get-time", calls, err)
			}
		})
	}
}
