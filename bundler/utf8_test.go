package bundler

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/widgetd/widgetd/bundler/internal/contain"
	"github.com/widgetd/widgetd/bundler/strictjson"
	"github.com/widgetd/widgetd/internal/displaypath"
)

// TestNotUTF8 pins the message and position of a file that is not UTF-8,
// for the HTML entry and for widget.json (in both a leading byte order mark
// is skipped and positions count from after it, as editors show them).
func TestNotUTF8(t *testing.T) {
	bom := "\xEF\xBB\xBF"
	for _, tc := range []struct {
		name, data, want string
	}{
		{"line 1", "<p>caf\xe9</p>", "index.html:1:7: error: file is not valid UTF-8 (bad byte 0xe9); save it as UTF-8"},
		{"line 3", "<!doctype html>\n<p>ok ☃</p>\n<p>\x80</p>", "index.html:3:4: error: file is not valid UTF-8 (bad byte 0x80); save it as UTF-8"},
		{"after BOM", bom + "<p>\xff</p>", "index.html:1:4: error: file is not valid UTF-8 (bad byte 0xff); save it as UTF-8"},
		{"truncated rune", "<p>\xe2\x98</p>", "index.html:1:4: error: file is not valid UTF-8 (bad byte 0xe2); save it as UTF-8"},
	} {
		t.Run("html "+tc.name, func(t *testing.T) {
			dir := t.TempDir()
			widgetDir := filepath.Join(dir, "widgets", "w")
			if err := os.MkdirAll(widgetDir, 0o755); err != nil {
				t.Fatal(err)
			}
			file := filepath.Join(widgetDir, "index.html")
			if err := os.WriteFile(file, []byte(tc.data), 0o644); err != nil {
				t.Fatal(err)
			}
			c, err := contain.New(dir, filepath.Join(dir, "widgets"), nil, 0, displaypath.WorkingDir())
			if err != nil {
				t.Fatal(err)
			}
			_, err = parseHTMLEntry(file, "index.html", widgetDir, dir, c)
			if err == nil || err.Error() != tc.want {
				t.Errorf("got %v\nwant %s", err, tc.want)
			}
		})
	}
	for _, tc := range []struct {
		name, data, want string
	}{
		{"line 2", "{\n  \"name\": \"caf\xe9\"\n}", "widget.json:2:15: error: file is not valid UTF-8 (bad byte 0xe9); save it as UTF-8"},
		{"BOM skipped", bom + "{\"a\": \"\xff\"}", "widget.json:1:8: error: file is not valid UTF-8 (bad byte 0xff); save it as UTF-8"},
	} {
		t.Run("json "+tc.name, func(t *testing.T) {
			_, err := strictjson.Parse("widget.json", []byte(tc.data))
			if err == nil || err.Error() != tc.want {
				t.Errorf("got %v\nwant %s", err, tc.want)
			}
		})
	}
}
