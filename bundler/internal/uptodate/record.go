// Package uptodate owns the up-to-date record: what one successful build
// read and wrote, kept in widgetd's cache folder (never in dist/), so that
// the next build into the same output folder can tell, without bundling,
// that nothing changed. It is its own package because the record is a file
// format with one rule of its own (any doubt means "build again") and needs
// nothing of the Builder: the bundler hands it the key of its settings, the
// inputs it read and the folders that hold them, and gets back the previous
// manifest or nothing. The record also names the widgetd code that wrote it
// (BuildID), so a widgetd changed under the same version string builds again.
package uptodate

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/diag"
	"github.com/widgetd/widgetd/internal/atomicfile"
	"github.com/widgetd/widgetd/internal/displaypath"
	"github.com/widgetd/widgetd/internal/regularfile"
)

// maxFileSize bounds every file the record reads (itself, an input, the
// manifest): the build's default source file limit, which bounds what it
// records. A larger file is a doubt, so the build runs.
const maxFileSize = 50 << 20

// Record remembers what one successful build read and wrote. B is the
// bundler's measured bridge size, kept so a skipped build reports it.
type Record[B any] struct {
	// Key covers the widgetd version, the bridge, the resolved settings
	// (every one), the project file, every widget.json and every HTML entry.
	Key string `json:"key"`
	// Build is the BuildID of the widgetd that wrote the record.
	Build string `json:"build"`
	// Inputs are the source files esbuild read, with their content hashes.
	Inputs map[string]string `json:"inputs"`
	// Dirs are the folders holding inputs and widgets, with their
	// modification times: a file added or removed there (which could change
	// what an import resolves to) changes them.
	Dirs map[string]int64 `json:"dirs"`
	// Manifest is the SHA-256 of the dist/manifest.json the build wrote.
	Manifest string `json:"manifest"`
	// Bridge is the measured bridge size.
	Bridge B `json:"bridge,omitempty"`
	// Warnings are the build's warnings, repeated when the next build is
	// skipped, so what hosts will block is still said.
	Warnings []diag.Diagnostic `json:"warnings,omitempty"`
}

// Path is where the record of builds into outDir lives under cacheRoot; ""
// (no record, every build bundles) when there is no cache folder or the
// running widgetd cannot be identified.
func Path(cacheRoot, outDir string) string {
	if cacheRoot == "" || BuildID() == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(outDir))
	return filepath.Join(cacheRoot, "builds", hex.EncodeToString(sum[:16])+".json")
}

// Check returns the record at path and the manifest in outDir when outDir
// holds exactly what a build with the key that key returns would write:
// same key, same widgetd, same input contents, no folder changed, and dist/
// as the last build left it. Any doubt means nil. key runs only when there
// is a record to compare it with.
func Check[B any](path, outDir string, key func() (string, error)) (*Record[B], *assets.Manifest) {
	if path == "" {
		return nil, nil
	}
	data, err := regularfile.Read(path, maxFileSize)
	if err != nil {
		return nil, nil
	}
	var rec Record[B]
	if json.Unmarshal(data, &rec) != nil || len(rec.Inputs) == 0 || rec.Build != BuildID() {
		return nil, nil
	}
	if k, err := key(); err != nil || k != rec.Key {
		return nil, nil
	}
	if !rec.sourcesUnchanged() {
		return nil, nil
	}
	manifest, err := regularfile.Read(filepath.Join(outDir, assets.ManifestFile), maxFileSize)
	if err != nil || Sum(manifest) != rec.Manifest {
		return nil, nil
	}
	var m assets.Manifest
	if json.Unmarshal(manifest, &m) != nil || !filesPresent(outDir, &m) {
		return nil, nil
	}
	return &rec, &m
}

// sourcesUnchanged reports whether every recorded folder keeps its
// modification time and every input its content.
func (r *Record[B]) sourcesUnchanged() bool {
	for dir, mod := range r.Dirs {
		st, err := os.Stat(dir)
		if err != nil || st.ModTime().UnixNano() != mod {
			return false
		}
	}
	for file, sum := range r.Inputs {
		data, err := regularfile.Read(file, maxFileSize)
		if err != nil || Sum(data) != sum {
			return false
		}
	}
	return true
}

// filesPresent reports whether every file m lists, and each of its
// precompressed encodings, is a regular file in outDir.
func filesPresent(outDir string, m *assets.Manifest) bool {
	for _, f := range m.Files {
		paths := []string{f.Path}
		for _, e := range f.Encodings {
			paths = append(paths, e.Path)
		}
		for _, p := range paths {
			st, err := os.Stat(filepath.Join(outDir, filepath.FromSlash(p)))
			if err != nil || !st.Mode().IsRegular() {
				return false
			}
		}
	}
	return true
}

// Save writes rec to path once the build it describes has written outDir:
// it stamps rec with this widgetd's BuildID, and the Dirs' modification
// times and the manifest's hash as they are now. It returns why it could
// not; a failure only costs the next build its shortcut. display shows
// paths in those errors.
func Save[B any](path, outDir string, rec *Record[B], display displaypath.Base) error {
	if path == "" {
		return nil
	}
	rec.Build = BuildID()
	for dir := range rec.Dirs {
		st, err := os.Stat(dir)
		if err != nil {
			return fmt.Errorf("stat a source folder: %w", err)
		}
		rec.Dirs[dir] = st.ModTime().UnixNano()
	}
	manifestFile := filepath.Join(outDir, assets.ManifestFile)
	manifest, err := regularfile.Read(manifestFile, maxFileSize)
	if err != nil {
		return fmt.Errorf("read back %s: %w", display.Show(manifestFile), err)
	}
	rec.Manifest = Sum(manifest)
	data, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("encode the record: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("create the record's folder: %w", err)
	}
	if err := atomicfile.Write(path, data); err != nil {
		return fmt.Errorf("write %s: %w", display.Show(path), err)
	}
	return nil
}

// Discard removes the record at path, for a build that must not take the
// shortcut next time (one whose inputs are not all known): a record left
// from an earlier build would wrongly allow it.
func Discard(path string) error {
	if path == "" {
		return nil
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove the stale record: %w", err)
	}
	return nil
}

// Sum is the hex SHA-256 of data, the hash the record keeps of an input
// and of the manifest.
func Sum(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
