// Package bundler owns `widgetd build`: it discovers widgets, validates their
// widget.json, bundles every widget with one esbuild context (the client
// bridge injected first), wraps each bundle in its HTML shell (inline or
// external), minifies, content-hashes, precompresses, and writes dist/ with its
// manifest atomically.
//
// Its output is read by package assets; nothing here serves HTTP.
package bundler

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/tdewolff/minify/v2"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/cspgen"
	"github.com/widgetd/widgetd/internal/displaypath"
	"github.com/widgetd/widgetd/internal/weborigin"
)

// Version is the widgetd version recorded in manifests.
const Version = "0.1.0"

// DefaultRetain is how many builds' hashed files dist/ keeps by default.
const DefaultRetain = 5

// hashLen is the number of hex digits of a widget hash in URIs and names.
const hashLen = 16

// Options configures a Builder. Zero values take the project file's settings,
// then the defaults.
type Options struct {
	// Root is the project root holding widgetd.json; default the working directory.
	Root string
	// WidgetsDir holds one folder per widget; default "widgets" under Root.
	WidgetsDir string
	// OutDir is the output folder; default "dist" under Root.
	OutDir string
	// PublicURL is the URL dist/ is served from; set, it makes widgets
	// external by default and adds its origin to their resourceDomains.
	PublicURL string
	// Targets are esbuild targets; default DefaultTargets.
	Targets []string
	// Retain is how many builds to keep in dist/ (current included).
	Retain int
	// NoCompress skips precompression.
	NoCompress bool
	// PrecompressHTML also precompresses the widget HTML documents. By
	// default only files served over HTTP (external JS, CSS, assets) get
	// .br/.gz: a host receives the HTML through MCP resources/read as JSON
	// text, where a sidecar is never used. Set it when dist/ also serves the
	// HTML over HTTP. widgetd.json: precompressHtml.
	PrecompressHTML bool
	// CacheDir is widgetd's cache folder: compressed outputs by content hash
	// (shared by every build and output folder), and a record of each output
	// folder's last build so an unchanged project is not rebuilt. Default
	// DefaultCacheDir().
	CacheDir string
	// NoCache disables CacheDir: every build bundles, and every file not in
	// the previous dist/ is compressed afresh (to measure a build with
	// nothing cached).
	NoCache bool
	// DevOrigin, when set, is added to every widget's resourceDomains and
	// connectDomains so a preview served by `widgetd dev` can load from it.
	// Never set it for a build that ships.
	DevOrigin string
	// Strict fails the build when a widget's HTML is over the budget
	// (widgetd.json "htmlBudget", default DefaultHTMLBudget) instead of
	// warning.
	Strict bool
}

// Builder builds one project. It keeps an esbuild context and a compression
// cache between builds, so rebuilds only redo what changed. A Builder is not
// safe for concurrent Builds.
type Builder struct {
	opts       Options
	root       string
	widgetsDir string
	outDir     string
	publicURL  string
	retain     int
	target     api.Target
	engines    []api.Engine
	display    displaypath.Base // messages show paths relative to the working directory

	contain    *containment // the folders a build may read
	htmlBudget int64
	widgets    []*widget
	env        *viteEnv    // import.meta.env, read by discover
	cacheRoot  string      // "" when caching is off
	bridgeSize *BridgeSize // measured once
	esb        api.BuildContext
	esbNames   string // widget names the context was made for
	cache      *compressCache
	min        *minify.M
	mu         sync.Mutex
	compilers  *compilers // npm compilers in one Node helper, started on first need
	// nodeLastBuild: the previous build ran npm compilers (no per-widget
	// incremental bundle then; see assemble).
	nodeLastBuild bool
	// beforeSwap, when set (tests), runs after dist/'s replacement is
	// written and before it is swapped in; an error aborts the build.
	beforeSwap func() error

	// precompressHTML is Options.PrecompressHTML or the project file's.
	precompressHTML bool
	// state is the last good bundle, for rebuilding only changed widgets;
	// single holds per-widget esbuild contexts (incremental.go).
	state    *bundleState
	single   map[string]*singleContext
	rebuilds int64
	// bundles counts bundles; a one-shot Build does not stamp its inputs
	// for a next bundle that never comes (Assemble, for `widgetd dev`, and
	// a second Build do).
	bundles   int
	assembled bool
	// seen are stamps taken before a full bundle (incremental.go).
	seen map[string]fileStamp
	// stampGap is stampSafetyGap (tests shorten it).
	stampGap time.Duration
	// widgetCache and sums let a rebuild skip unchanged widgets
	// (widgetcache.go).
	widgetCache map[string]*assembledWidget
	sums        map[string]string
	inputSums   map[string]inputSum
}

