package check

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/bundler"
	"github.com/widgetd/widgetd/internal/displaypath"
)

// LoadDist reads a dist/ folder: the manifest and the files of the current
// build's widgets. It first loads it the way a server would (assets.Load,
// which verifies every file's size and SHA-256), so a damaged dist/ is an
// error rather than a list of confusing findings.
func LoadDist(dir string) (*Input, error) {
	fsys := os.DirFS(dir)
	if _, err := assets.Load(fsys, assets.WithDev("")); err != nil { // WIDGETD_DEV_URL is for servers, not audits
		return nil, fmt.Errorf("dist %s: %w", dir, err)
	}
	data, err := fs.ReadFile(fsys, assets.ManifestFile)
	if err != nil {
		return nil, fmt.Errorf("dist %s: %w", dir, err)
	}
	var m assets.Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("dist %s: %s: %w", dir, assets.ManifestFile, err)
	}
	in := &Input{Manifest: &m, Files: map[string][]byte{}}
	for _, w := range m.Widgets {
		for _, p := range append([]string{w.HTML}, w.Files...) {
			if _, ok := in.Files[p]; ok || !fs.ValidPath(p) {
				continue
			}
			b, err := fs.ReadFile(fsys, p)
			if errors.Is(err, fs.ErrNotExist) {
				continue // reported as build-file-missing
			}
			if err != nil {
				return nil, fmt.Errorf("dist %s: widget %q: %w", dir, w.Name, err)
			}
			in.Files[p] = b
		}
	}
	return in, nil
}

// FromSources assembles the project described by opts in memory (nothing is
// written; dist/ is left alone) and returns it for checking. Bundler errors
// come back as returned by the bundler (see diag.FromError).
func FromSources(ctx context.Context, opts bundler.Options) (*Input, error) {
	b, err := bundler.New(opts)
	if err != nil {
		return nil, err
	}
	defer b.Close()
	out, err := b.Assemble(ctx)
	if err != nil {
		return nil, err
	}
	// esbuild's metafile names inputs relative to the project root, its
	// working directory.
	in := &Input{Manifest: out.Manifest, Files: out.Files, Metafile: out.Metafile, Root: b.Root(), BuildWarnings: out.Warnings, Sources: out.Sources}
	in.setSourceDirs(b.WidgetsDir(), out.ConfigFiles)
	return in, nil
}

// setSourceDirs records each widget's source folder (its widget.json's, or
// widgetsDir/<name>) in SourceDirs, and as shown in messages in ConfigDir.
func (in *Input) setSourceDirs(widgetsDir string, configFiles map[string]string) {
	in.ConfigDir, in.SourceDirs = map[string]string{}, map[string]string{}
	display := displaypath.WorkingDir()
	for _, w := range in.Manifest.Widgets {
		dir := filepath.Join(widgetsDir, w.Name)
		if cf, ok := configFiles[w.Name]; ok && cf != "" {
			dir = filepath.Dir(cf)
		}
		in.SourceDirs[w.Name] = dir
		in.ConfigDir[w.Name] = path.Clean(filepath.ToSlash(display.Show(dir)))
	}
}
