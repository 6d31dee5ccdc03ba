package bundler

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/evanw/esbuild/pkg/api"
)

// React Refresh in `widgetd dev` (Options.ReactRefresh). A widget's bundle
// is one esbuild output, not a graph of modules a browser loads one by one
// as under Vite, so an update re-runs the whole new bundle in the widget's
// live document. What makes that keep the mounted React tree:
//
//   - every .jsx/.tsx file of the project goes through react-refresh's Babel
//     plugin (in the Node helper, op "refresh"): its components register with
//     the runtime `widgetd dev` injects before the bundle, under stable ids;
//   - the npm packages the project's modules import are left out of the
//     bundle: they resolve to shims that read them from a vendor script
//     (Output.RefreshVendors) the document runs once, before the bundle, so
//     a re-run uses the React and ReactDOM already running, and a rebuild
//     prints only the project's own code; react-dom/client's createRoot
//     returns the root a container already has;
//   - the "widgetd" modules stay in the bundle behind shims that keep the
//     first run's instance (the bridge already connected to the host);
//   - process.env.NODE_ENV is "development": React's refresh hooks exist in
//     its development build only.
//
// Then the runtime's performReactRefresh swaps the new component functions
// into the mounted fibers, keeping their state. None of this exists without
// the option; `widgetd build`, test and check never set it.

// refreshNamespace holds the shims.
const refreshNamespace = "widgetd-refresh-shared"

// refreshCommon is the refreshState key of the packages the "widgetd"
// modules import, which every widget's vendor script carries.
const refreshCommon = "\x00common"

// refreshState records which packages each widget imports (for as long as
// the Builder lives: a package once imported stays in the vendor script)
// and caches the vendor scripts by their package list.
type refreshState struct {
	mu      sync.Mutex
	imports map[string]map[string]bool // widget (or refreshCommon) → packages
	scripts map[string]string          // vendor key → script
}

// note records that widget imports spec.
func (r *refreshState) note(widget, spec string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.imports == nil {
		r.imports = map[string]map[string]bool{}
	}
	if r.imports[widget] == nil {
		r.imports[widget] = map[string]bool{}
	}
	r.imports[widget][spec] = true
}

