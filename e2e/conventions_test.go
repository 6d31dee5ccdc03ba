package e2e_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/bundler"
	"github.com/widgetd/widgetd/internal/browsertest"
)

// conventionCases are the widgets of e2e/testdata/conventions, written in the
// styles of OpenAI's Apps SDK examples and of Vite projects, and what each
// must render.
func conventionCases() []example {
	return []example{
		{
			// OpenAI style: React + framer-motion mounting into
			// #pizza-list-root from a script entry (the default shell must
			// provide it), a stylesheet shared by the project's widgets, and a
			// CSS package reached through its "style" export condition.
			name:   "pizza-list",
			result: map[string]any{"content": []any{map[string]any{"type": "text", "text": "3 places."}}, "structuredContent": map[string]any{"places": []any{"Tony's", "Lucia", "Forno"}}},
			want:   map[string]string{"h1": "Pizza spots", "#places li:nth-child(3)": "Forno"},
			wait: []string{
				`w.document.getElementById("pizza-list-root") != null`,
				`w.getComputedStyle(w.document.querySelector("h1")).color == "rgb(10, 120, 60)"`,
				`w.getComputedStyle(w.document.querySelector(".theme-card")).borderTopColor == "rgb(200, 30, 90)"`,
				`w.getComputedStyle(w.document.querySelector(".theme-card")).borderTopWidth == "3px"`,
				`w.getComputedStyle(w.document.querySelector(".theme-card")).paddingTop == "8px"`,
				// framer-motion ran the fade-in to its end.
				`w.document.getElementById("places").style.opacity == "1"`,
			},
		},
		{
			// Vite style: an HTML entry whose module script is inline, with
			// a stylesheet linked from outside the widget folder, ?raw, and
			// import.meta.env from .env.production over .env.
			name: "inline-page",
			want: map[string]string{"#title": "Hello from production", "#note": "Bundled from an inline script."},
			wait: []string{`w.getComputedStyle(w.document.getElementById("title")).color == "rgb(10, 120, 60)"`},
		},
		{
			name: "env-assets",
			want: map[string]string{
				"#mode":     "production dev=false prod=true ssr=false",
				"#message":  "Hello from production, welcome to the sandbox",
				"#secret":   "undefined",
				"#greeting": "Read with ?raw.",
			},
			wait: []string{
				`w.document.getElementById("logo").complete && w.document.getElementById("logo").naturalWidth > 0`,
				`w.document.getElementById("badge").complete && w.document.getElementById("badge").naturalWidth > 0`,
			},
		},
		{
			// Vite's import.meta.glob: eager default exports, lazy modules
			// with an excluding pattern, and ?raw files as strings.
			name: "glob-pages",
			want: map[string]string{
				"#cards":    "Beta, Alpha",
				"#keys":     "./cards/a.ts ./cards/b.ts",
				"#sections": "Intro + Outro",
				"#notes":    "first|second",
			},
		},
	}
}

// TestConventionWidgets builds the convention fixtures with the real
// pipeline, inline and external, and renders each in the real AppBridge host
// and the ChatGPT host.
func TestConventionWidgets(t *testing.T) {
	dir := browsertest.RepoPath(t, "e2e/testdata/conventions")
	browsertest.RequireNodeModules(t, dir, "react", "react-dom", "framer-motion", "widget-theme")
	opts := func(root string) bundler.Options {
		return bundler.Options{Root: dir, OutDir: filepath.Join(root, "dist"), CacheDir: filepath.Join(root, "cache")}
	}

	t.Run("inline", func(t *testing.T) {
		t.Parallel()
		o := opts(t.TempDir())
		o.NoCompress = true
		bw := assembleInline(t, o)
		renderCases(t, bw, conventionCases(), nil, false, nil)
	})

	t.Run("external", func(t *testing.T) {
		t.Parallel()
		ln, public := listenOrigin(t)
		o := opts(t.TempDir())
		o.PublicURL = public
		res, reg := buildAndLoad(t, 2*time.Minute, o)
		origin := &requestLog{h: reg.Handler(), seen: map[string]string{}}
		serveOn(t, ln, origin)
		bw := readBuild(t, reg, res.OutDir)
		// The ?url and new URL(…, import.meta.url) images are hashed files.
		env := bw.widgets["env-assets"]
		var svgs []string
		for _, f := range env.Files {
			if strings.HasSuffix(f, ".svg") {
				svgs = append(svgs, f)
			}
		}
		if len(svgs) != 2 {
			t.Errorf("env-assets files %v: want logo and badge as hashed .svg files", env.Files)
		}
		renderCases(t, bw, conventionCases(), nil, false, func(t *testing.T, w assets.Widget) {
			for _, f := range w.Files {
				if _, ok := origin.get("/" + f); !ok {
					t.Errorf("widget %s: %s never fetched from the asset origin (fetched: %v)", w.Name, f, origin.paths())
				}
			}
		})
	})
}

