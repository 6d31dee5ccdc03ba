package devserver

import (
	"encoding/json"
	"net/http"
	"net/url"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/widgetd/widgetd/cspgen"
	"github.com/widgetd/widgetd/internal/exampleserver"
)

// inspectReq sends one request to the dev server and decodes a JSON answer
// into out (when non-nil). hdr may set "Host".
func inspectReq(t *testing.T, method, u, body string, hdr map[string]string, out any) (int, http.Header, string) {
	t.Helper()
	headers := map[string]string{}
	if body != "" {
		headers["Content-Type"] = "application/json"
	}
	for k, v := range hdr {
		if k != "Host" {
			headers[k] = v
		}
	}
	code, header, data := do(t, method, u, hdr["Host"], headers, strings.NewReader(body))
	if out != nil && json.Unmarshal([]byte(data), out) != nil {
		t.Fatalf("%s %s: %d, not JSON: %s", method, u, code, data)
	}
	return code, header, data
}

// inspectTools is the decoded answer of GET /_widgetd/mcp/tools.
type inspectTools struct {
	URL   string `json:"url"`
	Tools []struct {
		Name         string         `json:"name"`
		Title        string         `json:"title"`
		Description  string         `json:"description"`
		InputSchema  map[string]any `json:"inputSchema"`
		OutputSchema map[string]any `json:"outputSchema"`
		Meta         map[string]any `json:"_meta"`
		Widget       string         `json:"widget"`
		ResourceURI  string         `json:"resourceUri"`
	} `json:"tools"`
	Truncated bool   `json:"truncated"`
	Error     string `json:"error"`
}

