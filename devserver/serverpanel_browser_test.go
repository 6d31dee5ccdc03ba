package devserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/widgetd/widgetd/internal/exampleserver"
)

// startDevOnExampleServer starts the real examples/mcpserver and a dev
// server inspecting it, with the local hello edited to greet "Local, …",
// so a page showing "Hello, …" shows the server's own widget document.
func startDevOnExampleServer(t *testing.T) *devServer {
	t.Helper()
	endpoint := exampleserver.Start(t)
	d := startDev(t, func(o *Options) { o.MCPURL = endpoint })
	d.edit(t, "hello/index.ts", func(s string) string { return strings.Replace(s, "`Hello, ${", "`Local, ${", 1) })
	if ev := d.nextBuild(t, 60*time.Second); !ev.OK {
		t.Fatalf("rebuild after the edit failed: %+v", ev.Diagnostics)
	}
	return d
}

// TestServerPanelExampleServer drives the Server tab end to end in real
// Chromium against the real examples/mcpserver: the tools listed from the
// server; hello's generated form filled as a user types, its arguments
// called, the result shown with its timing and fed to the server's own
// widget (the local hello is edited to greet differently, so only the
// server's document shows "Hello, Grace!") whose _meta and CSP the
// Resource tab shows; then get-time called from the form, and the call its
// widget makes itself (the refresh button) answered by the server.
func TestServerPanelExampleServer(t *testing.T) {
	d := startDevOnExampleServer(t)
	p := openPage(t, d.PreviewURL()+"preview/hello?host=mcp-apps")
	p.waitFrameText("Local, ", 30*time.Second)
	p.click("#tab-server")
	p.waitFor("the server's tools", 20*time.Second, func() string {
		var names []string
		_ = p.eval(`Array.from(document.querySelectorAll("#server-tool option")).map(o => o.value).sort()`, &names)
		if strings.Join(names, ",") != "get-time,hello,weather" {
			return fmt.Sprintf("tool options %v", names)
		}
		return ""
	})

	p.selectValue("server-tool", "hello")
	p.typeInto("#arg-name", "Grace")
	if args := p.jsonOf(`document.getElementById("server-args").value`); args != `{"name":"Grace"}` {
		t.Errorf("the form wrote arguments %s, want {\"name\":\"Grace\"}", args)
	}
	p.click("#server-call")
	p.waitResult(`"name": "Grace"`)
	p.waitFrameText("Hello, Grace!", 30*time.Second)
	uri := p.checkServerFrame(d)
	p.checkToolInputSent(map[string]any{"name": "Grace"})
	p.checkResourceTab(t, d, uri)

	p.click("#tab-server")
	p.selectValue("server-tool", "get-time")
	p.click("#server-call")
	called := p.waitResult(`"time"`)
	stamp := regexp.MustCompile(`\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ`)
	first := stamp.FindString(called)
	if first == "" {
		t.Fatalf("get-time result without a time: %s", called)
	}
	p.waitFrameText(first, 30*time.Second)
	// A second later the server's time differs from the call's: the
	// widget's own call shows a later one only if the server answered it.
	time.Sleep(1100 * time.Millisecond)
	p.clickInFrame("#get-time-btn")
	p.waitFor("the server's later time in the widget", 20*time.Second, func() string {
		text := p.frameText()
		for _, m := range stamp.FindAllString(text, -1) {
			if m > first && m < time.Now().UTC().Add(time.Minute).Format(time.RFC3339) {
				return ""
			}
		}
		return "frame text is " + text
	})
	var calls []struct{ Name string }
	if err := p.eval(`widgetdDev.calls`, &calls); err != nil || len(calls) != 1 || calls[0].Name != "get-time" {
		t.Errorf("widget calls %v (%v), want one get-time", calls, err)
	}
}

