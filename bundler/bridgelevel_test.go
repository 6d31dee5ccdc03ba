package bundler

import (
	"strings"
	"testing"

	"github.com/widgetd/widgetd/bundler/layout"
)

// vendoredApp is App-like code in a package: it posts its own ui/initialize.
const vendoredApp = `export class App { connect() { window.addEventListener("message", () => {}); window.parent.postMessage({ jsonrpc: "2.0", id: 0, method: "ui/initialize", params: {} }, "*"); } }`

// Markers of what a widget's bundle carries: the full bridge's standalone
// preview hint, the handshake core's request id, and the App adapter's
// emulated hostInfo.
const (
	fullMarker    = "widgetd: no host"
	coreMarker    = "widgetd-initialize"
	adapterMarker = `"window.openai"`
)

// TestBridgeLevels builds real widgets under "bridge": "auto" and checks
// the level each gets, why, and that its bundle carries that level's code
// and no more: every way code can reach window.openai or the widgetd API
// gives the full bridge; App-like code the App adapter alone; the rest the
// handshake core. Adversarial cases: "openai" only in a comment or a
// TypeScript type (not code: core), in a string that is not an access
// (widgetd cannot tell: full), in a package module whose used part does not
// touch it (modules count whole: full), in a module tree-shaken away (not
// in the bundle: core). A name put together at run time ("open" + "ai") is
// not seen: docs/bridge.md says to set "bridge": "full" for such code.
func TestBridgeLevels(t *testing.T) {
	cases := []struct {
		name, main, want, reason string
		extra                    map[string]string // more files, relative to the widget folder
	}{
		{name: "api", main: `import { widget } from "widgetd"; widget.onToolResult((r) => (document.body.textContent = JSON.stringify(r)));`, want: "full", reason: "imports the widgetd API"},
		{name: "submodule", main: `import { registerTool } from "widgetd/tools"; registerTool("x", {}, () => ({ content: [] }));`, want: "full", reason: "imports the widgetd API"},
		{name: "window-openai", main: `document.body.textContent = JSON.stringify((window as any).openai?.toolOutput);`, want: "full", reason: "mentions openai"},
		{name: "globalthis-openai", main: `const o = (globalThis as any).openai; if (o) document.title = o.theme;`, want: "full", reason: "mentions openai"},
		{name: "bare-openai", main: `declare const openai: any; document.title = typeof openai;`, want: "full", reason: "mentions openai"},
		{name: "openai-string-key", main: `document.title = String((window as any)["openai"]);`, want: "full", reason: "mentions openai"},
		{name: "openai-in-template", main: "const k = `openai`; document.title = String((window as any)[k]);", want: "full", reason: "mentions openai"},
		{name: "openai-event", main: `window.addEventListener("openai:set_globals", () => (document.title = "x"));`, want: "full", reason: "mentions openai"},
		{name: "openai-in-package", main: `import { read } from "reader"; document.title = read();`, want: "full", reason: "mentions openai",
			extra: map[string]string{"../../node_modules/reader/package.json": `{"name": "reader", "type": "module", "main": "index.js"}`,
				"../../node_modules/reader/index.js": `export const read = () => String(globalThis.openai?.theme);`}},
		{name: "openai-in-unused-export", main: `import { plain } from "mixed"; document.title = plain();`, want: "full", reason: "mentions openai",
			extra: map[string]string{"../../node_modules/mixed/package.json": `{"name": "mixed", "type": "module", "main": "index.js"}`,
				"../../node_modules/mixed/index.js": `export const plain = () => "plain";` + "\n" + `export const viaOpenai = () => window.openai;`}},
		{name: "openai-string-not-access", main: `console.log("made for openai hosts"); document.title = "x";`, want: "full", reason: "mentions openai"},
		{name: "openai-in-comment", main: "// works on openai hosts too (window.openai)\n/* openai */ document.title = \"x\";", want: "core"},
		{name: "openai-in-type", main: "declare global { interface Window { openai?: { theme: string } } }\nexport {};\ndocument.title = \"x\";", want: "core"},
		{name: "openai-module-shaken-away", main: `import { unused } from "./helpers"; document.title = "x";`, want: "core",
			extra: map[string]string{"helpers.ts": `export const unused = () => (window as any).openai;`}},
		{name: "app", main: `import { App } from "framework"; new App().connect();`, want: "app", reason: "posts ui/initialize itself"},
		{name: "app-and-openai", main: `import { App } from "framework"; new App().connect(); document.title = String((window as any).openai);`, want: "full", reason: "mentions openai"},
		{name: "app-and-api", main: `import { App } from "framework"; import { widget } from "widgetd"; new App().connect(); widget.ready();`, want: "full", reason: "imports the widgetd API"},
		{name: "raw-listener", main: `window.addEventListener("message", (e) => { if (e.data?.method == "ui/notifications/tool-result") document.body.textContent = JSON.stringify(e.data.params); });`, want: "core"},
		{name: "static", main: `document.body.textContent = "static";`, want: "core"},
		{name: "initialize-mentioned", main: `const handled = new Set(["ui/initialize"]); document.title = String(handled.size);`, want: "full", reason: "mentions ui/initialize"},
		{name: "html-classic-script", main: `document.title = "x";`, want: "full", reason: "the HTML mentions openai",
			extra: map[string]string{"index.html": `<!doctype html><html><head><title>h</title></head><body><script>window.openai && (document.title = "c")</script><script type="module" src="./main.ts"></script></body></html>`}},
		{name: "html-inline-module", main: `document.title = "x";`, want: "core",
			extra: map[string]string{"index.html": `<!doctype html><html><head><title>h</title></head><body><script type="module">document.body.dataset.x = "1";</script><script type="module" src="./main.ts"></script></body></html>`}},
		{name: "html-inline-module-openai", main: `document.title = "x";`, want: "full", reason: "mentions openai",
			extra: map[string]string{"index.html": `<!doctype html><html><head><title>h</title></head><body><script type="module">document.title = window.openai?.theme;</script><script type="module" src="./main.ts"></script></body></html>`}},
		{name: "forced-full", main: `document.body.textContent = "static";`, want: "full", reason: `"bridge": "full"`,
			extra: map[string]string{"widget.json": `{"title": "forced", "entry": "main.ts", "bridge": "full"}`}},
	}
	files := map[string]string{
		"node_modules/framework/package.json": `{"name": "framework", "type": "module", "main": "dist/app.js"}`,
		"node_modules/framework/dist/app.js":  vendoredApp,
	}
	for _, c := range cases {
		dir := "widgets/" + c.name + "/"
		files[dir+"widget.json"] = widgetJSON("main.ts")
		files[dir+"main.ts"] = c.main
		for p, body := range c.extra {
			if strings.HasPrefix(p, "../../") {
				files[strings.TrimPrefix(p, "../../")] = body
				continue
			}
			if p == "index.html" {
				files[dir+"widget.json"] = `{"title": "` + c.name + `", "entry": "index.html"}`
			}
			files[dir+p] = body
		}
	}
	root := writeProject(t, files)
	_, out := assembleOK(t, testOptions(root))
	got := map[string][2]string{}
	for _, w := range out.Manifest.Widgets {
		got[w.Name] = [2]string{w.Bridge, w.BridgeReason}
		html := string(out.Files[w.HTML])
		carries := map[string]bool{"full": strings.Contains(html, fullMarker), "core": strings.Contains(html, coreMarker), "adapter": strings.Contains(html, adapterMarker)}
		want := map[string]map[string]bool{
			"full": {"full": true, "core": false},
			"app":  {"full": false, "core": false, "adapter": true},
			"core": {"full": false, "core": true, "adapter": true},
		}[w.Bridge]
		for part, in := range want {
			if carries[part] != in {
				t.Errorf("widget %s at level %s: carries the %s code: %v, want %v", w.Name, w.Bridge, part, carries[part], in)
			}
		}
	}
	for _, c := range cases {
		g, ok := got[c.name]
		switch {
		case !ok:
			t.Errorf("%s: not built", c.name)
		case g[0] != c.want:
			t.Errorf("%s: bridge %q (%s), want %q", c.name, g[0], g[1], c.want)
		case !strings.Contains(g[1], c.reason):
			t.Errorf("%s: reason %q lacks %q", c.name, g[1], c.reason)
		}
	}
}

// TestBridgeProjectDefault: widgetd.json's "bridge" applies to every widget
// whose widget.json does not set one; a widget's own wins.
func TestBridgeProjectDefault(t *testing.T) {
	root := writeProject(t, map[string]string{
		layout.ProjectConfigFile: `{"bridge": "full"}`,
		"widgets/a/widget.json":  widgetJSON("main.ts"),
		"widgets/a/main.ts":      `document.title = "a";`,
		"widgets/b/widget.json":  `{"title": "b", "entry": "main.ts", "bridge": "auto"}`,
		"widgets/b/main.ts":      `document.title = "b";`,
	})
	_, out := assembleOK(t, testOptions(root))
	want := map[string]string{"a": "full", "b": "core"}
	for _, w := range out.Manifest.Widgets {
		if w.Bridge != want[w.Name] {
			t.Errorf("widget %s: bridge %q (%s), want %q", w.Name, w.Bridge, w.BridgeReason, want[w.Name])
		}
	}
}
