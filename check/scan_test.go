package check

import (
	"fmt"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/cspgen"
)

// refsString shows each urlRef with the 6 bytes of src at its offset, so the
// expectations show where offsets point without counting bytes.
func refsString(src string, rs []urlRef) string {
	var parts []string
	for _, r := range rs {
		p := ""
		if r.Partial {
			p = "…"
		}
		at := "<out of range>"
		if r.Offset >= 0 && r.Offset <= len(src) {
			at = src[r.Offset:min(len(src), r.Offset+6)]
		}
		parts = append(parts, fmt.Sprintf("%s %s%s @%s %s", r.Directive, r.URL, p, at, r.Via))
	}
	return strings.Join(parts, "\n")
}

func TestScanJS(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"fetch literal", `fetch("https://api.example.com/v1")`, "connect-src https://api.example.com/v1 @fetch( fetch()"},
		{"window.fetch", `x;window.fetch('https://a.example/x',{})`, "connect-src https://a.example/x @fetch( fetch()"},
		{"method named fetch", `a.fetch("https://a.example/x")`, ""},
		{"template head", "fetch(`https://api.example.com/q?city=${c}`)", "connect-src https://api.example.com/q?city=… @fetch( fetch()"},
		{"template head without full origin", "fetch(`https://${region}.example.com/`)", ""},
		{"concat prefix", `fetch("https://api.example.com/"+p)`, "connect-src https://api.example.com/… @fetch( fetch()"},
		{"concat prefix without path", `fetch("https://api.example"+".com/")`, ""},
		{"const propagated", `const Ab="https://api.example.com/v1";async function f(){return fetch(Ab)}`, "connect-src https://api.example.com/v1 @fetch( fetch()"},
		{"const in template", "var Q=\"https://api.example.com/v1\";fetch(`${Q}/forecast?x=${y}`)", "connect-src https://api.example.com/v1/forecast?x=… @fetch( fetch()"},
		{"const used elsewhere too", `var e="https://api.example.com";function g(e){return fetch(e)}`, ""},
		{"const reassigned", `var Q="https://a.example/";Q="https://b.example/";fetch(Q)`, ""},
		{"websocket", `new WebSocket("wss://rt.example.com/s")`, "connect-src wss://rt.example.com/s @new We new WebSocket()"},
		{"ws literal anywhere", `const u={url:"wss://rt.example.com"}`, "connect-src wss://rt.example.com @\"wss:/ WebSocket URL literal"},
		{"eventsource", `new window.EventSource("https://sse.example.com/e")`, "connect-src https://sse.example.com/e @new wi new EventSource()"},
		{"xhr", `x.open("GET","https://x.example/a",!0)`, "connect-src https://x.example/a @open(\" XMLHttpRequest open()"},
		{"window.open is navigation", `window.open("https://x.example/a","_blank")`, ""},
		{"dynamic import", `import("https://cdn.example.com/m.js")`, "script-src https://cdn.example.com/m.js @import import()"},
		{"new URL", `fetch(new URL("https://x.example/a"))`, "connect-src https://x.example/a @fetch( fetch()"},
		{"beacon", `navigator.sendBeacon("https://log.example/b",d)`, "connect-src https://log.example/b @sendBe navigator.sendBeacon()"},
		{"relative", `fetch("/api/x")`, ""},
		{"namespace", `document.createElementNS("http://www.w3.org/2000/svg","svg")`, ""},
		{"error decoder", `var t="https://react.dev/errors/"+l;throw Error(t)`, ""},
		{"comment", `/* see https://example.com/licence */ // fetch("https://x.example/")` + "\nx()", ""},
		{"url in message", `throw Error("see https://docs.example.com/x for help")`, ""},
		{"regex with quote", `var r=/"https:\/\/x/;fetch("https://ok.example/")`, "connect-src https://ok.example/ @fetch( fetch()"},
		{"division not regex", `a=b/2/c;fetch("https://ok.example/")`, "connect-src https://ok.example/ @fetch( fetch()"},
		{"escaped", `fetch("https:\/\/esc.example\u002Fa")`, "connect-src https://esc.example/a @fetch( fetch()"},
		{"protocol relative", `fetch("//cdn.example.com/x")`, "connect-src https://cdn.example.com/x @fetch( fetch()"},
		{"data url", `fetch("data:text/plain,hi")`, "connect-src data:text/plain,hi @fetch( fetch()"},
		// Images loaded by assignment.
		{"img src new Image", `const img = new Image(); img.src = "https://img.example.com/a.png";`, "img-src https://img.example.com/a.png @img.sr image .src ="},
		{"img src minified", `let e=new Image;e.crossOrigin="anonymous",e.src="https://img.example.com/a.png"`, "img-src https://img.example.com/a.png @e.src= image .src ="},
		{"img src createElement", `const i = document.createElement("img");
i.alt = "";
i.src = "https://img.example.com/b.png";`, "img-src https://img.example.com/b.png @i.src  image .src ="},
		{"new Image().src", `new Image().src = "https://px.example.com/p.gif";`, "img-src https://px.example.com/p.gif @new Im image .src ="},
		{"(new Image).src", `(new Image).src="https://px.example.com/p.gif"`, "img-src https://px.example.com/p.gif @(new I image .src ="},
		{"img src template no interpolation", "const img = new Image(); img.src = `https://img.example.com/t.png`;", "img-src https://img.example.com/t.png @img.sr image .src ="},
		{"img src concat prefix", `const img = new Image(); img.src = "https://img.example.com/" + name;`, "img-src https://img.example.com/… @img.sr image .src ="},
		{"img src dynamic", `const img = new Image(); img.src = base + "/a.png";`, ""},
		{"img src relative", `const img = new Image(); img.src = "./a.png";`, ""},
		{"img src data", `const img = new Image(); img.src = "data:image/png;base64,AAAA";`, "img-src data:image/png;base64,AAAA @img.sr image .src ="},
		{"img srcset", `el.srcset = "https://img.example.com/a.png 1x, https://img2.example.com/a@2x.png 2x";`, "img-src https://img.example.com/a.png @el.src image .srcset =\nimg-src https://img2.example.com/a@2x.png @el.src image .srcset ="},
		{"src of unknown object", `frame.src = "https://embed.example.com/";`, ""},
		{"src of iframe element", `const f = document.createElement("iframe"); f.src = "https://embed.example.com/";`, ""},
		{"src of a rebound name", `let e=new Image;e=document.createElement("iframe");e.src="https://embed.example.com/"`, ""},
		{"src read, not set", `const img = new Image(); if (img.src == "https://img.example.com/a.png") x();`, ""},
		{"jsx img", `(0,r.jsx)("img",{className:"logo",src:"https://img.example.com/l.svg",alt:""})`, "img-src https://img.example.com/l.svg @src:\"h <img src> (JSX)"},
		{"jsx img srcSet", `h("img",{srcSet:"https://img.example.com/a.png 2x"})`, "img-src https://img.example.com/a.png @srcSet <img srcset> (JSX)"},
		{"jsx source srcset", `h("source",{"srcset":"https://img.example.com/a.webp"})`, "img-src https://img.example.com/a.webp @\"srcse <source srcset> (JSX)"},
		{"jsx img nested src ignored", `h("img",{style:{src:"https://x.example.com/a"},src:p})`, ""},
		{"jsx iframe src ignored", `h("iframe",{src:"https://embed.example.com/"})`, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := refsString(tc.src, scanJS([]byte(tc.src)).Refs)
			if got != tc.want {
				t.Errorf("scanJS(%s)\n got: %s\nwant: %s", tc.src, got, tc.want)
			}
		})
	}
}

