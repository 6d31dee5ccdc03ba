// Package browsertest owns the shared browser harness of widgetd's tests: it
// launches Debian's Chromium (/usr/bin/chromium) through chromedp, opens
// isolated pages with small evaluation helpers, and serves the test hosts a
// widget runs in — the real MCP Apps host (AppBridge and PostMessageTransport
// from @modelcontextprotocol/ext-apps, bundled with esbuild's Go API), a
// stand-in for ChatGPT's window.openai runtime, and a hand-driven raw
// JSON-RPC host — together with the npm project those hosts need
// (testdata/hosts, installed by `npm ci`).
//
// It is imported by tests only (bundler/bridge, devserver, examples/mcpserver,
// e2e); it has no place in a widgetd binary. Nothing here skips: a missing
// Chromium or a missing node_modules fails the test with the command that
// fixes it.
package browsertest

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"

	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/widgetd/widgetd/internal/chromium"
)

// ChromiumPath is Debian's Chromium, installed by CI (apt-get install chromium).
const ChromiumPath = "/usr/bin/chromium"

// Browser is one running headless Chromium. Pages opened from it are isolated
// from each other (one browser context each), so many tests can share it.
type Browser struct {
	ctx    context.Context // the browser's first tab; parent of every page
	chrome *chromium.Browser
}

// Launch starts headless Chromium with the flags the widgetd browser tests
// rely on, in a fresh temporary profile that Close removes.
func Launch(ctx context.Context) (*Browser, error) { return LaunchWith(ctx) }

// LaunchWith is Launch with extra Chromium flags, e.g. host-resolver-rules
// for a test that reaches a public host name on loopback.
func LaunchWith(ctx context.Context, extra ...chromedp.ExecAllocatorOption) (*Browser, error) {
	if _, err := os.Stat(ChromiumPath); err != nil {
		return nil, fmt.Errorf("%s missing: install Debian's chromium (apt-get install -y chromium): %w", ChromiumPath, err)
	}
	chrome, err := chromium.Start(ctx, ChromiumPath, "widgetd-chromium-", extra...)
	if err != nil {
		return nil, err
	}
	return &Browser{ctx: chrome.Tab(), chrome: chrome}, nil
}

// Close stops Chromium and removes its profile.
func (b *Browser) Close() { b.chrome.Close() }

// Shared launches one Browser, and bundles the test hosts once, for a whole
// test binary, on first use. The zero value is ready; call Close from
// TestMain after m.Run:
//
//	var shared browsertest.Shared
//	func TestMain(m *testing.M) { os.Exit(shared.Run(m)) }
type Shared struct {
	bOnce sync.Once
	b     *Browser
	bErr  error
	hOnce sync.Once
	h     *Hosts
	hErr  error
}

// Browser returns the shared browser, launching it on first use; a launch
// failure fails t.
func (s *Shared) Browser(t testing.TB) *Browser {
	t.Helper()
	s.bOnce.Do(func() { s.b, s.bErr = Launch(context.Background()) })
	if s.bErr != nil {
		t.Fatal(s.bErr)
	}
	return s.b
}

// Hosts returns the shared test hosts, bundling them on first use; a missing
// node_modules or a failed bundle fails t.
func (s *Shared) Hosts(t testing.TB) *Hosts {
	t.Helper()
	s.hOnce.Do(func() { s.h, s.hErr = LoadHosts() })
	if s.hErr != nil {
		t.Fatal(s.hErr)
	}
	return s.h
}

// Page opens a new isolated page in the shared browser (see Browser.NewPage).
func (s *Shared) Page(t testing.TB) *Page {
	t.Helper()
	return s.Browser(t).NewPage(t)
}

// Close stops the shared browser if it was launched.
func (s *Shared) Close() {
	if s.b != nil {
		s.b.Close()
	}
}

// Run runs the tests and closes the shared browser; TestMain passes its
// result to os.Exit.
func (s *Shared) Run(m *testing.M) int {
	defer s.Close()
	return m.Run()
}

// NewPage opens a tab in a new browser context (its own cookies and storage,
// so tests sharing the browser do not see each other's localStorage). The tab
// closes when t's test ends.
func (b *Browser) NewPage(t testing.TB) *Page {
	t.Helper()
	ctx, cancel := chromedp.NewContext(b.ctx, chromedp.WithNewBrowserContext())
	p := &Page{T: t, Ctx: ctx, events: &events{}}
	if err := chromedp.Listen(ctx, p.events.record); err != nil {
		cancel()
		t.Fatalf("open page: %v", err)
	}
	t.Cleanup(cancel)
	return p
}

// events keeps what the page reported on its own: uncaught exceptions,
// console errors and browser log entries (CSP violations, failed loads).
type events struct {
	mu    sync.Mutex
	lines []string
}

func (e *events) record(ev any) {
	var line string
	switch ev := ev.(type) {
	case *runtime.EventExceptionThrown:
		d := ev.ExceptionDetails
		line = "exception: " + d.Text
		if d.Exception != nil && d.Exception.Description != "" {
			line += " " + d.Exception.Description
		}
		if d.URL != "" {
			line += fmt.Sprintf(" (%s:%d)", d.URL, d.LineNumber+1)
		}
	case *runtime.EventConsoleAPICalled:
		if ev.Type != runtime.ConsoleAPICalledTypeError && ev.Type != runtime.ConsoleAPICalledTypeWarning {
			return
		}
		var parts []string
		for _, a := range ev.Args {
			if a.Value != nil {
				parts = append(parts, string(a.Value))
			} else {
				parts = append(parts, a.Description)
			}
		}
		line = "console." + string(ev.Type) + ": " + strings.Join(parts, " ")
	case *log.EventEntryAdded:
		e := ev.Entry
		line = fmt.Sprintf("log %s %s: %s", e.Source, e.Level, e.Text)
		if e.URL != "" {
			line += " (" + e.URL + ")"
		}
	default:
		return
	}
	e.mu.Lock()
	e.lines = append(e.lines, line)
	e.mu.Unlock()
}

func (e *events) all() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]string(nil), e.lines...)
}
