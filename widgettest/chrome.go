package widgettest

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"

	"github.com/chromedp/chromedp"

	"github.com/widgetd/widgetd/internal/cachedir"
	"github.com/widgetd/widgetd/internal/chromium"
	"github.com/widgetd/widgetd/internal/fontpin"
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

// launch starts headless Chromium with what makes screenshots repeatable on
// any machine: the embedded fonts only (fontpin; FONTCONFIG_FILE points at
// their private fonts.conf, so installed fonts take no part), no GPU, no LCD
// text or font hinting, sRGB, device scale factor 1, hidden scrollbars, no
// background throttling.
func launch(ctx context.Context, path string) (*browser, error) {
	conf, err := pinFonts()
	if err != nil {
		return nil, err
	}
	fonts := chromedp.Env()
	if conf != "" {
		fonts = chromedp.Env("FONTCONFIG_FILE=" + conf)
	}
	chrome, err := chromium.Start(ctx, path, "widgetd-test-chromium-", fonts,
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

// pinFonts writes the embedded fonts and their fonts.conf (fontpin) to
// widgetd's cache folder, else to the temporary folder (a read-only home),
// and returns the path of that fonts.conf: Chromium's FONTCONFIG_FILE.
// Elsewhere than on Linux Chromium does not read fontconfig: nothing is
// written, and the path is "".
func pinFonts() (string, error) {
	if !fontsPinned() {
		return "", nil
	}
	var errs []error
	for _, root := range []string{cachedir.Default(), filepath.Join(os.TempDir(), "widgetd")} {
		if root == "" {
			continue
		}
		conf, err := fontpin.Install(root)
		if err == nil {
			return conf, nil
		}
		errs = append(errs, err)
	}
	return "", errors.Join(errs...)
}

// fontsPinned reports whether widgetd test pins fonts on this system.
func fontsPinned() bool { return runtime.GOOS == "linux" }

// pinnedSummary says in one line what widgetd test fixes for its
// screenshots on this system.
func pinnedSummary() string {
	if fontsPinned() {
		return fontpin.Summary
	}
	return "fonts not pinned on " + runtime.GOOS + " (Chromium reads fontconfig on Linux only): take baselines on the system CI runs; device scale factor 1"
}
