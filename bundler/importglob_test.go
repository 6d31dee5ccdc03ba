package bundler

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestImportGlobRecorded: a file added to a folder import.meta.glob
// walked, even one that held no input, makes the next build bundle again
// (the matches changed although no input did), and the new file is in it.
func TestImportGlobRecorded(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"widgets/w/widget.json": `{}`,
		"widgets/w/index.ts":    "const parts = import.meta.glob(\"./parts/**/*.ts\", { eager: true, import: \"default\" });\ndocument.body.append(Object.values(parts).join(\",\"));\n",
		"widgets/w/parts/a.ts":  `export default "part-a";`,
	})
	if err := os.MkdirAll(filepath.Join(root, "widgets", "w", "parts", "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	opts := Options{Root: root, CacheDir: t.TempDir()}
	build := func() (*Result, string) {
		t.Helper()
		res, err := Build(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		page, err := os.ReadFile(filepath.Join(res.OutDir, res.Manifest.Widgets[0].HTML))
		if err != nil {
			t.Fatal(err)
		}
		return res, string(page)
	}
	if _, page := build(); !strings.Contains(page, "part-a") {
		t.Fatalf("first build lacks part-a:\n%s", page)
	}
	if res, _ := build(); !res.UpToDate {
		t.Fatal("unchanged rebuild bundled again")
	}
	writeFiles(t, root, map[string]string{"widgets/w/parts/empty/b.ts": `export default "part-b";`})
	res, page := build()
	if res.UpToDate {
		t.Fatal("a file added to a globbed folder with no input left the build up to date")
	}
	if !strings.Contains(page, "part-a") || !strings.Contains(page, "part-b") {
		t.Errorf("rebuild lacks a part:\n%s", page)
	}
}

// TestImportGlobErrors: a call the build cannot expand fails the build at
// the call, saying why.
func TestImportGlobErrors(t *testing.T) {
	for _, tt := range []struct{ name, src, want string }{
		{"not a literal", "const dir = \"./x\";\nconst m = import.meta.glob(dir + \"/*.ts\");\n",
			"index.ts:2:28: error: import.meta.glob's arguments must be literals, not dir"},
		{"outside the project", "const m = import.meta.glob(\"../../../../*.ts\");\n",
			`index.ts:1:11: error: import.meta.glob pattern "../../../../*.ts" reaches outside the project`},
		{"unknown option", "const m = import.meta.glob(\"./*.ts\", { base: \"./x\" });\n",
			`index.ts:1:40: error: import.meta.glob option "base" is not supported`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			root := writeProject(t, map[string]string{"widgets/w/widget.json": `{}`, "widgets/w/index.ts": tt.src})
			_, _, err := assembleProject(t, testOptions(root))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %v\nwant %s", err, tt.want)
			}
		})
	}
}

// TestImportGlobRebuild: a Builder that assembles again (widgetd dev)
// sees a file added to a globbed folder.
func TestImportGlobRebuild(t *testing.T) {
	root := writeProject(t, map[string]string{
		"widgets/w/widget.json": `{}`,
		"widgets/w/index.ts":    "const parts = import.meta.glob(\"./parts/*.ts\", { eager: true, import: \"default\" });\ndocument.body.append(Object.values(parts).join(\",\"));\n",
		"widgets/w/parts/a.ts":  `export default "part-a";`,
	})
	b, out, err := assembleProject(t, testOptions(root))
	if err != nil {
		t.Fatal(err)
	}
	page := func(out *Output) string { return string(out.Files[out.Manifest.Widgets[0].HTML]) }
	if !strings.Contains(page(out), "part-a") {
		t.Fatalf("first build lacks part-a:\n%s", page(out))
	}
	writeFiles(t, root, map[string]string{"widgets/w/parts/b.ts": `export default "part-b";`})
	out, err = b.Assemble(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page(out), "part-b") {
		t.Errorf("rebuild lacks the added part-b:\n%s", page(out))
	}
}

// TestImportGlobCompiledError: a call with arguments that are not
// literals, in a Vue component, fails at its line in the .vue file (not
// at a line of the compiled module the rewrite ran on).
func TestImportGlobCompiledError(t *testing.T) {
	root := writeProjectWith(t, compilerModules(t), map[string]string{
		"widgets/w/widget.json": `{"entry": "main.ts"}`,
		"widgets/w/main.ts":     "import { createApp } from \"vue\";\nimport App from \"./App.vue\";\ncreateApp(App).mount(\"#root\");\n",
		"widgets/w/App.vue":     "<script setup lang=\"ts\">\nconst dir = \"./x\";\n\nconst parts = import.meta.glob(dir + \"/*.ts\");\n</script>\n\n<template><p>{{ Object.keys(parts).length }}</p></template>\n",
	})
	_, _, err := assembleProject(t, testOptions(root))
	if want := "App.vue:4:32: error: import.meta.glob's arguments must be literals, not dir"; err == nil || !strings.Contains(err.Error(), want) {
		t.Errorf("error %v\nwant %s", err, want)
	}
}
