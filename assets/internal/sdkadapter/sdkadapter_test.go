package sdkadapter

import (
	"context"
	"net/http"
	"testing"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/assets/assetstest"
)

func TestClientFor(t *testing.T) {
	fwd := http.Header{"X-Forwarded-Host": {"edge.example.net"}, "X-Forwarded-Proto": {"https"}}
	custom := func(_ context.Context, name string, h http.Header) assets.Client {
		return assets.Client{Name: "custom:" + name, AssetBase: h.Get("X-Base")}
	}
	for _, tc := range []struct {
		name string
		o    *Options
		h    http.Header
		want assets.Client
	}{
		{"nil options", nil, fwd, assets.Client{Name: "claude-ai"}},
		{"zero options", &Options{}, fwd, assets.Client{Name: "claude-ai"}},
		{"untrusted forwarded headers", &Options{AssetBase: &assets.BaseURL{}}, fwd, assets.Client{Name: "claude-ai"}},
		{"trusted forwarded headers", &Options{AssetBase: &assets.BaseURL{TrustForwarded: true, Path: "/w"}}, fwd, assets.Client{Name: "claude-ai", AssetBase: "https://edge.example.net/w"}},
		{"custom mapping wins", &Options{AssetBase: &assets.BaseURL{TrustForwarded: true}, Client: custom}, http.Header{"X-Base": {"b"}}, assets.Client{Name: "custom:claude-ai", AssetBase: "b"}},
	} {
		if got := ClientFor(context.Background(), tc.o, "claude-ai", tc.h); got != tc.want {
			t.Errorf("%s: ClientFor = %+v, want %+v", tc.name, got, tc.want)
		}
	}
}

func TestListMeta(t *testing.T) {
	reg, _ := assetstest.Load(t, assetstest.Options{})
	c := assets.Client{Name: "claude-ai", ConnectorURL: "https://mcp.example.com/mcp"}
	byURI := ListMeta(reg, c)
	entries := reg.Resources(c)
	if len(byURI) != len(entries) {
		t.Fatalf("ListMeta has %d URIs, want %d", len(byURI), len(entries))
	}
	for _, e := range entries {
		ui, _ := byURI[e.URI]["ui"].(map[string]any)
		if ui["domain"] != assets.ClaudeDomain(c.ConnectorURL) {
			t.Errorf("%s: ui.domain = %v, want the Claude domain", e.URI, ui["domain"])
		}
	}
}
