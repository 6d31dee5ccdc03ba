package bridge_test

import "testing"

// TestChatGPTHost drives the same widgetd API widget with window.openai
// provided by the host (chatgpt-apps.md §1) and no MCP Apps bridge at all.
func TestChatGPTHost(t *testing.T) {
	t.Parallel()
	srv := serve(t)
	p := open(t, srv, "/chatgpt-host", "/w/api?host=chatgpt", nil)
	p.Wait(W + `.t`)

	t.Run("host detected", func(t *testing.T) {
		p := p.with(t)
		eq(t, "host", p.Str(W+`.t.widget.host`), "chatgpt")
	})

	t.Run("tool input and result render", func(t *testing.T) {
		p := p.with(t)
		p.Eval(`chatgptHost.set({toolInput: {city: "Oslo"}, toolOutput: {temp: 3}, toolResponseMetadata: {secret: "widget-only"}})`, nil)
		p.Wait(W + `.document.getElementById("output").textContent != ""`)
		eq(t, "input", p.Str(W+`.document.getElementById("input").textContent`), `{"city":"Oslo"}`)
		eq(t, "output", p.Str(W+`.document.getElementById("output").textContent`), `{"temp":3}`)
		eq(t, "meta", p.Str(W+`.document.getElementById("meta").textContent`), `{"secret":"widget-only"}`)
	})

	t.Run("callTool", func(t *testing.T) {
		p := p.with(t)
		r := p.run(`w => w.callTool("add", {a: 1})`)
		eq(t, "result", r["ok"].(map[string]any)["structuredContent"], map[string]any{"tool": "add", "echo": map[string]any{"a": 1}})
		eq(t, "host saw", p.HostLog("callTool")[0]["p"], map[string]any{"name": "add", "args": map[string]any{"a": 1}})
	})

	t.Run("actions", func(t *testing.T) {
		p := p.with(t)
		checkHostCalls(t, p, "window.openai.", []hostCall{
			{`w => w.openLink("https://example.com/x")`, "openExternal", map[string]any{"href": "https://example.com/x"}},
			{`w => w.sendMessage("hello")`, "sendFollowUpMessage", map[string]any{"prompt": "hello"}},
			{`w => w.setState({count: 2})`, "setWidgetState", map[string]any{"count": 2}},
			{`w => w.requestClose()`, "requestClose", nil},
		})
		eq(t, "state read back", p.run(`w => w.state`)["ok"], map[string]any{"count": 2})
	})

	t.Run("requestDisplayMode", func(t *testing.T) {
		p := p.with(t)
		eq(t, "granted", p.run(`w => w.requestDisplayMode("fullscreen")`)["ok"], "fullscreen")
		p.Wait(W + `.document.getElementById("mode").textContent == "fullscreen"`)
	})

	t.Run("MCP-only features fail typed", func(t *testing.T) {
		p := p.with(t)
		for _, call := range []string{`w => w.readResource("ui://x")`, `w => w.downloadFile([])`} {
			eq(t, call, p.run(call)["err"], "unsupported")
		}
	})

	t.Run("size changes", func(t *testing.T) {
		p := p.with(t)
		p.Wait(`chatgptHost.log.some(e => e.t == "notifyIntrinsicHeight")`)
		p.Eval(W+`.t.grow(900)`, nil)
		p.Wait(`chatgptHost.log.some(e => e.t == "notifyIntrinsicHeight" && e.p >= 900)`)
	})

	t.Run("theming", func(t *testing.T) {
		p := p.with(t)
		p.Eval(`chatgptHost.set({theme: "dark"})`, nil)
		p.Wait(W + `.document.documentElement.dataset.theme == "dark"`)
		eq(t, "color-scheme", p.Str(W+`.document.documentElement.style.colorScheme`), "dark")
		eq(t, "widget CSS fallback kept", p.Str(W+`.getComputedStyle(`+W+`.document.body).backgroundColor`), "rgb(1, 2, 3)")
		eq(t, "event", p.Str(W+`.document.getElementById("theme").textContent`), "dark")
	})
}

