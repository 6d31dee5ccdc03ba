package devserver

import (
	"fmt"
	"sort"
	"strings"
)

// Platforms a host context names (MCP Apps McpUiHostContext.platform).
const (
	PlatformWeb     = "web"
	PlatformDesktop = "desktop"
	PlatformMobile  = "mobile"
)

// DeviceCapabilities is the host context's deviceCapabilities: whether the
// device has a touch screen and a pointer that can hover. A fixture leaves
// a field out (nil) to keep its device's value.
type DeviceCapabilities struct {
	// Touch: the device has a touch screen.
	Touch *bool `json:"touch,omitempty"`
	// Hover: the device has a pointer that can hover (a mouse).
	Hover *bool `json:"hover,omitempty"`
}

// SafeAreaInsets is the host context's safeAreaInsets: the CSS pixels at
// each edge that a notch, status bar or home indicator covers.
type SafeAreaInsets struct {
	Top    int `json:"top"`
	Right  int `json:"right"`
	Bottom int `json:"bottom"`
	Left   int `json:"left"`
}

// Device is one device preset: a viewport size and the host context fields
// that come with it. The preview config publishes the list as "devices"
// (the preview's device menu), fixtures name one with hostContext.device,
// and `widgetd test` sizes its browser viewport from it.
type Device struct {
	// ID is the name fixtures and the preview use ("mobile").
	ID string `json:"id"`
	// Label is the menu text.
	Label string `json:"label"`
	// Width and Height are the viewport in CSS pixels (scale factor 1).
	Width  int `json:"width"`
	Height int `json:"height"`
	// Platform is "web", "desktop" or "mobile".
	Platform string `json:"platform"`
	// DeviceCapabilities says whether the device has touch and hover.
	DeviceCapabilities DeviceCapabilities `json:"deviceCapabilities"`
	// SafeAreaInsets are the device's unsafe edges.
	SafeAreaInsets SafeAreaInsets `json:"safeAreaInsets"`
}

// DefaultDevice is the preset `widgetd test` uses for a fixture that names
// none; its width is the viewport every case had before device presets.
const DefaultDevice = "desktop"

// Devices returns the device presets, in menu order. A new slice each call,
// so callers may change it.
//
// Where the figures come from (looked up 2026-11; none invented except
// where said):
//   - desktop 1280×800 and tablet 768×1024: MCPJam inspector's device
//     presets (client/src/components/shared ClientContextHeader
//     PRESET_DEVICE_CONFIGS: desktop 1280×800, tablet 768×1024); tablet
//     insets 24/20 from sunpeak's iPad preset
//     (packages/sunpeak/src/inspector/device-presets.ts).
//   - laptop 1440×900: the CSS viewport of a 13–15" laptop at its default
//     scaling (MacBook Air 13" before 2022), a common "Desktop 1440"
//     preset in inspectors; chosen here, not taken from a host.
//   - mobile 390×844 (iPhone 12–14) with insets 44/34: MCPJam's
//     ui-playground-store SAFE_AREA_PRESETS "iphone-notch"
//     {top:44,bottom:34}; touch without hover as both MCPJam
//     (getDefaultCapabilities) and sunpeak give every phone.
//   - mobile-android 360×800 with insets 24/16: MCPJam's "android-gesture"
//     safe-area preset {top:24,bottom:16}.
//   - chatgpt-column 768: ChatGPT's conversation column, where an inline
//     widget sits: chatgpt.com's thread markup (as saved in public
//     repositories' captured pages) sets
//     [--thread-content-max-width:40rem] @w-lg/main:[--thread-content-max-width:48rem],
//     i.e. 768 px on a wide window and 640 px on a narrower one. OpenAI's
//     Apps SDK docs give no width. Height 800 is the desktop preset's.
//   - claude-column 768: claude.ai's conversation column is Tailwind's
//     max-w-3xl (48rem = 768 px), the class user scripts override to widen
//     it (e.g. dmitrii-fediuk/vm s/Claude.js). Anthropic publishes no
//     figure, so this one is the weakest sourced. Height 800 as above.
func Devices() []Device {
	return []Device{
		desktopDevice("desktop", "Desktop 1280×800", 1280, 800),
		desktopDevice("laptop", "Laptop 1440×900", 1440, 900),
		touchDevice("tablet", "Tablet 768×1024", 768, 1024, SafeAreaInsets{Top: 24, Bottom: 20}),
		touchDevice("mobile", "iPhone 390×844", 390, 844, SafeAreaInsets{Top: 44, Bottom: 34}),
		touchDevice("mobile-android", "Android 360×800", 360, 800, SafeAreaInsets{Top: 24, Bottom: 16}),
		desktopDevice("chatgpt-column", "ChatGPT column 768", 768, 800),
		desktopDevice("claude-column", "Claude column 768", 768, 800),
	}
}

func desktopDevice(id, label string, w, h int) Device {
	yes, no := true, false
	return Device{ID: id, Label: label, Width: w, Height: h, Platform: PlatformWeb,
		DeviceCapabilities: DeviceCapabilities{Touch: &no, Hover: &yes}}
}

func touchDevice(id, label string, w, h int, insets SafeAreaInsets) Device {
	yes, no := true, false
	return Device{ID: id, Label: label, Width: w, Height: h, Platform: PlatformMobile,
		DeviceCapabilities: DeviceCapabilities{Touch: &yes, Hover: &no}, SafeAreaInsets: insets}
}

// LookupDevice returns the preset named id.
func LookupDevice(id string) (Device, bool) {
	for _, d := range Devices() {
		if d.ID == id {
			return d, true
		}
	}
	return Device{}, false
}

// deviceIDs lists the preset names, sorted, for error messages.
func deviceIDs() []string {
	var ids []string
	for _, d := range Devices() {
		ids = append(ids, d.ID)
	}
	sort.Strings(ids)
	return ids
}

// unknownDeviceMessage says that id names no preset and lists those that exist.
func unknownDeviceMessage(id string) string {
	return fmt.Sprintf("device %q is not a device preset; use one of %s (or leave device out and set platform, deviceCapabilities and safeAreaInsets yourself)",
		id, strings.Join(deviceIDs(), ", "))
}
