package bundler

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/widgetd/widgetd/diag"
)

// Vite's public/ folder: files copied as they are (unhashed) to the output
// root, for code that builds their URL from import.meta.env.BASE_URL. A
// widget is a document the host renders on its own origin, so such a URL
// only reaches dist/ through the public URL: the project's public/ is copied
// in a build with a public URL, and nothing is copied inline.

// publicDirName is the folder Vite copies unchanged.
const publicDirName = "public"

// Bounds on the public folder, so a stray folder cannot fill dist/.
const (
	maxPublicFiles = 1000
	maxPublicBytes = 64 << 20
)

// publicDir is the project's public/ folder.
func (b *Builder) publicDir() string { return filepath.Join(b.projectDir(), publicDirName) }

// publicFiles reads the project's public/ folder for a build with a public
// URL: dist-relative path → bytes. A missing folder gives none.
func (b *Builder) publicFiles() (map[string][]byte, error) {
	root := b.publicDir()
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		return nil, nil
	}
	if real, err := filepath.EvalSymlinks(root); err == nil && real != root {
		// public/ is a link: walk where it leads, if a build may read there.
		if err := b.contain.Check(publicDirName, root, ""); err != nil {
			return nil, limitDiag(b.displayPath(root), 0, 0, err)
		}
		root = real
	}
	out := map[string][]byte{}
	total := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.HasPrefix(d.Name(), ".") && p != root {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if rel == "manifest.json" || strings.HasPrefix(rel, assetsDir+"/") || strings.HasSuffix(strings.ToLower(rel), ".html") {
			return diag.Errorf(b.displayPath(p), 0, 0, "public/%s would clash with widgetd's own output (manifest.json, assets/, widget HTML); rename or move it", rel)
		}
		if len(out) >= maxPublicFiles {
			return diag.Errorf(b.displayPath(root), 0, 0, "public/ holds more than %d files; keep only what widgets load", maxPublicFiles)
		}
		// Symlinks, FIFOs and devices too: readFile follows a link only
		// to where a build may read, and refuses all but regular files.
		data, err := b.contain.ReadFile("public/"+rel, p, "")
		if isLimitError(err) {
			return limitDiag(b.displayPath(p), 0, 0, err)
		}
		if err != nil {
			return err
		}
		if total += len(data); total > maxPublicBytes {
			return diag.Errorf(b.displayPath(root), 0, 0, "public/ holds more than %d MB; keep only what widgets load", maxPublicBytes>>20)
		}
		out[rel] = data
		return nil
	})
	if err != nil {
		if diag.FromError(err) != nil {
			return nil, err
		}
		return nil, fmt.Errorf("read %s: %w", b.displayPath(root), err)
	}
	return out, nil
}

// publicDirWarnings says what happens to a public/ folder that is not
// copied: a widget's own (only the project's is), or the project's in an
// inline build (there is no origin to serve it from).
func (b *Builder) publicDirWarnings(w *widget, first bool) []diag.Diagnostic {
	var out []diag.Diagnostic
	if entries, err := os.ReadDir(filepath.Join(w.Dir, publicDirName)); err == nil && len(entries) > 0 && filepath.Join(w.Dir, publicDirName) != b.publicDir() {
		out = append(out, diag.Diagnostic{File: b.displayPath(filepath.Join(w.Dir, publicDirName)), Warning: true, Message: fmt.Sprintf(
			"a widget's public/ is not copied (only the project's %s is, with --public-url); import the files you use (import url from \"./public/%s?url\") so they are hashed files",
			b.displayPath(b.publicDir()), entries[0].Name())})
	}
	if entries, err := os.ReadDir(b.publicDir()); first && b.publicURL == "" && err == nil && len(entries) > 0 {
		out = append(out, diag.Diagnostic{File: b.displayPath(b.publicDir()), Warning: true, Message: fmt.Sprintf(
			"public/ is not copied in an inline build: the host renders the widget on its own origin, where \"/%s\" does not reach dist/; build with --public-url (the files are then served at import.meta.env.BASE_URL + \"%s\"), or import them (?url) so they are inlined",
			entries[0].Name(), entries[0].Name())})
	}
	return out
}

// publicKey summarises the public/ files a build with a public URL copies,
// for the up-to-date check ("" when none are copied).
func (b *Builder) publicKey() string {
	if b.publicURL == "" {
		return ""
	}
	files, err := b.publicFiles()
	if err != nil {
		return "error: " + err.Error() // never matches a recorded key
	}
	h := newHasher()
	paths := make([]string, 0, len(files))
	for p := range files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		h.add(p, files[p])
	}
	return h.sum()
}
