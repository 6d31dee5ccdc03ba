package bundler

import (
	"context"
	"strings"
	"testing"
)

// TestHostBlockWarnings builds widgets that every host would break under the
// spec CSP and checks that the build says so at once, naming the source file
// and the fix; the clean widget gets no warning.
func TestHostBlockWarnings(t *testing.T) {
	for _, tc := range []struct {
		name      string
		files     map[string]string
		publicURL string
		file      string // the file the warning names
		want      string // "" for no warning
	}{
		{"inline font", map[string]string{
			"widgets/w/index.ts":    `import "./fonts.css"; document.body.append("x");`,
			"widgets/w/fonts.css":   `@font-face { font-family: Brand; src: url(./brand.woff2) format("woff2"); } body { font-family: Brand; }`,
			"widgets/w/brand.woff2": "wOF2-not-really",
		}, "", "widgets/w/brand.woff2", "font-src blocks in every host; build with a public URL (widgetd build --public-url"},
		{"external font is fine", map[string]string{
			"widgets/w/index.ts":    `import "./fonts.css"; document.body.append("x");`,
			"widgets/w/fonts.css":   `@font-face { font-family: Brand; src: url(./brand.woff2) format("woff2"); } body { font-family: Brand; }`,
			"widgets/w/brand.woff2": "wOF2-not-really",
		}, "https://cdn.example.com/w", "", ""},
		{"blob worker", map[string]string{
			"widgets/w/index.ts": `import { start } from "./pool"; start();`,
			"widgets/w/pool.ts":  "export function start() {\n  const u = URL.createObjectURL(new Blob([\"onmessage=()=>{}\"]));\n  return new Worker(u);\n}\n",
		}, "", "widgets/w/pool.ts", "starts a Worker from a blob: URL"},
		{"blob worker through self", map[string]string{
			"widgets/w/index.ts": `import { start } from "./pool"; start();`,
			"widgets/w/pool.ts":  "export function start() {\n  const u = URL.createObjectURL(new Blob([\"onmessage=()=>{}\"]));\n  return new self.Worker(u);\n}\n",
		}, "", "widgets/w/pool.ts", "starts a Worker from a blob: URL"},
		{"blob worker through window", map[string]string{
			"widgets/w/index.ts": "const u = URL.createObjectURL(new Blob([\"onmessage=()=>{}\"]));\nnew window.Worker(u);\n",
		}, "", "widgets/w/index.ts", "starts a Worker from a blob: URL"},
		{"worker through globalThis from a URL the build cannot follow", map[string]string{
			"widgets/w/index.ts": `import { start } from "./pool"; start((globalThis as any).workerUrl);`,
			"widgets/w/pool.ts":  "export function start(u: string) {\n  return new globalThis.Worker(u);\n}\n",
		}, "", "widgets/w/pool.ts", "starts a Worker through a global (new self.Worker(…)"},
		{"worker through self from new URL is bundled", map[string]string{
			"widgets/w/index.ts": "const w = new self.Worker(new URL(\"./w.ts\", import.meta.url), { type: \"module\" });\nw.postMessage(1);\n",
			"widgets/w/w.ts":     "self.onmessage = () => {};\n",
		}, "https://cdn.example.com/w", "widgets/w/index.ts", "browsers start a Worker only from the page's own origin"},
		{"worker through self from new URL, inline", map[string]string{
			"widgets/w/index.ts": "const w = new self.Worker(new URL(\"./w.ts\", import.meta.url));\n",
			"widgets/w/w.ts":     "self.onmessage = () => {};\n",
		}, "", "", "fails:cannot run in an inline widget"},
		{"eval", map[string]string{
			"widgets/w/index.ts": `import { compile } from "./jit"; document.body.append(String(compile("1+1")()));`,
			"widgets/w/jit.ts":   `export const compile = (src: string) => new Function("return " + src);`,
		}, "", "widgets/w/jit.ts", "compiles code from a string at run time"},
		{"public folder", map[string]string{
			"widgets/w/index.ts":        `document.body.append("x");`,
			"widgets/w/public/logo.png": "png",
		}, "", "widgets/w/public", `public/ is not copied`},
		{"clean", map[string]string{
			"widgets/w/index.ts": `document.body.append("x");`,
		}, "", "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := oneWidgetProject(t, tc.files)
			if want, ok := strings.CutPrefix(tc.want, "fails:"); ok {
				b, err := New(Options{Root: root, NoCache: true, PublicURL: tc.publicURL})
				if err != nil {
					t.Fatal(err)
				}
				defer b.Close()
				if _, err := b.Assemble(context.Background()); err == nil || !strings.Contains(err.Error(), want) {
					t.Errorf("build error = %v, want one containing %q", err, want)
				}
				return
			}
			_, out := assembleOK(t, Options{Root: root, NoCache: true, PublicURL: tc.publicURL})
			if tc.want == "" {
				if len(out.Warnings) > 0 {
					t.Errorf("warnings for a widget hosts accept: %v", out.Warnings)
				}
				return
			}
			for _, w := range out.Warnings {
				if strings.Contains(w.Message, tc.want) {
					if w.File != tc.file || !w.Warning {
						t.Errorf("warning names %q (warning=%v), want %q", w.File, w.Warning, tc.file)
					}
					return
				}
			}
			t.Errorf("no warning containing %q: %v", tc.want, out.Warnings)
		})
	}
}
