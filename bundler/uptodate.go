package bundler

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"time"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/bundler/bridge"
	"github.com/widgetd/widgetd/bundler/layout"
	"github.com/widgetd/widgetd/diag"
	"github.com/widgetd/widgetd/internal/atomicfile"
)

// buildRecord remembers what one successful build read and wrote, so the
// next build into the same output folder can tell, without bundling, that
// nothing changed. It lives in the cache folder, never in dist/.
type buildRecord struct {
	// Key covers the widgetd version, the bridge, the resolved settings
	// (every one), the project file, every widget.json and every HTML entry.
	Key string `json:"key"`
	// Inputs are the source files esbuild read, with their content hashes.
	Inputs map[string]string `json:"inputs"`
	// Dirs are the folders holding inputs and widgets, with their
	// modification times: a file added or removed there (which could change
	// what an import resolves to) changes them.
	Dirs map[string]int64 `json:"dirs"`
	// Manifest is the SHA-256 of the dist/manifest.json the build wrote.
	Manifest string `json:"manifest"`
	// Bridge is the measured bridge size.
	Bridge *BridgeSize `json:"bridge,omitempty"`
	// Warnings are the build's warnings, repeated when the next build is
	// skipped, so what hosts will block is still said.
	Warnings []diag.Diagnostic `json:"warnings,omitempty"`
}

// recordPath is where the record of builds into b.outDir lives; "" when
// there is no cache folder.
func (b *Builder) recordPath() string {
	if b.cacheRoot == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(b.outDir))
	return filepath.Join(b.cacheRoot, "builds", hex.EncodeToString(sum[:16])+".json")
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

// upToDate returns the previous Result when the output folder holds exactly
// what this build would write: same key, same input contents, no folder
// changed, and dist/ as the last build left it. Any doubt means no.
func (b *Builder) upToDate() *Result {
	p := b.recordPath()
	if p == "" {
		return nil
	}
	data, err := readBounded(p)
	if err != nil {
		return nil
	}
	var rec buildRecord
	if json.Unmarshal(data, &rec) != nil || len(rec.Inputs) == 0 {
		return nil
	}
	if key, err := b.buildKey(); err != nil || key != rec.Key {
		return nil
	}
	for dir, mod := range rec.Dirs {
		st, err := os.Stat(dir)
		if err != nil || st.ModTime().UnixNano() != mod {
			return nil
		}
	}
	for file, sum := range rec.Inputs {
		data, err := readBounded(file)
		if err != nil || sha256Hex(data) != sum {
			return nil
		}
	}
	manifest, err := readBounded(filepath.Join(b.outDir, assets.ManifestFile))
	if err != nil || sha256Hex(manifest) != rec.Manifest {
		return nil
	}
	var m assets.Manifest
	if json.Unmarshal(manifest, &m) != nil {
		return nil
	}
	files := map[string]assets.File{}
	for _, f := range m.Files {
		for _, p := range append([]string{f.Path}, encodingPaths(f)...) {
			st, err := os.Stat(filepath.Join(b.outDir, filepath.FromSlash(p)))
			if err != nil || !st.Mode().IsRegular() {
				return nil
			}
		}
		files[f.Path] = f
	}
	res := &Result{Manifest: &m, OutDir: b.outDir, UpToDate: true, Bridge: rec.Bridge, Warnings: rec.Warnings}
	for _, w := range m.Widgets {
		res.Widgets = append(res.Widgets, summarize(w, files))
	}
	return res
}

func encodingPaths(f assets.File) []string {
	var out []string
	for _, e := range f.Encodings {
		out = append(out, e.Path)
	}
	return out
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
		// No shortcut: Node's inputs are not all in the metafile. A record
		// left from an earlier build would wrongly allow one.
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("remove the stale record: %w", err)
		}
		return nil
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
		st, err := os.Stat(dir)
		if err != nil {
			return fmt.Errorf("stat a source folder: %w", err)
		}
		rec.Dirs[dir] = st.ModTime().UnixNano()
	}
	manifest, err := readBounded(filepath.Join(b.outDir, assets.ManifestFile))
	if err != nil {
		return fmt.Errorf("read back %s: %w", b.display.Show(filepath.Join(b.outDir, assets.ManifestFile)), err)
	}
	rec.Manifest = sha256Hex(manifest)
	data, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("encode the record: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return fmt.Errorf("create the record's folder: %w", err)
	}
	if err := atomicfile.Write(p, data); err != nil {
		return fmt.Errorf("write %s: %w", b.display.Show(p), err)
	}
	return nil
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
					rec.Inputs[file] = sha256Hex(data)
				}
			}
			if filepath.Dir(d) == d {
				break
			}
		}
	}
}

// resolverConfigs are the files esbuild consults in a folder while resolving
// and compiling the files below it.
var resolverConfigs = []string{"package.json", "tsconfig.json", "jsconfig.json"}

func metafileOrEmpty(s string) string {
	if s == "" {
		return "{}"
	}
	return s
}
