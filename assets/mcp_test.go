package assets_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/assets"
)

func TestResources(t *testing.T) {
	reg, d := load(t)
	list := reg.Resources(assets.Client{})
	if len(list) != 4 {
		t.Fatalf("Resources() = %d entries, want 4", len(list))
	}
	for i, e := range list {
		w := d.Manifest.Widgets[i/2]
		p := w.Profiles[i%2]
		if e.URI != p.URI || e.MIMEType != p.MIMEType || e.Title != w.Title || e.Description != w.Description {
			t.Errorf("entry %d = %+v, want uri %s mime %s", i, e, p.URI, p.MIMEType)
		}
		var want map[string]any // the listMeta as a JSON decoder gives it, which an SDK map must equal
		if data, err := json.Marshal(p.ListMeta); err != nil || json.Unmarshal(data, &want) != nil {
			t.Fatalf("entry %d: listMeta does not round-trip through JSON: %v", i, err)
		}
		if !reflect.DeepEqual(e.Meta, want) {
			t.Errorf("entry %d meta = %v, want the manifest listMeta %v", i, e.Meta, want)
		}
		assertBothShapes(t, e.URI, e.Meta)
	}
	// Entries are copies: changing one must not change the registry.
	list[0].Meta["ui"].(map[string]any)["domain"] = "changed"
	if again := reg.Resources(assets.Client{}); again[0].Meta["ui"].(map[string]any)["domain"] == "changed" {
		t.Error("Resources shares _meta maps with the registry")
	}
}

func assertBothShapes(t *testing.T, uri string, m map[string]any) {
	t.Helper()
	ui, ok := m["ui"].(map[string]any)
	if !ok {
		t.Fatalf("%s: _meta has no ui object: %v", uri, m)
	}
	if _, ok := ui["csp"].(map[string]any); !ok {
		t.Errorf("%s: _meta.ui.csp missing", uri)
	}
	if _, ok := m["openai/widgetCSP"].(map[string]any); !ok {
		t.Errorf("%s: openai/widgetCSP missing", uri)
	}
	if _, ok := m["openai/widgetPrefersBorder"]; !ok {
		t.Errorf("%s: openai/widgetPrefersBorder missing", uri)
	}
}

func TestRead(t *testing.T) {
	reg, d := load(t)
	counter := d.Manifest.Widgets[1]
	cur, err := readFile(d.Dir, counter.HTML)
	if err != nil {
		t.Fatal(err)
	}
	old, err := readFile(d.Dir, d.OldHTML)
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		uri, mime, text string
	}{
		{counter.Profiles[0].URI, assets.MIMETypeMCPApp, cur},
		{counter.Profiles[1].URI, assets.MIMETypeSkybridge, cur},
		{"ui://widget/counter.html", assets.MIMETypeMCPApp, cur},
		{"ui://widget/counter.skybridge.html", assets.MIMETypeSkybridge, cur},
		{d.OldURIs[0], assets.MIMETypeMCPApp, old},
		{d.OldURIs[1], assets.MIMETypeSkybridge, old},
	}
	for _, tc := range tests {
		c, err := reg.Read(tc.uri, assets.Client{})
		if err != nil {
			t.Errorf("Read(%s): %v", tc.uri, err)
			continue
		}
		if c.URI != tc.uri || c.MIMEType != tc.mime || c.Text != tc.text {
			t.Errorf("Read(%s) = uri %s mime %s text %.40q", tc.uri, c.URI, c.MIMEType, c.Text)
		}
		assertBothShapes(t, tc.uri, c.Meta)
	}
	if _, err := reg.Read("ui://widget/nope.html", assets.Client{}); !errors.Is(err, assets.ErrNotFound) {
		t.Errorf("Read(unknown) error = %v, want ErrNotFound", err)
	}
}

