package bundler

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"time"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/bundler/bridge"
	"github.com/widgetd/widgetd/bundler/internal/uptodate"
	"github.com/widgetd/widgetd/bundler/layout"
	"github.com/widgetd/widgetd/diag"
)

// The up-to-date record's file, its checks and widgetd's build identity are
// bundler/internal/uptodate; what a Builder puts in it (the key of its
// settings, the inputs esbuild read) is here.

// buildRecord is the record of one build, with its measured bridge size.
type buildRecord = uptodate.Record[*BridgeSize]

// recordPath is where the record of builds into b.outDir lives; "" when
// there is no cache folder.
func (b *Builder) recordPath() string {
	return uptodate.Path(b.cacheRoot, b.outDir)
}

// upToDate returns the previous Result when the output folder holds exactly
// what this build would write (uptodate.Check). Any doubt means no.
func (b *Builder) upToDate() *Result {
	p := b.recordPath()
	if p == "" {
		return nil
	}
	rec, m := uptodate.Check[*BridgeSize](p, b.outDir, b.buildKey)
	if rec == nil {
		return nil
	}
	files := map[string]assets.File{}
	for _, f := range m.Files {
		files[f.Path] = f
	}
	res := &Result{Manifest: m, OutDir: b.outDir, UpToDate: true, Bridge: rec.Bridge, Warnings: rec.Warnings}
	for _, w := range m.Widgets {
		res.Widgets = append(res.Widgets, summarize(w, files))
	}
	return res
}

// saveRecord writes the record of a build that just wrote dist/, and
// returns why it could not. Failing to write it only costs the next build
// its shortcut, so the caller warns and the build still succeeds. Builds
// that must not take the shortcut (npm compilers ran, or an input was read
// through a nested build) deliberately leave no record and return nil.
func (b *Builder) saveRecord(metaJSON string, bridgeSize *BridgeSize, warnings []diag.Diagnostic) error {
	p := b.recordPath()
	if p == "" {
		return nil
	}
	if b.compilers.usedNode() {
		// No shortcut: Node's inputs are not all in the metafile.
		return uptodate.Discard(p)
	}
	rec := buildRecord{Inputs: map[string]string{}, Dirs: map[string]int64{}, Bridge: bridgeSize, Warnings: warnings}
	now := time.Now()
	var err error
	if rec.Key, err = b.buildKey(); err != nil {
		return fmt.Errorf("hash the build settings: %w", err)
	}
	var meta metafile
	if err := json.Unmarshal([]byte(metafileOrEmpty(metaJSON)), &meta); err != nil {
		return fmt.Errorf("read esbuild's metafile: %w", err)
	}
	dirs, nested, err := b.recordInputs(&rec, &meta, now)
	if err != nil || nested {
		return err // nested: read through a nested build, no record, no shortcut
	}
	b.recordResolverConfigs(&rec, dirs)
	for dir := range dirs {
		rec.Dirs[dir] = 0 // uptodate.Save stamps each with its modification time
	}
	return uptodate.Save(p, b.outDir, &rec, b.display)
}

// buildKey hashes everything besides source files and folders that decides
// the output. discover must have run.
func (b *Builder) buildKey() (string, error) {
	h := newHasher()
	h.add("version", []byte(Version))
	err := fs.WalkDir(bridge.Source, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := fs.ReadFile(bridge.Source, p)
		h.add("bridge:"+p, data)
		return err
	})
	if err != nil {
		return "", err
	}
	h.add("options", []byte(b.settingsKey()))
	project, err := readBounded(filepath.Join(b.root, layout.ProjectConfigFile))
	if err != nil && !os.IsNotExist(err) {
		return "", err
	}
	h.add("project", project)
	h.add("env", []byte(b.envKey()))
	h.add("public", []byte(b.publicKey()))
	for _, w := range b.widgets {
		cfg, err := readBounded(filepath.Join(w.Dir, layout.WidgetConfigFile))
		if err != nil {
			return "", err
		}
		h.add("widget:"+w.Dir, cfg)
		h.add("entry", []byte(w.Entry))
		if w.HTMLEntry {
			doc, err := readBounded(w.Entry)
			if err != nil {
				return "", err
			}
			h.add("html", doc)
		}
	}
	return h.sum(), nil
}