// waitResult waits for the Server tab's result to contain want and its
// timing to show, and returns the result text.
func (p *page) waitResult(want string) string {
	p.t.Helper()
	var text string
	p.waitFor("the call's result "+want, 30*time.Second, func() string {
		var got struct{ Result, Elapsed string }
		_ = p.eval(`({result: document.getElementById("server-result")?.textContent ?? "", elapsed: document.getElementById("server-elapsed")?.textContent ?? ""})`, &got)
		text = got.Result
		if !strings.Contains(got.Result, want) || !regexp.MustCompile(`^\d+ ms$`).MatchString(got.Elapsed) {
			return fmt.Sprintf("result %q, timing %q", got.Result, got.Elapsed)
		}
		return ""
	})
	return text
}

// checkServerFrame checks that the widget frame shows the sandbox's
// server widget and returns its resource URI.
func (p *page) checkServerFrame(d *devServer) string {
	p.t.Helper()
	var src string
	if err := p.eval(`document.getElementById("widget-frame").src`, &src); err != nil || !strings.HasPrefix(src, d.SandboxURL()+ServerWidgetPath+"?uri=") {
		p.t.Fatalf("frame src %q (%v), want the sandbox's server widget", src, err)
	}
	u, _ := url.Parse(src)
	return u.Query().Get("uri")
}

// checkToolInputSent checks that the widget was sent args as its tool input.
func (p *page) checkToolInputSent(args map[string]any) {
	p.t.Helper()
	var sent []map[string]any
	_ = p.eval(`widgetdDev.log.filter(e => e.dir == "out" && e.data?.method == "ui/notifications/tool-input").map(e => e.data.params.arguments)`, &sent)
	want, _ := json.Marshal(args)
	if len(sent) == 0 {
		p.t.Errorf("no tool input sent to the widget")
	} else if got, _ := json.Marshal(sent[len(sent)-1]); string(got) != string(want) {
		p.t.Errorf("tool input sent %s, want %s", got, want)
	}
}

// checkResourceTab checks that the Resource tab shows the server resource
// uri's _meta and the CSP a host builds from it (not the local widget's).
func (p *page) checkResourceTab(t *testing.T, d *devServer, uri string) {
	t.Helper()
	var rr struct {
		Contents []struct {
			MIMEType string
			Meta     map[string]any `json:"_meta"`
		} `json:"contents"`
	}
	if code, _, body := inspectReq(t, "GET", d.PreviewURL()+"_widgetd/mcp/resource?uri="+url.QueryEscape(uri), "", nil, &rr); code != 200 || len(rr.Contents) != 1 {
		t.Fatalf("resource %s: %d %.300s", uri, code, body)
	}
	p.click("#tab-resource")
	var shown struct{ Meta, CSP, URI string }
	p.waitFor("the server resource in the Resource tab", 10*time.Second, func() string {
		_ = p.eval(`({meta: document.getElementById("resource-meta").textContent, csp: document.getElementById("csp").textContent, uri: document.getElementById("resource-uri")?.textContent})`, &shown)
		if shown.CSP == "" {
			return "no CSP shown"
		}
		return ""
	})
	var meta map[string]any
	if err := json.Unmarshal([]byte(shown.Meta), &meta); err != nil {
		t.Fatalf("resource meta %q: %v", shown.Meta, err)
	}
	got, _ := json.Marshal(meta)
	want, _ := json.Marshal(rr.Contents[0].Meta)
	if shown.URI != uri || string(got) != string(want) {
		t.Errorf("Resource tab shows %s %s, want the server's %s %s", shown.URI, got, uri, want)
	}
	if wantCSP := wantServerCSP(t, rr.Contents[0].MIMEType, rr.Contents[0].Meta); shown.CSP != wantCSP {
		t.Errorf("CSP tab shows %q, want the server resource's %q", shown.CSP, wantCSP)
	}
}

