package bundler

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/widgetd/widgetd/bundler/layout"
	"github.com/widgetd/widgetd/diag"
)

// compilerModules is the node_modules of the framework fixtures, which hold
// every compiler these tests drive (installed by scripts/test from the
// committed lockfile).
func compilerModules(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "e2e", "testdata", "frameworks", "node_modules"))
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range []string{"vue", "svelte", "babel-preset-solid", "@tailwindcss/node"} {
		if _, err := os.Stat(filepath.Join(dir, pkg, "package.json")); err != nil {
			t.Fatalf("npm packages missing; run `npm ci` in %s", filepath.Dir(dir))
		}
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatal("these tests drive the real npm compilers; install Node.js 20+")
	}
	return dir
}

// writeProject writes files (path → content) under a new project root.
func writeProject(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	writeFiles(t, root, files)
	return root
}

const testWidgetJSON = `{"title": "T", "description": "D", "entry": "%s"}`

func widgetJSON(entry string) string { return strings.Replace(testWidgetJSON, "%s", entry, 1) }

// testOptions are the options of an in-memory test build of the project at
// root: no cache, no compression.
func testOptions(root string) Options {
	return Options{Root: root, OutDir: filepath.Join(root, "dist"), NoCache: true, NoCompress: true}
}

// assembleProject assembles opts in memory with a new Builder (closed when
// the test ends) and returns the Builder, the output and the build's error.
func assembleProject(t *testing.T, opts Options) (*Builder, *Output, error) {
	t.Helper()
	b, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(b.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := b.Assemble(ctx)
	return b, out, err
}

// assembleOK is assembleProject for a build that must succeed.
func assembleOK(t *testing.T, opts Options) (*Builder, *Output) {
	t.Helper()
	b, out, err := assembleProject(t, opts)
	if err != nil {
		t.Fatal(err)
	}
	return b, out
}

// firstHTML is the HTML of the output's first widget.
func firstHTML(out *Output) string { return string(out.Files[out.Manifest.Widgets[0].HTML]) }

// writeProjectWith is writeProject with node_modules linked to modules. A
// node_modules that links outside the project is read only from a folder
// named in allowOutside (bundler/internal/contain), so the project names it.
func writeProjectWith(t *testing.T, modules string, files map[string]string) string {
	t.Helper()
	if _, ok := files[layout.ProjectConfigFile]; !ok {
		files[layout.ProjectConfigFile] = fmt.Sprintf(`{"allowOutside": [%q]}`, modules)
	}
	root := writeProject(t, files)
	if err := os.Symlink(modules, filepath.Join(root, "node_modules")); err != nil {
		t.Fatal(err)
	}
	return root
}

// fixtureModules is the node_modules of e2e/testdata/<fixture>, failing the
// test unless it holds pkg.
func fixtureModules(t *testing.T, fixture, pkg string) string {
	t.Helper()
	modules, err := filepath.Abs(filepath.Join("..", "e2e", "testdata", fixture, "node_modules"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(modules, pkg, "package.json")); err != nil {
		t.Fatalf("npm packages missing; run `npm ci` in %s", filepath.Dir(modules))
	}
	return modules
}

// Compile errors point at the line and column in the .vue/.svelte/.tsx/.css
// file the author wrote, with the source line.
func TestCompilerErrorsPointAtTheSource(t *testing.T) {
	modules := compilerModules(t)
	cases := []struct {
		name, file, content string
		extra               map[string]string
		line, col           int
		msg                 string
	}{
		{name: "vue template", file: "A.vue", content: "<script setup>\nconst a = 1\n</script>\n\n<template>\n  <div>\n    <p>{{ a </p>\n  </div>\n</template>\n",
			line: 7, col: 8, msg: "Interpolation end sign was not found"},
		{name: "vue script", file: "A.vue", content: "<script setup lang=\"ts\">\nconst a: number = 1\nconst b = (;\n</script>\n<template><p>{{ a }}</p></template>\n",
			line: 3, msg: "Unexpected token"},
		{name: "svelte", file: "A.svelte", content: "<script>\n  let x = $state(0);\n</script>\n\n<p>{x</p>\n",
			line: 5, col: 8, msg: "Unterminated"},
		{name: "solid", file: "A.tsx", content: "const a = 1;\nexport default <div>{a</div>;\n",
			extra: map[string]string{"widgets/w/tsconfig.json": `{"compilerOptions": {"jsx": "preserve", "jsxImportSource": "solid-js"}}`},
			line:  2, msg: "Unterminated"},
		{name: "tailwind", file: "A.css", content: "@import \"tailwindcss\";\n\n.btn {\n  @apply bg-nonexistent-500;\n}\n",
			line: 4, col: 10, msg: "Cannot apply unknown utility class `bg-nonexistent-500`"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			files := map[string]string{
				"widgets/w/widget.json": widgetJSON("main.ts"),
				"widgets/w/main.ts":     "import A from \"./" + tc.file + "\";\nconsole.log(A);\n",
				"widgets/w/" + tc.file:  tc.content,
			}
			if strings.HasSuffix(tc.file, ".css") {
				files["widgets/w/main.ts"] = "import \"./" + tc.file + "\";\n"
			}
			for k, v := range tc.extra {
				files[k] = v
			}
			root := writeProjectWith(t, modules, files)
			_, _, err := assembleProject(t, testOptions(root))
			diags := diag.FromError(err)
			if len(diags) != 1 {
				t.Fatalf("want one diagnostic, got %v", err)
			}
			d := diags[0]
			if !strings.HasSuffix(d.File, filepath.Join("widgets", "w", tc.file)) || d.Line != tc.line || (tc.col != 0 && d.Column != tc.col) || !strings.Contains(d.Message, tc.msg) || d.Source == "" {
				t.Errorf("got %s:%d:%d %q (source %q), want %s:%d:%d containing %q", d.File, d.Line, d.Column, d.Message, d.Source, tc.file, tc.line, tc.col, tc.msg)
			}
		})
	}
}

// Without Node on PATH, a widget that needs a compiler fails naming the
// widget, the file and the npm install to run; nothing is half-built.
func TestMissingNodeNamesWidgetFileAndInstall(t *testing.T) {
	root := writeProject(t, map[string]string{
		"package.json":               `{"private": true}`,
		"widgets/card/widget.json":   widgetJSON("main.ts"),
		"widgets/card/main.ts":       "import App from \"./App.svelte\";\nconsole.log(App);\n",
		"widgets/card/App.svelte":    "<p>hi</p>\n",
		"widgets/plain/widget.json":  widgetJSON("main.ts"),
		"widgets/plain/main.ts":      "document.body.textContent = \"plain\";\n",
		"widgets/plain/App.svelte.d": "not a component",
	})
	t.Setenv("PATH", t.TempDir())
	b, _, err := assembleProject(t, testOptions(root))
	if err == nil {
		t.Fatal("build without Node succeeded")
	}
	msg := err.Error()
	for _, want := range []string{filepath.Join("widgets", "card", "App.svelte"), `widget "card"`, "Node.js", "node is not on PATH", "npm install -D svelte", "in " + root} {
		if !strings.Contains(msg, want) {
			t.Errorf("error lacks %q:\n%s", want, msg)
		}
	}
	if b.compilers.node.Started() != 0 {
		t.Error("a Node process was counted as started")
	}
}

// A missing npm package names the exact install and the folder (the
// nearest package.json above the widget).
func TestMissingPackageSaysWhatToInstallWhere(t *testing.T) {
	if _, err := exec.LookPath("node"); err != nil {
		t.Fatal("needs Node.js")
	}
	cases := map[string]struct {
		file, content, install string
		lock                   string // the lock file beside package.json, "" for none
	}{
		"vue":           {"App.vue", "<template><p>hi</p></template>\n", "npm install -D vue", ""},
		"svelte":        {"App.svelte", "<p>hi</p>\n", "npm install -D svelte", ""},
		"tailwind":      {"app.css", "@import \"tailwindcss\";\n", "npm install -D tailwindcss @tailwindcss/node @tailwindcss/oxide", ""},
		"tailwind pnpm": {"app.css", "@import \"tailwindcss\";\n", "pnpm add -D tailwindcss @tailwindcss/node @tailwindcss/oxide", "pnpm-lock.yaml"},
		"tailwind yarn": {"app.css", "@import \"tailwindcss\";\n", "yarn add -D tailwindcss @tailwindcss/node @tailwindcss/oxide", "yarn.lock"},
		"vue pnpm":      {"App.vue", "<template><p>hi</p></template>\n", "pnpm add -D vue", "pnpm-lock.yaml"},
		"svelte yarn":   {"App.svelte", "<p>hi</p>\n", "yarn add -D svelte", "yarn.lock"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			main := "import A from \"./" + tc.file + "\";\nconsole.log(A);\n"
			if strings.HasSuffix(tc.file, ".css") {
				main = "import \"./" + tc.file + "\";\n"
			}
			files := map[string]string{
				"widgets/package.json":       `{"private": true}`,
				"widgets/card/widget.json":   widgetJSON("main.ts"),
				"widgets/card/main.ts":       main,
				"widgets/card/" + tc.file:    tc.content,
				"widgets/card/tsconfig.json": `{}`,
			}
			if tc.lock != "" {
				files["widgets/"+tc.lock] = "# lock file\n"
			}
			root := writeProject(t, files)
			_, _, err := assembleProject(t, testOptions(root))
			if err == nil {
				t.Fatal("build without the package succeeded")
			}
			msg := err.Error()
			for _, want := range []string{filepath.Join("widgets", "card", tc.file), `widget "card"`, "not installed", tc.install + "` in " + filepath.Join(root, "widgets") + string(filepath.Separator)} {
				if !strings.Contains(msg, want) {
					t.Errorf("error lacks %q:\n%s", want, msg)
				}
			}
		})
	}
}

