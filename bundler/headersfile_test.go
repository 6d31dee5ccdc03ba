package bundler

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/widgetd/widgetd/assets"
)

// TestBuildWritesHeadersFile: every build writes dist/_headers with the
// rules assets.StaticHeaders derives from the manifest it wrote (retained
// builds included), so the static-host headers follow the origin's.
func TestBuildWritesHeadersFile(t *testing.T) {
	root := copyTree(t, "testdata/shells")
	opts := Options{Root: root, Retain: 2, NoCompress: true}
	for i := range 2 {
		writeFiles(t, root, map[string]string{"widgets/script/style.css": "#root { z-index: " + string(rune('1'+i)) + "; }\n"})
		mustBuild(t, opts)
		m := readManifest(t, filepath.Join(root, "dist"))
		got, err := os.ReadFile(filepath.Join(root, "dist", assets.HeadersFile))
		if err != nil {
			t.Fatal(err)
		}
		if want := assets.StaticHeaders(m); string(got) != string(want) {
			t.Errorf("build %d: dist/_headers\n%s\nwant\n%s", i, got, want)
		}
	}
}
