package devserver

import (
	"encoding/json"
	"html"
	"io"
	"net/http"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/widgetd/widgetd/fixture"
	"github.com/widgetd/widgetd/internal/testfiles"
)

// TestFixturesInBuildEvents: a widget's fixtures (and its legacy
// preview.json) are found in the widget's own folder even when its "name"
// differs from the folder, reach the preview in the build event, and an
// edited fixture is picked up by the next rebuild.
func TestFixturesInBuildEvents(t *testing.T) {
	d := startDev(t, func(o *Options) {
		testfiles.Write(t, filepath.Join(o.WidgetsDir, "folder-b"), map[string]string{
			"widget.json":           `{"name": "renamed", "title": "Renamed"}`,
			"index.ts":              `document.body.append("r");`,
			"preview.json":          `{"toolName": "legacy-tool", "toolOutput": {"a": 1}}`,
			"fixtures/default.json": `{"toolName": "get-renamed", "toolResult": {"structuredContent": {"v": 1}}}`,
			"fixtures/phone.json":   `{"hostContext": {"device": "mobile", "safeAreaInsets": {"top": 50, "right": 0, "bottom": 0, "left": 0}}}`,
		})
	})
	find := func(ev *BuildEvent) WidgetInfo {
		t.Helper()
		for _, w := range ev.Widgets {
			if w.Name == "renamed" {
				return w
			}
		}
		t.Fatalf("no widget renamed in %+v", ev.Widgets)
		return WidgetInfo{}
	}
	w := find(d.State())
	if len(w.Fixtures) != 3 || w.Fixtures[0].Name != "default" || w.Fixtures[0].Fixture.ToolName != "get-renamed" ||
		w.Fixtures[2].Name != "preview" || w.Fixtures[2].Fixture.ToolName != "legacy-tool" {
		t.Fatalf("fixtures %+v", w.Fixtures)
	}
	// The preview gets the device expanded, the fixture's own insets kept.
	if hc := w.Fixtures[1].Fixture.HostContext; hc == nil || hc.Platform != fixture.PlatformMobile || hc.DeviceCapabilities == nil ||
		!*hc.DeviceCapabilities.Touch || hc.SafeAreaInsets == nil || hc.SafeAreaInsets.Top != 50 {
		t.Errorf("phone fixture's host context %+v", hc)
	}
	checkConfigDevices(t, d.PreviewURL()+"preview/renamed")
	d.edit(t, "folder-b/fixtures/default.json", func(s string) string { return strings.Replace(s, "get-renamed", "edited", 1) })
	ev := d.nextBuild(t, 30*time.Second)
	if w := find(ev); len(w.Fixtures) == 0 || w.Fixtures[0].Fixture.ToolName != "edited" {
		t.Errorf("after the edit: %+v", w.Fixtures)
	}
	d.edit(t, "folder-b/fixtures/default.json", func(s string) string { return `{"toolNam": 1}` })
	ev = d.nextBuild(t, 30*time.Second)
	if w := find(ev); !strings.Contains(w.FixtureError, filepath.Join("folder-b", "fixtures", "default.json")+`:1:2: error: unknown field "toolNam" in fixture; did you mean "toolName"?`) {
		t.Errorf("a broken fixture is not reported: %q", w.FixtureError)
	}
	if !strings.Contains(d.log.String(), `unknown field "toolNam"`) {
		t.Errorf("a broken fixture is not reported in the terminal:\n%s", d.log)
	}
}

// checkConfigDevices: the page's data-config carries the device presets.
func checkConfigDevices(t *testing.T, pageURL string) {
	t.Helper()
	res, err := http.Get(pageURL)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, _ := io.ReadAll(res.Body)
	m := regexp.MustCompile(`data-config="([^"]*)"`).FindSubmatch(body)
	if m == nil {
		t.Fatalf("no data-config in %s", body)
	}
	var cfg struct{ Devices []fixture.Device }
	if err := json.Unmarshal([]byte(html.UnescapeString(string(m[1]))), &cfg); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(cfg.Devices, fixture.Devices()) {
		t.Errorf("config devices %+v, want %+v", cfg.Devices, fixture.Devices())
	}
}
