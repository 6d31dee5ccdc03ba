package devserver

import (
	"fmt"
	"regexp"
	"strings"
	"time"

	"golang.org/x/text/language"

	"github.com/widgetd/widgetd/bundler/strictjson"
)

// HostContext is the part of the host context a fixture sets. The field
// names are the MCP Apps spec's McpUiHostContext (checked against
// @modelcontextprotocol/ext-apps 2.0.4 dist/src/spec.types.d.ts, as
// devserver/hostapp installs it), so a fixture reads like what the
// widget receives; Device and MaxHeight are widgetd's shorthands. The
// preview sends them through the AppBridge on every host that answers ui/*
// and as window.openai's equivalents on the ChatGPT hosts; `widgetd test`
// also emulates them in the browser (viewport, touch, time zone, locale).
type HostContext struct {
	// Device names a device preset (Devices): its viewport size, platform,
	// deviceCapabilities and safeAreaInsets, each of which the fields
	// below override.
	Device string `json:"device,omitempty"`
	// Theme is "light" (default) or "dark".
	Theme string `json:"theme,omitempty"`
	// DisplayMode is "inline" (default), "pip" or "fullscreen".
	DisplayMode string `json:"displayMode,omitempty"`
	// Locale is a BCP 47 tag; default "en-US".
	Locale string `json:"locale,omitempty"`
	// TimeZone is an IANA time zone name ("Europe/Berlin"); default the
	// browser's (UTC in `widgetd test`).
	TimeZone string `json:"timeZone,omitempty"`
	// Platform is "web", "desktop" or "mobile".
	Platform string `json:"platform,omitempty"`
	// DeviceCapabilities says whether the device has touch and hover.
	DeviceCapabilities *DeviceCapabilities `json:"deviceCapabilities,omitempty"`
	// SafeAreaInsets are the CSS pixels at each edge the device covers.
	SafeAreaInsets *SafeAreaInsets `json:"safeAreaInsets,omitempty"`
	// ContainerDimensions fixes or bounds the widget's frame.
	ContainerDimensions *ContainerDimensions `json:"containerDimensions,omitempty"`
	// UserAgent is the host application's identifier.
	UserAgent string `json:"userAgent,omitempty"`
	// MaxHeight is the height limit of the inline frame in CSS pixels
	// (50–6000; default 600): containerDimensions.maxHeight, and
	// window.openai.maxHeight.
	MaxHeight int `json:"maxHeight,omitempty"`
}

// ContainerDimensions is the host context's containerDimensions: a fixed
// height or a maxHeight, and a fixed width or a maxWidth, in CSS pixels. A
// field left out (0) is unbounded; Height and MaxHeight exclude each other,
// as Width and MaxWidth do.
type ContainerDimensions struct {
	Height    int `json:"height,omitempty"`
	MaxHeight int `json:"maxHeight,omitempty"`
	Width     int `json:"width,omitempty"`
	MaxWidth  int `json:"maxWidth,omitempty"`
}

// maxInset and maxDimension bound safe-area insets and container sizes:
// far beyond any screen, they catch a unit slip (physical pixels, em).
const (
	maxInset     = 1000
	maxDimension = 10000
)

