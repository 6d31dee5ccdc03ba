package typecheck

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestParse(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "a.ts"), []byte("let a = 1;\nconst x: number = \"s\";\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	out := "a.ts(2,7): error TS2322: Type 'string' is not assignable to type 'number'.\n" +
		"b.tsx(10,3): error TS2345: Argument of type 'X' is not assignable.\n  Property 'y' is missing.\n" +
		"error TS5058: The specified path does not exist.\n"
	d := Parse(dir, []byte(out))
	if len(d) != 2 {
		t.Fatalf("got %d diagnostics: %+v", len(d), d)
	}
	if d[0].Line != 2 || d[0].Column != 7 || d[0].Source != `const x: number = "s";` || d[0].Message != "Type 'string' is not assignable to type 'number'. (TS2322)" {
		t.Errorf("first: %+v", d[0])
	}
	if d[1].Message != "Argument of type 'X' is not assignable. (TS2345)\n    Property 'y' is missing." || d[1].Source != "" {
		t.Errorf("second: %+v", d[1])
	}
}

func TestMissing(t *testing.T) {
	dir := t.TempDir()
	if _, err := Run(context.Background(), dir); !errors.Is(err, ErrNoTypeScript) {
		t.Errorf("no tsconfig: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, "tsconfig.json"), []byte(`{}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), dir); !errors.Is(err, ErrNoTypeScript) {
		t.Errorf("no TypeScript: %v", err)
	}
}