// TestMCPInspectExampleServer runs the inspector API against the real
// examples/mcpserver (its own process, real HTTP): the tools listed from
// the server with their schemas and widgets, a call whose answer is the
// server's structuredContent, arguments refused by the tool's inputSchema
// before they reach it, resources/read, and the server's widget document
// on the sandbox origin under the CSP of its resource _meta.
func TestMCPInspectExampleServer(t *testing.T) {
	endpoint := exampleserver.Start(t)
	d := startDev(t, func(o *Options) { o.MCPURL = endpoint })
	same := map[string]string{"Origin": strings.TrimSuffix(d.PreviewURL(), "/"), "Sec-Fetch-Site": "same-origin"}

	var tools inspectTools
	if code, _, body := inspectReq(t, "GET", d.PreviewURL()+"_widgetd/mcp/tools", "", same, &tools); code != 200 {
		t.Fatalf("tools: %d %s", code, body)
	}
	var names []string
	uris := map[string]string{}
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
		uris[tl.Name] = tl.ResourceURI
		if tl.Widget != tl.Name || !strings.HasPrefix(tl.ResourceURI, "ui://widget/"+tl.Name+".") || tl.InputSchema["type"] != "object" || tl.OutputSchema == nil || tl.Title == "" || tl.Meta["ui"] == nil {
			t.Errorf("tool %s as listed: %+v", tl.Name, tl)
		}
	}
	if slices.Sort(names); tools.URL != endpoint || strings.Join(names, ",") != "get-time,hello,weather" || tools.Truncated {
		t.Fatalf("tools from %s: url %q, names %v, truncated %v", endpoint, tools.URL, names, tools.Truncated)
	}

	t.Run("call", func(t *testing.T) {
		var ans struct {
			Result struct {
				StructuredContent map[string]any `json:"structuredContent"`
				Content           []any          `json:"content"`
			} `json:"result"`
			ResourceURI string `json:"resourceUri"`
			ElapsedMs   *int64 `json:"elapsedMs"`
			Validated   bool   `json:"validated"`
		}
		code, _, body := inspectReq(t, "POST", d.PreviewURL()+"_widgetd/mcp/call", `{"name":"hello","arguments":{"name":"Ada"}}`, same, &ans)
		sc := ans.Result.StructuredContent
		if code != 200 || sc["name"] != "Ada" || sc["message"] != "Greetings from a Go MCP server with embedded widgets." || len(ans.Result.Content) != 1 {
			t.Fatalf("call hello: %d %s", code, body)
		}
		if ans.ResourceURI != uris["hello"] || ans.ElapsedMs == nil || *ans.ElapsedMs < 0 || !ans.Validated {
			t.Errorf("call hello: resourceUri %q (want %q), elapsedMs %v, validated %v", ans.ResourceURI, uris["hello"], ans.ElapsedMs, ans.Validated)
		}
		var refused map[string]string
		code, _, body = inspectReq(t, "POST", d.PreviewURL()+"_widgetd/mcp/call", `{"name":"hello","arguments":{"name":5}}`, same, &refused)
		if code != 400 || !strings.Contains(refused["error"], "inputSchema") || !strings.Contains(refused["error"], "name") {
			t.Errorf("arguments against the schema: %d %s; want 400 naming the inputSchema and the property", code, body)
		}
		code, _, body = inspectReq(t, "GET", d.PreviewURL()+"_widgetd/mcp/widget?uri=https://x/", "", same, &refused)
		if code != 400 || !strings.Contains(refused["error"], "ui://") {
			t.Errorf("widget info of a non-ui URI: %d %s; want 400 naming ui://", code, body)
		}
		code, _, body = inspectReq(t, "POST", d.PreviewURL()+"_widgetd/mcp/call", `{"name":"no-such-tool","arguments":{}}`, same, &refused)
		if code != 502 || !strings.Contains(refused["error"], "no-such-tool") {
			t.Errorf("unknown tool: %d %s; want 502 with the server's refusal", code, body)
		}
	})

	for _, c := range []struct {
		widget, profile, host, script string
	}{
		{"hello", "", "mcp-apps", ""},
		{"hello", "skybridge.", "chatgpt", "window.openai=o"},
	} {
		t.Run("server-widget/"+c.host, func(t *testing.T) {
			uri := strings.TrimSuffix(uris[c.widget], "html") + c.profile + "html"
			var rr struct {
				Contents []struct {
					URI, MIMEType, Text string
					Meta                map[string]any `json:"_meta"`
				} `json:"contents"`
			}
			code, _, body := inspectReq(t, "GET", d.PreviewURL()+"_widgetd/mcp/resource?uri="+url.QueryEscape(uri), "", same, &rr)
			if code != 200 || len(rr.Contents) != 1 || !strings.Contains(rr.Contents[0].Text, "<title>Hello</title>") {
				t.Fatalf("resource %s: %d %.300s", uri, code, body)
			}
			want := wantServerCSP(t, rr.Contents[0].MIMEType, rr.Contents[0].Meta)
			code, hdr, doc := inspectReq(t, "GET", d.SandboxURL()+ServerWidgetPath+"?host="+c.host+"&uri="+url.QueryEscape(uri), "", nil, nil)
			if code != 200 || hdr.Get("Content-Security-Policy") != want {
				t.Fatalf("server widget %s: %d, CSP %q, want %q\n%.300s", uri, code, hdr.Get("Content-Security-Policy"), want, doc)
			}
			// What the Resource and CSP panels show of it: the same _meta
			// and header.
			var info struct {
				URI, MIMEType, CSP string
				Meta               map[string]any `json:"_meta"`
			}
			code, _, body = inspectReq(t, "GET", d.PreviewURL()+"_widgetd/mcp/widget?uri="+url.QueryEscape(uri), "", same, &info)
			if code != 200 || info.URI != uri || info.MIMEType != rr.Contents[0].MIMEType || info.CSP != want || !reflect.DeepEqual(info.Meta, rr.Contents[0].Meta) {
				t.Errorf("widget info %s: %d %.400s; want its _meta and CSP %q", uri, code, body, want)
			}
			// The server's document, byte for byte, with the dev scripts
			// the local widgets get for this host put first.
			wantDoc := string(injectScripts([]byte(rr.Contents[0].Text), documentScripts(url.Values{"host": {c.host}})...))
			if doc != wantDoc || !strings.Contains(doc, reporterScript) || strings.Contains(doc, "window.openai=o") != (c.script != "") {
				t.Errorf("server widget %s for host %s: scripts or content wrong:\n%.600s", uri, c.host, doc)
			}
		})
	}
}

// wantServerCSP is the header the spec builds from a resource's _meta: the
// shape the host of mime reads, through cspgen.
func wantServerCSP(t *testing.T, mime string, meta map[string]any) string {
	t.Helper()
	var d cspgen.Domains
	if mime == "text/html+skybridge" {
		var o struct{ Connect_domains, Resource_domains []string }
		raw, _ := json.Marshal(meta["openai/widgetCSP"])
		if err := json.Unmarshal(raw, &o); err != nil || raw == nil || string(raw) == "null" {
			t.Fatalf("skybridge resource without openai/widgetCSP: %s", raw)
		}
		d = cspgen.Domains{Connect: o.Connect_domains, Resource: o.Resource_domains}
	} else {
		ui, _ := meta["ui"].(map[string]any)
		raw, _ := json.Marshal(ui["csp"])
		if err := json.Unmarshal(raw, &d); err != nil || string(raw) == "null" {
			t.Fatalf("mcp-app resource without ui.csp: %s", raw)
		}
	}
	pol, err := cspgen.New(d)
	if err != nil {
		t.Fatal(err)
	}
	return pol.Header()
}
