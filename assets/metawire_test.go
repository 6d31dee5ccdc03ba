package assets_test

import (
	"context"
	"encoding/json"
	"flag"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/assets/assetstest"
	"github.com/widgetd/widgetd/bundler"
	"github.com/widgetd/widgetd/internal/golden"
)

var update = flag.Bool("update", false, "write testdata/wire/*.json (only for a new case: a changed golden means the _meta on the wire changed)")

// wireClients are the requesters the wire goldens answer: every host family,
// with and without a connector URL and an asset base.
var wireClients = []struct {
	name string
	c    assets.Client
}{
	{"zero", assets.Client{}},
	{"generic", assets.Client{Name: "mcp-inspector"}},
	{"claude", assets.Client{Name: "claude-ai"}},
	{"claude-connector", assets.Client{Name: "claude-ai", ConnectorURL: "https://mcp.example.com/mcp"}},
	{"chatgpt", assets.Client{Name: "openai-mcp"}},
	{"chatgpt-forced-asset-base", assets.Client{Host: assets.HostChatGPT, AssetBase: "https://edge.example.net/assets/"}},
	{"claude-asset-base-same-origin", assets.Client{Name: "claude-ai", AssetBase: "https://cdn.example.com/other"}},
	{"generic-asset-base", assets.Client{Name: "vscode", AssetBase: "http://localhost:9000"}},
}

// wireTools are the ToolOptions the wire goldens answer.
var wireTools = []struct {
	name string
	o    assets.ToolOptions
}{
	{"default", assets.ToolOptions{}},
	{"status", assets.ToolOptions{Invoking: "Working…", Invoked: "Done"}},
	{"app-only", assets.ToolOptions{Visibility: []string{assets.VisibilityApp}}},
	{"model-only", assets.ToolOptions{Visibility: []string{assets.VisibilityModel}, Invoked: "Done"}},
	{"both", assets.ToolOptions{Visibility: []string{assets.VisibilityApp, assets.VisibilityModel}}},
	{"empty-visibility", assets.ToolOptions{Visibility: []string{}}},
	{"bad-visibility", assets.ToolOptions{Visibility: []string{"user"}}},
	{"too-long", assets.ToolOptions{Invoking: strings.Repeat("x", 65)}},
	{"file-params", assets.ToolOptions{FileParams: []string{"photo", "attachments"}}},
	{"oauth", assets.ToolOptions{SecuritySchemes: []assets.SecurityScheme{{Type: assets.SecurityNoAuth}, {Type: assets.SecurityOAuth2, Scopes: []string{"search.read"}}}}},
	{"every-field", assets.ToolOptions{Visibility: []string{assets.VisibilityModel}, Invoking: "Working…", Invoked: "Done",
		FileParams: []string{"photo"}, SecuritySchemes: []assets.SecurityScheme{{Type: assets.SecurityOAuth2, Scopes: []string{"a", "b"}}}}},
	{"bad-scheme", assets.ToolOptions{SecuritySchemes: []assets.SecurityScheme{{Type: "apikey"}}}},
	{"noauth-with-scopes", assets.ToolOptions{SecuritySchemes: []assets.SecurityScheme{{Type: assets.SecurityNoAuth, Scopes: []string{"x"}}}}},
	{"file-param-twice", assets.ToolOptions{FileParams: []string{"f", "f"}}},
	{"file-param-empty", assets.ToolOptions{FileParams: []string{""}}},
}

var wireHash = regexp.MustCompile(`\.[0-9a-f]{16}\.`)

