package widgettest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/widgetd/widgetd/devserver"
	"github.com/widgetd/widgetd/fixture"
)

// pageState is what a case reads from the preview page (window.widgetdDev).
type pageState struct {
	Initialized bool `json:"initialized"`
	Loaded      bool `json:"loaded"`
	Log         []struct {
		Dir  string          `json:"dir"`
		Kind string          `json:"kind"`
		Data json.RawMessage `json:"data"`
	} `json:"log"`
	Calls []struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"calls"`
	FrameHeight float64 `json:"frameHeight"`
	// FrameInnerWidth and FrameInnerHeight are the frame's content box (its
	// clientWidth and clientHeight less padding): what the widget's
	// viewport fills.
	FrameInnerWidth  float64 `json:"frameInnerWidth"`
	FrameInnerHeight float64 `json:"frameInnerHeight"`
}

// probe is the widget document's answer (devserver's reporter script).
type probe struct {
	Text   string  `json:"text"`
	Found  []bool  `json:"found"`
	Ready  bool    `json:"ready"`
	Height float64 `json:"height"`
	// ViewportWidth and ViewportHeight are the document's innerWidth and
	// innerHeight: the frame's size as the widget's own process last saw
	// it, which lags the page's after a resize.
	ViewportWidth  float64 `json:"viewportWidth"`
	ViewportHeight float64 `json:"viewportHeight"`
	// Look is the document's root style, class and theme and the body's
	// colours and font: a host's style variables, applied after the first
	// render on a host that answers ui/* late, change it and not the text.
	Look string `json:"look"`
}

const stateExpr = `(() => { const d = window.widgetdDev; if (!d) return null; const f = document.getElementById("widget-frame");
  return { initialized: d.initialized, loaded: d.loaded, log: d.log, calls: d.calls, frameHeight: f ? f.getBoundingClientRect().height : 0,
  ...(() => { if (!f) return { frameInnerWidth: 0, frameInnerHeight: 0 }; const c = getComputedStyle(f);
    return { frameInnerWidth: f.clientWidth - parseFloat(c.paddingLeft) - parseFloat(c.paddingRight),
      frameInnerHeight: f.clientHeight - parseFloat(c.paddingTop) - parseFloat(c.paddingBottom) }; })() }; })()`

// tracedStateExpr is stateExpr once the reports the page is still tracing
// to their source lines are logged (or after 5 s, keeping what is logged).
const tracedStateExpr = `(async () => { for (let i = 0; i < 100 && window.widgetdDev && window.widgetdDev.pendingReports > 0; i++)
  await new Promise((r) => setTimeout(r, 50)); return ` + stateExpr + `; })()`

// pageErrors collects uncaught exceptions of every frame of the tab.
type pageErrors struct {
	mu    sync.Mutex
	lines []string
}

func (e *pageErrors) record(ev any) {
	x, ok := ev.(*runtime.EventExceptionThrown)
	if !ok {
		return
	}
	d := x.ExceptionDetails
	line := d.Text
	if d.Exception != nil && d.Exception.Description != "" {
		line += " " + d.Exception.Description
	}
	if d.URL != "" {
		line += fmt.Sprintf(" (%s:%d:%d)", d.URL, d.LineNumber+1, d.ColumnNumber+1)
	}
	e.mu.Lock()
	e.lines = append(e.lines, "uncaught error: "+line)
	e.mu.Unlock()
}

func (e *pageErrors) all() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.lines...)
}

// runCase renders one case in its own browser context and checks it.
func runCase(parent context.Context, b *browser, previewURL string, p plan, opts Options) (c Case) {
	start := time.Now()
	c = Case{Widget: p.widget.Name, Fixture: p.fixtureName(), Host: p.host}
	fail := func(format string, args ...any) { c.Failures = append(c.Failures, fmt.Sprintf(format, args...)) }
	defer func() {
		c.Passed = len(c.Failures) == 0
		c.DurationMs = float64(time.Since(start).Microseconds()) / 1000
	}()

	tab, cancelTab := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext())
	defer cancelTab()
	errs := &pageErrors{}
	if err := chromedp.Listen(tab, errs.record); err != nil {
		fail("open a tab: %v", err)
		return c
	}
	ctx, cancel := context.WithTimeout(tab, opts.CaseTimeout)
	defer cancel()
	stop := context.AfterFunc(parent, cancel)
	defer stop()

	var hc *fixture.HostContext
	if p.fixture != nil {
		hc = p.fixture.Fixture.HostContext
	}
	err := chromedp.Do(ctx, emulationFor(hc).actions(), chromedp.Navigate(p.url(previewURL)))
	if err != nil {
		fail("open the preview: %v", err)
		return c
	}
	if err := waitHandshake(ctx, p.host); err != nil {
		fail("%v", err)
		c.Failures = append(c.Failures, errs.all()...)
		return c
	}
	var expect fixture.Expect
	if p.fixture != nil && p.fixture.Fixture.Expect != nil {
		expect = *p.fixture.Fixture.Expect
	}
	s, err := settle(ctx, expect, devserver.HostAnswersUI(p.host))
	if err != nil {
		fail("%v", err)
	}
	c.Failures = append(c.Failures, checkLog(s.state)...)
	c.Failures = append(c.Failures, errs.all()...)
	c.Failures = append(c.Failures, checkExpect(expect, s.probe, s.state)...)
	if err == nil && emptyBody(s.probe, len(expect.Elements)) {
		fail("%s", emptyBodyMessage(p))
	}
	// A broken render is not compared, and never becomes a baseline.
	if !opts.NoScreenshots && len(c.Failures) == 0 {
		c.Failures = append(c.Failures, screenshot(ctx, p, opts, s.stable, &c)...)
	}
	return c
}

// eval evaluates expr in the preview page (awaiting a promise) and decodes
// its JSON value into out.
func eval(ctx context.Context, expr string, out any) error {
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`(async () => JSON.stringify(await (`+expr+`)) ?? "null")()`, chromedp.EvalAwaitPromise))
	if err != nil {
		return err
	}
	return json.Unmarshal([]byte(s), out)
}

// waitHandshake waits for the host to be connected to the widget: the
// widget document loaded on a host with window.openai (both ChatGPT hosts:
// a window.openai-only widget never sends ui/initialize, and ChatGPT renders
// it anyway), else the ui/initialize handshake with the AppBridge.
func waitHandshake(ctx context.Context, host string) error {
	openai := devserver.HostHasOpenAI(host)
	for {
		var st *pageState
		if err := eval(ctx, stateExpr, &st); err == nil && st != nil {
			if (openai && st.Loaded) || (!openai && st.Initialized) {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			if openai {
				return fmt.Errorf("missing handshake: the widget document never loaded in the %s host", host)
			}
			return fmt.Errorf("missing handshake: the widget never completed ui/initialize with the %s host (AppBridge)", host)
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// settleQuiet is how long settle waits for a page whose probe stopped
// changing to meet its expectations before it reports what it saw. It is
// measured from the last change, not from the start, so a page that is
// still loading on a busy machine keeps being waited for (up to the case
// timeout), while a wrong expectation on a finished page fails quickly.
const settleQuiet = 5 * time.Second

// settleStable is how long the frame height and the document's look must
// not change before the widget counts as laid out.
const settleStable = 300 * time.Millisecond

// settled is what settle saw last: the probe, the preview state, and
// whether the widget settled (ready, expectations met, height stable)
// rather than going quiet without doing so.
type settled struct {
	probe  *probe
	state  *pageState
	stable bool
}

// settle polls until the widget document is ready, its expectations hold,
// its frame height has been stable for settleStable and, when session is
// set (a host that answers ui/* besides window.openai, as today's ChatGPT),
// the ui/* session is up: its host context and style variables arrive with
// it, so a screenshot taken before would differ from one taken after. It
// gives up when nothing has changed for settleQuiet (the last probe is then
// checked and reported).
func settle(ctx context.Context, expect fixture.Expect, session bool) (settled, error) {
	// The content probe goes last, so Found[i] still answers Elements[i].
	selectors := append(append([]string{}, expect.Elements...), contentSelector)
	sel, _ := json.Marshal(selectors)
	var s settled
	lastSeen, lastChange, stableSince := "", time.Now(), time.Now()
	lastHeight, lastLook := -1.0, ""
	for {
		var pr probe
		err := eval(ctx, "window.widgetdDev.probe("+string(sel)+")", &pr)
		if err != nil && ctx.Err() != nil {
			return s, fmt.Errorf("the widget did not settle: %v", ctx.Err())
		}
		if err == nil {
			s.probe = &pr
		}
		if err := eval(ctx, stateExpr, &s.state); err != nil {
			return s, fmt.Errorf("read the preview state: %v", err)
		}
		if s.state.FrameHeight != lastHeight {
			lastHeight, stableSince = s.state.FrameHeight, time.Now()
		}
		if s.probe != nil && s.probe.Look != lastLook {
			lastLook, stableSince = s.probe.Look, time.Now()
		}
		if seen := fmt.Sprintf("%+v %v %v", s.probe, lastHeight, s.state.Initialized); seen != lastSeen {
			lastSeen, lastChange = seen, time.Now()
		}
		s.stable = s.probe != nil && s.probe.Ready && len(checkExpect(expect, s.probe, s.state)) == 0 && time.Since(stableSince) > settleStable &&
			viewportFits(s.probe, s.state) && (!session || s.state.Initialized)
		if s.stable || time.Since(lastChange) > settleQuiet {
			if s.probe == nil {
				return s, errors.New("the widget document never answered a probe (did it replace the whole document?)")
			}
			// CSP reports and late errors arrive asynchronously, then the
			// server traces each to its source line.
			time.Sleep(100 * time.Millisecond)
			return s, eval(ctx, tracedStateExpr, &s.state)
		}
		select {
		case <-ctx.Done():
			if time.Since(stableSince) < settleQuiet {
				return s, fmt.Errorf("the widget did not settle before the case timeout: its frame height was still changing (last %.0f px); stop animating the document's height", lastHeight)
			}
			return s, fmt.Errorf("the widget did not settle: %v", ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// viewportFits reports whether the widget document's viewport is the
// frame's inner size (to a pixel of rounding). The widget document runs in
// another process: after the page resizes the frame, that process learns
// the new size a little later, and until then its layout is the old size's.
func viewportFits(pr *probe, st *pageState) bool {
	return pr != nil && st != nil &&
		math.Abs(pr.ViewportWidth-st.FrameInnerWidth) <= 1 && math.Abs(pr.ViewportHeight-st.FrameInnerHeight) <= 1
}

// checkLog turns the preview's error log entries (uncaught errors reported
// from the widget frame, CSP violations, broken fixtures) into failures.
func checkLog(st *pageState) []string {
	if st == nil {
		return nil
	}
	var out []string
	for _, e := range st.Log {
		if e.Dir != "err" {
			continue
		}
		switch e.Kind {
		case "CSP violation":
			var v struct {
				Directive, BlockedURI, SourceFile string
				Line, Column                      int
				Source                            *devserver.SourcePos
			}
			_ = json.Unmarshal(e.Data, &v)
			loc := placeOf(v.Source, v.SourceFile, v.Line, v.Column, " at %s:%d:%d")
			out = append(out, fmt.Sprintf("CSP violation: %s blocked %q%s", v.Directive, v.BlockedURI, loc))
		case "uncaught":
			var v struct {
				Message, File string
				Line, Column  int
				Source        *devserver.SourcePos
			}
			_ = json.Unmarshal(e.Data, &v)
			loc := placeOf(v.Source, v.File, v.Line, v.Column, " (%s:%d:%d)")
			out = append(out, "uncaught error in the widget: "+v.Message+loc)
		default:
			out = append(out, fmt.Sprintf("%s: %s", e.Kind, e.Data))
		}
	}
	return out
}

// sourceAt is "file:line:col" and, when known, the source line below it.
// placeOf is the suffix that says where a logged error came from: the
// original source when the preview mapped it, else the bundled file the
// browser reported, written with bundledFormat (file, line, column); empty
// when neither is known.
func placeOf(src *devserver.SourcePos, file string, line, col int, bundledFormat string) string {
	if src != nil {
		return " at " + sourceAt(src)
	}
	if file != "" {
		return fmt.Sprintf(bundledFormat, file, line, col)
	}
	return ""
}

func sourceAt(p *devserver.SourcePos) string {
	if p.Text == "" {
		return p.String()
	}
	return p.String() + "\n      " + strings.TrimSpace(p.Text)
}

// checkExpect lists the fixture's expectations the widget does not meet.
func checkExpect(e fixture.Expect, pr *probe, st *pageState) []string {
	var out []string
	if pr == nil {
		pr = &probe{}
	}
	for _, t := range e.Text {
		if !strings.Contains(pr.Text, t) {
			out = append(out, fmt.Sprintf("expected text %q; the widget shows %q", t, abbreviate(pr.Text, 200)))
		}
	}
	for i, s := range e.Elements {
		if i >= len(pr.Found) || !pr.Found[i] {
			out = append(out, fmt.Sprintf("expected an element matching %q; none found", s))
		}
	}
	for _, want := range e.Calls {
		if !called(st, want) {
			var made []string
			if st != nil {
				for _, c := range st.Calls {
					made = append(made, c.Name+string(c.Arguments))
				}
			}
			wantArgs, _ := json.Marshal(want.Arguments)
			out = append(out, fmt.Sprintf("expected a call of tool %q with arguments including %s; calls made: %v", want.Tool, wantArgs, made))
		}
	}
	return out
}

func called(st *pageState, want fixture.ExpectedCall) bool {
	if st == nil {
		return false
	}
	for _, c := range st.Calls {
		if c.Name != want.Tool {
			continue
		}
		var args map[string]any
		_ = json.Unmarshal(c.Arguments, &args)
		if subset(want.Arguments, args) {
			return true
		}
	}
	return false
}

// subset reports whether every key of want is in got with an equal value.
func subset(want, got map[string]any) bool {
	for k, v := range want {
		g, ok := got[k]
		if !ok || !reflect.DeepEqual(normalize(v), normalize(g)) {
			return false
		}
	}
	return true
}

func normalize(v any) any {
	data, _ := json.Marshal(v)
	var out any
	_ = json.Unmarshal(data, &out)
	return out
}

func abbreviate(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// screenshot freezes the widget's animations, transitions and caret,
// captures the widget frame and compares it with the baseline
// (or writes the baseline with --update or when there is none yet). A
// widget that never settled (its height still changing) is compared, but
// never written as a baseline: the next run would compare against a frame
// caught mid-layout.
func screenshot(ctx context.Context, p plan, opts Options, stable bool, c *Case) []string {
	var frozen probe
	if err := eval(ctx, "window.widgetdDev.probe([], true)", &frozen); err != nil {
		return []string{fmt.Sprintf("freeze animations before the screenshot: %v", err)}
	}
	png, err := stableScreenshot(ctx)
	if err != nil {
		return []string{fmt.Sprintf("screenshot: %v", err)}
	}
	c.Baseline = relPath(p.baseline())
	actual := strings.TrimSuffix(p.baseline(), ".png") + ".actual.png"
	old, err := os.ReadFile(p.baseline())
	if opts.Update || errors.Is(err, os.ErrNotExist) {
		if !stable {
			return []string{fmt.Sprintf("not writing baseline %s: the widget did not settle within %s of its last change (its frame height kept changing, or the host's ui/* session never came up); make the layout settle (or stop animating its height) and run again", relPath(p.baseline()), settleQuiet)}
		}
		if err := writeFile(p.baseline(), png); err != nil {
			return []string{err.Error()}
		}
		_ = os.Remove(actual)
		c.BaselineWritten = true
		return nil
	}
	if err != nil {
		return []string{fmt.Sprintf("read baseline: %v", err)}
	}
	ratio, err := comparePNG(old, png, opts.Tolerance)
	c.DiffRatio = ratio
	if err == nil && ratio <= opts.Threshold {
		_ = os.Remove(actual)
		return nil
	}
	if werr := writeFile(actual, png); werr != nil {
		return []string{werr.Error()}
	}
	if err != nil {
		return []string{fmt.Sprintf("screenshot differs from %s: %v; this run's is %s (accept it with widgetd test --update)", c.Baseline, err, relPath(actual))}
	}
	return []string{fmt.Sprintf("screenshot differs from %s in %.2f%% of pixels (threshold %.2f%%); this run's is %s (accept it with widgetd test --update)",
		c.Baseline, ratio*100, opts.Threshold*100, relPath(actual))}
}

func writeFile(name string, data []byte) error {
	if err := ensureDir(name); err != nil {
		return fmt.Errorf("write %s: %w", relPath(name), err)
	}
	if err := os.WriteFile(name, data, 0o644); err != nil {
		return fmt.Errorf("write %s: %w", relPath(name), err)
	}
	return nil
}