func TestScanJSEval(t *testing.T) {
	tests := []struct{ src, want string }{
		{`eval("1")`, "eval()@0"},
		{`x=new Function("a","return a")`, "new Function()@2"},
		{`globalThis.eval(s)`, "eval()@11"},
		{`setTimeout("go()",1)`, "setTimeout(string)@0"},
		{`setTimeout(()=>go(),1)`, ""},
		{`a.eval(s);b.Function(x)`, ""},
		{`typeof eval;Function.prototype.call;x={eval:1}`, ""},
		{`(0,eval)("1")`, "eval()@3"},
		{`"eval(x)";/* new Function() */`, ""},
	}
	for _, tc := range tests {
		var parts []string
		for _, e := range scanJS([]byte(tc.src)).Evals {
			parts = append(parts, fmt.Sprintf("%s@%d", e.Via, e.Offset))
		}
		if got := strings.Join(parts, " "); got != tc.want {
			t.Errorf("evals in %s = %q, want %q", tc.src, got, tc.want)
		}
	}
}

func TestScanCSS(t *testing.T) {
	src := `@import url("https://fonts.example.com/css");@import 'https://s.example/b.css';` +
		`@font-face{font-family:X;src:url(https://fonts.example.com/x.woff2) format("woff2")}` +
		`.a{background:url( 'https://img.example/a.png' )}.b{background:url(data:image/png;base64,AA==)}.c{background:url(/rel.png)}`
	want := strings.Join([]string{
		"style-src https://fonts.example.com/css @url(\"h @import",
		"style-src https://s.example/b.css @'https @import",
		"font-src https://fonts.example.com/x.woff2 @url(ht @font-face url()",
		"img-src https://img.example/a.png @url( ' url()",
		"img-src data:image/png;base64,AA== @url(da url()",
	}, "\n")
	if got := refsString(src, scanCSS([]byte(src)).Refs); got != want {
		t.Errorf("scanCSS\n got: %s\nwant: %s", got, want)
	}
}

