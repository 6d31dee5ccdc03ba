package check

import (
	"testing"
)

var fuzzSeeds = []string{
	`fetch("https://api.example.com/v1")`,
	"var Q=\"https://a.example/v\";fetch(`${Q}/x?${y}`)",
	`new WebSocket("wss://x.example/s");eval("1");new Function("a")`,
	`x=/"[a-z]+/g.test(s)?a/b:c;import("https://c.example/m.js")`,
	"`unterminated ${",
	`"\u{110000}\x4`,
	`<!doctype html><meta charset=utf-8><img srcset="https://a.example/1.png 1x, ,https://b.example/2.png 2x"><script>fetch("https://z.example/")</script><style>@font-face{src:url(data:x)}</style>`,
	`<div style="background:url('https://a.example/a.png')"><svg><image href="x"/></svg><iframe src=//e.example/v>`,
	`@import "https://s.example/a.css";@font-face{src:url( https://f.example/f.woff2 )}a{b:url(`,
	"<script><!--<script></script>-->",
	`let e=new Image;e.src="https://i.example/a.png";(new Image).src="https://p.example/p.gif";x.srcset="https://a.example/1.png 1x,https://b.example/2.png 2x"`,
	`const i=document.createElement("img");i.src=` + "`https://i.example/${n}`" + `;h("img",{src:"https://j.example/j.png",srcSet:"https://k.example/k.png 2x",style:{src:1}})`,
}

// checkRefs asserts the scanner's invariants on any input.
func checkRefs(t *testing.T, n int, res scanResult) {
	for _, r := range res.Refs {
		if r.Offset < 0 || r.Offset > n {
			t.Fatalf("ref offset %d outside [0,%d]: %+v", r.Offset, n, r)
		}
		if r.Directive.List() == "" {
			t.Fatalf("ref without a directive: %+v", r)
		}
	}
	for _, e := range res.Evals {
		if e.Offset < 0 || e.Offset >= n {
			t.Fatalf("eval offset %d outside [0,%d)", e.Offset, n)
		}
	}
	for _, h := range res.Hazards {
		if h.Offset < 0 || h.Offset >= n {
			t.Fatalf("hazard offset %d outside [0,%d)", h.Offset, n)
		}
	}
	for _, s := range res.Scripts {
		if s.Offset < 0 || s.Offset+len(s.Text) > n {
			t.Fatalf("inline script [%d,+%d) outside [0,%d]", s.Offset, len(s.Text), n)
		}
	}
}

// fuzzScanner fuzzes the scanner called name from the shared seeds: every
// reference it finds lies inside the input (checkRefs), and it leaves the
// input as it was.
func fuzzScanner(f *testing.F, name string, scan func([]byte) scanResult) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		orig := string(src)
		checkRefs(t, len(src), scan(src))
		if string(src) != orig {
			t.Fatal(name + " modified its input")
		}
	})
}

func FuzzScanJS(f *testing.F) { fuzzScanner(f, "scanJS", scanJS) }

func FuzzScanCSS(f *testing.F) { fuzzScanner(f, "scanCSS", scanCSS) }

func FuzzScanHTML(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		orig := string(src)
		res, doc := scanHTML(src)
		checkRefs(t, len(src), res)
		if string(src) != orig {
			t.Fatal("scanHTML modified its input")
		}
		if doc == nil {
			t.Fatal("no document summary")
		}
	})
}
