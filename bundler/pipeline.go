package bundler

// The pipeline behind Build and Assemble: discover the widgets, bundle them
// with esbuild, and assemble every widget into one in-memory build.

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/bundler/layout"
	"github.com/widgetd/widgetd/diag"
	"github.com/widgetd/widgetd/internal/contenttype"
)

// assembled is one build before retention, compression and writing.
type assembled struct {
	manifest    *assets.Manifest
	files       map[string]*distFile
	widgetFiles map[string][]string
	warnings    []diag.Diagnostic
	metafile    string
	sources     *Sources
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
	b.esbuildRuns = 0
	bundledAt := b.previousLevels()
	bundle, warnings, err := b.bundleAt(bundledAt)
	if err != nil {
		return nil, err
	}
	bundle, levelDiags, err := b.applyBridgeLevels(bundle, bundledAt)
	warnings = append(warnings, levelDiags...)
	if err != nil {
		return nil, err
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	m := &assets.Manifest{Version: assets.ManifestVersion, Generator: "widgetd " + Version, PublicURL: b.publicURL}
	a := &assembled{manifest: m, files: map[string]*distFile{}, widgetFiles: map[string][]string{}, warnings: warnings, metafile: bundle.rawMeta, sources: b.newSources(bundle)}
	watch.add(&a.timings.Esbuild)
	sums := map[string]string{}
	addFile := func(p string, data []byte) *distFile {
		if f, ok := a.files[p]; ok {
			return f
		}
		watch := startWatch()
		f := &distFile{File: assets.File{Path: p, Size: int64(len(data)), SHA256: b.fileSum(p, data, sums), ContentType: contenttype.For(p), Immutable: true}, data: data}
		watch.add(&a.timings.Hash)
		a.files[p] = f
		return f
	}
	current := assets.Build{Widgets: map[string]assets.BuildWidget{}}
	read := b.bundleReads(bundle)
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
		a.warnings = append(a.warnings, b.unusedStyleWarnings(w, read, w == b.widgets[0])...)
		if d := b.rendersNothingWarning(w, mw.htmlBytes, mw.js); d != nil {
			a.warnings = append(a.warnings, *d)
		}
		for _, p := range used {
			addFile(p, bundle.files[p].Contents)
		}
		addFile(mw.HTML, mw.htmlBytes).document = true
		mwWidget := mw.Widget
		if p, text := widgetLegal(w.Config.Name, bundle); p != "" {
			addFile(p, text)
			mwWidget.Licenses = p
			used = append(slices.Clone(used), p) // kept and collected with the widget's files
		}
		m.Widgets = append(m.Widgets, mwWidget)
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

// discover finds and validates every widget, reporting all config errors at once.
func (b *Builder) discover() error {
	b.contain.Reset()
	entries, err := os.ReadDir(b.widgetsDir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return diag.Errorf(b.displayPath(b.widgetsDir), 0, 0, "widgets folder not found; run `widgetd init` to create a project, or pass --root DIR (the project holding it) or --widgets DIR")
		}
		return diag.Errorf(b.displayPath(b.widgetsDir), 0, 0, "cannot read widgets folder: %v", unwrapPathErr(err))
	}
	var widgets []*widget
	var diags []diag.Diagnostic
	byName := map[string]*widget{}
	for _, e := range entries {
		dir := filepath.Join(b.widgetsDir, e.Name())
		if strings.HasPrefix(e.Name(), ".") || e.Name() == "node_modules" {
			continue
		}
		st, err := os.Stat(dir)
		if err != nil {
			diags = append(diags, diag.Diagnostic{File: b.displayPath(dir), Message: fmt.Sprintf("cannot read: %v (broken or looping symlink?)", unwrapPathErr(err))})
			continue
		}
		if !st.IsDir() {
			continue
		}
		if _, err := os.Stat(filepath.Join(dir, layout.WidgetConfigFile)); errors.Is(err, fs.ErrNotExist) {
			continue // not a widget (e.g. shared code)
		}
		if slices.Contains(b.skip, e.Name()) {
			continue
		}
		w, err := loadWidget(dir, b.displayPath(dir), b.publicURL)
		if err == nil {
			err = b.contain.CheckWidget(w.Dir, w.Config.Entry, w.Entry)
		}
		if err == nil {
			err = checkStyles(b.contain, w.Styles)
		}
		if err == nil && w.HTMLEntry {
			w.html, err = parseHTMLEntry(w.Entry, b.displayPath(w.Entry), w.Dir, b.projectDir(), b.contain)
		}
		if err != nil {
			if d := diag.FromError(err); d != nil {
				diags = append(diags, d...)
			} else {
				diags = append(diags, diag.Diagnostic{File: b.displayPath(filepath.Join(dir, layout.WidgetConfigFile)), Message: err.Error()})
			}
			continue
		}
		if slices.Contains(b.skip, w.Config.Name) {
			continue
		}
		if other, dup := byName[w.Config.Name]; dup {
			diags = append(diags, diag.Diagnostic{File: w.ConfigFile, Line: 1, Column: 1,
				Message: fmt.Sprintf("widget name %q is also used by %s; names must be unique", w.Config.Name, other.ConfigFile)})
			continue
		}
		byName[w.Config.Name] = w
		widgets = append(widgets, w)
	}
	if len(diags) > 0 {
		return &diag.Error{Diagnostics: diags}
	}
	if len(widgets) == 0 {
		return diag.Errorf(b.displayPath(b.widgetsDir), 0, 0, "no widgets found; each widget is a folder with a %s and its sources (see the README's tour)", layout.WidgetConfigFile)
	}
	sort.Slice(widgets, func(i, j int) bool { return widgets[i].Config.Name < widgets[j].Config.Name })
	b.widgets = widgets
	return b.loadEnv()
}

// bundle runs esbuild over every widget, reusing the context when the set of
// widgets is unchanged.
func (b *Builder) bundle() (*bundleResult, []diag.Diagnostic, error) {
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
			var diags []diag.Diagnostic
			for _, m := range cerr.Errors {
				diags = append(diags, b.messageDiag(m, false))
			}
			return nil, nil, &diag.Error{Diagnostics: diags}
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
