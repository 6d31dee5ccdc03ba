// Package widgettest renders a project's widgets in headless Chromium and
// checks them, in the spirit of httptest and fstest: a Go MCP server's own
// `go test` calls Run, and `widgetd test` is a thin command over RunReport.
//
// It builds the project with the dev server (in memory, on loopback ports),
// opens the dev preview of every widget × fixture × host — the real
// AppBridge MCP Apps host and the ChatGPT window.openai host by default —
// and fails a case on an uncaught error in any frame, a CSP violation, a
// missing handshake, an unmet expectation of the fixture (package fixture
// owns the format), or a screenshot that differs from its committed
// baseline (widgets/<name>/fixtures/screenshots/<fixture>.<host>.png).
// Screenshots repeat on any machine: the browser draws with embedded fonts
// only, without hinting or LCD text, at scale factor 1.
//
// A test in a Go MCP server's repository:
//
//	func TestWidgets(t *testing.T) {
//		widgettest.Run(t, widgettest.Options{Root: "."})
//	}
//
// It needs Chromium (CHROME_PATH, or chromium, google-chrome… on PATH).
package widgettest

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/widgetd/widgetd/devserver"
	"github.com/widgetd/widgetd/fixture"
)

// DefaultHosts returns the preview hosts a case runs under when
// Options.Hosts is empty: the generic MCP Apps host and today's ChatGPT
// (both answer ui/*; ChatGPT also has window.openai). `--host` adds
// chatgpt-legacy and claude (devserver.PreviewHosts). It is a function, not
// a variable, so no caller can change another's default.
func DefaultHosts() []string {
	return []string{devserver.HostMCPApps, devserver.HostChatGPT}
}

// Defaults of Options.
const (
	DefaultThreshold = 0.001
	DefaultTolerance = 16
	// DefaultCaseTimeout only bounds a case that hangs: a passing case
	// ends as soon as it settles, a failing one once its page has been
	// quiet for settleQuiet. It is generous because a CI runner busy with
	// other jobs can take tens of seconds to start a widget.
	DefaultCaseTimeout = 45 * time.Second
	// ViewportWidth and ViewportHeight are the fixed browser viewport of
	// every case (device scale factor 1).
	ViewportWidth  = 1280
	ViewportHeight = 1000
	// BaselineDir is the folder, inside a widget's fixtures folder, that
	// holds the screenshot baselines: <fixture>.<host>.png.
	BaselineDir = "screenshots"
)

// Options configures Run.
type Options struct {
	// Root is the project root; WidgetsDir its widgets folder (defaults as
	// in `widgetd build`).
	Root, WidgetsDir string
	// Chrome is the browser binary; default FindChrome("").
	Chrome string
	// Hosts are the hosts to run under (devserver.PreviewHosts; "mcp" is
	// mcp-apps); default DefaultHosts().
	Hosts []string
	// Widgets limits the widgets by name; default all.
	Widgets []string
	// Update writes every screenshot as the new baseline.
	Update bool
	// NoScreenshots skips the screenshot comparison.
	NoScreenshots bool
	// Threshold is the largest fraction of pixels that may differ from the
	// baseline; default DefaultThreshold.
	Threshold float64
	// Tolerance is the per-channel difference (0–255) below which a pixel
	// counts as equal; default DefaultTolerance.
	Tolerance int
	// CaseTimeout bounds one case; default DefaultCaseTimeout.
	CaseTimeout time.Duration
	// Parallel is how many cases run at once; default 2.
	Parallel int
	// Log receives one line per finished case; default io.Discard.
	Log io.Writer
}

// Case is the outcome of one widget × fixture × host.
type Case struct {
	Widget  string `json:"widget"`
	Fixture string `json:"fixture"`
	Host    string `json:"host"`
	// Passed is true when Failures is empty.
	Passed   bool     `json:"passed"`
	Failures []string `json:"failures,omitempty"`
	// Baseline is the screenshot baseline file; BaselineWritten says this
	// run wrote it (--update, or no baseline yet); DiffRatio is the fraction
	// of pixels that differed.
	Baseline        string  `json:"baseline,omitempty"`
	BaselineWritten bool    `json:"baselineWritten,omitempty"`
	DiffRatio       float64 `json:"diffRatio"`
	DurationMs      float64 `json:"durationMs"`
}

// Name is widget/fixture@host.
func (c Case) Name() string { return c.Widget + "/" + c.Fixture + "@" + c.Host }

