package layout

import (
	"testing"

	"github.com/widgetd/widgetd/internal/testfiles"
)

// TestEntryFile pins how a widget's entry is found: widget.json "entry"
// first, else the first default entry present, in DefaultEntries' order.
func TestEntryFile(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"entry field wins", map[string]string{WidgetConfigFile: `{"entry": "app/start.ts"}`, "index.html": "<p>"}, "app/start.ts"},
		{"html before scripts", map[string]string{"index.html": "<p>", "index.tsx": "x"}, "index.html"},
		{"src/main.tsx", map[string]string{"src/main.tsx": "x", "src/main.js": "x"}, "src/main.tsx"},
		{"bad widget.json falls back", map[string]string{WidgetConfigFile: `{"entry": `, "index.js": "x"}, "index.js"},
		{"empty entry falls back", map[string]string{WidgetConfigFile: `{"entry": ""}`, "src/index.ts": "x"}, "src/index.ts"},
		{"folder named like an entry", map[string]string{"index.tsx/x": "x"}, ""},
		{"none", map[string]string{"README.md": "x"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			testfiles.Write(t, dir, tc.files)
			if got := EntryFile(dir); got != tc.want {
				t.Errorf("EntryFile = %q, want %q", got, tc.want)
			}
		})
	}
}

// TestDefaultEntriesFresh checks that a caller changing the returned slice
// does not change what the next caller gets.
func TestDefaultEntriesFresh(t *testing.T) {
	a := DefaultEntries()
	a[0] = "changed"
	if b := DefaultEntries(); b[0] != "index.html" {
		t.Errorf("DefaultEntries()[0] = %q after a caller changed its copy, want index.html", b[0])
	}
}
