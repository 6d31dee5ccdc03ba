package check

import (
	"context"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/cspgen"
	"github.com/widgetd/widgetd/internal/testfiles"
)

// writeTree writes files (slash paths) below a new root and returns it.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	testfiles.Write(t, root, files)
	return root
}

// TestUndeclaredLoadsAtSource builds one widget per row from sources and
// checks what `widgetd build` warns and `widgetd check` reports: each load
// from an origin the csp does not declare, per sink, at the source
// file:line:col where the URL was written; and nothing for declared,
// wildcard-matched, relative, data: or run-time-built URLs.
func TestUndeclaredLoadsAtSource(t *testing.T) {
	const (
		connect  = `"connectDomains": ["https://api.example.com", "wss://*.live.example.com"]`
		resource = `"resourceDomains": ["https://cdn.example.com", "https://*.img.example.com"]`
	)
	tests := []struct {
		name  string
		files map[string]string // below widgets/w/; index.ts is the entry unless index.html is given
		want  []string          // "file:line:col rule", in order; nil for none
	}{
		{"fetch undeclared", map[string]string{"index.ts": "// load\nfetch(\"https://evil.example.net/x\");\n"},
			[]string{"index.ts:2:1 csp-undeclared-connect"}},
		{"fetch declared", map[string]string{"index.ts": `fetch("https://api.example.com/x");`}, nil},
		{"fetch in an imported module", map[string]string{
			"index.ts": "import { load } from \"./api\";\nload();\n",
			"api.ts":   "export function load() {\n  return fetch(\"https://evil.example.net/x\");\n}\n"},
			[]string{"api.ts:2:10 csp-undeclared-connect"}},
		{"xhr", map[string]string{"index.ts": "const x = new XMLHttpRequest();\nx.open(\"GET\", \"https://evil.example.net/x\");\nx.send();\n"},
			[]string{"index.ts:2:3 csp-undeclared-connect"}},
		{"websocket wss undeclared", map[string]string{"index.ts": `new WebSocket("wss://rt.example.net/s");`},
			[]string{"index.ts:1:1 csp-undeclared-connect"}},
		{"websocket wildcard declared", map[string]string{"index.ts": `new WebSocket("wss://eu.live.example.com/s");`}, nil},
		{"websocket wildcard does not cover the base", map[string]string{"index.ts": `new WebSocket("wss://live.example.com/s");`},
			[]string{"index.ts:1:1 csp-undeclared-connect"}},
		// WebSockets are fetched as http(s) and CSP checks that URL, so an
		// https source covers wss: but not the insecure ws:.
		{"wss under an https source", map[string]string{"index.ts": `new WebSocket("wss://api.example.com/s");`}, nil},
		{"ws is not https", map[string]string{"index.ts": `new WebSocket("ws://api.example.com/s");`},
			[]string{"index.ts:1:1 csp-undeclared-connect"}},
		{"https under a wss source", map[string]string{"index.ts": `fetch("https://eu.live.example.com/x");`}, nil},
		{"eventsource", map[string]string{"index.ts": "\n\nnew EventSource(\"https://sse.example.net/e\");\n"},
			[]string{"index.ts:3:1 csp-undeclared-connect"}},
		{"img src", map[string]string{"index.ts": "const img = new Image();\nimg.src = \"https://pics.example.net/a.png\";\ndocument.body.append(img);\n"},
			[]string{"index.ts:2:1 csp-undeclared-resource"}},
		{"img src wildcard declared", map[string]string{"index.ts": "const img = new Image();\nimg.src = \"https://a.img.example.com/a.png\";\ndocument.body.append(img);\n"}, nil},
		{"new Image().src", map[string]string{"index.ts": "new Image().src = \"https://px.example.net/p.gif\";\n"},
			[]string{"index.ts:1:1 csp-undeclared-resource"}},
		{"img srcset", map[string]string{"index.ts": "const img = document.createElement(\"img\");\nimg.srcset = \"https://cdn.example.com/a.png 1x, https://pics.example.net/a2.png 2x\";\ndocument.body.append(img);\n"},
			[]string{"index.ts:2:1 csp-undeclared-resource"}},
		{"template literal without interpolation", map[string]string{"index.ts": "fetch(`https://evil.example.net/x`);\n"},
			[]string{"index.ts:1:1 csp-undeclared-connect"}},
		{"dynamic url ignored", map[string]string{"index.ts": "const host = location.hash.slice(1);\nfetch(\"https://\" + host + \"/x\");\nconst img = new Image();\nimg.src = host;\n"}, nil},
		{"relative ignored", map[string]string{"index.ts": "fetch(\"/api/x\");\nconst img = new Image();\nimg.src = \"./a.png\";\n"}, nil},
		{"data url image ignored", map[string]string{"index.ts": "const img = new Image();\nimg.src = \"data:image/gif;base64,R0lGODlhAQABAAAAACw=\";\n"}, nil},
		{"css url", map[string]string{
			"index.ts":  "import \"./style.css\";\ndocument.body.append(\"x\");\n",
			"style.css": "body {\n  color: red;\n  background: url(\"https://pics.example.net/bg.png\");\n}\n"},
			[]string{"style.css:3:15 csp-undeclared-resource"}},
		{"css url declared", map[string]string{
			"index.ts":  "import \"./style.css\";\ndocument.body.append(\"x\");\n",
			"style.css": "body { background: url(https://cdn.example.com/bg.png); }\n"}, nil},
		{"html link script img", map[string]string{
			"index.html": "<!doctype html>\n<html><head><meta charset=\"utf-8\">\n<link rel=\"stylesheet\" href=\"https://fonts.example.net/css\">\n<script src=\"https://js.example.net/lib.js\"></script>\n</head><body>\n<img src=\"https://pics.example.net/logo.png\" alt=\"\">\n<img src=\"https://cdn.example.com/ok.png\" alt=\"\">\n<script type=\"module\" src=\"./main.ts\"></script>\n</body></html>\n",
			"main.ts":    "document.body.append(\"x\");\n"},
			[]string{"index.html:3:30 csp-undeclared-resource", "index.html:4:14 csp-undeclared-resource", "index.html:6:11 csp-undeclared-resource"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files := map[string]string{"widgets/w/widget.json": `{"title": "W", "csp": {` + connect + `, ` + resource + `}}`}
			for p, s := range tt.files {
				files["widgets/w/"+p] = s
			}
			root := writeTree(t, files)
			in := assemble(t, root, "")
			diags, err := UndeclaredLoads(context.Background(), in)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, d := range diags {
				if !d.Warning || d.Line == 0 {
					t.Errorf("not a located warning: %s", d)
				}
				got = append(got, strings.TrimPrefix(filepath.ToSlash(d.File), filepath.ToSlash(in.ConfigDir["w"])+"/")+
					":"+strconv.Itoa(d.Line)+":"+strconv.Itoa(d.Column)+" "+d.Code)
			}
			if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("build warnings:\n got: %q\nwant: %q", got, tt.want)
			}
			// check reports the same loads, as errors, at the same places.
			rep, err := Run(context.Background(), in, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var checked []string
			for _, f := range rep.Findings {
				if undeclaredRules[f.Rule] {
					checked = append(checked, strings.TrimPrefix(f.File, in.ConfigDir["w"]+"/")+" "+f.Rule)
				}
			}
			if strings.Join(checked, "\n") != strings.Join(tt.want, "\n") {
				t.Errorf("check findings:\n got: %q\nwant: %q", checked, tt.want)
			}
		})
	}
}

