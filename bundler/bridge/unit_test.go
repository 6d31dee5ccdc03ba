package bridge_test

import (
	"strings"
	"testing"
)

// rawSession opens the api widget under the hand-driven raw host and
// completes the handshake by hand.
func rawSession(t *testing.T) *page {
	t.Helper()
	srv := serve(t)
	p := open(t, srv, "/raw-host", "/w/api", nil)
	p.Wait(W + `.t`)
	p.Eval(W+`.t.widget.ready().catch(() => {}), 0`, nil) // first use starts the handshake at once
	p.Wait(`rawLog.some(m => m.method == "ui/initialize")`)
	p.Eval(`reply("ui/initialize", {protocolVersion: "2026-01-26", hostInfo: {name: "raw", version: "0"}, hostCapabilities: {serverTools: {}}, hostContext: {theme: "light"}})`, nil)
	p.Wait(`rawLog.some(m => m.method == "ui/notifications/initialized")`)
	return p
}

// TestBridgeUnits exercises the JSON-RPC core against a host driven by hand.
func TestBridgeUnits(t *testing.T) {
	t.Parallel()
	p := rawSession(t)

	t.Run("request ids never collide with numeric App ids", func(t *testing.T) {
		p := p.with(t)
		var ids []any
		p.Eval(`rawLog.filter(m => m.id !== undefined).map(m => m.id)`, &ids)
		for _, id := range ids {
			if s, ok := id.(string); !ok || !strings.HasPrefix(s, "wd") {
				t.Errorf("request id %v is not a bridge string id", id)
			}
		}
	})

	t.Run("responses correlate by id out of order", func(t *testing.T) {
		p := p.with(t)
		p.Eval(`(`+W+`.t.a = `+W+`.t.widget.callTool("a", {}), `+W+`.t.b = `+W+`.t.widget.callTool("b", {}), 0)`, nil)
		p.Wait(`rawLog.filter(m => m.method == "tools/call").length == 2`)
		p.Eval(`(() => { const c = rawLog.filter(m => m.method == "tools/call");
			toWidget({jsonrpc: "2.0", id: c[1].id, result: {structuredContent: {for: c[1].params.name}}});
			toWidget({jsonrpc: "2.0", id: c[0].id, result: {structuredContent: {for: c[0].params.name}}}); })()`, nil)
		var got []any
		p.Eval(`Promise.all([`+W+`.t.a, `+W+`.t.b]).then(r => r.map(x => x.structuredContent.for))`, &got)
		eq(t, "results", got, []any{"a", "b"})
	})

	t.Run("host error becomes typed error", func(t *testing.T) {
		p := p.with(t)
		p.Eval(`(`+W+`.t.e = `+W+`.t.run(w => w.callTool("boom", {})), 0)`, nil)
		p.Wait(`rawLog.some(m => m.params?.name == "boom")`)
		p.Eval(`toWidget({jsonrpc: "2.0", id: rawLog.find(m => m.params?.name == "boom").id, error: {code: -32000, message: "kaput"}})`, nil)
		var r map[string]any
		p.Eval(W+`.t.e`, &r)
		eq(t, "code", r["err"], "host")
		eq(t, "feature", r["feature"], "tools/call")
	})

	// Short timeouts only where a timeout is the point: the other cases
	// answer by hand, which a busy machine may delay past any short limit.
	t.Run("timeout", func(t *testing.T) {
		p := p.with(t)
		r := p.run(`w => (w.configure({timeout: 300}), w.callTool("never", {}).finally(() => w.configure({timeout: 30000})))`)
		eq(t, "code", r["err"], "timeout")
		if !strings.Contains(r["msg"].(string), "300 ms") {
			t.Errorf("timeout message %q does not say the configured limit", r["msg"])
		}
		// A late answer after the timeout is ignored, not thrown.
		p.Eval(`toWidget({jsonrpc: "2.0", id: rawLog.find(m => m.params?.name == "never").id, result: {}})`, nil)
		r = p.run(`w => w.callTool("never2", {}, {timeout: 200})`)
		eq(t, "per-call code", r["err"], "timeout")
		if !strings.Contains(r["msg"].(string), "200 ms") {
			t.Errorf("timeout message %q does not say the per-call limit", r["msg"])
		}
	})

	t.Run("progress restarts a tool call's timeout", func(t *testing.T) {
		p := p.with(t)
		p.Eval(`(`+W+`.t.slow = `+W+`.t.run(w => w.callTool("slow", {}, {timeout: 1500})), 0)`, nil)
		p.Wait(`rawLog.some(m => m.params?.name == "slow")`)
		var token string
		p.Eval(`rawLog.find(m => m.params?.name == "slow").params._meta.progressToken`, &token)
		if token == "" {
			t.Fatal("tools/call carries no _meta.progressToken")
		}
		// Beat every 300 ms for 3 s, twice the timeout, then answer.
		p.Eval(`new Promise(done => { let n = 0; const beat = setInterval(() => {
			toWidget({jsonrpc: "2.0", method: "notifications/progress", params: {progressToken: `+js(token)+`, progress: ++n}});
			if (n == 10) { clearInterval(beat); toWidget({jsonrpc: "2.0", id: `+js(token)+`, result: {structuredContent: {done: n}}}); done(); }
		}, 300); })`, nil)
		var r map[string]any
		p.Eval(W+`.t.slow`, &r)
		if r["err"] != nil || r["ok"].(map[string]any)["structuredContent"].(map[string]any)["done"] != float64(10) {
			t.Errorf("slow call with progress = %v, want its answer", r)
		}
	})

	t.Run("unknown and malformed messages are ignored", func(t *testing.T) {
		p := p.with(t)
		for _, m := range []string{`"just a string"`, `{hello: 1}`, `{jsonrpc: "1.0", method: "ui/notifications/tool-result", params: {structuredContent: {bad: 1}}}`,
			`{jsonrpc: "2.0", method: "ui/notifications/unknown", params: {}}`, `{jsonrpc: "2.0", id: "nobody", result: {}}`, `null`} {
			p.Eval(`toWidget(`+m+`)`, nil)
		}
		p.Eval(`toWidget({jsonrpc: "2.0", id: 99, method: "ui/unknown-request", params: {}})`, nil)
		p.Wait(`rawLog.some(m => m.id == 99 && m.error)`)
		var e map[string]any
		p.Eval(`rawLog.find(m => m.id == 99).error`, &e)
		eq(t, "method not found code", e["code"], -32601)
		p.Eval(`toWidget({jsonrpc: "2.0", id: 100, method: "ping"})`, nil)
		p.Wait(`rawLog.some(m => m.id == 100 && m.result)`)
		eq(t, "output untouched", p.Str(W+`.document.getElementById("output").textContent`), "")
	})

	t.Run("wrong event.source is ignored", func(t *testing.T) {
		p := p.with(t)
		bad := `{jsonrpc: "2.0", method: "ui/notifications/tool-result", params: {structuredContent: {evil: 1}}}`
		p.Eval(`fromSibling(`+bad+`)`, nil)
		p.Eval(W+`.postMessage(`+bad+`, "*")`, nil)
		p.Eval(`toWidget({jsonrpc: "2.0", method: "ui/notifications/tool-result", params: {structuredContent: {good: 1}}})`, nil)
		p.Wait(W + `.document.getElementById("output").textContent != ""`)
		eq(t, "only the parent's message rendered", p.Str(W+`.document.getElementById("output").textContent`), `{"good":1}`)
	})
}

