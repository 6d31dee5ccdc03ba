package assets_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/widgetd/widgetd/assets"
)

func f64(v float64) *float64 { return &v }

func TestClientHintsFromMeta(t *testing.T) {
	for _, tc := range []struct {
		name string
		meta string // the request _meta as JSON, decoded as an SDK does
		want assets.ClientHints
	}{
		{"none", `null`, assets.ClientHints{}},
		{"every hint", `{"openai/locale":"en-US","openai/userAgent":"Mozilla/5.0","openai/subject":"u1","openai/session":"s1","openai/organization":"o1",
			"openai/userLocation":{"city":"San Francisco","region":"California","country":"US","timezone":"America/Los_Angeles","latitude":37.7749,"longitude":-122.4194}}`,
			assets.ClientHints{Locale: "en-US", UserAgent: "Mozilla/5.0", Subject: "u1", Session: "s1", Organization: "o1",
				Location: &assets.UserLocation{City: "San Francisco", Region: "California", Country: "US", Timezone: "America/Los_Angeles", Latitude: f64(37.7749), Longitude: f64(-122.4194)}}},
		{"coordinates as strings", `{"openai/userLocation":{"city":"San Carlos","latitude":"37.8","longitude":"-122.4"}}`,
			assets.ClientHints{Location: &assets.UserLocation{City: "San Carlos", Latitude: f64(37.8), Longitude: f64(-122.4)}}},
		{"bad coordinates", `{"openai/userLocation":{"latitude":"north","longitude":true}}`, assets.ClientHints{Location: &assets.UserLocation{}}},
		{"legacy locale", `{"webplus/i18n":"de-DE"}`, assets.ClientHints{Locale: "de-DE"}},
		{"current locale wins", `{"webplus/i18n":"de-DE","openai/locale":"fr-FR"}`, assets.ClientHints{Locale: "fr-FR"}},
		{"wrong types ignored", `{"openai/locale":1,"openai/userAgent":{"device":"x"},"openai/subject":null,"openai/userLocation":"Paris"}`, assets.ClientHints{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var meta map[string]any
			if err := json.Unmarshal([]byte(tc.meta), &meta); err != nil {
				t.Fatal(err)
			}
			if got := assets.ClientHintsFromMeta(meta); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("got %+v (location %+v), want %+v (location %+v)", got, got.Location, tc.want, tc.want.Location)
			}
		})
	}
}

// TestClientHintsTypedLocation: a location an in-process caller built as a
// Go value (not decoded JSON) is read through its JSON form.
func TestClientHintsTypedLocation(t *testing.T) {
	type loc struct {
		City     string  `json:"city"`
		Latitude float64 `json:"latitude"`
	}
	got := assets.ClientHintsFromMeta(map[string]any{"openai/userLocation": loc{"Oslo", 59.9}})
	if got.Location == nil || got.Location.City != "Oslo" || *got.Location.Latitude != 59.9 {
		t.Errorf("got %+v", got.Location)
	}
}

func TestSupportsUI(t *testing.T) {
	for _, tc := range []struct {
		name string
		ext  map[string]any
		want bool
	}{
		{"nil", nil, false},
		{"other extension", map[string]any{"io.example/x": map[string]any{"mimeTypes": []any{assets.MIMETypeMCPApp}}}, false},
		{"mcp-app", map[string]any{assets.ExtensionID: map[string]any{"mimeTypes": []any{"text/uri-list", assets.MIMETypeMCPApp}}}, true},
		{"typed value in process", map[string]any{assets.ExtensionID: map[string]any{"mimeTypes": []string{assets.MIMETypeMCPApp}}}, true},
		{"typed struct in process", map[string]any{assets.ExtensionID: struct {
			MimeTypes []string `json:"mimeTypes"`
		}{[]string{assets.MIMETypeMCPApp}}}, true},
		{"no mimeTypes (required by the spec)", map[string]any{assets.ExtensionID: map[string]any{}}, false},
		{"other MIME types only", map[string]any{assets.ExtensionID: map[string]any{"mimeTypes": []any{assets.MIMETypeSkybridge}}}, false},
		{"not an object", map[string]any{assets.ExtensionID: true}, false},
		{"mimeTypes not a list", map[string]any{assets.ExtensionID: map[string]any{"mimeTypes": assets.MIMETypeMCPApp}}, false},
	} {
		if got := assets.SupportsUI(tc.ext); got != tc.want {
			t.Errorf("%s: SupportsUI = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// FuzzClientHints feeds arbitrary request _meta JSON to ClientHintsFromMeta
// and SupportsUI: no panic, and the same answer twice.
func FuzzClientHints(f *testing.F) {
	for _, s := range []string{`{}`, `{"openai/locale":"en","openai/userLocation":{"latitude":"1e400","longitude":-0}}`,
		`{"io.modelcontextprotocol/ui":{"mimeTypes":["text/html;profile=mcp-app"]}}`, `{"openai/userLocation":[1,2]}`, `{"webplus/i18n":["x"]}`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var meta map[string]any
		if json.Unmarshal([]byte(s), &meta) != nil {
			return
		}
		a, b := assets.ClientHintsFromMeta(meta), assets.ClientHintsFromMeta(meta)
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("two reads differ: %+v %+v", a, b)
		}
		if assets.SupportsUI(meta) != assets.SupportsUI(meta) {
			t.Fatal("SupportsUI not deterministic")
		}
	})
}
