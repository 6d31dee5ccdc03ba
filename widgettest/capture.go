package widgettest

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// frameBoxExpr scrolls the widget frame into view and returns its box in
// the page's coordinates, and whether all of it is inside the viewport
// with the document itself unscrolled (so page and viewport coordinates
// agree).
const frameBoxExpr = `(() => { const f = document.getElementById("widget-frame"); if (!f) return null;
  f.scrollIntoView({ block: "nearest", inline: "nearest" });
  const r = f.getBoundingClientRect(), d = document.documentElement.getBoundingClientRect();
  return { x: r.left - d.left, y: r.top - d.top, width: r.width, height: r.height,
    inViewport: scrollX === 0 && scrollY === 0 && r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight }; })()`

// frameBox is frameBoxExpr's answer.
type frameBox struct {
	X, Y, Width, Height float64
	InViewport          bool
}

// captureFrame captures the widget frame as the page shows it.
//
// When the frame lies inside the viewport it is captured as it is on
// screen. Chromium's capture beyond the viewport (what chromedp's element
// screenshot asks for) resizes the page's view for the capture and back:
// every frame of the page is resized, and the widget frame, drawn by
// another process, is composited from its last picture when that process
// has not painted at the new size in time. On a loaded machine that picture
// is an older one (a widget that shrank shows its frame without the bottom
// border), and two captures in a row can both be that stale picture. Only
// a frame taller than the viewport is captured beyond it.
func captureFrame(ctx context.Context) ([]byte, error) {
	var box *frameBox
	if err := eval(ctx, frameBoxExpr, &box); err != nil {
		return nil, fmt.Errorf("measure the widget frame: %w", err)
	}
	if box == nil {
		return nil, fmt.Errorf("the preview shows no widget frame")
	}
	// Whole pixels, as chromedp (and Puppeteer) round an element's box: a
	// fractional clip is not captured correctly.
	x, y := math.Round(box.X), math.Round(box.Y)
	fromSurface, beyond := true, !box.InViewport
	clip := &page.Viewport{
		X: x, Y: y,
		Width:  math.Round(box.Width + box.X - x),
		Height: math.Round(box.Height + box.Y - y),
		Scale:  1,
	}
	res, err := chromedp.Run(ctx, chromedp.Action[page.CaptureScreenshotResult](func(ctx context.Context, t *chromedp.Target) (page.CaptureScreenshotResult, error) {
		return cdp.Call(ctx, t, page.CaptureScreenshot, page.CaptureScreenshotParams{
			Format:                page.CaptureScreenshotFormatPng,
			Clip:                  clip,
			FromSurface:           &fromSurface,
			CaptureBeyondViewport: &beyond,
		})
	}))
	if err != nil {
		return nil, err
	}
	return res.Data, nil
}

// stableScreenshots is how many captures stableScreenshot takes at most
// while waiting for two in a row to agree.
const stableScreenshots = 10

// stableScreenshot captures the widget frame until two consecutive captures
// are identical (as Playwright's toHaveScreenshot does), so a frame painted
// late on a loaded machine is neither compared nor written as a baseline.
// After stableScreenshots captures it returns the last one.
func stableScreenshot(ctx context.Context) ([]byte, error) {
	var last []byte
	for i := 0; i < stableScreenshots; i++ {
		time.Sleep(100 * time.Millisecond) // a couple of frames
		png, err := captureFrame(ctx)
		if err != nil {
			return nil, err
		}
		if last != nil && bytes.Equal(last, png) {
			return png, nil
		}
		last = png
	}
	return last, nil
}
