package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/bundler/bridge"
)

// typedProject is a project with the examples' tsconfig.json, the bridge
// declarations and, when withTS, the examples' installed TypeScript.
func typedProject(t *testing.T, withTS bool, files map[string]string) string {
	t.Helper()
	tsconfig, err := os.ReadFile("../../widgets/tsconfig.json")
	if err != nil {
		t.Fatal(err)
	}
	dts, err := bridge.DTS()
	if err != nil {
		t.Fatal(err)
	}
	files["widgets/tsconfig.json"] = string(tsconfig)
	files["widgets/widgetd.d.ts"] = string(dts)
	root := writeProject(t, files)
	if withTS {
		nm, _ := filepath.Abs("../../widgets/node_modules")
		if _, err := os.Stat(filepath.Join(nm, "typescript", "bin", "tsc")); err != nil {
			t.Fatalf("TypeScript is not installed in widgets/: run npm ci there: %v", err)
		}
		if err := os.Symlink(nm, filepath.Join(root, "widgets", "node_modules")); err != nil {
			t.Fatal(err)
		}
		// A node_modules linking outside the project needs allowOutside.
		if err := os.WriteFile(filepath.Join(root, "widgetd.json"), []byte(fmt.Sprintf(`{"allowOutside": [%q]}`, nm)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

func TestTypesFlag(t *testing.T) {
	bad := typedProject(t, true, map[string]string{
		"widgets/w/widget.json": `{"title": "W", "domain": "https://ok.example.com", "widgetDescription": "d"}`,
		"widgets/w/index.ts":    "import { widget } from \"widgetd\";\nconst x: number = \"str\";\nwidget.onToolResult(() => document.body.append(String(x)));\n",
	})
	good := typedProject(t, true, map[string]string{
		"widgets/w/widget.json": `{"title": "W", "domain": "https://ok.example.com", "widgetDescription": "d"}`,
		"widgets/w/index.ts":    "import { widget } from \"widgetd\";\nconst x: number = 1;\nwidget.onToolResult(() => document.body.append(String(x)));\n",
	})
	noTS := typedProject(t, false, map[string]string{
		"widgets/w/widget.json": `{"title": "W", "domain": "https://ok.example.com", "widgetDescription": "d"}`,
		"widgets/w/index.ts":    "const x: number = 1;\n",
	})
	wantErr := "widgets/w/index.ts:2:7: error: Type 'string' is not assignable to type 'number'. (TS2322)\n    const x: number = \"str\";\n          ^"
	for _, tc := range []struct {
		name string
		args []string
		code int
		want string
	}{
		{"check type error", []string{"check", "--root", bad, "--types"}, exitError, wantErr},
		{"check without --types passes", []string{"check", "--root", bad}, exitOK, ""},
		{"check clean", []string{"check", "--root", good, "--types", "--strict"}, exitOK, ""},
		{"build type error", []string{"build", "--root", bad, "--types"}, exitError, "dist/ was not changed"},
		{"build clean", []string{"build", "--root", good, "--types"}, exitOK, ""},
		{"no TypeScript", []string{"check", "--root", noTS, "--types"}, exitError, "TypeScript is not installed in " + filepath.Join(noTS, "widgets") + " or a folder above it; run: (cd " + filepath.Join(noTS, "widgets") + " && npm install --save-dev typescript)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Diagnostics are relative to the working directory: run in the project.
			root := tc.args[2]
			t.Chdir(root)
			args := append([]string{tc.args[0], "--root", "."}, tc.args[3:]...)
			code, out, errs := runCLI(t, args...)
			if code != tc.code || !strings.Contains(errs, strings.ReplaceAll(tc.want, root+"/", "")) && !strings.Contains(errs, tc.want) {
				t.Errorf("exit %d (want %d)\nstdout: %s\nstderr: %s\nwant: %s", code, tc.code, out, errs, tc.want)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(bad, "dist")); !os.IsNotExist(err) {
		t.Errorf("build --types wrote dist/ despite a type error: %v", err)
	}
}
