package bundler

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/bundler/internal/contain"
	"github.com/widgetd/widgetd/diag"
	"github.com/widgetd/widgetd/internal/displaypath"
)

// FuzzParseHTMLEntry: any document parses or fails with a located
// diagnostic; inline module scripts keep their HTML line numbers.
func FuzzParseHTMLEntry(f *testing.F) {
	for _, s := range []string{
		`<!doctype html><script type="module">import "./a.ts";</script>`,
		"<html>\n<body>\n<script type=\"module\">\nx()\n</script><script type=module src=./m.ts></script>",
		`<link rel="stylesheet" href="../shared.css"><script type="module"></script>`,
		`<script type="module">`, `<script type="module" src="">`, `<script>`,
	} {
		f.Add(s)
	}
	dir := f.TempDir()
	widgetDir := filepath.Join(dir, "widgets", "w")
	writeFiles(f, dir, map[string]string{"widgets/w/a.ts": "", "widgets/w/m.ts": "", "widgets/shared.css": ""})
	file := filepath.Join(widgetDir, "index.html")
	c, err := contain.New(dir, filepath.Join(dir, "widgets"), nil, 0, displaypath.WorkingDir())
	if err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, doc string) {
		if err := os.WriteFile(file, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		e, err := parseHTMLEntry(file, "index.html", widgetDir, dir, c)
		if err != nil {
			if diag.FromError(err) == nil {
				t.Fatalf("error without a diagnostic: %v", err)
			}
			return
		}
		for _, s := range e.inlineScripts {
			if strings.Count(s, "\n") > strings.Count(doc, "\n") {
				t.Fatalf("inline script has more lines than the document: %q", s)
			}
		}
	})
}

// FuzzRewriteImportMetaURLs: the rewrite never moves a line of the source.
func FuzzRewriteImportMetaURLs(f *testing.F) {
	for _, s := range []string{
		`new URL("./a.png", import.meta.url)`,
		"new Worker(new URL('../w.ts', import.meta.url), {type: 'module'})\nx",
		`new URL("./a\"b", import.meta.url)`,
		"new URL(\n  \"./a.png\",\n  import.meta.url\n)\nnext",
		"new Worker(\n  new URL(\n\"./w.ts\", import.meta.url))\nx",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		out, n := rewriteImportMetaURLs(src)
		if n == 0 {
			if out != src {
				t.Fatalf("changed a source with nothing to rewrite")
			}
			return
		}
		lines := strings.Count(src, "\n")
		if got := strings.Count(out, "\n") - n; got != lines {
			t.Fatalf("rewrite moved lines: %d source newlines, %d before the imports", lines, got)
		}
	})
}
