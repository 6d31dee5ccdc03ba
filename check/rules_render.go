package check

import (
	"fmt"
	"path"

	"github.com/widgetd/widgetd/assets/audit"
	"github.com/widgetd/widgetd/bundler/layout"
	"github.com/widgetd/widgetd/internal/mountid"
)

// RuleRenderNothing: the widget's document renders nothing (no body
// content; its code creates no element and mounts nothing). A component
// entry whose component nothing mounts builds to exactly this.
const RuleRenderNothing = "render-nothing"

// renderRules reports a widget whose document renders nothing.
func (c *widgetCheck) renderRules(files []scanned) {
	var js []byte
	for _, ct := range code(files) {
		js = append(js, ct.text...)
		js = append(js, '\n')
	}
	if !mountid.RendersNothing(files[0].data, js) {
		return
	}
	entry := "the widget's entry"
	if dir := c.in.SourceDirs[c.w.Name]; dir != "" {
		if e := layout.EntryFile(dir); e != "" {
			entry = path.Join(c.in.ConfigDir[c.w.Name], e)
		}
	}
	c.add(RuleRenderNothing, audit.Error, files[0].path, -1,
		fmt.Sprintf("in %s: export the component as the entry's default export (widgetd then mounts it for React, Preact, Vue, Svelte or Solid), or mount it yourself, e.g. createRoot(document.getElementById(\"root\")!).render(<App />)", entry),
		"the widget renders nothing: its document has no content, and its code neither creates an element nor mounts a component (a component the entry exports but nothing mounts is dropped from the bundle)")
}
