package bundler

import (
	"maps"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// refreshModules is devserver/testdata/refresh's node_modules (React,
// react-refresh, @babel/core), which the dev server's React Refresh browser
// test uses too.
func refreshModules(t *testing.T) string {
	t.Helper()
	modules, err := filepath.Abs(filepath.Join("..", "devserver", "testdata", "refresh", "node_modules"))
	if err != nil {
		t.Fatal(err)
	}
	for _, pkg := range []string{"react", "react-dom", "react-refresh", "@babel/core"} {
		if _, err := os.Stat(filepath.Join(modules, pkg, "package.json")); err != nil {
			t.Fatalf("npm packages missing; run `npm ci` in %s", filepath.Dir(modules))
		}
	}
	return modules
}

// TestReactRefreshBuild builds a React widget with and without
// Options.ReactRefresh: with it, components are registered under
// file-qualified ids, React is left out of the widget's script and is in
// its vendor script, in its development build; without it, none of that is
// in the output (the build `widgetd build` makes).
func TestReactRefreshBuild(t *testing.T) {
	modules := refreshModules(t)
	files := map[string]string{
		"widgets/counter/widget.json": widgetJSON("index.tsx"),
		"widgets/counter/index.tsx": `import { createRoot } from "react-dom/client";
import { App } from "./App";
createRoot(document.getElementById("root")!).render(<App />);
`,
		"widgets/counter/App.tsx": `import { useState } from "react";
export function App() {
  const [n, setN] = useState(0);
  return <button onClick={() => setN(n + 1)}>Count: {n}</button>;
}
`,
	}
	tests := []struct {
		name              string
		refresh           bool
		inScript, notIn   []string
		vendor, notVendor []string
	}{
		{
			name:     "dev server with React Refresh",
			refresh:  true,
			inScript: []string{"widgets/counter/App.tsx", "__widgetdVendor", "__widgetdShared"},
			notIn:    []string{"react.development", "react-dom-client"},
			vendor:   []string{"__widgetdVendor", `"react-dom/client"`, `"react/jsx-runtime"`, "scheduleRefresh"},
		},
		{
			name:    "build",
			refresh: false,
			notIn:   []string{"__widgetdVendor", "__widgetdShared", "widgets/counter/App.tsx", "scheduleRefresh"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := writeProjectWith(t, modules, maps.Clone(files))
			opts := testOptions(root)
			opts.ReactRefresh = tt.refresh
			_, out := assembleOK(t, opts)
			html := firstHTML(out)
			for _, s := range tt.inScript {
				if !strings.Contains(html, s) {
					t.Errorf("widget document lacks %q", s)
				}
			}
			for _, s := range tt.notIn {
				if strings.Contains(html, s) {
					t.Errorf("widget document holds %q", s)
				}
			}
			vendor, ok := out.RefreshVendors["counter"]
			if ok != tt.refresh {
				t.Fatalf("vendor script present %v, want %v", ok, tt.refresh)
			}
			for _, s := range tt.vendor {
				if !strings.Contains(vendor, s) {
					t.Errorf("vendor script lacks %q", s)
				}
			}
		})
	}
}
