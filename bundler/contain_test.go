package bundler

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/bundler/layout"
	"github.com/widgetd/widgetd/diag"
)

const secret = "TOP SECRET runner credentials"

// outsideFixture makes a temp folder with a project (proj/, a git checkout)
// and, beside it, a "secret" folder the project must never read, a
// "shared-ui" folder it may read when allowed, and a node_modules above the
// checkout.
func outsideFixture(t *testing.T) (top, root string) {
	t.Helper()
	top = t.TempDir()
	root = filepath.Join(top, "proj")
	writeFiles(t, top, map[string]string{
		"secret/passwd.txt":               secret,
		"secret/style.css":                "body{color:red}/*" + secret + "*/",
		"secret/img.png":                  "\x89PNG" + secret,
		"secret/dir/x.js":                 "export const x = " + "`" + secret + "`;",
		"secret/dir/main.ts":              "document.body.textContent = " + "`" + secret + "`;",
		"secret/widget/widget.json":       `{"title":"Linked"}`,
		"secret/widget/index.ts":          "document.body.textContent = " + "`" + secret + "`;",
		"secret/linked-pkg/package.json":  `{"name":"linked-pkg","main":"index.js"}`,
		"secret/linked-pkg/index.js":      "export const x = " + "`" + secret + "`;",
		"shared-ui/button.js":             "export const label = 'shared button';",
		"node_modules/above/package.json": `{"name":"above","main":"index.js"}`,
		"node_modules/above/index.js":     "export const x = 'above the checkout';",
		"real_modules/pkg/package.json":   `{"name":"pkg","main":"index.js"}`,
		"real_modules/pkg/index.js":       "export const x = 'linked node_modules';",
		"proj/.git/HEAD":                  "ref: refs/heads/main\n",
		"proj/widgets/w/widget.json":      `{"title":"W"}`,
		"proj/shared/inside.ts":           "export const inside = 'inside the project';",
	})
	return top, root
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

// assemble builds the project in memory.
func assemble(t *testing.T, root string, strict bool) (*Output, error) {
	t.Helper()
	b, err := New(Options{Root: root, NoCache: true, Strict: strict})
	if err != nil {
		return nil, err
	}
	defer b.Close()
	return b.Assemble(context.Background())
}

func outputHas(out *Output, s string) bool {
	for _, data := range out.Files {
		if strings.Contains(string(data), s) {
			return true
		}
	}
	return false
}

// TestBuildStaysInsideProject tries every way a source can name a file
// outside the project; each is an error at the reference, naming the
// setting, and nothing is bundled.
func TestBuildStaysInsideProject(t *testing.T) {
	deep := strings.Repeat("../", 40)
	tests := []struct {
		name  string
		files map[string]string
		links map[string]string // link (below root) → target (below top)
		file  string            // where the error must be, relative to root
		line  int
		col   int
		want  string
	}{
		{name: "text import of /etc/passwd",
			files: map[string]string{"widgets/w/index.ts": "import t from \"" + deep + "etc/passwd\" with { type: \"text\" };\ndocument.body.textContent = t;\n"},
			file:  "widgets/w/index.ts", line: 1, col: 15, want: "resolves to /etc/passwd"},
		{name: "text import of a file beside the project",
			files: map[string]string{"widgets/w/index.ts": "\nimport t from \"../../../secret/passwd.txt\" with { type: \"text\" };\ndocument.body.textContent = t;\n"},
			file:  "widgets/w/index.ts", line: 2, col: 15, want: `"allowOutside": ["../secret"]`},
		{name: "symlinked file",
			files: map[string]string{"widgets/w/index.ts": "import t from \"./data.txt\" with { type: \"text\" };\ndocument.body.textContent = t;\n"},
			links: map[string]string{"widgets/w/data.txt": "secret/passwd.txt"},
			file:  "widgets/w/index.ts", line: 1, col: 15, want: "this import resolves to "},
		{name: "symlinked folder",
			files: map[string]string{"widgets/w/index.ts": "import { x } from \"./lib/x.js\";\ndocument.body.textContent = x;\n"},
			links: map[string]string{"widgets/w/lib": "secret/dir"},
			file:  "widgets/w/index.ts", line: 1, col: 19, want: "outside the project"},
		{name: "CSS @import",
			files: map[string]string{"widgets/w/index.ts": "import \"./style.css\";\n", "widgets/w/style.css": "@import \"../../../secret/style.css\";\nbody { margin: 0 }\n"},
			file:  "widgets/w/style.css", line: 1, col: 9, want: "outside the project"},
		{name: "CSS url()",
			files: map[string]string{"widgets/w/index.ts": "import \"./style.css\";\n", "widgets/w/style.css": "body {\n  background: url(../../../secret/img.png);\n}\n"},
			file:  "widgets/w/style.css", line: 2, col: 15, want: "outside the project"},
		{name: "dynamic import",
			files: map[string]string{"widgets/w/index.ts": "import(\"../../../secret/dir/x.js\").then(m => console.log(m.x));\n"},
			file:  "widgets/w/index.ts", line: 1, col: 8, want: "outside the project"},
		{name: "linked npm package",
			files: map[string]string{"widgets/w/index.ts": "import { x } from \"linked-pkg\";\nconsole.log(x);\n"},
			links: map[string]string{"node_modules/linked-pkg": "secret/linked-pkg"},
			file:  "widgets/w/index.ts", line: 1, col: 19, want: "outside the project"},
		{name: "package above the repository root",
			files: map[string]string{"widgets/w/index.ts": "import { x } from \"above\";\nconsole.log(x);\n"},
			file:  "widgets/w/index.ts", line: 1, col: 19, want: "outside the project"},
		{name: "HTML entry through a symlinked folder",
			files: map[string]string{"widgets/w/index.html": "<!doctype html>\n<html><head><meta charset=\"utf-8\"></head>\n<body><script type=\"module\" src=\"./src/main.ts\"></script></body></html>\n"},
			links: map[string]string{"widgets/w/src": "secret/dir"},
			file:  "widgets/w/index.html", line: 3, col: 29, want: "outside the project"},
		{name: "symlinked widget folder",
			links: map[string]string{"widgets/linked": "secret/widget"},
			files: map[string]string{"widgets/w/index.ts": "document.body.textContent = 'w';\n"},
			file:  "widgets/linked", want: "widget folder \"linked\" resolves through a symlink at widgets/linked to "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			top, root := outsideFixture(t)
			writeFiles(t, root, tc.files)
			for link, target := range tc.links {
				symlink(t, filepath.Join(top, target), filepath.Join(root, link))
			}
			t.Chdir(root)
			out, err := assemble(t, root, false)
			if err == nil {
				t.Fatalf("built; secret bundled: %v", outputHas(out, secret))
			}
			diags := diag.FromError(err)
			if len(diags) == 0 {
				t.Fatalf("error without diagnostics: %v", err)
			}
			d := diags[0]
			if d.Code != diag.CodeOutsideProject {
				t.Errorf("code %q, want %q", d.Code, diag.CodeOutsideProject)
			}
			if d.File != tc.file || d.Line != tc.line || d.Column != tc.col || !strings.Contains(d.Message, tc.want) || !strings.Contains(d.Message, "allowOutside") {
				t.Errorf("diagnostic %s:%d:%d: %s\nwant %s:%d:%d containing %q and the allowOutside setting", d.File, d.Line, d.Column, d.Message, tc.file, tc.line, tc.col, tc.want)
			}
			if strings.Contains(err.Error(), secret) {
				t.Errorf("the error shows the secret's contents: %v", err)
			}
		})
	}
}

