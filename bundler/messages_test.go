package bundler

import (
	"context"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/diag"
)

// oneWidgetProject writes widgets/w/widget.json ({}) and then files into a
// new project folder, makes it the working directory (messages show paths
// relative to it) and returns it.
func oneWidgetProject(t *testing.T, files map[string]string) string {
	t.Helper()
	root := writeProject(t, map[string]string{"widgets/w/widget.json": `{}`})
	writeFiles(t, root, files)
	t.Chdir(root)
	return root
}

// TestAuthorMessages builds real broken widgets and checks that esbuild's
// messages reach the author rewritten: no Go API names, one line each, and
// the fix in widgetd's terms.
func TestAuthorMessages(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  []string
	}{
		{"missing package", map[string]string{
			"widgets/w/package.json": `{"name": "w"}`,
			"widgets/w/index.ts":     `import x from "left-pad-not-installed"; console.log(x);`,
		}, []string{`the package "left-pad-not-installed" is not installed; run ` + "`npm install left-pad-not-installed`" + ` in widgets/w`}},
		{"missing scoped package, package.json above", map[string]string{
			"package.json":       `{"name": "project"}`,
			"widgets/w/index.ts": `import { x } from "@scope/thing/sub"; console.log(x);`,
		}, []string{"`npm install @scope/thing` in ."}},
		{"node built-in", map[string]string{
			"widgets/w/index.ts": `import fs from "fs"; console.log(fs);`,
		}, []string{`"fs" is a Node.js built-in module`}},
		{"jsx in .js", map[string]string{
			"widgets/w/index.js": `const a = <div/>; console.log(a);`,
		}, []string{"rename the file to .jsx"}},
		{"unknown file type", map[string]string{
			"widgets/w/index.ts": `import t from "./a.hbs"; console.log(t);`,
			"widgets/w/a.hbs":    `<p>{{name}}</p>`,
		}, []string{`widgetd cannot bundle ".hbs" files`, `"./file.hbs?raw"`}},
		{"subpath not exported", map[string]string{
			"widgets/w/index.ts":                      `import "pkg/x";`,
			"widgets/w/node_modules/pkg/package.json": `{"name": "pkg", "exports": {".": "./i.js", "./x": {"types": "./x.d.ts"}}}`,
			"widgets/w/node_modules/pkg/i.js":         `export default 1;`,
		}, []string{`package "pkg" exports no "./x" for the browser (its exports name the conditions "types")`}},
		{"stylesheet package from JS", map[string]string{
			"widgets/w/index.ts":                        `import "sheet";`,
			"widgets/w/node_modules/sheet/package.json": `{"name": "sheet", "exports": {".": {"style": "./s.css"}}}`,
			"widgets/w/node_modules/sheet/s.css":        `body{color:red}`,
		}, []string{`it is a stylesheet: @import it from a .css file`}},
		{"tailwind without its compiler", map[string]string{
			"widgets/w/index.ts": `import "./a.css";`,
			"widgets/w/a.css":    `@import "tailwindcss";`,
			"widgets/w/node_modules/tailwindcss/package.json": `{"name": "tailwindcss", "exports": {".": {"types": "./x.d.ts", "style": "./index.css", "import": "./lib.mjs"}}}`,
			"widgets/w/node_modules/tailwindcss/index.css":    `@theme { --color-x: red; } @tailwind utilities;`,
		}, []string{"Tailwind CSS v4 needs the npm package @tailwindcss/node, which is not installed for this widget", "run `npm install -D tailwindcss @tailwindcss/node @tailwindcss/oxide` in ./"}},
		{"exports leading to a missing file", map[string]string{
			"widgets/w/index.ts":                      `import x from "pkg"; console.log(x);`,
			"widgets/w/node_modules/pkg/package.json": `{"name": "pkg", "exports": {".": {"import": "./missing.js"}}}`,
		}, []string{`the package "pkg" is installed, but its package.json does not lead to a file: The module "./missing.js" was not found on the file system (widgets/w/node_modules/pkg/package.json:1:`, `check the package's "exports"`}},
		{"exports target that is invalid", map[string]string{
			"widgets/w/index.ts":                      `import x from "pkg"; console.log(x);`,
			"widgets/w/node_modules/pkg/package.json": `{"name": "pkg", "exports": {".": "index.js"}}`,
			"widgets/w/node_modules/pkg/index.js":     `export default 1;`,
		}, []string{`the package "pkg" is installed, but its package.json does not lead to a file: The package target "index.js" is invalid because it doesn't start with "./"`}},
		{"missing relative file", map[string]string{
			"widgets/w/index.ts": `import "./nope.css";`,
		}, []string{`Could not resolve "./nope.css": no such file`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := oneWidgetProject(t, tc.files)
			_, err := Build(context.Background(), Options{Root: root, NoCompress: true, NoCache: true})
			if err == nil {
				t.Fatal("build succeeded")
			}
			diags := diag.FromError(err)
			if len(diags) == 0 {
				t.Fatalf("no diagnostics: %v", err)
			}
			var all []string
			for _, d := range diags {
				if strings.Contains(d.Message, "\n") {
					t.Errorf("message spans lines: %q", d.Message)
				}
				for _, bad := range []string{"Conditions:", "[]string", "api.", "as external", ":;", "Loader:", "Platform"} {
					if strings.Contains(d.Message, bad) {
						t.Errorf("message speaks esbuild's API (%q): %s", bad, d.Message)
					}
				}
				all = append(all, d.Message)
			}
			got := strings.Join(all, "\n")
			for _, w := range tc.want {
				if !strings.Contains(got, w) {
					t.Errorf("messages lack %q:\n%s", w, got)
				}
			}
		})
	}
}

// TestLocatedNotes builds a real JSX error whose esbuild note points at
// another place (the opening tag a closing tag does not match): the note
// is kept as a located Note, printed as a line of its own, and left out of
// the message text.
func TestLocatedNotes(t *testing.T) {
	root := oneWidgetProject(t, map[string]string{
		"widgets/w/index.tsx": "const title = \"x\";\nexport const a = <div>\n  <h1>{title}</h2>\n</div>;\n",
	})
	_, err := Build(context.Background(), Options{Root: root, NoCompress: true, NoCache: true})
	var mismatch *diag.Diagnostic
	for _, d := range diag.FromError(err) {
		if strings.HasPrefix(d.Message, `Unexpected closing "h2" tag`) {
			mismatch = &d
		}
	}
	if mismatch == nil {
		t.Fatalf("no mismatched-tag diagnostic in: %v", err)
	}
	if strings.Contains(mismatch.Message, "is here") {
		t.Errorf("the note is still joined into the message: %q", mismatch.Message)
	}
	want := diag.Note{File: "widgets/w/index.tsx", Line: 3, Column: 4, Message: `The opening "h1" tag is here`, Source: "  <h1>{title}</h2>"}
	if len(mismatch.Notes) != 1 || mismatch.Notes[0] != want {
		t.Fatalf("notes = %+v, want [%+v]", mismatch.Notes, want)
	}
	text := mismatch.String()
	wantText := "widgets/w/index.tsx:3:16: error: Unexpected closing \"h2\" tag does not match opening \"h1\" tag\n" +
		"      <h1>{title}</h2>\n" +
		"                   ^\n" +
		"widgets/w/index.tsx:3:4: note: The opening \"h1\" tag is here\n" +
		"      <h1>{title}</h2>\n" +
		"       ^"
	if text != wantText {
		t.Errorf("String() =\n%s\nwant\n%s", text, wantText)
	}
}
