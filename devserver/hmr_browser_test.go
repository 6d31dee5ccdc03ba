package devserver

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/widgetd/widgetd/internal/browsertest"
	"github.com/widgetd/widgetd/internal/testfiles"
)

// writeProject writes files (path relative to root → content) into a new
// temporary project and returns its root and widgets folder.
func writeProject(t *testing.T, files map[string]string) (root, widgets string) {
	t.Helper()
	root = t.TempDir()
	testfiles.Write(t, root, files)
	return root, filepath.Join(root, "widgets")
}

// refreshProject is a React widget whose counter lives in a child
// component, in a project with react-refresh and @babel/core installed
// (devserver/testdata/refresh, linked in).
func refreshProject(t *testing.T) (root, widgets string) {
	t.Helper()
	nm := browsertest.RequireNodeModules(t, "testdata/refresh", "react", "react-dom", "react-refresh", "@babel/core")
	root, widgets = writeProject(t, map[string]string{
		"widgets/counter/widget.json": `{"title": "Counter", "description": "A counter in a child component."}`,
		"widgets/counter/index.tsx": `import { createRoot } from "react-dom/client";
import { App } from "./App";
import "./style.css";
createRoot(document.getElementById("root")!).render(<App />);
`,
		"widgets/counter/App.tsx": `import { Child } from "./Child";
export function App() {
  return <main><h1>Counter app</h1><Child /></main>;
}
`,
		"widgets/counter/Child.tsx": `import { useState } from "react";
export function Child() {
  const [n, setN] = useState(0);
  return <div><button id="inc" onClick={() => setN(n + 1)}>Count: {n}</button><p>Child text v1</p></div>;
}
`,
		"widgets/counter/style.css": "h1 { color: rgb(0, 0, 1); }\n",
		"widgetd.json":              allowModules(filepath.Dir(nm)),
	})
	if err := os.Symlink(nm, filepath.Join(widgets, "node_modules")); err != nil {
		t.Fatal(err)
	}
	return root, widgets
}

// hotUpdates are the preview log's "hot update" entries' "how" values.
func (p *page) hotUpdates() []string {
	p.t.Helper()
	var how []string
	if err := p.eval(`widgetdDev.log.filter(e => e.kind === "hot update").map(e => e.data.how)`, &how); err != nil {
		p.t.Fatal(err)
	}
	return how
}

func (p *page) mounts() int {
	p.t.Helper()
	var n int
	if err := p.eval(`widgetdDev.mounts`, &n); err != nil {
		p.t.Fatal(err)
	}
	return n
}

// TestReactRefreshKeepsState clicks a counter in a child component to 3,
// edits that component's text, and checks the new text shows with the count
// still 3 and the frame never reloaded (React Refresh through the Node
// helper's Babel transform); then a CSS-only edit swaps the styles in place.
func TestReactRefreshKeepsState(t *testing.T) {
	root, widgets := refreshProject(t)
	d := startDevIn(t, root, widgets, nil)
	if !strings.Contains(d.log.String(), "React Refresh on") {
		t.Errorf("terminal does not say React Refresh is on:\n%s", d.log)
	}
	p := openPage(t, d.PreviewURL()+"preview/counter")
	p.waitFrameText("Count: 0", 60*time.Second)
	for i := 1; i <= 3; i++ {
		p.clickInFrame("#inc")
		p.waitFrameText("Count: "+string(rune('0'+i)), 10*time.Second)
	}
	mounts := p.mounts()

	d.edit(t, "counter/Child.tsx", func(s string) string { return strings.Replace(s, "Child text v1", "Child text v2", 1) })
	text := p.waitFrameText("Child text v2", 60*time.Second)
	if !strings.Contains(text, "Count: 3") {
		t.Errorf("after the edit the frame shows %q: want the count kept at 3", text)
	}
	if got := p.mounts(); got != mounts {
		t.Errorf("the edit remounted the widget (mounts %d → %d): want an update in place", mounts, got)
	}
	if how := p.hotUpdates(); len(how) == 0 || how[len(how)-1] != "js" {
		t.Errorf("hot updates %v: want the last one \"js\"", how)
	}

	d.edit(t, "counter/style.css", func(s string) string { return strings.Replace(s, "rgb(0, 0, 1)", "rgb(0, 0, 2)", 1) })
	p.waitFor("a CSS hot update", 60*time.Second, func() string {
		if how := p.hotUpdates(); how[len(how)-1] != "css" {
			return strings.Join(how, ",")
		}
		return ""
	})
	if got := p.mounts(); got != mounts {
		t.Errorf("the CSS edit remounted the widget (mounts %d → %d)", mounts, got)
	}
	if text := p.frameText(); !strings.Contains(text, "Count: 3") || !strings.Contains(text, "Child text v2") {
		t.Errorf("after the CSS edit the frame shows %q", text)
	}
	p.noErrors()
}

