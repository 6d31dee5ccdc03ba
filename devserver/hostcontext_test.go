package devserver

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// hostContextCases are fixtures whose hostContext ParseFixture must accept
// ("" in the golden file) or refuse with a file:line:col diagnostic.
var hostContextCases = []struct{ name, in string }{
	{"every-field", `{"hostContext":{"device":"mobile","theme":"dark","displayMode":"fullscreen","locale":"de-DE","timeZone":"Europe/Berlin","platform":"mobile","deviceCapabilities":{"touch":true,"hover":false},"safeAreaInsets":{"top":47,"right":0,"bottom":34,"left":0},"containerDimensions":{"maxHeight":500,"width":390},"userAgent":"ChatGPT/1.2025"}}`},
	{"device-only", `{"hostContext":{"device":"claude-column"}}`},
	{"utc-and-etc", `{"hostContext":{"timeZone":"Etc/GMT+2","locale":"zh-Hant-TW"}}`},
	{"unknown-device", "{\"hostContext\": {\n  \"device\": \"iphone\"}}"},
	{"device-wrong-type", `{"hostContext":{"device":3}}`},
	{"bad-locale", `{"hostContext":{"locale":"german!"}}`},
	{"bad-timezone-shape", `{"hostContext":{"timeZone":"Berlin time"}}`},
	{"unknown-timezone", `{"hostContext":{"timeZone":"Europe/Berln"}}`},
	{"bad-platform", `{"hostContext":{"platform":"ios"}}`},
	{"misspelt-capability", `{"hostContext":{"deviceCapabilities":{"tuch":true}}}`},
	{"capability-as-string", `{"hostContext":{"deviceCapabilities":{"touch":"yes"}}}`},
	{"negative-inset", "{\"hostContext\":{\"safeAreaInsets\":{\n\"top\":-1}}}"},
	{"huge-inset", `{"hostContext":{"safeAreaInsets":{"bottom":5000}}}`},
	{"fractional-inset", `{"hostContext":{"safeAreaInsets":{"top":1.5}}}`},
	{"unknown-inset", `{"hostContext":{"safeAreaInsets":{"middle":1}}}`},
	{"height-and-maxheight", `{"hostContext":{"containerDimensions":{"height":400,"maxHeight":500}}}`},
	{"width-and-maxwidth", `{"hostContext":{"containerDimensions":{"width":400,"maxWidth":500}}}`},
	{"maxheights-disagree", `{"hostContext":{"maxHeight":400,"containerDimensions":{"maxHeight":500}}}`},
	{"old-viewport-field", `{"hostContext":{"viewport":{"width":400}}}`},
	{"control-in-useragent", `{"hostContext":{"userAgent":"a\nb"}}`},
	{"misspelt-timezone-key", `{"hostContext":{"timezone":"UTC"}}`},
}

// TestParseHostContextGolden: each case's diagnostic (or acceptance) is
// the one in testdata/hostcontext_errors.golden; -update rewrites it.
func TestParseHostContextGolden(t *testing.T) {
	var got strings.Builder
	for _, tc := range hostContextCases {
		_, err := ParseFixture("f.json", []byte(tc.in))
		msg := "ok"
		if err != nil {
			msg = err.Error()
		}
		fmt.Fprintf(&got, "%s: %s\n", tc.name, msg)
	}
	golden := filepath.Join("testdata", "hostcontext_errors.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(got.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run go test -run TestParseHostContextGolden -update)", err)
	}
	if got.String() != string(want) {
		t.Errorf("diagnostics differ from %s (-update rewrites it):\n%s", golden, got.String())
	}
}