// TestWireMeta pins the exact JSON of every resources/list entry, every
// resources/read content item (hashed, alias and retained URIs) and every
// tool _meta, per client and registry option, for a real inline build, a
// real external build and the assetstest dist. A diff here means the _meta a
// host receives changed.
func TestWireMeta(t *testing.T) {
	ext := t.TempDir()
	b, err := bundler.New(bundler.Options{Root: "..", OutDir: ext, PublicURL: "https://cdn.example.com/w/", NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Build(context.Background()); err != nil {
		t.Fatalf("build: %v", err)
	}
	d, err := assetstest.Write(t.TempDir(), assetstest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// A widget declaring every CSP list, the draft csp.wasmUnsafeEval and
	// every permission (the draft tools too): each reaches both shapes.
	declared := t.TempDir()
	db, err := bundler.New(bundler.Options{Root: filepath.Join("testdata", "wireproject"), OutDir: declared, NoCache: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Build(context.Background()); err != nil {
		t.Fatalf("build the declared widget: %v", err)
	}
	for _, tc := range []struct{ name, dir string }{
		{"examples-inline", realDist},
		{"examples-ext", ext},
		{"assetstest", d.Dir},
		{"declared", declared},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out strings.Builder
			for _, opt := range []struct {
				name string
				opts []assets.Option
			}{
				{"defaults", nil},
				{"with-connector-and-asset-base", []assets.Option{assets.WithConnectorURL("https://srv.example.com/mcp"), assets.WithAssetBase("https://assets.example.org/base")}},
			} {
				reg, err := assets.Load(os.DirFS(tc.dir), opt.opts...)
				if err != nil {
					t.Fatal(err)
				}
				dumpWire(t, &out, opt.name, reg)
			}
			golden.Check(t, filepath.Join("testdata", "wire", tc.name+".txt"), []byte(wireHash.ReplaceAllString(out.String(), ".HASH.")), *update)
		})
	}
}

func dumpWire(t *testing.T, out *strings.Builder, opt string, reg *assets.Registry) {
	t.Helper()
	line := func(label string, v any) {
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		out.WriteString(opt + " " + label + " " + string(data) + "\n")
	}
	var uris []string
	for _, w := range reg.Manifest().Widgets {
		for _, p := range w.Profiles {
			uris = append(uris, p.URI, p.AliasURI)
		}
	}
	for _, b := range reg.Manifest().Builds[1:] {
		for _, name := range slices.Sorted(maps.Keys(b.Widgets)) {
			uris = append(uris, b.Widgets[name].URIs...)
		}
	}
	for _, cl := range wireClients {
		line("list "+cl.name, reg.Resources(cl.c))
		for _, u := range uris {
			c, err := reg.Read(u, cl.c)
			if err != nil {
				t.Fatal(err)
			}
			c.Text = "" // the HTML is the handler tests' business; only _meta and the URI are pinned here
			line("read "+cl.name+" "+u, c)
		}
	}
	for _, w := range reg.Widgets() {
		for _, tool := range wireTools {
			m, err := reg.ToolMeta(w, tool.o)
			if err != nil {
				line("tool "+w+" "+tool.name+" error", err.Error())
				continue
			}
			line("tool "+w+" "+tool.name, m)
		}
	}
}

// TestWireMetaUnknownKeys: keys a newer bundler may add to a _meta object
// (at the top, in ui, in either CSP shape) reach the wire unchanged, because
// listMeta and readMeta are "the exact _meta object" (docs/manifest.md).
func TestWireMetaUnknownKeys(t *testing.T) {
	d := assetstest.New(t, assetstest.Options{})
	var man map[string]any // the manifest as plain JSON, as a Python server reads it
	if raw, err := readFile(d.Dir, assets.ManifestFile); err != nil || json.Unmarshal([]byte(raw), &man) != nil {
		t.Fatalf("read manifest: %v", err)
	}
	for _, w := range man["widgets"].([]any) {
		for _, p := range w.(map[string]any)["profiles"].([]any) {
			for _, key := range []string{"listMeta", "readMeta"} {
				m := p.(map[string]any)[key].(map[string]any)
				m["openai/widgetFuture"] = map[string]any{"z": []any{1.5, "a<b"}, "a": nil}
				m["a/first"] = true
				ui := m["ui"].(map[string]any)
				ui["futureDomains"] = []any{"https://links.example.com"}
				ui["csp"].(map[string]any)["futureEval"] = true
				m["openai/widgetCSP"].(map[string]any)["future_domains"] = []any{"https://base.example.com"}
			}
		}
	}
	raw, _ := json.Marshal(man)
	write(t, d, assets.ManifestFile, string(raw))
	reg, err := assets.Load(os.DirFS(d.Dir))
	if err != nil {
		t.Fatal(err)
	}
	widgets := man["widgets"].([]any)
	for i, e := range reg.Resources(assets.Client{}) {
		p := widgets[i/2].(map[string]any)["profiles"].([]any)[i%2].(map[string]any)
		if want := p["listMeta"]; !reflect.DeepEqual(e.Meta, want) {
			t.Errorf("%s: list _meta =\n%v\nwant\n%v", e.URI, e.Meta, want)
		}
		c, err := reg.Read(e.URI, assets.Client{})
		if err != nil {
			t.Fatal(err)
		}
		if want := p["readMeta"]; !reflect.DeepEqual(c.Meta, want) {
			t.Errorf("%s: read _meta =\n%v\nwant\n%v", e.URI, c.Meta, want)
		}
	}
	// The manifest a Registry holds writes the keys back in byte order.
	got, err := json.Marshal(reg.Manifest().Widgets[0].Profiles[0].ListMeta)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := json.Marshal(widgets[0].(map[string]any)["profiles"].([]any)[0].(map[string]any)["listMeta"])
	if string(got) != string(want) {
		t.Errorf("listMeta re-encoded =\n%s\nwant\n%s", got, want)
	}
}
