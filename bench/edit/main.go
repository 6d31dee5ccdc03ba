// Command edit measures the edit loop a widget author sees: from the write of
// a source file to the new text on screen in the widget's frame. It runs
// `widgetd dev` (in process, on free loopback ports) over projects made by
// `widgetd init` (the vanilla and React templates) with the preview page open
// in headless Chromium, and the same React widget under Vite's dev server
// with @vitejs/plugin-react (its HMR, React Refresh) as the peer. It prints
// median and p95 per case and the ratio to Vite.
//
// The time is taken inside the page: a script Chromium runs in every frame
// before the frame's own scripts (Page.addScriptToEvaluateOnNewDocument, so
// it passes no CSP) watches the document with a MutationObserver and stamps
// Date.now() when the text "Edit N" first shows; Go stamps the write with
// the same clock. A stamp taken after a reload is still the new document's.
//
//	go run ./bench/edit [-edits 20] [-cases vanilla,react,vite]
//
// Needs `npm ci` in bench/edit (React, react-refresh, @babel/core, Vite).
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/widgetd/widgetd/bench/internal/benchenv"
	"github.com/widgetd/widgetd/internal/chromium"
)

// chromiumPath is Debian's Chromium, as the browser tests use.
const chromiumPath = "/usr/bin/chromium"

// observer runs in every frame of the page before its scripts: it stamps the
// first time each "Edit N" text shows, and sends the stamps of a frame to
// the top page, where Go reads them.
const observer = `(function(){
var seen = {};
function note(n, t){ if (window.top === window) { (window.__benchSeen = window.__benchSeen || {})[n] = window.__benchSeen[n] || t; } else { try { window.top.postMessage({benchSeen: n, t: t}, "*"); } catch (e) {} } }
if (window.top === window) addEventListener("message", function(e){ var d = e.data; if (d && d.benchSeen) note(d.benchSeen, d.t); });
function scan(){ var b = document.body; if (!b) return; var m = /Edit (\d+) /.exec(b.textContent || ""); if (m && !seen[m[1]]) { seen[m[1]] = 1; note(m[1], Date.now()); } }
new MutationObserver(scan).observe(document, {subtree: true, childList: true, characterData: true});
})();`

func main() {
	edits := flag.Int("edits", 20, "edits measured per case")
	warmup := flag.Int("warmup", 3, "edits before measuring")
	cases := flag.String("cases", "vanilla,react,vite", "cases to run: vanilla, react (widgetd dev), vite (Vite dev server HMR)")
	pause := flag.Duration("pause", 400*time.Millisecond, "wait between edits")
	flag.Parse()
	dir, err := filepath.Abs(filepath.Join("bench", "edit"))
	if err != nil {
		fail(err)
	}
	nm := filepath.Join(dir, "node_modules")
	for _, p := range []string{"react", "react-dom", "react-refresh", "@babel/core", "vite", "@vitejs/plugin-react"} {
		if _, err := os.Stat(filepath.Join(nm, p, "package.json")); err != nil {
			fail(fmt.Errorf("%s is not installed: run `npm ci` in bench/edit", p))
		}
	}
	ctx := context.Background()
	chrome, err := chromium.Start(ctx, chromiumPath, "widgetd-bench-edit-")
	if err != nil {
		fail(err)
	}
	defer chrome.Close()
	fmt.Printf("edit: file write → new text in the widget frame; %d edits per case after %d warm-up, GOMAXPROCS=%d, load average %s\n", *edits, *warmup, runtime.GOMAXPROCS(0), benchenv.LoadAvg())
	medians := map[string]time.Duration{}
	for _, c := range strings.Split(*cases, ",") {
		var samples []time.Duration
		var err error
		switch c = strings.TrimSpace(c); c {
		case "vanilla", "react":
			samples, err = runWidgetd(chrome.Tab(), c, nm, *edits, *warmup, *pause)
		case "vite":
			samples, err = runVite(chrome.Tab(), nm, *edits, *warmup, *pause)
		default:
			err = fmt.Errorf("unknown case %q (vanilla, react, vite)", c)
		}
		if err != nil {
			fail(fmt.Errorf("%s: %w", c, err))
		}
		medians[c] = report(c, samples)
	}
	if v, ok := medians["vite"]; ok && v > 0 {
		for _, c := range []string{"vanilla", "react"} {
			if m, ok := medians[c]; ok {
				fmt.Printf("edit: median, widgetd dev %s ÷ Vite 8 HMR (React): %.2f×\n", c, float64(m)/float64(v))
			}
		}
	}
	fmt.Printf("edit: load average at the end %s\n", benchenv.LoadAvg())
}

