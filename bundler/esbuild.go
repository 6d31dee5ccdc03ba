package bundler

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/widgetd/widgetd/bundler/bridge"
	"github.com/widgetd/widgetd/diag"
	"github.com/widgetd/widgetd/internal/namespace"
)

const (
	entryNamespace  = namespace.Entry
	bridgeNamespace = "widgetd-bridge"
	// resolveDirMark separates a bridge module's path from the folder its
	// bare imports resolve from.
	resolveDirMark = "?resolve-dir="
	// outBase is the (never written) esbuild output folder below the project
	// root; output paths are taken relative to it.
	outBase = ".widgetd-out"
	// assetsDir is the dist/ folder of hashed JS, CSS and asset files.
	assetsDir = "assets"
)

// defaultTargets returns the esbuild targets used when none are configured:
// the evergreen browsers that chat hosts run in (ChatGPT and Claude on the
// web and in their Electron and mobile web views). All of them run ES2022
// class fields and static blocks natively, so nothing is lowered for them;
// an ES-year cap (es2020 until 2026-11) lowered every class field to a
// helper call, about 1.2 kB per App widget (BENCHMARKS.md, issue 21). The
// floor is above Vite 8's default (chrome111, edge111, firefox114,
// safari16.4). A function, not a variable, so nothing can change the
// default for the whole process.
func defaultTargets() []string {
	return []string{"chrome120", "edge120", "firefox121", "safari17"}
}

// assetExts are the extensions of the non-code files a widget may import
// (images, fonts, media, wasm): esbuild emits them as hashed files when the
// build has a public URL, else as data: URLs, and always as data: URLs in a
// file bundled on its own (bundleSeparately).
var assetExts = []string{".png", ".jpg", ".jpeg", ".gif", ".webp", ".avif", ".ico", ".bmp", ".svg",
	".woff", ".woff2", ".ttf", ".otf", ".eot", ".mp3", ".mp4", ".webm", ".ogg", ".wav", ".wasm"}

var targetRE = regexp.MustCompile(`^(es\d{4}|esnext|chrome|edge|firefox|safari|ios|opera|node|deno)(\d+(\.\d+){0,2})?$`)

// parseTargets converts target strings into an esbuild Target and Engines.
// Without an ECMAScript year the browsers alone decide what is lowered.
func parseTargets(targets []string) (api.Target, []api.Engine, error) {
	if len(targets) == 0 {
		targets = defaultTargets()
	}
	target := api.ESNext
	haveES := false
	var engines []api.Engine
	for _, t := range targets {
		t = strings.ToLower(strings.TrimSpace(t))
		m := targetRE.FindStringSubmatch(t)
		if m == nil {
			return 0, nil, fmt.Errorf("unknown target %q; use e.g. \"es2020\", \"chrome120\", \"safari17\"", t)
		}
		if strings.HasPrefix(t, "es") {
			if haveES {
				return 0, nil, fmt.Errorf("more than one ECMAScript target (%q); keep one", t)
			}
			haveES = true
			if t == "esnext" {
				target = api.ESNext
				continue
			}
			year, _ := strconv.Atoi(t[2:])
			es, ok := map[int]api.Target{2015: api.ES2015, 2016: api.ES2016, 2017: api.ES2017, 2018: api.ES2018,
				2019: api.ES2019, 2020: api.ES2020, 2021: api.ES2021, 2022: api.ES2022, 2023: api.ES2023, 2024: api.ES2024, 2025: api.ES2025}[year]
			if !ok {
				return 0, nil, fmt.Errorf("unsupported ECMAScript target %q (es2015 … es2025, esnext)", t)
			}
			target = es
			continue
		}
		if m[2] == "" {
			return 0, nil, fmt.Errorf("target %q needs a version, e.g. %s120", t, m[1])
		}
		name := map[string]api.EngineName{"chrome": api.EngineChrome, "edge": api.EngineEdge, "firefox": api.EngineFirefox,
			"safari": api.EngineSafari, "ios": api.EngineIOS, "opera": api.EngineOpera, "node": api.EngineNode, "deno": api.EngineDeno}[m[1]]
		engines = append(engines, api.Engine{Name: name, Version: m[2]})
	}
	return target, engines, nil
}

// esbuildOptions builds the one set of esbuild options for the whole project.
func (b *Builder) esbuildOptions() api.BuildOptions { return b.esbuildOptionsFor(nil) }

