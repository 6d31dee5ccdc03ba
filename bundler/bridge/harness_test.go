package bridge_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/bundler"
	"github.com/widgetd/widgetd/cspgen"
	"github.com/widgetd/widgetd/internal/browsertest"
)

// shared is the one Chromium and the bundled test hosts of this test binary.
var shared browsertest.Shared

func TestMain(m *testing.M) {
	code := shared.Run(m)
	closeMatrix()
	os.Exit(code)
}

// testWidgetsDir holds one folder per test widget (widget.json plus an
// index.html or a script entry), built by the real bundler. Most use a script
// entry and the default HTML shell; api and static keep an index.html, so
// HTML entries stay covered: api's <title> names the app in ui/initialize,
// static's <style> fixes its height.
const testWidgetsDir = "testdata/widgets"

// testWidgets are the widgets the tests expect the build to produce.
var testWidgets = []string{"api", "appclass", "extras", "mixed", "openai", "proto", "react", "static"}

// built is the test widgets' build, made once per test binary through the
// real pipeline: bundler discovery and config, the virtual entry importing
// the bridge first, esbuild, the HTML shell, minify, inline escaping, and the
// CSP from cspgen in the manifest.
var built = sync.OnceValues(buildTestWidgets)

// buildTestWidgets builds testdata/widgets (inline).
func buildTestWidgets() (*bundler.Output, error) { return buildProject(testWidgetsDir, "", nil) }

// buildProject copies the widgets folder src (none when "") and files (path
// below the widgets folder → content) into a temporary project whose
// node_modules is the hosts' (ext-apps App, React), the way a widget project
// has its own, and assembles it in memory; publicURL set makes an external
// build.
func buildProject(src, publicURL string, files map[string]string) (*bundler.Output, error) {
	hosts, err := browsertest.HostsDir()
	if err != nil {
		return nil, err
	}
	nm, err := browsertest.CheckNodeModules(hosts, "@modelcontextprotocol/ext-apps", "react", "react-dom")
	if err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "widgetd-bridge-test-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	widgets := filepath.Join(tmp, "widgets")
	if src != "" {
		if err := os.CopyFS(widgets, os.DirFS(src)); err != nil {
			return nil, fmt.Errorf("copy %s: %w", src, err)
		}
	}
	for name, content := range files {
		p := filepath.Join(widgets, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			return nil, err
		}
	}
	if err := os.Symlink(nm, filepath.Join(tmp, "node_modules")); err != nil {
		return nil, err
	}
	// A node_modules linking outside the project needs allowOutside.
	if err := os.WriteFile(filepath.Join(tmp, "widgetd.json"), []byte(fmt.Sprintf(`{"allowOutside": [%q]}`, nm)), 0o644); err != nil {
		return nil, err
	}
	b, err := bundler.New(bundler.Options{Root: tmp, WidgetsDir: widgets, OutDir: filepath.Join(tmp, "dist"), NoCompress: true, PublicURL: publicURL})
	if err != nil {
		return nil, err
	}
	defer b.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := b.Assemble(ctx)
	if err != nil {
		return nil, fmt.Errorf("build %s (publicURL %q): %w", src, publicURL, err)
	}
	return out, nil
}

// scriptWidgets returns the files of one-module widgets, one per entry of
// code (widget name → its main.ts), for buildProject.
func scriptWidgets(code map[string]string) map[string]string {
	files := map[string]string{}
	for name, c := range code {
		files[name+"/main.ts"] = c + "\n"
		files[name+"/widget.json"] = `{"entry": "main.ts"}` + "\n"
	}
	return files
}

// buildOutput returns the shared build, failing t if it failed.
func buildOutput(t *testing.T) (*bundler.Output, map[string]assets.Widget) {
	t.Helper()
	out, err := built()
	if err != nil {
		t.Fatal(err)
	}
	ws := map[string]assets.Widget{}
	for _, w := range out.Manifest.Widgets {
		ws[w.Name] = w
	}
	for _, name := range testWidgets {
		if _, ok := ws[name]; !ok {
			t.Fatalf("build has no widget %q: %v", name, out.Manifest.Widgets)
		}
	}
	return out, ws
}

// serve starts the test origin: the host pages, and every test widget's built
// HTML at /w/<name> under its manifest CSP header — the strict spec CSP that
// cspgen generates for a widget declaring no domains.
func serve(t *testing.T) *httptest.Server {
	t.Helper()
	hosts := shared.Hosts(t)
	out, ws := buildOutput(t)
	strict, err := cspgen.New(cspgen.Domains{})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/", hosts.Handler())
	for name, w := range ws {
		if w.CSP != strict.Header() || !strings.Contains(w.CSP, "default-src 'none'") || strings.Contains(w.CSP, "unsafe-eval") {
			t.Fatalf("widget %s: manifest CSP is not the strict spec CSP: %q", name, w.CSP)
		}
		if !w.Inline || len(w.Files) != 0 {
			t.Fatalf("widget %s: want an inline build with no extra files, got inline=%v files=%v", name, w.Inline, w.Files)
		}
		doc, ok := out.Files[w.HTML]
		if !ok {
			t.Fatalf("widget %s: build output has no %s", name, w.HTML)
		}
		mux.Handle("GET /w/"+name, browsertest.WidgetHandler(doc, w.CSP))
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// page is a host page with the bridge tests' helpers.
type page struct{ *browsertest.Page }

// with returns the page bound to a subtest's t.
func (p *page) with(t *testing.T) *page { return &page{p.Page.With(t)} }

// open opens a fresh isolated page in the shared browser on srv's host page
// and starts the host on widgetURL with arg.
func open(t *testing.T, srv *httptest.Server, hostPath, widgetURL string, arg any) *page {
	t.Helper()
	p := &page{shared.Page(t)}
	if arg == nil {
		p.OpenHost(srv.URL+hostPath, widgetURL)
	} else {
		p.OpenHost(srv.URL+hostPath, widgetURL, arg)
	}
	return p
}

// W is the widget window expression inside the host page.
const W = browsertest.W

// run calls the widget's t.run(fn) and returns its {ok|err} object.
func (p *page) run(fn string) map[string]any {
	p.T.Helper()
	var out map[string]any
	p.Eval(W+`.t.run(`+fn+`)`, &out)
	return out
}

// inMethods returns the messages with method that the widget sent to the
// AppBridge.
func (p *page) inMethods(method string) []map[string]any {
	p.T.Helper()
	var out []map[string]any
	p.Eval(`hostLog.filter(e => e.t == "in" && e.p.method == `+js(method)+`).map(e => e.p)`, &out)
	return out
}

// js marshals v as a JS literal.
func js(v any) string { return browsertest.JS(v) }

// hostCall is an action a widget runs (a JS function of the widget API or
// of a widgetd/chatgpt module) and the host call it must cause: the last
// entry of type logType in the host's log, whose payload must equal want.
type hostCall struct {
	call, logType string
	want          any
}

// checkHostCalls runs each call in the widget and checks that it succeeded
// and reached the host as want; host names the host side in failures
// ("window.openai." or "host handler ").
func checkHostCalls(t *testing.T, p *page, host string, calls []hostCall) {
	t.Helper()
	for _, c := range calls {
		if r := p.run(c.call); r["err"] != nil {
			t.Errorf("%s: %v", c.call, r)
			continue
		}
		got := p.HostLog(c.logType)
		if len(got) == 0 {
			t.Errorf("%s: %s%s not called", c.call, host, c.logType)
			continue
		}
		eq(t, c.call, got[len(got)-1]["p"], c.want)
	}
}
