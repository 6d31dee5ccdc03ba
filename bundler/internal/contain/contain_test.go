package contain

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/widgetd/widgetd/diag"
	"github.com/widgetd/widgetd/internal/displaypath"
	"github.com/widgetd/widgetd/internal/regularfile"
	"github.com/widgetd/widgetd/internal/testfiles"
)

// tree is a temporary folder top holding a workspace (top/ws, marked by
// .git) with the project in top/ws/proj; files outside the workspace
// stand for the runner's own files.
type tree struct{ top, ws, root string }

func newTree(t *testing.T) tree {
	t.Helper()
	top, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	tr := tree{top: top, ws: filepath.Join(top, "ws"), root: filepath.Join(top, "ws", "proj")}
	tr.write(t, map[string]string{
		"ws/.git/HEAD":                 "ref: main\n",
		"ws/proj/widgets/w/index.ts":   "export {}\n",
		"ws/proj/node_modules/a/a.js":  "a\n",
		"ws/node_modules/hoisted/h.js": "h\n",
		"node_modules/above/x.js":      "x\n",
		"secret/key.txt":               "secret\n",
		"shared/ui.js":                 "ui\n",
	})
	return tr
}

// write writes files (slash paths below top).
func (tr tree) write(t *testing.T, files map[string]string) {
	t.Helper()
	testfiles.Write(t, tr.top, files)
}

func (tr tree) path(name string) string { return filepath.Join(tr.top, filepath.FromSlash(name)) }

func (tr tree) link(t *testing.T, target, name string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(tr.path(name)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, tr.path(name)); err != nil {
		t.Fatal(err)
	}
}

