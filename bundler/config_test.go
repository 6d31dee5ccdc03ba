package bundler

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBadInputCorpus builds every project under testdata/bad — a good widget
// beside a broken one — and checks that each fails with a message naming the
// file and field (or line:col) listed in its want.txt, without a panic, and
// that the previous dist/ is left untouched. cmd/widgetd runs the same corpus
// through the CLI for the exit code.
func TestBadInputCorpus(t *testing.T) {
	cases, err := filepath.Glob("testdata/bad/*")
	if err != nil || len(cases) < 30 {
		t.Fatalf("want at least 30 broken inputs in testdata/bad, found %d (%v)", len(cases), err)
	}
	goodRoot := t.TempDir()
	writeFiles(t, goodRoot, map[string]string{
		"widgets/good/widget.json": `{"title": "Good"}`,
		"widgets/good/index.ts":    `document.body.textContent = "ok";`,
	})
	dist := filepath.Join(t.TempDir(), "dist")
	mustBuild(t, Options{Root: goodRoot, OutDir: dist, NoCompress: true})
	before := treeHash(t, dist)
	for _, dir := range cases {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join(dir, "want.txt"))
			if err != nil {
				t.Fatal(err)
			}
			root := copyTree(t, dir)
			_, err = Build(context.Background(), Options{Root: root, OutDir: dist, NoCompress: true})
			if err == nil {
				t.Fatal("build succeeded; want an error")
			}
			msg := err.Error()
			for _, w := range strings.Split(strings.TrimSpace(string(want)), "\n") {
				if !strings.Contains(msg, filepath.FromSlash(w)) {
					t.Errorf("error lacks %q:\n%s", w, msg)
				}
			}
			if strings.Contains(msg, "panic") || strings.Contains(msg, "goroutine") {
				t.Errorf("panic in error: %s", msg)
			}
			if after := treeHash(t, dist); after != before {
				t.Fatal("previous dist/ was changed by a failed build")
			}
		})
	}
}

func TestProjectLevelErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		opts  Options
		want  string
	}{
		{"empty widgets folder", map[string]string{"widgets/.keep": ""}, Options{}, "no widgets found"},
		{"missing widgets folder", map[string]string{"README": ""}, Options{}, "widgets folder not found"},
		{"project file unknown field", map[string]string{"widgetd.json": `{"outdir": "x"}`, "widgets/a/widget.json": `{}`, "widgets/a/index.ts": ""},
			Options{}, `widgetd.json:1:2: error: unknown field "outdir"`},
		{"project file bad target", map[string]string{"widgetd.json": `{"targets": ["chrome"]}`, "widgets/a/widget.json": `{}`, "widgets/a/index.ts": ""},
			Options{}, `needs a version`},
		{"project file bad public url", map[string]string{"widgetd.json": `{"publicUrl": "ftp://x"}`, "widgets/a/widget.json": `{}`, "widgets/a/index.ts": ""},
			Options{}, `widgetd.json:1:2: error: public URL "ftp://x"`},
		{"public url http", map[string]string{"widgets/a/widget.json": `{}`, "widgets/a/index.ts": ""},
			Options{PublicURL: "http://cdn.example.com"}, "must use https"},
		{"out inside widgets", map[string]string{"widgets/a/widget.json": `{}`, "widgets/a/index.ts": ""},
			Options{OutDir: "widgets/dist"}, "inside the widgets folder"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			writeFiles(t, root, tc.files)
			tc.opts.Root = root
			_, err := Build(context.Background(), tc.opts)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("got %v, want an error containing %q", err, tc.want)
			}
		})
	}
}

func TestSymlinkLoop(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"widgets/a/widget.json": `{}`, "widgets/a/index.ts": ""})
	if err := os.Symlink(filepath.Join(root, "widgets", "loop"), filepath.Join(root, "widgets", "loop")); err != nil {
		t.Skip("symlinks not supported here")
	}
	_, err := Build(context.Background(), Options{Root: root})
	if err == nil || !strings.Contains(err.Error(), "loop") {
		t.Fatalf("want an error naming the looping symlink, got %v", err)
	}
}
