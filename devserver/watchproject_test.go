package devserver

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestRebuildOnProjectFile checks that editing widgetd.json at the project
// root rebuilds, and that the event names it as seen from the working
// directory, for a root given explicitly and for the default (the working
// directory).
func TestRebuildOnProjectFile(t *testing.T) {
	for _, tc := range []struct {
		name string
		root func(root string) string
	}{
		{"default root", func(string) string { return "" }},
		{"relative root", func(string) string { return "." }},
		{"absolute root", func(root string) string { return root }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var root string
			d := startDev(t, func(o *Options) {
				root = o.Root
				t.Chdir(root)
				o.Root = tc.root(root)
				o.WidgetsDir = ""
			})
			if err := os.WriteFile(filepath.Join(root, "widgetd.json"), []byte(`{"retain": 3}`), 0o644); err != nil {
				t.Fatal(err)
			}
			ev := d.nextBuild(t, 60*time.Second)
			if !ev.OK || !slices.Contains(ev.Changed, "widgetd.json") {
				t.Fatalf("after editing widgetd.json: ok %v, changed %q (want widgetd.json)", ev.OK, ev.Changed)
			}
		})
	}
}
