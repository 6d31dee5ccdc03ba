package bundler

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/widgetd/widgetd/bundler/internal/tsconfig"
	"github.com/widgetd/widgetd/diag"
	"github.com/widgetd/widgetd/internal/mountid"
)

// A component entry is a script entry that exports a component and mounts
// nothing itself (the style of sunpeak, Skybridge, mcp-use, Next.js and
// Astro: the framework's build generates the mount). widgetd then generates
// the mount for the component's framework (componentmount.go); without it
// the component is tree-shaken away and the widget renders an empty page.

// Frameworks a component entry can be mounted with.
const (
	frameworkReact  = "react"
	frameworkPreact = "preact"
	frameworkVue    = "vue"
	frameworkSvelte = "svelte"
	frameworkSolid  = "solid"
)

// componentEntry is what analysing a widget's entry module found.
type componentEntry struct {
	// export is the exported name of the component to mount ("default", or
	// the one exported name that starts with a capital letter); "" when the
	// entry is not a component entry.
	export string
	// framework mounts the component; "" when it could not be told.
	framework string
}

// maxEntryAnalyses bounds the analysis cache (entries); emptied when full.
const maxEntryAnalyses = 256

// entryAnalyses caches component-entry analyses by entry path and content,
// for the life of a Builder (every rebuild of `widgetd dev` asks again).
type entryAnalyses struct {
	mu    sync.Mutex
	cache map[string]componentEntry
}

var (
	// selfMountRE finds code that mounts or renders by itself: the mount
	// calls of React, Preact, Solid, Vue and Svelte, Skybridge's mountWidget
	// and mountView, a Svelte 4 constructor, custom elements and direct DOM
	// lookups.
	selfMountRE = regexp.MustCompile(`(^|[^.\w$])(createRoot|hydrateRoot|hydrate|render|mount|mountWidget|mountView|createApp)\s*\(|\.(render|mount)\s*\(|\bnew\s+[\w$.]+\s*\(\s*\{\s*target\b|customElements\.define\(|document\.(body|getElementById|querySelector)`)
	// methodDefRE matches what follows a name that is a method definition
	// (`render() {`), not a call.
	methodDefRE = regexp.MustCompile(`^\s*\([^)]*\)\s*\{`)
	// importSpecRE finds the specifiers of static imports and re-exports.
	importSpecRE = regexp.MustCompile(`(?:\bfrom\s*|\bimport\s*)["']([^"']+)["']`)
)

// analyseEntry tells whether w's entry is a component entry, and for which
// framework. Errors (an entry that does not parse) give "not a component
// entry": the bundle then reports them at their line.
func (b *Builder) analyseEntry(w *widget) componentEntry {
	if w.HTMLEntry {
		return componentEntry{}
	}
	ext := strings.ToLower(filepath.Ext(w.Entry))
	switch ext {
	case ".vue":
		return componentEntry{export: "default", framework: frameworkVue}
	case ".svelte":
		return componentEntry{export: "default", framework: frameworkSvelte}
	}
	src, err := readBounded(w.Entry)
	if err != nil {
		return componentEntry{}
	}
	sum := sha256.Sum256(src)
	key := w.Entry + "\x00" + string(sum[:])
	a := b.entryAnalyses
	a.mu.Lock()
	got, ok := a.cache[key]
	a.mu.Unlock()
	if ok {
		return got
	}
	got = b.analyseSource(w, src, ext)
	a.mu.Lock()
	if len(a.cache) >= maxEntryAnalyses {
		a.cache = map[string]componentEntry{}
	}
	a.cache[key] = got
	a.mu.Unlock()
	return got
}

// analyseSource runs esbuild on the entry alone (no bundling) for its
// export names and its code without types, then decides.
func (b *Builder) analyseSource(w *widget, src []byte, ext string) componentEntry {
	loader := map[string]api.Loader{".tsx": api.LoaderTSX, ".ts": api.LoaderTS, ".mts": api.LoaderTS, ".jsx": api.LoaderJSX, ".js": api.LoaderJSX, ".mjs": api.LoaderJSX}[ext]
	r := api.Build(api.BuildOptions{
		Stdin:    &api.StdinOptions{Contents: string(src), Sourcefile: filepath.Base(w.Entry), Loader: loader},
		Bundle:   false,
		Write:    false,
		Metafile: true,
		Format:   api.FormatESModule,
		JSX:      api.JSXPreserve,
		Outdir:   filepath.Join(b.root, outBase),
		LogLevel: api.LogLevelSilent,
	})
	if len(r.Errors) > 0 || len(r.OutputFiles) != 1 {
		return componentEntry{}
	}
	var meta struct {
		Outputs map[string]struct {
			Exports []string `json:"exports"`
		} `json:"outputs"`
	}
	if json.Unmarshal([]byte(r.Metafile), &meta) != nil {
		return componentEntry{}
	}
	var exports []string
	for _, o := range meta.Outputs {
		exports = append(exports, o.Exports...)
	}
	code := r.OutputFiles[0].Contents
	export := componentExport(exports)
	if export == "" || mountsItself(code) {
		return componentEntry{}
	}
	return componentEntry{export: export, framework: b.entryFramework(w, code)}
}

