package bridge_test

import (
	"encoding/json"
	"strings"
	"testing"
)

var (
	toolInput  = map[string]any{"city": "Oslo"}
	toolResult = map[string]any{
		"content":           []any{map[string]any{"type": "text", "text": "3 degrees"}},
		"structuredContent": map[string]any{"temp": 3},
		"_meta":             map[string]any{"secret": "widget-only"},
	}
)

func eq(t *testing.T, what string, got, want any) {
	t.Helper()
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) {
		t.Errorf("%s = %s, want %s", what, g, w)
	}
}

// TestMCPAppsHost drives the widgetd API widget inside the real ext-apps
// AppBridge host, under the spec CSP served by cspgen.
func TestMCPAppsHost(t *testing.T) {
	t.Parallel()
	srv := serve(t)
	p := open(t, srv, "/mcp-host", "/w/api", map[string]any{"input": toolInput, "result": toolResult})

	t.Run("handshake", func(t *testing.T) {
		p := p.with(t)
		p.Wait(`hostLog.some(e => e.t == "initialized")`)
		inits := p.inMethods("ui/initialize")
		if len(inits) != 1 {
			t.Fatalf("got %d ui/initialize, want 1", len(inits))
		}
		params := inits[0]["params"].(map[string]any)
		eq(t, "protocolVersion", params["protocolVersion"], "2026-01-26")
		eq(t, "appInfo", params["appInfo"], map[string]any{"name": "api", "version": "1"})
		if _, ok := params["appCapabilities"].(map[string]any); !ok {
			t.Errorf("appCapabilities missing: %v", params)
		}
		if n := len(p.inMethods("ui/notifications/initialized")); n != 1 {
			t.Errorf("got %d initialized notifications, want 1", n)
		}
		eq(t, "AppBridge.getAppVersion()", p.HostLog("initialized")[0]["p"], map[string]any{"name": "api", "version": "1"})
	})

	t.Run("tool input and result render", func(t *testing.T) {
		p := p.with(t)
		p.Wait(W + `.document.getElementById("output").textContent != ""`)
		eq(t, "input", p.Str(W+`.document.getElementById("input").textContent`), `{"city":"Oslo"}`)
		eq(t, "output", p.Str(W+`.document.getElementById("output").textContent`), `{"temp":3}`)
		eq(t, "widget-only _meta", p.Str(W+`.document.getElementById("meta").textContent`), `{"secret":"widget-only"}`)
		var res map[string]any
		p.Eval(W+`.t.widget.toolResult`, &res)
		eq(t, "full result content", res["content"], toolResult["content"])
	})

	t.Run("inline escaping survives the pipeline", func(t *testing.T) {
		p := p.with(t)
		eq(t, "string in the inlined script", p.Str(W+`.t.tricky`), "</script><!--<script>")
		eq(t, "string in the inlined style", p.Str(W+`.getComputedStyle(`+W+`.document.body, "::after").content`), `"</style><!--"`)
	})

	t.Run("callTool", func(t *testing.T) {
		p := p.with(t)
		r := p.run(`w => w.callTool("add", {a: 1})`)
		eq(t, "result", r["ok"].(map[string]any)["structuredContent"], map[string]any{"tool": "add", "echo": map[string]any{"a": 1}})
		calls := p.HostLog("calltool")
		saw := calls[len(calls)-1]["p"].(map[string]any)
		meta, _ := saw["_meta"].(map[string]any)
		if token, ok := meta["progressToken"].(string); !ok || token == "" {
			t.Errorf("tools/call carries no _meta.progressToken: %v", saw)
		}
		delete(saw, "_meta")
		eq(t, "host saw", saw, map[string]any{"name": "add", "arguments": map[string]any{"a": 1}})
	})

	t.Run("actions", func(t *testing.T) {
		p := p.with(t)
		checkHostCalls(t, p, "host handler ", []hostCall{
			{`w => w.openLink("https://example.com/x")`, "openlink", map[string]any{"url": "https://example.com/x"}},
			{`w => w.sendMessage("hello")`, "message", map[string]any{"role": "user", "content": []any{map[string]any{"type": "text", "text": "hello"}}}},
			{`w => w.updateModelContext({structuredContent: {k: 1}})`, "modelcontext", map[string]any{"structuredContent": map[string]any{"k": 1}}},
			{`w => w.readResource("ui://widget/x")`, "readresource", map[string]any{"uri": "ui://widget/x"}},
		})
	})

	t.Run("requestDisplayMode", func(t *testing.T) {
		p := p.with(t)
		eq(t, "granted", p.run(`w => w.requestDisplayMode("fullscreen")`)["ok"], "fullscreen")
		eq(t, "host saw", p.HostLog("displaymode")[0]["p"], map[string]any{"mode": "fullscreen"})
		p.Wait(W + `.document.getElementById("mode").textContent == "fullscreen"`)
		r := p.run(`w => w.requestDisplayMode("pip")`)
		eq(t, "pip (not in availableDisplayModes) error", r["err"], "unsupported")
		eq(t, "instanceof WidgetdError", r["isWidgetdError"], true)
	})

	t.Run("unsupported features fail typed", func(t *testing.T) {
		p := p.with(t)
		eq(t, `requestDisplayMode("modal")`, p.run(`w => w.requestDisplayMode("modal")`)["err"], "unsupported")
		var s map[string]bool
		p.Eval(`Object.fromEntries(["callTool","openLink","state"].map(f => [f, `+W+`.t.widget.supports(f)]))`, &s)
		eq(t, "supports", s, map[string]bool{"callTool": true, "openLink": true, "state": true})
	})

	t.Run("size changes", func(t *testing.T) {
		p := p.with(t)
		p.Wait(`hostLog.some(e => e.t == "size")`)
		p.Eval(W+`.t.grow(900)`, nil)
		p.Wait(`hostLog.some(e => e.t == "size" && e.p.height >= 900)`)
		for _, m := range p.inMethods("ui/notifications/size-changed") {
			if _, ok := m["id"]; ok {
				t.Errorf("size-changed sent as a request: %v", m)
			}
		}
		p.Eval(W+`.t.widget.configure({autoResize: false})`, nil)
		n := len(p.HostLog("size"))
		p.Eval(W+`.t.grow(1500)`, nil)
		p.Eval(`new Promise(r => setTimeout(r, 300))`, nil)
		if m := len(p.HostLog("size")); m != n {
			t.Errorf("autoResize off still reported sizes: %d -> %d", n, m)
		}
		p.Eval(W+`.t.widget.configure({autoResize: true})`, nil)
		p.Wait(`hostLog.some(e => e.t == "size" && e.p.height >= 1500)`)
	})

	t.Run("theming", func(t *testing.T) {
		p := p.with(t)
		bg := W + `.getComputedStyle(` + W + `.document.body).backgroundColor`
		eq(t, "host variable applied", p.Str(bg), "rgb(250, 250, 250)")
		eq(t, "widget fallback kept", p.Str(W+`.getComputedStyle(`+W+`.document.getElementById("border")).borderTopColor`), "rgb(9, 9, 9)")
		eq(t, "color-scheme", p.Str(W+`.document.documentElement.style.colorScheme`), "light")
		p.Eval(`bridge.sendHostContextChange({theme: "dark", styles: {variables: {"--color-background-primary": "rgb(20, 20, 20)"}}})`, nil)
		p.Wait(W + `.document.documentElement.dataset.theme == "dark"`)
		eq(t, "restyled", p.Str(bg), "rgb(20, 20, 20)")
		eq(t, "color-scheme", p.Str(W+`.document.documentElement.style.colorScheme`), "dark")
		eq(t, "dropped variable falls back", p.Str(W+`.getComputedStyle(`+W+`.document.body).color`), "rgb(4, 5, 6)")
		eq(t, "event", p.Str(W+`.document.getElementById("theme").textContent`), "dark")
		// A context message that changes nothing keeps hostContext's identity.
		p.Eval(`(`+W+`.t.ctx = `+W+`.t.widget.hostContext, bridge.sendHostContextChange({theme: "dark"}), new Promise(r => setTimeout(r, 200)))`, nil)
		var same bool
		p.Eval(W+`.t.ctx === `+W+`.t.widget.hostContext`, &same)
		eq(t, "hostContext identity kept", same, true)
	})

	t.Run("state persists per tool call", func(t *testing.T) {
		p := p.with(t)
		if r := p.run(`w => w.setState({count: 2})`); r["err"] != nil {
			t.Fatal(r)
		}
		var keys []string
		p.Eval(`Object.keys(`+W+`.localStorage)`, &keys)
		if !strings.Contains(strings.Join(keys, ","), "widgetd:state:show:7") {
			t.Errorf("state key not keyed by toolInfo: %v", keys)
		}
	})

	t.Run("log", func(t *testing.T) {
		p := p.with(t)
		p.Eval(W+`.t.widget.log("info", {hello: 1})`, nil)
		p.Wait(`hostLog.some(e => e.t == "log")`)
		eq(t, "log", p.HostLog("log")[0]["p"], map[string]any{"level": "info", "data": map[string]any{"hello": 1}, "logger": "widgetd"})
	})

	t.Run("requestClose", func(t *testing.T) {
		p := p.with(t)
		p.run(`w => w.requestClose()`)
		p.Wait(`hostLog.some(e => e.t == "requestteardown")`)
	})

	t.Run("teardown", func(t *testing.T) {
		p := p.with(t)
		p.Eval(`bridge.teardownResource({})`, nil)
		eq(t, "onTeardown ran before the reply", p.Str(W+`.document.getElementById("torn").textContent`), "yes")
	})
}

