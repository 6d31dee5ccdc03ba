package bundler

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/bundler/internal/distwrite"
	"github.com/widgetd/widgetd/bundler/internal/precompress"
	"github.com/widgetd/widgetd/diag"
	"github.com/widgetd/widgetd/internal/displaypath"
	"github.com/widgetd/widgetd/internal/distpath"
	"github.com/widgetd/widgetd/internal/regularfile"
)

// distFile is one file of the dist/ being assembled.
type distFile struct {
	assets.File
	// data is the identity content of a new file.
	data []byte
	// document marks a widget's HTML document: a host reads it through MCP
	// resources/read, so it is precompressed only on request
	// (Options.PrecompressHTML).
	document bool
	// encoded holds a new file's encodings by name.
	encoded map[string][]byte
	// source is the previous dist/ folder for a retained file (copied, not
	// rebuilt); nil for new files.
	source *string
}

// previousDist is what the bundler reads from the dist/ it replaces.
type previousDist struct {
	dir      string
	display  displaypath.Base
	manifest *assets.Manifest
	files    map[string]assets.File // by path
}

// readPrevious loads the previous manifest from dir; a missing or unreadable
// dist/ gives nil (nothing to retain), an incompatible one a warning.
func readPrevious(dir string, display displaypath.Base) (*previousDist, *diag.Diagnostic) {
	data, err := readBounded(filepath.Join(dir, assets.ManifestFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &diag.Diagnostic{File: display.Show(filepath.Join(dir, assets.ManifestFile)), Warning: true,
			Message: fmt.Sprintf("previous manifest unreadable (%v); old builds will not be retained", err)}
	}
	var m assets.Manifest
	if err := json.Unmarshal(data, &m); err != nil || m.Version != assets.ManifestVersion {
		return nil, &diag.Diagnostic{File: display.Show(filepath.Join(dir, assets.ManifestFile)), Warning: true,
			Message: "previous manifest is not a widgetd manifest of this version; old builds will not be retained"}
	}
	p := &previousDist{dir: dir, display: display, manifest: &m, files: map[string]assets.File{}}
	for _, f := range m.Files {
		if !distpath.Valid(f.Path) {
			continue
		}
		p.files[f.Path] = f
	}
	return p, nil
}

// encodingBySum returns the encoded bytes (enc) of a previous file whose
// identity SHA-256 is sum, when they still match the recorded hash; used as
// the compression cache of a rebuild.
func (p *previousDist) encodingBySum(sum, enc string) []byte {
	for _, f := range p.files {
		if f.SHA256 != sum {
			continue
		}
		for _, e := range f.Encodings {
			if e.Name != enc || !distpath.Valid(e.Path) {
				continue
			}
			data, err := readBounded(filepath.Join(p.dir, filepath.FromSlash(e.Path)))
			if err == nil && sha256Hex(data) == e.SHA256 {
				return data
			}
		}
	}
	return nil
}

// retain merges the previous dist's builds into m (newest first, at most
// keep builds in all) and adds the retained files to carry over to files.
// A retained file is carried over only when it and each of its encodings
// still match the previous manifest's size and SHA-256: one changed or
// truncated since (a bad disk, a hand edit, a partial copy) would make the
// new dist/ one that widgetd serve and assets.Load refuse, so it is dropped
// with a warning naming it instead.
func retain(m *assets.Manifest, files map[string]*distFile, prev *previousDist, keep int) []diag.Diagnostic {
	if prev == nil {
		return nil
	}
	var warnings []diag.Diagnostic
	for _, old := range prev.manifest.Builds {
		if len(m.Builds) >= keep {
			break
		}
		if old.ID == m.BuildID {
			continue
		}
		m.Builds = append(m.Builds, old)
	}
	kept := map[string]bool{}
	for _, bd := range m.Builds {
		kept[bd.ID] = true
	}
	for _, old := range prev.files {
		var ids []string
		for _, id := range old.Builds {
			if kept[id] && id != m.BuildID {
				ids = append(ids, id)
			}
		}
		if len(ids) == 0 {
			continue
		}
		if cur, ok := files[old.Path]; ok {
			// Same path in the new build: same content (hashed name), so
			// only the build list grows.
			if cur.SHA256 == old.SHA256 {
				cur.Builds = mergeIDs(cur.Builds, ids)
			}
			continue
		}
		if _, err := os.Stat(filepath.Join(prev.dir, filepath.FromSlash(old.Path))); err != nil {
			continue // gone from disk: nothing to keep
		}
		if bad, why := prev.mismatch(old); bad != "" {
			warnings = append(warnings, diag.Diagnostic{File: prev.display.Show(filepath.Join(prev.dir, filepath.FromSlash(bad))), Warning: true,
				Message: fmt.Sprintf("retained file no longer matches %s (%s); it is dropped from the new build instead of being published", assets.ManifestFile, why)})
			continue
		}
		nf := old
		nf.Builds = ids
		dir := prev.dir
		files[old.Path] = &distFile{File: nf, source: &dir}
	}
	// Retained builds only name files that were carried over.
	for i := 1; i < len(m.Builds); i++ {
		for name, bw := range m.Builds[i].Widgets {
			if _, ok := files[bw.HTML]; !ok {
				delete(m.Builds[i].Widgets, name)
			}
		}
	}
	return warnings
}

// mismatch returns the first of f's files (its identity bytes, then each
// encoding) whose bytes in the previous dist/ no longer match what its
// manifest recorded, and why; "" when all match. Only regular files of the
// recorded size are read.
func (p *previousDist) mismatch(f assets.File) (file, why string) {
	check := func(rel string, size int64, sum string) string {
		if !distpath.Valid(rel) {
			return "its path is not a dist/ path"
		}
		data, err := regularfile.Read(filepath.Join(p.dir, filepath.FromSlash(rel)), size)
		var tl *regularfile.TooLargeError
		switch {
		case errors.As(err, &tl):
			return fmt.Sprintf("it is larger than the %d bytes recorded", size)
		case err != nil:
			return err.Error()
		case int64(len(data)) != size:
			return fmt.Sprintf("it is %d bytes, %d recorded", len(data), size)
		case sha256Hex(data) != sum:
			return "its sha256 differs from the one recorded"
		}
		return ""
	}
	if why := check(f.Path, f.Size, f.SHA256); why != "" {
		return f.Path, why
	}
	for _, e := range f.Encodings {
		if why := check(e.Path, e.Size, e.SHA256); why != "" {
			return e.Path, why
		}
	}
	return "", ""
}

func mergeIDs(a, b []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range append(append([]string{}, a...), b...) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// writeDist writes files and the manifest into a fresh folder beside outDir
// and swaps it into place, so outDir is at every moment either the complete
// previous build or the complete new one.
func writeDist(outDir string, m *assets.Manifest, files map[string]*distFile, beforeSwap func() error) error {
	parent := filepath.Dir(outDir)
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return fmt.Errorf("create %s: %w", parent, err)
	}
	tmp, err := os.MkdirTemp(parent, "."+filepath.Base(outDir)+".tmp-")
	if err != nil {
		return fmt.Errorf("create temporary output folder: %w", err)
	}
	ok := false
	defer func() {
		if !ok {
			os.RemoveAll(tmp)
		}
	}()
	if err := os.Chmod(tmp, 0o755); err != nil {
		return err
	}
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	m.Files = m.Files[:0]
	var jobs []distwrite.Job
	for _, p := range paths {
		f := files[p]
		if f.source != nil {
			jobs = append(jobs, distwrite.Job{Rel: f.Path, From: *f.source})
			for _, e := range f.Encodings {
				jobs = append(jobs, distwrite.Job{Rel: e.Path, From: *f.source})
			}
		} else {
			jobs = append(jobs, distwrite.Job{Rel: f.Path, Data: f.data})
			f.Encodings = nil
			for _, enc := range precompress.Encodings() {
				data, ok := f.encoded[enc]
				if !ok {
					continue
				}
				ep := f.Path + precompress.Suffix(enc)
				jobs = append(jobs, distwrite.Job{Rel: ep, Data: data})
				f.Encodings = append(f.Encodings, assets.Encoding{Name: enc, Path: ep, Size: int64(len(data)), SHA256: sha256Hex(data)})
			}
		}
		sort.Strings(f.Builds)
		m.Files = append(m.Files, f.File)
	}
	if err := distwrite.WriteAll(tmp, jobs); err != nil {
		return err
	}
	manifest, err := marshalManifest(m)
	if err != nil {
		return err
	}
	if err := distwrite.WriteFile(tmp, assets.ManifestFile, manifest); err != nil {
		return err
	}
	if err := distwrite.WriteFile(tmp, assets.HeadersFile, assets.StaticHeaders(m)); err != nil {
		return err
	}
	if err := distwrite.SyncDir(tmp); err != nil {
		return err
	}
	if beforeSwap != nil {
		if err := beforeSwap(); err != nil {
			return err
		}
	}
	if err := distwrite.SwapDir(tmp, outDir); err != nil {
		return err
	}
	ok = true
	return nil
}

// marshalManifest encodes the manifest deterministically, indented for review.
func marshalManifest(m *assets.Manifest) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		return nil, fmt.Errorf("encode manifest: %w", err)
	}
	return buf.Bytes(), nil
}
