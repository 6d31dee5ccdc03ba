package bundler

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/bundler/internal/sourcemap"
)

// boomTSX throws on line 6; the string is unique in the bundle.
const boomTSX = `type Props = { n: number };

function view(p: Props): string {
  const label: string = "n=" + p.n;
  if (p.n > 1) {
    throw new Error("boom at the source line");
  }
  return label;
}
document.body.textContent = view({ n: location.hash.length + 2 });
`

// TestSourcesLocate builds a TSX widget inline and external and traces a
// place in what the browser receives (the document or the JS file) back to
// the TSX line, with the line's text.
func TestSourcesLocate(t *testing.T) {
	tests := []struct {
		name, publicURL, widgetJSON string
		served                      func(out *Output, name string) []byte
	}{
		{"inline", "", `{"title": "Boom"}`, func(out *Output, name string) []byte {
			return out.Files[out.Manifest.Widgets[0].HTML]
		}},
		{"external", "https://cdn.example.com", `{"title": "Boom", "inline": false}`, func(out *Output, name string) []byte {
			for _, f := range out.Manifest.Widgets[0].Files {
				if strings.HasSuffix(f, ".js") {
					return out.Files[f]
				}
			}
			return nil
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := t.TempDir()
			writeFiles(t, root, map[string]string{"widgets/boom/widget.json": tt.widgetJSON, "widgets/boom/index.tsx": boomTSX})
			_, out := assembleOK(t, Options{Root: root, PublicURL: tt.publicURL, SourceMaps: true})
			for p := range out.Files {
				if strings.HasSuffix(p, ".map") {
					t.Errorf("a source map reached the build's files: %s", p)
				}
			}
			text := tt.served(out, "boom")
			off := bytes.Index(text, []byte("boom at the source line"))
			if off < 0 {
				t.Fatalf("the message is not in the served text:\n%s", text)
			}
			line, col := sourcemap.LineColumn(text, off)
			d, ok := out.Sources.Locate("boom", text, line+1, col+1)
			if !ok {
				t.Fatalf("Locate(%d, %d) found nothing", line+1, col+1)
			}
			if want := filepath.Join("widgets", "boom", "index.tsx"); !strings.HasSuffix(d.File, want) || d.Line != 6 || d.Column < 5 {
				t.Errorf("Locate = %s:%d:%d; want …%s:6:(≥5)", d.File, d.Line, d.Column, want)
			}
			if !strings.Contains(d.Source, `throw new Error("boom at the source line");`) {
				t.Errorf("Source = %q; want the TSX line", d.Source)
			}
			if _, ok := out.Sources.LocateOffset("boom", text, len(text)+5); ok {
				t.Error("an offset past the text was located")
			}
			if _, ok := out.Sources.LocateOffset("other", text, off); ok {
				t.Error("a widget that does not exist was located")
			}
			// Without SourceMaps the build holds no map and locates nothing.
			_, pout := assembleOK(t, Options{Root: root, PublicURL: tt.publicURL})
			if _, ok := pout.Sources.LocateOffset("boom", text, off); ok {
				t.Error("a build without SourceMaps located a place")
			}
		})
	}
	var none *Sources
	if _, ok := none.Locate("boom", []byte("x"), 1, 1); ok {
		t.Error("nil Sources located something")
	}
}

// TestSourcesThroughNodeCompilers: the Vue, Svelte and Solid compilers' own
// source maps are chained into esbuild's, so a place in the bundle traces
// to the .vue, .svelte or .tsx line, not to the compiled code: in a Vue
// <script setup> (template inlined), a classic <script> and a separate
// <template> after it.
func TestSourcesThroughNodeCompilers(t *testing.T) {
	modules := compilerModules(t)
	solidConfig := map[string]string{"widgets/w/tsconfig.json": `{"compilerOptions": {"jsx": "preserve", "jsxImportSource": "solid-js"}}`}
	tests := []struct {
		name, file, content string
		extra               map[string]string
		line                int
		text                string
		message             string // searched in the document; "boom in " + name when empty
	}{
		{name: "svelte", file: "A.svelte", line: 4,
			content: "<script>\n  let count = $state(0);\n  function boom() {\n    throw new Error(\"boom in svelte\");\n  }\n</script>\n\n<button onclick={boom}>{count}</button>\n",
			text:    `throw new Error("boom in svelte");`},
		{name: "vue", file: "A.vue", line: 7,
			content: "<script setup lang=\"ts\">\nimport { ref } from \"vue\"\n\nconst count = ref<number>(0)\n\nfunction boom(): void {\n  throw new Error(\"boom in vue\")\n}\n</script>\n\n<template>\n  <button @click=\"boom\">{{ count }}</button>\n</template>\n",
			text:    `throw new Error("boom in vue")`},
		{name: "vue classic", file: "B.vue", line: 4, message: "boom in a vue method",
			content: "<script>\nexport default {\n  methods: {\n    boom() { throw new Error(\"boom in a vue method\") },\n  },\n}\n</script>\n\n<template>\n  <section>\n    <button @click=\"boom\">{{ \"label\" }}</button>\n  </section>\n</template>\n",
			text:    `boom() { throw new Error("boom in a vue method") },`},
		{name: "vue template", file: "C.vue", line: 16, message: "template-only-marker",
			content: "<script>\nexport default {\n  data: () => ({ n: 1 }),\n}\n</script>\n\n<template>\n  <section>\n    <header>\n      <h1>Title</h1>\n    </header>\n    <ul>\n      <li v-for=\"i in 3\" :key=\"i\">{{ i }}</li>\n    </ul>\n    <p>{{ n }}</p>\n    <p :title=\"'template-only-marker' + n\">{{ n }}</p>\n  </section>\n</template>\n",
			text:    `<p :title="'template-only-marker' + n">{{ n }}</p>`},
		{name: "solid", file: "A.tsx", line: 4, extra: solidConfig,
			content: "type P = { n: number };\nexport default function A(p: P) {\n  const go = () => {\n    throw new Error(\"boom in solid\");\n  };\n  return <button onClick={go}>{p.n}</button>;\n}\n",
			text:    `throw new Error("boom in solid");`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			files := map[string]string{
				"widgets/w/widget.json": widgetJSON("main.ts"),
				"widgets/w/main.ts":     "import A from \"./" + tc.file + "\";\nconsole.log(A);\n",
				"widgets/w/" + tc.file:  tc.content,
			}
			for k, v := range tc.extra {
				files[k] = v
			}
			root := writeProjectWith(t, modules, files)
			opts := testOptions(root)
			opts.SourceMaps = true
			_, out := assembleOK(t, opts)
			doc := out.Files[out.Manifest.Widgets[0].HTML]
			message := tc.message
			if message == "" {
				message = "boom in " + tc.name
			}
			off := bytes.Index(doc, []byte(message))
			if off < 0 {
				t.Fatal("the message is not in the document")
			}
			d, ok := out.Sources.LocateOffset("w", doc, off)
			if !ok {
				t.Fatal("LocateOffset found nothing")
			}
			if !strings.HasSuffix(d.File, filepath.Join("widgets", "w", tc.file)) || d.Line != tc.line || strings.TrimSpace(d.Source) != tc.text {
				t.Errorf("LocateOffset = %s:%d:%d %q; want …%s:%d %q", d.File, d.Line, d.Column, d.Source, tc.file, tc.line, tc.text)
			}
		})
	}
}
