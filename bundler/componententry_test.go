package bundler

import (
	"strings"
	"testing"
)

func TestComponentExport(t *testing.T) {
	for _, tc := range []struct {
		exports []string
		want    string
	}{
		{[]string{"default"}, "default"},
		{[]string{"widgetMetadata", "default"}, "default"},
		{[]string{"resource", "WeatherResource"}, "WeatherResource"},
		{[]string{"A", "B"}, ""},
		{[]string{"load", "config"}, ""},
		{nil, ""},
	} {
		if got := componentExport(tc.exports); got != tc.want {
			t.Errorf("componentExport(%q) = %q, want %q", tc.exports, got, tc.want)
		}
	}
}

func TestMountsItself(t *testing.T) {
	for _, tc := range []struct {
		code string
		want bool
	}{
		{`createRoot(document.getElementById("root")).render(<App />);`, true},
		{`ReactDOM.render(<App />, el);`, true},
		{`render(() => <App />, el);`, true},
		{`createApp(App).mount("#app");`, true},
		{`mount(App, { target: el });`, true},
		{`mountWidget(<Widget />);`, true},
		{`mountView(<View />);`, true},
		{`new App({ target: el });`, true},
		{`customElements.define("x-card", Card);`, true},
		{`export default class C extends Component { render() { return <p />; } }`, false},
		{`export default function App() { const items = renderItems(list); return items; }`, false},
		{`export default function App() { return <p>hi</p>; }`, false},
	} {
		if got := mountsItself([]byte(tc.code)); got != tc.want {
			t.Errorf("mountsItself(%q) = %v, want %v", tc.code, got, tc.want)
		}
	}
}

func TestFrameworkOfImport(t *testing.T) {
	for spec, want := range map[string]string{
		"react": frameworkReact, "react-dom/client": frameworkReact, "widgetd/react": frameworkReact,
		"preact/hooks": frameworkPreact, "vue": frameworkVue, "./App.vue": frameworkVue,
		"svelte/store": frameworkSvelte, "./Card.svelte": frameworkSvelte, "solid-js/web": frameworkSolid,
		"widgetd": "", "@acme/react-kit": "", "./util": "",
	} {
		if got := frameworkOfImport(spec); got != want {
			t.Errorf("frameworkOfImport(%q) = %q, want %q", spec, got, want)
		}
	}
}

// TestComponentEntries builds component entries of every framework (with the
// real npm compilers) beside entries that are not component entries, and
// checks which were mounted (the component's text survives tree shaking only
// when something renders it) and which draw the render-nothing warning.
func TestComponentEntries(t *testing.T) {
	files := map[string]string{
		"widgets/react-default/widget.json": widgetJSON("View.tsx"),
		"widgets/react-default/View.tsx":    `export default function View() { return <p>react-default-text</p>; }`,
		"widgets/react-named/widget.json":   widgetJSON("src/view-resource.tsx"),
		"widgets/react-named/src/view-resource.tsx": `export const resource = { name: "v" };
export function ViewResource(props: { toolOutput?: { n: number } }) { return <p>react-named-text {props.toolOutput?.n}</p>; }`,
		"widgets/two-capitals/widget.json": widgetJSON("index.tsx"),
		"widgets/two-capitals/index.tsx": `export function A() { return <p>two-capitals-a</p>; }
export function B() { return <p>two-capitals-b</p>; }`,
		"widgets/self-mount/widget.json": widgetJSON("index.tsx"),
		"widgets/self-mount/index.tsx": `import { createRoot } from "react-dom/client";
function App() { return <p>self-mount-text</p>; }
export default App;
createRoot(document.getElementById("self-mount-root")!).render(<App />);`,
		"widgets/class-comp/widget.json": widgetJSON("index.tsx"),
		"widgets/class-comp/index.tsx": `import { Component } from "react";
export default class Card extends Component { render() { return <p>class-comp-text</p>; } }`,
		"widgets/preact-comp/widget.json":   widgetJSON("index.tsx"),
		"widgets/preact-comp/tsconfig.json": `{"compilerOptions": {"jsx": "react-jsx", "jsxImportSource": "preact"}}`,
		"widgets/preact-comp/index.tsx":     `export default function P() { return <p>preact-comp-text</p>; }`,
		"widgets/solid-comp/widget.json":    widgetJSON("index.tsx"),
		"widgets/solid-comp/tsconfig.json":  `{"compilerOptions": {"jsx": "preserve", "jsxImportSource": "solid-js"}}`,
		"widgets/solid-comp/index.tsx":      `export default function S() { return <p>solid-comp-text</p>; }`,
		"widgets/vue-comp/widget.json":      widgetJSON("Card.vue"),
		"widgets/vue-comp/Card.vue":         `<template><p>vue-comp-text</p></template>`,
		"widgets/svelte-comp/widget.json":   widgetJSON("Card.svelte"),
		"widgets/svelte-comp/Card.svelte":   `<p>svelte-comp-text</p>`,
		"widgets/framed/widget.json":        `{"title": "T", "description": "D", "entry": "View.tsx", "provider": [{"use": "./Frame.tsx#Frame", "props": {"label": "frame-prop-text"}}, "./Frame.tsx"]}`,
		"widgets/framed/View.tsx":           `export default function View() { return <p>framed-view-text</p>; }`,
		"widgets/framed/Frame.tsx": `import type { ReactNode } from "react";
export function Frame({ label, children }: { label: string; children?: ReactNode }) { return <div className="frame-outer-text" title={label.toUpperCase()}>{children}</div>; }
export default function Inner({ children }: { children?: ReactNode }) { return <div className="frame-inner-text">{children}</div>; }`,
		"widgets/bare/widget.json":    widgetJSON("index.ts"),
		"widgets/bare/index.ts":       `import { widget } from "widgetd"; widget.onToolResult(() => console.log("bare"));`,
		"widgets/vanilla/widget.json": widgetJSON("index.ts"),
		"widgets/vanilla/index.ts":    `document.getElementById("root")!.textContent = "vanilla-text";`,
	}
	root := writeProjectWith(t, compilerModules(t), files)
	_, out := assembleOK(t, testOptions(root))
	html := map[string]string{}
	for _, w := range out.Manifest.Widgets {
		html[w.Name] = string(out.Files[w.HTML])
	}
	warned := map[string]bool{}
	for _, d := range out.Warnings {
		if strings.Contains(d.Message, "renders nothing") {
			warned[d.Message[strings.Index(d.Message, `"`)+1:strings.Index(d.Message, `" renders`)]] = true
		}
	}
	for _, tc := range []struct {
		name    string
		texts   []string
		nothing bool
	}{
		{"react-default", []string{"react-default-text"}, false},
		{"react-named", []string{"react-named-text"}, false},
		{"two-capitals", nil, true},
		{"self-mount", []string{"self-mount-text", `id="self-mount-root"`}, false},
		{"class-comp", []string{"class-comp-text"}, false},
		{"preact-comp", []string{"preact-comp-text"}, false},
		{"solid-comp", []string{"solid-comp-text"}, false},
		{"vue-comp", []string{"vue-comp-text"}, false},
		{"svelte-comp", []string{"svelte-comp-text"}, false},
		{"framed", []string{"framed-view-text", "frame-outer-text", "frame-inner-text", "frame-prop-text"}, false},
		{"bare", nil, true},
		{"vanilla", []string{"vanilla-text"}, false},
	} {
		h, ok := html[tc.name]
		if !ok {
			t.Errorf("%s: not built", tc.name)
			continue
		}
		for _, s := range tc.texts {
			if !strings.Contains(h, s) {
				t.Errorf("%s: output lacks %q (the component was not mounted)", tc.name, s)
			}
		}
		if warned[tc.name] != tc.nothing {
			t.Errorf("%s: render-nothing warning %v, want %v (warnings %v)", tc.name, warned[tc.name], tc.nothing, out.Warnings)
		}
	}
	if strings.Contains(html["self-mount"], `getElementById("root")`) {
		t.Error("self-mount: widgetd generated a second mount beside the entry's own")
	}
	if strings.Contains(html["two-capitals"], "two-capitals-a") {
		t.Error("two-capitals: mounted one of two exported components")
	}
}

