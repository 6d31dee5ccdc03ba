package scaffold

import (
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/internal/testfiles"
)

// TestIgnoreAdditions: adding a Go server to a project appends to its
// .gitignore only the lines it lacks, and takes dist/ back when the project
// ignored it; real git then tracks dist/ and ignores node_modules/ and the
// server's binary, whichever way the project wrote its dist/ line.
func TestIgnoreAdditions(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("git is needed: apt-get install git")
	}
	files := map[string][]byte{}
	d := data{Server: "go", Binary: "greeter"}
	if err := render(files, "templates/project", "", d); err != nil {
		t.Fatal(err)
	}
	template := string(files[".gitignore"])
	for _, tc := range []struct {
		name, old    string
		wantDistBack bool
		wantNothing  bool
	}{
		{name: "rooted dir", old: "/dist/\n", wantDistBack: true},
		{name: "any dir", old: "dist/\n", wantDistBack: true},
		{name: "no newline", old: "node_modules/\n/dist", wantDistBack: true},
		{name: "dist not ignored", old: "*.log\n"},
		{name: "taken back already", old: "/dist/\n!/dist/\n"},
		{name: "complete", old: template, wantNothing: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			add := ignoreAdditions(tc.old, template)
			if tc.wantNothing != (add == "") {
				t.Fatalf("additions to %q: %q", tc.old, add)
			}
			if got := strings.Contains(add, "!/dist/"); got != tc.wantDistBack {
				t.Errorf("additions take dist/ back: %v, want %v:\n%s", got, tc.wantDistBack, add)
			}
			dir := t.TempDir()
			old := tc.old
			if !strings.HasSuffix(old, "\n") {
				old += "\n"
			}
			testfiles.WriteFile(t, filepath.Join(dir, ".gitignore"), old+add)
			for _, f := range []string{"dist/manifest.json", "node_modules/x/index.js", "greeter"} {
				testfiles.WriteFile(t, filepath.Join(dir, f), "x")
			}
			git(t, dir, "init", "--quiet")
			for path, wantIgnored := range map[string]bool{"dist/manifest.json": false, "node_modules/x/index.js": true, "greeter": true} {
				if got := gitIgnores(t, dir, path); got != wantIgnored {
					t.Errorf("%s ignored: %v, want %v; .gitignore:\n%s", path, got, wantIgnored, old+add)
				}
			}
		})
	}
}

// TestBinaryName: the binary .gitignore ignores is the one go build writes.
func TestBinaryName(t *testing.T) {
	for module, want := range map[string]string{"example.com/greeter": "greeter", "greeter": "greeter", "github.com/a/b/v2": "b", "example.com/v1": "v1"} {
		if got := binaryName(module); got != want {
			t.Errorf("binaryName(%q) = %q, want %q", module, got, want)
		}
	}
}

func git(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// gitIgnores asks git check-ignore (exit 0: ignored, 1: not ignored).
func gitIgnores(t *testing.T, dir, path string) bool {
	t.Helper()
	cmd := exec.Command("git", "check-ignore", "--quiet", "--no-index", path)
	cmd.Dir = dir
	err := cmd.Run()
	var exit *exec.ExitError
	if errors.As(err, &exit) && exit.ExitCode() == 1 {
		return false
	}
	if err != nil {
		t.Fatalf("git check-ignore %s: %v", path, err)
	}
	return true
}
