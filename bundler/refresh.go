package bundler

import (
	"encoding/json"
	"path/filepath"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// React Refresh in `widgetd dev` (Options.ReactRefresh). A widget's bundle
// is one esbuild output, not a graph of modules a browser loads one by one
// as under Vite, so an update re-runs the whole new bundle in the widget's
// live document. Three things make that keep the mounted React tree:
//
//   - every .jsx/.tsx file of the project goes through react-refresh's Babel
//     plugin (in the Node helper, op "refresh"): its components register with
//     the runtime `widgetd dev` injects before the bundle, under stable ids;
//   - the npm packages and "widgetd" modules the project's own files import
//     resolve to shims that keep the first run's instances on globalThis, so
//     the re-run uses the React, ReactDOM and bridge already running (their
//     code is in the new bundle too, but esbuild's lazy wrappers never run
//     it); react-dom/client's createRoot returns the root a container has;
//   - process.env.NODE_ENV is "development": React's refresh hooks exist in
//     its development build only.
//
// Then the runtime's performReactRefresh swaps the new component functions
// into the mounted fibers, keeping their state. None of this exists without
// the option; `widgetd build`, test and check never set it.

// refreshNamespace holds the shared-module shims.
const refreshNamespace = "widgetd-refresh-shared"

// refreshPlugin resolves the bare imports of the project's own modules
// (and of the virtual entries) to shims that share the first run's instance.
func (b *Builder) refreshPlugin() api.Plugin {
	return api.Plugin{Name: "widgetd-refresh", Setup: func(pb api.PluginBuild) {
		pb.OnResolve(api.OnResolveOptions{Filter: `^[^./]`}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			if !sharedImport(a) {
				return api.OnResolveResult{}, nil
			}
			return api.OnResolveResult{Path: a.Path, Namespace: refreshNamespace, PluginData: a.ResolveDir}, nil
		})
		pb.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: refreshNamespace}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			src := refreshShim(a.Path)
			dir, _ := a.PluginData.(string)
			return api.OnLoadResult{Contents: &src, ResolveDir: dir, Loader: api.LoaderJS}, nil
		})
	}}
}

// sharedImport reports whether an import gets a shared-instance shim: a
// package (or "widgetd" module) imported from a project file or a virtual
// entry, by import or require, never a stylesheet or an import from a
// package or from the shim itself.
func sharedImport(a api.OnResolveArgs) bool {
	if a.Kind != api.ResolveJSImportStatement && a.Kind != api.ResolveJSRequireCall && a.Kind != api.ResolveJSDynamicImport {
		return false
	}
	switch a.Namespace {
	case "file":
		if strings.Contains(a.Importer, string(filepath.Separator)+"node_modules"+string(filepath.Separator)) {
			return false
		}
	case entryNamespace:
	default:
		return false
	}
	if strings.Contains(a.Path, ":") || strings.HasSuffix(a.Path, ".css") {
		return false // data:, node:, and stylesheets
	}
	return true
}

// refreshShim is the shim of package spec: the first run requires the real
// module and keeps it; a re-run gets it back.
func refreshShim(spec string) string {
	q, _ := json.Marshal(spec)
	var sb strings.Builder
	sb.WriteString("var g = globalThis.__widgetdShared || (globalThis.__widgetdShared = {});\n")
	if spec == "react-dom/client" {
		// One root per container: the re-run entry's createRoot(el) gets
		// the mounted root, and its render() reconciles the new element
		// tree into it (same component families: state kept).
		sb.WriteString("var roots = g.__roots || (g.__roots = new WeakMap());\n")
		sb.WriteString("module.exports = g[" + string(q) + "] || (g[" + string(q) + "] = (function (real) { var m = Object.assign({}, real); m.createRoot = function (c, o) { var r = roots.get(c); if (!r) { r = real.createRoot(c, o); roots.set(c, r); } return r; }; return m; })(require(" + string(q) + ")));\n")
		return sb.String()
	}
	sb.WriteString("module.exports = g[" + string(q) + "] || (g[" + string(q) + "] = require(" + string(q) + "));\n")
	return sb.String()
}

// refreshesJSX reports whether a .jsx/.tsx file goes through the React
// Refresh transform: the option is on, the file is the project's own (not a
// package's), and its JSX is React's (not Solid's or another runtime's).
func (c *compilers) refreshesJSX(file string) bool {
	if !c.b.reactRefresh || strings.Contains(file, string(filepath.Separator)+"node_modules"+string(filepath.Separator)) {
		return false
	}
	cfg := c.jsxConfig(filepath.Dir(file))
	return !cfg.solid && !cfg.otherRuntime
}
