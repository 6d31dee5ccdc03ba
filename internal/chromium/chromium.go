// Package chromium starts headless Chromium through chromedp with the flags
// widgetd relies on, for `widgetd test` (widgettest) and for the
// browser tests (internal/browsertest): one list of flags, so a flag that
// steadies one does not go missing from the other.
package chromium

import (
	"context"
	"fmt"
	"os"

	"github.com/chromedp/chromedp"
)

// Browser is one running headless Chromium with a throwaway profile.
type Browser struct {
	tab    context.Context
	cancel context.CancelFunc
	dir    string
}

// Start starts headless Chromium at path in a fresh profile folder (its name
// begins with profilePrefix) with the common flags — no sandbox or GPU, no
// first-run prompts, no background networking, QUIC or sync, and no
// throttling of tabs that are not in front (parallel tests and screenshot
// runs keep several busy) — plus extra.
func Start(ctx context.Context, path, profilePrefix string, extra ...chromedp.ExecAllocatorOption) (*Browser, error) {
	dir, err := os.MkdirTemp("", profilePrefix)
	if err != nil {
		return nil, fmt.Errorf("chromium profile: %w", err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.UserDataDir(dir),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("disable-backgrounding-occluded-windows", true),
	}
	actx, cancelA := chromedp.NewExecAllocator(ctx, append(opts, extra...)...)
	bctx, cancelB := chromedp.NewContext(actx)
	b := &Browser{tab: bctx, dir: dir, cancel: func() { cancelB(); cancelA() }}
	if err := chromedp.Do(bctx); err != nil {
		b.Close()
		return nil, fmt.Errorf("start %s: %w", path, err)
	}
	return b, nil
}

// Tab is the browser's first tab: the parent context of every page opened
// from it.
func (b *Browser) Tab() context.Context { return b.tab }

// Close stops Chromium and removes its profile.
func (b *Browser) Close() {
	b.cancel()
	_ = os.RemoveAll(b.dir)
}
