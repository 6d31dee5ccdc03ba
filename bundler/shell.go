package bundler

import (
	"html"

	"github.com/widgetd/widgetd/internal/mountid"
)

// mountIDs decides the mount elements of the default shell: the widget.json
// "root" when set; else every mount-like id the bundle looks up by a literal
// ("root", "app", "*-root", ...), so both getElementById("root") and
// getElementById("pizzaz-list-root") find their element; else (the id is
// computed, or nothing is looked up) both "root" and "<name>-root".
func mountIDs(configured, name string, js []byte) []string {
	if configured != "" {
		return []string{configured}
	}
	var ids []string
	for _, id := range mountid.LookedUp(js) {
		if mountid.IsMount(id) {
			ids = append(ids, id)
		}
	}
	if len(ids) == 0 {
		ids = []string{"root", name + "-root"}
	}
	return ids
}

// defaultShell is the document around a script entry: the mount element(s)
// for the widget to render into.
func defaultShell(title string, ids []string) *htmlEntry {
	body := `</head><body>`
	for _, id := range ids {
		body += `<div id="` + html.EscapeString(id) + `"></div>`
	}
	return &htmlEntry{
		before: []byte(`<!doctype html><html lang="en"><head><meta charset="utf-8">` +
			`<meta name="viewport" content="width=device-width, initial-scale=1">` +
			`<meta name="color-scheme" content="light dark"><title>` + html.EscapeString(title) + `</title>`),
		after: []byte(body + `</body></html>`),
	}
}