// measure runs warmup+edits edits: each calls write(n) and waits until the
// page saw "Edit n" in a frame; it returns the measured write-to-text times.
func measure(ctx context.Context, edits, warmup int, pause time.Duration, write func(n int) error) ([]time.Duration, error) {
	var out []time.Duration
	for n := 1; n <= edits+warmup; n++ {
		time.Sleep(pause)
		start := time.Now()
		if err := write(n); err != nil {
			return nil, err
		}
		seen, err := waitSeen(ctx, n, 10*time.Second)
		if err != nil {
			return nil, err
		}
		if n > warmup {
			out = append(out, time.UnixMilli(seen).Sub(start.Truncate(time.Millisecond)))
		}
		if *trace {
			printTrace(ctx, start.UnixMilli(), seen)
		}
	}
	return out, nil
}

// trace prints, per edit, when the preview page logged each step (ms after
// the write), to see where the time goes.
var trace = flag.Bool("trace", false, "print the preview page's log steps after each write (widgetd cases)")

func printTrace(ctx context.Context, start, seen int64) {
	steps, _ := chromedp.Run(ctx, chromedp.Evaluate[string](fmt.Sprintf(`(window.widgetdDev ? widgetdDev.log.filter(e => e.t >= %d).map(e => (e.t - %d) + " " + e.kind).join(", ") : "")`, start, start)))
	rebuild, _ := chromedp.Run(ctx, chromedp.Evaluate[float64](`(window.widgetdDev && widgetdDev.build && widgetdDev.build.durationMs) || 0`))
	fmt.Printf("    trace: %s; text %d (rebuild %.0f ms)\n", steps, seen-start, rebuild)
}

// waitSeen polls the top page for the stamp of edit n.
func waitSeen(ctx context.Context, n int, timeout time.Duration) (int64, error) {
	deadline := time.Now().Add(timeout)
	for time.Now().Before(deadline) {
		t, err := chromedp.Run(ctx, chromedp.Evaluate[int64](fmt.Sprintf(`(window.__benchSeen && window.__benchSeen[%d]) || 0`, n)))
		if err != nil {
			return 0, err
		}
		if t > 0 {
			return t, nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	return 0, fmt.Errorf("edit %d did not show within %s", n, timeout)
}

// openObserved installs the observer in every frame of the page, then
// loads url.
func openObserved(ctx context.Context, url string) error {
	return chromedp.Do(ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{Source: observer})
		return err
	}), chromedp.Navigate(url))
}

// report prints median, p95, min and max and returns the median.
func report(name string, d []time.Duration) time.Duration {
	s := append([]time.Duration(nil), d...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	if len(s) == 0 {
		return 0
	}
	p95 := s[min(len(s)-1, (len(s)*95+99)/100-1)]
	med := s[len(s)/2]
	fmt.Printf("  %-8s median %4d ms  p95 %4d ms  min %4d ms  max %4d ms  (n=%d)\n", name, med.Milliseconds(), p95.Milliseconds(), s[0].Milliseconds(), s[len(s)-1].Milliseconds(), len(s))
	return med
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "edit:", err)
	os.Exit(1)
}