// typeInto replaces the text of the input matching sel by typing text as a
// user does (key events; an empty text clears it).
func (p *page) typeInto(sel, text string) {
	p.t.Helper()
	p.do(fmt.Sprintf(`const e = document.querySelector(%q); e.focus(); e.select()`, sel))
	if text == "" {
		text = kb.Backspace
	}
	ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.SendKeys(sel, text)); err != nil {
		p.t.Fatalf("type into %s: %v", sel, err)
	}
}

// jsonOf evaluates expr, a JSON text, and returns it compacted ("" when not JSON).
func (p *page) jsonOf(expr string) string {
	p.t.Helper()
	var text string
	if err := p.eval(expr, &text); err != nil {
		p.t.Fatalf("%s: %v", expr, err)
	}
	var v any
	if json.Unmarshal([]byte(text), &v) != nil {
		return ""
	}
	out, _ := json.Marshal(v)
	return string(out)
}

// planSchema is the input schema of the form test's tool: every kind of
// field the generated form has, and kinds it leaves to the raw JSON.
const planSchema = `{"type": "object", "required": ["a", "n"], "properties": {
	"a": {"type": "string", "description": "a city"},
	"n": {"type": "integer", "minimum": 1, "maximum": 14},
	"x": {"type": "number"},
	"b": {"type": "boolean"},
	"e": {"enum": ["C", "F"]},
	"mixed": {"enum": [1, 2]},
	"list": {"type": "array"},
	"nullable": {"type": ["string", "null"]}}}`

// formServer is a real go-sdk MCP server over real HTTP with a tool "plan"
// of planSchema that answers its arguments, and a tool "hello" with no
// widget _meta (so a call shows in the local widget of its name).
func formServer(t *testing.T) string {
	t.Helper()
	srv := mcp.NewServer(&mcp.Implementation{Name: "form-test", Version: "1"}, nil)
	srv.AddTool(&mcp.Tool{Name: "plan", InputSchema: json.RawMessage(planSchema)}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "planned"}}, StructuredContent: req.Params.Arguments}, nil
	})
	srv.AddTool(&mcp.Tool{Name: "hello", InputSchema: json.RawMessage(`{"type":"object","properties":{"name":{"type":"string"}}}`)}, func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var in struct{ Name string }
		_ = json.Unmarshal(req.Params.Arguments, &in)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "hi"}}, StructuredContent: map[string]any{"name": in.Name, "message": "from the form test's server"}}, nil
	})
	hs := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, nil))
	t.Cleanup(hs.Close)
	return hs.URL
}