// TestAppClassCompat: a widget using only the official App class, bundled
// with the bridge ahead of it, handshakes exactly once with the real AppBridge.
func TestAppClassCompat(t *testing.T) {
	t.Parallel()
	srv := serve(t)
	p := open(t, srv, "/mcp-host", "/w/appclass", map[string]any{"input": toolInput, "result": toolResult})
	p.Wait(W + `.document.body.dataset.connected == "yes"`)
	p.Wait(W + `.document.getElementById("app").textContent == '{"temp":3}'`)
	eq(t, "App saw input", p.Str(W+`.document.getElementById("app").dataset.input`), `{"city":"Oslo"}`)
	eq(t, "appInfo", p.HostLog("initialized")[0]["p"], map[string]any{"name": "appclass", "version": "1.2.3"})
	if n := len(p.inMethods("ui/initialize")); n != 1 {
		t.Errorf("got %d ui/initialize, want exactly 1", n)
	}
	p.Eval(`bridge.teardownResource({})`, nil) // answered by App alone
	eq(t, "App onteardown ran", p.Str(W+`.document.body.dataset.torn`), "yes")
	var ids []any
	p.Eval(`hostLog.filter(e => e.t == "in" && e.p.id !== undefined && typeof e.p.id == "string").map(e => e.p.id)`, &ids)
	if len(ids) != 0 {
		t.Errorf("bridge sent requests although never used: %v", ids)
	}
}

// TestMixedAppAndWidgetd: App and the widgetd API used together; the bridge
// adopts App's session (no second ui/initialize) and still works.
func TestMixedAppAndWidgetd(t *testing.T) {
	t.Parallel()
	srv := serve(t)
	p := open(t, srv, "/mcp-host", "/w/mixed", map[string]any{"input": toolInput, "result": toolResult})
	p.Wait(W + `.document.getElementById("app").dataset.widgetd == '{"temp":3}'`)
	p.Wait(W + `.document.getElementById("app").dataset.app == '{"temp":3}'`)
	if n := len(p.inMethods("ui/initialize")); n != 1 {
		t.Errorf("got %d ui/initialize, want exactly 1", n)
	}
	eq(t, "handshake by App", p.HostLog("initialized")[0]["p"], map[string]any{"name": "mixed", "version": "1.0.0"})
	var r map[string]any
	p.Eval(W+`.t.widget.callTool("add", {a: 2})`, &r)
	eq(t, "bridge callTool over App's session", r["structuredContent"], map[string]any{"tool": "add", "echo": map[string]any{"a": 2}})
	var appRes map[string]any
	p.Eval(W+`.t.app.callServerTool({name: "sub", arguments: {b: 1}})`, &appRes)
	eq(t, "App callServerTool still works", appRes["structuredContent"], map[string]any{"tool": "sub", "echo": map[string]any{"b": 1}})
}

