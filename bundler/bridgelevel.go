package bundler

import (
	"bytes"
	"cmp"
	"fmt"
	"maps"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/widgetd/widgetd/bundler/bridge"
	"github.com/widgetd/widgetd/bundler/internal/config"
	"github.com/widgetd/widgetd/bundler/internal/jstransform"
	"github.com/widgetd/widgetd/diag"
)

// bridgeLevel is how much of the client bridge a widget carries (docs/bridge.md,
// "Bridge levels"). The bundler decides it from the widget's bundled code.
type bridgeLevel string

const (
	// bridgeFull is the whole bridge: the widgetd API, the window.openai
	// polyfill on MCP Apps hosts, and the App adapter where code does its own
	// handshake. A widget that uses the widgetd API or window.openai gets it.
	bridgeFull bridgeLevel = "full"
	// bridgeApp is only the App adapter over window.openai
	// (bridge.AppAdapterLiteEntry), for a widget whose own code does the
	// ui/* handshake (an ext-apps App) and uses nothing else of the bridge.
	bridgeApp bridgeLevel = "app"
	// bridgeCore is the handshake core (bridge.CoreEntry), for a widget that
	// uses nothing of the bridge and does no handshake: a raw "message"
	// listener or a static page.
	bridgeCore bridgeLevel = "core"
)

// bridgeChoice is the level a widget got and why, as `widgetd build
// --verbose` and the manifest tell it.
type bridgeChoice struct {
	level  bridgeLevel
	reason string
}

// bridgeMode is the widget's "bridge" field, else widgetd.json's, else auto.
func (b *Builder) bridgeMode(w *widget) string {
	if w.Config.Bridge != "" {
		return w.Config.Bridge
	}
	if b.bridgeDefault != "" {
		return b.bridgeDefault
	}
	return config.BridgeAuto
}

// chooseBridge decides the level of one widget from the first bundle (its
// widgets bundled at any level: the bridge, the generated entry and the App
// adapter do not count): full when its mode says so, when it
// is a component entry (the generated mount uses the widgetd API), when a
// module of its own or a package imports the widgetd API, when a module
// that puts bytes in its output mentions openai (window.openai, its events,
// a property or string; not in comments or TypeScript types: a string that
// only mentions it still gives full, widgetd cannot tell), or when
// something is out of sight (an HTML script widgetd does not bundle, a module
// a plugin made); app when its code posts ui/initialize itself (the App
// adapter attached to it); core otherwise.
func (b *Builder) chooseBridge(w *widget, res *bundleResult) bridgeChoice {
	full := func(format string, args ...any) bridgeChoice {
		return bridgeChoice{level: bridgeFull, reason: fmt.Sprintf(format, args...)}
	}
	if b.bridgeMode(w) == config.BridgeFull {
		return full(`"bridge": "full"`)
	}
	if ce := b.analyseEntry(w); ce.export != "" && ce.framework != "" {
		return full("component entry: the generated mount uses the widgetd API")
	}
	if w.HTMLEntry {
		if reason := htmlNeedsFullBridge(w.html); reason != "" {
			return full("%s", reason)
		}
	}
	name := w.Config.Name
	adapted := map[string]bool{} // modules the App adapter was put ahead of
	for _, in := range res.widgetInputs(name) {
		if strings.HasPrefix(in, bridgeNamespace+":") || strings.HasPrefix(in, entryNamespace+":") {
			continue
		}
		for _, imp := range res.meta.Inputs[in].Imports {
			if isAppAdapter(imp.Path) {
				adapted[in] = true
			} else if strings.HasPrefix(imp.Path, bridgeNamespace+":") {
				return full("%s imports the widgetd API", b.inputName(in))
			}
		}
	}
	for _, key := range res.widgetOutputs(name) {
		ins := res.meta.Outputs[key].Inputs
		for _, in := range slices.Sorted(maps.Keys(ins)) {
			if ins[in].BytesInOutput == 0 {
				continue
			}
			if reason := b.moduleNeedsFullBridge(in, adapted[in]); reason != "" {
				return full("%s %s", b.inputName(in), reason)
			}
		}
	}
	if len(adapted) > 0 {
		first := slices.Sorted(maps.Keys(adapted))[0]
		return bridgeChoice{level: bridgeApp, reason: b.inputName(first) + " posts ui/initialize itself (App adapter only)"}
	}
	return bridgeChoice{level: bridgeCore, reason: "no widgetd API, window.openai or handshake of its own (handshake core)"}
}

