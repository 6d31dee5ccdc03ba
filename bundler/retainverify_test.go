package bundler

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/widgetd/widgetd/assets"
)

// TestRetainedFileVerified: a file of an earlier build that was changed or
// truncated in dist/ after it was written is not carried into the next
// build; the build warns, naming it, and the new dist/ loads with
// assets.Load. Before, the file was copied (exit 0) and assets.Load and
// widgetd serve refused the new dist/ until it aged out.
func TestRetainedFileVerified(t *testing.T) {
	for _, tc := range []struct {
		name   string
		target func(f assets.File) string // the file (of the first build's HTML) to damage
		damage func(t *testing.T, path string)
	}{
		{"truncated", identity, func(t *testing.T, p string) { truncate(t, p) }},
		{"altered, same size", identity, func(t *testing.T, p string) { flipByte(t, p) }},
		{"encoding altered", brotliOf, func(t *testing.T, p string) { flipByte(t, p) }},
		{"replaced by a named pipe", identity, func(t *testing.T, p string) {
			os.Remove(p)
			if err := syscall.Mkfifo(p, 0o644); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			writeFiles(t, root, map[string]string{
				"widgets/w/widget.json": `{"title": "W"}`,
				"widgets/w/index.ts":    `document.body.textContent = "one";`,
			})
			dist := filepath.Join(t.TempDir(), "dist")
			first := mustBuild(t, Options{Root: root, OutDir: dist, NoCache: true, PrecompressHTML: true})
			html := first.Manifest.Widgets[0].HTML
			var old assets.File
			for _, f := range first.Manifest.Files {
				if f.Path == html {
					old = f
				}
			}
			damaged := tc.target(old)
			if damaged == "" {
				t.Fatalf("first build's %s has no such file: %+v", html, old)
			}
			tc.damage(t, filepath.Join(dist, filepath.FromSlash(damaged)))
			writeFiles(t, root, map[string]string{"widgets/w/index.ts": `document.body.textContent = "two";`})
			res, err := Build(context.Background(), Options{Root: root, OutDir: dist, NoCache: true, PrecompressHTML: true})
			if err != nil {
				t.Fatal(err)
			}
			var warned bool
			for _, w := range res.Warnings {
				if strings.Contains(w.String(), filepath.Base(damaged)) && strings.Contains(w.Message, "no longer matches manifest.json") {
					warned = true
				}
			}
			if !warned {
				t.Errorf("no warning naming %s; warnings: %v", damaged, res.Warnings)
			}
			if _, err := os.Lstat(filepath.Join(dist, filepath.FromSlash(html))); err == nil {
				t.Errorf("%s was carried into the new dist/", html)
			}
			for _, f := range res.Manifest.Files {
				if f.Path == html {
					t.Errorf("new manifest lists %s", html)
				}
			}
			if _, err := assets.Load(os.DirFS(dist)); err != nil {
				t.Fatalf("assets.Load refuses the new dist/: %v", err)
			}
		})
	}
}

func identity(f assets.File) string { return f.Path }

func brotliOf(f assets.File) string {
	for _, e := range f.Encodings {
		if e.Name == "br" {
			return e.Path
		}
	}
	return ""
}

func truncate(t *testing.T, p string) {
	if err := os.Truncate(p, 10); err != nil {
		t.Fatal(err)
	}
}

// flipByte changes one byte of p in place, keeping its size. The file may
// be hard-linked from elsewhere, so it is rewritten, not edited through
// the link.
func flipByte(t *testing.T, p string) {
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)/2] ^= 0x20
	os.Remove(p)
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
}
