package bundler

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/bundler/layout"
	"github.com/widgetd/widgetd/diag"
)

// widgetCSS is the CSS of the output's only widget, inline in its HTML.
func widgetCSS(t *testing.T, out *Output) string {
	t.Helper()
	html := firstHTML(out)
	start := strings.Index(html, "<style>")
	end := strings.Index(html, "</style>")
	if start < 0 || end < start {
		t.Fatalf("no inline <style> in the widget:\n%s", html)
	}
	return html[start:end]
}

// TestStylesOrder lists stylesheets in widgetd.json and widget.json that no
// module imports, and checks each reaches the widget's CSS, in the order
// widgetd.json's, widget.json's (as listed), the entry's own; for a script
// entry and for an HTML entry's <link>.
func TestStylesOrder(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
	}{
		{"script entry", map[string]string{
			"widgets/w/widget.json": `{"styles": ["../index.css", "styles.css"]}`,
			"widgets/w/index.ts":    "import \"./own.css\";\ndocument.body.append(\"x\");\n",
		}},
		{"HTML entry", map[string]string{
			"widgets/w/widget.json": `{"styles": ["../index.css", "styles.css"]}`,
			"widgets/w/index.html":  `<!doctype html><html><head><link rel="stylesheet" href="./own.css"></head><body><script type="module" src="./main.ts"></script></body></html>`,
			"widgets/w/main.ts":     "document.body.append(\"x\");\n",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{
				layout.ProjectConfigFile: `{"styles": ["shared/base.css"]}`,
				"shared/base.css":        ".from-project{color:#010101}\n",
				"widgets/index.css":      ".from-shared{color:#020202}\n",
				"widgets/w/styles.css":   ".from-widget{color:#030303}\n",
				"widgets/w/own.css":      ".from-entry{color:#040404}\n",
			}
			for k, v := range tc.files {
				files[k] = v
			}
			root := writeProject(t, files)
			_, out := assembleOK(t, testOptions(root))
			css := widgetCSS(t, out)
			last := -1
			for _, class := range []string{".from-project", ".from-shared", ".from-widget", ".from-entry"} {
				i := strings.Index(css, class)
				if i < 0 {
					t.Fatalf("%s missing from the widget's CSS:\n%s", class, css)
				}
				if i < last {
					t.Errorf("%s comes before the stylesheet listed ahead of it:\n%s", class, css)
				}
				last = i
			}
			for _, w := range out.Warnings {
				if strings.Contains(w.Message, "not imported by any module") {
					t.Errorf("a listed stylesheet is reported unused: %v", w)
				}
			}
		})
	}
}

// TestStylesBadPaths checks that a "styles" entry that names no usable
// stylesheet fails at its place in the config file, with the fix.
func TestStylesBadPaths(t *testing.T) {
	outside := filepath.Join(t.TempDir(), "secret.css")
	if err := os.WriteFile(outside, []byte("a{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, config, list string
		want               string
		file               string // the config file holding the list
	}{
		{"missing", layout.WidgetConfigFile, `"nope.css"`, `styles[0] "nope.css": no such file or directory (paths are relative to the folder of widget.json`, ""},
		{"not css", layout.WidgetConfigFile, `"index.ts"`, `styles[0] "index.ts" is not a .css file`, ""},
		{"absolute", layout.WidgetConfigFile, `"/etc/x.css"`, `must be a path relative to this file's folder`, ""},
		{"empty", layout.WidgetConfigFile, `""`, `styles[0] is empty`, ""},
		{"folder", layout.WidgetConfigFile, `"dir.css"`, `styles[0] "dir.css" is a folder`, ""},
		{"twice", layout.WidgetConfigFile, `"a.css", "./a.css"`, `styles[1] "./a.css" names the same file as styles[0]`, ""},
		{"outside the project", layout.WidgetConfigFile, `"a.css", "link.css"`, `"link.css" resolves through a symlink at`, ""},
		{"missing in widgetd.json", layout.ProjectConfigFile, `"widgets/nope.css"`, `styles[0] "widgets/nope.css": no such file or directory (paths are relative to the folder of widgetd.json`, ""},
		{"outside the project in widgetd.json", layout.ProjectConfigFile, `"widgets/w/link.css"`, `outside the project`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cfg := "{\n  \"title\": \"T\",\n  \"styles\": [" + tc.list + "]\n}\n"
			files := map[string]string{
				"widgets/w/widget.json":   `{}`,
				"widgets/w/index.ts":      "document.body.append(\"x\");\n",
				"widgets/w/a.css":         "a{}\n",
				"widgets/w/dir.css/x.css": "a{}\n",
			}
			configPath := "widgets/w/widget.json"
			if tc.config == layout.ProjectConfigFile {
				configPath = layout.ProjectConfigFile
				cfg = "{\n  \"outDir\": \"dist\",\n  \"styles\": [" + tc.list + "]\n}\n"
			}
			files[configPath] = cfg
			root := writeProject(t, files)
			if err := os.Symlink(outside, filepath.Join(root, "widgets", "w", "link.css")); err != nil {
				t.Fatal(err)
			}
			t.Chdir(root)
			b, err := New(testOptions(root))
			if err == nil {
				t.Cleanup(b.Close)
				_, err = b.Assemble(t.Context())
			}
			if err == nil {
				t.Fatal("build succeeded")
			}
			d := diag.FromError(err)
			if len(d) != 1 {
				t.Fatalf("want one diagnostic, got %v", err)
			}
			if !strings.Contains(d[0].Message, tc.want) {
				t.Errorf("message %q lacks %q", d[0].Message, tc.want)
			}
			if !strings.HasSuffix(filepath.ToSlash(d[0].File), configPath) || d[0].Line != 3 || d[0].Column < 3 {
				t.Errorf("diagnostic at %s, want %s:3:… (the \"styles\" entry)", d[0].Location(), configPath)
			}
		})
	}
}