// htmlNeedsFullBridge says why an HTML entry needs the full bridge: what is
// left of it after widgetd took out the module scripts it bundles (classic
// or external scripts, inline handlers, text) mentions openai or
// ui/initialize, or keeps a script widgetd cannot look into.
func htmlNeedsFullBridge(e *htmlEntry) string {
	rest := bytes.ToLower(append(slices.Clone(e.before), e.after...))
	switch {
	case bytes.Contains(rest, []byte("openai")):
		return "the HTML mentions openai"
	case bytes.Contains(rest, []byte("ui/initialize")):
		return "the HTML mentions ui/initialize"
	case bytes.Contains(rest, []byte("<script")):
		return "the HTML keeps a script widgetd does not bundle"
	}
	return ""
}

// notCode are the extensions of inputs that cannot touch window.openai.
var notCode = append([]string{".css", ".json"}, assetExts...)

// moduleNeedsFullBridge says why one input (a metafile key) that puts bytes
// in a widget's output needs the full bridge, or "". adapted: the App
// adapter was put ahead of it (it posts ui/initialize, which is then known).
func (b *Builder) moduleNeedsFullBridge(in string, adapted bool) string {
	if slices.Contains(notCode, strings.ToLower(path.Ext(in))) {
		return ""
	}
	var src []byte
	switch ns, rest, _ := strings.Cut(in, ":"); {
	case ns == compiledStyleNamespace || ns == bridgeNamespace || ns == entryNamespace || strings.HasPrefix(in, "<"):
		return "" // CSS, the bridge itself, the generated entry, esbuild's own (<define:…>, <runtime>)
	case ns == inlineScriptNamespace:
		text, ok := b.inlineScriptText(rest)
		if !ok {
			return "is an inline script widgetd cannot read back"
		}
		src = []byte(text)
	case strings.Contains(in, ":") && !strings.Contains(ns, "/"):
		return "comes from plugin namespace " + strconv.Quote(ns) + ", which widgetd does not look into"
	default:
		data, err := b.contain.ReadFile("", rootFile(b.root, in), "")
		if err != nil {
			return "cannot be read back (" + err.Error() + ")"
		}
		src = data
	}
	code, ok := withoutComments(src, in)
	if !ok {
		code = src // not JavaScript esbuild reads alone (.vue, .svelte): comments count
	}
	if bytes.Contains(code, []byte("openai")) {
		return "mentions openai"
	}
	if !adapted && bytes.Contains(code, []byte("ui/initialize")) {
		return "mentions ui/initialize where widgetd saw no handshake to adapt"
	}
	return ""
}

// scriptModuleRE matches the JavaScript and TypeScript modules esbuild reads alone.
var scriptModuleRE = regexp.MustCompile(scriptModules)

// withoutComments returns a script module's code without its comments and
// TypeScript types, as esbuild parses it, when its text mentions openai or
// ui/initialize at all (most modules do not, and are not parsed again); ok
// is false when esbuild cannot read it on its own.
func withoutComments(src []byte, in string) ([]byte, bool) {
	if !bytes.Contains(src, []byte("openai")) && !bytes.Contains(src, []byte("ui/initialize")) {
		return src, true
	}
	loader := jstransform.LoaderFor(in)
	if loader == api.LoaderJS && !scriptModuleRE.MatchString(in) && !strings.HasPrefix(in, inlineScriptNamespace+":") {
		return nil, false
	}
	r := api.Transform(string(src), api.TransformOptions{Loader: loader, LegalComments: api.LegalCommentsNone, JSX: api.JSXPreserve, LogLevel: api.LogLevelSilent})
	if len(r.Errors) > 0 {
		return nil, false
	}
	return r.Code, true
}

// inlineScriptText returns an inline module script's text from the rest of
// its metafile key ("<widget>:<index>").
func (b *Builder) inlineScriptText(rest string) (string, bool) {
	name, idx, _ := strings.Cut(rest, ":")
	w := b.widgetByName(name)
	i, err := strconv.Atoi(idx)
	if w == nil || w.html == nil || err != nil || i < 0 || i >= len(w.html.inlineScripts) {
		return "", false
	}
	return w.html.inlineScripts[i], true
}

// inputName shows a metafile input key in a reason, relative to the project
// root (the manifest records it, so no machine's path).
func (b *Builder) inputName(in string) string {
	if filepath.IsAbs(in) {
		return b.relPath(in)
	}
	return in
}

