package config

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestLoadProject reads real widgetd.json files: each problem is reported at
// its field, in a fixed order (retain, limits, publicUrl, the build's own
// targets check, styles), and a valid file comes back decoded with its
// styles resolved.
func TestLoadProject(t *testing.T) {
	refuseES3 := func(targets []string) error {
		for _, tg := range targets {
			if tg == "es3" {
				return errors.New(`"es3" is not a target esbuild supports`)
			}
		}
		return nil
	}
	for _, tc := range []struct {
		name, json string
		want       string // the error's text, "" for none
	}{
		{"missing file", "", ""},
		{"unknown key", `{"outdir": "x"}`, `widgetd.json:1:2: error: unknown field "outdir"`},
		{"retain", `{"retain": -1}`, "widgetd.json:1:2: error: retain must be 1 or more"},
		{"allowOutside missing", `{"allowOutside": ["../nope"]}`, `widgetd.json:1:19: error: allowOutside "../nope": no such file or directory`},
		{"htmlBudget", `{"htmlBudget": -5}`, "widgetd.json:1:2: error: htmlBudget must be a positive number of bytes (default 1048576, 1 MiB)"},
		{"publicUrl", `{"publicUrl": "ftp://x"}`, `widgetd.json:1:2: error: public URL "ftp://x" must be an absolute http(s) URL`},
		{"targets through the build's check", `{"targets": ["es3"], "styles": ["gone.css"]}`, `widgetd.json:1:2: error: "es3" is not a target esbuild supports`},
		{"styles", `{"targets": ["es2020"], "styles": ["gone.css"]}`, `widgetd.json:1:36: error: styles[0] "gone.css": no such file or directory`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			if tc.json != "" {
				if err := os.WriteFile(filepath.Join(dir, "widgetd.json"), []byte(tc.json), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			_, err := LoadProject(dir, refuseES3)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("LoadProject: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(strings.ReplaceAll(err.Error(), filepath.Join(dir, "widgetd.json"), "widgetd.json"), tc.want)):
				t.Fatalf("LoadProject: %v\nwant %s", err, tc.want)
			}
		})
	}
}

// TestLoadProjectResolvesStyles: "styles" come back as real paths with the
// place widgetd.json names them, for the build's containment and messages.
func TestLoadProjectResolvesStyles(t *testing.T) {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	writeFiles(t, dir, "src/index.css")
	if err := os.WriteFile(filepath.Join(dir, "widgetd.json"), []byte("{\n  \"retain\": 2,\n  \"styles\": [\"src/index.css\"]\n}"), 0o644); err != nil {
		t.Fatal(err)
	}
	pc, err := LoadProject(dir, func([]string) error { return nil })
	if err != nil {
		t.Fatal(err)
	}
	if pc.Retain != 2 || len(pc.StyleRefs) != 1 {
		t.Fatalf("got %+v", pc)
	}
	r := pc.StyleRefs[0]
	if r.Spec != "src/index.css" || r.Path != filepath.Join(dir, "src", "index.css") || r.At.Line != 3 {
		t.Fatalf("style ref %+v", r)
	}
}

func TestParseProvider(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want ProviderSpec
		ok   bool
	}{
		{"@acme/kit#KitProvider", ProviderSpec{"@acme/kit", "KitProvider"}, true},
		{"./Provider.tsx", ProviderSpec{"./Provider.tsx", "default"}, true},
		{"kit#not-an-ident", ProviderSpec{}, false},
		{"#Export", ProviderSpec{}, false},
	} {
		got, ok := ParseProvider(tc.in)
		if got != tc.want || ok != tc.ok {
			t.Errorf("ParseProvider(%q) = %+v, %v; want %+v, %v", tc.in, got, ok, tc.want, tc.ok)
		}
	}
}

func TestProviderListUnmarshal(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want ProviderList
		err  bool
	}{
		{`"kit#P"`, ProviderList{{Use: "kit#P"}}, false},
		{`{"use": "kit", "props": {"a": 1}}`, ProviderList{{Use: "kit", Props: []byte(`{"a": 1}`)}}, false},
		{`["a", {"use": "b"}]`, ProviderList{{Use: "a"}, {Use: "b"}}, false},
		{`3`, nil, true},
	} {
		var got ProviderList
		err := got.UnmarshalJSON([]byte(tc.in))
		if (err != nil) != tc.err || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("UnmarshalJSON(%s) = %+v, %v; want %+v (error %v)", tc.in, got, err, tc.want, tc.err)
		}
	}
	if js := (Provider{Use: "x"}).PropsJS(); js != "null" {
		t.Errorf("PropsJS of no props = %q, want null", js)
	}
}