// TestComponentEntryErrors: a provider widgetd cannot apply fails the build
// with what to do instead, at widget.json's line:col where it can.
func TestComponentEntryErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"svelte provider", map[string]string{
			"widgets/s/widget.json": `{"title": "T", "description": "D", "entry": "Card.svelte", "provider": "kit#Provider"}`,
			"widgets/s/Card.svelte": `<p>x</p>`,
		}, `a Svelte component has no provider component: remove "provider" and wrap the component in a .svelte file of your own`},
		{"bad export", map[string]string{
			"widgets/b/widget.json": "{\"title\": \"T\", \"description\": \"D\", \"entry\": \"View.tsx\",\n  \"provider\": \"kit#not-an-ident\"}",
			"widgets/b/View.tsx":    `export default function View() { return <p />; }`,
		}, `widgets/b/widget.json:2:3: error: provider "kit#not-an-ident" must be "module" (its default export) or "module#Export"`},
		{"props not an object", map[string]string{
			"widgets/p/widget.json": "{\"title\": \"T\", \"description\": \"D\", \"entry\": \"View.tsx\",\n  \"provider\": [{\"use\": \"kit#Kit\", \"props\": [1]}]}",
			"widgets/p/View.tsx":    `export default function View() { return <p />; }`,
		}, `widgets/p/widget.json:2:35: error: the props of provider "kit#Kit" must be an object`},
		{"unknown key", map[string]string{
			"widgets/u/widget.json": "{\"title\": \"T\", \"description\": \"D\", \"entry\": \"View.tsx\",\n  \"provider\": {\"use\": \"kit#Kit\", \"prop\": {}}}",
			"widgets/u/View.tsx":    `export default function View() { return <p />; }`,
		}, `widgets/u/widget.json:2:34: error: unknown field "prop" in "provider"; did you mean "props"?`},
		{"provider not installed", map[string]string{
			"widgets/n/widget.json": `{"title": "T", "description": "D", "entry": "View.tsx", "provider": "not-installed-kit#Kit"}`,
			"widgets/n/View.tsx":    `export default function View() { return <p />; }`,
		}, `the package "not-installed-kit" is not installed`},
		{"html entry", map[string]string{
			"widgets/h/widget.json": `{"title": "T", "description": "D", "entry": "index.html", "provider": "kit"}`,
			"widgets/h/index.html":  `<!doctype html><html><body><p>x</p></body></html>`,
		}, `"provider" wraps a component entry, and index.html is an HTML entry`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := writeProjectWith(t, compilerModules(t), tc.files)
			_, _, err := assembleProject(t, testOptions(root))
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}