// TestBuildReadsWhatItMay builds what a project legitimately reads: its own
// files through symlinks, a node_modules that is a symlink, packages
// hoisted to the workspace root, and a folder named in allowOutside.
func TestBuildReadsWhatItMay(t *testing.T) {
	tests := []struct {
		name    string
		files   map[string]string
		links   map[string]string
		project string // widgetd.json
		want    string // in the output
	}{
		{name: "symlink inside the project",
			files: map[string]string{"widgets/w/index.ts": "import { inside } from \"./alias.ts\";\ndocument.body.textContent = inside;\n"},
			links: map[string]string{"widgets/w/alias.ts": "proj/shared/inside.ts"},
			want:  "inside the project"},
		{name: "node_modules is a symlink into the project",
			files: map[string]string{"widgets/w/index.ts": "import { x } from \"pkg\";\ndocument.body.textContent = x;\n",
				"modules/pkg/package.json": `{"name":"pkg","main":"index.js"}`, "modules/pkg/index.js": "export const x = 'linked node_modules';"},
			links: map[string]string{"widgets/node_modules": "proj/modules"},
			want:  "linked node_modules"},
		{name: "node_modules is a symlink to an allowOutside folder",
			files:   map[string]string{"widgets/w/index.ts": "import { x } from \"pkg\";\ndocument.body.textContent = x;\n"},
			links:   map[string]string{"widgets/node_modules": "real_modules"},
			project: `{"allowOutside": ["../real_modules"]}`,
			want:    "linked node_modules"},
		{name: "pnpm layout: links into node_modules/.pnpm",
			files: map[string]string{"widgets/w/index.ts": "import { x } from \"pnpmpkg\";\ndocument.body.textContent = x;\n",
				"node_modules/.pnpm/pnpmpkg@1.0.0/node_modules/pnpmpkg/package.json": `{"name":"pnpmpkg","main":"index.js"}`,
				"node_modules/.pnpm/pnpmpkg@1.0.0/node_modules/pnpmpkg/index.js":     "import { y } from 'dep'; export const x = 'pnpm ' + y;",
				"node_modules/.pnpm/dep@2.0.0/node_modules/dep/package.json":         `{"name":"dep","main":"index.js"}`,
				"node_modules/.pnpm/dep@2.0.0/node_modules/dep/index.js":             "export const y = 'store dependency';"},
			links: map[string]string{"node_modules/pnpmpkg": "proj/node_modules/.pnpm/pnpmpkg@1.0.0/node_modules/pnpmpkg",
				"node_modules/.pnpm/pnpmpkg@1.0.0/node_modules/dep": "proj/node_modules/.pnpm/dep@2.0.0/node_modules/dep"},
			want: "store dependency"},
		{name: "allowOutside",
			files:   map[string]string{"widgets/w/index.ts": "import { label } from \"../../../shared-ui/button.js\";\ndocument.body.textContent = label;\n"},
			project: `{"allowOutside": ["../shared-ui"]}`,
			want:    "shared button"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			top, root := outsideFixture(t)
			writeFiles(t, root, tc.files)
			if tc.project != "" {
				writeFiles(t, root, map[string]string{layout.ProjectConfigFile: tc.project})
			}
			for link, target := range tc.links {
				symlink(t, filepath.Join(top, target), filepath.Join(root, link))
			}
			out, err := assemble(t, root, false)
			if err != nil {
				t.Fatal(err)
			}
			if !outputHas(out, tc.want) {
				t.Errorf("output lacks %q", tc.want)
			}
		})
	}
}

