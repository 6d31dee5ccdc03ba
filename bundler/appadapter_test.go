package bundler

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/bundler/layout"
	"github.com/widgetd/widgetd/internal/browsertest"
)

// TestPostsUIInitialize: code that sends ui/initialize itself, in the forms
// App, its vendored copies and hand-written code take, gets the App adapter;
// code that only receives it (a host), or only mentions it, does not.
func TestPostsUIInitialize(t *testing.T) {
	for _, c := range []struct {
		name, src string
		want      bool
	}{
		{"ext-apps App, minified", `let Z=await this.request({method:"ui/initialize",params:{appCapabilities:this._appCapabilities}},X)`, true},
		{"vendored class, formatted", "const result = await this.request({\n  method: 'ui/initialize',\n  params,\n});", true},
		{"hand-written postMessage", "window.parent.postMessage({ jsonrpc: \"2.0\", id: 1, \"method\": \"ui/initialize\", params: {} }, \"*\");", true},
		{"template literal", "send({ method: `ui/initialize` })", true},
		{"request helper", `const init = await rpc("ui/initialize", { appInfo });`, true},
		{"method call helper", `await this.transport.sendRequest( 'ui/initialize', params)`, true},
		{"AppBridge (host)", `S=F.object({method:F.literal("ui/initialize"),params:F.object({})});this.replaceRequestHandler("ui/initialize",{params:S.shape.params},(Y)=>Y);if(G==="ui/initialize"||G==="ping")return W`, false},
		{"dispatch table", `handlers.set("ui/initialize", onInit); if (handlers.has("ui/initialize")) x(); switch (m) { case "ui/initialize": break }`, false},
		{"host handler registration", `bridge.setRequestHandler("ui/initialize", answer); on("ui/initialize", answer)`, false},
		{"constant only", `export const INITIALIZE = "ui/initialize";`, false},
		{"other method", `this.request({method:"ui/initialized"}); this.request({method:"ui/initialize-later"})`, false},
		{"no mention", `export const x = 1;`, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := postsUIInitialize(c.src); got != c.want {
				t.Errorf("postsUIInitialize(%q) = %v, want %v", c.src, got, c.want)
			}
		})
	}
}

// TestPostsUIInitializeExtApps judges ext-apps 2.0.4's published modules:
// every module with the App class posts ui/initialize, the AppBridge (host)
// module does not.
func TestPostsUIInitializeExtApps(t *testing.T) {
	hosts, err := browsertest.HostsDir()
	if err != nil {
		t.Fatal(err)
	}
	dist := filepath.Join(browsertest.RequireNodeModules(t, hosts, "@modelcontextprotocol/ext-apps"), "@modelcontextprotocol", "ext-apps", "dist", "src")
	for file, want := range map[string]bool{
		"app.js": true, "app-with-deps.js": true, "react/index.js": true, "react/react-with-deps.js": true,
		"app-bridge.js": false, "server/index.js": false,
	} {
		t.Run(file, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(dist, filepath.FromSlash(file)))
			if err != nil {
				t.Fatal(err)
			}
			if got := postsUIInitialize(string(src)); got != want {
				t.Errorf("postsUIInitialize(%s) = %v, want %v", file, got, want)
			}
		})
	}
}

// TestWithAppAdapter: the adapter loads as an import in an ES module, as a
// require call in a CommonJS one, after a hashbang, always on the first line.
func TestWithAppAdapter(t *testing.T) {
	const imp, req = `import "widgetd/app-adapter";`, `require("widgetd/app-adapter");`
	for _, c := range []struct{ name, file, src, want string }{
		{"ES module", "app.js", "export class App {}", imp + "export class App {}"},
		{"ES module with exports in a string", "app.js", "import{x}from\"y\";const s='module.exports';", imp + "import{x}from\"y\";const s='module.exports';"},
		{"script without module syntax", "app.ts", "class App {}", imp + "class App {}"},
		{"CommonJS", "app.js", "class App {}\nmodule.exports = { App };", req + "class App {}\nmodule.exports = { App };"},
		{"CommonJS named export", "vendor/app.js", "exports.App = App; // import it where needed", req + "exports.App = App; // import it where needed"},
		{".cjs", "app.cjs", "class App {}", req + "class App {}"},
		{".mjs with CommonJS-looking text", "app.mjs", "module.exports = 1", imp + "module.exports = 1"},
		{"hashbang", "app.js", "#!/usr/bin/env node\nexport const a = 1;", "#!/usr/bin/env node\n" + imp + "export const a = 1;"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := withAppAdapter(c.file, c.src); got != c.want {
				t.Errorf("withAppAdapter(%q, %q) =\n%q, want\n%q", c.file, c.src, got, c.want)
			}
		})
	}
}

