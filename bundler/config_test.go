package bundler

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// TestBadInput builds a project holding one good widget and one broken one,
// and checks that each broken input fails with a message naming the file and
// field (or line:col), and that the previous dist/ is left untouched.
func TestBadInput(t *testing.T) {
	good := map[string]string{
		"widgets/good/widget.json": `{"title": "Good"}`,
		"widgets/good/index.ts":    `document.body.textContent = "ok";`,
	}
	goodRoot := t.TempDir()
	writeFiles(t, goodRoot, good)
	dist := filepath.Join(t.TempDir(), "dist")
	mustBuild(t, Options{Root: goodRoot, OutDir: dist, NoCompress: true})
	before := treeHash(t, dist)

	ts := `document.body.textContent = "x";`
	cases := []struct {
		name  string
		files map[string]string
		// want are substrings of the error text, location first.
		want []string
	}{
		{"unknown field", map[string]string{"widget.json": "{\n  \"titel\": \"x\"\n}", "index.ts": ts},
			[]string{"bad/widget.json:2:3", `unknown field "titel"`, `did you mean "title"`}},
		{"unknown csp field", map[string]string{"widget.json": `{"csp": {"connect": ["https://a.example.com"]}}`, "index.ts": ts},
			[]string{"bad/widget.json:1:10", `unknown field "connect" in "csp"`}},
		{"unknown permission", map[string]string{"widget.json": `{"permissions": {"usb": true}}`, "index.ts": ts},
			[]string{"bad/widget.json:1:18", `unknown field "usb"`, "camera, clipboardWrite, geolocation, microphone"}},
		{"wrong type title", map[string]string{"widget.json": "{\n\"title\": 42}", "index.ts": ts},
			[]string{"bad/widget.json:2:1", `field "title": expected a string, got JSON number`}},
		{"wrong type csp list", map[string]string{"widget.json": `{"csp": {"connectDomains": "https://a.example.com"}}`, "index.ts": ts},
			[]string{"bad/widget.json:1:10", `field "csp.connectDomains": expected an array of a string`}},
		{"wrong type prefersBorder", map[string]string{"widget.json": `{"prefersBorder": "yes"}`, "index.ts": ts},
			[]string{"bad/widget.json:1:2", `field "prefersBorder": expected true or false`}},
		{"wrong type permission", map[string]string{"widget.json": `{"permissions": {"camera": {}}}`, "index.ts": ts},
			[]string{"bad/widget.json", `field "permissions.camera": expected true or false`}},
		{"trailing comma", map[string]string{"widget.json": "{\n  \"title\": \"x\",\n}", "index.ts": ts},
			[]string{"bad/widget.json:3:1", "invalid JSON"}},
		{"not an object", map[string]string{"widget.json": `["x"]`, "index.ts": ts},
			[]string{"bad/widget.json:1:1", "must hold a JSON object"}},
		{"empty file", map[string]string{"widget.json": ``, "index.ts": ts},
			[]string{"bad/widget.json:1:1", "unexpected end of file"}},
		{"duplicate key", map[string]string{"widget.json": "{\"title\": \"a\",\n \"title\": \"b\"}", "index.ts": ts},
			[]string{"bad/widget.json:2:2", `"title" appears twice`}},
		{"not utf-8", map[string]string{"widget.json": "{\"title\": \"caf\xe9\"}", "index.ts": ts},
			[]string{"bad/widget.json:1:15", "not valid UTF-8"}},
		{"bad name", map[string]string{"widget.json": `{"name": "My Widget"}`, "index.ts": ts},
			[]string{"bad/widget.json:1:2", `name "My Widget" must match [a-z0-9-]+`}},
		{"unknown profile", map[string]string{"widget.json": `{"profiles": ["mcp-app", "html"]}`, "index.ts": ts},
			[]string{"bad/widget.json:1:26", `unknown profile "html"`}},
		{"empty profiles", map[string]string{"widget.json": `{"profiles": []}`, "index.ts": ts},
			[]string{"bad/widget.json:1:2", "at least one"}},
		{"missing entry file", map[string]string{"widget.json": `{"entry": "src/main.tsx"}`},
			[]string{"bad/widget.json:1:2", `entry "src/main.tsx"`, "no such file"}},
		{"no entry at all", map[string]string{"widget.json": `{}`, "notes.txt": "x"},
			[]string{"bad/widget.json:1:1", "no entry found", "index.html or index.tsx"}},
		{"entry outside folder", map[string]string{"widget.json": `{"entry": "../good/index.ts"}`},
			[]string{"bad/widget.json:1:2", "outside the widget folder"}},
		{"entry absolute", map[string]string{"widget.json": `{"entry": "/etc/passwd"}`},
			[]string{"bad/widget.json:1:2", "relative to the widget folder"}},
		{"entry wrong type", map[string]string{"widget.json": `{"entry": "main.py"}`, "main.py": "print(1)"},
			[]string{"bad/widget.json:1:2", `unsupported type ".py"`}},
		{"inline false without public URL", map[string]string{"widget.json": `{"inline": false}`, "index.ts": ts},
			[]string{"bad/widget.json:1:2", "needs a public URL", "--public-url"}},
		{"domain http", map[string]string{"widget.json": `{"domain": "http://example.com"}`, "index.ts": ts},
			[]string{"bad/widget.json:1:2", "must use https"}},
		{"domain with path", map[string]string{"widget.json": `{"domain": "https://example.com/app"}`, "index.ts": ts},
			[]string{"bad/widget.json:1:2", "origin only"}},
		{"domain not a URL", map[string]string{"widget.json": `{"domain": "example.com"}`, "index.ts": ts},
			[]string{"bad/widget.json:1:2", "must be an origin"}},
		{"csp keyword", map[string]string{"widget.json": "{\"csp\": {\"resourceDomains\": [\n  \"https://ok.example.com\",\n  \"'unsafe-eval'\"]}}", "index.ts": ts},
			[]string{"bad/widget.json:3:3", "resourceDomains[1]", "'unsafe-eval'"}},
		{"csp wildcard", map[string]string{"widget.json": `{"csp": {"connectDomains": ["*"]}}`, "index.ts": ts},
			[]string{"bad/widget.json:1:29", "connectDomains[0]"}},
		{"csp path", map[string]string{"widget.json": `{"csp": {"frameDomains": ["https://a.example.com/embed"]}}`, "index.ts": ts},
			[]string{"bad/widget.json:1:27", "frameDomains[0]"}},
		{"csp injection", map[string]string{"widget.json": `{"csp": {"connectDomains": ["https://a.example.com; script-src *"]}}`, "index.ts": ts},
			[]string{"bad/widget.json:1:29", "connectDomains[0]"}},
		{"csp no scheme", map[string]string{"widget.json": `{"csp": {"resourceDomains": ["cdn.example.com"]}}`, "index.ts": ts},
			[]string{"bad/widget.json:1:30", "resourceDomains[0]", "https://cdn.example.com"}},
		{"duplicate widget name", map[string]string{"widget.json": `{"name": "good"}`, "index.ts": ts},
			[]string{`widget name "good" is also used by`, "bad/widget.json", "good/widget.json"}},
		{"html entry without script", map[string]string{"widget.json": `{}`, "index.html": "<!doctype html><html><body><p>hi</p></body></html>"},
			[]string{"bad/index.html:1:1", `no <script type="module" src="…"> found`}},
		{"html classic local script", map[string]string{"widget.json": `{}`, "index.html": "<!doctype html>\n<script src=\"./a.js\"></script>", "a.js": ts},
			[]string{"bad/index.html:2:9", `must be <script type="module" src=…>`}},
		{"html script missing", map[string]string{"widget.json": `{}`, "index.html": "<!doctype html>\n<body>\n  <script type=\"module\" src=\"./src/nope.ts\"></script>"},
			[]string{"bad/index.html:3:25", `"./src/nope.ts" does not exist`}},
		{"html not utf-8", map[string]string{"widget.json": `{}`, "index.html": "<!doctype html><p>\xff</p><script type=\"module\" src=\"./a.ts\"></script>", "a.ts": ts},
			[]string{"bad/index.html:1:19", "not valid UTF-8"}},
		{"ts syntax error", map[string]string{"widget.json": `{}`, "index.ts": "const a = 1;\nlet b: number = ;\n"},
			[]string{"bad/index.ts:2:17", "Unexpected \";\""}},
		{"unresolvable import", map[string]string{"widget.json": `{}`, "index.ts": "import { x } from \"left-pad-not-installed\";\nconsole.log(x);\n"},
			[]string{"bad/index.ts:1:19", `Could not resolve "left-pad-not-installed"`}},
		{"missing relative import", map[string]string{"widget.json": `{}`, "index.ts": "import \"./missing.css\";\n"},
			[]string{"bad/index.ts:1:8", `Could not resolve "./missing.css"`}},
		{"css syntax error in import", map[string]string{"widget.json": `{}`, "index.ts": "import \"./a.css\";\n", "a.css": ".a { color: red;\n.b { color: blue; }\n"},
			[]string{"bad/a.css:"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			root := t.TempDir()
			writeFiles(t, root, good)
			files := map[string]string{}
			for k, v := range tc.files {
				files["widgets/bad/"+k] = v
			}
			writeFiles(t, root, files)
			wd, _ := os.Getwd()
			if err := os.Chdir(root); err != nil {
				t.Fatal(err)
			}
			defer os.Chdir(wd)
			_, err := Build(context.Background(), Options{Root: root, OutDir: dist, NoCompress: true})
			if err == nil {
				t.Fatal("build succeeded; want an error")
			}
			msg := err.Error()
			for _, w := range tc.want {
				if !strings.Contains(msg, filepath.FromSlash(w)) {
					t.Errorf("error lacks %q:\n%s", w, msg)
				}
			}
			if strings.Contains(msg, "panic") {
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
	for _, s := range []string{`{}`, `{"name":"a","csp":{"connectDomains":["https://x.com"]}}`, `{"permissions":{"camera":true}}`, `[`, `{"a":`, "{\"title\":\"\xff\"}", `{"profiles":["mcp-app","skybridge"]}`} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	writeFiles(f, dir, map[string]string{"index.ts": ""})
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, WidgetConfigFile), data, 0o644); err != nil {
			t.Fatal(err)
		}
		w, err := loadWidget(dir, "w", "")
		if err != nil {
			if AsDiagnostics(err) == nil {
				t.Fatalf("error without a diagnostic: %v", err)
			}
			return
		}
		if !nameRE.MatchString(w.Config.Name) || w.Policy == nil || len(w.Profiles) == 0 {
			t.Fatalf("accepted an invalid config: %+v", w.Config)
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