// TestServerPanelSchemaForm checks the Server tab's generated form in real
// Chromium: schemaform.ts's logic evaluated directly (fields, coercion,
// errors), then the form of a tool with every field kind: required fields,
// a number typed wrong named at its field with Call disabled, an enum
// select, a checkbox, raw JSON and form kept in step, typed arguments
// reaching the server; and a tool without a widget _meta whose call shows
// in the local widget of its name.
func TestServerPanelSchemaForm(t *testing.T) {
	d := startDev(t, func(o *Options) { o.MCPURL = formServer(t) })
	p := openPage(t, d.PreviewURL()+"preview/hello?host=mcp-apps")
	p.waitFrameText("Hello, ", 30*time.Second)
	p.checkSchemaformLogic(t)

	p.click("#tab-server")
	p.waitFor("the server's tools", 20*time.Second, func() string {
		var n int
		_ = p.eval(`document.querySelectorAll("#server-tool option").length`, &n)
		return map[bool]string{true: "", false: "tools not listed"}[n == 2]
	})
	p.selectValue("server-tool", "plan")
	var kinds map[string]string
	_ = p.eval(`Object.fromEntries(["a", "n", "x", "b", "e", "mixed", "list", "nullable"].map(k => { const e = document.getElementById("arg-" + k); return [k, e ? e.tagName + "/" + e.type + "/" + (e.inputMode || "") + "/" + Array.from(e.options || []).map(o => o.value).join(",") : ""] }))`, &kinds)
	wantKinds := map[string]string{"a": "INPUT/text//", "n": "INPUT/text/decimal/", "x": "INPUT/text/decimal/", "b": "INPUT/checkbox//", "e": "SELECT/select-one//,C,F", "mixed": "", "list": "", "nullable": ""}
	if fmt.Sprint(kinds) != fmt.Sprint(wantKinds) {
		t.Errorf("form inputs %v, want %v", kinds, wantKinds)
	}
	p.checkFormState("nothing filled", map[string]string{"a": "required", "n": "required"})
	p.typeInto("#arg-a", "Oslo")
	for _, c := range []struct{ typed, err string }{{"abc", "must be a number"}, {"2.5", "must be a whole number"}, {"0", "must be at least 1"}, {"30", "must be at most 14"}, {"3", ""}} {
		p.typeInto("#arg-n", c.typed)
		p.checkFormState("n typed "+c.typed, map[string]string{"n": c.err})
	}
	p.selectValue("arg-e", "F")
	p.click("#arg-b")
	p.typeInto("#arg-x", "0.5")
	want := `{"a":"Oslo","b":true,"e":"F","n":3,"x":0.5}`
	if got := p.jsonOf(`document.getElementById("server-args").value`); got != want {
		t.Errorf("the form wrote %s, want %s", got, want)
	}
	p.typeInto("#server-args", `{"a": "Oslo", "n": 4`)
	p.checkFormState("raw JSON cut short", nil)
	if p.jsonOf(`JSON.stringify(document.getElementById("server-args-err").textContent)`) == `""` {
		t.Errorf("invalid raw JSON shows no error")
	}
	p.typeInto("#server-args", `{"a": "Oslo", "n": 4, "b": true, "e": "F", "x": 0.5}`)
	var n string
	if _ = p.eval(`document.getElementById("arg-n").value`, &n); n != "4" {
		t.Errorf("the form shows n=%q after the raw JSON set 4", n)
	}
	p.checkFormState("raw JSON fixed", map[string]string{})
	p.click("#server-call")
	result := p.waitResult(`"planned"`)
	var res struct{ StructuredContent map[string]any }
	if err := json.Unmarshal([]byte(result), &res); err != nil || fmt.Sprint(res.StructuredContent) != fmt.Sprint(map[string]any{"a": "Oslo", "b": true, "e": "F", "n": 4.0, "x": 0.5}) {
		t.Errorf("the server got %v (%v), want the typed arguments", res.StructuredContent, err)
	}
	if shown := p.jsonOf(`JSON.stringify(document.getElementById("server-shown").textContent)`); !strings.Contains(shown, "names no widget") {
		t.Errorf("a tool without a widget: %s", shown)
	}

	// No widget _meta, but a local widget of the tool's name: shown there.
	p.selectValue("server-tool", "hello")
	p.typeInto("#arg-name", "Linus")
	p.click("#server-call")
	p.waitResult(`"Linus"`)
	p.waitFrameText("Hello, Linus!", 30*time.Second)
	var src string
	if _ = p.eval(`document.getElementById("widget-frame").src`, &src); !strings.HasPrefix(src, d.SandboxURL()+"/widget/hello?") {
		t.Errorf("frame src %q, want the local hello widget", src)
	}
}

// checkFormState checks the Server tab's field errors (name -> message;
// nil: only that Call is disabled) and that Call is enabled exactly when
// there is none.
func (p *page) checkFormState(when string, errs map[string]string) {
	p.t.Helper()
	var st struct {
		Disabled bool
		Errs     map[string]string
	}
	_ = p.eval(`({disabled: document.getElementById("server-call").disabled, errs: Object.fromEntries(Array.from(document.querySelectorAll("[id^=arg-][id$=-err]")).map(e => [e.id.slice(4, -4), e.textContent]))})`, &st)
	wantDisabled := errs == nil
	for name, msg := range errs {
		if st.Errs[name] != msg {
			p.t.Errorf("%s: field %s says %q, want %q", when, name, st.Errs[name], msg)
		}
		wantDisabled = wantDisabled || msg != ""
	}
	if len(errs) == 0 && errs != nil {
		for name, msg := range st.Errs {
			if msg != "" {
				p.t.Errorf("%s: field %s says %q, want no error", when, name, msg)
			}
		}
	}
	if st.Disabled != wantDisabled {
		p.t.Errorf("%s: Call disabled %v, want %v", when, st.Disabled, wantDisabled)
	}
}

