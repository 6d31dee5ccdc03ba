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
// directory), and for a root reached through a symlinked folder (edited
// through the link, as an editor opened there would).
func TestRebuildOnProjectFile(t *testing.T) {
	for _, tc := range []struct {
		name string
		root func(t *testing.T, root string) string
	}{
		{"default root", func(*testing.T, string) string { return "" }},
		{"relative root", func(*testing.T, string) string { return "." }},
		{"absolute root", func(_ *testing.T, root string) string { return root }},
		{"root through a symlink", func(t *testing.T, root string) string {
			link := filepath.Join(t.TempDir(), "plink")
			if err := os.Symlink(root, link); err != nil {
				t.Fatal(err)
			}
			t.Chdir(link)
			return link
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var root string
			d := startDev(t, func(o *Options) {
				t.Chdir(o.Root)
				o.Root = tc.root(t, o.Root)
				root = o.Root
				if root == "" || root == "." {
					root, _ = os.Getwd()
				}
				o.WidgetsDir = ""
			})
			src, _ := filepath.Abs(exampleWidgets)
			if err := os.WriteFile(filepath.Join(root, "widgetd.json"), []byte(allowModules(src, `"retain": 3`)), 0o644); err != nil {
				t.Fatal(err)
			}
			ev := d.nextBuild(t, 60*time.Second)
			if !ev.OK || !slices.Contains(ev.Changed, "widgetd.json") {
				t.Fatalf("after editing widgetd.json: ok %v, changed %q (want widgetd.json)", ev.OK, ev.Changed)
			}
		})
	}
}
