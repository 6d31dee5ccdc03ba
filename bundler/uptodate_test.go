package bundler

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/widgetd/widgetd/diag"
)

// TestUpToDate checks that a build with nothing changed is skipped, and that
// every kind of change — a source, a package file, a new file beside the
// sources, a ?raw or ?url file, widget.json, an option, a damaged dist/ —
// makes it build again.
func TestUpToDate(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"widgets/w/widget.json":                   `{"title": "W"}`,
		"widgets/w/index.ts":                      "import { v } from \"dep\";\ndocument.body.append(v + \"x\".repeat(300));\n",
		"widgets/w/node_modules/dep/package.json": `{"name": "dep", "main": "index.js"}`,
		"widgets/w/node_modules/dep/index.js":     `exports.v = "one";`,
		"widgets/page/widget.json":                `{}`,
		"widgets/page/index.html":                 `<!doctype html><html><head></head><body><script type="module" src="./m.ts"></script></body></html>`,
		"widgets/page/m.ts":                       "import note from \"./note.txt?raw\";\nimport logo from \"./logo.svg?url\";\ndocument.body.append(\"page\", note, logo);\n",
		"widgets/page/note.txt":                   "one",
		"widgets/page/logo.svg":                   `<svg xmlns="http://www.w3.org/2000/svg"><text>1</text></svg>`,
	})
	cache := t.TempDir()
	opts := Options{Root: root, CacheDir: cache}
	build := func(o Options) *Result {
		t.Helper()
		res, err := Build(context.Background(), o)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	first := build(opts)
	if first.UpToDate {
		t.Fatal("first build claims to be up to date")
	}
	dist := filepath.Join(root, "dist")
	before := treeHash(t, dist)
	if res := build(opts); !res.UpToDate || res.Manifest.BuildID != first.Manifest.BuildID || res.Bridge == nil {
		t.Fatalf("unchanged rebuild: up to date %v, build %s (want %s), bridge %v", res.UpToDate, res.Manifest.BuildID, first.Manifest.BuildID, res.Bridge)
	}
	if treeHash(t, dist) != before {
		t.Fatal("an up-to-date build changed dist/")
	}

	// tick makes sure a folder's mtime moves even on coarse clocks.
	tick := func() { time.Sleep(10 * time.Millisecond) }
	for _, tc := range []struct {
		name   string
		change func()
		opts   Options
	}{
		{"source edited", func() {
			writeFiles(t, root, map[string]string{"widgets/w/index.ts": "import { v } from \"dep\";\ndocument.body.append(v + \"y\".repeat(300));\n"})
		}, opts},
		{"package file edited", func() {
			writeFiles(t, root, map[string]string{"widgets/w/node_modules/dep/index.js": `exports.v = "two";`})
		}, opts},
		{"tsconfig.json edited in place", func() {
			writeFiles(t, root, map[string]string{"widgets/tsconfig.json": `{"compilerOptions": {"jsx": "react-jsx"}}`})
		}, opts},
		{"tsconfig.json edited again in place", func() {
			writeFiles(t, root, map[string]string{"widgets/tsconfig.json": `{"compilerOptions": {"jsx": "preserve"}}`})
		}, opts},
		{"package's package.json edited in place", func() {
			writeFiles(t, root, map[string]string{"widgets/w/node_modules/dep/package.json": `{"name": "dep", "main": "index.js", "sideEffects": false}`})
		}, opts},
		// After this case index.tsx wins over index.ts as the entry, so dep
		// is no longer an input.
		{"file added beside sources", func() {
			tick()
			writeFiles(t, root, map[string]string{"widgets/w/index.tsx": `document.body.append("shadow");`})
		}, opts},
		{"widget.json edited", func() { writeFiles(t, root, map[string]string{"widgets/w/widget.json": `{"title": "W2"}`}) }, opts},
		{"HTML entry edited", func() {
			writeFiles(t, root, map[string]string{"widgets/page/index.html": `<!doctype html><html><head><title>t</title></head><body><script type="module" src="./m.ts"></script></body></html>`})
		}, opts},
		// ?raw and ?url modules live in widgetd's namespaces, whose paths
		// are root-relative: the record must still find their files.
		{"?raw file edited", func() { writeFiles(t, root, map[string]string{"widgets/page/note.txt": "two"}) }, opts},
		{"?url file edited", func() {
			writeFiles(t, root, map[string]string{"widgets/page/logo.svg": `<svg xmlns="http://www.w3.org/2000/svg"><text>2</text></svg>`})
		}, opts},
		{"dist file removed", func() {
			m := readManifest(t, dist)
			os.Remove(filepath.Join(dist, m.Widgets[0].HTML))
		}, opts},
		{"option changed", func() {}, Options{Root: root, CacheDir: cache, PublicURL: "https://cdn.example.com"}},
		{"cache off", func() {}, Options{Root: root, CacheDir: cache, PublicURL: "https://cdn.example.com", NoCache: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.change()
			if res := build(tc.opts); res.UpToDate {
				t.Fatalf("build after %q was skipped", tc.name)
			}
			if _, err := os.Stat(filepath.Join(dist, readManifest(t, dist).Widgets[0].HTML)); err != nil {
				t.Fatalf("dist/ incomplete after rebuild: %v", err)
			}
			if tc.opts.NoCache {
				return
			}
			if res := build(tc.opts); !res.UpToDate {
				t.Fatalf("second build after %q was not up to date", tc.name)
			}
		})
	}
}

