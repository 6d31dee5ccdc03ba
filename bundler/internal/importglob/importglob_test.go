package importglob

import (
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"
)

func TestFind(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []Call // Start/End are checked against the text "import.meta.glob(…)"
	}{
		{"lazy", `const pages = import.meta.glob("./pages/*.ts");`,
			[]Call{{Patterns: []string{"./pages/*.ts"}}}},
		{"eager default, single quotes, trailing comma", `import.meta.glob('./icons/*.svg', { eager: true, import: 'default', query: '?raw', },)`,
			[]Call{{Patterns: []string{"./icons/*.svg"}, Eager: true, Import: "default", Query: "?raw"}}},
		{"array with a negative and comments", "import.meta.glob([\n  './dir/*.js', // all\n  '!**/bar.js', /* but */\n])",
			[]Call{{Patterns: []string{"./dir/*.js", "!**/bar.js"}}}},
		{"TypeScript type argument", "import.meta.glob<{ default: string }>(`/src/*.md`, { as: \"raw\" })",
			[]Call{{Patterns: []string{"/src/*.md"}, Query: "?raw", Import: "default"}}},
		{"type argument with an arrow and a semicolon", "import.meta.glob<{ render: () => string; n: Array<number> }>('./s/*.ts')",
			[]Call{{Patterns: []string{"./s/*.ts"}}}},
		{"query object", `import.meta.glob("./*.ts", { query: { foo: "bar", n: 2, ok: true } })`,
			[]Call{{Patterns: []string{"./*.ts"}, Query: "?foo=bar&n=2&ok=true"}}},
		{"spaced name, exhaustive", `import . meta . glob("../x/**/*.json", { exhaustive: true })`,
			[]Call{{Patterns: []string{"../x/**/*.json"}, Exhaustive: true}}},
		{"in a line comment", `// import.meta.glob("./*.ts")` + "\nconst url = \"http://x\"; import.meta.glob('./a/*.ts')",
			[]Call{{Patterns: []string{"./a/*.ts"}}}},
		{"two calls", `a = import.meta.glob("./a/*"); b = import.meta.glob("./b/*", {eager: true})`,
			[]Call{{Patterns: []string{"./a/*"}}, {Patterns: []string{"./b/*"}, Eager: true}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			calls, errs := Find(tt.src)
			if len(errs) > 0 {
				t.Fatalf("errors: %v", errs[0])
			}
			if len(calls) != len(tt.want) {
				t.Fatalf("%d calls, want %d: %+v", len(calls), len(tt.want), calls)
			}
			for i, c := range calls {
				text := tt.src[c.Start:c.End]
				if !strings.HasPrefix(text, "import") || !strings.HasSuffix(text, ")") {
					t.Errorf("call %d spans %q", i, text)
				}
				c.Start, c.End = 0, 0
				if !reflect.DeepEqual(c, tt.want[i]) {
					t.Errorf("call %d = %+v, want %+v", i, c, tt.want[i])
				}
			}
		})
	}
}

func TestFindErrors(t *testing.T) {
	tests := []struct{ src, want string }{
		{`import.meta.glob(dir + "/*.ts")`, "must be literals, not dir"},
		{"import.meta.glob(`./${name}/*.ts`)", "cannot hold ${…}"},
		{`import.meta.glob("pages/*.ts")`, `must start with ./ or ../`},
		{`import.meta.glob([])`, "at least one pattern"},
		{`import.meta.glob("./*.ts", { eager: "yes" })`, "option eager must be true or false"},
		{`import.meta.glob("./*.ts", { import: "a-b" })`, "option import must be an export's name"},
		{`import.meta.glob("./*.ts", { base: "./x" })`, `option "base" is not supported`},
		{`import.meta.glob("./*.ts"`, "takes a pattern"},
		{`import.meta.glob`, "must be called"},
		{`import.meta.glob("./*.ts`, "unterminated string"},
		{`import.meta.glob(` + strings.Repeat("[", 20), "nest too deeply"},
	}
	for _, tt := range tests {
		t.Run(tt.src, func(t *testing.T) {
			calls, errs := Find(tt.src)
			if len(calls) != 0 || len(errs) != 1 || !strings.Contains(errs[0].Msg, tt.want) {
				t.Fatalf("calls %+v, errors %v; want one error with %q", calls, errs, tt.want)
			}
			if errs[0].Offset < 0 || errs[0].Offset > len(tt.src) {
				t.Errorf("error offset %d outside the text", errs[0].Offset)
			}
		})
	}
}

