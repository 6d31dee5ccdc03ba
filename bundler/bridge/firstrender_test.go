package bridge_test

import (
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/widgetd/widgetd/internal/browsertest"
)

// firstRenderBound is how long after its document loaded a widget may take
// to show the tool result the host had from the start (issue 21: the goal is
// 300 ms; the matrix fails past 500).
const firstRenderBound = 500

// firstRenderAttempts is how many fresh pages one case may use to come in
// under firstRenderBound: a page that a busy machine held up for longer than
// the in-page stall measure saw passes on another attempt, while a wait
// built into the bridge fails every attempt.
const firstRenderAttempts = 3

// firstRender is what one page measured (testdata/matrix/firstrender.ts),
// in ms of the widget document's own clock (performance.now()): when it
// finished loading (DOMContentLoaded), when the result first showed, and for
// how much of the time between the page's thread could not run (its 5 ms
// timer fired late: a busy CPU, or work on the thread such as React's first
// render). The frames are visible, so Chromium does not throttle their
// timers; a timer the bridge waits on fires on time and is not excused.
type firstRender struct{ Loaded, Rendered, Stalled float64 }

// sinceLoad is the time from the document having loaded to the result
// showing; a widget that rendered while its scripts ran has 0.
func (f firstRender) sinceLoad() float64 { return max(0, f.Rendered-f.Loaded) }

// waited is sinceLoad without the time the page's thread was stalled: what
// the bridge and the host made the widget wait (timers, round trips), which
// a loaded CPU does not inflate, and which firstRenderBound limits.
func (f firstRender) waited() float64 { return max(0, f.sinceLoad()-f.Stalled) }

// String shows the measurement: waited (since load, stalled; since the
// navigation started).
func (f firstRender) String() string {
	return fmt.Sprintf("%4.0f (%.0f-%.0f; nav+%.0f)", f.waited(), f.sinceLoad(), f.Stalled, f.Rendered)
}

// TestFirstRender opens every matrix widget that shows the tool result under
// every matrix host, with the result available from the start (the host
// sends it once the widget is initialized, or window.openai carries it at
// load), and records how long after its document loaded the widget showed
// it. It logs each case and a table per host, and fails a case that stays
// over firstRenderBound on every attempt.
func TestFirstRender(t *testing.T) {
	t.Parallel()
	srv := matrixServer(t)
	var mu sync.Mutex
	results := map[string][]string{} // host → "widget mode: ms" lines
	t.Run("cases", func(t *testing.T) {
		for _, mode := range []string{"inline", "external"} {
			for _, w := range matrixWidgets {
				if w.name == "static" {
					continue // shows no tool result
				}
				for _, h := range matrixHosts {
					t.Run(mode+"/"+w.name+"/"+h.name, func(t *testing.T) {
						t.Parallel()
						line := measureFirstRender(t, srv, mode, w, h)
						mu.Lock()
						results[h.name] = append(results[h.name], fmt.Sprintf("%-9s %-8s %s", w.name, mode, line))
						mu.Unlock()
					})
				}
			}
		}
	})
	var b strings.Builder
	b.WriteString("first render: ms the widget waited for the tool result after its document loaded\n(since load - stalled by a busy thread; nav+ms since the navigation started):\n")
	for _, h := range matrixHosts {
		lines := results[h.name]
		slices.Sort(lines)
		fmt.Fprintf(&b, "  %s\n", h.name)
		for _, l := range lines {
			fmt.Fprintf(&b, "    %s\n", l)
		}
	}
	t.Log(b.String())
}

// measureFirstRender runs one case up to firstRenderAttempts times, until
// one attempt shows the result within firstRenderBound of loading, and
// returns what the attempts measured.
func measureFirstRender(t *testing.T, srv *httptest.Server, mode string, w matrixWidget, h matrixHost) string {
	var tries []string
	for range firstRenderAttempts {
		f := firstRenderOnce(t, srv, mode, w, h)
		tries = append(tries, f.String())
		if f.waited() <= firstRenderBound {
			t.Logf("first render %s after load", strings.Join(tries, ", then "))
			return strings.Join(tries, ", ")
		}
	}
	t.Errorf("the widget waited more than %d ms after its document loaded for the tool result, on each of %d pages: %s", firstRenderBound, firstRenderAttempts, strings.Join(tries, ", "))
	return strings.Join(tries, ", ")
}

// firstRenderOnce opens one page of the case, with the tool input and result
// known to the host from the start, and reads the widget's own measurement.
func firstRenderOnce(t *testing.T, srv *httptest.Server, mode string, w matrixWidget, h matrixHost) firstRender {
	url := "/" + mode + "/w/" + w.name
	globals := map[string]any{"toolInput": map[string]any{"city": "Oslo"}, "toolOutput": matrixResult["structuredContent"], "toolResponseMetadata": matrixResult["_meta"]}
	var arg any = globals // the window.openai-only host's initial globals
	if h.openai {
		url += "?" + browsertest.ChatGPTQuery
	}
	if h.page == "/mcp-host" {
		data := map[string]any{"input": globals["toolInput"], "result": matrixResult}
		if h.openai {
			data["openai"] = globals
		}
		if h.proxy {
			data["proxy"] = "/" + mode + "/proxy/" + w.name
		}
		arg = data
	}
	p := open(t, srv, h.page, url, arg)
	ww := h.widget()
	if !try(p, ww+`.firstRender.rendered >= 0 && `+ww+`.firstRender.loaded >= 0`) {
		t.Fatalf("the widget never showed the tool result (or never loaded): %s", p.Str(`JSON.stringify(`+ww+`?.firstRender)`))
	}
	var f firstRender
	p.Eval(`(r => ({Loaded: r.loaded, Rendered: r.rendered, Stalled: r.stalled}))(`+ww+`.firstRender)`, &f)
	p.NoErrors()
	return f
}
