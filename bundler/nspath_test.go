package bundler

import (
	"path/filepath"
	"testing"

	"github.com/evanw/esbuild/pkg/api"

	"github.com/widgetd/widgetd/diag"
)

// A message located in a module of widgetd's own namespaces names the file
// as it did when those paths were absolute: the component's style here, in
// both build modes, though esbuild now sees a root-relative path.
func TestComponentStyleMessageNamesTheFile(t *testing.T) {
	modules := compilerModules(t)
	root := writeProjectWith(t, modules, map[string]string{
		"widgets/w/widget.json": widgetJSON("main.ts"),
		"widgets/w/main.ts":     "import A from \"./A.vue\";\nconsole.log(A);\n",
		"widgets/w/A.vue":       "<template><p class=\"a\">a</p></template>\n<style>\n.a { background: url(./missing.png); }\n</style>\n",
	})
	for _, publicURL := range []string{"", "https://cdn.example.com/w"} {
		opts := testOptions(root)
		opts.PublicURL = publicURL
		b, _, err := assembleProject(t, opts)
		diags := diag.FromError(err)
		if len(diags) != 1 {
			t.Fatalf("public URL %q: want one diagnostic, got %v", publicURL, err)
		}
		file := filepath.Join(root, "widgets", "w", "A.vue")
		want := b.displayPath(filepath.Join(root, compiledStyleNamespace+":"+file))
		if d := diags[0]; d.File != want || d.Line != 2 || d.Column != 18 {
			t.Errorf("public URL %q: got %s:%d:%d, want %s:2:18", publicURL, d.File, d.Line, d.Column, want)
		}
	}
}

// absLocation gives a root-relative namespaced location its file back and
// leaves every other location alone.
func TestAbsLocation(t *testing.T) {
	root := t.TempDir()
	b := &Builder{settings: settings{root: root}}
	abs := filepath.Join(root, "widgets", "w", "a.svg")
	for _, tc := range []struct{ ns, file, want string }{
		{rawNamespace, rawNamespace + ":widgets/w/a.svg", rawNamespace + ":" + abs},
		{"", urlNamespace + ":widgets/w/a.svg", urlNamespace + ":" + abs},
		{compiledStyleNamespace, compiledStyleNamespace + ":widgets/w/a.svg", compiledStyleNamespace + ":" + abs},
		{workerFileNamespace, workerFileNamespace + ":widgets/w/a.svg", workerFileNamespace + ":" + abs},
		{workerNamespace, workerNamespace + ":../outside/a.svg", workerNamespace + ":" + filepath.Join(filepath.Dir(root), "outside", "a.svg")},
		{inlineNamespace, inlineNamespace + ":" + abs, inlineNamespace + ":" + abs},
		{inlineScriptNamespace, inlineScriptNamespace + ":w:0", inlineScriptNamespace + ":w:0"},
		{bridgeNamespace, bridgeNamespace + ":react.tsx?resolve-dir=widgets/w", bridgeNamespace + ":react.tsx?resolve-dir=widgets/w"},
		{"file", rawNamespace + ":x", rawNamespace + ":x"},
		{"", "widgets/w/index.ts", "widgets/w/index.ts"},
	} {
		m := b.absLocation(api.Message{Text: "t", Location: &api.Location{Namespace: tc.ns, File: tc.file}})
		if m.Location.File != tc.want {
			t.Errorf("%s %s: got %s, want %s", tc.ns, tc.file, m.Location.File, tc.want)
		}
	}
	if m := b.absLocation(api.Message{Text: "t"}); m.Location != nil {
		t.Errorf("a message without a location got one: %+v", m.Location)
	}
}
