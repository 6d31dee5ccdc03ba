package testfiles

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWrite: every file lands below root at its slash-separated path with
// its content, folders made as needed, and an existing file is replaced.
func TestWrite(t *testing.T) {
	root := t.TempDir()
	WriteFile(t, filepath.Join(root, "widgets", "a", "widget.json"), "old")
	files := map[string]string{
		"widgets/a/widget.json":         `{"title": "A"}`,
		"widgets/a/src/deep/index.ts":   "export {}",
		"node_modules/pkg/package.json": `{"name": "pkg"}`,
		"top.txt":                       "",
	}
	Write(t, root, files)
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(name)))
		if err != nil || string(got) != want {
			t.Errorf("%s: %q, %v; want %q", name, got, err, want)
		}
	}
}

// recordingTB records Fatal calls instead of ending the test.
type recordingTB struct {
	testing.TB
	fatals []string
}

func (r *recordingTB) Helper()           {}
func (r *recordingTB) Fatal(args ...any) { r.fatals = append(r.fatals, fmt.Sprint(args...)) }

// TestWriteFileFails: a path below a file cannot be written, and the
// helper fails the test saying why.
func TestWriteFileFails(t *testing.T) {
	root := t.TempDir()
	WriteFile(t, filepath.Join(root, "file"), "x")
	rec := &recordingTB{TB: t}
	WriteFile(rec, filepath.Join(root, "file", "below"), "y")
	if len(rec.fatals) == 0 || !strings.Contains(rec.fatals[0], "not a directory") {
		t.Errorf("writing below a file: Fatal calls %q; want one saying not a directory", rec.fatals)
	}
}