// TestLocatorFallsBackToQuotedText locates a URL written where the
// scanners see no load (a JSX attribute, which the bundle turns into a
// jsx("img", {src}) call): at the quoted occurrence, not at a mention in a
// comment; and a URL the sources do not hold is not located.
func TestLocatorFallsBackToQuotedText(t *testing.T) {
	src := "// see https://pics.example.net/l.svg\nexport const Logo = () => (\n  <img src=\"https://pics.example.net/l.svg\" alt=\"\" />\n);\n"
	l := &sourceLocator{files: []*sourceFile{{shown: "w/logo.tsx", data: []byte(src), scan: scanJS}}}
	pos, ok := l.find(urlRef{URL: "https://pics.example.net/l.svg", Directive: cspgen.ImgSrc})
	if !ok || pos.String() != "w/logo.tsx:3:13" || !strings.Contains(pos.text, "<img src=") {
		t.Errorf("find = %v %q, %v; want w/logo.tsx:3:13", pos, pos.text, ok)
	}
	if pos, ok := l.find(urlRef{URL: "https://elsewhere.example.net/x", Directive: cspgen.ImgSrc}); ok {
		t.Errorf("located a URL the sources do not hold at %v", pos)
	}
	var none *sourceLocator
	if _, ok := none.find(urlRef{URL: "https://pics.example.net/l.svg"}); ok {
		t.Error("a nil locator (a dist/) located a URL")
	}
}
