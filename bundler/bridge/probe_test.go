package bridge_test

import (
	"strings"
	"testing"
)

// lateInit is the raw host's ui/initialize result when it answers late.
const lateInit = `{protocolVersion: "2026-01-26", hostInfo: {name: "late", version: "1"}, hostCapabilities: {serverTools: {}}, hostContext: {}}`

// openRawChatGPT opens the raw JSON-RPC host with window.openai in the widget
// frame (initial globals as given): a host that answers ui/* only when the
// test says so.
func openRawChatGPT(t *testing.T, widget, initial string) *page {
	t.Helper()
	srv := serve(t)
	p := &page{shared.Page(t)}
	p.Navigate(srv.URL + "/raw-host")
	p.Eval(`(window.chatgptHost = {log: [], initial: `+initial+`, tools: {}}, startHost("/w/`+widget+`?host=chatgpt"), 0)`, nil)
	return p
}

// TestAppAdapterLateHost: on a window.openai host that leaves the App's
// ui/initialize unanswered, the App adapter answers it over window.openai
// (without a probe of the bridge's own), and a host answer that comes later
// moves the App onto the host: the host gets ui/notifications/initialized,
// its notifications reach the App and the App's requests reach it.
func TestAppAdapterLateHost(t *testing.T) {
	t.Parallel()
	p := openRawChatGPT(t, "appclass", `{toolOutput: {temp: 3}}`)
	p.Wait(W + `.document.body.dataset.connected == "yes"`)
	p.Wait(W + `.document.getElementById("app").textContent == '{"temp":3}'`)
	var ids []any
	p.Eval(`rawLog.filter(m => m.method == "ui/initialize").map(m => m.id)`, &ids)
	eq(t, "only App's handshake reached the host", ids, []any{0.0})
	var r map[string]any
	p.Eval(W+`.app.callServerTool({name: "add", arguments: {a: 1}})`, &r)
	if len(p.HostLog("callTool")) != 1 {
		t.Fatalf("App's call before the host answered did not go over window.openai: %v", r)
	}
	// updateModelContext has no window.openai call; the adapter takes
	// OpenAI's documented fallback, setWidgetState({modelContent}).
	p.Eval(W+`.app.updateModelContext({structuredContent: {picked: "Oslo"}}).then(() => 0)`, nil)
	if set := p.HostLog("setWidgetState"); len(set) != 1 {
		t.Errorf("App's updateModelContext over window.openai: setWidgetState calls %v, want one", set)
	} else {
		eq(t, "modelContent", set[0]["p"], map[string]any{"modelContent": map[string]any{"picked": "Oslo"}})
	}

	p.Eval(`reply("ui/initialize", `+lateInit+`)`, nil)
	p.Wait(`rawLog.some(m => m.method == "ui/notifications/initialized")`)
	p.Eval(`toWidget({jsonrpc: "2.0", method: "ui/notifications/tool-result", params: {content: [], structuredContent: {temp: 9}}})`, nil)
	p.Wait(W + `.document.getElementById("app").textContent == '{"temp":9}'`)
	p.Eval(`(`+W+`.app.callServerTool({name: "add", arguments: {a: 2}}), 0)`, nil)
	p.Wait(`rawLog.some(m => m.method == "tools/call")`)
	if n := len(p.HostLog("callTool")); n != 1 {
		t.Errorf("window.openai.callTool called %d times, want 1 (the call after the answer goes to the host)", n)
	}
	p.NoErrors()
}

// TestProbeLateAnswer: under window.openai the bridge's own handshake goes
// out at load; unanswered, ready() settles soon (the widget goes on over
// window.openai), and an answer that comes later still opens the session,
// which the bridge then owns.
func TestProbeLateAnswer(t *testing.T) {
	t.Parallel()
	p := openRawChatGPT(t, "api", `{}`)
	p.Wait(`rawLog.some(m => m.method == "ui/initialize")`)
	r := p.run(`w => w.ready().then(() => w.hostInfo.name)`)
	eq(t, "ready() without an answer", r, map[string]any{"ok": "chatgpt"})

	p.Eval(`reply("ui/initialize", `+lateInit+`)`, nil)
	p.Wait(`rawLog.some(m => m.method == "ui/notifications/initialized")`)
	p.Wait(W + `.t.widget.hostInfo?.name == "late"`)
	p.Eval(`(`+W+`.t.widget.callTool("add", {}), 0)`, nil)
	p.Wait(`rawLog.some(m => m.method == "tools/call")`)
	if n := len(p.HostLog("callTool")); n != 0 {
		t.Errorf("window.openai.callTool called %d times, want 0 (the session offers serverTools)", n)
	}
	p.NoErrors()
}

// TestViewToolsDeclaredWhereBundled: a widget that bundles useViewTool
// declares view tools from import on (so a tool registered in an effect,
// after the handshake, is callable); one that uses other hooks carries none
// of that code.
func TestViewToolsDeclaredWhereBundled(t *testing.T) {
	out, err := buildProject("", "", scriptWidgets(map[string]string{
		"hooks":    `import { useToolOutput } from "widgetd/react"; (window as any).u = useToolOutput;`,
		"viewtool": `import { useViewTool } from "widgetd/react"; (window as any).u = useViewTool;`,
	}))
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range out.Manifest.Widgets {
		html := string(out.Files[w.HTML])
		if got, want := strings.Contains(html, `"tools/list"`), w.Name == "viewtool"; got != want {
			t.Errorf("widget %s carries the view tools' handlers: %v, want %v", w.Name, got, want)
		}
	}
	if len(out.Manifest.Widgets) != 2 {
		t.Fatalf("built %d widgets, want 2", len(out.Manifest.Widgets))
	}
}