// New resolves opts against the project file and returns a Builder. It reads
// configuration only; nothing is built or written.
func New(opts Options) (*Builder, error) {
	display := displaypath.WorkingDir()
	root := opts.Root
	if root == "" {
		wd, err := os.Getwd()
		if err != nil {
			return nil, err
		}
		root = wd
	}
	root, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	pc, err := LoadProjectConfig(root)
	if err != nil {
		return nil, err
	}
	cacheDir := opts.CacheDir
	if cacheDir == "" {
		cacheDir = DefaultCacheDir()
	}
	if opts.NoCache {
		cacheDir = ""
	}
	compressDir := ""
	if cacheDir != "" {
		// compress-2: brotli windows sized to the file (compress/ held
		// 4 MiB-window streams; same content, other header bytes).
		compressDir = filepath.Join(cacheDir, "compress-2")
	}
	b := &Builder{opts: opts, root: root, display: display, cacheRoot: cacheDir, cache: newCompressCache(compressDir), min: newMinifier(), stampGap: stampSafetyGap}
	b.compilers = newCompilers(b)
	pick := func(flag, file, def string) string {
		if flag != "" {
			return flag
		}
		if file != "" {
			return file
		}
		return def
	}
	abs := func(p string) string {
		if filepath.IsAbs(p) {
			return filepath.Clean(p)
		}
		return filepath.Join(root, p)
	}
	b.widgetsDir = abs(pick(opts.WidgetsDir, pc.WidgetsDir, "widgets"))
	b.outDir = abs(pick(opts.OutDir, pc.OutDir, "dist"))
	if pu := pick(opts.PublicURL, pc.PublicURL, ""); pu != "" {
		if b.publicURL, err = NormalizePublicURL(pu); err != nil {
			return nil, err
		}
	}
	b.retain = DefaultRetain
	if pc.Retain > 0 {
		b.retain = pc.Retain
	}
	if opts.Retain > 0 {
		b.retain = opts.Retain
	}
	b.precompressHTML = opts.PrecompressHTML || pc.PrecompressHTML
	targets := opts.Targets
	if len(targets) == 0 {
		targets = pc.Targets
	}
	if b.target, b.engines, err = parseTargets(targets); err != nil {
		return nil, err
	}
	if b.contain, err = newContainment(root, b.widgetsDir, pc.AllowOutside, pc.MaxSourceSize, display); err != nil {
		return nil, err
	}
	b.htmlBudget = DefaultHTMLBudget
	if pc.HTMLBudget > 0 {
		b.htmlBudget = pc.HTMLBudget
	}
	if rel, err := filepath.Rel(b.widgetsDir, b.outDir); err == nil && filepath.IsLocal(rel) {
		return nil, fmt.Errorf("output folder %s is inside the widgets folder %s; choose another --out", b.displayPath(b.outDir), b.displayPath(b.widgetsDir))
	}
	return b, nil
}

// Root returns the resolved project root; esbuild's metafile paths are
// relative to it.
func (b *Builder) Root() string { return b.root }

// OutDir returns the resolved output folder.
func (b *Builder) OutDir() string { return b.outDir }

// WidgetsDir returns the resolved widgets folder.
func (b *Builder) WidgetsDir() string { return b.widgetsDir }