func TestReadPerHost(t *testing.T) {
	const connector = "https://mcp.example.com/mcp"
	reg, d := load(t, assets.WithConnectorURL(connector))
	uri := d.Manifest.Widgets[0].Profiles[0].URI
	declared := "https://chart.widgets.example.com"
	tests := []struct {
		name   string
		client assets.Client
		domain any // nil: ui.domain absent
	}{
		{"unknown client keeps manifest", assets.Client{Name: "some-host"}, declared},
		{"claude gets hash domain", assets.Client{Name: "claude-ai"}, assets.ClaudeDomain(connector)},
		{"claude per-request connector", assets.Client{Name: "claude-ai", ConnectorURL: "https://other.example/mcp"}, assets.ClaudeDomain("https://other.example/mcp")},
		{"chatgpt keeps origin", assets.Client{Name: "openai-mcp"}, declared},
		{"forced host", assets.Client{Name: "x", Host: assets.HostClaude}, assets.ClaudeDomain(connector)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c, err := reg.Read(uri, tc.client)
			if err != nil {
				t.Fatal(err)
			}
			if got := c.Meta["ui"].(map[string]any)["domain"]; got != tc.domain {
				t.Errorf("ui.domain = %v, want %v", got, tc.domain)
			}
			if got := c.Meta["openai/widgetDomain"]; got != declared {
				t.Errorf("openai/widgetDomain = %v, want %v", got, declared)
			}
		})
	}
	// Without any connector URL Claude must not see a domain it rejects.
	reg2, _ := load(t)
	c, _ := reg2.Read(uri, assets.Client{Name: "claude-ai"})
	if _, ok := c.Meta["ui"].(map[string]any)["domain"]; ok {
		t.Error("claude without connector URL still gets ui.domain")
	}
	// sha256("https://mcp.example.com/mcp")[:32], computed independently.
	if got := assets.ClaudeDomain(connector); !strings.HasSuffix(got, ".claudemcpcontent.com") || len(got) != 32+len(".claudemcpcontent.com") {
		t.Errorf("ClaudeDomain = %q", got)
	}
}

func TestAssetBase(t *testing.T) {
	reg, d := load(t)
	chart := d.Manifest.Widgets[0]
	pub := d.Manifest.PublicURL // https://cdn.example.com/widgets
	c, err := reg.Read(chart.Profiles[0].URI, assets.Client{AssetBase: "https://abc.trycloudflare.com/w"})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(c.Text, pub+"/") || !strings.Contains(c.Text, `src="https://abc.trycloudflare.com/w/assets/chart-`) {
		t.Errorf("HTML not rebased:\n%s", c.Text)
	}
	res := c.Meta["ui"].(map[string]any)["csp"].(map[string]any)["resourceDomains"]
	if !reflect.DeepEqual(res, []any{"https://abc.trycloudflare.com"}) {
		t.Errorf("ui.csp.resourceDomains = %v", res)
	}
	res = c.Meta["openai/widgetCSP"].(map[string]any)["resource_domains"]
	if !reflect.DeepEqual(res, []any{"https://abc.trycloudflare.com"}) {
		t.Errorf("openai/widgetCSP.resource_domains = %v", res)
	}
	// The default is untouched.
	c, _ = reg.Read(chart.Profiles[0].URI, assets.Client{})
	if !strings.Contains(c.Text, pub+"/assets/") {
		t.Error("default read lost the public URL")
	}
}