// esbuildOptionsFor is esbuildOptions for widgets at the given bridge levels
// (nil: the full bridge in every widget).
func (b *Builder) esbuildOptionsFor(levels map[string]bridgeLevel) api.BuildOptions {
	loaders := map[string]api.Loader{}
	assetLoader := api.LoaderFile
	if b.publicURL == "" {
		// No origin to load files from: every asset becomes a data: URL.
		assetLoader = api.LoaderDataURL
	}
	for _, ext := range assetExts {
		loaders[ext] = assetLoader
	}
	entries := make([]api.EntryPoint, 0, len(b.widgets))
	for _, w := range b.widgets {
		entries = append(entries, api.EntryPoint{InputPath: entryNamespace + ":" + w.Config.Name, OutputPath: w.Config.Name})
	}
	publicPath := ""
	if b.publicURL != "" {
		publicPath = b.publicURL + "/"
	}
	opts := api.BuildOptions{
		AbsWorkingDir:       b.root,
		EntryPointsAdvanced: entries,
		Bundle:              true,
		Write:               false,
		Outdir:              filepath.Join(b.root, outBase),
		EntryNames:          assetsDir + "/[name]-[hash]",
		AssetNames:          assetsDir + "/[name]-[hash]",
		ChunkNames:          assetsDir + "/[name]-[hash]",
		PublicPath:          publicPath,
		Format:              api.FormatESModule,
		Platform:            api.PlatformBrowser,
		Target:              b.target,
		Engines:             b.engines,
		MinifyWhitespace:    true,
		MinifyIdentifiers:   true,
		MinifySyntax:        true,
		TreeShaking:         api.TreeShakingTrue,
		JSX:                 api.JSXAutomatic,
		Loader:              loaders,
		Define:              b.envDefines(),
		Charset:             api.CharsetUTF8,
		LegalComments:       api.LegalCommentsExternal, // legal.go; "inline" below
		Metafile:            true,
		LogLevel:            api.LogLevelSilent,
		Plugins:             b.containedPlugins(b.plugin(levels), b.vitePlugin(), b.compilerPlugin(), b.appAdapterPlugin()),
	}
	if b.legalInline {
		opts.LegalComments = api.LegalCommentsEndOfFile
	}
	if b.reactRefresh {
		opts.Plugins = b.containedPlugins(b.refreshPlugin(), b.plugin(levels), b.vitePlugin(), b.compilerPlugin(), b.appAdapterPlugin())
	}
	if b.sourceMaps {
		opts.Sourcemap = api.SourceMapExternal // in memory only, for Sources; the JS is the same
		// Without the sources' text the map costs a fifth as much; Sources
		// reads a source line from its file when it is asked for.
		opts.SourcesContent = api.SourcesContentExclude
	}
	return opts
}

// plugin resolves the per-widget virtual entries and the "widgetd" modules.
// With levels (a build of widgets at bridge levels app and core), each
// entry starts with its level's bridge, and the App adapter is the one over
// window.openai alone.
func (b *Builder) plugin(levels map[string]bridgeLevel) api.Plugin {
	return api.Plugin{Name: "widgetd", Setup: func(pb api.PluginBuild) {
		pb.OnResolve(api.OnResolveOptions{Filter: "^" + entryNamespace + ":"}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			return api.OnResolveResult{Path: strings.TrimPrefix(a.Path, entryNamespace+":"), Namespace: entryNamespace}, nil
		})
		pb.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: entryNamespace}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			w := b.widgetByName(a.Path)
			if w == nil {
				return api.OnLoadResult{}, fmt.Errorf("unknown widget %q", a.Path)
			}
			if msg := componentEntryError(w, b.analyseEntry(w)); msg != "" {
				return api.OnLoadResult{}, errors.New(msg)
			}
			src := b.entrySourceAt(w, levels[w.Config.Name])
			return api.OnLoadResult{Contents: &src, ResolveDir: filepath.Dir(w.Entry), Loader: api.LoaderJS}, nil
		})
		pb.OnResolve(api.OnResolveOptions{Filter: `^widgetd(/(react|tools|chatgpt|mcp|app-adapter|handshake-core))?$`}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			if a.Path == bridge.AppAdapterModuleName && levels != nil {
				return api.OnResolveResult{Path: bridge.AppAdapterLiteEntry, Namespace: bridgeNamespace}, nil
			}
			if p, ok := bridge.Submodule(a.Path); ok {
				return api.OnResolveResult{Path: p, Namespace: bridgeNamespace}, nil
			}
			if a.Path == bridge.ReactModuleName {
				// The hooks import react: resolve it from the importing
				// widget's folder, so each widget gets its own React. The
				// folder is root-relative, as every namespaced path (nspath.go).
				dir := a.ResolveDir
				if dir != "" {
					dir = b.relPath(dir)
				}
				return api.OnResolveResult{Path: bridge.ReactEntry + resolveDirMark + dir, Namespace: bridgeNamespace}, nil
			}
			return api.OnResolveResult{Path: bridge.Entry, Namespace: bridgeNamespace}, nil
		})
		pb.OnResolve(api.OnResolveOptions{Filter: `^\.\.?/`, Namespace: bridgeNamespace}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			importer, _, _ := strings.Cut(a.Importer, resolveDirMark)
			p := path.Join(path.Dir(importer), a.Path)
			for _, cand := range []string{p, p + ".ts", p + ".tsx", p + "/index.ts"} {
				if st, err := fs.Stat(bridge.Source, cand); err == nil && !st.IsDir() {
					return api.OnResolveResult{Path: cand, Namespace: bridgeNamespace}, nil
				}
			}
			return api.OnResolveResult{}, fmt.Errorf("bridge module %q not found", p)
		})
		pb.OnLoad(api.OnLoadOptions{Filter: ".*", Namespace: bridgeNamespace}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			file, resolveDir, ok := strings.Cut(a.Path, resolveDirMark)
			if !ok {
				resolveDir = b.widgetsDir
			} else if resolveDir != "" {
				resolveDir = rootFile(b.root, resolveDir)
			}
			data, err := fs.ReadFile(bridge.Source, file)
			if err != nil {
				return api.OnLoadResult{}, err
			}
			src := string(data)
			loader := api.LoaderTS
			if strings.HasSuffix(a.Path, ".tsx") {
				loader = api.LoaderTSX
			}
			return api.OnLoadResult{Contents: &src, Loader: loader, ResolveDir: resolveDir}, nil
		})
	}}
}