// Close releases the esbuild context and stops the Node helper, if one ran.
func (b *Builder) Close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.compilers.close()
	if b.esb != nil {
		b.esb.Dispose()
		b.esb = nil
	}
	b.disposeSingles()
	b.state = nil
}

// Result describes a finished build.
type Result struct {
	// Manifest is the manifest written to dist/.
	Manifest *assets.Manifest `json:"manifest"`
	// OutDir is the folder written.
	OutDir string `json:"outDir"`
	// Widgets summarises each widget's files for display.
	Widgets []WidgetSummary `json:"widgets"`
	// Warnings are non-fatal diagnostics.
	Warnings []Diagnostic `json:"warnings,omitempty"`
	// Duration is the wall time of the build.
	Duration time.Duration `json:"durationNs"`
	// Compressed and Reused count encodings made and taken from the cache.
	Compressed int `json:"compressed"`
	Reused     int `json:"reused"`
	// Bridge is the size of the injected client bridge.
	Bridge *BridgeSize `json:"bridge,omitempty"`
	// UpToDate is true when nothing was built: no input changed since the
	// build that wrote OutDir, which is left as it was.
	UpToDate bool `json:"upToDate,omitempty"`
	// Timings splits Duration by stage.
	Timings Timings `json:"timings"`
}

// WidgetSummary lists one widget's URI and the files it loads.
type WidgetSummary struct {
	Name  string        `json:"name"`
	URI   string        `json:"uri"`
	Files []FileSummary `json:"files"`
}

// FileSummary gives a file's sizes: identity, brotli and gzip (0 = none).
type FileSummary struct {
	Path   string `json:"path"`
	Size   int64  `json:"size"`
	Brotli int64  `json:"brotli,omitempty"`
	Gzip   int64  `json:"gzip,omitempty"`
}

// Build runs the whole pipeline once with a fresh Builder.
func Build(ctx context.Context, opts Options) (*Result, error) {
	b, err := New(opts)
	if err != nil {
		return nil, err
	}
	defer b.Close()
	return b.Build(ctx)
}

// Output is an assembled build held in memory: the manifest of the current
// build only (no retained builds) and the identity bytes of every file it
// names. The dev server serves it without writing dist/.
type Output struct {
	// Manifest describes the build; its Files carry no encodings.
	Manifest *assets.Manifest
	// Files maps dist/-relative paths to their bytes.
	Files map[string][]byte
	// Warnings are non-fatal diagnostics.
	Warnings []Diagnostic
	// Metafile is esbuild's metafile JSON for the build (inputs, outputs and
	// which module each output byte came from), for audits such as check.
	Metafile string
	// ConfigFiles maps each widget's name to its widget.json, so tools can
	// tell the author which file to edit.
	ConfigFiles map[string]string
}

// Assemble discovers and bundles the project and renders every widget, in
// memory: nothing is compressed or written. Rebuilds through the same Builder
// are incremental.
func (b *Builder) Assemble(ctx context.Context) (*Output, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.assembled = true
	if err := b.discover(); err != nil {
		return nil, err
	}
	a, err := b.assemble(ctx)
	if err != nil {
		return nil, err
	}
	out := &Output{Manifest: a.manifest, Files: map[string][]byte{}, Warnings: a.warnings, Metafile: a.metafile, ConfigFiles: map[string]string{}}
	for _, w := range b.widgets {
		out.ConfigFiles[w.Config.Name] = filepath.Join(w.Dir, WidgetConfigFile)
	}
	paths := make([]string, 0, len(a.files))
	for p, f := range a.files {
		out.Files[p] = f.data
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		out.Manifest.Files = append(out.Manifest.Files, a.files[p].File)
	}
	return out, nil
}

// assembled is one build before retention, compression and writing.
type assembled struct {
	manifest    *assets.Manifest
	files       map[string]*distFile
	widgetFiles map[string][]string
	warnings    []Diagnostic
	metafile    string
	timings     Timings
}

