package bundler

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/widgetd/widgetd/bundler/layout"
	"github.com/widgetd/widgetd/diag"
)

// A .css file in a widget folder that no module imports and no "styles"
// lists is left out of the build, and the widget renders without it (the
// way OpenAI-style widgets, whose build script injected every CSS file of
// the folder, rendered unstyled). The build warns about each, naming the
// "styles" entry that would include it.

// maxStyleScan bounds the files looked at in one widget folder for
// stylesheets nothing uses.
const maxStyleScan = 5000

// unusedStyleWarnings warns about each .css file in w's folder (and, for
// the first widget, directly in the widgets folder, where a shared
// index.css lives) that no module imports, no "styles" lists and no
// stylesheet compiler read: the build leaves it out, and the widget renders
// without it. read holds the files the bundle read (absolute).
func (b *Builder) unusedStyleWarnings(w *widget, read map[string]bool, first bool) []diag.Diagnostic {
	var out []diag.Diagnostic
	for _, css := range cssFilesIn(w.Dir, b.outDir) {
		if b.styleUsed(css, read) {
			continue
		}
		rel, _ := filepath.Rel(w.Dir, css)
		rel = filepath.ToSlash(rel)
		out = append(out, diag.Diagnostic{File: b.displayPath(css), Warning: true, Message: fmt.Sprintf(
			"widget %q: %s is not imported by any module nor listed in \"styles\", so the build leaves it out and the widget renders without it; add it to \"styles\" in %s (\"styles\": [%q]), or import it from the entry (import \"./%s\")",
			w.Config.Name, rel, w.ConfigFile, rel, rel)})
	}
	if !first {
		return out
	}
	entries, _ := os.ReadDir(b.widgetsDir)
	for _, e := range entries {
		css := filepath.Join(b.widgetsDir, e.Name())
		if !e.Type().IsRegular() || !strings.EqualFold(filepath.Ext(e.Name()), ".css") || b.styleUsed(css, read) {
			continue
		}
		fromRoot, _ := filepath.Rel(b.root, css)
		out = append(out, diag.Diagnostic{File: b.displayPath(css), Warning: true, Message: fmt.Sprintf(
			"%s is not imported by any module nor listed in \"styles\", so no widget gets it; to give it to every widget, add it to \"styles\" in %s (\"styles\": [%q]), or to one widget's widget.json (\"styles\": [\"../%s\"])",
			e.Name(), layout.ProjectConfigFile, filepath.ToSlash(fromRoot), e.Name())})
	}
	return out
}

// styleUsed reports whether the stylesheet css (a path in the project) is
// part of the build: read by the bundle or by a stylesheet compiler.
func (b *Builder) styleUsed(css string, read map[string]bool) bool {
	if real, err := filepath.EvalSymlinks(css); err == nil {
		css = real
	}
	return read[css] || b.compilers.readByCSS(css)
}

// cssFilesIn lists the .css files below dir, leaving out node_modules,
// hidden folders, public/ (copied, not bundled), a dist/ (another tool's
// build output) and the output folder.
func cssFilesIn(dir, outDir string) []string {
	var out []string
	seen := 0
	_ = filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		seen++
		if seen > maxStyleScan {
			return filepath.SkipAll
		}
		if err != nil {
			return filepath.SkipDir
		}
		name := d.Name()
		if d.IsDir() {
			if p != dir && (name == "node_modules" || name == "dist" || name == publicDirName || strings.HasPrefix(name, ".") || p == outDir) {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && strings.EqualFold(filepath.Ext(name), ".css") {
			out = append(out, p)
		}
		return nil
	})
	return out
}

// bundleReads is every file the bundle read (absolute), from its metafile.
func (b *Builder) bundleReads(bundle *bundleResult) map[string]bool {
	read := map[string]bool{}
	for key := range bundle.meta.Inputs {
		files, _ := b.readFiles(key)
		for _, f := range files {
			read[f] = true
		}
	}
	return read
}
