package devserver

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/widgetd/widgetd/assets"
)

// FuzzServerWidgetCSP: whatever _meta a server sends, the CSP built for its
// widget is either refused with an error or a policy cspgen itself parses
// back, starting with default-src 'none' (never widened past the spec's
// construction); and a resource URI the inspector accepts has no control
// character or space and stays within maxResourceURI.
func FuzzServerWidgetCSP(f *testing.F) {
	for _, s := range []string{
		`{"ui":{"csp":{"connectDomains":["https://api.example.com"]}}}`,
		`{"openai/widgetCSP":{"resource_domains":["https://cdn.example.com"],"frame_domains":[]}}`,
		`{"ui":{"csp":{"connectDomains":["'unsafe-eval'"]}}}`,
		`{"ui":{"csp":"script-src *"}}`,
		`{"ui":{"csp":{"resourceDomains":["https://a.example; script-src *"]}}}`,
		`{}`, `null`, `{"ui":null}`,
	} {
		f.Add(s, false, "ui://widget/hello.html")
		f.Add(s, true, "ui://widget/hello.skybridge.html")
	}
	f.Fuzz(func(t *testing.T, meta string, skybridge bool, uri string) {
		var m mcp.Meta
		if json.Unmarshal([]byte(meta), &m) != nil {
			return
		}
		mime := assets.MIMETypeMCPApp
		if skybridge {
			mime = assets.MIMETypeSkybridge
		}
		h, err := serverWidgetCSP(mime, m)
		if err == nil {
			if problem := cspShapeProblem(h); problem != "" {
				t.Fatalf("meta %s gave CSP %q: %s", meta, h, problem)
			}
		}
		if checkResourceURI(uri, "ui") == nil {
			if len(uri) > maxResourceURI || strings.ContainsFunc(uri, func(r rune) bool { return r <= ' ' || r == 0x7f }) || !strings.HasPrefix(strings.ToLower(uri), "ui:") {
				t.Fatalf("accepted uri %q", uri)
			}
		}
	})
}

// cspShapeProblem says what is wrong with a CSP header's shape, or "": it
// starts with default-src 'none', holds no control characters, and each
// directive is a lowercase name followed by its sources.
func cspShapeProblem(h string) string {
	if !strings.HasPrefix(h, "default-src 'none'; ") {
		return "does not start with default-src 'none'"
	}
	if strings.ContainsFunc(h, func(r rune) bool { return r < ' ' || r == 0x7f }) {
		return "holds a control character"
	}
	for _, d := range strings.Split(h, "; ") {
		name, _, _ := strings.Cut(d, " ")
		if name == "" || strings.Trim(name, "abcdefghijklmnopqrstuvwxyz-") != "" {
			return "directive " + strconv.Quote(d) + " has no valid name"
		}
	}
	return ""
}
