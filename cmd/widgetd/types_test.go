package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/bundler/bridge"
)

// TestTypesCommand checks that widgetd types writes the bridge declarations,
// that --check tells a stale copy from a current one, and that the copy in
// widgets/ is current.
func TestTypesCommand(t *testing.T) {
	dir := t.TempDir()
	if code, out, errs := runCLI(t, "types", "--widgets", dir); code != exitOK || !strings.Contains(out, "wrote") {
		t.Fatalf("exit %d: %s%s", code, out, errs)
	}
	dts, _ := bridge.DTS()
	got, err := os.ReadFile(filepath.Join(dir, typesFile))
	if err != nil || string(got) != string(dts) {
		t.Fatalf("written file differs from the bridge declarations (%v)", err)
	}
	if code, _, _ := runCLI(t, "types", "--widgets", dir, "--check"); code != exitOK {
		t.Errorf("--check on a current file: exit %d", code)
	}
	os.WriteFile(filepath.Join(dir, typesFile), []byte("// stale\n"), 0o644)
	if code, _, errs := runCLI(t, "types", "--widgets", dir, "--check"); code != exitError || !strings.Contains(errs, "out of date") {
		t.Errorf("--check on a stale file: exit %d, %s", code, errs)
	}
	if code, _, errs := runCLI(t, "types", "--widgets", filepath.Join(dir, "missing")); code != exitError || !strings.Contains(errs, "does not exist") {
		t.Errorf("missing folder: exit %d, %s", code, errs)
	}
	if code, _, errs := runCLI(t, "types", "--widgets", "../../widgets", "--check"); code != exitOK {
		t.Errorf("widgets/%s is stale: run `go run ./cmd/widgetd types` (%s)", typesFile, errs)
	}
}

// TestExamplesTypeCheck runs tsc (strict) over the example widgets against
// the shipped declarations: the examples are documentation, and the
// declarations must describe what the bridge really offers them.
func TestExamplesTypeCheck(t *testing.T) {
	tsc := filepath.Join("..", "..", "widgets", "node_modules", "typescript", "bin", "tsc")
	if _, err := os.Stat(tsc); err != nil {
		t.Fatalf("typescript missing: run `npm ci` in widgets/ (%v)", err)
	}
	cmd := exec.Command("node", tsc, "-p", filepath.Join("..", "..", "widgets"))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tsc over widgets/: %v\n%s", err, out)
	}
}

// TestDeclarationsMatchBridge type-checks the bridge's TypeScript sources
// (strict) together with the shipped declarations, and fails when the
// declarations promise a member, export or hook the implementation lacks.
func TestDeclarationsMatchBridge(t *testing.T) {
	abs := func(rel string) string {
		p, err := filepath.Abs(filepath.Join("..", "..", rel))
		if err != nil {
			t.Fatal(err)
		}
		return filepath.ToSlash(p)
	}
	tsc := abs("widgets/node_modules/typescript/bin/tsc")
	if _, err := os.Stat(tsc); err != nil {
		t.Fatalf("typescript missing: run `npm ci` in widgets/ (%v)", err)
	}
	dir := t.TempDir()
	types := abs("widgets/node_modules/@types")
	files := map[string]string{
		"check.ts": `import * as impl from "` + abs("bundler/bridge/src/index") + `";
import * as implReact from "` + abs("bundler/bridge/src/react") + `";
import * as implTools from "` + abs("bundler/bridge/src/tools") + `";
import * as implChatGPT from "` + abs("bundler/bridge/src/chatgpt") + `";
import * as implMCP from "` + abs("bundler/bridge/src/mcp") + `";
import "` + abs("bundler/bridge/src/appadapter") + `";
import type * as Decl from "widgetd";
import type * as DeclReact from "widgetd/react";
import type * as DeclTools from "widgetd/tools";
import type * as DeclChatGPT from "widgetd/chatgpt";
import type * as DeclMCP from "widgetd/mcp";
type MissingMembers = Exclude<keyof typeof Decl.widget, keyof typeof impl.widget>;
type MissingValues = Exclude<keyof typeof Decl, keyof typeof impl>;
type MissingHooks = Exclude<keyof typeof DeclReact, keyof typeof implReact>;
type MissingTools = Exclude<keyof typeof DeclTools, keyof typeof implTools>;
type MissingExtras = Exclude<keyof typeof DeclChatGPT, keyof typeof implChatGPT>;
type MissingMCP = Exclude<keyof typeof DeclMCP, keyof typeof implMCP>;
export const members: [MissingMembers] extends [never] ? true : MissingMembers = true;
export const values: [MissingValues] extends [never] ? true : MissingValues = true;
export const hooks: [MissingHooks] extends [never] ? true : MissingHooks = true;
export const tools: [MissingTools] extends [never] ? true : MissingTools = true;
export const extras: [MissingExtras] extends [never] ? true : MissingExtras = true;
export const mcp: [MissingMCP] extends [never] ? true : MissingMCP = true;
export const error: typeof Decl.WidgetdError = impl.WidgetdError;
`,
		"tsconfig.json": `{"compilerOptions": {"target": "ES2020", "lib": ["ES2022", "DOM", "DOM.Iterable"], "module": "ESNext",
  "moduleResolution": "bundler", "jsx": "react-jsx", "strict": true, "noEmit": true, "types": [],
  "baseUrl": ".", "paths": {"react": ["` + types + `/react"], "react/*": ["` + types + `/react/*"]}},
  "files": ["` + abs("bundler/bridge/src/widgetd.d.ts") + `", "check.ts"]}`,
	}
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command("node", tsc, "-p", dir).CombinedOutput(); err != nil {
		t.Fatalf("bridge sources and declarations disagree: %v\n%s", err, out)
	}
}