// checkSchemaformLogic evaluates schemaform.ts's functions in the page on a
// table of schemas, typed texts and argument objects.
func (p *page) checkSchemaformLogic(t *testing.T) {
	t.Helper()
	var fields []map[string]any
	if err := p.eval(`widgetdDev.schemaform.formFields(`+planSchema+`)`, &fields); err != nil {
		t.Fatal(err)
	}
	got, _ := json.Marshal(fields)
	wantFields := `[{"description":"a city","kind":"string","name":"a","required":true},{"kind":"integer","maximum":14,"minimum":1,"name":"n","required":true},{"kind":"number","name":"x","required":false},{"kind":"boolean","name":"b","required":false},{"kind":"enum","name":"e","options":["C","F"],"required":false}]`
	if norm := p.jsonOf(`JSON.stringify(` + string(got) + `)`); norm != wantFields {
		t.Errorf("formFields:\n got %s\nwant %s", norm, wantFields)
	}
	for _, c := range []struct{ schema, values, want string }{
		{planSchema, `{}`, `{"a":"required","n":"required"}`},
		{planSchema, `{"a": "x", "n": "abc"}`, `{"n":"must be a number"}`},
		{planSchema, `{"a": "x", "n": 2.5}`, `{"n":"must be a whole number"}`},
		{planSchema, `{"a": "x", "n": 0}`, `{"n":"must be at least 1"}`},
		{planSchema, `{"a": "x", "n": 15}`, `{"n":"must be at most 14"}`},
		{planSchema, `{"a": "x", "n": 3, "e": "K"}`, `{"e":"must be one of C, F"}`},
		{planSchema, `{"a": 5, "n": 3}`, `{"a":"must be text"}`},
		{planSchema, `{"a": "", "n": 3}`, `{"a":"required"}`},
		{planSchema, `{"a": "x", "n": 3, "b": "yes"}`, `{"b":"must be true or false"}`},
		{planSchema, `{"a": "x", "n": 3, "x": -0.5, "b": false, "e": "F", "list": [1]}`, `{}`},
		{`{"type": "object"}`, `{"anything": 1}`, `{}`},
	} {
		var errs map[string]string
		expr := `(() => { const f = widgetdDev.schemaform.formFields(` + c.schema + `); return widgetdDev.schemaform.fieldErrors(f, ` + c.values + `) })()`
		if err := p.eval(expr, &errs); err != nil {
			t.Fatal(err)
		}
		if got, _ := json.Marshal(errs); string(got) != c.want {
			t.Errorf("fieldErrors(%s) = %s, want %s", c.values, got, c.want)
		}
	}
	for _, c := range []struct{ kind, typed, want string }{
		{"integer", `"3"`, `3`}, {"number", `"2."`, `2`}, {"number", `"abc"`, `"abc"`}, {"number", `""`, `"dropped"`},
		{"string", `"Ada"`, `"Ada"`}, {"string", `""`, `"dropped"`}, {"boolean", `true`, `true`}, {"enum", `"F"`, `"F"`},
	} {
		if got := p.jsonOf(`JSON.stringify(widgetdDev.schemaform.coerce({name: "f", kind: "` + c.kind + `", required: false}, ` + c.typed + `) ?? "dropped")`); got != c.want {
			t.Errorf("coerce(%s, %s) = %s, want %s", c.kind, c.typed, got, c.want)
		}
	}
}
