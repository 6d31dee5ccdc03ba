package e2e_test

import (
	"net"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/widgetd/widgetd/bundler"
	"github.com/widgetd/widgetd/internal/browsertest"
)

// frameworkCase is one fixture widget compiled by an npm compiler, and what
// it must render.
type frameworkCase struct {
	project, name string
	// text maps a selector inside the widget to its expected textContent.
	text map[string]string
	// style maps "selector|property" to the computed value it must have.
	style map[string]string
	// click, when set, is a button whose press must change text to after.
	click, after, afterSel string
	// output is the tool result's structuredContent the hosts send
	// (default {}).
	output map[string]any
}

func frameworkCases() []frameworkCase {
	return []frameworkCase{
		{project: "frameworks", name: "tw-react",
			text: map[string]string{"#tw-title": "Tailwind in a widget", "#tw-badge": "v4"},
			style: map[string]string{
				"#tw-title|color":             "rgb(10, 125, 69)", // text-brand from @theme
				"#tw-title|font-weight":       "700",              // font-bold
				"main|padding-top":            "16px",             // p-4
				"main|border-top-left-radius": "14px",             // rounded-card from @theme
				"#tw-badge|background-color":  "rgb(10, 125, 69)", // @utility badge-pill
			}},
		{project: "frameworks", name: "vue-card",
			text:  map[string]string{"#vue-title": "Hello from Vue (0)", "#vue-badges": "alpha,beta"}, // badges: import.meta.glob in the SFC
			style: map[string]string{"#vue-title|color": "rgb(53, 73, 94)", ".card|border-top-color": "rgb(66, 184, 131)"},
			click: "#vue-btn", afterSel: "#vue-title", after: "Hello from Vue (1)"},
		{project: "frameworks", name: "svelte-card",
			text:  map[string]string{"#svelte-title": "Hello from Svelte"},
			style: map[string]string{"#svelte-title|color": "rgb(255, 62, 0)"},
			click: "#svelte-btn", afterSel: "#svelte-btn", after: "Clicked 1, doubled 2"},
		{project: "frameworks", name: "solid-card",
			text:  map[string]string{"#solid-title": "Hello from Solid", "li.solid-item:nth-child(2)": "two"}, // items: import.meta.glob in Solid's JSX
			click: "#solid-btn", afterSel: "#solid-btn", after: "Count 1"},
		{project: "frameworks", name: "preact-card",
			text:  map[string]string{"#preact-title": "Hello from Preact"},
			click: "#preact-btn", afterSel: "#preact-btn", after: "n = 2"},
		// Component entries: the entry exports a component and mounts
		// nothing; widgetd generates the mount, and the component shows the
		// tool result it gets as props or through hooks.
		{project: "frameworks", name: "react-view",
			output: map[string]any{"city": "Oslo", "days": []any{map[string]any{"day": "Mon", "high": 3}, map[string]any{"day": "Tue", "high": 5}}},
			text:   map[string]string{"#react-view-title": "Forecast for Oslo", "li.react-view-day:nth-child(2)": "Tue: 5°"}},
		{project: "frameworks", name: "preact-view",
			output: map[string]any{"title": "Packing", "items": []any{"tent", "stove"}},
			text:   map[string]string{"#preact-view-title": "Packing", "li.preact-view-item:nth-child(2)": "stove"},
			click:  "#preact-view-btn", afterSel: "#preact-view-btn", after: "done 1"},
		{project: "frameworks", name: "vue-view",
			output: map[string]any{"team": "Otters", "score": []any{3, 4}},
			text:   map[string]string{"#vue-view-title": "Otters: 7 points"},
			style:  map[string]string{"#vue-view-title|color": "rgb(20, 90, 50)"},
			click:  "#vue-view-btn", afterSel: "#vue-view-btn", after: "hide"},
		{project: "frameworks", name: "svelte-view",
			output: map[string]any{"product": "Kettle", "stars": 3},
			text:   map[string]string{"#svelte-view-title": "Kettle ★★★"},
			style:  map[string]string{"#svelte-view-title|color": "rgb(160, 40, 0)"},
			click:  "#svelte-view-btn", afterSel: "#svelte-view-btn", after: "liked"},
		{project: "frameworks", name: "solid-view",
			output: map[string]any{"queue": []any{"Ada", "Brian", "Chen"}},
			text:   map[string]string{"#solid-view-title": "3 in the queue", "li.solid-view-item:nth-child(3)": "Chen"},
			click:  "li.solid-view-item:nth-child(2)", afterSel: "#solid-view-picked", after: "picked Brian"},
		{project: "frameworks", name: "kit-view",
			output: map[string]any{"id": "A-17", "lines": []any{map[string]any{"name": "bolts", "qty": 4}}},
			text:   map[string]string{"#kit-view-title": "Order A-17", ".kit-view-line": "4 × bolts", "#kit-view-app": "Orders"}},
		{project: "tailwind3", name: "tw3",
			text:  map[string]string{"#tw3-title": "Tailwind v3 in a widget"},
			style: map[string]string{"#tw3-title|color": "rgb(29, 78, 137)", "#tw3-title|padding-left": "12px"}},
	}
}