// A project without .vue/.svelte/Solid/Tailwind/PostCSS files builds with no
// Node on PATH, and never starts the helper.
func TestPlainProjectNeverStartsNode(t *testing.T) {
	root := writeProject(t, map[string]string{
		"widgets/a/widget.json":      widgetJSON("main.tsx"),
		"widgets/a/main.tsx":         "import \"./a.css\";\nconst el = <div className=\"x\">a</div>;\nconsole.log(el);\n",
		"widgets/a/a.css":            ".x { color: red; }\n",
		"widgets/a/jsx-runtime.d.ts": "",
	})
	writeFiles(t, filepath.Join(root, "node_modules", "react"), map[string]string{"package.json": `{"name": "react", "exports": {"./jsx-runtime": "./jsx-runtime.js"}}`, "jsx-runtime.js": "export const jsx = () => null, jsxs = jsx, Fragment = 0;\n"})
	t.Setenv("PATH", t.TempDir())
	b, _, err := assembleProject(t, testOptions(root))
	if err != nil {
		t.Fatal(err)
	}
	if b.compilers.node.Started() != 0 || b.compilers.usedNode() {
		t.Fatal("the Node helper ran for a project that needs no npm compiler")
	}
}

// One Builder (as `widgetd dev` keeps) starts Node once across rebuilds, and
// an edit to a component shows up in the next build.
func TestBuilderReusesOneNodeProcess(t *testing.T) {
	modules := compilerModules(t)
	root := writeProjectWith(t, modules, map[string]string{
		"widgets/v/widget.json": widgetJSON("main.ts"),
		"widgets/v/main.ts":     "import { createApp } from \"vue\";\nimport App from \"./App.vue\";\ncreateApp(App).mount(\"#root\");\n",
		"widgets/v/App.vue":     "<template><p class=\"m\">first edit</p></template>\n<style scoped>.m { color: red; }</style>\n",
	})
	b, out := assembleOK(t, testOptions(root))
	if html := firstHTML(out); !strings.Contains(html, "first edit") || !strings.Contains(html, "color:red") {
		t.Fatalf("first build lacks the component or its scoped style")
	}
	if err := os.WriteFile(filepath.Join(root, "widgets/v/App.vue"), []byte("<template><p>second edit</p></template>\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := b.Assemble(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if html := firstHTML(out); !strings.Contains(html, "second edit") {
		t.Fatalf("rebuild did not pick up the edit")
	}
	if n := b.compilers.node.Started(); n != 1 {
		t.Fatalf("Node started %d times across two builds, want 1", n)
	}
}

// TestCompilerOutputs builds a project per case through the real npm
// compilers and checks what they made of it.
func TestCompilerOutputs(t *testing.T) {
	// tailwind3 is the node_modules of the Tailwind v3 / PostCSS fixture.
	tailwind3 := func(pkg string) func(*testing.T) string {
		return func(t *testing.T) string {
			modules := fixtureModules(t, "tailwind3", pkg)
			compilerModules(t) // Node present
			return modules
		}
	}
	for _, tc := range []struct {
		name    string
		modules func(*testing.T) string
		files   map[string]string
		check   func(t *testing.T, b *Builder, out *Output, html string)
	}{
		// Tailwind's candidates come from the widget's module graph (a
		// component shared from outside the widget folder included; a file
		// nothing imports excluded) plus the stylesheet's @source globs.
		{"Tailwind candidates from the module graph", compilerModules, map[string]string{
			"widgets/w/widget.json":  widgetJSON("main.ts"),
			"widgets/w/main.ts":      "import \"./app.css\";\nimport { card } from \"../shared/card\";\ndocument.body.innerHTML = `<p class=\"text-lime-300\">${card}</p>`;\n",
			"widgets/w/app.css":      "@import \"tailwindcss\";\n@source \"../extra/*.html\";\n",
			"widgets/w/unused.ts":    "export const x = \"text-fuchsia-900\";\n",
			"widgets/shared/card.ts": "export const card = `<div class=\"bg-amber-200\"></div>`;\n",
			"widgets/extra/a.html":   "<b class=\"underline-offset-8\"></b>\n",
		}, func(t *testing.T, _ *Builder, _ *Output, html string) {
			for class, want := range map[string]bool{".text-lime-300{": true, ".bg-amber-200{": true, ".underline-offset-8{": true, ".text-fuchsia-900{": false} {
				if strings.Contains(html, class) != want {
					t.Errorf("CSS has %s: %v, want %v", class, !want, want)
				}
			}
		}},
		// The less common shapes compile too: an Options API .vue component
		// with scoped style, a Svelte rune module in TypeScript, Preact
		// selected by a jsconfig.json (esbuild's own JSX, no Node).
		{"component shapes", compilerModules, map[string]string{
			"widgets/o/widget.json":   widgetJSON("main.ts"),
			"widgets/o/main.ts":       "import { createApp } from \"vue\";\nimport A from \"./A.vue\";\ncreateApp(A).mount(\"#root\");\n",
			"widgets/o/A.vue":         "<script lang=\"ts\">\nexport default { data() { return { n: 41 as number } } }\n</script>\n<template><p class=\"opt\">Options {{ n + 1 }}</p></template>\n<style scoped>.opt { color: rgb(1, 2, 3) }</style>\n",
			"widgets/m/widget.json":   widgetJSON("main.ts"),
			"widgets/m/main.ts":       "import { counter } from \"./c.svelte.ts\";\nconsole.log(counter.n);\n",
			"widgets/m/c.svelte.ts":   "export const counter = $state({ n: 12345 as number });\n",
			"widgets/p/widget.json":   widgetJSON("main.jsx"),
			"widgets/p/jsconfig.json": `{"compilerOptions": {"jsx": "react-jsx", "jsxImportSource": "preact"}}`,
			"widgets/p/main.jsx":      "import { render } from \"preact\";\nrender(<b>hi</b>, document.body);\n",
		}, func(t *testing.T, _ *Builder, out *Output, _ string) {
			html := map[string]string{}
			for _, w := range out.Manifest.Widgets {
				html[w.Name] = string(out.Files[w.HTML])
			}
			if !regexp.MustCompile(`\.opt\[data-v-[0-9a-f]{8}\]\{color:#010203\}`).MatchString(html["o"]) || !strings.Contains(html["o"], "Options ") {
				t.Errorf("Options API component: no scoped style or template in the output")
			}
			if !strings.Contains(html["m"], "12345") || strings.Contains(html["m"], "$state({") {
				t.Errorf("rune module not compiled by Svelte")
			}
			if strings.Contains(html["p"], "react") {
				t.Errorf("jsconfig.json's jsxImportSource preact ignored: output mentions react")
			}
		}},
		// Tailwind v3 without a postcss.config: the @tailwind directives and
		// the nearest tailwind.config.js are enough (content globs relative
		// to the project root, as with Vite run from there).
		{"Tailwind v3 without a postcss.config", tailwind3("tailwindcss"), map[string]string{
			"tailwind.config.js":    "module.exports = { content: [\"./widgets/**/*.ts\"], theme: { extend: { colors: { ocean: \"#1d4e89\" } } } };\n",
			"widgets/w/widget.json": widgetJSON("main.ts"),
			"widgets/w/main.ts":     "import \"./s.css\";\ndocument.body.innerHTML = `<p class=\"text-ocean\">x</p>`;\n",
			"widgets/w/s.css":       "@tailwind base;\n@tailwind components;\n@tailwind utilities;\n",
		}, func(t *testing.T, _ *Builder, _ *Output, html string) {
			if !strings.Contains(html, ".text-ocean{") || strings.Contains(html, "@tailwind") {
				t.Fatalf("Tailwind v3 did not run: .text-ocean generated %v, @tailwind left %v", strings.Contains(html, ".text-ocean{"), strings.Contains(html, "@tailwind"))
			}
		}},
		// A compiler's warnings (Svelte's a11y checks) become build warnings
		// at their place in the component.
		{"compiler warnings are build warnings", compilerModules, map[string]string{
			"widgets/s/widget.json": widgetJSON("main.ts"),
			"widgets/s/main.ts":     "import A from \"./A.svelte\";\nconsole.log(A);\n",
			"widgets/s/A.svelte":    "<p>hi</p>\n<img src=\"a.png\">\n",
		}, func(t *testing.T, _ *Builder, out *Output, _ string) {
			for _, d := range out.Warnings {
				if strings.HasSuffix(d.File, filepath.Join("widgets", "s", "A.svelte")) && d.Line == 2 && d.Column == 1 && strings.Contains(d.Message, "a11y_missing_attribute") && d.Warning {
					return
				}
			}
			t.Fatalf("no a11y warning at A.svelte:2:1 in %v", out.Warnings)
		}},
		// With a postcss.config, a CSS module still goes through PostCSS and
		// stays a CSS module (local class names exported to the script).
		{"PostCSS keeps CSS modules", tailwind3("postcss"), map[string]string{
			"postcss.config.js":         "module.exports = { plugins: { autoprefixer: {} } };\n",
			"widgets/w/widget.json":     widgetJSON("main.ts"),
			"widgets/w/main.ts":         "import styles from \"./card.module.css\";\ndocument.body.className = styles.card;\n",
			"widgets/w/card.module.css": ".card { user-select: none; color: rgb(9, 8, 7); }\n",
		}, func(t *testing.T, b *Builder, _ *Output, html string) {
			local := regexp.MustCompile(`\.([A-Za-z_][\w-]*)\{[^}]*user-select:none;color:#090807`).FindStringSubmatch(html)
			if local == nil || local[1] == "card" || !strings.Contains(html, `card:"`+local[1]+`"`) {
				t.Fatalf("CSS module lost its local class name through PostCSS")
			}
			if !b.compilers.usedNode() {
				t.Fatal("postcss.config did not run")
			}
		}},
		// A Vue component's <style> with Tailwind v4 directives (@reference,
		// @apply) is compiled by Tailwind, as @tailwindcss/vite does for
		// style blocks.
		{"Tailwind in a component's style", compilerModules, map[string]string{
			"widgets/v/widget.json": widgetJSON("main.ts"),
			"widgets/v/main.ts":     "import { createApp } from \"vue\";\nimport \"./app.css\";\nimport App from \"./App.vue\";\ncreateApp(App).mount(\"#root\");\n",
			"widgets/v/app.css":     "@import \"tailwindcss\";\n@theme { --color-brand: #123456; }\n",
			"widgets/v/App.vue":     "<template><p class=\"tag\">hi</p></template>\n<style scoped>\n@reference \"./app.css\";\n.tag { @apply text-brand underline; }\n</style>\n",
		}, func(t *testing.T, _ *Builder, _ *Output, html string) {
			if !regexp.MustCompile(`\.tag\[data-v-[0-9a-f]{8}\]\{color:var\(--color-brand[^)]*\);text-decoration-line:underline\}`).MatchString(html) || strings.Contains(html, "@apply") {
				t.Fatalf("the <style> block's @apply was not compiled by Tailwind")
			}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := writeProjectWith(t, tc.modules(t), tc.files)
			b, out := assembleOK(t, testOptions(root))
			tc.check(t, b, out, firstHTML(out))
		})
	}
}

// A Tailwind @plugin that is not installed names that package, not Tailwind.
func TestMissingTailwindPluginNamesThePlugin(t *testing.T) {
	modules := compilerModules(t)
	root := writeProjectWith(t, modules, map[string]string{
		"package.json":          `{"private": true}`,
		"widgets/w/widget.json": widgetJSON("main.ts"),
		"widgets/w/main.ts":     "import \"./app.css\";\n",
		"widgets/w/app.css":     "@import \"tailwindcss\";\n@plugin \"@tailwindcss/not-installed\";\n",
	})
	_, _, err := assembleProject(t, testOptions(root))
	if err == nil || !strings.Contains(err.Error(), "run `npm install -D @tailwindcss/not-installed` in "+root+string(filepath.Separator)) {
		t.Fatalf("err = %v", err)
	}
}

// The repository's own examples (TS, React + CSS modules, an HTML entry)
// build with no Node on PATH, and the helper never starts.
func TestExamplesBuildWithoutNode(t *testing.T) {
	widgets, err := filepath.Abs(filepath.Join("..", "widgets"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(widgets, "node_modules", "react", "package.json")); err != nil {
		t.Fatalf("example packages missing; run `npm ci` in %s", widgets)
	}
	t.Setenv("PATH", t.TempDir())
	root := t.TempDir()
	b, out := assembleOK(t, Options{Root: root, WidgetsDir: widgets, OutDir: filepath.Join(root, "dist"), NoCache: true, NoCompress: true})
	if len(out.Manifest.Widgets) < 3 || b.compilers.node.Started() != 0 || b.compilers.usedNode() {
		t.Fatalf("%d widgets, Node started %d times", len(out.Manifest.Widgets), b.compilers.node.Started())
	}
}