// TestHostContextResolved: a device preset fills the fields the fixture
// leaves out and never the ones it sets; maxHeight and
// containerDimensions.maxHeight carry one value.
func TestHostContextResolved(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"device":"mobile"}`, `{"device":"mobile","platform":"mobile","deviceCapabilities":{"touch":true,"hover":false},"safeAreaInsets":{"top":44,"right":0,"bottom":34,"left":0}}`},
		{`{"device":"mobile","platform":"web","deviceCapabilities":{"hover":true},"safeAreaInsets":{"top":1,"right":2,"bottom":3,"left":4}}`,
			`{"device":"mobile","platform":"web","deviceCapabilities":{"touch":true,"hover":true},"safeAreaInsets":{"top":1,"right":2,"bottom":3,"left":4}}`},
		{`{"device":"desktop","theme":"dark"}`, `{"device":"desktop","theme":"dark","platform":"web","deviceCapabilities":{"touch":false,"hover":true},"safeAreaInsets":{"top":0,"right":0,"bottom":0,"left":0}}`},
		{`{"maxHeight":300}`, `{"containerDimensions":{"maxHeight":300},"maxHeight":300}`},
		{`{"containerDimensions":{"maxHeight":300,"width":200}}`, `{"containerDimensions":{"maxHeight":300,"width":200},"maxHeight":300}`},
		{`{"maxHeight":300,"containerDimensions":{"height":200}}`, `{"containerDimensions":{"height":200},"maxHeight":300}`},
		{`{"locale":"de-DE"}`, `{"locale":"de-DE"}`},
	}
	for _, tc := range tests {
		f, err := ParseFixture("f.json", []byte(`{"hostContext":`+tc.in+`}`))
		if err != nil {
			t.Fatalf("%s: %v", tc.in, err)
		}
		before, _ := json.Marshal(f.HostContext)
		got, _ := json.Marshal(f.HostContext.Resolved())
		if string(got) != tc.want {
			t.Errorf("Resolved(%s)\n got %s\nwant %s", tc.in, got, tc.want)
		}
		if after, _ := json.Marshal(f.HostContext); string(after) != string(before) {
			t.Errorf("Resolved changed its receiver: %s -> %s", before, after)
		}
	}
	if (*HostContext)(nil).Resolved() != nil {
		t.Error("nil host context resolved to non-nil")
	}
}

// TestDevicesContract: every preset has what the preview config promises
// (docs: id, label, size, platform, both capabilities) and a unique id the
// schema's device enum lists.
func TestDevicesContract(t *testing.T) {
	data, err := os.ReadFile("../fixture.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var schema struct {
		Properties struct {
			HostContext struct {
				Properties struct {
					Device struct {
						Enum []string `json:"enum"`
					} `json:"device"`
				} `json:"properties"`
			} `json:"hostContext"`
		} `json:"properties"`
	}
	if err := json.Unmarshal(data, &schema); err != nil {
		t.Fatal(err)
	}
	var ids []string
	seen := map[string]bool{}
	for _, d := range Devices() {
		raw, _ := json.Marshal(d)
		var m map[string]any
		_ = json.Unmarshal(raw, &m)
		caps, _ := m["deviceCapabilities"].(map[string]any)
		_, hasTouch := caps["touch"].(bool)
		_, hasHover := caps["hover"].(bool)
		if d.ID == "" || d.Label == "" || d.Width < 320 || d.Height < 320 || !hasTouch || !hasHover || m["safeAreaInsets"] == nil {
			t.Errorf("incomplete preset %s", raw)
		}
		if d.Platform != PlatformWeb && d.Platform != PlatformDesktop && d.Platform != PlatformMobile {
			t.Errorf("%s: platform %q", d.ID, d.Platform)
		}
		if seen[d.ID] {
			t.Errorf("duplicate id %s", d.ID)
		}
		seen[d.ID] = true
		ids = append(ids, d.ID)
	}
	if got, want := strings.Join(schema.Properties.HostContext.Properties.Device.Enum, ","), strings.Join(ids, ","); got != want {
		t.Errorf("fixture.schema.json device enum %s, Devices() %s", got, want)
	}
	if d, ok := LookupDevice(DefaultDevice); !ok || d.Width != 1280 {
		t.Errorf("default device %+v %v", d, ok)
	}
}