// assemble bundles and renders the widgets found by the last discover.
func (b *Builder) assemble(ctx context.Context) (*assembled, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// A build that ran npm compilers read files esbuild's metafile does not
	// list (Tailwind's scanned sources, config files), so the next one
	// cannot rebuild only the widgets whose listed files changed.
	b.nodeLastBuild = b.compilers.usedNode()
	b.compilers.startBuild(ctx)
	watch := startWatch()
	bundle, warnings, err := b.bundle()
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m := &assets.Manifest{Version: assets.ManifestVersion, Generator: "widgetd " + Version, PublicURL: b.publicURL}
	a := &assembled{manifest: m, files: map[string]*distFile{}, widgetFiles: map[string][]string{}, warnings: warnings, metafile: bundle.rawMeta}
	watch.add(&a.timings.Esbuild)
	sums := map[string]string{}
	addFile := func(p string, data []byte) *distFile {
		if f, ok := a.files[p]; ok {
			return f
		}
		watch := startWatch()
		f := &distFile{File: assets.File{Path: p, Size: int64(len(data)), SHA256: b.fileSum(p, data, sums), ContentType: ContentType(p), Immutable: true}, data: data}
		watch.add(&a.timings.Hash)
		a.files[p] = f
		return f
	}
	current := assets.Build{Widgets: map[string]assets.BuildWidget{}}
	for _, w := range b.widgets {
		mw, used, err := b.assembleWidget(w, bundle, &a.timings)
		if err != nil {
			return nil, err
		}
		if d, err := b.checkHTMLBudget(w, len(mw.htmlBytes)); err != nil {
			return nil, err
		} else if d != nil {
			a.warnings = append(a.warnings, *d)
		}
		a.warnings = append(a.warnings, b.hostBlockWarnings(w, bundle, mw.js, mw.css)...)
		a.warnings = append(a.warnings, b.publicDirWarnings(w, w == b.widgets[0])...)
		for _, p := range used {
			addFile(p, bundle.files[p].Contents)
		}
		addFile(mw.HTML, mw.htmlBytes).document = true
		m.Widgets = append(m.Widgets, mw.Widget)
		var uris []string
		for _, r := range mw.Profiles {
			uris = append(uris, r.URI)
		}
		current.Widgets[w.Config.Name] = assets.BuildWidget{Hash: mw.Hash, HTML: mw.HTML, URIs: uris}
		a.widgetFiles[w.Config.Name] = append([]string{mw.HTML}, used...)
	}
	if b.publicURL != "" {
		pub, err := b.publicFiles()
		if err != nil {
			return nil, err
		}
		for p, data := range pub {
			addFile(p, data)
			a.files[p].Immutable = false // served under its own name, unhashed
		}
	}
	sort.Slice(m.Widgets, func(i, j int) bool { return m.Widgets[i].Name < m.Widgets[j].Name })
	b.sums = sums
	b.pruneWidgetCache()
	watch = startWatch()
	m.BuildID = buildID(m.Widgets)
	watch.add(&a.timings.Hash)
	current.ID = m.BuildID
	for _, f := range a.files {
		f.Builds = []string{m.BuildID}
	}
	m.Builds = []assets.Build{current}
	return a, nil
}

