package widgettest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"

	"github.com/chromedp/chromedp"

	"github.com/widgetd/widgetd/internal/chromium"
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
	chrome *chromium.Browser
}

// launch starts headless Chromium with the flags that make screenshots
// repeatable on one machine: no GPU, no LCD text or font hinting, sRGB,
// hidden scrollbars, no background throttling.
func launch(ctx context.Context, path string) (*browser, error) {
	chrome, err := chromium.Start(ctx, path, "widgetd-test-chromium-",
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("force-color-profile", "srgb"),
		chromedp.Flag("font-render-hinting", "none"),
		chromedp.Flag("disable-lcd-text", true),
		chromedp.Flag("force-device-scale-factor", "1"),
		chromedp.Flag("lang", "en-US"),
	)
	if err != nil {
		return nil, err
	}
	return &browser{ctx: chrome.Tab(), chrome: chrome}, nil
}

func (b *browser) close() { b.chrome.Close() }
