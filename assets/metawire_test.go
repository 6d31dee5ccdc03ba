package assets_test

import (
	"context"
	"encoding/json"
	"flag"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/assets/assetstest"
	"github.com/widgetd/widgetd/bundler"
)

var writeWire = flag.Bool("write-wire", false, "write testdata/wire/*.json (only for a new case: a changed golden means the _meta on the wire changed)")

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
	for _, tc := range []struct{ name, dir string }{
		{"examples-inline", realDist},
		{"examples-ext", ext},
		{"assetstest", d.Dir},
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
			compareWire(t, filepath.Join("testdata", "wire", tc.name+".txt"), wireHash.ReplaceAllString(out.String(), ".HASH."))
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

func compareWire(t *testing.T, file, got string) {
	t.Helper()
	if *writeWire {
		if err := os.WriteFile(file, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("%s line %d:\n got %s\nwant %s", file, i+1, gl[i], wl[i])
			}
		}
		t.Fatalf("%s: %d lines, want %d", file, len(gl), len(wl))
	}
}
