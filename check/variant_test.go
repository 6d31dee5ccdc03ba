package check

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/internal/copytree"
)

// variantOf is the file that makes a testdata/rules case a variant of
// another: it holds the other case's name, and the variant holds only the
// files it changes (often a "-ok" case that declares what the rule's case
// leaves out), so the files the two share are written once.
const variantOf = "variant-of"

// caseRoot is the project the rules case name runs on, and a function
// that writes the case's own path for the project's in a report. A plain
// case is its folder. A variant is a temporary copy of the case it names
// (itself perhaps a variant) with the variant's files written over it; its
// report names the variant's folder, so the golden reads as if the files
// were all there.
func caseRoot(t *testing.T, name string) (root string, rename func(string) string) {
	t.Helper()
	dir := filepath.Join("testdata", "rules", name)
	base, err := os.ReadFile(filepath.Join(dir, variantOf))
	if os.IsNotExist(err) {
		return dir, func(s string) string { return s }
	}
	if err != nil {
		t.Fatal(err)
	}
	baseRoot, _ := caseRoot(t, strings.TrimSpace(string(base)))
	root = t.TempDir()
	if err := os.CopyFS(root, os.DirFS(baseRoot)); err != nil {
		t.Fatalf("%s: copy the case it is a variant of: %v", name, err)
	}
	skipVariantOf := func(_, _ string, d fs.DirEntry) (bool, error) { return d.Name() == variantOf, nil }
	if err := copytree.Copy(dir, root, copytree.Options{Place: skipVariantOf}); err != nil {
		t.Fatalf("%s: write the variant's files: %v", name, err)
	}
	return root, func(s string) string { return strings.ReplaceAll(s, root, dir) }
}