// Build discovers, bundles and writes the project. On any error dist/ is left
// exactly as it was.
func (b *Builder) Build(ctx context.Context) (*Result, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	start := time.Now()
	watch := startWatch()
	var discoverTime time.Duration
	if err := b.discover(); err != nil {
		return nil, err
	}
	watch.add(&discoverTime)
	if res := b.upToDate(); res != nil {
		res.Duration = time.Since(start)
		return res, nil
	}
	// The bridge's size is only reported, and its brotli q11 is CPU the
	// rest of the pipeline does not wait for: measure it beside the build.
	var size BridgeSize
	var sizeErr error
	measured := make(chan struct{})
	go func() {
		defer close(measured)
		size, sizeErr = b.measureBridge()
	}()
	defer func() { <-measured }()
	hits0, misses0 := b.cache.hits, b.cache.misses
	a, err := b.assemble(ctx)
	if err != nil {
		return nil, err
	}
	m, files, warnings := a.manifest, a.files, a.warnings
	t := &a.timings
	t.Discover = discoverTime
	watch = startWatch()

	unlock, err := lockOut(b.outDir, b.display)
	if err != nil {
		return nil, err
	}
	defer unlock()
	recoverInterrupted(b.outDir)
	prev, warn := readPrevious(b.outDir, b.display)
	if warn != nil {
		warnings = append(warnings, *warn)
	}
	if prev != nil {
		b.cache.setFallback(prev.encodingBySum)
	} else {
		b.cache.setFallback(nil)
	}
	retain(m, files, prev, b.retain)

	watch.add(&t.Write)
	if !b.opts.NoCompress {
		list := make([]*distFile, 0, len(files))
		for _, f := range files {
			list = append(list, f)
		}
		if err := b.precompress(ctx, list); err != nil {
			return nil, err
		}
	}
	watch.add(&t.Compress)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := writeDist(b.outDir, m, files, b.beforeSwap); err != nil {
		return nil, err
	}
	watch.add(&t.Write)
	<-measured
	watch.add(&t.BridgeWait)
	if sizeErr != nil {
		return nil, sizeErr
	}
	b.cache.prune(maxCacheBytes)
	res := &Result{Manifest: m, OutDir: b.outDir, Warnings: warnings, Bridge: &size}
	res.Compressed, res.Reused = b.cache.misses-misses0, b.cache.hits-hits0
	byPath := map[string]assets.File{}
	for _, f := range m.Files {
		byPath[f.Path] = f
	}
	for _, mw := range m.Widgets {
		res.Widgets = append(res.Widgets, summarize(mw, byPath))
	}
	b.saveRecord(a.metafile, &size, a.warnings)
	watch.add(&t.Record)
	res.Timings = *t
	res.Duration = time.Since(start)
	return res, nil
}

// discover finds and validates every widget, reporting all config errors at once.
func (b *Builder) discover() error {
	b.contain.reset()
	entries, err := os.ReadDir(b.widgetsDir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return diagErr(b.displayPath(b.widgetsDir), 0, 0, "widgets folder not found; create it with one folder per widget, or pass --widgets")
		}
		return diagErr(b.displayPath(b.widgetsDir), 0, 0, "cannot read widgets folder: %v", unwrapPathErr(err))
	}
	var widgets []*widget
	var diags []Diagnostic
	byName := map[string]*widget{}
	for _, e := range entries {
		dir := filepath.Join(b.widgetsDir, e.Name())
		if strings.HasPrefix(e.Name(), ".") || e.Name() == "node_modules" {
			continue
		}
		st, err := os.Stat(dir)
		if err != nil {
			diags = append(diags, Diagnostic{File: b.displayPath(dir), Message: fmt.Sprintf("cannot read: %v (broken or looping symlink?)", unwrapPathErr(err))})
			continue
		}
		if !st.IsDir() {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, WidgetConfigFile)); errors.Is(err, fs.ErrNotExist) {
			continue // not a widget (e.g. shared code)
		}
		w, err := loadWidget(dir, b.displayPath(dir), b.publicURL)
		if err == nil {
			err = b.contain.checkWidget(w)
		}
		if err == nil && w.HTMLEntry {
			w.html, err = parseHTMLEntry(w.Entry, b.displayPath(w.Entry), w.Dir, b.projectDir(), b.contain)
		}
		if err != nil {
			if d := AsDiagnostics(err); d != nil {
				diags = append(diags, d...)
			} else {
				diags = append(diags, Diagnostic{File: b.displayPath(filepath.Join(dir, WidgetConfigFile)), Message: err.Error()})
			}
			continue
		}
		if other, dup := byName[w.Config.Name]; dup {
			diags = append(diags, Diagnostic{File: w.ConfigFile, Line: 1, Column: 1,
				Message: fmt.Sprintf("widget name %q is also used by %s; names must be unique", w.Config.Name, other.ConfigFile)})
			continue
		}
		byName[w.Config.Name] = w
		widgets = append(widgets, w)
	}
	if len(diags) > 0 {
		return &Error{Diagnostics: diags}
	}
	if len(widgets) == 0 {
		return diagErr(b.displayPath(b.widgetsDir), 0, 0, "no widgets found; each widget is a folder with a %s and its sources (see the README's tour)", WidgetConfigFile)
	}
	sort.Slice(widgets, func(i, j int) bool { return widgets[i].Config.Name < widgets[j].Config.Name })
	b.widgets = widgets
	return b.loadEnv()
}