// TestWorkspaceHoisting: a project inside an npm workspace reads packages
// hoisted to the workspace root's node_modules, and none above it.
func TestWorkspaceHoisting(t *testing.T) {
	top := t.TempDir()
	writeFiles(t, top, map[string]string{
		"node_modules/above/package.json":      `{"name":"above","main":"index.js"}`,
		"node_modules/above/index.js":          "export const x = 'above';",
		"ws/package.json":                      `{"private":true,"workspaces":["apps/*"]}`,
		"ws/node_modules/hoisted/package.json": `{"name":"hoisted","main":"index.js"}`,
		"ws/node_modules/hoisted/index.js":     "export const x = 'hoisted to the workspace root';",
		"ws/apps/ui/package.json":              `{"name":"ui"}`,
		"ws/apps/ui/widgets/w/widget.json":     `{"title":"W"}`,
		"ws/apps/ui/widgets/w/index.ts":        "import { x } from \"hoisted\";\ndocument.body.textContent = x;\n",
		"ws/apps/ui/widgets/above/widget.json": `{"title":"Above"}`,
		"ws/apps/ui/widgets/above/index.ts":    "import { x } from \"above\";\ndocument.body.textContent = x;\n",
	})
	root := filepath.Join(top, "ws/apps/ui")
	_, err := assemble(t, root, false)
	d := diag.FromError(err)
	if len(d) != 1 || !strings.Contains(d[0].File, filepath.Join("widgets", "above", "index.ts")) || !strings.Contains(d[0].Message, "outside the project") {
		t.Fatalf("want one error for the package above the workspace root, got %v", err)
	}
	os.RemoveAll(filepath.Join(root, "widgets/above"))
	out, err := assemble(t, root, false)
	if err != nil {
		t.Fatal(err)
	}
	if !outputHas(out, "hoisted to the workspace root") {
		t.Error("hoisted package not bundled")
	}
}

