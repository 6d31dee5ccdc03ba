package widgettest

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/devserver"
	"github.com/widgetd/widgetd/fixture"
)

// contextWidget prints what it received: the host context (through the
// widgetd bridge, from ui/initialize), window.openai's equivalents when the
// host has it, and what its browser reports (Intl's time zone and locale,
// touch points, screen width).
const contextWidget = `import { widget } from "widgetd";
function render() {
  const hc: any = widget.hostContext, o: any = (window as any).openai;
  const insets = (i: any) => i ? [i.top, i.right, i.bottom, i.left].join(",") : "none";
  const caps = (c: any) => c ? "touch=" + c.touch + " hover=" + c.hover : "none";
  const intl = Intl.DateTimeFormat().resolvedOptions();
  const lines = ["theme=" + hc.theme, "platform=" + hc.platform, "locale=" + hc.locale, "tz=" + hc.timeZone,
    "insets=" + insets(hc.safeAreaInsets), "caps=" + caps(hc.deviceCapabilities), "ua=" + hc.userAgent,
    "intlTz=" + intl.timeZone, "intlLocale=" + intl.locale, "touchPoints=" + navigator.maxTouchPoints, "screen=" + screen.width];
  if (o) lines.push("openai.theme=" + o.theme, "openai.locale=" + o.locale, "openai.insets=" + insets(o.safeArea && o.safeArea.insets),
    "openai.device=" + (o.userAgent && o.userAgent.device.type), "openai.caps=" + caps(o.userAgent && o.userAgent.capabilities),
    "openai.maxHeight=" + o.maxHeight);
  let out = document.getElementById("ctx");
  if (!out) { out = document.createElement("pre"); out.id = "ctx"; document.body.append(out); }
  out.textContent = lines.join("\n") + "\n";
}
widget.onHostContextChanged(render);
widget.onToolResult(render);
render();
`

// mobileFixture is a German dark-mode phone in Berlin with its own insets.
const mobileFixture = `{"hostContext":{"device":"mobile","theme":"dark","locale":"de-DE","timeZone":"Europe/Berlin",
  "safeAreaInsets":{"top":47,"right":0,"bottom":34,"left":0},"userAgent":"fixture-host/1.0","maxHeight":420},
  "toolResult":{"structuredContent":{}},
  "expect":{"text":[%s]}}`

// commonExpect holds on every host: the widget got the fixture's host
// context over ui/*, and its browser is the device (390 px wide, touch, no
// hover, Berlin time, German).
const commonExpect = `"theme=dark","platform=mobile","locale=de-DE","tz=Europe/Berlin","insets=47,0,34,0",
  "caps=touch=true hover=false","ua=fixture-host/1.0","intlTz=Europe/Berlin","intlLocale=de-DE","touchPoints=1",
  "screen=390"`

// openaiExpect holds on the ChatGPT hosts: window.openai's equivalents.
const openaiExpect = `"openai.theme=dark","openai.locale=de-DE","openai.insets=47,0,34,0","openai.device=mobile",
  "openai.caps=touch=true hover=false","openai.maxHeight=420"`

// plainFixture sets no host context: the defaults (desktop viewport, UTC,
// no touch) must hold, so nothing of the mobile fixture leaks.
const plainFixture = `{"toolResult":{"structuredContent":{}},
  "expect":{"text":["platform=web","tz=UTC","intlTz=UTC","insets=0,0,0,0","caps=touch=false hover=true","touchPoints=0","screen=1280"]}}`

func fixtureWith(expect string) string {
	return strings.Replace(mobileFixture, "%s", expect, 1)
}

// TestFixtureHostContextReachesWidget renders one widget under a mobile,
// dark, German, Berlin fixture in real Chromium: on mcp-apps and chatgpt
// the widget reports the fixture's host context from ui/initialize and a
// browser emulating the device; on chatgpt also window.openai's
// equivalents. A fixture without a host context in the same run keeps the
// defaults.
func TestFixtureHostContextReachesWidget(t *testing.T) {
	root, widgets := project(t, map[string]string{
		"ctx/widget.json":           `{}`,
		"ctx/index.ts":              contextWidget,
		"ctx/fixtures/default.json": plainFixture,
		"ctx/fixtures/mobile.json":  fixtureWith(commonExpect),
	})
	opts := Options{Root: root, WidgetsDir: widgets, NoScreenshots: true, Hosts: []string{devserver.HostMCPApps, devserver.HostChatGPT}}
	rep, err := RunReport(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"ctx/mobile@mcp-apps", "ctx/mobile@chatgpt", "ctx/default@mcp-apps", "ctx/default@chatgpt"} {
		if c := caseByName(t, rep, name); !c.Passed {
			t.Errorf("%s: %v", name, c.Failures)
		}
	}

	// window.openai's equivalents, on the ChatGPT host only (mcp-apps has
	// no window.openai, and says so).
	mobile := filepath.Join(widgets, "ctx", "fixtures", "mobile.json")
	if err := os.WriteFile(mobile, []byte(fixtureWith(commonExpect+","+openaiExpect)), 0o644); err != nil {
		t.Fatal(err)
	}
	opts.Hosts = []string{devserver.HostChatGPT}
	opts.Widgets = []string{"ctx"}
	if rep, err = RunReport(context.Background(), opts); err != nil {
		t.Fatal(err)
	}
	if c := caseByName(t, rep, "ctx/mobile@chatgpt"); !c.Passed {
		t.Errorf("ctx/mobile@chatgpt with window.openai: %v", c.Failures)
	}
}

// TestEmulationFor: what a case's tab emulates from its fixture's host
// context; no host context keeps the fixed desktop viewport and UTC.
func TestEmulationFor(t *testing.T) {
	yes := true
	tests := []struct {
		name string
		hc   *fixture.HostContext
		want tabEmulation
	}{
		{"none", nil, tabEmulation{width: ViewportWidth, height: ViewportHeight, timeZone: "UTC"}},
		{"no device", &fixture.HostContext{Locale: "fr-FR"}, tabEmulation{width: ViewportWidth, height: ViewportHeight, timeZone: "UTC", locale: "fr-FR"}},
		{"mobile", &fixture.HostContext{Device: "mobile", TimeZone: "Asia/Tokyo"}, tabEmulation{width: 390, height: 844, touch: true, timeZone: "Asia/Tokyo"}},
		{"android", &fixture.HostContext{Device: "mobile-android"}, tabEmulation{width: 360, height: 800, touch: true, timeZone: "UTC"}},
		{"tablet", &fixture.HostContext{Device: "tablet"}, tabEmulation{width: 768, height: 1024, touch: true, timeZone: "UTC"}},
		{"touch laptop", &fixture.HostContext{Device: "laptop", DeviceCapabilities: &fixture.DeviceCapabilities{Touch: &yes}}, tabEmulation{width: 1440, height: 900, touch: true, timeZone: "UTC"}},
		{"touch without device", &fixture.HostContext{DeviceCapabilities: &fixture.DeviceCapabilities{Touch: &yes}}, tabEmulation{width: ViewportWidth, height: ViewportHeight, touch: true, timeZone: "UTC"}},
	}
	for _, tc := range tests {
		if got := emulationFor(tc.hc); got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
}