// tree writes files (empty unless given) under a new folder.
func tree(t *testing.T, files ...string) string {
	t.Helper()
	root := t.TempDir()
	for _, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestExpand(t *testing.T) {
	root := tree(t,
		"widgets/w/index.ts", "widgets/w/pages/a.ts", "widgets/w/pages/b.tsx", "widgets/w/pages/b.test.ts",
		"widgets/w/pages/nested/c.ts", "widgets/w/pages/.hidden/d.ts", "widgets/w/node_modules/x/e.ts",
		"widgets/shared/s1.md", "widgets/shared/s2.md", "src/r.ts")
	importer := filepath.Join(root, "widgets", "w", "index.ts")
	tests := []struct {
		name       string
		patterns   []string
		exhaustive bool
		keys       []string
		specs      []string
	}{
		{"one folder", []string{"./pages/*.ts"}, false,
			[]string{"./pages/a.ts", "./pages/b.test.ts"}, []string{"./pages/a.ts", "./pages/b.test.ts"}},
		{"braces, globstar, negative", []string{"./pages/**/*.{ts,tsx}", "!**/*.test.ts"}, false,
			[]string{"./pages/a.ts", "./pages/b.tsx", "./pages/nested/c.ts"}, nil},
		{"parent folder", []string{"../shared/*.md"}, false,
			[]string{"../shared/s1.md", "../shared/s2.md"}, []string{"../shared/s1.md", "../shared/s2.md"}},
		{"from the root", []string{"/src/*.ts"}, false,
			[]string{"/src/r.ts"}, []string{"../../src/r.ts"}},
		{"never the importer", []string{"./*.ts"}, false, []string{}, nil},
		{"character class", []string{"./pages/[ab].ts*"}, false, []string{"./pages/a.ts", "./pages/b.tsx"}, nil},
		{"dot folders and node_modules skipped", []string{"./**/d.ts", "./**/e.ts"}, false, []string{}, nil},
		{"exhaustive", []string{"./**/d.ts", "./**/e.ts"}, true, []string{"./node_modules/x/e.ts", "./pages/.hidden/d.ts"}, nil},
		{"missing folder", []string{"./nope/*.ts"}, false, []string{}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, err := Expand(Call{Patterns: tt.patterns, Exhaustive: tt.exhaustive}, importer, root)
			if err != nil {
				t.Fatal(err)
			}
			keys, specs := []string{}, []string{}
			for _, m := range got {
				keys, specs = append(keys, m.Key), append(specs, m.Spec)
			}
			if !reflect.DeepEqual(keys, tt.keys) {
				t.Errorf("keys %q, want %q", keys, tt.keys)
			}
			if tt.specs != nil && !reflect.DeepEqual(specs, tt.specs) {
				t.Errorf("specs %q, want %q", specs, tt.specs)
			}
		})
	}
	for _, bad := range [][]string{{"../../../*.ts"}, {"!./pages/*.ts"}} {
		if _, _, err := Expand(Call{Patterns: bad}, importer, root); err == nil {
			t.Errorf("Expand(%q): no error", bad)
		}
	}
}

func TestExpandBounds(t *testing.T) {
	files := make([]string, 0, MaxMatches+1)
	for i := 0; i <= MaxMatches; i++ {
		files = append(files, "w/many/f"+strconv.Itoa(i)+".ts")
	}
	root := tree(t, files...)
	_, _, err := Expand(Call{Patterns: []string{"./many/*.ts"}}, filepath.Join(root, "w", "index.ts"), root)
	if err == nil || !strings.Contains(err.Error(), "narrow the pattern") {
		t.Fatalf("%d matches: %v", MaxMatches+1, err)
	}
}

func TestRewrite(t *testing.T) {
	src := "const lazy = import.meta.glob(\n  './p/*.ts',\n  { import: 'setup' });\nconst eager = import.meta.glob('./i/*.svg', { eager: true, query: '?raw', import: 'default' });\nconsole.log(lazy, eager);\n"
	calls, errs := Find(src)
	if len(errs) > 0 || len(calls) != 2 {
		t.Fatalf("%+v %v", calls, errs)
	}
	matches := [][]Match{
		{{Key: "./p/a.ts", Spec: "./p/a.ts"}, {Key: "./p/b.ts", Spec: "./p/b.ts"}},
		{{Key: "./i/x.svg", Spec: "./i/x.svg"}},
	}
	got := Rewrite(src, calls, matches)
	want := "const lazy = Object.assign({\"./p/a.ts\": () => import(\"./p/a.ts\").then((m) => m[\"setup\"]), \"./p/b.ts\": () => import(\"./p/b.ts\").then((m) => m[\"setup\"])})\n\n;\n" +
		"const eager = Object.assign({\"./i/x.svg\": __widgetd_glob1_0});\nconsole.log(lazy, eager);\n" +
		"\nimport __widgetd_glob1_0 from \"./i/x.svg?raw\";"
	if got != want {
		t.Errorf("Rewrite:\n%s\nwant:\n%s", got, want)
	}
	if strings.Count(got, "\n") != strings.Count(src, "\n")+1 {
		t.Errorf("%d lines, want the %d of the source and the import's", strings.Count(got, "\n"), strings.Count(src, "\n"))
	}
	if lineOf(got, "console.log") != lineOf(src, "console.log") {
		t.Errorf("console.log moved from line %d to %d", lineOf(src, "console.log"), lineOf(got, "console.log"))
	}
}

func lineOf(s, sub string) int { return strings.Count(s[:strings.Index(s, sub)], "\n") + 1 }

// FuzzFind: any text gives calls within it (in order, not overlapping)
// or errors within it, quickly and without panicking.
func FuzzFind(f *testing.F) {
	for _, s := range []string{
		`import.meta.glob("./a/*.ts", { eager: true, import: "default" })`,
		"import.meta.glob<{a:1}>([`./x/*`, '!./x/y'], {query: {a: 1}})",
		`import.meta.glob(`, `import.meta.glob("\`, `// import.meta.glob("./x")`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		start := time.Now()
		calls, errs := Find(src)
		if d := time.Since(start); d > time.Second {
			t.Fatalf("Find took %v on %d bytes", d, len(src))
		}
		end := 0
		for _, c := range calls {
			if c.Start < end || c.End <= c.Start || c.End > len(src) || len(c.Patterns) == 0 {
				t.Fatalf("call %+v out of place in %d bytes (previous ended at %d)", c, len(src), end)
			}
			end = c.End
		}
		for _, e := range errs {
			if e.Offset < 0 || e.Offset > len(src) || e.Msg == "" {
				t.Fatalf("error %+v outside %d bytes", e, len(src))
			}
		}
	})
}