// TestWidgetsFolderOutsideRoot: a widgets folder configured outside the
// project root (--widgets ../ui) is read, with its own node_modules.
func TestWidgetsFolderOutsideRoot(t *testing.T) {
	top, root := outsideFixture(t)
	writeFiles(t, top, map[string]string{
		"ui/node_modules/uipkg/package.json": `{"name":"uipkg","main":"index.js"}`,
		"ui/node_modules/uipkg/index.js":     "export const x = 'from the widgets folder node_modules';",
		"ui/v/widget.json":                   `{"title":"V"}`,
		"ui/v/index.ts":                      "import { x } from \"uipkg\";\ndocument.body.textContent = x;\n",
	})
	b, out := assembleOK(t, Options{Root: root, WidgetsDir: filepath.Join(top, "ui"), NoCache: true})
	if !outputHas(out, "from the widgets folder node_modules") {
		t.Error("package not bundled")
	}
	// Still nothing beside it.
	writeFiles(t, top, map[string]string{"ui/v/index.ts": "import t from \"../../secret/passwd.txt\" with { type: \"text\" };\nconsole.log(t);\n"})
	if _, err := b.Assemble(context.Background()); err == nil || !strings.Contains(err.Error(), "outside the project") {
		t.Fatalf("secret beside the widgets folder: %v", err)
	}
}

// TestRebuildSeesNewSymlink: a Builder kept across rebuilds (widgetd dev)
// notices a file replaced by a symlink to outside the project.
func TestRebuildSeesNewSymlink(t *testing.T) {
	top, root := outsideFixture(t)
	writeFiles(t, root, map[string]string{
		"widgets/w/index.ts":     "import t from \"./lib/data.txt\" with { type: \"text\" };\ndocument.body.textContent = t;\n",
		"widgets/w/lib/data.txt": "harmless",
	})
	b, _ := assembleOK(t, Options{Root: root, NoCache: true})
	if err := os.RemoveAll(filepath.Join(root, "widgets/w/lib")); err != nil {
		t.Fatal(err)
	}
	symlink(t, filepath.Join(top, "secret"), filepath.Join(root, "widgets/w/lib"))
	if err := os.Rename(filepath.Join(top, "secret/passwd.txt"), filepath.Join(top, "secret/data.txt")); err != nil {
		t.Fatal(err)
	}
	out, err := b.Assemble(context.Background())
	if err == nil || !strings.Contains(err.Error(), "outside the project") {
		t.Fatalf("rebuild through a new symlink: %v (secret bundled: %v)", err, out != nil && outputHas(out, secret))
	}
}

// TestOutsideAssetExternalMode: with a public URL, assets use esbuild's
// file loader (copied into dist/) rather than data: URLs; still refused.
func TestOutsideAssetExternalMode(t *testing.T) {
	_, root := outsideFixture(t)
	writeFiles(t, root, map[string]string{
		"widgets/w/index.ts": "import \"./s.css\";\n",
		"widgets/w/s.css":    "body { background: url(../../../secret/img.png) }\n",
	})
	t.Chdir(root)
	_, _, err := assembleProject(t, Options{Root: root, NoCache: true, PublicURL: "https://cdn.example.com"})
	d := diag.FromError(err)
	if len(d) != 1 || d[0].Code != diag.CodeOutsideProject || d[0].File != "widgets/w/s.css" || d[0].Line != 1 || d[0].Column != 20 {
		t.Fatalf("want one outside-project error at s.css:1:20, got %v", err)
	}
}

func TestHugeConfigRefused(t *testing.T) {
	_, root := outsideFixture(t)
	writeFiles(t, root, map[string]string{"widgets/w/index.ts": "1", "widgets/w/widget.json": `{"title":"` + strings.Repeat("x", 2<<20) + `"}`})
	t.Chdir(root)
	_, err := assemble(t, root, false)
	if err == nil || !strings.Contains(err.Error(), "widget.json is 2.0 MiB; a config file is at most 1.0 MiB") {
		t.Fatalf("2 MiB widget.json: %v", err)
	}
}

func TestAllowOutsideValidated(t *testing.T) {
	for _, tc := range []struct{ project, want string }{
		{`{"allowOutside": ["../nope"]}`, `widgetd.json:1:19: error: allowOutside "../nope": no such file or directory`},
		{`{"allowOutside": ["../secret/passwd.txt"]}`, "is a file; name the folder"},
		{`{"allowOutside": [""]}`, "this one is empty"},
		{`{"maxSourceSize": -1}`, "maxSourceSize must be a positive number"},
		{`{"htmlBudget": -5}`, "htmlBudget must be a positive number"},
	} {
		_, root := outsideFixture(t)
		writeFiles(t, root, map[string]string{layout.ProjectConfigFile: tc.project, "widgets/w/index.ts": "1"})
		t.Chdir(root)
		_, err := New(Options{Root: root, NoCache: true})
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.project, err, tc.want)
		}
	}
}