func (tr tree) fifo(t *testing.T, name string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(tr.path(name)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mkfifo(tr.path(name), 0o644); err != nil {
		t.Fatal(err)
	}
}

func (tr tree) reader(t *testing.T, allowOutside []string, maxSize int64) *Reader {
	t.Helper()
	r, err := New(tr.root, filepath.Join(tr.root, "widgets"), allowOutside, maxSize, displaypath.Base{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestCheck runs each way a path can lead out of the project, or into
// something that is not a regular file, against real files, links and
// FIFOs: the code of the refusal and the words that tell the user why.
func TestCheck(t *testing.T) {
	for _, tc := range []struct {
		name    string
		setup   func(t *testing.T, tr tree)
		outside []string
		path    string // below top
		code    string // "" when allowed
		want    []string
	}{
		{name: "inside", path: "ws/proj/widgets/w/index.ts"},
		{name: "missing is esbuild's to report", path: "ws/proj/widgets/w/nope.ts"},
		{name: "own node_modules", path: "ws/proj/node_modules/a/a.js"},
		{name: "hoisted to the workspace root", path: "ws/node_modules/hoisted/h.js"},
		{name: "above the workspace root", path: "node_modules/above/x.js", code: diag.CodeOutsideProject,
			want: []string{`"spec" resolves to `, "outside the project", `"allowOutside": ["../../node_modules/above"]`}},
		{name: "by ..", path: "ws/proj/../../secret/key.txt", code: diag.CodeOutsideProject},
		{name: "through a symlink", path: "ws/proj/widgets/w/key.txt", code: diag.CodeOutsideProject,
			setup: func(t *testing.T, tr tree) { tr.link(t, tr.path("secret/key.txt"), "ws/proj/widgets/w/key.txt") },
			want:  []string{"through a symlink at {top}/ws/proj/widgets/w/key.txt to {top}/secret/key.txt"}},
		{name: "node_modules that is a symlink adds nothing", path: "ws/proj/widgets/node_modules/key.txt", code: diag.CodeOutsideProject,
			setup: func(t *testing.T, tr tree) { tr.link(t, tr.path("secret"), "ws/proj/widgets/node_modules") }},
		{name: "allowOutside", path: "shared/ui.js", outside: []string{"../../shared"}},
		{name: "a FIFO", path: "ws/proj/widgets/w/pipe", code: diag.CodeNotRegularFile,
			setup: func(t *testing.T, tr tree) { tr.fifo(t, "ws/proj/widgets/w/pipe") },
			want:  []string{"a named pipe (FIFO), not a regular file"}},
		{name: "a device allowed by folder", path: "ws/proj/widgets/w/null", outside: []string{"/dev"}, code: diag.CodeNotRegularFile,
			setup: func(t *testing.T, tr tree) { tr.link(t, "/dev/null", "ws/proj/widgets/w/null") },
			want:  []string{`"spec" is a character device, not a regular file`}},
		{name: "over the size limit", path: "ws/proj/widgets/w/big.txt", code: diag.CodeSourceTooLarge,
			setup: func(t *testing.T, tr tree) {
				tr.write(t, map[string]string{"ws/proj/widgets/w/big.txt": strings.Repeat("x", 65)})
			},
			want: []string{`"spec" is 65 B, over the 64 B source file limit`, `"maxSourceSize"`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tr := newTree(t)
			if tc.setup != nil {
				tc.setup(t, tr)
			}
			r := tr.reader(t, tc.outside, 64)
			err := r.Check("spec", tr.path(tc.path), "")
			if got := CodeOf(err); got != tc.code || (tc.code == "") != (err == nil) {
				t.Fatalf("Check(%s) = %v (code %q), want code %q", tc.path, err, got, tc.code)
			}
			for _, w := range tc.want {
				w = strings.ReplaceAll(w, "{top}", filepath.ToSlash(tr.top))
				if !strings.Contains(err.Error(), w) {
					t.Errorf("Check(%s) = %q, want it to say %q", tc.path, err, w)
				}
			}
		})
	}
}

// TestWorkspaceRoot: node_modules folders above the project are allowed
// up to the first repository or workspace root (where npm, yarn and pnpm
// hoist packages), and not above it. The tree is top/.git (so the walk
// ends there whatever holds the temporary folder), top/mid/node_modules,
// and the project in top/mid/ws/proj with ws marked or not.
func TestWorkspaceRoot(t *testing.T) {
	for _, tc := range []struct {
		name   string
		marker map[string]string // below ws
		above  bool              // top/mid/node_modules is allowed
	}{
		{"no marker: up to the repository above", nil, true},
		{".git", map[string]string{".git/HEAD": "ref\n"}, false},
		{"pnpm", map[string]string{"pnpm-workspace.yaml": "packages: []\n"}, false},
		{"npm workspaces", map[string]string{"package.json": `{"workspaces": ["proj"]}`}, false},
		{"package.json without workspaces", map[string]string{"package.json": `{"name": "x"}`}, true},
		{"workspaces null", map[string]string{"package.json": `{"workspaces": null}`}, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			top, err := filepath.EvalSymlinks(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			tr := tree{top: top, ws: filepath.Join(top, "mid", "ws"), root: filepath.Join(top, "mid", "ws", "proj")}
			tr.write(t, map[string]string{".git/HEAD": "ref\n", "mid/ws/proj/widgets/w/index.ts": "", "mid/ws/node_modules/h/h.js": "",
				"mid/node_modules/above/x.js": "", "node_modules/top/x.js": ""})
			for name, data := range tc.marker {
				tr.write(t, map[string]string{"mid/ws/" + name: data})
			}
			r := tr.reader(t, nil, 0)
			if !r.AllowsFile(tr.path("mid/ws/node_modules/h/h.js")) {
				t.Errorf("the workspace's node_modules is refused")
			}
			if got := r.AllowsFile(tr.path("mid/node_modules/above/x.js")); got != tc.above {
				t.Errorf("node_modules above the workspace allowed = %v, want %v", got, tc.above)
			}
			if got := r.AllowsFile(tr.path("node_modules/top/x.js")); got != tc.above {
				t.Errorf("the outer repository root's node_modules allowed = %v, want %v", got, tc.above)
			}
		})
	}
}

// TestResetSeesLinksAsTheyAreNow: a folder link that was checked (and its
// real path cached) and then points elsewhere is seen anew after Reset.
func TestResetSeesLinksAsTheyAreNow(t *testing.T) {
	tr := newTree(t)
	tr.write(t, map[string]string{"ws/proj/lib-a/key.txt": "a\n"})
	tr.link(t, tr.path("ws/proj/lib-a"), "ws/proj/lib")
	r := tr.reader(t, nil, 0)
	p := tr.path("ws/proj/lib/key.txt")
	if err := r.Check("", p, ""); err != nil {
		t.Fatalf("link inside: %v", err)
	}
	if err := os.Remove(tr.path("ws/proj/lib")); err != nil {
		t.Fatal(err)
	}
	tr.link(t, tr.path("secret"), "ws/proj/lib")
	r.Reset()
	if err := r.Check("", p, ""); CodeOf(err) != diag.CodeOutsideProject {
		t.Fatalf("after the link moved out and Reset: %v, want refused", err)
	}
}

// TestReadFileBounded: ReadFile refuses a file that grows past the limit
// after its size was listed, by reading, not by trusting the listed size.
func TestReadFileBounded(t *testing.T) {
	tr := newTree(t)
	r := tr.reader(t, nil, 10)
	tr.write(t, map[string]string{"ws/proj/widgets/w/data.txt": "0123456789"})
	p := tr.path("ws/proj/widgets/w/data.txt")
	if data, err := r.ReadFile("", p, ""); err != nil || string(data) != "0123456789" {
		t.Fatalf("a file of exactly the limit: %q, %v", data, err)
	}
	tr.write(t, map[string]string{"ws/proj/widgets/w/data.txt": "0123456789A"})
	if _, err := r.ReadFile("./data.txt", p, ""); CodeOf(err) != diag.CodeSourceTooLarge {
		t.Fatalf("a file over the limit: %v", err)
	}
	// /proc files list a size of 0: the read itself must stop at limit+1.
	var tl *regularfile.TooLargeError
	if _, err := ReadRegular("environ", "/proc/self/environ", 4); !errors.As(err, &tl) || tl.Size != 5 {
		t.Fatalf("ReadRegular of a /proc file listed as 0 bytes, limit 4: want too large after reading 5 bytes, got %v", err)
	}
	tr.fifo(t, "ws/proj/package.json")
	if _, err := ReadBounded(tr.path("ws/proj/package.json")); CodeOf(err) != diag.CodeNotRegularFile || !strings.Contains(err.Error(), `"package.json"`) {
		t.Fatalf("ReadBounded of a FIFO: %v, want refused naming package.json", err)
	}
}

// TestReadConfigFile: a config file is at most MaxConfigSize, and only a
// regular file; neither is opened for reading when refused.
func TestReadConfigFile(t *testing.T) {
	tr := newTree(t)
	tr.write(t, map[string]string{"ws/proj/widgetd.json": "{" + strings.Repeat(" ", MaxConfigSize) + "}"})
	if _, err := ReadConfigFile(tr.path("ws/proj/widgetd.json")); err == nil || !strings.Contains(err.Error(), "a config file is at most 1.0 MiB") {
		t.Errorf("an oversized config: %v", err)
	}
	tr.fifo(t, "ws/proj/widgets/w/widget.json")
	var nr *regularfile.NotRegularError
	if _, err := ReadConfigFile(tr.path("ws/proj/widgets/w/widget.json")); !errors.As(err, &nr) {
		t.Errorf("a FIFO config: %v, want a NotRegularError", err)
	}
}

// TestNewRefusesMissingAllowOutside names the setting and the folder.
func TestNewRefusesMissingAllowOutside(t *testing.T) {
	tr := newTree(t)
	_, err := New(tr.root, filepath.Join(tr.root, "widgets"), []string{"../gone"}, 0, displaypath.Base{})
	if err == nil || err.Error() != `widgetd.json: allowOutside "../gone": no such file or directory` {
		t.Fatalf("New with a missing allowOutside folder: %v", err)
	}
}

// TestCheckWidget: a widget folder linked from outside the project is
// refused at the folder, with the limit's code.
func TestCheckWidget(t *testing.T) {
	tr := newTree(t)
	tr.write(t, map[string]string{"secret/w2/index.ts": "export {}\n"})
	tr.link(t, tr.path("secret/w2"), "ws/proj/widgets/w2")
	r := tr.reader(t, nil, 0)
	if err := r.CheckWidget(tr.path("ws/proj/widgets/w"), "index.ts", tr.path("ws/proj/widgets/w/index.ts")); err != nil {
		t.Fatalf("a widget inside: %v", err)
	}
	err := r.CheckWidget(tr.path("ws/proj/widgets/w2"), "index.ts", tr.path("ws/proj/widgets/w2/index.ts"))
	var de *diag.Error
	if !errors.As(err, &de) || de.Diagnostics[0].Code != diag.CodeOutsideProject || !strings.HasPrefix(de.Diagnostics[0].Message, `widget folder "w2" resolves through a symlink`) {
		t.Fatalf("a linked widget folder: %#v", err)
	}
}

// TestWithin: containment is by path element, so a name that merely starts
// with ".." ("..foo") is inside, and a sibling sharing a prefix is not.
func TestWithin(t *testing.T) {
	base := filepath.FromSlash("/p/project")
	for _, tc := range []struct {
		p    string
		want bool
	}{
		{"/p/project", true},
		{"/p/project/widgets/a", true},
		{"/p/project/..foo", true},
		{"/p/project/..foo/bar.css", true},
		{"/p/project/.hidden", true},
		{"/p", false},
		{"/p/other", false},
		{"/p/project-2", false},
		{"/p/project/../other", false},
		{"relative", false},
	} {
		if got := Within(base, filepath.FromSlash(tc.p)); got != tc.want {
			t.Errorf("Within(%q, %q) = %v, want %v", base, tc.p, got, tc.want)
		}
	}
}
