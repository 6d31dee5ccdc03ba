package bundler

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/widgetd/widgetd/assets"
)

// levelProject is a project with a widget at each bridge level.
func levelProject() map[string]string {
	return map[string]string{
		"node_modules/framework/package.json": `{"name": "framework", "type": "module", "main": "dist/app.js"}`,
		"node_modules/framework/dist/app.js":  vendoredApp,
		"widgets/full/widget.json":            widgetJSON("main.ts"),
		"widgets/full/main.ts":                `document.title = String((window as any).openai?.theme);`,
		"widgets/app/widget.json":             widgetJSON("main.ts"),
		"widgets/app/main.ts":                 `import { App } from "framework"; new App().connect();`,
		"widgets/core/widget.json":            widgetJSON("main.ts"),
		"widgets/core/main.ts":                `document.body.textContent = "static";`,
	}
}

// buildCounting builds opts with a new Builder and returns the manifest it
// wrote and how many esbuild runs bundled the widgets.
func buildCounting(t *testing.T, opts Options) (*assets.Manifest, int) {
	t.Helper()
	b, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if _, err := b.Build(ctx); err != nil {
		t.Fatalf("build: %v", err)
	}
	return readManifest(t, opts.OutDir), b.esbuildRuns
}

// currentFiles are the bytes of every file of the manifest's current build
// (each widget's HTML and the files its build lists), and the widgets'
// manifest entries.
func currentFiles(t *testing.T, dir string, m *assets.Manifest) map[string]string {
	t.Helper()
	got := map[string]string{}
	entries, err := json.Marshal(m.Widgets)
	if err != nil {
		t.Fatal(err)
	}
	got["<widgets>"] = string(entries)
	for _, f := range m.Files {
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.Path)))
		if err != nil {
			t.Fatal(err)
		}
		got[f.Path] = string(data)
	}
	return got
}

// TestBridgeLevelsFromPreviousBuild: a build into the dist/ of a previous
// one takes each widget's bridge level from its manifest and bundles once,
// with output byte for byte that of a build with no previous dist/, inline
// and external. A full widget that posts ui/initialize itself, bundled in
// the same esbuild run as lighter ones, gets the App adapter over
// window.openai alone (the adapter import resolves per run): the build
// notices and bundles it again with the full one.
func TestBridgeLevelsFromPreviousBuild(t *testing.T) {
	handshake := map[string]string{
		"widgets/full-app/widget.json": widgetJSON("main.ts"),
		"widgets/full-app/main.ts":     `import { App } from "framework"; new App().connect(); document.title = String((window as any).openai?.theme);`,
	}
	cases := []struct {
		name, publicURL string
		extra           map[string]string
		wantRuns        int
	}{
		{name: "inline", wantRuns: 1},
		{name: "external", publicURL: "https://cdn.example.com/w", wantRuns: 1},
		{name: "full-with-handshake", extra: handshake, wantRuns: 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			files := levelProject()
			for p, body := range c.extra {
				files[p] = body
			}
			root := writeProject(t, files)
			opts := testOptions(root)
			opts.PublicURL = c.publicURL
			first, runs := buildCounting(t, opts)
			if runs != 2 {
				t.Errorf("first build: %d esbuild runs, want 2 (full, then the lighter widgets)", runs)
			}
			want := map[string]string{"full": "full", "full-app": "full", "app": "app", "core": "core"}
			for _, w := range first.Widgets {
				if w.Bridge != want[w.Name] {
					t.Errorf("widget %s: bridge %q (%s), want %q", w.Name, w.Bridge, w.BridgeReason, want[w.Name])
				}
			}
			wantFiles := currentFiles(t, opts.OutDir, first)
			second, runs := buildCounting(t, opts)
			if runs != c.wantRuns {
				t.Errorf("second build: %d esbuild runs, want %d", runs, c.wantRuns)
			}
			assertSameFiles(t, wantFiles, currentFiles(t, opts.OutDir, second))
		})
	}
}

// TestBridgeLevelSwitch: a widget whose code changed since the previous
// build gets the level its code asks for in either direction, bundled
// again once, with the bytes of a build with no previous dist/; a
// previous manifest that cannot be trusted gives today's two runs.
func TestBridgeLevelSwitch(t *testing.T) {
	cases := []struct {
		name      string
		edit      map[string]string
		damage    string // written over the previous manifest
		widget    string
		wantLevel string
		wantRuns  int
	}{
		{name: "core-to-full", edit: map[string]string{"widgets/core/main.ts": `document.title = String((window as any).openai?.theme);`}, widget: "core", wantLevel: "full", wantRuns: 2},
		{name: "full-to-core", edit: map[string]string{"widgets/full/main.ts": `document.body.textContent = "static now";`}, widget: "full", wantLevel: "core", wantRuns: 2},
		{name: "app-to-core", edit: map[string]string{"widgets/app/main.ts": `document.body.textContent = "no app";`}, widget: "app", wantLevel: "core", wantRuns: 2},
		{name: "damaged-manifest", damage: `{"version": `, widget: "core", wantLevel: "core", wantRuns: 2},
		{name: "other-version", damage: `{"version": 999, "widgets": [{"name": "full", "bridge": "core"}]}`, widget: "core", wantLevel: "core", wantRuns: 2},
		{name: "other-generator", damage: `{"version": 1, "generator": "widgetd 0.0.1", "widgets": [{"name": "full", "bridge": "core"}]}`, widget: "core", wantLevel: "core", wantRuns: 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := writeProject(t, levelProject())
			opts := testOptions(root)
			buildCounting(t, opts)
			writeFiles(t, root, c.edit)
			if c.damage != "" {
				writeFiles(t, opts.OutDir, map[string]string{assets.ManifestFile: c.damage})
			}
			got, runs := buildCounting(t, opts)
			if runs != c.wantRuns {
				t.Errorf("%d esbuild runs, want %d", runs, c.wantRuns)
			}
			if w := widgetByName(got, c.widget); w == nil || w.Bridge != c.wantLevel {
				t.Fatalf("widget %s: %+v, want bridge %q", c.widget, w, c.wantLevel)
			}
			fresh := opts
			fresh.OutDir = filepath.Join(t.TempDir(), "dist")
			freshManifest, _ := buildCounting(t, fresh)
			want := currentFiles(t, fresh.OutDir, freshManifest)
			have := currentFiles(t, opts.OutDir, got)
			for p := range have {
				if _, ok := want[p]; !ok && p != "<widgets>" {
					delete(have, p) // retained from the previous build
				}
			}
			assertSameFiles(t, want, have)
		})
	}
}

// assertSameFiles fails for each file that differs or is missing.
func assertSameFiles(t *testing.T, want, got map[string]string) {
	t.Helper()
	for p, w := range want {
		switch g, ok := got[p]; {
		case !ok:
			t.Errorf("%s: missing", p)
		case g != w:
			t.Errorf("%s: differs (%d bytes, want %d)", p, len(g), len(w))
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			t.Errorf("%s: not in the other build", p)
		}
	}
}
