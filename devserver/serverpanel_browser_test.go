package devserver

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/widgetd/widgetd/internal/exampleserver"
)

// TestServerPanelExampleServer drives the Server tab end to end in real
// Chromium against the real examples/mcpserver: the tools listed from the
// server; hello's generated form filled as a user types, its arguments
// called, the result shown with its timing and fed to the server's own
// widget (the local hello is edited to greet differently, so only the
// server's document shows "Hello, Grace!") whose _meta and CSP the
// Resource tab shows; then get-time called from the form, and the call its
// widget makes itself (the refresh button) answered by the server.
func TestServerPanelExampleServer(t *testing.T) {
	endpoint := exampleserver.Start(t)
	d := startDev(t, func(o *Options) { o.MCPURL = endpoint })
	d.edit(t, "hello/index.ts", func(s string) string { return strings.Replace(s, "`Hello, ${", "`Local, ${", 1) })
	if ev := d.nextBuild(t, 60*time.Second); !ev.OK {
		t.Fatalf("rebuild after the edit failed: %+v", ev.Diagnostics)
	}
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