// componentExport picks the component among an entry's exports: the default
// export, else the only export whose name starts with a capital letter
// (lower-case exports such as mcp-use's widgetMetadata or sunpeak's
// resource are configuration, not components).
func componentExport(exports []string) string {
	var capital []string
	for _, e := range exports {
		if e == "default" {
			return e
		}
		if e != "" && e[0] >= 'A' && e[0] <= 'Z' {
			capital = append(capital, e)
		}
	}
	if len(capital) == 1 {
		return capital[0]
	}
	return ""
}

// mountsItself reports whether code (an entry without types) mounts or
// renders by itself, as OpenAI's examples do beside `export default App`.
func mountsItself(code []byte) bool {
	for _, m := range selfMountRE.FindAllIndex(code, -1) {
		if !methodDefRE.Match(code[m[1]-1:]) {
			return true
		}
	}
	return false
}

// entryFramework tells the component's framework: from what the entry
// imports, else the JSX settings of its nearest tsconfig, else the
// packages its package.json lists; a .jsx/.tsx entry defaults to React.
func (b *Builder) entryFramework(w *widget, code []byte) string {
	for _, m := range importSpecRE.FindAllSubmatch(code, -1) {
		if f := frameworkOfImport(string(m[1])); f != "" {
			return f
		}
	}
	dir := filepath.Dir(w.Entry)
	if f := frameworkOfJSXSource(dir); f != "" {
		return f
	}
	for _, c := range []struct{ pkg, framework string }{
		{"react-dom", frameworkReact}, {"preact", frameworkPreact}, {"vue", frameworkVue},
		{"svelte", frameworkSvelte}, {"solid-js", frameworkSolid},
	} {
		if tsconfig.DependsOn(dir, c.pkg, readBounded) {
			return c.framework
		}
	}
	if ext := strings.ToLower(filepath.Ext(w.Entry)); ext == ".tsx" || ext == ".jsx" {
		return frameworkReact
	}
	return ""
}

// frameworkOfImport names the framework an import specifier belongs to.
func frameworkOfImport(spec string) string {
	pkg := spec
	if i := strings.IndexByte(spec, '/'); i > 0 && !strings.HasPrefix(spec, "@") {
		pkg = spec[:i]
	}
	switch {
	case strings.HasSuffix(spec, ".vue") || pkg == "vue":
		return frameworkVue
	case strings.HasSuffix(spec, ".svelte") || pkg == "svelte":
		return frameworkSvelte
	case pkg == "solid-js":
		return frameworkSolid
	case pkg == "preact":
		return frameworkPreact
	case pkg == "react" || pkg == "react-dom" || spec == "widgetd/react":
		return frameworkReact
	}
	return ""
}

// frameworkOfJSXSource reads the jsxImportSource of the tsconfig.json or
// jsconfig.json nearest to dir (the one esbuild uses there).
func frameworkOfJSXSource(dir string) string {
	o, ok := tsconfig.Nearest(dir, readBounded)
	switch {
	case !ok:
		return ""
	case o.Solid(readBounded):
		return frameworkSolid
	case strings.HasPrefix(o.ImportSource, "preact"):
		return frameworkPreact
	case o.ImportSource == "react":
		return frameworkReact
	}
	return ""
}

// rendersNothingWarning warns when a widget's document renders nothing: no
// body content, and code that neither writes to the DOM nor mounts
// anything (`widgetd check` fails it as render-nothing, so the warning
// carries no Code: check would list it twice).
func (b *Builder) rendersNothingWarning(w *widget, html, js []byte) *diag.Diagnostic {
	if !mountid.RendersNothing(html, js) {
		return nil
	}
	return &diag.Diagnostic{File: b.displayPath(w.Entry), Warning: true,
		Message: fmt.Sprintf("widget %q renders nothing: %s", w.Config.Name, renderNothingHelp(b.analyseEntry(w).export != ""))}
}

// renderNothingHelp says why a widget that renders nothing does, and how to
// fix it; exportsComponent tells whether its entry exports a component
// widgetd could not mount. `widgetd build`, `check` and `test` share it.
func renderNothingHelp(exportsComponent bool) string {
	if exportsComponent {
		return "its entry exports a component, but widgetd cannot tell its framework, so nothing mounts it and the bundle drops it; " +
			"install the framework's package (react-dom, preact, vue, svelte or solid-js) in the widget's package.json, or import it in the entry, so widgetd mounts the component"
	}
	return "its document has no content and its code neither creates an element nor mounts a component; " +
		"export the component as the entry's default export (widgetd then mounts it), or mount it yourself, e.g. createRoot(document.getElementById(\"root\")!).render(<App />)"
}
