// Package bundler owns `widgetd build`: it discovers widgets, validates their
// widget.json, bundles every widget with one esbuild context (the client
// bridge injected first), wraps each bundle in its HTML shell (inline or
// external), minifies, content-hashes, precompresses, and writes dist/ with its
// manifest atomically.
//
// Its output is read by package assets; nothing here serves HTTP.
package bundler

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"sync"
	"time"

	"github.com/evanw/esbuild/pkg/api"
	"github.com/tdewolff/minify/v2"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/bundler/internal/config"
	"github.com/widgetd/widgetd/bundler/internal/contain"
	"github.com/widgetd/widgetd/bundler/internal/distwrite"
	"github.com/widgetd/widgetd/bundler/internal/precompress"
	"github.com/widgetd/widgetd/bundler/internal/viteenv"
	"github.com/widgetd/widgetd/bundler/layout"
	"github.com/widgetd/widgetd/diag"
	"github.com/widgetd/widgetd/internal/cachedir"
	"github.com/widgetd/widgetd/internal/displaypath"
	"github.com/widgetd/widgetd/internal/publicurl"
)

// Version is the widgetd version recorded in manifests.
const Version = "0.1.0"

// progressDelay is how long a stage runs before Options.Progress hears of
// it: a wait a user notices.
const progressDelay = time.Second

// defaultRetain is how many builds' hashed files dist/ keeps by default.
const defaultRetain = 5

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
	// Targets are esbuild targets; default chrome120, edge120,
	// firefox121 and safari17.
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
	// widgetd in the user cache folder.
	CacheDir string
	// NoCache disables CacheDir: every build bundles, and every file not in
	// the previous dist/ is compressed afresh (to measure a build with
	// nothing cached).
	NoCache bool
	// DevOrigin, when set, is added to every widget's resourceDomains and
	// connectDomains so a preview served by `widgetd dev` can load from it.
	// Never set it for a build that ships.
	DevOrigin string
	// SourceMaps keeps esbuild's source map of each widget's script in
	// memory, so Output.Sources can trace a place in a bundle to its source
	// line (widgetd dev, test and check). No map is ever written, but
	// esbuild hashes the map into a script's file name, so an external
	// build's JS names differ from a build without maps: leave it off for
	// a build whose names must match dist/.
	SourceMaps bool
	// ReactRefresh makes the build `widgetd dev`'s React Refresh build
	// (refresh.go): React's development build, every project .jsx/.tsx file
	// through react-refresh's Babel plugin (react-refresh and @babel/core
	// must resolve from the project), and shared-instance shims for the
	// packages the project imports, so the dev server can re-run a new
	// bundle in a live document and keep component state. Never set it for
	// a build that ships.
	ReactRefresh bool
	// ShippedBridge, with DevOrigin, gives each widget the bridge level a
	// build that ships gives it (docs/bridge.md, "Bridge levels"), where
	// a dev build otherwise keeps the full bridge in every widget: `widgetd
	// test` renders a widget's code with the bridge it ships with.
	ShippedBridge bool
	// Strict fails the build when a widget's HTML is over the budget
	// (widgetd.json "htmlBudget", default 1 MiB) instead of
	// warning.
	Strict bool
	// Skip names widgets (by folder or widget name) the build leaves out,
	// so the others build when these do not (widgetd test renders the
	// widgets that build).
	Skip []string
	// Progress, when set, is called with a one-line note when a stage of
	// the build is taking long (compressing files that are not cached yet,
	// mostly on a first build), so a terminal is not left silent. It does
	// not change the output. widgetd calls it only for a terminal.
	Progress func(note string)
	// Audit, when set, is called once a build is written, with the Builder
	// and the Result; the warnings it returns are added to the build's and
	// recorded with them, so an up-to-date build repeats them without
	// auditing again. widgetd build passes check's undeclared-origin rules
	// (package check depends on this one, so it comes in from outside).
	Audit func(ctx context.Context, b *Builder, res *Result) []diag.Diagnostic
}