// entrySource is the virtual entry of one widget: the bridge first, then
// the stylesheets widgetd.json and widget.json list, then the widget's own
// scripts and stylesheets in document order.
func (b *Builder) entrySource(w *widget) string { return b.entrySourceAt(w, bridgeFull) }

// entrySourceAt is entrySource with the bridge of a level ("" is full).
func (b *Builder) entrySourceAt(w *widget, level bridgeLevel) string {
	if ce := b.analyseEntry(w); ce.export != "" && ce.framework != "" {
		return b.componentMountSource(w, ce)
	}
	var sb strings.Builder
	sb.WriteString(entryBridgeImport(level))
	imports := []string{"./" + filepath.Base(w.Entry)}
	if w.HTMLEntry {
		imports = w.html.imports
	}
	// Listed stylesheets come before the entry's own CSS (stylesheets.go).
	imports = append(b.styleImports(w), imports...)
	for _, imp := range imports {
		q, _ := json.Marshal(imp)
		fmt.Fprintf(&sb, "import %s;\n", q)
	}
	return sb.String()
}

func (b *Builder) widgetByName(name string) *widget {
	for _, w := range b.widgets {
		if w.Config.Name == name {
			return w
		}
	}
	return nil
}

// metafile is the part of esbuild's metafile the bundler reads.
type metafile struct {
	Inputs  map[string]metaInput  `json:"inputs"`
	Outputs map[string]metaOutput `json:"outputs"`
}

// metaInput is one input of the metafile.
type metaInput struct {
	Bytes int `json:"bytes"`
	// Imports are the modules this one imports, bundled or external.
	Imports []metaImport `json:"imports"`
}

// metaImport is one import of a metafile input.
type metaImport struct {
	// Path is the imported module's input key (its URL when External).
	Path     string `json:"path"`
	External bool   `json:"external"`
}

// metaOutput is one output of the metafile.
type metaOutput struct {
	Bytes      int    `json:"bytes"`
	EntryPoint string `json:"entryPoint"`
	CSSBundle  string `json:"cssBundle"`
	Inputs     map[string]struct {
		BytesInOutput int `json:"bytesInOutput"`
	} `json:"inputs"`
}

// output is one esbuild output file, keyed by its dist/-relative path.
type output struct {
	Path     string // e.g. assets/counter-ABCD1234.js
	Contents []byte
}

// bundleResult is what one esbuild run produced, grouped per widget.
type bundleResult struct {
	files   map[string]*output // by dist-relative path
	js      map[string]string  // widget name → JS path
	css     map[string]string  // widget name → CSS path ("" when none)
	meta    metafile
	rawMeta string
	raw     *rawMetafile // rawMeta split (parsed on first need)
	// bridges are the bridge levels chosen per widget (bridgelevel.go).
	bridges map[string]bridgeChoice
}

// collect turns an esbuild result into a bundleResult, or diagnostics.
func (b *Builder) collect(r api.BuildResult) (*bundleResult, []diag.Diagnostic, error) {
	return b.collectFor(r, b.widgets)
}