// bundle runs esbuild over every widget, reusing the context when the set of
// widgets is unchanged.
func (b *Builder) bundle() (*bundleResult, []Diagnostic, error) {
	var names []string
	for _, w := range b.widgets {
		names = append(names, w.Config.Name)
	}
	key := strings.Join(names, ",") + "\x00" + b.envKey()
	start := time.Now()
	if b.esb != nil && b.esbNames == key && !b.nodeLastBuild {
		if res, diags, err, ok := b.bundleIncremental(start); ok {
			return res, diags, err
		}
	}
	if b.esb == nil || b.esbNames != key {
		if b.esb != nil {
			b.esb.Dispose()
			b.esb = nil
		}
		b.disposeSingles()
		b.state = nil
		ctx, cerr := api.Context(b.esbuildOptions())
		if cerr != nil {
			var diags []Diagnostic
			for _, m := range cerr.Errors {
				diags = append(diags, b.messageDiag(m, false))
			}
			return nil, nil, &Error{Diagnostics: diags}
		}
		b.esb, b.esbNames = ctx, key
	}
	res, diags, err := b.collect(b.esb.Rebuild())
	b.bundles++
	if err == nil && (b.assembled || b.bundles > 1) {
		b.rememberBundle(res, start, b.seen)
	}
	b.seen = nil
	return res, diags, err
}

// builtWidget is one widget's manifest entry plus its HTML bytes.
type builtWidget struct {
	assets.Widget
	htmlBytes []byte
	js, css   []byte // the bundle the HTML loads or holds
}