// TestOpenAIWidgetOnMCPHost: a widget written only against window.openai
// renders its tool output on the real AppBridge through the polyfill.
func TestOpenAIWidgetOnMCPHost(t *testing.T) {
	t.Parallel()
	srv := serve(t)
	p := open(t, srv, "/mcp-host", "/w/openai", map[string]any{"input": toolInput, "result": toolResult})
	p.Wait(W + `.document.getElementById("app").textContent == '{"temp":3}'`)
	eq(t, "theme global", p.Str(W+`.document.getElementById("app").dataset.theme`), "light")
	var r map[string]any
	p.Eval(W+`.t.oa.callTool("add", {a: 3})`, &r)
	eq(t, "polyfilled callTool", r["structuredContent"], map[string]any{"tool": "add", "echo": map[string]any{"a": 3}})
	p.Eval(W+`.t.oa.sendFollowUpMessage({prompt: "more"})`, nil)
	eq(t, "sendFollowUpMessage", p.HostLog("message")[0]["p"], map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": "more"}}})
	p.Eval(W+`.t.oa.openExternal({href: "https://example.com/"})`, nil)
	p.Wait(`hostLog.some(e => e.t == "openlink")`)
	var mode map[string]any
	p.Eval(W+`.t.oa.requestDisplayMode({mode: "fullscreen"})`, &mode)
	eq(t, "requestDisplayMode", mode, map[string]any{"mode": "fullscreen"})
	p.Eval(W+`.t.oa.notifyIntrinsicHeight(777)`, nil)
	p.Wait(`hostLog.some(e => e.t == "size" && e.p.height == 777)`)
	p.Eval(W+`.t.oa.setWidgetState({n: 1})`, nil)
	p.Wait(W + `.document.getElementById("app").dataset.state == '{"n":1}'`)
	// Globals keep their identity until they change, and set_globals names
	// only what changed.
	p.Eval(`(() => { const w = `+W+`; w.t.seen = []; w.t.ua = w.openai.userAgent; w.t.view = w.openai.view;
		w.addEventListener("openai:set_globals", e => w.t.seen.push(Object.keys(e.detail.globals))); return 0; })()`, nil)
	p.Eval(`bridge.sendHostContextChange({theme: "dark"})`, nil)
	p.Wait(W + `.document.getElementById("app").dataset.theme == "dark"`)
	var seen [][]string
	p.Eval(W+`.t.seen`, &seen)
	eq(t, "set_globals keys on a theme change", seen, [][]string{{"theme"}})
	var same map[string]bool
	p.Eval(`(w => ({ua: w.t.ua === w.openai.userAgent, view: w.t.view === w.openai.view, reread: w.openai.safeArea === w.openai.safeArea}))(`+W+`)`, &same)
	eq(t, "identity kept", same, map[string]bool{"ua": true, "view": true, "reread": true})
	if n := len(p.inMethods("ui/initialize")); n != 1 {
		t.Errorf("got %d ui/initialize, want 1", n)
	}
}

// TestReactHooks renders a widgetd/react widget (React 19, StrictMode) on the
// real AppBridge host.
func TestReactHooks(t *testing.T) {
	t.Parallel()
	srv := serve(t)
	p := open(t, srv, "/mcp-host", "/w/react", map[string]any{"input": toolInput, "result": toolResult})
	p.Wait(W + `.document.getElementById("output")?.textContent == '{"temp":3}'`)
	eq(t, "useToolInput", p.Str(W+`.document.getElementById("input").textContent`), `{"city":"Oslo"}`)
	eq(t, "useTheme", p.Str(W+`.document.getElementById("theme").textContent`), "light")
	eq(t, "useDisplayMode", p.Str(W+`.document.getElementById("mode").textContent`), "inline")
	p.Eval(W+`.t.setCount(c => c + 2)`, nil)
	p.Wait(W + `.document.getElementById("count").textContent == "2"`)
	p.Eval(W+`.t.call({a: 4})`, nil)
	p.Wait(W + `.document.getElementById("call").textContent == '{"tool":"add","echo":{"a":4}}'`)
	p.Eval(`bridge.sendHostContextChange({theme: "dark", displayMode: "fullscreen"})`, nil)
	p.Wait(W + `.document.getElementById("theme").textContent == "dark" && ` + W + `.document.getElementById("mode").textContent == "fullscreen"`)
	if n := len(p.inMethods("ui/initialize")); n != 1 {
		t.Errorf("got %d ui/initialize under StrictMode, want 1", n)
	}
	// useViewTool: the host lists and calls the tool; the latest render's handler answers.
	var r map[string]any
	p.Eval(`callView("read-count", {})`, &r)
	eq(t, "view tool result", r["content"], []any{map[string]any{"type": "text", "text": "2"}})
	eq(t, "listed once (StrictMode re-ran the effect)", p.HostLog("viewtools")[0]["p"], []any{"read-count"})
}