// FuzzWithAppAdapter: whatever the source, the adapter is loaded exactly
// once more than the source loads it, every line keeps its number (a file
// of only a hashbang aside), and
// postsUIInitialize answers without panicking.
func FuzzWithAppAdapter(f *testing.F) {
	for _, s := range []string{"export class App {}", "#!/x\nmodule.exports = 1", `this.request({method:"ui/initialize"})`, "#!", ""} {
		f.Add("app.js", s)
	}
	f.Fuzz(func(t *testing.T, file, src string) {
		postsUIInitialize(src)
		out := withAppAdapter(file, src)
		onlyHashbang := strings.HasPrefix(src, "#!") && !strings.Contains(src, "\n")
		if strings.Count(out, "\n") != strings.Count(src, "\n") && !onlyHashbang {
			t.Fatalf("line count changed: %q → %q", src, out)
		}
		if strings.Count(out, `"widgetd/app-adapter"`) != strings.Count(src, `"widgetd/app-adapter"`)+1 {
			t.Fatalf("adapter not loaded once: %q", out)
		}
	})
}

// TestAppAdapterAttachedByBehaviour builds widgets whose App-like code sits
// in packages (an ES module and a CommonJS one, as a framework ships its own
// copy of App), beside a widget using a host-side package and a plain one:
// exactly the widgets with code posting ui/initialize carry the adapter.
func TestAppAdapterAttachedByBehaviour(t *testing.T) {
	const vendoredApp = `export class App { connect() { window.addEventListener("message", () => {}); window.parent.postMessage({ jsonrpc: "2.0", id: 0, method: "ui/initialize", params: {} }, "*"); } }`
	root := writeProject(t, map[string]string{
		"node_modules/framework/package.json": `{"name": "framework", "type": "module", "main": "dist/app.js"}`,
		"node_modules/framework/dist/app.js":  vendoredApp,
		"node_modules/legacy/package.json":    `{"name": "legacy", "main": "index.js"}`,
		"node_modules/legacy/index.js":        `function send(m, p) { window.parent.postMessage({ jsonrpc: "2.0", id: 1, method: m, params: p }, "*"); }` + "\n" + `module.exports = { connect: () => send("ui/initialize", {}) };`,
		"node_modules/hostkit/package.json":   `{"name": "hostkit", "type": "module", "main": "host.js"}`,
		"node_modules/hostkit/host.js":        `const handlers = new Map(); export function serve(f) { handlers.set("ui/initialize", f); }`,
		"widgets/esm/widget.json":             widgetJSON("main.js"),
		"widgets/esm/main.js":                 `import { App } from "framework"; new App().connect();`,
		"widgets/cjs/widget.json":             widgetJSON("main.js"),
		"widgets/cjs/main.js":                 `import legacy from "legacy"; legacy.connect();`,
		"widgets/host/widget.json":            widgetJSON("main.js"),
		"widgets/host/main.js":                `import { serve } from "hostkit"; serve(() => ({}));`,
		"widgets/plain/widget.json":           widgetJSON("main.js"),
		"widgets/plain/main.js":               `document.body.textContent = "hello";`,
	})
	// With the full bridge everywhere, the full App adapter marks the
	// widgets it attached to.
	if err := os.WriteFile(filepath.Join(root, layout.ProjectConfigFile), []byte(`{"bridge": "full"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	_, out := assembleOK(t, testOptions(root))
	want := map[string]bool{"esm": true, "cjs": true, "host": false, "plain": false}
	if len(out.Manifest.Widgets) != len(want) {
		t.Fatalf("built %d widgets, want %d", len(out.Manifest.Widgets), len(want))
	}
	for _, w := range out.Manifest.Widgets {
		// The adapter's emulated hostInfo names window.openai as the version.
		got := strings.Contains(string(out.Files[w.HTML]), `"window.openai"`)
		if got != want[w.Name] {
			t.Errorf("widget %s carries the App adapter: %v, want %v", w.Name, got, want[w.Name])
		}
	}
	// "bridge": "auto": the widgets with App-like code get the App adapter
	// level; a module that mentions ui/initialize without posting it gets
	// the full bridge (widgetd cannot tell what it does); the plain widget
	// gets the handshake core.
	if err := os.Remove(filepath.Join(root, layout.ProjectConfigFile)); err != nil {
		t.Fatal(err)
	}
	_, out = assembleOK(t, testOptions(root))
	levels := map[string]string{"esm": "app", "cjs": "app", "host": "full", "plain": "core"}
	for _, w := range out.Manifest.Widgets {
		if w.Bridge != levels[w.Name] {
			t.Errorf("widget %s got bridge %q (%s), want %q", w.Name, w.Bridge, w.BridgeReason, levels[w.Name])
		}
	}
}