// TestSessionAtLoad: a widget that never calls the API still starts the
// session at load, and an App-class widget's own handshake is adopted (no
// second ui/initialize; the bridge waits for it, at most adoptWait).
func TestSessionAtLoad(t *testing.T) {
	t.Parallel()
	srv := serve(t)
	p := open(t, srv, "/raw-host", "/w/static", nil)
	p.Wait(`rawLog.some(m => m.method == "ui/initialize")`)
	p.Eval(`reply("ui/initialize", {protocolVersion: "2026-01-26", hostInfo: {name: "raw", version: "0"}, hostCapabilities: {}, hostContext: {}})`, nil)
	p.Wait(`rawLog.some(m => m.method == "ui/notifications/size-changed")`)
	p.Wait(`rawLog.some(m => m.method == "ui/notifications/initialized")`)

	// The host answers App's handshake at once (from the page, so a busy
	// test machine cannot delay it past adoptWait).
	p2 := &page{shared.Page(t)}
	p2.Navigate(srv.URL + "/raw-host")
	p2.Eval(`(autoInit = {protocolVersion: "2026-01-26", hostInfo: {name: "raw", version: "0"}, hostCapabilities: {}, hostContext: {}}, startHost("/w/appclass"), 0)`, nil)
	p2.Wait(`rawLog.some(m => m.method == "ui/notifications/initialized")`)
	p2.Eval(`new Promise(r => setTimeout(r, 600))`, nil) // longer than adoptWait
	var ids []any
	p2.Eval(`rawLog.filter(m => m.method == "ui/initialize").map(m => m.id)`, &ids)
	eq(t, "only App's numeric-id handshake", ids, []any{0})
	p.NoErrors()
}
