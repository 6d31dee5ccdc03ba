package widgettest

import (
	"context"
	"fmt"
	"strings"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/widgetd/widgetd/fixture"
)

// DefaultTimeZone is the time zone a case runs in when its fixture sets
// none, so a widget printing dates renders the same on every machine.
const DefaultTimeZone = "UTC"

// tabEmulation is what a case's browser tab emulates from its fixture's host
// context: the viewport and screen size of its device preset (else
// ViewportWidth × ViewportHeight), touch events and navigator.maxTouchPoints
// when the device has touch, its time zone and locale. Hover is only sent:
// Chromium's media emulation ignores the hover and pointer features, and
// headless Chromium answers (hover: none) on every device.
// The preview page sends the same fixture's host context to the widget, so
// what the widget is told and what its browser does agree.
type tabEmulation struct {
	width, height int64
	touch         bool
	timeZone      string
	locale        string
}

// emulationFor reads the emulation from a fixture's (resolved) host context.
func emulationFor(hc *fixture.HostContext) tabEmulation {
	e := tabEmulation{width: ViewportWidth, height: ViewportHeight, timeZone: DefaultTimeZone}
	if hc == nil {
		return e
	}
	if d, ok := hc.DevicePreset(); ok {
		e.width, e.height = int64(d.Width), int64(d.Height)
	}
	if caps := hc.Resolved().DeviceCapabilities; caps != nil && caps.Touch != nil {
		e.touch = *caps.Touch
	}
	if hc.TimeZone != "" {
		e.timeZone = hc.TimeZone
	}
	e.locale = hc.Locale
	return e
}

// actions are the CDP calls that set the emulation up, before navigating.
// Device scale factor stays 1 on every device, so screenshots compare.
func (e tabEmulation) actions() chromedp.Action[chromedp.Void] {
	screen := func(p *emulation.SetDeviceMetricsOverrideParams, _ *emulation.SetTouchEmulationEnabledParams) {
		p.ScreenWidth, p.ScreenHeight = e.width, e.height
	}
	opts := []chromedp.EmulateViewportOption{chromedp.EmulateScale(1), screen}
	if e.touch {
		opts = append(opts, chromedp.EmulateTouch)
	}
	viewport := chromedp.EmulateViewport(e.width, e.height, opts...)
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		if err := chromedp.Do(ctx, viewport); err != nil {
			return fmt.Errorf("emulate a %d×%d viewport: %w", e.width, e.height, err)
		}
		if _, err := cdp.Call(ctx, t, emulation.SetTimezoneOverride, emulation.SetTimezoneOverrideParams{TimezoneID: e.timeZone}); err != nil {
			return fmt.Errorf("emulate time zone %q (hostContext.timeZone): %w", e.timeZone, err)
		}
		if e.locale == "" {
			return nil
		}
		// ICU spells the tag with underscores (de_DE).
		icu := strings.ReplaceAll(e.locale, "-", "_")
		if _, err := cdp.Call(ctx, t, emulation.SetLocaleOverride, emulation.SetLocaleOverrideParams{Locale: icu}); err != nil {
			return fmt.Errorf("emulate locale %q (hostContext.locale): %w", e.locale, err)
		}
		return nil
	})
}