// Builder builds one project. It keeps an esbuild context and a compression
// cache between builds, so rebuilds only redo what changed. A Builder may be
// shared between goroutines: Build, Assemble and Close hold its
// lock, so calls run one at a time, each on the state the previous one left.
type Builder struct {
	// settings are the options New resolved; the up-to-date key covers all
	// of them (buildKey).
	settings

	contain    *containment // the folders a build may read
	widgets    []*widget
	env        *viteenv.Env // import.meta.env, read by discover
	bridgeSize *BridgeSize  // measured once
	esb        api.BuildContext
	esbNames   string // widget names the context was made for
	cache      *precompress.Cache
	min        *minify.M
	mu         sync.Mutex       // serializes Build, Assemble and Close
	compilers  *compilers       // npm compilers in one Node helper, started on first need
	refresh    refreshState     // React Refresh's vendor scripts (refresh.go)
	display    displaypath.Base // messages show paths relative to the working directory
	// nodeLastBuild: the previous build ran npm compilers (no per-widget
	// incremental bundle then; see assemble).
	nodeLastBuild bool
	// recordWarned: a build already warned that its up-to-date record
	// could not be saved; later builds of this Builder do not repeat it.
	recordWarned bool
	// beforeSwap, when set (tests), runs after dist/'s replacement is
	// written and before it is swapped in; an error aborts the build.
	beforeSwap func() error
	// state is the last good bundle, for rebuilding only changed widgets;
	// single holds per-widget esbuild contexts (incremental.go).
	state  *bundleState
	single map[string]*singleContext
	// rewrites remembers the text-only rewrites of script modules
	// (modulerewrite.go).
	rewrites moduleRewrites
	// globDirs are the folders import.meta.glob calls walked (importglob.go).
	globDirs globFolders
	rebuilds int64
	// esbuildRuns counts the esbuild runs over widgets of the last
	// assemble (the first bundle and each bundle again at another bridge
	// level), for tests.
	esbuildRuns int
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
	// nestedReads are the files each worker and ?inline stylesheet's own
	// build read (inputfiles.go).
	nestedReads nestedReads
	// progress is Options.Progress; progressDelay is how long a stage runs
	// before it is called (tests shorten it).
	progress      func(note string)
	progressDelay time.Duration
	// audit is Options.Audit.
	audit func(ctx context.Context, b *Builder, res *Result) []diag.Diagnostic
	// projectStyles are widgetd.json's "styles" (stylesheets.go); the
	// up-to-date key covers them through widgetd.json's bytes.
	projectStyles []config.StyleRef
	// entryAnalyses caches which entries are component entries
	// (componententry.go).
	entryAnalyses *entryAnalyses
}

// settings are Options resolved against the project file and the defaults:
// everything besides the sources that decides what a build writes. buildKey
// hashes every field, so a setting added here is part of the up-to-date key
// without more code. TestBuildKeyCoversOptions fails for an Options field
// that does not reach the key, TestBuildKeyCoversSettings for a setting the
// key leaves out.
type settings struct {
	root       string // absolute
	widgetsDir string // absolute
	outDir     string // absolute
	publicURL  string // normalised, no trailing slash; "" for inline builds
	retain     int
	target     api.Target
	engines    []api.Engine
	cacheRoot  string // "" when caching is off
	htmlBudget int64
	// precompressHTML is Options.PrecompressHTML or the project file's.
	precompressHTML bool
	noCompress      bool     // Options.NoCompress
	devOrigin       string   // Options.DevOrigin
	sourceMaps      bool     // Options.SourceMaps
	strict          bool     // Options.Strict
	reactRefresh    bool     // Options.ReactRefresh
	shippedBridge   bool     // Options.ShippedBridge
	skip            []string // Options.Skip
	audit           bool     // Options.Audit is set: its warnings are in the record
	bridgeDefault   string   // widgetd.json's "bridge" ("" for auto)
	legalInline     bool     // widgetd.json's "legalComments" is "inline"
}

