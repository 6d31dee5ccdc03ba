package check

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/internal/testfiles"
)

// The metafile's input paths are relative to the project root (here the
// repository root, two folders up), as esbuild writes them.
func TestEvalModules(t *testing.T) {
	meta, err := os.ReadFile(filepath.Join("testdata", "metafile", "metafile.json"))
	if err != nil {
		t.Fatal(err)
	}
	got := evalModules(string(meta), "..", "w")
	want := []string{"check/testdata/metafile/node_modules/evil/index.js"}
	if !slices.Equal(got, want) {
		t.Errorf("evalModules = %v, want %v", got, want)
	}
	if got := evalModules(string(meta), "..", "missing"); len(got) != 0 {
		t.Errorf("unknown widget: %v", got)
	}
	if got := evalModules("{not json", "..", "w"); got != nil {
		t.Errorf("bad metafile: %v", got)
	}
	if _, err := readInput("..", "../../etc/passwd"); err == nil {
		t.Error("readInput left the root")
	}
}

// TestReadInputContainment: an input path is inside the root by path
// element; "..foo" is a name, not a step up.
func TestReadInputContainment(t *testing.T) {
	root := t.TempDir()
	for _, name := range []string{"..foo", "a"} {
		testfiles.WriteFile(t, filepath.Join(root, name, "x.js"), name)
	}
	for _, tc := range []struct {
		in     string
		inside bool
	}{
		{"a/x.js", true},
		{"..foo/x.js", true},
		{"a/../..foo/x.js", true},
		{"../x.js", false},
		{"a/../../x.js", false},
		{"..", false},
	} {
		_, err := readInput(root, tc.in)
		if outside := err != nil && strings.Contains(err.Error(), "outside"); outside == tc.inside {
			t.Errorf("readInput(%q): err %v, want inside=%v", tc.in, err, tc.inside)
		}
	}
}

// TestEvalAttributedInReport: with a metafile, js-eval names the module.
func TestEvalAttributedInReport(t *testing.T) {
	in := assemble(t, filepath.Join("testdata", "rules", "js-eval"), "")
	meta, err := os.ReadFile(filepath.Join("testdata", "metafile", "metafile.json"))
	if err != nil {
		t.Fatal(err)
	}
	in.Metafile, in.Root = string(meta), ".."
	rep, err := Run(context.Background(), in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.Findings {
		if f.Rule == RuleJSEval {
			if !strings.Contains(f.Message, "brought in by check/testdata/metafile/node_modules/evil/index.js") {
				t.Errorf("js-eval not attributed: %s", f)
			}
			return
		}
	}
	t.Fatal("no js-eval finding")
}
