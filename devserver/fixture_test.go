package devserver

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
)

func TestParseFixtureErrors(t *testing.T) {
	tests := []struct{ in, want string }{
		{`{"toolInput":{"city":"Oslo"},"toolResult":{"structuredContent":{"a":1},"_meta":{"k":2}},"callTool":{"refresh":{"structuredContent":{}}},"expect":{"text":["Oslo"],"elements":["h1"],"calls":[{"tool":"refresh","arguments":{"city":"Oslo"}}]}}`, ""},
		{"{\n  \"toolNme\": \"x\"\n}", `f.json:2:3: error: unknown field "toolNme" in fixture; did you mean "toolName"?`},
		{"{\"toolResult\": {\n \"structuredcontent\": {}}}", `f.json:2:2: error: unknown field "structuredcontent" in "toolResult"; did you mean "structuredContent"?`},
		{"{\"callTool\": {\"x\": {\"meta\": 1}}}", `f.json:1:21: error: unknown field "meta" in "callTool.x"`},
		{"{\"expect\": {\"calls\": [{\"tool\": \"a\"}, {\"tol\": \"b\"}]}}", `f.json:1:39: error: unknown field "tol" in "expect.calls[1]"; did you mean "tool"?`},
		{"{\"hostContext\": {\"theme\": \"blue\"}}", `f.json:1:18: error: theme "blue" must be "light" or "dark"`},
		{"{\"expect\": {\"calls\": [{}]}}", `f.json:1:23: error: an expected call needs "tool"`},
		{"{\"toolInput\": [1]}", `f.json:1:2: error: field "toolInput": expected an object`},
		{"{\"toolInput\": {},}", `f.json:1:17: error: invalid JSON: trailing comma`},
		{"\xEF\xBB\xBF{\"toolName\": \"x\"}", ""},
		{"{\"toolInput\": {\"x\": " + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + "}}", `f.json:1:1019: error: objects and arrays are nested more than 1000 levels deep`},
		{"[]", `f.json:1:1: error: the file must hold a JSON object`},
	}
	for _, tc := range tests {
		_, err := ParseFixture("f.json", []byte(tc.in))
		if tc.want == "" {
			if err != nil {
				t.Errorf("ParseFixture(%s): %v", tc.in, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("ParseFixture(%s) = %v, want %q", tc.in, err, tc.want)
		}
	}
}

func FuzzParseFixture(f *testing.F) {
	f.Add([]byte(`{"toolResult":{"structuredContent":{"a":1}},"expect":{"text":["a"]}}`))
	f.Add([]byte(`{"callTool":{"*":{"content":[{"type":"text","text":"x"}]}}}`))
	f.Add([]byte(`{"hostContext":{"device":"mobile","locale":"de-DE","timeZone":"Europe/Berlin","safeAreaInsets":{"top":44},"deviceCapabilities":{"hover":true},"containerDimensions":{"maxHeight":400,"width":300},"maxHeight":400}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		fx, err := ParseFixture("f.json", data)
		if err == nil && fx == nil {
			t.Fatal("nil fixture without an error")
		}
		// What LoadFixtures hands the preview stays valid.
		if err == nil {
			if verr := fx.HostContext.Resolved().Validate(); verr != nil {
				t.Fatalf("resolved host context invalid: %v", verr)
			}
		}
		if err != nil && !strings.HasPrefix(err.Error(), "f.json:") {
			t.Fatalf("error without a position: %v", err)
		}
	})
}

// TestFixtureSchemaMatchesTypes keeps fixture.schema.json in step with the
// fields ParseFixture accepts, object by object.
func TestFixtureSchemaMatchesTypes(t *testing.T) {
	data, err := os.ReadFile("../fixture.schema.json")
	if err != nil {
		t.Fatal(err)
	}
	var root map[string]any
	if err := json.Unmarshal(data, &root); err != nil {
		t.Fatal(err)
	}
	defs := root["$defs"].(map[string]any)
	node := func(path ...string) map[string]any {
		n := root
		for _, p := range path {
			if p == "#toolResult" {
				n = defs["toolResult"].(map[string]any)
				continue
			}
			n = n["properties"].(map[string]any)[p].(map[string]any)
		}
		return n
	}
	for _, tc := range []struct {
		node map[string]any
		typ  reflect.Type
	}{
		{node(), reflect.TypeOf(Fixture{})},
		{node("#toolResult"), reflect.TypeOf(ToolResult{})},
		{node("hostContext"), reflect.TypeOf(HostContext{})},
		{node("hostContext", "deviceCapabilities"), reflect.TypeOf(DeviceCapabilities{})},
		{node("hostContext", "safeAreaInsets"), reflect.TypeOf(SafeAreaInsets{})},
		{node("hostContext", "containerDimensions"), reflect.TypeOf(ContainerDimensions{})},
		{node("expect"), reflect.TypeOf(Expect{})},
		{node("expect", "calls")["items"].(map[string]any), reflect.TypeOf(ExpectedCall{})},
	} {
		if tc.node["additionalProperties"] != false {
			t.Errorf("%s: additionalProperties must be false", tc.typ)
		}
		var got, want []string
		for k := range tc.node["properties"].(map[string]any) {
			got = append(got, k)
		}
		for i := range tc.typ.NumField() {
			name, _, _ := strings.Cut(tc.typ.Field(i).Tag.Get("json"), ",")
			want = append(want, name)
		}
		sort.Strings(got)
		sort.Strings(want)
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s: schema has %v, Go type has %v", tc.typ, got, want)
		}
	}
}

// TestLoadFixturesOrder: default.json first, then by name, then a legacy
// preview.json; a broken fixture is an error naming its file.
func TestLoadFixturesOrder(t *testing.T) {
	dir := t.TempDir()
	write := func(name, s string) {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("fixtures/b.json", `{"toolName":"b"}`)
	write("fixtures/a.json", `{"toolName":"a"}`)
	write("fixtures/default.json", `{"toolName":"d"}`)
	write("preview.json", `{"toolOutput":{"x":1},"callToolResponse":{"structuredContent":{"y":2}}}`)
	got, err := LoadFixtures(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, f := range got {
		names = append(names, f.Name)
	}
	if strings.Join(names, ",") != "default,a,b,preview" {
		t.Fatalf("order %v", names)
	}
	legacy := got[3].Fixture
	if legacy.ToolResult.StructuredContent["x"] != float64(1) || legacy.CallTool[AnyTool].StructuredContent["y"] != float64(2) {
		t.Errorf("preview.json converted to %+v", legacy)
	}
	write("fixtures/c.json", `{"toolname":"c"}`)
	if _, err := LoadFixtures(dir); err == nil || !strings.Contains(err.Error(), "c.json:1:2: error: unknown field \"toolname\"") {
		t.Errorf("broken fixture: %v", err)
	}
}

// TestExampleFixtures: every example widget ships fixtures that load, and
// each sets expectations for widgetd test.
func TestExampleFixtures(t *testing.T) {
	dirs, err := filepath.Glob("../widgets/*/widget.json")
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no example widgets: %v", err)
	}
	for _, cfg := range dirs {
		fx, err := LoadFixtures(filepath.Dir(cfg))
		if err != nil {
			t.Fatal(err)
		}
		if len(fx) == 0 {
			t.Errorf("%s: no fixtures", filepath.Dir(cfg))
		}
		for _, f := range fx {
			if f.Fixture.Expect == nil || len(f.Fixture.Expect.Text)+len(f.Fixture.Expect.Elements)+len(f.Fixture.Expect.Calls) == 0 {
				t.Errorf("%s: no expectations", f.File)
			}
		}
	}
}
