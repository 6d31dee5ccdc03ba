package audit

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/assets"
)

// The registry is what adapters pass as Resources.
var _ Resources = (*assets.Registry)(nil)

const goodFileSchema = `{"type":"object","properties":{"download_url":{"type":"string"},"file_id":{"type":"string"},"mime_type":{"type":"string"},"file_name":{"type":"string"}},"required":["download_url","file_id"]}`

func TestCheckTool(t *testing.T) {
	uris := URIList{"ui://widget/hello.abc.html", "ui://widget/hello.html", "ui://widget/hello.abc.skybridge.html"}
	ann := `"annotations":{"readOnlyHint":true,"destructiveHint":false,"openWorldHint":false},"outputSchema":{"type":"object"}`
	noOut := `"annotations":{"readOnlyHint":true,"destructiveHint":false,"openWorldHint":false}`
	oauth := `[{"type":"noauth"},{"type":"oauth2","scopes":["a.read"]}]`
	tests := []struct {
		name string
		tool string
		want []string // rule IDs, in order
	}{
		{"clean", `{"name":"t",` + ann + `,"_meta":{"ui":{"resourceUri":"ui://widget/hello.abc.html"},"ui/resourceUri":"ui://widget/hello.abc.html","openai/outputTemplate":"ui://widget/hello.abc.skybridge.html","openai/toolInvocation/invoking":"` + strings.Repeat("é", 64) + `"}}`, nil},
		{"no widget at all", `{"name":"t",` + ann + `}`, nil},
		{"invoking too long", `{"name":"t",` + ann + `,"_meta":{"openai/toolInvocation/invoked":"` + strings.Repeat("x", 65) + `"}}`, []string{RuleToolInvocationTooLong}},
		{"invoking not a string", `{"name":"t",` + ann + `,"_meta":{"openai/toolInvocation/invoking":3}}`, []string{RuleToolMetaInvalid}},
		{"unknown uri", `{"name":"t",` + ann + `,"_meta":{"ui":{"resourceUri":"ui://widget/gone.html"}}}`, []string{RuleToolResourceUnknown}},
		{"not ui scheme", `{"name":"t",` + ann + `,"_meta":{"openai/outputTemplate":"https://x.example/w.html"}}`, []string{RuleToolResourceUnknown}},
		{"mismatch", `{"name":"t",` + ann + `,"_meta":{"ui":{"resourceUri":"ui://widget/hello.abc.html"},"ui/resourceUri":"ui://widget/hello.html"}}`, []string{RuleToolResourceMismatch}},
		{"annotations missing", `{"name":"t","annotations":{"readOnlyHint":true}}`, []string{RuleToolAnnotationsMissing}},
		{"annotation not bool", `{"name":"t","annotations":{"readOnlyHint":"yes","destructiveHint":false,"openWorldHint":false}}`, []string{RuleToolMetaInvalid}},
		{"file params ok", `{"name":"t",` + ann + `,"inputSchema":{"type":"object","properties":{"f":` + goodFileSchema + `,"g":{"type":"array","items":` + goodFileSchema + `}}},"_meta":{"openai/fileParams":["f","g"]}}`, nil},
		{"file params missing field", `{"name":"t",` + ann + `,"inputSchema":{"type":"object","properties":{}},"_meta":{"openai/fileParams":["f"]}}`, []string{RuleToolFileParamsSchema}},
		{"file params lacks props", `{"name":"t",` + ann + `,"inputSchema":{"type":"object","properties":{"f":{"type":"object","properties":{"download_url":{},"file_id":{}},"required":["download_url","file_id"]}}},"_meta":{"openai/fileParams":["f"]}}`, []string{RuleToolFileParamsSchema}},
		{"file params requires too much", `{"name":"t",` + ann + `,"inputSchema":{"type":"object","properties":{"f":{"type":"object","properties":{"download_url":{},"file_id":{},"mime_type":{},"file_name":{}},"required":["download_url","file_id","file_name"]}}},"_meta":{"openai/fileParams":["f"]}}`, []string{RuleToolFileParamsSchema}},
		{"widget without outputSchema", `{"name":"t",` + noOut + `,"_meta":{"ui":{"resourceUri":"ui://widget/hello.abc.html"}}}`, []string{RuleToolOutputSchemaMissing}},
		{"no widget, no outputSchema", `{"name":"t",` + noOut + `}`, nil},
		{"security schemes both places", `{"name":"t",` + ann + `,"securitySchemes":` + oauth + `,"_meta":{"securitySchemes":` + oauth + `}}`, nil},
		{"security schemes mirror only", `{"name":"t",` + ann + `,"_meta":{"securitySchemes":` + oauth + `}}`, nil},
		{"security schemes differ", `{"name":"t",` + ann + `,"securitySchemes":[{"type":"noauth"}],"_meta":{"securitySchemes":` + oauth + `}}`, []string{RuleToolSecuritySchemes}},
		{"security scheme unknown type", `{"name":"t",` + ann + `,"securitySchemes":[{"type":"apikey"}]}`, []string{RuleToolSecuritySchemes}},
		{"security scheme noauth with scopes", `{"name":"t",` + ann + `,"_meta":{"securitySchemes":[{"type":"noauth","scopes":["x"]}]}}`, []string{RuleToolSecuritySchemes}},
		{"security scopes not strings", `{"name":"t",` + ann + `,"_meta":{"securitySchemes":[{"type":"oauth2","scopes":[1]}]}}`, []string{RuleToolSecuritySchemes}},
		{"security schemes not array", `{"name":"t",` + ann + `,"securitySchemes":{"type":"noauth"}}`, []string{RuleToolSecuritySchemes}},
		{"security scheme not object", `{"name":"t",` + ann + `,"securitySchemes":["noauth"]}`, []string{RuleToolSecuritySchemes}},
		{"file params not array", `{"name":"t",` + ann + `,"_meta":{"openai/fileParams":"f"}}`, []string{RuleToolMetaInvalid}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tool, err := ParseTool([]byte(tc.tool))
			if err != nil {
				t.Fatal(err)
			}
			fs := CheckTool(tool, uris)
			var got []string
			for _, f := range fs {
				got = append(got, f.Rule)
				if f.Subject != "tool t" || f.Message == "" || f.Fix == "" || f.Offset != -1 {
					t.Errorf("malformed finding %+v", f)
				}
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("rules = %v, want %v\n%v", got, tc.want, fs)
			}
		})
	}
}

