package displaypath

import (
	"path/filepath"
	"testing"
)

func TestShow(t *testing.T) {
	base := Base{dir: filepath.FromSlash("/home/ann/project")}
	for _, tc := range []struct{ p, want string }{
		{"/home/ann/project/widgets/a/widget.json", "widgets/a/widget.json"},
		{"/home/ann/project", "."},
		{"/home/ann/project/..foo/x.js", "..foo/x.js"}, // a name starting with "..", inside
		{"/home/ann/project/.hidden/x.js", ".hidden/x.js"},
		{"/home/ann/project/a/../b.js", "b.js"},
		{"/home/ann/other/x.js", "/home/ann/other/x.js"},
		{"/home/ann/project-2/x.js", "/home/ann/project-2/x.js"},
		{"/home/ann", "/home/ann"},
		{"relative/x.js", "relative/x.js"},
		{"", ""},
	} {
		p := filepath.FromSlash(tc.p)
		if got, want := base.Show(p), filepath.FromSlash(tc.want); got != want {
			t.Errorf("Show(%q) = %q, want %q", p, got, want)
		}
	}
	if got := (Base{}).Show("/a/b"); got != "/a/b" {
		t.Errorf("zero Base: Show(/a/b) = %q, want it unchanged", got)
	}
}

func TestWorkingDir(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if got := WorkingDir().Show(filepath.Join(dir, "x", "y.js")); got != filepath.Join("x", "y.js") {
		t.Errorf("WorkingDir().Show = %q, want x/y.js", got)
	}
	if got := Show(filepath.Join(dir, "z.js")); got != "z.js" {
		t.Errorf("Show = %q, want z.js", got)
	}
}