// applyBridgeLevels decides every widget's bridge level from res, whose
// widgets were bundled at the levels in bundledAt (missing: full), and
// bundles again, in at most one esbuild run per kind (full, lighter), the
// widgets whose level differs from the one they were bundled at; their
// outputs replace theirs in res. The decision does not depend on the level
// a widget was bundled at (chooseBridge skips the bridge, the generated
// entry and either App adapter). `widgetd dev` keeps the full bridge in
// every widget (its preview and React Refresh are built around it) and
// only records the level a build would give, unless ShippedBridge asks
// for the shipped levels (widgetd test).
func (b *Builder) applyBridgeLevels(res *bundleResult, bundledAt map[string]bridgeLevel) (*bundleResult, []diag.Diagnostic, error) {
	choices := map[string]bridgeChoice{}
	levels := map[string]bridgeLevel{}
	var lite, full []*widget
	for _, w := range b.widgets {
		name := w.Config.Name
		c := b.chooseBridge(w, res)
		choices[name] = c
		if b.devOrigin != "" && !b.shippedBridge {
			continue
		}
		was := cmp.Or(bundledAt[name], bridgeFull)
		switch {
		case c.level != bridgeFull && c.level != was:
			levels[name] = c.level
			lite = append(lite, w)
		case c.level == bridgeFull && (was != bridgeFull || res.carriesLiteAdapter(name)):
			full = append(full, w)
		}
	}
	var diags []diag.Diagnostic
	for _, again := range []struct {
		widgets []*widget
		levels  map[string]bridgeLevel
	}{{full, nil}, {lite, levels}} {
		if len(again.widgets) == 0 {
			continue
		}
		var err error
		var d []diag.Diagnostic
		res, d, err = b.bundleAgain(res, again.widgets, again.levels)
		diags = append(diags, d...)
		if err != nil {
			return nil, diags, err
		}
	}
	return res.withBridges(choices), diags, nil
}

// bundleAgain bundles widgets once more at levels (nil: full) in one
// esbuild run and returns res with their outputs replaced.
func (b *Builder) bundleAgain(res *bundleResult, widgets []*widget, levels map[string]bridgeLevel) (*bundleResult, []diag.Diagnostic, error) {
	opts := b.esbuildOptionsFor(levels)
	opts.EntryPointsAdvanced = nil
	for _, w := range widgets {
		opts.EntryPointsAdvanced = append(opts.EntryPointsAdvanced, api.EntryPoint{InputPath: entryNamespace + ":" + w.Config.Name, OutputPath: w.Config.Name})
	}
	b.esbuildRuns++
	one, diags, err := b.collectFor(api.Build(opts), widgets)
	if err != nil {
		return nil, diags, err
	}
	out, err := res.replaceWidgets(one, widgets)
	if err != nil {
		return nil, diags, err
	}
	return out, diags, nil
}

// isAppAdapter says whether a metafile import path is an App adapter, the
// full one or the one over window.openai alone: which one depends on the
// level a widget was bundled at, not on its code.
func isAppAdapter(importPath string) bool {
	return importPath == bridgeNamespace+":"+bridge.AppAdapterEntry || importPath == bridgeNamespace+":"+bridge.AppAdapterLiteEntry
}

// carriesLiteAdapter says whether a widget's bundle holds the App adapter
// over window.openai alone: a widget at full bundled in the same esbuild
// run as lighter widgets gets it (the adapter import resolves per run, not
// per widget), and must be bundled again with the full one.
func (r *bundleResult) carriesLiteAdapter(name string) bool {
	return slices.Contains(r.widgetInputs(name), bridgeNamespace+":"+bridge.AppAdapterLiteEntry)
}

// withBridges returns a copy of r that records the bridge choices.
func (r *bundleResult) withBridges(choices map[string]bridgeChoice) *bundleResult {
	c := *r
	c.bridges = choices
	return &c
}

// entryBridgeImport is the bridge import a widget's generated entry starts
// with at a level: the full bridge, the handshake core, or none (at level
// app the App adapter comes with the code that posts ui/initialize).
func entryBridgeImport(level bridgeLevel) string {
	switch level {
	case bridgeApp:
		return ""
	case bridgeCore:
		return "import " + strconv.Quote(bridge.CoreModuleName) + ";\n"
	}
	return "import \"widgetd\";\n"
}
