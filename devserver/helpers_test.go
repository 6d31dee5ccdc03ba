package devserver

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/widgetd/widgetd/fixture"
	"github.com/widgetd/widgetd/internal/browsertest"
	"github.com/widgetd/widgetd/internal/copytree"
	"github.com/widgetd/widgetd/internal/syncbuf"
)

// exampleWidgets is the repository's example widgets folder.
const exampleWidgets = "../widgets"

// samples are the preview.json files written into the test copies, so the
// widgets render known tool output.
var samples = map[string]string{
	"hello":    `{"toolName":"greet","toolInput":{"name":"Ada"},"toolOutput":{"name":"Ada","message":"from the tool output"}}`,
	"weather":  `{"toolInput":{"city":"Oslo"},"toolOutput":{"city":"Oslo","unit":"C","days":[{"day":"Mon","high":21,"low":12,"summary":"Sunny spells"}]}}`,
	"get-time": `{"toolOutput":{"time":"2026-01-02T03:04:05Z"},"callToolResponse":{"content":[{"type":"text","text":"t"}],"structuredContent":{"time":"edited-response-time"}}}`,
}

// copyWidgets copies the example widgets (without node_modules) into a
// temporary project and links the installed node_modules, so tests edit
// copies and never the repository's widgets. It fails when React is not
// installed.
func copyWidgets(t testing.TB) (root, widgets string) {
	t.Helper()
	src, err := filepath.Abs(exampleWidgets)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(src, "node_modules", "react", "package.json")); err != nil {
		t.Fatalf("widgets/node_modules is missing (the weather example needs React): run `npm ci` in widgets/: %v", err)
	}
	root = t.TempDir()
	widgets = filepath.Join(root, "widgets")
	// The copies render the legacy preview.json samples below; the
	// examples' own fixtures are widgetd test's (widgettest).
	if err := copytree.Copy(src, widgets, copytree.Options{Skip: copytree.SkipNamed("node_modules", fixture.Dir)}); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(src, "node_modules"), filepath.Join(widgets, "node_modules")); err != nil {
		t.Fatal(err)
	}
	// A node_modules linking outside the project is read only from a
	// folder named in allowOutside.
	if err := os.WriteFile(filepath.Join(root, "widgetd.json"), []byte(allowModules(src)), 0o644); err != nil {
		t.Fatal(err)
	}
	for name, s := range samples {
		if err := os.WriteFile(filepath.Join(widgets, name, fixture.PreviewFile), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root, widgets
}

// devServer is a running Server over a temporary copy of the widgets.
type devServer struct {
	*Server
	root, widgets string
	log           *syncbuf.Buffer
	events        <-chan *BuildEvent
}

// startDev starts a dev server on free loopback ports and waits for its
// first build.
func startDev(t testing.TB, mutate func(o *Options)) *devServer {
	t.Helper()
	root, widgets := copyWidgets(t)
	return startDevIn(t, root, widgets, mutate)
}

// startDevIn is startDev over the project at root with its widgets folder.
func startDevIn(t testing.TB, root, widgets string, mutate func(o *Options)) *devServer {
	t.Helper()
	log := &syncbuf.Buffer{}
	opts := Options{Root: root, WidgetsDir: widgets, Addr: "127.0.0.1:0", Log: log, PollInterval: 20 * time.Millisecond}
	if mutate != nil {
		mutate(&opts)
	}
	s, err := New(opts)
	if err != nil {
		t.Fatal(err)
	}
	events, unsub := s.Subscribe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		unsub()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Error("dev server did not stop")
		}
	})
	d := &devServer{Server: s, root: root, widgets: widgets, log: log, events: events}
	ev := d.nextBuild(t, 60*time.Second)
	if !ev.OK {
		t.Fatalf("first build failed: %+v\nterminal:\n%s", ev.Diagnostics, log)
	}
	return d
}

// nextBuild waits for the next build event.
func (d *devServer) nextBuild(t testing.TB, timeout time.Duration) *BuildEvent {
	t.Helper()
	select {
	case ev, ok := <-d.events:
		if !ok {
			t.Fatal("event stream closed")
		}
		return ev
	case <-time.After(timeout):
		t.Fatalf("no build within %s; terminal:\n%s", timeout, d.log)
	}
	return nil
}

