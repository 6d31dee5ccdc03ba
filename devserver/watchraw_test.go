package devserver

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/widgetd/widgetd/internal/testfiles"
)

// TestRebuildOnRawImport edits a text file a widget imports with ?raw and
// checks that the next build serves that widget with the new text. The
// project's files are dated an hour back, as on a real checkout, so the
// Builder trusts their stamps and rebuilds only what an edit touches.
func TestRebuildOnRawImport(t *testing.T) {
	d := startDev(t, func(o *Options) {
		testfiles.Write(t, filepath.Join(o.WidgetsDir, "notes"), map[string]string{
			"widget.json": `{"title": "Notes"}`,
			"index.ts":    "import note from \"./note.txt?raw\";\ndocument.body.textContent = note;\n",
			"note.txt":    "first-note-text",
		})
		backdate(t, o.Root)
	})
	if got := widgetHTML(t, d, "notes"); !strings.Contains(got, "first-note-text") {
		t.Fatalf("first build of notes lacks the note (%d bytes of HTML)", len(got))
	}
	d.edit(t, "notes/note.txt", func(string) string { return "second-note-text" })
	ev := d.nextBuild(t, 60*time.Second)
	if !ev.OK || !slices.ContainsFunc(ev.Changed, func(p string) bool { return strings.HasSuffix(p, "note.txt") }) {
		t.Fatalf("after editing note.txt: ok %v, changed %q", ev.OK, ev.Changed)
	}
	if got := widgetHTML(t, d, "notes"); !strings.Contains(got, "second-note-text") {
		t.Fatalf("rebuilt notes still serves the old note (stale ?raw import; first note there: %v)", strings.Contains(got, "first-note-text"))
	}
}

// backdate sets the modification time of every file and folder below root
// an hour back (symbolic links, such as node_modules, left alone).
func backdate(t *testing.T, root string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.Type()&fs.ModeSymlink != 0 {
			return err
		}
		return os.Chtimes(p, old, old)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// widgetHTML is the HTML the dev server currently serves for a widget.
func widgetHTML(t *testing.T, d *devServer, name string) string {
	t.Helper()
	d.mu.RLock()
	defer d.mu.RUnlock()
	for _, w := range d.out.Manifest.Widgets {
		if w.Name == name {
			return string(d.out.Files[w.HTML])
		}
	}
	t.Fatalf("no widget %q built", name)
	return ""
}
