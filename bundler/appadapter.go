package bundler

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/widgetd/widgetd/bundler/bridge"
	"github.com/widgetd/widgetd/bundler/internal/jstransform"
)

// scriptModules matches the files the App adapter hook looks into: every
// JavaScript and TypeScript module, the project's and its packages'.
const scriptModules = `\.(m?[jt]sx?|c[jt]s)$`

// uiInitializeMethod matches a JSON-RPC message built with method
// "ui/initialize" (ext-apps' App: this.request({method:"ui/initialize",…})),
// and uiInitializeCall a call with "ui/initialize" as its first argument
// (request("ui/initialize", params)), capturing the callee's name.
var (
	uiInitializeMethod = regexp.MustCompile(`["']?\bmethod["']?\s*:\s*` + uiInitializeString)
	uiInitializeCall   = regexp.MustCompile(`([\w$]*)\s*\(\s*` + uiInitializeString)
)

// uiInitializeString is the method name in any of JavaScript's quotes.
const uiInitializeString = "[\"'`]ui/initialize[\"'`]"

// receivingCallee matches the callees that take "ui/initialize" to receive
// the request, not to send it: a schema (zod's literal), a handler
// registration (AppBridge's replaceRequestHandler, setRequestHandler, on),
// a lookup or comparison in a dispatch table.
var receivingCallee = regexp.MustCompile(`(?i)(^(literal|set|get|has|includes|startswith|endswith|indexof|on|once|off|addeventlistener)|handler)$`)

// postsUIInitialize reports whether a module's source does the MCP Apps
// handshake itself: it builds a ui/initialize message, or passes
// "ui/initialize" to a call that is not a receiving one. ext-apps' App, a
// framework's vendored copy of it and hand-written postMessage code do; a
// host's code (AppBridge), which only receives the request, does not.
func postsUIInitialize(src string) bool {
	if !strings.Contains(src, "ui/initialize") {
		return false
	}
	if uiInitializeMethod.MatchString(src) {
		return true
	}
	for _, m := range uiInitializeCall.FindAllStringSubmatch(src, -1) {
		if m[1] != "" && !receivingCallee.MatchString(m[1]) {
			return true
		}
	}
	return false
}

// moduleSyntax and commonJSExports tell an ES module from a CommonJS one
// roughly the way esbuild does: import/export statements make an ES module,
// module.exports or exports.x = … without them a CommonJS one.
var (
	moduleSyntax    = regexp.MustCompile(`(^|[;})\s])(import\s*[{*"']|import\s+[\w$]+\s*(,|from\b)|export\s*[{*]|export\s+(default|const|let|var|function|class|async)\b)`)
	commonJSExports = regexp.MustCompile(`\bmodule\.exports\b|\bexports\.[\w$]+\s*=`)
)

// appAdapterPlugin puts an import of the bridge's App adapter ahead of every
// module that posts its own ui/initialize, so the adapter runs before that
// code connects, and only widgets with such code carry it. Judging by what a
// module does, not by its package name, covers ext-apps' App modules and
// every copy of App a framework bundles (sunpeak's), or code written by hand.
// It is the last plugin, so a module another plugin compiles or rewrites
// (Solid, Vue, Svelte, new URL(…, import.meta.url)) keeps that treatment and
// goes without the adapter.
func (b *Builder) appAdapterPlugin() api.Plugin {
	return api.Plugin{Name: "widgetd-app-adapter", Setup: func(pb api.PluginBuild) {
		ns := jstransform.NewNamespaceReexports(b.contain.ReadFile)
		pb.OnLoad(api.OnLoadOptions{Filter: scriptModules, Namespace: "file"}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			data, err := b.contain.ReadFile("", a.Path, "")
			if isLimitError(err) {
				return loadError(err), nil
			}
			if err != nil {
				return api.OnLoadResult{}, fmt.Errorf("read %s: %w", a.Path, err)
			}
			src, rewritten := ns.Rewrite(pb, a.Path, string(data))
			if out, ok := b.rewrites.rewrite(a.Path, src); ok {
				src, rewritten = out, true
			}
			adapt := postsUIInitialize(src)
			if !adapt && !rewritten {
				return api.OnLoadResult{}, nil // esbuild loads it as usual
			}
			if adapt {
				src = withAppAdapter(a.Path, src)
			}
			return api.OnLoadResult{Contents: &src, Loader: jstransform.LoaderFor(a.Path), ResolveDir: filepath.Dir(a.Path)}, nil
		})
	}}
}

// withAppAdapter returns the module source src of file with the App adapter
// loaded first: an import statement in an ES module, a require call in a
// CommonJS one (where an import would make esbuild treat it as an ES module).
// Either goes on the first line (after a hashbang), so line numbers in
// messages stay true.
func withAppAdapter(file, src string) string {
	ext := strings.ToLower(filepath.Ext(file))
	commonJS := ext == ".cjs" || ext == ".cts"
	if ext != ".mjs" && ext != ".mts" && !commonJS {
		commonJS = commonJSExports.MatchString(src) && !moduleSyntax.MatchString(src)
	}
	load := `import "` + bridge.AppAdapterModuleName + `";`
	if commonJS {
		load = `require("` + bridge.AppAdapterModuleName + `");`
	}
	if strings.HasPrefix(src, "#!") { // a hashbang must stay first
		line, rest, _ := strings.Cut(src, "\n")
		return line + "\n" + load + rest // (a file of only a hashbang gains a line)
	}
	return load + src
}
