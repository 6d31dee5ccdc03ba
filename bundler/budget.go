package bundler

import (
	"fmt"

	"github.com/widgetd/widgetd/bundler/internal/config"
	"github.com/widgetd/widgetd/bundler/layout"
	"github.com/widgetd/widgetd/diag"
)

// defaultHTMLBudget is the per-widget HTML size budget
// (config.DefaultHTMLBudget, 1 MiB) unless widgetd.json "htmlBudget" says
// otherwise.
const defaultHTMLBudget = config.DefaultHTMLBudget

// checkHTMLBudget reports a widget document over the budget: a warning, or
// with Options.Strict an error.
func (b *Builder) checkHTMLBudget(w *widget, size int) (*diag.Diagnostic, error) {
	if int64(size) <= b.htmlBudget {
		return nil, nil
	}
	how := "Build with --public-url so JS and CSS load from files (external mode), or trim dependencies"
	if !w.Inline {
		how = "Trim the document"
	}
	d := diag.Diagnostic{File: b.displayPath(w.Entry), Warning: !b.strict, Code: diag.CodeHTMLBudget, Message: fmt.Sprintf(
		"widget %q: HTML is %s, over the %s budget; some hosts cap an app's HTML at 1 MiB. %s, or raise \"htmlBudget\" (bytes) in %s",
		w.Config.Name, formatBytes(int64(size)), formatBytes(b.htmlBudget), how, layout.ProjectConfigFile)}
	if b.strict {
		return nil, &diag.Error{Diagnostics: []diag.Diagnostic{d}}
	}
	return &d, nil
}
