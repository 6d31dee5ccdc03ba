package typesgen

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/bundler/bridge"
	"github.com/widgetd/widgetd/internal/testfiles"
)

// usageTS uses the generated corpus types the way a widget does; every
// @ts-expect-error line must be an error, so a type that widened to any or
// unknown fails the test as surely as one that does not compile.
const usageTS = `import { widget } from "widgetd";
import { useToolOutput, useToolInput, useCallTool } from "widgetd/react";
import type { CorpusRefsOutput, CorpusRefsNode } from "./corpus-refs/tools.gen";
import type { CorpusLiteralsOutput } from "./corpus-literals/tools.gen";

export async function use(): Promise<void> {
  const r = await widget.callTool("corpus-scalars", { q: "x" });
  const n: number | undefined = r.structuredContent?.count;
  // @ts-expect-error count is a number, not a string
  const s: string | undefined = r.structuredContent?.count;
  // @ts-expect-error q is a string
  await widget.callTool("corpus-scalars", { q: 1 });
  // @ts-expect-error the input is closed (additionalProperties false)
  await widget.callTool("corpus-scalars", { q: "x", other: 1 });
  await widget.callTool("corpus-scalars");
  await widget.callTool("not-generated", { anything: 1 });

  const out = useToolOutput("corpus-refs");
  const label: string | undefined = out?.root.children?.[0]?.label;
  const self: CorpusRefsOutput | undefined = out?.self;
  const node: CorpusRefsNode = { label: "a", children: [{ label: "b" }] };
  const untyped = useToolOutput<{ z: number }>();
  const z: number | undefined = untyped?.z;

  const lit: CorpusLiteralsOutput = { unit: "C", kind: "forecast" };
  // @ts-expect-error "K" is not a unit
  const badUnit: CorpusLiteralsOutput = { unit: "K", kind: "forecast" };
  // @ts-expect-error kind is required
  const noKind: CorpusLiteralsOutput = { unit: "C" };

  const input = useToolInput("corpus-arrays");
  const q: string | undefined = input?.q;
  const call = useCallTool("corpus-nullable");
  const res = await call.call({ q: "y" });
  const days: string[] | null | undefined = res?.structuredContent?.days;
  void [n, s, label, self, node, z, lit, badUnit, noKind, q, days];
}
`

// TestGeneratedTypesCompile puts every corpus golden into a widget project
// beside widgetd.d.ts and a file that uses them, and runs tsc --strict.
func TestGeneratedTypesCompile(t *testing.T) {
	tsc := tscPath(t)
	dir := t.TempDir()
	dts, err := bridge.DTS()
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{"widgetd.d.ts": dts, "usage.ts": []byte(usageTS),
		"tsconfig.json": []byte(`{"compilerOptions": {"target": "ES2022", "lib": ["ES2022", "DOM"], "module": "ESNext",
  "moduleResolution": "bundler", "strict": true, "noEmit": true, "isolatedModules": true, "skipLibCheck": false, "types": []},
  "include": ["*.d.ts", "*/**/*.ts", "*.ts"]}`)}
	goldens, _ := filepath.Glob("testdata/*/*.d.ts")
	for _, g := range goldens {
		data, err := os.ReadFile(g)
		if err != nil {
			t.Fatal(err)
		}
		widget := strings.TrimPrefix(strings.Split(string(data), "show the widget \"")[1], "")
		widget = widget[:strings.IndexByte(widget, '"')]
		files[filepath.Join(widget, FileName)] = data
	}
	if len(files) < 10 {
		t.Fatalf("only %d files to compile", len(files))
	}
	for name, data := range files {
		testfiles.WriteFile(t, filepath.Join(dir, name), string(data))
	}
	cmd := exec.Command("node", tsc, "--noEmit", "--pretty", "false", "-p", dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tsc --strict rejects the generated types: %v\n%s", err, out)
	}
}

// tscPath is the TypeScript compiler of the examples' widgets project.
func tscPath(t *testing.T) string {
	t.Helper()
	tsc, err := filepath.Abs(filepath.Join("..", "widgets", "node_modules", "typescript", "bin", "tsc"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(tsc); err != nil {
		t.Fatalf("typescript missing: run `npm ci` in widgets/ (%v)", err)
	}
	return tsc
}
