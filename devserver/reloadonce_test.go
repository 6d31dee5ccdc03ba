package devserver

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
)

// TestSameHashBuildReloadsOnce saves a widget once and then touches the
// file, as an editor's save can be seen twice by the watcher: two builds
// with the same hash. The preview must reload the widget once, even while
// the first reload is still tearing the old widget down (the page's CPU is
// throttled so that the second build arrives meanwhile).
func TestSameHashBuildReloadsOnce(t *testing.T) {
	d := startDev(t, nil)
	p := openPage(t, d.PreviewURL()+"preview/hello")
	p.waitFrameText("Hello, Ada!", 30*time.Second)
	p.throttleCPU(20)

	d.edit(t, "hello/index.ts", func(s string) string { return strings.Replace(s, "Hello, ", "Fixed, ", 1) })
	first := d.nextBuild(t, 60*time.Second)
	later := time.Now().Add(time.Second)
	if err := os.Chtimes(filepath.Join(d.widgets, "hello", "index.ts"), later, later); err != nil {
		t.Fatal(err)
	}
	second := d.nextBuild(t, 60*time.Second)
	hash := widgetHash(t, first, "hello")
	if widgetHash(t, second, "hello") != hash {
		t.Fatalf("touching the file changed the widget's hash")
	}
	p.waitFor("the preview to receive the second build", 30*time.Second, func() string {
		var seq int
		if err := p.eval(`widgetdDev.build && widgetdDev.build.seq`, &seq); err != nil || seq < second.Seq {
			return "not yet"
		}
		return ""
	})
	p.waitFrameText("Fixed, Ada!", 30*time.Second)
	var reloads []any
	if err := p.eval(`widgetdDev.log.filter(e => e.kind === "reload").map(e => e.data)`, &reloads); err != nil {
		t.Fatal(err)
	}
	if len(reloads) != 1 {
		t.Errorf("one save reloaded the widget %d times: %v", len(reloads), reloads)
	}
}

// throttleCPU slows the page's JavaScript down rate times.
func (p *page) throttleCPU(rate float64) {
	p.t.Helper()
	err := chromedp.Do(p.ctx, chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetCPUThrottlingRate, emulation.SetCPUThrottlingRateParams{Rate: rate})
		return err
	}))
	if err != nil {
		p.t.Fatalf("throttle the page's CPU: %v", err)
	}
}
