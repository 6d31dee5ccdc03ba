package docs

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/bundler"
	"github.com/widgetd/widgetd/bundler/bridge"
	"github.com/widgetd/widgetd/diag"
	"github.com/widgetd/widgetd/internal/testfiles"
	"github.com/widgetd/widgetd/typecheck"
)

// tsSnippet is one ```ts or ```tsx block of a doc.
type tsSnippet struct {
	doc  string // the doc's path, for messages
	line int    // the doc line of the block's first code line
	ext  string // "ts" or "tsx"
	code string
}

// fence matches a ```ts or ```tsx block.
var fence = regexp.MustCompile("(?ms)^```(tsx?)\n(.*?)^```")

// tsSnippets returns every TypeScript block of the README and docs/*.md.
func tsSnippets(t *testing.T) []tsSnippet {
	t.Helper()
	docs, err := filepath.Glob("../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	var out []tsSnippet
	for _, doc := range append([]string{"../README.md"}, docs...) {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range fence.FindAllSubmatchIndex(data, -1) {
			line := 2 + strings.Count(string(data[:m[0]]), "\n")
			out = append(out, tsSnippet{doc: strings.TrimPrefix(doc, "../"), line: line, ext: string(data[m[2]:m[3]]), code: string(data[m[4]:m[5]])})
		}
	}
	return out
}

// snippetPrelude declares what the docs' snippets call without defining:
// the widget's own code.
const snippetPrelude = `// The widget's own functions the docs' snippets call.
declare function render(content: unknown): void;
declare function hideButton(): void;
declare function select(id: string): string;
`

// snippetProject writes a widget project with one widget per snippet
// (widgets/s<i>/index.ts or .tsx), the bridge's declarations, the examples'
// tsconfig.json and node_modules (React, TypeScript), and returns its
// widgets folder.
func snippetProject(t *testing.T, snippets []tsSnippet) string {
	t.Helper()
	examples, err := filepath.Abs("../widgets")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(examples, "node_modules", "typescript", "bin", "tsc")); err != nil {
		t.Fatalf("TypeScript is not installed for the examples; run `npm ci` in widgets/ (scripts/test does): %v", err)
	}
	widgets := filepath.Join(t.TempDir(), "widgets")
	dts, err := bridge.DTS()
	if err != nil {
		t.Fatal(err)
	}
	tsconfig, err := os.ReadFile(filepath.Join(examples, "tsconfig.json"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{"widgetd.d.ts": dts, "docs-prelude.d.ts": []byte(snippetPrelude), "tsconfig.json": tsconfig}
	for i, s := range snippets {
		files[fmt.Sprintf("s%d/widget.json", i)] = []byte(`{}`)
		files[fmt.Sprintf("s%d/index.%s", i, s.ext)] = []byte(s.code)
	}
	for name, data := range files {
		testfiles.WriteFile(t, filepath.Join(widgets, filepath.FromSlash(name)), string(data))
	}
	if err := os.Symlink(filepath.Join(examples, "node_modules"), filepath.Join(widgets, "node_modules")); err != nil {
		t.Fatal(err)
	}
	// A node_modules linking outside the project needs allowOutside.
	allow := fmt.Sprintf(`{"allowOutside": [%q]}`, filepath.Join(examples, "node_modules"))
	if err := os.WriteFile(filepath.Join(filepath.Dir(widgets), "widgetd.json"), []byte(allow), 0o644); err != nil {
		t.Fatal(err)
	}
	return widgets
}

// snippetIndexRE finds the snippet a diagnostic's file belongs to.
var snippetIndexRE = regexp.MustCompile(`(?:^|/)s(\d+)/index\.tsx?$`)

// checkSnippets bundles every snippet as a widget entry with widgetd's
// bundler (its target and the real bridge: an unresolvable import fails here)
// and type-checks them with tsc under the examples' strict tsconfig.json.
// It returns the problems as doc:line: message, by snippet index.
func checkSnippets(t *testing.T, snippets []tsSnippet) map[int][]string {
	t.Helper()
	widgets := snippetProject(t, snippets)
	root := filepath.Dir(widgets)
	problems := map[int][]string{}
	add := func(file string, line int, msg string) {
		m := snippetIndexRE.FindStringSubmatch(filepath.ToSlash(file))
		if m == nil {
			t.Errorf("%s:%d: %s (not in a snippet)", file, line, msg)
			return
		}
		i, _ := strconv.Atoi(m[1])
		problems[i] = append(problems[i], fmt.Sprintf("%s:%d: %s", snippets[i].doc, snippets[i].line+max(line, 1)-1, msg))
	}
	_, err := bundler.Build(context.Background(), bundler.Options{Root: root, OutDir: filepath.Join(root, "dist"), NoCompress: true, NoCache: true})
	for _, d := range diag.FromError(err) {
		if !d.Warning {
			add(d.File, d.Line, d.Message)
		}
	}
	if err != nil && len(diag.FromError(err)) == 0 {
		t.Fatalf("bundle the snippets: %v", err)
	}
	diags, err := typecheck.Run(context.Background(), widgets)
	if err != nil {
		t.Fatalf("type-check the snippets: %v", err)
	}
	for _, d := range diags {
		add(d.File, d.Line, d.Message)
	}
	return problems
}

// TestTypeScriptSnippets: every ```ts and ```tsx block of the README and
// docs/ bundles as a widget entry through widgetd's bundler and
// type-checks under strict against widgetd.d.ts. Two broken snippets run
// alongside and must be caught (an import the bundler cannot resolve; a
// type error), so the
// test cannot pass by checking nothing.
func TestTypeScriptSnippets(t *testing.T) {
	snippets := tsSnippets(t)
	if len(snippets) < 4 {
		t.Fatalf("found %d TypeScript snippets; the README and docs/bridge.md hold at least 4", len(snippets))
	}
	n := len(snippets)
	snippets = append(snippets,
		tsSnippet{doc: "control", line: 1, ext: "ts", code: "import { widget } from \"widgetd\";\nimport { missing } from \"./no-such-module\";\nconsole.log(widget.host, missing);\n"},
		tsSnippet{doc: "control", line: 1, ext: "ts", code: "import { widget } from \"widgetd\";\nconst n: number = widget.host;\nconsole.log(n);\n"},
	)
	problems := checkSnippets(t, snippets)
	for i := range n {
		for _, p := range problems[i] {
			t.Errorf("%s", p)
		}
	}
	for i, want := range map[int]string{n: "Could not resolve \"./no-such-module\"", n + 1: "is not assignable to type 'number'"} {
		if !strings.Contains(strings.Join(problems[i], "\n"), want) {
			t.Errorf("control snippet %d was not caught (want %q): %v", i-n, want, problems[i])
		}
	}
}

// discardedErr matches Go doc code that drops the error of a call whose
// error matters: fs.Sub, assets.Load, AttachWidget.
var discardedErr = regexp.MustCompile(`(?m)^\s*(?:\w+, _ :?= (?:fs\.Sub|assets\.Load)\(|(?:gosdk|mcpgo)\.AttachWidget\()`)

// loadErrUnchecked matches an assets.Load whose err is not checked next.
var loadErrUnchecked = regexp.MustCompile(`(?s)reg, err := assets\.Load\((?:[^()]|\([^()]*\))*\)[^\n]*\n\s*(?:[^i\s]|i[^f])`)

// TestGoSnippetsCheckErrors: the Go blocks of the README and docs/ check
// the errors of fs.Sub, assets.Load and AttachWidget, as code copied into
// a server should.
func TestGoSnippetsCheckErrors(t *testing.T) {
	docs, _ := filepath.Glob("../docs/*.md")
	goFence := regexp.MustCompile("(?ms)^```go\n(.*?)^```")
	for _, doc := range append([]string{"../README.md"}, docs...) {
		data, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range goFence.FindAllSubmatchIndex(data, -1) {
			code := data[m[2]:m[3]]
			line := 2 + strings.Count(string(data[:m[0]]), "\n")
			for _, re := range []*regexp.Regexp{discardedErr, loadErrUnchecked} {
				if loc := re.FindIndex(code); loc != nil {
					at := line + strings.Count(string(code[:loc[0]]), "\n")
					t.Errorf("%s:%d: the snippet ignores an error: %s", strings.TrimPrefix(doc, "../"), at, firstLine(string(code[loc[0]:loc[1]])))
				}
			}
		}
	}
}

// firstLine is s's first non-blank line, trimmed.
func firstLine(s string) string {
	line, _, _ := strings.Cut(strings.TrimSpace(s), "\n")
	return line
}
