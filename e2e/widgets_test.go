package e2e_test

import (
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/bundler"
	"github.com/widgetd/widgetd/internal/browsertest"
)

// shared is the one Chromium and the bundled test hosts of this test binary.
var shared browsertest.Shared

func TestMain(m *testing.M) { os.Exit(shared.Run(m)) }

// W is the widget window inside a host page.
const W = browsertest.W

// example is one example widget with a realistic tool call and what it must
// render for it.
type example struct {
	name   string
	input  map[string]any
	result map[string]any // the CallToolResult the tool returned
	// want maps a CSS selector inside the widget to its expected textContent.
	want map[string]string
	// wait are extra conditions on the widget window w that must hold.
	wait []string
	// refresh, when set, is the widget's own tools/call: clicking button
	// must call the tool and render refresh's result into selector.
	refresh *refresh
}

type refresh struct {
	button, selector, text string
	result                 map[string]any
}

// examples mirrors the tools of examples/mcpserver.
func examples() []example {
	return []example{
		{
			name:  "hello",
			input: map[string]any{"name": "Ada"},
			result: map[string]any{
				"content":           []any{map[string]any{"type": "text", "text": "Greeted Ada."}},
				"structuredContent": map[string]any{"name": "Ada", "message": "Greetings from a Go MCP server with embedded widgets."},
			},
			want: map[string]string{
				".hello__title":   "Hello, Ada!",
				".hello__message": "Greetings from a Go MCP server with embedded widgets.",
			},
		},
		{
			name:  "weather",
			input: map[string]any{"city": "Oslo"},
			result: map[string]any{
				"content": []any{map[string]any{"type": "text", "text": "Forecast for Oslo: 3 days."}},
				"structuredContent": map[string]any{"city": "Oslo", "unit": "C", "days": []any{
					map[string]any{"day": "Mon", "high": 3, "low": -2, "summary": "Snow"},
					map[string]any{"day": "Tue", "high": 5, "low": 0, "summary": "Cloudy"},
					map[string]any{"day": "Wed", "high": 7, "low": 1, "summary": "Rain"},
				}},
			},
			want: map[string]string{
				"h1":                 "Oslo",
				"ol li:nth-child(1)": "Mon3°C / -2°CSnow",
				"ol li:nth-child(3)": "Wed7°C / 1°CRain",
			},
			wait: []string{
				`w.document.querySelectorAll("ol li").length == 3`,
				// The sun icon (an asset file) loaded under the CSP.
				`w.document.querySelector("h1 img").complete && w.document.querySelector("h1 img").naturalWidth > 0`,
			},
		},
		{
			name:  "get-time",
			input: map[string]any{},
			result: map[string]any{
				"content":           []any{map[string]any{"type": "text", "text": "The server time is 2026-01-26T09:00:00Z."}},
				"structuredContent": map[string]any{"time": "2026-01-26T09:00:00Z"},
			},
			want: map[string]string{"#server-time": "2026-01-26T09:00:00Z"},
			refresh: &refresh{button: "#get-time-btn", selector: "#server-time", text: "2026-01-26T09:00:05Z", result: map[string]any{
				"content":           []any{map[string]any{"type": "text", "text": "The server time is 2026-01-26T09:00:05Z."}},
				"structuredContent": map[string]any{"time": "2026-01-26T09:00:05Z"},
			}},
		},
	}
}

// widgetsDir returns the example widgets folder, failing unless its npm
// dependencies (React, for the weather widget) are installed.
func widgetsDir(t *testing.T) string {
	t.Helper()
	dir := browsertest.RepoPath(t, "widgets")
	browsertest.RequireNodeModules(t, dir, "react", "react-dom")
	return dir
}