func TestCheckToolNilResourcesSkipsResolution(t *testing.T) {
	tool, _ := ParseTool([]byte(`{"name":"t","annotations":{"readOnlyHint":true,"destructiveHint":false,"openWorldHint":false},"outputSchema":{"type":"object"},"_meta":{"ui":{"resourceUri":"ui://widget/any.html"}}}`))
	if fs := CheckTool(tool, nil); len(fs) != 0 {
		t.Fatalf("findings without a resource list: %v", fs)
	}
	if fs := CheckTools([]Tool{tool, tool}, URIList{}); len(fs) != 2 {
		t.Fatalf("CheckTools: %v", fs)
	}
}

func TestFindingStringAndJSON(t *testing.T) {
	f := Finding{Subject: "hello", Rule: "r", Severity: Warning, Message: "m", Fix: "x", File: "a.js", Offset: 0}
	if got, want := f.String(), "hello: r: warning: a.js:0: m (x)"; got != want {
		t.Errorf("String = %q, want %q", got, want)
	}
	data, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	var back Finding
	if err := json.Unmarshal(data, &back); err != nil || back != f {
		t.Fatalf("round trip: %s -> %+v, %v", data, back, err)
	}
	if !strings.Contains(string(data), `"severity":"warning"`) {
		t.Errorf("severity not a name: %s", data)
	}
}

// TestNoHeavyDeps keeps the package usable from a small MCP server: it must
// not pull in esbuild or minify, directly or not.
func TestNoHeavyDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 5 {
		t.Fatalf("go list printed too little to trust: %q", out)
	}
	for _, d := range deps {
		if strings.Contains(d, "evanw/esbuild") || strings.Contains(d, "tdewolff/minify") || strings.Contains(d, "tdewolff/parse") {
			t.Errorf("audit depends on %s", d)
		}
	}
}

// TestWidgetURIs: each link key counts, duplicates collapse, values of the
// wrong type and empty strings are left out.
func TestWidgetURIs(t *testing.T) {
	for _, tc := range []struct {
		name, meta, want string
	}{
		{"all three agree", `{"ui":{"resourceUri":"ui://widget/a.html"},"ui/resourceUri":"ui://widget/a.html","openai/outputTemplate":"ui://widget/a.html"}`, "ui://widget/a.html"},
		{"each differs", `{"ui":{"resourceUri":"ui://widget/c.html"},"ui/resourceUri":"ui://widget/b.html","openai/outputTemplate":"https://x/a.html"}`, "https://x/a.html ui://widget/b.html ui://widget/c.html"},
		{"wrong types and empty", `{"ui":"ui://widget/a.html","ui/resourceUri":7,"openai/outputTemplate":""}`, ""},
		{"no links", `{"openai/toolInvocation/invoking":"…"}`, ""},
	} {
		tool, err := ParseTool([]byte(`{"name":"t","_meta":` + tc.meta + `}`))
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(WidgetURIs(tool), " "); got != tc.want {
			t.Errorf("%s: WidgetURIs = %q, want %q", tc.name, got, tc.want)
		}
	}
}
