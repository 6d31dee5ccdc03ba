package bundler

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/widgetd/widgetd/bundler/strictjson"
	"github.com/widgetd/widgetd/diag"
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
	at    diag.Diagnostic
}

// resolveStyleList checks a "styles" list of the config file doc, whose paths
// are relative to base: each must name an existing .css file, once.
// Containment is checked later (checkStyles), when the build knows what it
// may read.
func resolveStyleList(doc *strictjson.Doc, base string, list []string) ([]styleRef, error) {
	refs := make([]styleRef, 0, len(list))
	seen := map[string]string{}
	for i, spec := range list {
		field := fmt.Sprintf("styles[%d]", i)
		switch {
		case strings.TrimSpace(spec) == "":
			return nil, doc.ErrPath(field, "%s is empty; give a stylesheet's path relative to this file's folder, e.g. \"styles.css\" or \"../index.css\"", field)
		case filepath.IsAbs(spec) || strings.HasPrefix(spec, "/") || strings.Contains(spec, "\\"):
			return nil, doc.ErrPath(field, "%s %q must be a path relative to this file's folder, with forward slashes, e.g. \"../index.css\"", field, spec)
		case !strings.EqualFold(filepath.Ext(spec), ".css"):
			return nil, doc.ErrPath(field, "%s %q is not a .css file; \"styles\" lists stylesheets (import scripts from the entry)", field, spec)
		}
		p := filepath.Join(base, filepath.FromSlash(spec))
		st, err := os.Stat(p)
		switch {
		case err != nil:
			return nil, doc.ErrPath(field, "%s %q: %v (paths are relative to the folder of %s: %s)", field, spec, unwrapPathErr(err), filepath.Base(doc.File), base)
		case st.IsDir():
			return nil, doc.ErrPath(field, "%s %q is a folder; list the stylesheets in it one by one", field, spec)
		}
		real, err := filepath.EvalSymlinks(p)
		if err != nil {
			return nil, doc.ErrPath(field, "%s %q: %v", field, spec, unwrapPathErr(err))
		}
		if prev, dup := seen[real]; dup {
			return nil, doc.ErrPath(field, "%s %q names the same file as %s; list each stylesheet once", field, spec, prev)
		}
		seen[real] = field
		refs = append(refs, styleRef{spec: spec, named: p, path: real, at: doc.ErrPath(field, "").Diagnostics[0]})
	}
	return refs, nil
}

// checkStyles applies the build's containment c to listed stylesheets
// (inside the project or allowOutside, regular files, within the size
// limit), reporting a refusal at the list entry.
func checkStyles(c *containment, refs []styleRef) error {
	for _, r := range refs {
		if err := c.Check(r.spec, r.path, r.named); err != nil {
			d := r.at
			d.Message, d.Code = err.Error(), codeOf(err)
			return &diag.Error{Diagnostics: []diag.Diagnostic{d}}
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