// noErrors fails when the preview logged an uncaught error or CSP
// violation from the widget.
func (p *page) noErrors() {
	p.t.Helper()
	var errs []any
	if err := p.eval(`widgetdDev.log.filter(e => e.dir === "err")`, &errs); err != nil {
		p.t.Fatal(err)
	}
	if len(errs) > 0 {
		p.t.Errorf("the preview logged errors: %v", errs)
	}
}

// statefulWidget is a vanilla widget (no React Refresh: an edit reloads it)
// that shows its tool output, a click count kept in the bridge's widget
// state (window.openai.widgetState on the ChatGPT host), and its scroll
// position, in a document taller than the frame.
const statefulWidget = `import { widget } from "widgetd";
const root = document.getElementById("root")!;
root.style.height = "3000px";
const line = document.createElement("p");
line.style.position = "fixed";
const clicks = () => (widget.state && widget.state.clicks) || 0;
function show() {
  const out = (widget.toolResult && widget.toolResult.structuredContent) || {};
  line.textContent = "Version 1 Output: " + (out.name || "none") + " Clicks: " + clicks() + " Scroll: " + Math.round(scrollY);
}
const inc = document.createElement("button");
inc.id = "inc";
inc.textContent = "inc";
inc.onclick = () => { widget.setState({ clicks: clicks() + 1 }).then(show); };
const down = document.createElement("button");
down.id = "down";
down.textContent = "down";
down.onclick = () => scrollTo(0, 1234);
root.append(inc, down, line);
addEventListener("scroll", show);
widget.onToolResult(show);
widget.onStateChanged(show);
show();
`

// TestReloadKeepsState edits a widget without React Refresh, so the frame
// reloads, and checks what the user had is back: the tool output edited in
// the preview, the widget state the widget set (window.openai on the
// ChatGPT host, the bridge's store on an MCP Apps host) and the scroll
// position.
func TestReloadKeepsState(t *testing.T) {
	root, widgets := writeProject(t, map[string]string{
		"widgets/stateful/widget.json":           `{"title": "Stateful", "description": "Keeps state across reloads."}`,
		"widgets/stateful/index.ts":              statefulWidget,
		"widgets/stateful/fixtures/default.json": `{"toolName": "stateful", "toolInput": {}, "toolResult": {"structuredContent": {"name": "Ada"}}}`,
	})
	d := startDevIn(t, root, widgets, nil)
	for i, host := range []string{"chatgpt", "mcp-apps"} {
		t.Run(host, func(t *testing.T) {
			reloadKeepsState(t, d, host, fmt.Sprintf("Version %d", i+1), fmt.Sprintf("Version %d", i+2))
		})
	}
}

// reloadKeepsState is TestReloadKeepsState on one host: the widget's text
// from reads "from" and the edit makes it "to".
func reloadKeepsState(t *testing.T, d *devServer, host, from, to string) {
	p := openPage(t, d.PreviewURL()+"preview/stateful?host="+host)
	p.waitFrameText(from+" Output: Ada", 60*time.Second)

	// The author edits the tool output in the preview and applies it.
	var ok bool
	if err := p.eval(`(() => { const el = document.getElementById("tool-output"); el.value = '{"name": "Grace"}'; el.dispatchEvent(new Event("input")); document.getElementById("apply").click(); return true })()`, &ok); err != nil {
		t.Fatal(err)
	}
	p.waitFrameText("Output: Grace", 30*time.Second)
	p.clickInFrame("#inc")
	p.clickInFrame("#inc")
	p.waitFrameText("Clicks: 2", 10*time.Second)
	p.clickInFrame("#down")
	p.waitFrameText("Scroll: 1234", 10*time.Second)
	mounts := p.mounts()

	d.edit(t, "stateful/index.ts", func(s string) string { return strings.Replace(s, from, to, 1) })
	p.waitFrameText(to, 60*time.Second)
	if p.mounts() <= mounts {
		t.Errorf("the frame was not reloaded (mounts %d → %d); this test is about the reload path", mounts, p.mounts())
	}
	// On an MCP Apps host the tool result and the stored state arrive after
	// the reloaded document's handshake, so wait for them (a state that is
	// not restored times out here).
	p.waitFrameText(to+" Output: Grace Clicks: 2", 30*time.Second)
	p.waitFrameText("Scroll: 1234", 10*time.Second)
	p.noErrors()
}
