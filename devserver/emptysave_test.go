package devserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestPreviewRecoversFromEmptySave saves a widget's entry empty and then
// with content, as an editor's truncate-then-write does when the watcher
// polls in between, and checks the open preview ends on the new content.
// An empty module contributes no bytes to the bundle, so the Builder must
// still watch it; the project is dated an hour back (backdate) so the
// Builder trusts its stamps, as on a real checkout.
func TestPreviewRecoversFromEmptySave(t *testing.T) {
	d := startDev(t, func(o *Options) { backdate(t, o.Root) })
	p := openPage(t, d.PreviewURL()+"preview/hello")
	p.waitFrameText("Hello, Ada!", 30*time.Second)

	entry := filepath.Join(d.widgets, "hello", "index.ts")
	original, err := os.ReadFile(entry)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(entry, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	empty := widgetHash(t, d.nextBuild(t, 60*time.Second), "hello")
	d.edit(t, "hello/index.ts", func(string) string {
		return strings.Replace(string(original), "Hello, ", "Fixed, ", 1)
	})
	if fixed := widgetHash(t, d.nextBuild(t, 60*time.Second), "hello"); fixed == empty {
		t.Errorf("the build after the content came back kept the empty widget's hash %s", empty)
	}
	p.waitFrameText("Fixed, Ada!", 30*time.Second)
}

// widgetHash is the hash of a widget in a successful build event.
func widgetHash(t *testing.T, ev *BuildEvent, name string) string {
	t.Helper()
	if !ev.OK {
		t.Fatalf("build %d failed: %+v", ev.Seq, ev.Diagnostics)
	}
	for _, w := range ev.Widgets {
		if w.Name == name {
			return w.Hash
		}
	}
	t.Fatalf("build %d has no widget %q", ev.Seq, name)
	return ""
}
