package bridge

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
	"github.com/evanw/esbuild/pkg/api"
)

// hostsDir is the test npm project holding the real ext-apps host side.
const hostsDir = "testdata/hosts"

// requireNodeModules fails (never skips) when the test npm project is not
// installed, saying how to install it.
func requireNodeModules(t testing.TB) string {
	t.Helper()
	nm, err := filepath.Abs(filepath.Join(hostsDir, "node_modules"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(nm, "@modelcontextprotocol", "ext-apps", "package.json")); err != nil {
		t.Fatalf("node_modules missing in bundler/bridge/%s: run `npm ci` in that folder (%v)", hostsDir, err)
	}
	return nm
}

// bridgePlugin resolves "widgetd" and "widgetd/react" to the embedded Source,
// and relative imports between bridge files inside it, the way the bundler's
// plugin does.
func bridgePlugin() api.Plugin {
	return api.Plugin{Name: "widgetd-bridge", Setup: func(b api.PluginBuild) {
		b.OnResolve(api.OnResolveOptions{Filter: `^widgetd(/react)?$`}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			p := Entry
			if a.Path == ReactModuleName {
				p = ReactEntry
			}
			// The importer's directory travels along so that bare imports
			// inside the bridge (react in widgetd/react) resolve from the
			// widget's own node_modules.
			return api.OnResolveResult{Path: p, Namespace: "widgetd", PluginData: a.ResolveDir}, nil
		})
		b.OnResolve(api.OnResolveOptions{Filter: `^\.\.?/`, Namespace: "widgetd"}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			return api.OnResolveResult{Path: path.Join(path.Dir(a.Importer), a.Path) + ".ts", Namespace: "widgetd", PluginData: a.PluginData}, nil
		})
		b.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: "widgetd"}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			src, err := Source.ReadFile(a.Path)
			if err != nil {
				return api.OnLoadResult{}, fmt.Errorf("bridge module %q: %w", a.Path, err)
			}
			s := string(src)
			dir, _ := a.PluginData.(string)
			return api.OnLoadResult{Contents: &s, Loader: api.LoaderTS, ResolveDir: dir, PluginData: dir}, nil
		})
	}}
}

// esbuildJS bundles one entry (given as source text resolved from dir) for the
// browser and returns the single output file.
func esbuildJS(t testing.TB, contents, dir string, minify bool, nodePaths ...string) []byte {
	t.Helper()
	b, err := bundle(contents, dir, minify, nodePaths...)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// bundle is esbuildJS returning errors, for builds shared between tests.
func bundle(contents, dir string, minify bool, nodePaths ...string) ([]byte, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	res := api.Build(api.BuildOptions{
		Stdin:             &api.StdinOptions{Contents: contents, ResolveDir: abs, Sourcefile: "entry.ts", Loader: api.LoaderTS},
		Bundle:            true,
		Format:            api.FormatESModule,
		Platform:          api.PlatformBrowser,
		Target:            api.ES2020,
		MinifyWhitespace:  minify,
		MinifyIdentifiers: minify,
		MinifySyntax:      minify,
		NodePaths:         nodePaths,
		Define:            map[string]string{"process.env.NODE_ENV": `"production"`},
		Plugins:           []api.Plugin{bridgePlugin()},
		LogLevel:          api.LogLevelSilent,
		Write:             false,
		Outfile:           "out.js",
	})
	if len(res.Errors) > 0 {
		msgs := api.FormatMessages(res.Errors, api.FormatMessagesOptions{Kind: api.ErrorMessage})
		return nil, fmt.Errorf("esbuild %s:\n%s", dir, strings.Join(msgs, "\n"))
	}
	for _, f := range res.OutputFiles {
		if strings.HasSuffix(f.Path, ".js") {
			return f.Contents, nil
		}
	}
	return nil, fmt.Errorf("esbuild %s: no JS output", dir)
}

// sizes returns raw, gzip -9 and brotli q11 byte counts.
func sizes(t testing.TB, b []byte) (raw, gz, br int) {
	t.Helper()
	var g, r bytes.Buffer
	zw, err := gzip.NewWriterLevel(&g, gzip.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := zw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	bw := brotli.NewWriterLevel(&r, brotli.BestCompression)
	if _, err := bw.Write(b); err != nil {
		t.Fatal(err)
	}
	if err := bw.Close(); err != nil {
		t.Fatal(err)
	}
	return len(b), g.Len(), r.Len()
}

// coreBudget is the brotli budget of the core bridge (issue 3).
const coreBudget = 4096

// TestCoreSize builds the core bridge the way a widget build does (minified,
// imported for its side effects plus the widget object) and enforces the
// brotli budget; it prints the official App's size for comparison.
func TestCoreSize(t *testing.T) {
	js := esbuildJS(t, `import {widget} from "widgetd"; (window as any).w = widget;`, ".", true)
	raw, gz, br := sizes(t, js)
	t.Logf("widgetd core bridge: raw %d B, gzip %d B, brotli %d B (budget %d)", raw, gz, br, coreBudget)
	if br > coreBudget {
		t.Errorf("core bridge is %d B brotli, over the %d B budget", br, coreBudget)
	}
	nm := requireNodeModules(t)
	off, err := os.ReadFile(filepath.Join(nm, "@modelcontextprotocol/ext-apps/dist/src/app-with-deps.js"))
	if err != nil {
		t.Fatal(err)
	}
	raw, gz, br = sizes(t, off)
	t.Logf("official ext-apps app-with-deps.js: raw %d B, gzip %d B, brotli %d B", raw, gz, br)
}

// BenchmarkBridgeBuild measures compiling the core bridge and reports its sizes.
func BenchmarkBridgeBuild(b *testing.B) {
	var js []byte
	for b.Loop() {
		js = esbuildJS(b, `import {widget} from "widgetd"; (window as any).w = widget;`, ".", true)
	}
	raw, gz, br := sizes(b, js)
	b.ReportMetric(float64(raw), "raw-B")
	b.ReportMetric(float64(gz), "gzip-B")
	b.ReportMetric(float64(br), "brotli-B")
}
