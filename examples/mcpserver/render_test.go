package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/widgetd/widgetd/assets"
	"github.com/widgetd/widgetd/cspgen"
	"github.com/widgetd/widgetd/internal/browsertest"
)

// renderCase is a tool call of the example server and what its widget must
// show for the tool's actual result.
type renderCase struct {
	tool  string
	input map[string]any
	// want returns, for the structuredContent the server returned, the
	// textContent each selector inside the widget must have.
	want func(t *testing.T, sc map[string]any) map[string]string
	// refresh is the widget's own button that calls its tool again.
	refresh string
}

func renderCases() []renderCase {
	return []renderCase{
		{tool: "hello", input: map[string]any{"name": "Ada"}, want: func(t *testing.T, sc map[string]any) map[string]string {
			if sc["name"] != "Ada" {
				t.Errorf("hello structuredContent.name = %v, want Ada", sc["name"])
			}
			return map[string]string{".hello__title": fmt.Sprintf("Hello, %v!", sc["name"]), ".hello__message": fmt.Sprint(sc["message"])}
		}},
		{tool: "weather", input: map[string]any{"city": "Oslo"}, want: func(t *testing.T, sc map[string]any) map[string]string {
			days, _ := sc["days"].([]any)
			if sc["city"] != "Oslo" || len(days) == 0 {
				t.Fatalf("weather structuredContent = %v, want Oslo with days", sc)
			}
			want := map[string]string{"h1": "Oslo"}
			unit := fmt.Sprint(sc["unit"])
			for i, d := range days {
				d := d.(map[string]any)
				want[fmt.Sprintf("ol li:nth-child(%d)", i+1)] = fmt.Sprintf("%v%v°%s / %v°%s%v", d["day"], d["high"], unit, d["low"], unit, d["summary"])
			}
			return want
		}},
		{tool: "get-time", input: map[string]any{}, refresh: "#get-time-btn", want: func(t *testing.T, sc map[string]any) map[string]string {
			if !regexp.MustCompile(`^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$`).MatchString(fmt.Sprint(sc["time"])) {
				t.Errorf("get-time structuredContent.time = %v, want RFC 3339 UTC", sc["time"])
			}
			return map[string]string{"#server-time": fmt.Sprint(sc["time"])}
		}},
	}
}

// TestToolResultsRender is the MCP Apps host flow (mcp-apps.md §4.2) against
// the example server over real streamable HTTP: list the tools, call each,
// read the resource its _meta.ui.resourceUri names, and render that HTML in
// the real AppBridge host (under the CSP built from the resource's
// _meta.ui.csp) with the tool's actual CallToolResult; the same for the
// openai/outputTemplate resource in the ChatGPT host. A tools/call the widget
// makes itself is forwarded to the server.
func TestToolResultsRender(t *testing.T) {
	srv, _ := serve(t, "")
	cs := connectGoSDK(t, srv.URL, "widgetd-render-test")
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()

	lt, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]*mcp.Tool{}
	for _, tl := range lt.Tools {
		tools[tl.Name] = tl
	}
	cases := renderCases()
	covered := map[string]bool{}
	for _, c := range cases {
		covered[c.tool] = true
	}
	for name := range tools {
		if !covered[name] {
			t.Errorf("tool %q has no render case; add one to renderCases", name)
		}
	}

	hosts, err := browsertest.LoadHosts()
	if err != nil {
		t.Fatal(err)
	}
	browser, err := browsertest.Launch(context.Background()) // outlives this function: subtests run after it returns
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(browser.Close)

	// The host origin: host pages, each widget resource at /w/<uri-name>
	// under the CSP a host builds from its metadata, and /call, the host's
	// forwarding of widget tools/call to the MCP server.
	fwd := &forwarded{results: map[string][]map[string]any{}}
	mux := http.NewServeMux()
	mux.Handle("/", hosts.Handler())
	mux.HandleFunc("POST /call", func(w http.ResponseWriter, r *http.Request) {
		var p mcp.CallToolParams
		if err := json.NewDecoder(r.Body).Decode(&p); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		res, err := cs.CallTool(r.Context(), &p)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadGateway)
			return
		}
		b, err := json.Marshal(res)
		var m map[string]any
		if err == nil {
			err = json.Unmarshal(b, &m)
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		fwd.add(p.Name, m)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write(b)
	})
	route := func(path string, html, csp string) string {
		mux.Handle("GET "+path, browsertest.WidgetHandler([]byte(html), csp))
		return path
	}
	host := httptest.NewServer(mux)
	t.Cleanup(host.Close)

	for _, c := range cases {
		tool := tools[c.tool]
		if tool == nil {
			t.Errorf("server has no tool %q", c.tool)
			continue
		}
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: c.tool, Arguments: c.input})
		if err != nil {
			t.Fatalf("tools/call %s: %v", c.tool, err)
		}
		if res.IsError {
			t.Fatalf("tools/call %s returned an error result: %v", c.tool, toMap(t, res))
		}
		result := toMap(t, res)
		sc, _ := result["structuredContent"].(map[string]any)
		want := c.want(t, sc)

		ui, _ := tool.Meta["ui"].(map[string]any)
		mcpURI, _ := ui["resourceUri"].(string)
		mcpHTML, mcpCSP := readWidget(t, ctx, cs, mcpURI, assets.MIMETypeMCPApp)
		mcpPath := route("/w/"+c.tool, mcpHTML, mcpCSP)
		oaURI, _ := tool.Meta["openai/outputTemplate"].(string)
		oaHTML, oaCSP := readWidget(t, ctx, cs, oaURI, assets.MIMETypeSkybridge)
		oaPath := route("/w/"+c.tool+".skybridge", oaHTML, oaCSP)

		t.Run(c.tool+"/mcp-apps", func(t *testing.T) {
			t.Parallel()
			p := browser.NewPage(t)
			p.OpenHost(host.URL+browsertest.MCPHostPath, mcpPath, map[string]any{"input": c.input, "result": result, "forward": "/call"})
			p.Wait(`hostLog.some(e => e.t == "initialized")`)
			waitText(p, want)
			p.Wait(`hostLog.some(e => e.t == "size" && e.p.height > 0)`)
			readable(p, want, "light")
			p.Eval(`setTheme("dark")`, nil)
			p.Wait(browsertest.W + `.document.documentElement.dataset.theme == "dark"`)
			readable(p, want, "dark (host variables)")
			if c.refresh != "" {
				p.Eval(browsertest.W+`.document.querySelector(`+browsertest.JS(c.refresh)+`).click()`, nil)
				p.Wait(`hostLog.some(e => e.t == "calltool")`)
				got, _ := p.HostLog("calltool")[0]["p"].(map[string]any)
				// The bridge asks for progress (_meta.progressToken) on every tool call.
				if meta, _ := got["_meta"].(map[string]any); meta["progressToken"] == nil {
					t.Errorf("widget tools/call = %v, want a _meta.progressToken", got)
				}
				delete(got, "_meta")
				if browsertest.JS(got) != browsertest.JS(map[string]any{"name": c.tool, "arguments": map[string]any{}}) {
					t.Errorf("widget tools/call = %v, want %s with {}", got, c.tool)
				}
				// The result the server gave the forwarded call renders.
				again := fwd.wait(t, c.tool)
				sc2, _ := again["structuredContent"].(map[string]any)
				waitText(p, c.want(t, sc2))
			}
			p.NoErrors()
		})
		t.Run(c.tool+"/chatgpt", func(t *testing.T) {
			t.Parallel()
			p := browser.NewPage(t)
			globals := map[string]any{"toolInput": c.input, "toolOutput": sc, "toolResponseMetadata": result["_meta"], "theme": "dark"}
			p.OpenHost(host.URL+browsertest.ChatGPTHostPath, oaPath+"?"+browsertest.ChatGPTQuery, globals)
			p.Wait(browsertest.W + `.openai && ` + browsertest.W + `.document.readyState == "complete"`)
			waitText(p, want)
			p.Wait(`chatgptHost.log.some(e => e.t == "notifyIntrinsicHeight" && e.p > 0)`)
			readable(p, want, "dark (no host variables)")
			p.NoErrors()
		})
	}
}

