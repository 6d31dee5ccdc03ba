package devserver

import (
	"slices"
	"testing"
	"time"

	"github.com/widgetd/widgetd/internal/testfiles"
)

// TestPreviewFixtures: the preview starts on a widget's default fixture
// (tool result and host context), switches fixtures from the menu, and
// answers the widget's own tool call from the fixture's callTool by name.
func TestPreviewFixtures(t *testing.T) {
	d := startDev(t, func(o *Options) {
		testfiles.Write(t, o.WidgetsDir, map[string]string{
			"hello/fixtures/default.json": `{"toolName": "greet", "toolResult": {"structuredContent": {"name": "Grace"}}, "hostContext": {"theme": "dark"}}`,
			"get-time/fixtures/default.json": `{"toolResult": {"structuredContent": {"time": "fixture-start"}},
				"callTool": {"get-time": {"structuredContent": {"time": "answered-by-name"}}, "*": {"structuredContent": {"time": "wildcard"}}}}`,
		})
	})
	// The index lists each widget's fixtures as links to its preview.
	idx := openPage(t, d.PreviewURL())
	var links []string
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		if err := idx.eval(`[...document.querySelectorAll(".fixtures a")].map(a => a.getAttribute("href"))`, &links); err == nil && len(links) >= 3 {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	if !slices.Contains(links, "/preview/hello?fixture=default") || !slices.Contains(links, "/preview/hello?fixture=preview") {
		t.Errorf("index fixture links %v", links)
	}

	for _, host := range []string{"mcp", "chatgpt"} {
		t.Run(host, func(t *testing.T) {
			p := openPage(t, d.PreviewURL()+"preview/hello?host="+host)
			p.waitFrameText("Hello, Grace!", 30*time.Second)
			var state struct {
				Fixture, Theme, Tool string
				Options              []string
			}
			expr := `({fixture: widgetdDev.fixture, theme: document.getElementById("theme").value, tool: document.getElementById("tool-name").value,
				options: [...document.getElementById("fixture").options].map(o => o.value)})`
			if err := p.eval(expr, &state); err != nil {
				t.Fatal(err)
			}
			if state.Fixture != "default" || state.Theme != "dark" || state.Tool != "greet" || len(state.Options) != 3 || state.Options[2] != "preview" {
				t.Errorf("preview state %+v", state)
			}
			var ok bool
			if err := p.eval(`(() => { const s = document.getElementById("fixture"); s.value = "preview"; s.dispatchEvent(new Event("change")); return true })()`, &ok); err != nil {
				t.Fatal(err)
			}
			p.waitFrameText("Hello, Ada!", 30*time.Second)

			g := openPage(t, d.PreviewURL()+"preview/get-time?host="+host)
			g.waitFrameText("fixture-start", 30*time.Second)
			g.clickInFrame("#get-time-btn")
			g.waitFrameText("answered-by-name", 20*time.Second)
			var calls []struct{ Name string }
			if err := g.eval(`widgetdDev.calls`, &calls); err != nil || len(calls) != 1 || calls[0].Name != "get-time" {
				t.Errorf("recorded calls %+v (%v)", calls, err)
			}
		})
	}
}
