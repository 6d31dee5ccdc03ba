package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/internal/exampleserver"
	"github.com/widgetd/widgetd/internal/testfiles"
	"github.com/widgetd/widgetd/typesgen"
)

// moduleProject writes a widget project inside this Go module (a hidden
// folder under testdata, removed afterwards), since `check --types`
// builds the --from package from the widgets folder. It has the examples'
// tsconfig.json and TypeScript.
func moduleProject(t *testing.T, files map[string]string) string {
	t.Helper()
	dir, err := os.MkdirTemp("testdata", ".typesproject-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	root, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	tmp := typedProject(t, true, files)
	if err := os.CopyFS(root, os.DirFS(tmp)); err != nil {
		t.Fatal(err)
	}
	nm, _ := filepath.Abs("../../widgets/node_modules")
	link := filepath.Join(root, "widgets", "node_modules")
	if err := os.Remove(link); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	if err := os.Symlink(nm, link); err != nil {
		t.Fatal(err)
	}
	return root
}

const cardWidget = `{"title": "Card", "domain": "https://ok.example.com", "widgetDescription": "d"}`

// cardIndex uses the generated types: every line would fail tsc --strict
// if the types were missing or wrong.
const cardIndex = `import { widget } from "widgetd";
import type { ShowCardOutput } from "./tools.gen";
void widget.callTool("show-card", { title: "t", count: 2 }).then((r) => {
  const title: string | undefined = r.structuredContent?.title;
  const out: ShowCardOutput = { title: "a", tags: null };
  console.log(title, out);
});
`

// TestTypesFromCheckTypes drives `types --from` and `check --types` over a
// real mcp-go server (testdata/typesserver, served with mcpgo.ServeTypes)
// whose tools change between runs as an edit of its Go source would.
func TestTypesFromCheckTypes(t *testing.T) {
	pkg := "./testdata/typesserver"
	root := moduleProject(t, map[string]string{"widgets/card/widget.json": cardWidget, "widgets/card/index.ts": cardIndex})
	widgets := filepath.Join(root, "widgets")
	generated := filepath.Join(widgets, "card", typesgen.FileName)
	code, out, errs := runCLI(t, "types", "--from", pkg, "--widgets", widgets)
	if code != exitOK || !strings.Contains(out, "wrote "+generated) || !strings.Contains(errs, `a tool shows widget "no-folder", which has no folder`) {
		t.Fatalf("types --from: exit %d\nstdout: %s\nstderr: %s", code, out, errs)
	}
	data, err := os.ReadFile(generated)
	if err != nil {
		t.Fatal(err)
	}
	checkGoldenFile(t, "testdata/typesserver/card.tools.gen.d.ts.golden", data, "TestTypesFromCheckTypes")
	if code, _, errs := runCLI(t, "types", "--from", pkg, "--widgets", widgets, "--check"); code != exitOK {
		t.Fatalf("types --check right after writing: exit %d: %s", code, errs)
	}
	t.Chdir(root) // diagnostics are relative to the working directory
	for _, tc := range []struct {
		name, variant, index string
		code                 int
		want                 string
	}{
		{"schema changed", "subtitle", cardIndex, exitError,
			"widgets/card/tools.gen.d.ts:1:1: error: tools.gen.d.ts is out of date: a tool's schema changed since it was generated; run: widgetd types --from github.com/widgetd/widgetd/cmd/widgetd/testdata/typesserver"},
		{"widget no longer shown", "none", cardIndex, exitError,
			"widgets/card/tools.gen.d.ts:1:1: error: no tool of --from github.com/widgetd/widgetd/cmd/widgetd/testdata/typesserver shows this widget any more"},
		{"type errors at their lines", "", strings.NewReplacer("const title: string |", "const title: number |", `count: 2`, `count: "2"`).Replace(cardIndex), exitError,
			"widgets/card/index.ts:4:9: error: Type 'string | undefined' is not assignable to type 'number | undefined'."},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("TYPESSERVER_VARIANT", tc.variant)
			if err := os.WriteFile(filepath.Join(widgets, "card", "index.ts"), []byte(tc.index), 0o644); err != nil {
				t.Fatal(err)
			}
			code, out, errs := runCLI(t, "check", "--root", ".", "--types")
			// Fresh types reach tsc, which finds exactly the two errors: the
			// other lines use the generated types correctly.
			if tc.variant == "" && (!strings.Contains(errs, "widgets/card/index.ts:3:") || !strings.Contains(errs, "2 type error(s)")) {
				t.Errorf("want the wrong argument of callTool(\"show-card\") on line 3 and the wrong type on line 4, alone:\n%s", errs)
			}
			if code != tc.code || !strings.Contains(errs, tc.want) {
				t.Errorf("check --types: exit %d (want %d)\nstdout: %s\nstderr: %s\nwant: %s", code, tc.code, out, errs, tc.want)
			}
		})
	}
	t.Setenv("TYPESSERVER_VARIANT", "none")
	if code, out, errs := runCLI(t, "types", "--from", "github.com/widgetd/widgetd/cmd/widgetd/testdata/typesserver", "--widgets", widgets); code != exitOK || !strings.Contains(out, "removed "+generated) {
		t.Errorf("types --from with no tool for the widget: exit %d\nstdout: %s\nstderr: %s", code, out, errs)
	}
	if _, err := os.Stat(generated); !os.IsNotExist(err) {
		t.Errorf("%s still exists: %v", generated, err)
	}
}

