package widgettest

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/widgetd/widgetd/bundler/layout"
)

// contentSelector matches an element in the widget's body that shows
// something: anything but scripts, styles and the like, and empty <div>s
// with an id (an unused mount element; an empty div without one is a
// styled box). The probe asks for it after the fixture's own selectors.
const contentSelector = "body *:not(script, style, template, noscript, link, meta, div[id]:empty)"

// emptyBody reports whether the settled widget shows nothing: no text in
// its body and no element contentSelector matches (found at index n).
func emptyBody(pr *probe, n int) bool {
	if pr == nil || strings.TrimSpace(pr.Text) != "" {
		return false
	}
	return n < len(pr.Found) && !pr.Found[n]
}

// emptyBodyMessage says which entry rendered nothing, and how to fix it.
func emptyBodyMessage(p plan) string {
	entry := "the widget's entry"
	if e := layout.EntryFile(p.dir); e != "" {
		entry = relPath(filepath.Join(p.dir, e))
	}
	return fmt.Sprintf("the widget's document body is empty after the tool result arrived: %s renders no element (widgetd check: render-nothing); "+
		"export the component as the entry's default export (widgetd then mounts it for React, Preact, Vue, Svelte or Solid), or mount it yourself, e.g. createRoot(document.getElementById(\"root\")!).render(<App />)", entry)
}