// resolveSettings resolves opts against the project file pc and the
// defaults, an option winning over widgetd.json; root is the absolute
// project root. Relative folders are below root.
func resolveSettings(opts Options, root string, pc projectConfig) (settings, error) {
	st := settings{root: root, noCompress: opts.NoCompress, devOrigin: opts.DevOrigin, sourceMaps: opts.SourceMaps, strict: opts.Strict, reactRefresh: opts.ReactRefresh, shippedBridge: opts.ShippedBridge, skip: slices.Clone(opts.Skip), audit: opts.Audit != nil}
	st.cacheRoot = opts.CacheDir
	if st.cacheRoot == "" {
		st.cacheRoot = cachedir.Default()
	}
	if opts.NoCache {
		st.cacheRoot = ""
	}
	abs := func(p string) string {
		if !filepath.IsAbs(p) {
			p = filepath.Join(root, p)
		}
		if real, err := realPath(p); err == nil {
			return real
		}
		return filepath.Clean(p)
	}
	st.widgetsDir = abs(cmp.Or(opts.WidgetsDir, pc.WidgetsDir, "widgets"))
	st.outDir = abs(cmp.Or(opts.OutDir, pc.OutDir, "dist"))
	if pu := cmp.Or(opts.PublicURL, pc.PublicURL); pu != "" {
		var err error
		if st.publicURL, err = publicurl.Normalize(pu); err != nil {
			return st, err
		}
	}
	st.retain = defaultRetain
	if pc.Retain > 0 {
		st.retain = pc.Retain
	}
	if opts.Retain > 0 {
		st.retain = opts.Retain
	}
	st.precompressHTML = opts.PrecompressHTML || pc.PrecompressHTML
	st.bridgeDefault = pc.Bridge
	st.legalInline = pc.LegalComments == config.LegalCommentsInline
	targets := opts.Targets
	if len(targets) == 0 {
		targets = pc.Targets
	}
	var err error
	if st.target, st.engines, err = parseTargets(targets); err != nil {
		return st, err
	}
	return st, nil
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
	root, err := realPath(root)
	if err != nil {
		return nil, err
	}
	pc, err := loadProjectConfig(root)
	if err != nil {
		return nil, err
	}
	st, err := resolveSettings(opts, root, pc)
	if err != nil {
		return nil, err
	}
	compressDir := ""
	if st.cacheRoot != "" {
		// compress-2: brotli windows sized to the file (compress/ held
		// 4 MiB-window streams; same content, other header bytes).
		compressDir = filepath.Join(st.cacheRoot, "compress-2")
	}
	b := &Builder{settings: st, display: display, cache: precompress.NewCache(compressDir), min: newMinifier(), stampGap: stampSafetyGap,
		progress: opts.Progress, progressDelay: progressDelay, audit: opts.Audit}
	b.compilers = newCompilers(b)
	b.entryAnalyses = &entryAnalyses{cache: map[string]componentEntry{}}
	if b.contain, err = contain.New(root, b.widgetsDir, pc.AllowOutside, pc.MaxSourceSize, display); err != nil {
		return nil, err
	}
	if err := checkStyles(b.contain, pc.StyleRefs); err != nil {
		return nil, err
	}
	b.projectStyles = pc.StyleRefs
	b.htmlBudget = defaultHTMLBudget
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
	Warnings []diag.Diagnostic `json:"warnings,omitempty"`
	// Duration is the wall time of the build.
	Duration time.Duration `json:"durationNs"`
	// Compressed and Reused count encodings made and taken from the cache.
	Compressed int `json:"compressed"`
	Reused     int `json:"reused"`
	// Bridge is the size of the full client bridge (widgets at bridge
	// levels app and core carry less; see WidgetSummary.Bridge).
	Bridge *BridgeSize `json:"bridge,omitempty"`
	// UpToDate is true when nothing was built: no input changed since the
	// build that wrote OutDir, which is left as it was.
	UpToDate bool `json:"upToDate,omitempty"`
	// Timings splits Duration by stage.
	Timings Timings `json:"timings"`
	// Metafile is esbuild's metafile JSON of the build, for audits that
	// point at sources (widgetd check); empty when UpToDate.
	Metafile string `json:"-"`
}

