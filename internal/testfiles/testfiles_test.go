package testfiles

import (
	"os"
	"path/filepath"
	"testing"
)

// TestWrite writes nested files into a real temporary folder and reads
// them back; a file where a folder must go fails the test it is given.
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	Write(t, dir, map[string]string{"a/b/c.txt": "deep", "top.txt": "top", "a/d.json": "{}"})
	for rel, want := range map[string]string{"a/b/c.txt": "deep", "top.txt": "top", "a/d.json": "{}"} {
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(rel)))
		if err != nil || string(got) != want {
			t.Errorf("%s: %q %v, want %q", rel, got, err, want)
		}
	}
	inner := &testing.T{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		WriteFile(inner, filepath.Join(dir, "top.txt", "under-a-file.txt"), "x")
	}()
	<-done
	if !inner.Failed() {
		t.Error("writing below a regular file did not fail the test")
	}
}