// TestAuditRecorded: Options.Audit runs once per build written, its
// warnings join the build's, and an up-to-date build repeats them from the
// record without auditing again.
func TestAuditRecorded(t *testing.T) {
	root := t.TempDir()
	writeFiles(t, root, map[string]string{
		"widgets/w/widget.json": `{"title": "W"}`,
		"widgets/w/index.ts":    "document.body.append(\"w\");\n",
	})
	calls := 0
	opts := Options{Root: root, CacheDir: t.TempDir(), Audit: func(_ context.Context, b *Builder, res *Result) []diag.Diagnostic {
		calls++
		if res.Manifest == nil || len(res.Metafile) == 0 || b.Root() == "" {
			t.Errorf("audit called without the written build: manifest %v, metafile %d bytes", res.Manifest != nil, len(res.Metafile))
		}
		return []diag.Diagnostic{{File: "widgets/w/index.ts", Line: 1, Column: 1, Warning: true, Message: "audited"}}
	}}
	audited := func(res *Result) bool {
		for _, w := range res.Warnings {
			if w.Message == "audited" {
				return true
			}
		}
		return false
	}
	for i, wantUpToDate := range []bool{false, true} {
		res, err := Build(context.Background(), opts)
		if err != nil {
			t.Fatal(err)
		}
		if res.UpToDate != wantUpToDate || !audited(res) {
			t.Fatalf("build %d: up to date %v (want %v), audit warning repeated %v: %v", i+1, res.UpToDate, wantUpToDate, audited(res), res.Warnings)
		}
	}
	if calls != 1 {
		t.Errorf("audit ran %d times over a build and an up-to-date one, want 1", calls)
	}
}

// TestRecordFailureWarns: when the up-to-date record cannot be written, the
// build still succeeds and writes dist/, and says so in one warning naming
// the record and the cause; later builds of the same Builder (widgetd dev)
// do not repeat it, and without a record no build is skipped.
func TestRecordFailureWarns(t *testing.T) {
	for _, tc := range []struct {
		name       string
		breakCache func(t *testing.T, cache, record string)
		cause      string
	}{
		{"records folder is a file", func(t *testing.T, cache, _ string) {
			writeFiles(t, cache, map[string]string{"builds": "not a folder"})
		}, "create the record's folder"},
		{"record path is a folder", func(t *testing.T, _, record string) {
			writeFiles(t, filepath.Dir(record), map[string]string{filepath.Join(filepath.Base(record), "keep"): "x"})
		}, "write "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root, cache := t.TempDir(), t.TempDir()
			writeFiles(t, root, map[string]string{
				"widgets/w/widget.json": `{"title": "W"}`,
				"widgets/w/index.ts":    `document.body.append("w");`,
			})
			b, err := New(Options{Root: root, CacheDir: cache})
			if err != nil {
				t.Fatal(err)
			}
			defer b.Close()
			tc.breakCache(t, cache, b.recordPath())
			for i, wantWarning := range []bool{true, false} {
				res, err := b.Build(context.Background())
				if err != nil {
					t.Fatalf("build %d failed: %v", i+1, err)
				}
				if res.UpToDate {
					t.Fatalf("build %d was skipped without a record", i+1)
				}
				if _, err := os.Stat(filepath.Join(root, "dist", "manifest.json")); err != nil {
					t.Fatalf("build %d: %v", i+1, err)
				}
				var found []diag.Diagnostic
				for _, w := range res.Warnings {
					if strings.Contains(w.Message, "up-to-date record was not saved") {
						found = append(found, w)
					}
				}
				switch {
				case !wantWarning && len(found) > 0:
					t.Errorf("build %d repeated the warning: %v", i+1, found)
				case wantWarning && len(found) != 1:
					t.Fatalf("build %d: %d record warnings, want 1: %v", i+1, len(found), res.Warnings)
				case wantWarning:
					w := found[0]
					if !w.Warning || w.File != b.display.Show(b.recordPath()) || !strings.Contains(w.Message, tc.cause) || !strings.Contains(w.Message, "--no-cache") {
						t.Errorf("warning %+v: want a warning on %s saying %q and how to fix it", w, b.recordPath(), tc.cause)
					}
				}
			}
		})
	}
	// A healthy cache gets a record and no warning.
	root := t.TempDir()
	writeFiles(t, root, map[string]string{"widgets/w/widget.json": `{}`, "widgets/w/index.ts": `document.body.append("w");`})
	res, err := Build(context.Background(), Options{Root: root, CacheDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range res.Warnings {
		if strings.Contains(w.Message, "record") {
			t.Errorf("unexpected warning with a writable cache: %s", w)
		}
	}
}
