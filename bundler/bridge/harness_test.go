package bridge

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/widgetd/widgetd/cspgen"
)

// chromiumPath is Debian's Chromium, installed by CI (apt-get install chromium).
const chromiumPath = "/usr/bin/chromium"

// testWidgets are the widget sources under testdata/widgets, each built with
// the bridge imported first, as the bundler does.
var testWidgets = []string{"api", "appclass", "mixed", "openai", "react"}

// built caches the test bundles for the whole test binary: building the
// AppBridge host and the App-class widgets takes a second each.
var built = sync.OnceValues(func() (map[string][]byte, error) { return buildAll() })

func buildAll() (out map[string][]byte, err error) {
	nm, err := filepath.Abs(filepath.Join(hostsDir, "node_modules"))
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(nm, "@modelcontextprotocol", "ext-apps")); err != nil {
		return nil, fmt.Errorf("node_modules missing in bundler/bridge/%s: run `npm ci` in that folder: %w", hostsDir, err)
	}
	out = map[string][]byte{}
	if out["mcp-host"], err = bundle(`import "./mcp-host.ts";`, hostsDir, false); err != nil {
		return nil, err
	}
	for _, w := range testWidgets {
		if out[w], err = bundle(`import "widgetd"; import "./main";`, filepath.Join("testdata/widgets", w), false, nm); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// serve starts the test origin: host pages, the ChatGPT host script, and the
// widgets, each widget page under the strict spec CSP that cspgen generates.
func serve(t *testing.T) *httptest.Server {
	t.Helper()
	requireNodeModules(t)
	bundles, err := built()
	if err != nil {
		t.Fatal(err)
	}
	pol, err := cspgen.New(cspgen.Domains{})
	if err != nil {
		t.Fatal(err)
	}
	csp := pol.Header()
	if !strings.Contains(csp, "default-src 'none'") || strings.Contains(csp, "unsafe-eval") {
		t.Fatalf("cspgen header is not the strict spec CSP: %q", csp)
	}
	css, err := os.ReadFile("testdata/widgets/widget.css")
	if err != nil {
		t.Fatal(err)
	}
	file := func(name, ctype string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			b, err := os.ReadFile(filepath.Join(hostsDir, name))
			if err != nil {
				http.Error(w, err.Error(), 500)
				return
			}
			w.Header().Set("Content-Type", ctype)
			w.Write(b)
		}
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /mcp-host", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, `<!doctype html><html><head><meta charset="utf-8"><title>mcp test host</title></head><body><script type="module" src="/mcp-host.js"></script></body></html>`)
	})
	mux.HandleFunc("GET /mcp-host.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		w.Write(bundles["mcp-host"])
	})
	mux.Handle("GET /chatgpt-host", file("chatgpt-host.html", "text/html; charset=utf-8"))
	mux.Handle("GET /raw-host", file("raw-host.html", "text/html; charset=utf-8"))
	mux.Handle("GET /chatgpt.js", file("chatgpt.js", "text/javascript"))
	mux.HandleFunc("GET /w/{file}", func(w http.ResponseWriter, r *http.Request) {
		name := r.PathValue("file")
		if js, ok := strings.CutSuffix(name, ".js"); ok {
			w.Header().Set("Content-Type", "text/javascript")
			w.Write(bundles[js])
			return
		}
		if bundles[name] == nil {
			http.NotFound(w, r)
			return
		}
		pre := ""
		if r.URL.Query().Get("host") == "chatgpt" {
			pre = `<script src="/chatgpt.js"></script>`
		}
		w.Header().Set("Content-Security-Policy", csp)
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, `<!doctype html><html><head><meta charset="utf-8"><title>%s</title><style>%s</style>%s</head><body><main id="app"></main><script type="module" src="/w/%s.js"></script></body></html>`, name, css, pre, name)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// browser starts a fresh headless Chromium for one test.
func browser(t *testing.T) context.Context {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Fatalf("%s missing: install Debian's chromium (apt-get install -y chromium): %v", chromiumPath, err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(chromiumPath),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
	}
	actx, cancelA := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancelB := chromedp.NewContext(actx)
	t.Cleanup(func() { cancelB(); cancelA() })
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	return ctx
}

// page is one host page in a browser, with helpers to evaluate JS.
type page struct {
	t   *testing.T
	ctx context.Context
}

// with returns the page bound to a subtest's t.
func (p *page) with(t *testing.T) *page { return &page{t: t, ctx: p.ctx} }

// open navigates to srv+path and calls startHost(widgetURL, arg) there.
func open(t *testing.T, srv *httptest.Server, hostPath, widgetURL string, arg any) *page {
	t.Helper()
	p := &page{t: t, ctx: browser(t)}
	if err := chromedp.Do(p.ctx, chromedp.Navigate(srv.URL+hostPath)); err != nil {
		t.Fatalf("navigate %s: %v", hostPath, err)
	}
	p.wait(`typeof startHost == "function"`)
	a, _ := json.Marshal(arg)
	p.eval(fmt.Sprintf(`startHost(%q, %s)`, widgetURL, a), nil)
	return p
}

// eval evaluates expr (awaiting promises) and decodes its JSON value into out.
func (p *page) eval(expr string, out any) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 20*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(async () => JSON.stringify(await (`+expr+`)) ?? "null")()`, chromedp.EvalAwaitPromise))
	if err != nil {
		p.t.Fatalf("eval %s: %v", expr, err)
	}
	if out != nil {
		if err := json.Unmarshal([]byte(s), out); err != nil {
			p.t.Fatalf("eval %s = %s: %v", expr, s, err)
		}
	}
}

// str evaluates expr to a string.
func (p *page) str(expr string) string {
	p.t.Helper()
	var s string
	p.eval(expr, &s)
	return s
}

// wait polls expr until it is truthy, failing with the last value of dump.
func (p *page) wait(expr string) {
	p.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		var ok bool
		p.eval(`!!(()=>{try{return `+expr+`}catch{return false}})()`, &ok)
		if ok {
			return
		}
		if time.Now().After(deadline) {
			var log any
			p.eval(`window.hostLog || window.chatgptHost?.log || window.rawLog || null`, &log)
			b, _ := json.Marshal(log)
			p.t.Fatalf("timed out waiting for %s; host log: %s", expr, b)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// W is the widget window expression inside the host page.
const W = `document.getElementById("w").contentWindow`

// run calls the widget's t.run(fn) and returns its {ok|err} object.
func (p *page) run(fn string) map[string]any {
	p.t.Helper()
	var out map[string]any
	p.eval(W+`.t.run(`+fn+`)`, &out)
	return out
}

// hostLog returns recorded host entries of type typ.
func (p *page) hostLog(typ string) []map[string]any {
	p.t.Helper()
	var out []map[string]any
	p.eval(fmt.Sprintf(`(window.hostLog || chatgptHost.log).filter(e => e.t == %q)`, typ), &out)
	return out
}

// js marshals v as a JS literal.
func js(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
