package bundler

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/bundler/layout"
	"github.com/widgetd/widgetd/diag"
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

func FuzzWidgetConfig(f *testing.F) {
	for _, s := range []string{`{}`, `{"name":"a","csp":{"connectDomains":["https://x.com"]}}`, `{"permissions":{"camera":true}}`, `[`, `{"a":`, "{\"title\":\"\xff\"}", `{"profiles":["mcp-app","skybridge"]}`,
		`{"styles":["a.css"]}`, `{"styles":["a.css","./a.css"]}`, `{"styles":["sub/b.CSS","index.ts",""]}`, `{"styles":["/a.css"]}`, `{"styles":"a.css"}`} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	writeFiles(f, dir, map[string]string{"index.ts": "", "a.css": "", "sub/b.CSS": "", "sub/dir.css/x": ""})
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, layout.WidgetConfigFile), data, 0o644); err != nil {
			t.Fatal(err)
		}
		w, err := loadWidget(dir, "w", "")
		if err != nil {
			if diag.FromError(err) == nil {
				t.Fatalf("error without a diagnostic: %v", err)
			}
			return
		}
		if !nameRE.MatchString(w.Config.Name) || w.Policy == nil || len(w.Profiles) == 0 {
			t.Fatalf("accepted an invalid config: %+v", w.Config)
		}
		seen := map[string]bool{}
		for _, r := range w.styles {
			st, err := os.Stat(r.path)
			if err != nil || st.IsDir() || !strings.EqualFold(filepath.Ext(r.path), ".css") || seen[r.path] || r.at.Line < 1 {
				t.Fatalf("accepted style %q (%s, line %d): %v", r.spec, r.path, r.at.Line, err)
			}
			seen[r.path] = true
		}
	})
}

// TestSchemasMatchConfig keeps the shipped JSON Schemas in step with the
// fields the loader accepts.
func TestSchemasMatchConfig(t *testing.T) {
	for _, tc := range []struct {
		file string
		path []string
		keys []string
	}{
		{"../widget.schema.json", nil, widgetKeys},
		{"../widget.schema.json", []string{"csp"}, cspKeys},
		{"../widget.schema.json", []string{"permissions"}, permissionKeys},
		{"../widgetd.schema.json", nil, projectKeys},
	} {
		data, err := os.ReadFile(tc.file)
		if err != nil {
			t.Fatal(err)
		}
		var node map[string]any
		if err := json.Unmarshal(data, &node); err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		for _, p := range tc.path {
			node = node["properties"].(map[string]any)[p].(map[string]any)
		}
		if node["additionalProperties"] != false {
			t.Errorf("%s %v: additionalProperties must be false", tc.file, tc.path)
		}
		var got []string
		for k := range node["properties"].(map[string]any) {
			got = append(got, k)
		}
		want := append([]string(nil), tc.keys...)
		sort.Strings(got)
		sort.Strings(want)
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s %v: schema has %v, loader accepts %v", tc.file, tc.path, got, want)
		}
	}
}