// TestUnusedStylesheetWarning checks that a .css file in a widget folder,
// or directly in the widgets folder, that nothing imports or lists is a
// warning naming the field that would include it, and that a stylesheet
// imported by a module, by another stylesheet or listed in "styles" is not.
func TestUnusedStylesheetWarning(t *testing.T) {
	root := writeProject(t, map[string]string{
		"widgets/w/widget.json":          `{"styles": ["listed.css"]}`,
		"widgets/w/index.ts":             "import \"./imported.css\";\nimport raw from \"./raw.css?raw\";\ndocument.body.append(raw);\n",
		"widgets/w/imported.css":         "@import \"./nested.css\";\n.a{color:red}\n",
		"widgets/w/nested.css":           ".n{color:blue}\n",
		"widgets/w/listed.css":           ".l{color:green}\n",
		"widgets/w/forgotten.css":        ".f{color:gray}\n",
		"widgets/w/parts/deep.css":       ".d{color:gray}\n",
		"widgets/w/node_modules/x/x.css": ".x{}\n",
		"widgets/w/raw.css":              ".r{}\n",
		"widgets/w/dist/assets/old.css":  ".o{}\n",
		"widgets/w/public/p.css":         ".p{}\n",
		"widgets/w/.cache/h.css":         ".h{}\n",
		"widgets/index.css":              ".shared{color:black}\n",
	})
	t.Chdir(root)
	_, out := assembleOK(t, testOptions(root))
	want := map[string]string{
		filepath.Join("widgets", "w", "forgotten.css"):     `add it to "styles" in widgets/w/widget.json ("styles": ["forgotten.css"])`,
		filepath.Join("widgets", "w", "parts", "deep.css"): `("styles": ["parts/deep.css"])`,
		filepath.Join("widgets", "index.css"):              `add it to "styles" in widgetd.json ("styles": ["widgets/index.css"]), or to one widget's widget.json ("styles": ["../index.css"])`,
	}
	got := map[string]bool{}
	for _, w := range out.Warnings {
		if !strings.Contains(w.Message, "nor listed in \"styles\"") {
			continue
		}
		fix, ok := want[w.File]
		if !ok {
			t.Errorf("warning about a stylesheet the build uses: %v", w)
			continue
		}
		got[w.File] = true
		if !w.Warning || !strings.Contains(w.Message, fix) {
			t.Errorf("warning for %s = %q, want one containing %q", w.File, w.Message, fix)
		}
	}
	for f := range want {
		if !got[f] {
			t.Errorf("no warning about %s: %v", f, out.Warnings)
		}
	}
}

// TestStylesMissingTailwindNamesTheWidgets: a shared Tailwind stylesheet
// the widgets list, in a pnpm project whose install did not bring Tailwind,
// fails naming the widgets that list it and the pnpm command to run where.
func TestStylesMissingTailwindNamesTheWidgets(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatal("needs Node.js")
	}
	root := writeProject(t, map[string]string{
		"widgets/package.json":   `{"private": true}`,
		"widgets/pnpm-lock.yaml": "lockfileVersion: '9.0'\n",
		"widgets/index.css":      "@import \"tailwindcss\";\n",
		"widgets/a/widget.json":  `{"styles": ["../index.css"]}`,
		"widgets/a/index.ts":     "document.body.className = \"p-4\";\n",
		"widgets/b/widget.json":  `{"styles": ["../index.css"]}`,
		"widgets/b/index.ts":     "document.body.className = \"p-2\";\n",
		"widgets/c/widget.json":  `{}`,
		"widgets/c/index.ts":     "document.body.append(\"c\");\n",
	})
	_, _, err := assembleProject(t, testOptions(root))
	if err == nil {
		t.Fatal("build without Tailwind installed succeeded")
	}
	for _, want := range []string{`widgets "a", "b": Tailwind CSS v4 needs the npm package @tailwindcss/node`, "run `pnpm add -D tailwindcss @tailwindcss/node @tailwindcss/oxide` in " + filepath.Join(root, "widgets") + string(filepath.Separator)} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
}

// TestUnusedStylesheetWarningTailwindImports: a stylesheet that only
// Tailwind's compiler reads (an @import inside a Tailwind root, which
// esbuild never sees) is part of the build, not unused.
func TestUnusedStylesheetWarningTailwindImports(t *testing.T) {
	modules := fixtureModules(t, "frameworks", "@tailwindcss/node")
	root := writeProjectWith(t, modules, map[string]string{
		"widgets/w/widget.json": `{"styles": ["app.css"]}`,
		"widgets/w/index.ts":    "document.body.className = \"text-brand p-4\";\n",
		"widgets/w/app.css":     "@import \"tailwindcss\";\n@import \"./theme.css\";\n",
		"widgets/w/theme.css":   "@theme { --color-brand: #0a7d45; }\n",
	})
	_, out := assembleOK(t, testOptions(root))
	if css := widgetCSS(t, out); !strings.Contains(css, "--color-brand: #0a7d45") || !strings.Contains(css, ".text-brand{color:var(--color-brand)}") {
		t.Errorf("the listed Tailwind stylesheet did not compile with its @import:\n%s", css)
	}
	for _, w := range out.Warnings {
		if strings.Contains(w.Message, "nor listed in \"styles\"") {
			t.Errorf("warning about a stylesheet Tailwind read: %v", w)
		}
	}
}