// TestMCPStatePersistsAcrossReload reloads the widget document and reads the
// state back from storage keyed by the tool call.
func TestMCPStatePersistsAcrossReload(t *testing.T) {
	t.Parallel()
	srv := serve(t)
	p := open(t, srv, "/mcp-host", "/w/api", map[string]any{"input": toolInput, "result": toolResult})
	p.Wait(`hostLog.some(e => e.t == "initialized")`)
	if r := p.run(`w => w.setState({count: 5})`); r["err"] != nil {
		t.Fatal(r)
	}
	p.Eval(W+`.location.reload()`, nil)
	p.Wait(`hostLog.filter(e => e.t == "initialized").length == 2 && ` + W + `.t`)
	var st map[string]any
	p.Eval(W+`.t.run(async w => (await w.ready(), w.state))`, &st)
	eq(t, "state after reload", st["ok"], map[string]any{"count": 5})
}

// TestStateFromToolResult: a server that sends a previous state in the tool
// result's _meta["openai/widgetState"] gives the widget its state on both
// hosts, unless a saved state exists.
func TestStateFromToolResult(t *testing.T) {
	t.Parallel()
	srv := serve(t)
	withState := map[string]any{"content": []any{}, "structuredContent": map[string]any{"temp": 3}, "_meta": map[string]any{"openai/widgetState": map[string]any{"page": 2}}}

	p := open(t, srv, "/mcp-host", "/w/openai", map[string]any{"result": withState})
	p.Wait(W + `.document.getElementById("app").dataset.state == '{"page":2}'`)
	var ws any
	p.Eval(W+`.openai.widgetState`, &ws)
	eq(t, "window.openai.widgetState", ws, map[string]any{"page": 2})

	c := open(t, srv, "/chatgpt-host", "/w/api?host=chatgpt", map[string]any{"toolOutput": map[string]any{"temp": 3}, "toolResponseMetadata": withState["_meta"]})
	c.Wait(W + `.t`)
	eq(t, "state on ChatGPT", c.run(`w => w.getState()`)["ok"], map[string]any{"page": 2})

	saved := open(t, srv, "/chatgpt-host", "/w/api?host=chatgpt", map[string]any{"widgetState": map[string]any{"page": 5}, "toolResponseMetadata": withState["_meta"]})
	saved.Wait(W + `.t`)
	eq(t, "a saved state wins", saved.run(`w => w.getState()`)["ok"], map[string]any{"page": 5})
	p.NoErrors()
	c.NoErrors()
}