// Report is the outcome of a run.
type Report struct {
	Cases      []Case  `json:"cases"`
	Passed     int     `json:"passed"`
	Failed     int     `json:"failed"`
	DurationMs float64 `json:"durationMs"`
	Chrome     string  `json:"chrome"`
	// Pinned says what the run fixed so that screenshots repeat on any
	// machine: the embedded fonts, anti-aliasing, hinting, scale factor.
	Pinned string `json:"pinned"`
	// Stale lists baselines no case produced (a fixture renamed or
	// removed); --update deletes them. Only a run over every widget and
	// host looks for them.
	Stale []string `json:"stale,omitempty"`
}

// BuildError is a failed build: nothing was rendered. Diagnostics are the
// file:line:col lines.
type BuildError struct{ Diagnostics []string }

func (e *BuildError) Error() string {
	return "build failed:\n" + strings.Join(e.Diagnostics, "\n")
}

// plan is one case to run.
type plan struct {
	widget  devserver.WidgetInfo
	fixture *fixture.Named // nil: the widget has no fixtures
	host    string
	dir     string // the widget's folder
}

// RunReport builds the project, renders every case and returns the report;
// an error means no case could run (no browser, build failed). It is what
// `widgetd test` runs; a Go test calls Run instead.
func RunReport(ctx context.Context, opts Options) (*Report, error) {
	start := time.Now()
	s, err := startSession(ctx, opts)
	if err != nil {
		return nil, err
	}
	defer s.close()
	opts = s.opts
	fmt.Fprintln(opts.Log, pinnedSummary())
	rep := &Report{Cases: make([]Case, len(s.plans)), Chrome: s.chrome, Pinned: pinnedSummary()}
	for _, c := range s.broken {
		printCase(opts.Log, c)
	}
	sem := make(chan struct{}, opts.Parallel)
	var wg sync.WaitGroup
	var logMu sync.Mutex
	for i, p := range s.plans {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			c := s.run(ctx, p)
			rep.Cases[i] = c
			logMu.Lock()
			printCase(opts.Log, c)
			logMu.Unlock()
		}()
	}
	wg.Wait()
	rep.Cases = append(s.broken, rep.Cases...)
	for _, c := range rep.Cases {
		if c.Passed {
			rep.Passed++
		} else {
			rep.Failed++
		}
	}
	rep.Stale = s.stale()
	for _, f := range rep.Stale {
		if opts.Update {
			fmt.Fprintf(opts.Log, "removed stale baseline %s\n", f)
		} else {
			fmt.Fprintf(opts.Log, "stale baseline %s: no fixture and host renders it; delete it or run widgetd test --update\n", f)
		}
	}
	rep.DurationMs = float64(time.Since(start).Microseconds()) / 1000
	return rep, ctx.Err()
}