// edit rewrites a file of the temporary widgets with fn applied.
func (d *devServer) edit(t testing.TB, rel string, fn func(string) string) {
	t.Helper()
	p := filepath.Join(d.widgets, rel)
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	out := fn(string(data))
	if out == string(data) {
		t.Fatalf("edit of %s changed nothing", rel)
	}
	if err := os.WriteFile(p, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
}

// shared is one headless Chromium for the whole test binary; every page
// gets its own browser context.
var shared browsertest.Shared

func TestMain(m *testing.M) { os.Exit(shared.Run(m)) }

// page is one open preview tab.
type page struct {
	t   *testing.T
	ctx context.Context
}

func openPage(t *testing.T, url string) *page {
	t.Helper()
	p := shared.Page(t)
	p.Navigate(url)
	return &page{t: t, ctx: p.Ctx}
}

// eval evaluates a JS expression in the preview page and decodes its JSON.
func (p *page) eval(expr string, out any) error {
	ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
	defer cancel()
	s, err := chromedp.Run(ctx, chromedp.Evaluate[string](`JSON.stringify((`+expr+`) ?? null)`))
	if err != nil {
		return err
	}
	return json.Unmarshal([]byte(s), out)
}

// frameText is the text of the widget iframe's body ("" while absent).
func (p *page) frameText() string {
	ctx, cancel := context.WithTimeout(p.ctx, 3*time.Second)
	defer cancel()
	nodes, err := chromedp.Run(ctx, chromedp.Nodes(chromedp.CSS("#widget-frame"), chromedp.AtLeast(0)))
	if err != nil || len(nodes) == 0 {
		return ""
	}
	s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS("body"), chromedp.FromNode(nodes[0])))
	if err != nil {
		return ""
	}
	if strings.Contains(s, "Host context") {
		// The query read the preview page, not the widget document.
		p.t.Fatalf("frameText read the preview page instead of the widget frame")
	}
	return s
}

// waitFor polls cond until it returns "" (success) or the timeout passes,
// then fails with the last reason.
func (p *page) waitFor(what string, timeout time.Duration, cond func() string) {
	p.t.Helper()
	deadline := time.Now().Add(timeout)
	last := ""
	for time.Now().Before(deadline) {
		if last = cond(); last == "" {
			return
		}
		time.Sleep(50 * time.Millisecond)
	}
	var log any
	_ = p.eval(`window.widgetdDev && widgetdDev.log.slice(-15)`, &log)
	p.t.Fatalf("timed out waiting for %s: %s\nhost log tail: %v", what, last, log)
}

// waitFrameText waits until the widget frame's text contains want.
func (p *page) waitFrameText(want string, timeout time.Duration) string {
	p.t.Helper()
	var text string
	p.waitFor(fmt.Sprintf("widget text %q", want), timeout, func() string {
		text = p.frameText()
		if strings.Contains(text, want) {
			return ""
		}
		return fmt.Sprintf("frame text is %q", text)
	})
	return text
}

// clickInFrame clicks an element inside the widget iframe, once the frame
// has stopped moving: a click is dispatched at page coordinates, so a
// frame still being resized or pushed down (the status line wrapping the
// bar, a late size-changed) would take the click somewhere else.
func (p *page) clickInFrame(sel string) {
	p.t.Helper()
	p.waitFrameStill()
	ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
	defer cancel()
	nodes, err := chromedp.Run(ctx, chromedp.Nodes(chromedp.CSS("#widget-frame")))
	if err != nil {
		p.t.Fatalf("find widget frame: %v", err)
	}
	if err := chromedp.Do(ctx, chromedp.Click(chromedp.CSS(sel), chromedp.FromNode(nodes[0]))); err != nil {
		p.t.Fatalf("click %s in the widget: %v", sel, err)
	}
}

// waitFrameStill waits until the widget frame's box on the page has been
// the same for three polls in a row (about 300 ms).
func (p *page) waitFrameStill() {
	p.t.Helper()
	last, same := "", 0
	p.waitFor("the widget frame to stop moving", 20*time.Second, func() string {
		var box string
		if err := p.eval(`(() => { const r = document.getElementById("widget-frame")?.getBoundingClientRect(); return r ? [r.x, r.y, r.width, r.height].join(",") : "" })()`, &box); err != nil {
			return err.Error()
		}
		if box != "" && box == last {
			same++
		} else {
			last, same = box, 0
		}
		if same < 3 {
			time.Sleep(50 * time.Millisecond)
			return "frame box " + box
		}
		return ""
	})
}

// allowModules is a widgetd.json allowing the node_modules of the widgets
// folder src, which copyWidgets links; extra is more fields, "" for none.
func allowModules(src string, extra ...string) string {
	q, _ := json.Marshal(filepath.Join(src, "node_modules"))
	fields := append([]string{`"allowOutside": [` + string(q) + `]`}, extra...)
	return "{" + strings.Join(fields, ", ") + "}"
}
