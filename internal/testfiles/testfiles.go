// Package testfiles writes the small file trees that tests build their
// inputs from (a project's widget.json and sources, a package under
// node_modules), making folders as needed and failing the test on any
// error: the helper many test packages of the module each wrote again.
package testfiles

import (
	"os"
	"path/filepath"
	"testing"
)

// WriteFile writes content to path, making its folder first.
func WriteFile(tb testing.TB, path, content string) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// Write writes files, slash-separated paths relative to root with their
// content, below root.
func Write(tb testing.TB, root string, files map[string]string) {
	tb.Helper()
	for name, content := range files {
		WriteFile(tb, filepath.Join(root, filepath.FromSlash(name)), content)
	}
}
