package devserver

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/widgetd/widgetd/fixture"
	"github.com/widgetd/widgetd/internal/testfiles"
)

// TestPreviewDeviceContext: the default device preset and a fixture's
// hostContext reach the widget in ui/initialize, and picking the Mobile preset and a time zone in the page reaches the
// running widget — in host-context-changed and, on ChatGPT, in
// window.openai's globals (safeArea, userAgent).
func TestPreviewDeviceContext(t *testing.T) {
	d := startDev(t, func(o *Options) {
		// The fixture fields devserver reads today; platform, capabilities,
		// insets and time zone in fixtures come with fixture/devices.go.
		testfiles.Write(t, filepath.Join(o.WidgetsDir, "hello", fixture.Dir), map[string]string{
			"default.json": `{"toolResult": {"structuredContent": {"name": "Lin"}}, "hostContext": {"locale": "nb-NO", "maxHeight": 400}}`,
		})
	})
	p := openPage(t, d.PreviewURL()+"preview/hello?host=chatgpt")
	p.waitFrameText("Hello, Lin!", 30*time.Second)
	p.waitFor("the ui/* session", 30*time.Second, func() string {
		var up bool
		_ = p.eval(`widgetdDev.initialized`, &up)
		return map[bool]string{true: "", false: "not initialized"}[up]
	})
	var initial map[string]any
	if err := p.eval(`widgetdDev.log.find(e => e.dir === "out" && e.data?.result?.hostContext)?.data.result.hostContext`, &initial); err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(map[string]any{"platform": initial["platform"], "locale": initial["locale"], "dims": initial["containerDimensions"].(map[string]any)["maxHeight"],
		"caps": initial["deviceCapabilities"], "insets": initial["safeAreaInsets"]})
	// The Desktop preset's platform, capabilities and insets; the fixture's locale and max height.
	if want := `{"caps":{"hover":true,"touch":false},"dims":400,"insets":{"bottom":0,"left":0,"right":0,"top":0},"locale":"nb-NO","platform":"web"}`; string(got) != want {
		t.Errorf("ui/initialize hostContext from the fixture:\n got %s\nwant %s", got, want)
	}

	mobile, ok := fixture.LookupDevice("mobile")
	if !ok {
		t.Fatal("no mobile device preset")
	}
	insets, _ := json.Marshal(mobile.SafeAreaInsets)
	p.selectValue("device", "mobile")
	p.do(`const z = document.getElementById("time-zone"); z.value = "America/Lima"; z.dispatchEvent(new Event("change"))`)
	p.waitFor("the preset and time zone told to the widget", 10*time.Second, func() string {
		var seen []string
		_ = p.eval(`widgetdDev.log.filter(e => e.dir === "out").map(e => JSON.stringify(e.data))`, &seen)
		all := strings.Join(seen, "\n")
		for _, want := range []string{
			`"platform":"mobile"`, `"deviceCapabilities":{"hover":false,"touch":true}`,
			`"safeAreaInsets":` + string(insets), `"timeZone":"America/Lima"`,
			`"safeArea":{"insets":` + string(insets) + `}`, `"userAgent":{"device":{"type":"mobile"}`,
		} {
			if !strings.Contains(all, want) {
				return fmt.Sprintf("no message to the widget has %s", want)
			}
		}
		return ""
	})
}
