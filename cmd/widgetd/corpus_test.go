package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadInputCorpusCLI runs widgetd build over every broken project in
// bundler/testdata/bad: exit code 1, a message naming the file and field or
// line:col (want.txt), no panic, and the previous dist/ byte-for-byte intact.
func TestBadInputCorpusCLI(t *testing.T) {
	cases, err := filepath.Glob("../../bundler/testdata/bad/*")
	if err != nil || len(cases) < 30 {
		t.Fatalf("want at least 30 broken inputs, found %d (%v)", len(cases), err)
	}
	good := writeProject(t, map[string]string{
		"widgets/good/widget.json": `{"title": "Good"}`,
		"widgets/good/index.ts":    `document.body.textContent = "ok " + "x".repeat(400);`,
	})
	dist := filepath.Join(t.TempDir(), "dist")
	if code, _, errs := runCLI(t, "build", "--root", good, "--out", dist, "--no-cache"); code != exitOK {
		t.Fatalf("good build: %s", errs)
	}
	before := treeSum(t, dist)
	for _, dir := range cases {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join(dir, "want.txt"))
			if err != nil {
				t.Fatal(err)
			}
			root := t.TempDir()
			if err := os.CopyFS(root, os.DirFS(dir)); err != nil {
				t.Fatal(err)
			}
			code, out, errs := runCLI(t, "build", "--root", root, "--out", dist, "--no-cache")
			if code != exitError {
				t.Fatalf("exit %d, want %d\nstdout: %s\nstderr: %s", code, exitError, out, errs)
			}
			for _, w := range strings.Split(strings.TrimSpace(string(want)), "\n") {
				if !strings.Contains(errs, filepath.FromSlash(w)) {
					t.Errorf("stderr lacks %q:\n%s", w, errs)
				}
			}
			if !strings.Contains(errs, "dist/ was not changed") || strings.Contains(errs, "panic") {
				t.Errorf("unexpected stderr:\n%s", errs)
			}
			if after := treeSum(t, dist); after != before {
				t.Fatal("previous dist/ changed")
			}
		})
	}
}
