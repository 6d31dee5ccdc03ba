package bridge_test

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// tscIn returns the pinned TypeScript compiler (widgets/package-lock.json,
// the one scripts/tsc runs) and the @types folder beside it.
func tscIn(t *testing.T) (tsc, types string) {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	tsc = filepath.Join(root, "widgets", "node_modules", "typescript", "bin", "tsc")
	if _, err := os.Stat(tsc); err != nil {
		t.Fatalf("typescript missing: run `npm ci` in widgets/ (%v)", err)
	}
	return tsc, filepath.Join(root, "widgets", "node_modules", "@types")
}

// copyTree copies the bridge's src and typecheck folders into dir (beside
// a widgets/node_modules/@types link, where typecheck/tsconfig.json looks).
func copyTree(t *testing.T, dir, types string) {
	t.Helper()
	for _, sub := range []string{"src", "typecheck"} {
		entries, err := os.ReadDir(sub)
		if err != nil {
			t.Fatal(err)
		}
		os.MkdirAll(filepath.Join(dir, "bundler", "bridge", sub), 0o755)
		for _, e := range entries {
			data, err := os.ReadFile(filepath.Join(sub, e.Name()))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, "bundler", "bridge", sub, e.Name()), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	os.MkdirAll(filepath.Join(dir, "widgets", "node_modules"), 0o755)
	if err := os.Symlink(types, filepath.Join(dir, "widgets", "node_modules", "@types")); err != nil {
		t.Fatal(err)
	}
}

// TestDeclarationsMatchBridge type-checks (strict) the bridge's sources
// against the declarations widget authors get, src/widgetd.d.ts, through
// typecheck/conformance.ts: every declared value must exist with an
// assignable type and every declared function take the same parameters.
// The sources import their public types from the declarations, so a
// declared type the code does not fit fails in the sources themselves. The
// changed declarations must each fail it, so the check is shown to see
// signatures and types, not only names.
func TestDeclarationsMatchBridge(t *testing.T) {
	tsc, types := tscIn(t)
	cases := []struct {
		name     string
		old, new string // a change to widgetd.d.ts ("" for none)
		fails    string // what tsc must report
	}{
		{name: "as shipped"},
		{name: "parameter wider", old: `log(level: "debug" | "info"`, new: `log(level: string | "info"`, fails: `"log"`},
		{name: "type differs", old: `export type Host = "chatgpt" | "mcp-apps" | "standalone";`, new: `export type Host = "chatgpt" | "mcp-apps";`, fails: "src/index.ts"},
		{name: "hook signature", old: `export function useTheme(): "light" | "dark" | undefined;`, new: `export function useTheme(fallback: string): "light" | "dark" | undefined;`, fails: "useTheme"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			copyTree(t, dir, types)
			dts := filepath.Join(dir, "bundler", "bridge", "src", "widgetd.d.ts")
			if c.old != "" {
				data, _ := os.ReadFile(dts)
				if !strings.Contains(string(data), c.old) {
					t.Fatalf("widgetd.d.ts no longer has %q: update this case", c.old)
				}
				os.WriteFile(dts, []byte(strings.Replace(string(data), c.old, c.new, 1)), 0o644)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
			defer cancel()
			out, err := exec.CommandContext(ctx, "node", tsc, "-p", filepath.Join(dir, "bundler", "bridge", "typecheck")).CombinedOutput()
			switch {
			case c.fails == "" && err != nil:
				t.Fatalf("bridge sources and src/widgetd.d.ts disagree: %v\n%s", err, out)
			case c.fails != "" && err == nil:
				t.Fatalf("tsc accepted a declaration that differs from the code (%s)", c.name)
			case c.fails != "" && !strings.Contains(string(out), c.fails):
				t.Fatalf("tsc failed without naming %q:\n%s", c.fails, out)
			}
		})
	}
}

// TestExampleProjectLinksDeclarations: the example project's widgetd.d.ts
// (widgets/, where `widgetd init` writes the standalone file users get) is
// a link to src/widgetd.d.ts, so the declarations exist once in the
// repository. `widgetd types` run over it would leave a copy in its place.
func TestExampleProjectLinksDeclarations(t *testing.T) {
	const want = "../bundler/bridge/src/widgetd.d.ts"
	link, err := os.Readlink(filepath.Join("..", "..", "widgets", "widgetd.d.ts"))
	if err != nil || link != want {
		t.Fatalf("widgets/widgetd.d.ts is not a link to %s (%q, %v): restore it with `ln -sf %s widgets/widgetd.d.ts`", want, link, err, want)
	}
}
