package assets_test

import (
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"

	"github.com/widgetd/widgetd/assets"
)

// discardWriter is a reusable ResponseWriter: it keeps one header map (cleared
// between requests, keeping its capacity) and drops the body, so the benchmark
// measures the handler's own allocations, not the recorder's.
type discardWriter struct {
	h    http.Header
	code int
	n    int
}

func (w *discardWriter) Header() http.Header         { return w.h }
func (w *discardWriter) WriteHeader(code int)        { w.code = code }
func (w *discardWriter) Write(b []byte) (int, error) { w.n += len(b); return len(b), nil }

func BenchmarkHandler(b *testing.B) {
	reg, d := load(b)
	h := reg.Handler()
	html := d.Manifest.Widgets[1].HTML
	cases := []struct {
		name, target string
		hdr          map[string]string
		code         int
	}{
		{"hashed-br", "/" + d.Asset, map[string]string{"Accept-Encoding": "gzip, deflate, br, zstd"}, 200},
		{"hashed-gzip", "/" + d.Asset, map[string]string{"Accept-Encoding": "gzip"}, 200},
		{"hashed-identity", "/" + d.Asset, nil, 200},
		{"html-br", "/" + html, map[string]string{"Accept-Encoding": "br;q=1.0, gzip;q=0.8, *;q=0.1"}, 200},
		{"alias-if-none-match-miss", "/counter.html", map[string]string{"Accept-Encoding": "br", "If-None-Match": `"x", W/"y"`}, 200},
		{"miss-404", "/assets/nope.js", nil, 404},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			req := httptest.NewRequest("GET", "http://origin.test/", nil)
			u, _ := url.ParseRequestURI(c.target)
			req.URL = u
			for k, v := range c.hdr {
				req.Header.Set(k, v)
			}
			w := &discardWriter{h: make(http.Header, 16)}
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				clear(w.h)
				w.n = 0
				h.ServeHTTP(w, req)
			}
			if w.code != c.code {
				b.Fatalf("status %d, want %d", w.code, c.code)
			}
			b.SetBytes(int64(w.n))
		})
	}
}

// BenchmarkResources measures a resources/list answer: every entry's _meta
// tailored for the client and turned into the map an SDK sends.
func BenchmarkResources(b *testing.B) {
	reg, _ := load(b, assets.WithConnectorURL("https://mcp.example.com/mcp"))
	for _, c := range []struct {
		name string
		c    assets.Client
	}{{"generic", assets.Client{}}, {"claude-asset-base", assets.Client{Name: "claude-ai", AssetBase: "https://edge.example.net/a"}}} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = reg.Resources(c.c)
			}
		})
	}
}