// frameworkProject returns a fixture project folder, failing unless its npm
// packages are installed.
func frameworkProject(t *testing.T, name string) string {
	t.Helper()
	dir := browsertest.RepoPath(t, filepath.Join("e2e", "testdata", name))
	switch name {
	case "frameworks":
		browsertest.RequireNodeModules(t, dir, "react", "tailwindcss", "@tailwindcss/node", "@tailwindcss/oxide", "vue", "svelte", "solid-js", "babel-preset-solid", "@babel/core", "preact", "widget-kit")
	case "tailwind3":
		browsertest.RequireNodeModules(t, dir, "tailwindcss", "postcss", "autoprefixer")
	}
	return dir
}

// TestFrameworkWidgets builds the framework fixtures with the real pipeline
// (the npm compilers run in the Node helper), inline and external, and renders
// each in the real AppBridge host and both ChatGPT hosts (window.openai only,
// and window.openai beside the AppBridge's ui/*).
func TestFrameworkWidgets(t *testing.T) {
	projects := map[string]string{}
	for _, p := range []string{"frameworks", "tailwind3"} {
		projects[p] = frameworkProject(t, p)
	}
	for _, mode := range []string{"inline", "external"} {
		t.Run(mode, func(t *testing.T) {
			t.Parallel()
			all := newBuild()
			for _, dir := range projects {
				var public string
				var ln net.Listener
				if mode == "external" {
					ln, public = listenOrigin(t)
				}
				dist := filepath.Join(t.TempDir(), "dist")
				_, reg := buildAndLoad(t, 3*time.Minute, bundler.Options{Root: dir, OutDir: dist, PublicURL: public, NoCompress: mode == "inline", NoCache: true})
				if ln != nil {
					serveOn(t, ln, reg.Handler())
				}
				bw := readBuild(t, reg, dist)
				for name, w := range bw.widgets {
					if w.Inline != (mode == "inline") {
						t.Errorf("%s: inline = %v in %s mode", w.Name, w.Inline, mode)
					}
					all.add(w, bw.html[name])
				}
			}
			renderFrameworks(t, all, mode)
		})
	}
}

// renderFrameworks renders every case under the AppBridge host and the
// ChatGPT host; a component-entry case (one with output) also under ChatGPT
// answering ui/*, and, to keep CI short, under the AppBridge host alone in
// external mode (the generated mount is the same code in both modes).
func renderFrameworks(t *testing.T, bw *build, mode string) {
	srv := httptest.NewServer(hostMux(t, bw))
	t.Cleanup(srv.Close)
	for _, fc := range frameworkCases() {
		if _, ok := bw.widgets[fc.name]; !ok {
			t.Errorf("build has no %s widget", fc.name)
			continue
		}
		output := fc.output
		if output == nil {
			output = map[string]any{}
		}
		result := map[string]any{"content": []any{map[string]any{"type": "text", "text": "ok"}}, "structuredContent": output}
		t.Run(fc.name+"/mcp-apps", func(t *testing.T) {
			t.Parallel()
			p := shared.Page(t)
			p.OpenHost(srv.URL+browsertest.MCPHostPath, "/w/"+fc.name, map[string]any{"input": map[string]any{}, "result": result})
			frameworkRendered(p, fc)
			p.NoErrors()
		})
		if fc.output != nil && mode == "external" {
			continue
		}
		t.Run(fc.name+"/chatgpt", func(t *testing.T) {
			t.Parallel()
			p := shared.Page(t)
			p.OpenHost(srv.URL+browsertest.ChatGPTHostPath, "/w/"+fc.name+"?"+browsertest.ChatGPTQuery, map[string]any{"toolInput": map[string]any{}, "toolOutput": output}, map[string]any{})
			p.Wait(W + `.openai && ` + W + `.document.readyState == "complete"`)
			frameworkRendered(p, fc)
			p.NoErrors()
		})
		if fc.output == nil {
			continue
		}
		t.Run(fc.name+"/chatgpt-ui", func(t *testing.T) {
			t.Parallel()
			p := shared.Page(t)
			p.OpenHost(srv.URL+browsertest.MCPHostPath, "/w/"+fc.name+"?"+browsertest.ChatGPTQuery, map[string]any{"input": map[string]any{}, "result": result,
				// ChatGPT sets window.openai's globals as well as answering ui/*.
				"openai": map[string]any{"toolInput": map[string]any{}, "toolOutput": output}})
			frameworkRendered(p, fc)
			p.NoErrors()
		})
	}
}

func frameworkRendered(p *browsertest.Page, fc frameworkCase) {
	p.T.Helper()
	for sel, want := range fc.text {
		p.Wait(W + `.document.querySelector(` + browsertest.JS(sel) + `)?.textContent.trim() == ` + browsertest.JS(want))
	}
	for key, want := range fc.style {
		sel, prop, _ := strings.Cut(key, "|")
		expr := W + `.getComputedStyle(` + W + `.document.querySelector(` + browsertest.JS(sel) + `)).getPropertyValue(` + browsertest.JS(prop) + `)`
		if got := p.Str(expr); got != want {
			p.T.Errorf("%s: computed %s of %s = %q, want %q", fc.name, prop, sel, got, want)
		}
	}
	if fc.click != "" {
		p.Eval(W+`.document.querySelector(`+browsertest.JS(fc.click)+`).click()`, nil)
		p.Wait(W + `.document.querySelector(` + browsertest.JS(fc.afterSel) + `)?.textContent.trim() == ` + browsertest.JS(fc.after))
	}
}
