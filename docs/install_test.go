package docs

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/bundler"
)

// runSnippet runs a documented shell snippet with sh -e in dir, the
// checkout's path in place of the placeholders a reader replaces
// (/path/to/widgetd; git clone of the GitHub repository clones the
// checkout's last commit instead), and returns its output.
func runSnippet(t *testing.T, dir, script string, env ...string) string {
	t.Helper()
	repo, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	script = strings.NewReplacer("/path/to/widgetd", repo,
		"git clone https://github.com/widgetd/widgetd", "git clone --quiet "+repo+" widgetd").Replace(script)
	cmd := exec.Command("sh", "-ec", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", script, err, out)
	}
	return string(out)
}

// TestInstallGoTool: the go.mod lines README.md's Install and
// docs/embedding.md give a module make go tool widgetd run widgetd, in a
// new module, while widgetd is on no module proxy.
func TestInstallGoTool(t *testing.T) {
	for _, file := range []string{"../README.md", "../docs/embedding.md"} {
		t.Run(filepath.Base(file), func(t *testing.T) {
			script := snippet(t, file, "install-go-tool")
			if !strings.Contains(script, "go tool widgetd version") {
				script += "go tool widgetd version\n"
			}
			dir := t.TempDir()
			runSnippet(t, dir, "go mod init example.com/tooluser\n")
			out := runSnippet(t, dir, script, "GOFLAGS=-mod=mod")
			if !strings.HasSuffix(out, "widgetd "+bundler.Version+"\n") {
				t.Errorf("go tool widgetd version printed:\n%s", out)
			}
			gomod, _ := os.ReadFile(filepath.Join(dir, "go.mod"))
			if !strings.Contains(string(gomod), "\ntool github.com/widgetd/widgetd/cmd/widgetd\n") {
				t.Errorf("go.mod has no tool line:\n%s", gomod)
			}
		})
	}
}

// TestInstallFromClone: README.md's Install from a clone, verbatim but for
// cloning this checkout instead of GitHub: go install puts a widgetd that
// runs on the PATH.
func TestInstallFromClone(t *testing.T) {
	script := snippet(t, "../README.md", "install-clone")
	gobin := t.TempDir()
	out := runSnippet(t, t.TempDir(), script, "GOBIN="+gobin, "PATH="+gobin+string(os.PathListSeparator)+os.Getenv("PATH"))
	if !strings.HasSuffix(out, "widgetd "+bundler.Version+"\n") {
		t.Errorf("widgetd version after go install printed:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(gobin, "widgetd")); err != nil {
		t.Errorf("go install wrote no widgetd to GOBIN: %v", err)
	}
}

// TestGoVersionsAgree: every Go version the README and docs/ name is the
// one go.mod requires (Go 1.N for its minor version, `go 1.N.P` for the
// whole go line), so the docs cannot promise an older Go than widgetd builds
// with.
func TestGoVersionsAgree(t *testing.T) {
	gomod, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^go (1\.(\d+)\.\d+)$`).FindSubmatch(gomod)
	if m == nil {
		t.Fatal("go.mod has no go 1.N.P line")
	}
	goLine, minor := string(m[1]), string(m[2])
	files, _ := filepath.Glob("../docs/*.md")
	files = append(files, "../README.md")
	minorRE := regexp.MustCompile(`\bGo 1\.(\d+)`)
	lineRE := regexp.MustCompile("`go (1\\.[0-9.]+)`")
	for _, f := range files {
		data, _ := os.ReadFile(f)
		for _, v := range minorRE.FindAllSubmatch(data, -1) {
			if string(v[1]) != minor {
				t.Errorf("%s names %s; go.mod requires go %s: say Go 1.%s", f, v[0], goLine, minor)
			}
		}
		for _, v := range lineRE.FindAllSubmatch(data, -1) {
			if string(v[1]) != goLine {
				t.Errorf("%s names %s; go.mod's go line is go %s", f, v[0], goLine)
			}
		}
	}
}