// TestExampleWidgets builds widgets/ with the real pipeline, inline and
// external, and renders every example widget in the real AppBridge host and
// in the ChatGPT host.
func TestExampleWidgets(t *testing.T) {
	dir := widgetsDir(t)

	t.Run("inline", func(t *testing.T) {
		t.Parallel()
		root := t.TempDir()
		bw := assembleInline(t, bundler.Options{Root: root, WidgetsDir: dir, OutDir: filepath.Join(root, "dist"), NoCompress: true})
		renderAll(t, bw, nil)
	})

	t.Run("external", func(t *testing.T) {
		t.Parallel()
		// The asset origin must exist before the build names it.
		ln, public := listenOrigin(t)
		root := t.TempDir()
		dist := filepath.Join(root, "dist")
		_, reg := buildAndLoad(t, 2*time.Minute, bundler.Options{Root: root, WidgetsDir: dir, OutDir: dist, PublicURL: public})
		origin := &requestLog{h: reg.Handler(), seen: map[string]string{}}
		serveOn(t, ln, origin)

		bw := readBuild(t, reg, dist)
		for name, w := range bw.widgets {
			if w.Inline || len(w.Files) == 0 {
				t.Errorf("widget %s: want external files, got inline=%v files=%v", w.Name, w.Inline, w.Files)
			}
			if !strings.Contains(w.CSP, public) {
				t.Errorf("widget %s: CSP does not allow the public origin %s: %q", w.Name, public, w.CSP)
			}
			if doc := bw.html[name]; !strings.Contains(string(doc), public+"/") {
				t.Errorf("widget %s: HTML does not load from %s: %s", w.Name, public, doc)
			}
		}
		renderAll(t, bw, func(t *testing.T, w assets.Widget) {
			for _, f := range w.Files {
				enc, ok := origin.get("/" + f)
				if !ok {
					t.Errorf("widget %s: %s never fetched from the asset origin (fetched: %v)", w.Name, f, origin.paths())
					continue
				}
				t.Logf("%s served cross-origin with Content-Encoding %q", f, enc)
				if isText(f) && enc != "gzip" && enc != "br" {
					t.Errorf("widget %s: %s served with Content-Encoding %q, want a precompressed variant", w.Name, f, enc)
				}
			}
		})
	})
}

func isText(p string) bool {
	return strings.HasSuffix(p, ".js") || strings.HasSuffix(p, ".css") || strings.HasSuffix(p, ".svg")
}

// renderAll renders every example, in both hosts, as parallel subtests, and
// runs after(t, widget) once the widget has rendered; each example also
// reports its size to the host.
func renderAll(t *testing.T, bw *build, after func(*testing.T, assets.Widget)) {
	t.Helper()
	renderCases(t, bw, examples(), nil, true, after)
}

// rendered waits until the widget shows what ex wants.
func rendered(p *browsertest.Page, ex example) {
	p.T.Helper()
	sels := make([]string, 0, len(ex.want))
	for sel := range ex.want {
		sels = append(sels, sel)
	}
	slices.Sort(sels)
	for _, sel := range sels {
		p.Wait(W + `.document.querySelector(` + browsertest.JS(sel) + `)?.textContent == ` + browsertest.JS(ex.want[sel]))
	}
	for _, cond := range ex.wait {
		p.Wait(`((w) => ` + cond + `)(` + W + `)`)
	}
}

// click presses the widget's refresh button and waits for the new result.
func click(p *browsertest.Page, ex example) {
	p.T.Helper()
	r := ex.refresh
	p.Eval(W+`.document.querySelector(`+browsertest.JS(r.button)+`).click()`, nil)
	p.Wait(W + `.document.querySelector(` + browsertest.JS(r.selector) + `)?.textContent == ` + browsertest.JS(r.text))
}

// requestLog wraps the asset origin and remembers, per path, the
// Content-Encoding of the last 200 response.
type requestLog struct {
	h    http.Handler
	mu   sync.Mutex
	seen map[string]string
}

func (l *requestLog) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rec := &statusWriter{ResponseWriter: w}
	l.h.ServeHTTP(rec, r)
	if rec.status == http.StatusOK {
		l.mu.Lock()
		l.seen[r.URL.Path] = w.Header().Get("Content-Encoding")
		l.mu.Unlock()
	}
}

func (l *requestLog) get(p string) (string, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	enc, ok := l.seen[p]
	return enc, ok
}

func (l *requestLog) paths() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for p := range l.seen {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

type statusWriter struct {
	http.ResponseWriter
	status int
}

func (s *statusWriter) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusWriter) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	return s.ResponseWriter.Write(b)
}