func TestScanHTML(t *testing.T) {
	src := `<!doctype html><html><head><meta charset="utf-8">` +
		`<link rel="stylesheet" href="https://cdn.example.com/a.css">` +
		`<script type="module" src="https://cdn.example.com/a.js"></script>` +
		`<style>.x{background:url(https://img.example/bg.png)}</style></head>` +
		`<body><img src="https://img.example/i.png" srcset="https://img.example/1.png 1x, https://img2.example/2.png 2x">` +
		`<iframe src="https://embed.example/v"></iframe><div style="background:url('https://img.example/s.png')"></div>` +
		`<a href="https://docs.example.com/">docs</a>` +
		`<svg xmlns="http://www.w3.org/2000/svg"><path d="M0 0"/></svg>` +
		`<script>fetch("https://api.example.com/x")</script></body></html>`
	res := scanHTMLResult([]byte(src))
	var got []string
	for _, r := range res.Refs {
		if at := src[r.Offset:]; !strings.HasPrefix(at, r.URL) && !strings.HasPrefix(at, "fetch") && !strings.HasPrefix(at, "url(") {
			t.Errorf("offset %d of %s points at %.20q", r.Offset, r.URL, src[r.Offset:])
		}
		got = append(got, r.Directive.String()+" "+r.URL+" "+r.Via)
	}
	want := []string{
		"style-src https://cdn.example.com/a.css <link href>",
		"script-src https://cdn.example.com/a.js <script src>",
		"img-src https://img.example/bg.png url()",
		"img-src https://img.example/i.png <img src>",
		"img-src https://img.example/1.png <img srcset>",
		"img-src https://img2.example/2.png <img srcset>",
		"frame-src https://embed.example/v <iframe src>",
		"img-src https://img.example/s.png url()",
		"connect-src https://api.example.com/x fetch()",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("scanHTMLResult\n got: %s\nwant: %s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if len(res.Scripts) != 1 {
		t.Errorf("inline scripts = %d, want 1", len(res.Scripts))
	}
}

var _ = cspgen.ConnectSrc

// TestRecoverLexer: deferred around a lexer run, recoverLexer calls stopped
// after a panic (the run's results so far kept) and nothing otherwise, and
// the input lexerInput gives the lexers is a copy, so src never changes.
func TestRecoverLexer(t *testing.T) {
	for _, tc := range []struct {
		name   string
		panics bool
	}{{"lexer panics", true}, {"lexer finishes", false}} {
		t.Run(tc.name, func(t *testing.T) {
			run := func() (kept []string, stopped bool) {
				defer recoverLexer(func() { stopped = true })
				kept = append(kept, "before")
				if tc.panics {
					var past []byte
					_ = past[len(kept)] // as a lexer reading past its input
				}
				kept = append(kept, "after")
				return kept, false
			}
			kept, stopped := run()
			if stopped != tc.panics || len(kept) != map[bool]int{true: 1, false: 2}[tc.panics] {
				t.Errorf("kept %q, stopped %v; want stopped %v", kept, stopped, tc.panics)
			}
		})
	}
	src := []byte("<DIV CLASS=A>")
	if got := scanHTMLResult(src); !got.Complete() || string(src) != "<DIV CLASS=A>" {
		t.Errorf("scanning changed its input to %q (complete %v)", src, got.Complete())
	}
}