func withDefaults(o Options) Options {
	if len(o.Hosts) == 0 {
		o.Hosts = DefaultHosts()
	}
	if o.Threshold <= 0 {
		o.Threshold = DefaultThreshold
	}
	if o.Tolerance <= 0 {
		o.Tolerance = DefaultTolerance
	}
	if o.CaseTimeout <= 0 {
		o.CaseTimeout = DefaultCaseTimeout
	}
	if o.Parallel <= 0 {
		o.Parallel = 2
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	return o
}

// startDev runs a dev server on free loopback ports and waits for its first
// build.
func startDev(ctx context.Context, opts Options, skip []string) (*devserver.Server, func(), error) {
	srv, err := devserver.New(devserver.Options{Root: opts.Root, WidgetsDir: opts.WidgetsDir, Skip: skip, Addr: "127.0.0.1:0", Log: io.Discard, PollInterval: time.Hour, AsShipped: true})
	if err != nil {
		return nil, nil, err
	}
	events, unsub := srv.Subscribe()
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { defer close(done); _ = srv.Run(ctx) }()
	stop := func() { cancel(); unsub(); <-done }
	select {
	case ev := <-events:
		if ev == nil || !ev.OK {
			stop()
			be := &BuildError{}
			if ev != nil {
				for _, d := range ev.Diagnostics {
					be.Diagnostics = append(be.Diagnostics, d.Text)
				}
			}
			return nil, nil, be
		}
	case <-ctx.Done():
		stop()
		return nil, nil, ctx.Err()
	}
	return srv, stop, nil
}

// planCases lists widget × fixture × host from the first build.
func planCases(srv *devserver.Server, opts Options) ([]plan, error) {
	st := srv.State()
	want := map[string]bool{}
	for _, w := range opts.Widgets {
		want[w] = true
	}
	var plans []plan
	seen := map[string]bool{}
	for _, w := range st.Widgets {
		if len(want) > 0 && !want[w.Name] {
			continue
		}
		seen[w.Name] = true
		if w.FixtureError != "" {
			return nil, errors.New(w.FixtureError)
		}
		dir := filepath.Dir(srv.ConfigFile(w.Name))
		fixtures := []*fixture.Named{nil}
		if len(w.Fixtures) > 0 {
			fixtures = fixtures[:0]
			for i := range w.Fixtures {
				fixtures = append(fixtures, &w.Fixtures[i])
			}
		}
		for _, f := range fixtures {
			for _, h := range opts.Hosts {
				plans = append(plans, plan{widget: w, fixture: f, host: h, dir: dir})
			}
		}
	}
	var missing []string
	for n := range want {
		if !seen[n] {
			missing = append(missing, n)
		}
	}
	if len(missing) > 0 {
		sort.Strings(missing)
		return nil, fmt.Errorf("no widget named %s in the build", strings.Join(missing, ", "))
	}
	if len(plans) == 0 {
		return nil, errors.New("no widgets to test")
	}
	return plans, nil
}

// fixtureName is how a case names its fixture ("none" without fixtures).
func (p plan) fixtureName() string {
	if p.fixture == nil {
		return "none"
	}
	return p.fixture.Name
}

func (p plan) url(previewURL string) string {
	q := url.Values{"host": {p.host}, "fixture": {""}}
	if p.fixture != nil {
		q.Set("fixture", p.fixture.Name)
	}
	return previewURL + "preview/" + url.PathEscape(p.widget.Name) + "?" + q.Encode()
}

func (p plan) baseline() string {
	return filepath.Join(p.dir, fixture.Dir, BaselineDir, p.fixtureName()+"."+baselineHostName(p.host)+".png")
}

// baselineHostName is the host part of a baseline's file name: the host's
// name, except mcp-apps, whose baselines keep the name they had when the
// host was called "mcp" (<fixture>.mcp.png), so committed baselines stay
// valid.
func baselineHostName(host string) string {
	if host == devserver.HostMCPApps {
		return "mcp"
	}
	return host
}

// canonicalHosts maps host names to their canonical names (devserver.
// CanonicalHost), without repeats; an unknown name is an error.
func canonicalHosts(hosts []string) ([]string, error) {
	var out []string
	for _, h := range hosts {
		c, ok := devserver.CanonicalHost(h)
		if !ok {
			return nil, fmt.Errorf("unknown host %q: hosts are %s", h, strings.Join(devserver.PreviewHosts(), ", "))
		}
		if !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out, nil
}

func printCase(w io.Writer, c Case) {
	status := "ok  "
	if !c.Passed {
		status = "FAIL"
	}
	note := ""
	if c.BaselineWritten {
		note = " (baseline written)"
	}
	fmt.Fprintf(w, "%s %s (%.0f ms)%s\n", status, c.Name(), c.DurationMs, note)
	for _, f := range c.Failures {
		fmt.Fprintf(w, "     %s\n", f)
	}
}

// ensureDir creates the folder of file.
func ensureDir(file string) error {
	return os.MkdirAll(filepath.Dir(file), 0o755)
}

// staleBaselines lists the baseline PNGs in the widgets' screenshot folders
// that no planned case uses, removing them when remove is set. A baseline
// of a known host this run did not render (<fixture>.claude.png in a run
// without claude) is not stale.
func staleBaselines(plans []plan, ran []string, remove bool) []string {
	skip := map[string]bool{}
	for _, h := range devserver.PreviewHosts() {
		if !slices.Contains(ran, h) {
			skip["."+baselineHostName(h)+".png"] = true
		}
	}
	used := map[string]bool{}
	dirs := map[string]bool{}
	for _, p := range plans {
		used[p.baseline()] = true
		dirs[filepath.Dir(p.baseline())] = true
	}
	var stale []string
	for dir := range dirs {
		files, _ := filepath.Glob(filepath.Join(dir, "*.png"))
		for _, f := range files {
			if used[f] || strings.HasSuffix(f, ".actual.png") || skip[hostSuffix(f)] {
				continue
			}
			if remove {
				_ = os.Remove(f)
			}
			stale = append(stale, relPath(f))
		}
	}
	sort.Strings(stale)
	return stale
}

// hostSuffix is ".<host>.png" of a baseline file name.
func hostSuffix(file string) string {
	base := strings.TrimSuffix(filepath.Base(file), ".png")
	i := strings.LastIndex(base, ".")
	if i < 0 {
		return ""
	}
	return base[i:] + ".png"
}

// containsAll reports whether every one of want is in have.
func containsAll(have, want []string) bool {
	for _, w := range want {
		if !slices.Contains(have, w) {
			return false
		}
	}
	return true
}
