package main

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/internal/copytree"
)

// TestDeterministicAcrossCheckouts builds the same projects copied to two
// folders of different depth, externally, and requires the two dist/ trees
// to be byte-identical, file names included. The projects cover every kind of
// module widgetd's plugins make: the bridge's React hooks (the examples'
// weather), ?url, ?raw and an inline <script type="module"> of an HTML entry
// (conventions), a ?worker (worker) and compiled .vue and .svelte components
// with styles (frameworks). Their names hash the path of every module; a path
// that depended on where the checkout sits gave replicas different names.
func TestDeterministicAcrossCheckouts(t *testing.T) {
	projects := []struct{ name, src string }{
		{"examples", "../.."}, // the repository root: widgets/
		{"conventions", "../../e2e/testdata/conventions"},
		{"worker", "../../e2e/testdata/worker"},
		{"frameworks", "../../e2e/testdata/frameworks"},
	}
	for _, p := range projects {
		t.Run(p.name, func(t *testing.T) {
			var trees []map[string]string
			for _, depth := range []string{"a", filepath.Join("b", "c", "d")} {
				root := filepath.Join(t.TempDir(), depth, "project")
				copyProject(t, p.src, root, p.name == "examples")
				c := widgetdCmd(t, root, "build", "--no-cache", "--public-url", "https://cdn.example.com/w/")
				if out, err := c.CombinedOutput(); err != nil {
					t.Fatalf("build in %s: %v\n%s", root, err, out)
				}
				trees = append(trees, fileSums(t, filepath.Join(root, "dist")))
			}
			if diff := treeDiff(trees[0], trees[1]); diff != "" {
				t.Fatalf("the same sources built in two folders differ:\n%s", diff)
			}
		})
	}
}

// copyProject copies the project at src (for the examples, only widgets/)
// to dst with its installed node_modules, whose files are hard-linked where
// they can be: a symlinked node_modules would resolve to one place outside
// both copies, at a different relative path from each. It fails when a project with a
// package.json has no node_modules: CI runs npm ci for every lockfile.
// Links stay links, but for a relative one that leaves src, whose target
// the copy would lack: that is copied as the file it names.
func copyProject(t *testing.T, src, dst string, widgetsOnly bool) {
	t.Helper()
	if widgetsOnly {
		src, dst = filepath.Join(src, "widgets"), filepath.Join(dst, "widgets")
	}
	if _, err := os.Stat(filepath.Join(src, "package.json")); err == nil {
		if _, err := os.Stat(filepath.Join(src, "node_modules")); err != nil {
			t.Fatalf("%s has no node_modules: run `npm ci` there: %v", src, err)
		}
	}
	inNodeModules := func(rel string) bool { return strings.Contains(filepath.ToSlash(rel), "node_modules/") }
	skip := func(rel string, d fs.DirEntry) bool {
		return !inNodeModules(rel) && (d.Name() == "dist" || d.Name() == ".widgetd")
	}
	place := func(p, target string, d fs.DirEntry) (bool, error) {
		if d.Type()&fs.ModeSymlink != 0 {
			link, err := os.Readlink(p)
			if err != nil {
				return false, err
			}
			// A relative link out of src (widgets/widgetd.d.ts names the
			// bridge's) would dangle in the copy: copy what it names.
			if out, _ := filepath.Rel(src, filepath.Join(filepath.Dir(p), link)); filepath.IsAbs(link) || !strings.HasPrefix(out, "..") {
				return true, os.Symlink(link, target)
			}
		}
		rel, _ := filepath.Rel(src, p)
		// Read only: the build never writes a package.
		return inNodeModules(rel) && os.Link(p, target) == nil, nil
	}
	if err := copytree.Copy(src, dst, copytree.Options{Skip: skip, Place: place}); err != nil {
		t.Fatal(err)
	}
}

// eachFile calls f with the path and content of every file below dir,
// failing the test when dir cannot be walked or a file read.
func eachFile(t *testing.T, dir string, f func(path string, data []byte)) {
	t.Helper()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		f(p, data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// fileSums maps each file below dir (slash-separated, relative) to the
// SHA-256 of its content.
func fileSums(t *testing.T, dir string) map[string]string {
	t.Helper()
	sums := map[string]string{}
	eachFile(t, dir, func(p string, data []byte) {
		rel, _ := filepath.Rel(dir, p)
		sum := sha256.Sum256(data)
		sums[filepath.ToSlash(rel)] = hex.EncodeToString(sum[:])
	})
	if len(sums) == 0 {
		t.Fatalf("%s is empty", dir)
	}
	return sums
}

// treeDiff lists the files only in a, only in b, or different in the two.
func treeDiff(a, b map[string]string) string {
	var lines []string
	for name, sum := range a {
		switch other, ok := b[name]; {
		case !ok:
			lines = append(lines, "only in the first:  "+name)
		case other != sum:
			lines = append(lines, "different content:  "+name)
		}
	}
	for name := range b {
		if _, ok := a[name]; !ok {
			lines = append(lines, "only in the second: "+name)
		}
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}
