package widgettest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"

	"github.com/chromedp/chromedp"
)

// ErrNoChrome means no Chromium or Chrome binary was found; the CLI turns it
// into its own exit code and an install hint.
var ErrNoChrome = errors.New("no Chromium found")

// chromeNames are the binaries FindChrome looks for on PATH, in order.
var chromeNames = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"}

// FindChrome returns the browser to drive: explicit when set (a --chrome
// flag), else $CHROME_PATH, else the first of chromium, chromium-browser,
// google-chrome, google-chrome-stable, chrome on PATH.
func FindChrome(explicit string) (string, error) {
	for _, p := range []string{explicit, os.Getenv("CHROME_PATH")} {
		if p == "" {
			continue
		}
		path, err := exec.LookPath(p)
		if err != nil {
			return "", fmt.Errorf("%w at %q: %v", ErrNoChrome, p, err)
		}
		return path, nil
	}
	for _, n := range chromeNames {
		if path, err := exec.LookPath(n); err == nil {
			return path, nil
		}
	}
	return "", fmt.Errorf("%w on PATH (looked for %v); install it (Debian/Ubuntu: apt-get install chromium) or pass --chrome /path/to/chrome or set CHROME_PATH", ErrNoChrome, chromeNames)
}

// browser is one headless Chromium with a throwaway profile.
type browser struct {
	ctx    context.Context
	cancel context.CancelFunc
	dir    string
}

// launch starts headless Chromium with the flags that make screenshots
// repeatable on one machine: no GPU, no LCD text or font hinting, sRGB,
// hidden scrollbars, no background throttling.
func launch(ctx context.Context, path string) (*browser, error) {
	dir, err := os.MkdirTemp("", "widgetd-test-chromium-")
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
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("force-color-profile", "srgb"),
		chromedp.Flag("font-render-hinting", "none"),
		chromedp.Flag("disable-lcd-text", true),
		chromedp.Flag("force-device-scale-factor", "1"),
		chromedp.Flag("lang", "en-US"),
	}
	actx, cancelA := chromedp.NewExecAllocator(ctx, opts...)
	bctx, cancelB := chromedp.NewContext(actx)
	b := &browser{ctx: bctx, dir: dir, cancel: func() { cancelB(); cancelA() }}
	if err := chromedp.Do(bctx); err != nil {
		b.close()
		return nil, fmt.Errorf("start %s: %w", path, err)
	}
	return b, nil
}

func (b *browser) close() {
	b.cancel()
	_ = os.RemoveAll(b.dir)
}