// readWidget reads a widget resource, checks its MIME type, and returns its
// HTML with the CSP a host builds from its _meta.ui.csp (mcp-apps.md §2.2).
func readWidget(t *testing.T, ctx context.Context, cs *mcp.ClientSession, uri, mime string) (html, csp string) {
	t.Helper()
	if uri == "" {
		t.Fatalf("tool _meta names no resource for %s", mime)
	}
	rr, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: uri})
	if err != nil {
		t.Fatalf("resources/read %s: %v", uri, err)
	}
	if len(rr.Contents) != 1 {
		t.Fatalf("resources/read %s: %d contents, want 1", uri, len(rr.Contents))
	}
	rc := rr.Contents[0]
	if rc.MIMEType != mime || rc.Text == "" {
		t.Fatalf("resources/read %s: mimeType %q, %d bytes of text; want %q with HTML", uri, rc.MIMEType, len(rc.Text), mime)
	}
	ui, _ := rc.Meta["ui"].(map[string]any)
	raw, err := json.Marshal(ui["csp"])
	if err != nil {
		t.Fatal(err)
	}
	var d cspgen.Domains
	if err := json.Unmarshal(raw, &d); err != nil {
		t.Fatalf("resources/read %s: _meta.ui.csp %s: %v", uri, raw, err)
	}
	pol, err := cspgen.New(d)
	if err != nil {
		t.Fatalf("resources/read %s: _meta.ui.csp %s: %v", uri, raw, err)
	}
	return rc.Text, pol.Header()
}

// minContrast is the WCAG contrast ratio every rendered text must reach in
// both themes (3:1, AA for large text and UI components).
const minContrast = 3

// readable fails the test unless each selector's text contrasts enough with
// its background.
func readable(p *browsertest.Page, want map[string]string, theme string) {
	p.T.Helper()
	for sel := range want {
		if r := p.Contrast(browsertest.W, sel); r < minContrast {
			p.T.Errorf("%s in %s theme: contrast %.2f:1, want at least %d:1", sel, theme, r, minContrast)
		}
	}
}

// waitText waits until every selector inside the widget has its text.
func waitText(p *browsertest.Page, want map[string]string) {
	p.T.Helper()
	for sel, text := range want {
		p.Wait(browsertest.W + `.document.querySelector(` + browsertest.JS(sel) + `)?.textContent == ` + browsertest.JS(text))
	}
}

// toMap returns v as the JSON object a host receives.
func toMap(t *testing.T, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// forwarded records the results of tools/call the host forwarded.
type forwarded struct {
	mu      sync.Mutex
	results map[string][]map[string]any
}

func (f *forwarded) add(name string, res map[string]any) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.results[name] = append(f.results[name], res)
}

// wait returns the first forwarded result of tool name.
func (f *forwarded) wait(t *testing.T, name string) map[string]any {
	t.Helper()
	deadline := time.Now().Add(browsertest.WaitTimeout)
	for time.Now().Before(deadline) {
		f.mu.Lock()
		r := f.results[name]
		f.mu.Unlock()
		if len(r) > 0 {
			return r[0]
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no forwarded tools/call %s reached the server", name)
	return nil
}