// renderCases renders each case in both hosts as parallel subtests. extra
// routes are mounted beside the widgets (an asset origin on the same
// origin); sized and after are renderOn's.
func renderCases(t *testing.T, bw *build, cases []example, extra map[string]http.Handler, sized bool, after func(*testing.T, assets.Widget)) {
	t.Helper()
	mux := hostMux(t, bw)
	for p, h := range extra {
		mux.Handle(p, h)
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	renderOn(t, srv.URL, bw, cases, sized, after)
}

// renderOn renders the cases against a server at base that serves the host
// pages and /w/<name>, in both hosts as parallel subtests: each shows what
// it wants; sized, it also reports its height to the host; a case with a
// refresh calls its tool from the widget; after runs once the widget has
// rendered; and the page logs no error.
func renderOn(t *testing.T, base string, bw *build, cases []example, sized bool, after func(*testing.T, assets.Widget)) {
	t.Helper()
	for _, ex := range cases {
		w, ok := bw.widgets[ex.name]
		if !ok {
			t.Errorf("build has no %s widget", ex.name)
			continue
		}
		for _, host := range twoHosts {
			t.Run(ex.name+"/"+host.name, func(t *testing.T) {
				t.Parallel()
				p := host.render(t, base, ex, sized)
				if after != nil {
					after(t, w)
				}
				p.NoErrors()
			})
		}
	}
}

// twoHosts are the hosts renderOn renders each case in, by subtest name.
var twoHosts = []struct {
	name   string
	render func(t *testing.T, base string, ex example, sized bool) *browsertest.Page
}{{"mcp-apps", renderMCPApps}, {"chatgpt", renderChatGPT}}

// toolInput is the tool's arguments the hosts send: ex.input, or {} for a
// case that sets none.
func (ex example) toolInput() map[string]any {
	if ex.input == nil {
		return map[string]any{}
	}
	return ex.input
}

// renderMCPApps renders ex in the MCP Apps host page and checks what the
// host saw: the handshake (from a widget that talks to its host: one given
// a tool result), the size when sized, and the widget's own tools/call. It
// returns the page, for after and the error check.
func renderMCPApps(t *testing.T, base string, ex example, sized bool) *browsertest.Page {
	t.Helper()
	p := shared.Page(t)
	data := map[string]any{"input": ex.toolInput(), "result": ex.result}
	if ex.refresh != nil {
		data["tools"] = map[string]any{ex.name: ex.refresh.result}
	}
	p.OpenHost(base+browsertest.MCPHostPath, "/w/"+ex.name, data)
	if ex.result != nil {
		// A widget that talks to its host (through window.openai)
		// completes the handshake; the others never start one.
		p.Wait(`hostLog.some(e => e.t == "initialized")`)
	}
	rendered(p, ex)
	if sized {
		p.Wait(`hostLog.some(e => e.t == "size" && e.p.height > 0)`)
	}
	if ex.refresh != nil {
		click(p, ex)
		calls := p.HostLog("calltool")
		var call map[string]any
		if len(calls) == 1 {
			call, _ = calls[0]["p"].(map[string]any)
		}
		// The bridge asks for progress on every tool call (_meta.progressToken).
		if meta, _ := call["_meta"].(map[string]any); meta["progressToken"] == nil {
			t.Errorf("host saw tools/call %v, want one with a _meta.progressToken", calls)
		}
		delete(call, "_meta")
		if len(calls) != 1 || browsertest.JS(call) != browsertest.JS(map[string]any{"name": ex.name, "arguments": map[string]any{}}) {
			t.Errorf("host saw tools/call %v, want one call of %q with {}", calls, ex.name)
		}
	}
	return p
}

// renderChatGPT renders ex in the ChatGPT host page with window.openai's
// globals and checks what the host saw: the intrinsic height when sized,
// and the widget's own callTool.
func renderChatGPT(t *testing.T, base string, ex example, sized bool) *browsertest.Page {
	t.Helper()
	p := shared.Page(t)
	globals := map[string]any{"toolInput": ex.toolInput(), "toolOutput": ex.result["structuredContent"], "toolResponseMetadata": ex.result["_meta"]}
	tools := map[string]any{}
	if ex.refresh != nil {
		tools[ex.name] = ex.refresh.result
	}
	p.OpenHost(base+browsertest.ChatGPTHostPath, "/w/"+ex.name+"?"+browsertest.ChatGPTQuery, globals, tools)
	p.Wait(W + `.openai && ` + W + `.document.readyState == "complete"`)
	rendered(p, ex)
	if sized {
		p.Wait(`chatgptHost.log.some(e => e.t == "notifyIntrinsicHeight" && e.p > 0)`)
	}
	if ex.refresh != nil {
		click(p, ex)
		calls := p.HostLog("callTool")
		if len(calls) != 1 || browsertest.JS(calls[0]["p"]) != browsertest.JS(map[string]any{"name": ex.name, "args": map[string]any{}}) {
			t.Errorf("window.openai.callTool saw %v, want one call of %q with {}", calls, ex.name)
		}
	}
	return p
}

// TestWorkerWidget builds a widget that computes in module workers. Inline,
// the build fails at the worker with the fix. External, each worker is its
// own hashed file; served from the origin the host renders the widget on
// (browsers start a Worker only from the page's own origin), both workers
// answer in both hosts under the widget's CSP.
func TestWorkerWidget(t *testing.T) {
	dir := browsertest.RepoPath(t, "e2e/testdata/worker")
	tmp := t.TempDir()
	opts := bundler.Options{Root: dir, OutDir: filepath.Join(tmp, "dist"), CacheDir: filepath.Join(tmp, "cache")}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	_, err := bundler.Build(ctx, opts)
	if err == nil {
		t.Fatal("inline build of a widget with a worker succeeded")
	}
	for _, want := range []string{"index.ts:12:", "the worker ./double.ts cannot run in an inline widget", "--public-url"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("inline build error lacks %q:\n%v", want, err)
		}
	}

	ln, base := listenOrigin(t)
	opts.PublicURL = base
	res, reg := buildAndLoad(t, 2*time.Minute, opts)
	warned := false
	for _, w := range res.Warnings {
		warned = warned || strings.Contains(w.Message, "browsers start a Worker only from the page's own origin")
	}
	if !warned {
		t.Errorf("no warning about workers and origins: %v", res.Warnings)
	}
	w := reg.Manifest().Widgets[0]
	var workers []string
	for _, f := range w.Files {
		if strings.Contains(f, ".worker-") && strings.HasSuffix(f, ".js") {
			workers = append(workers, f)
		}
	}
	if len(workers) != 2 {
		t.Errorf("widget files %v: want two hashed worker files", w.Files)
	}
	bw := readBuild(t, reg, res.OutDir)
	origin := &requestLog{h: reg.Handler(), seen: map[string]string{}}
	mux := hostMux(t, bw)
	mux.Handle("/assets/", origin)
	serveOn(t, ln, mux)
	cases := []example{{name: "doubler", want: map[string]string{"#doubled": "42", "#squared": "441"}}}
	renderOn(t, base, bw, cases, false, func(t *testing.T, w assets.Widget) {
		for _, f := range workers {
			if _, ok := origin.get("/" + f); !ok {
				t.Errorf("worker %s never fetched (fetched: %v)", f, origin.paths())
			}
		}
	})
}