// collectFor is collect for a build of the given widgets.
func (b *Builder) collectFor(r api.BuildResult, widgets []*widget) (*bundleResult, []diag.Diagnostic, error) {
	diags, errMsgs := b.foldMissingPackages(r.Errors)
	errs := len(diags)
	for _, m := range errMsgs {
		diags = append(diags, b.messageDiag(m, false))
		errs++
	}
	for _, m := range r.Warnings {
		// esbuild recovers from CSS syntax errors with a warning; a widget
		// whose stylesheet does not parse is broken, so they fail the build.
		fatal := m.ID == "css-syntax-error"
		if fatal {
			errs++
		}
		diags = append(diags, b.messageDiag(m, !fatal))
	}
	if errs > 0 {
		return nil, diags, &diag.Error{Diagnostics: diags}
	}
	res := &bundleResult{files: map[string]*output{}, js: map[string]string{}, css: map[string]string{}, rawMeta: r.Metafile}
	if err := json.Unmarshal([]byte(r.Metafile), &res.meta); err != nil {
		return nil, diags, fmt.Errorf("read esbuild metafile: %w", err)
	}
	base := filepath.Join(b.root, outBase)
	for _, f := range r.OutputFiles {
		rel, err := filepath.Rel(base, f.Path)
		if err != nil {
			return nil, diags, fmt.Errorf("esbuild output %q outside %s", f.Path, base)
		}
		rel = filepath.ToSlash(rel)
		res.files[rel] = &output{Path: rel, Contents: f.Contents}
	}
	for key, out := range res.meta.Outputs {
		if !strings.HasPrefix(out.EntryPoint, entryNamespace+":") {
			continue
		}
		name := strings.TrimPrefix(out.EntryPoint, entryNamespace+":")
		rel := strings.TrimPrefix(key, outBase+"/")
		res.js[name] = rel
		if out.CSSBundle != "" {
			res.css[name] = strings.TrimPrefix(out.CSSBundle, outBase+"/")
		}
	}
	for _, w := range widgets {
		if _, ok := res.files[res.js[w.Config.Name]]; !ok {
			return nil, diags, fmt.Errorf("widget %q: esbuild produced no JavaScript output", w.Config.Name)
		}
	}
	return res, diags, nil
}

// messageDiag converts an esbuild message into a Diagnostic with a path
// relative to the working directory.
func (b *Builder) messageDiag(m api.Message, warning bool) diag.Diagnostic {
	m = b.absLocation(m)
	d := diag.Diagnostic{Message: b.authorMessage(m), Warning: warning, Code: limitCode(m.PluginName)}
	d.Notes = locatedNotes(m, func(loc *api.Location) string { return b.locationFile(b.absLoc(loc)) })
	if m.Location != nil {
		d.File = b.locationFile(m.Location)
		d.Line = m.Location.Line
		d.Column = m.Location.Column + 1
		d.Source = m.Location.LineText
	} else {
		d.File = "widgetd"
		if m.PluginName != "" {
			d.File = "plugin " + m.PluginName
		}
	}
	return d
}

// locationFile names the file of an esbuild location as messages show it:
// relative to the working directory, the widget's entry for its generated
// entry and inline scripts, "widgetd bridge: …" for the client bridge.
func (b *Builder) locationFile(loc *api.Location) string {
	file := loc.File
	if ns := loc.Namespace; ns == bridgeNamespace || strings.HasPrefix(file, bridgeNamespace+":") {
		file = strings.TrimPrefix(file, bridgeNamespace+":")
		file, _, _ = strings.Cut(file, resolveDirMark)
		return "widgetd bridge: " + file
	} else if w := b.inlineScriptWidget(file); w != nil {
		return b.displayPath(w.Entry)
	} else if ns == entryNamespace {
		if w := b.widgetByName(file); w != nil {
			return b.displayPath(w.Entry)
		}
	}
	return b.displayPath(filepath.Join(b.root, file))
}

// displayPath shows p as messages name it: relative to the working
// directory New saw, when p is below it.
func (b *Builder) displayPath(p string) string { return b.display.Show(p) }

// widgetAssets returns, sorted, the non-JS/CSS outputs that a widget's JS or
// CSS refers to by name.
func (r *bundleResult) widgetAssets(js, css []byte) []string {
	var out []string
	for p := range r.files {
		if (strings.HasSuffix(p, ".js") && !isWorkerFile(p)) || strings.HasSuffix(p, ".css") {
			continue
		}
		name := []byte(path.Base(p))
		if bytes.Contains(js, name) || bytes.Contains(css, name) {
			out = append(out, p)
		}
	}
	sort.Strings(out)
	return out
}
