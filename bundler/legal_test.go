package bundler

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/bundler/layout"
)

// TestLegalComments: a package's licence comment leaves the widget's bundle
// for dist/assets/<widget>-<hash>.licenses.txt, which the manifest names
// (widget "licenses" and the file list) and the HTML does not load; a widget
// without one gets no file; "legalComments": "inline" keeps it in the
// bundle, as before.
func TestLegalComments(t *testing.T) {
	const licence = "Copyright (c) 2026 Licensed Widgets Inc."
	files := map[string]string{
		"node_modules/licensed/package.json": `{"name": "licensed", "type": "module", "main": "index.js"}`,
		"node_modules/licensed/index.js":     "/*! licensed v1 | " + licence + " | MIT */\nexport const hello = () => \"hello from licensed\";\n",
		"widgets/with/widget.json":           widgetJSON("main.ts"),
		"widgets/with/main.ts":               `import { hello } from "licensed"; document.body.textContent = hello();`,
		"widgets/without/widget.json":        widgetJSON("main.ts"),
		"widgets/without/main.ts":            `document.body.textContent = "plain";`,
	}
	for _, mode := range []string{"", `{"legalComments": "file"}`, `{"legalComments": "inline"}`} {
		t.Run("mode "+mode, func(t *testing.T) {
			files := maps.Clone(files)
			if mode != "" {
				files[layout.ProjectConfigFile] = mode
			}
			_, out := assembleOK(t, testOptions(writeProject(t, files)))
			inline := strings.Contains(mode, "inline")
			listed := map[string]bool{}
			for _, f := range out.Manifest.Files {
				listed[f.Path] = true
			}
			for _, w := range out.Manifest.Widgets {
				html := string(out.Files[w.HTML])
				if !strings.Contains(html, "hello from licensed") && w.Name == "with" {
					t.Fatalf("widget %s lacks its code", w.Name)
				}
				if got := strings.Contains(html, licence); got != (inline && w.Name == "with") {
					t.Errorf("widget %s: licence in the HTML: %v", w.Name, got)
				}
				wantFile := !inline && w.Name == "with"
				if (w.Licenses != "") != wantFile {
					t.Fatalf("widget %s: licenses %q, want a file: %v", w.Name, w.Licenses, wantFile)
				}
				if !wantFile {
					continue
				}
				if !strings.HasPrefix(w.Licenses, "assets/with-") || !strings.HasSuffix(w.Licenses, ".licenses.txt") || !listed[w.Licenses] {
					t.Errorf("licences file %q: want assets/with-<hash>.licenses.txt listed in the manifest's files", w.Licenses)
				}
				if text := string(out.Files[w.Licenses]); !strings.Contains(text, licence) || !strings.Contains(text, "licensed/index.js") {
					t.Errorf("licences file holds %q", text)
				}
				if strings.Contains(html, w.Licenses) || slices.Contains(w.Files, w.Licenses) {
					t.Errorf("the HTML loads the licences file")
				}
			}
		})
	}
}