// TestSourceSizeLimit refuses an oversized import before reading it: the
// 60 MiB file is sparse, so reading it would take time and memory the test
// would notice.
func TestSourceSizeLimit(t *testing.T) {
	_, root := outsideFixture(t)
	writeFiles(t, root, map[string]string{
		"widgets/w/index.ts": "import big from \"./big.txt\" with { type: \"text\" };\ndocument.body.textContent = big.slice(0, 9);\n",
	})
	big := filepath.Join(root, "widgets/w/big.txt")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(60 << 20); err != nil {
		t.Fatal(err)
	}
	f.Close()
	t.Chdir(root)
	_, err = assemble(t, root, false)
	d := diag.FromError(err)
	if len(d) == 0 || d[0].Code != diag.CodeSourceTooLarge || d[0].File != "widgets/w/index.ts" || d[0].Line != 1 || d[0].Column != 17 ||
		!strings.Contains(d[0].Message, `this import is 60.0 MiB, over the 50.0 MiB source file limit`) || !strings.Contains(d[0].Message, `"maxSourceSize"`) {
		t.Fatalf("want a size error at the import, got %v", err)
	}

	// The limit is configurable; a small file under it builds.
	if err := os.WriteFile(big, []byte(strings.Repeat("x", 3000)), 0o644); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, root, map[string]string{layout.ProjectConfigFile: `{"maxSourceSize": 2000}`})
	if _, err := assemble(t, root, false); err == nil || !strings.Contains(err.Error(), "2.9 KiB, over the 2.0 KiB source file limit") {
		t.Fatalf("maxSourceSize 2000: %v", err)
	}
	writeFiles(t, root, map[string]string{layout.ProjectConfigFile: `{"maxSourceSize": 4000}`})
	if _, err := assemble(t, root, false); err != nil {
		t.Fatalf("maxSourceSize 4000: %v", err)
	}

	// An HTML entry is checked before it is read.
	writeFiles(t, root, map[string]string{
		layout.ProjectConfigFile: `{"maxSourceSize": 100}`,
		"widgets/w/index.ts":     "document.body.textContent = 'w';\n",
		"widgets/w/index.html":   "<!doctype html><html><head><meta charset=\"utf-8\"><title>a long enough title</title></head><body><script type=\"module\" src=\"./index.ts\"></script></body></html>",
	})
	if _, err := assemble(t, root, false); err == nil || !strings.Contains(err.Error(), `widgets/w/index.html: error: entry "index.html" is 158 B, over the 100 B source file limit`) {
		t.Fatalf("oversized HTML entry: %v", err)
	}
}

// TestHTMLBudget warns about a widget document over htmlBudget, and fails
// with Strict.
func TestHTMLBudget(t *testing.T) {
	_, root := outsideFixture(t)
	writeFiles(t, root, map[string]string{
		layout.ProjectConfigFile: `{"htmlBudget": 14336}`,
		"widgets/w/index.ts":     "document.body.textContent = " + "`" + strings.Repeat("lorem ipsum ", 1000) + "`;\n",
		"widgets/s/widget.json":  `{"title":"Small"}`,
		"widgets/s/index.ts":     "document.body.textContent = 's';\n",
	})
	t.Chdir(root)
	out, err := assemble(t, root, false)
	if err != nil {
		t.Fatal(err)
	}
	var budget []diag.Diagnostic
	for _, d := range out.Warnings {
		if strings.Contains(d.Message, "budget") {
			budget = append(budget, d)
		}
	}
	if len(budget) != 1 || !budget[0].Warning || budget[0].Code != diag.CodeHTMLBudget || budget[0].File != "widgets/w/index.ts" ||
		!strings.Contains(budget[0].Message, `widget "w": HTML is 1`) || !strings.Contains(budget[0].Message, "KiB, over the 14.0 KiB budget; some hosts cap an app's HTML at 1 MiB. Build with --public-url") ||
		!strings.Contains(budget[0].Message, `"htmlBudget"`) || !strings.Contains(budget[0].Message, "--public-url") {
		t.Fatalf("budget warnings %+v", budget)
	}
	_, err = assemble(t, root, true)
	d := diag.FromError(err)
	if len(d) != 1 || d[0].Warning || !strings.Contains(d[0].Message, "over the 14.0 KiB budget") {
		t.Fatalf("strict: %v", err)
	}

	// A failed strict build leaves dist/ alone.
	b, err := New(Options{Root: root, NoCache: true, NoCompress: true, Strict: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	if _, err := b.Build(context.Background()); err == nil {
		t.Fatal("strict build passed")
	}
	if _, err := os.Stat(filepath.Join(root, "dist")); !os.IsNotExist(err) {
		t.Errorf("strict failure wrote dist/: %v", err)
	}
}