// refreshPlugin resolves the bare imports of the project's own modules, of
// the virtual entries and of the "widgetd" modules to shims.
func (b *Builder) refreshPlugin() api.Plugin {
	return api.Plugin{Name: "widgetd-refresh", Setup: func(pb api.PluginBuild) {
		pb.OnResolve(api.OnResolveOptions{Filter: `^[^./]`}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			if !sharedImport(a) {
				return api.OnResolveResult{}, nil
			}
			if !bridgeModule(a.Path) {
				widget := refreshCommon
				switch {
				case a.Namespace == entryNamespace:
					widget = a.Importer
				case a.Namespace == "file":
					if w := b.widgetOf(a.Importer); w != nil {
						widget = w.Config.Name
					}
				}
				b.refresh.note(widget, a.Path)
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

// bridgeModule reports whether spec is one of the "widgetd" modules.
func bridgeModule(spec string) bool { return spec == "widgetd" || strings.HasPrefix(spec, "widgetd/") }

// sharedImport reports whether an import gets a shim: a package or
// "widgetd" module imported by import or require from a project file, a
// virtual entry or a "widgetd" module; never a stylesheet, nor an import
// from a package or from a shim.
func sharedImport(a api.OnResolveArgs) bool {
	if a.Kind != api.ResolveJSImportStatement && a.Kind != api.ResolveJSRequireCall && a.Kind != api.ResolveJSDynamicImport {
		return false
	}
	switch a.Namespace {
	case "file":
		if inPackage(a.Importer) {
			return false
		}
	case entryNamespace:
	case bridgeNamespace:
		if bridgeModule(a.Path) {
			return false // the bridge's own modules are one instance already
		}
	default:
		return false
	}
	if strings.Contains(a.Path, ":") || strings.HasSuffix(a.Path, ".css") {
		return false // data:, node:, and stylesheets
	}
	return true
}

// refreshShim is the shim of spec. A package comes from the vendor script;
// a "widgetd" module is bundled, and its first run's instance is kept.
func refreshShim(spec string) string {
	q, _ := json.Marshal(spec)
	k := string(q)
	var sb strings.Builder
	sb.WriteString("var g = globalThis.__widgetdShared || (globalThis.__widgetdShared = {});\n")
	if bridgeModule(spec) {
		sb.WriteString("module.exports = g[" + k + "] || (g[" + k + "] = require(" + k + "));\n")
		return sb.String()
	}
	sb.WriteString("var v = globalThis.__widgetdVendor;\n")
	sb.WriteString("if (!v || !(" + k + " in v)) throw new Error(\"widgetd dev: \" + " + k + " + \" is not in this document's vendor script; the preview reloads the widget\");\n")
	if spec == "react-dom/client" {
		// One root per container: the re-run entry's createRoot(el) gets
		// the mounted root, and its render() reconciles the new element
		// tree into it (same component families: state kept).
		sb.WriteString("var roots = g.__roots || (g.__roots = new WeakMap());\n")
		sb.WriteString("module.exports = g[" + k + "] || (g[" + k + "] = (function (real) { var m = Object.assign({}, real); m.createRoot = function (c, o) { var r = roots.get(c); if (!r) { r = real.createRoot(c, o); roots.set(c, r); } return r; }; return m; })(v[" + k + "]));\n")
		return sb.String()
	}
	sb.WriteString("module.exports = v[" + k + "];\n")
	return sb.String()
}

// vendors returns each widget's vendor script: the packages it imports
// (and those the "widgetd" modules import), resolved from the widget's
// folder, required in a fixed order and kept on globalThis.__widgetdVendor.
// A script is built again only when its package list changes.
func (r *refreshState) vendors(b *Builder) (map[string]string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.scripts == nil {
		r.scripts = map[string]string{}
	}
	out := map[string]string{}
	for _, w := range b.widgets {
		name := w.Config.Name
		specs := map[string]bool{}
		maps.Copy(specs, r.imports[refreshCommon])
		maps.Copy(specs, r.imports[name])
		names := slices.Sorted(maps.Keys(specs))
		key := w.Dir + "\x00" + strings.Join(names, "\x00")
		script, ok := r.scripts[key]
		if !ok {
			var err error
			if script, err = b.vendorScript(w.Dir, names); err != nil {
				return nil, fmt.Errorf("widget %s: React Refresh vendor script: %w", name, err)
			}
			r.scripts[key] = script
		}
		out[name] = script
	}
	return out, nil
}

// vendorScript bundles the packages specs, as resolved from dir, into one
// script (React's development build), through the build's containment.
func (b *Builder) vendorScript(dir string, specs []string) (string, error) {
	var sb strings.Builder
	sb.WriteString("var v = globalThis.__widgetdVendor || (globalThis.__widgetdVendor = {});\n")
	for _, spec := range specs {
		q, _ := json.Marshal(spec)
		fmt.Fprintf(&sb, "v[%s] = require(%s);\n", q, q)
	}
	res := api.Build(api.BuildOptions{
		Stdin:             &api.StdinOptions{Contents: sb.String(), ResolveDir: dir, Sourcefile: "widgetd-refresh-vendor.js", Loader: api.LoaderJS},
		AbsWorkingDir:     b.root,
		Bundle:            true,
		Write:             false,
		Format:            api.FormatIIFE,
		Platform:          api.PlatformBrowser,
		Target:            b.target,
		Define:            b.envDefines(),
		JSX:               api.JSXAutomatic,
		MinifyWhitespace:  true,
		MinifySyntax:      true,
		MinifyIdentifiers: true,
		LogLevel:          api.LogLevelSilent,
		Plugins:           b.containedPlugins(),
	})
	if len(res.Errors) > 0 {
		m := res.Errors[0]
		if m.Location != nil {
			return "", fmt.Errorf("%s:%d:%d: %s", m.Location.File, m.Location.Line, m.Location.Column+1, m.Text)
		}
		return "", errors.New(m.Text)
	}
	if len(res.OutputFiles) != 1 {
		return "", errors.New("esbuild wrote no script")
	}
	return string(res.OutputFiles[0].Contents), nil
}

// refreshesJSX reports whether a .jsx/.tsx file goes through the React
// Refresh transform: the option is on, the file is the project's own (not a
// package's), and its JSX is React's (not Solid's or another runtime's).
func (c *compilers) refreshesJSX(file string) bool {
	if !c.b.reactRefresh || inPackage(file) {
		return false
	}
	cfg := c.jsxConfig(filepath.Dir(file))
	return !cfg.Solid && !cfg.OtherRuntime
}
