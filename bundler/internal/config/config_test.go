package config

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/bundler/layout"
	"github.com/widgetd/widgetd/diag"
	"github.com/widgetd/widgetd/internal/testfiles"
)

// writeFiles creates empty files (slash paths) below dir.
func writeFiles(t testing.TB, dir string, names ...string) {
	t.Helper()
	for _, name := range names {
		testfiles.WriteFile(t, filepath.Join(dir, filepath.FromSlash(name)), "")
	}
}

func FuzzWidgetConfig(f *testing.F) {
	for _, s := range []string{`{}`, `{"name":"a","csp":{"connectDomains":["https://x.com"]}}`, `{"permissions":{"camera":true}}`, `[`, `{"a":`, "{\"title\":\"\xff\"}", `{"profiles":["mcp-app","skybridge"]}`,
		`{"styles":["a.css"]}`, `{"styles":["a.css","./a.css"]}`, `{"styles":["sub/b.CSS","index.ts",""]}`, `{"styles":["/a.css"]}`, `{"styles":"a.css"}`} {
		f.Add([]byte(s))
	}
	dir := f.TempDir()
	writeFiles(f, dir, "index.ts", "a.css", "sub/b.CSS", "sub/dir.css/x")
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, layout.WidgetConfigFile), data, 0o644); err != nil {
			t.Fatal(err)
		}
		w, err := LoadWidget(dir, "w", "")
		if err != nil {
			if diag.FromError(err) == nil {
				t.Fatalf("error without a diagnostic: %v", err)
			}
			return
		}
		if !nameRE.MatchString(w.Config.Name) || w.Policy == nil || len(w.Profiles) == 0 {
			t.Fatalf("accepted an invalid config: %+v", w.Config)
		}
		seen := map[string]bool{}
		for _, r := range w.Styles {
			st, err := os.Stat(r.Path)
			if err != nil || st.IsDir() || !strings.EqualFold(filepath.Ext(r.Path), ".css") || seen[r.Path] || r.At.Line < 1 {
				t.Fatalf("accepted style %q (%s, line %d): %v", r.Spec, r.Path, r.At.Line, err)
			}
			seen[r.Path] = true
		}
	})
}

// TestSchemasMatchConfig keeps the shipped JSON Schemas in step with the
// fields the loader accepts.
func TestSchemasMatchConfig(t *testing.T) {
	for _, tc := range []struct {
		file string
		path []string
		keys []string
	}{
		{"../../../widget.schema.json", nil, widgetKeys},
		{"../../../widget.schema.json", []string{"csp"}, cspKeys},
		{"../../../widget.schema.json", []string{"permissions"}, permissionKeys},
		{"../../../widgetd.schema.json", nil, projectKeys},
	} {
		data, err := os.ReadFile(tc.file)
		if err != nil {
			t.Fatal(err)
		}
		var node map[string]any
		if err := json.Unmarshal(data, &node); err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		for _, p := range tc.path {
			node = node["properties"].(map[string]any)[p].(map[string]any)
		}
		if node["additionalProperties"] != false {
			t.Errorf("%s %v: additionalProperties must be false", tc.file, tc.path)
		}
		var got []string
		for k := range node["properties"].(map[string]any) {
			got = append(got, k)
		}
		want := append([]string(nil), tc.keys...)
		sort.Strings(got)
		sort.Strings(want)
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("%s %v: schema has %v, loader accepts %v", tc.file, tc.path, got, want)
		}
	}
}
