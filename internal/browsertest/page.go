package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// Timeouts of the page helpers. They are generous because the machine running
// the tests may be busy; a passing test never waits for them.
const (
	// EvalTimeout bounds one evaluation (including an awaited promise).
	EvalTimeout = 20 * time.Second
	// WaitTimeout bounds Wait's polling.
	WaitTimeout = 15 * time.Second
)

// W is the widget window expression inside every host page (the iframe with
// id "w").
const W = `document.getElementById("w").contentWindow`

// Page is one tab of the browser, bound to a test. Its helpers fail the test
// on any error, reporting what the page logged.
type Page struct {
	// T is the test the helpers report to.
	T testing.TB
	// Ctx is the chromedp context of the tab.
	Ctx    context.Context
	events *events
}

// With returns the same tab reporting to t (for subtests).
func (p *Page) With(t testing.TB) *Page { return &Page{T: t, Ctx: p.Ctx, events: p.events} }

// Navigate loads url in the tab and waits for it to load.
func (p *Page) Navigate(url string) {
	p.T.Helper()
	ctx, cancel := context.WithTimeout(p.Ctx, EvalTimeout)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		p.T.Fatalf("navigate %s: %v%s", url, err, p.logDump())
	}
}

// OpenHost navigates to a host page (see Hosts) and starts it on widgetURL:
// it calls the page's startHost(widgetURL, args...), which creates the widget
// iframe (id "w") and connects the host to it. The MCP host takes one
// argument ({input, result, tools, forward}); the ChatGPT host takes the
// initial window.openai globals and canned tool results.
func (p *Page) OpenHost(hostURL, widgetURL string, args ...any) {
	p.T.Helper()
	p.Navigate(hostURL)
	p.Wait(`typeof startHost == "function"`)
	call := "startHost(" + JS(widgetURL)
	for _, a := range args {
		call += ", " + JS(a)
	}
	p.Eval(call+")", nil)
}

// Eval evaluates expr (awaiting a promise) and decodes its JSON value into
// out, which may be nil.
func (p *Page) Eval(expr string, out any) {
	p.T.Helper()
	ctx, cancel := context.WithTimeout(p.Ctx, EvalTimeout)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(async () => JSON.stringify(await (`+expr+`)) ?? "null")()`, chromedp.EvalAwaitPromise))
	if err != nil {
		p.T.Fatalf("eval %s: %v%s", expr, err, p.logDump())
	}
	if out != nil {
		if err := json.Unmarshal([]byte(s), out); err != nil {
			p.T.Fatalf("eval %s = %s: %v", expr, s, err)
		}
	}
}

// Str evaluates expr to a string.
func (p *Page) Str(expr string) string {
	p.T.Helper()
	var s string
	p.Eval(expr, &s)
	return s
}

// Wait polls expr until it is truthy (exceptions count as false), failing
// after WaitTimeout with the host's log and what the page logged.
func (p *Page) Wait(expr string) {
	p.T.Helper()
	deadline := time.Now().Add(WaitTimeout)
	for {
		var ok bool
		p.Eval(`!!(()=>{try{return `+expr+`}catch{return false}})()`, &ok)
		if ok {
			return
		}
		if time.Now().After(deadline) {
			var log any
			p.Eval(`window.hostLog || window.chatgptHost?.log || window.rawLog || null`, &log)
			b, _ := json.Marshal(log)
			p.T.Fatalf("timed out waiting for %s; host log: %s%s", expr, b, p.logDump())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// HostLog returns the entries of type typ that the MCP Apps or ChatGPT host
// recorded (window.hostLog or chatgptHost.log), each {t, p}.
func (p *Page) HostLog(typ string) []map[string]any {
	p.T.Helper()
	var out []map[string]any
	p.Eval(fmt.Sprintf(`(window.hostLog || chatgptHost.log).filter(e => e.t == %q)`, typ), &out)
	return out
}

// Logged returns what the page reported on its own so far: uncaught
// exceptions, console errors and warnings, and browser log entries such as
// CSP violations and failed loads, one line each.
func (p *Page) Logged() []string { return p.events.all() }

// NoErrors fails the test if the page threw, logged an error, or the browser
// reported a CSP violation (a security error) or a failed load. Warnings,
// such as Chromium's note on sandbox="allow-scripts allow-same-origin" that
// every MCP Apps host uses, do not count.
func (p *Page) NoErrors() {
	p.T.Helper()
	var bad []string
	for _, l := range p.Logged() {
		if strings.HasPrefix(l, "exception:") || strings.HasPrefix(l, "console.error:") ||
			strings.HasPrefix(l, "log security error") || strings.HasPrefix(l, "log network error") {
			bad = append(bad, l)
		}
	}
	if len(bad) > 0 {
		p.T.Errorf("page reported errors:\n  %s", strings.Join(bad, "\n  "))
	}
}

func (p *Page) logDump() string {
	l := p.Logged()
	if len(l) == 0 {
		return ""
	}
	return "\npage log:\n  " + strings.Join(l, "\n  ")
}

// JS marshals v as a JavaScript literal.
func JS(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		// An expression that fails loudly where it is evaluated.
		return fmt.Sprintf("(() => { throw new Error(%q) })()", fmt.Sprintf("browsertest.JS(%T): %v", v, err))
	}
	return string(b)
}

// Contrast returns the WCAG contrast ratio between the text colour of the
// first element matching selector inside the window win (a JS expression)
// and the background it is drawn on: the nearest opaque background up the
// tree, else the document's Canvas colour under its color-scheme.
func (p *Page) Contrast(win, selector string) float64 {
	p.T.Helper()
	var r float64
	p.Eval(`((w, sel) => {
		const el = w.document.querySelector(sel);
		if (!el) return 0;
		const parse = (c) => (c.match(/[\d.]+/g) || []).map(Number);
		const lum = ([r, g, b]) => [r, g, b].map((v) => (v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4).reduce((s, v, i) => s + v * [0.2126, 0.7152, 0.0722][i], 0);
		let bg;
		for (let e = el; e && !bg; e = e.parentElement) {
			const c = parse(w.getComputedStyle(e).backgroundColor);
			if (c.length == 3 || c[3] > 0) bg = c;
		}
		if (!bg) {
			const probe = w.document.createElement("div");
			probe.style.background = "Canvas";
			w.document.body.append(probe);
			bg = parse(w.getComputedStyle(probe).backgroundColor);
			probe.remove();
		}
		const [a, b] = [lum(parse(w.getComputedStyle(el).color)), lum(bg)].sort((x, y) => y - x);
		return (a + 0.05) / (b + 0.05);
	})(`+win+`, `+JS(selector)+`)`, &r)
	return r
}
