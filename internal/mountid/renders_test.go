package mountid

import "testing"

func TestRendersNothing(t *testing.T) {
	const shell = `<!doctype html><html><head><title>w</title><script type="module">BUNDLE</script></head><body><div id="root"></div><div id="w-root"></div></body></html>`
	const bridge = `var s=e.getElementById("widgetd-fonts");s||(s=e.createElement("style"),s.id="widgetd-fonts",e.head.append(s)),s.textContent=f;e.body&&o.observe(e.body);`
	for _, tc := range []struct {
		name, html, js string
		want           bool
	}{
		{"bridge only", shell, bridge, true},
		{"empty", shell, "", true},
		{"comment and template", `<body><!-- x --><template><p>t</p></template><div id=root></div></body>`, bridge, true},
		{"styled box", `<body><div class="box"></div></body>`, bridge, false},
		{"static text", `<body><p>hello</p></body>`, bridge, false},
		{"bare text", `<body>hello</body>`, "", false},
		{"mount lookup", shell, bridge + `createRoot(document.getElementById("root")).render(x)`, false},
		{"innerHTML", shell, bridge + `document.body.innerHTML="<p>x</p>"`, false},
		{"body text", shell, bridge + `document.body.textContent="x"`, false},
		{"element", shell, bridge + `document.createElement("div")`, false},
		{"second style", shell, bridge + `document.createElement("style");document.createElement("style")`, true},
		{"custom element", shell, `customElements.define("x-a",A)`, false},
		{"no body tag", `<p>x</p>`, "", false},
	} {
		if got := RendersNothing([]byte(tc.html), []byte(tc.js)); got != tc.want {
			t.Errorf("%s: RendersNothing = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// FuzzRendersNothing: any document and code are answered, without a panic,
// and a body with visible text always renders.
func FuzzRendersNothing(f *testing.F) {
	f.Add([]byte(`<body><div id="root"></div></body>`), []byte(`createElement("style")`))
	f.Add([]byte(`<body><script>x</script>`), []byte(`getElementById(`))
	f.Fuzz(func(t *testing.T, html, js []byte) {
		if len(html) > 1<<16 || len(js) > 1<<16 {
			return
		}
		RendersNothing(html, js)
		if RendersNothing(append([]byte("<body><p>seen</p>"), html...), js) {
			t.Error("a body with text renders nothing")
		}
	})
}
