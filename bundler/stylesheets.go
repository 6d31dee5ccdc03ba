package bundler

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// Global stylesheets: widget.json and widgetd.json "styles" list
// stylesheets that no module imports, as OpenAI's Apps SDK examples build
// every widget with a shared src/index.css (and every CSS file in the
// widget's folder) injected by their build script. Each widget's virtual
// entry imports them, widgetd.json's first, then widget.json's, then the
// entry itself (entrySource), so they run through the same pipeline as an
// imported stylesheet (Tailwind, PostCSS, containment) and come first in
// the widget's CSS. A .css file in a widget folder that nothing imports or
// lists would be dropped without a word; the build warns about it.

// styleRef is one entry of a "styles" list: the path as written, the file
// it names, and where the list names it (for messages).
type styleRef struct {
	spec  string // as written, relative to the config file's folder
	named string // the path it names, absolute
	path  string // its real path (esbuild's metafile names real paths)
	at    Diagnostic
}

// resolveStyles checks a "styles" list of the config file doc, whose paths
// are relative to base: each must name an existing .css file, once.
// Containment is checked later (checkStyles), when the build knows what it
// may read.
func resolveStyles(doc *jsonDoc, base string, list []string) ([]styleRef, error) {
	refs := make([]styleRef, 0, len(list))
	seen := map[string]string{}
	for i, spec := range list {
		field := fmt.Sprintf("styles[%d]", i)
		switch {
		case strings.TrimSpace(spec) == "":
			return nil, doc.errPath(field, "%s is empty; give a stylesheet's path relative to this file's folder, e.g. \"styles.css\" or \"../index.css\"", field)
		case filepath.IsAbs(spec) || strings.HasPrefix(spec, "/") || strings.Contains(spec, "\\"):
			return nil, doc.errPath(field, "%s %q must be a path relative to this file's folder, with forward slashes, e.g. \"../index.css\"", field, spec)
		case !strings.EqualFold(filepath.Ext(spec), ".css"):
			return nil, doc.errPath(field, "%s %q is not a .css file; \"styles\" lists stylesheets (import scripts from the entry)", field, spec)
		}
		p := filepath.Join(base, filepath.FromSlash(spec))
		st, err := os.Stat(p)
		switch {
		case err != nil:
			return nil, doc.errPath(field, "%s %q: %v (paths are relative to the folder of %s: %s)", field, spec, unwrapPathErr(err), filepath.Base(doc.file), base)
		case st.IsDir():
			return nil, doc.errPath(field, "%s %q is a folder; list the stylesheets in it one by one", field, spec)
		}
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			return nil, doc.errPath(field, "%s %q: %v", field, spec, unwrapPathErr(err))
		}
		if prev, dup := seen[real]; dup {
			return nil, doc.errPath(field, "%s %q names the same file as %s; list each stylesheet once", field, spec, prev)
		}
		seen[real] = field
		refs = append(refs, styleRef{spec: spec, named: p, path: real, at: doc.errPath(field, "").Diagnostics[0]})
	}
	return refs, nil
}

// checkStyles applies the build's containment to listed stylesheets
// (inside the project or allowOutside, regular files, within the size
// limit), reporting a refusal at the list entry.
func (c *containment) checkStyles(refs []styleRef) error {
	for _, r := range refs {
		if err := c.check(r.spec, r.path, r.named); err != nil {
			d := r.at
			d.Message, d.Code = err.Error(), codeOf(err)
			return &Error{Diagnostics: []Diagnostic{d}}
		}
	}
	return nil
}

// styleImports are the stylesheets w's entry imports before its own code:
// widgetd.json's, then widget.json's.
func (b *Builder) styleImports(w *widget) []string {
	var out []string
	for _, list := range [][]styleRef{b.projectStyles, w.styles} {
		for _, r := range list {
			out = append(out, r.path)
		}
	}
	return out
}

// widgetsListing returns the widgets whose "styles" list css (every widget
// for a widgetd.json stylesheet), nil when none does.
func (b *Builder) widgetsListing(css string) []*widget {
	for _, r := range b.projectStyles {
		if r.path == css {
			return b.widgets
		}
	}
	var out []*widget
	for _, w := range b.widgets {
		for _, r := range w.styles {
			if r.path == css {
				out = append(out, w)
				break
			}
		}
	}
	return out
}

// maxStyleScan bounds the files looked at in one widget folder for
// stylesheets nothing uses.
const maxStyleScan = 5000

// widgetsLabel is how a message about file starts: the widget whose folder
// holds it, or the widgets whose "styles" list it ("" when none).
func (b *Builder) widgetsLabel(file string) string {
	ws := b.widgetsListing(file)
	if w := b.widgetOf(file); w != nil {
		ws = []*widget{w}
	}
	if len(ws) == 0 {
		return ""
	}
	names := make([]string, len(ws))
	for i, w := range ws {
		names[i] = strconv.Quote(w.Config.Name)
	}
	what := "widget "
	if len(ws) > 1 {
		what = "widgets "
	}
	return what + strings.Join(names, ", ") + ": "
}

// unusedStyleWarnings warns about each .css file in w's folder (and, for
// the first widget, directly in the widgets folder, where a shared
// index.css lives) that no module imports, no "styles" lists and no
// stylesheet compiler read: the build leaves it out, and the widget renders
// without it. read holds the files the bundle read (absolute).
func (b *Builder) unusedStyleWarnings(w *widget, read map[string]bool, first bool) []Diagnostic {
	var out []Diagnostic
	for _, css := range cssFilesIn(w.Dir, b.outDir) {
		if b.styleUsed(css, read) {
			continue
		}
		rel, _ := filepath.Rel(w.Dir, css)
		rel = filepath.ToSlash(rel)
		out = append(out, Diagnostic{File: b.displayPath(css), Warning: true, Message: fmt.Sprintf(
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
		out = append(out, Diagnostic{File: b.displayPath(css), Warning: true, Message: fmt.Sprintf(
			"%s is not imported by any module nor listed in \"styles\", so no widget gets it; to give it to every widget, add it to \"styles\" in %s (\"styles\": [%q]), or to one widget's widget.json (\"styles\": [\"../%s\"])",
			e.Name(), ProjectConfigFile, filepath.ToSlash(fromRoot), e.Name())})
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
