package copytree

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/internal/testfiles"
)

// TestCopy: files are copied with their contents at any depth, named
// folders are left out wherever they are, and a link is copied as the
// contents it names.
func TestCopy(t *testing.T) {
	src, dst := t.TempDir(), filepath.Join(t.TempDir(), "copy")
	outside := filepath.Join(t.TempDir(), "outside.txt")
	testfiles.Write(t, src, map[string]string{
		"a/src/App.tsx": "app", "widget.json": "{}",
		"node_modules/react/index.js": "react", "a/dist/w.html": "built",
	})
	testfiles.WriteFile(t, outside, "linked")
	if err := os.Symlink(outside, filepath.Join(src, "a", "link.txt")); err != nil {
		t.Fatal(err)
	}
	if err := Copy(src, dst, Options{Skip: SkipNamed("node_modules", "dist")}); err != nil {
		t.Fatal(err)
	}
	for rel, want := range map[string]string{"a/src/App.tsx": "app", "widget.json": "{}", "a/link.txt": "linked"} {
		got, err := os.ReadFile(filepath.Join(dst, filepath.FromSlash(rel)))
		if err != nil || string(got) != want {
			t.Errorf("%s: %q, %v; want %q", rel, got, err, want)
		}
	}
	if fi, err := os.Lstat(filepath.Join(dst, "a", "link.txt")); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("a/link.txt in the copy: %v, %v; want a regular file", fi, err)
	}
	for _, rel := range []string{"node_modules", "a/dist"} {
		if _, err := os.Stat(filepath.Join(dst, filepath.FromSlash(rel))); !os.IsNotExist(err) {
			t.Errorf("%s copied (stat error %v)", rel, err)
		}
	}
}

// TestCopyPlace: an entry Place puts itself is not copied over, one it
// declines is, and its error ends the copy.
func TestCopyPlace(t *testing.T) {
	src := t.TempDir()
	testfiles.Write(t, src, map[string]string{"keep.txt": "k", "link.txt": "l", "bad.txt": "b"})
	dst := filepath.Join(t.TempDir(), "copy")
	place := func(p, target string, d fs.DirEntry) (bool, error) {
		switch d.Name() {
		case "link.txt":
			return true, os.Symlink(p, target)
		case "bad.txt":
			return false, fs.ErrPermission
		}
		return false, nil
	}
	err := Copy(src, dst, Options{Place: place})
	if err == nil || !strings.Contains(err.Error(), "permission") {
		t.Fatalf("Copy error %v; want Place's", err)
	}
	// bad.txt comes first in lexical order, so nothing after it was placed.
	if _, err := os.Lstat(filepath.Join(dst, "keep.txt")); !os.IsNotExist(err) {
		t.Errorf("keep.txt copied after Place failed (stat error %v)", err)
	}
	if err := Copy(src, dst, Options{Place: func(p, target string, d fs.DirEntry) (bool, error) {
		if d.Name() == "bad.txt" {
			return false, nil
		}
		return place(p, target, d)
	}}); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(filepath.Join(dst, "link.txt")); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("link.txt: %v, %v; want the link Place made", fi, err)
	}
	if got, err := os.ReadFile(filepath.Join(dst, "keep.txt")); err != nil || string(got) != "k" {
		t.Errorf("keep.txt: %q, %v; want k", got, err)
	}
}

// TestCopyMissingSource: a source that is not there is an error.
func TestCopyMissingSource(t *testing.T) {
	if err := Copy(filepath.Join(t.TempDir(), "none"), t.TempDir(), Options{}); err == nil {
		t.Error("copying a missing folder succeeded")
	}
}