// settingsKey encodes every resolved setting, field names included, so
// that no setting can be left out of the key by forgetting to list it.
func (b *Builder) settingsKey() string {
	return fmt.Sprintf("%#v", b.settings)
}

// summarize lists a widget's HTML and files with their sizes.
func summarize(w assets.Widget, files map[string]assets.File) WidgetSummary {
	ws := WidgetSummary{Name: w.Name, URI: w.Profiles[0].URI, Bridge: w.Bridge, BridgeReason: w.BridgeReason}
	for _, p := range append([]string{w.HTML}, w.Files...) {
		f := files[p]
		s := FileSummary{Path: p, Size: f.Size}
		for _, e := range f.Encodings {
			switch e.Name {
			case "br":
				s.Brotli = e.Size
			case "gzip":
				s.Gzip = e.Size
			}
		}
		ws.Files = append(ws.Files, s)
	}
	return ws
}

// recordWarning is the warning for a record saveRecord could not write: the
// build itself is complete and correct, only the next one's shortcut is lost.
func (b *Builder) recordWarning(err error) diag.Diagnostic {
	return diag.Diagnostic{
		File: b.display.Show(b.recordPath()),
		Message: fmt.Sprintf("the up-to-date record was not saved (%v); this build is complete, but the next one cannot be skipped and will bundle again: "+
			"make the cache folder writable, choose another with --cache-dir, or build with --no-cache", err),
		Warning: true,
	}
}

// recordInputs adds to rec the content hash of every project file esbuild
// read (meta's inputs; now is when the record began, see sumInput), and
// returns the folders holding inputs and widgets. nested is true when an
// input was read through a nested build: such a build gets no record.
func (b *Builder) recordInputs(rec *buildRecord, meta *metafile, now time.Time) (dirs map[string]bool, nested bool, err error) {
	dirs = map[string]bool{b.root: true, b.widgetsDir: true}
	for _, w := range b.widgets {
		dirs[w.Dir] = true
		dirs[filepath.Dir(w.Entry)] = true
	}
	for _, d := range b.globDirs.list() {
		dirs[d] = true
	}
	for key := range meta.Inputs {
		file, nested := moduleFile(b.root, key)
		if nested {
			return nil, true, nil
		}
		if file == "" {
			continue
		}
		sum, err := b.sumInput(file, now)
		if err != nil {
			return nil, false, fmt.Errorf("read back input %s: %w", b.display.Show(file), err)
		}
		rec.Inputs[file] = sum
		dirs[filepath.Dir(file)] = true
	}
	return dirs, false, nil
}

// recordResolverConfigs adds to rec what esbuild also reads: package.json,
// tsconfig.json and jsconfig.json in every folder from an input up to the
// file-system root, whose content counts; and it adds to dirs the folders
// between an input and the project root (a config file created there
// changes them). A config file that cannot be read is one that is absent.
func (b *Builder) recordResolverConfigs(rec *buildRecord, dirs map[string]bool) {
	seen := map[string]bool{}
	for dir := range maps.Clone(dirs) {
		for d := dir; !seen[d]; d = filepath.Dir(d) {
			seen[d] = true
			if within(b.root, d) {
				dirs[d] = true
			}
			for _, name := range resolverConfigs {
				file := filepath.Join(d, name)
				data, err := readBounded(file)
				if err == nil {
					rec.Inputs[file] = uptodate.Sum(data)
				}
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
}

func metafileOrEmpty(s string) string {
	if s == "" {
		return "{}"
	}
	return s
}