// timeZonePattern is the shape of an IANA time zone name: "UTC",
// "Europe/Berlin", "America/Argentina/Buenos_Aires", "Etc/GMT+2".
var timeZonePattern = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_+-]*(/[A-Za-z0-9_+-]+)*$`)

// Validate checks the values the JSON types cannot; the error names the
// field's JSON path (a *strictjson.FieldError). A nil HostContext is valid.
func (hc *HostContext) Validate() error {
	if hc == nil {
		return nil
	}
	checks := []func() error{hc.validateEnums, hc.validateLocale, hc.validateSizes}
	for _, check := range checks {
		if err := check(); err != nil {
			return err
		}
	}
	return nil
}

func fieldErr(path, format string, args ...any) error {
	return &strictjson.FieldError{Path: "hostContext." + path, Message: fmt.Sprintf(format, args...)}
}

func (hc *HostContext) validateEnums() error {
	if hc.Device != "" {
		if _, ok := LookupDevice(hc.Device); !ok {
			return &strictjson.FieldError{Path: "hostContext.device", Message: unknownDeviceMessage(hc.Device)}
		}
	}
	if hc.Theme != "" && hc.Theme != "light" && hc.Theme != "dark" {
		return fieldErr("theme", "theme %q must be \"light\" or \"dark\"", hc.Theme)
	}
	switch hc.DisplayMode {
	case "", "inline", "pip", "fullscreen":
	default:
		return fieldErr("displayMode", "displayMode %q must be \"inline\", \"pip\" or \"fullscreen\"", hc.DisplayMode)
	}
	switch hc.Platform {
	case "", PlatformWeb, PlatformDesktop, PlatformMobile:
	default:
		return fieldErr("platform", "platform %q must be \"web\", \"desktop\" or \"mobile\" (the MCP Apps host context's values)", hc.Platform)
	}
	if strings.IndexFunc(hc.UserAgent, func(r rune) bool { return r < ' ' || r == 0x7f }) >= 0 {
		return fieldErr("userAgent", "userAgent must not contain control characters; write the host's name and version, like \"ChatGPT/1.0\"")
	}
	return nil
}

func (hc *HostContext) validateLocale() error {
	if hc.Locale != "" {
		if _, err := language.Parse(hc.Locale); err != nil {
			return fieldErr("locale", "locale %q is not a BCP 47 language tag; write one like \"en-US\" or \"de-DE\"", hc.Locale)
		}
	}
	if hc.TimeZone == "" {
		return nil
	}
	if !timeZonePattern.MatchString(hc.TimeZone) || !knownTimeZone(hc.TimeZone) {
		return fieldErr("timeZone", "timeZone %q is not an IANA time zone name; write one like \"Europe/Berlin\", \"America/New_York\" or \"UTC\"", hc.TimeZone)
	}
	return nil
}

// knownTimeZone reports whether name is in the system's time zone database,
// or true when there is none to ask (a binary on a system without tzdata):
// Chromium, which has its own, then refuses a wrong name when the case runs.
func knownTimeZone(name string) bool {
	if _, err := time.LoadLocation(name); err == nil {
		return true
	}
	_, err := time.LoadLocation("Europe/Berlin")
	return err != nil
}

func (hc *HostContext) validateSizes() error {
	if hc.MaxHeight != 0 && (hc.MaxHeight < 50 || hc.MaxHeight > 6000) {
		return fieldErr("maxHeight", "maxHeight %d must be between 50 and 6000", hc.MaxHeight)
	}
	if in := hc.SafeAreaInsets; in != nil {
		for _, e := range []struct {
			name string
			v    int
		}{{"top", in.Top}, {"right", in.Right}, {"bottom", in.Bottom}, {"left", in.Left}} {
			if e.v < 0 || e.v > maxInset {
				return fieldErr("safeAreaInsets."+e.name, "safe-area inset %s %d must be between 0 and %d CSS pixels", e.name, e.v, maxInset)
			}
		}
	}
	return hc.validateContainer()
}

func (hc *HostContext) validateContainer() error {
	cd := hc.ContainerDimensions
	if cd == nil {
		return nil
	}
	for _, e := range []struct {
		name string
		v    int
	}{{"height", cd.Height}, {"maxHeight", cd.MaxHeight}, {"width", cd.Width}, {"maxWidth", cd.MaxWidth}} {
		if e.v < 0 || e.v > maxDimension {
			return fieldErr("containerDimensions."+e.name, "%s %d must be between 1 and %d CSS pixels (leave it out for no bound)", e.name, e.v, maxDimension)
		}
	}
	if cd.Height != 0 && cd.MaxHeight != 0 {
		return fieldErr("containerDimensions.maxHeight", "set either height (a fixed frame) or maxHeight (the widget sizes itself), not both")
	}
	if cd.Width != 0 && cd.MaxWidth != 0 {
		return fieldErr("containerDimensions.maxWidth", "set either width (a fixed frame) or maxWidth (the widget sizes itself), not both")
	}
	if hc.MaxHeight != 0 && cd.MaxHeight != 0 && hc.MaxHeight != cd.MaxHeight {
		return fieldErr("maxHeight", "maxHeight %d and containerDimensions.maxHeight %d disagree; keep only containerDimensions.maxHeight", hc.MaxHeight, cd.MaxHeight)
	}
	return nil
}

// Resolved returns the host context with its device preset expanded: the
// preset's platform, deviceCapabilities and safeAreaInsets fill the fields
// the fixture leaves out, and maxHeight and containerDimensions.maxHeight
// carry the same value. A nil HostContext stays nil.
func (hc *HostContext) Resolved() *HostContext {
	if hc == nil {
		return nil
	}
	out := *hc
	if d, ok := LookupDevice(hc.Device); ok {
		if out.Platform == "" {
			out.Platform = d.Platform
		}
		caps := d.DeviceCapabilities
		if hc.DeviceCapabilities != nil {
			caps = mergeCapabilities(caps, *hc.DeviceCapabilities)
		}
		out.DeviceCapabilities = &caps
		if out.SafeAreaInsets == nil {
			insets := d.SafeAreaInsets
			out.SafeAreaInsets = &insets
		}
	}
	if hc.ContainerDimensions != nil {
		cd := *hc.ContainerDimensions
		out.ContainerDimensions = &cd
	}
	switch {
	case out.ContainerDimensions != nil && out.ContainerDimensions.MaxHeight != 0:
		out.MaxHeight = out.ContainerDimensions.MaxHeight
	case out.MaxHeight != 0 && (out.ContainerDimensions == nil || out.ContainerDimensions.Height == 0):
		if out.ContainerDimensions == nil {
			out.ContainerDimensions = &ContainerDimensions{}
		}
		out.ContainerDimensions.MaxHeight = out.MaxHeight
	}
	return &out
}

// mergeCapabilities is base with the fields over sets.
func mergeCapabilities(base, over DeviceCapabilities) DeviceCapabilities {
	if over.Touch != nil {
		base.Touch = over.Touch
	}
	if over.Hover != nil {
		base.Hover = over.Hover
	}
	return base
}

// DevicePreset returns the device preset the host context names; ok is
// false when it names none.
func (hc *HostContext) DevicePreset() (d Device, ok bool) {
	if hc == nil || hc.Device == "" {
		return Device{}, false
	}
	return LookupDevice(hc.Device)
}