// WidgetSummary lists one widget's URI and the files it loads.
type WidgetSummary struct {
	Name  string        `json:"name"`
	URI   string        `json:"uri"`
	Files []FileSummary `json:"files"`
	// Bridge and BridgeReason are the manifest's: the bridge level the
	// widget carries and why.
	Bridge       string `json:"bridge,omitempty"`
	BridgeReason string `json:"bridgeReason,omitempty"`
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
	Warnings []diag.Diagnostic
	// Metafile is esbuild's metafile JSON for the build (inputs, outputs and
	// which module each output byte came from), for audits such as check.
	Metafile string
	// ConfigFiles maps each widget's name to its widget.json, so tools can
	// tell the author which file to edit.
	ConfigFiles map[string]string
	// Sources traces places in the widgets' scripts back to their source
	// files through esbuild's source maps (held here, never in Files).
	Sources *Sources
	// RefreshVendors maps each widget's name to the script of the npm
	// packages its modules import, with React Refresh only
	// (Options.ReactRefresh; refresh.go): the dev server runs it in the
	// widget's document before the widget's script, which leaves those
	// packages out.
	RefreshVendors map[string]string
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
	out := &Output{Manifest: a.manifest, Files: map[string][]byte{}, Warnings: a.warnings, Metafile: a.metafile, ConfigFiles: map[string]string{}, Sources: a.sources}
	if b.reactRefresh {
		if out.RefreshVendors, err = b.refresh.vendors(b); err != nil {
			return nil, err
		}
	}
	for _, w := range b.widgets {
		out.ConfigFiles[w.Config.Name] = filepath.Join(w.Dir, layout.WidgetConfigFile)
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
	hits0, misses0 := b.cache.Counts()
	a, err := b.assemble(ctx)
	if err != nil {
		return nil, err
	}
	t := &a.timings
	t.Discover = discoverTime
	watch = startWatch()
	unlock, err := distwrite.LockOut(b.outDir, b.display)
	if err != nil {
		return nil, err
	}
	defer unlock()
	warnings, err := b.writeLocked(ctx, a, &watch)
	if err != nil {
		return nil, err
	}
	<-measured
	watch.add(&t.BridgeWait)
	if sizeErr != nil {
		return nil, sizeErr
	}
	b.cache.Prune(precompress.MaxCacheBytes)
	res := b.result(a.manifest, warnings, &size)
	hits, misses := b.cache.Counts()
	res.Compressed, res.Reused = misses-misses0, hits-hits0
	res.Metafile = a.metafile
	recorded := a.warnings
	if b.audit != nil {
		found := b.audit(ctx, b, res)
		res.Warnings = append(res.Warnings, found...)
		recorded = append(slices.Clip(recorded), found...)
	}
	if err := b.saveRecord(a.metafile, &size, recorded); err != nil && !b.recordWarned {
		b.recordWarned = true
		res.Warnings = append(res.Warnings, b.recordWarning(err))
	}
	watch.add(&t.Record)
	res.Timings = *t
	res.Duration = time.Since(start)
	return res, nil
}

// writeLocked writes an assembled build into the output folder, whose lock
// the caller holds: it finishes an interrupted swap, keeps the files of the
// builds to retain, precompresses, and swaps the new dist/ in. It returns the
// build's warnings plus one about an unreadable previous dist/; watch times
// the Write and Compress stages.
func (b *Builder) writeLocked(ctx context.Context, a *assembled, watch *stopwatch) ([]diag.Diagnostic, error) {
	m, files, warnings, t := a.manifest, a.files, a.warnings, &a.timings
	distwrite.RecoverInterrupted(b.outDir)
	prev, warn := readPrevious(b.outDir, b.display)
	if warn != nil {
		warnings = append(warnings, *warn)
	}
	if prev != nil {
		b.cache.SetFallback(prev.encodingBySum)
	} else {
		b.cache.SetFallback(nil)
	}
	warnings = append(warnings, retain(m, files, prev, b.retain)...)
	watch.add(&t.Write)
	if !b.noCompress {
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
	return warnings, nil
}

// result describes a build just written: its manifest, warnings, bridge
// size, and each widget's files with their sizes.
func (b *Builder) result(m *assets.Manifest, warnings []diag.Diagnostic, bridge *BridgeSize) *Result {
	res := &Result{Manifest: m, OutDir: b.outDir, Warnings: warnings, Bridge: bridge}
	byPath := map[string]assets.File{}
	for _, f := range m.Files {
		byPath[f.Path] = f
	}
	for _, mw := range m.Widgets {
		res.Widgets = append(res.Widgets, summarize(mw, byPath))
	}
	return res
}

// realPath is the absolute path p with every symlink in it followed, so a
// project reached through a symlinked folder (macOS's /tmp, a link in the
// home folder) is built at its real path: esbuild reports real paths, and the
// output, containment and messages must agree with it. The part of p that
// does not exist yet (an output folder) is kept as written below the real
// path of the part that does.
func realPath(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	var missing []string
	for d := abs; ; d = filepath.Dir(d) {
		real, err := filepath.EvalSymlinks(d)
		if err == nil {
			return filepath.Join(append([]string{real}, missing...)...), nil
		}
		if filepath.Dir(d) == d {
			return abs, nil
		}
		missing = append([]string{filepath.Base(d)}, missing...)
	}
}
