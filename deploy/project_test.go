package deploy

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/bundler"
)

// cdnPublicURL is the public URL the test builds name; the key prefix is
// its path, so the CDN maps https://cdn.widgets.test/w/x to s3://widgets/w/x.
const cdnPublicURL = "https://cdn.widgets.test/w"

// examplesProject copies the repository's example widgets (widgets/) into a
// temporary project the test may edit, with their node_modules linked.
func examplesProject(t *testing.T) string {
	t.Helper()
	_, file, _, _ := runtime.Caller(0)
	src := filepath.Join(filepath.Dir(file), "..", "widgets")
	root := filepath.Join(t.TempDir(), "project")
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !e.IsDir() || e.Name() == "node_modules" {
			continue
		}
		if err := os.CopyFS(filepath.Join(root, "widgets", e.Name()), os.DirFS(filepath.Join(src, e.Name()))); err != nil {
			t.Fatal(err)
		}
	}
	nm := filepath.Join(src, "node_modules")
	if _, err := os.Stat(filepath.Join(nm, "react")); err != nil {
		t.Fatalf("the example widgets' node_modules is missing: run npm ci in widgets/ (%v)", err)
	}
	if err := os.Symlink(nm, filepath.Join(root, "widgets", "node_modules")); err != nil {
		t.Fatal(err)
	}
	allow := fmt.Sprintf(`{"allowOutside": [%q]}`, nm) // the linked node_modules
	if err := os.WriteFile(filepath.Join(root, "widgetd.json"), []byte(allow), 0o644); err != nil {
		t.Fatal(err)
	}
	return root
}

// buildInto builds the project at root into dist (retaining what dist
// held, up to retain builds) with the CDN's public URL, and returns the
// manifest.
func buildInto(t *testing.T, root, dist string, retain int) *assets.Manifest {
	t.Helper()
	return buildFor(t, root, dist, retain, cdnPublicURL)
}

// buildFor is buildInto with the public URL the files will be served at.
func buildFor(t *testing.T, root, dist string, retain int, publicURL string) *assets.Manifest {
	t.Helper()
	// A compression cache of the test's own (beside the project), so each
	// rebuild compresses only what changed.
	cache := filepath.Join(filepath.Dir(root), "cache")
	if _, err := bundler.Build(context.Background(), bundler.Options{Root: root, OutDir: dist, PublicURL: publicURL, Retain: retain, CacheDir: cache}); err != nil {
		t.Fatalf("build: %v", err)
	}
	reg, err := assets.Load(os.DirFS(dist))
	if err != nil {
		t.Fatal(err)
	}
	return reg.Manifest()
}

// appendToFile edits a widget source, making a changed build.
func appendToFile(t *testing.T, path, text string) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		t.Fatal(err)
	}
}
