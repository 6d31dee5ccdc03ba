package bundler

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

func TestMountIDs(t *testing.T) {
	for _, tc := range []struct {
		name, configured, js string
		want                 []string
	}{
		{"nothing looked up", "", `document.body.append("x")`, []string{"root", "w-root"}},
		{"computed id", "", "document.getElementById(`${n}-root`)", []string{"root", "w-root"}},
		{"root", "", `createRoot(document.getElementById("root"))`, []string{"root"}},
		{"openai name-root", "", `const e=document.getElementById("pizzaz-list-root");if(!e)throw 1`, []string{"pizzaz-list-root"}},
		{"both, in order", "", `a.getElementById('shop-root')||a.getElementById("root")`, []string{"shop-root", "root"}},
		{"querySelector", "", "document.querySelector(`#app`)", []string{"app"}},
		{"non-mount ids ignored", "", `getElementById("server-time");getElementById("btn")`, []string{"root", "w-root"}},
		{"configured wins", "main", `getElementById("pizzaz-list-root")`, []string{"main"}},
	} {
		got := mountIDs(tc.configured, "w", []byte(tc.js))
		if strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("%s: mountIDs = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestRewriteImportMetaURLs(t *testing.T) {
	src := "const a = new URL('./a.png', import.meta.url);\nconst w = new Worker(new URL(\"./w.ts\", import.meta.url), { type: \"module\" });\nconst c = new URL(\"https://x.example/\", import.meta.url);\n"
	got, n := rewriteImportMetaURLs(src)
	if n != 2 {
		t.Fatalf("rewrote %d URLs, want 2:\n%s", n, got)
	}
	lines := strings.Split(got, "\n")
	for i, want := range []string{
		"const a = new URL(__widgetd_url0, import.meta.url);",
		`const w = new Worker(new URL(__widgetd_url1, import.meta.url), { type: "module" });`,
		`const c = new URL("https://x.example/", import.meta.url);`,
	} {
		if lines[i] != want {
			t.Errorf("line %d = %q, want %q (line numbers must not move)", i+1, lines[i], want)
		}
	}
	if !strings.Contains(got, `import __widgetd_url0 from "./a.png?url";`) || !strings.Contains(got, `import __widgetd_url1 from "./w.ts?worker&url";`) {
		t.Errorf("imports missing:\n%s", got)
	}
}

func TestResolveStyle(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"node_modules/cond/package.json":          `{"exports": {".": {"types": "./i.d.ts", "style": "./s.css", "import": "./i.js"}, "./extra": {"style": "./e.css"}}}`,
		"node_modules/cond/s.css":                 `a{}`,
		"node_modules/cond/e.css":                 `b{}`,
		"node_modules/field/package.json":         `{"style": "dist/f.css", "main": "index.js"}`,
		"node_modules/field/dist/f.css":           `c{}`,
		"node_modules/@sc/nested/package.json":    `{"exports": {".": {"browser": {"style": "./n.css"}, "default": "./n.js"}}}`,
		"node_modules/@sc/nested/n.css":           `d{}`,
		"node_modules/js-only/package.json":       `{"exports": {".": "./i.js"}}`,
		"node_modules/escape/package.json":        `{"exports": {".": {"style": "../../secret.css"}}}`,
		"src/deep/here.css":                       ``,
		"node_modules/missing-file/package.json":  `{"exports": {".": {"style": "./nope.css"}}}`,
		"node_modules/cond/nested/package.json":   `{}`,
		"node_modules/field-sub/package.json":     `{"style": "x.css"}`,
		"node_modules/field-sub/x.css":            ``,
		"node_modules/field-sub/sub/package.json": `{}`,
	})
	from := filepath.Join(root, "src", "deep")
	for spec, want := range map[string]string{
		"cond":          "node_modules/cond/s.css",
		"cond/extra":    "node_modules/cond/e.css",
		"field":         "node_modules/field/dist/f.css",
		"@sc/nested":    "node_modules/@sc/nested/n.css",
		"js-only":       "",
		"escape":        "",
		"missing-file":  "",
		"not-installed": "",
		"field-sub/sub": "",
	} {
		got := resolveStyle(from, spec)
		if want != "" {
			want = filepath.Join(root, want)
		}
		if got != want {
			t.Errorf("resolveStyle(%q) = %q, want %q", spec, got, want)
		}
	}
}

// TestHTMLEntryConventions builds an HTML entry with an inline module
// script and a stylesheet shared from the widgets folder, and checks both
// end up in the page.
func TestHTMLEntryConventions(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"widgets/shared.css":       `.shared{color:rgb(1,2,3)}`,
		"widgets/page/widget.json": `{}`,
		"widgets/page/index.html": `<!doctype html><html><head><link rel="stylesheet" href="../shared.css"></head><body><p id="out"></p>` +
			"<script type=\"module\">\nimport t from \"./t.txt?raw\";\ndocument.getElementById(\"out\").textContent = t + import.meta.env.MODE;\n</script></body></html>",
		"widgets/page/t.txt": "text-",
	})
	b, out := assembleOK(t, Options{Root: root, NoCache: true})
	doc := string(out.Files[out.Manifest.Widgets[0].HTML])
	for _, want := range []string{`color:#010203`, `"text-"`, `"production"`, `<p id="out"></p>`} {
		if !strings.Contains(doc, want) {
			t.Errorf("page lacks %s:\n%s", want, doc)
		}
	}
	if strings.Contains(doc, "t.txt?raw") || strings.Contains(doc, "import.meta.env") {
		t.Errorf("inline script left unbundled:\n%s", doc)
	}

	// A link outside the project is refused, naming the file.
	writeFiles(t, root, map[string]string{"widgets/page/index.html": `<!doctype html><html><head><link rel="stylesheet" href="../../../outside.css"></head><body><script type="module" src="./m.ts"></script></body></html>`, "widgets/page/m.ts": ``})
	_, err := b.Assemble(context.Background())
	if err == nil || !strings.Contains(err.Error(), `"../../../outside.css" is outside the project`) {
		t.Errorf("err = %v, want outside the project", err)
	}
}

// TestInlineSuffix checks ?inline: a stylesheet comes back as its bundled,
// minified text and is not added to the page; another file as a data: URL.
func TestInlineSuffix(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"widgets/w/widget.json": `{}`,
		"widgets/w/index.ts":    "import css from \"./sheet.css?inline\";\nimport icon from \"./dot.svg?inline\";\ndocument.body.dataset.css = css;\ndocument.body.dataset.icon = icon;\n",
		"widgets/w/sheet.css":   "@import \"./base.css\";\n.card { color: rgb(1, 2, 3); }\n",
		"widgets/w/base.css":    ".base { margin: 0px; }\n",
		"widgets/w/dot.svg":     `<svg xmlns="http://www.w3.org/2000/svg"/>`,
	})
	_, out := assembleOK(t, Options{Root: root, NoCache: true, PublicURL: "https://cdn.example.com/w"})
	w := out.Manifest.Widgets[0]
	var js string
	for _, f := range w.Files {
		if strings.HasSuffix(f, ".css") {
			t.Errorf("?inline stylesheet became a page stylesheet %s", f)
		}
		if strings.HasSuffix(f, ".js") {
			js = string(out.Files[f])
		}
	}
	for _, want := range []string{`.base{margin:0}.card{color:#010203}`, `data:image/svg+xml`} {
		if !strings.Contains(js, want) {
			t.Errorf("bundle lacks %s:\n%s", want, js)
		}
	}
}