// assembleWidget renders a widget's HTML and metadata from the bundle and
// returns it with the dist/ paths of the bundle files it loads.
func (b *Builder) assembleWidget(w *widget, bundle *bundleResult, t *Timings) (*builtWidget, []string, error) {
	watch := startWatch()
	defer watch.add(&t.Render)
	name := w.Config.Name
	key := b.widgetKey(w, bundle)
	if mw, used, ok := b.cachedWidget(name, key); ok {
		return mw, used, nil
	}
	js := bundle.files[bundle.js[name]].Contents
	var css []byte
	cssPath := bundle.css[name]
	if cssPath != "" {
		css = bundle.files[cssPath].Contents
	}
	var used []string
	if b.publicURL != "" {
		used = bundle.widgetAssets(js, css)
	}
	pol := w.Policy
	var jsURL, cssURL string
	if !w.Inline {
		used = append(used, bundle.js[name])
		jsURL = b.publicURL + "/" + bundle.js[name]
		if cssPath != "" {
			used = append(used, cssPath)
			cssURL = b.publicURL + "/" + cssPath
		}
	}
	if b.opts.DevOrigin != "" {
		var err error
		if pol, err = pol.With(cspgen.Domains{Resource: []string{b.opts.DevOrigin}, Connect: []string{b.opts.DevOrigin}}); err != nil {
			return nil, nil, fmt.Errorf("widget %q: dev origin: %w", name, err)
		}
	}
	if len(used) > 0 {
		origin := weborigin.Of(b.publicURL)
		var err error
		if pol, err = pol.With(cspgen.Domains{Resource: []string{origin}}); err != nil {
			return nil, nil, diagErr(w.ConfigFile, 0, 0, "cannot add public origin %q to the CSP: %v", origin, err)
		}
	}
	sort.Strings(used)
	shell := w.html
	if !w.HTMLEntry {
		shell = defaultShell(w.Config.Title, mountIDs(w.Config.Root, name, js))
	}
	doc := renderHTML(shell, js, css, jsURL, cssURL, w.Inline)
	watch.add(&t.Render)
	doc, err := minifyHTML(b.min, b.displayPath(w.Entry), doc)
	watch.add(&t.Minify)
	if err != nil {
		return nil, nil, err
	}
	meta := resourceMeta(w, pol)
	metaJSON, err := json.Marshal(meta)
	if err != nil {
		return nil, nil, fmt.Errorf("widget %q: encode metadata: %w", name, err)
	}
	header := pol.Header()
	watch.add(&t.Render)
	// The hash covers everything the host renders: the document, every file
	// it loads, and the CSP and metadata that decide how it renders.
	h := newHasher()
	h.add("html", doc)
	for _, p := range used {
		h.add(p, bundle.files[p].Contents)
	}
	h.add("csp", []byte(header))
	h.add("meta", metaJSON)
	hash := h.sum()[:hashLen]
	watch.add(&t.Hash)
	mw := &builtWidget{htmlBytes: doc, js: js, css: css, Widget: assets.Widget{
		Name: name, Title: w.Config.Title, Description: w.Config.Description,
		Hash: hash, HTML: name + "." + hash + ".html", Inline: w.Inline, CSP: header, Files: used,
	}}
	for _, p := range w.Profiles {
		mime, suffix := assets.MIMETypeMCPApp, ".html"
		if p == assets.ProfileSkybridge {
			mime, suffix = assets.MIMETypeSkybridge, ".skybridge.html"
		}
		mw.Profiles = append(mw.Profiles, assets.Resource{
			Profile:  p,
			URI:      "ui://widget/" + name + "." + hash + suffix,
			AliasURI: "ui://widget/" + name + suffix,
			MIMEType: mime,
			ListMeta: meta,
			ReadMeta: meta,
		})
	}
	b.cacheWidget(name, key, mw, used)
	return mw, used, nil
}

// resourceMeta builds the _meta object a host reads for a widget resource:
// the MCP Apps shape (ui.*) and the ChatGPT shape (openai/*), since hosts
// differ in which they read.
func resourceMeta(w *widget, pol *cspgen.Policy) map[string]any {
	prefersBorder := true
	if w.Config.PrefersBorder != nil {
		prefersBorder = *w.Config.PrefersBorder
	}
	ui := map[string]any{"csp": pol.UIMeta(), "prefersBorder": prefersBorder}
	meta := map[string]any{
		"openai/widgetCSP":           pol.OpenAIMeta(),
		"openai/widgetPrefersBorder": prefersBorder,
	}
	if d := w.Config.Domain; d != "" {
		ui["domain"] = d
		meta["openai/widgetDomain"] = d
	}
	perms := map[string]any{}
	p := w.Config.Permissions
	for _, kv := range []struct {
		on  bool
		key string
	}{{p.Camera, "camera"}, {p.Microphone, "microphone"}, {p.Geolocation, "geolocation"}, {p.ClipboardWrite, "clipboardWrite"}} {
		if kv.on {
			perms[kv.key] = map[string]any{}
		}
	}
	if len(perms) > 0 {
		ui["permissions"] = perms
	}
	if w.Config.WidgetDescription != "" {
		meta["openai/widgetDescription"] = w.Config.WidgetDescription
	}
	meta["ui"] = ui
	// Round-trip through JSON so the manifest and the in-memory value agree
	// (typed structs become plain maps, as a reader of manifest.json sees them).
	data, _ := json.Marshal(meta)
	var out map[string]any
	_ = json.Unmarshal(data, &out)
	return out
}

// buildID hashes the widget hashes of a build.
func buildID(ws []assets.Widget) string {
	h := newHasher()
	for _, w := range ws {
		h.add(w.Name, []byte(w.Hash))
	}
	return h.sum()[:hashLen]
}
