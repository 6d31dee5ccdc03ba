// Package testfiles writes the files a test works on (a project's sources,
// a fixture, a config) below a folder the test owns, making the folders
// between. The tests of devserver, widgettest, check, fixture, scaffold and
// docs each wrote this loop of their own.
package testfiles

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// Write writes files (slash path relative to dir → contents) below dir, in
// the order of their paths, so a watcher running meanwhile sees them in a
// known order. It fails t on any error.
func Write(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for _, rel := range slices.Sorted(maps.Keys(files)) {
		WriteFile(t, filepath.Join(dir, filepath.FromSlash(rel)), files[rel])
	}
}

// WriteFile writes contents to the file at path, making its folder first.
// It fails t on any error.
func WriteFile(t testing.TB, path, contents string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(contents), 0o644); err != nil {
		t.Fatal(err)
	}
}