func TestBaseURL(t *testing.T) {
	tests := []struct {
		name string
		b    assets.BaseURL
		host string
		hdr  map[string]string
		want string
	}{
		{"plain", assets.BaseURL{Path: "/widgets"}, "localhost:8080", nil, "http://localhost:8080/widgets"},
		{"root path", assets.BaseURL{}, "localhost:8080", nil, "http://localhost:8080"},
		{"forwarded ignored by default", assets.BaseURL{}, "localhost:8080", map[string]string{"X-Forwarded-Host": "evil.example"}, "http://localhost:8080"},
		{"forwarded trusted", assets.BaseURL{TrustForwarded: true, Path: "/w"}, "localhost:8080",
			map[string]string{"X-Forwarded-Host": "abc.ngrok.app, proxy", "X-Forwarded-Proto": "https", "X-Forwarded-Prefix": "/app/"}, "https://abc.ngrok.app/app/w"},
		{"bad forwarded host", assets.BaseURL{TrustForwarded: true}, "localhost", map[string]string{"X-Forwarded-Host": "a/b@c"}, "http://localhost"},
		{"bad forwarded prefix", assets.BaseURL{TrustForwarded: true}, "localhost", map[string]string{"X-Forwarded-Prefix": "/../x"}, "http://localhost"},
		{"override wins", assets.BaseURL{Override: "https://cdn.example/x/", TrustForwarded: true}, "localhost", map[string]string{"X-Forwarded-Host": "a"}, "https://cdn.example/x"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequest("GET", "http://"+tc.host+"/mcp", nil)
			r.Header = http.Header{}
			for k, v := range tc.hdr {
				r.Header.Set(k, v)
			}
			if got := tc.b.Resolve(r); got != tc.want {
				t.Errorf("Resolve = %q, want %q", got, tc.want)
			}
		})
	}
	if got := (assets.BaseURL{}).FromHeader(http.Header{}, "", false); got != "" {
		t.Errorf("FromHeader without host = %q, want empty", got)
	}
}

func TestToolMeta(t *testing.T) {
	reg, d := load(t)
	counter := d.Manifest.Widgets[1]
	m, err := reg.ToolMeta("counter", assets.ToolOptions{Invoking: "Counting…", Invoked: "Counted"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{
		"ui":                             map[string]any{"resourceUri": counter.Profiles[0].URI},
		"ui/resourceUri":                 counter.Profiles[0].URI,
		"openai/outputTemplate":          counter.Profiles[1].URI,
		"openai/widgetAccessible":        true,
		"openai/visibility":              "public",
		"openai/toolInvocation/invoking": "Counting…",
		"openai/toolInvocation/invoked":  "Counted",
	}
	if !reflect.DeepEqual(m, want) {
		t.Errorf("ToolMeta =\n%v\nwant\n%v", m, want)
	}
	for _, key := range []string{"ui/resourceUri", "openai/outputTemplate"} {
		if _, err := reg.Read(m[key].(string), assets.Client{}); err != nil {
			t.Errorf("%s points at an unreadable resource: %v", key, err)
		}
	}

	m, err = reg.ToolMeta("counter", assets.ToolOptions{Visibility: []string{assets.VisibilityApp}})
	if err != nil {
		t.Fatal(err)
	}
	if m["openai/visibility"] != "private" || m["openai/widgetAccessible"] != true ||
		!reflect.DeepEqual(m["ui"].(map[string]any)["visibility"], []any{"app"}) {
		t.Errorf("app-only ToolMeta = %v", m)
	}
	m, _ = reg.ToolMeta("counter", assets.ToolOptions{Visibility: []string{assets.VisibilityModel}})
	if m["openai/visibility"] != "public" || m["openai/widgetAccessible"] != false {
		t.Errorf("model-only ToolMeta = %v", m)
	}

	for _, tc := range []struct {
		name   string
		widget string
		o      assets.ToolOptions
		want   string
	}{
		{"unknown widget", "nope", assets.ToolOptions{}, "not found"},
		{"invoking too long", "counter", assets.ToolOptions{Invoking: strings.Repeat("a", 65)}, "65 characters"},
		{"invoked too long", "counter", assets.ToolOptions{Invoked: strings.Repeat("é", 65)}, "65 characters"},
		{"bad visibility", "counter", assets.ToolOptions{Visibility: []string{"user"}}, `"user"`},
		{"empty visibility", "counter", assets.ToolOptions{Visibility: []string{}}, "visibility"},
	} {
		if _, err := reg.ToolMeta(tc.widget, tc.o); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want mention of %q", tc.name, err, tc.want)
		}
	}
	if _, err := reg.ToolMeta("counter", assets.ToolOptions{Invoking: strings.Repeat("é", 64)}); err != nil {
		t.Errorf("64 characters rejected: %v", err)
	}
}
