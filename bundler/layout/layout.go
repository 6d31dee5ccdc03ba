// Package layout names the files of a widgetd project and where a widget's
// entry is found, so the build, the dev server, widgetd check and widgetd
// test agree on them without importing the bundler.
package layout

import (
	"encoding/json"
	"os"
	"path/filepath"

	"github.com/widgetd/widgetd/internal/regularfile"
)

// WidgetConfigFile is the name of a widget's config file inside its folder.
const WidgetConfigFile = "widget.json"

// ProjectConfigFile is the optional project file at the project root.
const ProjectConfigFile = "widgetd.json"

// maxConfigRead bounds the read of widget.json by EntryFile: the build's
// default source size limit (50 MiB), so a huge or endless file is not read.
const maxConfigRead = 50 << 20

// DefaultEntries returns the entries a widget without widget.json "entry"
// may have, in the order they are looked for: index.html, then the script
// entries. The slice is new on each call, so callers may change it.
func DefaultEntries() []string {
	return []string{"index.html",
		"index.tsx", "index.ts", "index.jsx", "index.js",
		"src/index.tsx", "src/index.ts", "src/index.jsx", "src/index.js",
		"src/main.tsx", "src/main.ts", "src/main.jsx", "src/main.js"}
}

// EntryFile returns the entry of the widget in folder dir, relative to it,
// as the build resolves it (widget.json "entry", else the first default
// entry present), or "" when there is none.
func EntryFile(dir string) string {
	data, err := regularfile.Read(filepath.Join(dir, WidgetConfigFile), maxConfigRead)
	if err == nil {
		var c struct {
			Entry string `json:"entry"`
		}
		if json.Unmarshal(data, &c) == nil && c.Entry != "" {
			return c.Entry
		}
	}
	for _, cand := range DefaultEntries() {
		if st, err := os.Stat(filepath.Join(dir, cand)); err == nil && st.Mode().IsRegular() {
			return cand
		}
	}
	return ""
}