// TestTypesFromErrors covers the ways --from fails: a server that never
// serves its tools over stdio, a package that is not a main package, and
// both sources at once.
func TestTypesFromErrors(t *testing.T) {
	widgets := filepath.Join(t.TempDir(), "widgets")
	if err := os.Mkdir(widgets, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TYPESSERVER_NOHOOK", "1")
	for _, tc := range []struct {
		name string
		args []string
		code int
		want []string
	}{
		{"no ServeTypes", []string{"--from", "./testdata/typesserver"}, exitError,
			[]string{"did not answer MCP on its standard input and output", "must call gosdk.ServeTypes or mcpgo.ServeTypes", "typesserver: would listen now"}},
		{"not a main package", []string{"--from", "../../typesgen"}, exitError, []string{"not one main package (got package typesgen)"}},
		{"no such package", []string{"--from", "./testdata/nothing-here"}, exitError, []string{"--from ./testdata/nothing-here:"}},
		{"both sources", []string{"--from", "x", "--mcp", "http://127.0.0.1:1/mcp"}, exitUsage, []string{"give one of --mcp and --from"}},
		{"unreachable server", []string{"--mcp", "http://127.0.0.1:1/mcp"}, exitError, []string{"connecting to http://127.0.0.1:1/mcp"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCLI(t, append([]string{"types", "--widgets", widgets}, tc.args...)...)
			for _, w := range tc.want {
				if code != tc.code || !strings.Contains(errs, w) {
					t.Errorf("exit %d (want %d)\nstdout: %s\nstderr: %s\nwant: %s", code, tc.code, out, errs, w)
				}
			}
		})
	}
}

// TestTypesExampleServer generates the example server's widget types both
// ways, --from (built, over stdio) and --mcp (the server started on
// loopback), and compares them with the committed widgets/*/tools.gen.d.ts.
func TestTypesExampleServer(t *testing.T) {
	names := []string{"get-time", "hello", "weather"}
	fromDir, mcpDir := exampleWidgets(t, names), exampleWidgets(t, names)
	if code, out, errs := runCLI(t, "types", "--from", "../../examples/mcpserver", "--widgets", fromDir); code != exitOK {
		t.Fatalf("types --from: exit %d\nstdout: %s\nstderr: %s", code, out, errs)
	}
	url := exampleserver.Start(t)
	if code, out, errs := runCLI(t, "types", "--mcp", url, "--widgets", mcpDir); code != exitOK {
		t.Fatalf("types --mcp: exit %d\nstdout: %s\nstderr: %s", code, out, errs)
	}
	for _, name := range names {
		want, err := os.ReadFile(filepath.Join("../../widgets", name, typesgen.FileName))
		if err != nil {
			t.Fatal(err)
		}
		from, _ := os.ReadFile(filepath.Join(fromDir, name, typesgen.FileName))
		if string(from) != string(want) {
			t.Errorf("--from: %s differs from widgets/%s/%s (run: go run ./cmd/widgetd types --from ./examples/mcpserver):\n%s", name, name, typesgen.FileName, from)
		}
		got, _ := os.ReadFile(filepath.Join(mcpDir, name, typesgen.FileName))
		wantMCP := strings.Replace(string(want), "--from github.com/widgetd/widgetd/examples/mcpserver", "--mcp "+url, 1)
		if string(got) != wantMCP {
			t.Errorf("--mcp: %s differs from the --from output:\n%s", name, got)
		}
	}
}

// exampleWidgets is a widgets folder with a widget.json per name.
func exampleWidgets(t *testing.T, names []string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "widgets")
	for _, n := range names {
		testfiles.WriteFile(t, filepath.Join(dir, n, "widget.json"), "{}")
	}
	return dir
}
