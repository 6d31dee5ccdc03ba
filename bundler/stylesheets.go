package bundler

import (
	"strconv"
	"strings"

	"github.com/widgetd/widgetd/bundler/internal/config"
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

// checkStyles applies the build's containment c to listed stylesheets
// (inside the project or allowOutside, regular files, within the size
// limit), reporting a refusal at the list entry.
func checkStyles(c *containment, refs []config.StyleRef) error {
	for _, r := range refs {
		if err := c.Check(r.Spec, r.Path, r.Named); err != nil {
			d := r.At
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
	for _, list := range [][]config.StyleRef{b.projectStyles, w.Styles} {
		for _, r := range list {
			out = append(out, r.Path)
		}
	}
	return out
}

// widgetsListing returns the widgets whose "styles" list css (every widget
// for a widgetd.json stylesheet), nil when none does.
func (b *Builder) widgetsListing(css string) []*widget {
	for _, r := range b.projectStyles {
		if r.Path == css {
			return b.widgets
		}
	}
	var out []*widget
	for _, w := range b.widgets {
		for _, r := range w.Styles {
			if r.Path == css {
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
