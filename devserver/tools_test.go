package devserver

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// TestWidgetTools: with --mcp, each widget's preview names the server's
// tool linked to it (its _meta resourceUri), not the widget's own name.
func TestWidgetTools(t *testing.T) {
	srv := mcp.NewServer(&mcp.Implementation{Name: "s", Version: "1"}, nil)
	handler := func(context.Context, *mcp.CallToolRequest, struct{}) (*mcp.CallToolResult, struct{}, error) {
		return &mcp.CallToolResult{}, struct{}{}, nil
	}
	mcp.AddTool(srv, &mcp.Tool{Name: "plain"}, handler)
	mcp.AddTool(srv, &mcp.Tool{Name: "show-greeting", Meta: mcp.Meta{"ui": map[string]any{"resourceUri": "ui://widget/hello.0123456789abcdef.html"}}}, handler)
	mcp.AddTool(srv, &mcp.Tool{Name: "forecast", Meta: mcp.Meta{"openai/outputTemplate": "ui://widget/weather.skybridge.html"}}, handler)
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	defer hs.Close()

	d := startDev(t, func(o *Options) { o.MCPURL = hs.URL })
	got := map[string]string{}
	for _, w := range d.State().Widgets {
		got[w.Name] = w.Tool
	}
	if got["hello"] != "show-greeting" || got["weather"] != "forecast" || got["get-time"] != "" {
		t.Errorf("linked tools %v", got)
	}
}

func TestWidgetOfURI(t *testing.T) {
	for in, want := range map[string]string{
		"ui://widget/hello.abc.html":             "hello",
		"ui://widget/my-w.html":                  "my-w",
		"ui://widget/w.0123.skybridge.html":      "w",
		"https://example.com/ui://widget/x.html": "",
		"":                                       "",
	} {
		if got := widgetOfURI(in); got != want {
			t.Errorf("widgetOfURI(%q) = %q, want %q", in, got, want)
		}
	}
}
