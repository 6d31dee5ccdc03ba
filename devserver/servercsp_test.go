package devserver

import (
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/cspgen"
)

// TestServerWidgetCSP: the header comes from the first meta that declares
// a CSP the host of the MIME type reads, through cspgen; the spec default
// when none does; an error naming the key for a CSP the spec refuses.
func TestServerWidgetCSP(t *testing.T) {
	def, _ := cspgen.New(cspgen.Domains{})
	ui := func(k string, v ...any) mcp.Meta { return mcp.Meta{"ui": map[string]any{"csp": map[string]any{k: v}}} }
	oa := func(k string, v ...any) mcp.Meta { return mcp.Meta{"openai/widgetCSP": map[string]any{k: v}} }
	both := mcp.Meta{"ui": ui("connectDomains", "https://ui.example.com")["ui"], "openai/widgetCSP": oa("connect_domains", "https://oa.example.com")["openai/widgetCSP"]}
	for _, c := range []struct {
		name  string
		mime  string
		metas []mcp.Meta
		want  string // in the header, or in the error when err
		not   string
		err   bool
	}{
		{"none: spec default", assets.MIMETypeMCPApp, []mcp.Meta{nil, {}}, def.Header(), "", false},
		{"content ui.csp", assets.MIMETypeMCPApp, []mcp.Meta{ui("resourceDomains", "https://cdn.example.com")}, "img-src 'self' data: https://cdn.example.com", "", false},
		{"content first, listing ignored", assets.MIMETypeMCPApp, []mcp.Meta{ui("connectDomains", "https://a.example.com"), ui("connectDomains", "https://b.example.com")}, "https://a.example.com", "b.example.com", false},
		{"listing when content has none", assets.MIMETypeMCPApp, []mcp.Meta{{"other": 1}, ui("frameDomains", "https://f.example.com")}, "frame-src https://f.example.com", "", false},
		{"mcp-app ignores openai/widgetCSP", assets.MIMETypeMCPApp, []mcp.Meta{both}, "https://ui.example.com", "oa.example.com", false},
		{"skybridge prefers openai/widgetCSP", assets.MIMETypeSkybridge, []mcp.Meta{both}, "https://oa.example.com", "ui.example.com", false},
		{"skybridge falls back to ui.csp", assets.MIMETypeSkybridge, []mcp.Meta{ui("connectDomains", "https://ui.example.com")}, "connect-src 'self' https://ui.example.com", "", false},
		{"keyword refused", assets.MIMETypeMCPApp, []mcp.Meta{ui("connectDomains", "'unsafe-eval'")}, "_meta ui.csp", "", true},
		{"injection refused", assets.MIMETypeSkybridge, []mcp.Meta{oa("resource_domains", "https://a.example; script-src *")}, "_meta openai/widgetCSP", "", true},
		{"not a list", assets.MIMETypeMCPApp, []mcp.Meta{{"ui": map[string]any{"csp": map[string]any{"connectDomains": "https://a.example"}}}}, "not a CSP object", "", true},
		{"not an object", assets.MIMETypeMCPApp, []mcp.Meta{{"ui": map[string]any{"csp": "script-src *"}}}, "not a CSP object", "", true},
	} {
		t.Run(c.name, func(t *testing.T) {
			h, err := serverWidgetCSP(c.mime, c.metas...)
			if c.err {
				if err == nil || !strings.Contains(err.Error(), c.want) {
					t.Fatalf("header %q, error %v; want an error with %q", h, err, c.want)
				}
				return
			}
			if err != nil || !strings.Contains(h, c.want) || (c.not != "" && strings.Contains(h, c.not)) {
				t.Fatalf("header %q, error %v; want %q and not %q", h, err, c.want, c.not)
			}
		})
	}
}
