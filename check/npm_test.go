package check

import (
	"os"
	"path"
	"path/filepath"
	"testing"

	"github.com/evanw/esbuild/pkg/api"
)

// npmDir is where CI runs `npm ci` for the scanner fixtures.
var npmDir = filepath.Join("testdata", "npm")

// requireNodeModules fails (never skips) when the npm fixtures are missing.
func requireNodeModules(t *testing.T, dir, pkg string) {
	t.Helper()
	if _, err := os.Stat(filepath.Join(dir, "node_modules", pkg, "package.json")); err != nil {
		abs, _ := filepath.Abs(dir)
		t.Fatalf("npm package %s is not installed: run `npm ci` in %s (%v)", pkg, abs, err)
	}
}

// bundleMinified bundles entry from dir with esbuild, minified, as widgetd
// build does.
func bundleMinified(t *testing.T, dir, entry string) []byte {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	contents := "export * from " + `"` + entry + `";`
	r := api.Build(api.BuildOptions{
		Stdin:             &api.StdinOptions{Contents: contents, ResolveDir: abs, Loader: api.LoaderJS},
		Bundle:            true,
		Write:             false,
		Format:            api.FormatESModule,
		Platform:          api.PlatformBrowser,
		MinifyWhitespace:  true,
		MinifyIdentifiers: true,
		MinifySyntax:      true,
		Define:            map[string]string{"process.env.NODE_ENV": `"production"`},
		LogLevel:          api.LogLevelSilent,
	})
	if len(r.Errors) > 0 {
		t.Fatalf("esbuild %s: %v", entry, r.Errors[0].Text)
	}
	if len(r.OutputFiles) != 1 {
		t.Fatalf("esbuild %s: %d outputs", entry, len(r.OutputFiles))
	}
	return r.OutputFiles[0].Contents
}

// assertClean scans a real minified bundle: the lexer must reach the end
// (so the scan looked at everything), and nothing may be reported, since
// these libraries load nothing from the network and never eval.
func assertClean(t *testing.T, name string, src []byte) {
	t.Helper()
	toks, end := lexJS(src)
	if len(toks) < 10_000 {
		t.Fatalf("%s: only %d tokens from %d bytes; the lexer stopped early", name, len(toks), len(src))
	}
	if end != len(src) {
		t.Fatalf("%s: lexing stopped at byte %d of %d", name, end, len(src))
	}
	res := scanJS(src)
	for _, r := range res.Refs {
		t.Errorf("%s: false positive %s %q via %s at %d", name, r.Directive, r.URL, r.Via, r.Offset)
	}
	for _, e := range res.Evals {
		t.Errorf("%s: false eval %s at %d: %.40q", name, e.Via, e.Offset, src[e.Offset:])
	}
	// Positive control: the same bundle with one real load appended.
	probe := append(append([]byte{}, src...), []byte("\n;fetch(\"https://probe.example.com/x\");")...)
	if got := scanJS(probe).Refs; len(got) != 1 || got[0].URL != "https://probe.example.com/x" {
		t.Errorf("%s: appended fetch not found exactly once: %v", name, got)
	}
	t.Logf("%s: %d bytes, %d tokens, clean", name, len(src), len(toks))
}

// TestScannerOnLibraries: the scanner reads real minified libraries clean,
// as their package ships them and as esbuild minifies them.
func TestScannerOnLibraries(t *testing.T) {
	for _, tc := range []struct {
		name, dir, file, entry string
	}{
		{"chart.js", npmDir, "dist/chart.umd.js", "chart.js/auto"},
		{"react-dom", filepath.Join("..", "widgets"), "cjs/react-dom-client.production.js", "react-dom/client"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			requireNodeModules(t, tc.dir, tc.name)
			shipped, err := os.ReadFile(filepath.Join(tc.dir, "node_modules", tc.name, filepath.FromSlash(tc.file)))
			if err != nil {
				t.Fatal(err)
			}
			assertClean(t, path.Base(tc.file)+" (as shipped)", shipped)
			assertClean(t, tc.entry+" (esbuild minified)", bundleMinified(t, tc.dir, tc.entry))
		})
	}
}
