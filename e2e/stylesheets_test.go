package e2e_test

import (
	"context"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/widgetd/widgetd/bundler"
	"github.com/widgetd/widgetd/internal/browsertest"
)

// stylesheetCases are the widgets of e2e/testdata/stylesheets and what each
// must render, styled: the shared Tailwind v4 stylesheet (widgets/index.css)
// and the per-widget styles.css reach the page only through widget.json
// "styles", since no module imports them.
func stylesheetCases() []example {
	return []example{
		{
			name: "pizza-board",
			want: map[string]string{"#board-title": "Pizza board", "#places li:nth-child(3)": "Forno"},
			wait: []string{
				`w.getComputedStyle(w.document.getElementById("board-title")).textTransform == "uppercase"`, // styles.css
				`w.getComputedStyle(w.document.getElementById("board-title")).letterSpacing == "2px"`,       // styles.css
				`w.getComputedStyle(w.document.getElementById("board-warning")).display == "none"`,          // styles.css
				`w.getComputedStyle(w.document.getElementById("board-title")).color == "rgb(10, 125, 69)"`,  // text-brand, @theme of index.css
				`w.getComputedStyle(w.document.getElementById("board-title")).fontWeight == "700"`,          // font-bold
				`w.getComputedStyle(w.document.querySelector("main")).borderTopLeftRadius == "14px"`,        // rounded-card
				`w.getComputedStyle(w.document.querySelector("main")).paddingTop == "16px"`,                 // p-4
			},
		},
		{
			// new self.Worker from a blob: URL: the host blocks it (the build
			// warned), and the widget computes on the main thread, styled by
			// the shared stylesheet.
			name: "worker-card",
			want: map[string]string{"#worker-result": "42 (main thread)"},
			wait: []string{
				`w.getComputedStyle(w.document.getElementById("worker-result")).color == "rgb(10, 125, 69)"`,
				`w.getComputedStyle(w.document.getElementById("worker-result")).paddingTop == "12px"`, // p-3
			},
		},
	}
}

// TestStylesheetWidgets builds e2e/testdata/stylesheets with the real
// pipeline (Tailwind in the Node helper) and renders each widget in the
// AppBridge host and both ChatGPT hosts with its styles applied. The build
// warns about the worker started through new self.Worker, and the page
// shows that the host's CSP blocked it, as the warning says.
func TestStylesheetWidgets(t *testing.T) {
	dir := browsertest.RepoPath(t, filepath.Join("e2e", "testdata", "stylesheets"))
	browsertest.RequireNodeModules(t, dir, "tailwindcss", "@tailwindcss/node", "@tailwindcss/oxide")
	b, err := bundler.New(bundler.Options{Root: dir, OutDir: filepath.Join(t.TempDir(), "dist"), NoCache: true, NoCompress: true})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := b.Assemble(ctx)
	if err != nil {
		t.Fatal(err)
	}
	warned := false
	for _, w := range out.Warnings {
		if strings.Contains(w.Message, `widget "worker-card" starts a Worker from a blob: URL`) && strings.HasSuffix(filepath.ToSlash(w.File), "worker-card/index.ts") {
			warned = true
		} else {
			t.Errorf("unexpected warning: %v", w)
		}
	}
	if !warned {
		t.Errorf("no warning about worker-card's new self.Worker: %v", out.Warnings)
	}
	bw := newBuild()
	for _, w := range out.Manifest.Widgets {
		bw.add(w, out.Files[w.HTML])
	}
	renderInHosts(t, bw, stylesheetCases(), map[string]func(*browsertest.Page){"worker-card": workerBlocked})
}

// threeHosts are the hosts a fixture renders in: the real AppBridge, the
// ChatGPT stand-in with window.openai only, and the AppBridge with
// window.openai as well (ChatGPT answering ui/* too).
var threeHosts = []string{"mcp-apps", "chatgpt", "chatgpt+ui"}

// renderInHosts renders each case in every one of threeHosts as parallel
// subtests; logged replaces the check that the page logged no error for the
// cases it names.
func renderInHosts(t *testing.T, bw *build, cases []example, logged map[string]func(*browsertest.Page)) {
	t.Helper()
	srv := httptest.NewServer(hostMux(t, bw))
	t.Cleanup(srv.Close)
	for _, ex := range cases {
		if _, ok := bw.widgets[ex.name]; !ok {
			t.Errorf("build has no %s widget", ex.name)
			continue
		}
		for _, host := range threeHosts {
			t.Run(ex.name+"/"+host, func(t *testing.T) {
				t.Parallel()
				p := shared.Page(t)
				result := map[string]any{"content": []any{}}
				switch host {
				case "chatgpt":
					p.OpenHost(srv.URL+browsertest.ChatGPTHostPath, "/w/"+ex.name+"?"+browsertest.ChatGPTQuery, map[string]any{"toolInput": map[string]any{}, "toolOutput": map[string]any{}}, map[string]any{})
					p.Wait(W + `.openai && ` + W + `.document.readyState == "complete"`)
				case "chatgpt+ui":
					p.OpenHost(srv.URL+browsertest.MCPHostPath, "/w/"+ex.name+"?"+browsertest.ChatGPTQuery, map[string]any{"input": map[string]any{}, "result": result, "openai": map[string]any{}})
				default:
					p.OpenHost(srv.URL+browsertest.MCPHostPath, "/w/"+ex.name, map[string]any{"input": map[string]any{}, "result": result})
				}
				rendered(p, ex)
				if check, ok := logged[ex.name]; ok {
					check(p)
					return
				}
				p.NoErrors()
			})
		}
	}
}

// workerBlocked asserts that the page logged the CSP's refusal of the blob:
// worker, and nothing else went wrong.
func workerBlocked(p *browsertest.Page) {
	p.T.Helper()
	blocked := false
	for _, l := range p.Logged() {
		switch {
		case strings.HasPrefix(l, "log security error") && strings.Contains(l, "Creating a worker from 'blob:") && strings.Contains(l, "Content Security Policy"):
			blocked = true
		case strings.HasPrefix(l, "exception:") || strings.HasPrefix(l, "console.error:") || strings.HasPrefix(l, "log security error") || strings.HasPrefix(l, "log network error"):
			p.T.Errorf("page reported an error: %s", l)
		}
	}
	if !blocked {
		p.T.Errorf("the page logged no refusal of the blob: worker:\n  %s", strings.Join(p.Logged(), "\n  "))
	}
}
